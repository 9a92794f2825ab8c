"""State checks of the assault scenario: the invariants of ``layout.INVARIANTS``, asserted
after every rule step when a run asks for them (``simkit.checks``).

The scenario's state is its outcome row (filled step by step) and the number of Catalan
combat units in the defended zone. Where each invariant comes from in the rulebook:

- turn and breach on their tracks: "7. The mine under the Royal Breach" (a die at the
  beginning of each Bourbon turn until a 6 assures the breach; no check after that);
- defenders conserved: "9. Artillery fire", "11.2. Salvo fire" and "11.3. Assault"
  (each hit eliminates one unit; the defender's lead is eliminated when the assault
  succeeds, the rest retreat): the units set up are in the zone, eliminated or retreated;
- stacking limit: "6.1. Stacking limit" (5 combat units a zone);
- one shot per gun: "9" ("Every artillery unit can bombard only one opponent combat unit
  in each turn");
- one die per firing unit: "11.2" ("A die is rolled for every combat unit inside the
  attacking zone; on each result of 6 a defending unit is eliminated");
- assault values: "11.3" (the lead's strength, +1 for each additional unit, the terrain,
  +1 for a commander, +2 for a withdrawal) and "13. The Santa Eulalia's flag" (+1 on top
  of a commander);
- assault result: "11.3" (one die each; the attacker wins only if higher; the loser's
  lead is eliminated, no defender lost on a withdrawal);
- zone control follows the occupants: "11.3" (the attacker occupies an emptied zone);
- commander casualties: "11.3" ("players roll a die for each commander involved").

``check_state`` tests them in that order and reports the first that fails with
``simkit.checks.broken`` (the detail names the field or count concerned); the kernel
calls it only when ``simkit.checks.checking(log)``.
"""

from numba import njit

from simkit.checks import broken

from . import layout as L
from .combat_system import attack_value, defence_value, salvo_permitted
from .policies import bourbons_use_commander


@njit(cache=True, nogil=True)
def tracks_in_range(p, out, step, turn):
    """-1 when the turn is ``turn`` (0 at set-up, then 1 to ``max_turns``) and the breach
    is 0 or the current turn (assured once fire begins, never assured only after the
    last turn's check); else 0 (turn), 1 (breach)."""
    turns, breach = out[L.O_TURNS], out[L.O_BREACH_TURN]
    first = 0 if step == L.STEP_SET_UP else 1
    if turns != turn or not first <= turn <= p[L.P_MAX_TURNS]:
        return 0
    if breach != 0 and breach != turns:
        return 1
    if L.STEP_ARTILLERY <= step <= L.STEP_ASSAULT and breach == 0:
        return 1  # no fire before the breach is assured
    if step == L.STEP_END and breach == 0 and turns != p[L.P_MAX_TURNS]:
        return 1  # called off only after every turn's check failed
    return -1


@njit(cache=True, nogil=True)
def zone_taken(out):
    """Rule 11.3: an assault was fought and the defenders left the zone (they lost it or
    withdrew)."""
    return out[L.O_ATTACK_ROLL] > 0 and (out[L.O_WITHDREW] or not out[L.O_ATTACKER_LEAD_LOST])


@njit(cache=True, nogil=True)
def defenders_accounted(p, out, defenders):
    """-1 when the defenders in the zone, those eliminated by fire or in the assault and
    those who retreated are the units set up; else the number unaccounted for (or
    ``MAX``: a negative count)."""
    if defenders < 0:
        return 1 << 20
    gone = out[L.O_ARTILLERY_KILLS] + out[L.O_SALVO_KILLS] + out[L.O_DEFENDER_LEAD_LOST]
    if zone_taken(out):
        gone += out[L.O_DEFENDERS_ASSAULTED] - out[L.O_DEFENDER_LEAD_LOST]  # retreated
    missing = p[L.P_DEFENDER_UNITS] - defenders - gone
    return -1 if missing == 0 else abs(missing)


@njit(cache=True, nogil=True)
def shots_allowed(p, out):
    """-1 when the artillery eliminated no more units than there are guns (one shot each)
    and defenders; else the kills."""
    kills = out[L.O_ARTILLERY_KILLS]
    guns = p[L.P_GUNS_ADJACENT] + p[L.P_GUNS_RANGE_2]
    return -1 if 0 <= kills <= min(guns, p[L.P_DEFENDER_UNITS]) else kills


@njit(cache=True, nogil=True)
def salvo_allowed(p, out):
    """-1 when the salvo eliminated no more defenders than there were dice, and none
    where 11.2 forbids the salvo; else the kills."""
    kills = out[L.O_SALVO_KILLS]
    defence = L.TERRAIN_DEFENCE[p[L.P_TERRAIN]]
    covered = p[L.P_TERRAIN] == L.TERRAIN_BLUE_LINE and p[L.P_BLUE_LINE_COVERS_SALVO]
    dice = p[L.P_SALVO_UNITS] if salvo_permitted(defence, p[L.P_SALVO_FROM], defence == 0,
                                                 covered) else 0
    return -1 if 0 <= kills <= dice else kills


@njit(cache=True, nogil=True)
def values_as_counted(p, pol, out):
    """-1 when no assault was fought and its columns are empty, or when the values are
    rule 11.3's for the defenders who met it; else 0 (attack), 1 (defence) or 2 (the
    defenders counted at the assault)."""
    if out[L.O_ATTACK_ROLL] == 0:
        empty = out[L.O_ATTACK_VALUE] == 0 and out[L.O_DEFENCE_VALUE] == 0 and \
            out[L.O_DEFENDERS_ASSAULTED] == 0 and out[L.O_WITHDREW] == 0
        return -1 if empty else 2
    met = p[L.P_DEFENDER_UNITS] - out[L.O_ARTILLERY_KILLS] - out[L.O_SALVO_KILLS]
    if out[L.O_DEFENDERS_ASSAULTED] != met:
        return 2
    attack = attack_value(p[L.P_ATTACKER_LEAD], p[L.P_ATTACKER_UNITS], False, False)
    lead = p[L.P_DEFENDER_LEAD]
    if out[L.O_ARTILLERY_KILLS] > 0:  # 9: the guns aimed at the lead
        lead = min(lead, p[L.P_DEFENDER_OTHERS])
    defence = defence_value(lead, p[L.P_TERRAIN_BONUS], met,
                            p[L.P_DEFENDER_COMMANDER], p[L.P_FLAG])
    if bourbons_use_commander(p, pol[L.SIDE_BOURBONS], attack, defence):  # 11.3: his choice
        attack += 1
    if out[L.O_ATTACK_VALUE] != attack:
        return 0
    if out[L.O_WITHDREW]:
        defence += p[L.P_WITHDRAWAL_BONUS]
    return -1 if out[L.O_DEFENCE_VALUE] == defence else 1


@njit(cache=True, nogil=True)
def result_as_rolled(out):
    """-1 when the dice are d6 (both 0 without an assault) and the leads lost are rule
    11.3's for them; else 0 (a die), 1 (the attacker's lead) or 2 (the defender's)."""
    attack_die, defence_die = out[L.O_ATTACK_ROLL], out[L.O_DEFENCE_ROLL]
    if attack_die == 0 and defence_die == 0:
        return -1 if not (out[L.O_ATTACKER_LEAD_LOST] or out[L.O_DEFENDER_LEAD_LOST]) else 1
    if not (1 <= attack_die <= 6 and 1 <= defence_die <= 6):
        return 0
    wins = out[L.O_ATTACK_VALUE] + attack_die > out[L.O_DEFENCE_VALUE] + defence_die
    if out[L.O_ATTACKER_LEAD_LOST] != (not wins):
        return 1
    return -1 if out[L.O_DEFENDER_LEAD_LOST] == (wins and not out[L.O_WITHDREW]) else 2


@njit(cache=True, nogil=True)
def holder_follows_occupants(out, defenders):
    """-1 when the zone's holder (winner) and the end reason agree with who stands in it
    at the end: the Catalans while defenders remain (repulsed, or the breach never
    assured), the Bourbons once it is emptied (taken or withdrawn after an assault,
    cleared by fire without one); else the defenders left."""
    reason, fought = out[L.O_END_REASON], out[L.O_ATTACK_ROLL] > 0
    if defenders > 0:
        held = (reason == L.END_REPULSED and fought) or \
            (reason == L.END_BREACH_CLOSED and not fought)
        return -1 if held and out[L.O_WINNER] == L.WIN_CATALANS else defenders
    taken = ((reason == L.END_TAKEN or reason == L.END_WITHDREW) and fought) or \
        (reason == L.END_CLEARED and not fought)
    return -1 if taken and out[L.O_WINNER] == L.WIN_BOURBONS else 0


@njit(cache=True, nogil=True)
def casualties_allowed(p, out):
    """-1 when only commanders who took part in an assault were lost; else the side. The
    Bourbon commander took part when the attack value counts him (``values_as_counted``
    checks that value first)."""
    fought = out[L.O_ATTACK_ROLL] > 0
    used = out[L.O_ATTACK_VALUE] > p[L.P_ATTACKER_LEAD] + p[L.P_ATTACKER_UNITS] - 1
    if out[L.O_ATTACKER_COMMANDER_LOST] and not (fought and used):
        return L.SIDE_BOURBONS
    if out[L.O_DEFENDER_COMMANDER_LOST] and not (fought and p[L.P_DEFENDER_COMMANDER]):
        return L.SIDE_CATALANS
    return -1


@njit(cache=True, nogil=True)
def check_state(p, pol, out, defenders, log, step, turn):
    """Every invariant in order (the holder only at the end of the scenario); the first
    that fails is recorded (``simkit.checks.broken``) and the rest are not tested."""
    detail = tracks_in_range(p, out, step, turn)
    if detail >= 0:
        broken(log, L.INV_TRACKS, detail, step, turn)
        return
    detail = defenders_accounted(p, out, defenders)
    if detail >= 0:
        broken(log, L.INV_DEFENDERS, detail, step, turn)
        return
    if defenders > L.STACKING_LIMIT:
        broken(log, L.INV_STACKING, defenders, step, turn)
        return
    detail = shots_allowed(p, out)
    if detail >= 0:
        broken(log, L.INV_GUNS, detail, step, turn)
        return
    detail = salvo_allowed(p, out)
    if detail >= 0:
        broken(log, L.INV_SALVO, detail, step, turn)
        return
    detail = values_as_counted(p, pol, out)
    if detail >= 0:
        broken(log, L.INV_VALUES, detail, step, turn)
        return
    detail = result_as_rolled(out)
    if detail >= 0:
        broken(log, L.INV_RESULT, detail, step, turn)
        return
    detail = holder_follows_occupants(out, defenders) if step == L.STEP_END else -1
    if detail >= 0:
        broken(log, L.INV_CONTROL, detail, step, turn)
        return
    detail = casualties_allowed(p, out)
    if detail >= 0:
        broken(log, L.INV_COMMANDERS, detail, step, turn)
