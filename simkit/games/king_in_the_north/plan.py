"""What the engine does at a decision a look-ahead searches (``lookahead``): each stack's
destination (7.1, 7.3) in the turn of the side it plays.

The look-ahead plans a side's turn before the engine plays it, decision by decision, on
copies of the position at the turn's start: the engine counts the side's stack moves as
they reach their destination (``Workspace.plan``, ``layout.PL_*``), the first ``at``
take the choices already made (``PL_FORCE``; the real turn, ``PLAN_REPLAY``, takes them
all), and at decision ``at``

- a probe (``PLAN_PROBE``) lists the legal destinations (``destination_options``:
  greedy's choice first, then the others by greedy's score) and plays greedy's;
- a rollout (``PLAN_ROLLOUT``) first puts the copy into a world of its own: what the
  side cannot see is dealt again (``view.resample``: the enemy's unseen blocks and
  cards; its own draw pile in a new order), from the rollout's streams, which then
  replace the game's (the future dice, draws, bags and tie-breaks), and takes the
  option it tries.

Up to that decision the copy plays what the table has played: the position at the
decision is the side's present, not its future. A commander rehearsing its moves
(``S_PLANNING``) makes no decision of the plan.
"""

from simkit.rng import uniform_int
from simkit.unmanaged import borrowing

from . import layout as L
from .view import resample


@borrowing
def planned_destination(blk, card, s, rng, side, dest, dest_mode, dest_fm, look, ws):
    """The destination of the stack whose greedy choice is ``dest``, as ``ws.plan`` asks
    (``dest`` itself when no plan applies)."""
    plan = ws.plan
    if plan[L.PL_MODE] == L.PLAN_OFF or side != plan[L.PL_SIDE] or s[L.S_PLANNING]:
        return dest
    k = plan[L.PL_COUNT]
    plan[L.PL_COUNT] = k + 1
    if k < plan[L.PL_AT]:
        return plan[L.PL_FORCE + k]
    if k > plan[L.PL_AT] or plan[L.PL_MODE] == L.PLAN_REPLAY or k >= L.MAX_TURN_DECISIONS:
        return dest
    if plan[L.PL_MODE] == L.PLAN_PROBE:
        plan[L.PL_FOUND] = 1
        plan[L.PL_N_OPTIONS] = destination_options(dest, dest_mode, dest_fm,
                                                   look.hands[side, 0], look.dest_score,
                                                   plan[L.PL_OPTIONS:L.PL_OPTIONS + L.MAX_LOC + 1],
                                                   plan[L.PL_SCORES:L.PL_SCORES + L.MAX_LOC + 1])
        return dest
    own_world(blk, card, s, rng, side, ws)
    return plan[L.PL_CHOICE]


@borrowing
def destination_options(dest, dest_mode, dest_fm, spare, dest_score, out, scores):
    """The legal destinations of a stack (-1: it stays; a Location it reaches, with a
    Forced March only while a card is in hand to discard, 7.3.2), greedy's ``dest``
    first, the others by greedy's score (``Look.dest_score``; ties to staying, then to
    the lower Location); their number."""
    n_loc = dest_score.shape[0] - 1  # ``dest_mode`` may have slots beyond the map's
    out[0] = dest
    scores[0] = 1 << 50
    n = 1
    for v in range(-1, n_loc):
        if v == dest:
            continue
        if v >= 0 and (dest_mode[v] < 0 or (dest_fm[v] == 1 and spare == 0)):
            continue
        score = dest_score[n_loc] if v < 0 else dest_score[v]
        j = n  # insertion by score, best first (stable: staying, then Location order)
        while j > 1 and scores[j - 1] < score:
            out[j], scores[j] = out[j - 1], scores[j - 1]
            j -= 1
        out[j], scores[j] = v, score
        n += 1
    return n


@borrowing
def own_world(blk, card, s, rng, side, ws):
    """The rollout's world from here: what ``side`` cannot see dealt again from the
    rollout's streams (``ws.plan_rng``), which then replace the game's."""
    srng = ws.plan_rng
    resample(blk, card, s, side, srng, L.ST_SET_UP, ws.shadow, ws.pool)
    for i in range(s.shape[0]):
        s[i] = ws.shadow[i]
    own_draw_pile(card, s, side, srng, ws.pool)
    for i in range(rng.shape[0]):
        for j in range(rng.shape[1]):
            rng[i, j] = srng[i, j]
    ws.fresh[0] = 0  # the map is read again


@borrowing
def own_draw_pile(card, s, side, rng, pool):
    """``side``'s draw pile in a new order (it does not know the order of its own cards
    to come, 3.3): its cards sorted, then shuffled from ``rng``."""
    base, n = L.S_DRAW + side * L.MAX_DECK, s[L.S_DRAW_N + side]
    for i in range(n):
        pool[i] = s[base + i]
    for i in range(1, n):  # sorted: the deal does not depend on the order it had
        x = pool[i]
        j = i - 1
        while j >= 0 and pool[j] > x:
            pool[j + 1] = pool[j]
            j -= 1
        pool[j + 1] = x
    for i in range(n - 1, 0, -1):
        j = uniform_int(rng, L.ST_SET_UP, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    for i in range(n):
        s[base + i] = pool[i]
