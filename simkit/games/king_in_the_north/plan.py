"""What the engine does at a decision a look-ahead searches (``lookahead``): each stack's
destination (7.1, 7.3), its bids (the Turn Order bid and who moves first, 6.2; the
Initiative Challenge and its acceptance, 6.3.1) and each of its deployments in a battle
or siege (8.2-8.4, 8.9.3), the kinds its ``decides`` weight names (``layout.D_*``).

The look-ahead plans a step of the campaign (a Year's Turn Order, a Semester's start,
either side's turn: ``engine.play_step``) before the engine plays it, decision by
decision, on copies of the position at the step's start: the engine counts the side's
decisions of the kinds searched as they come (``Workspace.plan``, ``layout.PL_*``), the
first ``at`` take the choices already made (``PL_FORCE``; the real step, ``PLAN_REPLAY``,
takes them all), and at decision ``at`` (``plan_at``)

- a probe (``PLAN_PROBE``) lists the legal options (greedy's choice first, then the
  others by greedy's own score: ``destination_options``, ``card_options``,
  ``first_options``, ``combat.planned_deployment``) and plays greedy's;
- a rollout (``PLAN_ROLLOUT``) first puts the copy into a world of its own
  (``own_world``): what the side cannot see is dealt again (``view.resample``: the
  enemy's unseen blocks and cards; its own draw pile in a new order), from the rollout's
  streams, which then replace the game's (the future dice, draws, bags and tie-breaks),
  and takes the option it tries.

Up to that decision the copy plays what the table has played: the position at the
decision is the side's present, not its future. A commander rehearsing its moves
(``S_PLANNING``) makes no decision of the plan.
"""

from simkit.rng import uniform_int
from simkit.unmanaged import borrowing

from . import layout as L
from . import policies as P
from .view import resample


@borrowing
def plan_at(s, side, kind, greedy, ws):
    """What ``ws.plan`` asks of ``side``'s decision of ``kind`` now (``layout.AT_*``) and
    the choice to play: ``greedy`` (greedy's) unless the decision is forced or tried.
    Counts the decision if searched. The caller lists the options at ``AT_LIST`` and
    deals its own world (``own_world``) at ``AT_TRY``."""
    plan = ws.plan
    if plan[L.PL_MODE] == L.PLAN_OFF or side != plan[L.PL_SIDE] or s[L.S_PLANNING] \
            or (plan[L.PL_KINDS] >> kind) & 1 == 0:
        return L.AT_GREEDY, greedy
    k = plan[L.PL_COUNT]
    plan[L.PL_COUNT] = k + 1
    if k < plan[L.PL_AT]:
        return L.AT_FORCED, plan[L.PL_FORCE + k]
    if k > plan[L.PL_AT] or plan[L.PL_MODE] == L.PLAN_REPLAY or k >= L.MAX_STEP_DECISIONS:
        return L.AT_GREEDY, greedy
    if plan[L.PL_MODE] == L.PLAN_PROBE:
        plan[L.PL_FOUND] = 1
        plan[L.PL_KIND] = kind
        return L.AT_LIST, greedy
    return L.AT_TRY, plan[L.PL_CHOICE]


@borrowing
def planned_destination(blk, card, s, rng, side, dest, dest_mode, dest_fm, look, ws):
    """The destination of the stack whose greedy choice is ``dest``, as ``ws.plan`` asks
    (``dest`` itself when no plan applies)."""
    at, choice = plan_at(s, side, L.D_DESTINATION, dest, ws)
    plan = ws.plan
    if at == L.AT_LIST:
        plan[L.PL_N_OPTIONS] = destination_options(dest, dest_mode, dest_fm,
                                                   look.hands[side, 0], look.dest_score,
                                                   plan[L.PL_OPTIONS:L.PL_OPTIONS + L.MAX_LOC + 1],
                                                   plan[L.PL_SCORES:L.PL_SCORES + L.MAX_LOC + 1])
    elif at == L.AT_TRY:
        own_world(blk, card, s, rng, side, ws)
    return choice


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
        n = insert_option(out, scores, n, v, score)
    return n


@borrowing
def insert_option(out, scores, n, v, score):
    """Option ``v`` into the ``n`` listed after greedy's (``out[0]``), by ``score`` best
    first (stable: an earlier option keeps its place on a tie); the new count."""
    j = n
    while j > 1 and scores[j - 1] < score:
        out[j], scores[j] = out[j - 1], scores[j - 1]
        j -= 1
    out[j], scores[j] = v, score
    return n + 1


@borrowing
def planned_card(blk, card, s, rng, w, side, c, may_pass, ws):
    """The card ``side`` bids (the Turn Order bid; with ``may_pass``, the Initiative
    Challenge or its acceptance, -1 none) where greedy bids ``c``, as ``ws.plan`` asks."""
    at, choice = plan_at(s, side, L.D_BID, c, ws)
    plan = ws.plan
    if at == L.AT_LIST:
        plan[L.PL_N_OPTIONS] = card_options(w, card, s, side, c, may_pass,
                                            plan[L.PL_OPTIONS:L.PL_OPTIONS + L.MAX_DECK + 2],
                                            plan[L.PL_SCORES:L.PL_SCORES + L.MAX_DECK + 2])
    elif at == L.AT_TRY:
        own_world(blk, card, s, rng, side, ws)
    return choice


@borrowing
def card_options(w, card, s, side, c, may_pass, out, scores):
    """The cards ``side`` may bid: greedy's ``c`` first, then bidding none (``may_pass``),
    its highest number (``policies.best_bid``: greedy's bid when it bids to win), then the
    rest of its hand in greedy's discard order (``policies.worst_card``: the card it
    misses least first); their number."""
    out[0] = c
    scores[0] = 1 << 50
    n = 1
    if may_pass and c >= 0:
        out[n], scores[n] = -1, 1 << 49
        n += 1
    top = P.best_bid(card, s, side)
    if top >= 0 and top != c:
        out[n], scores[n] = top, 1 << 48
        n += 1
    for o in range(card.shape[0]):
        if card[o, L.CD_SIDE] != side or s[L.S_C_WHERE + o] != L.CW_HAND or o == c \
                or o == top:
            continue
        n = insert_option(out, scores, n, o,
                          card[o, L.CD_BID] - P.card_value(w, card, o) * 1000)
    return n


@borrowing
def planned_first(blk, card, s, rng, side, first, ws):
    """Who moves first, chosen by ``side`` (6.2, 6.3.1) where greedy chooses ``first``,
    as ``ws.plan`` asks: greedy's choice, then the other side."""
    at, choice = plan_at(s, side, L.D_BID, first, ws)
    plan = ws.plan
    if at == L.AT_LIST:
        plan[L.PL_OPTIONS], plan[L.PL_OPTIONS + 1] = first, 1 - first
        plan[L.PL_N_OPTIONS] = 2
    elif at == L.AT_TRY:
        own_world(blk, card, s, rng, side, ws)
    return choice


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
    ws.plan[L.PL_DEALT] = 1


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
