"""The flat arrays The King in the North's kernels share: every offset and code, one home.

Static components (``components.py``) are int arrays with the column offsets ``LC_*``
(locations), ``BK_*`` (blocks) and ``CD_*`` (cards); the game state is one int64 vector
with the ``S_*`` offsets; the rules are the parameter vector ``P_*``; ``OUTCOMES``
declares the result columns and ``STREAMS`` the random streams.
"""

from simkit.games.base import Column, Outcomes
from simkit.layout import Fields, codes

MAX_LOC = 48
MAX_BLOCKS = 160
MAX_CARDS = 112
MAX_DECK = 60
BARRELS = 9  # rulebook 3.4

# -- sides ---------------------------------------------------------------------------------
SIDES = ("carlists", "liberals")
CARLISTS, LIBERALS = codes(SIDES)
NOBODY = -1

# -- location kinds and columns ------------------------------------------------------------
LOC_KINDS = ("town", "resource", "city", "capital")
TOWN, RESOURCE, CITY, CAPITAL = codes(LOC_KINDS)
ROADS = ("none", "main", "secondary", "trail")
NO_ROAD, MAIN, SECONDARY, TRAIL = codes(ROADS)

_LC = Fields("location columns")
LC_KIND = _LC("kind")
LC_RESOURCE = _LC("resource")
LC_VP = _LC("vp")
LC_FH = _LC("fortified_house")
LC_PORT = _LC("port")
LC_MOUNTAIN = _LC("mountain")
LC_TRAIL_ONLY = _LC("trail_only")
LC_STAR = _LC("star")
LC_OWNER = _LC("owner")
LC_RECRUIT_SIDE = _LC("recruit_side")
LC_RECRUIT_ANY2 = _LC("recruit_any2")
LC_ESTUARY = _LC("estuary")  # the Location whose control closes this Port (-1: none)
# the map's roads as lists, for the movement searches: how many Locations a road links
# this one to, then those Locations in map order (the road kinds stay in ``adj``)
LC_DEGREE = _LC("degree")
LC_NEIGHBOURS = _LC("neighbours", MAX_LOC - 1)
N_LC = _LC.size

# -- factions (Carlist then Liberal; rulebook 3.2, 7.2.1) ----------------------------------
FACTIONS = ("navarra", "guipuzcoa", "alava", "vizcaya", "castilla",
            "regular", "royal_guard", "legion", "chapelgorris", "militia")
N_FACTIONS = len(FACTIONS)
FACTION_SIDE = (0, 0, 0, 0, 0, 1, 1, 1, 1, 1)
NO_FACTION = -1
F_LEGION = FACTIONS.index("legion")

# -- blocks --------------------------------------------------------------------------------
BLOCK_TYPES = ("infantry", "cavalry", "lancer", "field_artillery", "mountain_artillery",
               "leader", "partisans", "customs", "decoy", "naval", "guerrilla", "defectors")
(INFANTRY, CAVALRY, LANCER, FIELD_ART, MOUNTAIN_ART, LEADER, PARTISANS, CUSTOMS, DECOY,
 NAVAL, GUERRILLA, DEFECTORS) = codes(BLOCK_TYPES)
SPECIALS = ("none", "don_carlos", "zumalacarregui", "espartero", "diego_de_leon",
            "ceballos", "el_abuelo", "requete", "hussars", "carabineers")
(SP_NONE, SP_DON_CARLOS, SP_ZUMALACARREGUI, SP_ESPARTERO, SP_DIEGO, SP_CEBALLOS,
 SP_EL_ABUELO, SP_REQUETE, SP_HUSSARS, SP_CARABINEERS) = codes(SPECIALS)
STARTS = ("map", "bag", "event", "defectors", "reinforcement")
START_MAP, START_BAG, START_EVENT, START_DEFECTORS, START_REINFORCEMENT = codes(STARTS)

_BK = Fields("block columns")
BK_SIDE = _BK("side")
BK_FACTION = _BK("faction")
BK_TYPE = _BK("type")
BK_DIAMONDS = _BK("diamonds")
BK_SPECIAL = _BK("special")
BK_START = _BK("start")
BK_START_LOC = _BK("start_loc")
BK_ARRIVES = _BK("arrives")  # semester index of a historical reinforcement
N_BK = _BK.size

# where a block is (state S_B_WHERE): "dead" is eliminated (a loss, 8.7.4), "removed" is
# out of play without being a loss (Customs Officers and shown Partisans, 7.3.7; the
# artillery optional rule 13.1 takes out of the bags)
WHERE = ("bag", "box", "map", "dead", "reserve", "pending", "removed")
W_BAG, W_BOX, W_MAP, W_DEAD, W_RESERVE, W_PENDING, W_REMOVED = codes(WHERE)
# where a block came from this turn (state S_B_FROM): a Location it moved from (>= 0), or
FROM_NONE = -1  # it did not enter a Location this turn
FROM_PLACED = -2  # it was placed this turn (reinforcement, recruit, event, Defectors)

# -- cards ---------------------------------------------------------------------------------
CARD_SPECIALS = (
    "none", "loyalty", "headquarters", "fortified_house", "breach",
    # Carlist events (rulebook 12.1)
    "el_abuelo", "snow_covered_fields", "lancer_charge", "local_informants",
    "forced_levies", "guerrillas", "siege_mortar", "blown_bridge",
    # Liberal events (12.2)
    "under_cover_of_night", "defensive_battery", "field_promotion", "bayonet_charge",
    "cavalry_charge", "canister_shot", "fortification", "cavalry_pursuit")
(CS_NONE, CS_LOYALTY, CS_HQ, CS_FORTIFIED_HOUSE, CS_BREACH,
 EV_EL_ABUELO, EV_SNOW, EV_LANCER, EV_INFORMANTS, EV_LEVIES, EV_GUERRILLAS, EV_MORTAR,
 EV_BLOWN_BRIDGE,
 EV_NIGHT, EV_BATTERY, EV_PROMOTION, EV_BAYONET, EV_CAV_CHARGE, EV_CANISTER,
 EV_FORTIFICATION, EV_PURSUIT) = codes(CARD_SPECIALS)
FIRST_EVENT = EV_EL_ABUELO

_CD = Fields("card columns")
CD_SIDE = _CD("side")
CD_FAC1 = _CD("faction")
CD_FAC2 = _CD("faction_2")
CD_DOUBLE = _CD("double")
CD_BUGLE = _CD("bugle")
CD_BID = _CD("bid")
CD_SHIELD6 = _CD("shield6")
CD_SPECIAL = _CD("special")
N_CD = _CD.size

# where a card is (state S_C_WHERE)
CARD_WHERE = ("draw", "hand", "discard", "removed", "played", "out")
CW_DRAW, CW_HAND, CW_DISCARD, CW_REMOVED, CW_PLAYED, CW_OUT = codes(CARD_WHERE)

# -- calendar ------------------------------------------------------------------------------
N_YEARS = 7
FIRST_YEAR = 1833
SEMESTERS = ("A", "B")


def semester_index(year: int, semester: str) -> int:
    """Absolute semester number: 2 * (year - 1833) + (0 for A, 1 for B)."""
    return 2 * (year - FIRST_YEAR) + SEMESTERS.index(semester)


# -- a policy's row (rules.POLICY_ROWS): its id, then its weights ---------------------------
# The kernels take one row per side; ratios are stored x100 (the commanders compare in
# hundredths), every other weight as it is.
_W = Fields("policy weights")
W_ID = _W("policy")
W_VP_SWING = _W("vp_swing")
W_RECRUITMENT_BONUS = _W("recruitment_bonus")
W_PORT_CAPITAL_BONUS = _W("port_capital_bonus")
W_ATTACK_RATIO = _W("attack_ratio")
W_ATTACK_EDGE = _W("attack_edge")
W_SIEGE_SPARE = _W("siege_spare")
W_RESERVE_CARDS = _W("reserve_cards")
W_RESERVE_PER_BATTLE = _W("reserve_per_battle")
W_CITY_GUARD = _W("city_guard")
W_RETREAT_RATIO = _W("retreat_ratio")
W_RETREAT_EDGE = _W("retreat_edge")
W_HOLD_RATIO = _W("hold_ratio")
W_SALLY_RATIO = _W("sally_ratio")
W_LIMITED_HAND = _W("limited_hand")
W_UNLIMITED_HAND = _W("unlimited_hand")
W_BID_FROM = _W("bid_from")
W_CHALLENGE_FROM = _W("challenge_from")
W_ACCEPT_FROM = _W("accept_from")
W_BUGLE_WORTH = _W("bugle_worth")
W_DOUBLE_WORTH = _W("double_worth")
W_HQ_WORTH = _W("hq_worth")
W_LOYALTY_WORTH = _W("loyalty_worth")
W_EVENT_WORTH = _W("event_worth")
W_LANCER_MORTAR_WORTH = _W("lancer_mortar_worth")
W_SIEGE_OVERKILL = _W("siege_overkill")
W_BLOCK_WORTH = _W("block_worth")
W_SEES_HIDDEN = _W("sees_hidden")
W_ROLLOUTS = _W("rollouts")  # lookahead: a searched decision's budget of rollouts
W_WIDTH = _W("width")  # lookahead: the options a decision searches (greedy's and the next)
W_TIES = _W("ties")  # lookahead: TIES_*, what its rollouts score beside the win
W_DECIDES = _W("decides")  # lookahead: LOOKAHEAD_DECIDES, which decisions it searches

# -- what a commander can see of its enemy (``view.see``): expectations over the pieces
# whose identity it does not know, in a float vector --------------------------------------
_V = Fields("view")
V_POOL = _V("unseen_blocks")  # enemy blocks the roster can still hold, identity unknown
V_LEADER = _V("leader_share")  # shares of the pool: Leaders (not Don Carlos) ...
V_LEADER_D = _V("leader_diamonds")  # ... with their mean diamonds,
V_FIGHTER = _V("fighter_share")  # blocks a card deploys, not Leaders ...
V_FIGHTER_D = _V("fighter_impact")  # ... with their mean battle Impact,
V_ART = _V("artillery_share")  # artillery (one deploys free, 8.2.4)
V_SAME = _V("same_faction")  # chance two fighters share a Faction (8.3.3)
V_DIAMONDS = _V("diamonds")  # mean diamonds of a pool block
V_CARDS = _V("unseen_cards")  # enemy cards its hand may hold, unknown
V_DEPLOY = _V("deploying_share")  # shares of those: Faction cards and the Headquarters
V_MATCH = _V("match")  # chance such a card deploys a fighter of the pool
V_FH = _V("fortified_house_share")  # Fortified House cards (11.2)
V_BATTERY = _V("battery_share")  # «Defensive Battery» (12.2)
N_V = _V.size
N_W = _W.size

# -- the parameter vector (rules.params) ---------------------------------------------------
_P = Fields("parameters")
P_SIEGE_CITY_ART = _P("siege_city_artillery")
P_SIEGE_CITY_NO_ART = _P("siege_city_no_artillery")
P_SIEGE_CAPITAL = _P("siege_capital")
P_LOSS_RATE = _P("loss_rate")
P_MOUNTAIN_RATE = _P("mountain_rate")
P_SHIELD_RATE = _P("shield_rate")
P_SNOW_RATE = _P("snow_rate")
P_DRAW = _P("reinforcement_draw")
P_OPENING_HAND = _P("opening_hand")
P_CARLIST_LEAD_1836 = _P("carlist_lead_1836")
P_CARLIST_LEAD_1837 = _P("carlist_lead_1837")
P_LIBERAL_LEAD_1836 = _P("liberal_lead_1836")
P_LIBERAL_LEAD_1837 = _P("liberal_lead_1837")
P_CHARGE_CUMULATIVE = _P("charge_cumulative")
P_CAPTURED_ART = _P("captured_artillery")
P_MAIN_LEADERS_FREE = _P("main_leaders_free")
P_BREACH = _P("breach", 2)
P_MORALE = _P("morale")
P_MORALE_SPACES = _P("morale_neutral_spaces")
P_MORALE_IMPACT = _P("morale_impact")
P_STACK_LIMIT = _P("stack_limit")
P_TRAIL_STACK_LIMIT = _P("trail_stack_limit")
P_MAX_MOVE = _P("max_move")
P_OVERRUN_RATIO = _P("overrun_ratio")
P_GARRISONS = _P("garrison_cubes")
P_BID_TIE = _P("bid_tie_side")
P_LEVIES_ONE_CARD = _P("levies_one_card")  # reading forced_levies
P_MOUNTAIN_SIEGE_3 = _P("mountain_siege_3")  # reading mountain_artillery_siege
P_MORTAR_CAPITALS = _P("mortar_capitals")  # reading siege_mortar
P_TOTAL_REDRAW = _P("liberal_total_redraw")  # reading liberal_total_movement
P_LEAD_ANY_TURN = _P("liberal_lead_any_turn")  # reading liberal_lead_1836_turn
P_BAYONET_ALL = _P("bayonet_whole_battle")  # reading bayonet_charge
P_FREE_ANY_CARD = _P("free_leaders_any_card")  # reading free_leaders
P_OVERRUN_CAPTURES = _P("overrun_captures_don_carlos")  # reading don_carlos_overrun
P_FIRST_SEM = _P("first_year_semester")
P_LAST_SEM = _P("last_year_semester")
P_TRACK = _P("reinforcement_track", 2 * N_YEARS)
P_TRACK_EXTRA = _P("track_extra", 2)  # carlist_track_extra, liberal_track_extra
N_PARAMS = _P.size

# -- random streams ------------------------------------------------------------------------
STREAMS = ("set_up", "carlist_deck", "liberal_deck", "carlist_bag", "liberal_bag",
           "carlist_policy", "liberal_policy")
(ST_SET_UP, ST_CARLIST_DECK, ST_LIBERAL_DECK, ST_CARLIST_BAG, ST_LIBERAL_BAG,
 ST_CARLIST_POLICY, ST_LIBERAL_POLICY) = codes(STREAMS)
N_STREAMS = len(STREAMS)
ST_DECK = (ST_CARLIST_DECK, ST_LIBERAL_DECK)
ST_BAG = (ST_CARLIST_BAG, ST_LIBERAL_BAG)
ST_POLICY = (ST_CARLIST_POLICY, ST_LIBERAL_POLICY)

# -- policy decision points (each restarts the side's policy stream) -----------------------
# -- action kinds counted per side (the action-usage table) --------------------------------
ACTIONS = ("bids", "initiative_challenges", "minimum_movements", "limited_movements",
           "unlimited_movements", "total_movements", "stack_moves", "forced_marches",
           "trail_moves", "recruitments", "garrisons", "overruns", "battles", "sieges",
           "free_deployments", "card_deployments", "loyalty_challenges",
           "retreats_before_combat", "headquarters", "fortified_house_cards",
           "naval_support", "partisans_shown", "events", "redraws", "barrels", "sallies",
           "naval_transports")
(A_BIDS, A_CHALLENGES, A_MIN_MOVE, A_LIMITED, A_UNLIMITED, A_TOTAL, A_STACK_MOVES,
 A_FORCED_MARCH, A_TRAIL_MOVES, A_RECRUIT, A_GARRISONS, A_OVERRUNS, A_BATTLES, A_SIEGES,
 A_FREE_DEPLOY, A_CARD_DEPLOY, A_LOYALTY, A_RETREAT_BEFORE, A_HQ, A_FH_CARD, A_NAVAL,
 A_PARTISANS, A_EVENTS, A_REDRAWS, A_BARRELS, A_SALLIES, A_TRANSPORTS) = codes(ACTIONS)
N_ACTIONS = len(ACTIONS)
# -- a commander's blunders counted per side (outcome columns SIDE_NAME) -------------------
BLUNDERS = {
    "unused_movement_cards": "turns that discarded 1+ cards for movement (7.1), moved no "
                             "stack and made at most 1 recruitment (0 cards would have "
                             "allowed it)",
    "empty_attacks": "battles the side attacked and deployed no block in (a 0-0 tie is the "
                     "defender's, 8.7.1, and costs the attacker a block); not counting "
                     "the battles a retreat into enemy blocks forces (8.8.6)",
    "paid_free_leaders": "Leaders deployed with a card while they could deploy free (8.2.4)",
    "cities_abandoned": "Cities and Capitals the side controlled that its own stack move or "
                        "naval transport left with no block of its own (a Garrison cube "
                        "may keep control, 4.2, but any enemy block entering takes it, 7.5)",
    "overpaid_movement_cards": "cards discarded for movement (7.1) beyond the fewest that "
                               "allowed the stack moves, recruitments, Trail moves and "
                               "Barrels the turn made",
}
(B_UNUSED_MOVE, B_EMPTY_ATTACK, B_PAID_LEADER, B_CITY_ABANDONED,
 B_OVERPAID_MOVE) = codes(tuple(BLUNDERS))
N_BLUNDERS = len(BLUNDERS)

# -- game state vector ---------------------------------------------------------------------
_S = Fields("state")
S_YEAR = _S("year")  # 0..6
S_SEMESTER = _S("semester")  # absolute semester index
S_FIRST = _S("first_side")
S_ACTIVE = _S("active_side")
S_DONE = _S("done")
S_WINNER = _S("winner")
S_REASON = _S("end_reason")
S_TOTAL_USED = _S("total_used", 2)
S_RETREAT_USED = _S("retreat_before_combat_used", 2)
S_MORALE = _S("morale", 2)
S_LIB_LEADERS_LOST = _S("liberal_leaders_lost")
S_RESHUFFLES = _S("reshuffles", 2)
S_DRAW_N = _S("draw_n", 2)
S_DRAW = _S("draw_pile", 2 * MAX_DECK)
S_DECISION = _S("decision", 2)  # policy decision counter per side
S_BATTLES = _S("battles")
S_SIEGES = _S("sieges")
S_LOST = _S("blocks_lost", 2)
S_CAPTURES = _S("captures", 2)
S_FORTIFY_LOC = _S("fortification_loc")
S_ACTIONS = _S("actions", 2 * N_ACTIONS)
S_BLUNDERS = _S("blunders", 2 * N_BLUNDERS)
S_EVENTS_PLAYED = _S("events_played", len(CARD_SPECIALS))  # per special card kind
S_OWNER = _S("owner", MAX_LOC)
S_BARRELS = _S("barrels", MAX_LOC)  # Liberal Barrels per Location (rulebook 10)
S_BARRELS_USED = _S("barrels_used")  # taken from the 9 in the box
S_CUBE = _S("cube", MAX_LOC)  # garrison cube: side + 1, 0 none
S_BESIEGED = _S("besieged", MAX_LOC)  # 1: the controller's blocks are inside
S_RETREAT_IN = _S("retreat_into", MAX_LOC)  # side + 1 that retreated into a battle here
S_FORCED_BATTLE = _S("forced_battle")  # 1 while a retreat into combat is fought (8.8.6)
S_B_WHERE = _S("block_where", MAX_BLOCKS)
S_B_SIDE = _S("block_side", MAX_BLOCKS)
S_B_LOC = _S("block_loc", MAX_BLOCKS)
S_B_MOVED = _S("block_moved", MAX_BLOCKS)
S_B_FROM = _S("block_from", MAX_BLOCKS)  # origin of this turn's move (-1: did not move)
S_C_WHERE = _S("card_where", MAX_CARDS)
# what each side knows of the other's hidden pieces (``view``): a block whose identity
# its enemy knows (the Playbook's set-up, a historical arrival, a block deployed in a
# battle or seen by the Customs Officers, until its stack divides), a card its enemy
# knows to be in its holder's hand (Local Informants, a refuted Loyalty Challenge)
S_B_SEEN = _S("block_seen", MAX_BLOCKS)
S_C_SEEN = _S("card_seen", MAX_CARDS)
S_TURN = _S("turn")  # Semesters begun (0 during set-up): the turn the state checks name
# Defectors blocks each side is owed: one per Loyalty Challenge it won (8.6.1), one per
# block drawn from its empty bag (6.4); the state checks compare them with the pool
S_DEFECTORS_OWED = _S("defectors_owed", 2)
# pending Defectors made this Semester: they enter next Semester (8.6.1)
S_DEFECTORS_NEW = _S("defectors_this_semester", 2)
# the largest stack moved this Movement Phase, and along a Trail (7.3.6)
S_MOVED_STACK = _S("largest_stack_moved")
S_TRAIL_STACK = _S("largest_stack_moved_along_trails")
# 1 in the copy of the game a commander plays its moves on before paying for them
# (``movement.planned_moves``): what the enemy would do on its way is not known there
S_PLANNING = _S("planning")
# where the campaign stands between its steps (``engine.play_step``): the step that comes
# next (``NEXT_*``), the Semester of the Year (0: A, 1: B) and the turn of the Semester
# (0: the side with the Initiative, 1: the other) it is at, the Semesters played
S_NEXT = _S("next_step")
S_SEM = _S("semester_of_year")
S_SIDE_TURN = _S("turn_of_semester")
S_PLAYED = _S("semesters_played")
N_STATE = _S.size

#: the campaign's resumable steps (6.1): set-up; a Year's Turn Order; a Semester's start
#: (the Initiative Challenge); a side's turn; the end of a Year (Reinforcement Phase,
#: Siege Attrition); the final victory; over
NEXT_STEPS = ("set_up", "year", "semester", "side_turn", "year_end", "final", "over")
(NEXT_SET_UP, NEXT_YEAR, NEXT_SEMESTER, NEXT_SIDE_TURN, NEXT_YEAR_END, NEXT_FINAL,
 NEXT_OVER) = codes(NEXT_STEPS)

MAX_OPTIONS = 400  # the rows of a deployment's options table (``combat.deployment_options``)

# -- a look-ahead's plan of a step (``lookahead``; ``movement.Workspace.plan``) ----------
# The engine counts the decisions of ``side`` the look-ahead searches (the kinds in
# ``PL_KINDS``: D_*) as a step of the campaign plays them (a Year's Turn Order, a
# Semester's start, either side's turn); the first ``at`` take the choices in ``PL_FORCE``
# (a replay of the real step: all of them); at decision ``at`` a probe records the options
# (``PL_OPTIONS``, greedy's first) and a rollout switches to its own world (what the side
# cannot see dealt again, its own streams: ``PL_DEALT``) and takes ``choice``.
LOOKAHEAD_TIES = ("none", "margin")  # what lookahead's rollouts score beside the win
TIES_NONE, TIES_MARGIN = codes(LOOKAHEAD_TIES)
#: the kinds of decision a look-ahead searches: each stack's destination (7.1, 7.3), the
#: bids (the Turn Order bid and who moves first, 6.2; the Initiative Challenge and its
#: acceptance, 6.3.1), each deployment in a battle or siege (8.2-8.4, 8.9.3)
DECISION_KINDS = ("destination", "bid", "deployment")
D_DESTINATION, D_BID, D_DEPLOYMENT = codes(DECISION_KINDS)
#: the lookahead's ``decides`` weight: which of its side's decisions it searches
LOOKAHEAD_DECIDES = ("all", "destinations", "bids", "deployments", "destinations_and_bids")
DECIDES_BITS = ((1 << D_DESTINATION) | (1 << D_BID) | (1 << D_DEPLOYMENT), 1 << D_DESTINATION,
                1 << D_BID, 1 << D_DEPLOYMENT, (1 << D_DESTINATION) | (1 << D_BID))
PLAN_MODES = ("off", "probe", "rollout", "replay")
PLAN_OFF, PLAN_PROBE, PLAN_ROLLOUT, PLAN_REPLAY = codes(PLAN_MODES)
#: what the plan asks at a decision (``plan.plan_at``): greedy's choice, the one forced,
#: the options listed (a probe), the world dealt again and the option tried (a rollout)
AT_GREEDY, AT_FORCED, AT_LIST, AT_TRY = 0, 1, 2, 3
MAX_STEP_DECISIONS = 256  # decisions a step may weigh (stack moves, deployments, bids)
MAX_PLAN_OPTIONS = MAX_OPTIONS + 1  # a deployment's options and passing: the most a decision has
_PL = Fields("look-ahead plan")
PL_MODE = _PL("mode")
PL_SIDE = _PL("side")
PL_KINDS = _PL("kinds")
PL_COUNT = _PL("decisions_seen")
PL_AT = _PL("at")
PL_CHOICE = _PL("choice")
PL_FOUND = _PL("found")
PL_KIND = _PL("kind_found")
PL_DEALT = _PL("dealt")
PL_N_OPTIONS = _PL("options_listed")
PL_OPTIONS = _PL("options", MAX_PLAN_OPTIONS)
PL_SCORES = _PL("option_scores", MAX_PLAN_OPTIONS)
PL_FORCE = _PL("forced", MAX_STEP_DECISIONS)
N_PLAN = _PL.size

# -- state checks (simkit.checks, checks.py): the invariants and the rule steps ----------
INVARIANTS = (
    "City control (4.2)",
    "Resource Location control (4.1.1)",
    "Garrison with enemy blocks (7.5)",
    "Garrison cubes (7.5)",
    "blocks in one place (3.2, 4.6, 6.4)",
    "blocks lost (8.7.4)",
    "Defectors blocks (8.6.1, 6.4)",
    "Reinforcement Track (6.4)",
    "stacking limit (7.1)",
    "stack moving along Trails (7.3.6)",
    "siege (8.9.2, 8.9.3)",
    "retreat into combat (8.8.6)",
    "decks (3.3)",
    "Turn Marker (6)",
    "Victory Points (2.2, 9)",
    "Morale Track (13.4)",
    "Barrels (3.4, 10)",
)
(INV_CITY_CONTROL, INV_RESOURCE_CONTROL, INV_GARRISON_ENEMY, INV_GARRISON_CUBES,
 INV_ONE_PLACE, INV_LOST, INV_DEFECTORS, INV_TRACK, INV_STACKING, INV_TRAIL_STACK, INV_SIEGE,
 INV_RETREAT, INV_DECKS, INV_TURN_MARKER, INV_VP, INV_MORALE, INV_BARRELS) = codes(INVARIANTS)

STEPS = (
    "set-up",
    "Turn Order Phase",
    "Initiative Challenge",
    "Carlist Historical Reinforcement Phase",
    "Carlist Movement Phase: events",
    "Carlist Movement Phase: stack move",
    "Carlist Movement Phase: recruitment",
    "Carlist Movement Phase",
    "Carlist Combat Phase: combat",
    "Carlist Combat Phase",
    "Liberal Historical Reinforcement Phase",
    "Liberal Movement Phase: events",
    "Liberal Movement Phase: stack move",
    "Liberal Movement Phase: recruitment",
    "Liberal Movement Phase",
    "Liberal Combat Phase: combat",
    "Liberal Combat Phase",
    "Reinforcement Phase",
    "Siege Attrition",
    "end of the game",
)
(STEP_SET_UP, STEP_TURN_ORDER, STEP_CHALLENGE,
 STEP_C_HISTORICAL, STEP_C_EVENTS, STEP_C_STACK_MOVE, STEP_C_RECRUITMENT, STEP_C_MOVEMENT,
 STEP_C_COMBAT, STEP_C_COMBAT_PHASE,
 STEP_L_HISTORICAL, STEP_L_EVENTS, STEP_L_STACK_MOVE, STEP_L_RECRUITMENT, STEP_L_MOVEMENT,
 STEP_L_COMBAT, STEP_L_COMBAT_PHASE,
 STEP_REINFORCEMENT, STEP_ATTRITION, STEP_END) = codes(STEPS)
# each side's steps, indexed by side
STEP_HISTORICAL = (STEP_C_HISTORICAL, STEP_L_HISTORICAL)
STEP_EVENTS = (STEP_C_EVENTS, STEP_L_EVENTS)
STEP_STACK_MOVE = (STEP_C_STACK_MOVE, STEP_L_STACK_MOVE)
STEP_RECRUITMENT = (STEP_C_RECRUITMENT, STEP_L_RECRUITMENT)
STEP_MOVEMENT = (STEP_C_MOVEMENT, STEP_L_MOVEMENT)
STEP_COMBAT = (STEP_C_COMBAT, STEP_L_COMBAT)
STEP_COMBAT_PHASE = (STEP_C_COMBAT_PHASE, STEP_L_COMBAT_PHASE)

# -- one battle or siege in progress (a local vector, rulebook 8) --------------------------
_BT = Fields("battle")
BT_LOC = _BT("location")
BT_ATTACKER = _BT("attacker")
BT_SIEGE = _BT("siege")
BT_IMPACT = _BT("impact", 2)
BT_PASSED = _BT("passed", 2)
BT_CARD_DEPLOYED = _BT("card_deployed", 2)
BT_FREE_LEADERS = _BT("free_leaders", 2)
BT_FREE_ART = _BT("free_artillery", 2)
BT_LOYALTY = _BT("loyalty_played", 2)
BT_FAC = _BT("faction_deployed", 2 * N_FACTIONS)
BT_CHARGES = _BT("charges", 2)
BT_FH = _BT("fortified_house_played")
BT_NAVAL = _BT("naval_support", 2)
BT_CARDS = _BT("cards_used", 2)  # every card played (12.2 «Under Cover of Night»)
BT_DEPLOY_CARDS = _BT("deploying_cards", 2)  # the cards that deployed blocks (8.10)
BT_SNOW = _BT("snow")
BT_LANCER = _BT("lancer_charge")
BT_LANCER_DEPLOYED = _BT("lancer_deployed")
BT_SHIELD = _BT("shield6")
BT_ART = _BT("artillery_deployed", 2)
BT_CAV = _BT("cavalry_deployed", 2)
BT_INF = _BT("infantry_deployed", 2)
BT_BAYONET = _BT("bayonet")
BT_CANISTER = _BT("canister")
BT_BATTERY = _BT("battery")
BT_SUPPLY = _BT("out_of_supply_bonus")
BT_SIEGE_ART = _BT("siege_artillery")
BT_DEF_ART = _BT("defender_artillery")
BT_MORTAR = _BT("mortar")
BT_FORTIFY = _BT("fortification")
BT_NIGHT = _BT("night")
BT_PURSUIT = _BT("pursuit")
BT_CAV_CHARGE = _BT("cavalry_charge_event")
BT_LOSER = _BT("loser")  # the side that lost the battle + 1 (0: not decided yet)
BT_DEPLOYED = _BT("deployed", MAX_BLOCKS)  # DEPLOYED or DEFECTED, 0 neither
DEPLOYED, DEFECTED = 1, 2  # a defected block is "removed from the battle" (8.6.1)
N_BT = _BT.size

# deployment options offered to a policy (rows of an options table)
OPTION_KINDS = ("free_leader", "free_artillery", "card", "headquarters", "naval",
                "fortified_house", "event")
OPT_FREE_LEADER, OPT_FREE_ART, OPT_CARD, OPT_HQ, OPT_NAVAL, OPT_FH, OPT_EVENT = codes(
    OPTION_KINDS)
_OP = Fields("option")
OP_KIND = _OP("kind")
OP_CARD = _OP("card")
OP_B1 = _OP("block")
OP_B2 = _OP("block_2")
OP_GAIN = _OP("impact_gain")
N_OP = _OP.size

# -- categories ----------------------------------------------------------------------------
WINNERS = ("carlists", "liberals", "tie")
WIN_CARLISTS, WIN_LIBERALS, WIN_TIE = codes(WINNERS)
END_REASONS = ("don_carlos_captured", "vp_lead", "locations", "recruitment_locations",
               "final_vp")
END_DON_CARLOS, END_VP_LEAD, END_LOCATIONS, END_RECRUITMENT, END_FINAL = codes(END_REASONS)
END_SEMESTERS = ("A", "B")

_cols = {
    "winner": Column("category", "carlists, liberals, or tie (final VP equal, or the VP "
                     "leader holds none of the 4 starred Capitals)", WINNERS),
    "end_reason": Column(
        "category", "don_carlos_captured (Liberal sudden victory), vp_lead (a sudden VP-lead "
        "victory), locations (Carlist 5 Cities/Capitals from 1838), recruitment_locations "
        "(all 4 enemy Recruitment Locations from the end of 1837), final_vp (end of 1839)",
        END_REASONS),
    "turns": Column("int16", "Semesters played (12 for a full game)"),
    "end_year": Column("int16", "Year the game ended (1833-1839)"),
    "end_semester": Column("category", "Semester the game ended", END_SEMESTERS),
    "final_vp_lead": Column("int16", "Liberal VP minus Carlist VP when the game ended"),
    "carlist_vp": Column("int16", "VP of the Locations the Carlists control at the end"),
    "liberal_vp": Column("int16", "VP of the Locations the Liberals control at the end"),
    "battles": Column("int16", "battles fought"),
    "sieges": Column("int16", "siege combats fought"),
    "carlists_blocks_lost": Column("int16", "Carlist blocks eliminated (combat, overruns, "
                                   "defections)"),
    "liberals_blocks_lost": Column("int16", "Liberal blocks eliminated"),
    "carlists_captures": Column("int16", "Cities/Capitals the Carlists took by siege"),
    "liberals_captures": Column("int16", "Cities/Capitals the Liberals took by siege"),
    "don_carlos_alive": Column("bool", "Don Carlos's block survived"),
}
#: action columns 0 by the rules for one side, kept so that both sides have the same
#: columns (the action-usage table and ``O_ACTIONS`` read them side-major)
ZERO_BY_RULE = {
    ("carlists", "naval_support"): "only the Liberals have Naval Squadrons (7.4)",
    ("carlists", "naval_transports"): "only the Liberals have Naval Squadrons (7.4)",
    ("carlists", "barrels"): "Barrels are the Liberals' 3-card option (7.1, 10)",
    ("liberals", "trail_moves"): "the 3-Location Trail move is a Carlist bonus (7.1 B)",
    ("liberals", "partisans_shown"): "only the Carlists have Partisans (7.3.7)",
}
for _side in SIDES:
    for _action in ACTIONS:
        _why = ZERO_BY_RULE.get((_side, _action))
        _cols[f"{_side}_{_action}"] = Column(
            "int16", f"{_side}: {_action.replace('_', ' ')}"
            + (f" (always 0: {_why}; kept for the same columns on both sides)" if _why else ""))
for _side in SIDES:
    for _blunder, _doc in BLUNDERS.items():
        _cols[f"{_side}_{_blunder}"] = Column("int16", f"{_side}: {_doc}")
OUTCOMES = Outcomes(_cols)
O_WINNER = OUTCOMES.offset("winner")
O_END_REASON = OUTCOMES.offset("end_reason")
O_TURNS = OUTCOMES.offset("turns")
O_END_YEAR = OUTCOMES.offset("end_year")
O_END_SEMESTER = OUTCOMES.offset("end_semester")
O_FINAL_LEAD = OUTCOMES.offset("final_vp_lead")
O_CARLIST_VP = OUTCOMES.offset("carlist_vp")
O_LIBERAL_VP = OUTCOMES.offset("liberal_vp")
O_BATTLES = OUTCOMES.offset("battles")
O_SIEGES = OUTCOMES.offset("sieges")
O_LOST = OUTCOMES.offset("carlists_blocks_lost")  # then liberals
O_CAPTURES = OUTCOMES.offset("carlists_captures")  # then liberals
O_DON_CARLOS = OUTCOMES.offset("don_carlos_alive")
O_ACTIONS = OUTCOMES.offset(f"{SIDES[0]}_{ACTIONS[0]}")  # side-major, N_ACTIONS each
O_BLUNDERS = OUTCOMES.offset(f"{SIDES[0]}_{tuple(BLUNDERS)[0]}")  # side-major
N_OUT = OUTCOMES.size
