"""Rule knobs of the whole game of 11 de Setembre (``setembre1714``).

Every number the rulebook prints is a knob holding the printed value; the game length,
which the rulebook does not print, holds the reconstruction's value (the assault ran
from about 04:30 into the afternoon, 60-90 minutes a turn: 8 turns of about 75 minutes).
"""

from dataclasses import dataclass

from simkit.games.base import Parameters, RulesBase, knob, reading, reconstruction

from . import layout as L


@dataclass(frozen=True)
class Rules(RulesBase):
    turns: int = reconstruction(
        8, "game turns (1: 'The game is divided into a given number of turns'; the number "
        "is not printed)",
        alternatives={
            7: "the assault from 04:30 to its end in the early afternoon at 90 minutes a "
               "turn (3.3: 'between 60 and 90 minutes of actual combat')",
            10: "the same hours at 60 minutes a turn, the other end of 3.3's range"},
        why="the assault ran from about 04:30 into the afternoon: 8 turns of about 75 "
            "minutes, the middle of 3.3's 60 to 90",
        range=(1, L.MAX_TURNS - 1))
    breach_roll: int = knob(
        6, "lowest die that assures the Royal Breach at a Bourbon turn's start (rule 7: a 6; "
        "a value of 7: never)", range=(1, 7))
    events: bool = knob(
        True, "draw a random event card each half-turn (8; optional: false skips the phase)")
    stacking_limit: int = knob(
        5, "combat units a side may stack in a zone outside the deployment zones (6.1)",
        range=(1, 10))
    movement: int = knob(3, "zones a unit, leader or barricade may move (10, 12)",
                         range=(1, 6))
    open_defence: int = knob(0, "defence value of ochre and green zones (11.1)",
                             range=(0, 5))
    grey_defence: int = knob(2, "defence value of grey zones (11.1)", range=(0, 5))
    blue_defence: int = knob(3, "defence value of blue zones (11.1)", range=(0, 6))
    blue_line_bonus: int = knob(
        3, "assault bonus of defenders behind a blue line against attacks across it (11.3)",
        range=(0, 6))
    barricade_bonus: int = knob(
        3, "assault bonus of defenders behind a barricade against attacks from the zone it "
        "faces (12)", range=(0, 6))
    barricades: bool = knob(True, "the Catalan barricades are on the map (12)")
    santa_eulalia_flag: bool = knob(
        True, "the Santa Eulalia flag enters the game (13: +1, on top of a commander)")
    withdrawal_bonus: int = knob(
        2, "defence bonus for declaring a withdrawal (11.3: +2)", range=(0, 6))
    bourbon_recovery_percent: int = knob(
        100, "Bourbon recovery allowance as a percentage of the schedule in "
        "data/forces.toml (10.1)", range=(0, 400))
    catalan_reinforcements: bool = knob(
        True, "the Catalan reinforcements of data/forces.toml enter (10.1)")
    vp_unit: int = knob(1, "VP per eliminated enemy combat unit (13)", range=(0, 10))
    vp_commander: int = knob(2, "VP per eliminated enemy commander (13)", range=(0, 10))
    vp_bastion: int = knob(2, "VP per bastion or redoubt held (13)", range=(0, 20))
    vp_convent: int = knob(4, "VP per convent or monastery held (13)", range=(0, 20))
    vp_pla_de_palau: int = knob(4, "VP for holding Pla de Palau (13)", range=(0, 20))
    extra_turn: bool = knob(
        True, "a VP draw after the last turn extends the game one turn (13)")
    advanced_units_attack: str = reading(
        "no", "units that advanced into the zone they took may salvo or assault from it "
        "again in the same combat phase (11, 11.3)",
        values={
            "no": '11: "Units of the same zone must do the same action, and each friendly '
                  'zone can declare only one action": the advancing units made their '
                  'attack, and the zone they took counts as having made it',
            "yes": '11.3: an assault is announced "from one of his zones where he has units '
                   'and which have not made any attack yet", and 11: "One combat can be '
                   'declared for each zone with friendly troops": the taken zone has made '
                   'none'},
        why="11 gives each unit one action a phase (all units of a zone do the same one); "
            "letting the advancing units attack again chains assaults through several "
            "zones in one phase, a second move 10's stop next to the enemy exists to "
            "prevent, and the Example of combat ends its phase after the advance (figure F)")
    recreated_units_score: str = reading(
        "no", "an eliminated unit later recreated (10.1) or returned by an event (8) still "
        "scores its 1 VP for the enemy (13)",
        values={
            "no": '13: "each side must count all its victory points ... 1 VP for each '
                  'eliminated enemy combat unit", counted at the end: the units eliminated '
                  'then, as 10.1 names the pile it recreates from ("he can recover as many '
                  'eliminated units"); a recreated unit is back in play',
            "yes": '13: "1 VP for each eliminated enemy combat unit" read as every '
                   'elimination during the game; 10.1: Bourbon reinforcements "are '
                   'composed of recreated units"'},
        why="13 counts the VP at the end of the last turn and 10.1 uses 'eliminated units' "
            "for the units in the eliminated pile at a given moment (the ones that may be "
            "recovered); the rulebook has no track of past eliminations, so at the table "
            "the players count the pile")
    exhausted_deck: str = reading(
        "no_events", "what the random events phase does once every card of the deck has "
        "been drawn (8; the reconstructed deck has 18 cards, so from turn 10 of a game "
        "longer than 9 turns)",
        values={
            "no_events": '8: "Finally the card is discarded and left apart from the rest '
                         'of the game"; 5.1.6: "The card used during the turn is '
                         'discarded, removing it from the game area": no card is left to '
                         'draw, so the phase draws none',
            "reshuffle": '5.1.2 and 5.2.1: every half-turn has a random events phase in '
                         'which "The active player draws the top card of the deck": the '
                         'discarded cards are shuffled into a new deck so that it can'},
        why="the rulebook removes used cards from the game twice (5.1.6, 8) and never "
            "mentions a reshuffle; the printed deck's size is unknown, and the standard "
            "8-turn game (16 half-turns and the extra turn) never exhausts the 18 cards")

    @property
    def zone_defence(self) -> tuple[int, ...]:
        """Defence value per colour code (ochre, green, grey, blue)."""
        return (self.open_defence, self.open_defence, self.grey_defence, self.blue_defence)


def _objective_vp(rules: Rules) -> list[int]:
    vp = [0] * len(L.OBJECTIVE_KINDS)
    vp[L.OBJ_BASTION], vp[L.OBJ_CONVENT] = rules.vp_bastion, rules.vp_convent
    vp[L.OBJ_PALAU] = rules.vp_pla_de_palau
    return vp


#: the whole game's parameter vector (offsets in ``layout``): each field is the knob
#: or property of the same name, except the objectives' VP, one slot per kind, and the
#: readings, 1 for "yes" (``exhausted_deck``: 1 for "reshuffle")
PARAMETERS = Parameters(L._P, Rules, vp_objective=_objective_vp,
                        advanced_units_attack=lambda r: r.advanced_units_attack == "yes",
                        recreated_units_score=lambda r: r.recreated_units_score == "yes",
                        exhausted_deck=lambda r: r.exhausted_deck == "reshuffle")
