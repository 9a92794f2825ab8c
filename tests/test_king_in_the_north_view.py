"""The King in the North: what a side can see (``view``). The commanders play on it: a
decision does not change when only what the deciding side cannot see changes (the
enemy's hidden block identities, its hand), dealt again by ``view.resample``, which
keeps everything the side sees; the rules keep the knowledge as the table would
(3.1, 7.3.1, 7.3.7, 8.2.1, 8.6.1, 12.1).
"""

import numpy as np
import pytest
from test_king_in_the_north import (
    COMP,
    FULL,
    GAME,
    POL,
    POLICY_ROWS,
    P,
    battle_ws,
    blocks,
    cards,
    fresh_state,
    give,
    loc,
    put,
    rebuild_piles,
)

from simkit.eventlog import events, new_log, no_log
from simkit.games.king_in_the_north import checks, combat, engine, movement, policies, state, view
from simkit.games.king_in_the_north import layout as L
from simkit.games.king_in_the_north.events import EV_DEPLOY
from simkit.rng import game_streams

POOL = 3 * L.MAX_BLOCKS + L.MAX_CARDS


def visible(s, me):
    """What ``me`` sees of ``s``: its own pieces, the enemy's blocks it knows and where
    they are, how many enemy blocks stand in each Location, the enemy's eliminated and
    removed blocks, the sizes of its Recruitment Box, bag, hand, draw pile and discards,
    the enemy cards it knows are in the hand, and every public marker."""
    e = 1 - me
    seen = []
    counts = np.zeros((2, COMP.loc.shape[0]), dtype=int)
    for b in range(COMP.blk.shape[0]):
        where, side = s[L.S_B_WHERE + b], s[L.S_B_SIDE + b]
        if where == L.W_MAP:
            counts[side, s[L.S_B_LOC + b]] += 1
        if side == me or where in (L.W_DEAD, L.W_REMOVED, L.W_RESERVE, L.W_PENDING) \
                or (where == L.W_MAP and s[L.S_B_SEEN + b] == view.KNOWN) \
                or COMP.blk[b, L.BK_TYPE] in (L.NAVAL, L.DEFECTORS):
            seen.append((b, where, s[L.S_B_LOC + b] if where == L.W_MAP else -1))
    sizes = [sum(1 for b in range(COMP.blk.shape[0])
                 if s[L.S_B_SIDE + b] == e and s[L.S_B_WHERE + b] == w)
             for w in (L.W_BOX, L.W_BAG)]
    hand = [c for c in range(COMP.card.shape[0]) if COMP.card[c, L.CD_SIDE] == me
            or s[L.S_C_WHERE + c] in (L.CW_REMOVED, L.CW_OUT, L.CW_PLAYED)
            or (s[L.S_C_WHERE + c] == L.CW_HAND and s[L.S_C_SEEN + c])]
    cards_at = [(c, s[L.S_C_WHERE + c]) for c in hand]
    piles = [sum(1 for c in range(COMP.card.shape[0]) if COMP.card[c, L.CD_SIDE] == e
                 and s[L.S_C_WHERE + c] == w) for w in (L.CW_HAND, L.CW_DRAW, L.CW_DISCARD)]
    public = np.concatenate([s[:L.S_DRAW], s[L.S_DRAW_N:L.S_DRAW_N + 2],
                             s[L.S_OWNER:L.S_B_WHERE]])
    return seen, counts.tolist(), sizes, cards_at, piles, public.tolist()


def _irurzun():
    """Three Carlist Navarra battalions at Irurzun with 4 Navarra cards weigh an attack on
    the Liberals' 2 blocks at Salvatierra (a Fortified House), recruits they have not
    seen, with 3 cards in hand; the bag holds Regular Army and Militia battalions and the
    Hussars of the Princess."""
    p, s, rng = fresh_state()
    origin, target = loc("irurzun"), loc("salvatierra")
    s[L.S_OWNER:L.S_OWNER + COMP.loc.shape[0]] = L.CARLISTS
    s[L.S_OWNER + target] = L.LIBERALS
    stack = [b for b in blocks("Navarra battalion") if COMP.blk[b, L.BK_DIAMONDS] == 3][:3]
    put(s, stack, origin)
    put(s, blocks("Militia battalion")[:1] + blocks("Guardia Real battalion")[:1], target)
    for b in blocks("Regular Army battalion")[:6] + blocks("Hussars of the Princess") \
            + blocks("Militia battalion")[2:5]:
        s[L.S_B_WHERE + b] = L.W_BAG
    give(s, cards("carlists", "navarra")[:4] + cards("liberals", "militia")[:2]
         + cards("liberals", special="fortified_house")[:1])
    rebuild_piles(s)
    dest_mode = np.full(L.MAX_LOC, -1, dtype=np.int64)
    dest_fm = np.zeros(L.MAX_LOC, dtype=np.int64)
    dest_mode[target] = 0

    def decide(pol, st):
        return policies.choose_destination(pol[0], P, COMP.loc, COMP.blk, COMP.card, st, rng,
                                           0, origin, np.array(stack), len(stack),
                                           dest_mode, dest_fm,
                                           state.hand_size(st, COMP.card, 0))
    return s, decide


def test_a_decision_does_not_change_with_what_the_side_cannot_see():
    """The Carlist commander's choice is the same whichever blocks the Liberals' 2
    recruits at Salvatierra are and whichever cards their hand holds, dealt anew ten
    times (``view.resample``: the same 2 blocks there, the same hand size, the same
    bag); the commander with the full view (``sees_hidden``) attacks some deals and not
    others (the Hussars of the Princess and the Fortified House card, 11.2-11.3). Both
    keep 2 cards back (``reserve_cards``; with none the full view attacks every deal)."""
    s, decide = _irurzun()
    keep2 = POLICY_ROWS.build(GAME.policy_choices("greedy:reserve_cards=2"))
    full2 = POLICY_ROWS.build(GAME.policy_choices("greedy:reserve_cards=2,sees_hidden=1"))
    out = np.empty_like(s)
    pool = np.empty(POOL, dtype=np.int64)
    choices, choices2, full, full0 = set(), set(), set(), set()
    for seed in range(10):
        view.resample(COMP.blk, COMP.card, s, L.CARLISTS, game_streams(seed, 0, L.N_STREAMS),
                      0, out, pool)
        assert visible(out, L.CARLISTS) == visible(s, L.CARLISTS)
        choices.add(decide(POL, out))
        choices2.add(decide(keep2, out))
        full.add(decide(full2, out))
        full0.add(decide(FULL, out))
    assert choices == {decide(POL, s)} and choices2 == {decide(keep2, s)}
    assert len(full) == 2 and len(full0) == 1


def test_resample_keeps_what_the_side_sees_and_every_rule():
    """``view.resample`` of a real campaign's states (greedy v greedy, Semester by
    Semester): each side's view is unchanged, the blocks and cards it cannot see are
    dealt anew (the identities change), and the dealt state breaks no invariant the
    rules keep (``checks``)."""
    p = P
    s = np.zeros(L.N_STATE, dtype=np.int64)
    out = np.empty_like(s)
    pool = np.empty(POOL, dtype=np.int64)
    rng = game_streams(5, 0, L.N_STREAMS)
    ws = movement.workspace(COMP.loc, COMP.card)
    out_row = np.zeros(L.N_OUT, dtype=np.int32)
    changed = 0
    s[L.S_NEXT] = L.NEXT_SET_UP
    for year in range(4):  # the states after each of the first four Semesters
        played = s[L.S_PLAYED]
        while s[L.S_PLAYED] == played:
            engine.play_step(p, COMP.loc, COMP.adj, COMP.fac_home, COMP.any2, COMP.blk,
                             COMP.card, s, rng, POL, ws, out_row, no_log())
        for me in (L.CARLISTS, L.LIBERALS):
            view.resample(COMP.blk, COMP.card, s, me, game_streams(9, year, L.N_STREAMS), 0,
                          out, pool)
            assert visible(out, me) == visible(s, me)
            changed += not np.array_equal(out, s)
            for step in range(len(L.STEPS)):  # no invariant the state keeps is broken
                assert checks.first_broken(p, COMP.loc, COMP.blk, COMP.card, out, step)[0] \
                    == checks.first_broken(p, COMP.loc, COMP.blk, COMP.card, s, step)[0]
    assert changed == 8


def test_the_knowledge_the_rules_keep():
    """3.1 and 5: the Playbook's set-up is known, not the Decoys, Partisans and Customs
    Officers placed with it (7.3.7); 7.3.1: a stack that divides is no longer followed
    (which blocks stayed is not shown), one moving whole still is; 8.2.3: deployed blocks
    are shown; 7.3.7: "Customs Officers, when encountering a Liberal stack, may look at
    the block(s) comprising it"."""
    s = np.zeros(L.N_STATE, dtype=np.int64)
    engine.set_up(P, COMP.loc, COMP.blk, COMP.card, s, game_streams(0, 0, L.N_STREAMS))
    for b in range(COMP.blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_MAP:
            assert s[L.S_B_SEEN + b] == (not view.dummy(COMP.blk, b))
    p, s, rng = fresh_state()
    est, arcos = loc("estella"), loc("los_arcos")
    stack = blocks("Navarra battalion")[:3]
    put(s, stack, arcos)
    for b in stack:
        view.reveal(s, b)
    s[L.S_OWNER:L.S_OWNER + COMP.loc.shape[0]] = L.CARLISTS
    s[L.S_OWNER + est] = L.LIBERALS  # an empty Liberal City next door
    ws = movement.workspace(COMP.loc, COMP.card)
    assert movement.move_stack(p, COMP.loc, COMP.adj, COMP.blk, COMP.card, s, rng, POL,
                               L.CARLISTS, arcos, False, ws, no_log())
    assert all(s[L.S_B_LOC + b] == est and s[L.S_B_SEEN + b] == view.KNOWN for b in stack)
    for b in stack:
        s[L.S_B_MOVED + b] = 0
    amez = loc("amezcoas")
    s[L.S_OWNER + amez] = L.LIBERALS  # Amezcoas to take: two blocks guard Estella
    assert movement.move_stack(p, COMP.loc, COMP.adj, COMP.blk, COMP.card, s, rng, POL,
                               L.CARLISTS, est, False, ws, no_log())
    assert sorted(s[L.S_B_LOC + b] for b in stack) == sorted([est, est, amez])
    assert all(s[L.S_B_SEEN + b] == view.FORGOTTEN for b in stack)
    p, s, rng = fresh_state()
    her, tol = loc("hernani"), loc("tolosa")
    libs = blocks("Militia battalion")[:2]
    put(s, libs, her)
    put(s, blocks("Customs Officers")[:1], tol)
    s[L.S_OWNER + tol] = L.CARLISTS
    parent = np.full(L.MAX_LOC, -1, dtype=np.int64)
    parent[her] = tol
    movement.walk_path(p, COMP.loc, COMP.blk, COMP.card, s, rng, POL, L.CARLISTS, tol, her,
                       parent, np.array(blocks("Customs Officers")[:1]), 1, no_log())
    assert all(s[L.S_B_SEEN + b] == view.KNOWN for b in libs)


def test_deployed_blocks_are_shown_and_local_informants_shows_the_hand():
    """8.2.3: the deploying player "show[s] the chosen block"; 12.1 «Local Informants»:
    "the opposing player shows you their hand of cards" (the Carlists play it before
    moving); a card drawn afterwards is not seen."""
    p, s, rng = fresh_state()
    where = loc("los_arcos")
    nav = blocks("Navarra battalion")[:2]
    mil = blocks("Militia battalion")[:2]
    put(s, nav, where, came_from=loc("estella"))
    put(s, mil, where)
    give(s, cards("carlists", "navarra")[:2] + cards("liberals", "militia")[:1])
    log = new_log()
    combat.resolve_battle(p, COMP.loc, COMP.adj, COMP.blk, COMP.card, s, rng, POL, where,
                          L.CARLISTS, battle_ws(), log)
    deployed = {int(e[1]) % 1000 for e in events(log) if e[0] == EV_DEPLOY}
    assert deployed & set(nav) and deployed & set(mil)
    for b in nav + mil:
        assert s[L.S_B_SEEN + b] == (view.KNOWN if b in deployed else view.UNKNOWN)
    p, s, rng = fresh_state()
    hand = cards("liberals", "regular")[:4]
    give(s, hand + cards("carlists", special="local_informants"))
    movement.movement_events(p, COMP.loc, COMP.fac_home, COMP.blk, COMP.card, s, rng, POL,
                             L.CARLISTS, no_log())
    assert all(s[L.S_C_SEEN + c] == 1 for c in hand)
    state.draw_cards(s, COMP.card, rng, L.LIBERALS, 1)
    drawn = [c for c in range(COMP.card.shape[0]) if COMP.card[c, L.CD_SIDE] == L.LIBERALS
             and s[L.S_C_WHERE + c] == L.CW_HAND and c not in hand]
    assert len(drawn) == 1 and s[L.S_C_SEEN + drawn[0]] == 0


@pytest.mark.parametrize("me", [L.CARLISTS, L.LIBERALS])
def test_the_expectation_over_what_is_hidden(me):
    """``view.see``: with every enemy block on the map known, the expectations are over
    the Recruitment Box and the bag; the shares are shares (between 0 and 1) and a
    block's mean diamonds lie within the roster's (1-4)."""
    s = np.zeros(L.N_STATE, dtype=np.int64)
    engine.set_up(P, COMP.loc, COMP.blk, COMP.card, s, game_streams(0, 0, L.N_STREAMS))
    v = np.empty(L.N_V, dtype=np.float64)
    view.see(COMP.blk, COMP.card, s, me, np.empty(2 * L.N_FACTIONS), v)
    dummies = sum(1 for b in range(COMP.blk.shape[0]) if s[L.S_B_WHERE + b] == L.W_MAP
                  and s[L.S_B_SIDE + b] == 1 - me and view.dummy(COMP.blk, b))
    assert v[L.V_POOL] == dummies
    for k in (L.V_LEADER, L.V_FIGHTER, L.V_ART, L.V_SAME, L.V_DEPLOY, L.V_MATCH, L.V_FH,
              L.V_BATTERY):
        assert 0 <= v[k] <= 1
    assert 0 <= v[L.V_DIAMONDS] <= 4 and v[L.V_CARDS] > 0
