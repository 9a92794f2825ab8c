"""Reading and changing the Verrix state vector: VP, goods, Divine Will, units and
movement quotes (rulebook: Player Area Setup, Tribesman/Hostage/Leader, Territories, Sea
Areas and Movement). The rules (``actions``, ``battle``, ``engine``) and the policies
both build on these; none of them decides anything.
"""

import numpy as np

from simkit.unmanaged import allocating, borrowing

from . import layout as L


@borrowing
def pl(seat):
    """Offset of a seat's block in the state vector."""
    return L.N_GLOBALS + seat * L.N_PL


@borrowing
def add_vp(g, seat, n):
    """Player Area Setup: Fame may be gained and lost, never below 1 (past 55 the disc
    wraps with the '55' token: the total is kept, ``vp_display`` shows the track), and
    never above ``G_VP_CAP`` (the reading ``vp_past_110``)."""
    b = pl(seat)
    before = g[b + L.PL_VP]
    g[b + L.PL_VP] = min(g[L.G_VP_CAP], max(1, before + n))
    return g[b + L.PL_VP] - before


@borrowing
def vp_display(vp):
    """The track space and the number of '55' tokens under the disc."""
    return (vp - 1) % L.VP_TRACK + 1, (vp - 1) // L.VP_TRACK


@borrowing
def gain_goods(g, seat, good, n):
    """Take up to n of a good from the market to the Village Card (goods are finite)."""
    k = min(n, g[L.G_MARKET + good])
    g[L.G_MARKET + good] -= k
    g[pl(seat) + L.PL_GOODS + good] += k
    return k


@borrowing
def lose_goods(g, seat, good, n):
    """Return up to n of a good from the Village Card to the market."""
    k = min(n, g[pl(seat) + L.PL_GOODS + good])
    g[pl(seat) + L.PL_GOODS + good] -= k
    g[L.G_MARKET + good] += k
    return k


@borrowing
def gain_dw(g, seat, n):
    """Divine Will from the Common Pool (finite: only what the pool holds)."""
    k = min(n, g[L.G_POOL_DW])
    g[L.G_POOL_DW] -= k
    g[pl(seat) + L.PL_DW] += k
    return k


@borrowing
def equipped(g, seat, k, good):
    """Goods of a type equipped on the seat's leader k."""
    b = pl(seat)
    n = 0
    for j in range(L.MAX_SLOTS):
        if g[b + L.PL_EQUIP + k * L.MAX_SLOTS + j] == good:
            n += 1
    return n


@borrowing
def strip_slot(g, seat, k, j):
    """Cleanup: strip a leader, moving the good in slot j of leader k back to the Village
    Card (where it can be traded, raided or equipped again)."""
    e = pl(seat) + L.PL_EQUIP + k * L.MAX_SLOTS + j
    good = g[e]
    if good >= 0:
        g[pl(seat) + L.PL_GOODS + good] += 1
        g[e] = -1
    return good


@borrowing
def leader_bonus(S, g, seat, k, bonus):
    """How many goods giving ``bonus`` the seat's leader k carries."""
    b = pl(seat)
    n = 0
    for j in range(L.MAX_SLOTS):
        good = g[b + L.PL_EQUIP + k * L.MAX_SLOTS + j]
        if good >= 0 and S[L.S_GOODS][good, L.GD_BONUS] == bonus:
            n += 1
    return n


@borrowing
def leader_slots(S, g, seat, k):
    leader = g[pl(seat) + L.PL_LEADER + k]
    tribe = g[pl(seat) + L.PL_TRIBE]
    return S[L.S_LEADERS][leader, L.LD_SLOTS] + S[L.S_TRIBES][tribe, L.TR_EXTRA_SLOT]


@borrowing
def leader_strength(S, g, seat, k):
    """A leader's STRENGTH: its card's value, +1 per strength good equipped."""
    leader = g[pl(seat) + L.PL_LEADER + k]
    return S[L.S_LEADERS][leader, L.LD_STR] + leader_bonus(S, g, seat, k, L.BONUS_STR)


@borrowing
def leader_class(S, g, seat, k):
    return S[L.S_LEADERS][g[pl(seat) + L.PL_LEADER + k], L.LD_CLASS]


@borrowing
def leader_at(g, seat, k):
    return g[pl(seat) + L.PL_LEADER_AT + k]


@borrowing
def eligible(S, g, seat, k, mask):
    """Can the seat's leader k take part in an action open to the classes ``mask``?"""
    return g[pl(seat) + L.PL_LEADER + k] >= 0 and (mask >> leader_class(S, g, seat, k)) & 1


@borrowing
def men_at(g, seat, where):
    """The seat's tribesmen that are ``where`` (AT_AVAILABLE, AT_VILLAGE or AT_TRAVEL)."""
    if where == L.AT_AVAILABLE:
        return g[pl(seat) + L.PL_MEN]
    if where == L.AT_VILLAGE:
        return g[pl(seat) + L.PL_MEN_VILLAGE]
    return g[pl(seat) + L.PL_MEN_TRAVEL]


@borrowing
def strength_at(S, g, seat, mask, where):
    """Total STRENGTH of the seat's units of classes ``mask`` that are ``where``
    (AT_AVAILABLE, AT_VILLAGE or AT_TRAVEL)."""
    total = men_at(g, seat, where) if mask & 1 else 0
    for k in range(L.MAX_LEADERS):
        if eligible(S, g, seat, k, mask) and leader_at(g, seat, k) == where:
            total += leader_strength(S, g, seat, k)
    return total


@borrowing
def units_at(S, g, seat, mask, where):
    """Number of the seat's units of classes ``mask`` that are ``where``."""
    n = men_at(g, seat, where) if mask & 1 else 0
    for k in range(L.MAX_LEADERS):
        if eligible(S, g, seat, k, mask) and leader_at(g, seat, k) == where:
            n += 1
    return n


@borrowing
def engagement_strength(S, g, seat, men, lmask):
    s = men
    for k in range(L.MAX_LEADERS):
        if (lmask >> k) & 1:
            s += leader_strength(S, g, seat, k)
    return s


@borrowing
def engagement_capacity(S, g, seat, men, lmask):
    """Transport capacity: one per unit, +1 per capacity good on an engaged leader."""
    c = men
    for k in range(L.MAX_LEADERS):
        if (lmask >> k) & 1:
            c += 1 + leader_bonus(S, g, seat, k, L.BONUS_CAPACITY)
    return c


@borrowing
def engagement_horses(S, g, seat, lmask):
    """Movement Cost reduction: -1 per engaged leader carrying a movement good."""
    h = 0
    for k in range(L.MAX_LEADERS):
        if (lmask >> k) & 1:
            h += leader_bonus(S, g, seat, k, L.BONUS_MOVE)
    return h


@borrowing
def engage(g, seat, men, lmask, where):
    """Engage available units: on the Village Card (AT_VILLAGE) or the Travel Card."""
    b = pl(seat)
    g[b + L.PL_MEN] -= men
    if where == L.AT_VILLAGE:
        g[b + L.PL_MEN_VILLAGE] += men
    else:
        g[b + L.PL_MEN_TRAVEL] += men
    for k in range(L.MAX_LEADERS):
        if (lmask >> k) & 1:
            g[b + L.PL_LEADER_AT + k] = where


@borrowing
def harbour(S, p):
    """Portum Itium's node."""
    for v in range(p[L.P_N_NODES]):
        if S[L.S_NODES][v, 0] == L.NODE_HARBOUR:
            return v
    return -1


@borrowing
def place_village(g, seat, node):
    """Put one of the seat's village tokens on a territory."""
    b = pl(seat)
    g[L.G_VILLAGE + node] = seat
    g[b + L.PL_VILLAGE_NODE + g[b + L.PL_VILLAGES]] = node
    g[b + L.PL_VILLAGES] += 1


@borrowing
def route(S, p, g, seat, dest):
    """Territories, Sea Areas and Movement: the cheapest trip to ``dest`` from the seat's
    nearest village token on the current tile; returns (cost, start node)."""
    tile = g[L.G_TILE]
    best = 1 << 30
    start = -1
    b = pl(seat)
    for k in range(g[b + L.PL_VILLAGES]):
        v = g[b + L.PL_VILLAGE_NODE + k]
        c = S[L.S_COST][tile * L.MAX_NODES + v, dest]
        if c < best:
            best = c
            start = v
    return best, start


@borrowing
def toll(g, seat, v):
    """1 if territory v holds an opponent's village token (a tribute when crossed)."""
    owner = g[L.G_VILLAGE + v]
    return 1 if owner >= 0 and owner != seat else 0


@borrowing
def cheapest_step(S, p, base, v, u, dest):
    """Is u next to v and on a cheapest trip from v to ``dest``?"""
    return u != v and S[L.S_NEXT][base + v, u] == u and \
        S[L.S_COST][base + v, u] + S[L.S_COST][base + u, dest] == S[L.S_COST][base + v, dest]


@borrowing
def least_tributes(S, p, g, seat, start, dest, best):
    """Fill ``best[v]``: the fewest opponent villages crossed from v to ``dest`` on a
    cheapest trip, for each node v on a cheapest trip from ``start`` (others: 1 << 20).
    Relaxes over the trip's nodes (``layout.S_CHEAPEST``, nearest the destination
    first, so with positive costs one pass settles them and a second confirms)."""
    base = g[L.G_TILE] * L.MAX_NODES
    row = S[L.S_CHEAPEST][(base + start) * L.MAX_NODES + dest]
    count = row[0]
    best[:] = 1 << 20
    best[dest] = 0
    changed = True
    while changed:
        changed = False
        for i in range(2, count + 1):
            w = row[i]
            for j in range(1, count + 1):
                u = row[j]
                if best[u] < 1 << 20 and cheapest_step(S, p, base, w, u, dest):
                    t = best[u] + (toll(g, seat, u) if u != dest else 0)
                    if t < best[w]:
                        best[w] = t
                        changed = True


@borrowing
def table_tribute(S, g, seat, start, dest):
    """Opponent villages crossed on the component table's cheapest trip."""
    base = g[L.G_TILE] * L.MAX_NODES
    n = 0
    v = S[L.S_NEXT][base + start, dest]
    while v != dest and v >= 0:
        n += toll(g, seat, v)
        v = S[L.S_NEXT][base + v, dest]
    return n


@allocating
def least_tribute(S, p, g, seat, start, dest):
    best = np.zeros(p[L.P_N_NODES], dtype=np.int64)
    least_tributes(S, p, g, seat, start, dest, best)
    return best[start]


@borrowing
def tribute_count(S, p, g, seat, start, dest):
    """Territories, Sea Areas and Movement: opponent village tokens crossed (start and
    destination not) on the route taken: of the cheapest trips, one crossing the fewest
    (a tribute-free route when costs tie). Paying less tribute never helps the mover, so
    every player takes it: no policy decides it."""
    n = table_tribute(S, g, seat, start, dest)
    return n if n == 0 else least_tribute(S, p, g, seat, start, dest)


@allocating
def pay_tribute(S, p, g, seat, start, dest):
    """Pay 1 Provisions from the seat's Village Card to each opponent whose village is
    crossed on the route ``tribute_count`` takes; returns the tributes paid."""
    base = g[L.G_TILE] * L.MAX_NODES
    if table_tribute(S, g, seat, start, dest) == 0:
        return 0
    best = np.zeros(p[L.P_N_NODES], dtype=np.int64)
    least_tributes(S, p, g, seat, start, dest, best)
    paid = 0
    v = start
    # zero-cost moves (territory_cost = 0) tie every step: a node is never entered twice
    seen = np.zeros(p[L.P_N_NODES], dtype=np.bool_)
    seen[start] = True
    while v != dest and v >= 0:
        nxt = -1
        for u in range(p[L.P_N_NODES]):
            if not seen[u] and best[u] < 1 << 20 and cheapest_step(S, p, base, v, u, dest) \
                    and best[u] + (toll(g, seat, u) if u != dest else 0) == best[v]:
                nxt = u
                break
        v = nxt
        if v >= 0:
            seen[v] = True
        if v >= 0 and v != dest and toll(g, seat, v):
            g[pl(g[L.G_VILLAGE + v]) + L.PL_GOODS + L.PROVISIONS] += 1
            paid += 1
    return paid


@borrowing
def move_price(S, p, g, seat, dest, reduction):
    """Provisions a trip costs after bonuses; the tribute is owed even if the bonuses
    make the trip free. Returns (price, start)."""
    cost, start = route(S, p, g, seat, dest)
    if start < 0:
        return 1 << 30, start
    if g[pl(seat) + L.PL_FREE_MOVE]:
        cost = 0
    # the table's route is one cheapest trip: its tributes bound the fewest, and only
    # when they exceed the bonused cost can the fewest change the price
    if table_tribute(S, g, seat, start, dest) <= cost - reduction:
        return cost - reduction, start
    price = max(cost - reduction, tribute_count(S, p, g, seat, start, dest))
    return price, start


@borrowing
def nearest_village(S, p, g, seat, target):
    """The ``target`` seat's village token cheapest for ``seat`` to reach."""
    best = 1 << 30
    node = -1
    b = pl(target)
    for k in range(g[b + L.PL_VILLAGES]):
        v = g[b + L.PL_VILLAGE_NODE + k]
        c = route(S, p, g, seat, v)[0]
        if c < best:
            best = c
            node = v
    return node


@borrowing
def held(g, seat, good):
    """Goods of a type on the Village Card and on the seat's Leader Cards."""
    n = g[pl(seat) + L.PL_GOODS + good]
    for k in range(L.MAX_LEADERS):
        n += equipped(g, seat, k, good)
    return n


@borrowing
def goods_types(g, seat):
    n = 0
    for good in range(L.N_GOODS):
        if held(g, seat, good) > 0:
            n += 1
    return n


@borrowing
def animals(S, g, seat):
    n = 0
    for good in range(L.N_GOODS):
        if S[L.S_GOODS][good, L.GD_ANIMAL]:
            n += held(g, seat, good)
    return n


@borrowing
def trophies(g, seat):
    n = 0
    for t in range(L.N_TROPHIES):
        if g[L.G_TROPHY_OWNER + t] == seat:
            n += 1
    return n


@borrowing
def card_op(S, c, k, j):
    """Argument j (0 = opcode) of operation k of card c."""
    return S[L.S_CARDS][c, L.CD_OPS + k * L.OP_WIDTH + j]


@borrowing
def find_op(S, c, op):
    """The index of card c's first operation ``op``, or -1."""
    for k in range(S[L.S_CARDS][c, L.CD_N_OPS]):
        if card_op(S, c, k, 0) == op:
            return k
    return -1


@borrowing
def reavers(S, g, seat, target, field):
    """Orange's ability (``field`` of its tribe row) counts only in Raids on a Village:
    the Sack example (Raid) shows it adds nothing to a Sack of Portum Itium."""
    if target < 0:
        return 0
    return S[L.S_TRIBES][g[pl(seat) + L.PL_TRIBE], field]


@borrowing
def trophy_holder(S, g, power):
    """The seat holding the trophy with ``power`` on its Village Card, or -1."""
    for t in range(L.N_TROPHIES):
        if S[L.S_TROPHIES][t, 0] == power and g[L.G_TROPHY_TRAVEL + t] == 0:
            return g[L.G_TROPHY_OWNER + t]
    return -1


@borrowing
def hostages(g, seat):
    n = 0
    for c in range(L.N_TRIBES):
        n += g[pl(seat) + L.PL_HOSTAGES + c]
    return n


@borrowing
def village_value(S, g, seat):
    """Value of the goods on the seat's Village Card."""
    v = 0
    for good in range(L.N_GOODS):
        v += g[pl(seat) + L.PL_GOODS + good] * S[L.S_GOODS][good, L.GD_VALUE]
    return v
