"""The look-ahead players' shared search (simkit.search): rollout streams and successive
halving over a decision's options."""

import numpy as np

from simkit.rng import game_streams, next_u64
from simkit.search import (
    halving_best,
    halving_cut,
    halving_per_option,
    halving_rounds,
    halving_start,
    rollout_streams,
)


def halving(means, budget, seed=0):
    """Successive halving on Bernoulli options: the option chosen and the rollouts each
    played (the loop a game's look-ahead runs, with a coin for a rollout)."""
    rng = np.random.default_rng(seed)
    n = len(means)
    alive, total, played = halving_start(n)
    rounds = halving_rounds(n)
    for _ in range(rounds):
        per = halving_per_option(alive, budget, rounds)
        for o in range(n):
            if alive[o]:
                total[o] += (rng.random(per) < means[o]).sum()
                played[o] += per
        halving_cut(alive, total, played)
    return halving_best(alive, total, played), played


def test_rounds_halve_until_one_option_is_left():
    assert [halving_rounds(n) for n in (1, 2, 3, 4, 5, 8, 9)] == [1, 1, 2, 2, 3, 3, 4]


def test_halving_finds_the_best_option_and_spends_on_the_close_ones():
    means = [0.30, 0.35, 0.60, 0.58, 0.10, 0.20, 0.25, 0.15]
    picks = [halving(means, 400, seed)[0] for seed in range(40)]
    assert sum(p in (2, 3) for p in picks) >= 38  # one of the two best
    _, played = halving(means, 400, 0)
    assert played[2] > 3 * played[4] and played.sum() <= 400 + len(means)


def test_a_tie_goes_to_the_script_s_choice():
    alive, total, played = halving_start(4)
    total[:] = 2.0
    played[:] = 4
    halving_cut(alive, total, played)
    assert list(alive) == [True, True, False, False]
    assert halving_best(alive, total, played) == 0


def test_rollout_streams_are_the_decision_s_own():
    rng = game_streams(np.uint64(7), 3, 4)
    a = rollout_streams(rng, 5, 2, 0, 4)
    b = rollout_streams(rng, 5, 2, 1, 4)
    again = rollout_streams(rng, 5, 2, 0, 4)
    assert (a == again).all() and not (a == b).all()
    assert not (rollout_streams(rng, 6, 2, 0, 4) == a).all()
    game_draw = next_u64(rng.copy(), 0)
    assert next_u64(a.copy(), 0) != game_draw
