"""Counter-based random streams: one per game and per purpose, each restartable.

Seeding. Game ``i`` of a run with root seed ``s`` has the 64-bit seed
``game_seed(s, i) = splitmix64(splitmix64(s) ^ i)``, so it is the same game whatever the
chunking, the number of workers, the backend or the order of execution, and the same
seeds serve every variant of a sweep (common random numbers).

Streams. A game does not draw everything from one generator: each *purpose* (set-up
shuffles, one deck, one kind of die, each turn's dice, a policy's tie-breaks...) has its
own xoshiro256** stream (Blackman and Vigna), keyed on ``(game seed, purpose)``. A stream
can also be *restarted* at a counter (a turn number, a reshuffle count): its state is
then a function of ``(game seed, purpose, counter)`` alone. So a rule change that draws
one die more or less in one place shifts no draw of any other purpose, nor of the same
purpose at a later counter, and paired variants of a sweep stay paired game by game.

A game's streams are one ``uint64[n_purposes, WIDTH]`` array: row ``k`` holds purpose
``k``'s xoshiro state (words 0-3) and its key (word ``KEY``). Engines pass the array
down and name the purpose at each draw: ``roll_d6(rng, ST_DICE)``. Each game lists its
purposes once, as a ``STREAMS`` tuple of names in its ``layout.py``.

All arithmetic is on ``np.uint64`` so that it wraps modulo 2**64 both when compiled and
under ``NUMBA_DISABLE_JIT=1``: plain Python plays the same games.
"""

import warnings

import numba
import numpy as np
from numba import njit

from simkit import _numba_cache
from simkit.errors import UsageError

_numba_cache.install()  # before any cached function is defined here

if numba.config.DISABLE_JIT:
    # Plain-Python mode: numpy warns on the wrapping uint64 arithmetic the generator is
    # built on; the wrap is intended.
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_PURPOSE_SALT = np.uint64(0x5DEECE66D1CE4E5B)  # keeps purpose keys apart from game seeds
_U0 = np.uint64(0)
_U5 = np.uint64(5)
_U7 = np.uint64(7)
_U9 = np.uint64(9)
_U11 = np.uint64(11)
_U17 = np.uint64(17)
_U27 = np.uint64(27)
_U30 = np.uint64(30)
_U31 = np.uint64(31)
_U45 = np.uint64(45)
_U64M = np.uint64(64)
_TWO_M53 = 1.0 / 9007199254740992.0

MAX_SEED = 2**64 - 1
STATE_WORDS = 4  # xoshiro256** state
KEY = 4  # column of a stream's key (its purpose within its game)
WIDTH = 5


@njit(cache=True, nogil=True)
def _rotl(x, k):
    return (x << k) | (x >> (_U64M - k))


@njit(cache=True, nogil=True)
def splitmix64(x):
    """The splitmix64 finaliser of ``x + golden``: a bijective 64-bit mix."""
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return z ^ (z >> _U31)


@njit(cache=True, nogil=True)
def game_seed(root_seed, game_index):
    """The 64-bit seed of one game: splitmix64 of the root seed, then of the index."""
    return splitmix64(splitmix64(np.uint64(root_seed)) ^ np.uint64(game_index))


@njit(cache=True, nogil=True)
def purpose_key(seed, purpose):
    """The key of one purpose's stream within the game of seed ``seed``."""
    return splitmix64(seed ^ splitmix64(np.uint64(purpose) ^ _PURPOSE_SALT))


@njit(cache=True, nogil=True)
def restart(rng, purpose, counter):
    """Set ``purpose``'s stream to the start of its sub-stream ``counter``: the draws
    that follow depend on the game, the purpose and the counter only."""
    x = splitmix64(rng[purpose, KEY] ^ splitmix64(np.uint64(counter)))
    for i in range(STATE_WORDS):
        x = splitmix64(x)
        rng[purpose, i] = x


@njit(cache=True, nogil=True)
def game_streams(root_seed, game_index, n_purposes):
    """The ``n_purposes`` streams of game ``game_index`` of run ``root_seed``, each at
    its sub-stream 0."""
    rng = np.empty((n_purposes, WIDTH), dtype=np.uint64)
    seed = game_seed(root_seed, game_index)
    for k in range(n_purposes):
        rng[k, KEY] = purpose_key(seed, k)
        restart(rng, k, 0)
    return rng


@njit(cache=True, nogil=True)
def next_u64(rng, purpose):
    """Advance ``purpose``'s stream and return its next 64 random bits (xoshiro256**)."""
    s1 = rng[purpose, 1]
    result = _rotl(s1 * _U5, _U7) * _U9
    t = s1 << _U17
    rng[purpose, 2] ^= rng[purpose, 0]
    rng[purpose, 3] ^= rng[purpose, 1]
    rng[purpose, 1] ^= rng[purpose, 2]
    rng[purpose, 0] ^= rng[purpose, 3]
    rng[purpose, 2] ^= t
    rng[purpose, 3] = _rotl(rng[purpose, 3], _U45)
    return result


@njit(cache=True, nogil=True)
def uniform(rng, purpose):
    """A float in [0, 1) with 53 random bits."""
    return float(next_u64(rng, purpose) >> _U11) * _TWO_M53


@njit(cache=True, nogil=True)
def uniform_int(rng, purpose, n):
    """An unbiased integer in [0, n) for 1 <= n <= 2**63 (rejection on the top remainder).

    The result is an int64, so larger bounds are not supported; games draw far smaller.
    """
    bound = np.uint64(n)
    threshold = (_U0 - bound) % bound  # 2**64 mod n: outputs below it would bias
    x = next_u64(rng, purpose)
    while x < threshold:
        x = next_u64(rng, purpose)
    return np.int64(x % bound)


@njit(cache=True, nogil=True)
def roll_d6(rng, purpose):
    """One six-sided die: 1..6."""
    return uniform_int(rng, purpose, 6) + 1


@njit(cache=True, nogil=True)
def shuffle(rng, purpose, values):
    """Shuffle a 1-D array in place (Fisher-Yates)."""
    for i in range(values.shape[0] - 1, 0, -1):
        j = uniform_int(rng, purpose, i + 1)
        values[i], values[j] = values[j], values[i]


@njit(cache=True, nogil=True)
def stream(root_seed, game_index, n, purpose=0, counter=0):
    """The first ``n`` raw outputs of one purpose's sub-stream (for tests and audits)."""
    rng = game_streams(root_seed, game_index, purpose + 1)
    restart(rng, purpose, counter)
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        out[i] = next_u64(rng, purpose)
    return out


def check_seed(root_seed) -> int:
    """Return ``root_seed`` as an int, or raise UsageError naming the allowed range."""
    if isinstance(root_seed, bool) or not isinstance(root_seed, (int, np.integer)):
        raise UsageError(f"seed must be an integer in 0..{MAX_SEED}, got {root_seed!r}")
    if not 0 <= int(root_seed) <= MAX_SEED:
        raise UsageError(f"seed must be an integer in 0..{MAX_SEED}, got {root_seed}")
    return int(root_seed)
