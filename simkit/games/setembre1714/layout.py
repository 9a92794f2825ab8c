"""The flat arrays of the whole game (``setembre1714``): every offset and code, one home each.

The side codes and the first five random streams are the combat system's
(``setembre1714_assault.combat_system``: its rule functions roll from ``ST_ARTILLERY``
and friends); the whole game adds its own streams after them.

Capacities (``MAX_*``) bound the data files (``components.py`` refuses a file beyond
them), so no offset depends on a data file and numba's cache never goes stale when a
designer edits one.
"""

from simkit.games.base import Column, Outcomes
from simkit.games.setembre1714_assault import combat_system as CS
from simkit.layout import Fields, codes

# -- capacities the data files are checked against ----------------------------------------------
MAX_ZONES = 48
MAX_UNITS = 128
MAX_LEADERS = 12
MAX_GUNS = 24
MAX_BARRICADES = 8
MAX_CARDS = 40
MAX_TURNS = 30

# -- sides: the combat system's codes ------------------------------------------------------------
SIDES = CS.SIDES
BOURBONS, CATALANS = CS.SIDE_BOURBONS, CS.SIDE_CATALANS

# -- map: zone colours (11.1) and side lines (2.2.1) ----------------------------------------------
COLOURS = ("ochre", "green", "grey", "blue")
OCHRE, GREEN, GREY, BLUE = codes(COLOURS)
COLOUR_DEFENCE = (0, 0, 2, 3)  # rulebook 11.1
LINES = ("no_side", "none", "blue", "red", "breach", "royal_breach")
NO_SIDE, LINE_NONE, LINE_BLUE, LINE_RED, LINE_BREACH, LINE_ROYAL = codes(LINES)

# -- the columns of the static components (components.Board): one 2-D array per kind of piece
ZONE_COLUMNS = ("colour", "deployment", "reinforcement", "objective", "behind_royal_breach")
Z_COLOUR, Z_DEPLOYMENT, Z_REINFORCEMENT, Z_OBJECTIVE, Z_BEHIND_BREACH = codes(ZONE_COLUMNS)
PAIR_TABLES = ("line", "blue", "gun_range")  # zone x zone
PAIR_LINE, PAIR_BLUE, PAIR_RANGE = codes(PAIR_TABLES)
UNIT_COLUMNS = ("side", "strength", "start", "arrives")
U_SIDE, U_STRENGTH, U_START, U_ARRIVES = codes(UNIT_COLUMNS)
LEADER_COLUMNS = ("side", "flag", "start", "arrives")
L_SIDE, L_FLAG, L_START, L_ARRIVES = codes(LEADER_COLUMNS)
GUN_COLUMNS = ("side", "start")
G_SIDE, G_START = codes(GUN_COLUMNS)
BARRICADE_COLUMNS = ("start", "faces")
BR_START, BR_FACES = codes(BARRICADE_COLUMNS)
CARD_COLUMNS = ("effect", "value")  # card x side x column
C_EFFECT, C_VALUE = codes(CARD_COLUMNS)

# -- the objectives of section 13 (printed), in the order of the rulebook -------------------------
OBJECTIVES = ("bastion_migdia", "bastion_llevant", "bastion_santa_clara", "bastion_portal_nou",
              "bastion_jonqueres", "redoubt_santa_eulalia", "monastery_sant_pere",
              "convent_santa_clara", "convent_sant_agusti", "convent_jonqueres",
              "convent_santa_caterina", "pla_de_palau")
N_OBJECTIVES = len(OBJECTIVES)
OBJECTIVE_KINDS = ("bastion", "convent", "palau")  # VP class: 2, 4, 4 (rulebook 13)
OBJ_BASTION, OBJ_CONVENT, OBJ_PALAU = codes(OBJECTIVE_KINDS)
OBJECTIVE_KIND = (0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2)  # redoubt scores as a bastion
PALAU = OBJECTIVES.index("pla_de_palau")

# -- event-card effects (data/events.toml) ---------------------------------------------------------
EFFECTS = ("none", "breach", "no_artillery", "double_artillery", "movement", "salvo",
           "assault", "reinforce")
(EFF_NONE, EFF_BREACH, EFF_NO_ARTILLERY, EFF_DOUBLE_ARTILLERY, EFF_MOVEMENT, EFF_SALVO,
 EFF_ASSAULT, EFF_REINFORCE) = codes(EFFECTS)
EVENT_VALUES = (-3, 6)  # the numbers a card may give (reconstruction's range)

# -- piece positions: a zone index, or one of these ---------------------------------------------
NOT_ARRIVED = -1
ELIMINATED = -2  # Bourbon combat units may be recreated from here (10.1)
LOST = -3  # beyond the recovery allowance: out of the game

# -- random streams: the combat system's five dice first (its rule functions roll from them),
# then the deck and each side's policy. Dice streams restart every half-turn (2 * turn +
# side), the breach die every turn (combat_system.royal_breach_check), the deck once at
# set-up.
STREAMS = CS.DICE_STREAMS + ("events", "bourbon_policy", "catalan_policy")
(ST_BREACH, ST_ARTILLERY, ST_SALVO, ST_ASSAULT, ST_COMMANDER, ST_EVENTS, ST_BOURBON_POLICY,
 ST_CATALAN_POLICY) = codes(STREAMS)
N_STREAMS = len(STREAMS)
assert (ST_BREACH, ST_COMMANDER) == (CS.ST_BREACH, CS.ST_COMMANDER)

# -- parameter vector (rules.PARAMETERS) ------------------------------------------------------
_P = Fields("full-game parameters")
P_TURNS = _P("turns")
P_BREACH_ROLL = _P("breach_roll")
P_EVENTS = _P("events")
P_STACKING = _P("stacking_limit")
P_MOVEMENT = _P("movement")
P_ZONE_DEFENCE = _P("zone_defence", len(COLOURS))
P_LINE_BONUS = _P("blue_line_bonus")
P_BARRICADE_BONUS = _P("barricade_bonus")
P_BARRICADES = _P("barricades")
P_FLAG = _P("santa_eulalia_flag")
P_WITHDRAWAL_BONUS = _P("withdrawal_bonus")
P_RECOVERY_PERCENT = _P("bourbon_recovery_percent")
P_CATALAN_REINFORCEMENTS = _P("catalan_reinforcements")
P_BREACH_CARDS = _P("breach_cards")
P_VP_UNIT = _P("vp_unit")
P_VP_COMMANDER = _P("vp_commander")
P_VP_OBJECTIVE = _P("vp_objective", len(OBJECTIVE_KINDS))
P_EXTRA_TURN = _P("extra_turn")
P_ADVANCED_ATTACK = _P("advanced_units_attack")  # 1: "yes"
P_RECREATED_SCORE = _P("recreated_units_score")  # 1: "yes"
P_DECK_RESHUFFLED = _P("exhausted_deck")  # 1: "reshuffle"
P_FLAG_AT_ATTACKING_ZONE = _P("flag_in_catalan_assaults")  # 1: "at_or_next_to_attacking_zone"
P_STOP_ACROSS_WALLS = _P("stop_across_walls")  # 1: "yes"
P_BARRICADES_STOP = _P("barricades_stop")  # 1: "yes"
N_PARAMS = _P.size

# -- a side's row of the kernels' ``pol`` (rules.POLICY_ROWS): its policy's id, then the
# weights its scripted player reads (chances in thousandths, VP in hundredths, the
# commander's step in 36ths)
_W = Fields("full-game policy weights")
W_ID = _W("policy")
W_OBJECTIVE_ODDS = _W("objective_odds")
W_OBJECTIVE_ODDS_LATE = _W("objective_odds_late")
W_OTHER_ODDS = _W("other_odds")
W_MIN_GAIN = _W("min_gain")
W_MIN_GAIN_LATE = _W("min_gain_late")
W_ZONE_VALUE = _W("zone_value")
W_UNIT_VALUE = _W("unit_value")
W_ALONE_COST = _W("alone_cost")
W_BARRICADE_VALUE = _W("barricade_value")
W_WITHDRAW_BELOW = _W("withdraw_below")
W_COMMANDER_STEP = _W("commander_step")
W_BREACH_ODDS = _W("breach_odds")
W_UNANSWERED_FIRE = _W("unanswered_fire_points")
W_ROLLOUTS = _W("rollouts")  # lookahead: a searched decision's budget of rollouts
W_DECIDES = _W("decides")  # lookahead: LOOKAHEAD_DECIDES, which decisions it searches
W_MARGIN_WEIGHT = _W("margin_weight")  # lookahead: a VP of final margin in a rollout's score
W_CONFIDENCE = _W("confidence")  # lookahead: standard errors to leave greedy's choice (tenths)
N_W = _W.size

# -- the decisions a look-ahead player searches (``engine.play_from`` stops before each is
# carried out, the script's choice written in the state), and its ``decides`` weight
DECISIONS = ("assault", "withdrawal", "plan")
D_ASSAULT, D_WITHDRAWAL, D_PLAN = codes(DECISIONS)
N_DECISIONS = len(DECISIONS)
D_NONE = -1  # the game is over (or a state check failed): no decision
#: the lookahead's ``decides`` weight: which of its side's decisions it searches, and the
#: bits of ``engine.play_from``'s ``searched`` each one asks for (shifted by the side)
LOOKAHEAD_DECIDES = ("assaults_and_withdrawals", "assaults", "withdrawals", "plans", "all")
DECIDES_BITS = ((1 << D_ASSAULT) | (1 << D_WITHDRAWAL), 1 << D_ASSAULT, 1 << D_WITHDRAWAL,
                1 << D_PLAN, (1 << D_ASSAULT) | (1 << D_WITHDRAWAL) | (1 << D_PLAN))
# -- a half-turn's movement plan (10, 12; ``S_PLAN``): greedy's, or greedy's with one
# change a look-ahead tries: a stack holds its zone, a stack goes to another destination,
# or no combat unit moves (leaders and barricades move as greedy's either way)
PLAN_KINDS = ("greedy", "hold", "redirect", "hold_all")
PLAN_GREEDY, PLAN_HOLD, PLAN_REDIRECT, PLAN_HOLD_ALL = codes(PLAN_KINDS)
PLAN_FIELDS = ("kind", "zone", "destination")  # the stack's starting zone, where it goes
PLAN_KIND, PLAN_ZONE, PLAN_DESTINATION = codes(PLAN_FIELDS)
N_PLAN = len(PLAN_FIELDS)

# -- where the sequence of play (5) stands: the state's ``S_AT``, so a game can stop at a
# decision and go on from a copy of its state (``engine.play_from``)
POSITIONS = ("turn", "half_turn", "combat", "combat_chosen", "assault_answered",
             "half_turn_over", "turn_over", "game_over", "movement")
(AT_TURN, AT_HALF_TURN, AT_COMBAT, AT_COMBAT_CHOSEN, AT_ASSAULT_ANSWERED, AT_HALF_TURN_OVER,
 AT_TURN_OVER, AT_GAME_OVER, AT_MOVEMENT) = codes(POSITIONS)
# the assault declared and answered (``S_ASSAULT``): lead units, commanders (-1: none), the
# flag (-1: not there) and the defender's answer (1: a withdrawal)
ASSAULT_FIELDS = ("attacking_lead", "defending_lead", "attacking_commander",
                  "defending_commander", "flag", "withdrew")
(AS_ATT_LEAD, AS_DEF_LEAD, AS_ATT_CMDR, AS_DEF_CMDR, AS_FLAG,
 AS_WITHDREW) = codes(ASSAULT_FIELDS)

# -- what each side does: counted per side, the action-usage table of the report; the
# ``other_zone_*`` count the assaults on zones that are no objective (13) and how they ended
ACTIONS = ("artillery_shots", "moves", "salvos", "assaults", "withdrawals", "commanders_used",
           "barricade_moves", "reinforcements", "advances", "retreats", "objective_assaults",
           "other_zone_assaults", "other_zone_taken", "other_zone_withdrawn",
           "other_zone_leads_lost", "other_zone_kills", "lone_withdrawals")
(A_SHOTS, A_MOVES, A_SALVOS, A_ASSAULTS, A_WITHDRAWALS, A_COMMANDERS, A_BARRICADES,
 A_REINFORCEMENTS, A_ADVANCES, A_RETREATS, A_OBJECTIVE_ASSAULTS, A_OTHER_ASSAULTS,
 A_OTHER_TAKEN, A_OTHER_WITHDRAWN, A_OTHER_LEADS_LOST, A_OTHER_KILLS,
 A_LONE_WITHDRAWALS) = codes(ACTIONS)
N_ACTIONS = len(ACTIONS)
ACTION_DOCS = {
    "objective_assaults": "assaults on a zone of a section-13 objective (Pla de Palau "
                          "included)",
    "other_zone_assaults": "assaults on a zone that is no objective (it scores nothing, 13)",
    "other_zone_taken": "of those, the assaults that took the zone (won, or the defender "
                        "withdrew, 11.3)",
    "other_zone_withdrawn": "of those, the assaults the defender withdrew from (+2, 11.3)",
    "other_zone_leads_lost": "of those, the assaults that cost the attacking lead unit",
    "other_zone_kills": "enemy combat units eliminated in those assaults (the defending "
                        "lead, and units lost in the retreat: overstacked or captured)",
    "lone_withdrawals": "withdrawals that left a unit alone in the zone it retreated to, "
                        "next to the zone the enemy took (to be assaulted again, or not)",
}

# -- a commander's blunders, counted per side (outcome columns SIDE_NAME) ----------------------
BLUNDERS = {
    "withdrawal_overstack_losses": "units lost to overstacking in the retreat after the side "
                                   "withdrew (11.3, 6.3: a withdrawal is free only when every "
                                   "withdrawing unit has room)",
    "assaults_for_nothing": "assaults on a zone that is no objective that cost the attacking "
                            "lead and eliminated no enemy unit",
    "objectives_given_up_at_the_end": "withdrawals from an objective in the game's last "
                                      "half-turn (13: lost for sure, with no turn left to "
                                      "retake it; always 0 for the Catalans, who attack in it)",
}
B_OVERSTACKED_WITHDRAWAL, B_FOR_NOTHING, B_GIVEN_UP = codes(tuple(BLUNDERS))
N_BLUNDERS = len(BLUNDERS)

# -- the game state: one int64 vector ---------------------------------------------------------
_S = Fields("full-game state")
S_TURN = _S("turn")
S_BREACH_TURN = _S("breach_turn")  # 0 while the Royal Breach is not assured
S_EV_MOVEMENT = _S("event_movement")  # this half-turn's event, added to movement
S_EV_ARTILLERY = _S("event_artillery")  # shots per gun this half-turn (event: 0 or 2)
S_EV_SALVO = _S("event_salvo")
S_EV_ASSAULT = _S("event_assault")
S_DECK_TOP = _S("deck_top")
S_DECK = _S("deck", MAX_CARDS)
S_UNIT_ZONE = _S("unit_zone", MAX_UNITS)
S_LEADER_ZONE = _S("leader_zone", MAX_LEADERS)
S_GUN_ZONE = _S("gun_zone", MAX_GUNS)
S_BARRICADE_ZONE = _S("barricade_zone", MAX_BARRICADES)
S_BARRICADE_FACES = _S("barricade_faces", MAX_BARRICADES)
S_COUNT = _S("combat_units", 2 * MAX_ZONES)  # side * MAX_ZONES + zone
S_ACTED = _S("zone_acted", MAX_ZONES)  # this combat phase (11: one action a zone)
S_NEWCOMER = _S("reinforcement_overstacked", MAX_UNITS)  # 10.1: placed over the limit
S_UNITS_LOST = _S("units_lost", 2)
S_LEADERS_LOST = _S("commanders_lost", 2)
S_GUNS_LOST = _S("guns_lost", 2)
S_BARRICADES_LOST = _S("barricades_lost")
S_FLAG_LOST = _S("flag_lost")
S_OVERSTACK = _S("overstack_eliminated", 2)
S_CAPTURED = _S("captured_in_retreat", 2)
S_FIRST_TAKEN = _S("first_objective_turn")
S_ACTIONS = _S("actions", 2 * N_ACTIONS)  # side * N_ACTIONS + action
S_BLUNDERS = _S("blunders", 2 * N_BLUNDERS)  # side * N_BLUNDERS + blunder
S_AT = _S("position")  # AT_*: the step of the sequence of play the game is at
S_SIDE = _S("active_side")  # the side whose half-turn it is
S_LAST_TURN = _S("last_turn")  # the turn the VP are counted after (13: one more on a draw)
S_END_REASON = _S("end_reason")  # END_* once the game is over, else -1
S_COMBATS = _S("combats_declared")  # this combat phase (11: at most one a zone)
S_COMBAT = _S("next_combat", 4)  # kind (policies.K_*), attacking zone, target, commander
S_ASSAULT = _S("assault_declared", len(ASSAULT_FIELDS))  # AS_*
S_SEARCHED = _S("decisions_searched")  # this turn, by a look-ahead (its rollouts' streams)
S_PLAN = _S("movement_plan", N_PLAN)  # this half-turn's (PLAN_FIELDS), carried out next
S_FIELD = _S("movement_field", MAX_ZONES)  # policies.prepare_movement's, this half-turn
S_WANT = _S("movement_want", MAX_ZONES)
N_STATE = _S.size

# -- outcome columns ------------------------------------------------------------------------------
WINNERS = SIDES + ("tie",)
WIN_BOURBONS, WIN_CATALANS, WIN_TIE = codes(WINNERS)
END_REASONS = ("annihilation", "objectives", "vp", "vp_after_extra_turn", "draw")
END_ANNIHILATION, END_OBJECTIVES, END_VP, END_VP_EXTRA, END_DRAW = codes(END_REASONS)

_columns = {
    "winner": Column("category", "bourbons, catalans, or tie (still level after the extra "
                     "turn)", WINNERS),
    "end_reason": Column(
        "category", "annihilation (no Catalan unit left), objectives (the Two Crowns hold "
        "every bastion, the redoubt and every convent at a turn's end), vp (count after the "
        "last turn), vp_after_extra_turn (a draw, then the extra turn), draw (level after "
        "the extra turn too)", END_REASONS),
    "turns": Column("int16", "turns played"),
    "breach_turn": Column("int16", "turn the Royal Breach was assured (0: never)"),
    "bourbon_vp": Column("int16", "Two Crowns victory points at the end (13)"),
    "catalan_vp": Column("int16", "Catalan victory points at the end (13)"),
    "vp_margin": Column("int16", "bourbon_vp - catalan_vp"),
    "bourbon_units_lost": Column("int16", "Bourbon combat units eliminated (recreated ones "
                                 "count again when lost again)"),
    "catalan_units_lost": Column("int16", "Catalan combat units eliminated"),
    "bourbon_commanders_lost": Column("int8", "Bourbon commanders eliminated"),
    "catalan_commanders_lost": Column("int8", "Catalan commanders eliminated (the flag "
                                      "excepted)"),
    "objectives_held": Column("int8", "section-13 objectives the Two Crowns hold at the end "
                              "(of 11; Pla de Palau apart)"),
    "bastions_held": Column("int8", "bastions and the redoubt the Two Crowns hold (of 6)"),
    "convents_held": Column("int8", "convents and the monastery the Two Crowns hold (of 5)"),
    "pla_de_palau": Column("bool", "the Two Crowns hold Pla de Palau at the end"),
    "first_objective_turn": Column("int16", "first turn the Two Crowns ended holding an "
                                   "objective (0: never)"),
    "flag_lost": Column("bool", "the Santa Eulalia flag was captured"),
    "barricades_lost": Column("int8", "barricades eliminated or captured"),
    "bourbon_guns_lost": Column("int8", "Bourbon guns captured"),
    "catalan_guns_lost": Column("int8", "Catalan guns captured"),
    "overstack_eliminated": Column("int16", "units eliminated for overstacking (both sides)"),
    "captured_in_retreat": Column("int16", "units captured because they could not retreat"),
}
for _obj in OBJECTIVES:
    _columns["bourbons_hold_" + _obj] = Column("bool", f"the Two Crowns hold {_obj} at the "
                                               "end")
for _side in SIDES:
    for _action in ACTIONS:
        _columns[f"{_side}_{_action}"] = Column(
            "int16", f"{_side}: {ACTION_DOCS.get(_action, _action.replace('_', ' '))} over "
            "the game")
for _side in SIDES:
    for _blunder, _doc in BLUNDERS.items():
        _columns[f"{_side}_{_blunder}"] = Column("int16", f"{_side}: {_doc}")
OUTCOMES = Outcomes(_columns)
O_WINNER = OUTCOMES.offset("winner")
O_END_REASON = OUTCOMES.offset("end_reason")
O_TURNS = OUTCOMES.offset("turns")
O_BREACH_TURN = OUTCOMES.offset("breach_turn")
O_BOURBON_VP = OUTCOMES.offset("bourbon_vp")
O_CATALAN_VP = OUTCOMES.offset("catalan_vp")
O_VP_MARGIN = OUTCOMES.offset("vp_margin")
O_BOURBON_UNITS_LOST = OUTCOMES.offset("bourbon_units_lost")
O_CATALAN_UNITS_LOST = OUTCOMES.offset("catalan_units_lost")
O_BOURBON_COMMANDERS_LOST = OUTCOMES.offset("bourbon_commanders_lost")
O_CATALAN_COMMANDERS_LOST = OUTCOMES.offset("catalan_commanders_lost")
O_OBJECTIVES_HELD = OUTCOMES.offset("objectives_held")
O_BASTIONS_HELD = OUTCOMES.offset("bastions_held")
O_CONVENTS_HELD = OUTCOMES.offset("convents_held")
O_PLA_DE_PALAU = OUTCOMES.offset("pla_de_palau")
O_FIRST_OBJECTIVE_TURN = OUTCOMES.offset("first_objective_turn")
O_FLAG_LOST = OUTCOMES.offset("flag_lost")
O_BARRICADES_LOST = OUTCOMES.offset("barricades_lost")
O_BOURBON_GUNS_LOST = OUTCOMES.offset("bourbon_guns_lost")
O_CATALAN_GUNS_LOST = OUTCOMES.offset("catalan_guns_lost")
O_OVERSTACK = OUTCOMES.offset("overstack_eliminated")
O_CAPTURED = OUTCOMES.offset("captured_in_retreat")
O_HOLDS = OUTCOMES.offset("bourbons_hold_" + OBJECTIVES[0])  # N_OBJECTIVES in order
O_ACTIONS = OUTCOMES.offset(f"{SIDES[0]}_{ACTIONS[0]}")  # side * N_ACTIONS + action
O_BLUNDERS = OUTCOMES.offset(f"{SIDES[0]}_{tuple(BLUNDERS)[0]}")  # side * N_BLUNDERS + b
N_OUT = OUTCOMES.size

# -- state checks (simkit.checks): the invariants ``checks.check_state`` asserts, in the
# rulebook's words, and the rule steps after which the kernels check them ----------------------
INVARIANTS = (
    "combat units conserved",  # 4, 10.1, 13: on the map, to come, eliminated or lost
    "commanders conserved",  # 11.3: on the map, to come or eliminated; never among the enemy
    "one side a zone",  # 6.1
    "stacking limit",  # 6.1, 6.3: 5 a zone outside the deployment zones (10.1 aside)
    "zone control follows the occupants",  # the zone counts are the units in each zone
    "guns never move",  # 9: in place, or captured by enemy combat units entering
    "barricades where the rules allow",  # 12
    "the flag where the rules allow",  # 13. The Santa Eulalia's flag
    "turn and breach on their tracks",  # 3.3, 5, 7, 13
    "event deck",  # 4, 8: each card once, the event in play one a card gives
    "victory points",  # 13. How to win: the sum the rules define
)
(INV_UNITS, INV_COMMANDERS, INV_ONE_SIDE, INV_STACKING, INV_CONTROL, INV_GUNS,
 INV_BARRICADES, INV_FLAG, INV_TRACKS, INV_DECK, INV_VP) = codes(INVARIANTS)
STEPS = ("set-up", "Royal Breach check", "random events phase", "artillery fire phase",
         "reinforcements", "movement phase", "salvo fire", "assault", "turn final phase",
         "victory check")
(STEP_SET_UP, STEP_BREACH, STEP_EVENTS, STEP_ARTILLERY, STEP_REINFORCEMENTS, STEP_MOVEMENT,
 STEP_SALVO, STEP_ASSAULT, STEP_TURN_END, STEP_VICTORY) = codes(STEPS)
