"""The players' choices inside card effects (rulebook "Event Cards": "the players
choose"): where moved troops come from and go, which piece a capture or elimination
takes, where a tile is placed or taken from, whose leader a card deactivates. Every
policy shares these defaults so far; ``card_effects.py`` applies the choices.
"""

import numpy as np

from simkit.unmanaged import allocating, borrowing

from . import card_layout as CL
from . import layout as L
from .pieces import (
    can_place,
    coronela_in_barcelona,
    in_set,
    piece_field,
    sorted_order,
    threats,
    tile_field,
    troops_in,
)

BIG = 1 << 20


@allocating
def rank_destinations(K, sp, row):
    """Positions in ``row`` to fill first: the most threatened spaces, then set order."""
    n = row[0]
    danger = threats(K, sp)
    scores = np.empty(n, dtype=np.int64)
    for k in range(n):
        scores[k] = -danger[row[1 + k]] * 1000 + k
    return sorted_order(scores)


@borrowing
def most_crowded_with(sp, row, exclude, field):
    """The space of ``row`` (not in ``exclude``) holding a ``field`` piece (-1: any troop)
    with the most troops, or the most such pieces for cannons; -1 if none."""
    best, most = -1, 0
    for k in range(1, row[0] + 1):
        s = row[k]
        if in_set(exclude, s):
            continue
        if field < 0:
            have, score = troops_in(sp, s), troops_in(sp, s)
        elif field == L.SP_CANNON:
            have, score = sp[s, field], sp[s, field]
        else:
            have, score = sp[s, field], troops_in(sp, s)
        if have > 0 and score > most:
            best, most = s, score
    return best


@borrowing
def choose_source(K, p, sp, src, dst, piece, leaving_barcelona):
    """Where the next moved piece comes from: the most crowded source space. Troops that
    leave Barcelona are infantry while any can go (the Coronela count decides defeat);
    otherwise the kind that space holds more of."""
    if piece != CL.PIECE_TROOP:
        field = piece_field(piece)
        return most_crowded_with(sp, src, dst, field), field
    if leaving_barcelona:
        best = most_crowded_with(sp, src, dst, L.SP_INFANTRY)
        if best >= 0:
            return best, L.SP_INFANTRY
    best = most_crowded_with(sp, src, dst, -1)
    if sp[best, L.SP_INFANTRY] > sp[best, L.SP_CORONELA]:
        return best, L.SP_INFANTRY
    return best, L.SP_CORONELA


@allocating
def choose_loss(K, p, w, sp, row, piece):
    """The piece a capture or elimination takes, from the most crowded space holding one.
    Of troops, the kind the policy holds cheaper (a Coronela weighs
    W_CORONELA_WEIGHT/10 of an infantry's 3), but infantry first once the Coronela
    in Barcelona are down to the defeat threshold."""
    none = np.zeros(1, dtype=np.int16)  # an empty exclusion set
    if piece != CL.PIECE_TROOP:
        field = piece_field(piece)
        return most_crowded_with(sp, row, none, field), field
    coronela_first = (w[L.W_CORONELA_WEIGHT] < 30 and
                      coronela_in_barcelona(K, sp) > p[L.P_CORONELA_THRESHOLD])
    first = L.SP_CORONELA if coronela_first else L.SP_INFANTRY
    best = most_crowded_with(sp, row, none, first)
    if best >= 0:
        return best, first
    second = L.SP_INFANTRY if coronela_first else L.SP_CORONELA
    return most_crowded_with(sp, row, none, second), second


@allocating
def choose_place(K, CARDS, p, sp, g, row, piece):
    """Where a tile goes. Defenses (organ-gun, barricade, bastion defense): the most
    threatened legal space, else one without such a tile, then the one with most troops.
    Rubble/ruined: the least threatened space with the least rubble (players limit the
    damage). Battery tiles: the camp with the fewest. -1 if none is legal."""
    best, best_score = -1, -BIG * 4
    harmful = piece == CL.PIECE_RUBBLE or piece == CL.PIECE_RUINED or \
        piece == CL.PIECE_BATTERY
    danger = threats(K, sp)
    for k in range(1, row[0] + 1):
        s = row[k]
        if not can_place(K, CARDS, sp, g, s, piece):
            continue
        if piece == CL.PIECE_BATTERY:
            score = -sp[s, L.SP_BATTERY_TILES]
        elif harmful:
            score = -np.int64(sp[s, L.SP_RUBBLE]) * BIG - danger[s]
        else:  # spread the tiles unless a threat says otherwise
            score = (danger[s] * 100 - np.int64(sp[s, tile_field(piece)]) * 50
                     + troops_in(sp, s))
        if score > best_score:
            best, best_score = s, score
    return best


@allocating
def choose_remove(K, sp, row, piece):
    """Where a tile is taken from. Rubble: ruined tiles first (they speed the Bourbons),
    the most threatened. Bourbons: the largest stack. Battery tiles: the camp with most.
    Barcelonan tiles (a card takes them): the least threatened space. -1 if none."""
    best, best_score = -1, -BIG * 4
    danger = threats(K, sp)
    for k in range(1, row[0] + 1):
        s = row[k]
        if piece == CL.PIECE_RUBBLE:
            if sp[s, L.SP_RUBBLE] == L.RUBBLE_NONE:
                continue
            score = np.int64(sp[s, L.SP_RUBBLE]) * BIG + danger[s]
        else:
            have = sp[s, tile_field(piece)]
            if have <= 0:
                continue
            if piece == CL.PIECE_BOURBON or piece == CL.PIECE_BATTERY:
                score = have
            else:
                score = -danger[s]
        if score > best_score:
            best, best_score = s, score
    return best


@borrowing
def choose_leader_seat(CARDS, g, seat, side, whose):
    """Whose ``side`` leader a card deactivates: a Barcelonan one the lightest (M_RANK),
    a Bourbon one the heaviest; on a tie another player's before one's own (Example 20)."""
    meta = CARDS[CL.C_META]
    best, best_score = -1, -BIG
    for s in range(L.N_SEATS):
        card = g[L.G_LEADER + s]
        if card <= 0 or meta[card, CL.M_KIND] - 1 != side:
            continue
        if (whose == CL.WHOSE_OWN and s != seat) or (whose == CL.WHOSE_OTHERS and s == seat):
            continue
        rank = meta[card, CL.M_RANK]
        score = (rank if side == CL.SIDE_BOURBON else -rank) * 10 + (0 if s == seat else 1)
        if score > best_score:
            best, best_score = s, score
    return best
