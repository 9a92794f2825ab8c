"""Combat (rulebook "Combat", "Barcelonan Troops Eliminated", "Special Combats", "The
Organ-Guns").

Values: Bourbons = the tiles' total; Barcelonans = Coronela 1 + infantry 3, + the
Gunpowder Store in Barcelona spaces (+1 for the Flag holder during their turn), + the
bastion defense, + 1 per barricade, + 5 per organ-gun. The higher total wins; a tie
eliminates both sides.

Casualties follow Examples 18 and 26, not the rules text they contradict ("The side with
the higher combat value wins the combat and inflicts casualties", while Example 18's
winners lose points): the WINNER takes casualties. A Bourbon winner loses the Barcelonan total; a
Barcelonan winner takes max(0, Bourbon total - Gunpowder Store - bastion defense) points,
spread over its troops. Whether barricades and organ-guns are subtracted too is the
``winner_casualties`` reading (rules.py): by default not, as the casualty rule names only
the Gunpowder Store and bastion defenses.
"""


from simkit.eventlog import log_event
from simkit.unmanaged import borrowing

from . import layout as L
from .events import EV_COMBAT
from .judgement import casualty_split
from .pieces import (
    eliminate,
    eliminate_all_troops,
    is_barcelona,
    marker_value,
    remove_undefended_cannons,
    troop_value,
)

BOURBONS_WIN = 1
BARCELONANS_WIN = 2
BOTH_LOSE = 3


@borrowing
def gunpowder_bonus(K, g, flag_holder_turn):
    return marker_value(K, g, L.MARKER_GUNPOWDER_STORE) + (1 if flag_holder_turn else 0)


@borrowing
def fixed_defense(K, sp, g, space, flag_holder_turn):
    """Gunpowder Store (Barcelona only) and bastion defense: what casualties discount.
    (One basic block, so that numba inlines it: see ``barcelonans``.)"""
    in_barcelona = 1 if is_barcelona(K, space) else 0
    return sp[space, L.SP_DEFENSE] + in_barcelona * gunpowder_bonus(K, g, flag_holder_turn)


@borrowing
def barcelonan_value(K, sp, g, space, flag_holder_turn):
    return (troop_value(sp, space) + fixed_defense(K, sp, g, space, flag_holder_turn)
            + sp[space, L.SP_BARRICADES] + 5 * sp[space, L.SP_ORGAN_GUNS])


@borrowing
def take_casualties(K, w, sp, space, points):
    lost_c, lost_i = casualty_split(w, sp[space, L.SP_CORONELA], sp[space, L.SP_INFANTRY],
                                    points)
    eliminate(K, sp, space, L.SP_CORONELA, lost_c)
    eliminate(K, sp, space, L.SP_INFANTRY, lost_i)


@borrowing
def resolve_combat(K, p, w, sp, g, space, flag_holder_turn, log):
    """One combat in a space holding both sides; returns BOURBONS_WIN, ... or 0 if none."""
    bourbon = sp[space, L.SP_BOURBON]
    barcelonan = barcelonan_value(K, sp, g, space, flag_holder_turn)
    log_event(log, EV_COMBAT, space, bourbon, barcelonan)
    g[L.G_COMBATS] += 1
    discount = fixed_defense(K, sp, g, space, flag_holder_turn)
    if p[L.P_WINNER_CASUALTIES] == L.CASUALTIES_EVERY_DEFENCE:
        discount += sp[space, L.SP_BARRICADES] + 5 * sp[space, L.SP_ORGAN_GUNS]
    sp[space, L.SP_ORGAN_GUNS] = 0  # organ-guns are removed after any combat
    if bourbon > barcelonan:
        eliminate_all_troops(K, sp, space)
        sp[space, L.SP_BOURBON] = bourbon - barcelonan
        result = BOURBONS_WIN
    elif barcelonan > bourbon:
        sp[space, L.SP_BOURBON] = 0
        points = bourbon - discount
        if points > 0:
            take_casualties(K, w, sp, space, points)
        result = BARCELONANS_WIN
    else:
        eliminate_all_troops(K, sp, space)
        sp[space, L.SP_BOURBON] = 0
        result = BOTH_LOSE
    remove_undefended_cannons(K, sp, space)
    return result


@borrowing
def needs_combat(sp, space):
    """Both sides present: Bourbon tiles and troops, or tiles and an organ-gun."""
    return sp[space, L.SP_BOURBON] > 0 and (
        sp[space, L.SP_CORONELA] + sp[space, L.SP_INFANTRY] + sp[space, L.SP_ORGAN_GUNS] > 0)
