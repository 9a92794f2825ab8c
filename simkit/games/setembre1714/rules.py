"""Rule knobs of the whole game of 11 de Setembre (``setembre1714``).

Every number the rulebook prints is a knob holding the printed value; the game length,
which the rulebook does not print, holds the reconstruction's value (the assault ran
from about 04:30 into the afternoon, 60-90 minutes a turn: 8 turns of about 75 minutes).
"""

from dataclasses import dataclass

from simkit.games.base import Parameters, RulesBase, knob, reconstruction

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
#: or property of the same name, except the objectives' VP, one slot per kind
PARAMETERS = Parameters(L._P, Rules, vp_objective=_objective_vp)
