"""The event-card interpreter: njit kernels that resolve the compiled cards of ``cards.py``.

What the turn structure calls (``CARDS`` = ``cards.load_cards().as_tuple()``, ``when`` =
``card_layout.T_*``):

- ``resolve_card(K, CARDS, p, sp, g, rng, seat, card, log)``: turn steps 2 and 3. A leader
  is activated first (the seat's previous leader is deactivated); then the card's
  ``effect`` ops run in written order, then its almanac moves the pins. Sets
  ``layout.G_CARD_PLAYED`` and ``layout.G_WAR_COUNCIL``.
- ``timed_effects(K, CARDS, p, sp, g, rng, seat, when, log)``: the timed lists of the
  seat's cards: start of its turn (clears the previous turn's AP grants and ↑/↓ first), end
  of its turn (clears them after), end of the round, start of the next round.
- ``round_effects(K, CARDS, p, sp, g, rng, n_seats, first_seat, when, log)``: the same for
  every seat, clockwise from ``first_seat`` (end of round, start of round).
- ``leader_modifier(g, CARDS, which)``: the summed ``MOD_*`` of the active leaders in the
  current stage; ``die_amount`` and ``action_ap_bonus`` apply them. ``sync_leader_flags``
  copies the rest into the flags the rules read whenever a leader comes or goes:
  ``layout.G_ALL_PRIORITY`` (card 39), ``G_PRIORITY_MASK``, ``G_BOMBARD_BONUS`` and
  ``G_BOMBARD_CAP`` (Pópoli's "+1 to Batteries (max. 5)", read by ``bourbons.bombard``).
- ``granted_ap``: the turn's "Movement (X AP)" grants (``op_grant_ap`` spends them at
  once, in the card step). ↑/↓ live in
  ``layout.G_TEMP`` and reach every rule through ``pieces.marker_value`` /
  ``disc_value``.

Choices the card text leaves to the players (which troops, which spaces, whose leader)
are the players' (``card_choices.py``, a policy module). There is one default for every
policy so far: take troops from the most crowded spaces, lose the kind the policy holds
cheaper (``W_CORONELA_WEIGHT``) but keep the Coronela above the defeat threshold,
fortify the most threatened spaces, deactivate the lightest Barcelonan leader and the
heaviest Bourbon one (Example 20: another player's first).
"""

import numpy as np

from simkit.checks import failed
from simkit.eventlog import log_event
from simkit.unmanaged import allocating, borrowing

from . import bourbons as B
from . import card_layout as CL
from . import layout as L
from .card_choices import (
    choose_leader_seat,
    choose_loss,
    choose_place,
    choose_remove,
    choose_source,
    rank_destinations,
)
from .checks import checked
from .combat import needs_combat, resolve_combat
from .events import (
    EV_ALMANAC,
    EV_AP_GRANTED,
    EV_BOURBONS,
    EV_BRANCH,
    EV_CAPTURED,
    EV_CARD,
    EV_FREED,
    EV_LEADER_OFF,
    EV_LEADER_ON,
    EV_MARKER,
    EV_MOVED,
    EV_NOT_ENOUGH,
    EV_PLACED,
    EV_RANDOM_CHOICE,
    EV_REMOVED,
    EV_RUBBLE_MARKERS,
    EV_TEMP,
    EV_TIMED,
)
from .hands import to_the_box
from .pieces import (
    can_place,
    disc_value,
    eliminate,
    in_set,
    marker_len,
    marker_value,
    piece_field,
    remove_undefended_cannons,
    tile_field,
    troops_in,
)
from .policies import spend_action_points

BIG = 1 << 20

# == entry points ===============================================================================


@borrowing
def resolve_card(K, CARDS, p, w, sp, g, rng, seat, card, log):
    """Turn steps 2-3: reveal ``card`` for ``seat``, resolve its effect, adjust the markers."""
    meta = CARDS[CL.C_META]
    kind = meta[card, CL.M_KIND]
    log_event(log, EV_CARD, seat, card, kind)
    g[L.G_FACE_DOWN + seat] = 0  # revealed: now on the table
    g[L.G_CARD_PLAYED] = card
    g[L.G_WAR_COUNCIL] = meta[card, CL.M_WAR_COUNCIL]
    g[L.G_ROUND_CARD + seat] = card
    g[L.G_CARDS_RESOLVED] += 1
    if kind == CL.KIND_EVENT:
        if has_timing(meta, card, CL.T_START_OF_TURN):
            g[L.G_PENDING_TURN + seat] = card
        if has_timing(meta, card, CL.T_NEXT_ROUND_START):
            g[L.G_PENDING_ROUND + seat] = card
    else:
        activate_leader(CARDS, g, seat, card, log)
    run_list(K, CARDS, p, w, sp, g, rng, np.int64(seat), np.int64(card), CL.T_PLAY, log)
    if not failed(log):
        apply_almanac(K, CARDS, g, card, log)


@borrowing
def timed_effects(K, CARDS, p, w, sp, g, rng, seat, when, log):
    """The ``when`` list (T_START_OF_TURN ... T_NEXT_ROUND_START) of the seat's event card
    waiting for it, then of the seat's active leader."""
    meta = CARDS[CL.C_META]
    if when == CL.T_START_OF_TURN:
        clear_turn(g)
        event = g[L.G_PENDING_TURN + seat]
        g[L.G_PENDING_TURN + seat] = 0
    elif when == CL.T_NEXT_ROUND_START:
        event = g[L.G_PENDING_ROUND + seat]
        g[L.G_PENDING_ROUND + seat] = 0
    else:
        event = g[L.G_ROUND_CARD + seat]
        if event > 0 and meta[event, CL.M_KIND] != CL.KIND_EVENT:
            event = 0  # a leader's lists run below, while it is active
    seat64, when64 = np.int64(seat), np.int64(when)  # one specialization of the interpreter
    if event > 0 and has_ops(CARDS, event, when):
        run_list(K, CARDS, p, w, sp, g, rng, seat64, np.int64(event), when64, log)
        if failed(log):
            return
    leader = np.int64(g[L.G_LEADER + seat])
    if leader > 0 and has_ops(CARDS, leader, when):
        run_list(K, CARDS, p, w, sp, g, rng, seat64, leader, when64, log)
    if when == CL.T_END_OF_TURN:
        clear_turn(g)


@borrowing
def round_effects(K, CARDS, p, w, sp, g, rng, n_seats, first_seat, when, log):
    """``timed_effects`` for every seat, clockwise from ``first_seat`` (the players may
    choose the order; this is the default)."""
    for k in range(n_seats):
        timed_effects(K, CARDS, p, w, sp, g, rng, (first_seat + k) % n_seats, when, log)
        if failed(log):
            return


@borrowing
def new_round(g):
    """A round begins: no seat has played a card in it yet (an event's end-of-round list
    runs once, in the round it was played)."""
    for seat in range(L.N_SEATS):
        g[L.G_ROUND_CARD + seat] = 0


@borrowing
def clear_turn(g):
    """Forget the AP grants and ↑/↓ of the turn that ended."""
    for i in range(4):
        g[L.G_AP_GRANTED + i] = 0
    for i in range(len(CL.TEMP_NAMES)):
        g[L.G_TEMP + i] = 0


# == leaders and their modifiers ===============================================================


@borrowing
def activate_leader(CARDS, g, seat, card, log):
    """One active leader per seat: a new one sends the previous one to the box."""
    old = g[L.G_LEADER + seat]
    if old > 0:
        leave_the_table(g, seat, old)
        log_event(log, EV_LEADER_OFF, seat, old, 0)
    g[L.G_LEADER + seat] = card
    log_event(log, EV_LEADER_ON, seat, card)
    sync_leader_flags(g, CARDS)


@borrowing
def deactivate_leader(CARDS, g, seat, log):
    """A card deactivates the seat's leader: to the box (or aside, to be scored, if it was
    played this round)."""
    card = g[L.G_LEADER + seat]
    g[L.G_LEADER + seat] = 0
    leave_the_table(g, seat, card)
    g[L.G_LEADERS_DEACTIVATED] += 1
    log_event(log, EV_LEADER_OFF, seat, card, 1)
    sync_leader_flags(g, CARDS)


@borrowing
def leave_the_table(g, seat, leader):
    """A deactivated leader returns to the box, unless it was played this round: it is
    "set temporarily aside" to be scored at the end of the round (Competitive Game,
    End of Round), when the round's cards are discarded."""
    if g[L.G_ROUND_CARD + seat] != leader:
        to_the_box(g, 1)


@borrowing
def sync_leader_flags(g, CARDS):
    """Copy what the active leaders change into the flags the rules read (action costs,
    bombardments). Leaders change only through this module; the engine also calls this
    when a stage begins, since modifiers may hold in some stages only."""
    g[L.G_ALL_PRIORITY] = 1 if leader_modifier(g, CARDS, CL.MOD_ALL_PRIORITY) > 0 else 0
    mask = 0
    for group in range(4):
        if leader_modifier(g, CARDS, CL.MOD_PRIORITY + group) > 0:
            mask |= 1 << group
    g[L.G_PRIORITY_MASK] = mask
    g[L.G_BOMBARD_BONUS] = leader_modifier(g, CARDS, CL.MOD_BOMBARD_SPACES)
    g[L.G_BOMBARD_CAP] = modifier_cap(g, CARDS, CL.MOD_BOMBARD_SPACES)


@borrowing
def leader_modifier(g, CARDS, which):
    """The sum of the active leaders' ``which`` (MOD_*) modifiers in the current stage."""
    return modifier_total_and_cap(g, CARDS, which)[0]


@borrowing
def modifier_cap(g, CARDS, which):
    """The lowest cap (``max``) among the active ``which`` modifiers, 0 if none."""
    return modifier_total_and_cap(g, CARDS, which)[1]


@borrowing
def modifier_total_and_cap(g, CARDS, which):
    """Over the active leaders' ``which`` modifiers holding in the current stage: the sum
    of their values and the lowest of their caps (0 if none has one)."""
    ops, starts = CARDS[CL.C_OPS], CARDS[CL.C_STARTS]
    stage_bit = 1 << g[L.G_STAGE]
    total, cap = 0, 0
    for seat in range(L.N_SEATS):
        card = g[L.G_LEADER + seat]
        if card <= 0:
            continue
        i = card * CL.N_TIMINGS + CL.T_MODIFIERS
        for k in range(starts[i], starts[i + 1]):
            if ops[k, CL.O_CODE] != which or not ops[k, CL.O_C] & stage_bit:
                continue
            total += ops[k, CL.O_A]
            if ops[k, CL.O_B] > 0:
                cap = ops[k, CL.O_B] if cap == 0 else min(cap, ops[k, CL.O_B])
    return total, cap


@borrowing
def die_amount(g, CARDS, action, amount):
    """A Bourbon action die's result after the leaders' modifiers (never below 0):
    Pópoli's "-1 to Advance and Trench on the Bourbon action dice" in Stages I-II."""
    if action == L.ACT_REINFORCEMENTS:
        which = CL.MOD_REINFORCEMENTS_DIE
    elif action == L.ACT_BOMBARDMENT:
        which = CL.MOD_BOMBARD_DIE
    elif action == L.ACT_ADVANCE:
        which = CL.MOD_ADVANCE_DIE
    else:
        which = CL.MOD_TRENCH_DIE
    return max(0, amount + leader_modifier(g, CARDS, which))


@borrowing
def action_ap_bonus(g, CARDS):
    """AP the active leaders add to every Barcelonan actions step (may be negative)."""
    return leader_modifier(g, CARDS, CL.MOD_AP)


@borrowing
def group_at_priority(g, CARDS, group):
    """Leaders make this War Council group (WAR_MOVEMENT..WAR_DEFENSE) cost its priority
    cost: card 39 ("all_priority") or a ``priority_<group>`` modifier."""
    return (leader_modifier(g, CARDS, CL.MOD_ALL_PRIORITY) > 0
            or leader_modifier(g, CARDS, CL.MOD_PRIORITY + group) > 0)


@borrowing
def granted_ap(g, group):
    """AP a card granted this turn for ``group`` (WAR_MOVEMENT..WAR_DEFENSE)."""
    return g[L.G_AP_GRANTED + group]


# == the interpreter ===========================================================================


@borrowing
def has_timing(meta, card, timing):
    return (meta[card, CL.M_TIMED] >> timing) & 1 == 1


@borrowing
def has_ops(CARDS, card, timing):
    """The card has a ``timing`` list (most leaders have none for most timings: the
    engine asks before paying for a call of the interpreter)."""
    starts = CARDS[CL.C_STARTS]
    i = card * CL.N_TIMINGS + timing
    return starts[i] < starts[i + 1]


@borrowing
def run_list(K, CARDS, p, w, sp, g, rng, seat, card, timing, log):
    starts = CARDS[CL.C_STARTS]
    i = card * CL.N_TIMINGS + timing
    pc, end = np.int64(starts[i]), np.int64(starts[i + 1])
    if timing != CL.T_PLAY and pc < end:
        log_event(log, EV_TIMED, seat, card, timing)
    while pc < end:
        pc = run_op(K, CARDS, p, w, sp, g, rng, seat, card, pc, log)
        g[L.G_OPS_RUN] += 1
        if checked(K, CARDS, p, sp, g, log, L.STEP_CARD_ACTION):
            return


@borrowing
def run_op(K, CARDS, p, w, sp, g, rng, seat, card, pc, log):
    """Execute the op at ``pc``; returns the next pc (jumps only go forward)."""
    op = CARDS[CL.C_OPS][pc]
    # int64 arguments: the Bourbon rules are then shared with the engine's specializations
    code, a, b, c, d = (np.int64(op[CL.O_CODE]), np.int64(op[CL.O_A]), np.int64(op[CL.O_B]),
                        np.int64(op[CL.O_C]), np.int64(op[CL.O_D]))
    flag = g[L.G_FLAG_TURN] == 1
    if code == CL.OP_ADVANCE:
        B.advance_bourbons(K, p, w, sp, g, rng, a, flag, log)
    elif code == CL.OP_BOMBARD:
        B.bombard(K, p, w, sp, g, rng, a, log)
    elif code == CL.OP_TRENCH:
        op_trench(K, p, w, sp, g, rng, a, flag, log)
    elif code == CL.OP_DISC:
        op_disc(K, p, w, sp, g, rng, a, b, c, flag, log)
    elif code == CL.OP_MARKER:
        op_marker(K, g, a, b, c, log)
    elif code == CL.OP_TEMP:
        g[L.G_TEMP + a] += b
        log_event(log, EV_TEMP, a, b)
    elif code == CL.OP_MOVE_TROOPS:
        return op_move_troops(K, CARDS, p, w, sp, g, op, pc, flag, log)
    elif code == CL.OP_PLACE:
        op_place(K, CARDS, p, w, sp, g, rng, a, b, c, d, log)
    elif code == CL.OP_REMOVE:
        op_remove(K, CARDS, sp, g, a, b, c, d, log)
    elif code == CL.OP_CAPTURE:
        op_capture(K, CARDS, p, w, sp, g, a, b, c, log)
    elif code == CL.OP_FREE:
        op_free(K, CARDS, p, w, sp, g, a, b, flag, log)
    elif code == CL.OP_ELIMINATE:
        op_eliminate(K, CARDS, p, w, sp, g, a, b, c, log)
    elif code == CL.OP_BOURBONS:
        op_bourbons(K, CARDS, p, w, sp, g, a, b, c, flag, log)
    elif code == CL.OP_EXPEDITION_COMBAT:
        op_expedition_combat(K, p, w, sp, g, flag, log)
    elif code == CL.OP_HEAL:
        B.heal(K, p, w, sp, g, flag, log)
    elif code == CL.OP_MINE_EXPLODES:
        if p[L.P_FULL]:  # the first game ignores the mine (rulebook, Reinforcements)
            B.mine_explodes(K, p, w, sp, g, rng, log)
    elif code == CL.OP_CHANCE_HITS:
        B.hit_spaces(K, p, w, sp, g, rng, a, b, log)
    elif code == CL.OP_GRANT_AP:
        op_grant_ap(K, CARDS, p, w, sp, g, rng, a, b, log)
    elif code == CL.OP_RANDOM_CHOICE:
        g[L.G_RANDOM_CHOICE] = 1
        log_event(log, EV_RANDOM_CHOICE)
    elif code == CL.OP_DEACTIVATE:
        op_deactivate(CARDS, g, seat, a, b, log)
    elif code == CL.OP_RUBBLE_ON_MARKER:
        op_rubble_on_marker(g, a, log)
    elif code == CL.OP_IF:
        if not condition(K, CARDS, sp, g, a, b, c, d, np.int64(op[CL.O_E])):
            log_event(log, EV_BRANCH, card, 1)
            return np.int64(op[CL.O_F])
        log_event(log, EV_BRANCH, card, 0)
    elif code == CL.OP_JUMP:
        return a
    return pc + 1


# == one helper per opcode ======================================================================


@borrowing
def op_trench(K, p, w, sp, g, rng, n, flag, log):
    if n > 0:
        B.trench_forward(K, p, w, sp, g, rng, n, flag, log)
    else:
        B.trench_back(K, p, w, sp, g, -n, flag, log)


@borrowing
def op_disc(K, p, w, sp, g, rng, disc, steps, mode, flag, log):
    """Reinforcements/Batteries/Mine +/-X; the reinforcements disc resolves its icon."""
    if mode == CL.SET_MIN:
        B.set_disc(K, g, disc, 0, log)  # set_disc keeps the batteries at their minimum
    elif mode == CL.SET_MAX:
        B.set_disc(K, g, disc, K[L.K_TRACK].shape[1] - 1, log)
    elif disc == L.DISC_REINFORCEMENTS:
        B.move_reinforcements_disc(K, p, w, sp, g, rng, steps, flag, log)
    elif disc == L.DISC_BATTERIES:
        B.move_batteries(K, g, steps, log)
    else:
        B.move_mine(K, g, steps, log)


@borrowing
def op_marker(K, g, marker, steps, mode, log):
    """Marker +/-X (clockwise = higher), clamped to the dial; or to its min / max."""
    top = marker_len(K, marker) - 1
    old = g[L.G_MARKER + marker]
    if mode == CL.SET_MIN:
        new = 0
    elif mode == CL.SET_MAX:
        new = top
    else:
        new = max(0, min(top, old + steps))
    g[L.G_MARKER + marker] = new
    log_event(log, EV_MARKER, marker, old, new)


@borrowing
def apply_almanac(K, CARDS, g, card, log):
    """Step 3, "Adjust markers": + clockwise, - counter-clockwise, stopping at the ends."""
    meta = CARDS[CL.C_META]
    for m in range(L.N_MARKERS):
        steps = meta[card, CL.M_ALMANAC + m]
        if steps != 0:
            old = g[L.G_MARKER + m]
            op_marker(K, g, m, steps, CL.SET_RELATIVE, log)
            log_event(log, EV_ALMANAC, m, old, g[L.G_MARKER + m])


@borrowing
def movable(sp, src, dst, piece):
    """Pieces of ``piece`` in ``src`` spaces that are not also destinations."""
    total = 0
    for k in range(1, src[0] + 1):
        s = src[k]
        if in_set(dst, s):
            continue
        if piece == CL.PIECE_TROOP:
            total += troops_in(sp, s)
        else:
            total += sp[s, piece_field(piece)]
    return total


@borrowing
def fights_on_arrival(K, space):
    """Troops placed by a card fight Bourbons at once, except at the Expedition (a card
    says when) and in the boxes."""
    kind = K[L.K_INFO][space, L.S_KIND]
    return kind != L.KIND_EXPEDITION and kind != L.KIND_BOX


@allocating
def op_move_troops(K, CARDS, p, w, sp, g, op, pc, flag, log):
    """Example 1 (all or the else branch) and Example 2 (as many as possible)."""
    sets = CARDS[CL.C_SETS]
    src, dst = sets[op[CL.O_A]], sets[op[CL.O_B]]
    piece, n, each, partial = (np.int64(op[CL.O_C]), np.int64(op[CL.O_D]),
                               np.int64(op[CL.O_E]), np.int64(op[CL.O_F]))
    otherwise = np.int64(op[CL.O_G])
    n_dst = np.int64(dst[0])  # int64: int16 products overflow (NUMBA_DISABLE_JIT)
    per_space = each if each > 0 else BIG
    want = n if n > 0 else each * n_dst
    want = min(want, per_space * n_dst)
    have = movable(sp, src, dst, piece)
    if have < want and not partial:
        log_event(log, EV_NOT_ENOUGH, want, have)
        return otherwise if otherwise >= 0 else pc + 1
    order = rank_destinations(K, sp, dst)
    received = np.zeros(dst[0], dtype=np.int64)
    target = 0
    leaving = not in_barcelona_set(K, dst)
    for _ in range(min(want, have)):
        while received[target] >= per_space:
            target += 1
        space = dst[1 + order[target]]
        source, field = choose_source(K, p, sp, src, dst, piece, leaving)
        sp[source, field] -= 1
        sp[space, field] += 1
        received[target] += 1
        log_event(log, EV_MOVED, source, space, field)
    for k in range(1, dst[0] + 1):
        if fights_on_arrival(K, dst[k]) and needs_combat(sp, dst[k]):
            resolve_combat(K, p, w, sp, g, dst[k], flag, log)
        elif sp[dst[k], L.SP_BOURBON] > 0:
            remove_undefended_cannons(K, sp, dst[k])  # cannons alone with Bourbons are lost
    return pc + 1  # with an else block, pc + 1 is the JUMP over it


@borrowing
def in_barcelona_set(K, row):
    for k in range(1, row[0] + 1):
        if K[L.K_INFO][row[k], L.S_BARCELONA] != 1:
            return False
    return True


@borrowing
def place_one(K, sp, g, space, piece, log):
    if piece == CL.PIECE_RUBBLE:
        B.absorb_hit(K, sp, g, space, -1, log)  # none -> rubble -> ruined -> nothing
        return
    if piece == CL.PIECE_RUINED:
        if sp[space, L.SP_RUBBLE] == L.RUBBLE_NONE:
            g[L.G_RUBBLE_SUPPLY] -= 1
        sp[space, L.SP_RUBBLE] = L.RUINED
        log_event(log, EV_PLACED, space, piece, L.RUINED)
        return
    field = tile_field(piece)
    sp[space, field] += 1
    log_event(log, EV_PLACED, space, piece, sp[space, field])


@borrowing
def op_place(K, CARDS, p, w, sp, g, rng, piece, set_id, n, mode, log):
    """Place the tiles; organ-guns placed where Bourbon troop tiles stand fight them once
    the action is resolved: organ-guns "trigger a combat there (even if there are no
    Barcelonan troops)" (The Organ-Guns), and "after ... a card text action" the combat
    "must be resolved" (Combat)."""
    place_tiles(K, CARDS, p, sp, g, rng, piece, set_id, n, mode, log)
    if piece == CL.PIECE_ORGAN_GUN:
        organ_gun_combats(K, p, w, sp, g, log)


@borrowing
def organ_gun_combats(K, p, w, sp, g, log):
    """A combat in every space where organ-guns and Bourbon troop tiles meet (not at the
    Military Deputy's Expedition, whose combats a card names)."""
    flag = g[L.G_FLAG_TURN] == 1
    for space in range(sp.shape[0]):
        if (sp[space, L.SP_ORGAN_GUNS] > 0 and sp[space, L.SP_BOURBON] > 0
                and fights_on_arrival(K, space)):
            resolve_combat(K, p, w, sp, g, space, flag, log)


@borrowing
def place_tiles(K, CARDS, p, sp, g, rng, piece, set_id, n, mode, log):
    """n tiles on the spaces the players choose, n on each space, or one on each of the
    first n spaces of a chance card's row."""
    if mode == CL.WHERE_CHANCE:
        chance = B.draw_chance(g, rng)
        targets = K[L.K_CHANCE_BOMBARD][chance, K[L.K_STAGE_ROW][g[L.G_STAGE]]]
        for k in range(min(n, targets.shape[0])):
            if targets[k] >= 0 and can_place(K, CARDS, sp, g, targets[k], piece):
                place_one(K, sp, g, targets[k], piece, log)
        return
    row = CARDS[CL.C_SETS][set_id]
    if mode == CL.WHERE_EACH:
        for k in range(1, row[0] + 1):
            for _ in range(n):
                if can_place(K, CARDS, sp, g, row[k], piece):
                    place_one(K, sp, g, row[k], piece, log)
        return
    for _ in range(n):
        space = choose_place(K, CARDS, p, sp, g, row, piece)
        if space < 0:
            return
        place_one(K, sp, g, space, piece, log)


@borrowing
def remove_one(K, sp, g, space, piece, n, log):
    """Remove up to ``n`` of ``piece`` (value points for Bourbons); returns how many."""
    if piece == CL.PIECE_RUBBLE:
        if sp[space, L.SP_RUBBLE] == L.RUBBLE_NONE:
            return 0
        sp[space, L.SP_RUBBLE] = L.RUBBLE_NONE
        g[L.G_RUBBLE_SUPPLY] += 1
        log_event(log, EV_REMOVED, space, piece, 1)
        return 1
    field = tile_field(piece)
    taken = min(n, sp[space, field])
    if taken <= 0:
        return 0
    sp[space, field] -= taken
    if piece == CL.PIECE_BATTERY:  # a battery tile removed: the batteries disc goes back
        B.move_batteries(K, g, -taken, log)
    log_event(log, EV_REMOVED, space, piece, taken)
    return taken


@borrowing
def op_remove(K, CARDS, sp, g, piece, set_id, n, mode, log):
    row = CARDS[CL.C_SETS][set_id]
    if mode == CL.WHERE_EACH:
        for k in range(1, row[0] + 1):
            remove_one(K, sp, g, row[k], piece, n, log)  # rubble: a space holds one tile
        return
    left = n
    while left > 0:
        space = choose_remove(K, sp, row, piece)
        if space < 0:
            return
        left -= remove_one(K, sp, g, space, piece, 1 if piece == CL.PIECE_RUBBLE else left,
                           log)


@borrowing
def op_capture(K, CARDS, p, w, sp, g, set_id, piece, n, log):
    """Captured Barcelonan troops go to the CAPTURED box (freed by wins at camps)."""
    row = CARDS[CL.C_SETS][set_id]
    captured = K[L.K_SPECIAL][L.SPECIAL_CAPTURED]
    for _ in range(n):
        space, field = choose_loss(K, p, w, sp, row, piece)
        if space < 0:
            return
        sp[space, field] -= 1
        sp[captured, field] += 1
        g[L.G_TROOPS_CAPTURED] += 1
        log_event(log, EV_CAPTURED, space, field)


@borrowing
def op_eliminate(K, CARDS, p, w, sp, g, set_id, piece, n, log):
    """Eliminated pieces go to WOUNDED (Barcelona) or RESERVE (outside), as in combat."""
    row = CARDS[CL.C_SETS][set_id]
    for _ in range(n):
        space, field = choose_loss(K, p, w, sp, row, piece)
        if space < 0:
            return
        eliminate(K, sp, space, field, 1)
        log_event(log, EV_REMOVED, space, CL.PIECE_CANNON if field == L.SP_CANNON
                  else CL.PIECE_TROOP, 1)


@allocating
def op_free(K, CARDS, p, w, sp, g, set_id, n, flag, log):
    """Captured troops freed onto a space (infantry first: the professionals)."""
    row = CARDS[CL.C_SETS][set_id]
    captured = K[L.K_SPECIAL][L.SPECIAL_CAPTURED]
    space = row[1 + rank_destinations(K, sp, row)[0]]
    for _ in range(n):
        field = L.SP_INFANTRY if sp[captured, L.SP_INFANTRY] > 0 else L.SP_CORONELA
        if sp[captured, field] == 0:
            break
        sp[captured, field] -= 1
        sp[space, field] += 1
        log_event(log, EV_FREED, space, field)
    if fights_on_arrival(K, space) and needs_combat(sp, space):
        resolve_combat(K, p, w, sp, g, space, flag, log)


@borrowing
def op_bourbons(K, CARDS, p, w, sp, g, set_id, value, source, flag, log):
    """Bourbon troops added to spaces; they fight at once where troops stand (the
    Expedition waits for "Combat at the Military Deputy's Expedition")."""
    if source == CL.VALUE_REINFORCEMENTS:
        value = disc_value(K, g, L.DISC_REINFORCEMENTS)
    if value <= 0:
        return
    row = CARDS[CL.C_SETS][set_id]
    for k in range(1, row[0] + 1):
        space = row[k]
        sp[space, L.SP_BOURBON] += value
        log_event(log, EV_BOURBONS, space, value)
        if fights_on_arrival(K, space) and needs_combat(sp, space):
            resolve_combat(K, p, w, sp, g, space, flag, log)


@borrowing
def op_expedition_combat(K, p, w, sp, g, flag, log):
    space = K[L.K_SPECIAL][L.SPECIAL_EXPEDITION]
    if needs_combat(sp, space):
        resolve_combat(K, p, w, sp, g, space, flag, log)


@borrowing
def op_grant_ap(K, CARDS, p, w, sp, g, rng, group, ap, log):
    """"Movement (X AP)" and the like: X AP for that group's actions, spent now, in the
    step that resolves the card ("every action must be resolved before starting the
    next one"); what is not spent is lost. ``G_AP_GRANTED`` keeps the turn's grants."""
    g[L.G_AP_GRANTED + group] += ap
    log_event(log, EV_AP_GRANTED, group, ap)
    g[L.G_AP_GROUP] = group
    g[L.G_SEAT_AP] = ap
    spend_action_points(K, CARDS, p, w, sp, g, rng, log)
    g[L.G_AP_GROUP] = -1
    g[L.G_SEAT_AP] = 0


@borrowing
def op_deactivate(CARDS, g, seat, side, whose, log):
    target = choose_leader_seat(CARDS, g, seat, side, whose)
    if target >= 0:
        deactivate_leader(CARDS, g, target, log)


@borrowing
def op_rubble_on_marker(g, n, log):
    """Rubble/ruined tiles put on (or taken from) the markers count towards defeat."""
    if n < 0:
        n = -min(-n, g[L.G_RUBBLE_ON_MARKERS])
    g[L.G_RUBBLE_ON_MARKERS] += n
    g[L.G_RUBBLE_SUPPLY] -= n
    log_event(log, EV_RUBBLE_MARKERS, n, g[L.G_RUBBLE_ON_MARKERS])


# == conditions ===============================================================================


@borrowing
def count_in(CARDS, sp, set_id, piece):
    row = CARDS[CL.C_SETS][set_id]
    total = 0
    for k in range(1, row[0] + 1):
        s = row[k]
        if piece == CL.PIECE_TROOP:
            total += troops_in(sp, s)
        elif piece == CL.PIECE_RUBBLE:
            if sp[s, L.SP_RUBBLE] != L.RUBBLE_NONE:
                total += 1
        elif piece == CL.PIECE_RUINED:
            if sp[s, L.SP_RUBBLE] == L.RUINED:
                total += 1
        elif piece == CL.PIECE_INFANTRY or piece == CL.PIECE_CORONELA or \
                piece == CL.PIECE_CANNON:
            total += sp[s, piece_field(piece)]
        else:
            total += sp[s, tile_field(piece)]
    return total


@borrowing
def completed_parallel(g):
    """The highest Parallel every trench tile has reached (0: none completed)."""
    lowest = L.N_POSITIONS
    for column in range(L.N_TRENCH):
        lowest = min(lowest, g[L.G_TRENCH + column])
    return lowest


@borrowing
def active_leaders(CARDS, g, side):
    meta = CARDS[CL.C_META]
    total = 0
    for seat in range(L.N_SEATS):
        card = g[L.G_LEADER + seat]
        if card > 0 and meta[card, CL.M_KIND] - 1 == side:
            total += 1
    return total


@borrowing
def condition(K, CARDS, sp, g, test, b, c, cmp, n):
    if test == CL.COND_COUNT:
        value = count_in(CARDS, sp, c, b)
    elif test == CL.COND_MARKER:
        value = marker_value(K, g, b)
    elif test == CL.COND_DISC:
        value = disc_value(K, g, b)
    elif test == CL.COND_RUBBLE:
        value = g[L.G_RUBBLE_ON_MARKERS]
        for s in range(sp.shape[0]):
            if sp[s, L.SP_RUBBLE] != L.RUBBLE_NONE:
                value += 1
    elif test == CL.COND_PARALLEL:
        value = completed_parallel(g)
    else:
        value = active_leaders(CARDS, g, b)
    if cmp == CL.CMP_AT_LEAST:
        return value >= n
    if cmp == CL.CMP_AT_MOST:
        return value <= n
    return value == n
