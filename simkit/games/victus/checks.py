"""Victus's state invariants, asserted after every rule step when a run asks for them
(``simulate(..., check_state=True)`` or ``SIMKIT_CHECK_STATE=1``; ``simkit.checks``).

``check_state`` tests each invariant of ``layout.INVARIANTS`` in turn and reports the first
that does not hold with ``simkit.checks.broken`` (its detail: the space index, marker,
disc, seat, card number or count that broke it). ``checked`` is the one call the
kernels make after each step of ``layout.STEPS``: it checks only on a checking log and
tells them to stop the game once an invariant has broken. Where the invariants come from:

- "Components": 32 Coronela, 13 infantry and 12 cannon pieces, 28 rubble/ruined tiles, 10
  bastion defense, 10 barricade and 5 organ-gun tiles, 160 Bourbon troop tiles, 10
  Bourbon battery tiles, 6 razed Bourbon camp tiles, 6 trench/camp tiles, 3 Villarroel
  resignation tiles, 150 event cards and 14 chance cards (``data/tiles.toml``); the
  set-up ("Setup", "Modifications to the First-Game Setup") puts some of them in play
  and the rest stay in the box: from then on the pieces in play are conserved;
- Glossary "Eliminate", "Box", "Capture", "Free": eliminated troops and cannons go to
  WOUNDED or RESERVE, captured troops to CAPTURED; the boxes hold nothing else;
- "Component Descriptions": each cannon fires once per turn ("Fire 1 cannon"); a bastion
  holds at most one bastion defense tile, +1 or +2 ("Bastion Defense Tiles"); barricades go
  in Barcelona spaces ("Add a barricade"; not in the First Game); battery tiles mark
  Bourbon emplacements outside Barcelona; razed tiles lie on camps; rubble/ruined tiles
  mark Barcelona's destruction, one per space, and a spent supply is made up with "any
  other tile or object" (so the supply may go below 0, the count stays 28); the batteries
  disc "can never drop to 0"; the First Game leaves the mine disc in the box;
- "Trench": trench/camp tiles stand on positions 0 to 3;
- "Combat", "Cannon Pieces", "The Organ-Guns": once a step is resolved no space holds
  Bourbon troop tiles beside Barcelonan troops, cannons or organ-guns, except the
  Military Deputy's Expedition ("Combats at the Military Deputy's Expedition");
- "6. End of Turn": camps hold no Bourbon tile, troop or razed tile after the clean-up,
  and the cannons may fire again;
- "5. Barcelonan Actions": actions are "always limited by the AP available";
- "Start of Stage I / II / III", "Start of Round", "End of Round", "Stage IV",
  "2. Resolve the Card Effect" (leaders), "Change 1 card" and the Solo Game's cancelled
  cards: every event/leader card of the game is in a pile, a hand, face down, on the
  table (played this round, or an active leader), beside Casanova's pile, the Stage IV
  card, or back in the box; the First Game plays the cards with the "•" only; the chance
  deck and its discards are the 14 cards ("Chance Cards");
- "2. Resolve the Card Effect" (full game): one active leader per player, none in the
  First Game;
- "Competitive Game Rules": the Sense/Fury pin on its nine spaces (on R outside the
  competitive game), VP only for the competitive game's players, at most one card's
  points per player and round;
- "Game Sequence" and the deal table: stages I-IV, the rounds of a stage, the Flag and the
  turn with a player at the table.
"""

import numpy as np

from simkit.checks import broken, checking, failed
from simkit.unmanaged import allocating, borrowing

from . import card_layout as CL
from . import layout as L
from .hands import hand_count
from .pieces import is_barcelona, marker_len, troops_in

HOLDS = -1  # what a test returns when its invariant holds (else the detail)
BOXES = (L.SPECIAL_RESERVE, L.SPECIAL_WOUNDED, L.SPECIAL_CAPTURED)


@borrowing
def checked(K, CARDS, p, sp, g, log, step):
    """After rule step ``step`` (``layout.STEP_*``): check the state if this run asks
    for it; whether the game must stop (an invariant is broken)."""
    if checking(log):
        check_state(K, CARDS, p, sp, g, log, step, g[L.G_TURN])
    return failed(log)


@allocating
def check_state(K, CARDS, p, sp, g, log, step, turn):
    """Test every invariant; report the first that fails (``simkit.checks.broken``)."""
    for invariant in range(L.N_INVARIANTS):
        detail = test(K, CARDS, p, sp, g, invariant, step)
        if detail != HOLDS:
            broken(log, invariant, detail, step, turn)
            return


@allocating
def test(K, CARDS, p, sp, g, invariant, step):
    """The detail of ``invariant``'s failure, or ``HOLDS``."""
    if invariant <= L.INV_CANNON:
        return pieces_conserved(K, sp, g, invariant - L.INV_CORONELA)
    if invariant == L.INV_CANNON_FIRED:
        return cannons_fire_once(sp, step)
    if invariant == L.INV_BOURBON:
        return bourbon_tiles(K, sp)
    if invariant == L.INV_TRENCH:
        return trench_positions(g)
    if invariant == L.INV_RUBBLE:
        return rubble_conserved(K, sp, g)
    if invariant == L.INV_DEFENSE:
        return bastion_defenses(K, sp)
    if invariant == L.INV_BARRICADE:
        return barricades(K, p, sp)
    if invariant == L.INV_ORGAN_GUN:
        return organ_guns(K, p, sp)
    if invariant == L.INV_BATTERY:
        return battery_tiles(K, sp)
    if invariant == L.INV_RAZED:
        return razed_tiles(K, sp)
    if invariant == L.INV_BOXES:
        return boxes_hold_pieces(K, sp)
    if invariant == L.INV_COMBATS:
        return combats_resolved(K, sp)
    if invariant == L.INV_CAMPS:
        return camps_cleared(K, sp, step)
    if invariant == L.INV_MARKERS:
        return pins_on_dials(K, g)
    if invariant == L.INV_DISCS:
        return discs_on_track(K, p, g)
    if invariant == L.INV_SENSE_FURY:
        return sense_fury_pin(CARDS, p, g)
    if invariant == L.INV_VP:
        return victory_points(CARDS, p, g)
    if invariant == L.INV_CARDS:
        return cards_add_up(CARDS, p, g)
    if invariant == L.INV_HANDS:
        return hands_alike(p, g)
    if invariant == L.INV_CHANCE:
        return chance_cards(g)
    if invariant == L.INV_LEADERS:
        return leaders(CARDS, p, g)
    if invariant == L.INV_RESIGNATION:
        return resignation_tiles(K, p, g)
    if invariant == L.INV_AP:
        return action_points(g)
    return sequence_of_play(p, g)


# -- pieces and tiles ---------------------------------------------------------------------------


@borrowing
def pieces_conserved(K, sp, g, piece):
    """Coronela, infantry or cannons (``layout.PLAY_*``): none negative anywhere, as many
    as the set-up put in play, never more than printed. Detail: the space with a
    negative count, else the total found."""
    field = L.PLAY_FIELDS[piece]
    total = 0
    for space in range(sp.shape[0]):
        if sp[space, field] < 0:
            return space
        total += sp[space, field]
    printed = K[L.K_COUNTS][L.COUNT_CORONELA + piece]
    if total != g[L.G_IN_PLAY + piece] or total > printed:
        return total
    return HOLDS


@borrowing
def cannons_fire_once(sp, step):
    """No more cannons fired than stand in a space; none after the end of the turn."""
    for space in range(sp.shape[0]):
        fired = sp[space, L.SP_CANNON_FIRED]
        if fired < 0 or fired > sp[space, L.SP_CANNON]:
            return space
        if fired > 0 and step == L.STEP_END_OF_TURN:
            return space
    return HOLDS


@borrowing
def bourbon_tiles(K, sp):
    """Bourbon values are never negative; the board's stacks and values fit in the 160
    tiles (a stack needs a tile at least). Detail: the space, else the total value."""
    stacks, total = 0, 0
    for space in range(sp.shape[0]):
        value = sp[space, L.SP_BOURBON]
        if value < 0:
            return space
        if value > 0:
            stacks += 1
            total += value
    counts = K[L.K_COUNTS]
    if stacks > counts[L.COUNT_BOURBON_TILES] or total > counts[L.COUNT_BOURBON_VALUE]:
        return total
    return HOLDS


@borrowing
def trench_positions(g):
    """Each trench/camp tile at 0 (camp) or the 1st-3rd Parallel. Detail: the column."""
    for column in range(L.N_TRENCH):
        if not 0 <= g[L.G_TRENCH + column] < L.N_POSITIONS:
            return column
    return HOLDS


@borrowing
def rubble_conserved(K, sp, g):
    """One rubble/ruined tile at most per space, in Barcelona spaces only; tiles on the
    board (markers included) and in the pile add up to the 28 (a pile below 0 counts the
    stand-ins). Detail: the space, else the tiles on the board."""
    placed = g[L.G_RUBBLE_ON_MARKERS]
    if placed < 0:
        return placed
    for space in range(sp.shape[0]):
        state = sp[space, L.SP_RUBBLE]
        if state < L.RUBBLE_NONE or state > L.RUINED:
            return space
        if state != L.RUBBLE_NONE:
            if not is_barcelona(K, space):
                return space
            placed += 1
    if placed + g[L.G_RUBBLE_SUPPLY] != K[L.K_COUNTS][L.COUNT_RUBBLE]:
        return placed
    return HOLDS


@borrowing
def bastion_defenses(K, sp):
    """A bastion defense tile shows +1 or +2, on a bastion; 10 tiles. Detail: the space,
    else the tiles on the board."""
    tiles = 0
    for space in range(sp.shape[0]):
        value = sp[space, L.SP_DEFENSE]
        if value < 0 or value > 2:
            return space
        if value > 0:
            if K[L.K_INFO][space, L.S_KIND] != L.KIND_BASTION:
                return space
            tiles += 1
    return tiles if tiles > K[L.K_COUNTS][L.COUNT_DEFENSE] else HOLDS


@borrowing
def barricades(K, p, sp):
    """Barricades lie in Barcelona spaces, 10 in all, none in the First Game. Detail: the
    space, else the tiles on the board."""
    total = 0
    for space in range(sp.shape[0]):
        n = sp[space, L.SP_BARRICADES]
        if n < 0 or (n > 0 and not is_barcelona(K, space)):
            return space
        total += n
    limit = K[L.K_COUNTS][L.COUNT_BARRICADE] if p[L.P_FULL] else 0
    return total if total > limit else HOLDS


@borrowing
def organ_guns(K, p, sp):
    """5 organ-gun tiles, none in the First Game. Detail: the space, else the total."""
    total = 0
    for space in range(sp.shape[0]):
        if sp[space, L.SP_ORGAN_GUNS] < 0:
            return space
        total += sp[space, L.SP_ORGAN_GUNS]
    limit = K[L.K_COUNTS][L.COUNT_ORGAN_GUN] if p[L.P_FULL] else 0
    return total if total > limit else HOLDS


@borrowing
def battery_tiles(K, sp):
    """Bourbon battery tiles outside Barcelona, 10 in all. Detail: the space, else the
    total."""
    total = 0
    for space in range(sp.shape[0]):
        n = sp[space, L.SP_BATTERY_TILES]
        if n < 0 or (n > 0 and (is_barcelona(K, space)
                                or K[L.K_INFO][space, L.S_KIND] == L.KIND_BOX)):
            return space
        total += n
    return total if total > K[L.K_COUNTS][L.COUNT_BATTERY] else HOLDS


@borrowing
def razed_tiles(K, sp):
    """A razed Bourbon camp tile on a camp, one a camp, 6 in all; no Bourbon troop tile
    on a razed camp ("no Bourbon troop tile will come out of razed camps", "no Bourbon
    troops remain there"). Detail: the space, else the total."""
    total = 0
    for space in range(sp.shape[0]):
        n = sp[space, L.SP_RAZED]
        if n < 0 or n > 1 or (n > 0 and K[L.K_INFO][space, L.S_KIND] != L.KIND_CAMP):
            return space
        if n > 0 and sp[space, L.SP_BOURBON] > 0:
            return space
        total += n
    return total if total > K[L.K_COUNTS][L.COUNT_RAZED] else HOLDS


@borrowing
def boxes_hold_pieces(K, sp):
    """RESERVE and WOUNDED hold troops and cannons, CAPTURED troops only. Detail: the
    box's space."""
    special = K[L.K_SPECIAL]
    for k in range(len(BOXES)):
        box = special[BOXES[k]]
        for field in range(L.N_SP):
            allowed = (field == L.SP_CORONELA or field == L.SP_INFANTRY
                       or (field == L.SP_CANNON and BOXES[k] != L.SPECIAL_CAPTURED))
            if not allowed and sp[box, field] != 0:
                return box
    return HOLDS


# -- combats and the end of the turn ------------------------------------------------------------


@borrowing
def combats_resolved(K, sp):
    """No Bourbon tile beside Barcelonan troops (the combat is resolved), undefended
    cannons (eliminated at once) or organ-guns (they trigger a combat), except at the
    Military Deputy's Expedition. Detail: the space."""
    expedition = K[L.K_SPECIAL][L.SPECIAL_EXPEDITION]
    for space in range(sp.shape[0]):
        if sp[space, L.SP_BOURBON] <= 0 or space == expedition:
            continue
        if troops_in(sp, space) > 0 or sp[space, L.SP_CANNON] > 0:
            return space
        if sp[space, L.SP_ORGAN_GUNS] > 0:
            return space
    return HOLDS


@borrowing
def camps_cleared(K, sp, step):
    """After the end of a turn no camp holds a Bourbon tile, a troop or a razed tile
    ("Eliminate any Bourbon troop tile, Barcelonan troop, or razed Bourbon camp tile that
    is in a camp space"). Detail: the camp."""
    if step != L.STEP_END_OF_TURN:
        return HOLDS
    for camp in K[L.K_CAMPS]:
        if sp[camp, L.SP_BOURBON] or troops_in(sp, camp) or sp[camp, L.SP_RAZED]:
            return camp
    return HOLDS


# -- markers and discs --------------------------------------------------------------------------


@borrowing
def pins_on_dials(K, g):
    """Each of the four markers' pins points at a space of its dial. Detail: the marker."""
    for marker in range(L.N_MARKERS):
        if not 0 <= g[L.G_MARKER + marker] < marker_len(K, marker):
            return marker
    return HOLDS


@borrowing
def discs_on_track(K, p, g):
    """Each disc on a space of the Bourbon marker, the batteries disc never below its
    minimum, the mine disc on 0 in the First Game (it stays in the box). Detail: the
    disc."""
    length = K[L.K_TRACK].shape[1]
    for disc in range(len(L.DISC_NAMES)):
        if not 0 <= g[L.G_DISC + disc] < length:
            return disc
    if g[L.G_DISC + L.DISC_BATTERIES] < K[L.K_SPECIAL][L.SPECIAL_BATTERIES_MIN]:
        return L.DISC_BATTERIES
    if not p[L.P_FULL] and g[L.G_DISC + L.DISC_MINE] != 0:
        return L.DISC_MINE
    return HOLDS


@borrowing
def sense_fury_pin(CARDS, p, g):
    """The pin on one of the nine spaces; on R, the central one, outside the competitive
    game. Detail: the pin's space."""
    spaces = CARDS[CL.C_SENSE_FURY].shape[1]
    pin = g[L.G_SENSE_FURY]
    if not 1 <= pin <= spaces or (not p[L.P_COMPETITIVE] and pin != (spaces + 1) // 2):
        return pin
    return HOLDS


@borrowing
def victory_points(CARDS, p, g):
    """VP are never negative, only the competitive game's, only for the players at the
    table, and a player scores at most one card's points a round. Detail: the seat."""
    rounds = g[L.G_STAGE] * p[L.P_ROUNDS] + g[L.G_ROUND] + 1
    most = rounds * max_card_points(CARDS)
    for seat in range(L.N_SEATS):
        vp = g[L.G_VP + seat]
        if vp < 0 or vp > most:
            return seat
        if vp > 0 and (not p[L.P_COMPETITIVE] or seat >= g[L.G_SEATS]):
            return seat
    return HOLDS


@borrowing
def max_card_points(CARDS):
    meta = CARDS[CL.C_META]
    most = 0
    for card in range(1, L.N_CARDS + 1):
        most = max(most, abs(meta[card, CL.M_SENSE_FURY]))
    return most


# -- cards ----------------------------------------------------------------------------------------


@borrowing
def cards_in_the_game(CARDS, p):
    """The event/leader cards the piles were formed from: all 150, or in the First Game
    the ones with the "•"."""
    meta = CARDS[CL.C_META]
    n = 0
    for card in range(1, L.N_CARDS + 1):
        if p[L.P_FULL] or meta[card, CL.M_FIRST_GAME]:
            n += 1
    return n


@borrowing
def mark(seen, card):
    """Note that ``card`` lies somewhere; False if it was found elsewhere already (or is
    no card number)."""
    if card < 1 or card > L.N_CARDS or seen[card]:
        return False
    seen[card] = True
    return True


@allocating
def cards_add_up(CARDS, p, g):
    """Every card of the game is in exactly one place, and the undrawn piles, the cards
    found, and the cards back in the box add up to the cards the piles were formed from
    (150; the First Game's "•" cards). A leader played this round is both on the table and
    active; the Stage IV card, once played, too. Detail: a card found twice (or in the
    wrong pile), else the cards accounted for."""
    meta = CARDS[CL.C_META]
    seen = np.zeros(L.N_CARDS + 1, dtype=np.bool_)
    formed, accounted = 0, g[L.G_CARDS_BOXED]
    for stage in range(3):
        count, drawn = g[L.G_PILE_COUNT + stage], g[L.G_PILE_NEXT + stage]
        if count > L.PILE_SIZE or not 0 <= drawn <= count:
            return count
        formed += count
        for k in range(drawn, count):
            card = g[L.G_PILE + stage * L.PILE_SIZE + k]
            if not mark(seen, card) or meta[card, CL.M_STAGE] != stage:
                return max(card, 0)
            accounted += 1
    seated = L.N_SEATS * L.HAND_SIZE if p[L.P_SOLO] else g[L.G_SEATS] * L.HAND_SIZE
    for slot in range(L.N_SEATS * L.HAND_SIZE):
        card = g[L.G_HAND + slot]
        if card != 0:
            if slot >= seated or not mark(seen, card):  # (Casanova's pile runs on)
                return max(card, 0)
            accounted += 1
    found = placed_cards(g, seen)
    if found < 0:
        return -found
    accounted += found
    if formed != cards_in_the_game(CARDS, p) or accounted != formed:
        return accounted
    return HOLDS


@borrowing
def hands_alike(p, g):
    """Every player holds as many cards: each is dealt as many ("deals the number
    corresponding to each player"), places one face down each round, and Change 1 card
    has "All players discard one of the cards ... draw a new one". (Solo: Casanova's
    pile is no hand.) Detail: the seat whose hand differs from the first seat's."""
    if p[L.P_SOLO]:
        return HOLDS
    first = hand_count(g, 0)
    for seat in range(1, g[L.G_SEATS]):
        if hand_count(g, seat) != first:
            return seat
    return HOLDS


@borrowing
def placed_cards(g, seen):
    """The cards out of the piles and hands: face down, on the table, active leaders,
    beside Casanova's pile, the Stage IV card; how many, or minus a card found twice."""
    found = 0
    for seat in range(L.N_SEATS):
        played, leader = np.int64(g[L.G_ROUND_CARD + seat]), np.int64(g[L.G_LEADER + seat])
        for card in (np.int64(g[L.G_FACE_DOWN + seat]), played,
                     np.int64(0) if leader == played else leader):
            if card != 0:
                if not mark(seen, card):
                    return -max(card, 1)
                found += 1
    for k in range(g[L.G_CANCELLED]):
        card = g[L.G_CANCELLED_CARDS + k]
        if not mark(seen, card):
            return -max(card, 1)
        found += 1
    card = g[L.G_STAGE_IV_CARD]
    if card != 0 and not played_this_turn(g, card):
        if not mark(seen, card):
            return -max(card, 1)
        found += 1
    return found


@borrowing
def played_this_turn(g, card):
    """The Stage IV card once played: on the table (and active, for a leader)."""
    for seat in range(L.N_SEATS):
        if g[L.G_ROUND_CARD + seat] == card or g[L.G_LEADER + seat] == card:
            return True
    return False


@borrowing
def chance_cards(g):
    """The chance pile and its discards are the 14 cards, each once. Detail: the next
    card's place, else the card found twice."""
    drawn = g[L.G_CHANCE_NEXT]
    if not 0 <= drawn <= L.N_CHANCE:
        return drawn
    seen = 0
    for k in range(L.N_CHANCE):
        card = g[L.G_CHANCE_DECK + k]
        if not 0 <= card < L.N_CHANCE or (seen >> card) & 1:
            return card
        seen |= 1 << card
    return HOLDS


@borrowing
def leaders(CARDS, p, g):
    """A player at the table has at most one active leader, a leader card, in the full
    game only ("in a first game there are no leader cards"). Detail: the seat."""
    meta = CARDS[CL.C_META]
    for seat in range(L.N_SEATS):
        card = g[L.G_LEADER + seat]
        if card == 0:
            continue
        if (seat >= g[L.G_SEATS] or not 1 <= card <= L.N_CARDS or not p[L.P_FULL]
                or meta[card, CL.M_KIND] == CL.KIND_EVENT):
            return seat
    return HOLDS


@borrowing
def resignation_tiles(K, p, g):
    """Villarroel's tiles in hand and those spent on Casanova's cards are at most the 3
    printed (solo only); a card is set aside only with a tile. Detail: the tiles held
    and spent."""
    held, spent = g[L.G_RESIGNATION], g[L.G_CARDS_CANCELLED]
    most = K[L.K_COUNTS][L.COUNT_RESIGNATION] if p[L.P_SOLO] else 0
    if held < 0 or held + spent > most or not 0 <= g[L.G_CANCELLED] <= spent:
        return max(held, 0) + max(spent, 0)
    return HOLDS


@borrowing
def action_points(g):
    """AP left are never negative; AP granted for one group only ("Movement (X AP)").
    Detail: the AP left."""
    if g[L.G_SEAT_AP] < 0 or not -1 <= g[L.G_AP_GROUP] < 4:
        return abs(g[L.G_SEAT_AP])
    return HOLDS


@borrowing
def sequence_of_play(p, g):
    """Stages I-IV, the stage's rounds, 2-4 seats (solo: 2), the Flag and the turn with a
    seat at the table, no more turns than the deal table gives. Detail: the turn."""
    seats = g[L.G_SEATS]
    turns = 3 * seats * p[L.P_ROUNDS] + 1
    if (not L.STAGE_I <= g[L.G_STAGE] <= L.STAGE_IV or not 0 <= g[L.G_ROUND] < p[L.P_ROUNDS]
            or not 2 <= seats <= L.N_SEATS or not 0 <= g[L.G_FLAG] < seats
            or not 0 <= g[L.G_ACTIVE] < seats or not 0 <= g[L.G_TURN] <= turns):
        return g[L.G_TURN]
    return HOLDS
