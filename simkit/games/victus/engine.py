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

The sequence is played as resumable steps (``play_until``): where the game stands is part
of its state, so a copy of the state is a position to play on from, and the players'
decisions a search makes (the card put face down, the next Bourbon die) are stops the
caller may ask for. Every game, the default kernel's and the look-ahead's and each of its
rollouts, is played by that one loop.
"""

import numpy as np

from simkit.checks import at_game, failed
from simkit.eventlog import log_event
from simkit.rng import game_streams, restart, uniform_int
from simkit.unmanaged import allocating, borrowing, stepping, unmanaged

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


@borrowing
def seat_at(g, k):
    """The seat taking the ``k``-th turn of a round: from the Flag holder clockwise."""
    return (g[L.G_FLAG] + k) % g[L.G_SEATS]


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


# -- the sequence of play as resumable steps ----------------------------------------------------
#
# Where the game stands lives in ``g`` (``G_NEXT`` and the fields after it), so a copy of
# ``sp`` and ``g`` is a position: ``play_until`` plays it on from whatever step it stands
# at. The default kernel asks for no stop and plays a whole game in one call. The
# look-ahead (``lookahead.py``) asks it to stop at its decisions, writes its choice into
# ``G_CHOICE`` and calls it again, and plays its rollouts with it from copies: one play
# loop for both.


@borrowing
def play_until(K, DICE, CARDS, p, w, sp, g, rng, stop, log):
    """Play the position on, to the end of the game (returns 0) or to the first stop
    asked for in ``stop`` (bits ``STOP_*``; returns that bit). At a decision's stop
    ``G_CHOICE`` holds the players' script's choice; play resumes with whatever it holds
    then."""
    while g[L.G_NEXT] != L.NEXT_OVER:
        reached = play_step(K, DICE, CARDS, p, w, sp, g, rng, stop, log)
        if reached:
            return reached
    return 0


@stepping
def play_step(K, DICE, CARDS, p, w, sp, g, rng, stop, log):
    """The step ``G_NEXT`` names; the stop it reached (0: none)."""
    step = g[L.G_NEXT]
    if step == L.NEXT_SET_UP:
        return set_up_step(K, CARDS, p, w, sp, g, rng, stop, log)
    if step == L.NEXT_ROUND:
        return round_step(K, CARDS, p, w, sp, g, rng, log)
    if step == L.NEXT_CARD_CHOICE:
        return card_choice_step(K, CARDS, p, w, sp, g, rng, stop, log)
    if step == L.NEXT_PLACE_CARD:
        put_face_down(g, np.int64(g[L.G_CHOOSER]), np.int64(g[L.G_CHOICE]))
        g[L.G_CHOOSER] += 1
        g[L.G_NEXT] = L.NEXT_CARD_CHOICE
        return 0
    if step == L.NEXT_TURN:
        return turn_step(K, CARDS, p, w, sp, g, rng, stop, log)
    if step == L.NEXT_PLACE_SOLO_CARD:
        return place_solo_card_step(K, CARDS, p, sp, g, log)
    if step == L.NEXT_BEGIN_TURN:
        return begin_turn_step(K, DICE, CARDS, p, w, sp, g, rng, log)
    if step == L.NEXT_DIE:
        return die_step(g, stop)
    if step == L.NEXT_RESOLVE_DIE:
        return resolve_die_step(K, CARDS, p, w, sp, g, rng, log)
    if step == L.NEXT_END_TURN:
        return end_turn_step(K, CARDS, p, w, sp, g, rng, log)
    return stage_iv_step(K, CARDS, p, sp, g, rng, log)


@stepping
def game_over(K, CARDS, p, sp, g, reason, log):
    """The game ends with ``reason`` (``END_NONE`` when a broken state invariant stopped
    it); its state is checked once more unless it already failed."""
    g[L.G_END_REASON] = reason
    g[L.G_NEXT] = L.NEXT_OVER
    if not failed(log):
        checked(K, CARDS, p, sp, g, log, L.STEP_END_OF_GAME)
    return 0


@stepping
def to_round(g, rnd, stop):
    """Round ``rnd`` of the stage comes next (a stop if asked for)."""
    g[L.G_ROUND] = rnd
    g[L.G_NEXT] = L.NEXT_ROUND
    return stop & L.STOP_ROUND


@stepping
def set_up_step(K, CARDS, p, w, sp, g, rng, stop, log):
    """Set-up, then the start of Stage I."""
    set_up_game(CARDS, p, g, rng)
    if (checked(K, CARDS, p, sp, g, log, L.STEP_SETUP)
            or begin_stage(K, CARDS, p, w, sp, g, rng, L.STAGE_I, log)):
        return game_over(K, CARDS, p, sp, g, L.END_NONE, log)
    return to_round(g, 0, stop)


@stepping
def round_step(K, CARDS, p, w, sp, g, rng, log):
    """The start of the round; the card choices come next (the round's own policy
    stream)."""
    start_of_round(K, CARDS, p, w, sp, g, rng, log)
    if checked(K, CARDS, p, sp, g, log, L.STEP_START_OF_ROUND):
        return game_over(K, CARDS, p, sp, g, L.END_NONE, log)
    restart(rng, L.ST_POLICY, 2 * g[L.G_TURN] + 1)  # the round's card choices
    g[L.G_CHOOSER] = 0
    g[L.G_NEXT] = L.NEXT_CARD_CHOICE
    return 0


@stepping
def card_choice_step(K, CARDS, p, w, sp, g, rng, stop, log):
    """The next seat chooses the card it puts face down (a decision, unless a card
    makes the choice random); once every seat has (solo: none does, Villarroel chooses
    at his turn), the turns."""
    seat = np.int64(g[L.G_CHOOSER])
    if p[L.P_SOLO] or seat == g[L.G_SEATS]:
        if checked(K, CARDS, p, sp, g, log, L.STEP_CARDS_CHOSEN):
            return game_over(K, CARDS, p, sp, g, L.END_NONE, log)
        g[L.G_TURN_OF_ROUND] = 0
        g[L.G_NEXT] = L.NEXT_TURN
        return 0
    g[L.G_CHOICE] = choose_card(CARDS, p, w, g, rng, seat)
    g[L.G_NEXT] = L.NEXT_PLACE_CARD
    return 0 if g[L.G_RANDOM_ROUND] else stop & L.STOP_CARD


@stepping
def turn_step(K, CARDS, p, w, sp, g, rng, stop, log):
    """The round's next turn, from the Flag holder clockwise, with the card its seat put
    face down; solo: Casanova's top card, or Villarroel's choice (a decision). After the
    last turn, the end of the round."""
    k = g[L.G_TURN_OF_ROUND]
    if k == g[L.G_SEATS]:
        return round_end_step(K, CARDS, p, w, sp, g, rng, stop, log)
    seat = seat_at(g, k)
    g[L.G_TURN_SEAT] = seat
    if not p[L.P_SOLO]:
        g[L.G_TURN_CARD] = g[L.G_FACE_DOWN + seat]
    elif seat == CASANOVA:
        card = casanova_card(CARDS, p, w, g, rng, log)
        g[L.G_FACE_DOWN + seat] = card  # drawn, played at once
        g[L.G_TURN_CARD] = card
        if checked(K, CARDS, p, sp, g, log, L.STEP_CASANOVA_CARD):
            return game_over(K, CARDS, p, sp, g, L.END_NONE, log)
    else:
        g[L.G_CHOICE] = choose_card(CARDS, p, w, g, rng, VILLARROEL)
        g[L.G_NEXT] = L.NEXT_PLACE_SOLO_CARD
        return 0 if g[L.G_RANDOM_ROUND] else stop & L.STOP_CARD
    g[L.G_NEXT] = L.NEXT_BEGIN_TURN
    return 0


@stepping
def place_solo_card_step(K, CARDS, p, sp, g, log):
    """Villarroel plays the card chosen at the start of his turn."""
    g[L.G_TURN_CARD] = put_face_down(g, VILLARROEL, np.int64(g[L.G_CHOICE]))
    if checked(K, CARDS, p, sp, g, log, L.STEP_VILLARROEL_CARD):
        return game_over(K, CARDS, p, sp, g, L.END_NONE, log)
    g[L.G_NEXT] = L.NEXT_BEGIN_TURN
    return 0


@stepping
def begin_turn_step(K, DICE, CARDS, p, w, sp, g, rng, log):
    """The turn up to the Bourbon dice, and their roll."""
    begin_turn(K, CARDS, p, w, sp, g, rng, np.int64(g[L.G_TURN_SEAT]),
               np.int64(g[L.G_TURN_CARD]), log)
    if failed(log):
        return game_over(K, CARDS, p, sp, g, L.END_NONE, log)
    roll_dice(K, DICE, CARDS, p, w, sp, g, rng, log)
    g[L.G_NEXT] = L.NEXT_DIE
    return 0


@allocating
def roll_dice(K, DICE, CARDS, p, w, sp, g, rng, log):
    """Roll the stage's dice; their faces, and the order the players' script resolves
    them in (``policies.order_dice``), go into ``g``."""
    faces = roll_bourbon_dice(DICE, CARDS, g, rng, log)
    n = faces.shape[0]
    order = order_dice(K, CARDS, p, w, sp, g, rng, faces, n)
    g[L.G_ROLLED] = n
    g[L.G_RESOLVED] = 0
    for k in range(n):
        g[L.G_FACES + 2 * k] = faces[k, 0]
        g[L.G_FACES + 2 * k + 1] = faces[k, 1]
        g[L.G_DIE_ORDER + k] = order[k]
    g[L.G_BOURBON_DICE_ROLLED] += n


@stepping
def die_step(g, stop):
    """The next die to resolve: the next in the order so far, or, when the players order
    the dice and more than one is left, a decision; after the last, the rest of the
    turn."""
    place = g[L.G_RESOLVED]
    if place == g[L.G_ROLLED]:
        g[L.G_NEXT] = L.NEXT_END_TURN
        return 0
    g[L.G_CHOICE] = g[L.G_DIE_ORDER + place]
    g[L.G_NEXT] = L.NEXT_RESOLVE_DIE
    if g[L.G_DICE_ORDER_FREE] and place < g[L.G_ROLLED] - 1:
        return stop & L.STOP_DIE
    return 0


@stepping
def resolve_die_step(K, CARDS, p, w, sp, g, rng, log):
    """Resolve the chosen die ("Each die (Bourbon action) must be fully resolved before
    resolving the next one"); the dice after it keep their order."""
    place, die = np.int64(g[L.G_RESOLVED]), np.int64(g[L.G_CHOICE])
    bring_forward(g, place, die)
    g[L.G_RESOLVED] = place + 1
    g[L.G_NEXT] = L.NEXT_DIE
    amount = np.int64(g[L.G_FACES + 2 * die + 1])
    if amount > 0:
        resolve_die(K, p, w, sp, g, rng, np.int64(g[L.G_FACES + 2 * die]), amount,
                    g[L.G_FLAG_TURN] == 1, log)
        if checked(K, CARDS, p, sp, g, log, L.STEP_BOURBON_DIE):
            return game_over(K, CARDS, p, sp, g, L.END_NONE, log)
    return 0


@stepping
def bring_forward(g, place, die):
    """``die`` to ``place`` of the dice order, the dice it passes one place later."""
    k = place
    while g[L.G_DIE_ORDER + k] != die:
        k += 1
    while k > place:
        g[L.G_DIE_ORDER + k] = g[L.G_DIE_ORDER + k - 1]
        k -= 1
    g[L.G_DIE_ORDER + place] = die


@stepping
def end_turn_step(K, CARDS, p, w, sp, g, rng, log):
    """The turn after the Bourbon dice; the game ends on a defeat, or after Stage IV's
    turn."""
    reason = end_turn(K, CARDS, p, w, sp, g, rng, np.int64(g[L.G_TURN_SEAT]), log)
    if reason != L.END_NONE or failed(log):
        return game_over(K, CARDS, p, sp, g, reason, log)
    if g[L.G_STAGE] == L.STAGE_IV:
        return game_over(K, CARDS, p, sp, g, end_of_game(p, g, log), log)
    g[L.G_TURN_OF_ROUND] += 1
    g[L.G_NEXT] = L.NEXT_TURN
    return 0


@stepping
def round_end_step(K, CARDS, p, w, sp, g, rng, stop, log):
    """The end of the round; then the next round, the next stage, or Stage IV."""
    end_of_round(K, CARDS, p, w, sp, g, rng, log)
    if checked(K, CARDS, p, sp, g, log, L.STEP_END_OF_ROUND):
        return game_over(K, CARDS, p, sp, g, L.END_NONE, log)
    if g[L.G_ROUND] + 1 < p[L.P_ROUNDS]:
        return to_round(g, g[L.G_ROUND] + 1, stop)
    stage = g[L.G_STAGE] + 1
    if begin_stage(K, CARDS, p, w, sp, g, rng, stage, log):
        return game_over(K, CARDS, p, sp, g, L.END_NONE, log)
    if stage < L.STAGE_IV:
        return to_round(g, 0, stop)
    g[L.G_NEXT] = L.NEXT_STAGE_IV
    return 0


@stepping
def stage_iv_step(K, CARDS, p, sp, g, rng, log):
    """Stage IV's card, drawn at random: one normal turn by the starting player with it
    (in the competitive game it is not scored: it counts in the fame); none left, the
    end of the game."""
    card = stage_iv_turn_card(p, g, rng)
    if checked(K, CARDS, p, sp, g, log, L.STEP_STAGE_IV_CARD):
        return game_over(K, CARDS, p, sp, g, L.END_NONE, log)
    if card == 0:
        return game_over(K, CARDS, p, sp, g, end_of_game(p, g, log), log)
    g[L.G_TURN_SEAT] = g[L.G_FLAG]
    g[L.G_TURN_CARD] = card
    g[L.G_NEXT] = L.NEXT_BEGIN_TURN
    return 0


@borrowing
def play_game(K, DICE, CARDS, p, w, sp, g, rng, log):
    """A whole game from the set-up position, every decision the players' script's;
    returns the end reason."""
    play_until(K, DICE, CARDS, p, w, sp, g, rng, 0, log)
    return g[L.G_END_REASON]


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

