"""Action cards (rulebook: Action, Reaction and Support; Development; Trade; Raid) and
their effect operations, one njit helper per operation, plus the legality of each action.

A card is played by ``play_card``: mark it played (or boxed), engage its units (Village
Card for Village actions, Travel Card otherwise), pay the Movement Cost, run its
operations. The policies choose units, targets, trades and loot (``policies``).

Where the rulebook is silent: hostages trade at one value for every tribe, the
``[hostage]`` value of ``data/goods.toml`` (reconstructed: the Portum Itium Card's values
are not printed); a Trade's goods and hostages are priced together, in one plan. Two
declared readings (``rules``) act here: ``sack_hostages``, whether a Sack may take the
market's tribesmen (any tribesman there is a hostage; one's own come home as tribesmen
at Cleanup), and ``raid_support``, whether others may Support a raided Village, as in a
Battle: players who have not passed pay the Movement Cost to the defender's village,
engage units of the raid card's classes on their Travel Cards and gain nothing; the
defender may refuse.
"""

import numpy as np
from numba import njit

from simkit.eventlog import log_event
from simkit.rng import uniform_int
from simkit.unmanaged import allocating, borrowing

from . import layout as L
from . import policies as PO
from .events import (
    EV_CARD,
    EV_DW,
    EV_ENGAGE,
    EV_GAIN,
    EV_HOSTAGE_TRADE,
    EV_LEARN,
    EV_LOOT,
    EV_MOVE,
    EV_PROMOTE,
    EV_RAID,
    EV_SUPPORT,
    EV_TRADE,
    EV_TROPHY,
    EV_VILLAGE,
    EV_VP,
)
from .state import (
    add_vp,
    card_op,
    engage,
    engagement_capacity,
    engagement_horses,
    engagement_strength,
    find_op,
    gain_dw,
    gain_goods,
    harbour,
    move_price,
    nearest_village,
    pay_tribute,
    pl,
    place_village,
    reavers,
    strength_at,
    trophy_holder,
    village_value,
)

TARGET_NONE = -1
TARGET_MARKET = -2


@borrowing
def vp(g, seat, n, log):
    d = add_vp(g, seat, n)
    log_event(log, EV_VP, seat, d, g[pl(seat) + L.PL_VP])
    return d


@borrowing
def destination(S, p, g, seat, c, target):
    """Where the action takes place: the seat's own village (-1: no movement), Portum
    Itium, the target's nearest village, or the Clan Pact site (chosen later)."""
    loc = S[L.S_CARDS][c, L.CD_LOCATION]
    if loc == L.LOC_VILLAGE:
        return -1
    if loc == L.LOC_PORTUM:
        return harbour(S, p)
    if target >= 0:
        return nearest_village(S, p, g, seat, target)
    return -1


# -- Clan Pact sites -------------------------------------------------------------------------
@borrowing
def is_clan_pact_site(S, g, b, v):
    """Clan Pact: ``v`` is an unoccupied territory adjacent to a territory with one of
    the villages of the seat whose block starts at ``b`` (adjacency: a move of one
    step)."""
    if S[L.S_NODES][v, 0] != L.NODE_TERRITORY or g[L.G_VILLAGE + v] >= 0:
        return False
    for k in range(g[b + L.PL_VILLAGES]):
        if S[L.S_NEXT][g[b + L.PL_VILLAGE_NODE + k], v] == v:
            return True
    return False


@borrowing
def clan_pact_sites(S, p, g, seat, out):
    """Every Clan Pact site of the seat (``is_clan_pact_site``) into ``out``."""
    n = 0
    b = pl(seat)
    for v in range(p[L.P_N_NODES]):
        if is_clan_pact_site(S, g, b, v):
            out[n] = v
            n += 1
    return n


@borrowing
def any_clan_pact_site(S, p, g, seat):
    """Has the seat a Clan Pact site (``clan_pact_sites``, stopping at the first)?"""
    b = pl(seat)
    for v in range(p[L.P_N_NODES]):
        if is_clan_pact_site(S, g, b, v):
            return True
    return False


@allocating
def clan_pact_site(S, p, pol, g, seat, reduction):
    """The site the seat's Clan Pact would take (``PO.pick_site``; ``reduction``: the
    trip's bonuses), or -1."""
    buf = np.zeros(L.MAX_NODES, dtype=np.int64)
    return PO.pick_site(S, p, pol, g, seat, buf, clan_pact_sites(S, p, g, seat, buf),
                        reduction)


@allocating
def random_clan_pact_site(S, p, g, rng, seat, reduction):
    """The site ``random``'s Clan Pact takes (``PO.random_site``), or -1."""
    buf = np.zeros(L.MAX_NODES, dtype=np.int64)
    return PO.random_site(S, p, g, rng, seat, buf, clan_pact_sites(S, p, g, seat, buf),
                          reduction)


# -- legality ---------------------------------------------------------------------------------
@borrowing
def any_learnable(S, p, g, seat):
    """Can the seat learn a Special card (``learnable``, stopping at the first)?"""
    for c in range(p[L.P_N_CARDS]):
        if g[pl(seat) + L.PL_CARD + c] == L.CARD_UNLEARNED:
            men, _ = PO.choose_engagement(S, g, seat, S[L.S_CARDS][c, L.CD_COST],
                                          S[L.S_CARDS][c, L.CD_UNITS], 0)
            if men >= 0:
                return True
    return False


@borrowing
def learnable(S, p, g, seat, out):
    """Learning: the unlearned Special cards the seat can engage enough units for."""
    n = 0
    for c in range(p[L.P_N_CARDS]):
        if g[pl(seat) + L.PL_CARD + c] == L.CARD_UNLEARNED:
            men, _ = PO.choose_engagement(S, g, seat, S[L.S_CARDS][c, L.CD_COST],
                                          S[L.S_CARDS][c, L.CD_UNITS], 0)
            if men >= 0:
                out[n] = c
                n += 1
    return n


@borrowing
def target_fits(S, c, target, seat):
    """A Trade or Raid away needs an opponent as target; at Portum Itium, the market."""
    if find_op(S, c, L.OP_TRADE) < 0 and find_op(S, c, L.OP_RAID) < 0:
        return True
    loc = S[L.S_CARDS][c, L.CD_LOCATION]
    if loc == L.LOC_AWAY and (target < 0 or target == seat):
        return False
    return not (loc == L.LOC_PORTUM and target != TARGET_MARKET)


@borrowing
def conditions_met(S, p, g, seat, c):
    """The card's conditions that do not depend on its target: goods to pay, a Special
    card to learn, a grey leader to promote, a site for a Clan Pact, a trophy and the
    goods to pay for it."""
    b = pl(seat)
    for k in range(S[L.S_CARDS][c, L.CD_N_OPS]):
        op = card_op(S, c, k, 0)
        a = card_op(S, c, k, 1)
        if op == L.OP_PAY and g[b + L.PL_GOODS + a] < card_op(S, c, k, 2):
            return False
        if op == L.OP_LEARN and not any_learnable(S, p, g, seat):
            return False
        if op == L.OP_PROMOTE:
            if g[L.G_GREY_MEEPLES] == 0 or g[b + L.PL_LEADER + 1] >= 0 or \
                    PO.pick_grey_leader(S, g) < 0:
                return False
        if op == L.OP_CLAN_PACT:
            if g[b + L.PL_VILLAGES] >= 3 or not any_clan_pact_site(S, p, g, seat):
                return False
        if op == L.OP_TROPHY:
            if PO.pick_trophy(S, g) < 0 or village_value(S, g, seat) < a:
                return False
    return True


@borrowing
def playable(S, p, g, seat, c):
    """Card c is in hand, an Action card, and its target-free conditions are met."""
    return g[pl(seat) + L.PL_CARD + c] == L.CARD_HAND and \
        S[L.S_CARDS][c, L.CD_TYPE] != L.CT_BATTLE and conditions_met(S, p, g, seat, c)


@allocating
def legal_engagement(S, p, pol, g, seat, c, target):
    """The units a legal play of card c would engage (tribesmen, leader mask), as the
    seat chooses them (``PO.action_units``), or (-1, 0) if the card cannot be played: not
    in hand, not enough STRENGTH, a condition unmet, or not enough Provisions for the
    Movement Cost. Away, the leaders of the card's classes that ``PO.riders`` offers join
    when their Horse lowers the Movement Cost (the Sack example, Raid: Sive rides along)."""
    if not target_fits(S, c, target, seat) or not playable(S, p, g, seat, c):
        return -1, 0
    if find_op(S, c, L.OP_LEARN) >= 0:
        return 0, 0
    men, lmask = PO.action_units(S, p, pol, g, seat, c, target)
    return trip_engagement(S, p, pol, g, seat, c, target, men, lmask)


@borrowing
def trip_engagement(S, p, pol, g, seat, c, target, men, lmask):
    """``legal_engagement`` once the card is playable and its units chosen (men < 0:
    not enough STRENGTH): the riders that lower the Movement Cost join, and the trip
    must be affordable."""
    if find_op(S, c, L.OP_LEARN) >= 0:
        return 0, 0  # Learning: the chosen Special card's cost and units apply
    if men < 0:
        return -1, 0
    dest = destination(S, p, g, seat, c, target)
    if find_op(S, c, L.OP_CLAN_PACT) >= 0:
        dest = clan_pact_site(S, p, pol, g, seat, travel_reduction(S, g, seat, c, lmask))
    if dest >= 0:
        price, _ = move_price(S, p, g, seat, dest, travel_reduction(S, g, seat, c, lmask))
        riders = PO.riders(S, g, seat, S[L.S_CARDS][c, L.CD_UNITS], lmask)
        for k in range(L.MAX_LEADERS):
            if (riders >> k) & 1:
                with_k = lmask | (1 << k)
                cheaper, _ = move_price(S, p, g, seat, dest,
                                        travel_reduction(S, g, seat, c, with_k))
                if cheaper < price:
                    lmask = with_k
                    price = cheaper
        if price > g[pl(seat) + L.PL_GOODS + L.PROVISIONS]:
            return -1, 0
    return men, lmask


@borrowing
def travel_reduction(S, g, seat, c, lmask):
    """Movement Cost bonuses: Horses on engaged leaders; Green's discount on its Trades
    at Portum Itium."""
    r = engagement_horses(S, g, seat, lmask)
    if market_trade(S, c):
        r += S[L.S_TRIBES][g[pl(seat) + L.PL_TRIBE], L.TR_TRADE_DISCOUNT]
    return r


@borrowing
def market_trade(S, c):
    """Is card c a Trade with the Portum Itium market (where Green's ability applies:
    the Celebration example, Trade, shows it adds nothing to a Trade with a Village)?"""
    return c >= 0 and S[L.S_CARDS][c, L.CD_TYPE] == L.CT_TRADE and \
        S[L.S_CARDS][c, L.CD_LOCATION] == L.LOC_PORTUM


@borrowing
def trade_capacity(S, g, seat, c, men, lmask, extra):
    """Trade: transport capacity, units plus leader bonuses plus the card's ``extra``,
    plus Green's on its Trades at Portum Itium."""
    cap = engagement_capacity(S, g, seat, men, lmask) + extra
    if market_trade(S, c):
        cap += S[L.S_TRIBES][g[pl(seat) + L.PL_TRIBE], L.TR_TRADE_CAPACITY]
    return cap


# -- movement --------------------------------------------------------------------------------
@borrowing
def pay_movement(S, p, g, seat, dest, reduction, log):
    """Territories, Sea Areas and Movement: pay the trip in Provisions to the market,
    one of them as tribute to each opponent whose village territory is crossed."""
    price, start = move_price(S, p, g, seat, dest, reduction)
    b = pl(seat)
    g[b + L.PL_GOODS + L.PROVISIONS] -= price
    paid_tribute = pay_tribute(S, p, g, seat, start, dest)
    g[L.G_MARKET + L.PROVISIONS] += price - paid_tribute
    g[b + L.PL_FREE_MOVE] = 0
    log_event(log, EV_MOVE, dest, price, paid_tribute)
    return price


# -- operations -----------------------------------------------------------------------------
@borrowing
def op_gain(S, p, g, seat, good, n, log):
    """Development: produced goods go to the Village Card. The Cauldron of Murias makes
    Cooking take 1 Provisions more, from the opponent Village holding most
    (Development: the Cooking example)."""
    got = gain_goods(g, seat, good, n)
    log_event(log, EV_GAIN, seat, good, got)
    return got


@borrowing
def cauldron(S, p, g, seat, log):
    """Cauldron of Murias (trophy): with Cooking, take 1 Provisions from the opponent
    Village Card holding most."""
    if trophy_holder(S, g, L.TP_COOKING) != seat:
        return
    best = -1
    for s in range(p[L.P_PLAYERS]):
        if s != seat and g[pl(s) + L.PL_GOODS + L.PROVISIONS] > 0:
            if best < 0 or g[pl(s) + L.PL_GOODS + L.PROVISIONS] > \
                    g[pl(best) + L.PL_GOODS + L.PROVISIONS]:
                best = s
    if best >= 0:
        g[pl(best) + L.PL_GOODS + L.PROVISIONS] -= 1
        g[pl(seat) + L.PL_GOODS + L.PROVISIONS] += 1
        log_event(log, EV_GAIN, seat, L.PROVISIONS, 1)


@njit(cache=True, nogil=True)
def op_learn(S, p, pol, g, rng, seat, log):
    """Learning: add a Special card to the deck, usable this Month Turn, engaging units
    for its cost; +1 VP. Learning is boxed once every Special card is learned."""
    buf = np.zeros(L.MAX_NODES, dtype=np.int64)
    n = learnable(S, p, g, seat, buf)
    c = PO.pick_special(pol, rng, seat, buf, n)
    chosen = g[pl(seat) + L.PL_LEARN_CHOICE]
    for i in range(n):
        if buf[i] == chosen:
            c = chosen
    g[pl(seat) + L.PL_LEARN_CHOICE] = -1
    if c < 0:
        return 0
    men, lmask = PO.choose_engagement(S, g, seat, S[L.S_CARDS][c, L.CD_COST],
                                      S[L.S_CARDS][c, L.CD_UNITS], 0)
    engage(g, seat, men, lmask, L.AT_VILLAGE)
    log_event(log, EV_ENGAGE, men, lmask, engagement_strength(S, g, seat, men, lmask))
    g[pl(seat) + L.PL_CARD + c] = L.CARD_HAND
    log_event(log, EV_LEARN, seat, c)
    vp(g, seat, 1, log)
    return c


@borrowing
def all_learned(p, g, seat):
    for c in range(p[L.P_N_CARDS]):
        if g[pl(seat) + L.PL_CARD + c] == L.CARD_UNLEARNED:
            return False
    return True


@borrowing
def op_promote(S, p, g, seat, men, log):
    """Promote Tribesman: the engaged tribesman goes to the market; a grey leader card
    and meeple join, available at once."""
    b = pl(seat)
    if men > 0:
        g[b + L.PL_MEN_VILLAGE] -= 1
        g[L.G_MARKET_MEN + g[b + L.PL_TRIBE]] += 1
    leader = PO.pick_grey_leader(S, g)
    g[L.G_GREY_TAKEN + leader] = 1
    g[L.G_GREY_MEEPLES] -= 1
    g[b + L.PL_LEADER + 1] = leader
    g[b + L.PL_LEADER_AT + 1] = L.AT_AVAILABLE
    log_event(log, EV_PROMOTE, seat, leader)


@njit(cache=True, nogil=True)
def op_trade(S, p, pol, g, seat, target, capacity, bonus_vp, log):
    """Trade: sell up to capacity goods and hostages and buy up to capacity goods and
    hostages, the value sold at least the value bought (no change); the target must
    accept. Sold items go to the market or the target's Village Card, bought ones to the
    Travel Card (one's own tribesmen bought come home at Cleanup). The whole trade is
    planned at once (``PO.trade_plan``), after the trip is paid. Returns the items
    bought."""
    b = pl(seat)
    plan = np.zeros(PO.PLAN_SIZE, dtype=np.int64)
    PO.trade_plan(S, p, pol, g, seat, target, capacity,
                  pol[seat, L.W_VP_POINTS] * bonus_vp, plan)
    sold = 0
    bought = 0
    for good in range(L.N_GOODS):
        n_sell = plan[good]
        n_buy = plan[PO.N_KINDS + good]
        g[b + L.PL_GOODS + good] -= n_sell
        g[b + L.PL_TRAVEL_GOODS + good] += n_buy
        if target < 0:
            g[L.G_MARKET + good] += n_sell - n_buy
        else:
            g[pl(target) + L.PL_GOODS + good] += n_sell - n_buy
        sold += n_sell
        bought += n_buy
    log_event(log, EV_TRADE, seat, sold, bought)
    h_sold = 0
    h_bought = 0
    for c in range(L.N_TRIBES):
        out = plan[L.N_GOODS + c]
        into = plan[PO.N_KINDS + L.N_GOODS + c]
        g[b + L.PL_HOSTAGES + c] -= out
        g[b + L.PL_TRAVEL_HOSTAGES + c] += into
        if target < 0:
            g[L.G_MARKET_MEN + c] += out - into
        else:
            g[pl(target) + L.PL_HOSTAGES + c] += out - into
        h_sold += out
        h_bought += into
    if h_sold + h_bought > 0:
        log_event(log, EV_HOSTAGE_TRADE, seat, h_sold, h_bought)
    bought += h_bought
    if bought > 0:
        vp(g, seat, bonus_vp, log)
    return bought


@borrowing
def take_item(S, g, seat, victim, item, log):
    """Move one stolen item to the raider's Travel Card."""
    b = pl(seat)
    if item < L.N_GOODS:
        if victim >= 0:
            g[pl(victim) + L.PL_GOODS + item] -= 1
        else:
            g[L.G_MARKET + item] -= 1
        g[b + L.PL_TRAVEL_GOODS + item] += 1
        log_event(log, EV_LOOT, item, 1)
        return S[L.S_GOODS][item, L.GD_VALUE]
    if item < L.N_GOODS + L.N_TROPHIES:
        t = item - L.N_GOODS
        g[L.G_TROPHY_OWNER + t] = seat
        g[L.G_TROPHY_TRAVEL + t] = 1
        log_event(log, EV_LOOT, item, 1)
        return 6
    colour = item - L.N_GOODS - L.N_TROPHIES
    if victim >= 0:
        g[pl(victim) + L.PL_HOSTAGES + colour] -= 1
    else:
        g[L.G_MARKET_MEN + colour] -= 1  # Sack: any tribesman in the market is a hostage
    g[b + L.PL_TRAVEL_HOSTAGES + colour] += 1
    log_event(log, EV_LOOT, item, 1)
    return 3


@borrowing
def morrigan_draw(p, pol, g, rng, seat, policy_margin, keep_out):
    """Draw a Mórrígan token from the bag (1 Divine Will: two, keep the higher, the other
    goes back at once). ``keep_out``: the token stays out of the bag (Battles)."""
    n = 0
    for t in range(L.N_TOKENS):
        n += g[L.G_BAG + t]
    if n == 0:
        return 0
    two = PO.second_token(pol, g, seat, policy_margin) and n >= 2
    if two:
        g[pl(seat) + L.PL_DW] -= 1
        g[L.G_POOL_DW] += 1
    first = _draw(g, rng)
    best = first
    if two:
        second = _draw(g, rng)
        if p[L.P_MORRIGAN + second] > p[L.P_MORRIGAN + first]:
            best = second
            g[L.G_BAG + first] = 1
        else:
            g[L.G_BAG + second] = 1
    if not keep_out:
        g[L.G_BAG + best] = 1
    return p[L.P_MORRIGAN + best]


@borrowing
def _draw(g, rng):
    n = 0
    for t in range(L.N_TOKENS):
        n += g[L.G_BAG + t]
    k = uniform_int(rng, L.ST_MORRIGAN, n)
    for t in range(L.N_TOKENS):
        if g[L.G_BAG + t]:
            if k == 0:
                g[L.G_BAG + t] = 0
                return t
            k -= 1
    return -1


@borrowing
def op_raid(S, p, pol, g, rng, seat, c, k, target, men, lmask, log):
    """Raid: the target reacts with the units of the card's classes already engaged on
    its Village (they must defend) plus any it adds, and draws a Mórrígan token; the raid
    succeeds only if the attacker's STRENGTH is higher. Sack (Portum Itium) needs no
    contest. The winner takes up to its transport capacity to the Travel Card. Returns
    -1 if the raid fails, else the bit mask of the goods types taken."""
    b = pl(seat)
    mask = S[L.S_CARDS][c, L.CD_UNITS]
    capacity = engagement_capacity(S, g, seat, men, lmask) + card_op(S, c, k, 3) + \
        reavers(S, g, seat, target, L.TR_RAID_CAPACITY)
    steal = card_op(S, c, k, 4)
    g[b + L.PL_N_RAID] += 1
    if target >= 0:
        attack = engagement_strength(S, g, seat, men, lmask) + card_op(S, c, k, 1) + \
            reavers(S, g, seat, target, L.TR_RAID_STR)
        if trophy_holder(S, g, L.TP_STRENGTH) == seat:
            attack += 1
        base = strength_at(S, g, target, mask, L.AT_VILLAGE) + card_op(S, c, k, 2)
        if trophy_holder(S, g, L.TP_STRENGTH) == target:
            base += 1
        xmen, xl = PO.defence_commit(S, p, g, target, mask, attack, base)
        engage(g, target, xmen, xl, L.AT_VILLAGE)
        defence = base + engagement_strength(S, g, target, xmen, xl)
        defence += raid_supporters(S, p, g, seat, target, mask, attack, defence, log)
        defence = max(defence, 0)
        token = morrigan_draw(p, pol, g, rng, target, PO.raid_token_margin(p, g, attack, defence),
                              False)
        g[pl(target) + L.PL_N_DEFEND] += 1
        log_event(log, EV_RAID, attack, defence, token)
        if attack <= defence + token:
            return -1
    g[b + L.PL_N_RAID_WON] += 1
    loot = 0
    hostages_taken = 0
    kinds = 0
    tv = find_op(S, c, L.OP_TYPES_VP)
    types_vp = card_op(S, c, tv, 1) if tv >= 0 else 0
    for i in range(capacity):
        item = PO.steal_pick(S, p, pol, g, seat, target, steal, target < 0, types_vp, kinds,
                             capacity - i)
        if item < 0:
            break
        loot += take_item(S, g, seat, target, item, log)
        if item >= L.N_GOODS + L.N_TROPHIES:
            hostages_taken += 1
        elif item < L.N_GOODS:
            kinds |= 1 << item
    g[b + L.PL_RAID_LOOT] += loot
    vp(g, seat, card_op(S, c, k, 5) * hostages_taken + reavers(S, g, seat, target, L.TR_RAID_VP),
       log)
    return kinds


@borrowing
def raid_supporters(S, p, g, raider, target, mask, attack, defence, log):
    """Support for a raided Village ("Siding with ... an opposing player who is making a
    Reaction to defend himself, is considered Support"): in playing order, players who
    have not passed and can pay the Movement Cost to the target's village may engage
    available units of the raid card's classes on their Travel Cards, adding their
    STRENGTH to the defence; the defender may refuse. Returns the STRENGTH added.
    The reading ``raid_support`` (the rulebook details Support only for Battles):
    ``defenders``, the supporters travel and engage as in a Battle and gain nothing but
    the raid's failure; ``none``, no one supports a raided Village."""
    added = 0
    if p[L.P_RAID_SUPPORT] == L.RAID_SUPPORT_NONE:  # the reading raid_support
        return 0
    for i in range(p[L.P_PLAYERS]):
        s = g[L.G_ORDER + i]
        if s == raider or s == target or g[pl(s) + L.PL_PASSED]:
            continue
        m, lm = PO.all_available(S, g, s, mask)
        add = engagement_strength(S, g, s, m, lm)
        if add == 0 or not PO.supports_raid_defence(p, g, s, raider, attack,
                                                    defence + added, add):
            continue
        # the units they want to add: the fewest that bring the defence to the attack
        m, lm = PO.fewest_units(S, g, s, mask, attack - defence - added)
        add = engagement_strength(S, g, s, m, lm)
        if not PO.accepts_raid_support(p, g, target, attack, defence + added):
            continue
        dest = nearest_village(S, p, g, s, target)
        reduction = travel_reduction(S, g, s, -1, lm)
        if move_price(S, p, g, s, dest, reduction)[0] > g[pl(s) + L.PL_GOODS + L.PROVISIONS]:
            continue
        pay_movement(S, p, g, s, dest, reduction, log)
        engage(g, s, m, lm, L.AT_TRAVEL)
        g[pl(s) + L.PL_N_SUPPORT] += 1
        log_event(log, EV_SUPPORT, s, 2, add)
        added += add
    return added


@borrowing
def op_types_vp(g, seat, n, taken, log):
    """Sack: +n VP if the goods this action took (``taken``, a bit mask of goods types)
    are of 3 different types or more."""
    kinds = 0
    for good in range(L.N_GOODS):
        if (taken >> good) & 1:
            kinds += 1
    if kinds >= 3:
        vp(g, seat, n, log)


@borrowing
def op_clan_pact(S, p, g, seat, site, log):
    """Clan Pact: a village token in the site; one of the seat's tribesmen leaves the
    market for the Travel Card (a rescued tribesman: available after Cleanup)."""
    b = pl(seat)
    place_village(g, seat, site)
    log_event(log, EV_VILLAGE, seat, site)
    tribe = g[b + L.PL_TRIBE]
    if g[L.G_MARKET_MEN + tribe] > 0:
        g[L.G_MARKET_MEN + tribe] -= 1
        g[b + L.PL_TRAVEL_HOSTAGES + tribe] += 1


@borrowing
def op_trophy(S, p, pol, g, seat, value, log):
    """Masterwork: pay goods worth ``value`` or more to the market, take a trophy from the
    pool to the Village Card."""
    paid = 0
    while paid < value:
        good = PO.pay_pick(S, p, pol, g, seat)
        if good < 0:
            return
        g[pl(seat) + L.PL_GOODS + good] -= 1
        g[L.G_MARKET + good] += 1
        paid += S[L.S_GOODS][good, L.GD_VALUE]
    t = PO.pick_trophy(S, g)
    g[L.G_TROPHY_OWNER + t] = seat
    g[L.G_TROPHY_TRAVEL + t] = 0
    log_event(log, EV_TROPHY, seat, t)


@njit(cache=True, nogil=True)
def run_ops(S, p, pol, g, rng, seat, c, target, men, lmask, site, log):
    """Apply card c's operations in order."""
    b = pl(seat)
    taken = 0
    for k in range(S[L.S_CARDS][c, L.CD_N_OPS]):
        op = card_op(S, c, k, 0)
        a = card_op(S, c, k, 1)
        a2 = card_op(S, c, k, 2)
        if op == L.OP_GAIN:
            op_gain(S, p, g, seat, a, a2, log)
            if a == L.PROVISIONS:
                cauldron(S, p, g, seat, log)
        elif op == L.OP_GAIN_CHOICE:
            good = PO.choose_good(S, p, pol, g, rng, seat, a)
            if good >= 0:
                op_gain(S, p, g, seat, good, 1, log)
        elif op == L.OP_DIVINE_WILL:
            log_event(log, EV_DW, seat, gain_dw(g, seat, a))
        elif op == L.OP_VP:
            vp(g, seat, a, log)
        elif op == L.OP_PAY:
            g[b + L.PL_GOODS + a] -= a2
            g[L.G_MARKET + a] += a2
        elif op == L.OP_LEARN:
            op_learn(S, p, pol, g, rng, seat, log)
            if all_learned(p, g, seat):
                g[b + L.PL_CARD + c] = L.CARD_BOXED
        elif op == L.OP_PROMOTE:
            op_promote(S, p, g, seat, men, log)
            g[b + L.PL_CARD + c] = L.CARD_BOXED
        elif op == L.OP_TRADE:
            capacity = trade_capacity(S, g, seat, c, men, lmask, a)
            op_trade(S, p, pol, g, seat, target, capacity, a2, log)
        elif op == L.OP_RAID:
            taken = op_raid(S, p, pol, g, rng, seat, c, k, target, men, lmask, log)
            if taken < 0:
                return
        elif op == L.OP_TYPES_VP:
            op_types_vp(g, seat, a, taken, log)
        elif op == L.OP_CLAN_PACT:
            op_clan_pact(S, p, g, seat, site, log)
            if g[b + L.PL_VILLAGES] >= 3:
                g[b + L.PL_CARD + c] = L.CARD_BOXED
        elif op == L.OP_TROPHY:
            op_trophy(S, p, pol, g, seat, a, log)


@njit(cache=True, nogil=True)
def play_card(S, p, pol, g, rng, seat, c, target, log):
    """Play an Action card: engage its units, travel, apply its effect; the card goes to
    the discard pile until Cleanup (or the box: Promote Tribesman, a finished Learning or
    Clan Pact)."""
    b = pl(seat)
    men, lmask = legal_engagement(S, p, pol, g, seat, c, target)
    log_event(log, EV_CARD, seat, c, target)
    g[b + L.PL_CARD + c] = L.CARD_DISCARD
    g[b + L.PL_USES + c] += 1
    ctype = S[L.S_CARDS][c, L.CD_TYPE]
    if ctype == L.CT_DEVELOPMENT:
        g[b + L.PL_N_DEV] += 1
    elif ctype == L.CT_TRADE:
        g[b + L.PL_N_TRADE] += 1
    loc = S[L.S_CARDS][c, L.CD_LOCATION]
    where = L.AT_VILLAGE if loc == L.LOC_VILLAGE else L.AT_TRAVEL
    if find_op(S, c, L.OP_LEARN) < 0:
        engage(g, seat, men, lmask, where)
        log_event(log, EV_ENGAGE, men, lmask, engagement_strength(S, g, seat, men, lmask))
    site = -1
    dest = destination(S, p, g, seat, c, target)
    if find_op(S, c, L.OP_CLAN_PACT) >= 0:
        site = clan_pact_site(S, p, pol, g, seat, travel_reduction(S, g, seat, c, lmask))
        if pol[seat, L.W_ID] == L.POL_RANDOM:
            site = random_clan_pact_site(S, p, g, rng, seat, travel_reduction(S, g, seat, c,
                                                                               lmask))
        dest = site
    if dest >= 0:
        pay_movement(S, p, g, seat, dest, travel_reduction(S, g, seat, c, lmask), log)
    run_ops(S, p, pol, g, rng, seat, c, target, men, lmask, site, log)
