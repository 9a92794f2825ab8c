"""Offsets of the flat integer arrays the 11 de Setembre kernels share.

``P_*`` index the parameter vector built from the rules (``rules.assault_params``);
``O_*`` index one row of the assault scenario's output table.
"""

# Terrain of the defending zone (rulebook 11.1, 11.3, 12): index -> defence bonus
TERRAIN_NAMES = ("open", "urban", "convent", "blue_line", "barricade")
TERRAIN_BONUS = (0, 2, 3, 3, 3)

# Parameter vector of the assault scenario
P_MAX_TURNS = 0
P_BREACH_ROLL = 1
P_GUNS_ADJACENT = 2
P_GUNS_RANGE_2 = 3
P_SALVO_UNITS = 4
P_ATTACKER_LEAD = 5
P_ATTACKER_UNITS = 6
P_ATTACKER_COMMANDER = 7
P_DEFENDER_LEAD = 8
P_DEFENDER_UNITS = 9
P_TERRAIN_BONUS = 10
P_DEFENDER_COMMANDER = 11
P_FLAG = 12
P_WITHDRAWAL_BONUS = 13
N_PARAMS = 14

# Policy id slots (one per side, in ASSAULT.sides order)
SIDE_BOURBONS = 0
SIDE_CATALANS = 1

# Output row of one assault scenario
O_WINNER = 0
O_END_REASON = 1
O_TURNS = 2
O_BREACH_TURN = 3
O_ARTILLERY_KILLS = 4
O_SALVO_KILLS = 5
O_DEFENDERS_ASSAULTED = 6
O_ATTACK_VALUE = 7
O_DEFENCE_VALUE = 8
O_ATTACK_ROLL = 9
O_DEFENCE_ROLL = 10
O_WITHDREW = 11
O_ATTACKER_LEAD_LOST = 12
O_DEFENDER_LEAD_LOST = 13
O_ATTACKER_COMMANDER_LOST = 14
O_DEFENDER_COMMANDER_LOST = 15
N_OUT = 16

# Categories (codes are positions)
WINNERS = ("bourbons", "catalans")
WIN_BOURBONS = 0
WIN_CATALANS = 1

END_REASONS = ("taken", "withdrew", "cleared", "repulsed", "breach_closed")
END_TAKEN = 0
END_WITHDREW = 1
END_CLEARED = 2
END_REPULSED = 3
END_BREACH_CLOSED = 4

# Trace event codes
EV_BREACH_CHECK = 1  # a = turn, b = die, c = assured (0/1)
EV_ARTILLERY = 2  # a = gun range (1/2), b = die, c = hit (0/1)
EV_SALVO = 3  # a = units firing, b = sixes, c = kills
EV_ZONE_CLEARED = 4
EV_ASSAULT_VALUES = 5  # a = attack value, b = defence value, c = withdrawal (0/1)
EV_ASSAULT_ROLL = 6  # a = attack die, b = defence die, c = attacker wins (0/1)
EV_COMMANDER_ROLL = 7  # a = side slot, b = die, c = eliminated (0/1)
EV_BREACH_NEVER = 8  # a = turns played
