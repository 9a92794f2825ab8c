"""Victus traces: the engine's event log told in the rulebook's words."""

from simkit.eventlog import events

from . import card_layout as CL
from . import layout as L
from .barcelonans import EV_ACTION
from .cards import Cards
from .cards import narrate as narrate_card
from .components import Components
from .engine import EV_AP, EV_DEFEAT_VP, EV_DICE_ORDER, EV_DIE, EV_STAGE, EV_TURN
from .scoring import EV_CARD_SCORED
from .solo import EV_CASANOVA_CARD, EV_RESIGNATION

_FIELDS = {L.SP_CORONELA: "Coronela", L.SP_INFANTRY: "infantry"}
_DISCS = ("reinforcements", "batteries", "mine")
_STAGES = ("I (Pópoli)", "II (Berwick)", "III (Assaults)", "IV (11 September)")


_NO_SPACE = (L.A_HEALING, L.A_CHANGE_CARD)
_MARKER = (L.A_IMPROVE_PRESENT, L.A_IMPROVE_ABSENT)
_TWO_SPACES = (L.A_MOVE_TROOPS, L.A_MOVE_CANNON, L.A_FIRE_CANNON)


def action(c: Components, a: int, b: int, c3: int) -> str:
    name = "    " + L.BARCELONAN_ACTION_NAMES[a].replace("_", " ")
    if a in _NO_SPACE:
        return name
    if a in _MARKER:
        return f"{name}: {c.marker_names[b]}"
    if a in _TWO_SPACES:
        return f"{name}: {c.label(b)} -> {c.label(c3)}"
    return f"{name}: {c.label(b)}"


def sentence(event, c: Components, cards: Cards) -> str | None:
    """One log event as a line of the trace; None for an event that changed nothing."""
    code, a, b, c3 = (int(x) for x in event)
    if code >= 100:
        if code in (CL.EV_ALMANAC, CL.EV_MARKER) and b == c3:
            return None
        return "    " + (narrate_card(event, c, cards) or f"card event {code}")
    texts = {
        EV_STAGE: lambda: f"== Stage {_STAGES[a]} ==",
        EV_TURN: lambda: f"-- round {b + 1}, seat {c3 + 1}'s turn --",
        EV_DIE: lambda: f"  {c.die_colours[a]} die: {L.ACTION_NAMES[b]} {c3}",
        EV_AP: lambda: f"  Barcelonan actions: {a} AP",
        EV_ACTION: lambda: action(c, a, b, c3),
        L.EV_DISC: lambda: f"    {_DISCS[a]} disc: position {b} -> {c3}",
        L.EV_BOMBARD_SPACE: lambda: f"    bombardment: {c.label(a)} takes {b} hit(s)",
        L.EV_HIT: lambda: f"      hit on {c.label(a)}: {L.HIT_NAMES[b]}",
        L.EV_ADVANCE: lambda: f"    advance: Bourbon tile(s) of value {c3}, "
                              f"{c.label(a)} -> {c.label(b)}",
        L.EV_TRENCH: lambda: f"    trench tile {L.TRENCH_NAMES[a]}: position {b} -> {c3}",
        L.EV_COMBAT: lambda: f"    combat at {c.label(a)}: Bourbons {b} against "
                             f"Barcelonans {c3}",
        L.EV_HEAL: lambda: f"    healing: {_FIELDS.get(b, 'troop')} x{c3} -> {c.label(a)}",
        L.EV_CAMP_PLACED: lambda: f"    a value-{b} Bourbon tile on camp {c.label(a)}",
        L.EV_HALF_A_BOMB: lambda: f"      Given Half a Bomb: {c.marker_names[a]} pin 1 space "
                                  "counter-clockwise",
        EV_CARD_SCORED: lambda: f"  end of round: seat {a + 1}'s card moves the Sense/Fury pin to "
                                f"space {b}: " + (f"{c3} VP" if c3 else "not scored"),
        EV_DICE_ORDER: lambda: f"  the players {'choose' if b else 'do not choose'} the "
                               f"Bourbon dice order in Stage {_STAGES[a]}",
        EV_DEFEAT_VP: lambda: f"  defeat: {a} VP among all players, below the victory "
                              f"level {b}",
        EV_CASANOVA_CARD: lambda: f"  Casanova's pile: card {a} comes up",
        EV_RESIGNATION: lambda: f"  Villarroel spends a resignation tile on card {a} "
                                f"({b} left)",
    }
    return texts[code]() if code in texts else f"    (event {code}: {a} {b} {c3})"


def narrate_log(log, c: Components, cards: Cards) -> list[str]:
    lines = (sentence(event, c, cards) for event in events(log))
    return [line for line in lines if line is not None]
