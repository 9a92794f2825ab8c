"""Every trace event of 11 de Setembre: its code, the meaning of its arguments and the
sentence that tells it (the engine logs codes from here; ``narrate`` reads this table)."""

from simkit.eventlog import EventTable

from . import layout as L

EVENTS = EventTable("setembre1714")

EV_BREACH_CHECK = EVENTS.add(
    "breach_check", "a = turn, b = die, c = assured (0/1)",
    lambda x, a, b, c: f"Turn {a}: Royal Breach check, die {b}: the breach is "
                       + ("assured!" if c else "not yet assured"))
EV_BREACH_NEVER = EVENTS.add(
    "breach_never", "a = turns played",
    "The Royal Breach was never assured in {a} turns; the assault is called off")
EV_ARTILLERY = EVENTS.add(
    "artillery", "a = gun range (1/2), b = die, c = hit (0/1)",
    lambda x, a, b, c: "  Artillery fire from "
                       + ("an adjacent zone" if a == 1 else "a zone two zones away")
                       + f": die {b}, " + ("a unit eliminated" if c else "a miss"))
EV_SALVO = EVENTS.add(
    "salvo", "a = units firing, b = sixes, c = kills",
    "  Salvo fire by {a} units: {b} sixes, {c} defenders eliminated")
EV_ZONE_CLEARED = EVENTS.add(
    "zone_cleared", "",
    "  No defender is left: the Bourbons occupy the zone without an assault")
EV_ASSAULT_VALUES = EVENTS.add(
    "assault_values", "a = attack value, b = defence value, c = withdrawal (0/1)",
    lambda x, a, b, c: f"  Assault: attacker value {a} against defender value {b}; the "
                       "defender " + ("declares a withdrawal (included)" if c else "stands"))
EV_ASSAULT_ROLL = EVENTS.add(
    "assault_roll", "a = attack die, b = defence die, c = attacker wins (0/1)",
    lambda x, a, b, c: f"  Dice: attacker {a}, defender {b}: "
                       + ("the attacker wins" if c else "the defender wins (ties to the "
                                                         "defender)"))
EV_COMMANDER_ROLL = EVENTS.add(
    "commander_roll", "a = side slot, b = die, c = eliminated (0/1)",
    lambda x, a, b, c: ("  Bourbon" if a == L.SIDE_BOURBONS else "  Catalan")
                       + f" commander casualty roll {b}: "
                       + ("eliminated" if c else "survives"))
