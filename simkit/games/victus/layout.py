"""Integer codes and array offsets for Victus's static components (``components.py``).

Every name the data files use (space kinds, arrow colours, die actions, Bourbon marker
icons, markers, stages) maps to one integer code here; njit kernels compare these codes.
Names are the rulebook's words; a code is the position of its name in the ``*_NAMES`` tuple.
"""

NO_SPACE = -1  # padding in space-index arrays; "no arrow"

# -- space kinds (board.toml `kind`) --------------------------------------------------------
KIND_NAMES = ("bastion", "wall", "inner", "outside", "camp", "trench", "expedition", "box")
KIND_BASTION = 0
KIND_WALL = 1
KIND_INNER = 2
KIND_OUTSIDE = 3
KIND_CAMP = 4
KIND_TRENCH = 5
KIND_EXPEDITION = 6
KIND_BOX = 7
BARCELONA_KINDS = (KIND_BASTION, KIND_WALL, KIND_INNER)

# -- Components.space_info columns (one row per space, int16) -------------------------------
S_KIND = 0  # KIND_*
S_NUMBER = 1  # printed number (11..58), 0 if unnumbered
S_BARCELONA = 2  # 1 for a Barcelona space (bastion, wall, inner)
S_RAMBLA = 3  # 1 if it touches the Rambla
S_YELLOW = 4  # space its yellow arrow points to, NO_SPACE if none
S_RED = 5  # space its red arrow points to, NO_SPACE if none
S_TRENCH = 6  # trench/camp column 0..5 (A..F), -1 if none
S_PARALLEL = 7  # 0 = camp X0, 1..3 = Parallel, -1 if none
S_HOSPITAL = 8  # HOSPITAL_* code, -1 if not a hospital
S_MARKER = 9  # MARKER_* code of the marker tied to this space, -1 if none
S_BATTERY_ICON = 10  # 1 for a camp (every camp carries a Bourbon battery icon)
S_CAMP = 11  # 0..14 index into Components.camps, -1 if not a camp
N_SPACE_INFO = 12

# -- arrows (board.toml `yellow`, `red`; chance.toml advance boxes) -------------------------
COLOUR_NAMES = ("YELLOW", "RED")
YELLOW = 0
RED = 1

# -- trench/camp tiles ----------------------------------------------------------------------
TRENCH_NAMES = ("A", "B", "C", "D", "E", "F")
N_TRENCH = 6
N_POSITIONS = 4  # 0 = camp, 1..3 = 1st..3rd Parallel

HOSPITAL_NAMES = ("infantry", "coronela")
HOSPITAL_INFANTRY = 0  # Saint Cross-14
HOSPITAL_CORONELA = 1  # Saint Mary of the Sea-34

# -- Bourbon action dice (dice.toml faces) ---------------------------------------------------
ACTION_NAMES = ("Reinforcements", "Bombardment", "Advance", "Trench")
ACT_REINFORCEMENTS = 0
ACT_BOMBARDMENT = 1
ACT_ADVANCE = 2
ACT_TRENCH = 3
MAX_INTENSITY = 3

STAGE_NAMES = ("I", "II", "III", "IV")
STAGE_I = 0
STAGE_II = 1
STAGE_III = 2
STAGE_IV = 3

# -- markers (markers.toml) ------------------------------------------------------------------
MARKER_KEYS = ("generalitat", "port", "gunpowder_store", "hospital")
MARKER_GENERALITAT = 0
MARKER_PORT = 1
MARKER_GUNPOWDER_STORE = 2
MARKER_HOSPITAL = 3
N_MARKERS = 4
START_FIRST_GAME = 0  # row of Components.marker_start
START_FULL = 1

SENSE_FURY_GROUPS = ("sense", "centre", "fury")
SENSE_FURY_COLOURS = ("ochre", "red")

# -- Bourbon marker icons: bit flags in Components.track_icons ------------------------------
ICON_NAMES = ("batteries", "healing", "mine", "advance")
ICON_BATTERIES = 1
ICON_HEALING = 2
ICON_MINE = 4  # "mine explodes"
ICON_ADVANCE = 8  # Components.track_advance holds the number of Advance symbols

DISC_NAMES = ("reinforcements", "batteries", "mine")
DISC_REINFORCEMENTS = 0
DISC_BATTERIES = 1
DISC_MINE = 2


# -- random streams (simkit.rng): one per purpose, so a rule change that draws more or
# less of one kind shifts no other. Bourbon dice and the players' choices restart every
# turn (keyed on the turn number), the chance deck at every reshuffle, each event pile on
# its own, Casanova's pile every turn: paired variants stay paired game by game.
STREAMS = ("set_up", "event_piles", "bourbon_dice", "chance", "policy", "stage_iv",
           "casanova")
(ST_SET_UP, ST_EVENT_PILES, ST_BOURBON_DICE, ST_CHANCE, ST_POLICY, ST_STAGE_IV,
 ST_CASANOVA) = range(len(STREAMS))
N_STREAMS = len(STREAMS)


# == engine state ============================================================================
# The game state is two arrays: `sp` int16[n_spaces, N_SP] (what lies in each space, boxes
# included) and `g` int32[N_G] (markers, discs, trench tiles, the chance deck, turn order).
# Bourbon troop tiles in one space are kept as their total value: the rulebook lets tiles
# in a space be swapped for any tiles of the same total, and all tiles in a space follow
# the same arrows, so the total is all the rules ever read.

SP_CORONELA = 0
SP_INFANTRY = 1
SP_CANNON = 2
SP_CANNON_FIRED = 3  # cannons of this space that fired this turn
SP_BOURBON = 4  # total value of the Bourbon troop tiles
SP_RUBBLE = 5  # RUBBLE_NONE / RUBBLE / RUINED
SP_DEFENSE = 6  # bastion defense tile: 0, +1 or +2
SP_BARRICADES = 7
SP_ORGAN_GUNS = 8
SP_BATTERY_TILES = 9  # Bourbon battery tiles (camps)
SP_RAZED = 10  # a razed Bourbon camp tile lies here
N_SP = 11

RUBBLE_NONE = 0
RUBBLE = 1
RUINED = 2

# g: globals
G_MARKER = 0  # + MARKER_*: pin position (index into Components.marker_values)
G_DISC = 4  # + DISC_*: position on the Bourbon marker
G_TRENCH = 7  # + column A..F: trench/camp tile position 0..3
G_STAGE = 13
G_ROUND = 14
G_TURN = 15  # turns played
G_FLAG = 16  # seat holding the Flag of Saint Eulalia
G_ACTIVE = 17  # seat taking its turn
G_CHANCE_NEXT = 18  # next card to draw from G_CHANCE_DECK
G_CHANCE_DECK = 19  # 14 slots: card indices in draw order
G_RUBBLE_ON_MARKERS = 33  # rubble/ruined tiles placed on markers by cards
G_RUBBLE_SUPPLY = 34  # rubble/ruined tiles left in the box
G_END_REASON = 35  # END_* once the game is over
G_MINE_EXPLOSIONS = 36
G_CHANCE_DRAWN = 37
G_COMBATS = 38
G_SEAT_AP = 39  # AP left in the current Barcelonan actions step
G_WAR_COUNCIL = 40  # WAR_COUNCIL_* of the card played this turn (priority group)
G_CARD_PLAYED = 41  # number of the card being resolved this turn, 0 if none
G_CARDS_PLAYED = 42
G_BOURBON_DICE_ROLLED = 43
G_ALL_PRIORITY = 44  # every action costs its priority cost this turn (card 39's leader)
G_FLAG_TURN = 45  # 1 while the Flag holder takes their turn (+1 Gunpowder Store)
G_RANDOM_CHOICE = 46  # 1: next round every player chooses their card at random
G_DICE_ORDER_FREE = 47  # 1: the active player orders the Bourbon dice
G_AP_GROUP = 48  # WAR_* group the AP being spent are restricted to, -1: any action
G_SEATS = 49  # seats at the table (players; solo: 2)
G_STAGE_IV_CARD = 50
G_BOMBARD_BONUS = 51  # leaders: + spaces every Bombardment hits this turn ...
G_BOMBARD_CAP = 52  # ... up to this many (0: no cap)
G_PRIORITY_MASK = 53  # leaders: bit WAR_* set = that group costs its priority cost
G_RANDOM_ROUND = 54  # 1: this round's cards are chosen at random (G_RANDOM_CHOICE last round)
# 55..63: reserved for the turn structure (engine.py)
G_CARD_BASE = 64  # 64..127: the event-card system's own state (card_layout.py)
# Event cards: three shuffled stage piles and the players' hands
PILE_SIZE = 50
HAND_SIZE = 24  # solo: Casanova's pile grows with each Change 1 card
G_PILE = 128  # + stage * PILE_SIZE: card numbers in draw order
G_PILE_COUNT = 278  # + stage: cards in the pile
G_PILE_NEXT = 281  # + stage: next card to draw
G_HAND = 284  # + seat * HAND_SIZE: card numbers, 0 = empty slot (solo: Casanova's pile)
# Competitive game (scoring.py)
G_SENSE_FURY = 380  # the Sense/Fury pin: space 1..9
G_VP = 381  # + seat: victory points
G_ROUND_CARD = 385  # + seat: the card the seat played this round (0: none yet)
G_DICE_CHOSEN = 389  # bit s set: the players chose the dice order in stage s (partial)
# Solo game (solo.py)
G_RESIGNATION = 390  # Villarroel's unused resignation tiles
G_CANCELLED = 391  # Casanova's cards cancelled with a resignation tile (count) ...
G_CANCELLED_CARDS = 392  # ... and their numbers (up to MAX_CANCELLED)
MAX_CANCELLED = 24
N_G = 416

END_NONE = -1
END_NAMES = ("survived", "coronela", "beach", "rubble", "victory_points")
END_SURVIVED = 0
END_CORONELA = 1
END_BEACH = 2
END_RUBBLE = 3
END_VICTORY_POINTS = 4  # competitive: Stage IV resolved with too few VP among all players

# The Twenty-Fourth War Council: the priority group of a card (full game)
WAR_COUNCIL_NAMES = ("movement", "markers", "artillery", "defense", "all")
WAR_MOVEMENT = 0
WAR_MARKERS = 1
WAR_ARTILLERY = 2
WAR_DEFENSE = 3
WAR_ALL = 4

# p: the rules as integers (rules.py builds it)
P_FULL = 0  # 0 first game, 1 full game
P_PLAYERS = 1
P_CORONELA_THRESHOLD = 2  # defeat when Coronela in Barcelona < this
P_RUBBLE_THRESHOLD = 3  # defeat when rubble/ruined tiles on the board >= this
P_POLICY = 4
P_CORONELA_LOSS_WEIGHT = 5  # policy: how dear a Coronela is against an infantry (x10)
P_ALWAYS_PRIORITY = 6  # "Always Priority Cost": every action at its priority cost
P_GREED = 7  # competitive policies: points against the city's safety (x10)
P_COMPETITIVE = 8  # Sense/Fury scoring, VP, the Flag to the lowest card, fame
P_SOLO = 9  # Villarroel (seat 0) and Casanova (seat 1)
P_HALF_A_BOMB = 10  # "Given Half a Bomb"
P_DICE_ORDER = 11  # DICE_*: who orders the Bourbon action dice
P_MODERATING = 12  # "Moderating Sense and Fury": a card scores on a colour change
P_VICTORY_LEVEL = 13  # competitive: VP needed among all players
P_RESIGN_PER_ROUND = 14  # solo: a resignation tile each round (the Note) not each stage
P_CARDS = 15  # cards dealt per seat and stage
P_ROUNDS = 16  # rounds per stage
P_DICE_CHOICE_FROM = 17  # policy, partial dice order: choose the order from this stage (1-4)
P_RESIGN_BELOW = 18  # policy, solo: cancel a Casanova card scoring below this
N_P = 19

DICE_ORDER_NAMES = ("free", "sequential", "partial")
DICE_FREE = 0
DICE_SEQUENTIAL = 1
DICE_PARTIAL = 2

# Static components the kernels read, packed once into a tuple (``engine.board_tuple``)
K_INFO = 0
K_ARROWS = 1
K_TRENCH = 2
K_CAMPS = 3
K_TRACK = 4  # int16[3, t]: value, icons, advance symbols
K_CHANCE_ADVANCE = 5
K_CHANCE_BOMBARD = 6
K_STAGE_ROW = 7
K_MARKER_VALUES = 8
K_SPECIAL = 9  # int16[N_SPECIAL]: the special spaces below
K_MOVE_ADJ = 10
K_ADJ = 11  # uint8[n, n]: shared side
K_FIRE_DISTANCE = 12  # int16[n, n]: [bastion, source] Bourbon path length, -1 if none
K_ACTION_COSTS = 13  # int8[N_ACTIONS, 4]: group, first, general, priority

# Barcelonan actions (data/actions.toml, in this order)
BARCELONAN_ACTION_NAMES = (
    "move_troops", "healing", "worm", "improve_marker_troop_present",
    "improve_marker_no_troop", "change_card", "move_cannon", "fire_cannon", "repair_cannon",
    "remove_rubble", "bastion_defense", "barricade")
A_MOVE_TROOPS = 0
A_HEALING = 1
A_WORM = 2
A_IMPROVE_PRESENT = 3
A_IMPROVE_ABSENT = 4
A_CHANGE_CARD = 5
A_MOVE_CANNON = 6
A_FIRE_CANNON = 7
A_REPAIR_CANNON = 8
A_REMOVE_RUBBLE = 9
A_BASTION_DEFENSE = 10
A_BARRICADE = 11
N_ACTIONS = 12
COST_GROUP = 0
COST_FIRST = 1
COST_GENERAL = 2
COST_PRIORITY = 3

SPECIAL_RESERVE = 0
SPECIAL_WOUNDED = 1
SPECIAL_CAPTURED = 2
SPECIAL_BEACH = 3
SPECIAL_PORT = 4
SPECIAL_EXPEDITION = 5
SPECIAL_SAINT_CROSS = 6
SPECIAL_SAINT_MARY = 7
SPECIAL_MONTJUIC = 8
SPECIAL_BATTERIES_MIN = 9
N_SPECIAL = 10

# Trace events
EV_DISC = 1  # a = disc, b = from, c = to
EV_BOMBARD_SPACE = 2  # a = space, b = hits
EV_HIT = 3  # a = space, b = what (HIT_*)
EV_ADVANCE = 4  # a = from, b = to, c = value
EV_TRENCH = 5  # a = column, b = from, c = to
EV_MINE_DISC = 6  # a = new value
EV_COMBAT = 7  # a = space, b = Bourbon value, c = Barcelonan value
EV_HEAL = 8  # a = space, b = troop kind, c = count
EV_DEFEAT = 9  # a = END_*
EV_CAMP_PLACED = 10  # a = space, b = value
EV_HALF_A_BOMB = 11  # a = marker, b = its new pin position

HIT_NAMES = ("bastion defense", "Coronela", "infantry", "cannon", "barricade", "organ-gun",
             "rubble placed", "flipped to ruined", "ignored (ruined)")
HIT_DEFENSE = 0
HIT_CORONELA = 1
HIT_INFANTRY = 2
HIT_CANNON = 3
HIT_BARRICADE = 4
HIT_ORGAN_GUN = 5
HIT_RUBBLE = 6
HIT_RUINED = 7
HIT_IGNORED = 8
