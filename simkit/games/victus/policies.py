"""Scripted choices of the Barcelonan players, selected by integer id inside the kernels.

So far: which piece absorbs a bombardment hit, and how a winning side spreads casualty
points. (Card choice, dice order and action spending come with the full engine.)
"""

from numba import njit

from . import layout as L

POLICIES = {
    "greedy": "protect the Coronela (the defeat condition) and the cannons first",
}
GREEDY = 0


@njit(cache=True, nogil=True)
def choose_hit(p, sp, space):
    """The piece that absorbs one bombardment hit (HIT_*), or -1 if none can.

    Defense tiles and barricades are cheapest to replace; then Coronela while several
    stand in the space, cannons, infantry, organ-guns and the last Coronela.
    """
    if sp[space, L.SP_DEFENSE] > 0:
        return L.HIT_DEFENSE
    if p[L.P_FULL] and sp[space, L.SP_BARRICADES] > 0:
        return L.HIT_BARRICADE
    if sp[space, L.SP_CORONELA] > 1:
        return L.HIT_CORONELA
    if sp[space, L.SP_CANNON] > 0 and sp[space, L.SP_INFANTRY] + sp[space, L.SP_CORONELA] > 1:
        return L.HIT_CANNON
    if sp[space, L.SP_INFANTRY] > 0:
        return L.HIT_INFANTRY
    if sp[space, L.SP_CORONELA] > 0:
        return L.HIT_CORONELA
    if sp[space, L.SP_CANNON] > 0:
        return L.HIT_CANNON
    if p[L.P_FULL] and sp[space, L.SP_ORGAN_GUNS] > 0:
        return L.HIT_ORGAN_GUN
    return -1


@njit(cache=True, nogil=True)
def casualty_split(p, coronela, infantry, points):
    """Troops a winning Barcelonan side loses to ``points`` casualty points.

    A troop is eliminated when its points reach its value (Coronela 1, infantry 3); a
    surviving infantry can take up to 2. Returns (Coronela lost, infantry lost) with the
    least weighted loss, a Coronela weighing ``P_CORONELA_LOSS_WEIGHT``/10 of an infantry's 3.
    """
    if points >= coronela + 3 * infantry:
        return coronela, infantry
    best_c, best_i, best = coronela, infantry, 1 << 30
    for lost_i in range(infantry + 1):
        for lost_c in range(coronela + 1):
            taken = lost_c + 3 * lost_i
            if taken > points or points - taken > 2 * (infantry - lost_i):
                continue
            cost = lost_c * p[L.P_CORONELA_LOSS_WEIGHT] + lost_i * 30
            if cost < best:
                best_c, best_i, best = lost_c, lost_i, cost
    return best_c, best_i
