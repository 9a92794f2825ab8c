"""Scripted tribes, selected per seat by integer id inside the kernel (``layout``
``POLICY_NAMES``). Every choice a player makes lives here; the rules ask.

``greedy`` scores each legal action in value points (1 VP = 30; a good is worth 10 per
point of its Portum Itium value, more when a leader could carry it) and plays the best,
passing when nothing is worth more than passing (the first pass is worth its VP). Its
numbers are the seat's policy weights (``weights``: ``pol[seat, W_*]``). It reads
each card's effect: VP, goods, Divine Will, trades planned against the market or a
Village, raids against the defender's likely strength and the Mórrígan tokens, battles
against the defender's units. ``random`` picks uniformly among the legal actions and
passing; its other choices (units, loot, trades) are the greedy ones. One style per
tribe trait (``battle``, ``raid``, ``mysticism``, ``trade``, ``craftsmanship``) plays
greedy but adds ``style_bonus`` to every worthwhile action of its trait (and to Special
cards of its trait when Learning): a tribe leaning on its trait, not a different player.
"""

import numpy as np

from simkit.rng import uniform_int
from simkit.unmanaged import allocating, borrowing

from . import layout as L
from .state import (
    card_op,
    engagement_capacity,
    engagement_horses,
    engagement_strength,
    equipped,
    find_op,
    held,
    hostages,
    leader_bonus,
    leader_class,
    leader_slots,
    leader_strength,
    move_price,
    pl,
    reavers,
    strength_at,
    strip_slot,
    trophy_holder,
)

POLICIES = {
    "greedy": "scores every legal action by what its card does (VP, goods, trades, raids "
              "against the defender's strength, battles) and plays the best; passes when "
              "passing is worth more",
    "random": "plays a uniformly random legal action or passes",
    "battle": "greedy with the Battle trait: Battle declarations and Learning Battle "
              "cards score a style bonus",
    "raid": "greedy with the Raid trait: Raid cards score a style bonus",
    "mysticism": "greedy with the Mysticism trait: cards giving Divine Will (for Events "
                 "and Mórrígan draws) score a style bonus",
    "trade": "greedy with the Trade trait: Trade cards score a style bonus",
    "craftsmanship": "greedy with the Craftsmanship trait: Development cards that make "
                     "goods or trophies score a style bonus",
}
assert tuple(POLICIES) == L.POLICY_NAMES
TAKE_FROM_MARKET, NO_SOURCE = -2, -1  # gift_source's answers besides a seat



@borrowing
def month_turns_left(p, g):
    t = g[L.G_TURN]
    n = 0
    for k in range(t, p[L.P_TURNS] + 1):
        if k % p[L.P_FESTIVAL_EVERY] != 0:
            n += 1
    return n


@borrowing
def free_slots(S, g, seat):
    n = 0
    for k in range(L.MAX_LEADERS):
        if g[pl(seat) + L.PL_LEADER + k] >= 0:
            n += leader_slots(S, g, seat, k)
            for j in range(L.MAX_SLOTS):
                if g[pl(seat) + L.PL_EQUIP + k * L.MAX_SLOTS + j] >= 0:
                    n -= 1
    return n


@borrowing
def useful_bonuses(S, p, g, seat):
    """The leader bonuses (a bit per ``L.BONUSES`` code) one more equipped good would
    give the seat: none without a free equipment space; a battle good only on a leader
    of a class some Battle card rewards it for (Onslaught, Berserkers: warriors); the
    others on any leader."""
    if free_slots(S, g, seat) == 0:
        return 0
    out = (1 << L.BONUS_MOVE) | (1 << L.BONUS_STR) | (1 << L.BONUS_VP) | \
        (1 << L.BONUS_CAPACITY)
    for k in range(L.MAX_LEADERS):
        if g[pl(seat) + L.PL_LEADER + k] < 0:
            continue
        cl = leader_class(S, g, seat, k)
        for c in range(p[L.P_N_CARDS]):
            row = S[L.S_CARDS][c]
            for j in range(row[L.CD_N_OPS]):
                o = L.CD_OPS + j * L.OP_WIDTH
                if row[o] == L.OP_BATTLE and row[o + 2] > 0 and (row[L.CD_UNITS] >> cl) & 1:
                    out |= 1 << L.BONUS_BATTLE
    return out


@borrowing
def fibula_wanted(g, seat):
    """Has a leader no Fibula yet (and none waits on the Village Card)?"""
    b = pl(seat)
    lacking = 0
    for k in range(L.MAX_LEADERS):
        if g[b + L.PL_LEADER + k] >= 0 and equipped(g, seat, k, L.FIBULA) == 0:
            lacking += 1
    return lacking > g[b + L.PL_GOODS + L.FIBULA] + g[b + L.PL_TRAVEL_GOODS + L.FIBULA]


@borrowing
def last_month_turn(p, g):
    """Is this the game's last Month Turn (only Festivals follow)? What the tribe holds
    after its Action Phase earns only at that Cleanup and at the last Festivals."""
    return month_turns_left(p, g) <= 1 and g[L.G_TURN] % p[L.P_FESTIVAL_EVERY] != 0


@borrowing
def trip_price(S, p, g, seat, c):
    """Provisions the cheapest trip of card c would cost now (0 at the Village)."""
    loc = S[L.S_CARDS][c, L.CD_LOCATION]
    if loc == L.LOC_VILLAGE:
        return 0
    best = 1 << 30
    for v in range(p[L.P_N_NODES]):
        if loc == L.LOC_PORTUM and S[L.S_NODES][v, 0] == L.NODE_HARBOUR or \
                loc == L.LOC_AWAY and g[L.G_VILLAGE + v] >= 0 and g[L.G_VILLAGE + v] != seat:
            best = min(best, move_price(S, p, g, seat, v, 0)[0])
    return best if best < 1 << 30 else 0


@borrowing
def provisions_to_spend(S, p, g, seat):
    """The Provisions the seat can still spend in this Action Phase: what the cards in
    its hand pay (Feast, Forge) and the trip of each card it would play away."""
    n = 0
    for c in range(p[L.P_N_CARDS]):
        if g[pl(seat) + L.PL_CARD + c] != L.CARD_HAND or \
                S[L.S_CARDS][c, L.CD_TYPE] == L.CT_BATTLE:
            continue
        n += trip_price(S, p, g, seat, c)
        for k in range(S[L.S_CARDS][c, L.CD_N_OPS]):
            if card_op(S, c, k, 0) == L.OP_PAY and card_op(S, c, k, 1) == L.PROVISIONS:
                n += card_op(S, c, k, 2)
    return n


@borrowing
def card_trip(S, p, g, seat, c):
    """The Provisions card c's cheapest trip takes now (``trip_price``; a Trade at
    Portum Itium less the tribe's discount, Green's Merchant Roads)."""
    trip = trip_price(S, p, g, seat, c)
    if S[L.S_CARDS][c, L.CD_TYPE] == L.CT_TRADE and \
            S[L.S_CARDS][c, L.CD_LOCATION] == L.LOC_PORTUM:
        trip = max(trip - S[L.S_TRIBES][g[pl(seat) + L.PL_TRIBE], L.TR_TRADE_DISCOUNT], 0)
    return trip


@borrowing
def provision_reserve(S, p, g, seat):
    """The Provisions the seat keeps for travel (Territories, Sea Areas and Movement:
    without them "the action cannot be carried out"), as it set them at its last action
    choice (``appraisal.keep_reserve``): the dearest trip (``card_trip``) of a card in its
    hand worth playing, so that those cards can still be played; a Provision short of it
    is worth ``short_provision_points``, one beyond ``provision_points``. A tribe near
    the market keeps fewer than one far from it; what a card pays (Feast, Forge) is that
    card's use of them, not a reason to keep them."""
    return g[pl(seat) + L.PL_RESERVE]


@borrowing
def spent_later(S, p, g, seat, good, have):
    """Can the unit of ``good`` that raises the seat's Village Card from ``have`` still be
    spent? Always but in the last Month Turn; there, a Provision while the Feasts, Forges
    and trips left in its hand take that many, another good while a card in its hand
    pays with it (Masterwork's trophy takes any)."""
    if not last_month_turn(p, g):
        return True
    if good == L.PROVISIONS:
        return have < provisions_to_spend(S, p, g, seat)
    for c in range(p[L.P_N_CARDS]):
        if g[pl(seat) + L.PL_CARD + c] != L.CARD_HAND:
            continue
        for k in range(S[L.S_CARDS][c, L.CD_N_OPS]):
            op = card_op(S, c, k, 0)
            if op == L.OP_TROPHY or op == L.OP_PAY and card_op(S, c, k, 1) == good:
                return True
    return False


@borrowing
def smith_worth(S, pol, g, seat, good, held_k, turns):
    """What one more ``good`` earns by the tribe's Master Smiths (Yellow: "+1 VP in
    Cleanup if a leader carries 2 goods or more"), ``held_k`` of it held: the VP of every
    Cleanup left (``turns``; half, as a Fibula's) when it is the second good a leader
    would carry (the goods leaders are equipped with, ``EQUIP_ORDER``; a Horse or Fibula
    once), else nothing."""
    if S[L.S_TRIBES][g[pl(seat) + L.PL_TRIBE], L.TR_CLEANUP_VP_EQUIPPED] == 0 or \
            equip_rank(good) < 0:
        return 0
    n = 0
    for other in EQUIP_ORDER:
        h = held_k if other == good else held(g, seat, other)
        n += min(h, 1) if other == L.HORSE or other == L.FIBULA else h
    if n != 1 or (good == L.HORSE or good == L.FIBULA) and held_k > 0:
        return 0
    return S[L.S_TRIBES][g[pl(seat) + L.PL_TRIBE], L.TR_CLEANUP_VP_EQUIPPED] * \
        pol[seat, L.W_VP_POINTS] * turns // 2


@borrowing
def end_worth(S, pol, seat, good, held_k, bonuses, lacking_fibula):
    """What a good no card will spend is still worth in the last Month Turn: a Fibula a
    leader lacks (1 VP at this Cleanup), an animal (the tie-break), a type the tribe
    lacks (the last Festival's variety objective); its trade value and any other leader
    bonus buy nothing more."""
    value = 0
    if good == L.FIBULA and (bonuses >> L.BONUS_VP) & 1 and lacking_fibula:
        value += pol[seat, L.W_VP_POINTS]
    if S[L.S_GOODS][good, L.GD_ANIMAL]:
        value += 5
    if held_k == 0:
        value += pol[seat, L.W_NEW_TYPE_POINTS]
    return value


@borrowing
def worth(S, p, pol, g, seat, good):
    """What one more of ``good`` is worth to the seat, in value points (in the last
    Month Turn, a good it can no longer spend: ``end_worth``)."""
    if not spent_later(S, p, g, seat, good, g[pl(seat) + L.PL_GOODS + good]):
        return end_worth(S, pol, seat, good, held(g, seat, good),
                         useful_bonuses(S, p, g, seat), fibula_wanted(g, seat))
    value = S[L.S_GOODS][good, L.GD_VALUE] * 10
    if good == L.PROVISIONS:
        if g[pl(seat) + L.PL_GOODS + L.PROVISIONS] < provision_reserve(S, p, g, seat):
            return pol[seat, L.W_SHORT_PROVISION_POINTS]
        return pol[seat, L.W_PROVISION_POINTS]
    bonus = S[L.S_GOODS][good, L.GD_BONUS]
    if bonus != L.BONUS_NONE and (useful_bonuses(S, p, g, seat) >> bonus) & 1:
        if bonus == L.BONUS_VP:
            if fibula_wanted(g, seat):
                value += pol[seat, L.W_VP_POINTS] * month_turns_left(p, g) // 2
        else:
            value += 20
    if S[L.S_GOODS][good, L.GD_ANIMAL]:
        value += 5
    if held(g, seat, good) == 0:
        value += pol[seat, L.W_NEW_TYPE_POINTS]  # the Festivals' variety objectives
    value += smith_worth(S, pol, g, seat, good, held(g, seat, good), month_turns_left(p, g))
    return value


@borrowing
def units_worth(S, p, pol, g, seat, good, n):
    """What ``n`` more of ``good`` are worth, unit by unit as the Village Card fills
    (``worth`` of each at the holding it raises): of Cooking's 3 Provisions only those
    short of ``provision_reserve`` are worth ``short_provision_points``. ``n`` < 0: what
    giving up -n costs (Feast's, Forge's payment), the last held first."""
    at = pl(seat) + L.PL_GOODS + good
    keep = g[at]
    total = 0
    for i in range(abs(n)):
        g[at] = keep + i if n > 0 else keep - i - 1
        if g[at] < 0:
            break
        total += worth(S, p, pol, g, seat, good)
    g[at] = keep
    return total


@borrowing
def choose_engagement(S, g, seat, cost, mask, extra):
    """Units to engage for an action of classes ``mask`` needing ``cost`` STRENGTH:
    the fewest units (leaders only where tribesmen do not suffice), then up to ``extra``
    more available units. Returns (tribesmen, leader mask), or (-1, 0) if impossible."""
    b = pl(seat)
    men_ok = mask & 1
    best_units = 1 << 20
    best_men = -1
    best_lmask = 0
    for lmask in range(1 << L.MAX_LEADERS):
        ok = True
        lstr = 0
        nl = 0
        for k in range(L.MAX_LEADERS):
            if (lmask >> k) & 1:
                if g[b + L.PL_LEADER + k] < 0 or g[b + L.PL_LEADER_AT + k] != L.AT_AVAILABLE \
                        or not (mask >> leader_class(S, g, seat, k)) & 1:
                    ok = False
                else:
                    lstr += leader_strength(S, g, seat, k)
                    nl += 1
        if not ok:
            continue
        need = max(0, cost - lstr)
        if need > 0 and not men_ok:
            continue
        if need > g[b + L.PL_MEN]:
            continue
        if need + nl == 0 and cost == 0 and mask != 0:
            if men_ok and g[b + L.PL_MEN] > 0:
                need = 1
            elif nl == 0:
                continue
        units = need + nl * 3  # keep leaders for the actions only they can do
        if units < best_units:
            best_units = units
            best_men = need
            best_lmask = lmask
    if best_men < 0:
        return -1, 0
    if men_ok:
        best_men += min(extra, g[b + L.PL_MEN] - best_men)
    return best_men, best_lmask


@borrowing
def riders(S, g, seat, mask, lmask):
    """Leaders of classes ``mask`` besides ``lmask`` offered to an action away: the
    available ones carrying a movement good (the rules add each that lowers the
    Movement Cost; it carries one more item too)."""
    b = pl(seat)
    out = 0
    for k in range(L.MAX_LEADERS):
        if not (lmask >> k) & 1 and g[b + L.PL_LEADER + k] >= 0 and \
                g[b + L.PL_LEADER_AT + k] == L.AT_AVAILABLE and \
                (mask >> leader_class(S, g, seat, k)) & 1 and \
                leader_bonus(S, g, seat, k, L.BONUS_MOVE) > 0:
            out |= 1 << k
    return out


@borrowing
def action_units(S, p, pol, g, seat, c, target):
    """The units the seat engages to play card c against ``target`` (before the riders
    a trip adds): a Raid's are ``raid_units``; a card that trades (its trade
    operation) the fewest reaching the card's cost and ``trade_extra_units`` more (each
    carries one more good); any other card's the fewest: a Clan Pact, a Trade card that
    carries nothing, engages its cost (the Clan Pact example: STRENGTH 4 for its cost
    4), not units kept from the Month Turn's other actions and defence for nothing.
    (-1, 0): not enough STRENGTH."""
    cost = S[L.S_CARDS][c, L.CD_COST]
    mask = S[L.S_CARDS][c, L.CD_UNITS]
    k = find_op(S, c, L.OP_RAID)
    if k >= 0:
        return raid_units(S, p, pol, g, seat, c, k, target)
    extra = 0
    if find_op(S, c, L.OP_TRADE) >= 0:
        extra = pol[seat, L.W_TRADE_EXTRA_UNITS]
    return choose_engagement(S, g, seat, cost, mask, extra)


@borrowing
def raid_units(S, p, pol, g, seat, c, k, target):
    """Raid (operation k of card c): the engagement reaching the card's cost whose
    expected loot (``raid_value``: the chance its STRENGTH beats the defender's whole
    defence and token, times what it can carry) less ``engaged_points`` per STRENGTH
    engaged is the largest (ties: fewer leaders, then fewer tribesmen): a raider commits
    what wins the raid with a margin against the tokens, not every unit. (-1, 0): not
    enough STRENGTH."""
    cost = S[L.S_CARDS][c, L.CD_COST]
    mask = S[L.S_CARDS][c, L.CD_UNITS]
    men, lmask = all_available(S, g, seat, mask)
    best_m, best_l = -1, 0
    best_v = -(1 << 40)
    prospect = raid_prospect(S, p, pol, g, seat, c, k, target)
    for lm in range(lmask + 1):
        if lm & ~lmask:
            continue
        lstr = engagement_strength(S, g, seat, 0, lm)
        for m in range(men + 1):
            if m + lstr < cost or (m == 0 and lm == 0):
                continue
            v = raid_value_of(S, p, g, seat, target, m, lm, prospect) - \
                pol[seat, L.W_ENGAGED_POINTS] * (m + lstr)
            if v > best_v:
                best_v, best_m, best_l = v, m, lm
    return best_m, best_l


@borrowing
def raid_value(S, p, pol, g, seat, c, k, target, men, lmask):
    """Expected loot of a raid with these units: the chance the attacker beats the
    defender's full STRENGTH (its units of the card's classes on its Village Card and
    available, the card's bonus or malus, the Sword of Nuada) and token, times what the
    capacity can carry; a Sack of the market always succeeds."""
    return raid_value_of(S, p, g, seat, target, men, lmask,
                         raid_prospect(S, p, pol, g, seat, c, k, target))


@borrowing
def raid_prospect(S, p, pol, g, seat, c, k, target):
    """What a raid (operation k of card c) on ``target`` faces and can win whatever
    units it engages, computed once for the engagements ``raid_units`` weighs: the
    capacity and STRENGTH the card and Reavers add, the defence to beat, the worth of the
    best thing to carry off, the goods there, and the VP a success adds."""
    capacity = card_op(S, c, k, 3) + reavers(S, g, seat, target, L.TR_RAID_CAPACITY)
    if target < 0:
        return capacity, 0, 0, 0, 0, 0
    steal = card_op(S, c, k, 4)
    mask = S[L.S_CARDS][c, L.CD_UNITS]
    holder = trophy_holder(S, g, L.TP_STRENGTH)
    attack = card_op(S, c, k, 1) + reavers(S, g, seat, target, L.TR_RAID_STR) + \
        (1 if holder == seat else 0)
    dfn = strength_at(S, g, target, mask, L.AT_VILLAGE) + card_op(S, c, k, 2)
    dfn += strength_at(S, g, target, mask, L.AT_AVAILABLE)
    dfn += 1 if holder == target else 0
    best = loot_worth(S, p, pol, g, seat, target, steal)
    if steal != L.STEAL_ANIMALS:
        for col in range(L.N_TRIBES):
            if g[pl(target) + L.PL_HOSTAGES + col] > 0:
                best = max(best, hostage_worth(S, p, pol, g, seat, col, hostages(g, seat)))
    items = 0
    for good in range(L.N_GOODS):
        items += g[pl(target) + L.PL_GOODS + good]
    vp = pol[seat, L.W_VP_POINTS] * reavers(S, g, seat, target, L.TR_RAID_VP)
    return capacity, attack, dfn, best, items, vp


@borrowing
def raid_value_of(S, p, g, seat, target, men, lmask, prospect):
    """``raid_value`` with these units, from the raid's ``raid_prospect``."""
    capacity, attack, dfn, best, items, vp = prospect
    capacity += engagement_capacity(S, g, seat, men, lmask)
    if target < 0:
        return capacity * 35
    attack += engagement_strength(S, g, seat, men, lmask)
    hits, n = tokens_at_most(p, g, attack - max(dfn, 0) - 1)
    loot = best * min(capacity, max(items, 1)) * 2 // 3 + vp
    return hits * loot // max(n, 1)


@borrowing
def all_available(S, g, seat, mask):
    """Every available unit of classes ``mask`` (tribesmen, leader mask)."""
    b = pl(seat)
    men = g[b + L.PL_MEN] if mask & 1 else 0
    lmask = 0
    for k in range(L.MAX_LEADERS):
        if g[b + L.PL_LEADER + k] >= 0 and g[b + L.PL_LEADER_AT + k] == L.AT_AVAILABLE \
                and (mask >> leader_class(S, g, seat, k)) & 1:
            lmask |= 1 << k
    return men, lmask


@borrowing
def tokens_at_most(p, g, m):
    """Mórrígan tokens in the bag of value <= m, and tokens in the bag."""
    c = 0
    n = 0
    for t in range(L.N_TOKENS):
        if g[L.G_BAG + t]:
            n += 1
            if p[L.P_MORRIGAN + t] <= m:
                c += 1
    return c, n


@borrowing
def mean_token10(p, g):
    s = 0
    n = 0
    for t in range(L.N_TOKENS):
        if g[L.G_BAG + t]:
            s += p[L.P_MORRIGAN + t]
            n += 1
    return 10 * s // max(n, 1)


# -- the Event Phase -------------------------------------------------------------------------
@borrowing
def event_phases_after(p, g):
    """Event Phases still to come after the current turn's."""
    n = month_turns_left(p, g)
    if g[L.G_TURN] % p[L.P_FESTIVAL_EVERY] != 0:
        n -= 1  # this Month Turn's Event Phase is done or under way
    return max(n, 0)


@borrowing
def objectives_reached_vp(S, p, g, kind, have, more):
    """VP the Festivals still to come pay for ``more`` of what an "at least" objective of
    ``kind`` counts, from ``have``: each such objective short of now that they reach."""
    vp = 0
    for i in range(p[L.P_N_FESTIVALS]):
        turn = (i + 1) * p[L.P_FESTIVAL_EVERY]
        if turn <= g[L.G_TURN] or turn > p[L.P_TURNS]:
            continue
        for k in range(S[L.S_FESTIVALS][i, L.FE_N]):
            o = L.FE_OBJ + 4 * k
            if S[L.S_FESTIVALS][i, o] == kind and \
                    have < S[L.S_FESTIVALS][i, o + 1] <= have + more:
                vp += S[L.S_FESTIVALS][i, o + 2]
    return vp


@borrowing
def festival_dw_vp(S, p, g, seat, n):
    """VP the Festivals still to come pay for ``n`` more Divine Will: each objective of
    Divine Will "at least" (Imbolc's) the seat falls short of and the cubes reach."""
    return objectives_reached_vp(S, p, g, L.OB_DW_AT_LEAST, g[pl(seat) + L.PL_DW], n)


@borrowing
def village_objectives_vp(S, p, g, seat):
    """VP the Festivals still to come pay for one more village: each objective of
    villages "at least" (Imbolc's 2, Lughnasadh's 3) it reaches."""
    return objectives_reached_vp(S, p, g, L.OB_VILLAGES_AT_LEAST,
                                 g[pl(seat) + L.PL_VILLAGES], 1)


@borrowing
def event_draw_worth(p, pol, seat):
    """What drawing an Event card is expected to be worth: ``event_points``, and the VP
    every unprinted card adds (``event_vp``, public: the deck's cards are known)."""
    return pol[seat, L.W_EVENT_POINTS] + pol[seat, L.W_VP_POINTS] * p[L.P_EVENT_VP]


@borrowing
def divine_will_worth(S, p, pol, g, seat, n):
    """What ``n`` more Divine Will cubes are worth, by what they buy: a third of an Event
    card each (``event_points``) while they fund Events the seat can still draw (one per
    Event Phase to come, its share of the cards left in the deck), ``spare_dw_points``
    beyond (Mórrígan draws, the tie-break), and the VP of a Festival's Divine Will
    objective they reach."""
    if g[L.G_EVENTS_OVER]:
        draws = 0
    else:
        left = p[L.P_N_EVENTS] - g[L.G_EVENT_TOP]
        draws = min(event_phases_after(p, g), (left + p[L.P_PLAYERS] - 1) // p[L.P_PLAYERS])
    useful = max(0, draws * p[L.P_EVENT_COST] - g[pl(seat) + L.PL_DW])
    k = min(n, useful)
    return k * event_draw_worth(p, pol, seat) // max(p[L.P_EVENT_COST], 1) + \
        (n - k) * pol[seat, L.W_SPARE_DW_POINTS] + \
        pol[seat, L.W_VP_POINTS] * festival_dw_vp(S, p, g, seat, n)


@borrowing
def event_value(S, p, pol, g, seat, ev):
    """What an Event card is worth to the seat (value points)."""
    v = 0
    for k in range(S[L.S_EVENTS][ev, L.EV_N_OPS]):
        o = L.EV_OPS + k * L.OP_WIDTH
        op = S[L.S_EVENTS][ev, o]
        a = S[L.S_EVENTS][ev, o + 1]
        b = S[L.S_EVENTS][ev, o + 2]
        if op == L.EO_GAIN:
            v += units_worth(S, p, pol, g, seat, a, b)
        elif op == L.EO_THE_GIFT:
            v += worth(S, p, pol, g, seat, a) - 10
        elif op == L.EO_DIVINE_WILL:
            v += divine_will_worth(S, p, pol, g, seat, a)
        elif op == L.EO_VP:
            v += pol[seat, L.W_VP_POINTS] * a
        elif op == L.EO_EVERYONE_LOSES or op == L.EO_LOSE:
            v -= units_worth(S, p, pol, g, seat, a, -min(b, g[pl(seat) + L.PL_GOODS + a]))
        elif op == L.EO_RESCUE:
            v += 30 * min(a, g[L.G_MARKET_MEN + g[pl(seat) + L.PL_TRIBE]])
        elif op == L.EO_VP_PER:
            v += pol[seat, L.W_VP_POINTS] * min(held(g, seat, a), b)
        elif op == L.EO_FREE_MOVE:
            v += 30
        elif op == L.EO_REORDER:
            v += 10
    return v


@borrowing
def draws_event(p, g, rng, seat, policy):
    """Pay the Divine Will and draw an Event card? (greedy: whenever it can pay; the
    reconstructed deck is worth about 1 VP a card, more than the Mórrígan draws the
    cubes could buy)."""
    dw = g[pl(seat) + L.PL_DW]
    if policy == L.POL_RANDOM:
        return uniform_int(rng, L.ST_POLICY + seat, 2) == 1
    return dw >= p[L.P_EVENT_COST]


@borrowing
def redraws(S, p, pol, g, seat, ev):
    """Benevolence: discard the drawn card and draw another? When it is worth less than
    the next card is expected to be (``next_draw_worth``)."""
    return event_value(S, p, pol, g, seat, ev) < next_draw_worth(S, p, pol, g, seat)


@allocating
def next_draw_worth(S, p, pol, g, seat):
    """What the next Event card is expected to be worth to the seat: the mean of
    ``event_value`` over the cards it cannot see (``hidden_events``), or the top card's
    where its Arianrhod showed it the top."""
    top = g[L.G_EVENT_TOP]
    if g[L.G_SEEN_BY] == seat and top < g[L.G_SEEN_END]:
        return event_value(S, p, pol, g, seat, g[L.G_DECK + top])
    hidden = np.empty(L.MAX_EVENTS + L.MAX_PLAYERS, dtype=np.int64)
    n = hidden_events(p, g, seat, hidden)
    total = 0
    for k in range(n):
        total += event_value(S, p, pol, g, seat, hidden[k])
    return total // n if n > 0 else 0


@borrowing
def first_unseen(p, g, seat):
    """The deck's first card ``seat`` has not seen: the top, or below what its Arianrhod
    showed it (``G_SEEN_BY``, ``G_SEEN_END``)."""
    top, last = g[L.G_EVENT_TOP], p[L.P_N_EVENTS]
    if g[L.G_SEEN_BY] == seat:
        top = max(top, min(g[L.G_SEEN_END], last))
    return top


@borrowing
def hidden_events(p, g, seat, out):
    """The Event cards ``seat`` cannot see, into ``out`` (room for the deck and a card a
    seat): the deck from ``first_unseen`` and the delayed cards the other seats hold face
    down. Returns how many."""
    n = 0
    for i in range(first_unseen(p, g, seat), p[L.P_N_EVENTS]):
        out[n] = g[L.G_DECK + i]
        n += 1
    for s in range(p[L.P_PLAYERS]):
        held = g[pl(s) + L.PL_HELD_EVENT]
        if s != seat and held >= 0:
            out[n] = held
            n += 1
    return n


@borrowing
def keeps_new_delayed(S, p, pol, g, seat, held_ev, new_ev):
    """Holding a delayed event and drawing a second: keep the new one?"""
    return event_value(S, p, pol, g, seat, new_ev) > event_value(S, p, pol, g, seat, held_ev)


@borrowing
def plays_delayed_now(S, p, g, seat, ev):
    """Play the held delayed event at the start of this Action Phase turn? (greedy: at
    once, except a free move, which waits for a trip that costs something)."""
    for k in range(S[L.S_EVENTS][ev, L.EV_N_OPS]):
        if S[L.S_EVENTS][ev, L.EV_OPS + k * L.OP_WIDTH] == L.EO_FREE_MOVE:
            return False
    return True


# -- trades ---------------------------------------------------------------------------------
# A trade's kinds: a good (its code) or a hostage (N_GOODS + colour). A plan holds the
# items sold by kind, then the items bought by kind.
N_KINDS = L.N_GOODS + L.N_TRIBES
PLAN_SIZE = 2 * N_KINDS
NO_TRADE = -(1 << 30)
LOW, HIGH = -(1 << 40), 1 << 40  # a state no purchase, no payment reaches
MAX_TRADE = 12  # the capacity a plan considers (more than any engagement carries)


@borrowing
def hostage_vp_left(S, p, g, have):
    """VP a hostage held from now on still scores, the tribe holding ``have`` other
    hostages besides: 1 each Cleanup left (this Month Turn's too), and each Festival
    still to come that pays per hostage below its cap (Samhain, Lughnasadh)."""
    vp = month_turns_left(p, g)
    for i in range(p[L.P_N_FESTIVALS]):
        turn = (i + 1) * p[L.P_FESTIVAL_EVERY]
        if turn <= g[L.G_TURN] or turn > p[L.P_TURNS]:
            continue
        for k in range(S[L.S_FESTIVALS][i, L.FE_N]):
            o = L.FE_OBJ + 4 * k
            if S[L.S_FESTIVALS][i, o] == L.OB_PER_HOSTAGE and have < S[L.S_FESTIVALS][i, o + 2]:
                vp += S[L.S_FESTIVALS][i, o + 1]
    return vp


@borrowing
def hostage_worth(S, p, pol, g, seat, colour, have):
    """What holding one more tribesman of ``colour`` is worth, ``have`` other tribes'
    hostages held besides: one's own is a unit again after Cleanup, another tribe's
    scores what ``hostage_vp_left`` counts (half of it: a hostage can be raided or
    bought away)."""
    if colour == g[pl(seat) + L.PL_TRIBE]:
        return pol[seat, L.W_UNIT_POINTS] * month_turns_left(p, g) + 20
    return pol[seat, L.W_VP_POINTS] * hostage_vp_left(S, p, g, have) // 2 + 20


@borrowing
def kind_value(S, k):
    """Trade value of a kind: the good's, or the hostage value of the Portum Itium Card."""
    if k < L.N_GOODS:
        return S[L.S_GOODS][k, L.GD_VALUE]
    return S[L.S_TRIBES][k - L.N_GOODS, L.TR_HOSTAGE_VALUE]


@borrowing
def unit_worth(S, p, pol, g, seat, k, have):
    """What the unit of kind k that raises the seat's Village Card from ``have`` to
    ``have + 1`` is worth (a third good of a type or more is worth 30 less; at least 1)."""
    if k >= L.N_GOODS:  # ``have`` of this colour: the others held stay besides
        return hostage_worth(S, p, pol, g, seat, k - L.N_GOODS,
                             hostages(g, seat) - own_stock(g, seat, k) + have)
    at = pl(seat) + L.PL_GOODS + k
    keep = g[at]
    g[at] = have
    w = worth(S, p, pol, g, seat, k)
    if k != L.PROVISIONS and held(g, seat, k) > 1:
        w -= 30
    g[at] = keep
    return max(w, 1)


@borrowing
def held_worth(S, pol, g, seat, k, have, bonuses, turns, lacking, spend, reserve):
    """``unit_worth`` of good k with the seat's Village Card holding ``have``, from the
    parts of ``worth`` a trade does not change, computed once per plan (``bonuses``: the
    leader bonuses an equipped good would give, ``useful_bonuses``; ``turns``: Month
    Turns left; ``lacking``: leaders without a Fibula; ``spend``: -1 before the last
    Month Turn, else the Provisions the seat can still spend, ``spent_later``, with bit
    40 + k set for the other goods a card in its hand still pays with; ``reserve``: the
    Provisions it keeps, ``provision_reserve``): the same values, without writing the
    state."""
    b = pl(seat)
    held_k = have
    for j in range(L.MAX_LEADERS):
        held_k += equipped(g, seat, j, k)
    if spend >= 0:
        can = have < (spend & ((1 << 40) - 1)) if k == L.PROVISIONS else (spend >> (40 + k)) & 1
        if not can:
            fibulas = have if k == L.FIBULA else g[b + L.PL_GOODS + L.FIBULA]
            wanted = lacking > fibulas + g[b + L.PL_TRAVEL_GOODS + L.FIBULA]
            return max(end_worth(S, pol, seat, k, held_k, bonuses, wanted) -
                       (30 if k != L.PROVISIONS and held_k > 1 else 0), 1)
    if k == L.PROVISIONS:
        if have < reserve:
            return pol[seat, L.W_SHORT_PROVISION_POINTS]
        return pol[seat, L.W_PROVISION_POINTS]
    value = S[L.S_GOODS][k, L.GD_VALUE] * 10
    bonus = S[L.S_GOODS][k, L.GD_BONUS]
    if bonus != L.BONUS_NONE and (bonuses >> bonus) & 1:
        if bonus == L.BONUS_VP:
            fibulas = have if k == L.FIBULA else g[b + L.PL_GOODS + L.FIBULA]
            if lacking > fibulas + g[b + L.PL_TRAVEL_GOODS + L.FIBULA]:
                value += pol[seat, L.W_VP_POINTS] * turns // 2
        else:
            value += 20
    if S[L.S_GOODS][k, L.GD_ANIMAL]:
        value += 5
    if held_k == 0:
        value += pol[seat, L.W_NEW_TYPE_POINTS]
    value += smith_worth(S, pol, g, seat, k, held_k, turns)
    if held_k > 1:
        value -= 30
    return max(value, 1)


@borrowing
def spending(S, p, g, seat):
    """``held_worth``'s ``spend``: -1 before the last Month Turn; then the Provisions the
    seat can still spend, and bit 40 + k for each other good k it still can."""
    if not last_month_turn(p, g):
        return -1
    out = provisions_to_spend(S, p, g, seat)
    for k in range(1, L.N_GOODS):
        if spent_later(S, p, g, seat, k, 0):
            out |= 1 << (40 + k)
    return out


@borrowing
def leaders_lacking_fibula(g, seat):
    n = 0
    for k in range(L.MAX_LEADERS):
        if g[pl(seat) + L.PL_LEADER + k] >= 0 and equipped(g, seat, k, L.FIBULA) == 0:
            n += 1
    return n


@borrowing
def trade_stock(g, seat, target, k):
    """Items of kind k the other side of a trade holds: the market's goods and
    tribesmen (any tribesman there is a hostage), or the target's Village Card's."""
    if k < L.N_GOODS:
        return g[L.G_MARKET + k] if target < 0 else g[pl(target) + L.PL_GOODS + k]
    c = k - L.N_GOODS
    return g[L.G_MARKET_MEN + c] if target < 0 else g[pl(target) + L.PL_HOSTAGES + c]


@borrowing
def own_stock(g, seat, k):
    """Items of kind k the seat may sell: its Village Card's goods and other tribes'
    hostages."""
    if k < L.N_GOODS:
        return g[pl(seat) + L.PL_GOODS + k]
    if k - L.N_GOODS == g[pl(seat) + L.PL_TRIBE]:
        return 0
    return g[pl(seat) + L.PL_HOSTAGES + k - L.N_GOODS]


@borrowing
def sale_cost(S, p, pol, g, seat, target, k, have):
    """What selling the unit of kind k that leaves ``have`` costs the seat; a hostage
    sold to its own tribe also hands that tribe a unit."""
    c = unit_worth(S, p, pol, g, seat, k, have)
    if k >= L.N_GOODS and target >= 0 and g[pl(target) + L.PL_TRIBE] == k - L.N_GOODS:
        c += pol[seat, L.W_UNIT_POINTS] * month_turns_left(p, g)
    return c


@borrowing
def trade_bounds(S, g, seat, target, cap):
    """The most value the seat can pay (its ``cap`` dearest items), which bounds the
    purchase, and the items the other side of the trade holds."""
    top = 0
    for k in range(N_KINDS):
        top = max(top, kind_value(S, k))
    left = cap
    vpay = 0
    for val in range(top, 0, -1):
        for k in range(N_KINDS):
            if kind_value(S, k) == val and left > 0:
                m = min(own_stock(g, seat, k), left)
                left -= m
                vpay += m * val
    in_stock = 0
    for k in range(N_KINDS):
        in_stock += trade_stock(g, seat, target, k)
    return vpay, in_stock


@allocating
def trade_plan(S, p, pol, g, seat, target, capacity, bonus, plan):
    """Trade (rulebook: Trade): the whole trade at once. Buy up to ``capacity`` goods and
    hostages from the market (``target`` < 0) or the target's Village Card and sell up
    to ``capacity`` of the seat's own, the value sold at least the value bought (no
    change: the surplus is lost), for the largest gain in value points (worth bought
    less worth sold), each unit valued at the holding it leaves; of two purchases as
    good, the one of more items (smaller tiles pay later trades with less surplus lost).
    A trade whose card pays ``bonus`` points when done may lose up to that. Fills
    ``plan`` (PLAN_SIZE: sold by kind, then bought); returns the gain, or NO_TRADE with
    an empty plan. Valued on the state as it is: the caller pays the trip first."""
    plan[:] = 0
    cap = min(capacity, MAX_TRADE)
    vpay, in_stock = trade_bounds(S, g, seat, target, cap)
    if cap <= 0 or vpay == 0 or in_stock == 0:
        return NO_TRADE
    cum = np.zeros(cap + 1, dtype=np.int64)  # worth of the first m units of a kind
    # purchases: most worth for j items of total value v; bchoice[k, j, v]: units of k
    buy = np.full((cap + 1, vpay + 1), LOW, dtype=np.int64)
    buy[0, 0] = 0
    bchoice = np.zeros((N_KINDS, cap + 1, vpay + 1), dtype=np.int8)
    # payments: least worth for j items of total value v; pchoice[k, j, v]: units of k
    pay = np.full((cap + 1, vpay + 1), HIGH, dtype=np.int64)
    pay[0, 0] = 0
    pchoice = np.zeros((N_KINDS, cap + 1, vpay + 1), dtype=np.int8)
    # the cheapest payment of at least each value: (cost, items, exact value)
    least = np.full(vpay + 2, HIGH, dtype=np.int64)
    lj = np.full(vpay + 2, -1, dtype=np.int64)
    lv = np.full(vpay + 2, -1, dtype=np.int64)
    return best_trade(S, p, pol, g, seat, target, cap, vpay, bonus, plan, cum, buy, bchoice, pay,
                      pchoice, least, lj, lv)


@borrowing
def best_trade(S, p, pol, g, seat, target, cap, vpay, bonus, plan, cum, buy, bchoice, pay,
               pchoice, least, lj, lv):
    """``trade_plan`` on its arrays (``vpay``: the most value the seat can pay): the
    loops run without reference counting."""
    vbuy = vpay
    slots = useful_bonuses(S, p, g, seat)
    turns = month_turns_left(p, g)
    lacking = leaders_lacking_fibula(g, seat)
    spend = spending(S, p, g, seat)
    reserve = provision_reserve(S, p, g, seat)
    low = LOW
    high = HIGH
    # the items and value the kinds so far can reach: no state beyond is ever filled
    bj_reach, bv_reach, pj_reach, pv_reach = 0, 0, 0, 0
    for k in range(N_KINDS):
        val = kind_value(S, k)
        if val <= 0:
            continue  # [reading] an item of no value is neither priced nor traded
        n = min(trade_stock(g, seat, target, k), cap, vbuy // val)
        if n > 0:
            have = own_stock(g, seat, k) if k < L.N_GOODS else 0
            for m in range(1, n + 1):
                cum[m] = cum[m - 1] + (hostage_worth(S, p, pol, g, seat, k - L.N_GOODS,
                                                     hostages(g, seat) + m - 1)
                                       if k >= L.N_GOODS else
                                       held_worth(S, pol, g, seat, k, have + m - 1, slots, turns,
                                                  lacking, spend, reserve))
            bj_reach = min(cap, bj_reach + n)
            bv_reach = min(vbuy, bv_reach + n * val)
            for j in range(bj_reach, 0, -1):  # in place: the smaller states are this kind's
                for v in range(bv_reach, val - 1, -1):
                    for m in range(1, min(n, j, v // val) + 1):
                        w = buy[j - m, v - m * val]
                        if w != low and w + cum[m] > buy[j, v]:
                            buy[j, v] = w + cum[m]
                            bchoice[k, j, v] = m
        have = own_stock(g, seat, k)
        n = min(have, cap)
        if n > 0:
            for m in range(1, n + 1):
                if k >= L.N_GOODS:
                    cum[m] = cum[m - 1] + sale_cost(S, p, pol, g, seat, target, k, have - m)
                else:
                    cum[m] = cum[m - 1] + held_worth(S, pol, g, seat, k, have - m, slots, turns,
                                                     lacking, spend, reserve)
            pj_reach = min(cap, pj_reach + n)
            pv_reach = min(vpay, pv_reach + n * val)
            for j in range(pj_reach, 0, -1):
                for v in range(pv_reach, val - 1, -1):
                    for m in range(1, min(n, j, v // val) + 1):
                        c = pay[j - m, v - m * val]
                        if c != high and c + cum[m] < pay[j, v]:
                            pay[j, v] = c + cum[m]
                            pchoice[k, j, v] = m
    for u in range(vpay, -1, -1):
        least[u], lj[u], lv[u] = least[u + 1], lj[u + 1], lv[u + 1]
        for j in range(cap + 1):
            if pay[j, u] < least[u]:
                least[u], lj[u], lv[u] = pay[j, u], j, u
    # the best whole trade: a purchase and the cheapest payment of at least its value
    best = NO_TRADE
    bj, bv, pj, pv = -1, -1, -1, -1
    for v in range(1, vbuy + 1):
        if lj[v] < 0:
            continue
        for j in range(1, cap + 1):
            if buy[j, v] == low:
                continue
            gain = buy[j, v] - least[v]
            if gain + bonus > 0 and (gain > best or gain == best and j > bj):
                best, bj, bv, pj, pv = gain, j, v, lj[v], lv[v]
    if bj < 0:
        return NO_TRADE
    for k in range(N_KINDS - 1, -1, -1):
        m = bchoice[k, bj, bv]
        plan[N_KINDS + k] = m
        bj -= m
        bv -= m * kind_value(S, k)
        m = pchoice[k, pj, pv]
        plan[k] = m
        pj -= m
        pv -= m * kind_value(S, k)
    return best


# -- raids -----------------------------------------------------------------------------------
@borrowing
def defence_commit(S, p, g, seat, mask, attack, base):
    """Extra available units a raided village engages (besides those that must defend):
    after passing, everything; otherwise the fewest that bring its STRENGTH to the
    raider's, or none if even all of them could not. ``base``: the defence without them
    (the units that must defend, the card's bonus or malus, the trophy), so an Ambush's
    -2 is made up and a trophy's +1 spares a unit."""
    men, lmask = all_available(S, g, seat, mask)
    if g[pl(seat) + L.PL_PASSED]:
        return men, lmask
    full = base + engagement_strength(S, g, seat, men, lmask)
    if full + mean_token10(p, g) // 10 < attack - 1:
        return 0, 0
    need = attack - base
    if need <= 0:
        return 0, 0
    take, lm, _ = tribesmen_then_leaders(S, g, seat, men, lmask, need)
    return take, lm


@borrowing
def raid_token_margin(p, g, attack, defence):
    """The margin a raided defender draws its Mórrígan token against, for
    ``second_token``: a tie already stops the raid, so the token must make up
    ``attack - defence`` (a round of a Battle is won by one more than the margin); no
    second token when the raid already fails or no token in the bag could stop it."""
    need = attack - defence
    if need <= 0 or tokens_at_most(p, g, need - 1)[0] == tokens_at_most(p, g, 1 << 20)[0]:
        return -1
    return need - 1


@borrowing
def supports_raid_defence(p, g, seat, raider, attack, defence, add):
    """Offer Support to a raided Village? Greedy helps only to stop a raider level with
    it or ahead on VP, and only when its STRENGTH ``add`` (all it could bring) turns a
    raid expected to succeed (at the average token) into one expected to fail: the units
    are lost for its own actions this Month Turn and it gains no VP."""
    if g[pl(raider) + L.PL_VP] < g[pl(seat) + L.PL_VP]:
        return False
    token = mean_token10(p, g)
    return 10 * defence + token < 10 * attack <= 10 * (defence + add) + token


@borrowing
def tribesmen_then_leaders(S, g, seat, men, lmask, need):
    """Up to ``need`` of the ``men`` tribesmen, then the leaders of ``lmask`` in order
    until the STRENGTH reaches ``need``: (tribesmen, leader mask, STRENGTH)."""
    take = min(need, men)
    lm = 0
    s = take
    for k in range(L.MAX_LEADERS):
        if s >= need:
            break
        if (lmask >> k) & 1:
            lm |= 1 << k
            s += leader_strength(S, g, seat, k)
    return take, lm, s


@borrowing
def fewest_units(S, g, seat, mask, need):
    """The fewest available units of classes ``mask`` whose STRENGTH reaches ``need``
    (tribesmen first, then leaders in order), or all of them if even all fall short:
    (tribesmen, leader mask)."""
    men, lmask = all_available(S, g, seat, mask)
    if need <= 0:
        return 0, 0
    take, lm, s = tribesmen_then_leaders(S, g, seat, men, lmask, need)
    if s >= need:  # the leaders may spare tribesmen
        while take > 0 and s - 1 >= need:
            take -= 1
            s -= 1
    return take, lm


@borrowing
def accepts_raid_support(p, g, defender, attack, defence):
    """The raided player accepts Support unless its own units already hold (with the
    worst token)."""
    return defence < attack


@borrowing
def second_token(pol, g, seat, margin):
    """Spend 1 Divine Will to draw 2 Mórrígan tokens and keep the higher? ``margin`` is
    the STRENGTH the drawing side still lacks (greedy: when a token decides it, up to
    ``second_token_margin``)."""
    return g[pl(seat) + L.PL_DW] >= 1 and \
        0 <= margin <= pol[seat, L.W_SECOND_TOKEN_MARGIN]


@borrowing
def loot_worth(S, p, pol, g, seat, victim, steal):
    """What the best single item on the victim's Village is worth to the raider."""
    best = 0
    if steal != L.STEAL_HOSTAGES:
        for good in range(L.N_GOODS):
            if g[pl(victim) + L.PL_GOODS + good] > 0:
                if steal == L.STEAL_ANIMALS and not S[L.S_GOODS][good, L.GD_ANIMAL]:
                    continue
                best = max(best, worth(S, p, pol, g, seat, good))
    return best


@borrowing
def steal_pick(S, p, pol, g, seat, victim, steal, at_market, types_vp, taken, room):
    """The next item a successful raider takes: a trophy (code N_GOODS + t), a hostage
    (N_GOODS + N_TROPHIES + colour) or a good; -1 if nothing is left. ``at_market``:
    Sack on Portum Itium, whose market holds goods and tribesmen (hostages), no
    trophies. A card paying ``types_vp`` VP for 3 types of goods taken adds that VP,
    spread over the types still missing, to a good of a type not yet ``taken`` (a bit
    mask) while the ``room`` left can still complete 3 (the Sack example: Sword, Spear,
    2 Provisions)."""
    kinds = 0
    for good in range(L.N_GOODS):
        kinds += (taken >> good) & 1
    missing = 3 - kinds
    vp_points = pol[seat, L.W_VP_POINTS]
    new_type = vp_points * types_vp // missing if types_vp > 0 and 0 < missing <= room \
        else 0
    best = -1
    best_w = 0
    if steal == L.STEAL_ANY and not at_market:
        for t in range(L.N_TROPHIES):
            if g[L.G_TROPHY_OWNER + t] == victim and g[L.G_TROPHY_TRAVEL + t] == 0:
                if 80 > best_w:
                    best_w = 80
                    best = L.N_GOODS + t
    if steal != L.STEAL_ANIMALS and (not at_market or
                                     p[L.P_SACK_HOSTAGES] == L.SACK_HOSTAGES_TOO):
        for c in range(L.N_TRIBES):
            n = g[L.G_MARKET_MEN + c] if at_market else g[pl(victim) + L.PL_HOSTAGES + c]
            if n > 0:
                # a hostage scores VP; one's own tribesman is a unit again
                w = hostage_worth(S, p, pol, g, seat, c, hostages(g, seat))
                if w > best_w:
                    best_w = w
                    best = L.N_GOODS + L.N_TROPHIES + c
    if steal != L.STEAL_HOSTAGES:
        for good in range(L.N_GOODS):
            n = g[pl(victim) + L.PL_GOODS + good] if victim >= 0 else g[L.G_MARKET + good]
            if n > 0:
                if steal == L.STEAL_ANIMALS and not S[L.S_GOODS][good, L.GD_ANIMAL]:
                    continue
                w = worth(S, p, pol, g, seat, good)
                if not (taken >> good) & 1:
                    w += new_type
                if w > best_w:
                    best_w = w
                    best = good
    return best


# -- battles ---------------------------------------------------------------------------------
@borrowing
def battle_disc_estimate(p, g, att, dfn):
    """Where the battle disc should end, in tenths of a space: three rounds at the
    factions' full STRENGTH, the attacker's two cards at +1, the defender drawing two
    tokens and the attacker one."""
    return 30 * (att - dfn) + 10 - mean_token10(p, g)


@borrowing
def faction_vp(S, p, g, seat, disc10, side):
    """VP the seat expects from a Battle whose disc ends near ``disc10`` (tenths, +
    toward the attacker) if it fights on ``side`` (1 attacker, 2 defender)."""
    d = disc10 if side == 1 else -disc10
    if d < 10:
        return -p[L.P_BATTLE_VP + 1] if d < -5 else p[L.P_BATTLE_VP] // 2
    step = min(L.BATTLE_REACH, (d + 5) // 10)
    return p[L.P_BATTLE_VP + step]


@borrowing
def leading_rival(p, g, seat):
    """The other tribe with the most VP on the track (public): the one a tribe must pass
    to win, and, for the tribe ahead, the one nearest it; -1 (none) when several others
    are level at the most. Seat order is no reason to single one of them out: the first
    seat of those level was the rival once, and at the start, where seat 1's +1 VP
    leaves the other four level, seat 1 played against seat 2 (seat 2 -4.3 points)."""
    best, best_vp, level = -1, -(1 << 30), False
    for s in range(p[L.P_PLAYERS]):
        if s == seat:
            continue
        vp = g[pl(s) + L.PL_VP]
        if vp > best_vp:
            best, best_vp, level = s, vp, False
        elif vp == best_vp:
            level = True
    return -1 if level else best


@borrowing
def rival_cost(pol, seat, points):
    """What ``points`` (value points, the seat's own prices) an action gives the leading
    rival cost the seat: ``rival_percent`` of them."""
    return pol[seat, L.W_RIVAL_PERCENT] * points // 100


@borrowing
def won_vp(S, p, g, disc10, side):
    """The Battle VP a faction's players expect when the disc ends near ``disc10`` (as
    ``faction_vp``, but a lost Battle pays nothing)."""
    return 0 if side == 0 else max(0, faction_vp(S, p, g, 0, disc10, side))


@borrowing
def spare_unit_points(S, p, pol, g, seat):
    """What a point of STRENGTH engaged now gives up this Month Turn: ``unit_points``
    while the seat has not passed and still holds an Action card to play, nothing once
    no card in its hand could use the units (they would stand idle until Cleanup). A
    player deciding its Support of a Battle declared now prices it by what its best action
    loses (``appraisal.support_price``, set in the state by ``engine.support_prices``)
    where that is more; the forecast of its Support (``expected_support``), made at every
    action choice, keeps ``unit_points``."""
    if g[pl(seat) + L.PL_PASSED]:
        return 0
    for c in range(p[L.P_N_CARDS]):
        if g[pl(seat) + L.PL_CARD + c] == L.CARD_HAND and \
                S[L.S_CARDS][c, L.CD_TYPE] != L.CT_BATTLE:
            return max(pol[seat, L.W_UNIT_POINTS], g[pl(seat) + L.PL_UNIT_PRICE])
    return 0


@borrowing
def attack_commit(S, p, pol, g, seat, target, least, required):
    """The units an attacker places in the Camp (at least ``least``, the leaders of
    ``required`` among them): the deployment whose expected disc pays the most VP less
    what its units could have done elsewhere (``spare_unit_points``); ties keep more
    units. (-1, 0): fewer than ``least`` available."""
    men, lmask = all_available(S, g, seat, L.BATTLE_UNITS)
    dfn = strength_at(S, g, target, L.BATTLE_UNITS, L.AT_VILLAGE) + \
        strength_at(S, g, target, L.BATTLE_UNITS, L.AT_AVAILABLE)
    token = mean_token10(p, g)
    vp_points = pol[seat, L.W_VP_POINTS]
    unit_points = spare_unit_points(S, p, pol, g, seat)
    best_m, best_l = -1, 0
    best_v = -(1 << 40)
    for lm in range(lmask, -1, -1):
        if lm & ~lmask or lm & required != required:
            continue
        nl = 0
        for k in range(L.MAX_LEADERS):
            nl += (lm >> k) & 1
        lstr = engagement_strength(S, g, seat, 0, lm)
        for m in range(men, -1, -1):
            if m + nl < least:
                break
            att = m + lstr
            disc = 30 * (att - dfn) + 10 - token  # battle_disc_estimate, token hoisted
            v = vp_points * faction_vp(S, p, g, seat, disc, 1) - unit_points * att
            if v > best_v:
                best_v, best_m, best_l = v, m, lm
    return best_m, best_l


@borrowing
def defender_extra(S, p, pol, g, rng, seat, must, attack):
    """Available units a defender adds to the Village spaces. Greedy: the deployment
    worth most, the expected disc's VP less ``hold_back_vp`` for each unit held back
    and what the added units could have done elsewhere (``spare_unit_points``; ``must``: the
    STRENGTH already in the Village, ``attack``: the Camp's); ties add more. Random: a
    random number of its tribesmen and every leader."""
    men, lmask = all_available(S, g, seat, L.BATTLE_UNITS)
    if pol[seat, L.W_ID] == L.POL_RANDOM:
        return uniform_int(rng, L.ST_POLICY + seat, men + 1), lmask
    spare = spare_unit_points(S, p, pol, g, seat)
    token = mean_token10(p, g)
    vp_points = pol[seat, L.W_VP_POINTS]
    best_m, best_l = men, lmask
    best_v = -(1 << 40)
    for lm in range(lmask, -1, -1):
        if lm & ~lmask:
            continue
        held_leaders = 0
        for k in range(L.MAX_LEADERS):
            held_leaders += ((lmask >> k) & 1) - ((lm >> k) & 1)
        lstr = engagement_strength(S, g, seat, 0, lm)
        for m in range(men, -1, -1):
            added = m + lstr
            disc = 30 * (attack - must - added) + 10 - token  # battle_disc_estimate
            v = vp_points * (faction_vp(S, p, g, seat, disc, 2) -
                             p[L.P_HOLD_BACK_VP] * (men - m + held_leaders)) - spare * added
            if v > best_v:
                best_v, best_m, best_l = v, m, lm
    return best_m, best_l


@borrowing
def support_units(S, p, pol, g, seat, side, att_str, def_str):
    """The units the seat would add to ``side`` (1 attackers, 2 defenders) of a Battle
    whose factions stand at ``att_str`` and ``def_str``: "the available tribesmen and
    leaders that they want to add" (Battle, Support), the deployment whose expected disc
    pays the most VP less what its units could have done elsewhere
    (``spare_unit_points``; ties: fewer units). Returns (value, tribesmen, leader mask);
    (value, 0, 0) adds nothing."""
    men, lmask = all_available(S, g, seat, L.BATTLE_UNITS)
    vp_points = pol[seat, L.W_VP_POINTS]
    unit_points = spare_unit_points(S, p, pol, g, seat)
    best_v, best_m, best_l = -(1 << 40), 0, 0
    for lm in range(lmask + 1):
        if lm & ~lmask:
            continue
        lstr = engagement_strength(S, g, seat, 0, lm)
        for m in range(men + 1):
            add = m + lstr
            if add == 0:
                continue
            a = att_str + (add if side == 1 else 0)
            d = def_str + (add if side == 2 else 0)
            v = vp_points * faction_vp(S, p, g, seat, battle_disc_estimate(p, g, a, d), side) - \
                unit_points * add
            if v > best_v:
                best_v, best_m, best_l = v, m, lm
    return best_v, best_m, best_l


@borrowing
def support_side(S, p, pol, g, rng, seat, att_str, def_str, attacker, defender, dest):
    """Offer Support: 0 none, 1 the attacking faction, 2 the defending one. Greedy joins
    the faction where the units it would add (``support_units``) earn the most expected
    VP less what they could do elsewhere and less ``provision_points`` per Provision of
    the trip to the Battle (``dest``), if that is worth something and the player leading
    that faction would accept it (``accepts_support``, for a greedy leader); random
    joins at random."""
    men, lmask = all_available(S, g, seat, L.BATTLE_UNITS)
    if engagement_strength(S, g, seat, men, lmask) == 0:
        return 0
    if pol[seat, L.W_ID] == L.POL_RANDOM:
        return uniform_int(rng, L.ST_POLICY + seat, 3)
    return best_offer(S, p, pol, g, seat, att_str, def_str, attacker, defender, dest,
                      True)[0]


@borrowing
def support_offer(S, p, pol, g, seat, side, att_str, def_str, dest):
    """What the units the seat would add to ``side`` (``support_units``) are worth less
    ``provision_points`` per Provision of the trip to the Battle (``dest``); (value,
    tribesmen, leader mask), the value below any offer's if it cannot pay the trip."""
    v, m, lm = support_units(S, p, pol, g, seat, side, att_str, def_str)
    price = move_price(S, p, g, seat, dest, engagement_horses(S, g, seat, lm))[0]
    if price > g[pl(seat) + L.PL_GOODS + L.PROVISIONS]:
        return -(1 << 40), 0, 0
    return v - pol[seat, L.W_PROVISION_POINTS] * price, m, lm


@borrowing
def expected_support(S, p, pol, g, seat, att_str, def_str, attacker, defender, dest):
    """The Support the seat can be expected to bring to a Battle of ``attacker`` on
    ``defender`` whose factions stand at ``att_str`` and ``def_str``, as a greedy player
    offers it and a greedy leader accepts it (``support_side``; a player at the table
    does not know whether another plays at random): (side, tribesmen, leader mask),
    side 0 for none."""
    men, lmask = all_available(S, g, seat, L.BATTLE_UNITS)
    if engagement_strength(S, g, seat, men, lmask) == 0:
        return 0, 0, 0
    return best_offer(S, p, pol, g, seat, att_str, def_str, attacker, defender, dest,
                      False)


@borrowing
def best_offer(S, p, pol, g, seat, att_str, def_str, attacker, defender, dest,
               random_leaders_known):
    """The faction a greedy seat offers Support to (``support_offer`` worth most, above
    nothing, and accepted by the player leading that faction as ``greedy_accepts``
    reckons): (side, tribesmen, leader mask), side 0 for none. With
    ``random_leaders_known`` a random leader is offered without that reckoning
    (``support_side``: it will answer at random); the forecast (``expected_support``)
    cannot tell a random player from a greedy one."""
    best, best_m, best_l = 0, 0, 0
    best_v = 0
    for side in range(1, 3):
        v, m, lm = support_offer(S, p, pol, g, seat, side, att_str, def_str, dest)
        chief = attacker if side == 1 else defender
        if v <= best_v or not (random_leaders_known and pol[chief, L.W_ID] == L.POL_RANDOM) \
                and not greedy_accepts(S, p, g, chief, seat, side, att_str, def_str,
                                       engagement_strength(S, g, seat, m, lm)):
            continue
        best_v, best, best_m, best_l = v, side, m, lm
    return best, best_m, best_l


@borrowing
def accepts_support(S, p, g, rng, chief, policy, supporter, side, att_str, def_str, add):
    """Does the player leading ``side`` accept ``supporter``'s offer of ``add`` STRENGTH?
    Greedy refuses help from a rival level with it or ahead (the supporter would share
    the faction's VP) unless the faction expects to lose without it; it accepts a
    trailing rival's help (a margin against the tokens); random accepts half the
    offers."""
    if policy == L.POL_RANDOM:
        return uniform_int(rng, L.ST_POLICY + chief, 2) == 1
    return greedy_accepts(S, p, g, chief, supporter, side, att_str, def_str, add)


@borrowing
def greedy_accepts(S, p, g, chief, supporter, side, att_str, def_str, add):
    """``accepts_support`` for a greedy leader."""
    a = att_str + (add if side == 1 else 0)
    d = def_str + (add if side == 2 else 0)
    with_it = faction_vp(S, p, g, chief, battle_disc_estimate(p, g, a, d), side)
    without = faction_vp(S, p, g, chief, battle_disc_estimate(p, g, att_str, def_str), side)
    ahead = g[pl(supporter) + L.PL_VP] >= g[pl(chief) + L.PL_VP]
    if with_it <= without:
        return not ahead  # a margin against the tokens, from a rival behind it
    return not (ahead and without > 0)


EQUIP_ORDER = (L.FIBULA, L.SWORD, L.HAMMER, L.HORSE, L.CART, L.SPEAR)  # best bonus first


@borrowing
def equip_rank(good):
    """Place of a good in the greedy equipping order (lower is better; -1 not useful)."""
    for i in range(len(EQUIP_ORDER)):
        if EQUIP_ORDER[i] == good:
            return i
    return -1


@borrowing
def cleanup_equip(S, p, g, seat):
    """Cleanup: strip the leaders of goods a better good waiting on the Village Card
    should replace (the stripped good stays on the Village Card, to trade), then equip
    leaders from the Village Card, best bonuses first (Fibula, then strength, movement,
    capacity, battle)."""
    cleanup_strip(S, p, g, seat)
    b = pl(seat)
    for good in EQUIP_ORDER:
        for k in range(L.MAX_LEADERS):
            if g[b + L.PL_LEADER + k] < 0:
                continue
            slots = leader_slots(S, g, seat, k)
            for j in range(slots):
                if g[b + L.PL_GOODS + good] == 0:
                    break
                e = b + L.PL_EQUIP + k * L.MAX_SLOTS + j
                once = good == L.HORSE or good == L.FIBULA  # a second adds nothing
                if g[e] < 0 and not (once and equipped(g, seat, k, good) > 0):
                    g[e] = good
                    g[b + L.PL_GOODS + good] -= 1


@borrowing
def cleanup_strip(S, p, g, seat):
    """Strip one slot per good on the Village Card that ranks above the worst equipped
    good when no slot is free (a Fibula displaces a Spear: 1 VP every Cleanup); returns
    the goods stripped."""
    b = pl(seat)
    if free_slots(S, g, seat) > 0:
        return 0
    stripped = 0
    for good in EQUIP_ORDER:
        if g[b + L.PL_GOODS + good] == 0 or not wants_equipped(S, g, seat, good):
            continue
        worst_k, worst_j, worst_r = -1, -1, equip_rank(good)
        for k in range(L.MAX_LEADERS):
            if g[b + L.PL_LEADER + k] < 0:
                continue
            for j in range(leader_slots(S, g, seat, k)):
                r = equip_rank(g[b + L.PL_EQUIP + k * L.MAX_SLOTS + j])
                if r > worst_r:
                    worst_k, worst_j, worst_r = k, j, r
        if worst_k >= 0:
            strip_slot(g, seat, worst_k, worst_j)
            stripped += 1
    return stripped


@borrowing
def wants_equipped(S, g, seat, good):
    """Would some leader use one more of ``good`` (Horse and Fibula count once each)?"""
    if good != L.HORSE and good != L.FIBULA:
        return True
    for k in range(L.MAX_LEADERS):
        if g[pl(seat) + L.PL_LEADER + k] >= 0 and equipped(g, seat, k, good) == 0:
            return True
    return False


@borrowing
def pick_grey_leader(S, g):
    """Promote Tribesman: the strongest grey leader left."""
    best = -1
    for i in range(S[L.S_LEADERS].shape[0]):
        if S[L.S_LEADERS][i, L.LD_TRIBE] == -1 and g[L.G_GREY_TAKEN + i] == 0:
            if best < 0 or S[L.S_LEADERS][i, L.LD_STR] > S[L.S_LEADERS][best, L.LD_STR]:
                best = i
    return best


@borrowing
def pick_good(S, p, pol, g, seat, mask):
    """gain_choice: the most worth of the goods in ``mask`` the market still has."""
    best = -1
    best_w = -1
    for good in range(L.N_GOODS):
        if (mask >> good) & 1 and g[L.G_MARKET + good] > 0:
            w = worth(S, p, pol, g, seat, good)
            if w > best_w:
                best_w = w
                best = good
    return best


@borrowing
def choose_good(S, p, pol, g, rng, seat, mask):
    """gain_choice as played: ``pick_good``; random: uniformly among the goods of
    ``mask`` the market still has."""
    if pol[seat, L.W_ID] != L.POL_RANDOM:
        return pick_good(S, p, pol, g, seat, mask)
    n = 0
    for good in range(L.N_GOODS):
        n += (mask >> good) & 1 and g[L.G_MARKET + good] > 0
    if n == 0:
        return -1
    k = uniform_int(rng, L.ST_POLICY + seat, n)
    for good in range(L.N_GOODS):
        if (mask >> good) & 1 and g[L.G_MARKET + good] > 0:
            if k == 0:
                return good
            k -= 1
    return -1


@borrowing
def pick_trophy(S, g):
    """Masterwork: Spear of Gorias first (VP every Cleanup), then table order."""
    for t in range(L.N_TROPHIES):
        if g[L.G_TROPHY_OWNER + t] < 0 and S[L.S_TROPHIES][t, 0] == L.TP_CLEANUP_VP:
            return t
    for t in range(L.N_TROPHIES):
        if g[L.G_TROPHY_OWNER + t] < 0:
            return t
    return -1


@borrowing
def pay_pick(S, p, pol, g, seat):
    """Masterwork payment: the next good to give up (the least worth)."""
    best = -1
    best_w = 1 << 30
    for good in range(L.N_GOODS):
        if g[pl(seat) + L.PL_GOODS + good] > 0:
            w = worth(S, p, pol, g, seat, good) - S[L.S_GOODS][good, L.GD_VALUE]
            if w < best_w:
                best_w = w
                best = good
    return best


@borrowing
def distance_sum(S, p, v):
    """The Movement Cost (tile A) of a trip to territory v from every other territory of
    the map, summed (their number: ``other_territories``)."""
    base = L.TILE_A * L.MAX_NODES
    total = 0
    for u in range(p[L.P_N_NODES]):
        if u != v and S[L.S_NODES][u, 0] == L.NODE_TERRITORY:
            total += S[L.S_COST][base + u, v]
    return total


@borrowing
def other_territories(S, p):
    n = -1
    for u in range(p[L.P_N_NODES]):
        if S[L.S_NODES][u, 0] == L.NODE_TERRITORY:
            n += 1
    return n


@borrowing
def opponents_distance(S, p, g, seat, v):
    """The opponents' Movement Cost (tile A) to reach territory v, each from its nearest
    village (one without a village yet: the mean from anywhere, ``distance_sum``),
    summed and scaled by ``other_territories`` to stay exact. The farther, the dearer
    their Raids, Battles and Trades there (Territories, Sea Areas and Movement: "always
    consider carefully the distance between your village tokens and your opponent's")."""
    base = L.TILE_A * L.MAX_NODES
    scale = other_territories(S, p)
    total = 0
    for s in range(p[L.P_PLAYERS]):
        if s == seat:
            continue
        b = pl(s)
        if g[b + L.PL_VILLAGES] == 0:
            total += distance_sum(S, p, v)
            continue
        best = 1 << 30
        for k in range(g[b + L.PL_VILLAGES]):
            best = min(best, S[L.S_COST][base + g[b + L.PL_VILLAGE_NODE + k], v])
        total += scale * best
    return total


@borrowing
def free_neighbours(S, p, g, v):
    """Free territories next to v (the sites a later Clan Pact could take)."""
    base = L.TILE_A * L.MAX_NODES
    n = 0
    for u in range(p[L.P_N_NODES]):
        if u != v and S[L.S_NODES][u, 0] == L.NODE_TERRITORY and \
                g[L.G_VILLAGE + u] < 0 and S[L.S_NEXT][base + v, u] == u:
            n += 1
    return n


@borrowing
def harbour_trip(S, p, v):
    """Provisions of the trip (tile A) from territory v to Portum Itium."""
    for u in range(p[L.P_N_NODES]):
        if S[L.S_NODES][u, 0] == L.NODE_HARBOUR:
            return S[L.S_COST][L.TILE_A * L.MAX_NODES + v, u]
    return 0


@borrowing
def site_value(S, p, pol, g, seat, v):
    """What a village in territory v is worth to the seat, in value points times the
    opponents and ``other_territories`` (exact to compare): ``site_distance_points`` per
    Provision of the opponents' mean trip to it (the village they would raid, battle and
    trade with), less ``provision_points`` per Provision of the seat's own trip from it
    to Portum Itium (Trades at the market, Sack)."""
    scale = (p[L.P_PLAYERS] - 1) * other_territories(S, p)
    return pol[seat, L.W_SITE_DISTANCE_POINTS] * opponents_distance(S, p, g, seat, v) - \
        scale * pol[seat, L.W_PROVISION_POINTS] * harbour_trip(S, p, v)


@borrowing
def exposure(S, p, pol, g, seat, v):
    """What a new village in territory v costs the seat in value points (0 or less): the
    opponents reach a tribe at its nearest village, so a village ``site_value`` rates
    below the seat's best one brings them closer by the difference; one rated above
    leaves the old ones as close as they were."""
    best = -(1 << 40)
    for k in range(g[pl(seat) + L.PL_VILLAGES]):
        best = max(best, site_value(S, p, pol, g, seat, g[pl(seat) + L.PL_VILLAGE_NODE + k]))
    if best == -(1 << 40):
        return 0
    scale = (p[L.P_PLAYERS] - 1) * other_territories(S, p)
    return min(0, site_value(S, p, pol, g, seat, v) - best) // scale


@borrowing
def better_site(S, p, g, v, value, u, u_value):
    """Is site v (worth ``value``) better than u? Ties go to the cheaper trip to Portum
    Itium, then to more free neighbouring territories (Clan Pact sites); u < 0: yes."""
    if u < 0 or value != u_value:
        return u < 0 or value > u_value
    if harbour_trip(S, p, v) != harbour_trip(S, p, u):
        return harbour_trip(S, p, v) < harbour_trip(S, p, u)
    return free_neighbours(S, p, g, v) > free_neighbours(S, p, g, u)


@borrowing
def setup_site(S, p, pol, g, rng, seat):
    """Setup: the first village's territory among the free ones of the Setup Card, the
    one ``site_value`` appraises best (ties: ``better_site``; the card's order last);
    random: one of them uniformly. All three taken: share the first."""
    tribe = g[pl(seat) + L.PL_TRIBE]
    best = -1
    best_v = 0
    free = 0
    for k in range(3):
        free += g[L.G_VILLAGE + S[L.S_TRIBES][tribe, L.TR_TERRITORIES + k]] < 0
    pick = uniform_int(rng, L.ST_POLICY + seat, free) \
        if pol[seat, L.W_ID] == L.POL_RANDOM and free > 0 else -1
    for k in range(3):
        v = S[L.S_TRIBES][tribe, L.TR_TERRITORIES + k]
        if g[L.G_VILLAGE + v] >= 0:
            continue
        if pick >= 0:
            if pick == 0:
                return v
            pick -= 1
            continue
        value = site_value(S, p, pol, g, seat, v)
        if better_site(S, p, g, v, value, best, best_v):
            best, best_v = v, value
    return best if best >= 0 else S[L.S_TRIBES][tribe, L.TR_TERRITORIES]


@borrowing
def pick_site(S, p, pol, g, seat, sites, n, reduction):
    """Clan Pact: the site the player chooses among the free territories next to its
    villages (Trade, Clan Pact: "The village token must be placed in an unoccupied
    territory adjacent to a territory where there is already a Village of your tribe"):
    the one ``site_value`` appraises best, less ``provision_points`` per Provision of the
    trip there now (``reduction``: the trip's bonuses), among those it can pay for (ties:
    ``better_site``); none affordable: the cheapest to reach, which the card's
    legality then refuses. -1: no site."""
    scale = (p[L.P_PLAYERS] - 1) * other_territories(S, p)
    best, best_v = -1, 0
    cheapest, cheapest_price = -1, 1 << 30
    for i in range(n):
        v = sites[i]
        price = move_price(S, p, g, seat, v, reduction)[0]
        if price < cheapest_price:
            cheapest, cheapest_price = v, price
        if price > g[pl(seat) + L.PL_GOODS + L.PROVISIONS]:
            continue
        value = site_value(S, p, pol, g, seat, v) - \
            scale * pol[seat, L.W_PROVISION_POINTS] * price
        if better_site(S, p, g, v, value, best, best_v):
            best, best_v = v, value
    return best if best >= 0 else cheapest


@borrowing
def random_site(S, p, g, rng, seat, sites, n, reduction):
    """Clan Pact for ``random``: one of the sites it can pay for, uniformly (-1: none)."""
    k = 0
    for i in range(n):
        k += move_price(S, p, g, seat, sites[i], reduction)[0] <= \
            g[pl(seat) + L.PL_GOODS + L.PROVISIONS]
    if k == 0:
        return -1
    pick = uniform_int(rng, L.ST_POLICY + seat, k)
    for i in range(n):
        if move_price(S, p, g, seat, sites[i], reduction)[0] <= \
                g[pl(seat) + L.PL_GOODS + L.PROVISIONS]:
            if pick == 0:
                return sites[i]
            pick -= 1
    return -1


@borrowing
def gift_source(p, pol, g, rng, seat, good):
    """The Gift (Event Phase, its example): take the good "from the Portum Itium market
    or, if available, from another player's Village Card". Greedy takes it from the
    rival with most VP among those holding one (a tile its rival loses), else from the
    market; random chooses uniformly among the market (if it has one) and the rivals
    holding one. Under the reading ``the_gift_source``'s ``market_first`` the market's
    Cow while it has one. Returns the seat to take it from, TAKE_FROM_MARKET, or
    NO_SOURCE."""
    n = 0
    best = NO_SOURCE
    if g[L.G_MARKET + good] > 0:
        if p[L.P_GIFT_SOURCE] == L.GIFT_MARKET_FIRST:  # the reading the_gift_source
            return TAKE_FROM_MARKET
        n += 1
        best = TAKE_FROM_MARKET
    for s in range(p[L.P_PLAYERS]):
        if s != seat and g[pl(s) + L.PL_GOODS + good] > 0:
            n += 1
    if n == 0:
        return NO_SOURCE
    if pol[seat, L.W_ID] == L.POL_RANDOM:
        k = uniform_int(rng, L.ST_POLICY + seat, n)
        if g[L.G_MARKET + good] > 0:
            if k == 0:
                return TAKE_FROM_MARKET
            k -= 1
        for s in range(p[L.P_PLAYERS]):
            if s != seat and g[pl(s) + L.PL_GOODS + good] > 0:
                if k == 0:
                    return s
                k -= 1
    top = -1
    for s in range(p[L.P_PLAYERS]):
        if s != seat and g[pl(s) + L.PL_GOODS + good] > 0 and \
                (top < 0 or g[pl(s) + L.PL_VP] > g[pl(top) + L.PL_VP]):
            top = s
    return top if top >= 0 else best


@borrowing
def pick_special(pol, rng, seat, cards_ok, n):
    """Learning: the Special card to learn among those playable: random one uniformly;
    the greedy tribe chooses beforehand (``appraisal.best_special``), else the first."""
    if n == 0:
        return -1
    if pol[seat, L.W_ID] == L.POL_RANDOM:
        return cards_ok[uniform_int(rng, L.ST_POLICY + seat, n)]
    return cards_ok[0]


@borrowing
def hostage_pick(pol, g, rng, seat, own):
    """Set-up hostage: a market tribesman not of the tribe's own colour: the colour with
    most left; random: uniformly among the colours there."""
    if pol[seat, L.W_ID] == L.POL_RANDOM:
        n = 0
        for c in range(L.N_TRIBES):
            n += c != own and g[L.G_MARKET_MEN + c] > 0
        if n == 0:
            return -1
        k = uniform_int(rng, L.ST_POLICY + seat, n)
        for c in range(L.N_TRIBES):
            if c != own and g[L.G_MARKET_MEN + c] > 0:
                if k == 0:
                    return c
                k -= 1
    best = -1
    for c in range(L.N_TRIBES):
        if c != own and g[L.G_MARKET_MEN + c] > 0:
            if best < 0 or g[L.G_MARKET_MEN + c] > g[L.G_MARKET_MEN + best]:
                best = c
    return best


@borrowing
def card_has_op(S, c, op):
    for k in range(S[L.S_CARDS][c, L.CD_N_OPS]):
        if S[L.S_CARDS][c, L.CD_OPS + k * L.OP_WIDTH] == op:
            return True
    return False


@borrowing
def in_style(S, policy, c):
    """Is playing card c (-1: declaring a Battle) an action of the policy's trait?"""
    if c < 0:
        return policy == L.POL_BATTLE
    kind = S[L.S_CARDS][c, L.CD_TYPE]
    if policy == L.POL_BATTLE:
        return kind == L.CT_BATTLE
    if policy == L.POL_RAID:
        return kind == L.CT_RAID
    if policy == L.POL_TRADE:
        return kind == L.CT_TRADE
    if policy == L.POL_MYSTICISM:
        return card_has_op(S, c, L.OP_DIVINE_WILL)
    if policy == L.POL_CRAFTSMANSHIP:
        return kind == L.CT_DEVELOPMENT and (card_has_op(S, c, L.OP_GAIN_CHOICE) or
                                             card_has_op(S, c, L.OP_TROPHY) or
                                             (card_has_op(S, c, L.OP_GAIN) and
                                              not card_has_op(S, c, L.OP_DIVINE_WILL)))
    return False


@borrowing
def style_score(S, pol, seat, c, score):
    """A trait style's appraisal: the greedy score, plus the seat's ``style_bonus`` for an
    action of its trait that is worth something (a losing action stays a loss)."""
    if score > 0 and in_style(S, pol[seat, L.W_ID], c):
        return score + pol[seat, L.W_STYLE_BONUS]
    return score


@borrowing
def choose(scores, n, rng, seat, policy, pass_score):
    """The action to play: index into the candidates, or -1 to pass. Greedy plays the
    best score above passing's (an action worth no more than passing is not played); of
    actions scored alike it takes one uniformly (the seat's policy stream): an appraisal
    that scores two actions the same gives the player no reason to prefer either, and the
    order of the candidates (the cards' order in the data, the seats') is no
    preference of a player at the table."""
    if policy == L.POL_RANDOM:
        k = uniform_int(rng, L.ST_POLICY + seat, n + 1)
        return k - 1
    best_s = pass_score
    tied = 0
    for i in range(n):
        if scores[i] > best_s:
            best_s = scores[i]
            tied = 1
        elif scores[i] == best_s and tied > 0:
            tied += 1
    if tied == 0:
        return -1
    pick = uniform_int(rng, L.ST_POLICY + seat, tied) if tied > 1 else 0
    for i in range(n):
        if scores[i] == best_s:
            if pick == 0:
                return i
            pick -= 1
    return -1


@borrowing
def battle_card_pick(S, g, cards, n, own_units, opp_units):
    """The faction's Battle card for a round: the largest STRENGTH lead it gives.
    ``cards``: candidate card ids; own/opp_units: STRENGTH by class for each side."""
    best = -1
    best_v = -(1 << 30)
    for i in range(n):
        c = cards[i]
        row = S[L.S_CARDS][c]
        mask = row[L.CD_UNITS]
        v = 0
        for cl in range(len(L.CLASSES)):
            if (mask >> cl) & 1:
                v += own_units[cl] - opp_units[cl]
        for k in range(row[L.CD_N_OPS]):
            o = L.CD_OPS + k * L.OP_WIDTH
            if row[o] == L.OP_BATTLE:
                v += row[o + 1] - row[o + 3]
        if v > best_v:
            best_v = v
            best = i
    return best
