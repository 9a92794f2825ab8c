"""Fire and combat of the whole game (rulebook 9, 11, 12, 13), on the combat system's rules.

The dice are rolled by the combat system's rule functions
(``setembre1714_assault.combat_system``: ``artillery_fire``, ``salvo_fire``,
``resolve_assault``, ``commander_casualty``) and the assault values come from its
``attack_value`` / ``defence_value``: the same code resolves an assault in the assault
scenario and in the whole game. This module adds what the map brings: which zones
may fire or assault, casualties chosen by the owner, retreat (captured when surrounded,
over-stacking eliminated), advance after combat, leaders and barricades.
"""

import numpy as np

from simkit.checks import checking, failed
from simkit.eventlog import log_event
from simkit.games.setembre1714_assault.combat_system import (
    EV_ASSAULT_VALUES,
    artillery_fire,
    attack_value,
    commander_casualty,
    defence_value,
    resolve_assault,
    salvo_fire,
)
from simkit.unmanaged import allocating, borrowing

from . import layout as L
from . import policies as POL
from .board import (
    assault_allowed,
    barricade_in,
    count,
    count_action,
    count_blunder,
    eliminate_leader,
    eliminate_unit,
    enemy_enters,
    leader_near,
    leader_refuge,
    lift_unit,
    place_unit,
    remove_barricade,
    salvo_allowed,
    santa_eulalia_flag,
    terrain_bonus,
    zone_limit,
)
from .checks import check_state
from .events import (
    CAUSE_ARTILLERY,
    CAUSE_ASSAULT,
    CAUSE_OVERSTACK,
    CAUSE_SALVO,
    CAUSE_SURROUNDED,
    EV_ADVANCE,
    EV_ASSAULT_DECLARED,
    EV_GUN_TARGET,
    EV_LEADS,
    EV_RETREAT,
    EV_SALVO_DECLARED,
)


@allocating
def artillery_phase(rng, s, b, p, pol, side, log):
    """Rule 9: each gun of the active side fires at one enemy combat unit "the active
    player defines": Catalan guns at adjacent zones (4-6), Bourbon guns also two zones
    away (5-6), across red lines too. An event may silence the guns or let each fire
    twice."""
    max_range = 2 if side == L.BOURBONS else 1
    for g in range(b.gun.shape[0]):
        if b.gun[g, L.G_SIDE] != side or s[L.S_GUN_ZONE + g] < 0:
            continue
        for _ in range(s[L.S_EV_ARTILLERY]):
            t = POL.choose_gun_target(s, b, p, pol[side], side, g, max_range, rng)
            if t < 0:
                break
            r = b.pair[L.PAIR_RANGE, s[L.S_GUN_ZONE + g], t]
            log_event(log, EV_GUN_TARGET, s[L.S_GUN_ZONE + g], t, r)
            count_action(s, side, L.A_SHOTS)
            u = POL.choose_gun_victim(s, b, pol[side], side, t, rng)
            if artillery_fire(rng, 1, r, 1, log):
                eliminate_unit(s, b, u, CAUSE_ARTILLERY, log)


@allocating
def lose_units(s, b, w, side, z, n, cause, rng, log):
    """``side`` loses ``n`` combat units in ``z``, chosen by its player (11.2)."""
    for _ in range(n):
        u = POL.choose_casualty(s, b, w, side, z, rng)
        if u < 0:
            return
        eliminate_unit(s, b, u, cause, log)


@allocating
def salvo(rng, s, b, p, pol, side, a, t, log):
    """Rule 11.2: one die per combat unit in ``a`` (plus an event's dice); each 6
    eliminates a defender of the defender's choice."""
    foe = 1 - side
    dice = count(s, side, a) + s[L.S_EV_SALVO]
    if dice < 0:
        dice = 0
    log_event(log, EV_SALVO_DECLARED, a, t, dice)
    count_action(s, side, L.A_SALVOS)
    kills = salvo_fire(rng, dice, count(s, foe, t), log)
    lose_units(s, b, pol[foe], foe, t, kills, CAUSE_SALVO, rng, log)


@allocating
def assault(rng, s, b, p, pol, side, a, t, use_commander, log):
    """Rule 11.3 (and 12, 13), the players' choices: lead units (attacker first), the
    attacker's commander, the defender's commander, then the defender's withdrawal once
    the modifiers are known (``declare_assault``); ``fight_assault`` resolves it."""
    declare_assault(rng, s, b, p, pol, side, a, t, use_commander)
    fight_declared(rng, s, b, p, pol, side, a, t, log)


@allocating
def declare_assault(rng, s, b, p, pol, side, a, t, use_commander):
    """Rule 11.3 up to the dice: the lead units (attacker first), the attacker's
    commander, the defender's commander, then the defender's answer once the modifiers
    are known, all written in the state (``S_ASSAULT``); whether the defender could
    withdraw (a zone to retreat to), i.e. had a choice."""
    foe = 1 - side
    att_lead = POL.choose_lead(s, b, pol[side], side, a, rng)
    def_lead = POL.choose_lead(s, b, pol[foe], foe, t, rng)
    att_cmdr = leader_near(s, b, side, t, 0, False) if use_commander else -1
    flag = santa_eulalia_flag(s, b, p, side, a, t)
    attack, defence = assault_totals(s, b, p, side, a, t, att_lead, def_lead, att_cmdr, -1,
                                     flag)
    def_cmdr = leader_near(s, b, foe, t, 0, True)
    if def_cmdr >= 0 and not POL.defender_commander(s, b, p, pol[foe], foe,
                                                    defence + 1 - attack, rng):
        def_cmdr = -1
    attack, defence = assault_totals(s, b, p, side, a, t, att_lead, def_lead, att_cmdr,
                                     def_cmdr, flag)
    can_retreat = POL.retreat_destination(s, b, p, pol[foe], foe, t, rng) >= 0
    work = np.empty(2 * b.neighbours.shape[1] + POL.PLAN_EXTRA, np.int64)
    values = np.empty(5, np.float64)
    withdrew = POL.withdraws(s, b, p, pol[foe], foe, t, defence - attack, can_retreat, rng,
                             work, values)
    s[L.S_ASSAULT + L.AS_ATT_LEAD] = att_lead
    s[L.S_ASSAULT + L.AS_DEF_LEAD] = def_lead
    s[L.S_ASSAULT + L.AS_ATT_CMDR] = att_cmdr
    s[L.S_ASSAULT + L.AS_DEF_CMDR] = def_cmdr
    s[L.S_ASSAULT + L.AS_FLAG] = flag
    s[L.S_ASSAULT + L.AS_WITHDREW] = withdrew
    return can_retreat


@borrowing
def fight_declared(rng, s, b, p, pol, side, a, t, log):
    """``fight_assault`` with the choices ``declare_assault`` wrote in the state."""
    k = L.S_ASSAULT
    fight_assault(rng, s, b, p, pol, side, a, t, s[k + L.AS_ATT_LEAD], s[k + L.AS_DEF_LEAD],
                  s[k + L.AS_ATT_CMDR], s[k + L.AS_DEF_CMDR], s[k + L.AS_FLAG],
                  s[k + L.AS_WITHDREW] == 1, log)


@allocating
def assault_totals(s, b, p, side, a, t, att_lead, def_lead, att_cmdr, def_cmdr, flag):
    """Rule 11.3 and 13: both assault values before the dice and any withdrawal (the
    flag, ``santa_eulalia_flag``, counts for the Catalans attacking or defending)."""
    foe = 1 - side
    catalan_attack = side == L.CATALANS and flag >= 0
    attack = attack_value(b.unit[att_lead, L.U_STRENGTH], count(s, side, a), att_cmdr >= 0,
                          catalan_attack) + s[L.S_EV_ASSAULT]
    defence = defence_value(b.unit[def_lead, L.U_STRENGTH], terrain_bonus(s, b, p, t, a),
                            count(s, foe, t), def_cmdr >= 0, foe == L.CATALANS and flag >= 0)
    return attack, defence


@allocating
def fight_assault(rng, s, b, p, pol, side, a, t, att_lead, def_lead, att_cmdr, def_cmdr,
                  flag, withdrew, log):
    """Rule 11.3: add the withdrawal bonus, roll a die each (ties to the defender), then
    losses, retreat, advance and the commanders' casualty rolls (the flag never rolls)."""
    foe = 1 - side
    count_action(s, side, L.A_ASSAULTS)
    other_zone = b.zone[t, L.Z_OBJECTIVE] < 0
    count_action(s, side, L.A_OTHER_ASSAULTS if other_zone else L.A_OBJECTIVE_ASSAULTS)
    foes_lost = s[L.S_UNITS_LOST + foe]
    attack, defence = assault_totals(s, b, p, side, a, t, att_lead, def_lead, att_cmdr,
                                     def_cmdr, flag)
    if withdrew:
        defence += p[L.P_WITHDRAWAL_BONUS]
        count_action(s, foe, L.A_WITHDRAWALS)
        if not other_zone and POL.last_half_turn(s, p, foe):
            count_blunder(s, foe, L.B_GIVEN_UP)
    if att_cmdr >= 0:
        count_action(s, side, L.A_COMMANDERS)
    if def_cmdr >= 0:
        count_action(s, foe, L.A_COMMANDERS)
    log_event(log, EV_ASSAULT_DECLARED, a, t, terrain_bonus(s, b, p, t, a))
    log_event(log, EV_LEADS, att_lead, def_lead,
              (att_cmdr >= 0) + 2 * (def_cmdr >= 0) + 4 * (flag >= 0))
    log_event(log, EV_ASSAULT_VALUES, attack, defence, withdrew)
    _, _, attacker_wins = resolve_assault(rng, attack, defence, log)
    if attacker_wins:
        if not withdrew:
            eliminate_unit(s, b, def_lead, CAUSE_ASSAULT, log)
    else:
        eliminate_unit(s, b, att_lead, CAUSE_ASSAULT, log)
    if attacker_wins or withdrew:
        retreat_zone(s, b, p, pol[foe], foe, t, withdrew, rng, log)
        advance(s, b, p, pol[side], side, a, t, att_lead, rng, log)
    casualty_roll(rng, s, b, side, att_cmdr, log)
    casualty_roll(rng, s, b, foe, def_cmdr, log)
    if other_zone:
        count_other_zone_assault(s, side, attacker_wins or withdrew, withdrew,
                                 not attacker_wins, s[L.S_UNITS_LOST + foe] - foes_lost)


@allocating
def count_other_zone_assault(s, side, taken, withdrew, lead_lost, kills):
    """The usage and blunder columns of an assault on a zone that is no objective: it
    scores nothing (13), so one that cost the lead and killed nobody gained nothing."""
    count_action(s, side, L.A_OTHER_TAKEN, 1 if taken else 0)
    count_action(s, side, L.A_OTHER_WITHDRAWN, 1 if withdrew else 0)
    count_action(s, side, L.A_OTHER_LEADS_LOST, 1 if lead_lost else 0)
    count_action(s, side, L.A_OTHER_KILLS, kills)
    if lead_lost and kills == 0:
        count_blunder(s, side, L.B_FOR_NOTHING)


@allocating
def casualty_roll(rng, s, b, side, commander, log):
    """Rule 11.3: "players roll a die for each commander involved in the combat"; a 6
    eliminates him. A commander already captured in the combat (surrounded when enemy
    units retreated or advanced into his zone) is gone and does not roll."""
    if commander >= 0 and s[L.S_LEADER_ZONE + commander] >= 0 and \
            commander_casualty(rng, side, log):
        eliminate_leader(s, b, commander, log)


@allocating
def retreat_zone(s, b, p, w, side, z, withdrew, rng, log):
    """Rule 11.3/12/13: every unit of ``side`` leaves ``z`` for adjacent zones without
    enemy units, as its player wishes; into a full zone it is eliminated, and with no
    zone to go to it is captured. Leaders go with their troops (captured if surrounded);
    a barricade cannot retreat and is eliminated. A unit retreating into a zone with an
    enemy gun, barricade or leader but no enemy combat units enters it like any other
    (``enemy_enters``): "if enemy combat units enter their zone for any reason the
    artillery unit is captured" (9). After a withdrawal (``withdrew``) the units lost to
    overstacking count as the side's blunders, and a unit left alone is counted too."""
    last = -1
    went = np.full(b.neighbours.shape[1], -1, np.int64)
    for u in range(b.unit.shape[0]):
        if s[L.S_UNIT_ZONE + u] != z or b.unit[u, L.U_SIDE] != side:
            continue
        y = POL.retreat_destination(s, b, p, w, side, z, rng)
        if y < 0:
            eliminate_unit(s, b, u, CAUSE_SURROUNDED, log)
            s[L.S_CAPTURED + side] += 1
            continue
        count_action(s, side, L.A_RETREATS)
        lift_unit(s, b, u)
        place_unit(s, b, u, y)
        log_event(log, EV_RETREAT, u, z, y)
        if count(s, side, y) > zone_limit(p, b, y):
            eliminate_unit(s, b, u, CAUSE_OVERSTACK, log)
            s[L.S_OVERSTACK + side] += 1
            if withdrew:
                count_blunder(s, side, L.B_OVERSTACKED_WITHDRAWAL)
        else:
            last = y
            enemy_enters(s, b, side, y, log)
            _note(went, y)
    if withdrew:
        for i in range(went.shape[0]):
            if went[i] >= 0 and count(s, side, went[i]) == 1:
                count_action(s, side, L.A_LONE_WITHDRAWALS)
                break
    for k in range(b.leader.shape[0]):
        if s[L.S_LEADER_ZONE + k] == z and b.leader[k, L.L_SIDE] == side:
            retreat_leader(s, b, side, k, z, last, log)
    if side == L.CATALANS:
        k = barricade_in(s, z)
        if k >= 0:
            remove_barricade(s, k, log)


@allocating
def retreat_leader(s, b, side, k, z, troops, log):
    """Rule 11.3/13: a leader in the zone retreats with his troops (to ``troops``, where
    the last of them went), or on his own when none is left (all fell or were lost to
    overstacking); "If the leader is surrounded he is captured", and the flag's "only
    way of being eliminated is during a retreat, if it is surrounded by enemies"."""
    y = troops if troops >= 0 else leader_refuge(s, b, side, z)
    if y >= 0:
        s[L.S_LEADER_ZONE + k] = y
    else:
        eliminate_leader(s, b, k, log)


@allocating
def advance(s, b, p, w, side, a, t, lead, rng, log):
    """Rule 11.3: the attacker must occupy the emptied zone with its lead unit (another
    unit if the lead fell) and may bring more units that began the assault in ``a``.
    Rule 11 ("each friendly zone can declare only one action"), under the reading
    ``advanced_units_attack = no``: the units made their attack, so the taken zone has
    acted."""
    if count(s, 1 - side, t) > 0 or count(s, side, a) == 0:
        return
    first = lead if s[L.S_UNIT_ZONE + lead] == a else POL.choose_lead(s, b, w, side, a, rng)
    movers = np.empty(b.unit.shape[0], np.int64)
    movers[0] = first
    n = 1
    room = zone_limit(p, b, t) - 1
    extra = POL.advance_extra(s, b, p, w, side, a, t, min(room, count(s, side, a) - 1), rng)
    for _ in range(b.unit.shape[0]):  # the strongest follow first
        if n > extra:
            break
        best, best_str = -1, -1
        for v in range(b.unit.shape[0]):
            if s[L.S_UNIT_ZONE + v] == a and b.unit[v, L.U_SIDE] == side and \
                    b.unit[v, L.U_STRENGTH] > best_str and not _listed(movers, n, v):
                best, best_str = v, b.unit[v, L.U_STRENGTH]
        if best < 0:
            break
        movers[n] = best
        n += 1
    for i in range(n):
        lift_unit(s, b, movers[i])
        place_unit(s, b, movers[i], t)
        log_event(log, EV_ADVANCE, movers[i], a, t)
    count_action(s, side, L.A_ADVANCES)
    if not p[L.P_ADVANCED_ATTACK]:
        s[L.S_ACTED + t] = 1
    enemy_enters(s, b, side, t, log)


@allocating
def _note(zones, z):
    """Add ``z`` to the distinct zones listed in ``zones`` (-1: free slots)."""
    for i in range(zones.shape[0]):
        if zones[i] == z:
            return
        if zones[i] < 0:
            zones[i] = z
            return


@allocating
def _listed(items, n, v):
    for i in range(n):
        if items[i] == v:
            return True
    return False


@borrowing
def combat_phase(rng, s, b, p, pol, side, log):
    """Rule 11: the active side declares combats one zone at a time, each zone at most
    once (a salvo or an assault), until its player declares no more; a zone that has
    acted (or was taken by units that had, ``advance``) declares nothing more. The steps
    ``engine.play_from`` plays, one after the other."""
    s[L.S_SIDE] = side
    begin_combat_phase(s, b)
    while s[L.S_AT] != L.AT_HALF_TURN_OVER and not failed(log):
        if s[L.S_AT] == L.AT_COMBAT:
            next_combat(rng, s, b, p, pol)
        elif s[L.S_AT] == L.AT_COMBAT_CHOSEN:
            carry_out_combat(rng, s, b, p, pol, log)
        else:
            fight_answered(rng, s, b, p, pol, log)


@borrowing
def begin_combat_phase(s, b):
    """Rule 11: no zone has acted yet this phase."""
    for z in range(b.zone.shape[0]):
        s[L.S_ACTED + z] = 0
    s[L.S_COMBATS] = 0
    s[L.S_AT] = L.AT_COMBAT


@borrowing
def next_combat(rng, s, b, p, pol):
    """The active side's player chooses its next combat (``S_COMBAT``: a salvo, an
    assault or none), not yet carried out; a zone may act once, so a phase asks at most
    once a zone and once more. Returns ``D_ASSAULT`` where the choice is which assault,
    if any (the player chose an assault or to declare no more), else ``D_NONE``."""
    if s[L.S_COMBATS] > b.zone.shape[0]:
        s[L.S_AT] = L.AT_HALF_TURN_OVER
        return L.D_NONE
    s[L.S_COMBATS] += 1
    side = s[L.S_SIDE]
    POL.next_combat(s, b, p, pol[side], side, rng, s[L.S_COMBAT:L.S_COMBAT + 4])
    s[L.S_AT] = L.AT_COMBAT_CHOSEN
    kind = s[L.S_COMBAT]
    return L.D_ASSAULT if kind == POL.K_ASSAULT or kind == POL.K_NONE else L.D_NONE


@borrowing
def carry_out_combat(rng, s, b, p, pol, log):
    """The chosen combat (``S_COMBAT``): a salvo fired, an assault declared up to the
    defender's answer (``declare_assault``), or the phase over. Returns
    ``D_WITHDRAWAL`` where the defender could withdraw (its answer is the choice), else
    ``D_NONE``."""
    kind, a, t = s[L.S_COMBAT], s[L.S_COMBAT + 1], s[L.S_COMBAT + 2]
    if kind == POL.K_NONE:
        s[L.S_AT] = L.AT_HALF_TURN_OVER
        return L.D_NONE
    s[L.S_AT] = L.AT_COMBAT
    acted = s[L.S_ACTED + a]
    s[L.S_ACTED + a] = 1
    if acted:
        return L.D_NONE
    side = s[L.S_SIDE]
    if kind == POL.K_SALVO and salvo_allowed(s, b, p, side, a, t):
        salvo(rng, s, b, p, pol, side, a, t, log)
        if checking(log):
            check_state(s, b, p, log, L.STEP_SALVO, s[L.S_TURN])
    elif kind == POL.K_ASSAULT and assault_allowed(s, b, side, a, t):
        s[L.S_AT] = L.AT_ASSAULT_ANSWERED
        if declare_assault(rng, s, b, p, pol, side, a, t, s[L.S_COMBAT + 3] == 1):
            return L.D_WITHDRAWAL
    return L.D_NONE


@borrowing
def fight_answered(rng, s, b, p, pol, log):
    """The declared and answered assault fought (``fight_declared``)."""
    side = s[L.S_SIDE]
    fight_declared(rng, s, b, p, pol, side, s[L.S_COMBAT + 1], s[L.S_COMBAT + 2], log)
    if checking(log):
        check_state(s, b, p, log, L.STEP_ASSAULT, s[L.S_TURN])
    s[L.S_AT] = L.AT_COMBAT
