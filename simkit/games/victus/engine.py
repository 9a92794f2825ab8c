"""The Victus turn structure (rulebook "Game Sequence", "Start of Stage I / II / III",
"Start of Round", "Each Player's Turn", "End of Round", "Stage IV", "End of the Game"):
stages I-III of rounds and turns, then Stage IV's single card.

A stage deals each seat its cards (added to what is left in hand); each round every
seat chooses a card, then, from the Flag holder clockwise, takes a turn: start-of-turn
effects, the card's effect and Almanac, the Bourbon action dice, the Barcelonan actions,
end-of-turn effects, the defeat check, and the clean-up of camps. At the end of a round
the Flag passes to the left (competitive: to the lowest Sense/Fury card, after scoring).
Stage IV: the Flag holder draws one card at random from the three left in each hand and
plays a normal turn with it. Surviving it is the victory, unless the competitive players'
VP fall short of the victory level. The solo game's card flow is ``solo.py``; scoring is
``scoring.py``.
"""

import numpy as np

from simkit.checks import at_game, failed
from simkit.eventlog import log_event
from simkit.rng import game_streams, restart, uniform_int
from simkit.unmanaged import allocating, borrowing, unmanaged

from . import card_layout as CL
from . import layout as L
from .bourbons import resolve_die
from .card_effects import (
    action_ap_bonus,
    die_amount,
    new_round,
    resolve_card,
    round_effects,
    sync_leader_flags,
    timed_effects,
)
from .checks import checked
from .events import EV_ACTION_POINTS, EV_DEFEAT_VP, EV_DICE_ORDER, EV_DIE, EV_STAGE, EV_TURN
from .hands import build_piles, deal, put_face_down, stage_iv_pool, to_the_box
from .pieces import (
    coronela_in_barcelona,
    eliminate,
    marker_value,
    rubble_on_board,
)
from .policies import choose_card, chooses_dice_order, order_dice, spend_action_points
from .scoring import next_starting_player, score_round, short_of_victory_level, total_vp
from .solo import (
    CASANOVA,
    VILLARROEL,
    casanova_card,
    receive_resignation_tile,
)

# -- one turn -------------------------------------------------------------------------------------


@allocating
def roll_bourbon_dice(DICE, CARDS, g, rng, log):
    """Roll the stage's dice (leaders may change a result): one row (action, amount) per
    die, in table order."""
    stage = g[L.G_STAGE]
    action, amount, stage_dice = DICE
    n = 0
    while n < stage_dice.shape[1] and stage_dice[stage, n] >= 0:
        n += 1
    faces = np.empty((n, 2), dtype=np.int64)
    restart(rng, L.ST_BOURBON_DICE, g[L.G_TURN])  # this turn's dice, whatever came before
    for k in range(n):
        die = stage_dice[stage, k]
        face = uniform_int(rng, L.ST_BOURBON_DICE, 6)
        faces[k, 0] = action[die, face]
        faces[k, 1] = die_amount(g, CARDS, faces[k, 0], amount[die, face])
        log_event(log, EV_DIE, die, faces[k, 0], faces[k, 1])
    return faces


@borrowing
def resolve_bourbon_dice(K, CARDS, p, w, sp, g, rng, faces, order, log):
    """Resolve the rolled dice one by one in ``order`` ("Each die (Bourbon action) must be
    fully resolved before resolving the next one")."""
    flag_turn = g[L.G_FLAG_TURN] == 1
    g[L.G_BOURBON_DICE_ROLLED] += faces.shape[0]
    for k in order:
        if faces[k, 1] > 0:
            resolve_die(K, p, w, sp, g, rng, faces[k, 0], faces[k, 1], flag_turn, log)
            if checked(K, CARDS, p, sp, g, log, L.STEP_BOURBON_DIE):
                return


@borrowing
def barcelonan_actions(K, CARDS, p, w, sp, g, rng, log):
    """AP = Generalitat (+ leaders). (AP a card grants for one group are spent when the
    card grants them: ``card_effects.op_grant_ap``.)"""
    g[L.G_AP_GROUP] = -1
    g[L.G_SEAT_AP] = max(0, marker_value(K, g, L.MARKER_GENERALITAT)
                         + action_ap_bonus(g, CARDS))
    log_event(log, EV_ACTION_POINTS, g[L.G_SEAT_AP])
    spend_action_points(K, CARDS, p, w, sp, g, rng, log)


@borrowing
def defeat(K, p, sp, g):
    """End of turn: too few Coronela in Barcelona, a Bourbon tile on the Beach, or too
    many rubble/ruined tiles on the board."""
    if coronela_in_barcelona(K, sp) < p[L.P_CORONELA_THRESHOLD]:
        return L.END_CORONELA
    if sp[K[L.K_SPECIAL][L.SPECIAL_BEACH], L.SP_BOURBON] > 0:
        return L.END_BEACH
    if rubble_on_board(sp, g) >= p[L.P_RUBBLE_THRESHOLD]:
        return L.END_RUBBLE
    return L.END_NONE


@borrowing
def clean_camps(K, sp):
    """End of turn: Bourbon tiles, troops and razed tiles in camps are eliminated."""
    for camp in K[L.K_CAMPS]:
        sp[camp, L.SP_BOURBON] = 0
        sp[camp, L.SP_RAZED] = 0
        eliminate(K, sp, camp, L.SP_CORONELA, sp[camp, L.SP_CORONELA])
        eliminate(K, sp, camp, L.SP_INFANTRY, sp[camp, L.SP_INFANTRY])


@borrowing
def end_of_turn_reset(sp, g):
    """Cannons may fire again; the card's War Council and the Flag's +1 end with the turn
    (the card system clears its AP grants and ↑/↓ itself)."""
    sp[:, L.SP_CANNON_FIRED] = 0
    g[L.G_WAR_COUNCIL] = -1
    g[L.G_FLAG_TURN] = 0


@borrowing
def begin_turn(K, CARDS, p, w, sp, g, rng, seat, card, log):
    """A turn up to the Bourbon dice: start-of-turn effects, the card's effect and Almanac."""
    g[L.G_ACTIVE] = seat
    g[L.G_FLAG_TURN] = 1 if seat == g[L.G_FLAG] else 0
    restart(rng, L.ST_POLICY, 2 * g[L.G_TURN])
    log_event(log, EV_TURN, g[L.G_STAGE], g[L.G_ROUND], seat)
    timed_effects(K, CARDS, p, w, sp, g, rng, seat, CL.T_START_OF_TURN, log)
    if checked(K, CARDS, p, sp, g, log, L.STEP_START_OF_TURN):
        return
    resolve_card(K, CARDS, p, w, sp, g, rng, seat, card, log)
    g[L.G_CARDS_PLAYED] += 1
    checked(K, CARDS, p, sp, g, log, L.STEP_ADJUST_MARKERS)


@borrowing
def end_turn(K, CARDS, p, w, sp, g, rng, seat, log):
    """A turn after the Bourbon dice: the Barcelonan actions, end-of-turn effects, the
    defeat check and the clean-up; returns the end reason if the game is lost."""
    barcelonan_actions(K, CARDS, p, w, sp, g, rng, log)
    if failed(log):
        return L.END_NONE
    timed_effects(K, CARDS, p, w, sp, g, rng, seat, CL.T_END_OF_TURN, log)
    if failed(log):
        return L.END_NONE
    g[L.G_TURN] += 1
    reason = defeat(K, p, sp, g)
    clean_camps(K, sp)
    end_of_turn_reset(sp, g)
    checked(K, CARDS, p, sp, g, log, L.STEP_END_OF_TURN)
    return reason


@allocating
def play_turn(K, DICE, CARDS, p, w, sp, g, rng, seat, card, log):
    """One turn; returns the end reason if the defeat check ends the game (a broken state
    invariant ends it too: ``failed(log)``)."""
    begin_turn(K, CARDS, p, w, sp, g, rng, seat, card, log)
    if failed(log):
        return L.END_NONE
    faces = roll_bourbon_dice(DICE, CARDS, g, rng, log)
    order = order_dice(K, CARDS, p, w, sp, g, rng, faces, faces.shape[0])
    resolve_bourbon_dice(K, CARDS, p, w, sp, g, rng, faces, order, log)
    if failed(log):
        return L.END_NONE
    return end_turn(K, CARDS, p, w, sp, g, rng, seat, log)


# -- rounds and stages ------------------------------------------------------------------------


@borrowing
def start_of_round(K, CARDS, p, w, sp, g, rng, log):
    """Next-round effects; a card's "next round, choose at random" now applies; solo:
    a resignation tile (per-round reading)."""
    new_round(g)
    round_effects(K, CARDS, p, w, sp, g, rng, g[L.G_SEATS], g[L.G_FLAG], CL.T_NEXT_ROUND_START,
                  log)
    g[L.G_RANDOM_ROUND] = g[L.G_RANDOM_CHOICE]
    g[L.G_RANDOM_CHOICE] = 0
    receive_resignation_tile(K, p, g, False)


@borrowing
def turn_card(CARDS, p, w, g, rng, seat, chosen, log):
    """The card a seat plays: chosen at the start of the round, or in the solo game
    Villarroel's choice at the start of his turn and the top of Casanova's pile."""
    if not p[L.P_SOLO]:
        return chosen[seat]
    if seat == CASANOVA:
        card = casanova_card(CARDS, p, w, g, rng, log)
        g[L.G_FACE_DOWN + seat] = card  # drawn, played at once
        return card
    return put_face_down(g, seat, choose_card(CARDS, p, w, g, rng, seat))


@borrowing
def end_of_round(K, CARDS, p, w, sp, g, rng, log):
    """End-of-round effects; competitive scoring; the Flag passes to the left, or
    (competitive, not solo) to the lowest Sense/Fury card."""
    seats, first = g[L.G_SEATS], g[L.G_FLAG]
    round_effects(K, CARDS, p, w, sp, g, rng, seats, first, CL.T_END_OF_ROUND, log)
    if p[L.P_COMPETITIVE]:
        score_round(CARDS, p, g, first, log)
    if p[L.P_COMPETITIVE] and not p[L.P_SOLO]:
        g[L.G_FLAG] = next_starting_player(CARDS, g, first)
    else:
        g[L.G_FLAG] = (first + 1) % seats
    discard_round_cards(g)


@borrowing
def discard_round_cards(g):
    """"All players discard the cards they played during the round and return them to the
    box, except for leader cards, which ... remain on the table" (End of Round): a leader
    deactivated during the round goes to the box now."""
    for seat in range(L.N_SEATS):
        card = g[L.G_ROUND_CARD + seat]
        if card != 0 and card != g[L.G_LEADER + seat]:
            to_the_box(g, 1)
        g[L.G_ROUND_CARD + seat] = 0


@allocating
def choose_cards(CARDS, p, w, g, rng):
    """Each seat puts a card face down (not solo: Villarroel chooses at his turn); the
    cards by seat."""
    restart(rng, L.ST_POLICY, 2 * g[L.G_TURN] + 1)  # the round's card choices
    chosen = np.zeros(4, dtype=np.int64)
    if not p[L.P_SOLO]:
        for seat in range(g[L.G_SEATS]):
            chosen[seat] = put_face_down(g, seat, choose_card(CARDS, p, w, g, rng, seat))
    return chosen


@borrowing
def seat_at(g, k):
    """The seat taking the ``k``-th turn of a round: from the Flag holder clockwise."""
    return (g[L.G_FLAG] + k) % g[L.G_SEATS]


@borrowing
def finish_round(K, DICE, CARDS, p, w, sp, g, rng, chosen, first, log):
    """The round's turns from its ``first``-th on, then the end of the round."""
    for k in range(first, g[L.G_SEATS]):
        seat = seat_at(g, k)
        card = turn_card(CARDS, p, w, g, rng, seat, chosen, log)
        if p[L.P_SOLO] and checked(K, CARDS, p, sp, g, log, solo_card_step(seat)):
            return L.END_NONE
        reason = play_turn(K, DICE, CARDS, p, w, sp, g, rng, seat, card, log)
        if reason != L.END_NONE or failed(log):
            return reason
    end_of_round(K, CARDS, p, w, sp, g, rng, log)
    checked(K, CARDS, p, sp, g, log, L.STEP_END_OF_ROUND)
    return L.END_NONE


@borrowing
def solo_card_step(seat):
    """The solo game's step that gives a seat its card: Casanova's top card (after any
    resignation tiles), or the card Villarroel chooses at the start of his turn."""
    return L.STEP_CASANOVA_CARD if seat == CASANOVA else L.STEP_VILLARROEL_CARD


@allocating
def play_round(K, DICE, CARDS, p, w, sp, g, rng, log):
    start_of_round(K, CARDS, p, w, sp, g, rng, log)
    if checked(K, CARDS, p, sp, g, log, L.STEP_START_OF_ROUND):
        return L.END_NONE
    chosen = choose_cards(CARDS, p, w, g, rng)
    if checked(K, CARDS, p, sp, g, log, L.STEP_CARDS_CHOSEN):
        return L.END_NONE
    return finish_round(K, DICE, CARDS, p, w, sp, g, rng, chosen, 0, log)


@allocating
def stage_iv_card(g, rng):
    """The three cards left in each hand (solo: Villarroel's, Casanova's pile and the
    cancelled cards), shuffled; one drawn at random. 0 if none is left."""
    pool = np.zeros(4 * L.HAND_SIZE + L.MAX_CANCELLED, dtype=np.int64)
    n = stage_iv_pool(g, pool)
    if n == 0:
        return 0
    to_the_box(g, n - 1)  # the cards not drawn are not played
    return pool[uniform_int(rng, L.ST_STAGE_IV, n)]


@borrowing
def stage_iv_turn_card(p, g, rng):
    """Stage IV's card, drawn for the starting player (solo: always Villarroel); 0 if
    no card is left."""
    if p[L.P_SOLO]:
        g[L.G_FLAG] = VILLARROEL
    card = stage_iv_card(g, rng)
    g[L.G_STAGE_IV_CARD] = card
    return card


@borrowing
def play_stage_iv(K, DICE, CARDS, p, w, sp, g, rng, log):
    """One normal turn by the starting player with the Stage IV card; in the competitive
    game it is not scored (it counts in the fame)."""
    card = stage_iv_turn_card(p, g, rng)
    if checked(K, CARDS, p, sp, g, log, L.STEP_STAGE_IV_CARD) or card == 0:
        return L.END_NONE
    return play_turn(K, DICE, CARDS, p, w, sp, g, rng, g[L.G_FLAG], card, log)


@borrowing
def end_of_game(p, g, log):
    """Stage IV survived: the victory, unless the competitive players' VP fall short."""
    if short_of_victory_level(p, g):
        log_event(log, EV_DEFEAT_VP, total_vp(g), p[L.P_VICTORY_LEVEL])
        return L.END_VICTORY_POINTS
    return L.END_SURVIVED


@borrowing
def choose_dice_order(p, w, g, rng, stage, log):
    """Start of a stage: whether the active players order the Bourbon dice this stage
    (free: always; sequential: never; partial: the players decide, for a fame bonus)."""
    order = p[L.P_DICE_ORDER]
    free = order == L.DICE_FREE
    if order == L.DICE_PARTIAL:
        free = chooses_dice_order(w, g, rng, stage)
        if free:
            g[L.G_DICE_CHOSEN] |= 1 << stage
        log_event(log, EV_DICE_ORDER, stage, 1 if free else 0)
    g[L.G_DICE_ORDER_FREE] = 1 if free else 0


@borrowing
def start_of_stage(K, CARDS, p, w, g, rng, stage, log):
    g[L.G_STAGE] = stage
    choose_dice_order(p, w, g, rng, stage, log)
    sync_leader_flags(g, CARDS)  # some leaders' modifiers hold in some stages only
    log_event(log, EV_STAGE, stage)
    if stage < L.STAGE_IV:
        deal(CARDS, p, g, stage, p[L.P_CARDS])
        receive_resignation_tile(K, p, g, True)


@borrowing
def begin_stage(K, CARDS, p, w, sp, g, rng, stage, log):
    """``start_of_stage``, then the state checks; whether the game must stop."""
    start_of_stage(K, CARDS, p, w, g, rng, stage, log)
    return checked(K, CARDS, p, sp, g, log, L.STEP_START_OF_STAGE)


@borrowing
def set_up_game(CARDS, p, g, rng):
    """Shuffle the event piles and give the Flag to the first starting player."""
    build_piles(CARDS, p, g, rng)
    if p[L.P_SOLO]:
        g[L.G_FLAG] = CASANOVA  # the solo game's first starting player
    else:
        # "the player who has spent least time in Barcelona": at random
        g[L.G_FLAG] = uniform_int(rng, L.ST_SET_UP, g[L.G_SEATS])


@borrowing
def play_from(K, DICE, CARDS, p, w, sp, g, rng, stage, first_round, log):
    """The game from round ``first_round`` of ``stage`` (already started) to its end;
    returns the end reason."""
    for s in range(stage, 3):
        if s != stage and begin_stage(K, CARDS, p, w, sp, g, rng, s, log):
            return L.END_NONE
        for rnd in range(first_round if s == stage else 0, p[L.P_ROUNDS]):
            g[L.G_ROUND] = rnd
            reason = play_round(K, DICE, CARDS, p, w, sp, g, rng, log)
            if reason != L.END_NONE or failed(log):
                return reason
    if begin_stage(K, CARDS, p, w, sp, g, rng, L.STAGE_IV, log):
        return L.END_NONE
    reason = play_stage_iv(K, DICE, CARDS, p, w, sp, g, rng, log)
    if reason != L.END_NONE or failed(log):
        return reason
    return end_of_game(p, g, log)


@borrowing
def play_game(K, DICE, CARDS, p, w, sp, g, rng, log):
    """A whole game from the set-up position; returns the end reason."""
    set_up_game(CARDS, p, g, rng)
    if (checked(K, CARDS, p, sp, g, log, L.STEP_SETUP)
            or begin_stage(K, CARDS, p, w, sp, g, rng, L.STAGE_I, log)):
        return L.END_NONE
    reason = play_from(K, DICE, CARDS, p, w, sp, g, rng, 0, 0, log)
    if not failed(log):
        checked(K, CARDS, p, sp, g, log, L.STEP_END_OF_GAME)
    return reason


@allocating
def play_games(K, DICE, CARDS, p, pol, sp0, g0, game_indices, root_seed, log):
    """Play one game per index from the set-up position; one outcome row each. Every
    seat plays the players' row of ``pol`` (Victus has one side, whatever the seats)."""
    out = np.zeros((game_indices.shape[0], L.N_OUT), dtype=np.int32)
    w = pol[L.PLAYERS]
    for row in range(game_indices.shape[0]):
        at_game(log, row)
        rng = game_streams(root_seed, game_indices[row], L.N_STREAMS)
        sp, g = sp0.copy(), g0.copy()
        reason = play_unmanaged(K, DICE, CARDS, p, w, sp, g, rng, log)
        if failed(log):
            break  # the state checks stop at the first broken invariant
        record(K, sp, g, reason, out[row])
    return out


@allocating
def play_unmanaged(K, DICE, CARDS, p, w, sp, g, rng, log):
    """``play_game`` on views numba does not reference-count (``unmanaged.py`` says
    why and why it is safe)."""
    return play_game(unmanaged(K), unmanaged(DICE), unmanaged(CARDS), unmanaged(p),
                     unmanaged(w), unmanaged(sp), unmanaged(g), unmanaged(rng), unmanaged(log))




@borrowing
def record(K, sp, g, reason, out):
    out[L.O_WINNER] = L.WIN_PLAYERS if reason == L.END_SURVIVED else L.WIN_GAME
    out[L.O_END_REASON] = reason
    out[L.O_TURNS] = g[L.G_TURN]
    out[L.O_STAGE] = g[L.G_STAGE] + 1
    out[L.O_CORONELA] = coronela_in_barcelona(K, sp)
    out[L.O_RUBBLE] = rubble_on_board(sp, g)
    out[L.O_BOURBON_STRENGTH] = sp[:, L.SP_BOURBON].sum()
    trench = 0
    for column in range(L.N_TRENCH):
        trench += g[L.G_TRENCH + column]
    out[L.O_TRENCH] = trench
    out[L.O_MINE_EXPLOSIONS] = g[L.G_MINE_EXPLOSIONS]
    out[L.O_CARDS_PLAYED] = g[L.G_CARDS_PLAYED]
    for seat in range(4):
        out[L.O_VP + seat] = g[L.G_VP + seat]
    out[L.O_STAGE_IV_CARD] = g[L.G_STAGE_IV_CARD]
    out[L.O_DICE_CHOSEN] = g[L.G_DICE_CHOSEN]
    out[L.O_CANCELLED] = g[L.G_CARDS_CANCELLED]

