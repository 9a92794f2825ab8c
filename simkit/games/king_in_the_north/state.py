"""Small njit helpers over the state vector: blocks, cards, control and Victory Points.

Static components are passed as arrays: ``loc`` (location columns), ``adj`` (road kinds),
``blk`` (block columns), ``card`` (card columns). A block's side lives in the state
(``S_B_SIDE``) because captured artillery (optional rule 13.1) changes sides.
"""

from simkit.rng import restart, shuffle
from simkit.unmanaged import allocating, borrowing

from . import layout as L


# -- blocks --------------------------------------------------------------------------------
@borrowing
def on_map(s, b):
    return s[L.S_B_WHERE + b] == L.W_MAP


@borrowing
def blocks_at(s, blk, where, side, out):
    """Fill ``out`` with the ids of ``side``'s blocks at ``where``; returns the count."""
    n = 0
    for b in range(blk.shape[0]):
        if s[L.S_B_LOC + b] == where and s[L.S_B_WHERE + b] == L.W_MAP \
                and s[L.S_B_SIDE + b] == side:
            out[n] = b
            n += 1
    return n


@borrowing
def bucket_blocks(blk, s, n_loc, order, start):
    """The blocks on the map sorted by side and Location (a counting sort, block order
    kept within each): ``side``'s blocks at ``where`` are ``order[start[k]:start[k + 1]]``
    with ``k = side * n_loc + where``."""
    for k in range(2 * n_loc + 1):
        start[k] = 0
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_MAP:
            start[s[L.S_B_SIDE + b] * n_loc + s[L.S_B_LOC + b] + 1] += 1
    for k in range(2 * n_loc):
        start[k + 1] += start[k]
    for b in range(blk.shape[0]):  # start[k] walks to the next bucket's start ...
        if s[L.S_B_WHERE + b] == L.W_MAP:
            k = s[L.S_B_SIDE + b] * n_loc + s[L.S_B_LOC + b]
            order[start[k]] = b
            start[k] += 1
    for k in range(2 * n_loc, 0, -1):  # ... so each bucket's start is its left neighbour's
        start[k] = start[k - 1]
    start[0] = 0


@borrowing
def count_at(s, blk, where, side):
    """Army blocks of ``side`` at ``where`` (Naval Squadrons are not army blocks)."""
    n = 0
    for b in range(blk.shape[0]):
        if s[L.S_B_LOC + b] == where and s[L.S_B_WHERE + b] == L.W_MAP \
                and s[L.S_B_SIDE + b] == side and blk[b, L.BK_TYPE] != L.NAVAL:
            n += 1
    return n


@borrowing
def naval_at(s, blk, where):
    for b in range(blk.shape[0]):
        if s[L.S_B_LOC + b] == where and s[L.S_B_WHERE + b] == L.W_MAP \
                and blk[b, L.BK_TYPE] == L.NAVAL:
            return True
    return False


@borrowing
def block_value(blk, b):
    """A rough worth of a block for loss selection and evaluations."""
    t = blk[b, L.BK_TYPE]
    v = blk[b, L.BK_DIAMONDS]
    if t == L.LEADER:
        v += 3
        if blk[b, L.BK_SPECIAL] == L.SP_DON_CARLOS:
            v += 100
    elif t == L.FIELD_ART or t == L.MOUNTAIN_ART:
        v = 3
    elif t == L.PARTISANS or t == L.CUSTOMS or t == L.DECOY:
        v = 0
    return v


@borrowing
def strength_at(s, blk, where, side):
    """Sum of diamonds (leaders counted double) of ``side``'s army at ``where``."""
    v = 0
    for b in range(blk.shape[0]):
        if s[L.S_B_LOC + b] == where and s[L.S_B_WHERE + b] == L.W_MAP \
                and s[L.S_B_SIDE + b] == side:
            d = blk[b, L.BK_DIAMONDS]
            if blk[b, L.BK_TYPE] == L.LEADER:
                d += 2
            v += d
    return v


@borrowing
def track_blocks(p, side, year):
    """The blocks ``side`` draws from its bag at the end of ``year`` by the Reinforcement
    Track (6.4), before the +1 for more Resource Locations: campaign.toml's number plus
    the reconstruction knob ``SIDE_track_extra`` (never below 0)."""
    return max(0, p[L.P_TRACK + side * L.N_YEARS + year] + p[L.P_TRACK_EXTRA + side])


@borrowing
def eliminate(s, blk, b):
    """Remove a block from play (rulebook 8.7.4). Don Carlos lost outside a battle or a
    siege (an Overrun, 7.6; the block a big Carlist stack pays to retreat before combat,
    8.8.7) does not end the game: ``lose_in_combat``."""
    s[L.S_B_WHERE + b] = L.W_DEAD
    side = s[L.S_B_SIDE + b]
    if blk[b, L.BK_TYPE] != L.NAVAL:
        s[L.S_LOST + side] += 1
    if blk[b, L.BK_TYPE] == L.LEADER and side == L.LIBERALS:
        s[L.S_LIB_LEADERS_LOST] += 1


@borrowing
def lose_in_combat(s, blk, b):
    """A block lost in a battle or siege (its losses and retreats, 8.7-8.8): 2.1, "The
    Liberals win instantly if Don Carlos is captured in combat (the block that
    represents him is eliminated in a Battle or Siege)"."""
    eliminate(s, blk, b)
    if blk[b, L.BK_SPECIAL] == L.SP_DON_CARLOS and s[L.S_DONE] == 0:
        s[L.S_DONE] = 1
        s[L.S_WINNER] = L.WIN_LIBERALS
        s[L.S_REASON] = L.END_DON_CARLOS


@borrowing
def counts_for_cards(blk, b):
    """Decoys, Customs Officers and Partisans do not count for card draws (8.10)."""
    t = blk[b, L.BK_TYPE]
    return t != L.DECOY and t != L.CUSTOMS and t != L.PARTISANS


# -- cards ---------------------------------------------------------------------------------
@allocating
def reshuffle(s, card, rng, side):
    """An empty deck reshuffles its discards (rulebook 3.3); the deck's stream restarts at
    the reshuffle count."""
    n = 0
    base = L.S_DRAW + side * L.MAX_DECK
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_DISCARD:
            s[base + n] = c
            s[L.S_C_WHERE + c] = L.CW_DRAW
            n += 1
    s[L.S_RESHUFFLES + side] += 1
    restart(rng, L.ST_DECK[side], s[L.S_RESHUFFLES + side])
    pile = s[base:base + n].copy()
    shuffle(rng, L.ST_DECK[side], pile)
    s[base:base + n] = pile
    s[L.S_DRAW_N + side] = n


@borrowing
def draw_cards(s, card, rng, side, n):
    """Draw ``n`` cards (fewer if the deck and discards run out); returns cards drawn."""
    drawn = 0
    for _ in range(n):
        if s[L.S_DRAW_N + side] == 0:
            reshuffle(s, card, rng, side)
            if s[L.S_DRAW_N + side] == 0:
                break
        k = s[L.S_DRAW_N + side] - 1
        c = s[L.S_DRAW + side * L.MAX_DECK + k]
        s[L.S_DRAW_N + side] = k
        s[L.S_C_WHERE + c] = L.CW_HAND
        s[L.S_C_SEEN + c] = 0  # the enemy does not see what is drawn
        drawn += 1
    return drawn


@borrowing
def hand(s, card, side, out):
    """Fill ``out`` with ``side``'s cards in hand; returns the count."""
    n = 0
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_HAND:
            out[n] = c
            n += 1
    return n


@borrowing
def hand_size(s, card, side):
    n = 0
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_HAND:
            n += 1
    return n


@borrowing
def discard(s, c):
    s[L.S_C_WHERE + c] = L.CW_DISCARD


@borrowing
def holds_special(s, card, side, special):
    """A card of ``special`` in ``side``'s hand, or -1."""
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_HAND \
                and card[c, L.CD_SPECIAL] == special:
            return c
    return -1


@borrowing
def use_event(s, card, c):
    """A Special Event used for its effect leaves play (rulebook 3.3); counted per card
    kind for the action-usage table."""
    s[L.S_C_WHERE + c] = L.CW_REMOVED
    s[L.S_EVENTS_PLAYED + card[c, L.CD_SPECIAL]] += 1
    count_action(s, card[c, L.CD_SIDE], L.A_EVENTS)


@borrowing
def count_action(s, side, action, n=1):
    s[L.S_ACTIONS + side * L.N_ACTIONS + action] += n


@borrowing
def count_blunder(s, side, blunder, n=1):
    s[L.S_BLUNDERS + side * L.N_BLUNDERS + blunder] += n


# -- control and Victory Points ------------------------------------------------------------
@borrowing
def refresh_control(s, loc, blk, where):
    """Cities: the side with a block or cube while the other has none (4.2); a City
    nobody holds is nobody's. Other Locations keep their last owner (4.1.1)."""
    has_c = count_at(s, blk, where, L.CARLISTS) > 0 or s[L.S_CUBE + where] == 1
    has_l = count_at(s, blk, where, L.LIBERALS) > 0 or s[L.S_CUBE + where] == 2
    if has_c and not has_l:
        s[L.S_OWNER + where] = L.CARLISTS
    elif has_l and not has_c:
        s[L.S_OWNER + where] = L.LIBERALS
    elif not has_c and not has_l and loc[where, L.LC_KIND] >= L.CITY:
        s[L.S_OWNER + where] = L.NOBODY
    if s[L.S_OWNER + where] == L.NOBODY or not (has_c and has_l):
        s[L.S_BESIEGED + where] = 0


@borrowing
def enter(s, loc, blk, side, where):
    """Blocks of ``side`` have entered ``where`` other than along a stack's path (placed
    there, or retreating): "Any force, including one with only 1 diamond, automatically
    eliminates an enemy Garrison upon entering their Location" (7.5), and control is
    adjusted (4.1.1, 4.2, 9)."""
    if s[L.S_CUBE + where] == 2 - side:
        s[L.S_CUBE + where] = 0
    refresh_control(s, loc, blk, where)


@borrowing
def victory_points(s, loc, side):
    """VP of the Locations ``side`` controls (rulebook 2.2)."""
    v = 0
    for i in range(loc.shape[0]):
        if s[L.S_OWNER + i] == side:
            v += loc[i, L.LC_VP]
    return v


@borrowing
def vp_lead(s, loc, side):
    return victory_points(s, loc, side) - victory_points(s, loc, 1 - side)


@borrowing
def cities_and_capitals(s, loc, side):
    """(Cities, Capitals, Port Capitals, starred Capitals) ``side`` controls."""
    cities = capitals = ports = stars = 0
    for i in range(loc.shape[0]):
        if s[L.S_OWNER + i] != side:
            continue
        if loc[i, L.LC_KIND] == L.CITY:
            cities += 1
        elif loc[i, L.LC_KIND] == L.CAPITAL:
            capitals += 1
            if loc[i, L.LC_PORT]:
                ports += 1
            if loc[i, L.LC_STAR]:
                stars += 1
    return cities, capitals, ports, stars


@borrowing
def resources(s, loc, side):
    n = 0
    for i in range(loc.shape[0]):
        if s[L.S_OWNER + i] == side and loc[i, L.LC_RESOURCE]:
            n += 1
    return n


@borrowing
def cubes_used(s, loc, side):
    n = 0
    for i in range(loc.shape[0]):
        if s[L.S_CUBE + i] == side + 1:
            n += 1
    return n


@borrowing
def besieging(s, loc, blk, side):
    """Does ``side`` besiege some City/Capital (an unresolved siege, rulebook 6.5)?"""
    for i in range(loc.shape[0]):
        if s[L.S_BESIEGED + i] and s[L.S_OWNER + i] == 1 - side \
                and count_at(s, blk, i, side) > 0:
            return True
    return False


@borrowing
def inside_besieged(s, where, side):
    """Are ``side``'s blocks at ``where`` besieged inside the City?"""
    return s[L.S_BESIEGED + where] == 1 and s[L.S_OWNER + where] == side


