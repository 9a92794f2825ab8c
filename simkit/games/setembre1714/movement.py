"""Movement (rulebook 10), barricade movement (12) and the stacking limit (6).

``reachable`` lists where one piece may go this movement phase: up to ``movement`` zones
through sides it may cross (no red line, the Royal Breach only once assured), never into
a zone holding enemy combat units (6.1: only an assault enters one) nor through a zone
already at the stacking limit (6.3); a piece stops on entering a zone adjacent to enemy
combat units or a Bourbon deployment zone (10). Barricades move through ochre and green
zones only (12). ``move_along`` walks the path, capturing enemy guns, barricades and lone
leaders it passes (Example of movement).
"""

import numpy as np

from simkit.eventlog import log_event
from simkit.unmanaged import allocating, borrowing

from . import layout as L
from .board import (
    barricade_in,
    bordering_enemy,
    can_cross,
    count,
    enemy_enters,
    lift_unit,
    open_ground,
    place_unit,
    zone_limit,
)
from .events import EV_BARRICADE_MOVE, EV_LEADER_MOVE, EV_MOVE

PIECE_UNIT, PIECE_LEADER, PIECE_BARRICADE = 0, 1, 2


@borrowing
def stop_zones(s, b, p, side, stop):
    """Zones where a moving piece of ``side`` must stop (10): "adjacent to enemy combat
    units" (``bordering_enemy``, under the reading ``stop_across_walls``), or a Bourbon
    deployment zone. Enemy units do not move in this phase, so it is computed once a
    phase."""
    for z in range(b.zone.shape[0]):
        stop[z] = 1 if (b.zone[z, L.Z_DEPLOYMENT] or bordering_enemy(s, b, p, z, side)) else 0


@allocating
def reachable(s, b, p, side, z0, piece, allowance, stop, dist, parent):
    """Rule 10/12: fill ``dist`` (zones moved, -1 unreachable) and ``parent`` (the path)
    for one piece of ``side`` starting in ``z0``. A barricade stops next to the enemy as
    units do under the reading ``barricades_stop = yes`` (12 gives it only "3 ochre or
    green zones" otherwise)."""
    n = b.zone.shape[0]
    foe = 1 - side
    for z in range(n):
        dist[z] = -1
        parent[z] = -1
    dist[z0] = 0
    queue = np.empty(n, np.int64)
    queue[0] = z0
    head, tail = 0, 1
    while head < tail:
        x = queue[head]
        head += 1
        if dist[x] >= allowance or (x != z0 and stop[x] and
                                    (piece != PIECE_BARRICADE or p[L.P_BARRICADES_STOP])):
            continue
        for i in range(b.neighbours.shape[1]):
            y = b.neighbours[x, i]
            if y < 0:
                break
            if dist[y] >= 0 or not can_cross(s, b, x, y) or count(s, foe, y) > 0:
                continue
            if piece == PIECE_UNIT and count(s, side, y) >= zone_limit(p, b, y):
                continue
            if piece == PIECE_BARRICADE and not open_ground(b, y):
                continue
            dist[y] = dist[x] + 1
            parent[y] = x
            queue[tail] = y
            tail += 1


@borrowing
def path_captures(s, b, side, dest, parent, log):
    """Enemy guns, barricades and lone leaders on the path are captured (9, 10)."""
    z = dest
    while z >= 0 and parent[z] >= 0:
        enemy_enters(s, b, side, z, log)
        z = parent[z]


@borrowing
def move_unit(s, b, u, dest, parent, log):
    """Move combat unit ``u`` along the path found by ``reachable`` to ``dest``."""
    z0 = lift_unit(s, b, u)
    place_unit(s, b, u, dest)
    path_captures(s, b, b.unit[u, L.U_SIDE], dest, parent, log)
    log_event(log, EV_MOVE, u, z0, dest)


@borrowing
def move_leader(s, b, k, dest, log):
    """Leaders move like units but are not combat units: they capture nothing (10, 13)."""
    log_event(log, EV_LEADER_MOVE, k, s[L.S_LEADER_ZONE + k], dest)
    s[L.S_LEADER_ZONE + k] = dest


@borrowing
def barricade_side_ok(s, b, zone, faces):
    """Rule 12: in an ochre/green zone with no other barricade, facing an adjacent
    ochre/green zone across a side with no blue or red line."""
    return (open_ground(b, zone) and open_ground(b, faces)
            and b.pair[L.PAIR_LINE, zone, faces] == L.LINE_NONE)


@borrowing
def place_barricade(s, k, zone, faces, log):
    """Rule 12: set barricade ``k`` up in ``zone`` facing ``faces`` (one a zone)."""
    s[L.S_BARRICADE_ZONE + k] = zone
    s[L.S_BARRICADE_FACES + k] = faces
    log_event(log, EV_BARRICADE_MOVE, k, zone, faces)


@borrowing
def barricade_can_stand(s, k, zone):
    other = barricade_in(s, zone)
    return other < 0 or other == k


@borrowing
def overstacked(s, b, p, side, z):
    return count(s, side, z) - zone_limit(p, b, z)


