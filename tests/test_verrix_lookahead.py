"""Verrix: the resumable engine and the look-ahead tribe. Stopping at the action choices
changes no game, a copied position plays on like the original, each choice lists legal
options with greedy's first and the rest by greedy's score, a search leaves the game
untouched but for its choice and picks the option its rollouts score best, and no choice
depends on what the player cannot see (the Event deck's order, "shuffled and covered",
and the delayed Events the others hold, "covered") or on the game's future draws."""

import numpy as np
import pytest

from simkit import simulate
from simkit.eventlog import no_log
from simkit.games.verrix import GAME
from simkit.games.verrix import engine as E
from simkit.games.verrix import layout as L
from simkit.games.verrix import lookahead as LA
from simkit.games.verrix.state import pl
from simkit.rng import KEY, game_streams, restart

SEED = 1714
EVERY = (1 << L.MAX_PLAYERS) - 1  # every seat's action choices
LOOK = "lookahead:rollouts=8"


def position(policy=LOOK, preset=None, game_index=0):
    """The tables, the rules vector, the rows the look-ahead's kernel plays with
    (``greedy_rows``), a set-up state and the game's streams."""
    S, p, pol = GAME.kernel_inputs(GAME.resolve_rules(preset), GAME.policy_choices(policy))
    rng = game_streams(np.uint64(SEED), game_index, L.N_STREAMS)
    restart(rng, L.ST_EVENT_DECK, 0)
    g = np.zeros(L.N_STATE, np.int64)
    E.setup(S, p, pol, g, rng, no_log())
    return S, p, LA.greedy_rows(pol), g, rng


def stop_at(nth, where=lambda g: True, preset=None):
    """The ``nth`` action choice (of every seat) at which ``where`` holds."""
    S, p, pol, g, rng = position(preset=preset)
    seen = 0
    while True:
        assert E.play_from(S, p, pol, g, rng, EVERY, no_log()) == L.D_ACTION, \
            "the game ended before the stop"
        if where(g):
            if seen == nth:
                return S, p, pol, g, rng
            seen += 1


def test_stopping_at_every_action_choice_changes_nothing():
    S, p, pol, g, rng = position()
    whole, whole_rng = g.copy(), rng.copy()
    assert E.play_from(S, p, pol, whole, whole_rng, 0, no_log()) == L.D_NONE
    stops = np.zeros(L.MAX_PLAYERS, np.int64)
    while E.play_from(S, p, pol, g, rng, EVERY, no_log()) != L.D_NONE:
        stops[E.acting_seat(g)] += 1  # greedy's choice stays in the state
    assert (stops[:p[L.P_PLAYERS]] >= 16).all()  # 8 Month Turns, a pass in each
    assert g[L.G_NEXT] == L.NEXT_OVER
    assert (g == whole).all() and (rng == whole_rng).all()


def test_the_default_kernel_plays_set_up_then_play_from():
    S, p, pol, g, rng = position(policy=None)
    out = np.zeros(L.N_OUT, np.int64)
    fresh = game_streams(np.uint64(SEED), 0, L.N_STREAMS)
    restart(fresh, L.ST_EVENT_DECK, 0)
    E.play_game(S, p, pol, fresh, np.zeros_like(g), out, no_log())
    E.play_from(S, p, pol, g, rng, 0, no_log())
    again = np.zeros(L.N_OUT, np.int64)
    E.write_outcome(S, p, g, again, no_log())
    assert (out == again).all()


def test_a_copied_position_plays_on_as_the_original():
    S, p, pol, g, rng = stop_at(30)
    copy, copy_rng = g.copy(), rng.copy()
    E.play_from(S, p, pol, g, rng, 0, no_log())
    E.play_from(S, p, pol, copy, copy_rng, 0, no_log())
    assert g[L.G_NEXT] == L.NEXT_OVER and (copy == g).all()


def legal_actions(S, p, pol, g, seat):
    """Every candidate (kind, card, target) and its greedy score, the pass first."""
    kind, card, target, score = (np.zeros(E.MAX_CANDIDATES, np.int64) for _ in range(4))
    n = E.candidates(S, p, pol, g, seat, kind, card, target, score)
    return ({(E.KIND_PASS, -1, -1): E.pass_score(p, pol, g, seat)}
            | {(kind[i], card[i], target[i]): score[i] for i in range(n)})


@pytest.mark.parametrize(("nth", "width"), [(0, 4), (17, 4), (45, 6), (60, 16)])
def test_an_action_choice_lists_greedys_first_then_the_best_by_greedys_score(nth, width):
    S, p, pol, g, rng = stop_at(nth)
    seat = E.acting_seat(g)
    options = np.empty((width, 3), np.int64)
    n = LA.action_options(S, p, pol, g, seat, options)
    rows = [tuple(int(v) for v in o) for o in options[:n]]
    legal = legal_actions(S, p, pol, g, seat)
    assert rows[0] == tuple(g[L.G_CHOICE:L.G_CHOICE + 3]), "greedy's own choice first"
    assert legal[rows[0]] == max(legal.values()), "greedy plays a best-scored action"
    assert len(set(rows)) == n == min(width, len(legal)), "each legal option once"
    assert set(rows) <= set(legal)
    scores = [legal[o] for o in rows[1:]]
    assert scores == sorted(scores, reverse=True)
    left = [legal[o] for o in legal if o not in rows]
    assert not left or min(scores or [legal[rows[0]]]) >= max(left), "the best ones"


def test_a_search_changes_only_the_choice_and_the_decisions_count():
    S, p, pol, g, rng = stop_at(12)
    before, before_rng = g.copy(), rng.copy()
    LA.search(S, p, pol, g, rng, np.zeros_like(g))
    assert (rng == before_rng).all(), "the game's streams are not drawn from"
    changed = set(np.flatnonzero(g != before))
    assert changed <= {L.G_CHOICE, L.G_CHOICE + 1, L.G_CHOICE + 2, L.G_SEARCHED}
    assert L.G_SEARCHED in changed


def test_the_search_keeps_the_option_its_rollouts_score_best():
    """Two options and one round of halving: each plays half the budget on the same
    rollout streams, and the better mean wins (a tie: greedy's)."""
    S, p, pol, g, rng = stop_at(8)
    seat = E.acting_seat(g)
    pol = pol.copy()
    pol[seat, L.W_ROLLOUTS], pol[seat, L.W_WIDTH] = 8, 2
    pol[seat, L.W_MARGIN_WEIGHT] = 20  # 0.02 a VP: the means differ
    options = np.empty((2, 3), np.int64)
    LA.action_options(S, p, pol, g, seat, options)
    index = g[L.G_SEARCHED]
    means = [np.mean([LA.rollout(S, p, pol, g, rng, np.zeros_like(g), seat, options[o],
                                 index, r) for r in range(4)]) for o in (0, 1)]
    assert means[0] != means[1]
    LA.search(S, p, pol, g, rng, np.zeros_like(g))
    best = options[1] if means[1] > means[0] else options[0]
    assert (g[L.G_CHOICE:L.G_CHOICE + 3] == best).all()


def test_width_one_plays_greedys_games():
    """A look-ahead that weighs one option (greedy's) searches nothing: greedy's games."""
    greedy = simulate(GAME, 3, seed=5, policy={"seat2": "greedy"})
    narrow = simulate(GAME, 3, seed=5, policy={"seat2": "lookahead:width=1"})
    assert (greedy["vp_seat2"] == narrow["vp_seat2"]).all()
    assert (greedy["winner"] == narrow["winner"]).all()


def test_searched_seats_and_greedy_rows():
    rows = GAME.policy_rows.build(GAME.policy_choices(
        {"seat2": "lookahead", "seat4": "lookahead:width=1", "seat5": "lookahead"}))
    assert LA.searched_seats(rows) == (1 << 1) | (1 << 4)
    assert (LA.greedy_rows(rows)[:5, L.W_ID] == L.POL_GREEDY).all()
    assert LA.searched_seats(GAME.policy_rows.build(GAME.policy_choices(None))) == 0


# -- what the player cannot see -----------------------------------------------------------------


def others_hold(seat):
    """A stop where another seat holds a delayed Event and the deck has cards left."""
    def where(g):
        s = E.acting_seat(g)
        return s == seat and g[L.G_EVENT_TOP] < 18 and any(
            g[pl(o) + L.PL_HELD_EVENT] >= 0 for o in range(5) if o != s)
    return where


def hide_differently(S, p, g, seat, shuffle_seed):
    """``g`` with what ``seat`` cannot see dealt otherwise: the undrawn deck permuted and
    the others' held cards swapped with delayed ones from the deck or among them."""
    other = g.copy()
    top, last = g[L.G_EVENT_TOP], p[L.P_N_EVENTS]
    holders = [pl(s) + L.PL_HELD_EVENT for s in range(p[L.P_PLAYERS])
               if s != seat and g[pl(s) + L.PL_HELD_EVENT] >= 0]
    spots = [L.G_DECK + i for i in range(top, last)] + holders
    delayed = [i for i in spots if S[L.S_EVENTS][g[i], L.EV_TIMING] == L.TIMING_DELAYED]
    mix = np.random.default_rng(shuffle_seed)
    cards = mix.permutation([g[i] for i in delayed])
    other[delayed] = cards  # delayed cards stay delayed, wherever they are
    rest = [i for i in spots if i not in delayed]
    other[rest] = mix.permutation([g[i] for i in rest])
    return other


@pytest.mark.parametrize("seat", [0, 3])
def test_resampling_keeps_what_the_seat_sees_and_forgets_the_rest(seat):
    S, p, pol, g, rng = stop_at(0, others_hold(seat))
    other = hide_differently(S, p, g, seat, 1)
    assert (other != g).any()
    dealt, dealt_again = g.copy(), other.copy()
    own = game_streams(np.uint64(7), 0, L.N_STREAMS)
    LA.resample_hidden(own.copy(), S, p, dealt, seat)
    LA.resample_hidden(own.copy(), S, p, dealt_again, seat)
    assert (dealt == dealt_again).all(), "the same deal whatever the hidden cards were"
    assert (dealt != g).any()
    hidden = [i for i in range(L.G_DECK + g[L.G_EVENT_TOP], L.G_DECK + p[L.P_N_EVENTS])]
    hidden += [pl(s) + L.PL_HELD_EVENT for s in range(5)
               if s != seat and g[pl(s) + L.PL_HELD_EVENT] >= 0]
    assert sorted(dealt[hidden]) == sorted(g[hidden])
    for s in range(5):
        ev = dealt[pl(s) + L.PL_HELD_EVENT]
        assert ev < 0 or S[L.S_EVENTS][ev, L.EV_TIMING] == L.TIMING_DELAYED
    kept = np.ones(g.shape[0], bool)
    kept[hidden] = False
    assert (dealt[kept] == g[kept]).all(), "the drawn cards, its own card and the rest stay"


def test_the_cards_arianrhod_showed_stay_for_its_holder_only():
    S, p, pol, g, rng = stop_at(0, others_hold(2))
    g[L.G_SEEN_BY], g[L.G_SEEN_END] = 2, g[L.G_EVENT_TOP] + 3
    seen = slice(L.G_DECK + g[L.G_EVENT_TOP], L.G_DECK + g[L.G_SEEN_END])
    own = game_streams(np.uint64(7), 0, L.N_STREAMS)
    holder, other = g.copy(), g.copy()
    LA.resample_hidden(own.copy(), S, p, holder, 2)
    LA.resample_hidden(own.copy(), S, p, other, 1)
    assert (holder[seen] == g[seen]).all()
    assert (other[seen] != g[seen]).any()


@pytest.mark.parametrize(("seat", "nth"), [(0, 0), (1, 0), (3, 0)])
def test_the_choice_ignores_the_hidden_cards_and_the_future_draws(seat, nth):
    S, p, pol, g, rng = stop_at(nth, others_hold(seat))
    other, other_rng = hide_differently(S, p, g, seat, 3), rng.copy()
    for purpose in range(L.N_STREAMS):  # the game's future draws, not its key
        restart(other_rng, purpose, 999 + purpose)
    assert (other_rng[:, KEY] == rng[:, KEY]).all() and (other_rng != rng).any()
    choices = []
    for state, streams in ((g, rng), (other, other_rng)):
        LA.search(S, p, pol, state, streams, np.zeros_like(state))
        choices.append(tuple(state[L.G_CHOICE:L.G_CHOICE + 3]))
    assert choices[0] == choices[1]


# -- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "seat"), [(None, "seat3"), ("two_players", "seat1")])
def test_the_lookahead_plays_whole_games_with_the_state_checks_on(preset, seat):
    table = simulate(GAME, 2, seed=3, rules=preset, policy={seat: "lookahead:rollouts=4"},
                     check_state=True)
    assert len(table) == 2 and (table["turns"] == 12).all()
