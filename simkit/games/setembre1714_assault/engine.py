"""The assault scenario of 11 de Setembre as njit kernels: one defended zone attacked
through the Royal Breach (rulebook "7. The mine under the Royal Breach", "9. Artillery
fire", "11.2. Salvo fire", "11.3. Assault").

``play_assault`` waits for the Royal Breach (``turn_breach_assured``, on rule 7's check),
fires the guns and the salvo (``preparatory_fire``), then assaults the zone
(``assault_zone``). Every rule it applies is a function of ``combat_system``, the module
the whole game resolves its combats with too.

The guns aim at the strongest defender (9: the firer chooses), the lead; the salvo's
casualties are the defender's choice (11.2), and the scenario's defender keeps its lead
unit to the last, as in the Example of combat (a militia unit is lost, the mountain
fusiliers lead).
"""

import numpy as np
from numba import njit

from simkit.checks import at_game, checking, failed
from simkit.eventlog import log_event
from simkit.rng import game_streams
from simkit.unmanaged import unmanaged

from . import layout as L
from .checks import check_state
from .combat_system import (
    EV_ASSAULT_VALUES,
    artillery_fire,
    attack_value,
    commander_casualty,
    defence_value,
    resolve_assault,
    royal_breach_check,
    salvo_fire,
    salvo_permitted,
)
from .events import EV_BREACH_NEVER, EV_ZONE_CLEARED
from .policies import bourbons_use_commander, catalans_withdraw


@njit(cache=True, nogil=True)
def turn_breach_assured(rng, p, pol, out, log):
    """Rule 7, a check at each Bourbon turn's start until the Royal Breach is assured:
    the turn it was (also the row's ``turns`` and ``breach_turn``), or 0 if not by
    ``max_turns`` (``turns`` is then ``max_turns``)."""
    for turn in range(1, p[L.P_MAX_TURNS] + 1):
        out[L.O_TURNS] = turn
        assured = royal_breach_check(rng, p[L.P_BREACH_ROLL], turn, log)
        if assured:
            out[L.O_BREACH_TURN] = turn
        if checking(log):
            check_state(p, pol, out, p[L.P_DEFENDER_UNITS], log, L.STEP_BREACH, turn)
        if assured or failed(log):
            return out[L.O_BREACH_TURN]
    log_event(log, EV_BREACH_NEVER, p[L.P_MAX_TURNS])
    return 0


@njit(cache=True, nogil=True)
def salvo_fires(terrain, salvo_from, blue_line_covers):
    """Rule 11.2 on the scenario's zones (``combat_system.salvo_permitted``): the zone's
    defence value against the salvo zone's, and a blue line covering the salvo's side
    of an ochre zone; a barricade faces the assaulting zone only (12)."""
    defence = L.TERRAIN_DEFENCE[terrain]
    return salvo_permitted(defence, salvo_from, defence == 0,
                           terrain == L.TERRAIN_BLUE_LINE and blue_line_covers)


@njit(cache=True, nogil=True)
def preparatory_fire(rng, p, pol, out, log):
    """Artillery phase (9) then the salvo (11.2, none where the terrain forbids it:
    ``salvo_permitted``); returns the defenders left in the zone."""
    defenders = p[L.P_DEFENDER_UNITS]
    adjacent = artillery_fire(rng, p[L.P_GUNS_ADJACENT], 1, defenders, log)
    ranged = artillery_fire(rng, p[L.P_GUNS_RANGE_2], 2, defenders - adjacent, log)
    defenders -= adjacent + ranged
    out[L.O_ARTILLERY_KILLS] = adjacent + ranged
    if checking(log):
        check_state(p, pol, out, defenders, log, L.STEP_ARTILLERY, out[L.O_TURNS])
    if failed(log):
        return defenders
    units = p[L.P_SALVO_UNITS] if salvo_fires(p[L.P_TERRAIN], p[L.P_SALVO_FROM],
                                              p[L.P_BLUE_LINE_COVERS_SALVO]) else 0
    salvo = salvo_fire(rng, units, defenders, log)
    defenders -= salvo
    out[L.O_SALVO_KILLS] = salvo
    if checking(log):
        check_state(p, pol, out, defenders, log, L.STEP_SALVO, out[L.O_TURNS])
    return defenders


@njit(cache=True, nogil=True)
def defending_lead(p, artillery_kills):
    """The strength of the defenders' lead at the assault. Rule 9: "the active player
    defines what his target is", and the Bourbon guns aim at the strongest defender, so
    after a hit a unit of the others' strength leads; the salvo's losses are the
    defender's choice (11.2), never the lead."""
    if artillery_kills > 0 and p[L.P_DEFENDER_OTHERS] < p[L.P_DEFENDER_LEAD]:
        return p[L.P_DEFENDER_OTHERS]
    return p[L.P_DEFENDER_LEAD]


@njit(cache=True, nogil=True)
def assault_values(p, w, defenders, lead):
    """Assault values before the dice, without the withdrawal bonus, and whether the
    Bourbon commander is used (11.3: the attacker's choice, ``bourbons_use_commander``);
    ``lead`` is the defending lead's strength, ``w`` the Bourbons' row of ``pol``."""
    attack = attack_value(p[L.P_ATTACKER_LEAD], p[L.P_ATTACKER_UNITS], False, False)
    defence = defence_value(lead, p[L.P_TERRAIN_BONUS], defenders,
                            p[L.P_DEFENDER_COMMANDER], p[L.P_FLAG])
    commander = bourbons_use_commander(p, w, attack, defence)
    return attack + (1 if commander else 0), defence, commander


@njit(cache=True, nogil=True)
def assault_zone(rng, p, pol, defenders, out, log):
    """Declare, roll and apply one assault on the zone; fills the output row."""
    attack, defence, commander = assault_values(
        p, pol[L.SIDE_BOURBONS], defenders, defending_lead(p, out[L.O_ARTILLERY_KILLS]))
    withdrew = catalans_withdraw(pol[L.SIDE_CATALANS], attack, defence)
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
    if commander:
        out[L.O_ATTACKER_COMMANDER_LOST] = commander_casualty(rng, L.SIDE_BOURBONS, log)
    if p[L.P_DEFENDER_COMMANDER]:
        out[L.O_DEFENDER_COMMANDER_LOST] = commander_casualty(rng, L.SIDE_CATALANS, log)
    if withdrew:
        return L.END_WITHDREW
    return L.END_TAKEN if attacker_wins else L.END_REPULSED


@njit(cache=True, nogil=True)
def play_assault(rng, p, pol, out, log):
    """One assault scenario: wait for the Royal Breach, fire, then assault the zone."""
    defenders = p[L.P_DEFENDER_UNITS]
    if checking(log):
        check_state(p, pol, out, defenders, log, L.STEP_SET_UP, 0)
    breach_turn = 0 if failed(log) else turn_breach_assured(rng, p, pol, out, log)
    if failed(log):
        return
    if breach_turn == 0:
        reason = L.END_BREACH_CLOSED
    else:
        defenders = preparatory_fire(rng, p, pol, out, log)
        if failed(log):
            return
        reason = take_the_zone(rng, p, pol, defenders, out, log)
        if failed(log):
            return
        if reason != L.END_REPULSED:
            defenders = 0  # fallen, or retreated out of the zone (11.3)
    out[L.O_END_REASON] = reason
    held = reason == L.END_REPULSED or reason == L.END_BREACH_CLOSED
    out[L.O_WINNER] = L.WIN_CATALANS if held else L.WIN_BOURBONS
    if checking(log):
        check_state(p, pol, out, defenders, log, L.STEP_END, out[L.O_TURNS])


@njit(cache=True, nogil=True)
def take_the_zone(rng, p, pol, defenders, out, log):
    """Rule 11.3: occupy the zone fire emptied, else assault it; the end reason."""
    if defenders == 0:
        log_event(log, EV_ZONE_CLEARED)
        return L.END_CLEARED
    reason = assault_zone(rng, p, pol, defenders, out, log)
    if checking(log):
        left = defenders if reason == L.END_REPULSED else 0
        check_state(p, pol, out, left, log, L.STEP_ASSAULT, out[L.O_TURNS])
    return reason


@njit(cache=True, nogil=True)
def play_assault_games(p, pol, game_indices, root_seed, log):
    """Play one scenario per game index; returns the ``(n, N_OUT)`` outcome table.
    ``pol``: each side's row (``rules.POLICY_ROWS``), its policy's id and weights."""
    out = np.zeros((game_indices.shape[0], L.N_OUT), dtype=np.int32)
    rows = unmanaged(pol)  # the caller owns it: a side's row is then a view without counting
    for row in range(game_indices.shape[0]):
        at_game(log, row)
        rng = game_streams(root_seed, game_indices[row], L.N_STREAMS)
        play_assault(rng, p, rows, out[row], log)
        if failed(log):
            break
    return out
