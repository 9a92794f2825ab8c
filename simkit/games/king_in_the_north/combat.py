"""Battles and sieges (rulebook 8, 10, 11, 12, 13.1-13.4) as njit functions.

A battle is a local vector ``bt`` (offsets ``BT_*``): deployments alternate by the
Initiative rule (8.5), each one offered to the side's policy as a table of options with
the Impact each would add (``deployment_options``); Loyalty Challenges follow a card
deployment (8.6); then losses (8.7), retreats (8.8) and card replenishment (8.10).
A siege (8.9) is the attacker's deployment then the defender's artillery.
"""

import numpy as np

from simkit.eventlog import log_event
from simkit.unmanaged import allocating, borrowing

from . import layout as L
from . import policies as P
from .events import (
    EV_BATTLE,
    EV_BATTLE_END,
    EV_CAPTURE,
    EV_DEFECTION,
    EV_DEPLOY,
    EV_LOSS,
    EV_REFUTED,
    EV_RETREAT,
    EV_SIEGE,
    EV_SIEGE_END,
)
from .movement import overrun, overrunnable
from .plan import insert_option, own_world, plan_at
from .state import (
    block_value,
    count_action,
    count_at,
    count_blunder,
    counts_for_cards,
    discard,
    draw_cards,
    eliminate,
    enter,
    hand,
    holds_special,
    inside_besieged,
    lose_in_combat,
    naval_at,
    refresh_control,
    use_event,
)
from .view import forget_stack, reveal


# -- who may deploy what (8.2.2, 8.2.4, 8.4) -----------------------------------------------
@borrowing
def any_card_block(blk, b):
    """Blocks any Faction card deploys (8.2.2): artillery (with a bugle), Guerrillas,
    Requetés, Hussars, Carabineers, Defectors; and the main leaders (8.2.4)."""
    t = blk[b, L.BK_TYPE]
    sp = blk[b, L.BK_SPECIAL]
    if t == L.FIELD_ART or t == L.MOUNTAIN_ART or t == L.GUERRILLA or t == L.DEFECTORS:
        return True
    return sp == L.SP_REQUETE or sp == L.SP_HUSSARS or sp == L.SP_CARABINEERS \
        or sp == L.SP_DON_CARLOS or sp == L.SP_ZUMALACARREGUI or sp == L.SP_ESPARTERO \
        or sp == L.SP_CEBALLOS or sp == L.SP_DIEGO


@borrowing
def immune(blk, b):
    """Blocks immune to Loyalty Challenges (8.6.1)."""
    t = blk[b, L.BK_TYPE]
    sp = blk[b, L.BK_SPECIAL]
    return t == L.LEADER or t == L.FIELD_ART or t == L.MOUNTAIN_ART or t == L.GUERRILLA \
        or t == L.DEFECTORS or t == L.NAVAL or sp == L.SP_HUSSARS or sp == L.SP_REQUETE \
        or sp == L.SP_CARABINEERS


@borrowing
def fighting_block(blk, b):
    """Blocks that can be deployed at all (not Decoys, Customs, Partisans, Squadrons)."""
    t = blk[b, L.BK_TYPE]
    return t != L.DECOY and t != L.CUSTOMS and t != L.PARTISANS and t != L.NAVAL


@borrowing
def card_deploys(blk, card, c, b, siege, mountain):
    """Can card ``c`` deploy block ``b`` (8.2.2, 8.4.2, 8.4.6)? Artillery needs a bugle
    ("cards from any Faction may be used to deploy Artillery (Special Attack cards with
    a bugle icon)", 8.2.2), except Mountain Artillery in a battle in a Mountainous or
    trail-only Location (``mountain``): "a card from any Faction may be used, and it
    does not need to be a card with a Special Attack icon" (8.4.2)."""
    t = blk[b, L.BK_TYPE]
    if card[c, L.CD_SPECIAL] != L.CS_NONE:
        return False
    if t == L.FIELD_ART or (t == L.MOUNTAIN_ART and (siege or not mountain)):
        return card[c, L.CD_BUGLE] == 1
    if any_card_block(blk, b):
        return True
    f = blk[b, L.BK_FACTION]
    return f != L.NO_FACTION and (card[c, L.CD_FAC1] == f or card[c, L.CD_FAC2] == f)


@borrowing
def cavalry(blk, b):
    t = blk[b, L.BK_TYPE]
    return t == L.CAVALRY or t == L.LANCER


@borrowing
def field_art_barred(loc, where):
    """Field Artillery may not deploy in Mountainous or trail-only Locations (8.4.2)."""
    return loc[where, L.LC_MOUNTAIN] == 1 or loc[where, L.LC_TRAIL_ONLY] == 1


@borrowing
def block_impact(p, loc, blk, bt, side, b, bugle, hq):
    """Impact of deploying ``b`` now (8.3-8.4): diamonds (artillery 1 in battle, 3 in a
    siege with a bugle; Mountain Artillery 2 in mountains/trails), +1 per same-Faction
    block already deployed, cavalry charge with a bugle (battles only), Headquarters +2,
    the out-of-supply +2 on the first Carlist block (10), and +1 for a Liberal infantry
    block after «Bayonet Charge» (12.2, reading ``bayonet_charge``)."""
    where = bt[L.BT_LOC]
    siege = bt[L.BT_SIEGE] == 1
    t = blk[b, L.BK_TYPE]
    if t == L.FIELD_ART:
        v = 3 if (siege and bugle) else 1
    elif t == L.MOUNTAIN_ART:
        if siege and p[L.P_MOUNTAIN_SIEGE_3]:
            v = 3 if bugle else 1
        elif field_art_barred(loc, where):
            v = 2
        else:
            v = 1
    elif siege and blk[b, L.BK_SPECIAL] == L.SP_HUSSARS:
        v = 2  # "During sieges, it only provides 2 points of Impact instead of 4" (11.3)
    else:
        v = blk[b, L.BK_DIAMONDS]
    f = blk[b, L.BK_FACTION]
    if f != L.NO_FACTION and t != L.LEADER and t != L.DEFECTORS and t != L.GUERRILLA:
        v += bt[L.BT_FAC + side * L.N_FACTIONS + f]
    if cavalry(blk, b) and not siege and blk[b, L.BK_SPECIAL] != L.SP_HUSSARS \
            and (bugle or bt[L.BT_CAV_CHARGE] == 1 and side == L.LIBERALS):
        k = bt[L.BT_CHARGES + side]
        if p[L.P_CHARGE_CUMULATIVE]:
            v += 2 * (k + 1)
        else:
            v += 2 if k == 0 else 4
    if hq:
        v += 2
    if side == L.CARLISTS and bt[L.BT_SUPPLY] == 1:
        v += 2
    if side == L.LIBERALS and bt[L.BT_BAYONET] == 1 and p[L.P_BAYONET_ALL] \
            and (t == L.INFANTRY or t == L.DEFECTORS):
        v += 1  # «Bayonet Charge» played before (reading bayonet_charge = "whole_battle")
    return v


@borrowing
def record_deploy(p, loc, blk, bt, side, b, bugle, hq):
    """Mark ``b`` deployed and add its Impact; returns the Impact."""
    v = block_impact(p, loc, blk, bt, side, b, bugle, hq)
    bt[L.BT_IMPACT + side] += v
    bt[L.BT_DEPLOYED + b] = 1
    f = blk[b, L.BK_FACTION]
    t = blk[b, L.BK_TYPE]
    if f != L.NO_FACTION and t != L.LEADER and t != L.DEFECTORS and t != L.GUERRILLA:
        bt[L.BT_FAC + side * L.N_FACTIONS + f] += 1
    if cavalry(blk, b):
        bt[L.BT_CAV + side] += 1
        if t == L.LANCER:
            bt[L.BT_LANCER_DEPLOYED] = 1
        if (bugle or bt[L.BT_CAV_CHARGE] == 1 and side == L.LIBERALS) \
                and blk[b, L.BK_SPECIAL] != L.SP_HUSSARS and bt[L.BT_SIEGE] == 0:
            bt[L.BT_CHARGES + side] += 1
            if not bugle and side == L.LIBERALS:
                bt[L.BT_CAV_CHARGE] = 2  # «Cavalry Charge» used by this block (12.2)
    if t == L.FIELD_ART or t == L.MOUNTAIN_ART:
        bt[L.BT_ART + side] += 1
        if bt[L.BT_SIEGE] == 1 and bugle:
            bt[L.BT_SIEGE_ART] = 1
    if t == L.INFANTRY or t == L.DEFECTORS or t == L.GUERRILLA:
        bt[L.BT_INF + side] += 1
    if side == L.CARLISTS:
        bt[L.BT_SUPPLY] = 0
    return v


# -- the options table offered to a policy -------------------------------------------------
@borrowing
def add_option(opts, n, kind, c, b1, b2, gain):
    if n >= opts.shape[0]:
        return n
    opts[n, L.OP_KIND] = kind
    opts[n, L.OP_CARD] = c
    opts[n, L.OP_B1] = b1
    opts[n, L.OP_B2] = b2
    opts[n, L.OP_GAIN] = gain
    return n + 1


@borrowing
def free_leader_ok(p, blk, bt, side, b):
    """Up to 2 Leaders free before any card deployment of ``side`` (of either side with
    the reading ``free_leaders`` = "any_card") (8.2.4); main leaders at any point with
    optional rule 13.2."""
    if blk[b, L.BK_TYPE] != L.LEADER:
        return False
    sp = blk[b, L.BK_SPECIAL]
    if p[L.P_MAIN_LEADERS_FREE] and (sp == L.SP_DON_CARLOS or sp == L.SP_ZUMALACARREGUI
                                     or sp == L.SP_ESPARTERO):
        return True
    if bt[L.BT_SIEGE] == 1 and side != bt[L.BT_ATTACKER]:
        return False
    if p[L.P_FREE_ANY_CARD] and bt[L.BT_CARD_DEPLOYED + 1 - side] != 0:
        return False  # reading free_leaders = "any_card"
    return bt[L.BT_CARD_DEPLOYED + side] == 0 and bt[L.BT_FREE_LEADERS + side] < 2


@borrowing
def headquarters_siege_ok(loc, blk, bt, side, b):
    """May the Headquarters deploy ``b`` in a siege? 11.1: "In combat to deploy a block
    belonging to any friendly Faction (including those with Special Attacks, see 8.4)",
    and combat is "either a battle or a siege" (8.1): the besieger deploys any block with
    it, Field Artillery first against a Capital (8.9.3 A; the Headquarters deploys it as
    a Special Attack card would); the besieged, who "may only play cards with Special
    Attacks to deploy artillery" (8.9.3), cannot."""
    if side != bt[L.BT_ATTACKER]:
        return False
    if loc[bt[L.BT_LOC], L.LC_KIND] == L.CAPITAL and bt[L.BT_CARD_DEPLOYED + side] == 0:
        return blk[b, L.BK_TYPE] == L.FIELD_ART
    return True


@borrowing
def siege_card_ok(loc, blk, card, bt, side, c, b):
    """Siege limits (8.9.3): the defender deploys only artillery with a bugle; against a
    Capital the first card-deployed block must be Field Artillery with a bugle."""
    where = bt[L.BT_LOC]
    t = blk[b, L.BK_TYPE]
    art = t == L.FIELD_ART or t == L.MOUNTAIN_ART
    if side != bt[L.BT_ATTACKER]:
        return art and card[c, L.CD_BUGLE] == 1
    if loc[where, L.LC_KIND] == L.CAPITAL and bt[L.BT_CARD_DEPLOYED + side] == 0:
        return t == L.FIELD_ART and card[c, L.CD_BUGLE] == 1
    return True


@borrowing
def deployment_options(p, loc, blk, card, s, bt, side, army, n_army, cards, n_cards, opts):
    """Every deployment ``side`` may make now, with its Impact; returns the count."""
    n = 0
    where = bt[L.BT_LOC]
    siege = bt[L.BT_SIEGE] == 1
    barred = field_art_barred(loc, where)
    for i in range(n_army):
        b = army[i]
        if bt[L.BT_DEPLOYED + b] != 0 or not fighting_block(blk, b):
            continue
        t = blk[b, L.BK_TYPE]
        if t == L.FIELD_ART and field_art_barred(loc, where):
            continue
        if free_leader_ok(p, blk, bt, side, b):
            n = add_option(opts, n, L.OPT_FREE_LEADER, -1, b, -1,
                           block_impact(p, loc, blk, bt, side, b, False, False))
        if (t == L.FIELD_ART or t == L.MOUNTAIN_ART) and not siege \
                and bt[L.BT_CARD_DEPLOYED + side] == 0 and bt[L.BT_FREE_ART + side] == 0:
            n = add_option(opts, n, L.OPT_FREE_ART, -1, b, -1,
                           block_impact(p, loc, blk, bt, side, b, False, False))
        if siege and side == bt[L.BT_ATTACKER] and blk[b, L.BK_SPECIAL] == L.SP_EL_ABUELO:
            n = add_option(opts, n, L.OPT_FREE_ART, -1, b, -1,
                           block_impact(p, loc, blk, bt, side, b, True, False))
        for j in range(n_cards):
            c = cards[j]
            if card[c, L.CD_SPECIAL] == L.CS_HQ:
                if not siege or headquarters_siege_ok(loc, blk, bt, side, b):
                    n = add_option(opts, n, L.OPT_HQ, c, b, -1,
                                   block_impact(p, loc, blk, bt, side, b, True, True))
                continue
            charge = charge_any_card(blk, card, bt, side, c, b)
            if not charge and not card_deploys(blk, card, c, b, siege, barred):
                continue
            if siege and not siege_card_ok(loc, blk, card, bt, side, c, b):
                continue
            bugle = card[c, L.CD_BUGLE] == 1
            gain = block_impact(p, loc, blk, bt, side, b, bugle, False)
            n = add_option(opts, n, L.OPT_CARD, c, b, -1, gain)
            if card[c, L.CD_DOUBLE] and not charge and not any_card_block(blk, b) \
                    and blk[b, L.BK_TYPE] != L.LEADER:  # any card deploys a Leader (8.4.5)
                b2 = second_block(blk, bt, army, n_army, b)
                if b2 >= 0:
                    gain2 = gain + blk[b2, L.BK_DIAMONDS] + 1 \
                        + bt[L.BT_FAC + side * L.N_FACTIONS + blk[b, L.BK_FACTION]]
                    n = add_option(opts, n, L.OPT_CARD, c, b, b2, gain2)
    if not siege:
        n = special_card_options(p, loc, blk, card, s, bt, side, cards, n_cards, opts, n)
    return n


@borrowing
def charge_any_card(blk, card, bt, side, c, b):
    """After «Cavalry Charge» (12.2) the Liberals may deploy one Cavalry Block of any
    Faction with any Faction card, charging (our reading of "belonging to any Faction":
    the card need not match the block; the charge applies to that one block)."""
    return side == L.LIBERALS and bt[L.BT_CAV_CHARGE] == 1 and bt[L.BT_SIEGE] == 0 \
        and cavalry(blk, b) and card[c, L.CD_SPECIAL] == L.CS_NONE \
        and blk[b, L.BK_SPECIAL] != L.SP_HUSSARS


@borrowing
def second_block(blk, bt, army, n_army, b):
    """The strongest other undeployed block of ``b``'s Faction (a Double card, 8.4.5)."""
    best, best_d = -1, -1
    for i in range(n_army):
        o = army[i]
        if o == b or bt[L.BT_DEPLOYED + o] != 0 or blk[o, L.BK_FACTION] != blk[b, L.BK_FACTION]:
            continue
        if blk[o, L.BK_TYPE] == L.LEADER or any_card_block(blk, o):
            continue
        if blk[o, L.BK_DIAMONDS] > best_d:
            best, best_d = o, blk[o, L.BK_DIAMONDS]
    return best


@borrowing
def special_card_options(p, loc, blk, card, s, bt, side, cards, n_cards, opts, n):
    """Naval support (8.4.3), the Fortified House card (11.2) and battle events (12)."""
    where = bt[L.BT_LOC]
    defender = side != bt[L.BT_ATTACKER]
    for j in range(n_cards):
        c = cards[j]
        sp = card[c, L.CD_SPECIAL]
        if sp == L.CS_NONE:
            if side == L.LIBERALS and card[c, L.CD_BUGLE] and bt[L.BT_NAVAL + side] == 0 \
                    and loc[where, L.LC_PORT] and naval_at(s, blk, where):
                n = add_option(opts, n, L.OPT_NAVAL, c, -1, -1, 2)
        elif sp == L.CS_FORTIFIED_HOUSE:
            if defender and bt[L.BT_FH] == 0 and loc[where, L.LC_KIND] != L.CAPITAL:
                n = add_option(opts, n, L.OPT_FH, c, -1, -1, 4 if loc[where, L.LC_FH] else 2)
        elif sp == L.EV_BATTERY:
            if defender and loc[where, L.LC_KIND] >= L.CITY and bt[L.BT_BATTERY] == 0:
                n = add_option(opts, n, L.OPT_EVENT, c, -1, -1, 4)
        elif sp == L.EV_BAYONET:
            if bt[L.BT_BAYONET] == 0 and bt[L.BT_INF + side] > 0:
                n = add_option(opts, n, L.OPT_EVENT, c, -1, -1, bt[L.BT_INF + side])
        elif sp == L.EV_CANISTER:
            if bt[L.BT_CANISTER] == 0 and bt[L.BT_ART + side] > 0:
                n = add_option(opts, n, L.OPT_EVENT, c, -1, -1, 2)
        elif sp == L.EV_SNOW:  # after «Cavalry Charge» too: "If «Cavalry Charge» is
            # played before, this card allows the deployment of a block with a Special
            # Attack" (12.1): the charge stands and the snow rate applies
            if defender and loc[where, L.LC_KIND] < L.CITY and bt[L.BT_SNOW] == 0:
                n = add_option(opts, n, L.OPT_EVENT, c, -1, -1, 0)
        elif sp == L.EV_LANCER:
            if bt[L.BT_LANCER] == 0 and bt[L.BT_LANCER_DEPLOYED] == 1:
                n = add_option(opts, n, L.OPT_EVENT, c, -1, -1, 0)
        elif sp == L.EV_CAV_CHARGE:
            if bt[L.BT_CAV_CHARGE] == 0 and bt[L.BT_SNOW] == 0:
                n = add_option(opts, n, L.OPT_EVENT, c, -1, -1, 0)
    return n


# -- applying a deployment -----------------------------------------------------------------
@borrowing
def play_card(s, bt, side, c):
    s[L.S_C_WHERE + c] = L.CW_PLAYED
    bt[L.BT_CARDS + side] += 1


@borrowing
def apply_option(p, loc, blk, card, s, bt, side, opts, k, log):
    """Make deployment ``k`` of the options table; returns the block(s) a Loyalty
    Challenge could target (first block, or -1)."""
    kind = opts[k, L.OP_KIND]
    c = opts[k, L.OP_CARD]
    b1 = opts[k, L.OP_B1]
    b2 = opts[k, L.OP_B2]
    if kind == L.OPT_FREE_LEADER:
        bt[L.BT_FREE_LEADERS + side] += 1
        v = record_deploy(p, loc, blk, bt, side, b1, False, False)
        count_action(s, side, L.A_FREE_DEPLOY)
        log_event(log, EV_DEPLOY, side * 1000 + b1, v, -1)
        return -1
    if kind == L.OPT_FREE_ART:
        bt[L.BT_FREE_ART + side] = 1
        bugle = bt[L.BT_SIEGE] == 1
        v = record_deploy(p, loc, blk, bt, side, b1, bugle, False)
        count_action(s, side, L.A_FREE_DEPLOY)
        log_event(log, EV_DEPLOY, side * 1000 + b1, v, -1)
        return -1
    play_card(s, bt, side, c)
    if kind == L.OPT_CARD or kind == L.OPT_HQ or kind == L.OPT_NAVAL:  # it deploys a block
        bt[L.BT_DEPLOY_CARDS + side] += 1  # (8.4.3: "used to deploy the Naval Squadron")
    if kind == L.OPT_CARD or kind == L.OPT_HQ:
        hq = kind == L.OPT_HQ
        bugle = hq or card[c, L.CD_BUGLE] == 1
        bt[L.BT_CARD_DEPLOYED + side] = 1
        v = record_deploy(p, loc, blk, bt, side, b1, bugle, hq)
        if b2 >= 0:
            v += record_deploy(p, loc, blk, bt, side, b2, bugle, False)
        count_action(s, side, L.A_HQ if hq else L.A_CARD_DEPLOY)
        log_event(log, EV_DEPLOY, side * 1000 + b1, v, c)
        if hq or immune(blk, b1):
            return -1
        return b1
    if kind == L.OPT_NAVAL:
        bt[L.BT_NAVAL + side] = 1
        bt[L.BT_IMPACT + side] += 2
        count_action(s, side, L.A_NAVAL)
        log_event(log, EV_DEPLOY, side * 1000 + 999, 2, c)
        return -1
    if kind == L.OPT_FH:
        bt[L.BT_FH] = 1
        bt[L.BT_IMPACT + side] += opts[k, L.OP_GAIN]
        count_action(s, side, L.A_FH_CARD)
        log_event(log, EV_DEPLOY, side * 1000 + 998, opts[k, L.OP_GAIN], c)
        return -1
    apply_event(s, bt, side, card[c, L.CD_SPECIAL], opts[k, L.OP_GAIN])
    use_event(s, card, c)
    log_event(log, EV_DEPLOY, side * 1000 + 997, opts[k, L.OP_GAIN], c)
    return -1


@borrowing
def apply_event(s, bt, side, sp, gain):
    """Battle events (12.1-12.2)."""
    if sp == L.EV_BATTERY:
        bt[L.BT_BATTERY] = 1
    elif sp == L.EV_BAYONET:
        bt[L.BT_BAYONET] = 1
    elif sp == L.EV_CANISTER:
        bt[L.BT_CANISTER] = 1
    elif sp == L.EV_SNOW:
        bt[L.BT_SNOW] = 1
    elif sp == L.EV_LANCER:
        bt[L.BT_LANCER] = 1
    elif sp == L.EV_CAV_CHARGE:
        bt[L.BT_CAV_CHARGE] = 1
    bt[L.BT_IMPACT + side] += gain


# -- Loyalty Challenges (8.6) --------------------------------------------------------------
@borrowing
def refuting_card(blk, card, s, side, b, played):
    """A card in ``side``'s hand able to deploy ``b`` (or the Headquarters), or -1."""
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] != side or s[L.S_C_WHERE + c] != L.CW_HAND or c == played:
            continue
        if card[c, L.CD_SPECIAL] == L.CS_HQ or card_deploys(blk, card, c, b, False, False):
            return c
    return -1


@borrowing
def loyalty_challenge(p, loc, blk, card, s, bt, rng, pol, side, b, c_played, b2, gain, log):
    """The opponent of ``side`` may challenge ``b``'s loyalty right after its deployment.
    Refuted by another card able to deploy it (both cards go back to hand; the
    Headquarters refutes and both are discarded, 11.1); otherwise the block(s) defect:
    their Impact is lost and one Defectors block joins the challenger (8.6.2)."""
    foe = 1 - side
    if bt[L.BT_LOYALTY + foe] == 1 or bt[L.BT_SIEGE] == 1:
        return
    lc = -1
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == foe and s[L.S_C_WHERE + c] == L.CW_HAND \
                and card[c, L.CD_SPECIAL] == L.CS_LOYALTY:
            lc = c
            break
    if lc < 0:
        return
    refute = refuting_card(blk, card, s, side, b, c_played)
    if not P.challenge_loyalty(pol[foe], blk, card, s, rng, foe, b, gain, refute >= 0):
        return
    bt[L.BT_LOYALTY + foe] = 1
    count_action(s, foe, L.A_LOYALTY)
    if refute >= 0:
        s[L.S_C_SEEN + refute] = 1  # shown, it "returns to the player's hand" (8.6.1)
        if card[refute, L.CD_SPECIAL] == L.CS_HQ:
            discard(s, refute)
            discard(s, lc)
        log_event(log, EV_REFUTED, foe, b, 0)
        return
    discard(s, lc)
    s[L.S_DEFECTORS_OWED + foe] += 1  # a Defectors block joins the challenger (8.6.1)
    bt[L.BT_IMPACT + side] -= gain
    bt[L.BT_DEPLOYED + b] = L.DEFECTED
    if b2 >= 0:
        bt[L.BT_DEPLOYED + b2] = L.DEFECTED
    log_event(log, EV_DEFECTION, foe, b, b2)


# -- the battle ----------------------------------------------------------------------------
@borrowing
def start_battle(loc, blk, s, bt, where, attacker, siege):
    bt[:] = 0
    bt[L.BT_LOC] = where
    bt[L.BT_ATTACKER] = attacker
    bt[L.BT_SIEGE] = siege
    if not siege and loc[where, L.LC_TRAIL_ONLY] and count_at(s, blk, where, L.LIBERALS) > 0 \
            and s[L.S_BARRELS + where] == 0:
        bt[L.BT_SUPPLY] = 1  # Liberals out of supply, no Barrel to supply them (10)


@borrowing
def show_partisans(blk, card, s, bt, rng, pol, army, n_army, log):
    """Carlist Partisans shown first: the Liberals discard a card of their choice and the
    Partisans leave play (7.3.7)."""
    for i in range(n_army):
        b = army[i]
        if blk[b, L.BK_TYPE] == L.PARTISANS and s[L.S_B_WHERE + b] == L.W_MAP:
            if not P.show_partisans(pol[L.CARLISTS], s, rng):
                return
            c = P.worst_card(pol[L.LIBERALS], card, s, rng, L.LIBERALS)
            if c >= 0:
                discard(s, c)
            s[L.S_B_WHERE + b] = L.W_REMOVED  # "removed from play" (7.3.7), not a loss
            count_action(s, L.CARLISTS, L.A_PARTISANS)
            log_event(log, EV_DEPLOY, L.CARLISTS * 1000 + b, 0, -2)
            return


@allocating
def deployment_step(p, loc, blk, card, s, bt, rng, pol, side, armies, n_armies, ws, log):
    """One deployment by ``side`` (or its pass); returns False on a pass. ``ws``:
    ``movement.workspace`` (a look-ahead's plan, ``planned_deployment``)."""
    army, n_army = armies[side], n_armies[side]
    cards = np.empty(L.MAX_DECK, dtype=np.int64)
    n_cards = hand(s, card, side, cards)
    opts = np.empty((L.MAX_OPTIONS, L.N_OP), dtype=np.int64)
    n = deployment_options(p, loc, blk, card, s, bt, side, army, n_army, cards, n_cards, opts)
    k = P.choose_deployment(pol[side], p, loc, blk, card, s, bt, rng, side, opts, n)
    if ws.plan[L.PL_MODE] != L.PLAN_OFF:  # a look-ahead's copy of the game
        k = planned_deployment(blk, card, s, bt, rng, pol[side], side, armies, n_armies, cards,
                               n_cards, opts, n, k, ws)
    if k < 0:
        return False
    if opts[k, L.OP_KIND] == L.OPT_CARD and opts[k, L.OP_B2] < 0 \
            and free_leader_ok(p, blk, bt, side, opts[k, L.OP_B1]):
        count_blunder(s, side, L.B_PAID_LEADER)
    target = apply_option(p, loc, blk, card, s, bt, side, opts, k, log)
    if opts[k, L.OP_KIND] == L.OPT_FREE_LEADER \
            and blk[opts[k, L.OP_B1], L.BK_SPECIAL] == L.SP_DIEGO:
        diego_extra(p, loc, blk, s, bt, side, army, n_army, log)
    if target >= 0:
        loyalty_challenge(p, loc, blk, card, s, bt, rng, pol, side, target, opts[k, L.OP_CARD],
                          opts[k, L.OP_B2], opts[k, L.OP_GAIN], log)
    return True


@borrowing
def planned_deployment(blk, card, s, bt, rng, w, side, armies, n_armies, cards, n_cards, opts,
                       n, k, ws):
    """The deployment (row of ``opts``, -1 passing) ``side`` makes where greedy makes
    ``k``, as ``ws.plan`` asks (``plan.plan_at``). A probe lists greedy's first, then the
    others by greedy's score (``policies.deployment_worth``; passing scores 0, as greedy
    passes when nothing scores more; a deployment that puts Don Carlos first in line for
    the losses last). A rollout's world is dealt again with the blocks deployed so far
    known to both sides (8.2.3: "They then show the chosen block"), and the enemy's army
    here read again: its unseen blocks may be others now."""
    at, choice = plan_at(s, side, L.D_DEPLOYMENT, k, ws)
    if at == L.AT_GREEDY or at == L.AT_FORCED:
        return choice
    plan = ws.plan
    if at == L.AT_LIST:
        out = plan[L.PL_OPTIONS:L.PL_OPTIONS + L.MAX_PLAN_OPTIONS]
        scores = plan[L.PL_SCORES:L.PL_SCORES + L.MAX_PLAN_OPTIONS]
        out[0], scores[0] = k, 1 << 50
        m = 1
        if k >= 0:
            m = insert_option(out, scores, m, -1, 0)
        for o in range(n):
            if o == k:
                continue
            v = P.deployment_worth(w, blk, card, s, bt, side, armies[side], n_armies[side],
                                   cards, n_cards, opts, o)
            if P.risks_don_carlos(blk, bt, side, opts, o):
                v -= 1 << 40
            m = insert_option(out, scores, m, o, v)
        plan[L.PL_N_OPTIONS] = m
        return k
    foe = 1 - side
    for i in range(n_armies[foe]):
        if bt[L.BT_DEPLOYED + armies[foe, i]] != 0:
            reveal(s, armies[foe, i])
    own_world(blk, card, s, rng, side, ws)
    n_armies[foe] = army_at(blk, s, bt[L.BT_LOC], foe, armies[foe])
    return choice


@borrowing
def diego_extra(p, loc, blk, s, bt, side, army, n_army, log):
    """Diego de León also deploys one more non-artillery block free, a cavalry charge
    allowed (11.4)."""
    best, best_v = -1, -1
    for i in range(n_army):
        b = army[i]
        t = blk[b, L.BK_TYPE]
        if bt[L.BT_DEPLOYED + b] != 0 or not fighting_block(blk, b) or t == L.FIELD_ART \
                or t == L.MOUNTAIN_ART:
            continue
        v = block_impact(p, loc, blk, bt, side, b, True, False)
        if v > best_v:
            best, best_v = b, v
    if best >= 0:
        v = record_deploy(p, loc, blk, bt, side, best, True, False)
        log_event(log, EV_DEPLOY, side * 1000 + best, v, -1)


@borrowing
def deploy_battle(p, loc, blk, card, s, bt, rng, pol, armies, n_armies, ws, log):
    """Initiative (8.5): the side behind (the attacker on a tie) deploys until it is no
    longer behind; once a side passes, the other deploys until it passes too."""
    att = bt[L.BT_ATTACKER]
    for _ in range(200):
        if bt[L.BT_PASSED] == 1 and bt[L.BT_PASSED + 1] == 1:
            return
        if bt[L.BT_PASSED + att] == 1:
            side = 1 - att
        elif bt[L.BT_PASSED + 1 - att] == 1:
            side = att
        elif bt[L.BT_IMPACT + att] <= bt[L.BT_IMPACT + 1 - att]:
            side = att
        else:
            side = 1 - att
        if night_falls(card, s, bt, rng, pol, side):
            return
        if not deployment_step(p, loc, blk, card, s, bt, rng, pol, side, armies, n_armies,
                               ws, log):
            bt[L.BT_PASSED + side] = 1


@borrowing
def night_card(card, s, bt):
    """The Liberals' «Under Cover of Night» in hand when it may be played (12.2: the
    Liberals defend in a battle and both sides have played at least 2 cards), or -1."""
    if bt[L.BT_ATTACKER] != L.CARLISTS or bt[L.BT_SIEGE] == 1 or bt[L.BT_NIGHT] == 1 \
            or bt[L.BT_CARDS + L.CARLISTS] < 2 or bt[L.BT_CARDS + L.LIBERALS] < 2:
        return -1
    for k in range(card.shape[0]):
        if card[k, L.CD_SIDE] == L.LIBERALS and s[L.S_C_WHERE + k] == L.CW_HAND \
                and card[k, L.CD_SPECIAL] == L.EV_NIGHT:
            return k
    return -1


@borrowing
def night_falls(card, s, bt, rng, pol, side):
    """«Under Cover of Night» (12.2) played during the battle, before ``side``'s next
    deployment: the battle ends at once, the side with less Impact (the attacker on a
    tie) loses and retreats without the loser's extra block. Returns True if played."""
    c = night_card(card, s, bt)
    if c < 0:
        return False
    lib = bt[L.BT_IMPACT + L.LIBERALS]
    carl = bt[L.BT_IMPACT + L.CARLISTS]
    if not P.play_night(pol[L.LIBERALS], s, rng, lib - carl, side == L.CARLISTS):
        return False
    bt[L.BT_NIGHT] = 1
    use_event(s, card, c)
    return True


@borrowing
def morale_bonus(p, s, side):
    """Optional 13.4: +1 / -1 Impact at the ends of the Morale Track."""
    if not p[L.P_MORALE]:
        return 0
    m = s[L.S_MORALE + side]
    half = (p[L.P_MORALE_SPACES] + 1) // 2
    if m >= half:
        return 1
    if m <= -half:
        return -1
    return 0


@borrowing
def move_morale(p, s, winner):
    """Optional 13.4: the winner's cube moves up one space, the loser's down one."""
    if not p[L.P_MORALE]:
        return
    half = (p[L.P_MORALE_SPACES] + 1) // 2
    s[L.S_MORALE + winner] = min(half, s[L.S_MORALE + winner] + 1)
    s[L.S_MORALE + 1 - winner] = max(-half, s[L.S_MORALE + 1 - winner] - 1)


@borrowing
def kill_rate(p, loc, bt, victim):
    """Impact per block ``victim`` loses (8.7.1, 8.7.2, 8.4.7, 12.1)."""
    where = bt[L.BT_LOC]
    rate = p[L.P_LOSS_RATE]
    if victim == L.CARLISTS:
        if bt[L.BT_SNOW] == 1:
            rate = p[L.P_SNOW_RATE]
        elif loc[where, L.LC_MOUNTAIN]:
            rate = p[L.P_MOUNTAIN_RATE]
    elif bt[L.BT_SHIELD] == 1:
        rate = p[L.P_SHIELD_RATE]
    return rate


@borrowing
def battle_losses(impact, rate, loser, lancer):
    """Blocks lost to ``impact`` at ``rate`` per block, +1 for the loser (8.7.1); with
    Lancer Charge one block dies at 6 (12.1)."""
    n = impact // rate
    if lancer and impact >= 6:
        n = max(n, 1 + (impact - 6) // rate)
    return n + (1 if loser else 0)


@allocating
def take_losses(blk, s, bt, rng, pol, side, army, n_army, n_loss, log):
    """Eliminate ``n_loss`` blocks of ``side`` (8.7.3): deployed blocks first (the owner
    picks the least valuable), Customs Officers and Partisans last. A block that
    defected is "removed from the battle" (8.6.1): it is no loss (it leaves play after
    the battle, ``defect_blocks``). Returns the blocks lost that count for card draws."""
    fighting = np.empty(n_army, dtype=np.int64)
    n = 0
    for i in range(n_army):
        if bt[L.BT_DEPLOYED + army[i]] != L.DEFECTED:
            fighting[n] = army[i]
            n += 1
    counted = 0
    for _ in range(n_loss):
        b = P.choose_loss(pol[side], blk, s, bt, rng, side, fighting, n)
        if b < 0:
            break
        lose_in_combat(s, blk, b)
        log_event(log, EV_LOSS, side, b, 0)
        if counts_for_cards(blk, b):
            counted += 1
    return counted


@borrowing
def shield_played(card, s, side):
    """Did the Carlist defender deploy with a shield-6 card (8.4.7)?"""
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_PLAYED \
                and card[c, L.CD_SHIELD6]:
            return True
    return False


@borrowing
def finish_cards(card, s, rng, bt, side, extra):
    """Card replenishment (8.10): "both sides discard all cards used to deploy blocks
    during combat and redraw the same number of cards", plus ``extra``; a Fortified House
    card goes to the discards too (3.3: "placed as normal in the discard pile") but is not
    redrawn, nor are the events played (removed from play, 3.3)."""
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_PLAYED:
            s[L.S_C_WHERE + c] = L.CW_DISCARD
    draw_cards(s, card, rng, side, bt[L.BT_DEPLOY_CARDS + side] + extra)


@allocating
def resolve_battle(p, loc, adj, blk, card, s, rng, pol, where, attacker, ws, log):
    """A battle at ``where`` (8.2-8.8, 8.10)."""
    bt = np.zeros(L.N_BT, dtype=np.int64)
    start_battle(loc, blk, s, bt, where, attacker, 0)
    armies = np.empty((2, L.MAX_BLOCKS), dtype=np.int64)
    n_armies = np.zeros(2, dtype=np.int64)
    for side in range(2):
        n_armies[side] = army_at(blk, s, where, side, armies[side])
    s[L.S_BATTLES] += 1
    count_action(s, attacker, L.A_BATTLES)
    log_event(log, EV_BATTLE, where, attacker, n_armies[attacker] * 100 + n_armies[1 - attacker])
    show_partisans(blk, card, s, bt, rng, pol, armies[L.CARLISTS], n_armies[L.CARLISTS], log)
    deploy_battle(p, loc, blk, card, s, bt, rng, pol, armies, n_armies, ws, log)
    if s[L.S_FORCED_BATTLE] == 0 and deployed_none(bt, armies[attacker], n_armies[attacker]):
        count_blunder(s, attacker, L.B_EMPTY_ATTACK)
    defender = 1 - attacker
    if defender == L.CARLISTS and shield_played(card, s, L.CARLISTS):
        bt[L.BT_SHIELD] = 1
    late_events(p, loc, blk, card, s, bt, rng, pol)
    imp = np.zeros(2, dtype=np.int64)
    for side in range(2):
        imp[side] = max(0, bt[L.BT_IMPACT + side] + morale_bonus(p, s, side))
    winner = attacker if imp[attacker] > imp[defender] else defender
    loser = 1 - winner
    night = bt[L.BT_NIGHT] == 1
    lost = np.zeros(2, dtype=np.int64)
    for side in (attacker, defender):
        foe = 1 - side
        n = battle_losses(imp[foe], kill_rate(p, loc, bt, side), side == loser and not night,
                          foe == L.CARLISTS and bt[L.BT_LANCER] == 1)
        if side == loser and bt[L.BT_PURSUIT] == 1:
            n += 1
        lost[side] = n
    log_event(log, EV_BATTLE_END, imp[L.CARLISTS], imp[L.LIBERALS], winner)
    bt[L.BT_LOSER] = loser + 1  # its deployed artillery will not retreat (8.8.4)
    reveal_deployed(s, bt, armies, n_armies)
    counted = np.zeros(2, dtype=np.int64)
    for side in (attacker, defender):
        counted[side] = take_losses(blk, s, bt, rng, pol, side, armies[side], n_armies[side],
                                    lost[side], log)
    defect_blocks(blk, s, bt, armies, n_armies, log)
    if imp[winner] >= p[L.P_MORALE_IMPACT]:
        move_morale(p, s, winner)
    if winner == L.CARLISTS:
        s[L.S_BARRELS + where] = 0  # spoils: the Carlists take the Barrels (10.1)
    counted[loser] += retreat_loser(p, loc, adj, blk, s, bt, rng, pol, loser, armies[loser],
                                    n_armies[loser], log)
    for side in range(2):
        finish_cards(card, s, rng, bt, side, counted[side] // 2)
    refresh_control(s, loc, blk, where)


@borrowing
def reveal_deployed(s, bt, armies, n_armies):
    """The blocks deployed in a battle or siege were shown (8.2.3: "They then show the
    chosen block"): their enemy knows them while it can follow them (``view``)."""
    for side in range(2):
        for i in range(n_armies[side]):
            if bt[L.BT_DEPLOYED + armies[side, i]] != 0:
                reveal(s, armies[side, i])


@borrowing
def deployed_none(bt, army, n_army):
    """No block of ``army`` was deployed (or defected after deploying)."""
    for i in range(n_army):
        if bt[L.BT_DEPLOYED + army[i]] != 0:
            return False
    return True


@borrowing
def late_events(p, loc, blk, card, s, bt, rng, pol):
    """Events played once deployment ends: Under Cover of Night by a losing Liberal
    defender (both sides 2+ cards: no extra loss for the loser; played earlier it ends
    the battle, ``night_falls``) and Cavalry Pursuit (a winner with
    cavalry deployed: the loser loses 1 more) (12.2)."""
    att = bt[L.BT_ATTACKER]
    lib_wins = bt[L.BT_IMPACT + L.LIBERALS] > bt[L.BT_IMPACT + L.CARLISTS] or (
        att == L.CARLISTS and bt[L.BT_IMPACT + L.LIBERALS] == bt[L.BT_IMPACT + L.CARLISTS])
    if not lib_wins and bt[L.BT_NIGHT] == 0:
        c = night_card(card, s, bt)
        if c >= 0 and P.play_event(pol[L.LIBERALS], s, rng, L.LIBERALS, L.EV_NIGHT):
            bt[L.BT_NIGHT] = 1
            use_event(s, card, c)
    if lib_wins and bt[L.BT_CAV + L.LIBERALS] > 0:
        for k in range(card.shape[0]):
            if card[k, L.CD_SIDE] == L.LIBERALS and s[L.S_C_WHERE + k] == L.CW_HAND \
                    and card[k, L.CD_SPECIAL] == L.EV_PURSUIT:
                if P.play_event(pol[L.LIBERALS], s, rng, L.LIBERALS, L.EV_PURSUIT):
                    bt[L.BT_PURSUIT] = 1
                    use_event(s, card, k)
                break


@borrowing
def defect_blocks(blk, s, bt, armies, n_armies, log):
    """Blocks that failed a Loyalty Challenge leave play after the battle and one
    Defectors block per challenge joins the other side "at the beginning of their turn
    during the next Semester" (8.6.1): it waits as pending, counted in
    ``S_DEFECTORS_NEW`` until this Semester ends."""
    for side in range(2):
        made = False
        for i in range(n_armies[side]):
            b = armies[side, i]
            if bt[L.BT_DEPLOYED + b] == L.DEFECTED and s[L.S_B_WHERE + b] == L.W_MAP:
                eliminate(s, blk, b)
                if not made:
                    made = True
                    if recruit_defector(blk, s, 1 - side, L.W_PENDING) >= 0:
                        s[L.S_DEFECTORS_NEW + 1 - side] += 1  # enters next Semester


@borrowing
def recruit_defector(blk, s, side, where):
    """Take a Defectors block of ``side``'s colour from the pool; returns it or -1."""
    for b in range(blk.shape[0]):
        if blk[b, L.BK_TYPE] == L.DEFECTORS and s[L.S_B_SIDE + b] == side \
                and s[L.S_B_WHERE + b] == L.W_RESERVE:
            s[L.S_B_WHERE + b] = where
            return b
    return -1


@borrowing
def army_at(blk, s, where, side, out):
    """``side``'s blocks at ``where``, Naval Squadrons included (they support, 8.4.3)."""
    n = 0
    for b in range(blk.shape[0]):
        if s[L.S_B_LOC + b] == where and s[L.S_B_WHERE + b] == L.W_MAP \
                and s[L.S_B_SIDE + b] == side and blk[b, L.BK_TYPE] != L.NAVAL:
            out[n] = b
            n += 1
    return n


# -- retreats (8.8) ------------------------------------------------------------------------
@borrowing
def attack_origin(s, blk, where, side):
    """A Location one of ``side``'s blocks at ``where`` came from this turn, or -1."""
    for b in range(blk.shape[0]):
        if s[L.S_B_LOC + b] == where and s[L.S_B_WHERE + b] == L.W_MAP \
                and s[L.S_B_SIDE + b] == side and s[L.S_B_FROM + b] >= 0:
            return s[L.S_B_FROM + b]
    return -1


@borrowing
def is_origin(s, blk, where, side, o):
    for b in range(blk.shape[0]):
        if s[L.S_B_LOC + b] == where and s[L.S_B_WHERE + b] == L.W_MAP \
                and s[L.S_B_SIDE + b] == side and s[L.S_B_FROM + b] == o:
            return True
    return False


@allocating
def retreat_loser(p, loc, adj, blk, s, bt, rng, pol, side, army, n_army, log):
    """The loser's survivors retreat as one stack to an adjacent Location (8.8): deployed
    artillery is lost (8.8.4, or captured with 13.1); the attacker goes back where it came
    from; the defender may shelter up to 2 (City) / 3 (Capital) blocks inside a City it
    controlled (8.8.5), else avoids enemies and attack origins or loses 1 more block.
    Returns the extra blocks lost that count for card draws."""
    where = bt[L.BT_LOC]
    foe = 1 - side
    counted = 0
    for i in range(n_army):
        b = army[i]
        t = blk[b, L.BK_TYPE]
        if s[L.S_B_WHERE + b] == L.W_MAP and bt[L.BT_DEPLOYED + b] == 1 \
                and (t == L.FIELD_ART or t == L.MOUNTAIN_ART):
            if p[L.P_CAPTURED_ART]:
                s[L.S_B_SIDE + b] = foe
                s[L.S_B_FROM + b] = L.FROM_NONE
                reveal(s, b)
            else:
                eliminate(s, blk, b)
                counted += 1
    left = np.empty(L.MAX_BLOCKS, dtype=np.int64)
    n_left = army_at(blk, s, where, side, left)
    relief = relief_lost(loc, s, bt, where, side)
    if relief:
        n_left = relief_force(s, left, n_left)
    if n_left == 0:
        return counted
    if side == bt[L.BT_ATTACKER]:
        dest = attack_origin(s, blk, where, side)
        if dest >= 0 and count_at(s, blk, dest, foe) == 0:
            retreat_to(s, loc, blk, side, left, n_left, dest)
            log_event(log, EV_RETREAT, side, where, dest)
            return counted
    inside = 0  # a beaten relief force does not shelter: only the besieged stay (8.9.5)
    if s[L.S_OWNER + where] == side and loc[where, L.LC_KIND] >= L.CITY and not relief:
        cap = 3 if loc[where, L.LC_KIND] == L.CAPITAL else 2
        inside = min(cap, n_left)
        inside = P.shelter_inside(pol[side], s, rng, side, inside, n_left)
    dest, extra = retreat_destination(loc, adj, blk, s, rng, pol, where, side, False)
    if inside > 0:
        s[L.S_BESIEGED + where] = 1
        order_by_value(blk, left, n_left)  # keep the best blocks inside
        if n_left > inside:
            forget_stack(s, blk, where, side)  # which blocks went inside is not shown
            if dest < 0 or extra:
                for i in range(inside, n_left):
                    lose_in_combat(s, blk, left[i])
                    counted += 1
            else:
                retreat_to(s, loc, blk, side, left[inside:], n_left - inside, dest)
        log_event(log, EV_RETREAT, side, where, where)
        return counted
    if dest < 0:
        for i in range(n_left):
            lose_in_combat(s, blk, left[i])
            counted += 1
        log_event(log, EV_RETREAT, side, where, -1)
        return counted
    if extra and fast_stack(blk, left, n_left):
        far = two_location_retreat(loc, adj, blk, s, where, side)
        if far >= 0:
            dest, extra = far, False
    if extra:
        b = P.choose_loss(pol[side], blk, s, bt, rng, side, left, n_left)
        if b >= 0:
            lose_in_combat(s, blk, b)
            counted += 1
            n_left = without(left, n_left, b)  # the others, not the besieged (8.9.5)
        if n_left == 0:
            return counted  # nobody is left to retreat
    retreat_to(s, loc, blk, side, left, n_left, dest)
    log_event(log, EV_RETREAT, side, where, dest)
    retreat_into_combat(p, loc, blk, s, dest, side, log)
    return counted


@borrowing
def relief_lost(loc, s, bt, where, side):
    """Did ``side`` lose a battle it started to relieve its own besieged City (8.9.5)?"""
    return side == bt[L.BT_ATTACKER] and loc[where, L.LC_KIND] >= L.CITY \
        and s[L.S_OWNER + where] == side and s[L.S_BESIEGED + where] == 1


@borrowing
def relief_force(s, ids, n):
    """8.9.5: "if the besieged player loses the battle, only the originally besieged
    blocks may remain inside the City/Capital": those that did not move this turn stay
    (still besieged); keeps in ``ids`` the blocks that came to relieve them (they
    retreat), returns their count."""
    k = 0
    for i in range(n):
        if s[L.S_B_FROM + ids[i]] >= 0:
            ids[k] = ids[i]
            k += 1
    return k


@borrowing
def retreat_into_combat(p, loc, blk, s, dest, side, log):
    """A retreat into enemy blocks (8.8.6): Overrun them if the stack now there has 4x
    their blocks and the Location allows it (7.6), else a battle there with the
    retreating side as the attacker. Retreating blocks that join a friendly force
    besieged inside a City "would then turn a siege into a battle" (8.8.6)."""
    if count_at(s, blk, dest, 1 - side) == 0 or count_at(s, blk, dest, side) == 0:
        return
    if inside_besieged(s, dest, side):
        s[L.S_BESIEGED + dest] = 0
    if overrunnable(p, loc, blk, s, dest, side, 0):  # the retreating blocks are there
        overrun(p, blk, s, dest, side, log)
        refresh_control(s, loc, blk, dest)
    else:
        s[L.S_RETREAT_IN + dest] = side + 1


@borrowing
def without(ids, n, b):
    """Drop block ``b`` from ``ids[:n]``; returns the new count."""
    k = 0
    for i in range(n):
        if ids[i] != b:
            ids[k] = ids[i]
            k += 1
    return k


@borrowing
def fast_stack(blk, ids, n):
    """Only Leaders and cavalry: they may retreat 2 Locations (8.8.3)."""
    for i in range(n):
        t = blk[ids[i], L.BK_TYPE]
        if t != L.LEADER and not cavalry(blk, ids[i]):
            return False
    return n > 0


@borrowing
def free_for_retreat(blk, s, where, side, o):
    return count_at(s, blk, o, 1 - side) == 0 and not is_origin(s, blk, where, 1 - side, o)


@borrowing
def two_location_retreat(loc, adj, blk, s, where, side):
    """Leaders and cavalry retreat up to 2 Locations, 1 by Trail (8.8.3): a Location two
    roads away that is free of enemies and of attack origins, through one without enemy
    blocks (an emptied attack origin may be crossed); -1 if none. Our reading: used when
    no adjacent Location is free, to escape the extra loss of a forced retreat."""
    for o in range(loc.shape[0]):
        if adj[where, o] == L.NO_ROAD or adj[where, o] == L.TRAIL \
                or count_at(s, blk, o, 1 - side) > 0:
            continue
        for o2 in range(loc.shape[0]):
            if o2 == where or adj[o, o2] == L.NO_ROAD or adj[o, o2] == L.TRAIL:
                continue
            if free_for_retreat(blk, s, where, side, o2):
                return o2
    return -1


@borrowing
def order_by_value(blk, ids, n):
    """Sort ``ids[:n]`` by block value, best first (insertion sort)."""
    for i in range(1, n):
        x = ids[i]
        v = block_value(blk, x)
        j = i - 1
        while j >= 0 and block_value(blk, ids[j]) < v:
            ids[j + 1] = ids[j]
            j -= 1
        ids[j + 1] = x


@borrowing
def retreat_to(s, loc, blk, side, ids, n, dest):
    """The retreating blocks enter ``dest``: an enemy Garrison there is eliminated (7.5;
    8.8.3: "Garrisons are ignored" in choosing it) and control follows (4.1.1, 4.2)."""
    move_all(s, ids, n, dest)
    enter(s, loc, blk, side, dest)


@borrowing
def move_all(s, ids, n, dest):
    for i in range(n):
        b = ids[i]
        s[L.S_B_LOC + b] = dest
        s[L.S_B_MOVED + b] = 1


@allocating
def retreat_destination(loc, adj, blk, s, rng, pol, where, side, far):
    """(Location, extra loss) of a retreat from ``where``, the policy's pick: among the
    adjacent Locations free of enemy blocks that no attack came from (8.8.3), with
    ``far`` (the Headquarters retreat of a stack of 4 blocks or fewer, 11.1: "to a
    Location up to 2 spaces away") also those two paths away through a Location free of
    enemy blocks; if there is none, among all adjacent Locations, with 1 more block lost
    (8.8.3); -1 if there is no adjacent Location."""
    cands = np.empty(L.MAX_LOC, dtype=np.int64)
    n = 0
    taken = np.zeros(loc.shape[0], dtype=np.int64)
    taken[where] = 1
    for o in range(loc.shape[0]):
        if adj[where, o] != L.NO_ROAD and free_for_retreat(blk, s, where, side, o):
            cands[n] = o
            taken[o] = 1
            n += 1
    if far:
        for o in range(loc.shape[0]):
            if adj[where, o] == L.NO_ROAD or count_at(s, blk, o, 1 - side) > 0:
                continue
            for o2 in range(loc.shape[0]):
                if not taken[o2] and adj[o, o2] != L.NO_ROAD \
                        and free_for_retreat(blk, s, where, side, o2):
                    cands[n] = o2
                    taken[o2] = 1
                    n += 1
    if n > 0:
        return P.pick_location(pol[side], loc, blk, s, rng, side, cands, n,
                               P.PICK_RETREAT), False
    for o in range(loc.shape[0]):
        if adj[where, o] != L.NO_ROAD:
            cands[n] = o
            n += 1
    return P.pick_location(pol[side], loc, blk, s, rng, side, cands, n, P.PICK_RETREAT), True


# -- sieges (8.9) --------------------------------------------------------------------------
@borrowing
def siege_value(p, loc, blk, where, b):
    """A block's Impact in a siege deployed with a bugle card, as ``block_impact``
    gives it, without the Faction bonus (8.4.2, 11.3)."""
    t = blk[b, L.BK_TYPE]
    if t == L.FIELD_ART or (t == L.MOUNTAIN_ART and p[L.P_MOUNTAIN_SIEGE_3]):
        return 3
    if t == L.MOUNTAIN_ART:
        return 2 if field_art_barred(loc, where) else 1
    if blk[b, L.BK_SPECIAL] == L.SP_HUSSARS:
        return 2
    return blk[b, L.BK_DIAMONDS]


@borrowing
def siege_rate(p, loc, bt):
    """Impact per defending block (8.9.3 C-D, 12.2 Fortification)."""
    where = bt[L.BT_LOC]
    if loc[where, L.LC_KIND] == L.CAPITAL:
        return p[L.P_SIEGE_CAPITAL]
    if bt[L.BT_FORTIFY] == 1:
        return max(p[L.P_SIEGE_CITY_NO_ART], p[L.P_SIEGE_CITY_ART])
    if bt[L.BT_SIEGE_ART] == 1:
        return p[L.P_SIEGE_CITY_ART]
    return p[L.P_SIEGE_CITY_NO_ART]


@borrowing
def siege_kills(p, loc, s, bt, attacker, blockade):
    """Defending blocks the siege eliminates: (attacker Impact + 4 Siege Mortar + 1 naval
    blockade - 3 per defender artillery - 3 for a Defensive Battery) // rate (8.9.3 B-D,
    7.4, 12.1-12.2)."""
    att = bt[L.BT_IMPACT + attacker] + morale_bonus(p, s, attacker)
    if bt[L.BT_MORTAR] == 1:
        att += 4
    if blockade:
        att += 1
    att -= 3 * bt[L.BT_DEF_ART] + 3 * bt[L.BT_BATTERY] - morale_bonus(p, s, 1 - attacker)
    return max(0, att) // siege_rate(p, loc, bt)


@allocating
def resolve_siege(p, loc, adj, blk, card, s, rng, pol, where, attacker, ws, log):
    """A siege at ``where`` (8.9.3): the attacker deploys (leaders free, a Capital needs
    Field Artillery with a bugle first), the defender answers with artillery, the
    defender loses a block per ``rate`` Impact; all lost: the City changes hands."""
    defender = 1 - attacker
    bt = np.zeros(L.N_BT, dtype=np.int64)
    start_battle(loc, blk, s, bt, where, attacker, 1)
    armies = np.empty((2, L.MAX_BLOCKS), dtype=np.int64)
    n_armies = np.zeros(2, dtype=np.int64)
    for side in range(2):
        n_armies[side] = army_at(blk, s, where, side, armies[side])
    s[L.S_SIEGES] += 1
    count_action(s, attacker, L.A_SIEGES)
    log_event(log, EV_SIEGE, where, attacker, n_armies[defender])
    blockade = attacker == L.LIBERALS and loc[where, L.LC_PORT] and naval_at(s, blk, where)
    siege_events(loc, card, s, bt, rng, pol, attacker)
    for _ in range(100):
        if not deployment_step(p, loc, blk, card, s, bt, rng, pol, attacker, armies,
                               n_armies, ws, log):
            break
    siege_mortar(p, loc, card, s, bt, rng, pol, attacker)
    for _ in range(20):
        if not deployment_step(p, loc, blk, card, s, bt, rng, pol, defender, armies,
                               n_armies, ws, log):
            break
        if bt[L.BT_IMPACT + defender] > 0:
            bt[L.BT_DEF_ART] += 1
            bt[L.BT_IMPACT + defender] = 0
    kills = siege_kills(p, loc, s, bt, attacker, blockade)
    reveal_deployed(s, bt, armies, n_armies)
    log_event(log, EV_SIEGE_END, bt[L.BT_IMPACT + attacker], siege_rate(p, loc, bt), kills)
    counted = take_siege_losses(blk, s, bt, rng, pol, defender, armies[defender],
                                n_armies[defender], kills, log)
    finish_cards(card, s, rng, bt, attacker, 0)
    finish_cards(card, s, rng, bt, defender, counted)
    if count_at(s, blk, where, defender) == 0:
        s[L.S_OWNER + where] = attacker
        s[L.S_BESIEGED + where] = 0
        s[L.S_CUBE + where] = 0
        s[L.S_CAPTURES + attacker] += 1
        move_morale(p, s, attacker)
        log_event(log, EV_CAPTURE, where, attacker, 0)
    else:
        s[L.S_BESIEGED + where] = 1


@borrowing
def siege_events(loc, card, s, bt, rng, pol, attacker):
    """Siege Mortar (Carlist besieger of a City, +4 once artillery is deployed: played
    here when the attacker holds artillery), Fortification (Liberal defender of a City,
    8 per block) and Defensive Battery (negates 3) (12.1-12.2)."""
    where = bt[L.BT_LOC]
    defender = 1 - attacker
    for c in range(card.shape[0]):
        if s[L.S_C_WHERE + c] != L.CW_HAND:
            continue
        sp = card[c, L.CD_SPECIAL]
        side = card[c, L.CD_SIDE]
        if side == defender and defender == L.LIBERALS:
            if sp == L.EV_FORTIFICATION and loc[where, L.LC_KIND] == L.CITY \
                    and P.play_event(pol[side], s, rng, side, sp):
                bt[L.BT_FORTIFY] = 1
                play_card(s, bt, side, c)
                use_event(s, card, c)
            elif sp == L.EV_BATTERY and P.play_event(pol[side], s, rng, side, sp):
                bt[L.BT_BATTERY] = 1
                play_card(s, bt, side, c)
                use_event(s, card, c)


@borrowing
def siege_mortar(p, loc, card, s, bt, rng, pol, attacker):
    """Siege Mortar: +4 in a City siege once an artillery block is deployed (12.1); in a
    Capital siege too with the reading ``siege_mortar`` = "capitals_too"."""
    if attacker != L.CARLISTS or bt[L.BT_ART + attacker] == 0 \
            or not mortar_location(p, loc, bt[L.BT_LOC]):
        return
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == L.CARLISTS and s[L.S_C_WHERE + c] == L.CW_HAND \
                and card[c, L.CD_SPECIAL] == L.EV_MORTAR:
            if P.play_event(pol[L.CARLISTS], s, rng, L.CARLISTS, L.EV_MORTAR):
                bt[L.BT_MORTAR] = 1
                play_card(s, bt, L.CARLISTS, c)
                use_event(s, card, c)
            return


@borrowing
def mortar_location(p, loc, where):
    """May «Siege Mortar» be played in a siege of ``where`` (12.1: "If sieging a city")?"""
    kind = loc[where, L.LC_KIND]
    return kind == L.CITY or (kind == L.CAPITAL and p[L.P_MORTAR_CAPITALS] == 1)


@borrowing
def take_siege_losses(blk, s, bt, rng, pol, side, army, n_army, n_loss, log):
    """The defender picks its losses (8.9.3 E), deployed artillery need not be chosen;
    a garrison left with only Decoys/Customs/Partisans is removed (8.9.3 F)."""
    for i in range(n_army):
        bt[L.BT_DEPLOYED + army[i]] = 0  # deployed artillery need not be lost first
    counted = take_losses(blk, s, bt, rng, pol, side, army, n_army, n_loss, log)
    only_dummies = True
    for i in range(n_army):
        b = army[i]
        if s[L.S_B_WHERE + b] == L.W_MAP and counts_for_cards(blk, b):
            only_dummies = False
    if only_dummies:
        for i in range(n_army):
            b = army[i]
            if s[L.S_B_WHERE + b] == L.W_MAP:
                eliminate(s, blk, b)
    return counted


@allocating
def siege_possible(p, loc, blk, card, s, where, attacker):
    """Can the besieger reach the Impact for 1 kill (8.9.3)? Its leaders (2 free) and
    each card of its hand matched to the best block that card deploys (the Headquarters
    any block, +2, ``headquarters_siege_ok``); a Capital needs
    Field Artillery on a bugle card; Field Artillery (and «El Abuelo») cannot deploy in a
    Mountainous or trail-only Location (8.4.2), as in ``deployment_options``."""
    army = np.empty(L.MAX_BLOCKS, dtype=np.int64)
    n = army_at(blk, s, where, attacker, army)
    cards = np.empty(L.MAX_DECK, dtype=np.int64)
    n_cards = hand(s, card, attacker, cards)
    used = np.zeros(L.MAX_BLOCKS, dtype=np.int64)
    total = 0
    leaders = 0
    has_field = False
    has_art = False  # any artillery: «Siege Mortar» needs one deployed (12.1)
    for i in range(n):
        b = army[i]
        if blk[b, L.BK_TYPE] == L.LEADER and leaders < 2:
            total += blk[b, L.BK_DIAMONDS]
            leaders += 1
            used[i] = 1
        elif blk[b, L.BK_SPECIAL] == L.SP_EL_ABUELO and not field_art_barred(loc, where):
            total += 3
            used[i] = 1
            has_field = True
            has_art = True
    capital = loc[where, L.LC_KIND] == L.CAPITAL
    for j in range(n_cards):
        c = cards[j]
        hq = card[c, L.CD_SPECIAL] == L.CS_HQ  # any block, +2 (11.1)
        best, best_v = -1, 0
        for i in range(n):
            b = army[i]
            if used[i] or not fighting_block(blk, b) \
                    or not (hq or card_deploys(blk, card, c, b, True, False)):
                continue
            t = blk[b, L.BK_TYPE]
            if t == L.FIELD_ART and field_art_barred(loc, where):
                continue  # no Field Artillery in Mountainous or trail-only Locations
            v = siege_value(p, loc, blk, where, b) + (2 if hq else 0)
            if v > best_v:
                best, best_v = i, v
        if best >= 0:
            used[best] = 1
            total += best_v
            t = blk[army[best], L.BK_TYPE]
            has_field = has_field or t == L.FIELD_ART
            has_art = has_art or t == L.FIELD_ART or t == L.MOUNTAIN_ART
    if capital and not has_field:
        return False
    if attacker == L.CARLISTS and has_art and mortar_location(p, loc, where) \
            and holds_special(s, card, L.CARLISTS, L.EV_MORTAR) >= 0:
        total += 4  # «Siege Mortar» (12.1) adds to the Impact the siege can reach
    rate = p[L.P_SIEGE_CAPITAL] if capital else (
        p[L.P_SIEGE_CITY_ART] if has_field else p[L.P_SIEGE_CITY_NO_ART])
    return total >= rate
