"""Every trace event of the whole game: its code, the meaning of its arguments and the
sentence that tells it (the engine logs codes from here; ``narrate`` reads this table).

The table opens with the combat system's events (``combat_system.combat_events``: the
Royal Breach check, artillery, salvo, assault values and dice, commander casualties), so
the rule functions both games share log the same codes here; the whole game's own
follow. The context ``x`` is the game's ``components.Names`` (zone, unit, leader and
card names).
"""

from simkit.games.setembre1714_assault.combat_system import combat_events

from . import layout as L

EVENTS = combat_events("setembre1714")


def _side(a):
    return "Two Crowns" if a == L.BOURBONS else "Catalan"


CAUSES = ("artillery", "salvo", "assault", "overstacking", "surrounded")
(CAUSE_ARTILLERY, CAUSE_SALVO, CAUSE_ASSAULT, CAUSE_OVERSTACK,
 CAUSE_SURROUNDED) = range(len(CAUSES))

EV_TURN = EVENTS.add("turn", "a = turn", "== Turn {a} ==")
EV_HALF = EVENTS.add("half", "a = side", lambda x, a, b, c: f"-- {_side(a)} half-turn --")
EV_CARD = EVENTS.add(
    "card", "a = card, b = side, c = effect value",
    lambda x, a, b, c: f"  Event: {x.cards[a]} ({_side(b)} draws it)")
EV_BREACH_BY_EVENT = EVENTS.add(
    "breach_by_event", "a = turn", "  The event assures the Royal Breach on turn {a}")
EV_GUN_TARGET = EVENTS.add(
    "gun_target", "a = gun zone, b = target zone, c = range",
    lambda x, a, b, c: f"  A gun in {x.zones[a]} fires at {x.zones[b]} ({c} zone(s) away)")
EV_UNIT_LOST = EVENTS.add(
    "unit_lost", "a = unit, b = zone, c = cause",
    lambda x, a, b, c: f"    {x.units[a]} eliminated in {x.zones[b]} ({CAUSES[c]})")
EV_MOVE = EVENTS.add(
    "move", "a = unit, b = from, c = to",
    lambda x, a, b, c: f"  {x.units[a]} moves {x.zones[b]} -> {x.zones[c]}")
EV_LEADER_MOVE = EVENTS.add(
    "leader_move", "a = leader, b = from, c = to",
    lambda x, a, b, c: f"  {x.leaders[a]} moves {x.zones[b]} -> {x.zones[c]}")
EV_BARRICADE_MOVE = EVENTS.add(
    "barricade_move", "a = barricade, b = zone, c = faces",
    lambda x, a, b, c: f"  A barricade is set up in {x.zones[b]} facing {x.zones[c]}")
EV_GUN_CAPTURED = EVENTS.add(
    "gun_captured", "a = gun, b = zone",
    lambda x, a, b, c: f"  The gun in {x.zones[b]} is captured")
EV_LEADER_CAPTURED = EVENTS.add(
    "leader_lost", "a = leader, b = zone",
    lambda x, a, b, c: f"    {x.leaders[a]} is lost in {x.zones[b]}")
EV_LEADER_FALLS_BACK = EVENTS.add(
    "leader_falls_back", "a = leader, b = from, c = to",
    lambda x, a, b, c: f"    {x.leaders[a]} falls back {x.zones[b]} -> {x.zones[c]}")
EV_BARRICADE_LOST = EVENTS.add(
    "barricade_lost", "a = barricade, b = zone",
    lambda x, a, b, c: f"    The barricade in {x.zones[b]} is lost")
EV_REINFORCE = EVENTS.add(
    "reinforce", "a = unit, b = zone, c = side",
    lambda x, a, b, c: f"  Reinforcement: {x.units[a]} enters {x.zones[b]}")
EV_LEADER_ENTERS = EVENTS.add(
    "leader_enters", "a = leader, b = zone",
    lambda x, a, b, c: f"  {x.leaders[a]} enters {x.zones[b]}")
EV_RECOVERY = EVENTS.add(
    "recovery", "a = recreated, b = allowance, c = lost for good",
    "  The Two Crowns recreate {a} units (allowance {b}); {c} are lost for good")
EV_SALVO_DECLARED = EVENTS.add(
    "salvo_declared", "a = from, b = at, c = dice",
    lambda x, a, b, c: f"  Salvo fire from {x.zones[a]} at {x.zones[b]} ({c} dice)")
EV_ASSAULT_DECLARED = EVENTS.add(
    "assault_declared", "a = from, b = on, c = terrain bonus",
    lambda x, a, b, c: f"  Assault from {x.zones[a]} on {x.zones[b]} (defender's terrain +{c})")
EV_LEADS = EVENTS.add(
    "leads", "a = attacking lead, b = defending lead, c = leaders used (1 att, 2 def, 4 flag)",
    lambda x, a, b, c: f"    Leads: {x.units[a]} against {x.units[b]}"
                       + (", attacking commander" if c & 1 else "")
                       + (", defending commander" if c & 2 else "")
                       + (", the flag" if c & 4 else ""))
EV_RETREAT = EVENTS.add(
    "retreat", "a = unit, b = from, c = to",
    lambda x, a, b, c: f"    {x.units[a]} retreats {x.zones[b]} -> {x.zones[c]}")
EV_ADVANCE = EVENTS.add(
    "advance", "a = unit, b = from, c = to",
    lambda x, a, b, c: f"    {x.units[a]} advances {x.zones[b]} -> {x.zones[c]}")
EV_TURN_END = EVENTS.add(
    "turn_end", "a = turn, b = objectives the Two Crowns hold, c = Catalan units on the map",
    "  End of turn {a}: the Two Crowns hold {b} of 11 objectives; {c} Catalan units remain")
EV_VP = EVENTS.add(
    "vp", "a = Two Crowns VP, b = Catalan VP, c = turn",
    "Victory points after turn {c}: Two Crowns {a}, Catalans {b}")
EV_EXTRA_TURN = EVENTS.add(
    "extra_turn", "a = turn", "A draw: the game is extended by turn {a}")
EV_AUTOMATIC = EVENTS.add(
    "automatic", "a = turn, b = 0 annihilation / 1 objectives",
    lambda x, a, b, c: f"Automatic victory of the Two Crowns at the end of turn {a}: "
                       + ("every Catalan unit is gone" if b == 0 else
                          "they hold every bastion, the redoubt and every convent"))
