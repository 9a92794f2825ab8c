"""Every Victus trace event, one table: its code, its arguments and its sentence.

The rule modules log ``(code, a, b, c)`` with the codes below; ``narrate`` tells each in
the rulebook's words through ``EVENTS.narrate(log, Context(components, cards))``. Seats
are told from 1, as in the outcome columns. An event that changed nothing (an Almanac or
marker step stopped at the end of its dial) is left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from simkit.eventlog import EventTable

from . import card_layout as CL
from . import layout as L

EVENTS = EventTable("victus")

STAGE_TITLES = ("I (Pópoli)", "II (Berwick)", "III (Assaults)", "IV (11 September)")
_FIELDS = {L.SP_CORONELA: "Coronela", L.SP_INFANTRY: "infantry", L.SP_CANNON: "cannon"}
_WHEN = {CL.T_START_OF_TURN: "start of turn", CL.T_END_OF_TURN: "end of turn",
         CL.T_END_OF_ROUND: "end of round", CL.T_NEXT_ROUND_START: "start of round"}
_NO_SPACE = (L.A_HEALING, L.A_CHANGE_CARD)
_ON_MARKER = (L.A_IMPROVE_PRESENT, L.A_IMPROVE_ABSENT)
_TWO_SPACES = (L.A_MOVE_TROOPS, L.A_MOVE_CANNON, L.A_FIRE_CANNON)


@dataclass(frozen=True)
class Context:
    """What the sentences read: the board (space labels, marker dials) and the cards."""

    c: object  # components.Components
    cards: object  # cards.Cards

    def card(self, n: int) -> str:
        return f"card {n} \"{self.cards.titles[n]}\""

    def pin(self, marker: int, position: int) -> int:
        return int(self.c.marker_values[marker, position])

    def marker_step(self, marker: int, before: int, after: int) -> str:
        name = self.c.marker_names[marker]
        return f"{name} {self.pin(marker, before)} -> {self.pin(marker, after)}"


def _action(x: Context, a: int, b: int, c: int) -> str:
    name = "    " + L.BARCELONAN_ACTION_NAMES[a].replace("_", " ")
    if a in _NO_SPACE:
        return name
    if a in _ON_MARKER:
        return f"{name}: {x.c.marker_names[b]}"
    if a in _TWO_SPACES:
        return f"{name}: {x.c.label(b)} -> {x.c.label(c)}"
    return f"{name}: {x.c.label(b)}"


def _card(text):
    """A card event's sentence, indented under the turn."""
    return lambda x, a, b, c: (lambda s: s and "    " + s)(text(x, a, b, c))


# -- the sequence of play (engine.py) -----------------------------------------------------------
EV_STAGE = EVENTS.add("stage", "a = stage",
                      lambda x, a, b, c: f"== Stage {STAGE_TITLES[a]} ==")
EV_TURN = EVENTS.add("turn", "a = stage, b = round, c = seat",
                     lambda x, a, b, c: f"-- round {b + 1}, seat {c + 1}'s turn --")
EV_DIE = EVENTS.add("die", "a = die colour index, b = action, c = amount",
                    lambda x, a, b, c: f"  {x.c.die_colours[a]} die: {L.ACTION_NAMES[b]} {c}")
EV_ACTION_POINTS = EVENTS.add("action_points", "a = AP for the Barcelonan actions step",
                              "  Barcelonan actions: {a} AP")
EV_DICE_ORDER = EVENTS.add(
    "dice_order", "a = stage, b = 1 if the players order the dice this stage",
    lambda x, a, b, c: f"  the players {'choose' if b else 'do not choose'} the Bourbon dice "
                       f"order in Stage {STAGE_TITLES[a]}")
EV_DEFEAT_VP = EVENTS.add(
    "defeat_vp", "a = VP among all players, b = the victory level",
    "  defeat: {a} VP among all players, below the victory level {b}")

# -- Bourbon actions (bourbons.py, combat.py) --------------------------------------------------
EV_DISC = EVENTS.add("disc", "a = DISC_*, b = from position, c = to position",
                     lambda x, a, b, c: f"    {L.DISC_NAMES[a]} disc: position {b} -> {c}")
EV_BOMBARD_SPACE = EVENTS.add("bombard_space", "a = space, b = hits",
                              lambda x, a, b, c: f"    bombardment: {x.c.label(a)} takes "
                                                 f"{b} hit(s)")
EV_HIT = EVENTS.add("hit", "a = space, b = HIT_*",
                    lambda x, a, b, c: f"      hit on {x.c.label(a)}: {L.HIT_NAMES[b]}")
EV_ADVANCE = EVENTS.add("advance", "a = from space, b = to space, c = value",
                        lambda x, a, b, c: f"    advance: Bourbon tile(s) of value {c}, "
                                           f"{x.c.label(a)} -> {x.c.label(b)}")
EV_TRENCH = EVENTS.add("trench", "a = column, b = from, c = to",
                       lambda x, a, b, c: f"    trench tile {L.TRENCH_NAMES[a]}: position "
                                          f"{b} -> {c}")
EV_COMBAT = EVENTS.add("combat", "a = space, b = Bourbon value, c = Barcelonan value",
                       lambda x, a, b, c: f"    combat at {x.c.label(a)}: Bourbons {b} "
                                          f"against Barcelonans {c}")
EV_HEAL = EVENTS.add("heal", "a = space, b = SP_* troop field, c = count",
                     lambda x, a, b, c: f"    healing: {_FIELDS.get(b, 'troop')} x{c} -> "
                                        f"{x.c.label(a)}")
EV_CAMP_PLACED = EVENTS.add("camp_placed", "a = space, b = value",
                            lambda x, a, b, c: f"    a value-{b} Bourbon tile on camp "
                                               f"{x.c.label(a)}")
EV_HALF_A_BOMB = EVENTS.add(
    "half_a_bomb", "a = marker, b = its new pin position",
    lambda x, a, b, c: f"      Given Half a Bomb: {x.c.marker_names[a]} pin 1 space "
                       "counter-clockwise")

# -- Barcelonan actions (barcelonans.py) ---------------------------------------------------------
EV_ACTION = EVENTS.add("action", "a = A_* action, b = space or marker, c = target", _action)

# -- competitive and solo (scoring.py, solo.py) -------------------------------------------------
EV_CARD_SCORED = EVENTS.add(
    "card_scored", "a = seat, b = the pin's end space, c = VP scored (0: not scored)",
    lambda x, a, b, c: f"  end of round: seat {a + 1}'s card moves the Sense/Fury pin to "
                       f"space {b}: " + (f"{c} VP" if c else "not scored"))
EV_RESIGNATION = EVENTS.add(
    "resignation", "a = card cancelled, b = tiles left",
    "  Villarroel spends a resignation tile on card {a} ({b} left)")
EV_CASANOVA_CARD = EVENTS.add("casanova_card", "a = card drawn from Casanova's pile",
                              "  Casanova's pile: card {a} comes up")

# -- event and leader cards (card_effects.py) ---------------------------------------------------
EV_CARD = EVENTS.add(
    "card", "a = seat, b = card, c = KIND_*",
    _card(lambda x, a, b, c: f"seat {a + 1} plays {x.card(b)} "
                             f"({CL.KIND_NAMES[c].replace('_', ' ')})"))
EV_ALMANAC = EVENTS.add(
    "almanac", "a = marker, b = from position, c = to position",
    _card(lambda x, a, b, c: b != c and f"Almanac: {x.marker_step(a, b, c)}"))
EV_MARKER = EVENTS.add(
    "marker", "a = marker, b = from position, c = to position",
    _card(lambda x, a, b, c: b != c and x.marker_step(a, b, c)))
EV_LEADER_ON = EVENTS.add(
    "leader_on", "a = seat, b = card",
    _card(lambda x, a, b, c: f"seat {a + 1}: {x.card(b)} is active "
                             f"({x.cards.leader_names[x.cards.meta[b, CL.M_LEADER]]})"))
EV_LEADER_OFF = EVENTS.add(
    "leader_off", "a = seat, b = card, c = 1 if deactivated by a card (0: replaced)",
    _card(lambda x, a, b, c: f"seat {a + 1}: {x.card(b)} is deactivated"
                             + (" by a card" if c else "")))
EV_TIMED = EVENTS.add(
    "timed", "a = seat, b = card, c = T_*",
    _card(lambda x, a, b, c: f"seat {a + 1}, {_WHEN.get(c, '?')}: {x.card(b)}"))
EV_MOVED = EVENTS.add(
    "moved", "a = from space, b = to space, c = SP_* field moved",
    _card(lambda x, a, b, c: f"1 {_FIELDS.get(c, '?')}: {x.c.label(a)} -> {x.c.label(b)}"))
EV_PLACED = EVENTS.add(
    "placed", "a = space, b = PIECE_*, c = new count (or rubble state)",
    _card(lambda x, a, b, c: f"{CL.PIECE_NAMES[b].replace('_', ' ')} placed on "
                             f"{x.c.label(a)}"))
EV_REMOVED = EVENTS.add(
    "removed", "a = space, b = PIECE_*, c = amount",
    _card(lambda x, a, b, c: f"{c} {CL.PIECE_NAMES[b].replace('_', ' ')} removed from "
                             f"{x.c.label(a)}"))
EV_CAPTURED = EVENTS.add(
    "captured", "a = space, b = SP_* field",
    _card(lambda x, a, b, c: f"1 {_FIELDS.get(b, '?')} captured in {x.c.label(a)}"))
EV_FREED = EVENTS.add(
    "freed", "a = space, b = SP_* field",
    _card(lambda x, a, b, c: f"1 {_FIELDS.get(b, '?')} freed to {x.c.label(a)}"))
EV_BOURBONS = EVENTS.add(
    "bourbons", "a = space, b = value placed",
    _card(lambda x, a, b, c: f"a value-{b} Bourbon tile is added to {x.c.label(a)}"))
EV_AP_GRANTED = EVENTS.add(
    "ap_granted", "a = WAR_* group, b = AP granted",
    _card(lambda x, a, b, c: f"{L.WAR_COUNCIL_NAMES[a].capitalize()} ({b} AP)"))
EV_TEMP = EVENTS.add(
    "temp", "a = TEMP_*, b = change",
    _card(lambda x, a, b, c: f"{'↑' if b > 0 else '↓'} {CL.TEMP_NAMES[a]} this turn"))
EV_RANDOM_CHOICE = EVENTS.add(
    "random_choice", "",
    _card(lambda x, a, b, c: "next round, all players choose their card at random"))
EV_RUBBLE_MARKERS = EVENTS.add(
    "rubble_markers", "a = change, b = tiles on markers now",
    _card(lambda x, a, b, c: f"{a:+d} rubble on the markers ({b} there now)"))
EV_BRANCH = EVENTS.add(
    "branch", "a = card, b = 1 if the `if` was false (its else, or nothing)",
    _card(lambda x, a, b, c: "the condition holds" if b == 0 else "the condition fails"))
EV_NOT_ENOUGH = EVENTS.add(
    "not_enough", "a = wanted, b = available: move_troops runs its else (or nothing)",
    _card(lambda x, a, b, c: f"only {b} of {a} troops can be taken"))

# -- the players (policies.py) ------------------------------------------------------------------
EV_AP_LEFT = EVENTS.add(
    "ap_left", "a = AP left unspent at the end of an actions step, b = WAR_* group of a "
    "card's grant (-1: the Generalitat AP)",
    lambda x, a, b, c: a > 0 and f"    {a} AP left unspent"
                                 + (f" ({L.WAR_COUNCIL_NAMES[b]} grant)" if b >= 0 else ""))
