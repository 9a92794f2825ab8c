"""What every game's look-ahead player shares: the rollouts' own random streams, and
successive halving over a decision's options (njit).

A look-ahead decides by playing the rest of the game from copies of the position, once
per option and rollout. Two things make that fair and cheap, and they are the same in
every game:

- **Its own streams.** Rollout ``r`` of a decision draws from streams derived from the
  game's key, the turn and the decision, never from the game's own streams
  (``rollout_streams``), and the options of one decision share their rollouts' streams:
  they are compared on the same dice (common random numbers). What the deciding player
  cannot see is reshuffled from those streams by the game before each rollout.
- **Rollouts where they matter.** With a budget of ``B`` rollouts a decision, successive
  halving plays every option on a few rollouts, keeps the better half (by mean score;
  ties to the lower option index: the script's own choice is option 0), plays those on
  more, and so on until one is left (Karnin, Koren and Somekh 2013). An option far behind
  costs a few rollouts, the close ones get the rest.

A game's search loop::

    alive, total, played = halving_start(n_options)
    rounds = halving_rounds(n_options)
    for _ in range(rounds):
        per = halving_per_option(alive, budget, rounds)
        for o in range(n_options):
            if alive[o]:
                for r in range(played[o], played[o] + per):
                    total[o] += rollout(o, r)   # the game's own function
                played[o] += per
        halving_cut(alive, total, played)
    best = halving_best(alive, total, played)
"""

import numpy as np
from numba import njit

from simkit import _numba_cache
from simkit.rng import game_streams, splitmix64

_numba_cache.install()  # before any cached function is defined here

#: keeps rollout streams apart from every game's own streams
ROLLOUT_SALT = np.uint64(0x6C6F6F6B61686561)
#: the decisions a turn may hold, and the rollouts a decision may play (stream indices)
MAX_DECISIONS = 1 << 12
MAX_ROLLOUTS = 1 << 12


@njit(cache=True, nogil=True)
def rollout_streams(rng, turn, decision, r, n_streams):
    """Rollout ``r``'s streams for ``decision`` of ``turn``: a function of the game's key
    (its first stream's key word), the turn, the decision and ``r`` alone."""
    root = splitmix64(rng[0, 4] ^ ROLLOUT_SALT)
    index = (np.int64(turn) * MAX_DECISIONS + decision) * MAX_ROLLOUTS + r
    return game_streams(root, index, n_streams)


@njit(cache=True, nogil=True)
def halving_start(n_options):
    """Every option alive, no score, no rollout played."""
    return (np.ones(n_options, dtype=np.bool_), np.zeros(n_options, dtype=np.float64),
            np.zeros(n_options, dtype=np.int64))


@njit(cache=True, nogil=True)
def halving_rounds(n_options):
    """Rounds of halving until one option is left: ceil(log2 n), at least 1."""
    rounds, left = 1, n_options
    while left > 2:
        left = (left + 1) // 2
        rounds += 1
    return rounds


@njit(cache=True, nogil=True)
def halving_per_option(alive, budget, rounds):
    """Rollouts each live option plays this round: the budget split evenly over the
    rounds and the live options, at least one."""
    live = 0
    for a in alive:
        live += a
    return max(1, budget // (rounds * max(live, 1)))


@njit(cache=True, nogil=True)
def halving_cut(alive, total, played):
    """Keep the better half of the live options (by mean score over their rollouts; a
    tie to the lower index)."""
    live = np.flatnonzero(alive)
    if live.shape[0] <= 1:
        return
    keep = (live.shape[0] + 1) // 2
    means = np.empty(live.shape[0])
    for i in range(live.shape[0]):
        o = live[i]
        means[i] = total[o] / max(played[o], 1)
    order = np.argsort(-means, kind="mergesort")  # stable: ties keep the lower index
    for i in range(keep, live.shape[0]):
        alive[live[order[i]]] = False


@njit(cache=True, nogil=True)
def halving_best(alive, total, played):
    """The live option with the best mean score (a tie to the lower index)."""
    best, best_mean = -1, -np.inf
    for o in range(alive.shape[0]):
        if alive[o]:
            mean = total[o] / max(played[o], 1)
            if mean > best_mean:
                best, best_mean = o, mean
    return best
