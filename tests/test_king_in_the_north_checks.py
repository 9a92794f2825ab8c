"""The King in the North's state invariants (``king_in_the_north.checks``): each one
reports a real state (after set-up, or after a played campaign) that is corrupted to
break it, and no state the engine reaches breaks any (every preset, every policy)."""

import functools

import numpy as np
import pytest

from simkit import checks as core_checks
from simkit import games
from simkit.eventlog import no_log
from simkit.games.king_in_the_north import checks, engine, movement
from simkit.games.king_in_the_north import components as C
from simkit.games.king_in_the_north import layout as L
from simkit.games.king_in_the_north.rules import PARAMETERS, POLICY_ROWS, Rules
from simkit.rng import game_streams

GAME = games.get("king_in_the_north")
COMP = C.components()
POL = POLICY_ROWS.build(GAME.policy_choices("greedy"))


def loc(name):
    return COMP.loc_index(name)


def set_up_state(rules=None):
    p = PARAMETERS.build(rules or Rules())
    s = np.zeros(L.N_STATE, dtype=np.int64)
    rng = game_streams(0, 0, L.N_STREAMS)
    engine.set_up(p, COMP.loc, COMP.blk, COMP.card, s, rng)
    return p, s


@functools.cache
def _played():
    p = PARAMETERS.build(Rules())
    s = np.zeros(L.N_STATE, dtype=np.int64)
    out = np.zeros(L.N_OUT, dtype=np.int32)
    for game in range(100):
        engine.play_game(p, COMP.loc, COMP.adj, COMP.fac_home, COMP.any2, COMP.blk,
                         COMP.card, s, game_streams(3, game, L.N_STREAMS), POL,
                         movement.workspace(COMP.loc, COMP.card), out, no_log())
        if all(len(blocks_of(s, side, L.W_BAG)) > 0 and len(spare(s, side)) >= 3
               for side in (L.CARLISTS, L.LIBERALS)):
            return p, s  # the corruptions below take blocks from the bags and spares
    raise AssertionError("no campaign of seed 3 ends with blocks in both bags")


def played_state():
    """The state a whole campaign ends in (greedy against greedy: the first game of seed
    3 that ends with blocks in both bags and 3 spare blocks a side)."""
    p, s = _played()
    return p.copy(), s.copy()


@pytest.fixture(params=["set-up", "played"])
def state(request):
    """A maker of fresh real states: after set-up, or after a played campaign."""
    return set_up_state if request.param == "set-up" else played_state


def reported(p, s, step=L.STEP_SET_UP):
    """The invariant ``check_state`` reports for ``s`` after ``step`` (None: none)."""
    log = no_log(check_state=True)
    checks.check_state(p, COMP.loc, COMP.blk, COMP.card, s, log, step, 0)
    found = core_checks.broken_state(log)
    return None if found is None else L.INVARIANTS[found[0]]


def detail(p, s, step=L.STEP_SET_UP):
    log = no_log(check_state=True)
    checks.check_state(p, COMP.loc, COMP.blk, COMP.card, s, log, step, 0)
    return core_checks.broken_state(log)[1]


def blocks_of(s, side, where=L.W_MAP):
    return [b for b in range(COMP.blk.shape[0])
            if s[L.S_B_WHERE + b] == where and s[L.S_B_SIDE + b] == side
            and COMP.blk[b, L.BK_TYPE] != L.NAVAL]


def spare(s, side):
    """Off-map blocks of ``side`` that may go on the map without breaking another
    invariant: the pool's reinforcements and event blocks (no Defectors), then the
    Recruitment Box."""
    pool = [b for b in blocks_of(s, side, L.W_RESERVE) if COMP.blk[b, L.BK_TYPE] != L.DEFECTORS]
    return pool + blocks_of(s, side, L.W_BOX)


def emptied(s, kind, resource=None):
    """A Location of ``kind`` (Resource or not) cleared of its cube and blocks, which go
    to a plain town (no VP, so nobody's control changes) free of their enemies."""
    where = [i for i in range(COMP.loc.shape[0]) if COMP.loc[i, L.LC_KIND] == kind and (
        resource is None or bool(COMP.loc[i, L.LC_RESOURCE]) == resource)][0]
    s[L.S_CUBE + where] = 0
    for b in range(COMP.blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_MAP and s[L.S_B_LOC + b] == where:
            s[L.S_B_LOC + b] = plain_town(s, 1 - s[L.S_B_SIDE + b], where)
    return where


def plain_town(s, enemy, other_than):
    """A town with no VP and no block of ``enemy``."""
    for i in range(COMP.loc.shape[0]):
        if i == other_than or COMP.loc[i, L.LC_VP] or COMP.loc[i, L.LC_TRAIL_ONLY]:
            continue
        if not any(
                s[L.S_B_WHERE + b] == L.W_MAP and s[L.S_B_LOC + b] == i
                and s[L.S_B_SIDE + b] == enemy for b in range(COMP.blk.shape[0])):
            return i
    raise AssertionError("no plain town free of the enemy")


def put(s, b, where, came_from=L.FROM_NONE):
    s[L.S_B_WHERE + b] = L.W_MAP
    s[L.S_B_LOC + b] = where
    s[L.S_B_FROM + b] = came_from


def test_real_states_break_nothing(state):
    assert reported(*state()) is None


def _cases():
    """Every preset with the default policies, and every policy of each side."""
    cases = [(preset, None) for preset in GAME.presets]
    for side in GAME.sides:
        cases += [(None, {side: policy}) for policy in GAME.policies[side]]
    return cases


@pytest.mark.parametrize(("preset", "policy"), _cases(),
                         ids=[f"{r or 'standard'}-{p or 'default'}" for r, p in _cases()])
def test_every_preset_and_policy_keeps_every_invariant(preset, policy):
    """30 campaigns (a rollout player, a campaign a second: 2) with the state checked
    after every rule step: no StateError."""
    search = bool(policy) and any(item in GAME.policy_kernels for item in policy.items())
    n = 2 if search else 30
    result = GAME.simulate(preset, policy, np.arange(n), 1, check_state=True)
    assert len(result["winner"]) == n


def test_invariant_and_step_names_reach_the_game():
    assert GAME.invariants == L.INVARIANTS and GAME.steps == L.STEPS
    assert len(L.INVARIANTS) == len(set(L.INVARIANTS))
    assert L.STEPS[L.STEP_MOVEMENT[L.LIBERALS]] == "Liberal Movement Phase"


# -- one corruption per invariant ----------------------------------------------------------
def test_city_control(state):
    """4.2: a City held by one side's blocks or cube is that side's; a City nobody holds
    is nobody's; a City both sides hold is still someone's (the besieged side's)."""
    p, s = state()
    city = emptied(s, L.CITY)
    s[L.S_OWNER + city] = L.LIBERALS  # nobody's pieces, yet an owner
    assert reported(p, s) == "City control (4.2)" and detail(p, s) == city
    s[L.S_OWNER + city] = L.NOBODY
    assert reported(p, s) is None
    s[L.S_CUBE + city] = L.CARLISTS + 1
    assert reported(p, s) == "City control (4.2)"
    s[L.S_OWNER + city] = L.CARLISTS
    assert reported(p, s) is None
    s[L.S_CUBE + city] = 0
    put(s, spare(s, L.LIBERALS)[0], city)
    put(s, spare(s, L.CARLISTS)[0], city)
    assert reported(p, s) is None
    s[L.S_OWNER + city] = L.NOBODY
    assert reported(p, s) == "City control (4.2)"


def test_resource_location_control(state):
    """4.1.1: the last side to move a block through a Resource Location owns it."""
    p, s = state()
    town = emptied(s, L.RESOURCE)
    s[L.S_OWNER + town] = L.LIBERALS
    assert reported(p, s) is None  # an empty Resource Location keeps its owner
    put(s, spare(s, L.CARLISTS)[0], town)
    assert reported(p, s) == "Resource Location control (4.1.1)"


def test_garrison_with_enemy_blocks(state):
    """7.5: an enemy force entering eliminates the Garrison."""
    p, s = state()
    town = emptied(s, L.TOWN, resource=False)
    s[L.S_CUBE + town] = L.CARLISTS + 1
    assert reported(p, s) is None
    put(s, spare(s, L.LIBERALS)[0], town)
    assert reported(p, s) == "Garrison with enemy blocks (7.5)"


def test_garrison_cubes(state):
    """7.5: "each side only has 12 total at their disposition"."""
    p, s = state()
    towns = [i for i in range(COMP.loc.shape[0]) if COMP.loc[i, L.LC_VP] == 0]
    for i in towns:
        if s[L.S_CUBE + i] == 0 and not any(
                s[L.S_B_WHERE + b] == L.W_MAP and s[L.S_B_LOC + b] == i
                and s[L.S_B_SIDE + b] == L.CARLISTS for b in range(COMP.blk.shape[0])):
            s[L.S_CUBE + i] = L.LIBERALS + 1
    cubes = int((s[L.S_CUBE:L.S_CUBE + COMP.loc.shape[0]] == L.LIBERALS + 1).sum())
    assert cubes > 12
    assert reported(p, s) == "Garrison cubes (7.5)" and detail(p, s) == L.LIBERALS


def test_blocks_in_one_place(state):
    """A bag block cannot wait as Defectors; a block on the map stands at a Location."""
    p, s = state()
    b = blocks_of(s, L.CARLISTS, L.W_BAG)[0]
    s[L.S_B_WHERE + b] = L.W_PENDING
    assert reported(p, s) == "blocks in one place (3.2, 4.6, 6.4)" and detail(p, s) == b
    p, s = state()
    put(s, b, COMP.loc.shape[0])
    assert reported(p, s) == "blocks in one place (3.2, 4.6, 6.4)"


def test_blocks_lost(state):
    """8.7.4: every eliminated block is a block lost."""
    p, s = state()
    b = blocks_of(s, L.LIBERALS, L.W_BAG)[0]
    s[L.S_B_WHERE + b] = L.W_DEAD
    assert reported(p, s) == "blocks lost (8.7.4)" and detail(p, s) == L.LIBERALS


def test_defectors_blocks(state):
    """8.6.1, 6.4: Defectors leave the pool only when owed."""
    p, s = state()
    owed = s[L.S_DEFECTORS_OWED + L.CARLISTS]
    pool = blocks_of(s, L.CARLISTS, L.W_RESERVE)
    defector = [b for b in pool if COMP.blk[b, L.BK_TYPE] == L.DEFECTORS][0]
    s[L.S_B_WHERE + defector] = L.W_PENDING
    assert reported(p, s) == "Defectors blocks (8.6.1, 6.4)"
    s[L.S_DEFECTORS_OWED + L.CARLISTS] = owed + 1
    assert reported(p, s) is None
    s[L.S_DEFECTORS_OWED + L.CARLISTS] = owed + 2  # owed one more, the pool has some
    assert reported(p, s) == "Defectors blocks (8.6.1, 6.4)"


def test_reinforcement_track():
    """6.4: each Reinforcement Phase draws the track's number of blocks from the bag, +1
    for more Resource Locations (the reconstructed track: 3 Liberal blocks in 1833)."""
    p, s = set_up_state()
    bag = blocks_of(s, L.LIBERALS, L.W_BAG)
    s[L.S_B_WHERE + bag[0]] = L.W_BOX
    for b in blocks_of(s, L.CARLISTS, L.W_BAG)[:3]:
        s[L.S_B_WHERE + b] = L.W_BOX  # their 3 of 1833
    assert reported(p, s, L.STEP_TURN_ORDER) == "Reinforcement Track (6.4)"
    for drawn, broken in ((1, True), (3, False), (4, False), (5, True)):
        for k, b in enumerate(bag):
            s[L.S_B_WHERE + b] = L.W_BOX if k < drawn else L.W_BAG
        found = reported(p, s, L.STEP_REINFORCEMENT)
        assert (found == "Reinforcement Track (6.4)") == broken and found in (
            None, "Reinforcement Track (6.4)")


def movable(s, side):
    """``spare`` blocks, then all but one of the blocks of ``side``'s biggest stack
    (what stays there keeps its control)."""
    on_map = blocks_of(s, side)
    where = max({s[L.S_B_LOC + b] for b in on_map},
                key=lambda i: sum(s[L.S_B_LOC + b] == i for b in on_map))
    return spare(s, side) + [b for b in on_map if s[L.S_B_LOC + b] == where][1:]


def test_stacking_limit(state):
    """7.1: at most 10 blocks a side in a Location (5 if only Trails reach it) after a
    move; a retreat may exceed it (8.8.1), so other steps do not check it."""
    p, s = state()
    trail = [i for i in range(COMP.loc.shape[0]) if COMP.loc[i, L.LC_TRAIL_ONLY]
             and s[L.S_CUBE + i] == 0][0]
    side = L.CARLISTS if len(movable(s, L.CARLISTS)) >= 6 else L.LIBERALS
    movers = movable(s, side)[:6]
    first_was = s[L.S_B_WHERE + movers[0]], s[L.S_B_LOC + movers[0]]
    for b in movers:
        put(s, b, trail, came_from=loc("onate"))
    s[L.S_ACTIVE] = side
    assert reported(p, s, L.STEP_MOVEMENT[side]) == "stacking limit (7.1)"
    assert detail(p, s, L.STEP_MOVEMENT[side]) == trail
    assert reported(p, s, L.STEP_COMBAT[side]) is None
    s[L.S_B_WHERE + movers[0]], s[L.S_B_LOC + movers[0]] = first_was
    assert reported(p, s, L.STEP_MOVEMENT[side]) is None


def test_stack_moving_along_trails(state):
    """7.3.6: "Along Trails, the stack limit is reduced to 5 blocks"."""
    p, s = state()
    s[L.S_TRAIL_STACK] = 6
    assert reported(p, s) == "stack moving along Trails (7.3.6)" and detail(p, s) == 6
    s[L.S_TRAIL_STACK] = 5
    s[L.S_MOVED_STACK] = 11
    assert reported(p, s) == "stack moving along Trails (7.3.6)"


def test_siege(state):
    """8.9.3 G: a siege needs the besieged and the besiegers in the City."""
    p, s = state()
    city = emptied(s, L.CITY)
    put(s, spare(s, L.LIBERALS)[0], city)
    s[L.S_OWNER + city] = L.LIBERALS
    assert reported(p, s) is None
    s[L.S_BESIEGED + city] = 1
    assert reported(p, s) == "siege (8.9.2, 8.9.3)" and detail(p, s) == city
    for b in spare(s, L.CARLISTS)[:2]:
        put(s, b, city)
    assert reported(p, s) is None
    for b in spare(s, L.LIBERALS)[:2]:
        put(s, b, city)  # 3 inside a City (8.9.2: at most 2)
    assert reported(p, s) == "siege (8.9.2, 8.9.3)"


def test_retreat_into_combat():
    """8.8.6: a retreat into enemy blocks is fought within the Combat Phase."""
    p, s = set_up_state()
    s[L.S_RETREAT_IN + loc("hernani")] = L.LIBERALS + 1
    assert reported(p, s, L.STEP_C_COMBAT) is None
    assert reported(p, s, L.STEP_C_COMBAT_PHASE) == "retreat into combat (8.8.6)"


def test_decks(state):
    """3.3: the draw pile holds the side's face-down cards, each once."""
    p, s = state()
    s[L.S_DRAW_N + L.LIBERALS] -= 1
    assert reported(p, s) == "decks (3.3)" and detail(p, s) == L.LIBERALS
    p, s = state()
    c = [c for c in range(COMP.card.shape[0]) if s[L.S_C_WHERE + c] == L.CW_HAND][0]
    s[L.S_C_WHERE + c] = L.CW_PLAYED  # a card left in play after a combat
    assert reported(p, s) == "decks (3.3)"


def test_turn_marker(state):
    p, s = state()
    s[L.S_FIRST] = 2  # no side
    assert reported(p, s) == "Turn Marker (6)"
    p, s = state()
    s[L.S_SEMESTER] = 2 * s[L.S_YEAR] + 2
    assert reported(p, s) == "Turn Marker (6)"


def test_victory_points(state):
    p, s = state()
    s[L.S_OWNER + loc("bermeo")] = 2
    assert reported(p, s) == "Victory Points (2.2, 9)" and detail(p, s) == loc("bermeo")


def test_morale_track():
    """13.4: both cubes move at once, in opposite directions, and stop at the ends."""
    p, s = set_up_state(Rules(morale=True, morale_neutral_spaces=3))
    s[L.S_MORALE + L.CARLISTS] = 2
    s[L.S_MORALE + L.LIBERALS] = -2
    assert reported(p, s) is None
    s[L.S_MORALE + L.LIBERALS] = -1
    assert reported(p, s) == "Morale Track (13.4)"
    s[L.S_MORALE + L.CARLISTS], s[L.S_MORALE + L.LIBERALS] = 3, -3
    assert reported(p, s) == "Morale Track (13.4)"
    p, s = set_up_state()
    s[L.S_MORALE + L.CARLISTS], s[L.S_MORALE + L.LIBERALS] = 1, -1  # no optional rule
    assert reported(p, s) == "Morale Track (13.4)"


def test_barrels(state):
    """3.4: 9 Barrels; 7.1: the Liberals take them 2 at a time."""
    p, s = state()
    s[L.S_BARRELS + loc("vitoria")] += 1 + s[L.S_BARRELS_USED]
    assert reported(p, s) == "Barrels (3.4, 10)"
    p, s = state()
    s[L.S_BARRELS_USED] = L.BARRELS + 1
    assert reported(p, s) == "Barrels (3.4, 10)"


def test_a_checked_trace_is_the_same_game():
    """A trace with the state checks plays the game ``simulate`` plays."""
    checked = GAME.trace(None, None, 5, 11, check_state=True)
    assert checked == GAME.trace(None, None, 5, 11)
