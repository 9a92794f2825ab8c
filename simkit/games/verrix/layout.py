"""The flat arrays the Verrix kernels share: every offset and code, one home each.

``G_*`` index the game state vector ``g`` (globals, then one block of ``N_PL`` per seat:
``g[pl(seat) + PL_VP]``); ``P_*`` the parameter vector built from the rules
(``rules.PARAMETERS``); ``W_*`` a seat's row of ``pol``, its policy id and weights
(``weights.POLICY_ROWS``); ``S_*`` the static component tables (``components``);
``OUTCOMES`` declares the result columns; ``STREAMS`` names the random streams
(``simkit.rng``).
"""

from simkit.games.base import Column, Outcomes
from simkit.layout import Fields, codes

# -- names (codes are positions) ---------------------------------------------------------
TRIBES = ("blue", "orange", "purple", "green", "yellow")
BLUE, ORANGE, PURPLE, GREEN, YELLOW = codes(TRIBES)
N_TRIBES = len(TRIBES)
MAX_PLAYERS = 5
SEATS = tuple(f"seat{k}" for k in range(1, MAX_PLAYERS + 1))

# goods, in the order of data/goods.toml (the loader checks the names)
GOODS = ("Provisions", "Cow", "Horse", "Sword", "Spear", "Cart", "Hammer", "Belladonna",
         "Fibula")
PROVISIONS, COW, HORSE, SWORD, SPEAR, CART, HAMMER, BELLADONNA, FIBULA = codes(GOODS)
N_GOODS = len(GOODS)
BONUSES = ("none", "movement", "strength", "vp", "capacity", "battle")
BONUS_NONE, BONUS_MOVE, BONUS_STR, BONUS_VP, BONUS_CAPACITY, BONUS_BATTLE = codes(BONUSES)

TRIBESMEN = 7  # tribesman meeples of each tribe (Components: 35 in 5 colours)
TRIBESMEN_AVAILABLE = 5  # available from the start; the other 2 start in the market
VP_TRACK = 55  # spaces of the Victory Points track; past them the disc wraps, once
VILLAGE_TOKENS = 3  # village tokens of each tribe (Components: 15 in 5 colours)
CLASSES = ("tribesman", "warrior", "mystic", "merchant", "craftsman")
TRIBESMAN, WARRIOR, MYSTIC, MERCHANT, CRAFTSMAN = codes(CLASSES)
BATTLE_UNITS = (1 << TRIBESMAN) | (1 << WARRIOR) | (1 << MYSTIC)  # may fight a Battle

NODE_KINDS = ("territory", "sea", "harbour")
NODE_TERRITORY, NODE_SEA, NODE_HARBOUR = codes(NODE_KINDS)
MOVE_TILES = ("A", "B", "C")
TILE_A, TILE_B, TILE_C = codes(MOVE_TILES)
MAX_NODES = 32

CARD_TYPES = ("development", "trade", "raid", "battle")
CT_DEVELOPMENT, CT_TRADE, CT_RAID, CT_BATTLE = codes(CARD_TYPES)
LOCATIONS = ("village", "away", "portum")
LOC_VILLAGE, LOC_AWAY, LOC_PORTUM = codes(LOCATIONS)
STEALS = ("any", "animals", "hostages")
STEAL_ANY, STEAL_ANIMALS, STEAL_HOSTAGES = codes(STEALS)
TIMINGS = ("immediate", "delayed")
TIMING_IMMEDIATE, TIMING_DELAYED = codes(TIMINGS)
TROPHY_POWERS = ("cooking_steal", "cleanup_vp", "strength", "cleanup_divine_will")
TP_COOKING, TP_CLEANUP_VP, TP_STRENGTH, TP_CLEANUP_DW = codes(TROPHY_POWERS)
N_TROPHIES = 4

# card-effect operations (data/cards.toml); each compiles to (opcode, a, b, c, d, e)
CARD_OPS = ("gain", "gain_choice", "divine_will", "vp", "pay", "learn", "promote", "trade",
            "raid", "types_vp", "clan_pact", "trophy", "battle")
(OP_GAIN, OP_GAIN_CHOICE, OP_DIVINE_WILL, OP_VP, OP_PAY, OP_LEARN, OP_PROMOTE, OP_TRADE,
 OP_RAID, OP_TYPES_VP, OP_CLAN_PACT, OP_TROPHY, OP_BATTLE) = codes(CARD_OPS)
EVENT_OPS = ("gain", "the_gift", "divine_will", "vp", "tile", "everyone_loses", "lose",
             "rescue", "vp_per", "free_move", "reorder")
(EO_GAIN, EO_THE_GIFT, EO_DIVINE_WILL, EO_VP, EO_TILE, EO_EVERYONE_LOSES, EO_LOSE,
 EO_RESCUE, EO_VP_PER, EO_FREE_MOVE, EO_REORDER) = codes(EVENT_OPS)
OBJECTIVES = ("per_good", "good_at_least", "divine_will_at_least", "per_hostage",
              "villages_at_least", "types_at_least", "per_equipped_leader", "per_trophy")
(OB_PER_GOOD, OB_GOOD_AT_LEAST, OB_DW_AT_LEAST, OB_PER_HOSTAGE, OB_VILLAGES_AT_LEAST,
 OB_TYPES_AT_LEAST, OB_PER_EQUIPPED_LEADER, OB_PER_TROPHY) = codes(OBJECTIVES)
OP_WIDTH = 6
MAX_OPS = 3
MAX_OBJECTIVES = 3

# -- static tables (components.tables(): a tuple of 2-D int64 arrays) ----------------------
_GD = Fields("good row")
GD_VALUE = _GD("value")
GD_COUNT = _GD("count")
GD_BONUS = _GD("bonus")
GD_ANIMAL = _GD("animal")
N_GD = _GD.size

_TR = Fields("tribe row")
TR_LEADER = _TR("leader")
TR_DW = _TR("divine_will")
TR_GOODS = _TR("goods", N_GOODS)
TR_HOSTAGE = _TR("hostage")
TR_TERRITORIES = _TR("territories", 3)
TR_BATTLE_UNITS = _TR("battle_units")
TR_BATTLE_FREE_MARCH = _TR("battle_free_march")
TR_RAID_STR = _TR("raid_strength")
TR_RAID_CAPACITY = _TR("raid_capacity")
TR_RAID_VP = _TR("raid_vp")
TR_REDRAW = _TR("redraw_event")
TR_TRADE_CAPACITY = _TR("trade_capacity")
TR_TRADE_DISCOUNT = _TR("trade_discount")
TR_EXTRA_SLOT = _TR("extra_slot")
TR_CLEANUP_VP_EQUIPPED = _TR("cleanup_vp_equipped")
TR_HOSTAGE_VALUE = _TR("hostage_value")  # trade value of this tribe's tribesman as a hostage
N_TR = _TR.size
ABILITY_KEYS = ("battle_units", "battle_free_march", "raid_strength", "raid_capacity",
                "raid_vp", "redraw_event",
                "trade_capacity", "trade_discount", "extra_slot", "cleanup_vp_equipped")

_LD = Fields("leader row")
LD_TRIBE = _LD("tribe")  # -1: grey
LD_CLASS = _LD("class")
LD_STR = _LD("strength")
LD_SLOTS = _LD("slots")
N_LD = _LD.size

_CD = Fields("card row")
CD_TYPE = _CD("type")
CD_BASIC = _CD("basic")
CD_COST = _CD("cost")
CD_UNITS = _CD("units")  # bit mask of CLASSES
CD_LOCATION = _CD("location")
CD_OWNERS = _CD("owners")  # bit mask of TRIBES
CD_N_OPS = _CD("n_ops")
CD_OPS = _CD("ops", MAX_OPS * OP_WIDTH)
N_CD = _CD.size
MAX_CARDS = 32

_EV = Fields("event row")
EV_TIMING = _EV("timing")
EV_N_OPS = _EV("n_ops")
EV_OPS = _EV("ops", MAX_OPS * OP_WIDTH)
N_EV = _EV.size
MAX_EVENTS = 32

_FE = Fields("festival row")
FE_N = _FE("n")
FE_OBJ = _FE("objectives", MAX_OBJECTIVES * 4)  # kind, a, b, c
N_FE = _FE.size

TABLES = ("goods", "tribes", "leaders", "trophies", "cards", "events", "festivals", "nodes",
          "move_cost", "move_next", "cheapest_nodes")
(S_GOODS, S_TRIBES, S_LEADERS, S_TROPHIES, S_CARDS, S_EVENTS, S_FESTIVALS, S_NODES,
 S_COST, S_NEXT, S_CHEAPEST) = codes(TABLES)
# S_COST / S_NEXT: row tile * MAX_NODES + from, column to (the next node on a cheapest path)
# S_CHEAPEST: row (tile * MAX_NODES + from) * MAX_NODES + to: how many nodes lie on a
# cheapest trip, then those nodes nearest ``to`` first (``to`` itself first)

# -- a seat's row of the kernels' ``pol`` (weights.POLICY_ROWS): its policy id, then its
# weights; seat s reads row s
_W = Fields("policy weights")
W_ID = _W("policy")
W_VP_POINTS = _W("vp_points")
W_UNIT_POINTS = _W("unit_points")
W_ENGAGED_POINTS = _W("engaged_points")
W_SHORT_PROVISION_POINTS = _W("short_provision_points")
W_PROVISION_POINTS = _W("provision_points")
W_NEW_TYPE_POINTS = _W("new_type_points")
W_EVENT_POINTS = _W("event_points")
W_SPARE_DW_POINTS = _W("spare_dw_points")
W_CLAN_PACT_POINTS = _W("clan_pact_points")
W_LEARN_PERCENT = _W("learn_percent")
W_SITE_DISTANCE_POINTS = _W("site_distance_points")
W_TRADE_EXTRA_UNITS = _W("trade_extra_units")
W_SECOND_TOKEN_MARGIN = _W("second_token_margin")
W_RIVAL_PERCENT = _W("rival_percent")
W_STYLE_BONUS = _W("style_bonus")
W_ROLLOUTS = _W("rollouts")  # the look-ahead's (lookahead.py): a decision's budget,
W_WIDTH = _W("width")  # the actions it weighs, what a VP of margin adds (thousandths)
W_MARGIN_WEIGHT = _W("margin_weight")
N_W = _W.size

# -- parameter vector --------------------------------------------------------------------
_P = Fields("parameters")
P_PLAYERS = _P("players")
P_TRIBE = _P("tribe", MAX_PLAYERS)  # tribe of each seat
P_TURNS = _P("turns")
P_FESTIVAL_EVERY = _P("festival_every")
P_MORRIGAN = _P("morrigan", 7)
P_BATTLE_VP = _P("battle_vp", 4)  # disc 0, 1, 2, 3+ spaces from the centre
P_BATTLE_DISC_START = _P("battle_disc_start")  # DISC_*: where a Month Turn's next battle starts
P_VP_PAST_110 = _P("vp_past_110")  # VP_PAST_*: what a tribe's VP do past the track's 110
P_RAID_SUPPORT = _P("raid_support")  # RAID_SUPPORT_*: may others defend a raided Village
P_BATTLE_TIE_VP = _P("battle_tie_vp")  # TIE_VP_*: who gains the centre's VP on a tie
P_SACK_HOSTAGES = _P("sack_hostages")  # SACK_*: may a Sack take the market's tribesmen
P_BATTLE_LEADERS = _P("battle_leaders")  # LEADERS_*: which leaders a Battle deploys
P_TIE_ORDER = _P("tie_order")  # ORDER_*: which disc wins the last tie-break
P_GIFT_SOURCE = _P("the_gift_source")  # GIFT_*: where The Gift's Cow comes from
P_EVENT_COST = _P("event_cost")
P_EVENT_VP = _P("event_vp")  # VP added to each unprinted Event Card (a reconstruction)
P_START_VP = _P("start_vp")
P_FIRST_PLAYER_VP = _P("first_player_vp")
P_FIRST_PASS_VP = _P("first_pass_vp")
P_HOLD_BACK_VP = _P("hold_back_vp")
P_BENEVOLENCE = _P("benevolence")
P_EXTRA_PROVISIONS = _P("extra_provisions")
P_EXTRA_DW = _P("extra_divine_will")
P_DIVINE_WILL = _P("divine_will_cubes")
P_N_CARDS = _P("n_cards")
P_N_EVENTS = _P("n_events")
P_N_NODES = _P("n_nodes")
P_N_FESTIVALS = _P("n_festival_tiles")
N_PARAMS = _P.size
# where the Battle Progression Track's disc starts a battle (rules.py says why)
BATTLE_DISC_STARTS = ("centre", "where_left")
DISC_CENTRE, DISC_WHERE_LEFT = range(len(BATTLE_DISC_STARTS))
# what VP past two laps of the track (one '55' token per tribe) do (rules.py says why)
VP_PAST_110 = ("kept", "capped")
VP_PAST_KEPT, VP_PAST_CAPPED = range(len(VP_PAST_110))
NO_VP_CAP = 1 << 30
# the other readings of the rulebook (rules.py quotes the words of each value)
RAID_SUPPORTS = ("defenders", "none")
RAID_SUPPORT_DEFENDERS, RAID_SUPPORT_NONE = range(len(RAID_SUPPORTS))
BATTLE_TIE_VPS = ("battle_players", "all_players")
TIE_VP_BATTLE_PLAYERS, TIE_VP_ALL_PLAYERS = range(len(BATTLE_TIE_VPS))
SACK_TAKES = ("goods", "hostages_too")
SACK_GOODS, SACK_HOSTAGES_TOO = range(len(SACK_TAKES))
BATTLE_LEADER_READINGS = ("every_class", "battle_classes")
LEADERS_EVERY_CLASS, LEADERS_BATTLE_CLASSES = range(len(BATTLE_LEADER_READINGS))
TIE_ORDERS = ("bottom", "top")
ORDER_BOTTOM, ORDER_TOP = range(len(TIE_ORDERS))
GIFT_SOURCES = ("choice", "market_first")
GIFT_CHOICE, GIFT_MARKET_FIRST = range(len(GIFT_SOURCES))
N_TOKENS = 7
BATTLE_REACH = 3  # the disc moves at most 3 spaces either side of the centre

# -- game state --------------------------------------------------------------------------
_G = Fields("globals")
G_TURN = _G("turn")
G_TILE = _G("tile")
G_EVENT_TOP = _G("event_top")  # next card of the deck
G_EVENTS_OVER = _G("events_over")
G_DECK = _G("deck", MAX_EVENTS)
G_MARKET = _G("market", N_GOODS)
G_MARKET_MEN = _G("market_tribesmen", N_TRIBES)
G_POOL_DW = _G("pool_divine_will")
G_GREY_MEEPLES = _G("grey_meeples")
G_GREY_TAKEN = _G("grey_taken", 16)
G_TROPHY_OWNER = _G("trophy_owner", N_TROPHIES)  # seat, -1 in the pool
G_TROPHY_TRAVEL = _G("trophy_travel", N_TROPHIES)
G_VILLAGE = _G("village", MAX_NODES)  # seat holding a village token there, -1
G_ORDER = _G("order", MAX_PLAYERS)
G_NEXT_ORDER = _G("next_order", MAX_PLAYERS)
G_N_PASSED = _G("n_passed")
G_BAG = _G("bag", N_TOKENS)  # 1: the token is in the bag
G_BATTLE_DISC = _G("battle_disc")  # Battle Progression Track: spaces from the centre (+ attacker)
G_VP_CAP = _G("vp_cap")  # the most VP a tribe can hold (the reading vp_past_110)
# where the sequence of play stands (engine.play_from): the next step (NEXT_*), the
# Action Phase's place in the playing order, the action chosen before it is carried out
# (kind: engine.KIND_*, card, target), the look-ahead decisions made so far this turn
G_NEXT = _G("next")
G_ACTOR = _G("actor")
G_CHOICE = _G("choice", 3)
G_SEARCHED = _G("searched")
# Arianrhod (Event Phase): the seat that looked at the top of the Event deck and the
# deck position after the cards it saw (-1: nobody has); what the others cannot see
G_SEEN_BY = _G("seen_by")
G_SEEN_END = _G("seen_end")
N_GLOBALS = _G.size

_PL = Fields("player block")
PL_TRIBE = _PL("tribe")
PL_VP = _PL("vp")
PL_DW = _PL("divine_will")
PL_GOODS = _PL("goods", N_GOODS)  # Village Card
PL_TRAVEL_GOODS = _PL("travel_goods", N_GOODS)
PL_HOSTAGES = _PL("hostages", N_TRIBES)  # by colour, Village Card
PL_TRAVEL_HOSTAGES = _PL("travel_hostages", N_TRIBES)
PL_MEN = _PL("tribesmen")  # available
PL_MEN_VILLAGE = _PL("tribesmen_village")  # engaged at the Village
PL_MEN_TRAVEL = _PL("tribesmen_travel")
MAX_LEADERS = 2
MAX_SLOTS = 3
PL_LEADER = _PL("leader", MAX_LEADERS)  # leader id, -1
PL_LEADER_AT = _PL("leader_at", MAX_LEADERS)
PL_EQUIP = _PL("equip", MAX_LEADERS * MAX_SLOTS)  # good, -1
PL_CARD = _PL("card", MAX_CARDS)
PL_PASSED = _PL("passed")
PL_HELD_EVENT = _PL("held_event")
PL_FREE_MOVE = _PL("free_move")
PL_VILLAGES = _PL("villages")  # tokens on the map
PL_VILLAGE_NODE = _PL("village_node", 3)  # their territories, in the order placed
PL_LEARN_CHOICE = _PL("learn_choice")  # the Special card a Learning will add (-1: ask)
PL_RESERVE = _PL("provision_reserve")  # Provisions kept for travel (policies.provision_reserve)
PL_UNIT_PRICE = _PL("unit_price")  # a Support's STRENGTH to this seat (appraisal.support_price)
# counters copied to the outcome row
PL_N_DEV = _PL("n_development")
PL_N_TRADE = _PL("n_trade")
PL_N_RAID = _PL("n_raid")
PL_N_RAID_WON = _PL("n_raid_won")
PL_RAID_LOOT = _PL("raid_loot")
PL_N_BATTLE = _PL("n_battle")
PL_N_BATTLE_WON = _PL("n_battle_won")
PL_BATTLE_VP = _PL("battle_vp")
PL_N_SUPPORT = _PL("n_support")
PL_N_EVENTS = _PL("n_events")
PL_FIRST_PASS = _PL("n_first_pass")
PL_FESTIVAL_VP = _PL("festival_vp")
PL_N_DEFEND = _PL("n_defended")
PL_USES = _PL("card_uses", MAX_CARDS)
N_PL = _PL.size
N_STATE = N_GLOBALS + MAX_PLAYERS * N_PL

AT_NONE, AT_AVAILABLE, AT_VILLAGE, AT_TRAVEL = 0, 1, 2, 3
# the steps of engine.play_from (G_NEXT): a turn begins, a player of the Action Phase
# chooses, the choice is carried out, Cleanup, the End of the Game, the game is over
NEXT_TURN, NEXT_ACTION, NEXT_CHOSEN, NEXT_CLEANUP, NEXT_END, NEXT_OVER = range(6)
# the decisions play_from stops at for a look-ahead (D_NONE: the game is over)
D_NONE, D_ACTION = -1, 0
CARD_NONE, CARD_UNLEARNED, CARD_HAND, CARD_DISCARD, CARD_BOXED = 0, 1, 2, 3, 4

# -- state checks (simkit.checks): what holds after every rule step, and the steps ---------
# each invariant's detail (the number a StateError names): a good, a seat, a tribe, a trophy,
# a count or a turn, as ``checks`` says; POOL stands for the Common Pool or a total
INVARIANTS = (
    "goods tiles: each good's count between the market, Village, Travel and Leader Cards",
    "Divine Will cubes: 20 between the Common Pool and the Village Cards",
    "tribesman meeples: 7 per tribe (available, engaged, in the market or hostages)",
    "hostages: no tribe holds its own tribesmen after Setup and Cleanup",
    "leaders: the tribe's Leader Card and at most one grey Common Leader (one grey "
    "meeple per player)",
    "available and engaged units: engaged on the Village or Travel Card until Cleanup",
    "village tokens: 3 per tribe, on territories, one per territory",
    "trophy tiles: in the Common Pool or on one tribe's Village or Travel Card",
    "Travel Card: goods and hostages moved to the Village Card at Cleanup",
    "Leader Card spaces: goods only on the spaces the card has",
    "Victory Points track: never below 1",
    "Battle Progression Track: the disc within 3 spaces, on the centre after Cleanup",
    "Mórrígan tokens: 7, each back in the bag after a Raid or Battle",
    "Action Cards: 14 per tribe in the deck, the discard pile, the box or still to learn",
    "Event Cards: 20 between the deck, the discard pile and one delayed card per player",
    "Playing Order: each tribe's disc once, passes counted",
    "Turn track: 12 turns, a Festival tile on each Festival Turn",
    "Movement Cost tile: A, B or C, back to A at Cleanup",
)
(INV_GOODS, INV_DIVINE_WILL, INV_TRIBESMEN, INV_HOSTAGES, INV_LEADERS, INV_UNITS,
 INV_VILLAGES, INV_TROPHIES, INV_TRAVEL, INV_EQUIPMENT, INV_VP, INV_BATTLE_TRACK,
 INV_MORRIGAN, INV_ACTION_CARDS, INV_EVENT_CARDS, INV_PLAYING_ORDER, INV_TURN,
 INV_TILE) = codes(INVARIANTS)
N_INVARIANTS = len(INVARIANTS)
POOL = MAX_PLAYERS  # a detail naming the Common Pool (or a total), not a seat
STEPS = ("Setup", "Event Phase: a draw", "Action Phase: a delayed event",
         "Action Phase: an action", "Battle: a round", "Action Phase: a pass", "Cleanup",
         "Festival Turn", "End of the Game")
(STEP_SETUP, STEP_EVENT_DRAW, STEP_DELAYED_EVENT, STEP_ACTION, STEP_BATTLE_ROUND,
 STEP_PASS, STEP_CLEANUP, STEP_FESTIVAL, STEP_END) = codes(STEPS)

# -- random streams ------------------------------------------------------------------------
STREAMS = ("set_up", "event_deck", "morrigan") + tuple(f"policy_{s}" for s in SEATS)
ST_SET_UP, ST_EVENT_DECK, ST_MORRIGAN = codes(STREAMS[:3])
ST_POLICY = 3  # + seat
N_STREAMS = len(STREAMS)

# -- policies --------------------------------------------------------------------------------
POLICY_NAMES = ("greedy", "random", "battle", "raid", "mysticism", "trade", "craftsmanship")
(POL_GREEDY, POL_RANDOM, POL_BATTLE, POL_RAID, POL_MYSTICISM, POL_TRADE,
 POL_CRAFTSMANSHIP) = codes(POLICY_NAMES)
# the rollout player (lookahead.py), listed after the scripts: it has its own kernel,
# which plays it under greedy's id (``lookahead.greedy_rows``)
POL_LOOKAHEAD = len(POLICY_NAMES)

# -- outcome columns ------------------------------------------------------------------------
END_REASONS = ("most_vp", "tie_break_divine_will", "tie_break_trophies", "tie_break_animals",
               "tie_break_order")
END_MOST_VP, END_TB_DW, END_TB_TROPHIES, END_TB_ANIMALS, END_TB_ORDER = codes(END_REASONS)

PER_TRIBE = (
    ("vp", "final VP (the '55' tokens added back)"),
    ("development", "Development actions played"),
    ("trade", "Trade actions played (Clan Pact included)"),
    ("raids", "Raid actions played"),
    ("raids_won", "Raids that succeeded"),
    ("raid_loot", "value of the goods and hostages (3 each) taken in Raids"),
    ("battles", "Battles declared"),
    ("battles_won", "Battles its faction won (attacking, defending or supporting)"),
    ("battle_vp", "VP from Battles (wins, ties and held-back penalties)"),
    ("supports", "Battles and raided Villages it joined as a supporter"),
    ("defences", "Raids and Battles it had to react to"),
    ("events", "Event cards drawn"),
    ("first_passes", "Month Turns it passed first (+1 VP each)"),
    ("festival_vp", "VP from Festival objectives"),
)
_cols = {
    "winner": Column("category", "the tribe with the most VP after the tie-breaks", TRIBES),
    "winner_seat": Column("category", "the winner's seat (seat1 played first)", SEATS),
    "end_reason": Column("category", "most_vp, or the tie-break that decided", END_REASONS),
    "turns": Column("int16", "turns played (Month and Festival)"),
    "margin": Column("int16", "winner's VP minus the runner-up's"),
    "players": Column("int8", "tribes in play"),
}
#: the seat or tribe each per-seat and per-tribe column is about: the column holds a value
#: exactly when it plays (``Verrix.has_values``), never read from the value (a tribe's
#: battle_vp is really -1 when holding back units costs it a VP)
COLUMN_OF: dict[str, str] = {}
for _s in SEATS:
    COLUMN_OF[f"vp_{_s}"] = _s
    _cols[f"vp_{_s}"] = Column("int16", f"final VP of {_s}, missing if the seat is empty",
                               when=f"{_s} is in play")
for _t in TRIBES:
    for _name, _doc in PER_TRIBE:
        key = f"vp_{_t}" if _name == "vp" else f"{_t}_{_name}"
        COLUMN_OF[key] = _t
        _cols[key] = Column("int16", f"{_t}: {_doc}; missing if {_t} is not in play",
                            when=f"{_t} is in play")
OUTCOMES = Outcomes(_cols, raw={"card_uses": N_TRIBES * MAX_CARDS})
O_WINNER = OUTCOMES.offset("winner")
O_WINNER_SEAT = OUTCOMES.offset("winner_seat")
O_END_REASON = OUTCOMES.offset("end_reason")
O_TURNS = OUTCOMES.offset("turns")
O_MARGIN = OUTCOMES.offset("margin")
O_PLAYERS = OUTCOMES.offset("players")
O_VP_SEAT = OUTCOMES.offset("vp_seat1")
O_TRIBE = OUTCOMES.offset("vp_blue")  # per tribe: len(PER_TRIBE) columns each
N_PER_TRIBE = len(PER_TRIBE)
O_CARD_USES = OUTCOMES.offset("card_uses")
N_OUT = OUTCOMES.size
# per-tribe counters in PER_TRIBE order after vp (offset + 1 + k)
TRIBE_COUNTERS = (PL_N_DEV, PL_N_TRADE, PL_N_RAID, PL_N_RAID_WON, PL_RAID_LOOT, PL_N_BATTLE,
                  PL_N_BATTLE_WON, PL_BATTLE_VP, PL_N_SUPPORT, PL_N_DEFEND, PL_N_EVENTS,
                  PL_FIRST_PASS, PL_FESTIVAL_VP)
