"""State checks of the whole game: the invariants of ``layout.INVARIANTS``, asserted after
every rule step when a run asks for them (``simkit.checks``).

Where each invariant comes from in the rulebook:

- combat units conserved: "4. Game setup" (some Catalan units enter later), "10.1.
  Reinforcements" (Bourbon reinforcements are recreated eliminated units, the remainder
  lost) and "13. How to win" (1 VP for each eliminated enemy combat unit): every combat
  unit of ``data/forces.toml`` is on the map, still to come, eliminated or lost, and
  every elimination counted is in the eliminated piles or came back as a reinforcement;
- commanders conserved: "11.3. Assault" (a commander dies on a 6; commanders retreat with
  their troops, captured if surrounded): every leader is on the map, still to come or
  eliminated, the commanders eliminated are the ones counted for VP, and none stands in
  a zone held by enemy combat units;
- one side a zone and stacking limit: "6.1. Stacking limit" ("On each given zone there
  can be only units belonging to one of the sides"; 5 combat units a zone), "6.2"
  (none in the deployment zones) and "6.3" (at all times, reinforcements excepted);
- zone control follows the occupants: "6.1" and "13" (a side holds a zone with its combat
  units in it): the zone counts the rules read are the units standing in each zone;
- guns never move: "9. Artillery fire" (artillery units cannot be moved; captured when
  enemy combat units enter their zone for any reason);
- barricades where the rules allow: "12. Barricades" (ochre or green zones, facing an
  adjacent ochre or green zone across a side without a blue or red line, one a zone,
  Catalan; captured when the enemy occupies the zone);
- the flag where the rules allow: "13. The Santa Eulalia's flag" (lost only when
  surrounded in a retreat) and the ``santa_eulalia_flag`` knob;
- turn and breach on their tracks: "3.3. Time", "5. Sequence of play", "7. The mine
  under the Royal Breach" and the extra turn of "13. How to win";
- event deck: "4. Game setup" (the cards shuffled into one deck) and "8. Random events"
  (one card drawn a half-turn, then removed);
- victory points: "13. How to win", the sum the rules define, where the state holds it
  (the outcome row, at the victory check: ``check_victory_points``).

``check_state`` tests them in that order and reports the first that fails with
``simkit.checks.broken`` (the detail is the unit, leader, gun, barricade, zone or side
concerned); the kernels call it only when ``simkit.checks.checking(log)``.
"""

from simkit.checks import broken, failed
from simkit.unmanaged import borrowing

from . import layout as L
from .board import count, holds


@borrowing
def units_conserved(s, b):
    """The first combat unit out of place, or ``MAX_UNITS + side`` when a side's
    eliminations do not add up to its eliminated piles and returns; -1 if conserved."""
    n = b.zone.shape[0]
    bourbon_pile, catalan_pile, arrived = 0, 0, 0
    for u in range(b.unit.shape[0]):
        z = s[L.S_UNIT_ZONE + u]
        side = b.unit[u, L.U_SIDE]
        if z >= n or z < L.LOST:
            return u
        if z == L.NOT_ARRIVED and b.unit[u, L.U_START] != L.NOT_ARRIVED:
            return u  # only reinforcements are still to come
        if z == L.LOST and side != L.BOURBONS:
            return u  # only the Bourbons lose units beyond a recovery allowance
        if (z == L.ELIMINATED or z == L.LOST) and side == L.BOURBONS:
            bourbon_pile += 1
        elif z == L.ELIMINATED:
            catalan_pile += 1
        if z != L.NOT_ARRIVED and b.unit[u, L.U_START] == L.NOT_ARRIVED:
            arrived += 1  # a Catalan reinforcement that has entered (4, 10.1)
    # every elimination counted is in a pile, or came back as a reinforcement (10.1, 8)
    recreated = s[L.S_ACTIONS + L.BOURBONS * L.N_ACTIONS + L.A_REINFORCEMENTS]
    if s[L.S_UNITS_LOST + L.BOURBONS] != bourbon_pile + recreated:
        return L.MAX_UNITS + L.BOURBONS
    returned = s[L.S_ACTIONS + L.CATALANS * L.N_ACTIONS + L.A_REINFORCEMENTS] - arrived
    if s[L.S_UNITS_LOST + L.CATALANS] != catalan_pile + returned:
        return L.MAX_UNITS + L.CATALANS
    return -1


@borrowing
def commanders_conserved(s, b, turn):
    """The first commander out of place (or among enemy combat units), or
    ``MAX_LEADERS + side`` when a side's commanders eliminated are not those counted."""
    n = b.zone.shape[0]
    bourbons_lost, catalans_lost = 0, 0
    for k in range(b.leader.shape[0]):
        if b.leader[k, L.L_FLAG]:
            continue
        z = s[L.S_LEADER_ZONE + k]
        side = b.leader[k, L.L_SIDE]
        if z >= n or z < L.ELIMINATED:
            return k
        if z == L.NOT_ARRIVED and b.leader[k, L.L_START] != L.NOT_ARRIVED:
            return k
        if z >= 0 and (count(s, 1 - side, z) > 0 or b.leader[k, L.L_ARRIVES] > turn):
            return k
        if z == L.ELIMINATED and side == L.BOURBONS:
            bourbons_lost += 1
        elif z == L.ELIMINATED:
            catalans_lost += 1
    if s[L.S_LEADERS_LOST + L.BOURBONS] != bourbons_lost:
        return L.MAX_LEADERS + L.BOURBONS
    if s[L.S_LEADERS_LOST + L.CATALANS] != catalans_lost:
        return L.MAX_LEADERS + L.CATALANS
    return -1


@borrowing
def one_side_a_zone(s, b):
    """The first zone holding combat units of both sides, or -1."""
    for z in range(b.zone.shape[0]):
        if count(s, L.BOURBONS, z) > 0 and count(s, L.CATALANS, z) > 0:
            return z
    return -1


@borrowing
def within_stacking_limit(s, b, p):
    """The first zone outside the deployment zones with more combat units of a side than
    the stacking limit, beyond the reinforcements placed over it that could not yet move
    out (10.1), or -1."""
    for z in range(b.zone.shape[0]):
        if b.zone[z, L.Z_DEPLOYMENT]:
            continue
        for side in range(2):
            excess = count(s, side, z) - p[L.P_STACKING]
            if excess <= 0:
                continue
            for u in range(b.unit.shape[0]):
                if s[L.S_NEWCOMER + u] and s[L.S_UNIT_ZONE + u] == z and \
                        b.unit[u, L.U_SIDE] == side:
                    excess -= 1
            if excess > 0:
                return z
    return -1


@borrowing
def control_follows_occupants(s, b):
    """The first zone whose count of a side's combat units is not the units standing in
    it (zones beyond the map must count none), or -1."""
    n = b.zone.shape[0]
    for z in range(L.MAX_ZONES):
        for side in range(2):
            here = 0
            if z < n:
                for u in range(b.unit.shape[0]):
                    if s[L.S_UNIT_ZONE + u] == z and b.unit[u, L.U_SIDE] == side:
                        here += 1
            if count(s, side, z) != here:
                return z
    return -1


@borrowing
def guns_in_place(s, b):
    """The first gun moved, or in a zone with enemy combat units, or ``MAX_GUNS + side``
    when a side's guns captured are not those counted; -1 if all hold."""
    bourbons_lost, catalans_lost = 0, 0
    for g in range(b.gun.shape[0]):
        z = s[L.S_GUN_ZONE + g]
        side = b.gun[g, L.G_SIDE]
        if z == L.ELIMINATED and side == L.BOURBONS:
            bourbons_lost += 1
        elif z == L.ELIMINATED:
            catalans_lost += 1
        elif z != b.gun[g, L.G_START] or count(s, 1 - side, z) > 0:
            return g
    if s[L.S_GUNS_LOST + L.BOURBONS] != bourbons_lost:
        return L.MAX_GUNS + L.BOURBONS
    if s[L.S_GUNS_LOST + L.CATALANS] != catalans_lost:
        return L.MAX_GUNS + L.CATALANS
    return -1


@borrowing
def open_side(b, zone, faces):
    """Rule 12: an ochre or green zone facing an adjacent ochre or green zone across a
    side with no blue or red line."""
    colour, other = b.zone[zone, L.Z_COLOUR], b.zone[faces, L.Z_COLOUR]
    open_ground = (colour == L.OCHRE or colour == L.GREEN) and \
        (other == L.OCHRE or other == L.GREEN)
    return open_ground and b.pair[L.PAIR_LINE, zone, faces] == L.LINE_NONE


@borrowing
def barricades_allowed(s, b, p):
    """The first barricade out of place (not on an open side, sharing a zone, or in a zone
    the Bourbons occupy), or ``MAX_BARRICADES`` when those lost are not those counted."""
    n = b.zone.shape[0]
    lost = 0
    for k in range(L.MAX_BARRICADES):
        z = s[L.S_BARRICADE_ZONE + k]
        if z == L.ELIMINATED:
            lost += 1 if k < b.barricade.shape[0] else 0
            continue
        if k >= b.barricade.shape[0] or not p[L.P_BARRICADES] or z < 0 or z >= n:
            return k
        faces = s[L.S_BARRICADE_FACES + k]
        if faces < 0 or faces >= n or not open_side(b, z, faces):
            return k
        if count(s, L.BOURBONS, z) > 0:
            return k
        for j in range(k):
            if s[L.S_BARRICADE_ZONE + j] == z:
                return k
    counted = lost if p[L.P_BARRICADES] else 0
    return -1 if s[L.S_BARRICADES_LOST] == counted else L.MAX_BARRICADES


@borrowing
def flag_allowed(s, b, p, turn):
    """The flag (its leader index) out of place, or -1: on the map only with the
    ``santa_eulalia_flag`` knob and from its turn of arrival, never among Bourbon combat
    units, eliminated exactly when counted lost."""
    for k in range(b.leader.shape[0]):
        if not b.leader[k, L.L_FLAG]:
            continue
        z = s[L.S_LEADER_ZONE + k]
        if (z == L.ELIMINATED) != (s[L.S_FLAG_LOST] == 1) or z >= b.zone.shape[0]:
            return k
        if z >= 0 and (not p[L.P_FLAG] or b.leader[k, L.L_ARRIVES] > turn
                       or count(s, L.BOURBONS, z) > 0):
            return k
    return -1


@borrowing
def tracks_in_range(s, p, step, turn):
    """-1 when the turn, the Royal Breach and the first objective's turn are on their
    tracks, else 0 (turn: 1 to the last, the extra turn of 13 included), 1 (breach: 0, or
    a turn played, by a die or an event card, never when ``breach_roll`` is 7) or 2 (first
    objective: 0 or a turn played)."""
    last = p[L.P_TURNS] + (1 if p[L.P_EXTRA_TURN] else 0)
    first = 0 if step == L.STEP_SET_UP else 1
    if s[L.S_TURN] != turn or not first <= turn <= last:
        return 0
    breach = s[L.S_BREACH_TURN]
    if not 0 <= breach <= turn or (breach > 0 and p[L.P_BREACH_ROLL] > 6):
        return 1
    if not 0 <= s[L.S_FIRST_TAKEN] <= turn:
        return 2
    return -1


@borrowing
def deck_in_order(s, b):
    """-1 when each card is in the deck once, the top within it and the event in play one
    a card gives; else the first card seen twice, or ``MAX_CARDS`` (top) or
    ``MAX_CARDS + 1`` (the event in play)."""
    n = b.card.shape[0]
    for i in range(n):
        card = s[L.S_DECK + i]
        if card < 0 or card >= n:
            return i
        for j in range(i):
            if s[L.S_DECK + j] == card:
                return card
    if not 0 <= s[L.S_DECK_TOP] <= n:
        return L.MAX_CARDS
    low, high = L.EVENT_VALUES
    for k in (L.S_EV_MOVEMENT, L.S_EV_SALVO, L.S_EV_ASSAULT):
        if not low <= s[k] <= high:
            return L.MAX_CARDS + 1
    if not 0 <= s[L.S_EV_ARTILLERY] <= 2:
        return L.MAX_CARDS + 1
    return -1


@borrowing
def check_state(s, b, p, log, step, turn):
    """Every invariant but the victory points, in order; the first that fails is
    recorded (``simkit.checks.broken``) and the rest are not tested."""
    detail = units_conserved(s, b)
    if detail >= 0:
        broken(log, L.INV_UNITS, detail, step, turn)
        return
    detail = commanders_conserved(s, b, turn)
    if detail >= 0:
        broken(log, L.INV_COMMANDERS, detail, step, turn)
        return
    detail = one_side_a_zone(s, b)
    if detail >= 0:
        broken(log, L.INV_ONE_SIDE, detail, step, turn)
        return
    detail = -1 if step == L.STEP_REINFORCEMENTS else within_stacking_limit(s, b, p)
    if detail >= 0:
        broken(log, L.INV_STACKING, detail, step, turn)
        return
    detail = control_follows_occupants(s, b)
    if detail >= 0:
        broken(log, L.INV_CONTROL, detail, step, turn)
        return
    detail = guns_in_place(s, b)
    if detail >= 0:
        broken(log, L.INV_GUNS, detail, step, turn)
        return
    detail = barricades_allowed(s, b, p)
    if detail >= 0:
        broken(log, L.INV_BARRICADES, detail, step, turn)
        return
    detail = flag_allowed(s, b, p, turn)
    if detail >= 0:
        broken(log, L.INV_FLAG, detail, step, turn)
        return
    detail = tracks_in_range(s, p, step, turn)
    if detail >= 0:
        broken(log, L.INV_TRACKS, detail, step, turn)
        return
    detail = deck_in_order(s, b)
    if detail >= 0:
        broken(log, L.INV_DECK, detail, step, turn)


@borrowing
def objectives_vp(s, b, p, side):
    """Rule 13: 2 VP a bastion or redoubt, 4 a convent or monastery, 4 for Pla de Palau,
    for the objectives ``side`` holds."""
    vp = 0
    for o in range(L.N_OBJECTIVES):
        if holds(s, b, side, o):
            vp += p[L.P_VP_OBJECTIVE + L.OBJECTIVE_KIND[o]]
    return vp


@borrowing
def vp_of(p, enemy_units_lost, enemy_commanders_lost, objectives):
    """Rule 13: 1 VP an eliminated enemy combat unit, 2 an eliminated enemy commander,
    plus the objectives held (knob values)."""
    return p[L.P_VP_UNIT] * enemy_units_lost + p[L.P_VP_COMMANDER] * enemy_commanders_lost + \
        objectives


@borrowing
def units_that_score(s, b, p, side, eliminations):
    """Rule 13 under the reading ``recreated_units_score``: every elimination of
    ``side``'s units (``yes``), or its units in the eliminated pile or lost (``no``)."""
    if p[L.P_RECREATED_SCORE]:
        return eliminations
    pile = 0
    for u in range(b.unit.shape[0]):
        if b.unit[u, L.U_SIDE] == side and s[L.S_UNIT_ZONE + u] <= L.ELIMINATED:
            pile += 1
    return pile


@borrowing
def victory_points_as_counted(s, b, p, out):
    """-1 when the outcome row's VP are rule 13's sum over the state (and its own columns
    of losses and objectives agree with the state), its margin their difference and its
    winner the one rule 13 names; else the side whose VP are wrong, 2 (a column of losses
    or objectives), 3 (margin) or 4 (winner)."""
    if out[L.O_BOURBON_UNITS_LOST] != s[L.S_UNITS_LOST + L.BOURBONS] or \
            out[L.O_CATALAN_UNITS_LOST] != s[L.S_UNITS_LOST + L.CATALANS] or \
            out[L.O_BOURBON_COMMANDERS_LOST] != s[L.S_LEADERS_LOST + L.BOURBONS] or \
            out[L.O_CATALAN_COMMANDERS_LOST] != s[L.S_LEADERS_LOST + L.CATALANS]:
        return 2
    held = p[L.P_VP_OBJECTIVE + L.OBJ_BASTION] * out[L.O_BASTIONS_HELD] + \
        p[L.P_VP_OBJECTIVE + L.OBJ_CONVENT] * out[L.O_CONVENTS_HELD] + \
        p[L.P_VP_OBJECTIVE + L.OBJ_PALAU] * out[L.O_PLA_DE_PALAU]
    if held != objectives_vp(s, b, p, L.BOURBONS):
        return 2
    catalans_scored = units_that_score(s, b, p, L.CATALANS, out[L.O_CATALAN_UNITS_LOST])
    bourbons_scored = units_that_score(s, b, p, L.BOURBONS, out[L.O_BOURBON_UNITS_LOST])
    bourbon_vp = vp_of(p, catalans_scored, out[L.O_CATALAN_COMMANDERS_LOST], held)
    catalan_vp = vp_of(p, bourbons_scored, out[L.O_BOURBON_COMMANDERS_LOST],
                       objectives_vp(s, b, p, L.CATALANS))
    if out[L.O_BOURBON_VP] != bourbon_vp:
        return L.BOURBONS
    if out[L.O_CATALAN_VP] != catalan_vp:
        return L.CATALANS
    if out[L.O_VP_MARGIN] != bourbon_vp - catalan_vp:
        return 3
    reason = out[L.O_END_REASON]
    if reason == L.END_ANNIHILATION or reason == L.END_OBJECTIVES or bourbon_vp > catalan_vp:
        winner = L.WIN_BOURBONS
    elif catalan_vp > bourbon_vp:
        winner = L.WIN_CATALANS
    else:
        winner = L.WIN_TIE
    return -1 if out[L.O_WINNER] == winner else 4


@borrowing
def check_victory_points(s, b, p, out, log, turn):
    """The victory check (13): the outcome row, the one place the state holds VP, says
    what rule 13 counts (``victory_points_as_counted``)."""
    detail = victory_points_as_counted(s, b, p, out)
    if detail >= 0:
        broken(log, L.INV_VP, detail, L.STEP_VICTORY, turn)


@borrowing
def check_victory(s, b, p, out, log, turn):
    """After the victory check (13): every invariant, then the victory points."""
    check_state(s, b, p, log, L.STEP_VICTORY, turn)
    if not failed(log):
        check_victory_points(s, b, p, out, log, turn)
