"""The King in the North: the rules a review found played otherwise (Forced Levies 12.1,
the Hussars 11.3, Mountain Artillery 8.2.2 / 8.4.2, blocks left behind 7.3.1, Defectors
8.6.1, a force inside a City 8.9.2, retreats 8.8.3 / 11.1, Blown Bridge and Snow-covered
Fields 12.1, Double cards 8.4.5, Don Carlos 2.1), each through the code the engine runs
with the real blocks and cards, quoting the rulebook.
"""

import numpy as np
from test_king_in_the_north import (
    COMP,
    FULL,
    POL,
    battle_ws,
    blocks,
    cards,
    fresh_state,
    give,
    loc,
    put,
)

from simkit.eventlog import events, new_log, no_log
from simkit.games.king_in_the_north import combat, engine, movement, policies, state
from simkit.games.king_in_the_north import layout as L
from simkit.games.king_in_the_north.events import (
    EV_BATTLE,
    EV_MOVEMENT_CARDS,
    EV_RETREAT_BEFORE,
    EV_SIEGE,
)
from simkit.games.king_in_the_north.rules import PARAMETERS, Rules


def _rows(log):
    return [tuple(int(x) for x in e) for e in events(log)]


def _options(p, s, bt, side, army):
    """The deployments ``side`` may make now, as (kind, card, b1, b2, Impact) rows."""
    hand = np.empty(L.MAX_DECK, dtype=np.int64)
    nc = state.hand(s, COMP.card, side, hand)
    opts = np.empty((L.MAX_OPTIONS, L.N_OP), dtype=np.int64)
    n = combat.deployment_options(p, COMP.loc, COMP.blk, COMP.card, s, bt, side,
                                  np.array(army, dtype=np.int64), len(army), hand, nc, opts)
    return opts[:n]


def _start(s, where, attacker, siege=0):
    bt = np.zeros(L.N_BT, dtype=np.int64)
    combat.start_battle(COMP.loc, COMP.blk, s, bt, loc(where), attacker, siege)
    return bt


def _gain(opts, kind, c, b1, b2=-1):
    rows = [o for o in opts if (o[L.OP_KIND], o[L.OP_CARD], o[L.OP_B1], o[L.OP_B2])
            == (kind, c, b1, b2)]
    return int(rows[0][L.OP_GAIN]) if rows else None


# -- 12.1 Forced Levies --------------------------------------------------------------------
def test_forced_levies_pays_unlimited_movement_or_one_card():
    """12.1 «Forced Levies»: "If played, you do not discard a card to pay for movement
    during the Movement Phase". Reading ``unlimited``: Unlimited Movement, no card
    discarded; reading ``one_card``: the movement costs one card fewer."""
    for reading in ("unlimited", "one_card"):
        rules = Rules(forced_levies=reading)
        p, s, rng = fresh_state(rules)
        s[L.S_YEAR] = 1
        s[L.S_SEMESTER] = 2
        put(s, blocks("Zumalacárregui") + blocks("Navarra battalion")[:3], loc("estella"))
        put(s, blocks("Eraso") + blocks("Álava battalion")[:2], loc("amezcoas"))
        for b in blocks("Guipúzcoa battalion")[:2]:
            s[L.S_B_WHERE + b] = L.W_BOX
        levies = cards("carlists", special="forced_levies")[0]
        give(s, [levies] + cards("carlists", "navarra")[:7])
        log = new_log(400)
        movement.movement_phase(p, COMP.loc, COMP.adj, COMP.fac_home, COMP.any2, COMP.blk,
                                COMP.card, s, rng, POL, L.CARLISTS,
                                movement.workspace(COMP.loc, COMP.card), log)
        assert s[L.S_C_WHERE + levies] == L.CW_REMOVED
        paid = [r[2:] for r in _rows(log) if r[0] == EV_MOVEMENT_CARDS]
        if reading == "unlimited":
            assert paid == []  # no card discarded, all stacks may move
        else:
            assert len(paid) == 1 and paid[0][0] >= 1 and paid[0][1] == paid[0][0] - 1


# -- 11.3 Hussars of the Princess ----------------------------------------------------------
def test_hussars_4_in_battle_without_charge_and_2_in_sieges():
    """11.3: "may be deployed with any card (no Special Attack card is needed). There
    is no cavalry charge bonus. During sieges, it only provides 2 points of Impact
    instead of 4"."""
    p, s, rng = fresh_state()
    hussars = blocks("Hussars of the Princess")[0]
    put(s, [hussars], loc("los_arcos"))
    bugle = cards("liberals", "militia", bugle=1)[0]
    plain = cards("liberals", "regular", bugle=0)[0]
    give(s, [bugle, plain])
    opts = _options(p, s, _start(s, "los_arcos", L.LIBERALS), L.LIBERALS, [hussars])
    assert _gain(opts, L.OPT_CARD, plain, hussars) == 4
    assert _gain(opts, L.OPT_CARD, bugle, hussars) == 4  # no charge
    put(s, [hussars], loc("estella"))
    opts = _options(p, s, _start(s, "estella", L.LIBERALS, siege=1), L.LIBERALS, [hussars])
    assert _gain(opts, L.OPT_CARD, plain, hussars) == 2


# -- 8.2.2, 8.4.2 Mountain Artillery -------------------------------------------------------
def test_mountain_artillery_needs_a_bugle_outside_mountains_and_trails():
    """8.2.2: "cards from any Faction may be used to deploy Artillery (Special Attack
    cards with a bugle icon)"; 8.4.2: in a Mountainous Area or trail-only Location, "If
    deployed later in the battle, a card from any Faction may be used, and it does not
    need to be a card with a Special Attack icon"."""
    p, s, rng = fresh_state()
    mtn = blocks("Mountain artillery", "carlists")[0]
    plain = cards("carlists", "navarra", bugle=0)[0]
    bugle = cards("carlists", "navarra", bugle=1)[0]
    give(s, [plain, bugle])
    for where, plain_gain, bugle_gain in (("los_arcos", None, 1), ("lecumberri", 2, 2)):
        put(s, [mtn], loc(where))
        bt = _start(s, where, L.CARLISTS)
        bt[L.BT_CARD_DEPLOYED + L.CARLISTS] = 1  # later in the battle: not free
        opts = _options(p, s, bt, L.CARLISTS, [mtn])
        assert _gain(opts, L.OPT_CARD, plain, mtn) == plain_gain
        assert _gain(opts, L.OPT_CARD, bugle, mtn) == bugle_gain


def test_mountain_artillery_in_sieges_three_or_its_battle_value():
    """8.4.2: "Field Artillery Blocks deployed during sieges with the use of a card with
    Special Attack add 3 points of Impact"; the reading ``mountain_artillery_siege``
    gives Mountain Artillery 3 too (``three``) or its battle value (``battle``: 1, 2 in
    Mountainous Areas, 8.7.2)."""
    for reading, estella, onate in (("three", 3, 3), ("battle", 1, 2)):
        p = PARAMETERS.build(Rules(mountain_artillery_siege=reading))
        _, s, rng = fresh_state()
        mtn = blocks("Mountain artillery", "liberals")[0]
        bugle = cards("liberals", "militia", bugle=1)[0]
        give(s, [bugle])
        for where, want in (("estella", estella), ("onate", onate)):  # Oñate: mountains
            put(s, [mtn], loc(where))
            opts = _options(p, s, _start(s, where, L.LIBERALS, siege=1), L.LIBERALS, [mtn])
            assert _gain(opts, L.OPT_CARD, bugle, mtn) == want


# -- 7.3.1 blocks left behind --------------------------------------------------------------
def test_blocks_left_behind_may_still_move():
    """7.3.1: "Blocks beginning this phase in the same Location do not necessarily have
    to move along the same paths nor end up in the same Location. Some blocks may be
    moved together from one Location and be left behind as the rest of the stack
    continues on to another." The blocks greedy leaves to hold Estella (its Carlist City
    guard, 2) are not frozen."""
    p, s, rng = fresh_state()
    est = loc("estella")
    s[L.S_OWNER + est] = L.CARLISTS
    stack = blocks("Zumalacárregui") + blocks("Navarra battalion")[:3]
    put(s, stack, est)
    enemy = blocks("Militia battalion")[:1]
    put(s, enemy, loc("los_arcos"))
    give(s, cards("carlists", "navarra")[:5])
    assert movement.move_stack(p, COMP.loc, COMP.adj, COMP.blk, COMP.card, s, rng, POL,
                               L.CARLISTS, est, True,
                               movement.workspace(COMP.loc, COMP.card), no_log())
    ids = np.empty(L.MAX_BLOCKS, dtype=np.int64)
    left = movement.movable_group(COMP.blk, s, est, L.CARLISTS, ids)
    assert left == 2 and all(ids[i] in stack and s[L.S_B_MOVED + ids[i]] == 0
                             for i in range(left))


# -- 8.6.1 Defectors -----------------------------------------------------------------------
def test_defectors_enter_next_semester_not_the_same_one():
    """8.6.1: "New Defector Blocks are added to players' armies at the beginning of their
    turn during the next Semester. Therefore, if the battle took place in Semester A,
    any Defectors Blocks would be placed during their next turn in Semester B." Example 8
    is fought in the Carlist turn of 1835 A; the Liberal turn of 1835 A that follows
    does not place the Defectors block, their turn of 1835 B does."""
    p, s, rng = fresh_state()
    engine.begin_semester(s, 2, 0)
    where = loc("los_arcos")
    viz = [b for b in blocks("Vizcaya battalion") if COMP.blk[b, L.BK_DIAMONDS] == 3][0]
    militia = blocks("Militia battalion")[0]
    put(s, [viz, militia], where)
    put(s, blocks("Regular Army battalion")[:1], loc("vitoria"))
    give(s, [cards("carlists", "vizcaya")[0]] + cards("carlists", "navarra")[:2])
    give(s, cards("liberals", special="loyalty")[:1])
    combat.resolve_battle(p, COMP.loc, COMP.adj, COMP.blk, COMP.card, s, rng, POL, where,
                          L.CARLISTS, battle_ws(), no_log())
    blue = [b for b in range(COMP.blk.shape[0]) if s[L.S_B_WHERE + b] == L.W_PENDING]
    assert len(blue) == 1
    engine.arrivals(p, COMP.loc, COMP.blk, s, rng, POL, L.LIBERALS, no_log())
    assert s[L.S_B_WHERE + blue[0]] == L.W_PENDING  # same Semester: it waits
    engine.begin_semester(s, 2, 1)
    engine.arrivals(p, COMP.loc, COMP.blk, s, rng, POL, L.LIBERALS, no_log())
    assert s[L.S_B_WHERE + blue[0]] == L.W_MAP


# -- 8.9.2 inside or outside ---------------------------------------------------------------
def test_a_force_once_inside_may_declare_itself_outside():
    """8.9.2: "Players may declare a force to be outside even if they had declared them
    inside during a previous phase." Two Liberal blocks besieged in Estella by one
    Carlist block: greedy now fights outside (a battle, not a siege)."""
    p, s, rng = fresh_state()
    est = loc("estella")
    s[L.S_OWNER + est] = L.LIBERALS
    s[L.S_BESIEGED + est] = 1
    put(s, blocks("Regular Army battalion")[:2], est)
    put(s, blocks("Navarra battalion")[:1], est)
    give(s, cards("carlists", "navarra")[:3] + cards("liberals", "regular")[:3])
    log = new_log(200)
    engine.fight_at(p, COMP.loc, COMP.adj, COMP.blk, COMP.card, s, rng, POL, est,
                    L.CARLISTS, battle_ws(), log)
    kinds = [r[0] for r in _rows(log)]
    assert EV_BATTLE in kinds and EV_SIEGE not in kinds


# -- 8.8.3, 11.1 retreats ------------------------------------------------------------------
def test_a_beaten_defender_retreats_where_its_commander_chooses():
    """8.8.3: "The defender retreats, if possible, to a Location that does not contain
    enemy units and may not retreat to a Location where the attack ... originated": any
    such Location, the player's choice. Beaten at Bergara by an attack from Tolosa,
    greedy's Liberals join their stack at Villarreal, not Oñate, the first on the map."""
    p, s, rng = fresh_state()
    berg, tol = loc("bergara"), loc("tolosa")
    attackers = blocks("Navarra battalion")[:3]
    put(s, attackers, berg, came_from=tol)
    put(s, blocks("Regular Army battalion")[:1], berg)
    put(s, blocks("Militia battalion")[:3], loc("villarreal"))
    dest, forced = combat.retreat_destination(COMP.loc, COMP.adj, COMP.blk, s, rng, POL,
                                              berg, L.LIBERALS, False)
    assert dest == loc("villarreal") and not forced


def test_headquarters_retreat_two_spaces_for_four_blocks_or_fewer():
    """11.1 Headquarters: "If the retreating stack has 4 or fewer blocks, it may retreat
    in a different direction from which the attack originated to a Location up to 2
    spaces away. If the stack is larger, it may only retreat one space." At Hernani,
    attacked from Tolosa with San Sebastián Carlist, no adjacent Location is free: 2
    Liberal battalions cross the emptied Tolosa; 5 cannot retreat."""
    for n, leaves in ((2, True), (5, False)):
        p, s, rng = fresh_state()
        her, tol = loc("hernani"), loc("tolosa")
        attackers = blocks("Zumalacárregui") + blocks("Navarra battalion")[:4]
        put(s, attackers, her, came_from=tol)
        put(s, blocks("Guipúzcoa battalion")[:1], loc("san_sebastian"))
        libs = (blocks("Regular Army battalion") + blocks("Militia battalion"))[:n]
        put(s, libs, her)
        hq = cards("liberals", special="headquarters")[0]
        give(s, [hq] + cards("carlists", "navarra")[:5])
        log = new_log(50)
        left = engine.retreat_before(p, COMP.loc, COMP.adj, COMP.blk, COMP.card, s, rng, FULL,
                                     her, L.LIBERALS, log)
        assert left == leaves
        if leaves:
            (row,) = [r for r in _rows(log) if r[0] == EV_RETREAT_BEFORE]
            assert row[3] in {loc("bergara"), loc("azpeitia"), loc("lecumberri")}
            assert all(s[L.S_B_LOC + b] == row[3] for b in libs)
            assert s[L.S_C_WHERE + hq] == L.CW_DISCARD


# -- 12.1 Blown Bridge ---------------------------------------------------------------------
def test_blown_bridge_stops_a_one_step_move_where_it_began():
    """12.1 «Blown Bridge»: "An enemy stack moving to any one Location may not end their
    movement there, and must instead move back to the previous Location one space before
    its intended destination": a Liberal stack moving from Durango to Bergara, one
    step, stays in Durango."""
    p, s, rng = fresh_state()
    dur, berg = loc("durango"), loc("bergara")
    s[L.S_OWNER + berg] = L.CARLISTS
    put(s, blocks("Navarra battalion")[:1], berg)
    movers = np.array(blocks("Guardia Real battalion")[:3], dtype=np.int64)
    put(s, movers, dur)
    bridge = cards("carlists", special="blown_bridge")[0]
    give(s, [bridge])
    dest_mode = np.empty(L.MAX_LOC, dtype=np.int64)
    dest_fm = np.empty(L.MAX_LOC, dtype=np.int64)
    parents = np.empty((movement.MODES, L.MAX_LOC), dtype=np.int64)
    movement.destinations(p, COMP.loc, COMP.adj, COMP.blk, s, L.LIBERALS, dur, movers, 3,
                          False, dest_mode, dest_fm, parents)
    end = movement.walk_path(p, COMP.loc, COMP.blk, COMP.card, s, rng, POL, L.LIBERALS, dur,
                             berg, parents[dest_mode[berg]], movers, 3, no_log())
    assert end == dur and s[L.S_C_WHERE + bridge] == L.CW_REMOVED
    assert all(s[L.S_B_LOC + b] == dur and s[L.S_B_MOVED + b] == 1 for b in movers)


# -- 12.1 Snow-covered Fields after Cavalry Charge -----------------------------------------
def test_snow_covered_fields_may_follow_a_cavalry_charge():
    """12.1 «Snow-covered Fields»: "If «Cavalry Charge» is played before, this card
    allows the deployment of a block with a Special Attack. If «Snow-covered Fields» is
    played, «Cavalry Charge» may not be played." Played after the charge, the Liberals
    need 9 Impact per Carlist block."""
    p, s, rng = fresh_state()
    where = loc("los_arcos")
    carl = blocks("Navarra battalion")[:2]
    libs = blocks("Guardia Real cavalry")[:1]
    put(s, carl + libs, where)
    charge = cards("liberals", special="cavalry_charge")[0]
    snow = cards("carlists", special="snow_covered_fields")[0]
    militia = cards("liberals", "militia", bugle=0)[0]
    give(s, [charge, snow, militia])
    bt = _start(s, "los_arcos", L.LIBERALS)
    opts = _options(p, s, bt, L.LIBERALS, libs)
    k = [i for i, o in enumerate(opts) if o[L.OP_CARD] == charge][0]
    combat.apply_option(p, COMP.loc, COMP.blk, COMP.card, s, bt, L.LIBERALS, opts, k, no_log())
    assert bt[L.BT_CAV_CHARGE] == 1
    opts = _options(p, s, bt, L.CARLISTS, carl)
    k = [i for i, o in enumerate(opts) if o[L.OP_CARD] == snow][0]
    combat.apply_option(p, COMP.loc, COMP.blk, COMP.card, s, bt, L.CARLISTS, opts, k, no_log())
    assert combat.kill_rate(p, COMP.loc, bt, L.CARLISTS) == 9
    opts = _options(p, s, bt, L.LIBERALS, libs)  # the charge still stands
    assert _gain(opts, L.OPT_CARD, militia, libs[0]) == COMP.blk[libs[0], L.BK_DIAMONDS] + 2


# -- 8.4.5 Double cards --------------------------------------------------------------------
def test_a_double_card_deploying_a_leader_deploys_no_second_block():
    """8.4.5: "Players using a Double Card to deploy blocks that can be deployed by any
    card (Leaders, Guerrillas, Requetés, Hussars of the Princess, Carabineers, and
    Defectors) may not deploy a second block." Eraso with the Navarra Double card comes
    alone; two Navarra battalions may come together."""
    p, s, rng = fresh_state()
    eraso = blocks("Eraso")[0]
    bats = blocks("Navarra battalion")[:2]
    put(s, [eraso] + bats, loc("los_arcos"))
    double = cards("carlists", "navarra", double=True)[0]
    give(s, [double])
    bt = _start(s, "los_arcos", L.CARLISTS)
    bt[L.BT_CARD_DEPLOYED + L.CARLISTS] = 1  # the Leader is no longer free
    opts = _options(p, s, bt, L.CARLISTS, [eraso] + bats)
    pairs = {(int(o[L.OP_B1]), int(o[L.OP_B2])) for o in opts if o[L.OP_CARD] == double}
    assert (eraso, -1) in pairs and not any(b1 == eraso and b2 >= 0 for b1, b2 in pairs)
    assert any(b1 in bats and b2 in bats for b1, b2 in pairs)


# -- 2.1 Don Carlos ------------------------------------------------------------------------
def test_don_carlos_overrun_is_no_sudden_victory():
    """2.1: "The Liberals win instantly if Don Carlos is captured in combat (the block
    that represents him is eliminated in a Battle or Siege)". An Overrun (7.6) is no
    battle: Don Carlos is lost, the game goes on (the reading ``don_carlos_overrun`` =
    "victory" ends it); lost in a battle, the game ends."""
    viana = loc("viana")
    dc = blocks("Don Carlos")[0]
    for reading, done in (("no_victory", 0), ("victory", 1)):
        p, s, rng = fresh_state(Rules(don_carlos_overrun=reading))
        put(s, [dc], viana)
        put(s, blocks("Regular Army battalion")[:4], viana)
        movement.overrun(p, COMP.blk, s, viana, L.LIBERALS, no_log())
        assert s[L.S_B_WHERE + dc] == L.W_DEAD and s[L.S_DONE] == done
    p, s, rng = fresh_state()
    put(s, [dc], viana)
    put(s, blocks("Regular Army battalion")[:4], viana)
    army = np.array([dc], dtype=np.int64)
    bt = _start(s, "viana", L.LIBERALS)
    combat.take_losses(COMP.blk, s, bt, rng, POL, L.CARLISTS, army, 1, 1, no_log())
    assert s[L.S_DONE] == 1 and s[L.S_REASON] == L.END_DON_CARLOS


# -- 12.1 Siege Mortar, Lancer Charge; 12.2 Cavalry Pursuit: the quiet events -------------
def test_siege_mortar_counts_for_a_siege_and_its_reading_for_capitals():
    """12.1 «Siege Mortar»: "If sieging a city and at least one Artillery Block is
    deployed, play this card to add 4 points of Impact"; 8.9.3: "The attacker may never
    initiate a siege if they are not able to accrue the minimum points of Impact to
    eliminate at least 1 defending block". Field Artillery on a bugle card gives 3 of
    the 7 Estella needs: with the Mortar the siege can be laid. Vitoria (a Capital, 8
    per block): 3 + a Navarra battalion's 2 is short, the Mortar makes it only with the
    reading ``siege_mortar`` = "capitals_too"."""
    field = blocks("Field artillery", "carlists")[0]
    bugle = cards("carlists", "navarra", bugle=1)[0]
    plain = cards("carlists", "navarra", bugle=0)[0]
    mortar = cards("carlists", special="siege_mortar")[0]
    bat = [b for b in blocks("Navarra battalion") if COMP.blk[b, L.BK_DIAMONDS] == 2][0]
    for reading, where, army, hand, with_mortar in (
            ("cities", "estella", [field], [bugle], True),
            ("cities", "vitoria", [field, bat], [bugle, plain], False),
            ("capitals_too", "vitoria", [field, bat], [bugle, plain], True)):
        p = PARAMETERS.build(Rules(siege_mortar=reading))
        for held in (False, True):
            _, s, rng = fresh_state()
            s[L.S_OWNER + loc(where)] = L.LIBERALS
            put(s, blocks("Militia battalion")[:1], loc(where))
            put(s, army, loc(where))
            give(s, hand + ([mortar] if held else []))
            possible = combat.siege_possible(p, COMP.loc, COMP.blk, COMP.card, s, loc(where),
                                             L.CARLISTS)
            assert possible == (held and with_mortar)


def test_greedy_deploys_a_lancer_while_it_holds_lancer_charge():
    """12.1 «Lancer Charge»: "one enemy block may be eliminated with 6 points of Impact
    if this card is played and at least one Lancer Cavalry Block is deployed". With a
    Navarra card, greedy deploys the 3-diamond Navarra battalion; holding «Lancer
    Charge», the 2-diamond Navarra lancers (then the card may be played)."""
    lancer = blocks("Navarra lancers")[0]
    bat = [b for b in blocks("Navarra battalion") if COMP.blk[b, L.BK_DIAMONDS] == 3][0]
    plain = cards("carlists", "navarra", bugle=0)[0]
    charge = cards("carlists", special="lancer_charge")[0]
    for held, want in ((False, bat), (True, lancer)):
        p, s, rng = fresh_state()
        put(s, [lancer, bat], loc("los_arcos"))
        put(s, blocks("Militia battalion")[:2], loc("los_arcos"))
        give(s, [plain] + ([charge] if held else []))
        bt = _start(s, "los_arcos", L.CARLISTS)
        opts = _options(p, s, bt, L.CARLISTS, [lancer, bat])
        k = policies.choose_deployment(POL[0], p, COMP.loc, COMP.blk, COMP.card, s,
                                       bt, rng, L.CARLISTS, opts, len(opts))
        assert opts[k, L.OP_B1] == want


# -- the deviations a later review listed (issue 42) ---------------------------------------
def test_the_headquarters_deploys_in_a_siege_for_the_besieger():
    """11.1: the Headquarters is used "In combat to deploy a block belonging to any
    friendly Faction (including those with Special Attacks, see 8.4) ... It also adds 2
    points of Impact", and 8.1: "Combat will be either a battle or a siege". The Carlists
    besieging Tudela may deploy a Navarra battalion with it (2 + 2), and with the
    Requetés and a Navarra card it brings them to the 8 Impact a kill needs (8.9.3 C:
    "The attacker may never initiate a siege if they are not able to accrue the minimum
    points of Impact"); the besieged, who "may only play cards with Special Attacks to
    deploy artillery" (8.9.3), may not."""
    p, s, rng = fresh_state()
    city = loc("tudela")
    nav = blocks("Navarra battalion")[:1] + blocks("Requetés")
    art = [b for b in blocks("Field artillery") if COMP.blk[b, L.BK_SIDE] == L.LIBERALS][:1]
    put(s, nav, city)
    put(s, art, city)
    s[L.S_OWNER + city] = L.LIBERALS
    hq_c = cards("carlists", special="headquarters")[0]
    hq_l = cards("liberals", special="headquarters")[0]
    give(s, [hq_c, hq_l] + cards("carlists", "navarra", bugle=False)[:1])
    bt = _start(s, "tudela", L.CARLISTS, siege=1)
    assert _gain(_options(p, s, bt, L.CARLISTS, nav), L.OPT_HQ, hq_c, nav[0]) == 4
    assert _gain(_options(p, s, bt, L.LIBERALS, art), L.OPT_HQ, hq_l, art[0]) is None
    assert combat.siege_possible(p, COMP.loc, COMP.blk, COMP.card, s, city, L.CARLISTS)
    s[L.S_C_WHERE + hq_c] = L.CW_DRAW
    assert not combat.siege_possible(p, COMP.loc, COMP.blk, COMP.card, s, city, L.CARLISTS)


def test_forces_already_committed_help_overrun():
    """7.6.2: "Any forces already committed to fighting in a particular Location also
    offer their strength in Overrunning an enemy force": 3 Liberal blocks arriving at
    Hernani, where a Liberal block already stands with a Navarra battalion, are 4 to 1
    and Overrun it (7.6.1: "at least 4 times more blocks"); on the way they are not
    stopped there (7.3.2). Without the block already there, 3 to 1 is not enough."""
    p, s, rng = fresh_state()
    her = loc("hernani")
    put(s, blocks("Navarra battalion")[:1], her)
    counts = movement.army_counts(COMP.loc, COMP.blk, s)
    stops = np.zeros(COMP.loc.shape[0], dtype=np.int64)
    assert not movement.overrunnable(p, COMP.loc, COMP.blk, s, her, L.LIBERALS, 3)
    movement.stops_at(p, COMP.loc, s, counts, L.LIBERALS, 3, 6, stops)
    assert stops[her] == 1
    put(s, blocks("Militia battalion")[:1], her)
    counts = movement.army_counts(COMP.loc, COMP.blk, s)
    assert movement.overrunnable(p, COMP.loc, COMP.blk, s, her, L.LIBERALS, 3)
    movement.stops_at(p, COMP.loc, s, counts, L.LIBERALS, 3, 6, stops)
    assert stops[her] == 0


def test_guerrillas_and_levies_may_enter_where_enemy_blocks_stand():
    """12.1 «Guerrillas»: "deploy the 3 Guerrilla Blocks in any non-City/Capital Location
    (max. 2 per Location)"; «Forced Levies»: "place them in 4 different Locations (max. 1
    Block per Location) that are not currently under siege by the Liberal player". Enemy
    blocks do not forbid a Location: greedy sends 2 Guerrillas to Liberal Bergara, where
    a Carlist battalion faces a Liberal one, and a levy to Tudela, which Carlists besiege
    (before, both were refused). A block placed alone is never sent into enemy blocks."""
    p, s, rng = fresh_state()
    s[L.S_OWNER:L.S_OWNER + COMP.loc.shape[0]] = L.CARLISTS
    berg, tud = loc("bergara"), loc("tudela")
    s[L.S_OWNER + berg] = L.LIBERALS
    put(s, blocks("Navarra battalion")[:1], berg)
    put(s, blocks("Militia battalion")[:1], berg)
    assert movement.place_guerrillas(p, COMP.loc, COMP.blk, s, rng, POL, L.CARLISTS)
    guerrillas = blocks("Guerrillas")
    assert sum(s[L.S_B_LOC + b] == berg for b in guerrillas) == 2
    s[L.S_OWNER + tud] = L.LIBERALS
    s[L.S_BESIEGED + tud] = 1
    put(s, blocks("Militia battalion")[1:2], tud)
    put(s, blocks("Navarra battalion")[1:2], tud)
    put(s, blocks("Militia battalion")[2:3], loc("viana"))  # alone: no levy goes there
    levies = blocks("Álava battalion")[:4]
    for b in levies:
        s[L.S_B_WHERE + b] = L.W_BOX
    assert movement.forced_levies(p, COMP.loc, COMP.blk, s, rng, POL, L.CARLISTS)
    where = [s[L.S_B_LOC + b] for b in levies]
    assert tud in where and loc("viana") not in where


def test_field_promotion_places_ceballos_anywhere():
    """12.2 «Field Promotion»: "You may place on any location on the board the Ceballos
    leader block. May only be played if 2 Liberal Leaders have been eliminated." With no
    Liberal block left on the map he still enters (before, he could only join a friendly
    stack, and the card stayed in hand)."""
    p, s, rng = fresh_state()
    s[L.S_LIB_LEADERS_LOST] = 2
    promotion = cards("liberals", special="field_promotion")
    give(s, promotion)
    log = new_log()
    movement.movement_events(p, COMP.loc, COMP.fac_home, COMP.blk, COMP.card, s, rng, POL,
                             L.LIBERALS, log)
    ceballos = blocks("Ceballos")[0]
    assert s[L.S_B_WHERE + ceballos] == L.W_MAP
    assert s[L.S_C_WHERE + promotion[0]] == L.CW_REMOVED


def test_liberal_total_movement_redraws_with_its_barrels():
    """7.1's table, 3 cards: "Total. Move any number of stacks and recruit 2 blocks ...
    Liberal option: Take 2 Barrels - Redraw any number of cards" (reading
    ``liberal_total_movement``: the default redraws, "barrels" does not, as before)."""
    for reading, redraws in (("barrels_and_redraw", True), ("barrels", False)):
        p, s, rng = fresh_state(Rules(liberal_total_movement=reading))
        s[L.S_OWNER + loc("vitoria")] = L.LIBERALS
        give(s, cards("liberals", "regular")[:5] + cards("liberals", "militia")[:5])
        for b in blocks("Regular Army battalion")[:4] + blocks("Militia battalion")[:4]:
            s[L.S_B_WHERE + b] = L.W_BOX
        put(s, blocks("Guardia Real battalion")[:1], loc("vitoria"))
        log = new_log()
        movement.movement_phase(p, COMP.loc, COMP.adj, COMP.fac_home, COMP.any2, COMP.blk,
                                COMP.card, s, rng, POL, L.LIBERALS,
                                movement.workspace(COMP.loc, COMP.card), log)
        assert (EV_MOVEMENT_CARDS, L.LIBERALS, 3, 3) in _rows(log)
        assert (s[L.S_ACTIONS + L.LIBERALS * L.N_ACTIONS + L.A_REDRAWS] > 0) == redraws


def test_the_liberal_20_vp_lead_wins_in_either_turn():
    """2.2: "Starting in 1836 A, the Liberals win instantly if they obtain a 20 VP lead"
    names no turn (the Carlist 1836 lead is "during their turn", the 1837 leads "during
    one of their turns"): with the default reading ``liberal_lead_1836_turn`` =
    "any_turn" a 20 VP Liberal lead in the Carlists' turn ends the game; "own_turn" waits
    for the Liberals' turn."""
    for reading, done in (("any_turn", 1), ("own_turn", 0)):
        p, s, rng = fresh_state(Rules(liberal_lead_1836_turn=reading))
        s[L.S_SEMESTER] = L.semester_index(1836, "A")
        s[L.S_OWNER:L.S_OWNER + COMP.loc.shape[0]] = L.LIBERALS
        engine.check_sudden(p, COMP.loc, s, L.CARLISTS, no_log())
        assert s[L.S_DONE] == done
        if done:
            assert s[L.S_WINNER] == L.WIN_LIBERALS and s[L.S_REASON] == L.END_VP_LEAD


def test_bayonet_charge_counts_the_infantry_deployed_after_it():
    """12.2 «Bayonet Charge»: "Each own Infantry Block deployed adds 1 point of Impact": a
    Militia battalion deployed after the card adds 1 more (reading ``bayonet_charge`` =
    "whole_battle"; "deployed_before" counts only those deployed when it is played)."""
    militia = blocks("Militia battalion")[:2]
    for reading, extra in (("whole_battle", 1), ("deployed_before", 0)):
        p, s, rng = fresh_state(Rules(bayonet_charge=reading))
        put(s, militia, loc("los_arcos"))
        bt = _start(s, "los_arcos", L.CARLISTS)
        combat.record_deploy(p, COMP.loc, COMP.blk, bt, L.LIBERALS, militia[0], False, False)
        combat.apply_event(s, bt, L.LIBERALS, L.EV_BAYONET, 1)
        gain = combat.record_deploy(p, COMP.loc, COMP.blk, bt, L.LIBERALS, militia[1], False,
                                    False)
        assert gain == COMP.blk[militia[1], L.BK_DIAMONDS] + 1 + extra  # + the Faction bonus


def test_free_leaders_after_the_enemys_card_by_reading():
    """8.2.4: "Up to 2 Leader Blocks may be deployed without the need to play a card, but
    only if during this battle no other deployment has occurred requiring the use of a
    card" and then "the defender performs their first deployment (first by deploying any
    blocks for free ...)": with the default reading ``free_leaders`` = "own_cards" the
    Liberal Rodil deploys free after a Carlist card deployment; with "any_card" he needs
    a card."""
    rodil = blocks("Rodil")
    for reading, free in (("own_cards", True), ("any_card", False)):
        p, s, rng = fresh_state(Rules(free_leaders=reading))
        put(s, rodil, loc("los_arcos"))
        bt = _start(s, "los_arcos", L.CARLISTS)
        bt[L.BT_CARD_DEPLOYED + L.CARLISTS] = 1
        kinds = {int(o[L.OP_KIND]) for o in _options(p, s, bt, L.LIBERALS, rodil)}
        assert (L.OPT_FREE_LEADER in kinds) == free
