"""Counter-based per-game seeding and the njit PRNG every engine draws from.

Game ``i`` of a run with root seed ``s`` is seeded from ``splitmix64`` of the pair
``(s, i)`` alone, so it is the same game whatever the chunking, the number of workers,
the backend or the order of execution, and the same seeds serve every variant of a
sweep (common random numbers).

The generator is xoshiro256** (Blackman and Vigna). Its state is a ``uint64[4]`` array
that engines pass down to every rule that rolls dice. All arithmetic is on ``np.uint64``
so that it wraps modulo 2**64 both when compiled and under ``NUMBA_DISABLE_JIT=1``.
"""

import warnings

import numba
import numpy as np
from numba import njit

from simkit.errors import UsageError

if numba.config.DISABLE_JIT:
    # Plain-Python mode: numpy warns on the wrapping uint64 arithmetic the generator is
    # built on; the wrap is intended.
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U5 = np.uint64(5)
_U9 = np.uint64(9)
_U11 = np.uint64(11)
_U17 = np.uint64(17)
_U27 = np.uint64(27)
_U30 = np.uint64(30)
_U31 = np.uint64(31)
_U45 = np.uint64(45)
_U7 = np.uint64(7)
_U64M = np.uint64(64)
_TWO_M53 = 1.0 / 9007199254740992.0

MAX_SEED = 2**64 - 1


@njit(cache=True, nogil=True)
def _rotl(x, k):
    return (x << k) | (x >> (_U64M - k))


@njit(cache=True, nogil=True)
def splitmix64(x):
    """The splitmix64 finaliser of ``x + golden``: a bijective 64-bit mix."""
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> _U30)) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> _U31)


@njit(cache=True, nogil=True)
def game_seed(root_seed, game_index):
    """The 64-bit seed of one game: splitmix64 of the root seed, then of the index."""
    return splitmix64(splitmix64(np.uint64(root_seed)) ^ np.uint64(game_index))


@njit(cache=True, nogil=True)
def seed_state(root_seed, game_index):
    """A fresh xoshiro256** state for game ``game_index`` of run ``root_seed``."""
    state = np.empty(4, dtype=np.uint64)
    x = game_seed(root_seed, game_index)
    for i in range(4):
        x = splitmix64(x)
        state[i] = x
    return state


@njit(cache=True, nogil=True)
def next_u64(state):
    """Advance the state and return the next 64 random bits (xoshiro256**)."""
    result = _rotl(state[1] * _U5, _U7) * _U9
    t = state[1] << _U17
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], _U45)
    return result


@njit(cache=True, nogil=True)
def uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return float(next_u64(state) >> _U11) * _TWO_M53


@njit(cache=True, nogil=True)
def uniform_int(state, n):
    """An unbiased integer in [0, n) for 1 <= n <= 2**63 (rejection on the top remainder).

    The result is an int64, so larger bounds are not supported; games draw far smaller.
    """
    bound = np.uint64(n)
    threshold = (_U0 - bound) % bound  # 2**64 mod n: outputs below it would bias
    x = next_u64(state)
    while x < threshold:
        x = next_u64(state)
    return np.int64(x % bound)


@njit(cache=True, nogil=True)
def roll_d6(state):
    """One six-sided die: 1..6."""
    return uniform_int(state, 6) + 1


@njit(cache=True, nogil=True)
def count_at_least(state, n_dice, target):
    """Roll ``n_dice`` d6 and count the dice showing ``target`` or more."""
    hits = 0
    for _ in range(n_dice):
        if roll_d6(state) >= target:
            hits += 1
    return hits


@njit(cache=True, nogil=True)
def shuffle(state, values):
    """Shuffle a 1-D array in place (Fisher-Yates)."""
    for i in range(values.shape[0] - 1, 0, -1):
        j = uniform_int(state, i + 1)
        values[i], values[j] = values[j], values[i]


@njit(cache=True, nogil=True)
def stream(root_seed, game_index, n):
    """The first ``n`` raw outputs of one game's generator (for tests and audits)."""
    state = seed_state(root_seed, game_index)
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        out[i] = next_u64(state)
    return out


def check_seed(root_seed) -> int:
    """Return ``root_seed`` as an int, or raise UsageError naming the allowed range."""
    if isinstance(root_seed, bool) or not isinstance(root_seed, (int, np.integer)):
        raise UsageError(f"seed must be an integer in 0..{MAX_SEED}, got {root_seed!r}")
    if not 0 <= int(root_seed) <= MAX_SEED:
        raise UsageError(f"seed must be an integer in 0..{MAX_SEED}, got {root_seed}")
    return int(root_seed)
