"""Scripted choices for the assault scenario, selected by their id in the side's row.

Rulebook 11.3 leaves each side one choice before the dice: "Each side adds up the possible
modifiers to its basic assault value deciding, if it is possible, the use of a commander.
Afterwards the defender can declare a withdrawal."

Bourbons: ``assault`` (the scenario's script: fire every gun, fire the salvo, assault),
using the commander ("the player can choose not to use any commander in the assault ...
in order not to risk him") unless the attack already leads by ``spare_commander_from``.
Catalans: whether to declare a withdrawal after the modifiers are known; ``cautious``
withdraws when the attack leads by more than ``withdraw_above``. The weights are
``rules.AssaultWeights`` and ``rules.CautiousWeights``; each function takes its side's
row of the kernel's ``pol`` (the policy's id, then its weights: ``rules.POLICY_ROWS``).
"""

from numba import njit

from simkit.layout import codes

from . import layout as L

BOURBON_POLICIES = {
    "assault": "fire every gun and the salvo, then assault with the lead and all units, "
               "the commander too unless the attack already leads by spare_commander_from",
}

CATALAN_POLICIES = {
    "stand": "never withdraw: hold the zone or lose the lead trying",
    "withdraw": "always declare a withdrawal (+2, no losses, the zone is given up)",
    "cautious": "withdraw only when the attacker's value before the dice leads by more "
                "than withdraw_above (default 0: is higher)",
}

# a policy's id is its position in its side's table (the order the Game lists them)
(ASSAULT,) = codes(tuple(BOURBON_POLICIES))
STAND, WITHDRAW, CAUTIOUS = codes(tuple(CATALAN_POLICIES))


@njit(cache=True, nogil=True)
def bourbons_use_commander(p, w, attack_value, defence_value):
    """Does the Bourbon commander adjacent (if any) join the assault? (values before the
    dice, the attack without him, the defence without a withdrawal; ``w`` the Bourbons'
    row of ``pol``)"""
    return bool(p[L.P_ATTACKER_COMMANDER]) and \
        attack_value - defence_value < w[L.W_SPARE_COMMANDER_FROM]


@njit(cache=True, nogil=True)
def catalans_withdraw(w, attack_value, defence_value):
    """Does the defender declare a withdrawal? (values before dice, without the +2; ``w``
    the Catalans' row of ``pol``)"""
    if w[L.W_ID] == WITHDRAW:
        return True
    if w[L.W_ID] == CAUTIOUS:
        return attack_value - defence_value > w[L.W_WITHDRAW_ABOVE]
    return False
