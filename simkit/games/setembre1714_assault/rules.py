"""Rule knobs of the assault scenario: 11 de Setembre's combat system (rulebook "7. The
mine under the Royal Breach", "9. Artillery fire", "11. Combat", "13. The Santa Eulalia's
flag").

``Rules`` describes the assault scenario: one defended zone, attacked through the
Royal Breach on the Bourbon turn the breach is assured, after the preparatory fire. The
standard values reproduce the rulebook's Example of combat (section 11): a salvo by 4
units on a zone of 5 defenders behind a barricade with their commander adjacent, then an
assault by a lead grenadier and 4 more units.
"""

from dataclasses import dataclass

from simkit.errors import RulesError
from simkit.games.base import Parameters, PolicyRows, RulesBase, knob, reconstruction

from . import layout as L


@dataclass(frozen=True)
class Rules(RulesBase):
    max_turns: int = reconstruction(
        12, "Bourbon turns of Royal Breach checks before the assault is called off "
        "(the rulebook does not print the game length)",
        alternatives={7: "the whole day at 90 minutes a turn (3.3), as the whole game reads it",
                      16: "a longer day: more chances for the breach to be assured"},
        why="generous: the breach (a 6 each turn) is assured within 12 turns in 89% of "
            "games, so the call-off rarely decides a game",
        range=(1, 60))
    breach_roll: int = knob(
        6, "lowest die that assures the Royal Breach at a Bourbon turn's start (rulebook: 6)",
        range=(1, 6))
    guns_adjacent: int = knob(
        0, "Bourbon guns adjacent to the defending zone; each fires once, hit on 4-6",
        range=(0, 10))
    guns_at_range_2: int = knob(
        0, "Bourbon guns two zones away; each fires once, hit on 5-6", range=(0, 10))
    salvo_units: int = knob(
        4, "combat units of a second zone firing a salvo first (a 6 kills); more than 5 "
        "only from a deployment zone", range=(0, 10))
    salvo_from: str = knob(
        "urban", "the colour of the salvo's zone (11.2: no salvo at a zone of higher defence "
        "value): open (ochre/green, 0), urban (grey, 2; the Example of combat's upper grey "
        "zone), convent (blue, 3)", choices=L.SALVO_ZONES)
    blue_line_covers_salvo: bool = knob(
        True, "with terrain = blue_line, the line also covers the side the salvo comes "
        "across, which blocks it (11.2); a barricade covers only the side it faces, the "
        "assault's (12)")
    attacker_lead: int = knob(5, "combat strength of the attacking lead unit", range=(1, 9))
    attacker_units: int = knob(
        5, "combat units in the assaulting zone, lead included (+1 per additional unit); "
        "more than 5 only from a deployment zone", range=(1, 10))
    attacker_commander: bool = knob(
        False, "a Bourbon commander adjacent to the attacked zone (+1)")
    defender_lead: int = knob(5, "combat strength of the defending lead unit", range=(1, 9))
    defender_others: int = knob(
        5, "combat strength of the other defenders (the Example of combat's zone holds "
        "several mountain fusiliers of 5); the Bourbon guns aim at the lead, the strongest "
        "(9: 'the active player defines what his target is'), so after a hit one of these "
        "leads", range=(1, 9))
    defender_units: int = knob(
        5, "Catalan combat units in the attacked zone before any fire (stacking limit 5)",
        range=(1, 5))
    terrain: str = knob(
        "barricade", "what the defenders fight behind: open (ochre/green, +0), urban "
        "(grey, +2), convent (blue, +3), blue_line (+3), barricade (+3)",
        choices=L.TERRAIN_NAMES)
    defender_commander: bool = knob(
        True, "a Catalan commander in or adjacent to the attacked zone (+1)")
    santa_eulalia_flag: bool = knob(
        False, "the Flag of Santa Eulalia in or adjacent to the zone (+1, on top of a "
        "commander)")
    withdrawal_bonus: int = knob(
        2, "defence bonus for declaring a withdrawal (rulebook: +2)", range=(0, 6))

    def check(self) -> None:
        if self.defender_others > self.defender_lead:
            raise RulesError(
                f"defender_others={self.defender_others} is stronger than defender_lead="
                f"{self.defender_lead}: the defender leads with its strongest unit (11.3)")
        if self.attacker_units > 5 and self.salvo_units > 5:
            raise RulesError(
                "only one deployment zone can hold more than 5 units in this scenario: "
                f"attacker_units={self.attacker_units} and salvo_units={self.salvo_units} "
                "cannot both exceed 5")

    @property
    def terrain_bonus(self) -> int:
        return L.TERRAIN_BONUS[L.TERRAIN_NAMES.index(self.terrain)]

    @property
    def salvo_permitted(self) -> bool:
        """Rule 11.2 for this terrain and salvo zone (the kernel's ``salvo_fires``)."""
        from .engine import salvo_fires
        rule = getattr(salvo_fires, "py_func", salvo_fires)
        return bool(rule(L.TERRAIN_NAMES.index(self.terrain),
                         L.SALVO_ZONE_DEFENCE[L.SALVO_ZONES.index(self.salvo_from)],
                         self.blue_line_covers_salvo))

    @property
    def attack_value(self) -> int:
        """The attacker's assault value before the die (rulebook 11.3)."""
        return self.attacker_lead + self.attacker_units - 1 + int(self.attacker_commander)

    def lead_after(self, artillery_kills: int) -> int:
        """The defending lead's strength after the artillery (the kernel's
        ``defending_lead``): the guns aim at the lead (9)."""
        return self.defender_others if artillery_kills else self.defender_lead

    def defence_value(self, defenders: int, withdrawal: bool = False,
                      artillery_kills: int = 0) -> int:
        """The defender's assault value before the die with ``defenders`` units left."""
        leaders = min(int(self.defender_commander) + int(self.santa_eulalia_flag), 2)
        return (self.lead_after(artillery_kills) + self.terrain_bonus + defenders - 1
                + leaders + (self.withdrawal_bonus if withdrawal else 0))


@dataclass(frozen=True)
class AssaultWeights(RulesBase):
    """The Bourbons' ``assault`` weights (rulebook 11.3's commander choice)."""

    KIND = "policy weight"

    spare_commander_from: int = knob(
        20, "the Bourbon commander adjacent to the zone is not used (no +1, no risk of a 6) "
        "when the attack without him already leads the defence by this much or more before "
        "the dice (11.3: 'the player can choose not to use any commander in the assault "
        "... in order not to risk him'); 20 = always used", range=(-20, 20))


@dataclass(frozen=True)
class CautiousWeights(RulesBase):
    """The Catalans' ``cautious`` weights (rulebook 11.3's withdrawal)."""

    KIND = "policy weight"

    withdraw_above: int = knob(
        0, "declare a withdrawal (+2, the zone given up without losses) when the attack "
        "leads the defence by more than this before the dice (0: whenever it is higher)",
        range=(-20, 20))


#: the assault kernel's parameter vector (offsets in ``layout``): every field is the knob
#: or property of the same name (the salvo's zone as its defence value)
PARAMETERS = Parameters(
    L._P, Rules,
    salvo_from=lambda r: L.SALVO_ZONE_DEFENCE[L.SALVO_ZONES.index(r.salvo_from)],
    terrain=lambda r: L.TERRAIN_NAMES.index(r.terrain))


#: the weights each policy takes (stand and withdraw take none)
POLICY_WEIGHTS = {"bourbons": {"assault": AssaultWeights},
                  "catalans": {"cautious": CautiousWeights}}

#: each side's row of the kernel's ``pol`` (``layout.W_*``): the policy's id, then its
#: weights; the Catalans' stand and withdraw read none
POLICY_ROWS = PolicyRows(L._W, POLICY_WEIGHTS)
