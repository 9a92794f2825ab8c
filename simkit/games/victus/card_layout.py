"""Integer codes and offsets of Victus's event-card system (``cards.py``, ``card_effects.py``).

Names the card file uses (kinds, opcodes, pieces, space-set words, timings, modifiers,
condition tests) map to integer codes here; a code is the position of its name in the
``*_NAMES`` tuple. The language itself is documented in ``cards.py``.

What the turn structure reads:

- ``CARDS`` is the tuple ``cards.card_tuple()`` returns, in the order ``C_*`` below.
- ``Cards.meta`` / ``CARDS[C_META]``: int16[151, N_META], row = card number (row 0 unused).
- the g block ``g[G_CARD_BASE .. G_CARD_BASE + 63]`` (offsets ``G_*`` below, absolute).
- the leaders' persistent modifiers ``MOD_*`` (``card_effects.leader_modifier``).
"""

from . import layout as L

N_CARDS = 150
N_SEATS = 4  # 1-4 players; solo uses 2 seats (Villarroel, Casanova)

# -- card kinds (cards.toml `kind`) --------------------------------------------------------
KIND_NAMES = ("event", "barcelonan_leader", "bourbon_leader")
KIND_EVENT = 0
KIND_BARCELONAN_LEADER = 1
KIND_BOURBON_LEADER = 2
SIDE_NAMES = ("barcelonan", "bourbon")  # the side of a leader: kind - 1
SIDE_BARCELONAN = 0
SIDE_BOURBON = 1

# -- Cards.meta columns (int16) -------------------------------------------------------------
M_STAGE = 0  # layout.STAGE_I .. STAGE_III
M_KIND = 1  # KIND_*
M_FIRST_GAME = 2  # 1: the "•" mark (first-game deck)
M_WAR_COUNCIL = 3  # layout.WAR_*: the Twenty-Fourth War Council's priority group
M_SENSE_FURY = 4  # signed points: negative = Sense, positive = Fury
M_ALMANAC = 5  # + layout.MARKER_*: pin steps (+ clockwise, - counter-clockwise)
M_LEADER = 9  # index into Cards.leader_names, -1 for an event
M_TIMED = 10  # bit (1 << T_*) set when the card has ops for that timing
M_RANK = 11  # a leader's weight (number of modifiers and timed ops): the default policy
#              deactivates the lightest Barcelonan leader and the heaviest Bourbon one
N_META = 12

# -- timings: one op list per card and timing (CSR starts[card * N_TIMINGS + timing]) ------
TIMING_NAMES = ("effect", "start_of_turn", "end_of_turn", "end_of_round", "next_round_start",
                "modifiers")
T_PLAY = 0  # `effect`: resolved when the card is played (step 2 of the turn)
T_START_OF_TURN = 1
T_END_OF_TURN = 2
T_END_OF_ROUND = 3
T_NEXT_ROUND_START = 4
T_MODIFIERS = 5  # leaders: persistent modifiers (never run; read by leader_modifier)
N_TIMINGS = 6

# -- the CARDS tuple ----------------------------------------------------------------------------
C_META = 0  # int16[151, N_META]
C_OPS = 1  # int32[n_ops, OP_WIDTH]
C_STARTS = 2  # int32[151 * N_TIMINGS + 1]: CSR into C_OPS
C_SETS = 3  # int16[n_sets, n_spaces + 1]: column 0 = size, then space indices
C_LIMITS = 4  # int16[N_LIMITS]: tile supplies (tiles.toml)

LIMIT_ORGAN_GUN = 0
LIMIT_BARRICADE = 1
LIMIT_DEFENSE = 2
LIMIT_BATTERY = 3
N_LIMITS = 4

# -- ops: int32[n_ops, OP_WIDTH] = opcode, then arguments A..G -----------------------------
OP_WIDTH = 8
O_CODE = 0
O_A = 1
O_B = 2
O_C = 3
O_D = 4
O_E = 5
O_F = 6
O_G = 7

OP_NAMES = (
    "advance", "bombard", "trench", "disc", "marker", "temp", "move_troops", "place",
    "remove", "capture", "free", "eliminate", "bourbons", "expedition_combat", "heal",
    "mine_explodes", "chance_hits", "grant_ap", "random_card_choice_next_round",
    "deactivate_leader", "rubble_on_marker", "if", "jump",
)
OP_ADVANCE = 0  # A = steps
OP_BOMBARD = 1  # A = hits
OP_TRENCH = 2  # A = symbols (+ forward, - back)
OP_DISC = 3  # A = DISC_*, B = steps, C = SET_*
OP_MARKER = 4  # A = MARKER_*, B = steps, C = SET_*
OP_TEMP = 5  # A = TEMP_* target, B = +/- value for this turn
OP_MOVE_TROOPS = 6  # A = from set, B = to set, C = PIECE_*, D = n (0: fill), E = each
#                     (0: no cap), F = partial, G = else jump (-1: none)
OP_PLACE = 7  # A = PIECE_*, B = set, C = n, D = WHERE_*
OP_REMOVE = 8  # A = PIECE_*, B = set, C = n, D = WHERE_*
OP_CAPTURE = 9  # A = from set, B = PIECE_*, C = n
OP_FREE = 10  # A = to set, B = n
OP_ELIMINATE = 11  # A = from set, B = PIECE_*, C = n
OP_BOURBONS = 12  # A = set, B = value, C = VALUE_*
OP_EXPEDITION_COMBAT = 13
OP_HEAL = 14
OP_MINE_EXPLODES = 15
OP_CHANCE_HITS = 16  # A = spaces, B = hits
OP_GRANT_AP = 17  # A = WAR_* group (0..3), B = AP
OP_RANDOM_CHOICE = 18
OP_DEACTIVATE = 19  # A = SIDE_*, B = WHOSE_*
OP_RUBBLE_ON_MARKER = 20  # A = tiles (+ placed, - removed)
OP_IF = 21  # A = COND_*, B, C = its subject, D = CMP_*, E = n, F = jump when false
OP_JUMP = 22  # A = target op index

SET_NAMES = ("relative", "min", "max")  # disc/marker: `n` steps, or `to = "min" | "max"`
SET_RELATIVE = 0
SET_MIN = 1
SET_MAX = 2

# temporary +/-1 ("↑/↓"): the four markers, then the three discs
TEMP_NAMES = L.MARKER_KEYS + L.DISC_NAMES
TEMP_DISC = L.N_MARKERS  # TEMP_DISC + DISC_* is a disc

PIECE_NAMES = ("troops", "infantry", "coronela", "cannon", "organ_gun", "barricade",
               "bastion_defense", "rubble", "ruined", "battery", "bourbon")
PIECE_TROOP = 0  # infantry or Coronela, the policy chooses
PIECE_INFANTRY = 1
PIECE_CORONELA = 2
PIECE_CANNON = 3
PIECE_ORGAN_GUN = 4
PIECE_BARRICADE = 5
PIECE_DEFENSE = 6
PIECE_RUBBLE = 7  # placing: as an unabsorbed hit (none -> rubble -> ruined); removing: a tile
PIECE_RUINED = 8  # placing: a ruined tile at once
PIECE_BATTERY = 9  # Bourbon battery tile (outside Barcelona)
PIECE_BOURBON = 10  # Bourbon troop value (remove only)
MOVABLE_PIECES = (PIECE_TROOP, PIECE_INFANTRY, PIECE_CORONELA, PIECE_CANNON)
PLACEABLE_PIECES = (PIECE_ORGAN_GUN, PIECE_BARRICADE, PIECE_DEFENSE, PIECE_RUBBLE,
                    PIECE_RUINED, PIECE_BATTERY)
REMOVABLE_PIECES = (PIECE_ORGAN_GUN, PIECE_BARRICADE, PIECE_DEFENSE, PIECE_RUBBLE,
                    PIECE_BATTERY, PIECE_BOURBON)

WHERE_NAMES = ("choose", "each", "chance")
WHERE_CHOOSE = 0  # n pieces on spaces of the set the policy picks
WHERE_EACH = 1  # n pieces on every space of the set
WHERE_CHANCE = 2  # draw a chance card: 1 piece on each of the first n spaces of its row

VALUE_NAMES = ("value", "reinforcements")
VALUE_FIXED = 0
VALUE_REINFORCEMENTS = 1  # "as many Bourbon troops as the Reinforcements value"

WHOSE_NAMES = ("any", "own", "others")
WHOSE_ANY = 0
WHOSE_OWN = 1
WHOSE_OTHERS = 2

# -- `if` conditions -------------------------------------------------------------------------
COND_NAMES = ("count", "marker", "disc", "rubble_on_board", "parallel", "leaders")
COND_COUNT = 0  # B = PIECE_*, C = set: pieces (Bourbon value, rubble/ruined tiles) there
COND_MARKER = 1  # B = MARKER_*: its value (with this turn's ↑/↓)
COND_DISC = 2  # B = DISC_*: its value (with this turn's ↑/↓)
COND_RUBBLE = 3  # rubble/ruined tiles on the board, markers included (the defeat count)
COND_PARALLEL = 4  # the most advanced Parallel completed (0..3)
COND_LEADERS = 5  # B = SIDE_*: active leaders of that side
CMP_NAMES = ("at_least", "at_most", "equals")
CMP_AT_LEAST = 0
CMP_AT_MOST = 1
CMP_EQUALS = 2

# -- leaders' persistent modifiers (card_effects.leader_modifier sums the active ones) -----
MOD_NAMES = ("bombard_spaces", "advance_die", "trench_die", "bombard_die",
             "reinforcements_die", "ap", "all_priority", "priority_movement",
             "priority_markers", "priority_artillery", "priority_defense")
MOD_BOMBARD_SPACES = 0  # + spaces hit by every Bombardment (die or card), up to `max`
MOD_ADVANCE_DIE = 1  # + to Advance results of the Bourbon action dice (floored at 0)
MOD_TRENCH_DIE = 2  # + to Trench results of the dice
MOD_BOMBARD_DIE = 3  # + hits to Bombardment results of the dice
MOD_REINFORCEMENTS_DIE = 4  # + flags to Reinforcements results of the dice
MOD_AP = 5  # + AP in every Barcelonan actions step (Generalitat value + this, floor 0)
MOD_ALL_PRIORITY = 6  # > 0: every Barcelonan action costs its priority cost (card 39).
#   Moot under "Always Priority Cost", where every action costs that anyway: the rulebook's
#   "card 39 has no effect" (the engine may also simply not read it under that rule).
MOD_PRIORITY = 7  # MOD_PRIORITY + WAR_* (0..3) > 0: that group also costs priority
# Each modifier op: A = value, B = cap (MOD_BOMBARD_SPACES; 0 = none), C = stage bit mask
# (bit layout.STAGE_*; all stages when the card gives no `stages`).
DIE_MODS = {L.ACT_REINFORCEMENTS: MOD_REINFORCEMENTS_DIE, L.ACT_BOMBARDMENT: MOD_BOMBARD_DIE,
            L.ACT_ADVANCE: MOD_ADVANCE_DIE, L.ACT_TRENCH: MOD_TRENCH_DIE}

# -- the g block: g[G_CARD_BASE .. G_CARD_BASE + 63] (absolute offsets) ---------------------
_B = L.G_CARD_BASE
G_LEADER = _B + 0  # + seat: card number of the seat's active leader, 0 if none
G_AP_GRANTED = _B + 4  # + WAR_* (0..3): AP a card granted this turn for that group
#   ("Movement (X AP)", "Artillery (X AP)"); the Barcelonan actions step spends it
G_TEMP = _B + 8  # + TEMP_*: this turn's ↑/↓ on a marker's or disc's value (7 slots)
G_ROUND_CARD = _B + 15  # + seat: the card the seat played this round (0: none yet)
G_PENDING_TURN = _B + 19  # + seat: event whose `start_of_turn` waits for the seat's next turn
G_PENDING_ROUND = _B + 23  # + seat: event whose `next_round_start` waits for the next round
G_SET_ASIDE = _B + 27  # + seat: leader deactivated in the round it was played (scored at the
#   end of the round, then boxed; competitive rules). The engine clears it after scoring.
G_CARDS_RESOLVED = _B + 31  # statistics: cards resolved
G_LEADERS_DEACTIVATED = _B + 32  # leaders deactivated by cards (not replaced by their owner)
G_TROOPS_CAPTURED = _B + 33  # Barcelonan troops captured by cards
G_OPS_RUN = _B + 34  # ops executed (a statistic)
G_CARD_END = _B + 35  # first free slot; 35..63 are spare
assert G_CARD_END <= L.G_CARD_BASE + 64

# -- trace events (>= 100) ------------------------------------------------------------------
EV_CARD = 100  # a = seat, b = card, c = KIND_*
EV_ALMANAC = 101  # a = marker, b = from position, c = to position
EV_LEADER_ON = 102  # a = seat, b = card
EV_LEADER_OFF = 103  # a = seat, b = card, c = 1 if deactivated by a card (0: replaced)
EV_TIMED = 104  # a = seat, b = card, c = T_*
EV_MOVED = 105  # a = from space, b = to space, c = layout.SP_* field moved
EV_PLACED = 106  # a = space, b = PIECE_*, c = new count (or rubble state)
EV_REMOVED = 107  # a = space, b = PIECE_*, c = amount (eliminate: PIECE_TROOPS or CANNON)
EV_CAPTURED = 108  # a = space, b = layout.SP_* field
EV_FREED = 109  # a = space, b = layout.SP_* field
EV_BOURBONS = 110  # a = space, b = value placed
EV_AP = 111  # a = group, b = AP granted
EV_TEMP = 112  # a = TEMP_*, b = change
EV_RANDOM_CHOICE = 113
EV_RUBBLE_MARKERS = 114  # a = change, b = tiles on markers now
EV_BRANCH = 115  # a = card, b = 1 if the `if` was false (its else, or nothing)
EV_MARKER = 116  # a = marker, b = from position, c = to position
EV_NOT_ENOUGH = 117  # a = wanted, b = available: move_troops runs its else (or nothing)
