"""The King in the North: the resumable campaign and the ``lookahead`` commander. Playing
step by step is the campaign; a copied position plays on as the original; a stack's
options are its legal destinations, a bid's the cards in hand (or none), a deployment's
the legal deployments and passing, each with greedy's first; a width of 1 plays
greedy's games; planning a step leaves the game untouched and does not change when only
what the side cannot see (the enemy's hidden blocks and cards, its own draw pile's
order) or the future streams change, for each kind of decision searched; the look-ahead
plays whole games with the state checks on."""

import numpy as np
import pytest
from test_king_in_the_north import COMP, P

from simkit.checks import failed
from simkit.eventlog import events, new_log, no_log
from simkit.games.king_in_the_north import GAME, engine, movement, plan, policies, view
from simkit.games.king_in_the_north import layout as L
from simkit.games.king_in_the_north.events import EV_DEPLOY
from simkit.games.king_in_the_north.lookahead import (
    Scratch,
    greedy_rows,
    plan_step,
    probe,
    search,
    step_key,
)
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
SEARCH = rows(rollouts=4, width=3, decides="destinations")
BIDS = rows(rollouts=4, width=3, decides="bids")
DEPLOYMENTS = rows(rollouts=4, width=3, decides="deployments")


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
    ws.plan[L.PL_COUNT], ws.plan[L.PL_KINDS] = 0, 1 << L.D_DESTINATION
    ws.plan[L.PL_FORCE] = options[0]
    step(replay, rng.copy(), ws)
    ws.plan[L.PL_MODE] = L.PLAN_OFF
    greedy = s.copy()
    step(greedy, rng.copy(), ws)
    assert (replay == greedy).all()


def plan_of(s, rng, ws, side=L.CARLISTS, pol=SEARCH):
    n = plan_step(*ARGS, s, rng, pol, side, ws, scratch())
    return list(ws.plan[L.PL_FORCE:L.PL_FORCE + n])


def at_decision(side, kind, pol, nth=0, game_index=0, own_turn=True):
    """The position before the ``nth`` step (greedy's game) in which ``side`` makes a
    decision of ``kind`` that ``pol`` searches first (in ``side``'s own turns only, with
    ``own_turn``, for the deployments)."""
    s, rng, ws = start(game_index)
    seen = 0
    while s[L.S_NEXT] != L.NEXT_OVER:
        if s[L.S_NEXT] != L.NEXT_SET_UP and (not own_turn or engine.turn_side(s) in (-1, side)) \
                and probe(*ARGS, s, rng, pol, side, ws, scratch(), 0) > 0 \
                and ws.plan[L.PL_KIND] == kind:
            if seen == nth:
                return s, rng, ws
            seen += 1
        ws.plan[L.PL_MODE] = L.PLAN_OFF
        step(s, rng, ws)
    raise AssertionError("no such decision")


def first_decision(s, rng, ws, side, pol):
    """The options of the step's first decision ``pol`` searches and the one chosen."""
    n = probe(*ARGS, s, rng, pol, side, ws, scratch(), 0)
    options = ws.plan[L.PL_OPTIONS:L.PL_OPTIONS + n].copy()
    width = min(n, pol[side, L.W_WIDTH])
    choice = search(*ARGS, s, rng, pol, side, ws, scratch(), 0, options[:width].copy(),
                    step_key(s, side))
    return list(options), int(choice)


def other_world(s, rng, side, seed=7):
    """``s`` with what ``side`` cannot see dealt again and ``rng`` with other future
    draws (every state word; the key, the game's identity, kept)."""
    other = np.empty_like(s)
    pool = np.empty(3 * L.MAX_BLOCKS + L.MAX_CARDS, dtype=np.int64)
    deal = game_streams(seed, 1, L.N_STREAMS)
    view.resample(COMP.blk, COMP.card, s, side, deal, 0, other, pool)
    plan.own_draw_pile(COMP.card, other, side, deal, pool)
    assert not (other == s).all()
    future = game_streams(8, 2, L.N_STREAMS)
    future[:, KEY] = rng[:, KEY]
    return other, future


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
    other, future = other_world(s, rng, side)
    assert plan_of(other, future, ws, side) == chosen


@pytest.mark.parametrize("side", [L.CARLISTS, L.LIBERALS])
@pytest.mark.parametrize("kind", [L.D_BID, L.D_DEPLOYMENT])
def test_a_bid_or_deployment_sees_neither_the_hidden_nor_the_future(side, kind):
    """The same for the step's first bid (the Turn Order's: the side bids before the
    enemy's face-up bid is shown) and its first deployment in a battle of its turn (the
    attacker deploys first): the options and the choice. Planning the whole step leaves
    the game untouched."""
    pol = BIDS if kind == L.D_BID else DEPLOYMENTS
    s, rng, ws = at_decision(side, kind, pol, nth=1 if kind == L.D_BID else 0)
    before = s.copy(), rng.copy()
    options, choice = first_decision(s, rng, ws, side, pol)
    assert len(options) >= 2
    assert len(plan_of(s, rng, ws, side, pol)) >= 1
    assert (s == before[0]).all() and (rng == before[1]).all(), "the game is untouched"
    alike = 0
    for seed in range(7, 13):
        other, future = other_world(s, rng, side, seed)
        if kind == L.D_BID or table_before_deploying(other, future, ws) \
                == table_before_deploying(s, rng, ws):  # a bid is the step's first act (6.2)
            alike += 1
            assert first_decision(other, future, ws, side, pol) == (options, choice)
    assert alike >= 2


def table_before_deploying(s, rng, ws):
    """What the table sees of the step played from ``s`` by greedy up to its first
    deployment (the first event of the kind, included: «Partisans» shown, 7.3.7, is one):
    a world dealt again in which the side sees something else before it decides (the
    enemy's hidden block turns out to be Partisans; the enemy retreats before combat
    with a Headquarters card, 8.8.7) is not a world it cannot tell apart."""
    log = new_log()
    ws.plan[L.PL_MODE] = L.PLAN_OFF
    engine.play_step(*ARGS, s.copy(), rng.copy(), GREEDY, ws, np.zeros(L.N_OUT, np.int32), log)
    seen = []
    for e in events(log):
        seen.append(tuple(int(x) for x in e))
        if e[0] == EV_DEPLOY:
            break
    return seen


def test_a_bids_options_are_the_cards_in_hand_greedys_first():
    """Greedy's card, then none (where it may pass: the Initiative Challenge and its
    acceptance), the highest number, the rest of the hand in greedy's discard order; each
    card in hand once and no other."""
    s, _, _ = at_turn(L.CARLISTS, 0)
    w = SEARCH[L.CARLISTS]
    in_hand = [c for c in range(COMP.card.shape[0]) if COMP.card[c, L.CD_SIDE] == L.CARLISTS
               and s[L.S_C_WHERE + c] == L.CW_HAND]
    assert len(in_hand) >= 4
    greedy = policies.bid_card(w, COMP.card, s, game_streams(SEED, 0, L.N_STREAMS), L.CARLISTS)
    top = policies.best_bid(COMP.card, s, L.CARLISTS)
    out, scores = np.empty(L.MAX_DECK + 2, dtype=np.int64), np.empty(L.MAX_DECK + 2,
                                                                     dtype=np.int64)
    n = plan.card_options(w, COMP.card, s, L.CARLISTS, greedy, False, out, scores)
    assert out[0] == greedy and sorted(out[:n]) == sorted(in_hand)
    rest = [c for c in out[1:n] if c != top]
    key = [policies.card_value(w, COMP.card, c) * 1000 - COMP.card[c, L.CD_BID] for c in rest]
    assert key == sorted(key), "greedy's discard order: the card it misses least first"
    n = plan.card_options(w, COMP.card, s, L.CARLISTS, greedy, True, out, scores)
    assert list(out[:2]) == [greedy, -1] and sorted(out[2:n]) == sorted(set(in_hand) - {greedy})
    n = plan.card_options(w, COMP.card, s, L.CARLISTS, -1, True, out, scores)
    assert out[0] == -1 and out[1] == top and sorted(out[1:n]) == sorted(in_hand)


@pytest.mark.parametrize("kind", [L.D_BID, L.D_DEPLOYMENT])
def test_a_probe_lists_greedys_choice_first_and_each_legal_option_once(kind):
    """At a bid or a deployment (either side's turn): the options distinct, greedy's
    first (the step replayed with it forced is greedy's step), and the step replayed with
    each option forced keeps the state checks (a legal choice)."""
    pol = BIDS if kind == L.D_BID else DEPLOYMENTS
    s, rng, ws = at_decision(L.LIBERALS, kind, pol, own_turn=False)
    n = probe(*ARGS, s, rng, pol, L.LIBERALS, ws, scratch(), 0)
    options = ws.plan[L.PL_OPTIONS:L.PL_OPTIONS + n].copy()
    assert n >= 2 and len(set(options)) == n and (options >= -1).all()
    if kind == L.D_DEPLOYMENT:
        assert -1 in options, "passing is an option"
    greedy = s.copy()
    step(greedy, rng.copy(), ws)
    for i, choice in enumerate(options):
        replay = s.copy()
        ws.plan[:] = 0
        ws.plan[L.PL_MODE], ws.plan[L.PL_SIDE], ws.plan[L.PL_AT] = (L.PLAN_REPLAY, L.LIBERALS,
                                                                    1)
        ws.plan[L.PL_KINDS], ws.plan[L.PL_FORCE] = 1 << kind, choice
        log = no_log(check_state=True)
        engine.play_step(*ARGS, replay, rng.copy(), GREEDY, ws, np.zeros(L.N_OUT, np.int32),
                         log)
        ws.plan[L.PL_MODE] = L.PLAN_OFF
        assert not failed(log) and replay[L.S_NEXT] != L.NEXT_OVER
        if i == 0:
            assert (replay == greedy).all()


def checked(ws):
    """``ws`` whose probes and rollouts check the state as the real game does (their log,
    ``quiet``, says to check)."""
    return ws._replace(quiet=no_log(check_state=True))


@pytest.mark.parametrize("side", [L.CARLISTS, L.LIBERALS])
def test_the_rollouts_worlds_keep_the_state_checks(side):
    """A world dealt again in the middle of a battle (the enemy's army read again) plays
    on with every state check passing, in either side's turn."""
    for nth in range(2):
        s, rng, ws = at_decision(side, L.D_DEPLOYMENT, DEPLOYMENTS, nth=nth, own_turn=False)
        ws = checked(ws)
        assert len(plan_of(s, rng, ws, side, DEPLOYMENTS)) >= 1
        assert not failed(ws.quiet)


def test_a_challenge_declined_or_accepted_keeps_the_state_checks():
    """Holding the Initiative against ``random`` Liberals, who challenge (6.3.1), the
    Carlists' rollouts deal the challenger's face-down card again (the card it would bid
    there) and play on with every state check passing."""
    pol, _ = greedy_rows(POLICY_ROWS.build(GAME.policy_choices(
        {"carlists": "lookahead:rollouts=4,width=3,decides=bids", "liberals": "random"})))
    held = 0
    for game_index in range(8):
        s, rng, ws = start(game_index)
        while s[L.S_NEXT] != L.NEXT_OVER and held < 2:
            if s[L.S_NEXT] == L.NEXT_SEMESTER and s[L.S_SEM] == 1 \
                    and s[L.S_FIRST] == L.CARLISTS and 0 < s[L.S_YEAR] < L.N_YEARS - 1:
                ws = checked(ws)
                held += len(plan_of(s, rng, ws, L.CARLISTS, pol)) >= 1  # a challenge made
                assert not failed(ws.quiet)
            ws.plan[L.PL_MODE] = L.PLAN_OFF
            step(s, rng, ws)
    assert held >= 1


def test_a_width_of_one_plays_greedys_games():
    for side in L.SIDES:
        greedy = GAME.simulate(None, {side: "greedy"}, np.arange(3), SEED)
        width1 = GAME.simulate(None, {side: "lookahead:width=1"}, np.arange(3), SEED)
        assert greedy.keys() == width1.keys()
        assert all(np.array_equal(greedy[k], width1[k]) for k in greedy)


def test_the_lookahead_plays_whole_games_with_the_state_checks_on():
    """Every kind of decision searched (``decides=all``, the default); against
    ``random`` too, which makes Initiative Challenges (6.3.1) for the look-ahead to accept
    or decline in a world where the challenger's face-down card is dealt again."""
    for side in L.SIDES:
        for enemy in ("greedy", "random"):
            played = GAME.simulate(None, {side: "lookahead:rollouts=3,width=2",
                                          L.SIDES[1 - L.SIDES.index(side)]: enemy},
                                   np.arange(2), SEED, check_state=True)
            assert (np.asarray(played["turns"]) > 0).all() and len(played["turns"]) == 2
