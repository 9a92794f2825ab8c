"""The King in the North: the resumable campaign and the ``lookahead`` commander. Playing
step by step is the campaign; a copied position plays on as the original; a stack's
options are its legal destinations with greedy's first; a width of 1 plays greedy's
games; planning a turn leaves the game untouched and does not change when only what the
side cannot see (the enemy's hidden blocks and cards, its own draw pile's order) or the
future streams change; the look-ahead plays whole games with the state checks on."""

import numpy as np
import pytest
from test_king_in_the_north import COMP, P

from simkit.eventlog import no_log
from simkit.games.king_in_the_north import GAME, engine, movement, plan, view
from simkit.games.king_in_the_north import layout as L
from simkit.games.king_in_the_north.lookahead import Scratch, greedy_rows, plan_turn, probe
from simkit.games.king_in_the_north.rules import POLICY_ROWS
from simkit.rng import KEY, WIDTH, game_streams

SEED = 41
ARGS = (P, COMP.loc, COMP.adj, COMP.fac_home, COMP.any2, COMP.blk, COMP.card)


def rows(**weights):
    """Both sides' rows as the look-ahead kernel plays them, each side searching."""
    text = "lookahead:" + ",".join(f"{k}={v}" for k, v in weights.items()) if weights \
        else "lookahead"
    pol, searching = greedy_rows(POLICY_ROWS.build(GAME.policy_choices(
        {side: text for side in L.SIDES})))
    assert searching.tolist() == [1, 1]
    return pol


GREEDY = rows(width=1)
SEARCH = rows(rollouts=4, width=3)


def scratch():
    return Scratch(np.empty(L.N_STATE, dtype=np.int64),
                   np.empty((L.N_STREAMS, WIDTH), dtype=np.uint64),
                   np.zeros(L.N_OUT, dtype=np.int32))


def start(game_index=0):
    s = np.zeros(L.N_STATE, dtype=np.int64)
    s[L.S_NEXT] = L.NEXT_SET_UP
    return s, game_streams(SEED, game_index, L.N_STREAMS), movement.workspace(COMP.loc,
                                                                              COMP.card)


def step(s, rng, ws, out=None):
    engine.play_step(*ARGS, s, rng, GREEDY, ws,
                     np.zeros(L.N_OUT, dtype=np.int32) if out is None else out, no_log())


def at_turn(side, nth=0, game_index=0):
    """The position before ``side``'s ``nth`` turn of game ``game_index`` (greedy)."""
    s, rng, ws = start(game_index)
    seen = 0
    while True:
        if engine.turn_side(s) == side:
            if seen == nth:
                return s, rng, ws
            seen += 1
        step(s, rng, ws)
        assert s[L.S_NEXT] != L.NEXT_OVER


def test_the_campaign_step_by_step_is_the_whole_campaign():
    for game_index in range(3):
        s, rng, ws = start(game_index)
        whole, whole_out = s.copy(), np.zeros(L.N_OUT, dtype=np.int32)
        engine.play_game(*ARGS, whole, rng.copy(), GREEDY, ws, whole_out, no_log())
        out, steps = np.zeros(L.N_OUT, dtype=np.int32), 0
        while s[L.S_NEXT] != L.NEXT_OVER:
            step(s, rng, ws, out)
            steps += 1
        assert steps > 20
        assert (s == whole).all() and (out == whole_out).all()


def test_a_copied_position_plays_on_as_the_original():
    s, rng, ws = at_turn(L.LIBERALS, 3)
    copy, copy_rng = s.copy(), rng.copy()
    out, copy_out = np.zeros(L.N_OUT, dtype=np.int32), np.zeros(L.N_OUT, dtype=np.int32)
    engine.play_from(*ARGS, s, rng, GREEDY, ws, out, no_log())
    engine.play_from(*ARGS, copy, copy_rng, GREEDY, ws, copy_out, no_log())
    assert (s == copy).all() and (out == copy_out).all() and out[L.O_TURNS] > 0


def test_a_stacks_options_are_its_legal_destinations_greedys_first():
    """Staying (-1) and every Location it reaches; a Forced March only with a card in
    hand to discard (7.3.2); greedy's choice first, then by greedy's score."""
    n_loc = 6
    dest_mode = np.array([-1, 0, 2, -1, 1, 0, 9, 9], dtype=np.int64)  # slots past the map
    dest_fm = np.array([0, 0, 1, 0, 0, 1, 0, 0], dtype=np.int64)
    score = np.array([0, 30, 5, 0, 50, -20, 70], dtype=np.int64)  # slot n_loc: staying
    out, scores = np.empty(L.MAX_LOC + 1, dtype=np.int64), np.empty(L.MAX_LOC + 1,
                                                                     dtype=np.int64)
    n = plan.destination_options(1, dest_mode, dest_fm, 2, score, out, scores)
    assert list(out[:n]) == [1, -1, 4, 2, 5]
    n = plan.destination_options(-1, dest_mode, dest_fm, 0, score, out, scores)
    assert list(out[:n]) == [-1, 4, 1], "no card in hand: no Forced March"
    assert n_loc == score.shape[0] - 1


def test_a_probe_lists_greedys_destination_first_and_every_option_once():
    s, rng, ws = at_turn(L.CARLISTS, 1)
    before = s.copy(), rng.copy()
    n = probe(*ARGS, s, rng, SEARCH, L.CARLISTS, ws, scratch(), 0)
    options = ws.plan[L.PL_OPTIONS:L.PL_OPTIONS + n].copy()
    assert n >= 2 and len(set(options)) == n and -1 in options
    assert all(-1 <= v < COMP.loc.shape[0] for v in options)
    assert (s == before[0]).all() and (rng == before[1]).all()
    replay = s.copy()  # greedy's own first move goes where the probe put first
    ws.plan[:] = 0
    ws.plan[L.PL_MODE], ws.plan[L.PL_SIDE], ws.plan[L.PL_AT] = L.PLAN_REPLAY, L.CARLISTS, 1
    ws.plan[L.PL_COUNT] = 0
    ws.plan[L.PL_FORCE] = options[0]
    step(replay, rng.copy(), ws)
    ws.plan[L.PL_MODE] = L.PLAN_OFF
    greedy = s.copy()
    step(greedy, rng.copy(), ws)
    assert (replay == greedy).all()


def plan_of(s, rng, ws, side=L.CARLISTS):
    n = plan_turn(*ARGS, s, rng, SEARCH, side, ws, scratch())
    return list(ws.plan[L.PL_FORCE:L.PL_FORCE + n])


@pytest.mark.parametrize("side", [L.CARLISTS, L.LIBERALS])
def test_a_turns_plan_sees_neither_the_hidden_nor_the_future(side):
    """The enemy's unseen blocks and cards dealt again (``view.resample``), the side's
    own draw pile in another order and the streams' future draws changed (every state
    word; the key, the game's identity, kept): the same destinations."""
    s, rng, ws = at_turn(side, 2)
    before = s.copy(), rng.copy()
    chosen = plan_of(s, rng, ws, side)
    assert len(chosen) >= 2
    assert (s == before[0]).all() and (rng == before[1]).all(), "the game is untouched"
    other = np.empty_like(s)
    pool = np.empty(3 * L.MAX_BLOCKS + L.MAX_CARDS, dtype=np.int64)
    deal = game_streams(7, 1, L.N_STREAMS)
    view.resample(COMP.blk, COMP.card, s, side, deal, 0, other, pool)
    plan.own_draw_pile(COMP.card, other, side, deal, pool)
    assert not (other == s).all()
    future = game_streams(8, 2, L.N_STREAMS)
    future[:, KEY] = rng[:, KEY]
    assert plan_of(other, future, ws, side) == chosen


def test_a_width_of_one_plays_greedys_games():
    for side in L.SIDES:
        greedy = GAME.simulate(None, {side: "greedy"}, np.arange(3), SEED)
        width1 = GAME.simulate(None, {side: "lookahead:width=1"}, np.arange(3), SEED)
        assert greedy.keys() == width1.keys()
        assert all(np.array_equal(greedy[k], width1[k]) for k in greedy)


def test_the_lookahead_plays_whole_games_with_the_state_checks_on():
    for side in L.SIDES:
        played = GAME.simulate(None, {side: "lookahead:rollouts=3,width=2"}, np.arange(2),
                               SEED, check_state=True)
        assert (np.asarray(played["turns"]) > 0).all() and len(played["turns"]) == 2
