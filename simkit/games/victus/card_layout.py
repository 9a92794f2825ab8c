"""Integer codes and offsets of Victus's event-card system (``cards.py``, ``card_effects.py``).

Names the card file uses (kinds, opcodes, pieces, space-set words, timings, modifiers,
condition tests) map to integer codes here; a code is the position of its name in the
``*_NAMES`` tuple. The language itself is documented in ``cards.py``.

What the turn structure reads:

- ``CARDS`` is the tuple ``cards.card_tuple()`` returns, in the order ``C_*`` below.
- ``Cards.meta`` / ``CARDS[C_META]``: int16[151, N_META], row = card number (row 0 unused).
- the card system's globals ``G_*`` (``layout.py``, with every other offset).
- the leaders' persistent modifiers ``MOD_*`` (``card_effects.leader_modifier``).
"""

from simkit.layout import Fields, codes

from . import layout as L

# -- card kinds (cards.toml `kind`) --------------------------------------------------------
KIND_NAMES = ("event", "barcelonan_leader", "bourbon_leader")
KIND_EVENT, KIND_BARCELONAN_LEADER, KIND_BOURBON_LEADER = codes(KIND_NAMES)
SIDE_NAMES = ("barcelonan", "bourbon")  # the side of a leader: kind - 1
SIDE_BARCELONAN, SIDE_BOURBON = codes(SIDE_NAMES)

# -- Cards.meta columns (int16) -------------------------------------------------------------
_M = Fields("card meta")
M_STAGE = _M("stage")  # layout.STAGE_I .. STAGE_III
M_KIND = _M("kind")  # KIND_*
M_FIRST_GAME = _M("first_game")  # 1: the "•" mark (first-game deck)
M_WAR_COUNCIL = _M("war_council")  # layout.WAR_*: the War Council's priority group
M_SENSE_FURY = _M("sense_fury")  # signed points: negative = Sense, positive = Fury
M_ALMANAC = _M("almanac", L.N_MARKERS)  # + layout.MARKER_*: pin steps (+ clockwise)
M_LEADER = _M("leader")  # index into Cards.leader_names, -1 for an event
M_TIMED = _M("timed")  # bit (1 << T_*) set when the card has ops for that timing
M_RANK = _M("rank")  # a leader's weight (number of modifiers and timed ops): the default
#                      policy deactivates the lightest Barcelonan leader, heaviest Bourbon
N_META = _M.size

# -- timings: one op list per card and timing (CSR starts[card * N_TIMINGS + timing]) ------
TIMING_NAMES = ("effect", "start_of_turn", "end_of_turn", "end_of_round", "next_round_start",
                "modifiers")
# T_PLAY (`effect`): resolved when the card is played (step 2 of the turn); T_MODIFIERS:
# leaders' persistent modifiers (never run; read by leader_modifier)
(T_PLAY, T_START_OF_TURN, T_END_OF_TURN, T_END_OF_ROUND, T_NEXT_ROUND_START,
 T_MODIFIERS) = codes(TIMING_NAMES)
N_TIMINGS = len(TIMING_NAMES)

# -- the CARDS tuple ----------------------------------------------------------------------------
# meta int16[151, N_META]; ops int32[n_ops, OP_WIDTH]; starts int32[151 * N_TIMINGS + 1]
# (CSR into ops); sets int16[n_sets, n_spaces + 1] (column 0 = size, then space indices);
# limits int16[N_LIMITS] (tile supplies, tiles.toml); sense_fury int8[2, 9] (the track's
# groups and colours, markers.toml, rows SF_*)
CARD_ARRAYS = ("meta", "ops", "starts", "sets", "limits", "sense_fury")
C_META, C_OPS, C_STARTS, C_SETS, C_LIMITS, C_SENSE_FURY = codes(CARD_ARRAYS)
SF_ROWS = ("group", "colour")
SF_GROUP, SF_COLOUR = codes(SF_ROWS)

LIMIT_NAMES = ("organ_gun", "barricade", "defense", "battery")
LIMIT_ORGAN_GUN, LIMIT_BARRICADE, LIMIT_DEFENSE, LIMIT_BATTERY = codes(LIMIT_NAMES)
N_LIMITS = len(LIMIT_NAMES)

# -- ops: int32[n_ops, OP_WIDTH] = opcode, then arguments A..G -----------------------------
OP_COLUMNS = ("code", "a", "b", "c", "d", "e", "f", "g")
O_CODE, O_A, O_B, O_C, O_D, O_E, O_F, O_G = codes(OP_COLUMNS)
OP_WIDTH = len(OP_COLUMNS)

OP_NAMES = (
    "advance", "bombard", "trench", "disc", "marker", "temp", "move_troops", "place",
    "remove", "capture", "free", "eliminate", "bourbons", "expedition_combat", "heal",
    "mine_explodes", "chance_hits", "grant_ap", "random_card_choice_next_round",
    "deactivate_leader", "rubble_on_marker", "if", "jump",
)
OP_ADVANCE = OP_NAMES.index("advance")  # A = steps
OP_BOMBARD = OP_NAMES.index("bombard")  # A = hits
OP_TRENCH = OP_NAMES.index("trench")  # A = symbols (+ forward, - back)
OP_DISC = OP_NAMES.index("disc")  # A = DISC_*, B = steps, C = SET_*
OP_MARKER = OP_NAMES.index("marker")  # A = MARKER_*, B = steps, C = SET_*
OP_TEMP = OP_NAMES.index("temp")  # A = TEMP_* target, B = +/- value for this turn
# A = from set, B = to set, C = PIECE_*, D = n (0: fill), E = each (0: no cap),
# F = partial, G = else jump (-1: none)
OP_MOVE_TROOPS = OP_NAMES.index("move_troops")
OP_PLACE = OP_NAMES.index("place")  # A = PIECE_*, B = set, C = n, D = WHERE_*
OP_REMOVE = OP_NAMES.index("remove")  # A = PIECE_*, B = set, C = n, D = WHERE_*
OP_CAPTURE = OP_NAMES.index("capture")  # A = from set, B = PIECE_*, C = n
OP_FREE = OP_NAMES.index("free")  # A = to set, B = n
OP_ELIMINATE = OP_NAMES.index("eliminate")  # A = from set, B = PIECE_*, C = n
OP_BOURBONS = OP_NAMES.index("bourbons")  # A = set, B = value, C = VALUE_*
OP_EXPEDITION_COMBAT = OP_NAMES.index("expedition_combat")
OP_HEAL = OP_NAMES.index("heal")
OP_MINE_EXPLODES = OP_NAMES.index("mine_explodes")
OP_CHANCE_HITS = OP_NAMES.index("chance_hits")  # A = spaces, B = hits
OP_GRANT_AP = OP_NAMES.index("grant_ap")  # A = WAR_* group (0..3), B = AP
OP_RANDOM_CHOICE = OP_NAMES.index("random_card_choice_next_round")
OP_DEACTIVATE = OP_NAMES.index("deactivate_leader")  # A = SIDE_*, B = WHOSE_*
OP_RUBBLE_ON_MARKER = OP_NAMES.index("rubble_on_marker")  # A = tiles (+ placed, - removed)
# A = COND_*, B, C = its subject, D = CMP_*, E = n, F = jump when false
OP_IF = OP_NAMES.index("if")
OP_JUMP = OP_NAMES.index("jump")  # A = target op index

SET_NAMES = ("relative", "min", "max")  # disc/marker: `n` steps, or `to = "min" | "max"`
SET_RELATIVE, SET_MIN, SET_MAX = codes(SET_NAMES)

# temporary +/-1 ("↑/↓"): the four markers, then the three discs
TEMP_NAMES = L.MARKER_KEYS + L.DISC_NAMES
assert len(TEMP_NAMES) == L.N_TEMP
TEMP_DISC = L.N_MARKERS  # TEMP_DISC + DISC_* is a disc

PIECE_NAMES = ("troops", "infantry", "coronela", "cannon", "organ_gun", "barricade",
               "bastion_defense", "rubble", "ruined", "battery", "bourbon")
PIECE_TROOP = PIECE_NAMES.index("troops")  # infantry or Coronela, the policy chooses
PIECE_INFANTRY = PIECE_NAMES.index("infantry")
PIECE_CORONELA = PIECE_NAMES.index("coronela")
PIECE_CANNON = PIECE_NAMES.index("cannon")
PIECE_ORGAN_GUN = PIECE_NAMES.index("organ_gun")
PIECE_BARRICADE = PIECE_NAMES.index("barricade")
PIECE_DEFENSE = PIECE_NAMES.index("bastion_defense")
# placing: as an unabsorbed hit (none -> rubble -> ruined); removing: a tile
PIECE_RUBBLE = PIECE_NAMES.index("rubble")
PIECE_RUINED = PIECE_NAMES.index("ruined")  # placing: a ruined tile at once
PIECE_BATTERY = PIECE_NAMES.index("battery")  # Bourbon battery tile (outside Barcelona)
PIECE_BOURBON = PIECE_NAMES.index("bourbon")  # Bourbon troop value (remove only)
MOVABLE_PIECES = (PIECE_TROOP, PIECE_INFANTRY, PIECE_CORONELA, PIECE_CANNON)
PLACEABLE_PIECES = (PIECE_ORGAN_GUN, PIECE_BARRICADE, PIECE_DEFENSE, PIECE_RUBBLE,
                    PIECE_RUINED, PIECE_BATTERY)
REMOVABLE_PIECES = (PIECE_ORGAN_GUN, PIECE_BARRICADE, PIECE_DEFENSE, PIECE_RUBBLE,
                    PIECE_BATTERY, PIECE_BOURBON)

WHERE_NAMES = ("choose", "each", "chance")
# choose: n pieces on spaces of the set the policy picks; each: n pieces on every space
# of the set; chance: draw a chance card, 1 piece on each of the first n spaces of its row
WHERE_CHOOSE, WHERE_EACH, WHERE_CHANCE = codes(WHERE_NAMES)

VALUE_NAMES = ("value", "reinforcements")
# reinforcements: "as many Bourbon troops as the Reinforcements value"
VALUE_FIXED, VALUE_REINFORCEMENTS = codes(VALUE_NAMES)

WHOSE_NAMES = ("any", "own", "others")
WHOSE_ANY, WHOSE_OWN, WHOSE_OTHERS = codes(WHOSE_NAMES)

# -- `if` conditions -------------------------------------------------------------------------
COND_NAMES = ("count", "marker", "disc", "rubble_on_board", "parallel", "leaders")
# B = PIECE_*, C = set: pieces (Bourbon value, rubble/ruined tiles) there
COND_COUNT = COND_NAMES.index("count")
COND_MARKER = COND_NAMES.index("marker")  # B = MARKER_*: its value (with this turn's ↑/↓)
COND_DISC = COND_NAMES.index("disc")  # B = DISC_*: its value (with this turn's ↑/↓)
# rubble/ruined tiles on the board, markers included (the defeat count)
COND_RUBBLE = COND_NAMES.index("rubble_on_board")
COND_PARALLEL = COND_NAMES.index("parallel")  # the most advanced Parallel completed (0..3)
COND_LEADERS = COND_NAMES.index("leaders")  # B = SIDE_*: active leaders of that side
CMP_NAMES = ("at_least", "at_most", "equals")
CMP_AT_LEAST, CMP_AT_MOST, CMP_EQUALS = codes(CMP_NAMES)

# -- leaders' persistent modifiers (card_effects.leader_modifier sums the active ones) -----
MOD_NAMES = ("bombard_spaces", "advance_die", "trench_die", "bombard_die",
             "reinforcements_die", "ap", "all_priority", "priority_movement",
             "priority_markers", "priority_artillery", "priority_defense")
# + spaces hit by every Bombardment (die or card), up to `max`
MOD_BOMBARD_SPACES = MOD_NAMES.index("bombard_spaces")
# + to Advance results of the Bourbon action dice (floored at 0)
MOD_ADVANCE_DIE = MOD_NAMES.index("advance_die")
MOD_TRENCH_DIE = MOD_NAMES.index("trench_die")  # + to Trench results of the dice
MOD_BOMBARD_DIE = MOD_NAMES.index("bombard_die")  # + hits to Bombardment results of the dice
# + flags to Reinforcements results of the dice
MOD_REINFORCEMENTS_DIE = MOD_NAMES.index("reinforcements_die")
# + AP in every Barcelonan actions step (Generalitat value + this, floor 0)
MOD_AP = MOD_NAMES.index("ap")
# > 0: every Barcelonan action costs its priority cost (card 39).
MOD_ALL_PRIORITY = MOD_NAMES.index("all_priority")
#   Moot under "Always Priority Cost", where every action costs that anyway: the rulebook's
#   "card 39 has no effect" (the engine may also simply not read it under that rule).
# MOD_PRIORITY + WAR_* (0..3) > 0: that group also costs priority
MOD_PRIORITY = MOD_NAMES.index("priority_movement")
# Each modifier op: A = value, B = cap (MOD_BOMBARD_SPACES; 0 = none), C = stage bit mask
# (bit layout.STAGE_*; all stages when the card gives no `stages`).
DIE_MODS = {L.ACT_REINFORCEMENTS: MOD_REINFORCEMENTS_DIE, L.ACT_BOMBARDMENT: MOD_BOMBARD_DIE,
            L.ACT_ADVANCE: MOD_ADVANCE_DIE, L.ACT_TRENCH: MOD_TRENCH_DIE}
