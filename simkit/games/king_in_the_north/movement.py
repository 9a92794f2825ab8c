"""The Movement Phase (rulebook 7): cards spent, stack moves with their allowances,
garrisons, overruns, recruitment, naval moves and the movement-phase events.

A stack's reach is four breadth-first searches from its Location (``reach``): along
any path, Main Roads only (+1), Trails only (the Carlist 3-Location trail move) and
Main/Secondary roads (cavalry); no search takes a Trail for a stack of more than 5
blocks (7.3.6); a Location holding enemy blocks stops the search unless the stack can
Overrun them (7.6), an enemy Garrison stops it unless the stack has the diamonds to go
on (7.5).
"""

from collections import namedtuple

import numpy as np

from simkit.eventlog import WIDTH as LOG_WIDTH
from simkit.eventlog import log_event
from simkit.rng import WIDTH
from simkit.unmanaged import allocating, borrowing

from . import layout as L
from . import policies as P
from .checks import after_step
from .events import EV_EVENT, EV_GARRISON, EV_MOVE, EV_MOVEMENT_CARDS, EV_OVERRUN, EV_RECRUIT
from .plan import planned_destination
from .state import (
    blocks_at,
    count_action,
    count_at,
    count_blunder,
    cubes_used,
    discard,
    draw_cards,
    eliminate,
    enter,
    hand,
    hand_size,
    holds_special,
    inside_besieged,
    lose_in_combat,
    refresh_control,
    use_event,
)
from .view import UNKNOWN, forget_stack, reveal, reveal_hand, reveal_stack

MODES = 4
SEM_1834B = L.semester_index(1834, "B")  # the Squadrons arrive: no transport (7.4)
M_ANY, M_MAIN, M_TRAIL, M_ROADS = 0, 1, 2, 3

#: Scratch for the Movement Phases' look-aheads and stack moves (``workspace``, one for
#: all the games of a run), so the 150-odd stacks a campaign weighs allocate nothing:
#: ``ids`` (a stack's blocks), ``dest_mode``, ``dest_fm``, ``parents`` (``destinations``),
#: ``work`` and ``allow`` (``destinations_in``), ``seen`` (a slot per Location), ``look``
#: (``policies.Look``) and ``fresh[0]``, 1 while ``look`` holds the state as it stands:
#: only a stack that moves changes what it holds, so a commander weighing stack after
#: stack that stay reads the map once; ``shadow``, ``shadow_rng`` and ``quiet`` (an empty
#: log): the copy of the game a commander plays its moves on before paying for them
#: (``planned_moves``); ``plan`` (``layout.PL_*``; off but in a look-ahead's copies),
#: ``plan_rng`` (a rollout's streams) and ``pool`` (``view.resample``'s scratch): a
#: look-ahead's plan of a step (``plan``).
Workspace = namedtuple("Workspace", ("ids", "dest_mode", "dest_fm", "parents", "work",
                                     "allow", "seen", "look", "fresh", "shadow",
                                     "shadow_rng", "quiet", "plan", "plan_rng", "pool"))


@borrowing
def overrunnable(p, loc, blk, s, where, side, n_blocks):
    """Overrun (7.6): 4x the enemy's blocks with the ``n_blocks`` arriving and those of
    ``side`` already there (7.6.2: "Any forces already committed to fighting in a
    particular Location also offer their strength in Overrunning an enemy force"), not in
    a City/Capital, Fortified House or Mountainous Area."""
    return overrun_allowed(p, loc, where, n_blocks + count_at(s, blk, where, side),
                           count_at(s, blk, where, 1 - side))


@borrowing
def overrun_allowed(p, loc, where, n_blocks, e):
    """``n_blocks`` overrun ``e`` enemy blocks at ``where`` (7.6.1, 7.6.3-7.6.4)?"""
    if e == 0:
        return False
    if loc[where, L.LC_KIND] >= L.CITY or loc[where, L.LC_FH] or loc[where, L.LC_MOUNTAIN]:
        return False
    return n_blocks >= p[L.P_OVERRUN_RATIO] * e


@allocating
def army_counts(loc, blk, s):
    """``count_at`` for both sides and every Location, in one pass over the blocks."""
    out = np.zeros((2, loc.shape[0]), dtype=np.int64)
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_MAP and blk[b, L.BK_TYPE] != L.NAVAL:
            out[s[L.S_B_SIDE + b], s[L.S_B_LOC + b]] += 1
    return out


@borrowing
def garrison_stops(loc, s, where, side, diamonds):
    """An enemy Garrison stops the stack unless it has 3+ diamonds in a town or 5+ in a
    City or Fortified House (7.5)."""
    if s[L.S_CUBE + where] != 2 - side:
        return False
    need = 5 if (loc[where, L.LC_KIND] >= L.CITY or loc[where, L.LC_FH]) else 3
    return diamonds < need


@borrowing
def stops_at(p, loc, s, counts, side, n_blocks, diamonds, out):
    """``out[u]`` = 1 where a moving stack of ``n_blocks`` blocks with ``diamonds`` must
    stop (``counts``: ``army_counts``): enemy blocks it cannot Overrun with the friendly
    blocks already there (7.6), an enemy Garrison it has not the diamonds to pass (7.5).
    One pass, before the searches."""
    for u in range(loc.shape[0]):
        e = counts[1 - side, u]
        out[u] = 1 if (e > 0 and not overrun_allowed(p, loc, u, n_blocks + counts[side, u],
                                                      e)) \
            or garrison_stops(loc, s, u, side, diamonds) else 0


@borrowing
def reach(p, loc, adj, stops, origin, n_blocks, mode, max_steps, dist, parent, queue):
    """Breadth-first distances from ``origin`` along the paths ``mode`` allows
    (``stops``: ``stops_at``; ``queue``: scratch of one slot per Location); Trails
    only for stacks of at most 5 blocks (7.3.6: "Along Trails, the stack limit is
    reduced to 5 blocks"). Neighbours are visited in map order (``LC_NEIGHBOURS``). A
    search to ``max_steps`` gives every Location within fewer steps the distance and
    path tree a shorter search would."""
    trails = n_blocks <= p[L.P_TRAIL_STACK_LIMIT]
    n = loc.shape[0]
    dist[:n] = -1
    parent[:n] = -1
    dist[origin] = 0
    head, tail = 0, 1
    queue[0] = origin
    while head < tail:
        u = queue[head]
        head += 1
        if (u != origin and stops[u]) or dist[u] >= max_steps:
            continue
        for k in range(loc[u, L.LC_DEGREE]):
            v = loc[u, L.LC_NEIGHBOURS + k]
            if dist[v] != -1:
                continue
            kind = adj[u, v]
            if kind == L.TRAIL and not trails:
                continue
            if (mode == M_MAIN and kind != L.MAIN) or (mode == M_TRAIL and kind != L.TRAIL) \
                    or (mode == M_ROADS and kind == L.TRAIL):
                continue
            dist[v] = dist[u] + 1
            parent[v] = u
            queue[tail] = v
            tail += 1


@borrowing
def stack_profile(blk, s, ids, n):
    """(diamonds, all cavalry-like, leader present) of a moving group."""
    d = 0
    cav = True
    leader = False
    for i in range(n):
        b = ids[i]
        t = blk[b, L.BK_TYPE]
        d += blk[b, L.BK_DIAMONDS]
        if t == L.LEADER:
            leader = True
        if not (t == L.CAVALRY or t == L.LANCER or t == L.PARTISANS or t == L.CUSTOMS
                or t == L.DECOY):
            cav = False
    return d, cav, leader


@allocating
def allowances(p, loc, blk, s, side, origin, n, cav, leader_at_origin, trail_option):
    """Allowance per mode without and with a Forced March (7.3.3-7.3.6): base 1, +1 Main
    Roads only, +1 Leader or Capital (not both), +1 Forced March, max 4; cavalry-only
    stacks 2 on roads, no Forced March; Carlist trails 3 for a stack Trails allow (5
    blocks, 7.3.6); "From 7 to 10 blocks, the movement is reduced by 1" (7.3.6), for
    every kind of move."""
    out = np.empty((2, MODES), dtype=np.int64)
    allowances_into(p, loc, side, origin, n, cav, leader_at_origin, trail_option, out)
    return out


@borrowing
def allowances_into(p, loc, side, origin, n, cav, leader_at_origin, trail_option, out):
    """``allowances`` written into ``out`` (2 x MODES)."""
    for fm in range(2):
        for mode in range(MODES):
            out[fm, mode] = 0
    big = 1 if n >= 7 else 0
    if cav:
        out[0, M_ROADS] = 2 - big
        out[0, M_ANY] = 1 - big
        for mode in range(MODES):
            out[1, mode] = out[0, mode]
        return
    lead = 1 if (leader_at_origin or loc[origin, L.LC_KIND] == L.CAPITAL) else 0
    for fm in range(2):
        base = 1 + lead + fm - big
        out[fm, M_ANY] = max(0, min(p[L.P_MAX_MOVE], base))
        out[fm, M_MAIN] = max(0, min(p[L.P_MAX_MOVE], base + 1))
        if trail_option and side == L.CARLISTS and n <= p[L.P_TRAIL_STACK_LIMIT]:
            out[fm, M_TRAIL] = 3 - big


@borrowing
def stack_limit(p, loc, where):
    return p[L.P_TRAIL_STACK_LIMIT] if loc[where, L.LC_TRAIL_ONLY] else p[L.P_STACK_LIMIT]


@allocating
def destinations(p, loc, adj, blk, s, side, origin, ids, n, trail_option, dest_mode, dest_fm,
                 parents):
    """For every Location: the mode reaching it (-1: out of reach) and whether it needs a
    Forced March; ``parents[mode]`` holds each search's path tree."""
    work = np.empty((MODES + 2, loc.shape[0]), dtype=np.int64)
    allow = np.empty((2, MODES), dtype=np.int64)
    here = np.empty(L.MAX_BLOCKS, dtype=np.int64)
    leader = leader_in(blk, here, 0, blocks_at(s, blk, origin, side, here))
    destinations_in(p, loc, adj, blk, s, army_counts(loc, blk, s), side, origin, ids, n,
                    trail_option, dest_mode, dest_fm, parents, leader, work, allow)


@borrowing
def destinations_in(p, loc, adj, blk, s, counts, side, origin, ids, n, trail_option,
                    dest_mode, dest_fm, parents, leader, work, allow):
    """``destinations`` given ``army_counts`` (a look-ahead over every stack counts
    once), whether a Leader stands at ``origin``, and scratch: ``work`` (MODES + 2 rows
    of a slot per Location), ``allow`` (2 x MODES)."""
    d, cav, _ = stack_profile(blk, s, ids, n)
    allowances_into(p, loc, side, origin, n, cav, leader, trail_option, allow)
    nl = loc.shape[0]
    dist = work  # rows 0 .. MODES - 1
    queue = work[MODES]
    stops = work[MODES + 1]
    stops_at(p, loc, s, counts, side, n, d, stops)
    for v in range(nl):
        dest_mode[v] = -1
        dest_fm[v] = 0
    for mode in range(MODES):  # one search per mode, as far as a Forced March goes
        if allow[1, mode] > 0:
            reach(p, loc, adj, stops, origin, n, mode, allow[1, mode], dist[mode],
                  parents[mode], queue)
    for fm in range(2):
        for mode in range(MODES):
            a = allow[fm, mode]
            if a <= 0:
                continue
            for v in range(nl):
                if v == origin or dist[mode, v] < 1 or dist[mode, v] > a or dest_mode[v] >= 0:
                    continue
                if counts[side, v] + n > stack_limit(p, loc, v):
                    continue
                dest_mode[v] = mode
                dest_fm[v] = fm


@borrowing
def movable_group(blk, s, where, side, out):
    """Unmoved blocks of ``side`` at ``where`` that may move (not besieged inside, 8.9.5;
    not Naval Squadrons)."""
    return movable_in(blk, s, out, 0, blocks_at(s, blk, where, side, out), side, where, out)


@allocating
def walk_path(p, loc, blk, card, s, rng, pol, side, origin, dest, parent, ids, n, log):
    """Move ``ids`` along the search tree from ``origin`` to ``dest``: enemy Garrisons
    are removed (7.5), weak enemy stacks Overrun (7.6), Resource Locations change hands
    (4.1.1), Garrisons may be dropped (7.5); Customs Officers meeting a Liberal stack
    leave play (7.3.7). «Blown Bridge» may stop a Liberal stack short (12.1: "An enemy
    stack moving to any one Location may not end their movement there, and must instead
    move back to the previous Location one space before its intended destination"): a
    one-step move stays where it began; the previous Location must have room to end the
    move (our reading of 7.1: "The maximum number of blocks possible in any given
    Location is 10 per side"). Returns where the stack ends."""
    path = np.empty(L.MAX_LOC, dtype=np.int64)
    k = 0
    v = dest
    while v != origin and v >= 0:
        path[k] = v
        k += 1
        v = parent[v]
    if side == L.LIBERALS and k >= 1 and blown_bridge(p, loc, blk, card, s, rng, pol, path,
                                                      k, n, log):
        if k == 1:
            for i in range(n):
                s[L.S_B_MOVED + ids[i]] = 1
            return origin
        dest = path[1]
        path[0:k - 1] = path[1:k].copy()
        k -= 1
    for i in range(k - 1, -1, -1):
        u = path[i]
        if s[L.S_CUBE + u] == 2 - side:
            s[L.S_CUBE + u] = 0
        if count_at(s, blk, u, 1 - side) > 0 and overrunnable(p, loc, blk, s, u, side, n):
            overrun(p, blk, s, u, side, log)
        if loc[u, L.LC_RESOURCE] and count_at(s, blk, u, 1 - side) == 0:
            s[L.S_OWNER + u] = side
        if i > 0 and count_at(s, blk, u, side) == 0 and loc[u, L.LC_VP] > 0 \
                and count_at(s, blk, u, 1 - side) == 0:
            maybe_garrison(p, loc, blk, s, rng, pol, side, u, log)
        refresh_control(s, loc, blk, u)
    for i in range(n):
        b = ids[i]
        s[L.S_B_FROM + b] = origin
        s[L.S_B_LOC + b] = dest
        s[L.S_B_MOVED + b] = 1
        if side == L.CARLISTS and blk[b, L.BK_TYPE] == L.CUSTOMS \
                and count_at(s, blk, dest, L.LIBERALS) > 0:
            reveal_stack(s, blk, dest, L.LIBERALS)  # "may look at the block(s)" (7.3.7)
            s[L.S_B_WHERE + b] = L.W_REMOVED  # "removed from play" (7.3.7), not a loss
    if side == L.LIBERALS:  # Barrels travel with the stack (10)
        s[L.S_BARRELS + dest] += s[L.S_BARRELS + origin]
        s[L.S_BARRELS + origin] = 0
    refresh_control(s, loc, blk, origin)
    refresh_control(s, loc, blk, dest)
    return dest


@borrowing
def blown_bridge(p, loc, blk, card, s, rng, pol, path, k, n, log):
    """Do the Carlists play «Blown Bridge» (12.1, not in 1839) against the ``n`` Liberal
    blocks moving along ``path[k-1] .. path[0]``? The Location one space short (the
    origin of a one-step move) must be free of Carlist blocks and have room."""
    bb = holds_special(s, card, L.CARLISTS, L.EV_BLOWN_BRIDGE)
    if bb < 0 or s[L.S_YEAR] >= L.N_YEARS - 1 or s[L.S_PLANNING]:
        return False
    if k >= 2 and (count_at(s, blk, path[1], L.CARLISTS) > 0
                   or count_at(s, blk, path[1], L.LIBERALS) + n > stack_limit(p, loc, path[1])):
        return False
    if not P.blow_bridge(pol[L.CARLISTS], loc, blk, s, rng, path[0]):
        return False
    use_event(s, card, bb)
    log_event(log, EV_EVENT, L.CARLISTS, L.EV_BLOWN_BRIDGE, path[0])
    return True


@borrowing
def overrun(p, blk, s, where, side, log):
    """The overrun blocks are eliminated; the mover loses nothing (7.6.2). Don Carlos
    overrun wins the game for the Liberals only with the reading ``don_carlos_overrun``
    = "victory" (2.1)."""
    for b in range(blk.shape[0]):
        if s[L.S_B_LOC + b] == where and s[L.S_B_WHERE + b] == L.W_MAP \
                and s[L.S_B_SIDE + b] == 1 - side and blk[b, L.BK_TYPE] != L.NAVAL:
            if p[L.P_OVERRUN_CAPTURES]:
                lose_in_combat(s, blk, b)
            else:
                eliminate(s, blk, b)
    count_action(s, side, L.A_OVERRUNS)
    log_event(log, EV_OVERRUN, side, where, 0)


@borrowing
def maybe_garrison(p, loc, blk, s, rng, pol, side, where, log):
    """Drop a Garrison cube (7.5; at most ``garrison_cubes`` on the map). The cube keeps
    the Location's control: "The player who has at least one block or Garrison cube on
    the City controls it" (4.2), so control is adjusted once it is down (9)."""
    if s[L.S_CUBE + where] != 0 or cubes_used(s, loc, side) >= p[L.P_GARRISONS]:
        return
    if P.place_garrison(pol[side], loc, s, rng, side, where):
        s[L.S_CUBE + where] = side + 1
        refresh_control(s, loc, blk, where)
        count_action(s, side, L.A_GARRISONS)
        log_event(log, EV_GARRISON, side, where, 0)


@allocating
def workspace(loc, card):
    """A ``Workspace``, its ``look`` not yet read."""
    nl = loc.shape[0]
    return Workspace(np.empty(L.MAX_BLOCKS, dtype=np.int64),
                     np.empty(L.MAX_LOC, dtype=np.int64), np.empty(L.MAX_LOC, dtype=np.int64),
                     np.empty((MODES, L.MAX_LOC), dtype=np.int64),
                     np.empty((MODES + 2, nl), dtype=np.int64),
                     np.empty((2, MODES), dtype=np.int64), np.empty(nl, dtype=np.int64),
                     P.new_look(loc, card), np.zeros(1, dtype=np.int64),
                     np.empty(L.N_STATE, dtype=np.int64),
                     np.empty((L.N_STREAMS, WIDTH), dtype=np.uint64),
                     np.zeros((0, LOG_WIDTH), dtype=np.int64), np.zeros(L.N_PLAN, dtype=np.int64),
                     np.empty((L.N_STREAMS, WIDTH), dtype=np.uint64),
                     np.empty(3 * L.MAX_BLOCKS + L.MAX_CARDS, dtype=np.int64))


@borrowing
def move_stack(p, loc, adj, blk, card, s, rng, pol, side, origin, trail_option, ws, log):
    """One stack move: the policy picks a destination (and a Forced March) and how many
    blocks stay; returns True if the stack moved. The blocks left behind may move later
    as another stack (7.3.1: "Blocks beginning this phase in the same Location do not
    necessarily have to move along the same paths nor end up in the same Location"),
    each such move counting as one. Not modelled: one stack dividing on its way to end
    in two Locations as a single move (7.1), or picking up and dropping blocks as it
    goes (7.3.1). ``ws``: ``workspace``."""
    look = look_at_map(loc, blk, card, s, side, ws)
    k = side * loc.shape[0] + origin
    ids = ws.ids
    n = movable_in(blk, s, look.order, look.start[k], look.start[k + 1], side, origin, ids)
    if n == 0:
        return False
    keep = P.blocks_to_keep(pol[side], loc, blk, s, rng, side, origin, ids, n)
    if keep >= n:
        return False
    order_weak_first(blk, ids, n)
    movers = ids[keep:n]
    m = n - keep
    dest_mode, dest_fm, parents = ws.dest_mode, ws.dest_fm, ws.parents
    destinations_in(p, loc, adj, blk, s, look.strength[2:], side, origin, movers, m,
                    trail_option, dest_mode, dest_fm, parents,
                    leader_in(blk, look.order, look.start[k], look.start[k + 1]), ws.work,
                    ws.allow)
    dest = P.choose_destination_in(pol[side], p, loc, blk, card, s, rng, side, origin, movers,
                                   m, dest_mode, dest_fm, look.hands[side, 0],
                                   P.reserve_cards(pol[side], blk, s, side, look), look)
    if ws.plan[L.PL_MODE] != L.PLAN_OFF:  # a look-ahead's copy of the game
        dest = planned_destination(blk, card, s, rng, side, dest, dest_mode, dest_fm, look, ws)
    if dest < 0:
        return False
    if dest_fm[dest]:
        c = P.worst_card(pol[side], card, s, rng, side)
        if c < 0:
            return False
        discard(s, c)
        count_action(s, side, L.A_FORCED_MARCH)
    if dest_mode[dest] == M_TRAIL:
        count_action(s, side, L.A_TRAIL_MOVES)
    ws.fresh[0] = 0  # the stack moves: the map is read again before the next
    record_stack_moved(adj, s, parents[dest_mode[dest]], origin, dest, m)
    held = holds_city(loc, s, origin, side)
    if count_at(s, blk, origin, side) > m:
        forget_stack(s, blk, origin, side)  # which blocks stayed is not shown (7.3.1)
    end = walk_path(p, loc, blk, card, s, rng, pol, side, origin, dest,
                    parents[dest_mode[dest]], movers, m, log)
    if held and count_at(s, blk, origin, side) == 0:
        count_blunder(s, side, L.B_CITY_ABANDONED)
    if count_at(s, blk, origin, side) == 0 and loc[origin, L.LC_VP] > 0 \
            and count_at(s, blk, origin, 1 - side) == 0:
        maybe_garrison(p, loc, blk, s, rng, pol, side, origin, log)
    count_action(s, side, L.A_STACK_MOVES)
    log_event(log, EV_MOVE, side * 1000 + origin, end, m)
    return True


@borrowing
def holds_city(loc, s, where, side):
    """``where`` is a City or Capital ``side`` controls (4.2)."""
    return s[L.S_OWNER + where] == side and loc[where, L.LC_KIND] >= L.CITY


@borrowing
def look_at_map(loc, blk, card, s, side, ws):
    """``ws.look``, read again for ``side`` (``policies.read_map``) unless it holds the
    state as it stands (``ws.fresh[0]``)."""
    if ws.fresh[0] == 0:
        P.read_map(loc, blk, card, s, ws.look, side)
        ws.fresh[0] = 1
    return ws.look


@borrowing
def movable_in(blk, s, order, lo, hi, side, where, out):
    """``movable_group`` from ``order[lo:hi]``, ``side``'s blocks at ``where`` (a bucket of
    ``bucket_blocks``, or ``blocks_at``'s list, which ``out`` may be: it is compacted in
    place)."""
    if inside_besieged(s, where, side):
        return 0
    n = 0
    for i in range(lo, hi):
        b = order[i]
        if s[L.S_B_MOVED + b] == 0 and blk[b, L.BK_TYPE] != L.NAVAL:
            out[n] = b
            n += 1
    return n


@borrowing
def leader_in(blk, order, lo, hi):
    """Whether a Leader stands among the blocks ``order[lo:hi]`` (a bucket of
    ``bucket_blocks``, or ``blocks_at``'s list)."""
    for i in range(lo, hi):
        if blk[order[i], L.BK_TYPE] == L.LEADER:
            return True
    return False


@borrowing
def shadow_copy(s, rng, ws):
    """The game and its random streams copied into ``ws.shadow`` and ``ws.shadow_rng``
    (a commander's rehearsal, ``planned_moves``)."""
    shadow, srng = ws.shadow, ws.shadow_rng
    for i in range(s.shape[0]):
        shadow[i] = s[i]
    for i in range(rng.shape[0]):
        for j in range(rng.shape[1]):
            srng[i, j] = rng[i, j]
    shadow[L.S_PLANNING] = 1
    return shadow, srng


@borrowing
def planned_moves(p, loc, adj, blk, card, s, rng, pol, side, n_cards, paid, ws):
    """The stack moves ``side``'s commander would make with ``n_cards``' worth of
    movement (7.1) once ``paid`` cards are discarded: it plays them on a copy of the game
    (``ws.shadow``) before deciding what to pay, not knowing whether the enemy holds
    «Blown Bridge» (``S_PLANNING``). ``ws``: ``workspace``; its ``look`` is left stale."""
    shadow, srng = shadow_copy(s, rng, ws)
    for _ in range(paid):
        c = P.worst_card(pol[side], card, shadow, srng, side)
        if c >= 0:
            discard(shadow, c)
    moved = stack_moves(p, loc, adj, blk, card, shadow, srng, pol, side, n_cards, ws, ws.quiet)
    ws.fresh[0] = 0
    return moved


@borrowing
def record_stack_moved(adj, s, parent, origin, dest, m):
    """Note the size of a moving stack, and whether its path uses a Trail, for the state
    checks of 7.3.6 (at most 10 blocks on the move, 5 along Trails)."""
    s[L.S_MOVED_STACK] = max(s[L.S_MOVED_STACK], m)
    v = dest
    while v != origin and v >= 0:
        if adj[parent[v], v] == L.TRAIL:
            s[L.S_TRAIL_STACK] = max(s[L.S_TRAIL_STACK], m)
            return
        v = parent[v]


@borrowing
def order_weak_first(blk, ids, n):
    """Sort by ``policies.stay_rank``, the blocks a commander leaves behind first (the
    first ``keep``)."""
    for i in range(1, n):
        x = ids[i]
        v = P.stay_rank(blk, x)
        j = i - 1
        while j >= 0 and P.stay_rank(blk, ids[j]) > v:
            ids[j + 1] = ids[j]
            j -= 1
        ids[j + 1] = x


# -- recruitment (7.2) ---------------------------------------------------------------------
@borrowing
def recruit_blocked(s, counts, where, side):
    """7.2.1: "A Recruitment Location controlled by an enemy stack of 2 or more blocks may
    not receive new blocks", nor one where ``side`` is besieged; "the sieging player may
    recruit blocks even if there are 2 or more enemy blocks present". ``counts``:
    ``army_counts``."""
    if inside_besieged(s, where, side):
        return True
    return counts[1 - side, where] >= 2 and not inside_besieged(s, where, 1 - side)


@borrowing
def recruit_location(loc, fac_home, blk, s, side, f):
    """Where Faction ``f`` recruits: its home; the Foreign Legion may use any unbesieged
    Liberal port when San Sebastián is Carlist or besieged (7.2.1)."""
    home = fac_home[f]
    if f == L.F_LEGION and (s[L.S_OWNER + home] == L.CARLISTS
                            or s[L.S_BESIEGED + home] == 1):
        for i in range(loc.shape[0]):
            if loc[i, L.LC_PORT] and s[L.S_OWNER + i] == L.LIBERALS \
                    and s[L.S_BESIEGED + i] == 0:
                return i
        return -1
    return home


@borrowing
def in_box(blk, s, side, b):
    """Block ``b`` waits in ``side``'s Recruitment Box as one of a Faction's recruits
    (7.2.1): artillery comes "in excess of the maximum number allowed", a Defectors
    Block "may be placed in any Location"."""
    if s[L.S_B_WHERE + b] != L.W_BOX or s[L.S_B_SIDE + b] != side:
        return False
    t = blk[b, L.BK_TYPE]
    return not (t == L.FIELD_ART or t == L.MOUNTAIN_ART or t == L.DEFECTORS)


@borrowing
def box_blocks(blk, s, side, f, any_faction, out):
    """Blocks in ``side``'s Recruitment Box of Faction ``f`` (or any), artillery apart."""
    n = 0
    for b in range(blk.shape[0]):
        if in_box(blk, s, side, b) and (any_faction or blk[b, L.BK_FACTION] == f):
            out[n] = b
            n += 1
    return n


@allocating
def box_counts(blk, s, side):
    """``box_blocks``' counts for each Faction (the last slot: any Faction), in one pass."""
    out = np.zeros(L.N_FACTIONS + 1, dtype=np.int64)
    for b in range(blk.shape[0]):
        if in_box(blk, s, side, b):
            if blk[b, L.BK_FACTION] >= 0:
                out[blk[b, L.BK_FACTION]] += 1
            out[L.N_FACTIONS] += 1
    return out


@allocating
def recruit_options(p, loc, fac_home, any2, blk, s, side, exclude, opts):
    """(location, faction or -1 for 'any 2', blocks placed) of each legal recruitment."""
    n = 0
    box = box_counts(blk, s, side)
    counts = army_counts(loc, blk, s)
    for f in range(L.N_FACTIONS):
        if L.FACTION_SIDE[f] != side:
            continue
        where = recruit_location(loc, fac_home, blk, s, side, f)
        if where < 0 or where == exclude or recruit_blocked(s, counts, where, side):
            continue
        k = min(5, box[f], stack_limit(p, loc, where) - counts[side, where])
        if k > 0:
            opts[n, 0], opts[n, 1], opts[n, 2] = where, f, k
            n += 1
    where = any2[side]
    if where != exclude and not recruit_blocked(s, counts, where, side):
        k = min(2, box[L.N_FACTIONS], stack_limit(p, loc, where) - counts[side, where])
        if k > 0:
            opts[n, 0], opts[n, 1], opts[n, 2] = where, -1, k
            n += 1
    return n


@allocating
def recruit(p, loc, fac_home, any2, blk, card, s, rng, pol, side, exclude, log):
    """One recruitment action (7.2): up to 5 blocks of one Faction (2 of any Faction at
    Castro Urdiales / Elizondo) + 1 artillery; Defectors drawn from an empty bag go to
    any Location with a friendly block (6.4). Returns the Location used or -1."""
    placed_defectors = place_box_defectors(p, loc, blk, s, rng, pol, side, log)
    opts = np.zeros((L.N_FACTIONS + 1, 3), dtype=np.int64)  # the room they leave (7.1)
    n = recruit_options(p, loc, fac_home, any2, blk, s, side, exclude, opts)
    if n == 0:
        return -1 if placed_defectors == 0 else -2
    k = P.choose_recruitment(pol[side], loc, blk, card, s, rng, side, opts, n)
    if k < 0:
        return -1
    where, f, count = opts[k, 0], opts[k, 1], opts[k, 2]
    tmp = np.empty(L.MAX_BLOCKS, dtype=np.int64)
    m = box_blocks(blk, s, side, f, f < 0, tmp)
    order_strong_first(blk, tmp, m)
    for i in range(min(count, m)):
        place(s, tmp[i], where)
    if has_room(p, loc, blk, s, where, side):  # "in excess of" the 5 per Faction only
        for b in range(blk.shape[0]):
            t = blk[b, L.BK_TYPE]
            if s[L.S_B_WHERE + b] == L.W_BOX and s[L.S_B_SIDE + b] == side \
                    and (t == L.FIELD_ART or t == L.MOUNTAIN_ART):
                place(s, b, where)
                break
    enter(s, loc, blk, side, where)  # recruits eliminate an enemy Garrison there (7.5)
    count_action(s, side, L.A_RECRUIT)
    log_event(log, EV_RECRUIT, side, where, count)
    return where


@borrowing
def order_strong_first(blk, ids, n):
    for i in range(1, n):
        x = ids[i]
        j = i - 1
        while j >= 0 and blk[ids[j], L.BK_DIAMONDS] < blk[x, L.BK_DIAMONDS]:
            ids[j + 1] = ids[j]
            j -= 1
        ids[j + 1] = x


@borrowing
def place(s, b, where):
    """Block ``b`` enters the map at ``where``, unknown to the enemy (the callers reveal
    the blocks the enemy sees enter, ``view``)."""
    s[L.S_B_SEEN + b] = UNKNOWN
    s[L.S_B_WHERE + b] = L.W_MAP
    s[L.S_B_LOC + b] = where
    s[L.S_B_MOVED + b] = 1  # recruits do not move this turn (7.2)
    s[L.S_B_FROM + b] = L.FROM_PLACED


@allocating
def join_stack(p, loc, blk, s, rng, pol, side):
    """A Location with a friendly block, not besieged inside, with room for one more
    block (7.1): where Defectors, «El Abuelo», Ceballos and displaced reinforcements
    enter. The policy picks; -1 if none."""
    cands = np.empty(L.MAX_LOC, dtype=np.int64)
    counts = army_counts(loc, blk, s)
    n = 0
    for i in range(loc.shape[0]):
        if not inside_besieged(s, i, side) and 0 < counts[side, i] < stack_limit(p, loc, i):
            cands[n] = i  # a friendly block there and room for one more (``has_room``)
            n += 1
    return P.pick_location(pol[side], loc, blk, s, rng, side, cands, n, P.PICK_JOIN)


@allocating
def any_location(p, loc, blk, s, rng, pol, side):
    """A Location with room for one more block of ``side`` (7.1), not besieged inside:
    the policy picks (as a block joining a stack); -1 if none."""
    cands = np.empty(L.MAX_LOC, dtype=np.int64)
    counts = army_counts(loc, blk, s)
    n = 0
    for i in range(loc.shape[0]):
        if not inside_besieged(s, i, side) and counts[side, i] < stack_limit(p, loc, i):
            cands[n] = i
            n += 1
    return P.pick_location(pol[side], loc, blk, s, rng, side, cands, n, P.PICK_JOIN)


@borrowing
def has_room(p, loc, blk, s, where, side):
    """Can one more block of ``side`` be placed at ``where``? 7.1: "The maximum number of
    blocks possible in any given Location is 10 per side or 5 in Locations accessible
    only by trails"."""
    return count_at(s, blk, where, side) < stack_limit(p, loc, where)


@borrowing
def place_box_defectors(p, loc, blk, s, rng, pol, side, log):
    """Defectors from an empty bag enter with the biggest friendly stack (6.4)."""
    n = 0
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_BOX and s[L.S_B_SIDE + b] == side \
                and blk[b, L.BK_TYPE] == L.DEFECTORS:
            where = join_stack(p, loc, blk, s, rng, pol, side)
            if where >= 0:
                place(s, b, where)
                reveal(s, b)  # a Defectors block (6.4)
                n += 1
    return n


# -- events of the Movement Phase (12) -----------------------------------------------------
@borrowing
def movement_events(p, loc, fac_home, blk, card, s, rng, pol, side, log):
    """Events played before moving: Guerrillas, «El Abuelo», Forced Levies, Local
    Informants (Carlists: "the opposing player shows you their hand of cards", 12.1),
    Field Promotion (Liberals). Returns True if Forced Levies pays for the movement."""
    free_move = False
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] != side or s[L.S_C_WHERE + c] != L.CW_HAND:
            continue
        sp = card[c, L.CD_SPECIAL]
        if sp == L.EV_GUERRILLAS or sp == L.EV_EL_ABUELO or sp == L.EV_PROMOTION \
                or sp == L.EV_INFORMANTS or (sp == L.EV_LEVIES and s[L.S_YEAR] < L.N_YEARS - 2):
            if sp == L.EV_PROMOTION and s[L.S_LIB_LEADERS_LOST] < 2:
                continue
            if not P.play_event(pol[side], s, rng, side, sp):
                continue
            done = False
            if sp == L.EV_GUERRILLAS:
                done = place_guerrillas(p, loc, blk, s, rng, pol, side)
            elif sp == L.EV_INFORMANTS:
                reveal_hand(s, card, 1 - side)
                done = True
            elif sp == L.EV_EL_ABUELO or sp == L.EV_PROMOTION:
                done = place_special(p, loc, blk, s, rng, pol, side,
                                     L.SP_EL_ABUELO if sp == L.EV_EL_ABUELO else L.SP_CEBALLOS)
            else:
                done = forced_levies(p, loc, blk, s, rng, pol, side)
                free_move = free_move or done
            if done:
                use_event(s, card, c)
                log_event(log, EV_EVENT, side, sp, 0)
    return free_move


@allocating
def place_guerrillas(p, loc, blk, s, rng, pol, side):
    """The 3 Guerrilla blocks enter non-City Locations, at most 2 per Location (12.1: "in
    any non-City/Capital Location (max. 2 per Location)", enemy blocks there or not: a
    combat follows, 8.1) and within the stacking limit (7.1); a Resource Location they
    enter becomes Carlist (4.1.1)."""
    placed = 0
    cands = np.empty(L.MAX_LOC, dtype=np.int64)
    for b in range(blk.shape[0]):
        if blk[b, L.BK_TYPE] != L.GUERRILLA or s[L.S_B_WHERE + b] != L.W_RESERVE:
            continue
        n = 0
        for i in range(loc.shape[0]):
            if loc[i, L.LC_KIND] < L.CITY and guerrillas_at(blk, s, i) < 2 \
                    and has_room(p, loc, blk, s, i, side):
                cands[n] = i
                n += 1
        where = P.pick_location(pol[side], loc, blk, s, rng, side, cands, n, P.PICK_GUERRILLA)
        if where < 0:
            break
        place(s, b, where)
        reveal(s, b)  # the Guerrilla blocks the card names (12.1)
        s[L.S_B_MOVED + b] = 0
        enter(s, loc, blk, side, where)  # a Resource Location becomes Carlist (4.1.1)
        placed += 1
    return placed > 0


@borrowing
def guerrillas_at(blk, s, where):
    n = 0
    for b in range(blk.shape[0]):
        if blk[b, L.BK_TYPE] == L.GUERRILLA and s[L.S_B_WHERE + b] == L.W_MAP \
                and s[L.S_B_LOC + b] == where:
            n += 1
    return n


@borrowing
def place_special(p, loc, blk, s, rng, pol, side, special):
    """«El Abuelo» joins a friendly stack (12.1: "place it with a friendly stack");
    Ceballos goes to any Location with room (12.2: "You may place on any location on the
    board the Ceballos leader block"; 7.1), the policy's pick."""
    for b in range(blk.shape[0]):
        if blk[b, L.BK_SPECIAL] == special and s[L.S_B_WHERE + b] == L.W_RESERVE:
            if special == L.SP_CEBALLOS:
                where = any_location(p, loc, blk, s, rng, pol, side)
            else:
                where = join_stack(p, loc, blk, s, rng, pol, side)
            if where < 0:
                return False
            place(s, b, where)
            reveal(s, b)  # the block the card names
            s[L.S_B_MOVED + b] = 0
            enter(s, loc, blk, side, where)  # an enemy Garrison there is eliminated (7.5)
            return True
    return False


@allocating
def forced_levies(p, loc, blk, s, rng, pol, side):
    """Forced Levies: 4 blocks from the Recruitment Box to 4 different Locations, 12.1:
    "(max. 1 Block per Location) that are not currently under siege by the Liberal
    player" (enemy blocks there or not), strongest blocks first, within the stacking
    limit (7.1); the policy picks each."""
    tmp = np.empty(L.MAX_BLOCKS, dtype=np.int64)
    m = box_blocks(blk, s, side, -1, True, tmp)
    order_strong_first(blk, tmp, m)
    used = np.zeros(L.MAX_LOC, dtype=np.int64)
    cands = np.empty(L.MAX_LOC, dtype=np.int64)
    for k in range(min(4, m)):
        n = 0
        for i in range(loc.shape[0]):
            if not used[i] and not inside_besieged(s, i, side) \
                    and has_room(p, loc, blk, s, i, side):
                cands[n] = i
                n += 1
        where = P.pick_location(pol[side], loc, blk, s, rng, side, cands, n, P.PICK_LEVY)
        if where < 0:
            break
        place(s, tmp[k], where)
        used[where] = 1
        enter(s, loc, blk, side, where)
    return True


# -- naval movement (7.3.8, 7.4) -----------------------------------------------------------
@borrowing
def naval_moves(loc, blk, s, rng, pol, log):
    """Each Squadron may sail once per Semester between Ports; none to Bilbao while the
    Carlists hold or besiege Portugalete (11.5)."""
    for b in range(blk.shape[0]):
        if blk[b, L.BK_TYPE] != L.NAVAL or s[L.S_B_WHERE + b] != L.W_MAP \
                or s[L.S_B_MOVED + b] == 1:
            continue
        dest = P.choose_port(pol[L.LIBERALS], loc, blk, s, rng, s[L.S_B_LOC + b])
        if dest >= 0 and estuary_closed(loc, blk, s, dest):
            dest = -1
        if dest >= 0 and dest != s[L.S_B_LOC + b]:
            s[L.S_B_LOC + b] = dest
            log_event(log, EV_MOVE, L.LIBERALS * 1000 + 900, dest, 0)


@allocating
def naval_transport(p, loc, blk, s, rng, pol, log):
    """One transport (7.3.8, 7.4): a Squadron carries up to 2 unmoved blocks from its
    Port to another (even a Carlist one), not in 1834 B when the Squadrons arrive; it
    counts as a stack move and the carried blocks move no further. Returns True if made."""
    if s[L.S_SEMESTER] == SEM_1834B:
        return False
    for b in range(blk.shape[0]):
        if blk[b, L.BK_TYPE] != L.NAVAL or s[L.S_B_WHERE + b] != L.W_MAP \
                or s[L.S_B_MOVED + b] == 1:
            continue
        here = s[L.S_B_LOC + b]
        cargo = np.empty(L.MAX_BLOCKS, dtype=np.int64)
        n = movable_group(blk, s, here, L.LIBERALS, cargo)
        if n == 0:
            continue
        dest = P.transport_port(pol[L.LIBERALS], loc, blk, s, rng, here, n)
        if dest < 0 or dest == here or estuary_closed(loc, blk, s, dest) \
                or count_at(s, blk, dest, L.LIBERALS) + min(2, n) > stack_limit(p, loc, dest):
            continue
        order_strong_first(blk, cargo, n)
        held = holds_city(loc, s, here, L.LIBERALS)
        if count_at(s, blk, here, L.LIBERALS) > 2:
            forget_stack(s, blk, here, L.LIBERALS)  # which 2 sailed is not shown
        for i in range(min(2, n)):
            c = cargo[i]
            s[L.S_B_FROM + c] = here
            s[L.S_B_LOC + c] = dest
            s[L.S_B_MOVED + c] = 1
        s[L.S_B_LOC + b] = dest
        s[L.S_B_MOVED + b] = 1
        if held and count_at(s, blk, here, L.LIBERALS) == 0:
            count_blunder(s, L.LIBERALS, L.B_CITY_ABANDONED)
        refresh_control(s, loc, blk, here)
        enter(s, loc, blk, L.LIBERALS, dest)
        count_action(s, L.LIBERALS, L.A_TRANSPORTS)
        log_event(log, EV_MOVE, L.LIBERALS * 1000 + here, dest, min(2, n))
        return True
    return False


@borrowing
def estuary_closed(loc, blk, s, port):
    """No naval move to Bilbao while the Carlists control Portugalete, or besiege it
    (11.5, 7.3.8)."""
    e = loc[port, L.LC_ESTUARY]
    if e < 0:
        return False
    return s[L.S_OWNER + e] == L.CARLISTS or (
        s[L.S_BESIEGED + e] == 1 and count_at(s, blk, e, L.CARLISTS) > 0)


# -- the phase -----------------------------------------------------------------------------
@borrowing
def pay_movement(loc, card, s, rng, pol, side, n_cards, paid, log):
    """Discard the ``paid`` cards of the movement ``n_cards`` buys (7.1; fewer with
    Forced Levies, 12.1)."""
    for _ in range(paid):
        c = P.worst_card(pol[side], card, s, rng, side)
        if c >= 0:
            discard(s, c)
    count_action(s, side, (L.A_MIN_MOVE, L.A_LIMITED, L.A_UNLIMITED, L.A_TOTAL)[n_cards])
    if n_cards == 3:
        s[L.S_TOTAL_USED + side] = 1
        if side == L.LIBERALS:
            take_barrels(loc, s, rng, pol, log)
    log_event(log, EV_MOVEMENT_CARDS, side, n_cards, paid)


@borrowing
def take_barrels(loc, s, rng, pol, log):
    """The Liberal 3-card option: 2 Barrels into a controlled Capital (7.1)."""
    n = min(2, L.BARRELS - s[L.S_BARRELS_USED])
    if n <= 0:
        return
    where = P.barrel_capital(pol[L.LIBERALS], loc, s, rng)
    if where < 0:
        return
    s[L.S_BARRELS + where] += n
    s[L.S_BARRELS_USED] += n
    count_action(s, L.LIBERALS, L.A_BARRELS)
    log_event(log, EV_GARRISON, L.LIBERALS + 10, where, n)


@allocating
def redraw(card, s, rng, pol, side):
    """Minimum Movement: discard any number of cards and draw as many (7.1)."""
    cards = np.empty(L.MAX_DECK, dtype=np.int64)
    n = hand(s, card, side, cards)
    k = 0
    for i in range(n):
        if P.redraw_card(pol[side], card, s, rng, side, cards[i]):
            discard(s, cards[i])
            k += 1
    if k > 0:
        draw_cards(s, card, rng, side, k)
        count_action(s, side, L.A_REDRAWS, k)


@borrowing
def movement_phase(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, log):
    """Rulebook 7: events, the cards spent, stack moves, recruitments, naval moves. A run
    that checks states checks after the events, each stack move and each recruitment,
    and stops at a broken invariant (``checks``). ``ws``: ``workspace``."""
    ws.fresh[0] = 0
    for b in range(blk.shape[0]):
        s[L.S_B_MOVED + b] = 0
        s[L.S_B_FROM + b] = L.FROM_NONE
    s[L.S_MOVED_STACK] = 0
    s[L.S_TRAIL_STACK] = 0
    levied = movement_events(p, loc, fac_home, blk, card, s, rng, pol, side, log)
    if after_step(p, loc, blk, card, s, log, L.STEP_EVENTS[side]):
        return
    free = levied and not p[L.P_LEVIES_ONE_CARD]  # reading forced_levies = "unlimited"
    rebate = 1 if levied and not free else 0  # "one_card": one card fewer to discard
    n_cards = 2 if free else movement_cards(p, loc, adj, fac_home, any2, blk, card, s, rng,
                                              pol, side, rebate, ws)
    paid = 0 if free else n_cards - rebate
    barrels = s[L.S_ACTIONS + side * L.N_ACTIONS + L.A_BARRELS]
    if not free:
        pay_movement(loc, card, s, rng, pol, side, n_cards, paid, log)
    barrels = s[L.S_ACTIONS + side * L.N_ACTIONS + L.A_BARRELS] > barrels
    trails = s[L.S_ACTIONS + side * L.N_ACTIONS + L.A_TRAIL_MOVES]
    moved = stack_moves(p, loc, adj, blk, card, s, rng, pol, side, n_cards, ws, log)
    if moved < 0:
        return
    recruits = (1, 1, 1, 2)[n_cards]
    if n_cards == 0 and moved > 0:
        recruits = 0
    if n_cards == 1 and moved > 2:
        recruits = 0
    first = -1
    made = 0
    for _ in range(recruits):
        first = recruit(p, loc, fac_home, any2, blk, card, s, rng, pol, side, first, log)
        if first != -1:
            made += 1
        if after_step(p, loc, blk, card, s, log, L.STEP_RECRUITMENT[side]):
            return
    if paid > 0 and moved == 0 and made <= 1:
        count_blunder(s, side, L.B_UNUSED_MOVE)
    trails = s[L.S_ACTIONS + side * L.N_ACTIONS + L.A_TRAIL_MOVES] > trails
    needed = cards_needed(moved, made, trails, barrels)
    if paid > max(0, needed - rebate):
        count_blunder(s, side, L.B_OVERPAID_MOVE, paid - max(0, needed - rebate))
    if side == L.LIBERALS:
        naval_moves(loc, blk, s, rng, pol, log)
    if n_cards == 0 or (n_cards == 3 and side == L.LIBERALS and p[L.P_TOTAL_REDRAW]):
        redraw(card, s, rng, pol, side)  # Minimum Movement; the Liberals' Total (7.1)


@borrowing
def cards_needed(moved, recruited, trails, barrels):
    """The fewest cards that buy ``moved`` stack moves and ``recruited`` recruitments
    (7.1: 0 cards, 1 stack or 1 recruitment; 1, 3 stacks or 2 and 1 recruitment; 2, all
    stacks and 1 recruitment; 3, all stacks and 2 recruitments, the Liberals' Barrels),
    with a Carlist Trail move (7.3.3: "The Carlist Player discards 2 or 3 cards")."""
    if recruited >= 2 or barrels:
        return 3
    if trails or moved > 3 or moved + recruited > 3:
        return 2
    if moved + recruited > 1:
        return 1
    return 0


@borrowing
def movement_cards(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, rebate, ws):
    """The cards' worth of movement the policy takes (7.1): a scripted commander plays
    its moves ahead (``planned_moves``) with Limited Movement and the hand it would keep,
    and with Unlimited Movement when Limited runs out of stacks, and counts the
    recruitments it can make (``recruitments_possible``), then pays for what it would do
    (``policies.movement_cards``). ``rebate``: cards Forced Levies saves (at least Limited
    Movement is then taken, it costs nothing). ``ws``: ``workspace``."""
    w = pol[side]
    if w[L.W_ID] == P.RANDOM:
        return max(P.movement_cards(w, card, s, rng, side, 0, 0, 0), rebate)
    limited = planned_moves(p, loc, adj, blk, card, s, rng, pol, side, 1, 1 - rebate, ws)
    unlimited = limited
    if limited >= 3 and hand_size(s, card, side) >= 2 - rebate:
        unlimited = planned_moves(p, loc, adj, blk, card, s, rng, pol, side, 2, 2 - rebate,
                                  ws)
    r = recruitments_possible(p, loc, fac_home, any2, blk, card, s, rng, pol, side, ws)
    return max(P.movement_cards(w, card, s, rng, side, limited, unlimited, r), rebate)


@borrowing
def recruitments_possible(p, loc, fac_home, any2, blk, card, s, rng, pol, side, ws):
    """Recruitment actions (7.2) ``side``'s commander would make now: 0, 1, or 2 (the
    Total option's, in two Locations, 7.2.1), made on a copy of the game (``ws.shadow``,
    as ``planned_moves``)."""
    shadow, srng = shadow_copy(s, rng, ws)
    first = recruit(p, loc, fac_home, any2, blk, card, shadow, srng, pol, side, -1, ws.quiet)
    if first == -1:
        return 0
    second = recruit(p, loc, fac_home, any2, blk, card, shadow, srng, pol, side, first,
                     ws.quiet)
    return 1 if second == -1 else 2


@borrowing
def stack_moves(p, loc, adj, blk, card, s, rng, pol, side, n_cards, ws, log):
    """The stack moves ``n_cards`` allow (7.1): a Liberal naval transport first, then the
    stacks the policy picks. Returns the stacks moved, -1 if a state check failed.
    ``ws``: ``workspace``."""
    stacks_allowed = (1, 3, 99, 99)[n_cards]
    moved = 0
    if side == L.LIBERALS and moved < stacks_allowed \
            and naval_transport(p, loc, blk, s, rng, pol, log):
        moved += 1
        if after_step(p, loc, blk, card, s, log, L.STEP_STACK_MOVE[side]):
            return -1
    ws.fresh[0] = 0  # the cards paid, the transport made
    for _ in range(2 * loc.shape[0]):  # an origin comes back for the blocks left there
        if moved >= stacks_allowed or s[L.S_DONE]:
            break
        look = look_at_map(loc, blk, card, s, side, ws)
        origin = P.next_stack(pol[side], loc, blk, s, rng, side, look, ws.seen)
        if origin < 0:
            break
        if move_stack(p, loc, adj, blk, card, s, rng, pol, side, origin, n_cards >= 2, ws,
                      log):
            moved += 1
            if after_step(p, loc, blk, card, s, log, L.STEP_STACK_MOVE[side]):
                return -1
        else:  # the blocks there stay for the phase; a stack that stays leaves the map
            k = side * loc.shape[0] + origin  # as it was, and ``look`` with it
            for j in range(look.start[k], look.start[k + 1]):
                s[L.S_B_MOVED + look.order[j]] = 1
    return moved
