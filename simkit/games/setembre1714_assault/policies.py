"""Scripted choices for the assault scenario, selected by integer id inside the kernel.

Bourbons: ``assault`` (the scenario's script: fire every gun, fire the salvo, assault).
Catalans: the one free choice of rulebook 11.3, whether to declare a withdrawal after the
modifiers are known and before the dice.
"""

from numba import njit

from simkit.layout import codes

BOURBON_POLICIES = {
    "assault": "fire every gun and the salvo, then assault with the lead and all units",
}

CATALAN_POLICIES = {
    "stand": "never withdraw: hold the zone or lose the lead trying",
    "withdraw": "always declare a withdrawal (+2, no losses, the zone is given up)",
    "cautious": "withdraw only when the attacker's value before the dice is higher",
}

# a policy's id is its position in its side's table (the order the Game lists them)
(ASSAULT,) = codes(tuple(BOURBON_POLICIES))
STAND, WITHDRAW, CAUTIOUS = codes(tuple(CATALAN_POLICIES))


@njit(cache=True, nogil=True)
def catalans_withdraw(policy_id, attack_value, defence_value):
    """Does the defender declare a withdrawal? (values before dice, without the +2)"""
    if policy_id == WITHDRAW:
        return True
    if policy_id == CAUTIOUS:
        return attack_value > defence_value
    return False
