"""Every trace event of the assault scenario: its code, the meaning of its arguments and
the sentence that tells it. The table opens with the combat system's events
(``combat_system.combat_events``: the Royal Breach check, artillery, salvo, assault and
commander casualty, rulebook 7, 9, 11.2 and 11.3); the scenario's own follow."""

from .combat_system import combat_events

EVENTS = combat_events("setembre1714-assault")

EV_BREACH_NEVER = EVENTS.add(
    "breach_never", "a = turns played",
    "The Royal Breach was never assured in {a} turns; the assault is called off")
EV_ZONE_CLEARED = EVENTS.add(
    "zone_cleared", "",
    "  No defender is left: the Bourbons occupy the zone without an assault")
