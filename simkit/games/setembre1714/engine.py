"""The combat system of 11 de Setembre as njit kernels (rulebook sections 7, 9, 11).

One function per rule: ``royal_breach_check`` (7), ``artillery_fire`` (9), ``salvo_fire``
(11.2), ``resolve_assault`` and ``commander_casualty`` (11.3). ``play_assault`` chains them
into the assault scenario; the whole game (``full_engine``, ``combat``) calls the same
rules, and the assault values of both come from ``attack_value`` and ``defence_value``.

Casualties from fire are the defender's choice; the scenario's defender keeps its lead
unit to the last, as in the Example of combat (a militia unit is lost, the mountain
fusiliers lead).
"""

import numpy as np
from numba import njit

from simkit.eventlog import log_event
from simkit.rng import game_streams, restart, roll_d6

from . import layout as L
from .events import (
    EV_ARTILLERY,
    EV_ASSAULT_ROLL,
    EV_ASSAULT_VALUES,
    EV_BREACH_CHECK,
    EV_BREACH_NEVER,
    EV_COMMANDER_ROLL,
    EV_SALVO,
    EV_ZONE_CLEARED,
)
from .policies import catalans_withdraw

ARTILLERY_HIT_ADJACENT = 4  # rulebook 9: adjacent zone, hit on 4-6
ARTILLERY_HIT_RANGE_2 = 5  # Bourbon guns two zones away, hit on 5-6
SALVO_HIT = 6  # rulebook 11.2: each 6 eliminates one defending unit
COMMANDER_DIES = 6  # rulebook 11.3: a 6 eliminates the commander


@njit(cache=True, nogil=True)
def royal_breach_check(rng, breach_roll, turn, log):
    """Rule 7: at a Bourbon turn's start, a die of ``breach_roll`` or more assures it.
    Each turn's die has its own sub-stream, so the check of turn t is the same die
    whatever was rolled before."""
    restart(rng, L.ST_BREACH, turn)
    die = roll_d6(rng, L.ST_BREACH)
    assured = die >= breach_roll
    log_event(log, EV_BREACH_CHECK, turn, die, assured)
    return assured


@njit(cache=True, nogil=True)
def turn_breach_assured(rng, max_turns, breach_roll, log):
    """The first Bourbon turn the Royal Breach is assured, or 0 if not by ``max_turns``."""
    for turn in range(1, max_turns + 1):
        if royal_breach_check(rng, breach_roll, turn, log):
            return turn
    log_event(log, EV_BREACH_NEVER, max_turns)
    return 0


@njit(cache=True, nogil=True)
def artillery_fire(rng, guns, zone_range, targets, log):
    """Rule 9: each gun fires once at one combat unit; returns units eliminated."""
    hit_on = ARTILLERY_HIT_ADJACENT if zone_range == 1 else ARTILLERY_HIT_RANGE_2
    kills = 0
    for _ in range(guns):
        if kills == targets:
            break  # no combat unit left to aim at
        die = roll_d6(rng, L.ST_ARTILLERY)
        hit = die >= hit_on
        log_event(log, EV_ARTILLERY, zone_range, die, hit)
        if hit:
            kills += 1
    return kills


@njit(cache=True, nogil=True)
def salvo_fire(rng, units, targets, log):
    """Rule 11.2: one die per firing unit, each 6 eliminates a defender (at most all)."""
    if units == 0 or targets == 0:
        return 0
    sixes = 0
    for _ in range(units):
        if roll_d6(rng, L.ST_SALVO) >= SALVO_HIT:
            sixes += 1
    kills = min(sixes, targets)
    log_event(log, EV_SALVO, units, sixes, kills)
    return kills


@njit(cache=True, nogil=True)
def resolve_assault(rng, attack_value, defence_value, log):
    """Rule 11.3: each side adds 1d6; the attacker wins only if strictly higher."""
    attack_die = roll_d6(rng, L.ST_ASSAULT)
    defence_die = roll_d6(rng, L.ST_ASSAULT)
    attacker_wins = attack_value + attack_die > defence_value + defence_die
    log_event(log, EV_ASSAULT_ROLL, attack_die, defence_die, attacker_wins)
    return attack_die, defence_die, attacker_wins


@njit(cache=True, nogil=True)
def commander_casualty(rng, side, log):
    """Rule 11.3: a commander involved in an assault dies on a 6."""
    die = roll_d6(rng, L.ST_COMMANDER)
    dies = die >= COMMANDER_DIES
    log_event(log, EV_COMMANDER_ROLL, side, die, dies)
    return dies


@njit(cache=True, nogil=True)
def preparatory_fire(rng, p, out, log):
    """Artillery phase then the salvo; returns the defenders left in the zone."""
    defenders = p[L.P_DEFENDER_UNITS]
    adjacent = artillery_fire(rng, p[L.P_GUNS_ADJACENT], 1, defenders, log)
    ranged = artillery_fire(rng, p[L.P_GUNS_RANGE_2], 2, defenders - adjacent, log)
    defenders -= adjacent + ranged
    salvo = salvo_fire(rng, p[L.P_SALVO_UNITS], defenders, log)
    out[L.O_ARTILLERY_KILLS] = adjacent + ranged
    out[L.O_SALVO_KILLS] = salvo
    return defenders - salvo


@njit(cache=True, nogil=True)
def attack_value(lead_strength, units, commander):
    """Rule 11.3, attacker: the lead's strength, +1 per additional unit in the attacking
    zone, +1 for a friendly commander adjacent to the attacked zone."""
    return lead_strength + units - 1 + (1 if commander else 0)


@njit(cache=True, nogil=True)
def defence_value(lead_strength, terrain_bonus, units, commander, flag):
    """Rule 11.3/13, defender (before any withdrawal): the lead's strength, the terrain
    bonus (zone, blue line or barricade), +1 per additional unit, +1 for one commander and
    +1 more for the Santa Eulalia flag."""
    leaders = (1 if commander else 0) + (1 if flag else 0)
    return lead_strength + terrain_bonus + units - 1 + leaders


@njit(cache=True, nogil=True)
def assault_values(p, defenders):
    """Assault values before the dice, without the withdrawal bonus."""
    attack = attack_value(p[L.P_ATTACKER_LEAD], p[L.P_ATTACKER_UNITS],
                          p[L.P_ATTACKER_COMMANDER])
    defence = defence_value(p[L.P_DEFENDER_LEAD], p[L.P_TERRAIN_BONUS], defenders,
                            p[L.P_DEFENDER_COMMANDER], p[L.P_FLAG])
    return attack, defence


@njit(cache=True, nogil=True)
def assault_zone(rng, p, policy, defenders, out, log):
    """Declare, roll and apply one assault on the zone; fills the output row."""
    attack, defence = assault_values(p, defenders)
    withdrew = catalans_withdraw(policy[L.SIDE_CATALANS], attack, defence)
    if withdrew:
        defence += p[L.P_WITHDRAWAL_BONUS]
    log_event(log, EV_ASSAULT_VALUES, attack, defence, withdrew)
    attack_die, defence_die, attacker_wins = resolve_assault(rng, attack, defence, log)
    out[L.O_DEFENDERS_ASSAULTED] = defenders
    out[L.O_ATTACK_VALUE] = attack
    out[L.O_DEFENCE_VALUE] = defence
    out[L.O_ATTACK_ROLL] = attack_die
    out[L.O_DEFENCE_ROLL] = defence_die
    out[L.O_WITHDREW] = withdrew
    out[L.O_ATTACKER_LEAD_LOST] = not attacker_wins
    out[L.O_DEFENDER_LEAD_LOST] = attacker_wins and not withdrew
    if p[L.P_ATTACKER_COMMANDER]:
        out[L.O_ATTACKER_COMMANDER_LOST] = commander_casualty(rng, L.SIDE_BOURBONS, log)
    if p[L.P_DEFENDER_COMMANDER]:
        out[L.O_DEFENDER_COMMANDER_LOST] = commander_casualty(rng, L.SIDE_CATALANS, log)
    if withdrew:
        return L.END_WITHDREW
    return L.END_TAKEN if attacker_wins else L.END_REPULSED


@njit(cache=True, nogil=True)
def play_assault(rng, p, policy, out, log):
    """One assault scenario: wait for the Royal Breach, fire, then assault the zone."""
    breach_turn = turn_breach_assured(rng, p[L.P_MAX_TURNS], p[L.P_BREACH_ROLL], log)
    out[L.O_BREACH_TURN] = breach_turn
    if breach_turn == 0:
        out[L.O_TURNS] = p[L.P_MAX_TURNS]
        out[L.O_END_REASON] = L.END_BREACH_CLOSED
        out[L.O_WINNER] = L.WIN_CATALANS
        return
    out[L.O_TURNS] = breach_turn
    defenders = preparatory_fire(rng, p, out, log)
    if defenders == 0:
        log_event(log, EV_ZONE_CLEARED)
        reason = L.END_CLEARED
    else:
        reason = assault_zone(rng, p, policy, defenders, out, log)
    out[L.O_END_REASON] = reason
    out[L.O_WINNER] = L.WIN_CATALANS if reason == L.END_REPULSED else L.WIN_BOURBONS


@njit(cache=True, nogil=True)
def play_assault_games(p, policy, game_indices, root_seed, log):
    """Play one scenario per game index; returns the ``(n, N_OUT)`` outcome table."""
    out = np.zeros((game_indices.shape[0], L.N_OUT), dtype=np.int16)
    for row in range(game_indices.shape[0]):
        rng = game_streams(root_seed, game_indices[row], L.N_STREAMS)
        play_assault(rng, p, policy, out[row], log)
    return out
