"""The greedy tribe's appraisal of an action (value points: 1 VP = the seat's
``vp_points``, 30 by default; the numbers are the seat's policy weights, ``weights``),
reading what the card's operations do; ``policies`` holds the other choices. Kept apart from
``policies`` because it asks the rules (``actions``, ``battle``) what a play would
engage, cost and take."""

import numpy as np

from simkit.unmanaged import allocating, borrowing

from . import layout as L
from . import policies as PO
from .actions import (
    card_op,
    clan_pact_site,
    destination,
    learnable,
    legal_engagement,
    playable,
    target_fits,
    trade_capacity,
    travel_reduction,
    trip_engagement,
)
from .battle import camp_units, can_declare
from .state import (
    engagement_strength,
    find_op,
    leader_class,
    leader_strength,
    move_price,
    nearest_village,
    pl,
)


@borrowing
def trade_gain(S, p, pol, g, seat, c, target, men, lmask, extra, bonus_vp):
    """Trade: the gain of the trade card c would make (``PO.trade_plan``), or NO_TRADE,
    planned on the Provisions left once the trip is paid, as ``op_trade`` plans it."""
    dest = destination(S, p, g, seat, c, target)
    price = 0
    if dest >= 0:
        price = move_price(S, p, g, seat, dest, travel_reduction(S, g, seat, c, lmask))[0]
    return paid_trade_gain(S, p, pol, g, seat, c, target, men, lmask, extra, bonus_vp, price)


@allocating
def paid_trade_gain(S, p, pol, g, seat, c, target, men, lmask, extra, bonus_vp, price):
    """``trade_gain`` for a trip of ``price`` Provisions (``card_value`` prices the trip
    once for the plan and the card's cost); at the leading rival's Village, less
    ``rival_percent`` of the surplus the trade leaves it (the value sold beyond the value
    bought, 10 value points a point: the rulebook's Trade gives no change)."""
    b = pl(seat)
    cap = trade_capacity(S, g, seat, c, men, lmask, extra)
    g[b + L.PL_GOODS + L.PROVISIONS] -= price
    plan = np.zeros(PO.PLAN_SIZE, dtype=np.int64)
    gain = PO.trade_plan(S, p, pol, g, seat, target, cap,
                         pol[seat, L.W_VP_POINTS] * bonus_vp, plan)
    g[b + L.PL_GOODS + L.PROVISIONS] += price
    if gain != PO.NO_TRADE and target >= 0 and target == PO.leading_rival(p, g, seat):
        surplus = 0
        for k in range(PO.N_KINDS):
            surplus += (plan[k] - plan[PO.N_KINDS + k]) * PO.kind_value(S, k)
        gain -= PO.rival_cost(pol, seat, 10 * surplus)
    return gain


@borrowing
def card_value(S, p, pol, g, seat, c, target, men, lmask):
    """What playing card c against ``target`` with these units is worth to the seat; a
    Learning by the Special card it would learn (``best_special``: that card's cost and
    units are the ones engaged, the Learning example)."""
    learned, learned_value = -1, 0
    if find_op(S, c, L.OP_LEARN) >= 0:
        learned, learned_value = special_choice(S, p, pol, g, seat)
    return play_value(S, p, pol, g, seat, c, target, men, lmask, learned, learned_value)


@borrowing
def play_value(S, p, pol, g, seat, c, target, men, lmask, learned, learned_value):
    """``card_value`` once a Learning's Special card, ``learned``, is chosen (-1: none;
    a Special card has no Learning, so ``special_choice`` appraises them here), its best
    play now worth ``learned_value``."""
    v = 0
    b = pl(seat)
    vp_points = pol[seat, L.W_VP_POINTS]
    dest = destination(S, p, g, seat, c, target)
    price = 0  # the trip's Provisions, for a trade's plan and the card's cost
    if dest >= 0:
        price = move_price(S, p, g, seat, dest, travel_reduction(S, g, seat, c, lmask))[0]
    for k in range(S[L.S_CARDS][c, L.CD_N_OPS]):
        op = card_op(S, c, k, 0)
        a = card_op(S, c, k, 1)
        a2 = card_op(S, c, k, 2)
        if op == L.OP_GAIN:
            v += PO.units_worth(S, p, pol, g, seat, a, min(a2, g[L.G_MARKET + a]))
        elif op == L.OP_GAIN_CHOICE:
            good = PO.pick_good(S, p, pol, g, seat, a)
            if good >= 0:
                v += PO.worth(S, p, pol, g, seat, good)
        elif op == L.OP_DIVINE_WILL:
            v += PO.divine_will_worth(S, p, pol, g, seat, min(a, g[L.G_POOL_DW]))
        elif op == L.OP_VP:
            v += vp_points * a
        elif op == L.OP_PAY:
            v -= PO.units_worth(S, p, pol, g, seat, a, -a2)
        elif op == L.OP_LEARN:  # its VP, the card, and the learned Special's cost engaged
            v += vp_points + learning_worth(p, pol, g, seat, learned_value) - \
                pol[seat, L.W_ENGAGED_POINTS] * learning_cost(S, g, seat, learned)
        elif op == L.OP_PROMOTE:
            v += 10 * PO.month_turns_left(p, g)
        elif op == L.OP_TRADE:
            gain = paid_trade_gain(S, p, pol, g, seat, c, target, men, lmask, a, a2, price)
            if gain == PO.NO_TRADE:
                return -1
            v += gain + vp_points * a2
        elif op == L.OP_RAID:
            v += PO.raid_value(S, p, pol, g, seat, c, k, target, men, lmask)
        elif op == L.OP_TYPES_VP:
            v += vp_points * a // 2
        elif op == L.OP_CLAN_PACT:  # the village objectives it reaches, and the rest
            v += vp_points * PO.village_objectives_vp(S, p, g, seat) + \
                pol[seat, L.W_CLAN_PACT_POINTS] + \
                (30 if g[L.G_MARKET_MEN + g[b + L.PL_TRIBE]] > 0 else 0)
        elif op == L.OP_TROPHY:
            v += 90 - 10 * a
    if card_op(S, c, 0, 0) == L.OP_CLAN_PACT:
        dest = clan_pact_site(S, p, pol, g, seat, travel_reduction(S, g, seat, c, lmask))
        price = 0
        if dest >= 0:
            price = move_price(S, p, g, seat, dest,
                               travel_reduction(S, g, seat, c, lmask))[0]
            v += PO.exposure(S, p, pol, g, seat, dest)
    v -= price * pol[seat, L.W_PROVISION_POINTS]
    # units left for later actions
    v -= pol[seat, L.W_ENGAGED_POINTS] * engagement_strength(S, g, seat, men, lmask)
    return v


@borrowing
def keep_reserve(S, p, pol, g, seat):
    """Set the Provisions the seat keeps for travel (``PO.provision_reserve``): the
    dearest trip (``PO.card_trip``) of a card in its hand whose best play, had it the
    Provisions of that trip, is worth something (``card_value`` above 0, the trip's
    Provisions at ``provision_points`` and the units engaged counted in it); a card it
    cannot play now for want of STRENGTH still counts (its units come back at
    Cleanup). A Provision kept for a card the tribe would not play (a Celebration with
    nothing worth trading) is not short."""
    b = pl(seat)
    at = b + L.PL_GOODS + L.PROVISIONS
    keep = g[at]
    n = 0
    for c in range(p[L.P_N_CARDS]):
        if g[b + L.PL_CARD + c] != L.CARD_HAND or S[L.S_CARDS][c, L.CD_TYPE] == L.CT_BATTLE:
            continue
        trip = PO.card_trip(S, p, g, seat, c)
        if trip <= n:
            continue
        g[at] = max(keep, trip)
        if worth_playing(S, p, pol, g, seat, c):
            n = trip
        g[at] = keep
    g[b + L.PL_RESERVE] = n


#: below any card's value: a card that cannot be played at a target
NO_VALUE = -(1 << 40)


@borrowing
def worth_playing(S, p, pol, g, seat, c):
    """Is card c, at one of its targets, worth more than nothing now (``card_value``,
    a trait style's bonus added)? A card the seat has not the STRENGTH to play is, its
    units coming back; one whose conditions are unmet (goods to pay, a site) is not."""
    if not playable(S, p, g, seat, c):
        return False
    units = False
    for t in range(-2, p[L.P_PLAYERS]):
        strong_enough, v = value_at(S, p, pol, g, seat, c, t)
        units |= strong_enough
        if v > 0:
            return True
    return not units


@borrowing
def value_at(S, p, pol, g, seat, c, t):
    """Card c played at ``t`` as greedy would play it (the units ``PO.action_units``
    engages, a trip's riders): (whether ``t`` is a listed target the seat has the
    STRENGTH for, ``card_value`` with a trait style's bonus), the value ``NO_VALUE``
    where the card cannot be played there."""
    if not listed_target(S, seat, c, t):
        return False, NO_VALUE
    men, lmask = PO.action_units(S, p, pol, g, seat, c, t)
    if men < 0:
        return False, NO_VALUE
    men, lmask = trip_engagement(S, p, pol, g, seat, c, t, men, lmask)
    if men < 0:
        return True, NO_VALUE
    return True, PO.style_score(S, pol, seat, c,
                                card_value(S, p, pol, g, seat, c, t, men, lmask))


@borrowing
def listed_target(S, seat, c, t):
    """Is ``t`` one of card c's targets (the targets ``engine.candidates`` lists: -2 the
    market, -1 none, else a player): a Trade or Raid away targets a player, any other
    card away none, a card at Portum Itium the market, a card at the Village none."""
    loc = S[L.S_CARDS][c, L.CD_LOCATION]
    targeted = find_op(S, c, L.OP_TRADE) >= 0 or find_op(S, c, L.OP_RAID) >= 0
    return not (loc == L.LOC_AWAY and (t < 0 if targeted else t != -1) or
                loc == L.LOC_PORTUM and t != -2 or loc == L.LOC_VILLAGE and t != -1 or
                t == seat or not target_fits(S, c, t, seat))


@borrowing
def learning_cost(S, g, seat, special):
    """The STRENGTH a Learning of Special card ``special`` engages (its cost and units:
    the Learning example, Lindsay engaged for Consecrated Ground; 0 for none)."""
    if special < 0:
        return 0
    men, lmask = PO.choose_engagement(S, g, seat, S[L.S_CARDS][special, L.CD_COST],
                                      S[L.S_CARDS][special, L.CD_UNITS], 0)
    return engagement_strength(S, g, seat, max(men, 0), lmask)


@borrowing
def learning_worth(p, pol, g, seat, special_value):
    """What the Special card a Learning adds is worth besides Learning's VP: it stays in
    the tribe's deck, back in hand at every Cleanup, so ``learn_percent`` percent of its
    best play now (``special_value``, nothing if that is worth nothing) for each Month
    Turn left after this one (this one's units are engaged by the Learning itself)."""
    turns_after = max(0, PO.month_turns_left(p, g) - 1)
    return pol[seat, L.W_LEARN_PERCENT] * max(special_value, 0) * turns_after // 100


@borrowing
def best_special(S, p, pol, g, seat):
    """Learning: the Special card whose best play now is worth the most (-1: none)."""
    return special_choice(S, p, pol, g, seat)[0]


@allocating
def special_choice(S, p, pol, g, seat):
    """Learning: the Special card whose best play now is worth the most, and that worth
    (a trait style's bonus added; a Raid card's beyond the Raid the hand already makes,
    ``held_raid_value``); (-1, 0): none to learn."""
    buf = np.zeros(L.MAX_NODES, dtype=np.int64)
    n = learnable(S, p, g, seat, buf)
    best = -1
    best_v = NO_VALUE
    raid_held = held_raid_value(S, p, pol, g, seat) if n > 0 else 0
    for i in range(n):
        c = buf[i]
        if S[L.S_CARDS][c, L.CD_TYPE] == L.CT_BATTLE:
            v = 20 * (1 + card_op(S, c, 0, 1) - card_op(S, c, 0, 3))
        else:
            g[pl(seat) + L.PL_CARD + c] = L.CARD_HAND
            v = best_play_now(S, p, pol, g, seat, c)
            g[pl(seat) + L.PL_CARD + c] = L.CARD_UNLEARNED
            if v == NO_VALUE:
                v = 10  # not playable now: a later use
            elif S[L.S_CARDS][c, L.CD_TYPE] == L.CT_RAID:
                v -= raid_held  # a raid the tribe could make with a card it holds
        v = PO.style_score(S, pol, seat, c, v)
        if v > best_v:
            best_v = v
            best = c
    return best, (best_v if best >= 0 else 0)


@borrowing
def held_raid_value(S, p, pol, g, seat):
    """The best Raid on a Village the seat could make now with a Raid card in its hand,
    appraised as ``special_choice`` appraises a Special card (0: none worth anything). A
    learned Raid card adds only what it raids beyond it: the villages worth raiding and
    the units to raid them are the same whichever card."""
    best = 0
    for c in range(p[L.P_N_CARDS]):
        if g[pl(seat) + L.PL_CARD + c] == L.CARD_HAND and \
                S[L.S_CARDS][c, L.CD_TYPE] == L.CT_RAID and \
                S[L.S_CARDS][c, L.CD_LOCATION] == L.LOC_AWAY:
            best = max(best, PO.style_score(S, pol, seat, c,
                                            best_play_now(S, p, pol, g, seat, c)))
    return best


@borrowing
def best_play_now(S, p, pol, g, seat, c):
    """Card c's best legal play now over its targets (``play_value`` with the units
    ``legal_engagement`` chooses, no Learning), or ``NO_VALUE``. (``play_value``, not
    ``value_at``: a card's value may ask for the Learning's, and numba cannot cache a
    call cycle.)"""
    v = NO_VALUE
    for t in range(-2, p[L.P_PLAYERS]):
        if t == seat:
            continue
        men, lmask = legal_engagement(S, p, pol, g, seat, c, t)
        if men >= 0:
            v = max(v, play_value(S, p, pol, g, seat, c, t, men, lmask, -1, 0))
    return v


@allocating
def battle_value(S, p, pol, g, seat, target):
    """A Battle declaration on ``target``: the VP of the disc forecast round by round
    (each faction, with the Support the others would bring it, playing its best Battle
    card, the other adding an average token), less what the seat's units could have
    done, and less ``rival_percent`` of the Battle VP the leading rival can expect (as
    the defender or a forecast supporter: ``PO.won_vp``)."""
    if not can_declare(S, p, g, seat, target):
        return -(1 << 20)
    own = np.zeros(len(L.CLASSES), dtype=np.int64)
    opp = np.zeros(len(L.CLASSES), dtype=np.int64)
    a_cards = np.zeros(L.MAX_CARDS, dtype=np.int64)
    d_cards = np.zeros(L.MAX_CARDS, dtype=np.int64)
    return battle_forecast(S, p, pol, g, seat, target, own, opp, a_cards, d_cards)


@borrowing
def battle_forecast(S, p, pol, g, seat, target, own, opp, a_cards, d_cards):
    """``battle_value`` on the caller's scratch arrays (zeroed class strengths ``own``
    and ``opp``; the hands ``a_cards`` and ``d_cards``): the loops run without
    reference counting."""
    men, lmask = camp_units(S, p, pol, g, seat, target)
    class_strengths(S, g, seat, men, lmask, own)
    dm, dl = PO.all_available(S, g, target, L.BATTLE_UNITS)
    class_strengths(S, g, target, dm, dl, opp)
    opp[L.TRIBESMAN] += g[pl(target) + L.PL_MEN_VILLAGE]
    for k in range(L.MAX_LEADERS):
        if g[pl(target) + L.PL_LEADER + k] >= 0 and \
                g[pl(target) + L.PL_LEADER_AT + k] == L.AT_VILLAGE:
            opp[leader_class(S, g, target, k)] += leader_strength(S, g, target, k)
    for cl in range(len(L.CLASSES)):
        if not (L.BATTLE_UNITS >> cl) & 1:
            opp[cl] = 0
    attack_units = own.sum()
    rival = PO.leading_rival(p, g, seat)
    rside = forecast_support(S, p, pol, g, seat, target, own, opp, rival)
    token = PO.mean_token10(p, g)
    na = battle_hand(S, p, g, seat, a_cards)
    nd = battle_hand(S, p, g, target, d_cards)
    disc10 = 0
    for r in range(3):
        if r == 1 and nd > 0:
            i = PO.battle_card_pick(S, g, d_cards, nd, opp, own)
            disc10 -= 10 * card_lead(S, d_cards[i], opp, own) - token
            d_cards[i] = d_cards[nd - 1]
            nd -= 1
        elif r != 1 and na > 0:
            i = PO.battle_card_pick(S, g, a_cards, na, own, opp)
            disc10 += 10 * card_lead(S, a_cards[i], own, opp) - token
            a_cards[i] = a_cards[na - 1]
            na -= 1
        else:
            disc10 += 10 * (own.sum() - opp.sum())
        disc10 = max(-30, min(30, disc10))
    vp_points = pol[seat, L.W_VP_POINTS]
    if rival == target:
        rside = 2
    return vp_points * PO.faction_vp(S, p, g, seat, disc10, 1) - \
        PO.spare_unit_points(S, p, pol, g, seat) * attack_units - \
        PO.rival_cost(pol, seat, vp_points * PO.won_vp(S, p, g, disc10, rside))


@borrowing
def forecast_support(S, p, pol, g, seat, target, own, opp, rival):
    """The Support the other players who have not passed would bring, in playing order
    (Battle, Support: "the available tribesmen and leaders that they want to add"), as
    ``PO.expected_support`` forecasts each offer from the units it holds available,
    added to the class strengths ``own`` (the seat's attack) and ``opp`` (the
    defence). Returns the faction ``rival`` is forecast to join (0: none)."""
    dest = nearest_village(S, p, g, seat, target)
    rside = 0
    for i in range(p[L.P_PLAYERS]):
        s = g[L.G_ORDER + i]
        if s == seat or s == target or g[pl(s) + L.PL_PASSED]:
            continue
        side, m, lm = PO.expected_support(S, p, pol, g, s, own.sum(), opp.sum(), seat,
                                          target, dest)
        if side == 1:
            class_strengths(S, g, s, m, lm, own)
        elif side == 2:
            class_strengths(S, g, s, m, lm, opp)
        if s == rival:
            rside = side
    return rside


@allocating
def best_battle(S, p, pol, g, seat):
    """The most a Battle the seat could declare now is worth (``battle_value``, a trait
    style's bonus added; 0 if none is worth anything)."""
    best = 0
    for t in range(p[L.P_PLAYERS]):
        if t != seat:
            best = max(best, PO.style_score(S, pol, seat, -1, battle_value(S, p, pol, g, seat, t)))
    return best


@allocating
def battle_loss(S, p, pol, g, seat, men, lmask, best):
    """What engaging these units for a card costs beyond ``engaged_points`` per STRENGTH
    (which ``play_value`` counts): the Action Phase goes on, so a Battle the seat could
    declare (worth ``best``, ``best_battle``) is declared after the card with the units
    left, or not at all; the loss is what that Battle is worth less, if it exceeds
    ``engaged_points`` per STRENGTH engaged (units for later actions)."""
    if best <= 0 or men + lmask == 0:
        return 0
    set_aside(g, seat, men, lmask, True)  # the units engaged are available ones
    after = best_battle(S, p, pol, g, seat)
    set_aside(g, seat, men, lmask, False)
    return max(0, best - after -
               pol[seat, L.W_ENGAGED_POINTS] * engagement_strength(S, g, seat, men, lmask))


@allocating
def best_play(S, p, pol, g, seat):
    """The most an action the seat could take now is worth (0 if none is worth
    anything): a card in its hand at its best target (``value_at``, as
    ``worth_playing`` lists them) or a Battle it could declare (``best_battle``)."""
    best = best_battle(S, p, pol, g, seat)
    for c in range(p[L.P_N_CARDS]):
        if g[pl(seat) + L.PL_CARD + c] != L.CARD_HAND or \
                S[L.S_CARDS][c, L.CD_TYPE] == L.CT_BATTLE or not playable(S, p, g, seat, c):
            continue
        for t in range(-2, p[L.P_PLAYERS]):
            best = max(best, value_at(S, p, pol, g, seat, c, t)[1])
    return best


@allocating
def support_price(S, p, pol, g, seat):
    """What a point of STRENGTH the seat engages in a Support costs it: what its best
    action (``best_play``) is worth less with every available Battle unit engaged, per
    STRENGTH of them (the Support's units stay on its Travel Card until Cleanup: the
    Raids, Trades and Battles it could still make lose them)."""
    men, lmask = PO.all_available(S, g, seat, L.BATTLE_UNITS)
    strength = engagement_strength(S, g, seat, men, lmask)
    if strength == 0:
        return 0
    now = best_play(S, p, pol, g, seat)
    set_aside(g, seat, men, lmask, True)
    after = best_play(S, p, pol, g, seat)
    set_aside(g, seat, men, lmask, False)
    return max(0, now - after) // strength


@borrowing
def set_aside(g, seat, men, lmask, aside):
    """Move ``men`` available tribesmen and the available leaders of ``lmask`` onto the
    seat's Travel Card (``aside``) or back, so that an appraisal sees what the seat could
    do without them (the caller puts back what it set aside)."""
    b = pl(seat)
    g[b + L.PL_MEN] += -men if aside else men
    for k in range(L.MAX_LEADERS):
        if (lmask >> k) & 1:
            g[b + L.PL_LEADER_AT + k] = L.AT_TRAVEL if aside else L.AT_AVAILABLE


@borrowing
def class_strengths(S, g, seat, men, lmask, out):
    out[L.TRIBESMAN] += men
    for k in range(L.MAX_LEADERS):
        if (lmask >> k) & 1:
            out[leader_class(S, g, seat, k)] += leader_strength(S, g, seat, k)


@borrowing
def battle_hand(S, p, g, seat, out):
    n = 0
    for c in range(p[L.P_N_CARDS]):
        if g[pl(seat) + L.PL_CARD + c] == L.CARD_HAND and \
                S[L.S_CARDS][c, L.CD_TYPE] == L.CT_BATTLE:
            out[n] = c
            n += 1
    return n


@borrowing
def card_lead(S, c, own, opp):
    """STRENGTH lead a Battle card gives its faction over the other (before tokens)."""
    row = S[L.S_CARDS][c]
    v = 0
    for cl in range(len(L.CLASSES)):
        if (row[L.CD_UNITS] >> cl) & 1:
            v += own[cl] - opp[cl]
    for k in range(row[L.CD_N_OPS]):
        o = L.CD_OPS + k * L.OP_WIDTH
        if row[o] == L.OP_BATTLE:
            v += row[o + 1] - row[o + 3]
    return v
