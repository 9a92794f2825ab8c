"""The King in the North's state invariants, asserted after every rule step when a run
checks its states (``simkit.checks``: ``simulate(..., check_state=True)`` or
``SIMKIT_CHECK_STATE=1``); a run for results skips them at the cost of one test a step.

The invariants (``layout.INVARIANTS``) come from the rulebook: 4.2 Cities and 4.1.1
Resource Locations (who controls a Location), 7.5 Garrisons (at most 12 cubes a side;
"Any force ... automatically eliminates an enemy Garrison upon entering their
Location"), 3.2 Blocks, 4.6 Recruitment Boxes and 6.4 Reinforcement Phase (each block in
one place), 8.7.4 Effects of Losses (the blocks lost), 8.6.1 Procedure and 6.4 (a
Defectors block for each defection and each draw from an empty bag; the blocks drawn by
the Reinforcement Track), 7.1 Movement Phase
in General and 7.3.6 Movement and Force Sizes (stacking), 8.9.2-8.9.3 and 8.8.6 (sieges,
retreats into combat), 3.3 Cards (the decks), 6 Yearly Cycle (the Turn Marker), 2.2
Victory Points and 9 Adjusting Control and Victory Point Markers, 13.4 Morale and 3.4 /
10 (Barrels). Each check returns the detail of its first failure (a Location, a block or
a side, as its docstring says) or -1.
"""

import numpy as np

from simkit.checks import broken, checking, failed
from simkit.unmanaged import allocating, borrowing

from . import layout as L
from .state import track_blocks, victory_points


@borrowing
def after_step(p, loc, blk, card, s, log, step):
    """Check the state after ``step`` if this run checks states; whether the game must
    stop (an invariant is broken, now or earlier)."""
    if checking(log) and not failed(log):
        check_state(p, loc, blk, card, s, log, step, s[L.S_TURN])
    return failed(log)


@borrowing
def check_state(p, loc, blk, card, s, log, step, turn):
    """Test every invariant; record the first that does not hold (``simkit.checks``)."""
    invariant, detail = first_broken(p, loc, blk, card, s, step)
    if invariant >= 0:
        broken(log, invariant, detail, step, turn)


@allocating
def first_broken(p, loc, blk, card, s, step):
    """(invariant, detail) of the first invariant that does not hold, else (-1, 0)."""
    counts = army_counts(loc, blk, s)
    d = city_control(loc, s, counts)
    if d >= 0:
        return L.INV_CITY_CONTROL, d
    d = resource_control(loc, s, counts)
    if d >= 0:
        return L.INV_RESOURCE_CONTROL, d
    d = garrison_with_enemy(loc, s, counts)
    if d >= 0:
        return L.INV_GARRISON_ENEMY, d
    d = garrison_cubes(p, loc, s)
    if d >= 0:
        return L.INV_GARRISON_CUBES, d
    d = blocks_in_one_place(p, loc, blk, s)
    if d >= 0:
        return L.INV_ONE_PLACE, d
    d = blocks_lost(blk, s)
    if d >= 0:
        return L.INV_LOST, d
    d = defectors(blk, s)
    if d >= 0:
        return L.INV_DEFECTORS, d
    d = reinforcement_track(p, blk, s, step)
    if d >= 0:
        return L.INV_TRACK, d
    return first_broken_later(p, loc, blk, card, s, step, counts)


@borrowing
def first_broken_later(p, loc, blk, card, s, step, counts):
    """``first_broken`` for the invariants of movement, sieges, cards and markers."""
    d = stacking(p, loc, blk, s, step, counts)
    if d >= 0:
        return L.INV_STACKING, d
    d = stacks_moved(p, s)
    if d >= 0:
        return L.INV_TRAIL_STACK, d
    d = sieges(loc, blk, s, counts)
    if d >= 0:
        return L.INV_SIEGE, d
    d = retreats_into_combat(loc, s, step)
    if d >= 0:
        return L.INV_RETREAT, d
    d = decks(p, card, s)
    if d >= 0:
        return L.INV_DECKS, d
    d = turn_marker(s)
    if d >= 0:
        return L.INV_TURN_MARKER, d
    d = victory_points_marker(loc, s)
    if d >= 0:
        return L.INV_VP, d
    d = morale_track(p, s)
    if d >= 0:
        return L.INV_MORALE, d
    d = barrels(loc, s)
    if d >= 0:
        return L.INV_BARRELS, d
    return -1, 0


@allocating
def army_counts(loc, blk, s):
    """Army blocks (not Naval Squadrons) of each side at each Location."""
    out = np.zeros((2, loc.shape[0]), dtype=np.int64)
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_MAP and blk[b, L.BK_TYPE] != L.NAVAL:
            where = s[L.S_B_LOC + b]
            side = s[L.S_B_SIDE + b]
            if 0 <= where < loc.shape[0] and 0 <= side <= 1:
                out[side, where] += 1
    return out


# -- control (4.1.1, 4.2, 7.5) -------------------------------------------------------------
@borrowing
def holders(s, counts, i):
    """Whether each side has a block or a Garrison cube at Location ``i``."""
    carlist = counts[L.CARLISTS, i] > 0 or s[L.S_CUBE + i] == L.CARLISTS + 1
    liberal = counts[L.LIBERALS, i] > 0 or s[L.S_CUBE + i] == L.LIBERALS + 1
    return carlist, liberal


@borrowing
def city_control(loc, s, counts):
    """4.2: "The player who has at least one block or Garrison cube on the City controls
    it (so long as their opponent has none)": a City/Capital only one side holds is that
    side's, one nobody holds is nobody's, one both hold is still someone's (the
    besieged side's). Detail: the Location."""
    for i in range(loc.shape[0]):
        if loc[i, L.LC_KIND] < L.CITY:
            continue
        carlist, liberal = holders(s, counts, i)
        owner = s[L.S_OWNER + i]
        if carlist and not liberal and owner != L.CARLISTS:
            return i
        if liberal and not carlist and owner != L.LIBERALS:
            return i
        if not carlist and not liberal and owner != L.NOBODY:
            return i
        if carlist and liberal and owner == L.NOBODY:
            return i
    return -1


@borrowing
def resource_control(loc, s, counts):
    """4.1.1: "The last player to move a block through a Resource Location becomes its
    owner", and its cube marks who controls it: a Resource Location (not a City) that
    only one side holds is that side's; an empty one keeps its owner. Detail: the
    Location."""
    for i in range(loc.shape[0]):
        if not loc[i, L.LC_RESOURCE] or loc[i, L.LC_KIND] >= L.CITY:
            continue
        carlist, liberal = holders(s, counts, i)
        owner = s[L.S_OWNER + i]
        if (carlist and not liberal and owner != L.CARLISTS) \
                or (liberal and not carlist and owner != L.LIBERALS):
            return i
    return -1


@borrowing
def garrison_with_enemy(loc, s, counts):
    """7.5: "Any force, including one with only 1 diamond, automatically eliminates an
    enemy Garrison upon entering their Location": no cube shares its Location with
    enemy blocks. Detail: the Location."""
    for i in range(loc.shape[0]):
        cube = s[L.S_CUBE + i]
        if cube < 0 or cube > 2:
            return i
        if cube > 0 and counts[2 - cube, i] > 0:
            return i
    return -1


@borrowing
def garrison_cubes(p, loc, s):
    """7.5: "each side only has 12 total at their disposition" (the ``garrison_cubes``
    knob). Detail: the side."""
    for side in range(2):
        n = 0
        for i in range(loc.shape[0]):
            if s[L.S_CUBE + i] == side + 1:
                n += 1
        if n > p[L.P_GARRISONS]:
            return side
    return -1


# -- blocks (3.2, 4.6, 6.4, 7.3.7, 8.6.1, 8.7.4, 13.1) -------------------------------------
@borrowing
def artillery(blk, b):
    t = blk[b, L.BK_TYPE]
    return t == L.FIELD_ART or t == L.MOUNTAIN_ART


@borrowing
def blocks_in_one_place(p, loc, blk, s):
    """Each block is in one place its kind allows: on the map at a Location, in its bag
    (a bag block), in the Recruitment Box (drawn from the bag, or a Defectors block,
    6.4), waiting to join as Defectors (8.6.1), in the pool, eliminated, or removed from
    play (Customs Officers and shown Partisans, 7.3.7; artillery taken out at set-up,
    13.1); of its printed side unless captured artillery (13.1). Detail: the block."""
    for b in range(blk.shape[0]):
        where = s[L.S_B_WHERE + b]
        t = blk[b, L.BK_TYPE]
        from_bag = blk[b, L.BK_START] == L.START_BAG
        side = s[L.S_B_SIDE + b]
        if side != blk[b, L.BK_SIDE] and not (p[L.P_CAPTURED_ART] and artillery(blk, b)):
            return b
        if where == L.W_MAP:
            if not 0 <= s[L.S_B_LOC + b] < loc.shape[0]:
                return b
        elif where == L.W_BAG:
            if not from_bag:
                return b
        elif where == L.W_BOX:
            if not from_bag and t != L.DEFECTORS:
                return b
        elif where == L.W_PENDING:
            if t != L.DEFECTORS:
                return b
        elif where == L.W_RESERVE:
            if from_bag or blk[b, L.BK_START] == L.START_MAP:
                return b
        elif where == L.W_REMOVED:
            if t != L.CUSTOMS and t != L.PARTISANS \
                    and not (p[L.P_CAPTURED_ART] and artillery(blk, b)):
                return b
        elif where != L.W_DEAD:
            return b
    return -1


@allocating
def blocks_lost(blk, s):
    """8.7.4: "Blocks lost in combat are removed from the board and cannot be used
    again": each side's count of blocks lost is its eliminated blocks; Naval Squadrons
    "never suffer losses" (7.4). Detail: the side (a Squadron: 2)."""
    lost = np.zeros(2, dtype=np.int64)
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] != L.W_DEAD:
            continue
        if blk[b, L.BK_TYPE] == L.NAVAL:
            return 2
        lost[s[L.S_B_SIDE + b]] += 1
    for side in range(2):
        if lost[side] != s[L.S_LOST + side]:
            return side
    return -1


@borrowing
def defectors(blk, s):
    """8.6.1: a block that defects is replaced by "a new Defectors Block matching the
    opposing side's color"; 6.4: "If there are no more blocks in the bag, a player draws
    a Defectors Block": the Defectors blocks out of each side's pool are the ones it was
    owed, as long as the pool had some. Detail: the side."""
    for side in range(2):
        total = 0
        taken = 0
        for b in range(blk.shape[0]):
            if blk[b, L.BK_TYPE] == L.DEFECTORS and blk[b, L.BK_SIDE] == side:
                total += 1
                if s[L.S_B_WHERE + b] != L.W_RESERVE:
                    taken += 1
        if taken != min(total, s[L.S_DEFECTORS_OWED + side]):
            return side
    return -1


@borrowing
def reinforcement_track(p, blk, s, step):
    """6.4: "Players draw at random from their bag a number of blocks as written on the
    Reinforcement Track on the board. Whoever controls more Resource Locations draws 1
    additional block": after the Reinforcement Phases of the Years so far each side has
    drawn from its bag the track's numbers, plus at most 1 a Year, or the whole bag.
    Detail: the side."""
    years = s[L.S_YEAR]
    if step == L.STEP_REINFORCEMENT or step == L.STEP_ATTRITION:
        years += 1  # this Year's Reinforcement Phase is over
    for side in range(2):
        in_bags = 0
        drawn = 0
        for b in range(blk.shape[0]):
            if blk[b, L.BK_START] != L.START_BAG or blk[b, L.BK_SIDE] != side:
                continue
            if s[L.S_B_WHERE + b] == L.W_REMOVED and artillery(blk, b):
                continue  # out of the bag at set-up (13.1)
            in_bags += 1
            if s[L.S_B_WHERE + b] != L.W_BAG:
                drawn += 1
        least = 0
        for year in range(min(years, L.N_YEARS)):
            least += track_blocks(p, side, year)
        if drawn < min(in_bags, least) or drawn > min(in_bags, least + years):
            return side
    return -1


# -- stacking (7.1, 7.3.6) -----------------------------------------------------------------
@borrowing
def stack_limit(p, loc, where):
    """7.1: "10 per side or 5 in Locations accessible only by trails"."""
    return p[L.P_TRAIL_STACK_LIMIT] if loc[where, L.LC_TRAIL_ONLY] else p[L.P_STACK_LIMIT]


@borrowing
def stacking(p, loc, blk, s, step, counts):
    """7.1: "The maximum number of blocks possible in any given Location is 10 per side
    or 5 in Locations accessible only by trails": after each step of the active side's
    Historical Reinforcement and Movement Phases, every Location its blocks entered this
    turn (moved or were placed there) is within the limit. Retreats are not checked
    ("There is no limit to the size of the force that may be moved together when
    retreating", 8.8.1). Detail: the Location."""
    side = s[L.S_ACTIVE]
    if not L.STEP_HISTORICAL[side] <= step <= L.STEP_MOVEMENT[side]:
        return -1
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] != L.W_MAP or s[L.S_B_SIDE + b] != side \
                or s[L.S_B_FROM + b] == L.FROM_NONE or blk[b, L.BK_TYPE] == L.NAVAL:
            continue
        where = s[L.S_B_LOC + b]
        if counts[side, where] > stack_limit(p, loc, where):
            return where
    return -1


@borrowing
def stacks_moved(p, s):
    """7.3.6: "The maximum number of blocks a stack can have is 10 for movement along
    Main Roads and Secondary Roads. Along Trails, the stack limit is reduced to 5
    blocks". Detail: the size of the stack that broke the limit."""
    if s[L.S_MOVED_STACK] > p[L.P_STACK_LIMIT]:
        return s[L.S_MOVED_STACK]
    if s[L.S_TRAIL_STACK] > p[L.P_TRAIL_STACK_LIMIT]:
        return s[L.S_TRAIL_STACK]
    return -1


# -- sieges and retreats (8.8.6, 8.9) ------------------------------------------------------
@borrowing
def sieges(loc, blk, s, counts):
    """8.9.3 G: a siege is a City/Capital where the controlling side's blocks and the
    besiegers coexist; 8.9.2: at most 2 blocks inside a City, 3 inside a Capital (not
    counting a relief force that entered this turn, 8.9.5). Detail: the Location."""
    for i in range(loc.shape[0]):
        flag = s[L.S_BESIEGED + i]
        if flag < 0 or flag > 1:
            return i
        if flag == 1 and not besieged_here(loc, blk, s, counts, i):
            return i
    return -1


@borrowing
def retreats_into_combat(loc, s, step):
    """8.8.6: "It is possible for a retreat to cause another battle ... resolve the
    battle": a retreat into enemy blocks waits for its battle only between the combats
    of a Combat Phase, never past it (unless the game is over). Detail: the Location."""
    if s[L.S_DONE] or step == L.STEP_COMBAT[0] or step == L.STEP_COMBAT[1]:
        return -1
    for i in range(loc.shape[0]):
        if s[L.S_RETREAT_IN + i] != 0:
            return i
    return -1


@borrowing
def besieged_here(loc, blk, s, counts, i):
    """Is Location ``i`` a siege as 8.9.2-8.9.3 describe one?"""
    owner = s[L.S_OWNER + i]
    if loc[i, L.LC_KIND] < L.CITY or owner < 0 or owner > 1:
        return False
    if counts[owner, i] == 0 or counts[1 - owner, i] == 0:
        return False
    inside = 0
    for b in range(blk.shape[0]):
        if s[L.S_B_LOC + b] == i and s[L.S_B_WHERE + b] == L.W_MAP \
                and s[L.S_B_SIDE + b] == owner and s[L.S_B_FROM + b] < 0 \
                and blk[b, L.BK_TYPE] != L.NAVAL:
            inside += 1
    return inside <= (3 if loc[i, L.LC_KIND] == L.CAPITAL else 2)


# -- cards (3.3) ---------------------------------------------------------------------------
@allocating
def decks(p, card, s):
    """3.3: each side's deck is its draw pile, hand, discards and the Special Events
    removed from play: the draw pile holds exactly that side's face-down cards, each
    once; no card stays in play between combats; «Breach in the Walls» is out of the
    deck only without optional rule 13.3. Detail: the side."""
    seen = np.zeros(card.shape[0], dtype=np.int64)
    for side in range(2):
        n = s[L.S_DRAW_N + side]
        if n < 0 or n > L.MAX_DECK:
            return side
        for k in range(n):
            c = s[L.S_DRAW + side * L.MAX_DECK + k]
            if c < 0 or c >= card.shape[0] or card[c, L.CD_SIDE] != side or seen[c] \
                    or s[L.S_C_WHERE + c] != L.CW_DRAW:
                return side
            seen[c] = 1
    for c in range(card.shape[0]):
        where = s[L.S_C_WHERE + c]
        side = card[c, L.CD_SIDE]
        if where == L.CW_DRAW and not seen[c]:
            return side
        breach_out = card[c, L.CD_SPECIAL] == L.CS_BREACH and not p[L.P_BREACH + side]
        if (where == L.CW_OUT) != breach_out:
            return side
        if where < 0 or where > L.CW_OUT or where == L.CW_PLAYED:
            return side  # a card played in a combat is discarded after it (8.10)
    return -1


# -- markers (2.2, 3.4, 6, 9, 10, 13.4) ----------------------------------------------------
@borrowing
def turn_marker(s):
    """6: 7 Years of Semesters A and B; the Turn Marker shows the Year, the Semester and
    the side moving first (6.2). Detail: the Year index."""
    year = s[L.S_YEAR]
    if year < 0 or year >= L.N_YEARS:
        return year
    if s[L.S_SEMESTER] < 2 * year or s[L.S_SEMESTER] > 2 * year + 1:
        return year
    for k in (L.S_FIRST, L.S_ACTIVE, L.S_TOTAL_USED, L.S_RETREAT_USED,
              L.S_RETREAT_USED + 1, L.S_TOTAL_USED + 1):
        if s[k] < 0 or s[k] > 1:
            return year
    if s[L.S_TURN] < 0 or s[L.S_TURN] > 2 * L.N_YEARS:
        return year
    return -1


@allocating
def victory_points_marker(loc, s):
    """2.2, 9: each side's VP (``state.victory_points``, the VP marker's reading) are
    those of the Locations it controls, every owner being a side or nobody. Detail: the
    Location, or the number of Locations for a side's total."""
    held = np.zeros(2, dtype=np.int64)
    for i in range(loc.shape[0]):
        owner = s[L.S_OWNER + i]
        if owner < L.NOBODY or owner > L.LIBERALS:
            return i
        if owner != L.NOBODY:
            held[owner] += loc[i, L.LC_VP]
    for side in range(2):
        if victory_points(s, loc, side) != held[side]:
            return loc.shape[0]
    return -1


@borrowing
def morale_track(p, s):
    """13.4: each cube starts in the central 0, "may not advance beyond the two ends of
    the track", and every change moves both cubes, in opposite directions; without the
    optional rule both stay at 0. Detail: the side."""
    half = (p[L.P_MORALE_SPACES] + 1) // 2 if p[L.P_MORALE] else 0
    for side in range(2):
        m = s[L.S_MORALE + side]
        if m < -half or m > half:
            return side
    if s[L.S_MORALE] + s[L.S_MORALE + 1] != 0:
        return 0
    return -1


@borrowing
def barrels(loc, s):
    """3.4: 9 Barrels; those on the map are among those taken from the box (7.1), less
    the ones the Carlists took as spoils (10.1). Detail: the Location, or the number of
    Locations for the totals."""
    used = s[L.S_BARRELS_USED]
    if used < 0 or used > L.BARRELS:
        return loc.shape[0]
    on_map = 0
    for i in range(loc.shape[0]):
        if s[L.S_BARRELS + i] < 0:
            return i
        on_map += s[L.S_BARRELS + i]
    if on_map > used:
        return loc.shape[0]
    return -1
