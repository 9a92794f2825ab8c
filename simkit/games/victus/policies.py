"""The scripted Barcelonan players: how each policy spends its action points, chooses,
discards and (solo) cancels cards, and orders the Bourbon dice.

``random`` buys uniformly among the actions it can afford and then uniformly among that
action's legal targets. ``naive`` is the session-4 greedy, kept so that designers can
see the players' skill: it judges cards by their Almanac only and keeps the city alive by
a fixed order of urgency: fire at the Bourbon tiles that threaten Barcelona, clear
rubble near the defeat threshold, heal the wounded, reinforce threatened spaces, then
improve the markers and fortify. ``greedy`` is that order made strong, one piece of skill
per ``layout.SKILL_*`` bit: cards judged by what their ops do (``judgement.card_effect_score``),
every useful AP spent (card grants on their own group included), rubble cleared as a
last resort, no healing while the Port is negative ("Port -1/-2: troops from Barcelona
go to Reserve"), the dice order chosen by resolving every distinct order on a copy of
the state and scoring it (``judgement.evaluate_position``), sorties into trench spaces
and camps, counter-mines, and cannon repairs. ``fortify`` is greedy with fortification
(bastion defenses, barricades) ahead of marker improvements.

A space's threat is the Bourbon value in the spaces whose arrows lead into it.
"""

import numpy as np

from simkit.eventlog import log_event
from simkit.rng import KEY as STREAM_KEY
from simkit.rng import next_u64, uniform_int
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
from .bourbons import most_crowded_barcelona_space, resolve_die
from .checks import checked
from .combat import barcelonan_value
from .events import EV_AP_LEFT
from .hands import add_to_hand, draw_event, pile_count, replace_card
from .judgement import DEFEAT_SCORE, evaluate_position
from .pieces import (
    coronela_in_barcelona,
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
    "greedy": "keep the city alive, strongly: cards judged by their effects, every useful "
              "AP spent (grants, rubble, sorties, counter-mines, repairs), no healing into "
              "a negative Port, the dice order chosen by resolving each order on a copy",
    "random": "uniform over the affordable actions and their legal targets",
    "fortify": "greedy, but fortifies (bastion defenses, barricades) before improving "
               "markers",
    "naive": "the earlier greedy: cards by their Almanac only; fire at threats, clear "
             "rubble, heal, reinforce, then improve markers and fortify",
    "lookahead": "greedy, but chooses its cards and dice orders by playing rollouts of "
                 "the rest of the game for each option (slow: the skill ceiling)",
}
assert tuple(POLICIES) == L.POLICY_NAMES
GREEDY, RANDOM, FORTIFY, NAIVE = L.GREEDY, L.RANDOM, L.FORTIFY, L.NAIVE
MAX_ACTIONS = 40  # a turn never has more AP than this
BAD_CARD = -3  # naive changes a card when its worst card scores this or less


@allocating
def spend_action_points(K, CARDS, p, w, sp, g, rng, log):
    """The Barcelonan actions step: buy actions until the policy stops or AP run out.
    The greedy scans get their work arrays here, once per step rather than per action."""
    policy = w[L.W_POLICY]
    guns = np.empty(sp.shape[0], dtype=np.int64)
    danger = np.empty(sp.shape[0], dtype=np.int64)
    for _ in range(MAX_ACTIONS):
        if g[L.G_SEAT_AP] <= 0:
            break
        if policy == RANDOM:
            bought = random_action(K, CARDS, p, w, sp, g, rng, log)
        elif policy == NAIVE:
            bought = greedy_action(K, CARDS, p, w, sp, g, rng, False, guns, danger, log)
        else:
            bought = strong_action(K, CARDS, p, w, sp, g, rng, policy == FORTIFY, guns, danger,
                                   log)
        if not bought or checked(K, CARDS, p, sp, g, log, L.STEP_BARCELONAN_ACTION):
            break
    log_event(log, EV_AP_LEFT, g[L.G_SEAT_AP], g[L.G_AP_GROUP])


# -- greedy -----------------------------------------------------------------------------------


@borrowing
def greedy_action(K, CARDS, p, w, sp, g, rng, fortify_first, guns, danger, log):
    if fire_at_threats(K, p, sp, g, guns, log):
        return True
    if rubble_on_board(sp, g) >= p[L.P_RUBBLE_THRESHOLD] - 3 and clear_rubble(K, p, sp, g, log):
        return True
    if heal_wounded(K, p, w, sp, g, log):
        return True
    if reinforce_threatened(K, p, w, sp, g, danger, log):
        return True
    if fortify_first and fortify(K, p, sp, g, danger, log):
        return True
    if improve_markers(K, p, sp, g, log):
        return True
    hand = 0 if p[L.P_SOLO] else g[L.G_ACTIVE]  # solo: Villarroel holds the only hand
    if worst_card_score(CARDS, p, w, g, hand) <= BAD_CARD and change_a_card(
            K, CARDS, p, w, g, rng, log):
        return True
    return fortify(K, p, sp, g, danger, log)


# -- strong (greedy, fortify) -------------------------------------------------------------------


@borrowing
def skill(w, piece):
    """The strong players use the piece of skill ``piece`` (``layout.SKILL_*``)."""
    return (w[L.W_SKILLS] >> piece) & 1 == 1


@borrowing
def strong_action(K, CARDS, p, w, sp, g, rng, fortify_first, guns, danger, log):
    """The naive order of urgency, with the strong pieces in it: no healing while the
    Port would export troops, sorties, and when nothing urgent is left the AP that would
    be lost (they do not carry over) go to whatever still helps."""
    if fire_at_threats(K, p, sp, g, guns, log):
        return True
    if rubble_on_board(sp, g) >= p[L.P_RUBBLE_THRESHOLD] - 3 and clear_rubble(K, p, sp, g, log):
        return True
    port_ok = not skill(w, L.SKILL_PORT) or marker_value(K, g, L.MARKER_PORT) >= 0
    if port_ok and heal_wounded(K, p, w, sp, g, log):
        return True
    if reinforce_threatened(K, p, w, sp, g, danger, log):
        return True
    if skill(w, L.SKILL_SORTIES) and sortie(K, p, w, sp, g, danger, log):
        return True
    if fortify_first and fortify(K, p, sp, g, danger, log):
        return True
    if improve_markers(K, p, sp, g, log):
        return True
    hand = 0 if p[L.P_SOLO] else g[L.G_ACTIVE]
    bad = w[L.W_CHANGE_CARD_BELOW] if skill(w, L.SKILL_CARDS) else BAD_CARD
    if worst_card_score(CARDS, p, w, g, hand) <= bad and change_a_card(
            K, CARDS, p, w, g, rng, log):
        return True
    if fortify(K, p, sp, g, danger, log):
        return True
    return last_resort(K, CARDS, p, w, sp, g, port_ok, danger, log)


@borrowing
def last_resort(K, CARDS, p, w, sp, g, port_ok, danger, log):
    """AP nothing urgent wants: clear any reachable rubble, counter-mine a mine that
    would hit 2 or more spaces, repair a cannon into the most threatened bastion held,
    heal a single wounded troop."""
    if skill(w, L.SKILL_RUBBLE) and clear_rubble(K, p, sp, g, log):
        return True
    if skill(w, L.SKILL_SORTIES) and counter_mine(K, p, sp, g, log):
        return True
    if skill(w, L.SKILL_ARTILLERY) and repair_into_bastion(K, p, sp, g, danger, log):
        return True
    if skill(w, L.SKILL_ARTILLERY) and cannon_to_bastion(K, p, sp, g, danger, log):
        return True
    if not skill(w, L.SKILL_SPEND_AP):
        return False
    if strengthen(K, p, w, sp, g, danger, log):
        return True
    wounded = K[L.K_SPECIAL][L.SPECIAL_WOUNDED]
    if (port_ok and sp[wounded, L.SP_CORONELA] + sp[wounded, L.SP_INFANTRY] > 0
            and marker_value(K, g, L.MARKER_HOSPITAL) >= 1
            and available(K, p, g, L.A_HEALING)):
        pay(K, p, g, L.A_HEALING, 0, 0, log)
        healing(K, p, w, sp, g, log)
        return True
    return False


@borrowing
def spare_troop_space(K, p, sp):
    """The Barcelona space with the most troops if it can spare one (keeps 2), -1 if
    none can."""
    space = most_crowded_barcelona_space(K, sp)
    return space if space >= 0 and troops_in(sp, space) > 2 else -1


@borrowing
def counter_mine(K, p, sp, g, log):
    """The worm: a troop to WOUNDED sets the mine disc to 0, worth it when an explosion
    would hit 2 or more spaces with at least 1 hit each."""
    if disc_value(K, g, L.DISC_MINE) < 2 or disc_value(K, g, L.DISC_REINFORCEMENTS) < 1:
        return False
    if not available(K, p, g, L.A_WORM):
        return False
    space = spare_troop_space(K, p, sp)
    if space < 0:
        return False
    if sp[space, L.SP_CORONELA] > 0 and (
            coronela_in_barcelona(K, sp) < p[L.P_CORONELA_THRESHOLD] + 3):
        return False
    pay(K, p, g, L.A_WORM, space, space, log)
    send_worm(K, sp, g, space, log)
    return True


@borrowing
def repair_into_bastion(K, p, sp, g, danger, log):
    """A cannon from WOUNDED to the most threatened bastion held by 2 or more troops (a
    cannon there fires outwards and takes a hit before a troop)."""
    wounded = K[L.K_SPECIAL][L.SPECIAL_WOUNDED]
    if sp[wounded, L.SP_CANNON] == 0 or not available(K, p, g, L.A_REPAIR_CANNON):
        return False
    fill_threats(K, sp, danger)
    info = K[L.K_INFO]
    best, most = -1, -1
    for space in range(sp.shape[0]):
        if (info[space, L.S_KIND] == L.KIND_BASTION and troops_in(sp, space) >= 2
                and sp[space, L.SP_BOURBON] == 0 and danger[space] > most):
            best, most = space, danger[space]
    if best < 0:
        return False
    pay(K, p, g, L.A_REPAIR_CANNON, best, best, log)
    repair_cannon(K, sp, best)
    return True


@borrowing
def cannon_to_bastion(K, p, sp, g, danger, log):
    """A cannon that has not fired, in a Barcelona space that is not a bastion, steps to
    the most threatened neighbouring bastion held by a troop (only bastions fire beyond
    the next space)."""
    if not available(K, p, g, L.A_MOVE_CANNON):
        return False
    fill_threats(K, sp, danger)
    info = K[L.K_INFO]
    source, target, most = -1, -1, 0
    for a in range(sp.shape[0]):
        if (not is_barcelona(K, a) or info[a, L.S_KIND] == L.KIND_BASTION
                or sp[a, L.SP_CANNON] - sp[a, L.SP_CANNON_FIRED] <= 0):
            continue
        for b in range(sp.shape[0]):
            if (info[b, L.S_KIND] == L.KIND_BASTION and can_step(K, sp, a, b)
                    and troops_in(sp, b) > 0 and sp[b, L.SP_BOURBON] == 0
                    and danger[b] > most):
                source, target, most = a, b, danger[b]
    if source < 0:
        return False
    pay(K, p, g, L.A_MOVE_CANNON, source, target, log)
    move_cannon(sp, source, target)
    return True


@borrowing
def strengthen(K, p, w, sp, g, danger, log):
    """One troop to the threatened Barcelona space with the least margin over its threat,
    from a quiet neighbour that keeps 2 troops (reinforcing before it is needed)."""
    if not available(K, p, g, L.A_MOVE_TROOPS):
        return False
    fill_threats(K, sp, danger)
    flag_turn = g[L.G_FLAG_TURN] == 1
    n = sp.shape[0]
    best_source, best_target, worst = -1, -1, -(1 << 30)
    for target in range(n):
        if not is_barcelona(K, target) or sp[target, L.SP_BOURBON] > 0 or danger[target] == 0:
            continue
        gap = danger[target] - barcelonan_value(K, sp, g, target, flag_turn)
        if gap <= worst:
            continue
        for source in range(n):
            if (is_barcelona(K, source) and danger[source] == 0 and troops_in(sp, source) >= 3
                    and can_step(K, sp, source, target)):
                best_source, best_target, worst = source, target, gap
                break
    if best_source < 0:
        return False
    infantry = 1 if sp[best_source, L.SP_INFANTRY] > 0 else 0
    pay(K, p, g, L.A_MOVE_TROOPS, best_source, best_target, log)
    move_troops(K, p, w, sp, g, best_source, best_target, 1 - infantry, infantry, log)
    return True


@borrowing
def sortie(K, p, w, sp, g, danger, log):
    """Infantry leave a quiet Barcelona space for a trench tile's space (or a camp) when
    they beat what they will meet there (the camp's tile or a new tile of the
    reinforcements value) and survive its casualties: the win razes the camp (batteries
    -1, a troop freed from CAPTURED) and a trench tile goes back. Trench spaces first:
    troops that win in a camp are eliminated at the end of the turn. With the disc at 0
    and an empty camp there is nothing to fight unless the rule ``empty_reinforcements``
    is ``barcelonans_win``."""
    if not available(K, p, g, L.A_MOVE_TROOPS):
        return False
    fill_threats(K, sp, danger)
    for want_camp in range(2):
        for column in range(L.N_TRENCH):
            camp = K[L.K_TRENCH][column, 0]
            if sp[camp, L.SP_RAZED]:
                continue
            if want_camp:
                target = camp
            elif g[L.G_TRENCH + column] > 0:
                target = K[L.K_TRENCH][column, g[L.G_TRENCH + column]]
            else:
                continue
            if troops_in(sp, target) > 0:
                continue
            bourbon = sp[camp, L.SP_BOURBON]
            if bourbon == 0:
                bourbon = disc_value(K, g, L.DISC_REINFORCEMENTS)
            if bourbon == 0 and p[L.P_EMPTY_REINFORCEMENTS] == L.EMPTY_NO_COMBAT:
                continue  # no Bourbon troops to fight: the troops would win nothing
            if sortie_from(K, p, w, sp, g, danger, target, bourbon, log):
                return True
    return False


@borrowing
def sortie_from(K, p, w, sp, g, danger, target, bourbon, log):
    """Send the fewest infantry that win against ``bourbon`` and all survive (a winner
    takes the Bourbon value in casualty points; an infantry survives 2), from a quiet
    Barcelona space next to ``target`` that keeps a troop."""
    need = bourbon // 3 + 1  # 3 per infantry must exceed the Bourbon value ...
    while 2 * need < bourbon:  # ... and the casualty points must kill none
        need += 1
    for source in range(sp.shape[0]):
        if (is_barcelona(K, source) and danger[source] == 0 and sp[source, L.SP_BOURBON] == 0
                and can_step(K, sp, source, target)
                and sp[source, L.SP_INFANTRY] >= need and troops_in(sp, source) > need):
            pay(K, p, g, L.A_MOVE_TROOPS, source, target, log)
            move_troops(K, p, w, sp, g, source, target, 0, need, log)
            return True
    return False


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
def heal_wounded(K, p, w, sp, g, log):
    wounded = K[L.K_SPECIAL][L.SPECIAL_WOUNDED]
    waiting = sp[wounded, L.SP_CORONELA] + sp[wounded, L.SP_INFANTRY]
    if waiting < 2 or marker_value(K, g, L.MARKER_HOSPITAL) < 1:
        return False
    if not available(K, p, g, L.A_HEALING):
        return False
    pay(K, p, g, L.A_HEALING, 0, 0, log)
    healing(K, p, w, sp, g, log)
    return True


@borrowing
def reinforce_threatened(K, p, w, sp, g, danger, log):
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
            move_troops(K, p, w, sp, g, source, target, 1 - infantry, infantry, log)
            return True
    return reinforce_from_two_away(K, p, w, sp, g, danger, target, log)


@borrowing
def reinforce_from_two_away(K, p, w, sp, g, danger, target, log):
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
                move_one_troop_twice(K, p, w, sp, g, source, middle, target, field, log)
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
def random_action(K, CARDS, p, w, sp, g, rng, log):
    """Uniform over the affordable actions that have a legal target, then over targets."""
    order = (L.A_MOVE_TROOPS, L.A_HEALING, L.A_WORM, L.A_IMPROVE_PRESENT, L.A_MOVE_CANNON,
             L.A_FIRE_CANNON, L.A_REPAIR_CANNON, L.A_REMOVE_RUBBLE, L.A_BASTION_DEFENSE,
             L.A_BARRICADE, L.A_CHANGE_CARD)
    start = uniform_int(rng, L.ST_POLICY, len(order))
    for k in range(len(order)):
        action = order[(start + k) % len(order)]
        if action == L.A_CHANGE_CARD:
            if change_a_card(K, CARDS, p, w, g, rng, log):
                return True
        elif try_random(K, p, w, sp, g, rng, action, log):
            return True
    return False


@borrowing
def try_random(K, p, w, sp, g, rng, action, log):
    if action == L.A_IMPROVE_PRESENT:
        return random_improve(K, p, sp, g, rng, log)
    if not available(K, p, g, action):
        return False
    if action == L.A_HEALING:
        wounded = K[L.K_SPECIAL][L.SPECIAL_WOUNDED]
        if sp[wounded, L.SP_CORONELA] + sp[wounded, L.SP_INFANTRY] == 0:
            return False
        pay(K, p, g, action, 0, 0, log)
        healing(K, p, w, sp, g, log)
        return True
    if action == L.A_MOVE_TROOPS or action == L.A_MOVE_CANNON or action == L.A_FIRE_CANNON:
        chosen_a, chosen_b = random_pair(K, p, sp, g, rng, action)
    else:  # one-space actions: the space is the target
        chosen_a = chosen_b = random_space(K, p, sp, g, rng, action)
    if chosen_a < 0:
        return False
    pay(K, p, g, action, chosen_a, chosen_b, log)
    apply_target(K, p, w, sp, g, rng, action, chosen_a, chosen_b, log)
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
def apply_target(K, p, w, sp, g, rng, action, a, b, log):
    if action == L.A_MOVE_TROOPS:
        pick = uniform_int(rng, L.ST_POLICY, troops_in(sp, a))
        infantry = 1 if pick < sp[a, L.SP_INFANTRY] else 0
        # "a single Barcelonan troop from one Barcelona space to another adjacent Barcelona
        # space, up to two consecutive times": only inside Barcelona
        onward = -1
        if is_barcelona(K, a) and is_barcelona(K, b):
            onward = random_step(K, sp, rng, b)
        # the single troop's second move
        if onward >= 0 and uniform_int(rng, L.ST_POLICY, 2) == 0:
            field = L.SP_INFANTRY if infantry else L.SP_CORONELA
            move_one_troop_twice(K, p, w, sp, g, a, b, onward, field, log)
        else:
            move_troops(K, p, w, sp, g, a, b, 1 - infantry, infantry, log)
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
    """A uniform Barcelona space a single troop's second move can reach from ``space``,
    or -1."""
    seen, chosen = 0, -1
    for other in range(sp.shape[0]):
        if can_step(K, sp, space, other) and is_barcelona(K, other):
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
def card_eval(CARDS, p, w, card):
    """How good a card looks to a policy: ``card_score``, and for the strong players
    what its ops do as well (``judgement.card_effect_score``, read from ``p``, times the
    ``card_effects`` weight)."""
    score = card_score(CARDS, card)
    if w[L.W_POLICY] != NAIVE and skill(w, L.SKILL_CARDS):
        score += w[L.W_CARD_EFFECTS] * p[L.P_CARD_EFFECT + card] // 10
    return score


@borrowing
def card_value(CARDS, p, w, g, card):
    """``card_eval`` x 10, plus (competitive) the VP the card would score from the pin's
    present space times the greed weight (x10)."""
    value = 10 * card_eval(CARDS, p, w, card)
    if p[L.P_COMPETITIVE]:
        value += w[L.W_GREED] * card_vp(CARDS, p, g[L.G_SENSE_FURY], card)[0]
    return value


@borrowing
def unwanted(CARDS, p, w, g, rng, card):
    """Solo: Villarroel cancels a Casanova card scoring below the ``resign_below`` weight
    (``random``: a fair coin)."""
    if w[L.W_POLICY] == RANDOM:
        return uniform_int(rng, L.ST_POLICY, 2) == 1
    return card_eval(CARDS, p, w, card) < w[L.W_RESIGN_BELOW]


@borrowing
def chooses_dice_order(w, g, rng, stage):
    """Partial dice order: whether the players choose the order this stage (``random``:
    a fair coin; otherwise from the ``dice_choice_from_stage`` weight on)."""
    if w[L.W_POLICY] == RANDOM:
        return uniform_int(rng, L.ST_POLICY, 2) == 1
    return stage + 1 >= w[L.W_DICE_CHOICE_FROM_STAGE]


@allocating
def choose_card(CARDS, p, w, g, rng, seat):
    """The slot of the card a seat puts face down (random when a card forces it)."""
    slots = np.empty(L.HAND_SIZE, dtype=np.int64)
    n = 0
    for slot in range(L.HAND_SIZE):
        if g[L.G_HAND + seat * L.HAND_SIZE + slot] != 0:
            slots[n] = slot
            n += 1
    if w[L.W_POLICY] == RANDOM or g[L.G_RANDOM_ROUND]:
        return slots[uniform_int(rng, L.ST_POLICY, n)]
    best, best_score = slots[0], -(1 << 30)
    for k in range(n):
        score = card_value(CARDS, p, w, g, g[L.G_HAND + seat * L.HAND_SIZE + slots[k]])
        if score > best_score:
            best, best_score = slots[k], score
    return best


@borrowing
def worst_slot(CARDS, p, w, g, seat):
    """The hand slot of the seat's worst card (greedy's discard), -1 for an empty hand."""
    worst, lowest = -1, 1 << 30
    for slot in range(L.HAND_SIZE):
        card = g[L.G_HAND + seat * L.HAND_SIZE + slot]
        if card and card_eval(CARDS, p, w, card) < lowest:
            worst, lowest = slot, card_eval(CARDS, p, w, card)
    return worst


@borrowing
def worst_card_score(CARDS, p, w, g, seat):
    slot = worst_slot(CARDS, p, w, g, seat)
    return 1 << 30 if slot < 0 else card_eval(CARDS, p, w, g[L.G_HAND + seat * L.HAND_SIZE + slot])


@borrowing
def change_a_card(K, CARDS, p, w, g, rng, log):
    """Change 1 card (full game, not in Stage IV): every player discards one card from
    hand and draws one from the stage's pile (greedy discards its worst, random any)."""
    stage = g[L.G_STAGE]
    if (stage >= L.STAGE_IV or not available(K, p, g, L.A_CHANGE_CARD)
            or worst_slot(CARDS, p, w, g, g[L.G_ACTIVE]) < 0):
        return False
    if g[L.G_PILE_COUNT + stage] - g[L.G_PILE_NEXT + stage] < g[L.G_SEATS]:
        return False  # the pile cannot replace every discard: hands would shrink (and empty)
    pay(K, p, g, L.A_CHANGE_CARD, 0, 0, log)
    for seat in range(g[L.G_SEATS]):
        if p[L.P_SOLO] and seat == L.CASANOVA:  # one more card shuffled into his pile
            if pile_count(g) < L.PILE_SLOTS:
                add_to_hand(g, seat, draw_event(g, g[L.G_STAGE]), L.PILE_SLOTS)
            continue
        slot = worst_slot(CARDS, p, w, g, seat)
        if w[L.W_POLICY] == RANDOM:
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


DICE_RANK = np.array([3, 0, 1, 2])  # naive order: Bombardment, Advance, Trench, Reinforcements


@allocating
def dice_order(w, g, rng, faces, n):
    """Table order in the first game (and under "fully sequential"); otherwise the
    active player's order: random for ``random``; ``naive``: Bombardment before the
    batteries grow (Example 21), then Advance, Trench, and Reinforcements last; the strong
    players with their dice piece: their fixed ranking ``W_DICE_RANK`` (when they do not
    search)."""
    if not g[L.G_DICE_ORDER_FREE]:
        return np.arange(n)
    if w[L.W_POLICY] == L.RANDOM:
        order = np.arange(n)
        for i in range(n - 1, 0, -1):
            j = uniform_int(rng, L.ST_POLICY, i + 1)
            order[i], order[j] = order[j], order[i]
        return order
    strong = w[L.W_POLICY] != NAIVE and skill(w, L.SKILL_DICE)
    keys = np.empty(n, dtype=np.int64)
    for k in range(n):
        rank = w[L.W_DICE_RANK + faces[k, 0]] if strong else DICE_RANK[faces[k, 0]]
        keys[k] = rank * 16 + k
    return sorted_order(keys)


@allocating
def order_dice(K, CARDS, p, w, sp, g, rng, faces, n):
    """The order the Bourbon dice are resolved in: ``dice_order``, except that the strong
    players, when they order the dice (from the ``dice_search_from_stage`` weight on),
    try them on copies: one die at a time (``next_die_order``) or every distinct order
    (``best_dice_order``)."""
    policy = w[L.W_POLICY]
    if (not g[L.G_DICE_ORDER_FREE] or n < 2 or policy == RANDOM or policy == NAIVE
            or not skill(w, L.SKILL_DICE) or g[L.G_STAGE] + 1 < w[L.W_DICE_SEARCH_FROM_STAGE]):
        return dice_order(w, g, rng, faces, n)
    if skill(w, L.SKILL_DICE_EVERY_ORDER):
        return best_dice_order(K, CARDS, p, w, sp, g, rng, faces, n)
    return next_die_order(K, CARDS, p, w, sp, g, rng, faces, n)


@allocating
def next_die_order(K, CARDS, p, w, sp, g, rng, faces, n):
    """The dice order built one die at a time: each remaining distinct face is resolved
    next on a copy of the position so far and the best scored is kept (n(n+1)/2 - 1
    resolutions instead of up to n! orders). The copies see no hidden future
    (``shuffle_unseen_chance``)."""
    g_base, rng_base = g.copy(), rng.copy()
    shuffle_unseen_chance(g_base, rng_base)
    sp_base = sp.copy()
    sp_try, g_try, rng_try = sp.copy(), g.copy(), rng.copy()  # reused for every try
    log = np.zeros((0, 4), dtype=np.int64)
    flag_turn = g[L.G_FLAG_TURN] == 1
    order = np.empty(n, dtype=np.int64)
    used = np.zeros(n, dtype=np.bool_)
    for k in range(n):
        best_die, best = -1, DEFEAT_SCORE - 1
        for d in range(n):
            if used[d] or seen_face(faces, used, d):
                continue
            if k == n - 1:
                best_die = d
                break
            restore(sp_try, sp_base)
            restore(g_try, g_base)
            restore(rng_try, rng_base)
            if faces[d, 1] > 0:
                resolve_die(K, p, w, sp_try, g_try, rng_try, faces[d, 0], faces[d, 1],
                            flag_turn, log)
            score = evaluate_position(K, CARDS, p, sp_try, g_try)
            if score > best:
                best_die, best = d, score
        order[k] = best_die
        used[best_die] = True
        if k < n - 1 and faces[best_die, 1] > 0:
            resolve_die(K, p, w, sp_base, g_base, rng_base, faces[best_die, 0],
                        faces[best_die, 1], flag_turn, log)
    return order


@borrowing
def restore(copy, original):
    """``copy[:] = original`` for two C-contiguous arrays of one shape, as a plain loop:
    numba's slice assignment brings its shape-mismatch message code (string formatting),
    about 1 s of every cold compile, for a mismatch that cannot happen here."""
    flat_copy, flat_original = copy.reshape(copy.size), original.reshape(original.size)
    for i in range(flat_original.size):
        flat_copy[i] = flat_original[i]


@borrowing
def seen_face(faces, used, d):
    """An unused die before ``d`` shows the same face (trying ``d`` would repeat it)."""
    for e in range(d):
        if not used[e] and faces[e, 0] == faces[d, 0] and faces[e, 1] == faces[d, 1]:
            return True
    return False


@allocating
def best_dice_order(K, CARDS, p, w, sp, g, rng, faces, n):
    """Resolve every distinct order of the rolled dice (dice showing the same face are
    interchangeable: at most n! orders) on copies of the state and keep the order whose
    result ``evaluate_position`` scores best (the first such, in lexicographic order of
    the faces).

    The copies do not look at the hidden future: the chance cards not yet drawn are
    shuffled in the copy (the same shuffle for every order, so the orders are compared
    on the same cards), and the copies' random streams are copies, so the real game's
    draws are untouched."""
    keys = np.empty(n, dtype=np.int64)
    for k in range(n):
        keys[k] = faces[k, 0] * 64 + faces[k, 1]
    dice = sorted_order(keys * 8 + np.arange(n))  # dice by face, table order among equals
    perm = keys[dice]
    g_guess, rng_guess = g.copy(), rng.copy()
    shuffle_unseen_chance(g_guess, rng_guess)
    log = np.zeros((0, 4), dtype=np.int64)
    flag_turn = g[L.G_FLAG_TURN] == 1
    best_order = dice.copy()
    best = DEFEAT_SCORE - 1
    sp_try, g_try, rng_try = sp.copy(), g.copy(), rng.copy()  # reused for every order
    while True:
        restore(sp_try, sp)
        restore(g_try, g_guess)
        restore(rng_try, rng_guess)
        for k in range(n):
            if perm[k] % 64 > 0:  # (the engine skips a die a leader brought to 0)
                resolve_die(K, p, w, sp_try, g_try, rng_try, perm[k] // 64, perm[k] % 64,
                            flag_turn, log)
        score = evaluate_position(K, CARDS, p, sp_try, g_try)
        if score > best:
            best = score
            used = np.zeros(n, dtype=np.bool_)
            for k in range(n):  # the dice showing each face, in table order
                for d in range(n):
                    if not used[d] and keys[d] == perm[k]:
                        best_order[k] = d
                        used[d] = True
                        break
        if not next_permutation(perm):
            return best_order


@borrowing
def next_permutation(a):
    """Step ``a`` to its next lexicographic permutation (repeated values give each
    distinct sequence once); False after the last one."""
    n = a.shape[0]
    i = n - 2
    while i >= 0 and a[i] >= a[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = n - 1
    while a[j] <= a[i]:
        j -= 1
    a[i], a[j] = a[j], a[i]
    lo, hi = i + 1, n - 1
    while lo < hi:
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1
        hi -= 1
    return True


@borrowing
def shuffle_unseen_chance(g, rng):
    """Shuffle the chance cards not yet drawn (``g`` and ``rng`` are copies): a player
    knows which cards are left, not their order, so they are sorted first and the
    shuffle's outcome does not depend on their hidden order. The copy's chance stream
    gets a new key, so a reshuffle during the look is not the game's next reshuffle
    either. Draws come from the copy's policy stream."""
    first = g[L.G_CHANCE_NEXT]
    deck = L.G_CHANCE_DECK
    for i in range(first + 1, L.N_CHANCE):  # insertion sort: at most 14 cards, in place
        card, j = g[deck + i], i
        while j > first and g[deck + j - 1] > card:
            g[deck + j] = g[deck + j - 1]
            j -= 1
        g[deck + j] = card
    for i in range(L.N_CHANCE - 1, first, -1):
        j = first + uniform_int(rng, L.ST_POLICY, i - first + 1)
        g[deck + i], g[deck + j] = g[deck + j], g[deck + i]
    rng[L.ST_CHANCE, STREAM_KEY] = next_u64(rng, L.ST_POLICY)
