"""Integer codes and array offsets for Victus's static components (``components.py``).

Every name the data files use (space kinds, arrow colours, die actions, Bourbon marker
icons, markers, stages) maps to one integer code here; njit kernels compare these codes.
Names are the rulebook's words; a code is the position of its name in the ``*_NAMES`` tuple.
"""

from simkit.games.base import Column, Outcomes
from simkit.layout import Fields, codes

NO_SPACE = -1  # padding in space-index arrays; "no arrow"

# -- space kinds (board.toml `kind`) --------------------------------------------------------
KIND_NAMES = ("bastion", "wall", "inner", "outside", "camp", "trench", "expedition", "box")
(KIND_BASTION, KIND_WALL, KIND_INNER, KIND_OUTSIDE, KIND_CAMP, KIND_TRENCH, KIND_EXPEDITION,
 KIND_BOX) = codes(KIND_NAMES)
BARCELONA_KINDS = (KIND_BASTION, KIND_WALL, KIND_INNER)

# -- Components.space_info columns (one row per space, int16) -------------------------------
_S = Fields("space_info")
S_KIND = _S("kind")  # KIND_*
S_NUMBER = _S("number")  # printed number (11..58), 0 if unnumbered
S_BARCELONA = _S("barcelona")  # 1 for a Barcelona space (bastion, wall, inner)
S_RAMBLA = _S("rambla")  # 1 if it touches the Rambla
S_YELLOW = _S("yellow")  # space its yellow arrow points to, NO_SPACE if none
S_RED = _S("red")  # space its red arrow points to, NO_SPACE if none
S_TRENCH = _S("trench")  # trench/camp column 0..5 (A..F), -1 if none
S_PARALLEL = _S("parallel")  # 0 = camp X0, 1..3 = Parallel, -1 if none
S_HOSPITAL = _S("hospital")  # HOSPITAL_* code, -1 if not a hospital
S_MARKER = _S("marker")  # MARKER_* code of the marker tied to this space, -1 if none
S_BATTERY_ICON = _S("battery_icon")  # 1 for a camp (every camp carries a battery icon)
S_CAMP = _S("camp")  # 0..14 index into Components.camps, -1 if not a camp
N_SPACE_INFO = _S.size

# -- arrows (board.toml `yellow`, `red`; chance.toml advance boxes) -------------------------
COLOUR_NAMES = ("YELLOW", "RED")
YELLOW, RED = codes(COLOUR_NAMES)

# -- trench/camp tiles ----------------------------------------------------------------------
TRENCH_NAMES = ("A", "B", "C", "D", "E", "F")
N_TRENCH = len(TRENCH_NAMES)
N_POSITIONS = 4  # 0 = camp, 1..3 = 1st..3rd Parallel

HOSPITAL_NAMES = ("infantry", "coronela")
HOSPITAL_INFANTRY, HOSPITAL_CORONELA = codes(HOSPITAL_NAMES)  # Saint Cross-14, Saint Mary-34

# -- Bourbon action dice (dice.toml faces) ---------------------------------------------------
ACTION_NAMES = ("Reinforcements", "Bombardment", "Advance", "Trench")
ACT_REINFORCEMENTS, ACT_BOMBARDMENT, ACT_ADVANCE, ACT_TRENCH = codes(ACTION_NAMES)
MAX_INTENSITY = 3

STAGE_NAMES = ("I", "II", "III", "IV")
STAGE_I, STAGE_II, STAGE_III, STAGE_IV = codes(STAGE_NAMES)

# -- markers (markers.toml) ------------------------------------------------------------------
MARKER_KEYS = ("generalitat", "port", "gunpowder_store", "hospital")
MARKER_GENERALITAT, MARKER_PORT, MARKER_GUNPOWDER_STORE, MARKER_HOSPITAL = codes(MARKER_KEYS)
N_MARKERS = len(MARKER_KEYS)
START_NAMES = ("first_game", "full")  # rows of Components.marker_start
START_FIRST_GAME, START_FULL = codes(START_NAMES)

SENSE_FURY_GROUPS = ("sense", "centre", "fury")
SENSE_FURY_COLOURS = ("ochre", "red")

# -- Bourbon marker icons: bit flags in Components.track_icons ------------------------------
ICON_NAMES = ("batteries", "healing", "mine", "advance")
ICON_BATTERIES = 1
ICON_HEALING = 2
ICON_MINE = 4  # "mine explodes"
ICON_ADVANCE = 8  # Components.track_advance holds the number of Advance symbols

DISC_NAMES = ("reinforcements", "batteries", "mine")
DISC_REINFORCEMENTS, DISC_BATTERIES, DISC_MINE = codes(DISC_NAMES)


# -- the scripted players (policies.py describes them); a policy's id is its position
POLICY_NAMES = ("greedy", "random", "fortify", "naive", "lookahead")
GREEDY, RANDOM, FORTIFY, NAIVE, LOOKAHEAD = codes(POLICY_NAMES)
# the pieces of the strong players' skill (``greedy``, ``fortify``), one bit each in
# ``W_SKILLS``: all on by default; a measurement turns one off to price it (paired games)
SKILL_NAMES = ("cards", "spend_ap", "rubble", "port", "dice", "sorties", "artillery",
               "dice_every_order")
(SKILL_CARDS, SKILL_SPEND_AP, SKILL_RUBBLE, SKILL_PORT, SKILL_DICE, SKILL_SORTIES,
 SKILL_ARTILLERY, SKILL_DICE_EVERY_ORDER) = codes(SKILL_NAMES)
# dice: the next die chosen one at a time (each distinct face tried on a copy); with
# dice_every_order as well, every distinct order of all the dice (at most 5! = 120)
ALL_SKILLS = (1 << len(SKILL_NAMES)) - 1
# the default: artillery measured worth nothing (+0.0 points [-0.1, +0.2]), every order
# +0.6 [-0.1, +1.4] over one die at a time at 37% of its speed
# (benchmarks/victus_player_skills.py, full game, 5,000 paired games)
DEFAULT_SKILLS = ALL_SKILLS & ~(1 << SKILL_ARTILLERY) & ~(1 << SKILL_DICE_EVERY_ORDER)
LOOKAHEAD_DECISIONS = ("cards_and_dice", "cards", "dice")  # what lookahead decides by rollouts
DECIDES_CARDS_AND_DICE, DECIDES_CARDS, DECIDES_DICE = codes(LOOKAHEAD_DECISIONS)
LOOKAHEAD_TIES = ("none", "margin")  # what else lookahead's rollouts score (lookahead.py)
TIES_NONE, TIES_MARGIN = codes(LOOKAHEAD_TIES)

# -- random streams (simkit.rng): one per purpose, so a rule change that draws more or
# less of one kind shifts no other. Bourbon dice and the players' choices restart every
# turn (keyed on the turn number), the chance deck at every reshuffle, each event pile on
# its own, Casanova's pile every turn: paired variants stay paired game by game.
STREAMS = ("set_up", "event_piles", "bourbon_dice", "chance", "policy", "stage_iv",
           "casanova")
(ST_SET_UP, ST_EVENT_PILES, ST_BOURBON_DICE, ST_CHANCE, ST_POLICY, ST_STAGE_IV,
 ST_CASANOVA) = codes(STREAMS)
N_STREAMS = len(STREAMS)


# == engine state ============================================================================
# The game state is two arrays: `sp` int16[n_spaces, N_SP] (what lies in each space, boxes
# included) and `g` int32[N_G] (markers, discs, trench tiles, the chance deck, turn order).
# Bourbon troop tiles in one space are kept as their total value: the rulebook lets tiles
# in a space be swapped for any tiles of the same total, and all tiles in a space follow
# the same arrows, so the total is all the rules ever read.

_SP = Fields("space")
SP_CORONELA = _SP("coronela")
SP_INFANTRY = _SP("infantry")
SP_CANNON = _SP("cannon")
SP_CANNON_FIRED = _SP("cannon_fired")  # cannons of this space that fired this turn
SP_BOURBON = _SP("bourbon")  # total value of the Bourbon troop tiles
SP_RUBBLE = _SP("rubble")  # RUBBLE_NONE / RUBBLE / RUINED
SP_DEFENSE = _SP("bastion_defense")  # bastion defense tile: 0, +1 or +2
SP_BARRICADES = _SP("barricades")
SP_ORGAN_GUNS = _SP("organ_guns")
SP_BATTERY_TILES = _SP("battery_tiles")  # Bourbon battery tiles (camps)
SP_RAZED = _SP("razed")  # a razed Bourbon camp tile lies here
N_SP = _SP.size

RUBBLE_NAMES = ("none", "rubble", "ruined")
RUBBLE_NONE, RUBBLE, RUINED = codes(RUBBLE_NAMES)

# the Barcelonan pieces the set-up counts into play (G_IN_PLAY + PLAY_*), and their field
PLAY_NAMES = ("coronela", "infantry", "cannon")
PLAY_CORONELA, PLAY_INFANTRY, PLAY_CANNON = codes(PLAY_NAMES)
PLAY_FIELDS = (SP_CORONELA, SP_INFANTRY, SP_CANNON)

# -- counts the rules and the components fix ---------------------------------------------------
N_CHANCE = 14  # chance cards
N_CARDS = 150  # event/leader cards, 50 per stage I-III
N_SEATS = 4  # 1-4 players; solo uses 2 seats (Villarroel, Casanova)
N_DICE = 6  # Bourbon action dice in the box
PILE_SIZE = N_CARDS // 3
HAND_SIZE = 24
# solo: Villarroel is seat 0, Casanova seat 1. Casanova's pile of cards to play lies in his
# hand's slots and runs on through those of the two empty seats: it grows with each Change
# 1 card (to 63 cards at most with the rulebook's deal: rules.py checks the knobs)
VILLARROEL, CASANOVA = 0, 1
PILE_SLOTS = (N_SEATS - CASANOVA) * HAND_SIZE
MAX_CANCELLED = 24
N_TEMP = N_MARKERS + len(DISC_NAMES)  # this turn's ↑/↓: the four markers, then the discs

# g: the globals, in order of the rulebook's sections
_G = Fields("globals")
G_MARKER = _G("marker", N_MARKERS)  # + MARKER_*: pin position (index into marker_values)
G_DISC = _G("disc", len(DISC_NAMES))  # + DISC_*: position on the Bourbon marker
G_TRENCH = _G("trench", N_TRENCH)  # + column A..F: trench/camp tile position 0..3
G_CHANCE_NEXT = _G("chance_next")  # next card to draw from G_CHANCE_DECK
G_CHANCE_DECK = _G("chance_deck", N_CHANCE)  # card indices in draw order
G_RUBBLE_ON_MARKERS = _G("rubble_on_markers")  # rubble/ruined tiles placed on markers by cards
G_RUBBLE_SUPPLY = _G("rubble_supply")  # rubble/ruined tiles left in the box
# Barcelonan pieces the set-up put in play, + PLAY_*: the rest stay in the box
G_IN_PLAY = _G("in_play", 3)
# the sequence of play (engine.py)
G_SEATS = _G("seats")  # seats at the table (players; solo: 2)
G_STAGE = _G("stage")
G_ROUND = _G("round")
G_TURN = _G("turn")  # turns played
G_FLAG = _G("flag")  # seat holding the Flag of Saint Eulalia
G_ACTIVE = _G("active")  # seat taking its turn
G_FLAG_TURN = _G("flag_turn")  # 1 while the Flag holder takes their turn (+1 Gunpowder Store)
G_DICE_ORDER_FREE = _G("dice_order_free")  # 1: the active player orders the Bourbon dice
G_DICE_CHOSEN = _G("dice_chosen")  # bit s: the players chose the dice order in stage s
G_SEAT_AP = _G("seat_ap")  # AP left in the current Barcelonan actions step
G_AP_GROUP = _G("ap_group")  # WAR_* group the AP being spent are restricted to, -1: any
G_STAGE_IV_CARD = _G("stage_iv_card")
G_END_REASON = _G("end_reason")  # END_* once the game is over
# where the game stands in its sequence of play, so that a copy of ``sp`` and ``g`` is a
# position the game can be played on from (``engine.play_until``): the next step, the seat
# putting its card face down, the turn of the round with its seat and card, the Bourbon dice
# rolled this turn and the order they are resolved in, and the choice of the decision the
# engine stopped at
G_NEXT = _G("next")  # NEXT_*: the engine's next step
G_CHOOSER = _G("chooser")  # start of round: the seat putting its card face down
G_TURN_OF_ROUND = _G("turn_of_round")  # the k-th turn of the round, from the Flag holder
G_TURN_SEAT = _G("turn_seat")  # the seat taking the turn
G_TURN_CARD = _G("turn_card")  # the card it plays
G_ROLLED = _G("rolled")  # Bourbon dice rolled this turn
G_RESOLVED = _G("resolved")  # of them resolved so far
G_FACES = _G("faces", 2 * N_DICE)  # + 2 * die: its action (ACT_*), + 1: its amount
G_DIE_ORDER = _G("die_order", N_DICE)  # + place: the die resolved at that place
G_CHOICE = _G("choice")  # at a decision: the players' script's choice, or the search's
# event and leader cards (card_effects.py)
G_CARD_PLAYED = _G("card_played")  # number of the card being resolved this turn, 0 if none
G_WAR_COUNCIL = _G("war_council")  # WAR_COUNCIL_* of the card played this turn
G_ROUND_CARD = _G("round_card", N_SEATS)  # + seat: the card it played this round (0: none)
G_LEADER = _G("leader", N_SEATS)  # + seat: card number of its active leader, 0 if none
G_AP_GRANTED = _G("ap_granted", 4)  # + WAR_* (0..3): AP a card granted this turn
G_TEMP = _G("temp", N_TEMP)  # + TEMP_*: this turn's ↑/↓ on a marker's or disc's value
G_PENDING_TURN = _G("pending_turn", N_SEATS)  # + seat: event whose `start_of_turn` waits
G_PENDING_ROUND = _G("pending_round", N_SEATS)  # + seat: event whose `next_round_start` waits
G_RANDOM_CHOICE = _G("random_choice")  # 1: next round every player chooses at random
G_RANDOM_ROUND = _G("random_round")  # 1: this round's cards are chosen at random
G_ALL_PRIORITY = _G("all_priority")  # every action costs its priority cost (card 39's leader)
G_PRIORITY_MASK = _G("priority_mask")  # leaders: bit WAR_* set = that group costs priority
G_BOMBARD_BONUS = _G("bombard_bonus")  # leaders: + spaces every Bombardment hits this turn ...
G_BOMBARD_CAP = _G("bombard_cap")  # ... up to this many (0: no cap)
# the event piles and the hands (hands.py)
G_PILE = _G("pile", 3 * PILE_SIZE)  # + stage * PILE_SIZE: card numbers in draw order
G_PILE_COUNT = _G("pile_count", 3)  # + stage: cards in the pile
G_PILE_NEXT = _G("pile_next", 3)  # + stage: next card to draw
G_HAND = _G("hand", N_SEATS * HAND_SIZE)  # + seat * HAND_SIZE: cards, 0 = empty slot
G_FACE_DOWN = _G("face_down", N_SEATS)  # + seat: its card for the turn, not yet revealed
G_CARDS_BOXED = _G("cards_boxed")  # cards returned to the box during the game
# competitive game (scoring.py)
G_SENSE_FURY = _G("sense_fury")  # the Sense/Fury pin: space 1..9
G_VP = _G("vp", N_SEATS)  # + seat: victory points
# solo game (solo.py)
G_RESIGNATION = _G("resignation")  # Villarroel's unused resignation tiles
G_CANCELLED = _G("cancelled")  # Casanova's cards set aside with a resignation tile ...
G_CANCELLED_CARDS = _G("cancelled_cards", MAX_CANCELLED)  # ... (until Stage IV's pool)
# statistics
G_MINE_EXPLOSIONS = _G("mine_explosions")
G_CHANCE_DRAWN = _G("chance_drawn")
G_COMBATS = _G("combats")
G_CARDS_PLAYED = _G("cards_played")
G_BOURBON_DICE_ROLLED = _G("bourbon_dice_rolled")
G_CARDS_RESOLVED = _G("cards_resolved")
G_LEADERS_DEACTIVATED = _G("leaders_deactivated")  # by cards (not replaced by their owner)
G_TROOPS_CAPTURED = _G("troops_captured")  # Barcelonan troops captured by cards
G_OPS_RUN = _G("ops_run")  # card ops executed
G_CARDS_CANCELLED = _G("cards_cancelled")  # solo: resignation tiles spent on Casanova's cards
N_G = _G.size

# the engine's steps (G_NEXT; engine.py plays them): each leads to the next, and the steps
# that apply a decision (place_card, place_solo_card, resolve_die) follow the step that
# stopped for it
NEXT_NAMES = ("set_up", "round", "card_choice", "place_card", "turn", "place_solo_card",
              "begin_turn", "die", "resolve_die", "end_turn", "stage_iv", "over")
(NEXT_SET_UP, NEXT_ROUND, NEXT_CARD_CHOICE, NEXT_PLACE_CARD, NEXT_TURN, NEXT_PLACE_SOLO_CARD,
 NEXT_BEGIN_TURN, NEXT_DIE, NEXT_RESOLVE_DIE, NEXT_END_TURN, NEXT_STAGE_IV,
 NEXT_OVER) = codes(NEXT_NAMES)
# where ``engine.play_until`` may stop (bits of its ``stop``): a decision a search makes, a
# card to put face down (solo: Villarroel's card at his turn) or the next Bourbon die to
# resolve (when the players order them), or the start of a round
STOP_CARD, STOP_DIE, STOP_ROUND = 1, 2, 4

END_NONE = -1
END_NAMES = ("survived", "coronela", "beach", "rubble", "victory_points")
# victory_points: competitive, Stage IV resolved with too few VP among all players
END_SURVIVED, END_CORONELA, END_BEACH, END_RUBBLE, END_VICTORY_POINTS = codes(END_NAMES)

# -- outcome columns: declared once; the kernel writes the others' row offsets O_* ---------
WINNERS = ("players", "game")
WIN_PLAYERS, WIN_GAME = codes(WINNERS)
FAME_WINNERS = ("none", "seat1", "seat2", "seat3", "seat4", "shared")
OUTCOMES = Outcomes({
    "winner": Column("category", "players (Barcelona held to the end of Stage IV) or game",
                     WINNERS),
    "end_reason": Column("category", "survived, or the defeat: coronela (too few Coronela "
                         "in Barcelona), beach (a Bourbon tile on the Beach), rubble (too "
                         "many rubble/ruined tiles), victory_points (competitive: too few VP "
                         "among all players after Stage IV)", END_NAMES),
    "turns": Column("int16", "turns played (Stage IV's included)"),
    "stage_reached": Column("int8", "the stage the game ended in (1-4)"),
    "coronela_in_barcelona": Column("int8", "Coronela in Barcelona spaces at the end"),
    "rubble_tiles": Column("int8", "rubble/ruined tiles on the board at the end"),
    "bourbon_strength_on_board": Column("int16", "total value of the Bourbon troop tiles"),
    "trench_progress": Column("int8", "sum of the six trench tiles' positions (0-18)"),
    "mine_explosions": Column("int16", "mine explosions that hit something"),
    "cards_played": Column("int16", "event/leader cards played"),
    **{f"vp_seat{s + 1}": Column("int16", f"competitive: seat {s + 1}'s VP (solo: seat 1 "
                                 "Villarroel, seat 2 Casanova); missing beyond the table "
                                 "and outside the competitive game",
                                 when=f"the competitive game seats seat {s + 1}")
       for s in range(N_SEATS)},
    "fame_winner": Column("category", "competitive: the seat with the most VP (the fame), "
                          "shared on a tie, none outside the competitive game",
                          FAME_WINNERS, derived=True),
    "fame": Column("int16", "competitive: the fame of a players' victory (missing on a "
                   "defeat and outside the competitive game)", derived=True,
                   when="the players win the competitive game"),
    "dice_order_chosen_stages": Column("int8", "partial dice order: stages (I-IV) in which "
                                       "the players chose the order", derived=True),
    "cards_cancelled": Column("int16", "solo: Casanova cards cancelled with resignation "
                              "tiles"),
}, raw={"stage_iv_card": 1, "dice_chosen": 1})
O_WINNER = OUTCOMES.offset("winner")
O_END_REASON = OUTCOMES.offset("end_reason")
O_TURNS = OUTCOMES.offset("turns")
O_STAGE = OUTCOMES.offset("stage_reached")
O_CORONELA = OUTCOMES.offset("coronela_in_barcelona")
O_RUBBLE = OUTCOMES.offset("rubble_tiles")
O_BOURBON_STRENGTH = OUTCOMES.offset("bourbon_strength_on_board")
O_TRENCH = OUTCOMES.offset("trench_progress")
O_MINE_EXPLOSIONS = OUTCOMES.offset("mine_explosions")
O_CARDS_PLAYED = OUTCOMES.offset("cards_played")
O_VP = OUTCOMES.offset("vp_seat1")  # + seat (the seats' columns are consecutive)
O_CANCELLED = OUTCOMES.offset("cards_cancelled")
O_STAGE_IV_CARD = OUTCOMES.offset("stage_iv_card")
O_DICE_CHOSEN = OUTCOMES.offset("dice_chosen")
N_OUT = OUTCOMES.size
assert [OUTCOMES.offset(f"vp_seat{s + 1}") for s in range(N_SEATS)] == \
    list(range(O_VP, O_VP + N_SEATS))

# The Twenty-Fourth War Council: the priority group of a card (full game)
WAR_COUNCIL_NAMES = ("movement", "markers", "artillery", "defense", "all")
WAR_MOVEMENT, WAR_MARKERS, WAR_ARTILLERY, WAR_DEFENSE, WAR_ALL = codes(WAR_COUNCIL_NAMES)

# p: the rules as integers (rules.py declares how each is built), and the deck's card
# scores the strong players read (data, the same for every policy)
_P = Fields("rules vector")
P_FULL = _P("full")  # 0 first game, 1 full game
P_CORONELA_THRESHOLD = _P("coronela_threshold")  # defeat when Coronela in Barcelona < this
P_RUBBLE_THRESHOLD = _P("rubble_threshold")  # defeat when rubble/ruined tiles >= this
P_ALWAYS_PRIORITY = _P("always_priority_cost")  # every action at its priority cost
P_COMPETITIVE = _P("competitive")  # Sense/Fury scoring, VP, the Flag to the lowest card, fame
P_SOLO = _P("solo")  # Villarroel (seat 0) and Casanova (seat 1)
P_HALF_A_BOMB = _P("given_half_a_bomb")
P_DICE_ORDER = _P("dice_order")  # DICE_*: who orders the Bourbon action dice
P_MODERATING = _P("moderating_sense_fury")  # a card scores on a colour change
P_VICTORY_LEVEL = _P("victory_level")  # competitive: VP needed among all players
P_RESIGN_PER_ROUND = _P("resign_per_round")  # solo: a resignation tile each round (the Note)
P_CARDS = _P("cards")  # cards dealt per seat and stage
P_ROUNDS = _P("rounds")  # rounds per stage
P_EMPTY_REINFORCEMENTS = _P("empty_reinforcements")  # EMPTY_*: a camp fight at disc 0
P_WINNER_CASUALTIES = _P("winner_casualties")  # CASUALTIES_*: what a winner's casualties discount
P_TRENCH_BLOCKED_TILE = _P("trench_blocked_tile")  # TRENCH_*: a tile sharing troops' space
P_CARD_EFFECT = _P("card_effect", N_CARDS + 1)  # + card: judgement.card_effect_score, once
N_P = _P.size

# pol: one row per side, and Victus has one, the players (every seat plays it): the
# policy's id, then its weights in their knobs' steps (rules.POLICY_ROWS builds it)
PLAYERS = 0
_W = Fields("policy weights")
W_POLICY = _W("policy")
W_CORONELA_WEIGHT = _W("coronela_weight")  # how dear a Coronela is (tenths)
W_GREED = _W("greed")  # competitive: points against the city's safety (tenths)
W_DICE_CHOICE_FROM_STAGE = _W("dice_choice_from_stage")  # partial dice order: choose from
W_RESIGN_BELOW = _W("resign_below")  # solo: cancel a Casanova card scoring below this
W_ROLLOUTS = _W("rollouts")  # lookahead: a decision's budget of rollouts
W_DECIDES = _W("decides")  # DECIDES_*: which decisions lookahead makes by rollouts
W_TIES = _W("ties")  # TIES_*: what lookahead's rollouts score beside the win
W_SKILLS = _W("skills")  # bit SKILL_* set: the strong players use that piece of skill
W_CARD_EFFECTS = _W("card_effects")  # how much a card's ops count beside its Almanac (tenths)
W_CHANGE_CARD_BELOW = _W("change_card_below")  # strong players change a card scoring <= this
W_DICE_SEARCH_FROM_STAGE = _W("dice_search_from_stage")  # strong players search dice orders
W_DICE_RANK = _W("dice_rank", 4)  # + ACT_*: strong players' fixed dice order (lowest first)
N_W = _W.size

DICE_ORDER_NAMES = ("free", "sequential", "partial")
DICE_FREE, DICE_SEQUENTIAL, DICE_PARTIAL = codes(DICE_ORDER_NAMES)
# a fight for a camp (or its trench space) when the reinforcements disc shows 0 and no
# Bourbon tile is there: no combat occurs, or the Barcelonans win (rules.py says why)
EMPTY_REINFORCEMENTS_NAMES = ("no_combat", "barcelonans_win")
EMPTY_NO_COMBAT, EMPTY_BARCELONANS_WIN = codes(EMPTY_REINFORCEMENTS_NAMES)
# what a Barcelonan winner's casualties discount: the Gunpowder Store and the bastion
# defense, or every defence the combat value counted (rules.py says why)
WINNER_CASUALTIES_NAMES = ("gunpowder_and_bastion", "every_defence")
CASUALTIES_GUNPOWDER_AND_BASTION, CASUALTIES_EVERY_DEFENCE = codes(WINNER_CASUALTIES_NAMES)
# a trench symbol whose tile cannot be taken: the next tile that can take it, or the
# symbol is lost (rules.py says why)
TRENCH_BLOCKED_TILE_NAMES = ("next_tile", "symbol_lost")
TRENCH_NEXT_TILE, TRENCH_SYMBOL_LOST = codes(TRENCH_BLOCKED_TILE_NAMES)

# Static components the kernels read, packed once into a tuple (``state.board_tuple``):
# K_TRACK int16[3, t] (value, icons, advance symbols); K_SPECIAL int16[N_SPECIAL] (the
# special spaces below); K_ADJ uint8[n, n] (shared side); K_FIRE_DISTANCE int16[n, n]
# ([bastion, source] Bourbon path length, -1 if none); K_ACTION_COSTS int8[N_ACTIONS, 4]
K_NAMES = ("info", "arrows", "trench", "camps", "track", "chance_advance", "chance_bombard",
           "stage_row", "marker_values", "special", "move_adj", "adj", "fire_distance",
           "action_costs", "counts")
(K_INFO, K_ARROWS, K_TRENCH, K_CAMPS, K_TRACK, K_CHANCE_ADVANCE, K_CHANCE_BOMBARD,
 K_STAGE_ROW, K_MARKER_VALUES, K_SPECIAL, K_MOVE_ADJ, K_ADJ, K_FIRE_DISTANCE,
 K_ACTION_COSTS, K_COUNTS) = codes(K_NAMES)

# K_COUNTS int16[N_COUNTS]: the printed component counts the state checks hold the state
# to (data/tiles.toml; "bourbon_value" is the 160 tiles' values added up)
COUNT_NAMES = ("coronela", "infantry", "cannon", "rubble_ruined", "bastion_defense",
               "barricade", "organ_gun", "bourbon_battery", "razed_camp", "resignation",
               "event_cards", "chance_cards", "bourbon_troops", "bourbon_value")
(COUNT_CORONELA, COUNT_INFANTRY, COUNT_CANNON, COUNT_RUBBLE, COUNT_DEFENSE, COUNT_BARRICADE,
 COUNT_ORGAN_GUN, COUNT_BATTERY, COUNT_RAZED, COUNT_RESIGNATION, COUNT_EVENT_CARDS,
 COUNT_CHANCE_CARDS, COUNT_BOURBON_TILES, COUNT_BOURBON_VALUE) = codes(COUNT_NAMES)
N_COUNTS = len(COUNT_NAMES)

# Barcelonan actions (data/actions.toml, in this order)
BARCELONAN_ACTION_NAMES = (
    "move_troops", "healing", "worm", "improve_marker_troop_present",
    "improve_marker_no_troop", "change_card", "move_cannon", "fire_cannon", "repair_cannon",
    "remove_rubble", "bastion_defense", "barricade")
(A_MOVE_TROOPS, A_HEALING, A_WORM, A_IMPROVE_PRESENT, A_IMPROVE_ABSENT, A_CHANGE_CARD,
 A_MOVE_CANNON, A_FIRE_CANNON, A_REPAIR_CANNON, A_REMOVE_RUBBLE, A_BASTION_DEFENSE,
 A_BARRICADE) = codes(BARCELONAN_ACTION_NAMES)
N_ACTIONS = len(BARCELONAN_ACTION_NAMES)
COST_NAMES = ("group", "first", "general", "priority")  # K_ACTION_COSTS columns
COST_GROUP, COST_FIRST, COST_GENERAL, COST_PRIORITY = codes(COST_NAMES)

SPECIAL_NAMES = ("reserve", "wounded", "captured", "beach", "port", "expedition",
                 "saint_cross", "saint_mary", "montjuic", "batteries_min", "razed_tiles")
(SPECIAL_RESERVE, SPECIAL_WOUNDED, SPECIAL_CAPTURED, SPECIAL_BEACH, SPECIAL_PORT,
 SPECIAL_EXPEDITION, SPECIAL_SAINT_CROSS, SPECIAL_SAINT_MARY, SPECIAL_MONTJUIC,
 SPECIAL_BATTERIES_MIN, SPECIAL_RAZED_TILES) = codes(SPECIAL_NAMES)
N_SPECIAL = len(SPECIAL_NAMES)


HIT_NAMES = ("bastion defense", "Coronela", "infantry", "cannon", "barricade", "organ-gun",
             "rubble placed", "flipped to ruined", "ignored (ruined)")
(HIT_DEFENSE, HIT_CORONELA, HIT_INFANTRY, HIT_CANNON, HIT_BARRICADE, HIT_ORGAN_GUN,
 HIT_RUBBLE, HIT_RUINED, HIT_IGNORED) = codes(HIT_NAMES)

# -- state checks (victus/checks.py, simkit.checks): what ``check_state`` asserts, in the
# rulebook's words, and the rule steps after which the kernels ask it (a code is a
# position; StateError names both)
INVARIANTS = (
    "Coronela pieces conserved", "infantry pieces conserved", "cannon pieces conserved",
    "a cannon fires once per turn", "Bourbon troop tiles within the 160",
    "trench/camp tiles on positions 0-3", "rubble/ruined tiles conserved",
    "one bastion defense tile per bastion, 10 in all",
    "barricades in Barcelona spaces, 10 in all", "organ-guns, 5 in all",
    "Bourbon battery tiles outside Barcelona, 10 in all",
    "razed Bourbon camp tiles on camps, 6 in all", "the boxes hold Barcelonan pieces only",
    "combats resolved", "camps cleared at the end of the turn", "marker pins on their dials",
    "discs on the Bourbon marker", "the Sense/Fury pin on its 9 spaces", "victory points",
    "event/leader cards add up to the deck", "every player holds as many cards",
    "chance cards add up to 14",
    "one active leader per player", "Villarroel resignation tiles, 3 in all",
    "action points within those available", "the sequence of play")
(INV_CORONELA, INV_INFANTRY, INV_CANNON, INV_CANNON_FIRED, INV_BOURBON, INV_TRENCH,
 INV_RUBBLE, INV_DEFENSE, INV_BARRICADE, INV_ORGAN_GUN, INV_BATTERY, INV_RAZED, INV_BOXES,
 INV_COMBATS, INV_CAMPS, INV_MARKERS, INV_DISCS, INV_SENSE_FURY, INV_VP, INV_CARDS,
 INV_HANDS, INV_CHANCE, INV_LEADERS, INV_RESIGNATION, INV_AP, INV_SEQUENCE) = codes(INVARIANTS)
N_INVARIANTS = len(INVARIANTS)
assert (INV_CORONELA + PLAY_INFANTRY, INV_CORONELA + PLAY_CANNON) == (INV_INFANTRY,
                                                                     INV_CANNON)
STEPS = (
    "setup", "start of the stage", "start of round", "cards placed face down",
    "start of turn", "an action of the card effect", "adjust markers",
    "a Bourbon action die", "a Barcelonan action", "end of turn", "end of round",
    "the Stage IV card", "end of the game", "Casanova's card", "Villarroel's card")
(STEP_SETUP, STEP_START_OF_STAGE, STEP_START_OF_ROUND, STEP_CARDS_CHOSEN,
 STEP_START_OF_TURN, STEP_CARD_ACTION, STEP_ADJUST_MARKERS, STEP_BOURBON_DIE,
 STEP_BARCELONAN_ACTION, STEP_END_OF_TURN, STEP_END_OF_ROUND, STEP_STAGE_IV_CARD,
 STEP_END_OF_GAME, STEP_CASANOVA_CARD, STEP_VILLARROEL_CARD) = codes(STEPS)
