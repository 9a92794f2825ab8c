"""The scripted Barcelonan players: how each policy spends its action points.

``random`` buys uniformly among the actions it can afford and then uniformly among that
action's legal targets. ``greedy`` keeps the city alive by a fixed order of urgency:
fire at the Bourbon tiles that threaten Barcelona, clear rubble near the defeat
threshold, heal the wounded, reinforce threatened spaces, then improve the markers and
fortify. ``fortify`` is greedy with fortification (bastion defenses, barricades) ahead of
marker improvements.

A space's threat is the Bourbon value in the spaces whose arrows lead into it.
"""

import numpy as np

from simkit.rng import uniform_int
from simkit.unmanaged import allocating, borrowing

from . import card_layout as CL
from . import layout as L
from .barcelonans import (
    SUPPLY_DEFENSE,
    add_bastion_defense,
    available,
    barricades_left,
    bastion_defense_fits,
    can_add_barricade,
    can_add_bastion_defense,
    can_fire,
    can_remove_rubble,
    can_step,
    defense_tiles_on_board,
    fire_cannon,
    healing,
    improve_action,
    improve_marker,
    marker_at_best,
    move_cannon,
    move_one_troop_twice,
    move_troops,
    pay,
    remove_rubble,
    repair_cannon,
    send_worm,
)
from .combat import barcelonan_value
from .hands import add_to_hand, draw_event, hand_count, replace_card
from .pieces import (
    disc_value,
    fill_threats,
    is_barcelona,
    loaded_cannons,
    marker_value,
    rubble_on_board,
    sorted_order,
    troops_in,
)
from .scoring import card_vp

POLICIES = {
    "greedy": "keep the city alive: fire at threats, clear rubble, heal, reinforce, "
              "then improve markers and fortify",
    "random": "uniform over the affordable actions and their legal targets",
    "fortify": "greedy, but fortifies (bastion defenses, barricades) before improving "
               "markers",
    "lookahead": "greedy, but chooses its cards and dice orders by playing rollouts of "
                 "the rest of the game for each option (slow: the skill ceiling)",
}
assert tuple(POLICIES) == L.POLICY_NAMES
GREEDY, RANDOM, FORTIFY = L.GREEDY, L.RANDOM, L.FORTIFY
MAX_ACTIONS = 40  # a turn never has more AP than this
BAD_CARD = -3  # greedy changes a card when its worst card scores this or less


@allocating
def spend_action_points(K, CARDS, p, sp, g, rng, log):
    """The Barcelonan actions step: buy actions until the policy stops or AP run out.
    The greedy scans get their work arrays here, once per step rather than per action."""
    policy = p[L.P_POLICY]
    guns = np.empty(sp.shape[0], dtype=np.int64)
    danger = np.empty(sp.shape[0], dtype=np.int64)
    for _ in range(MAX_ACTIONS):
        if g[L.G_SEAT_AP] <= 0:
            return
        if policy == RANDOM:
            bought = random_action(K, CARDS, p, sp, g, rng, log)
        else:
            bought = greedy_action(K, CARDS, p, sp, g, rng, policy == FORTIFY, guns, danger,
                                   log)
        if not bought:
            return


# -- greedy -----------------------------------------------------------------------------------


@borrowing
def greedy_action(K, CARDS, p, sp, g, rng, fortify_first, guns, danger, log):
    if fire_at_threats(K, p, sp, g, guns, log):
        return True
    if rubble_on_board(sp, g) >= p[L.P_RUBBLE_THRESHOLD] - 3 and clear_rubble(K, p, sp, g, log):
        return True
    if heal_wounded(K, p, sp, g, log):
        return True
    if reinforce_threatened(K, p, sp, g, danger, log):
        return True
    if fortify_first and fortify(K, p, sp, g, danger, log):
        return True
    if improve_markers(K, p, sp, g, log):
        return True
    hand = 0 if p[L.P_SOLO] else g[L.G_ACTIVE]  # solo: Villarroel holds the only hand
    if worst_card_score(CARDS, g, hand) <= BAD_CARD and change_a_card(
            K, CARDS, p, g, rng, log):
        return True
    return fortify(K, p, sp, g, danger, log)


@borrowing
def fire_at_threats(K, p, sp, g, guns, log):
    """Fire the cannon whose shot removes the most Bourbon value (Barcelona first): the
    first target (in space order) of the best score that a cannon reaches, shot by the
    first such cannon."""
    if not available(K, p, g, L.A_FIRE_CANNON):
        return False
    n_guns = loaded_cannons(sp, guns)
    if n_guns == 0:
        return False
    info = K[L.K_INFO]
    best_source, best_target, best = -1, -1, 0
    for target in range(sp.shape[0]):
        value = sp[target, L.SP_BOURBON]
        if value == 0 or info[target, L.S_KIND] == L.KIND_CAMP:
            continue
        score = value * (3 if info[target, L.S_BARCELONA] == 1 else 1)
        if score <= best:
            continue
        for k in range(n_guns):
            source = guns[k]
            if can_fire(K, sp, source, target):
                best_source, best_target, best = source, target, score
                break
    if best_source < 0:
        return False
    pay(K, p, g, L.A_FIRE_CANNON, best_source, best_target, log)
    fire_cannon(K, sp, g, best_source, best_target)
    return True


@borrowing
def clear_rubble(K, p, sp, g, log):
    if not available(K, p, g, L.A_REMOVE_RUBBLE):
        return False
    for space in range(sp.shape[0]):
        if can_remove_rubble(K, sp, space):
            pay(K, p, g, L.A_REMOVE_RUBBLE, space, space, log)
            remove_rubble(sp, g, space)
            return True
    return False


@borrowing
def heal_wounded(K, p, sp, g, log):
    wounded = K[L.K_SPECIAL][L.SPECIAL_WOUNDED]
    waiting = sp[wounded, L.SP_CORONELA] + sp[wounded, L.SP_INFANTRY]
    if waiting < 2 or marker_value(K, g, L.MARKER_HOSPITAL) < 1:
        return False
    if not available(K, p, g, L.A_HEALING):
        return False
    pay(K, p, g, L.A_HEALING, 0, 0, log)
    healing(K, p, sp, g, log)
    return True


@borrowing
def reinforce_threatened(K, p, sp, g, danger, log):
    """Move one troop into the Barcelona space whose threat most exceeds its defense,
    from a neighbour that keeps at least one troop and is not threatened itself."""
    if not available(K, p, g, L.A_MOVE_TROOPS):
        return False
    flag_turn = g[L.G_FLAG_TURN] == 1
    fill_threats(K, sp, danger)
    target, worst = -1, 0
    for space in range(sp.shape[0]):
        if not is_barcelona(K, space) or sp[space, L.SP_BOURBON] > 0 or danger[space] == 0:
            continue
        gap = danger[space] - barcelonan_value(K, sp, g, space, flag_turn)
        if gap >= worst:
            target, worst = space, gap
    if target < 0:
        return False
    for source in range(sp.shape[0]):
        if (is_barcelona(K, source) and troops_in(sp, source) >= 2
                and can_step(K, sp, source, target) and danger[source] == 0):
            infantry = 1 if sp[source, L.SP_INFANTRY] > 0 else 0
            pay(K, p, g, L.A_MOVE_TROOPS, source, target, log)
            move_troops(K, p, sp, g, source, target, 1 - infantry, infantry, log)
            return True
    return reinforce_from_two_away(K, p, sp, g, danger, target, log)


@borrowing
def reinforce_from_two_away(K, p, sp, g, danger, target, log):
    """No neighbour can spare a troop: one troop makes two moves through a quiet space."""
    n = sp.shape[0]
    for middle in range(n):
        if (not can_step(K, sp, middle, target) or not is_barcelona(K, middle)
                or sp[middle, L.SP_BOURBON] > 0):
            continue
        for source in range(n):
            if (is_barcelona(K, source) and troops_in(sp, source) >= 2 and danger[source] == 0
                    and source != target and can_step(K, sp, source, middle)):
                field = L.SP_INFANTRY if sp[source, L.SP_INFANTRY] > 0 else L.SP_CORONELA
                pay(K, p, g, L.A_MOVE_TROOPS, source, target, log)
                move_one_troop_twice(K, p, sp, g, source, middle, target, field, log)
                return True
    return False


@borrowing
def improve_markers(K, p, sp, g, log):
    """Generalitat (more AP), then the Gunpowder Store, the hospitals, the Port."""
    for marker in (L.MARKER_GENERALITAT, L.MARKER_GUNPOWDER_STORE, L.MARKER_HOSPITAL,
                   L.MARKER_PORT):
        if marker_at_best(K, g, marker):
            continue  # (before improve_action, which scans the board)
        action = improve_action(K, sp, marker)
        if available(K, p, g, action):
            pay(K, p, g, action, marker, 0, log)
            improve_marker(K, g, marker)
            return True
    return False


@borrowing
def fortify(K, p, sp, g, danger, log):
    """A bastion defense on the most threatened bastion, else a barricade (full game)."""
    fill_threats(K, sp, danger)
    tiles_left = defense_tiles_on_board(sp) < SUPPLY_DEFENSE
    best, most = -1, -1
    for space in range(sp.shape[0]):
        if bastion_defense_fits(K, sp, space, tiles_left) and danger[space] > most:
            best, most = space, danger[space]
    if best >= 0 and available(K, p, g, L.A_BASTION_DEFENSE):
        pay(K, p, g, L.A_BASTION_DEFENSE, best, best, log)
        add_bastion_defense(sp, best)
        return True
    if not p[L.P_FULL] or not available(K, p, g, L.A_BARRICADE):
        return False
    if not barricades_left(sp):
        return False
    best, most = -1, 0
    for space in range(sp.shape[0]):
        if is_barcelona(K, space) and danger[space] > most:
            best, most = space, danger[space]
    if best < 0:
        return False
    pay(K, p, g, L.A_BARRICADE, best, best, log)
    sp[best, L.SP_BARRICADES] += 1
    return True


# -- random -----------------------------------------------------------------------------------


@borrowing
def random_action(K, CARDS, p, sp, g, rng, log):
    """Uniform over the affordable actions that have a legal target, then over targets."""
    order = (L.A_MOVE_TROOPS, L.A_HEALING, L.A_WORM, L.A_IMPROVE_PRESENT, L.A_MOVE_CANNON,
             L.A_FIRE_CANNON, L.A_REPAIR_CANNON, L.A_REMOVE_RUBBLE, L.A_BASTION_DEFENSE,
             L.A_BARRICADE, L.A_CHANGE_CARD)
    start = uniform_int(rng, L.ST_POLICY, len(order))
    for k in range(len(order)):
        action = order[(start + k) % len(order)]
        if action == L.A_CHANGE_CARD:
            if change_a_card(K, CARDS, p, g, rng, log):
                return True
        elif try_random(K, p, sp, g, rng, action, log):
            return True
    return False


@borrowing
def try_random(K, p, sp, g, rng, action, log):
    if action == L.A_IMPROVE_PRESENT:
        return random_improve(K, p, sp, g, rng, log)
    if not available(K, p, g, action):
        return False
    if action == L.A_HEALING:
        wounded = K[L.K_SPECIAL][L.SPECIAL_WOUNDED]
        if sp[wounded, L.SP_CORONELA] + sp[wounded, L.SP_INFANTRY] == 0:
            return False
        pay(K, p, g, action, 0, 0, log)
        healing(K, p, sp, g, log)
        return True
    if action == L.A_MOVE_TROOPS or action == L.A_MOVE_CANNON or action == L.A_FIRE_CANNON:
        chosen_a, chosen_b = random_pair(K, p, sp, g, rng, action)
    else:  # one-space actions: the space is the target
        chosen_a = chosen_b = random_space(K, p, sp, g, rng, action)
    if chosen_a < 0:
        return False
    pay(K, p, g, action, chosen_a, chosen_b, log)
    apply_target(K, p, sp, g, rng, action, chosen_a, chosen_b, log)
    return True


@borrowing
def random_pair(K, p, sp, g, rng, action):
    """A uniform legal (source, target) pair of a move or a shot, or (-1, -1): reservoir
    sampling over the legal pairs in (source, target) order, one draw per legal pair."""
    adj, distance = K[L.K_ADJ], K[L.K_FIRE_DISTANCE]
    n = sp.shape[0]
    chosen_a, chosen_b, seen = -1, -1, 0
    for a in range(n):
        if not has_source(K, sp, action, a):
            continue
        for b in range(n):
            if action != L.A_FIRE_CANNON:
                legal = legal_move(K, sp, action, a, b)
            else:  # at Bourbons in range: can_fire, asked where a side or a path leads
                legal = (sp[b, L.SP_BOURBON] > 0 and (adj[a, b] == 1 or distance[a, b] > 0)
                         and can_fire(K, sp, a, b))
            if legal:
                seen += 1
                if uniform_int(rng, L.ST_POLICY, seen) == 0:
                    chosen_a, chosen_b = a, b
    return chosen_a, chosen_b


@borrowing
def random_space(K, p, sp, g, rng, action):
    """A uniform legal space of a one-space action, or -1: reservoir sampling in space
    order, one draw per legal space. Spaces that cannot hold the action's target (no
    rubble to remove, not a bastion for a bastion defense, outside Barcelona for the
    others) are skipped before ``legal_space`` is asked."""
    info = K[L.K_INFO]
    chosen, seen = -1, 0
    for a in range(sp.shape[0]):
        if action == L.A_REMOVE_RUBBLE:
            possible = sp[a, L.SP_RUBBLE] != L.RUBBLE_NONE
        elif action == L.A_BASTION_DEFENSE:
            possible = info[a, L.S_KIND] == L.KIND_BASTION
        else:  # worm, repair a cannon, barricade
            possible = info[a, L.S_BARCELONA] == 1
        if possible and legal_space(K, p, sp, g, action, a):
            seen += 1
            if uniform_int(rng, L.ST_POLICY, seen) == 0:
                chosen = a
    return chosen


@borrowing
def has_source(K, sp, action, a):
    """Can ``a`` be the source of a two-space ``action``: troops (not in a box) to move,
    or an unfired cannon in Barcelona to move or fire? (One basic block, like
    ``legal_move``, so that numba inlines it in the scan.)"""
    troops = (troops_in(sp, a) > 0) & (K[L.K_INFO][a, L.S_KIND] != L.KIND_BOX)
    cannon = (sp[a, L.SP_CANNON] - sp[a, L.SP_CANNON_FIRED] > 0) & is_barcelona(K, a)
    return troops if action == L.A_MOVE_TROOPS else cannon


@borrowing
def legal_move(K, sp, action, a, b):
    """Is (a, b) a legal (source, target) of a move, ``a`` passing ``has_source``? Troops
    step to a space that is not a box; a cannon steps to a Barcelona space without
    Bourbons. (One basic block, so that numba inlines it in the scan.)"""
    step = can_step(K, sp, a, b)
    troops = step & (K[L.K_INFO][b, L.S_KIND] != L.KIND_BOX)
    cannon = step & is_barcelona(K, b) & (sp[b, L.SP_BOURBON] == 0)
    return troops if action == L.A_MOVE_TROOPS else cannon


@borrowing
def legal_space(K, p, sp, g, action, a):
    """Is ``a`` a legal space for a one-space action (worm, repair, rubble, bastion
    defense, barricade)?"""
    if action == L.A_WORM:
        return disc_value(K, g, L.DISC_MINE) > 0 and is_barcelona(K, a) and troops_in(sp, a) > 0
    if action == L.A_REPAIR_CANNON:
        wounded = K[L.K_SPECIAL][L.SPECIAL_WOUNDED]
        return sp[wounded, L.SP_CANNON] > 0 and is_barcelona(K, a) and troops_in(sp, a) > 0
    if action == L.A_REMOVE_RUBBLE:
        return can_remove_rubble(K, sp, a)
    if action == L.A_BASTION_DEFENSE:
        return can_add_bastion_defense(K, sp, a)
    if action == L.A_BARRICADE:
        return can_add_barricade(K, sp, a)
    return False


@borrowing
def apply_target(K, p, sp, g, rng, action, a, b, log):
    if action == L.A_MOVE_TROOPS:
        pick = uniform_int(rng, L.ST_POLICY, troops_in(sp, a))
        infantry = 1 if pick < sp[a, L.SP_INFANTRY] else 0
        onward = random_step(K, sp, rng, b)
        # the single troop's second move
        if onward >= 0 and uniform_int(rng, L.ST_POLICY, 2) == 0:
            field = L.SP_INFANTRY if infantry else L.SP_CORONELA
            move_one_troop_twice(K, p, sp, g, a, b, onward, field, log)
        else:
            move_troops(K, p, sp, g, a, b, 1 - infantry, infantry, log)
    elif action == L.A_MOVE_CANNON:
        move_cannon(sp, a, b)
    elif action == L.A_FIRE_CANNON:
        fire_cannon(K, sp, g, a, b)
    elif action == L.A_WORM:
        send_worm(K, sp, g, a, log)
    elif action == L.A_REPAIR_CANNON:
        repair_cannon(K, sp, a)
    elif action == L.A_REMOVE_RUBBLE:
        remove_rubble(sp, g, a)
    elif action == L.A_BASTION_DEFENSE:
        add_bastion_defense(sp, a)
    elif action == L.A_BARRICADE:
        sp[a, L.SP_BARRICADES] += 1


@borrowing
def random_step(K, sp, rng, space):
    """A uniform space a troop can step to from ``space`` (no box), or -1."""
    seen, chosen = 0, -1
    for other in range(sp.shape[0]):
        if can_step(K, sp, space, other) and K[L.K_INFO][other, L.S_KIND] != L.KIND_BOX:
            seen += 1
            if uniform_int(rng, L.ST_POLICY, seen) == 0:
                chosen = other
    return chosen


@borrowing
def random_improve(K, p, sp, g, rng, log):
    marker = uniform_int(rng, L.ST_POLICY, L.N_MARKERS)
    action = improve_action(K, sp, marker)
    if marker_at_best(K, g, marker) or not available(K, p, g, action):
        return False
    pay(K, p, g, action, marker, 0, log)
    improve_marker(K, g, marker)
    return True


# -- cards ----------------------------------------------------------------------------------------


@borrowing
def card_score(CARDS, card):
    """How good a card looks to the greedy players: its Almanac (the Generalitat counts
    double: it is the AP), a Barcelonan leader +3, a Bourbon leader -3."""
    meta = CARDS[CL.C_META]
    score = 2 * meta[card, CL.M_ALMANAC + L.MARKER_GENERALITAT]
    for marker in range(L.N_MARKERS):
        score += meta[card, CL.M_ALMANAC + marker]
    if meta[card, CL.M_KIND] == CL.KIND_BARCELONAN_LEADER:
        score += 3
    elif meta[card, CL.M_KIND] == CL.KIND_BOURBON_LEADER:
        score -= 3
    return score


@borrowing
def card_value(CARDS, p, g, card):
    """``card_score`` x 10, plus (competitive) the VP the card would score from the pin's
    present space times the greed weight (x10)."""
    value = 10 * card_score(CARDS, card)
    if p[L.P_COMPETITIVE]:
        value += p[L.P_GREED] * card_vp(CARDS, p, g[L.G_SENSE_FURY], card)[0]
    return value


@borrowing
def unwanted(CARDS, p, g, rng, card):
    """Solo: Villarroel cancels a Casanova card scoring below the ``resign_below`` weight
    (``random``: a fair coin)."""
    if p[L.P_POLICY] == RANDOM:
        return uniform_int(rng, L.ST_POLICY, 2) == 1
    return card_score(CARDS, card) < p[L.P_RESIGN_BELOW]


@borrowing
def chooses_dice_order(p, g, rng, stage):
    """Partial dice order: whether the players choose the order this stage (``random``:
    a fair coin; otherwise from the ``dice_choice_from_stage`` weight on)."""
    if p[L.P_POLICY] == RANDOM:
        return uniform_int(rng, L.ST_POLICY, 2) == 1
    return stage + 1 >= p[L.P_DICE_CHOICE_FROM]


@allocating
def choose_card(CARDS, p, g, rng, seat):
    """The slot of the card a seat puts face down (random when a card forces it)."""
    slots = np.empty(L.HAND_SIZE, dtype=np.int64)
    n = 0
    for slot in range(L.HAND_SIZE):
        if g[L.G_HAND + seat * L.HAND_SIZE + slot] != 0:
            slots[n] = slot
            n += 1
    if p[L.P_POLICY] == RANDOM or g[L.G_RANDOM_ROUND]:
        return slots[uniform_int(rng, L.ST_POLICY, n)]
    best, best_score = slots[0], -(1 << 30)
    for k in range(n):
        score = card_value(CARDS, p, g, g[L.G_HAND + seat * L.HAND_SIZE + slots[k]])
        if score > best_score:
            best, best_score = slots[k], score
    return best


@borrowing
def worst_slot(CARDS, g, seat):
    """The hand slot of the seat's worst card (greedy's discard), -1 for an empty hand."""
    worst, lowest = -1, 1 << 30
    for slot in range(L.HAND_SIZE):
        card = g[L.G_HAND + seat * L.HAND_SIZE + slot]
        if card and card_score(CARDS, card) < lowest:
            worst, lowest = slot, card_score(CARDS, card)
    return worst


@borrowing
def worst_card_score(CARDS, g, seat):
    slot = worst_slot(CARDS, g, seat)
    return 1 << 30 if slot < 0 else card_score(CARDS, g[L.G_HAND + seat * L.HAND_SIZE + slot])


@borrowing
def change_a_card(K, CARDS, p, g, rng, log):
    """Change 1 card (full game, not in Stage IV): every player discards one card from
    hand and draws one from the stage's pile (greedy discards its worst, random any)."""
    if (g[L.G_STAGE] >= L.STAGE_IV or not available(K, p, g, L.A_CHANGE_CARD)
            or worst_slot(CARDS, g, g[L.G_ACTIVE]) < 0):
        return False
    pay(K, p, g, L.A_CHANGE_CARD, 0, 0, log)
    for seat in range(g[L.G_SEATS]):
        if p[L.P_SOLO] and seat == 1:  # Casanova: one more card shuffled into his pile
            if hand_count(g, seat) < L.HAND_SIZE:
                add_to_hand(g, seat, draw_event(g, g[L.G_STAGE]))
            continue
        slot = worst_slot(CARDS, g, seat)
        if p[L.P_POLICY] == RANDOM:
            slot = random_slot(g, rng, seat)
        if slot >= 0:
            replace_card(g, seat, slot, g[L.G_STAGE])
    return True


@borrowing
def random_slot(g, rng, seat):
    seen, chosen = 0, -1
    for slot in range(L.HAND_SIZE):
        if g[L.G_HAND + seat * L.HAND_SIZE + slot]:
            seen += 1
            if uniform_int(rng, L.ST_POLICY, seen) == 0:
                chosen = slot
    return chosen


DICE_RANK = np.array([3, 0, 1, 2])  # greedy order: Bombardment, Advance, Trench, Reinforcements



@allocating
def dice_order(p, g, rng, faces, n):
    """Table order in the first game (and under "fully sequential"); otherwise the
    active player's order: random for ``random``, else Bombardment before the batteries
    grow (Example 21), then Advance, Trench, and Reinforcements last."""
    if not g[L.G_DICE_ORDER_FREE]:
        return np.arange(n)
    if p[L.P_POLICY] == L.RANDOM:
        order = np.arange(n)
        for i in range(n - 1, 0, -1):
            j = uniform_int(rng, L.ST_POLICY, i + 1)
            order[i], order[j] = order[j], order[i]
        return order
    keys = np.empty(n, dtype=np.int64)
    for k in range(n):
        keys[k] = DICE_RANK[faces[k, 0]] * 16 + k
    return sorted_order(keys)
