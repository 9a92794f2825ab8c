"""Tests for simkit.rng: per-game seeding, the xoshiro256** generator and its helpers.

Known-answer vectors come from the published reference implementations (splitmix64 of
Steele/Lea/Flood as in Vigna's splitmix64.c; xoshiro256** of Blackman and Vigna, the
vector used by rand_xoshiro's tests). A plain-Python oracle with arbitrary-precision ints
checks the seeding chain the module documents.
"""

import re

import numpy as np
import pandas as pd
import pytest
from plain_python import run_without_jit
from scipy import stats as sps

import simkit
from simkit.games.setembre1714_assault import layout as L
from simkit.games.setembre1714_assault.engine import play_assault_games
from simkit.rng import (
    MAX_SEED,
    check_seed,
    game_seed,
    game_streams,
    next_u64,
    restart,
    roll_d6,
    shuffle,
    splitmix64,
    stream,
    uniform,
    uniform_int,
)

GAME = "setembre1714-assault"
MASK = 2**64 - 1
STRICT_P = 1e-4


# -- a plain-Python oracle (unbounded ints, masked) ----------------------------------------
def ref_splitmix64(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def ref_rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


SALT = 0x5DEECE66D1CE4E5B


def ref_stream(root_seed: int, game_index: int, n: int, purpose: int = 0,
               counter: int = 0) -> list[int]:
    """The documented chain: game seed -> purpose key -> sub-stream ``counter``."""
    seed = ref_splitmix64(ref_splitmix64(root_seed) ^ game_index)
    key = ref_splitmix64(seed ^ ref_splitmix64(purpose ^ SALT))
    x = ref_splitmix64(key ^ ref_splitmix64(counter))
    s = []
    for _ in range(4):
        x = ref_splitmix64(x)
        s.append(x)
    out = []
    for _ in range(n):
        out.append((ref_rotl((s[1] * 5) & MASK, 7) * 9) & MASK)
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ref_rotl(s[3], 45)
    return out


def one(root_seed, game_index):
    """A game's streams with a single purpose (0), for the generator's own tests."""
    return game_streams(root_seed, game_index, 1)


def to_unit(raw: np.ndarray) -> np.ndarray:
    """uint64 outputs -> floats in [0, 1) from their top 53 bits."""
    return (raw >> np.uint64(11)).astype(np.float64) / 2.0**53


# -- known answers ------------------------------------------------------------------------
def test_splitmix64_known_answers():
    # the first three outputs of the reference splitmix64 generator seeded with 0
    assert int(splitmix64(0)) == 0xE220A8397B1DCDAF
    assert int(splitmix64(np.uint64(0x9E3779B97F4A7C15))) == 0x6E789E6AA1B965F4
    assert int(splitmix64(np.uint64(0x3C6EF372FE94F82A))) == 0x06C45D188009454F


def test_xoshiro256starstar_known_answer():
    state = np.array([[1, 2, 3, 4, 0]], dtype=np.uint64)
    got = [int(next_u64(state, 0)) for _ in range(10)]
    assert got == [11520, 0, 1509978240, 1215971899390074240, 1216172134540287360,
                   607988272756665600, 16172922978634559625, 8476171486693032832,
                   10595114339597558777, 2904607092377533576]


@pytest.mark.parametrize("root_seed, game_index", [
    (0, 0), (1, 0), (0, 1), (12345, 67), (2**32 + 5, 999_999), (2**63 - 1, 2**40),
])
def test_stream_matches_plain_python_oracle(root_seed, game_index):
    assert stream(root_seed, game_index, 16).tolist() == ref_stream(root_seed, game_index, 16)
    assert int(game_seed(root_seed, game_index)) == ref_splitmix64(
        ref_splitmix64(root_seed) ^ game_index)


def test_stream_of_the_largest_seed_as_uint64_matches_oracle():
    assert stream(np.uint64(MAX_SEED), 3, 8).tolist() == ref_stream(MAX_SEED, 3, 8)


def test_game_streams_then_next_u64_is_stream():
    state = one(77, 5)
    assert [int(next_u64(state, 0)) for _ in range(10)] == stream(77, 5, 10).tolist()


@pytest.mark.parametrize("purpose, counter", [(0, 0), (1, 0), (3, 7), (6, 2**40)])
def test_purpose_and_counter_streams_match_the_oracle(purpose, counter):
    assert stream(12, 34, 8, purpose, counter).tolist() == ref_stream(12, 34, 8, purpose,
                                                                       counter)


def test_purposes_do_not_shift_each_other():
    # drawing more from one purpose leaves every other purpose's draws unchanged
    quiet, busy = game_streams(5, 9, 4), game_streams(5, 9, 4)
    for _ in range(17):
        next_u64(busy, 1)
    for purpose in (0, 2, 3):
        assert [int(next_u64(quiet, purpose)) for _ in range(6)] == \
               [int(next_u64(busy, purpose)) for _ in range(6)]
    assert next_u64(quiet, 1) != next_u64(busy, 1)


def test_restart_depends_on_the_counter_only():
    a, b = game_streams(5, 9, 3), game_streams(5, 9, 3)
    for _ in range(11):
        next_u64(b, 2)
    restart(a, 2, 4)
    restart(b, 2, 4)  # whatever was drawn before, sub-stream 4 starts the same
    assert np.array_equal(a, b)
    assert [int(next_u64(a, 2)) for _ in range(4)] == ref_stream(5, 9, 4, 2, 4)
    firsts = {int(stream(5, 9, 1, 2, c)[0]) for c in range(1000)}
    assert len(firsts) == 1000  # every counter its own sub-stream


def test_sub_streams_are_uncorrelated():
    u = to_unit(np.array([stream(3, 1, 64, 2, c) for c in range(2001)]))
    r, p = sps.pearsonr(u[:-1].ravel(), u[1:].ravel())  # counter c against c + 1
    assert p > STRICT_P, (r, p)
    v = to_unit(np.array([stream(3, 1, 64, k) for k in range(2001)]))
    r2, p2 = sps.pearsonr(v[:-1].ravel(), v[1:].ravel())  # purpose k against k + 1
    assert p2 > STRICT_P, (r2, p2)


# -- same (root_seed, game_index) -> same game, whatever the order ----------------------
def test_stream_independent_of_generation_order():
    indices = list(range(200))
    forward = {i: stream(42, i, 32).tolist() for i in indices}
    order = np.random.default_rng(0).permutation(indices)
    shuffled = {int(i): stream(42, int(i), 32).tolist() for i in order}
    backward = {i: stream(42, i, 32).tolist() for i in reversed(indices)}
    assert forward == shuffled == backward
    # a longer stream starts with the shorter one: n does not change the game
    assert stream(42, 7, 100).tolist()[:32] == forward[7]


def test_game_simulate_rows_do_not_depend_on_order_or_batch():
    game = simkit.games.get(GAME)
    indices = np.arange(600)
    base = pd.DataFrame(game.simulate("bombarded_bastion", {"catalans": "cautious"},
                                      indices, 9))
    perm = np.random.default_rng(1).permutation(indices)
    permuted = pd.DataFrame(game.simulate("bombarded_bastion", {"catalans": "cautious"},
                                          perm, 9))
    pd.testing.assert_frame_equal(permuted, base.iloc[perm].reset_index(drop=True))
    part = pd.DataFrame(game.simulate("bombarded_bastion", {"catalans": "cautious"},
                                      indices[400:450], 9))
    pd.testing.assert_frame_equal(part, base.iloc[400:450].reset_index(drop=True))
    # the games are not all alike (otherwise the comparisons above prove nothing)
    assert base["end_reason"].nunique() >= 3
    assert set(base["attack_roll"]) == set(range(7))  # 0: no assault


@pytest.mark.parametrize("chunk_size", [7, 250, 2000])
def test_simulate_rows_do_not_depend_on_chunk_size(chunk_size):
    whole = simkit.simulate(GAME, 2000, seed=21)
    chunked = simkit.simulate(GAME, 2000, seed=21, chunk_size=chunk_size)
    pd.testing.assert_frame_equal(chunked, whole)


def test_simulate_first_games_do_not_depend_on_n_games():
    small = simkit.simulate(GAME, 300, seed=21)
    large = simkit.simulate(GAME, 2000, seed=21)
    pd.testing.assert_frame_equal(small, large.iloc[:300].reset_index(drop=True))
    assert small["game_index"].tolist() == list(range(300))
    assert (small["seed"] == np.uint64(21)).all()


# -- independence -------------------------------------------------------------------------
def test_neighbouring_game_streams_are_uncorrelated():
    n_pairs, length = 2000, 64
    first = np.array([stream(2024, i, length) for i in range(n_pairs + 1)])
    u = to_unit(first)
    x, y = u[:-1].ravel(), u[1:].ravel()  # game i against game i + 1, draw by draw
    r, p = sps.pearsonr(x, y)
    assert p > STRICT_P, (r, p)
    assert abs(r) < 0.02
    # the same check across neighbouring root seeds for one game index
    by_seed = to_unit(np.array([stream(s, 5, length) for s in range(n_pairs + 1)]))
    r2, p2 = sps.pearsonr(by_seed[:-1].ravel(), by_seed[1:].ravel())
    assert p2 > STRICT_P, (r2, p2)
    # and within a stream, draw k against draw k + 1
    r3, p3 = sps.pearsonr(u[:, :-1].ravel(), u[:, 1:].ravel())
    assert p3 > STRICT_P, (r3, p3)


def test_uniforms_are_uniform():
    u = to_unit(np.concatenate([stream(8, i, 50) for i in range(400)]))
    assert sps.kstest(u, "uniform").pvalue > STRICT_P
    state = one(8, 0)
    floats = np.array([uniform(state, 0) for _ in range(5000)])
    assert ((floats >= 0.0) & (floats < 1.0)).all()
    assert sps.kstest(floats, "uniform").pvalue > STRICT_P
    # uniform() is the top 53 bits of the next output
    assert floats[0] == to_unit(stream(8, 0, 1))[0]


def test_roll_d6_faces_fit_a_fair_die():
    state = one(31, 0)
    one_stream = np.array([roll_d6(state, 0) for _ in range(60_000)])
    first_rolls = np.array([roll_d6(one(31, i), 0) for i in range(60_000)])
    for rolls in (one_stream, first_rolls):
        assert rolls.min() == 1 and rolls.max() == 6
        counts = np.bincount(rolls, minlength=7)[1:]
        assert counts.sum() == 60_000
        assert sps.chisquare(counts).pvalue > STRICT_P, counts


def test_different_root_seeds_give_different_streams():
    firsts = {int(stream(s, i, 1)[0]) for s in range(100) for i in range(100)}
    assert len(firsts) == 100 * 100
    a, b = stream(0, 0, 64), stream(1, 0, 64)
    assert not np.array_equal(a, b)
    assert (a == b).sum() == 0
    # the root seed and the index are not interchangeable
    assert not np.array_equal(stream(3, 4, 8), stream(4, 3, 8))


# -- helpers ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 2**40 + 3])
def test_uniform_int_stays_in_range(n):
    state = one(5, n % 1000)
    draws = np.array([uniform_int(state, 0, n) for _ in range(3000)], dtype=np.int64)
    assert draws.min() >= 0
    assert draws.max() < n
    if n <= 7:
        assert set(draws.tolist()) == set(range(n))
        if n > 1:
            assert sps.chisquare(np.bincount(draws, minlength=n)).pvalue > STRICT_P
    else:
        assert draws.max() > n // 2  # reaches the upper half of a huge range


def test_uniform_int_stays_in_range_up_to_its_documented_bound_2_63():
    n = 2**63
    state = one(1, 1)
    draws = [int(uniform_int(state, 0, np.uint64(n))) for _ in range(200)]
    assert all(0 <= d < n for d in draws)


def test_uniform_int_is_the_remainder_of_the_next_output():
    # for n = 6, 2**64 mod 6 = 4: only the four smallest outputs would be rejected
    state = one(99, 1)
    raw = stream(99, 1, 20)
    assert [uniform_int(state, 0, 6) for _ in range(20)] == [int(x % 6) for x in raw]


@pytest.mark.parametrize("size", [0, 1, 2, 5, 52])
def test_shuffle_is_a_permutation(size):
    values = np.arange(size, dtype=np.int64)
    shuffle(one(17, size), 0, values)
    assert sorted(values.tolist()) == list(range(size))
    again = np.arange(size, dtype=np.int64)
    shuffle(one(17, size), 0, again)
    assert values.tolist() == again.tolist()  # same state, same order
    if size == 52:
        assert values.tolist() != list(range(size))


def test_shuffle_orders_are_uniform():
    state = one(4, 4)
    counts = {}
    for _ in range(6000):
        v = np.arange(3, dtype=np.int64)
        shuffle(state, 0, v)
        counts[tuple(v.tolist())] = counts.get(tuple(v.tolist()), 0) + 1
    assert len(counts) == 6
    assert sps.chisquare(list(counts.values())).pvalue > STRICT_P


# -- NUMBA_DISABLE_JIT=1 gives the same numbers ------------------------------------------
_PLAIN_PYTHON = """
import json, numba, numpy as np, simkit
from simkit.rng import stream
game = simkit.games.get("setembre1714-assault")
cols = game.simulate(None, None, np.arange(50), 7)
rich = game.simulate({"guns_adjacent": 3, "guns_at_range_2": 2, "attacker_commander": True,
                      "salvo_units": 2}, {"catalans": "cautious"}, np.arange(50), 7)
print(json.dumps({
    "disable_jit": bool(numba.config.DISABLE_JIT),
    "stream_type": type(stream).__name__,
    "stream": [int(x) for x in stream(12345, 67, 8)],
    "max_seed": [int(x) for x in stream(np.uint64(2**64 - 1), 3, 4)],
    "cols": {k: v.tolist() for k, v in cols.items()},
    "rich": {k: v.tolist() for k, v in rich.items()},
}))
"""


def test_disable_jit_gives_identical_numbers():
    plain = run_without_jit(_PLAIN_PYTHON, timeout=300)
    assert plain["disable_jit"] is True
    assert plain["stream_type"] == "function"  # the plain-Python function ran

    game = simkit.games.get(GAME)
    cols = game.simulate(None, None, np.arange(50), 7)
    rich = game.simulate({"guns_adjacent": 3, "guns_at_range_2": 2, "attacker_commander": True,
                          "salvo_units": 2}, {"catalans": "cautious"}, np.arange(50), 7)
    assert type(stream).__name__ != "function"  # in-process: compiled
    assert plain["stream"] == stream(12345, 67, 8).tolist()
    assert plain["stream"] == ref_stream(12345, 67, 8)
    assert plain["max_seed"] == ref_stream(MAX_SEED, 3, 4)
    assert plain["cols"] == {k: v.tolist() for k, v in cols.items()}
    assert plain["rich"] == {k: v.tolist() for k, v in rich.items()}
    assert set(plain["rich"]["end_reason"]) != set(plain["cols"]["end_reason"])


# -- seeds --------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2**63, MAX_SEED, np.uint64(MAX_SEED), np.int64(7)])
def test_check_seed_accepts_integers_in_range(seed):
    assert check_seed(seed) == int(seed)
    assert type(check_seed(seed)) is int


@pytest.mark.parametrize("seed", [-1, -(2**70), 2**64, 2**80, True, False, 1.0, 3.5, "3", None,
                                  np.float64(2.0)])
def test_check_seed_rejects(seed):
    with pytest.raises(ValueError, match=r"seed must be an integer in 0\.\.18446744073709551615"):
        check_seed(seed)


def oracle_breach_turns(root_seed: int, n_games: int, max_turns: int = 12) -> list[int]:
    """Standard rules: the breach is assured on the first die showing 6 (0: never).

    Each check is ``uniform_int(rng, ST_BREACH, 6) + 1``, i.e. the raw output mod 6, plus 1
    (the rejection of the 4 smallest 64-bit outputs never happens here); turn t's die is
    the first draw of the breach stream's sub-stream t."""
    turns = []
    for i in range(n_games):
        dice = [ref_stream(root_seed, i, 1, L.ST_BREACH, t)[0] for t in range(1, max_turns + 1)]
        sixes = [k + 1 for k, x in enumerate(dice) if x % 6 == 5]
        turns.append(sixes[0] if sixes else 0)
    return turns


@pytest.mark.parametrize("seed", [0, 12345, 2**63 - 1, 2**63, MAX_SEED])
def test_simulate_seeds_games_as_the_oracle_does(seed):
    # regression for seeds >= 2**63: they passed check_seed but the kernels got int(seed)
    # and raised OverflowError (numba cannot convert it)
    df = simkit.simulate(GAME, 300, seed=seed)
    assert (df["seed"] == np.uint64(seed)).all()
    expected = oracle_breach_turns(seed, 300)
    assert df["breach_turn"].tolist() == expected
    assert 0 < expected.count(0) < 100  # some games never see the breach (about 11%)
    game = simkit.games.get(GAME)
    table = play_assault_games(*game.kernel_inputs(game.Rules(), game.policy_choices(None)),
                               np.arange(300, dtype=np.int64), np.uint64(seed),
                               np.zeros((0, 4), dtype=np.int64))
    assert df["attack_roll"].tolist() == table[:, 9].tolist()
    assert df["defence_roll"].tolist() == table[:, 10].tolist()


@pytest.mark.parametrize("seed", [4, 2**63 + 5])
def test_trace_replays_the_row(seed):
    game = simkit.games.get(GAME)
    rules, policy = {"guns_adjacent": 2, "attacker_commander": True}, {"catalans": "cautious"}
    df = simkit.simulate(GAME, 40, seed=seed, rules=rules, policy=policy)
    for i in range(40):
        row = df.iloc[i]
        text = "\n".join(game.trace(rules, policy, i, seed))
        assert f"game {i} of seed {seed}" in text
        assert f"The zone is held by the {row['winner'].capitalize()}." in text
        assert text.endswith(game.result_line(row["winner"], row["end_reason"], row["turns"]))
        dice = re.findall(r"Dice: attacker (\d), defender (\d)", text)
        if row["attack_roll"] == 0:
            assert dice == []
        else:
            assert dice == [(str(row["attack_roll"]), str(row["defence_roll"]))]
        checks = re.findall(r"Turn (\d+): Royal Breach check, die (\d)", text)
        assert len(checks) == (row["breach_turn"] or 12)
