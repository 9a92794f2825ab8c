"""The assault scenario's flat arrays: every offset and code, one home each.

``P_*`` index the parameter vector built from the rules (``rules.PARAMETERS``), ``W_*``
each side's row of the policy array (``rules.POLICY_ROWS``);
``OUTCOMES`` declares the scenario's result columns, and the kernel's ``O_*`` offsets
are derived from it; ``STREAMS`` names the random streams (``simkit.rng``): the combat
system's dice streams, nothing more.
"""

from simkit.games.base import Column, Outcomes
from simkit.layout import Fields, codes

from . import combat_system as CS

# Terrain of the defending zone (rulebook 11.1, 11.3, 12): index -> defence bonus
TERRAIN_NAMES = ("open", "urban", "convent", "blue_line", "barricade")
TERRAIN_BONUS = (0, 2, 3, 3, 3)
TERRAIN_OPEN, TERRAIN_URBAN, TERRAIN_CONVENT, TERRAIN_BLUE_LINE, TERRAIN_BARRICADE = codes(
    TERRAIN_NAMES)
# the zone's own defence value (11.1): a blue line or a barricade stands in an ochre zone
TERRAIN_DEFENCE = (0, 2, 3, 0, 0)
SALVO_ZONES = ("open", "urban", "convent")  # the firing zone: ochre/green, grey, blue
SALVO_ZONE_DEFENCE = (0, 2, 3)
STACKING_LIMIT = 5  # rule 6.1: combat units a side may stack in the defended zone

# -- parameter vector of the assault scenario ------------------------------------------------
_P = Fields("assault parameters")
P_MAX_TURNS = _P("max_turns")
P_BREACH_ROLL = _P("breach_roll")
P_GUNS_ADJACENT = _P("guns_adjacent")
P_GUNS_RANGE_2 = _P("guns_at_range_2")
P_SALVO_UNITS = _P("salvo_units")
P_SALVO_FROM = _P("salvo_from")  # the firing zone's defence value (11.1)
P_BLUE_LINE_COVERS_SALVO = _P("blue_line_covers_salvo")
P_TERRAIN = _P("terrain")  # a TERRAIN_NAMES code
P_ATTACKER_LEAD = _P("attacker_lead")
P_ATTACKER_UNITS = _P("attacker_units")
P_ATTACKER_COMMANDER = _P("attacker_commander")
P_DEFENDER_LEAD = _P("defender_lead")
P_DEFENDER_OTHERS = _P("defender_others")
P_DEFENDER_UNITS = _P("defender_units")
P_TERRAIN_BONUS = _P("terrain_bonus")
P_DEFENDER_COMMANDER = _P("defender_commander")
P_FLAG = _P("santa_eulalia_flag")
P_WITHDRAWAL_BONUS = _P("withdrawal_bonus")
N_PARAMS = _P.size
# -- a side's row of the kernel's ``pol`` (rules.POLICY_ROWS): its policy's id, then the
# weights of its policy (a field another policy of the side has stays 0, unread)
_W = Fields("assault policy weights")
W_ID = _W("policy")
W_SPARE_COMMANDER_FROM = _W("spare_commander_from")  # the Bourbons' ``assault``
W_WITHDRAW_ABOVE = _W("withdraw_above")  # the Catalans' ``cautious``
N_W = _W.size

# -- sides (policy id slots, in the Game's ``sides`` order): the combat system's -------------
SIDES = CS.SIDES
SIDE_BOURBONS, SIDE_CATALANS = CS.SIDE_BOURBONS, CS.SIDE_CATALANS

# -- random streams: the combat system's dice, one stream per kind of die (the breach die
# restarts every turn, rule 7, keyed on the turn number)
STREAMS = CS.DICE_STREAMS
ST_BREACH, ST_ARTILLERY, ST_SALVO, ST_ASSAULT, ST_COMMANDER = codes(STREAMS)
N_STREAMS = len(STREAMS)

# -- categories (codes are positions) --------------------------------------------------------
WINNERS = SIDES
WIN_BOURBONS, WIN_CATALANS = codes(WINNERS)

END_REASONS = ("taken", "withdrew", "cleared", "repulsed", "breach_closed")
END_TAKEN, END_WITHDREW, END_CLEARED, END_REPULSED, END_BREACH_CLOSED = codes(END_REASONS)

# -- the assault scenario's outcome columns (the kernel writes them all) ----------------------
_BOOL = "bool"
OUTCOMES = Outcomes({
    "winner": Column("category", "who holds the zone at the end", WINNERS),
    "end_reason": Column(
        "category", "taken (defender's lead eliminated), withdrew (defenders retreated), "
        "cleared (fire left no defender), repulsed (attacker's lead eliminated), "
        "breach_closed (the Royal Breach was never assured)", END_REASONS),
    "turns": Column("int16", "Bourbon turn of the assault (max_turns if it never came)"),
    "breach_turn": Column("int16", "turn the Royal Breach was assured (0: never)"),
    "artillery_kills": Column("int8", "defenders eliminated by artillery"),
    "salvo_kills": Column("int8", "defenders eliminated by the salvo"),
    "defenders_assaulted": Column("int8", "defenders in the zone when assaulted"),
    "attack_value": Column("int16", "attacker's assault value before the die"),
    "defence_value": Column("int16", "defender's value before the die, withdrawal included"),
    "attack_roll": Column("int8", "attacker's die (0: no assault)"),
    "defence_roll": Column("int8", "defender's die (0: no assault)"),
    "withdrew": Column(_BOOL, "the defenders declared a withdrawal"),
    "attacker_lead_lost": Column(_BOOL, "the attacking lead unit was eliminated"),
    "defender_lead_lost": Column(_BOOL, "the defending lead unit was eliminated"),
    "attacker_commander_lost": Column(_BOOL, "the Bourbon commander died (a 6)"),
    "defender_commander_lost": Column(_BOOL, "the Catalan commander died (a 6)"),
})
O_WINNER = OUTCOMES.offset("winner")
O_END_REASON = OUTCOMES.offset("end_reason")
O_TURNS = OUTCOMES.offset("turns")
O_BREACH_TURN = OUTCOMES.offset("breach_turn")
O_ARTILLERY_KILLS = OUTCOMES.offset("artillery_kills")
O_SALVO_KILLS = OUTCOMES.offset("salvo_kills")
O_DEFENDERS_ASSAULTED = OUTCOMES.offset("defenders_assaulted")
O_ATTACK_VALUE = OUTCOMES.offset("attack_value")
O_DEFENCE_VALUE = OUTCOMES.offset("defence_value")
O_ATTACK_ROLL = OUTCOMES.offset("attack_roll")
O_DEFENCE_ROLL = OUTCOMES.offset("defence_roll")
O_WITHDREW = OUTCOMES.offset("withdrew")
O_ATTACKER_LEAD_LOST = OUTCOMES.offset("attacker_lead_lost")
O_DEFENDER_LEAD_LOST = OUTCOMES.offset("defender_lead_lost")
O_ATTACKER_COMMANDER_LOST = OUTCOMES.offset("attacker_commander_lost")
O_DEFENDER_COMMANDER_LOST = OUTCOMES.offset("defender_commander_lost")
N_OUT = OUTCOMES.size

# -- state checks (simkit.checks): the invariants ``checks.check_state`` asserts, in the
# rulebook's words, and the rule steps after which the kernel checks them --------------------
INVARIANTS = (
    "turn and breach on their tracks",  # 7: a check each Bourbon turn until assured
    "defenders conserved",  # 9, 11.2, 11.3: in the zone, eliminated or retreated
    "stacking limit",  # 6.1: at most 5 defenders in the zone
    "one shot per gun",  # 9: each gun fires once at one combat unit
    "one die per firing unit",  # 11.2: each 6 eliminates one defender
    "assault values",  # 11.3 (and 13): lead, units, terrain, commanders, withdrawal
    "assault result",  # 11.3: a die each, the attacker wins only if higher
    "zone control follows the occupants",  # 11.3: who holds the zone at the end
    "commander casualties",  # 11.3: a die for each commander involved
)
(INV_TRACKS, INV_DEFENDERS, INV_STACKING, INV_GUNS, INV_SALVO, INV_VALUES, INV_RESULT,
 INV_CONTROL, INV_COMMANDERS) = codes(INVARIANTS)
STEPS = ("set-up", "Royal Breach check", "artillery fire phase", "salvo fire", "assault",
         "end of the scenario")
(STEP_SET_UP, STEP_BREACH, STEP_ARTILLERY, STEP_SALVO, STEP_ASSAULT,
 STEP_END) = codes(STEPS)
