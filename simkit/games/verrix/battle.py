"""Battle (rulebook: Action, Reaction and Support, Battle): declaration with 4 units,
the Camp and Village spaces, the defender's mandatory units and the VP penalty for
holding back, Support offers, three rounds with Battle cards and Mórrígan tokens on the
Battle Progression Track, and the VP at the end (ties: 3 VP to every player in it).
"""

import numpy as np
from numba import njit

from simkit.eventlog import log_event
from simkit.unmanaged import borrowing

from . import layout as L
from . import policies as PO
from .actions import morrigan_draw, pay_movement, travel_reduction, vp
from .checks import step_checked
from .events import (
    EV_BATTLE,
    EV_DISC,
    EV_ENGAGE,
    EV_HELD_BACK,
    EV_REFUSED,
    EV_ROUND,
    EV_SUPPORT,
)
from .state import (
    engage,
    engagement_strength,
    leader_bonus,
    leader_class,
    leader_strength,
    move_price,
    nearest_village,
    pl,
    trophy_holder,
    units_at,
)

MIN_UNITS = 4  # units needed to declare a Battle


@borrowing
def min_units(S, g, seat):
    """Units needed to declare a Battle: 4, or the tribe's Ability Card's number."""
    n = S[L.S_TRIBES][g[pl(seat) + L.PL_TRIBE], L.TR_BATTLE_UNITS]
    return n if n > 0 else MIN_UNITS


@borrowing
def march_reduction(S, g, seat, lmask):
    """Movement Cost bonuses of a Battle declaration: Horses, or all of it (Blue)."""
    if S[L.S_TRIBES][g[pl(seat) + L.PL_TRIBE], L.TR_BATTLE_FREE_MARCH]:
        return 1 << 20
    return travel_reduction(S, g, seat, -1, lmask)

@borrowing
def camp_units(S, p, pol, g, seat, target):
    """The units the attacker engages in the Camp (``PO.attack_commit``); if the march
    with its choice costs more Provisions than it has, every available leader comes
    along (their Horses make the march ``can_declare`` found affordable)."""
    least = min_units(S, g, seat)
    m, lm = PO.attack_commit(S, p, pol, g, seat, target, least, 0)
    dest = nearest_village(S, p, g, seat, target)
    if move_price(S, p, g, seat, dest, march_reduction(S, g, seat, lm))[0] > \
            g[pl(seat) + L.PL_GOODS + L.PROVISIONS]:
        m, lm = PO.attack_commit(S, p, pol, g, seat, target, least,
                                 PO.all_available(S, g, seat, L.BATTLE_UNITS)[1])
    return m, lm


# faction slots: units[seat] = (tribesmen, leader mask) on the Battle Board
NO_SIDE, ATTACK, DEFEND = 0, 1, 2


@borrowing
def can_declare(S, p, g, seat, target):
    """A Battle needs at least 4 available tribesmen, warriors and mystics (Blue: 3), and the
    Provisions for the trip to the target's village."""
    if target == seat or target < 0:
        return False
    if units_at(S, g, seat, L.BATTLE_UNITS, L.AT_AVAILABLE) < min_units(S, g, seat):
        return False
    men, lmask = PO.all_available(S, g, seat, L.BATTLE_UNITS)
    dest = nearest_village(S, p, g, seat, target)
    price, _ = move_price(S, p, g, seat, dest, march_reduction(S, g, seat, lmask))
    return price <= g[pl(seat) + L.PL_GOODS + L.PROVISIONS]


@borrowing
def side_strength(S, g, side, faction, men, lmask, mask, spear):
    """STRENGTH of a faction in a round open to the classes ``mask``: its tribesmen and
    the leaders of those classes, +spear per fighting leader with a battle good."""
    total = 0
    for s in range(L.MAX_PLAYERS):
        if side[s] != faction:
            continue
        if mask & 1:
            total += men[s]
        for k in range(L.MAX_LEADERS):
            if (lmask[s] >> k) & 1 and (mask >> leader_class(S, g, s, k)) & 1:
                total += leader_strength(S, g, s, k)
                total += spear * leader_bonus(S, g, s, k, L.BONUS_BATTLE)
    return total


@borrowing
def class_strength(S, g, side, faction, men, lmask, out):
    """STRENGTH by class of a faction's deployed units (for choosing a card)."""
    out[:] = 0
    for s in range(L.MAX_PLAYERS):
        if side[s] != faction:
            continue
        out[L.TRIBESMAN] += men[s]
        for k in range(L.MAX_LEADERS):
            if (lmask[s] >> k) & 1:
                out[leader_class(S, g, s, k)] += leader_strength(S, g, s, k)


@njit(cache=True, nogil=True)
def faction_card(S, p, g, side, faction, men, lmask, opp_men, opp_lmask):
    """The Battle card a faction plays (its members share their cards; the leading
    player decides): returns (card, owner seat) or (-1, -1)."""
    cards = np.zeros(L.MAX_CARDS * L.MAX_PLAYERS, dtype=np.int64)
    owners = np.zeros(L.MAX_CARDS * L.MAX_PLAYERS, dtype=np.int64)
    n = 0
    for s in range(p[L.P_PLAYERS]):
        if side[s] != faction:
            continue
        for c in range(p[L.P_N_CARDS]):
            if g[pl(s) + L.PL_CARD + c] == L.CARD_HAND and \
                    S[L.S_CARDS][c, L.CD_TYPE] == L.CT_BATTLE:
                cards[n] = c
                owners[n] = s
                n += 1
    if n == 0:
        return -1, -1
    own = np.zeros(len(L.CLASSES), dtype=np.int64)
    opp = np.zeros(len(L.CLASSES), dtype=np.int64)
    class_strength(S, g, side, faction, men, lmask, own)
    class_strength(S, g, side, 3 - faction, opp_men, opp_lmask, opp)
    i = PO.battle_card_pick(S, g, cards, n, own, opp)
    return cards[i], owners[i]


@njit(cache=True, nogil=True)
def battle_round(S, p, pol, g, rng, side, men, lmask, leader, first, log):
    """One round: faction ``first`` plays a Battle card (else the other; else none and
    both draw), the other draws a Mórrígan token (kept out until the Battle ends);
    returns attack STRENGTH minus defence STRENGTH."""
    card = -1
    owner = -1
    player = first
    card, owner = faction_card(S, p, g, side, first, men, lmask, men, lmask)
    if card < 0:
        player = 3 - first
        card, owner = faction_card(S, p, g, side, player, men, lmask, men, lmask)
    mask = L.BATTLE_UNITS | (1 << L.MERCHANT) | (1 << L.CRAFTSMAN)
    bonus = 0
    enemy = 0
    spear = 0
    if card >= 0:
        g[pl(owner) + L.PL_CARD + card] = L.CARD_DISCARD
        g[pl(owner) + L.PL_USES + card] += 1
        mask = S[L.S_CARDS][card, L.CD_UNITS]
        for k in range(S[L.S_CARDS][card, L.CD_N_OPS]):
            o = L.CD_OPS + k * L.OP_WIDTH
            if S[L.S_CARDS][card, o] == L.OP_BATTLE:
                bonus = S[L.S_CARDS][card, o + 1]
                spear = S[L.S_CARDS][card, o + 2]
                enemy = S[L.S_CARDS][card, o + 3]
    spear_a = spear if player == ATTACK else 0
    spear_d = spear if player == DEFEND else 0
    att = side_strength(S, g, side, ATTACK, men, lmask, mask, spear_a)
    dfn = side_strength(S, g, side, DEFEND, men, lmask, mask, spear_d)
    holder = trophy_holder(S, g, L.TP_STRENGTH)
    if holder >= 0 and side[holder] == ATTACK:
        att += 1
    if holder >= 0 and side[holder] == DEFEND:
        dfn += 1
    if card >= 0:
        if player == ATTACK:
            att += bonus
            dfn = max(0, dfn + enemy)
            dfn += morrigan_draw(p, pol, g, rng, leader[DEFEND], att - dfn, True)
        else:
            dfn += bonus
            att = max(0, att + enemy)
            att += morrigan_draw(p, pol, g, rng, leader[ATTACK], dfn - att, True)
    else:
        a_tok = morrigan_draw(p, pol, g, rng, leader[ATTACK], dfn - att, True)
        d_tok = morrigan_draw(p, pol, g, rng, leader[DEFEND], att - dfn, True)
        att += a_tok
        dfn += d_tok
    log_event(log, EV_ROUND, card, att, dfn)
    return att - dfn


@borrowing
def deploy_supporters(S, p, pol, g, rng, side, men, lmask, attacker, defender, dest,
                      log):
    """Support: players who have not passed, in playing order, offer to join a faction
    with the units they want to add (``PO.support_units``), paying the Movement Cost;
    the player leading the faction may refuse an offer
    ("The player leading the faction that receives that Support offer can refuse the
    proposal"). A refused supporter pays nothing and engages nothing."""
    for i in range(p[L.P_PLAYERS]):
        s = g[L.G_ORDER + i]
        if s == attacker or s == defender or g[pl(s) + L.PL_PASSED]:
            continue
        att = side_strength(S, g, side, ATTACK, men, lmask, 0x1F, 0)
        dfn = side_strength(S, g, side, DEFEND, men, lmask, 0x1F, 0)
        choice = PO.support_side(S, p, pol, g, rng, s, att, dfn, attacker, defender, dest)
        if choice == NO_SIDE:
            continue
        m, lm = PO.support_units(S, p, pol, g, s, choice, att, dfn)[1:]
        chief = attacker if choice == ATTACK else defender
        if not PO.accepts_support(S, p, g, rng, chief, pol[chief, L.W_ID], s, choice, att, dfn,
                                  engagement_strength(S, g, s, m, lm)):
            log_event(log, EV_REFUSED, chief, s, choice)
            continue
        price, _ = move_price(S, p, g, s, dest, travel_reduction(S, g, s, -1, lm))
        if price > g[pl(s) + L.PL_GOODS + L.PROVISIONS] or m + lm == 0:
            continue
        pay_movement(S, p, g, s, dest, travel_reduction(S, g, s, -1, lm), log)
        engage(g, s, m, lm, L.AT_TRAVEL)
        side[s] = choice
        men[s] = m
        lmask[s] = lm
        g[pl(s) + L.PL_N_SUPPORT] += 1
        log_event(log, EV_SUPPORT, s, choice, engagement_strength(S, g, s, m, lm))


@borrowing
def battle_outcome(S, p, g, side, disc, log):
    """The end of a Battle: every player of the winning faction gains the VP of the
    disc's space; on a tie every player in the Battle gains the centre's VP (the reading
    ``battle_tie_vp``: or every player of the game)."""
    step = min(abs(disc), L.BATTLE_REACH)
    everyone = disc == 0 and p[L.P_BATTLE_TIE_VP] == L.TIE_VP_ALL_PLAYERS
    for s in range(p[L.P_PLAYERS]):
        if side[s] == NO_SIDE and not everyone:
            continue
        won = (disc > 0 and side[s] == ATTACK) or (disc < 0 and side[s] == DEFEND)
        gain = 0
        if disc == 0:
            gain = p[L.P_BATTLE_VP]
        elif won:
            gain = p[L.P_BATTLE_VP + step]
            g[pl(s) + L.PL_N_BATTLE_WON] += 1
        if gain:
            g[pl(s) + L.PL_BATTLE_VP] += vp(g, s, gain, log)


@borrowing
def village_units(S, p, g, seat):
    """The units engaged on the seat's Village Card (tribesmen, leader mask), all of which
    a defender deploys ("(B) ... this is mandatory"): under the reading
    ``battle_leaders``'s ``every_class`` merchants and craftsmen too (they fight in the
    rounds open to their class), under ``battle_classes`` only warriors and mystics."""
    b = pl(seat)
    lmask = 0
    classes = 0x1F if p[L.P_BATTLE_LEADERS] == L.LEADERS_EVERY_CLASS else L.BATTLE_UNITS
    for k in range(L.MAX_LEADERS):
        if g[b + L.PL_LEADER + k] >= 0 and g[b + L.PL_LEADER_AT + k] == L.AT_VILLAGE and \
                (classes >> leader_class(S, g, seat, k)) & 1:
            lmask |= 1 << k
    return g[b + L.PL_MEN_VILLAGE], lmask


@borrowing
def deploy_defender(S, p, g, defender, xm, xl, log):
    """The defender adds available units to the Village spaces and loses 1 VP for each
    available tribesman, warrior or mystic it holds back; returns the units held back."""
    held_back = units_at(S, g, defender, L.BATTLE_UNITS, L.AT_AVAILABLE) - xm
    for k in range(L.MAX_LEADERS):
        if (xl >> k) & 1:
            held_back -= 1
    engage(g, defender, xm, xl, L.AT_VILLAGE)
    log_event(log, EV_HELD_BACK, defender, held_back)
    if held_back > 0:
        g[pl(defender) + L.PL_BATTLE_VP] += vp(g, defender, -held_back * p[L.P_HOLD_BACK_VP],
                                                log)
    return held_back


@njit(cache=True, nogil=True)
def declare_battle(S, p, pol, g, rng, attacker, defender, log):
    """Battle: deploy (attacker in the Camp, defender's engaged units plus the ones it
    adds in the Village, supporters), fight three rounds (attacker's card, defender's,
    attacker's), score, send units home (attackers and supporters to their Travel
    Cards, the reactor to its Village Card) and put the tokens back."""
    side = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    men = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    lmask = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    leader = np.zeros(3, dtype=np.int64)
    leader[ATTACK] = attacker
    leader[DEFEND] = defender
    g[pl(attacker) + L.PL_N_BATTLE] += 1
    g[pl(defender) + L.PL_N_DEFEND] += 1
    dest = nearest_village(S, p, g, attacker, defender)
    m, lm = camp_units(S, p, pol, g, attacker, defender)
    log_event(log, EV_BATTLE, attacker, defender, 0)
    pay_movement(S, p, g, attacker, dest, march_reduction(S, g, attacker, lm), log)
    engage(g, attacker, m, lm, L.AT_TRAVEL)
    side[attacker] = ATTACK
    men[attacker] = m
    lmask[attacker] = lm
    # the defender: its units engaged on the Village must fight; it may add available ones
    dm, dl = village_units(S, p, g, defender)
    must = engagement_strength(S, g, defender, dm, dl)
    xm, xl = PO.defender_extra(S, p, pol, g, rng, defender, must,
                               engagement_strength(S, g, attacker, m, lm))
    log_event(log, EV_ENGAGE, m, lm, engagement_strength(S, g, attacker, m, lm))
    deploy_defender(S, p, g, defender, xm, xl, log)
    side[defender] = DEFEND
    men[defender] = dm + xm
    lmask[defender] = dl | xl
    deploy_supporters(S, p, pol, g, rng, side, men, lmask, attacker, defender, dest, log)
    return fight_battle(S, p, pol, g, rng, side, men, lmask, leader, log)


@njit(cache=True, nogil=True)  # its rounds' card choices allocate
def fight_battle(S, p, pol, g, rng, side, men, lmask, leader, log):
    """The deployed Battle: three rounds (attacker's card, defender's, attacker's), each
    moving the black disc, then the score and the tokens back in the bag. Returns where
    the disc ends (attackers' side positive)."""
    if p[L.P_BATTLE_DISC_START] == L.DISC_CENTRE:  # the reading battle_disc_start
        g[L.G_BATTLE_DISC] = 0  # the black disc starts on the centre (the deployment example)
    for r in range(3):
        first = DEFEND if r == 1 else ATTACK
        disc = g[L.G_BATTLE_DISC] + battle_round(S, p, pol, g, rng, side, men, lmask, leader,
                                                 first, log)
        g[L.G_BATTLE_DISC] = max(-L.BATTLE_REACH, min(L.BATTLE_REACH, disc))
        log_event(log, EV_DISC, g[L.G_BATTLE_DISC])
        if step_checked(S, p, g, log, L.STEP_BATTLE_ROUND):
            return g[L.G_BATTLE_DISC]
    disc = g[L.G_BATTLE_DISC]
    battle_outcome(S, p, g, side, disc, log)
    for t in range(L.N_TOKENS):
        g[L.G_BAG + t] = 1
    return disc
