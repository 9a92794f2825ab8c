"""The combat system of 11 de Setembre, shared by the assault scenario and the whole game.

One njit function per rule, and the trace events they log: "7. The mine under the Royal
Breach" (``royal_breach_check``), "9. Artillery fire" (``artillery_fire``, at the unit
the firer chose), "11.2. Salvo fire" (``salvo_permitted``, ``salvo_fire``), "11.3.
Assault" (``attack_value``, ``defence_value``,
``resolve_assault``, ``commander_casualty``) with the flag's bonus of "13. The Santa
Eulalia's flag". The side codes and the five dice streams these functions roll from are
declared here too, so that both games' layouts build on them.

Why a module of its own, and why here: both games resolve fire and assaults with these
very functions (no rule is written twice), the assault scenario
(``simkit.games.setembre1714_assault``) is nothing but this combat system played on one
zone, so the system lives in its package, and the whole game (``simkit.games.setembre1714``)
imports it from there; nothing here imports either game, so neither game's layout,
policies or engine can leak into the other. ``combat_events`` opens each game's event
table with the sentences of the events logged here, so the codes these functions log
are the same in both tables.
"""

from numba import njit

from simkit.eventlog import EventTable, log_event
from simkit.layout import codes
from simkit.rng import restart, roll_d6

# -- sides (policy id slots, in each Game's ``sides`` order) ---------------------------------
SIDES = ("bourbons", "catalans")
SIDE_BOURBONS, SIDE_CATALANS = codes(SIDES)

# -- the dice streams: one per kind of die, so a rule that rolls more of one kind shifts no
# other; the breach die restarts every turn (rule 7), keyed on the turn number. A game's
# STREAMS begin with these.
DICE_STREAMS = ("breach", "artillery", "salvo", "assault", "commander")
ST_BREACH, ST_ARTILLERY, ST_SALVO, ST_ASSAULT, ST_COMMANDER = codes(DICE_STREAMS)

ARTILLERY_HIT_ADJACENT = 4  # rule 9: adjacent zone, hit on 4, 5 or 6
ARTILLERY_HIT_RANGE_2 = 5  # Bourbon guns two zones away, hit on 5 or 6
SALVO_HIT = 6  # rule 11.2: each 6 eliminates one defending unit
COMMANDER_DIES = 6  # rule 11.3: a 6 eliminates the commander


# -- the events logged here, told in the rulebook's words -----------------------------------

def _breach_check(x, a, b, c):
    return (f"Turn {a}: Royal Breach check, die {b}: the breach is "
            + ("assured!" if c else "not yet assured"))


def _artillery(x, a, b, c):
    return ("  Artillery fire from " + ("an adjacent zone" if a == 1 else
                                        "a zone two zones away")
            + f": die {b}, " + ("a unit eliminated" if c else "a miss"))


def _assault_values(x, a, b, c):
    return (f"  Assault: attacker value {a} against defender value {b}; the defender "
            + ("declares a withdrawal (included)" if c else "stands"))


def _assault_roll(x, a, b, c):
    return (f"  Dice: attacker {a}, defender {b}: "
            + ("the attacker wins" if c else "the defender wins (ties to the defender)"))


def _commander_roll(x, a, b, c):
    return (("  Bourbon" if a == SIDE_BOURBONS else "  Catalan")
            + f" commander casualty roll {b}: " + ("eliminated" if c else "survives"))


_EVENTS = (
    ("breach_check", "a = turn, b = die, c = assured (0/1)", _breach_check),
    ("artillery", "a = gun range (1/2), b = die, c = hit (0/1)", _artillery),
    ("salvo", "a = units firing, b = sixes, c = kills",
     "  Salvo fire by {a} units: {b} sixes, {c} defenders eliminated"),
    ("assault_values", "a = attack value, b = defence value, c = withdrawal (0/1)",
     _assault_values),
    ("assault_roll", "a = attack die, b = defence die, c = attacker wins (0/1)",
     _assault_roll),
    ("commander_roll", "a = side slot, b = die, c = eliminated (0/1)", _commander_roll),
)


def combat_events(game: str) -> EventTable:
    """``game``'s event table, opening with the combat system's events (so their codes,
    below, are the same in every game's table); the game adds its own after them."""
    table = EventTable(game)
    for name, args, sentence in _EVENTS:
        table.add(name, args, sentence)
    return table


_CODES = {name: code for code, name, _, _ in combat_events("combat system").rows}
EV_BREACH_CHECK = _CODES["breach_check"]
EV_ARTILLERY = _CODES["artillery"]
EV_SALVO = _CODES["salvo"]
EV_ASSAULT_VALUES = _CODES["assault_values"]
EV_ASSAULT_ROLL = _CODES["assault_roll"]
EV_COMMANDER_ROLL = _CODES["commander_roll"]


# -- the rules ------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def royal_breach_check(rng, breach_roll, turn, log):
    """Rule 7: at a Bourbon turn's start, a die of ``breach_roll`` or more assures it.
    Each turn's die has its own sub-stream, so the check of turn t is the same die
    whatever was rolled before."""
    restart(rng, ST_BREACH, turn)
    die = roll_d6(rng, ST_BREACH)
    assured = die >= breach_roll
    log_event(log, EV_BREACH_CHECK, turn, die, assured)
    return assured


@njit(cache=True, nogil=True)
def artillery_fire(rng, guns, zone_range, targets, log):
    """Rule 9: each gun fires once at one combat unit; returns units eliminated."""
    hit_on = ARTILLERY_HIT_ADJACENT if zone_range == 1 else ARTILLERY_HIT_RANGE_2
    kills = 0
    for _ in range(guns):
        if kills == targets:
            break  # no combat unit left to aim at
        die = roll_d6(rng, ST_ARTILLERY)
        hit = die >= hit_on
        log_event(log, EV_ARTILLERY, zone_range, die, hit)
        if hit:
            kills += 1
    return kills


@njit(cache=True, nogil=True)
def salvo_permitted(target_defence, firing_defence, open_target, covered):
    """Rule 11.2: "salvo fire can be done from one zone to adjacent zones with equal or
    lower defence value", and it "is blocked by barricades and blue lines inside ochre
    and green attacked zones if these defences are covering the line of contact"."""
    return target_defence <= firing_defence and not (open_target and covered)


@njit(cache=True, nogil=True)
def salvo_fire(rng, units, targets, log):
    """Rule 11.2: one die per firing unit, each 6 eliminates a defender (at most all)."""
    if units == 0 or targets == 0:
        return 0
    sixes = 0
    for _ in range(units):
        if roll_d6(rng, ST_SALVO) >= SALVO_HIT:
            sixes += 1
    kills = min(sixes, targets)
    log_event(log, EV_SALVO, units, sixes, kills)
    return kills


@njit(cache=True, nogil=True)
def attack_value(lead_strength, units, commander, flag):
    """Rule 11.3 and 13 (the flag), attacker: the lead's strength, +1 per additional
    unit in the attacking zone, +1 for a friendly commander adjacent to the attacked zone
    and +1 more for the Santa Eulalia flag there (a Catalan assault)."""
    return lead_strength + units - 1 + (1 if commander else 0) + (1 if flag else 0)


@njit(cache=True, nogil=True)
def defence_value(lead_strength, terrain_bonus, units, commander, flag):
    """Rule 11.3 and 13 (the flag), defender (before any withdrawal): the lead's
    strength, the terrain bonus (zone, blue line or barricade), +1 per additional unit,
    +1 for one commander and +1 more for the Santa Eulalia flag."""
    leaders = (1 if commander else 0) + (1 if flag else 0)
    return lead_strength + terrain_bonus + units - 1 + leaders


@njit(cache=True, nogil=True)
def resolve_assault(rng, attack_value, defence_value, log):
    """Rule 11.3: each side adds 1d6; the attacker wins only if strictly higher."""
    attack_die = roll_d6(rng, ST_ASSAULT)
    defence_die = roll_d6(rng, ST_ASSAULT)
    attacker_wins = attack_value + attack_die > defence_value + defence_die
    log_event(log, EV_ASSAULT_ROLL, attack_die, defence_die, attacker_wins)
    return attack_die, defence_die, attacker_wins


@njit(cache=True, nogil=True)
def commander_casualty(rng, side, log):
    """Rule 11.3: a commander involved in an assault dies on a 6."""
    die = roll_d6(rng, ST_COMMANDER)
    dies = die >= COMMANDER_DIES
    log_event(log, EV_COMMANDER_ROLL, side, die, dies)
    return dies
