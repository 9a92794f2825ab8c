"""11 de Setembre, the whole game: the resumable engine and the look-ahead player.
Stopping at the searched decisions changes no game, a copied position plays on like the
original, each decision (an assault, a withdrawal, a half-turn's movement plan) lists its
legal options with greedy's first, a search leaves the game untouched and picks the
option its rollouts score best, and no choice depends on the order of the undrawn event
cards (8: face down) or on the game's future dice."""

import numpy as np
import pytest

from simkit import simulate
from simkit.checks import broken_state
from simkit.eventlog import no_log
from simkit.games.setembre1714 import GAME as FULL
from simkit.games.setembre1714 import engine as E
from simkit.games.setembre1714 import layout as L
from simkit.games.setembre1714 import lookahead as LA
from simkit.games.setembre1714 import policies as POL
from simkit.games.setembre1714.board import assault_allowed, count, zone_limit
from simkit.games.setembre1714.components import load_board
from simkit.rng import KEY, game_streams, restart

BOARD, _ = load_board()
SEED = 1714
ALL = L.DECIDES_BITS[L.LOOKAHEAD_DECIDES.index("all")]
#: every decision of both sides
EVERY = ALL | (ALL << L.N_DECISIONS)


def position(policy=None, game_index=0):
    """The rules vector, the rows the look-ahead's kernel plays with (``greedy_rows``),
    a set-up state and the game's streams."""
    p, pol = FULL.kernel_inputs(FULL.Rules(), FULL.policy_choices(policy))
    rng = game_streams(np.uint64(SEED), game_index, L.N_STREAMS)
    s = np.zeros(L.N_STATE, np.int64)
    E.set_up(rng, s, BOARD, p)
    return p, LA.greedy_rows(pol), s, rng


LOOK = {"bourbons": "lookahead:rollouts=6", "catalans": "lookahead:rollouts=6"}


def stop_at(decision, nth=0, game_index=0):
    """The ``nth`` stop at ``decision`` in a game of greedy players (the search's rows)."""
    p, pol, s, rng = position(LOOK, game_index)
    seen = 0
    while True:
        reached = E.play_from(rng, s, BOARD, p, pol, EVERY, no_log())
        assert reached != L.D_NONE, "the game ended before the stop"
        if reached == decision:
            if seen == nth:
                return p, pol, s, rng
            seen += 1


def test_stopping_at_every_decision_changes_nothing():
    p, pol, s, rng = position(LOOK)
    whole, whole_rng = s.copy(), rng.copy()
    assert E.play_from(whole_rng, whole, BOARD, p, pol, 0, no_log()) == L.D_NONE
    stops = np.zeros(L.N_DECISIONS, np.int64)
    while (reached := E.play_from(rng, s, BOARD, p, pol, EVERY, no_log())) != L.D_NONE:
        stops[reached] += 1  # greedy's choice stays in the state
    assert stops[L.D_ASSAULT] > 10 and stops[L.D_WITHDRAWAL] > 0
    assert stops[L.D_PLAN] >= 2 * s[L.S_TURN] - 1, "a plan each half-turn"
    assert s[L.S_AT] == L.AT_GAME_OVER
    assert (s == whole).all() and (rng == whole_rng).all()


def test_the_default_kernel_plays_the_game_play_game_plays():
    """``play_game`` (the default kernel's) is ``set_up`` then ``play_from`` with no stop."""
    p, pol, s, rng = position()
    out = np.zeros(L.N_OUT, np.int32)
    E.play_game(game_streams(np.uint64(SEED), 0, L.N_STREAMS), np.zeros_like(s), BOARD, p,
                pol, out, no_log())
    E.play_from(rng, s, BOARD, p, pol, 0, no_log())
    again = np.zeros(L.N_OUT, np.int32)
    E.end_game(s, BOARD, p, again, no_log())
    assert (out == again).all()


def test_a_copied_position_plays_on_as_the_original():
    p, pol, s, rng = stop_at(L.D_ASSAULT, 6)
    copy, copy_rng = s.copy(), rng.copy()
    E.play_from(rng, s, BOARD, p, pol, 0, no_log())
    E.play_from(copy_rng, copy, BOARD, p, pol, 0, no_log())
    assert s[L.S_AT] == L.AT_GAME_OVER and (copy == s).all()


def legal_assaults(s, p, side):
    return {(a, t) for a in range(BOARD.zone.shape[0])
            if not s[L.S_ACTED + a] and count(s, side, a) > 0
            for t in BOARD.neighbours[a] if t >= 0 and assault_allowed(s, BOARD, side, a, t)}


@pytest.mark.parametrize("nth", [0, 3, 8])
def test_an_assault_decision_lists_greedys_choice_first_then_legal_options(nth):
    p, pol, s, rng = stop_at(L.D_ASSAULT, nth)
    side = s[L.S_SIDE]
    options = np.empty((LA.MAX_OPTIONS, 4), np.int64)
    n = LA.assault_options(s, BOARD, p, pol, options)
    rows = [tuple(o) for o in options[:n]]
    assert rows[0] == tuple(s[L.S_COMBAT:L.S_COMBAT + 4]), "greedy's own choice first"
    assert len(set(rows)) == n, "each option once"
    legal = legal_assaults(s, p, side)
    kinds = [o[0] for o in rows]
    assert kinds.count(POL.K_NONE) == 1, "declaring no more combats is always open"
    listed = {(a, t) for k, a, t, _ in rows if k == POL.K_ASSAULT}
    assert listed <= legal
    assert len(listed) == min(len(legal), LA.MAX_OTHER_ASSAULTS +
                              (rows[0][0] == POL.K_ASSAULT))
    for k, a, t, cmdr in rows:
        if k == POL.K_PASS:
            assert rows[0][0] == POL.K_ASSAULT and a == rows[0][1], "greedy's zone passes"
        if k == POL.K_ASSAULT:
            assert cmdr == POL.assault_commander(s, BOARD, p, pol[side], side, a, t)


def test_a_withdrawal_decision_is_stand_or_withdraw_greedys_first():
    p, pol, s, rng = stop_at(L.D_WITHDRAWAL)
    options = np.empty((LA.MAX_OPTIONS, 4), np.int64)
    assert LA.withdrawal_options(s, options) == 2
    assert options[0, 0] == s[L.S_ASSAULT + L.AS_WITHDREW]
    assert {options[0, 0], options[1, 0]} == {0, 1}


def carried_out(p, pol, s, rng, option):
    """The position after the movement phase under the plan ``option``, the state
    checks on: the state and the check log."""
    after, after_rng = s.copy(), rng.copy()
    LA.write_option(after, L.D_PLAN, option)
    log = no_log(check_state=True)
    E.carry_out_movement(after_rng, after, BOARD, p, pol, log)
    return after, log


def unit_zones(s, side):
    units = np.flatnonzero(BOARD.unit[:, L.U_SIDE] == side)
    return units, s[L.S_UNIT_ZONE + units]


@pytest.mark.parametrize(("nth", "game_index"), [(1, 0), (4, 0), (7, 1), (10, 2)])
def test_a_plan_decision_lists_greedys_plan_first_then_legal_changes_to_it(nth, game_index):
    p, pol, s, rng = stop_at(L.D_PLAN, nth, game_index)
    side = s[L.S_SIDE]
    assert s[L.S_AT] == L.AT_MOVEMENT
    options = np.empty((LA.MAX_OPTIONS, 4), np.int64)
    n = LA.plan_options(rng.copy(), s, BOARD, p, pol, options)
    rows = [tuple(o[:L.N_PLAN]) for o in options[:n]]
    assert rows[0] == (L.PLAN_GREEDY, -1, -1) == tuple(s[L.S_PLAN:L.S_PLAN + L.N_PLAN])
    assert len(set(rows)) == n and n <= 2 + LA.MAX_PLAN_HOLDS + LA.MAX_PLAN_REDIRECTS
    units, before = unit_zones(s, side)
    greedy, log = carried_out(p, pol, s, rng, options[0])
    assert broken_state(log) is None
    _, by_greedy = unit_zones(greedy, side)
    left = {z for z, y in zip(before, by_greedy, strict=True) if z >= 0 and y != z}
    whole, whole_rng = s.copy(), rng.copy()  # greedy's plan is the unsearched game's
    E.play_from(whole_rng, whole, BOARD, p, pol, 0, no_log())
    again, again_rng = s.copy(), rng.copy()
    LA.write_option(again, L.D_PLAN, options[0])
    E.play_from(again_rng, again, BOARD, p, pol, 0, no_log())
    assert (whole == again).all()
    kinds = [r[0] for r in rows]
    assert kinds.count(L.PLAN_HOLD_ALL) == (len(left) > 1)
    for o in range(1, n):
        kind, zone, dest = rows[o]
        after, log = carried_out(p, pol, s, rng, options[o])
        assert broken_state(log) is None, "a legal plan: the state checks hold"
        _, zones = unit_zones(after, side)
        if kind == L.PLAN_HOLD_ALL:
            assert (zones[before >= 0] == before[before >= 0]).all(), "no unit moved"
        elif kind == L.PLAN_HOLD:
            assert zone in left, "a stack greedy's plan moves"
            assert (zones[before == zone] == zone).all(), "that stack holds"
        else:
            assert kind == L.PLAN_REDIRECT and zone in left and dest != zone
            assert dest not in set(by_greedy[before == zone]), "not where greedy sends it"
            assert dest in set(zones[before == zone]) or \
                count(after, side, dest) == zone_limit(p, BOARD, dest), \
                "the stack goes there while it has room"


@pytest.mark.parametrize("decision", [L.D_ASSAULT, L.D_WITHDRAWAL, L.D_PLAN])
def test_a_search_changes_only_the_choice_and_the_decisions_count(decision):
    p, pol, s, rng = stop_at(decision, 1)
    before, before_rng = s.copy(), rng.copy()
    LA.search(rng, s, BOARD, p, pol, decision, np.zeros_like(s))
    assert (rng == before_rng).all(), "the game's streams are not drawn from"
    changed = set(np.flatnonzero(s != before))
    allowed = set(range(L.S_COMBAT, L.S_COMBAT + 4)) | {L.S_ASSAULT + L.AS_WITHDREW,
                                                         L.S_SEARCHED} | \
        set(range(L.S_PLAN, L.S_PLAN + L.N_PLAN))
    assert changed <= allowed and L.S_SEARCHED in changed


def test_the_search_keeps_the_option_its_rollouts_score_best():
    """A withdrawal has two options and one round of halving: each plays half the budget
    on the same rollout streams, and the better mean wins (a tie: greedy's)."""
    p, pol, s, rng = stop_at(L.D_WITHDRAWAL)
    side = LA.decider(s, L.D_WITHDRAWAL)
    pol = pol.copy()
    pol[side, L.W_ROLLOUTS] = 8
    options = np.empty((LA.MAX_OPTIONS, 4), np.int64)
    LA.withdrawal_options(s, options)
    index = s[L.S_SEARCHED]
    means = [np.mean([LA.rollout(rng, s, BOARD, p, pol, np.zeros_like(s), L.D_WITHDRAWAL,
                                 options[o], index, r) for r in range(4)]) for o in (0, 1)]
    LA.search(rng, s, BOARD, p, pol, L.D_WITHDRAWAL, np.zeros_like(s))
    expected = options[1, 0] if means[1] > means[0] else options[0, 0]
    assert s[L.S_ASSAULT + L.AS_WITHDREW] == expected


# -- what the players cannot see ---------------------------------------------------------------


def undrawn(s):
    return slice(L.S_DECK + s[L.S_DECK_TOP], L.S_DECK + BOARD.card.shape[0])


def test_resampling_keeps_the_drawn_cards_and_forgets_the_undrawn_order():
    p, pol, s, rng = stop_at(L.D_ASSAULT, 2)
    shuffled = s.copy()
    shuffled[undrawn(s)] = np.random.default_rng(1).permutation(s[undrawn(s)])
    assert (shuffled != s).any()
    dealt, dealt_again = s.copy(), shuffled.copy()
    own = game_streams(np.uint64(7), 0, L.N_STREAMS)
    LA.resample_hidden(own.copy(), dealt, BOARD)
    LA.resample_hidden(own.copy(), dealt_again, BOARD)
    assert (dealt == dealt_again).all(), "the same deal whatever the hidden order was"
    assert sorted(dealt[undrawn(s)]) == sorted(s[undrawn(s)]) and (dealt != s).any()
    seen = np.ones(s.shape[0], bool)
    seen[undrawn(s)] = False
    assert (dealt[seen] == s[seen]).all(), "the drawn cards and the board stay"


@pytest.mark.parametrize(("decision", "nth"), [(L.D_ASSAULT, 0), (L.D_ASSAULT, 4),
                                               (L.D_WITHDRAWAL, 0), (L.D_PLAN, 1),
                                               (L.D_PLAN, 4)])
def test_the_choice_ignores_the_hidden_order_and_the_future_dice(decision, nth):
    p, pol, s, rng = stop_at(decision, nth)
    other, other_rng = s.copy(), rng.copy()
    other[undrawn(s)] = np.random.default_rng(3).permutation(s[undrawn(s)])
    for purpose in range(L.N_STREAMS):  # the game's future dice and cards, not its key
        restart(other_rng, purpose, 999 + purpose)
    assert (other_rng[:, KEY] == rng[:, KEY]).all() and (other_rng != rng).any()
    choices = []
    for state, streams in ((s, rng), (other, other_rng)):
        LA.search(streams, state, BOARD, p, pol, decision, np.zeros_like(state))
        choices.append((tuple(state[L.S_COMBAT:L.S_COMBAT + 4]),
                        state[L.S_ASSAULT + L.AS_WITHDREW],
                        tuple(state[L.S_PLAN:L.S_PLAN + L.N_PLAN])))
    assert choices[0] == choices[1]


# -- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize("side", L.SIDES)
@pytest.mark.parametrize("decides", ["assaults_and_withdrawals", "all"])
def test_the_lookahead_plays_whole_games_with_the_state_checks_on(side, decides):
    table = simulate(FULL, 2, seed=3, policy={side: f"lookahead:rollouts=4,decides={decides}"},
                     check_state=True)
    assert len(table) == 2 and table["turns"].min() >= 1


def test_searched_decisions_follow_the_decides_weight():
    rows = FULL.policy_rows.build(FULL.policy_choices(
        {"bourbons": "lookahead:decides=withdrawals", "catalans": "lookahead"}))
    assert LA.searched_decisions(rows) == (
        1 << L.D_WITHDRAWAL | (ALL << L.N_DECISIONS)), "the default: every decision"
    assert (LA.greedy_rows(rows)[:, L.W_ID] == POL.GREEDY).all()
    assert LA.searched_decisions(FULL.policy_rows.build(FULL.policy_choices(None))) == 0
    rows = FULL.policy_rows.build(FULL.policy_choices(
        {"bourbons": "lookahead:decides=plans", "catalans": "lookahead:decides=all"}))
    assert LA.searched_decisions(rows) == (1 << L.D_PLAN | (ALL << L.N_DECISIONS))


def test_an_option_must_beat_greedys_on_the_same_rollouts_surely():
    """``confidence``: the paired difference's mean must clear z standard errors."""
    greedys = np.array([1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0])
    same_games_won = greedys.copy()
    one_more_won = greedys.copy()
    one_more_won[2] = 1.0
    all_won = np.ones(8)
    assert not LA.surely_better(same_games_won, greedys, 8, 0.0), "a tie stays greedy's"
    assert LA.surely_better(one_more_won, greedys, 8, 0.0)
    assert not LA.surely_better(one_more_won, greedys, 8, 1.0), "1/8 with an error of 1/8"
    assert LA.surely_better(all_won, greedys, 8, 1.0)
    assert not LA.surely_better(all_won, greedys, 8, 2.0)
