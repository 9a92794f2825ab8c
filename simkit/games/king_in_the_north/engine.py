"""The King in the North's campaign as njit kernels: the yearly cycle (rulebook 6), the
Combat Phase (8.1), sudden and final victory (2). Movement is in ``movement``, battles
and sieges in ``combat``, every choice in ``policies``.
"""

import numpy as np
from numba import njit

from simkit.checks import at_game, failed
from simkit.eventlog import log_event
from simkit.rng import game_streams, restart, shuffle, uniform_int
from simkit.unmanaged import allocating, borrowing, unmanaged

from . import layout as L
from . import policies as P
from .checks import after_step
from .combat import (
    army_at,
    resolve_battle,
    resolve_siege,
    retreat_destination,
    siege_possible,
)
from .events import (
    EV_ARRIVE,
    EV_ATTRITION,
    EV_BID,
    EV_CHALLENGE,
    EV_REINFORCEMENT,
    EV_RETREAT_BEFORE,
    EV_SEMESTER,
    EV_TURN,
    EV_VICTORY,
)
from .movement import has_room, join_stack, movement_phase, place, workspace
from .plan import planned_card, planned_first
from .state import (
    cities_and_capitals,
    count_action,
    count_at,
    cubes_used,
    discard,
    draw_cards,
    eliminate,
    enter,
    hand_size,
    holds_special,
    refresh_control,
    resources,
    track_blocks,
    use_event,
    victory_points,
)
from .view import dummy, reveal

SEM_1836A = L.semester_index(1836, "A")
SEM_1837A = L.semester_index(1837, "A")
SEM_1838A = L.semester_index(1838, "A")


# -- set-up (5, 3.3) -----------------------------------------------------------------------
@allocating
def set_up(p, loc, blk, card, s, rng):
    """Blocks to the map, bags and reserves; control and cubes; decks shuffled; opening
    hands. Optional 13.1 removes 1 Field and 1 Mountain artillery from each bag. The
    blocks the Playbook deploys are known to the enemy, not the Decoys, Partisans and
    Customs Officers, which "may be placed in any Location where there is at least 1
    friendly block" (7.3.7)."""
    s[:] = 0
    s[L.S_WINNER] = L.WIN_TIE
    s[L.S_FORTIFY_LOC] = -1
    for i in range(loc.shape[0]):
        s[L.S_OWNER + i] = loc[i, L.LC_OWNER]
    removed = np.zeros((2, 2), dtype=np.int64)
    for b in range(blk.shape[0]):
        s[L.S_B_SIDE + b] = blk[b, L.BK_SIDE]
        s[L.S_B_LOC + b] = -1
        s[L.S_B_FROM + b] = L.FROM_NONE
        start = blk[b, L.BK_START]
        if start == L.START_MAP:
            s[L.S_B_WHERE + b] = L.W_MAP
            s[L.S_B_LOC + b] = blk[b, L.BK_START_LOC]
            if not dummy(blk, b):
                reveal(s, b)  # the Playbook's deployment (5); see ``view``
        elif start == L.START_BAG:
            s[L.S_B_WHERE + b] = L.W_BAG
            t = blk[b, L.BK_TYPE]
            if p[L.P_CAPTURED_ART] and (t == L.FIELD_ART or t == L.MOUNTAIN_ART):
                k = 0 if t == L.FIELD_ART else 1
                side = blk[b, L.BK_SIDE]
                if removed[side, k] == 0:
                    removed[side, k] = 1
                    s[L.S_B_WHERE + b] = L.W_REMOVED
        else:
            s[L.S_B_WHERE + b] = L.W_RESERVE
    for i in range(loc.shape[0]):
        owner = s[L.S_OWNER + i]
        if owner != L.NOBODY and loc[i, L.LC_VP] > 0 and count_at(s, blk, i, owner) == 0 \
                and cubes_used(s, loc, owner) < p[L.P_GARRISONS]:
            s[L.S_CUBE + i] = owner + 1
    for side in range(2):
        n = 0
        base = L.S_DRAW + side * L.MAX_DECK
        for c in range(card.shape[0]):
            if card[c, L.CD_SIDE] != side:
                continue
            if card[c, L.CD_SPECIAL] == L.CS_BREACH and not p[L.P_BREACH + side]:
                s[L.S_C_WHERE + c] = L.CW_OUT
                continue
            s[L.S_C_WHERE + c] = L.CW_DRAW
            s[base + n] = c
            n += 1
        pile = s[base:base + n].copy()
        shuffle(rng, L.ST_DECK[side], pile)
        s[base:base + n] = pile
        s[L.S_DRAW_N + side] = n
        draw_cards(s, card, rng, side, p[L.P_OPENING_HAND])


# -- turn order (6.2, 6.3.1) ---------------------------------------------------------------
@allocating
def turn_order(p, blk, card, s, rng, pol, ws, log):
    """Both sides bid a card face up; the higher number chooses who moves first. The
    bids are chosen before either is shown: a look-ahead's side chooses first
    (``plan.planned_card``), so that its rollouts' world, dealt again at its bid, holds
    no enemy bid it could not have seen (the enemy bids in that world)."""
    bids = np.full(2, -1, dtype=np.int64)
    chosen = np.full(2, -1, dtype=np.int64)
    planning = ws.plan[L.PL_MODE] != L.PLAN_OFF
    first = ws.plan[L.PL_SIDE] if planning else 0
    for i in range(2):
        side = first if i == 0 else 1 - first
        chosen[side] = P.bid_card(pol[side], card, s, rng, side)
        if planning:
            chosen[side] = planned_card(blk, card, s, rng, pol[side], side, chosen[side],
                                        False, ws)
    for side in range(2):
        c = chosen[side]
        if c >= 0:
            bids[side] = card[c, L.CD_BID]
            discard(s, c)
            count_action(s, side, L.A_BIDS)
    if bids[0] > bids[1]:
        chooser = L.CARLISTS
    elif bids[1] > bids[0]:
        chooser = L.LIBERALS
    else:
        chooser = p[L.P_BID_TIE]
    s[L.S_FIRST] = choose_first(blk, card, s, rng, pol, chooser, ws)
    log_event(log, EV_BID, bids[0], bids[1], s[L.S_FIRST])


@borrowing
def choose_first(blk, card, s, rng, pol, chooser, ws):
    """Who moves first, as ``chooser`` chooses (6.2, 6.3.1)."""
    first = P.choose_first(pol[chooser], s, rng, chooser)
    if ws.plan[L.PL_MODE] != L.PLAN_OFF:
        first = planned_first(blk, card, s, rng, chooser, first, ws)
    return first


@borrowing
def initiative_challenge(p, blk, card, s, rng, pol, ws, log):
    """Semester B: the side without Initiative may bid face down; the holder accepts
    (both cards compared and discarded) or declines (Initiative passes) (6.3.1)."""
    holder = s[L.S_FIRST]
    challenger = 1 - holder
    planning = ws.plan[L.PL_MODE] != L.PLAN_OFF
    c = P.initiative_challenge(pol[challenger], card, s, rng, challenger)
    if planning:
        c = planned_card(blk, card, s, rng, pol[challenger], challenger, c, True, ws)
    if c < 0:
        return
    count_action(s, challenger, L.A_CHALLENGES)
    a = P.accept_challenge(pol[holder], card, s, rng, holder)
    if planning:
        dealt = ws.plan[L.PL_DEALT]
        a = planned_card(blk, card, s, rng, pol[holder], holder, a, True, ws)
        if ws.plan[L.PL_DEALT] and not dealt:
            c = challenge_card(card, s, rng, pol, challenger)
    discard(s, c)
    if a < 0:
        s[L.S_FIRST] = challenger
        log_event(log, EV_CHALLENGE, challenger, 0, challenger)
        return
    discard(s, a)
    if card[c, L.CD_BID] > card[a, L.CD_BID]:
        s[L.S_FIRST] = choose_first(blk, card, s, rng, pol, challenger, ws)
    else:
        s[L.S_FIRST] = choose_first(blk, card, s, rng, pol, holder, ws)
    log_event(log, EV_CHALLENGE, challenger, 1, s[L.S_FIRST])


@borrowing
def challenge_card(card, s, rng, pol, challenger):
    """The challenger's face-down card in a world the holder's look-ahead dealt again
    (``plan.own_world``): the one it would bid there, its highest number if none."""
    c = P.initiative_challenge(pol[challenger], card, s, rng, challenger)
    return c if c >= 0 else P.best_bid(card, s, challenger)


# -- historical reinforcements and Defectors (6.3, 8.6.1, 7.4) -----------------------------
@borrowing
def arrivals(p, loc, blk, s, rng, pol, side, log):
    """Historical reinforcements of this Semester enter at their Location (a friendly
    stack with room if the enemy holds it or it is full, 7.1: our reading); Naval
    Squadrons at a Port free of enemy blocks; pending Defectors of an earlier Semester
    join a friendly stack not besieged (8.6.1: "if the battle took place in Semester A,
    any Defectors Blocks would be placed during their next turn in Semester B"), with
    room (7.1)."""
    sem = s[L.S_SEMESTER]
    wait = s[L.S_DEFECTORS_NEW + side]  # made this Semester: they enter the next one
    for b in range(blk.shape[0]):
        if s[L.S_B_SIDE + b] != side:
            continue
        if blk[b, L.BK_START] == L.START_REINFORCEMENT and s[L.S_B_WHERE + b] == L.W_RESERVE \
                and blk[b, L.BK_ARRIVES] <= sem:
            where = blk[b, L.BK_START_LOC]
            if blk[b, L.BK_TYPE] == L.NAVAL:
                if count_at(s, blk, where, 1 - side) > 0:
                    where = P.choose_port(pol[side], loc, blk, s, rng, where)
            elif count_at(s, blk, where, 1 - side) > 0 or s[L.S_OWNER + where] == 1 - side \
                    or not has_room(p, loc, blk, s, where, side):
                where = join_stack(p, loc, blk, s, rng, pol, side)
            if where < 0:
                continue
            place(s, b, where)
            reveal(s, b)  # the Playbook names the historical reinforcements (6.3)
            s[L.S_B_MOVED + b] = 0
            enter(s, loc, blk, side, where)
            log_event(log, EV_ARRIVE, b, where, 0)
        elif s[L.S_B_WHERE + b] == L.W_PENDING and wait > 0:
            wait -= 1
        elif s[L.S_B_WHERE + b] == L.W_PENDING:
            where = join_stack(p, loc, blk, s, rng, pol, side)
            if where >= 0:
                place(s, b, where)
                reveal(s, b)  # a Defectors block, taken in view (8.6.1)
                s[L.S_B_MOVED + b] = 0
                log_event(log, EV_ARRIVE, b, where, 0)


# -- the Combat Phase (8.1, 8.8.7, 8.9.2, 13.3) --------------------------------------------
@allocating
def contested_locations(loc, blk, s):
    """Whether both sides have blocks on the map at each Location (1 or 0), in one pass
    over the blocks."""
    seen = np.zeros((2, loc.shape[0]), dtype=np.int64)
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_MAP and blk[b, L.BK_TYPE] != L.NAVAL:
            seen[s[L.S_B_SIDE + b], s[L.S_B_LOC + b]] = 1
    both = np.zeros(loc.shape[0], dtype=np.int64)
    for i in range(loc.shape[0]):
        both[i] = seen[0, i] * seen[1, i]
    return both


@borrowing
def moved_in(s, blk, where, side):
    for b in range(blk.shape[0]):
        if s[L.S_B_LOC + b] == where and s[L.S_B_WHERE + b] == L.W_MAP \
                and s[L.S_B_SIDE + b] == side and s[L.S_B_FROM + b] >= 0:
            return True
    return False


@allocating
def retreat_before(p, loc, adj, blk, card, s, rng, pol, where, defender, log):
    """Retreat before combat (8.8.7): a Carlist stack (1 block lost from 5 up) or a
    Liberal stack of cavalry and Leaders only, once per Semester; or any stack with the
    Headquarters card (11.1). Returns True if the defender left."""
    army = np.empty(L.MAX_BLOCKS, dtype=np.int64)
    n = army_at(blk, s, where, defender, army)
    if n == 0:
        return False
    hq = holds_special(s, card, defender, L.CS_HQ)
    allowed = s[L.S_RETREAT_USED + defender] == 0
    if defender == L.LIBERALS:
        for i in range(n):
            t = blk[army[i], L.BK_TYPE]
            if t != L.CAVALRY and t != L.LANCER and t != L.LEADER:
                allowed = False
    if not allowed and hq < 0:
        return False
    mine = 0
    enemy = 0
    for b in range(blk.shape[0]):
        if s[L.S_B_LOC + b] == where and s[L.S_B_WHERE + b] == L.W_MAP:
            if s[L.S_B_SIDE + b] == defender:
                mine += blk[b, L.BK_DIAMONDS]
            else:
                enemy += blk[b, L.BK_DIAMONDS]
    if not P.retreat_before_combat(pol[defender], loc, blk, card, s, rng, defender, where,
                                   mine, enemy):
        return False
    far = not allowed and n <= 4  # the Headquarters: up to 2 spaces for 4 blocks (11.1)
    dest, forced = retreat_destination(loc, adj, blk, s, rng, pol, where, defender, far)
    if dest < 0 or forced:
        return False
    if allowed:
        s[L.S_RETREAT_USED + defender] = 1
        count_action(s, defender, L.A_RETREAT_BEFORE)
        if defender == L.CARLISTS and n >= 5:
            b = P.choose_loss(pol[defender], blk, s, np.zeros(L.N_BT, dtype=np.int64), rng,
                              defender, army, n)
            eliminate(s, blk, b)
    else:
        discard(s, hq)
        count_action(s, defender, L.A_HQ)
    for i in range(n):
        b = army[i]
        if s[L.S_B_WHERE + b] == L.W_MAP:
            s[L.S_B_LOC + b] = dest
    refresh_control(s, loc, blk, where)
    enter(s, loc, blk, defender, dest)  # "Garrisons are ignored" on the way (8.8.3)
    log_event(log, EV_RETREAT_BEFORE, defender, where, dest)
    return True


@borrowing
def fight_at(p, loc, adj, blk, card, s, rng, pol, where, attacker, ws, log):
    """Declare and resolve the combat at ``where``: a siege if the defender controls the
    City/Capital and stays inside (at most 2 / 3 blocks), else a battle (8.9.1-8.9.2)."""
    defender = 1 - attacker
    city = loc[where, L.LC_KIND] >= L.CITY
    n_def = count_at(s, blk, where, defender)
    cap = 3 if loc[where, L.LC_KIND] == L.CAPITAL else 2
    if city and s[L.S_OWNER + where] == defender and n_def <= cap:
        # asked in every phase: "Players may declare a force to be outside even if they
        # had declared them inside during a previous phase" (8.9.2)
        inside = P.declare_inside(pol[defender], s, rng, defender, n_def,
                                  count_at(s, blk, where, attacker))
        if not inside:
            s[L.S_BESIEGED + where] = 0
        if inside:
            s[L.S_BESIEGED + where] = 1
            breach = holds_special(s, card, attacker, L.CS_BREACH)
            if breach >= 0 and P.play_breach(pol[attacker], s, rng, attacker,
                                             count_at(s, blk, where, attacker), n_def):
                use_event(s, card, breach)
                s[L.S_BESIEGED + where] = 0
                resolve_battle(p, loc, adj, blk, card, s, rng, pol, where, attacker, ws, log)
                return
            if siege_possible(p, loc, blk, card, s, where, attacker) \
                    and P.lay_siege(pol[attacker], s, rng, attacker):
                resolve_siege(p, loc, adj, blk, card, s, rng, pol, where, attacker, ws, log)
            return
    if retreat_before(p, loc, adj, blk, card, s, rng, pol, where, defender, log):
        return
    resolve_battle(p, loc, adj, blk, card, s, rng, pol, where, attacker, ws, log)


@allocating
def combat_phase(p, loc, adj, blk, card, s, rng, pol, side, ws, log):
    """Every Location holding both sides' blocks is fought, one at a time (8.1). A
    besieged side may sally (a battle, 8.9.5); a retreat into enemy blocks makes the
    retreating side the attacker there, even where a combat was fought already this
    phase: "If this occurs, resolve the battle/Overrun and its consequences" (8.8.6).
    After each combat the next is looked for afresh (a retreat may have made one)."""
    done = np.zeros(L.MAX_LOC, dtype=np.int64)
    for _ in range(3 * loc.shape[0]):
        if s[L.S_DONE]:
            return
        where, attacker, sally = next_combat(blk, card, s, rng, pol, side, loc, done)
        if where < 0:
            return
        done[where] = 1
        if sally:
            s[L.S_BESIEGED + where] = 0  # a sally is a battle (8.9.5)
            count_action(s, side, L.A_SALLIES)
            resolve_battle(p, loc, adj, blk, card, s, rng, pol, where, side, ws, log)
        else:
            s[L.S_FORCED_BATTLE] = 1 if s[L.S_RETREAT_IN + where] > 0 else 0
            s[L.S_RETREAT_IN + where] = 0
            fight_at(p, loc, adj, blk, card, s, rng, pol, where, attacker, ws, log)
            s[L.S_FORCED_BATTLE] = 0
        check_sudden(p, loc, s, side, log)
        if after_step(p, loc, blk, card, s, log, L.STEP_COMBAT[side]):
            return


@allocating
def next_combat(blk, card, s, rng, pol, side, loc, done):
    """(Location, attacker, whether it is a sally) of the next combat of ``side``'s
    Combat Phase, -1 if none: a retreat into combat first where one is pending; a
    besieged force of ``side`` that received no relief sallies or stays (8.9.5)."""
    both = contested_locations(loc, blk, s)
    for i in range(loc.shape[0]):
        if not both[i] or (done[i] and s[L.S_RETREAT_IN + i] == 0):
            continue
        if s[L.S_RETREAT_IN + i] > 0:
            return i, s[L.S_RETREAT_IN + i] - 1, False
        if s[L.S_BESIEGED + i] == 1 and s[L.S_OWNER + i] == side \
                and not moved_in(s, blk, i, side):
            done[i] = 1
            if P.sally(pol[side], loc, blk, card, s, rng, side, i):
                return i, side, True
            continue
        return i, side, False
    return -1, side, False


# -- victory (2) ---------------------------------------------------------------------------
@borrowing
def end_game(s, winner, reason, log):
    if s[L.S_DONE]:
        return
    s[L.S_DONE] = 1
    s[L.S_WINNER] = winner
    s[L.S_REASON] = reason
    log_event(log, EV_VICTORY, winner, reason, 0)


@borrowing
def holds_recruitment(loc, s, side):
    """Does ``side`` control all 4 enemy Recruitment Locations (2.2)?"""
    for i in range(loc.shape[0]):
        if loc[i, L.LC_RECRUIT_SIDE] == 1 - side and s[L.S_OWNER + i] != side:
            return False
    return True


@borrowing
def check_sudden(p, loc, s, side, log):
    """Sudden victories of the active side (2.1-2.2): VP leads from 1836 A and 1837 A
    (Carlists with a Port Capital), the Carlist 5 Cities/Capitals from 1838 A, the enemy
    Recruitment Locations from the end of 1837; and in the Carlists' turn the Liberals'
    20 VP lead from 1836 A (2.2: "the Liberals win instantly if they obtain a 20 VP
    lead", reading ``liberal_lead_1836_turn``)."""
    if s[L.S_DONE]:
        return
    sem = s[L.S_SEMESTER]
    lead = victory_points(s, loc, side) - victory_points(s, loc, 1 - side)
    cities, capitals, ports, _ = cities_and_capitals(s, loc, side)
    p1836, p1837, p1838 = SEM_1836A, SEM_1837A, SEM_1838A
    if side == L.CARLISTS:
        if sem >= p1836 and ports > 0 and lead >= p[L.P_CARLIST_LEAD_1836]:
            end_game(s, L.WIN_CARLISTS, L.END_VP_LEAD, log)
        elif sem >= p1837 and ports > 0 and lead >= p[L.P_CARLIST_LEAD_1837]:
            end_game(s, L.WIN_CARLISTS, L.END_VP_LEAD, log)
        elif sem >= p1838 and ports > 0 and ((cities >= 2 and capitals >= 3)
                                             or (cities >= 3 and capitals >= 2)):
            end_game(s, L.WIN_CARLISTS, L.END_LOCATIONS, log)
    else:
        if sem >= p1836 and lead >= p[L.P_LIBERAL_LEAD_1836]:
            end_game(s, L.WIN_LIBERALS, L.END_VP_LEAD, log)
        elif sem >= p1837 and lead >= p[L.P_LIBERAL_LEAD_1837]:
            end_game(s, L.WIN_LIBERALS, L.END_VP_LEAD, log)
    if side == L.CARLISTS and p[L.P_LEAD_ANY_TURN] and sem >= p1836 \
            and -lead >= p[L.P_LIBERAL_LEAD_1836]:  # reading liberal_lead_1836_turn
        end_game(s, L.WIN_LIBERALS, L.END_VP_LEAD, log)
    if not s[L.S_DONE] and sem >= p1838 and holds_recruitment(loc, s, side):
        end_game(s, side, L.END_RECRUITMENT, log)


@borrowing
def final_victory(loc, s, log):
    """End of 1839 (2.2): more VP and at least one of the 4 starred Capitals, else a
    tie."""
    vc = victory_points(s, loc, L.CARLISTS)
    vl = victory_points(s, loc, L.LIBERALS)
    winner = L.WIN_TIE
    if vc != vl:
        w = L.CARLISTS if vc > vl else L.LIBERALS
        if cities_and_capitals(s, loc, w)[3] > 0:
            winner = w
    end_game(s, winner, L.END_FINAL, log)


# -- the Reinforcement Phase and Siege Attrition (6.4, 6.5) --------------------------------
@allocating
def reinforcement_phase(p, loc, blk, card, s, rng, pol, log):
    """Discard half the hand (rounded down), draw 7 (+1 for more Cities/Capitals), draw
    blocks from the bag (+1 for more Resource Locations; a Defectors block once the bag
    is empty) into the Recruitment Box."""
    year = s[L.S_YEAR]
    cc = np.zeros(2, dtype=np.int64)
    rs = np.zeros(2, dtype=np.int64)
    for side in range(2):
        c, k, _, _ = cities_and_capitals(s, loc, side)
        cc[side] = c + k
        rs[side] = resources(s, loc, side)
    for side in range(2):
        for _ in range(hand_size(s, card, side) // 2):
            discard(s, P.worst_card(pol[side], card, s, rng, side))
        n_cards = p[L.P_DRAW] + (1 if cc[side] > cc[1 - side] else 0)
        draw_cards(s, card, rng, side, n_cards)
        n_blocks = track_blocks(p, side, year) + (1 if rs[side] > rs[1 - side] else 0)
        restart(rng, L.ST_BAG[side], year)
        for _ in range(n_blocks):
            draw_block(blk, s, rng, side)
        log_event(log, EV_REINFORCEMENT, side, n_cards, n_blocks)


@borrowing
def draw_block(blk, s, rng, side):
    """One block at random from the bag to the Recruitment Box (a Defectors block from
    the reserve when the bag is empty)."""
    n = 0
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_BAG and s[L.S_B_SIDE + b] == side:
            n += 1
    if n == 0:
        s[L.S_DEFECTORS_OWED + side] += 1
        for b in range(blk.shape[0]):
            if blk[b, L.BK_TYPE] == L.DEFECTORS and s[L.S_B_SIDE + b] == side \
                    and s[L.S_B_WHERE + b] == L.W_RESERVE:
                s[L.S_B_WHERE + b] = L.W_BOX
                return
        return
    k = uniform_int(rng, L.ST_BAG[side], n)
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_BAG and s[L.S_B_SIDE + b] == side:
            if k == 0:
                s[L.S_B_WHERE + b] = L.W_BOX
                return
            k -= 1


@borrowing
def siege_attrition(loc, blk, card, s, rng, pol, log):
    """6.5: "If there are one or more sieges still unresolved after the end of the Year,
    the besieging player must eliminate 1 and only 1 card of their choice from their
    hand": the card leaves play, as a Special Event used for its effect (3.3)."""
    for side in range(2):
        for i in range(loc.shape[0]):
            if s[L.S_BESIEGED + i] == 1 and s[L.S_OWNER + i] == 1 - side \
                    and count_at(s, blk, i, side) > 0:
                c = P.worst_card(pol[side], card, s, rng, side)
                if c >= 0:
                    s[L.S_C_WHERE + c] = L.CW_REMOVED
                    log_event(log, EV_ATTRITION, side, 0, 0)
                break


# -- the cycle (6) -------------------------------------------------------------------------
@borrowing
def play_game(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, ws, out, log):
    """The whole campaign (6.1): per Year, Turn Order, Semesters A and B (one in the first
    and last Years), Reinforcement Phase, Siege Attrition; then the final victory. A
    run that checks states stops at the first broken invariant (``checks``). ``ws``:
    ``movement.workspace``, scratch the Movement Phases share."""
    s[L.S_NEXT] = L.NEXT_SET_UP
    play_from(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, ws, out, log)


@borrowing
def play_from(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, ws, out, log):
    """The campaign from the position ``s`` (with its streams ``rng``) to its end, step
    by step (``play_step``): a copy of ``s`` and ``rng`` between two steps plays on as
    the original would. ``out`` gets the outcome row unless a state check failed."""
    while s[L.S_NEXT] != L.NEXT_OVER:
        play_step(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, ws, out, log)


@borrowing
def turn_side(s):
    """The side whose turn is the next step, -1 if the next step is not a side's turn
    (the look-ahead plans a side's turn before it is played)."""
    if s[L.S_NEXT] != L.NEXT_SIDE_TURN:
        return -1
    return s[L.S_FIRST] if s[L.S_SIDE_TURN] == 0 else 1 - s[L.S_FIRST]


@borrowing
def play_step(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, ws, out, log):
    """The step ``S_NEXT`` names (``layout.NEXT_*``): the set-up, a Year's Turn Order, a
    Semester's start, one side's turn, the end of a Year, the final victory. Where the
    campaign stands lives in ``s`` (``S_YEAR``, ``S_SEM``, ``S_SIDE_TURN``,
    ``S_PLAYED``); a broken invariant ends it (``NEXT_OVER``, no outcome written)."""
    step = s[L.S_NEXT]
    if step == L.NEXT_SET_UP:
        restart(rng, L.ST_SET_UP, 0)
        set_up(p, loc, blk, card, s, rng)  # zeroes the state: where it stands too
        s[L.S_NEXT] = L.NEXT_YEAR
        if after_step(p, loc, blk, card, s, log, L.STEP_SET_UP):
            s[L.S_NEXT] = L.NEXT_OVER
    elif step == L.NEXT_YEAR:
        year_step(p, card, s, rng, pol, ws, log, loc, blk)
    elif step == L.NEXT_SEMESTER:
        semester_step(p, loc, blk, card, s, rng, pol, ws, log)
    elif step == L.NEXT_SIDE_TURN:
        side = turn_side(s)
        if side_turn(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, log):
            s[L.S_NEXT] = L.NEXT_OVER
        elif s[L.S_DONE] or s[L.S_SIDE_TURN] == 1:
            end_semester(p, s)
        else:
            s[L.S_SIDE_TURN] = 1
    elif step == L.NEXT_YEAR_END:
        year_end_step(p, loc, blk, card, s, rng, pol, log)
    elif step == L.NEXT_FINAL:
        s[L.S_NEXT] = L.NEXT_OVER
        if not s[L.S_DONE]:
            final_victory(loc, s, log)
        if not after_step(p, loc, blk, card, s, log, L.STEP_END):
            write_outcome(loc, blk, s, s[L.S_PLAYED], out)


@borrowing
def plays_semester(p, year, sem):
    """Is Semester ``sem`` of ``year`` played (one in the first and last Years, 6.1)?"""
    if year == 0 and sem != p[L.P_FIRST_SEM]:
        return False
    return not (year == L.N_YEARS - 1 and sem != p[L.P_LAST_SEM])


@borrowing
def year_step(p, card, s, rng, pol, ws, log, loc, blk):
    """A Year begins: the Turn Marker to its Semester A, the Turn Order Phase (6.2); its
    first Semester played comes next."""
    year = s[L.S_YEAR]
    s[L.S_SEMESTER] = 2 * year  # the Turn Marker goes to Semester A (6.2)
    restart(rng, L.ST_POLICY[0], 1000 + year)
    restart(rng, L.ST_POLICY[1], 1000 + year)
    turn_order(p, blk, card, s, rng, pol, ws, log)
    if after_step(p, loc, blk, card, s, log, L.STEP_TURN_ORDER):
        s[L.S_NEXT] = L.NEXT_OVER
        return
    to_semester(p, s, 0)


@borrowing
def to_semester(p, s, sem):
    """The first Semester from ``sem`` on that the Year plays comes next, else the end
    of the Year."""
    year = s[L.S_YEAR]
    for k in range(sem, 2):
        if plays_semester(p, year, k):
            s[L.S_SEM] = k
            s[L.S_NEXT] = L.NEXT_SEMESTER
            return
    s[L.S_NEXT] = L.NEXT_YEAR_END


@borrowing
def semester_step(p, loc, blk, card, s, rng, pol, ws, log):
    """A Semester begins (6.3): the Initiative Challenge in Semester B; the side with the
    Initiative plays its turn next."""
    year, sem = s[L.S_YEAR], s[L.S_SEM]
    begin_semester(s, year, sem)
    if sem == 1 and 0 < year < L.N_YEARS - 1:
        initiative_challenge(p, blk, card, s, rng, pol, ws, log)
        if after_step(p, loc, blk, card, s, log, L.STEP_CHALLENGE):
            s[L.S_NEXT] = L.NEXT_OVER
            return
    log_event(log, EV_SEMESTER, L.FIRST_YEAR + year, sem, s[L.S_FIRST])
    s[L.S_SIDE_TURN] = 0
    s[L.S_NEXT] = L.NEXT_SIDE_TURN


@borrowing
def end_semester(p, s):
    """Both turns played, or the game won: the Year's next Semester, else its end; the
    final victory once the game is won."""
    s[L.S_PLAYED] += 1
    if s[L.S_DONE]:
        s[L.S_NEXT] = L.NEXT_FINAL
    else:
        to_semester(p, s, s[L.S_SEM] + 1)


@borrowing
def year_end_step(p, loc, blk, card, s, rng, pol, log):
    """The end of a Year (6.4, 6.5): the final victory after the last; else the enemy
    Recruitment Locations from the end of 1837 (2.2), the Reinforcement Phase and Siege
    Attrition, and the next Year."""
    year = s[L.S_YEAR]
    s[L.S_NEXT] = L.NEXT_FINAL
    if year == L.N_YEARS - 1:
        return
    if 2 * year + 1 >= SEM_1838A - 1:
        for side in range(2):
            if not s[L.S_DONE] and holds_recruitment(loc, s, side):
                end_game(s, side, L.END_RECRUITMENT, log)
    if s[L.S_DONE]:
        return
    reinforcement_phase(p, loc, blk, card, s, rng, pol, log)
    if after_step(p, loc, blk, card, s, log, L.STEP_REINFORCEMENT):
        s[L.S_NEXT] = L.NEXT_OVER
        return
    siege_attrition(loc, blk, card, s, rng, pol, log)
    if after_step(p, loc, blk, card, s, log, L.STEP_ATTRITION):
        s[L.S_NEXT] = L.NEXT_OVER
        return
    s[L.S_YEAR] = year + 1
    s[L.S_NEXT] = L.NEXT_YEAR


@borrowing
def begin_semester(s, year, sem):
    """The Turn Marker moves to a new Semester (6.3): one retreat before combat per side
    and Semester again (8.8.7); the Defectors of the last Semester may enter (8.6.1)."""
    s[L.S_SEMESTER] = 2 * year + sem
    s[L.S_TURN] += 1
    for side in range(2):
        s[L.S_RETREAT_USED + side] = 0
        s[L.S_DEFECTORS_NEW + side] = 0


@borrowing
def side_turn(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, log):
    """One side's turn (6.3): Historical Reinforcements, Movement, Combat, each followed
    by the sudden-victory checks. Returns True if a state check failed."""
    s[L.S_ACTIVE] = side
    for b in range(blk.shape[0]):
        s[L.S_B_FROM + b] = L.FROM_NONE  # no block has entered a Location this turn yet
    restart(rng, L.ST_POLICY[side], s[L.S_SEMESTER] * 2 + side)
    log_event(log, EV_TURN, side, victory_points(s, loc, 0), victory_points(s, loc, 1))
    arrivals(p, loc, blk, s, rng, pol, side, log)
    if after_step(p, loc, blk, card, s, log, L.STEP_HISTORICAL[side]):
        return True
    movement_phase(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, side, ws, log)
    if after_step(p, loc, blk, card, s, log, L.STEP_MOVEMENT[side]):
        return True
    check_sudden(p, loc, s, side, log)
    if not s[L.S_DONE]:
        combat_phase(p, loc, adj, blk, card, s, rng, pol, side, ws, log)
        if after_step(p, loc, blk, card, s, log, L.STEP_COMBAT_PHASE[side]):
            return True
        check_sudden(p, loc, s, side, log)
    return False


@borrowing
def write_outcome(loc, blk, s, played, out):
    out[L.O_WINNER] = s[L.S_WINNER]
    out[L.O_END_REASON] = s[L.S_REASON]
    out[L.O_TURNS] = played
    out[L.O_END_YEAR] = L.FIRST_YEAR + s[L.S_YEAR]
    out[L.O_END_SEMESTER] = s[L.S_SEMESTER] % 2
    vc = victory_points(s, loc, L.CARLISTS)
    vl = victory_points(s, loc, L.LIBERALS)
    out[L.O_FINAL_LEAD] = vl - vc
    out[L.O_CARLIST_VP] = vc
    out[L.O_LIBERAL_VP] = vl
    out[L.O_BATTLES] = s[L.S_BATTLES]
    out[L.O_SIEGES] = s[L.S_SIEGES]
    for side in range(2):
        out[L.O_LOST + side] = s[L.S_LOST + side]
        out[L.O_CAPTURES + side] = s[L.S_CAPTURES + side]
    alive = 1
    for b in range(blk.shape[0]):
        if blk[b, L.BK_SPECIAL] == L.SP_DON_CARLOS and s[L.S_B_WHERE + b] == L.W_DEAD:
            alive = 0
    out[L.O_DON_CARLOS] = alive
    for k in range(2 * L.N_ACTIONS):
        out[L.O_ACTIONS + k] = s[L.S_ACTIONS + k]
    for k in range(2 * L.N_BLUNDERS):
        out[L.O_BLUNDERS + k] = s[L.S_BLUNDERS + k]


@njit(cache=True, nogil=True)
def play_games(p, loc, adj, fac_home, any2, blk, card, pol, game_indices, root_seed, log):
    """One campaign per game index; returns the ``(n, N_OUT)`` outcome table."""
    out = np.zeros((game_indices.shape[0], L.N_OUT), dtype=np.int32)
    s = np.zeros(L.N_STATE, dtype=np.int64)
    ws = workspace(loc, card)
    for row in range(game_indices.shape[0]):
        at_game(log, row)
        rng = game_streams(root_seed, game_indices[row], L.N_STREAMS)
        play_unmanaged(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, ws, out[row], log)
        if failed(log):
            break  # a broken invariant: the game raises StateError (simkit.checks)
    return out


@njit(cache=True, nogil=True)
def play_unmanaged(p, loc, adj, fac_home, any2, blk, card, s, rng, pol, ws, out, log):
    """``play_game`` on views numba does not reference-count (``simkit.unmanaged``): the
    caller owns every array for the whole call and no view outlives it, so the rules'
    calls skip the atomic reference counting of the component tables (the same games)."""
    play_game(unmanaged(p), unmanaged(loc), unmanaged(adj), unmanaged(fac_home),
              unmanaged(any2), unmanaged(blk), unmanaged(card), unmanaged(s), unmanaged(rng),
              unmanaged(pol), unmanaged(ws), unmanaged(out), unmanaged(log))
