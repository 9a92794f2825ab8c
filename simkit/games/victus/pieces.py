"""Where Barcelonan pieces go and what the board holds (rulebook "Components", Glossary).

Eliminated troops and cannons go to WOUNDED from Barcelona spaces and to RESERVE from
spaces outside Barcelona; the defeat checks count Coronela in Barcelona and rubble/ruined
tiles on the board.
"""

import numpy as np

from simkit.unmanaged import allocating, borrowing

from . import card_layout as CL
from . import layout as L


@borrowing
def is_barcelona(K, space):
    return K[L.K_INFO][space, L.S_BARCELONA] == 1


@borrowing
def troops_in(sp, space):
    return sp[space, L.SP_CORONELA] + sp[space, L.SP_INFANTRY]


@borrowing
def troop_value(sp, space):
    """Combat value of the troops: Coronela 1, infantry 3."""
    return sp[space, L.SP_CORONELA] + 3 * sp[space, L.SP_INFANTRY]


@borrowing
def eliminate(K, sp, space, field, n):
    """Remove ``n`` troops or cannons (``field``) to WOUNDED or RESERVE. The defenders
    give up cannons that fired this turn first: the others may still fire."""
    if n <= 0:
        return
    box = L.SPECIAL_WOUNDED if is_barcelona(K, space) else L.SPECIAL_RESERVE
    sp[space, field] -= n
    sp[K[L.K_SPECIAL][box], field] += n
    if field == L.SP_CANNON:
        sp[space, L.SP_CANNON_FIRED] -= min(n, sp[space, L.SP_CANNON_FIRED])


@borrowing
def eliminate_all_troops(K, sp, space):
    eliminate(K, sp, space, L.SP_CORONELA, sp[space, L.SP_CORONELA])
    eliminate(K, sp, space, L.SP_INFANTRY, sp[space, L.SP_INFANTRY])


@borrowing
def remove_undefended_cannons(K, sp, space):
    """Cannons have no combat value: "if Bourbon troop tiles enter a space with cannons
    and no Barcelonan troops present (or, as the result of a combat, only Bourbon troops
    and Barcelonan cannons remain in a space), the cannons are eliminated immediately"
    (rulebook, Cannon Pieces). Cannons left alone with no Bourbon tile stay."""
    if troops_in(sp, space) == 0 and sp[space, L.SP_BOURBON] > 0:
        eliminate(K, sp, space, L.SP_CANNON, sp[space, L.SP_CANNON])


@borrowing
def trench_column_at(K, g, space):
    """The trench tile standing on ``space`` (a Parallel), or -1."""
    info = K[L.K_INFO]
    column = info[space, L.S_TRENCH]
    if column < 0 or info[space, L.S_PARALLEL] <= 0:
        return -1
    return column if g[L.G_TRENCH + column] == info[space, L.S_PARALLEL] else -1


@borrowing
def at_expedition(K, space):
    """The Military Deputy's Expedition: its troops fight only when a card says
    "Combat at the Military Deputy's Expedition"."""
    return K[L.K_INFO][space, L.S_KIND] == L.KIND_EXPEDITION


@borrowing
def loaded_cannons(sp, guns):
    """Write into ``guns`` the spaces holding a cannon that has not fired this turn, in
    space order, and return how many: the only sources ``can_fire`` accepts, so a scan
    over targets need not look at other spaces."""
    n = 0
    for space in range(sp.shape[0]):
        if sp[space, L.SP_CANNON] - sp[space, L.SP_CANNON_FIRED] > 0:
            guns[n] = space
            n += 1
    return n


@borrowing
def coronela_in_barcelona(K, sp):
    info = K[L.K_INFO]
    total = 0
    for s in range(sp.shape[0]):
        if info[s, L.S_BARCELONA] == 1:
            total += sp[s, L.SP_CORONELA]
    return total


@borrowing
def rubble_on_board(sp, g):
    """Rubble/ruined tiles on the board: in spaces and on markers."""
    total = g[L.G_RUBBLE_ON_MARKERS]
    for s in range(sp.shape[0]):
        if sp[s, L.SP_RUBBLE] != L.RUBBLE_NONE:
            total += 1
    return total


@borrowing
def marker_len(K, marker):
    """Pin positions on a dial: its values rise, padded with the highest one."""
    values = K[L.K_MARKER_VALUES][marker]
    top = values[values.shape[0] - 1]
    for k in range(values.shape[0]):
        if values[k] == top:
            return k + 1
    return values.shape[0]


@borrowing
def marker_value(K, g, marker):
    """A marker's value as the rules read it: the pin's value and this turn's ↑/↓."""
    return K[L.K_MARKER_VALUES][marker, g[L.G_MARKER + marker]] + g[L.G_TEMP + marker]


@borrowing
def disc_value(K, g, disc):
    """The value under a disc on the Bourbon marker, with this turn's ↑/↓."""
    return K[L.K_TRACK][0, g[L.G_DISC + disc]] + g[L.G_TEMP + CL.TEMP_DISC + disc]


@allocating
def threats(K, sp):
    """Per space: the Bourbon value in the spaces whose arrows lead into it."""
    out = np.empty(sp.shape[0], dtype=np.int64)
    fill_threats(K, sp, out)
    return out


@borrowing
def fill_threats(K, sp, out):
    """``threats`` into ``out``: the greedy players reuse one array for a whole actions
    step rather than allocate one per action."""
    arrows = K[L.K_ARROWS]
    out[:] = 0
    for source in range(sp.shape[0]):
        value = sp[source, L.SP_BOURBON]
        if value > 0:
            yellow, red = arrows[source, L.YELLOW], arrows[source, L.RED]
            if yellow >= 0:
                out[yellow] += value
            if red >= 0 and red != yellow:
                out[red] += value


@allocating
def sorted_order(keys):
    """``np.argsort`` of a few distinct keys (dice, a card's spaces): an insertion sort,
    cheaper than numba's quicksort at these sizes and, the keys being distinct, the same
    order."""
    order = np.arange(keys.shape[0])
    for k in range(1, keys.shape[0]):
        item, j = order[k], k
        while j > 0 and keys[order[j - 1]] > keys[item]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = item
    return order


# -- card pieces: which field a card's piece is, where a tile may go ----------------------


@borrowing
def defense_tiles_on_board(sp):
    total = 0
    for space in range(sp.shape[0]):
        if sp[space, L.SP_DEFENSE] > 0:
            total += 1
    return total


@borrowing
def piece_field(piece):
    if piece == CL.PIECE_INFANTRY:
        return L.SP_INFANTRY
    if piece == CL.PIECE_CORONELA:
        return L.SP_CORONELA
    return L.SP_CANNON


@borrowing
def in_set(row, space):
    for k in range(1, row[0] + 1):
        if row[k] == space:
            return True
    return False


@borrowing
def on_board(sp, field):
    return sp[:, field].sum()


@borrowing
def can_place(K, CARDS, sp, g, space, piece):
    """Legal and in supply: one bastion defense tile per bastion (+1, then flipped to
    +2), organ-guns, barricades and battery tiles up to the component counts."""
    limits = CARDS[CL.C_LIMITS]
    if piece == CL.PIECE_DEFENSE:
        if sp[space, L.SP_DEFENSE] >= 2:
            return False
        return (sp[space, L.SP_DEFENSE] > 0
                or defense_tiles_on_board(sp) < limits[CL.LIMIT_DEFENSE])
    if piece == CL.PIECE_ORGAN_GUN:
        return on_board(sp, L.SP_ORGAN_GUNS) < limits[CL.LIMIT_ORGAN_GUN]
    if piece == CL.PIECE_BARRICADE:
        return on_board(sp, L.SP_BARRICADES) < limits[CL.LIMIT_BARRICADE]
    if piece == CL.PIECE_BATTERY:
        return on_board(sp, L.SP_BATTERY_TILES) < limits[CL.LIMIT_BATTERY]
    if piece == CL.PIECE_RUINED:
        return sp[space, L.SP_RUBBLE] != L.RUINED
    return True  # rubble: an unabsorbed hit, whatever lies there


@borrowing
def tile_field(piece):
    if piece == CL.PIECE_ORGAN_GUN:
        return L.SP_ORGAN_GUNS
    if piece == CL.PIECE_BARRICADE:
        return L.SP_BARRICADES
    if piece == CL.PIECE_DEFENSE:
        return L.SP_DEFENSE
    if piece == CL.PIECE_BATTERY:
        return L.SP_BATTERY_TILES
    if piece == CL.PIECE_BOURBON:
        return L.SP_BOURBON
    return L.SP_RUBBLE
