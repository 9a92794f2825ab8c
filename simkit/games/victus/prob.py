"""Exact answers to Victus: Barcelona 1714's rules-probability questions (the ``victus``
question family: ``simkit prob victus QUESTION``), read from the game's own data files.

Rulebook sections each question rests on:

- ``combat`` and ``break_space``: "Combat" (First Game Rules), "Combat" and "The
  Organ-Guns" (Full Game Rules); Examples 18 and 26. Deterministic: rules tables.
- ``cannon``: "Artillery Actions", Fire 1 cannon; Example 14. A rules table over the
  Bourbon troop tile values of data/tiles.toml.
- ``stage_iv``: "Stage IV: September 11, 1714", the deal tables of "Start of Stage I /
  II / III", and the Solo Game's Stage IV.
- ``event_dealt``: "Start of Stage I / II / III" (the deal tables) and "Marker Actions",
  Change 1 card. The First Game's pile is the cards with the "•" of data/cards.toml,
  which is a reconstruction (the rulebook prints no card).
- ``chance_cycle``: "Component Descriptions", Chance Cards (reshuffled only when the pile
  runs out).
- ``sense_fury``: Competitive Game Rules, "End of Round" 2.1-2.2 and "Moderating Sense
  and Fury"; Examples 27 and 29. The track's groups and colours come from data/markers.toml.
- ``fame``: Competitive Game Rules, "Players' Victory"; Example 28.
- ``reinforcements``, ``no_advance``, ``trench``: "4. Bourbon Actions", the stage's dice
  of data/dice.toml, and the Duke of Pópoli's "-1 to Advance and Trench on the Bourbon
  action dice" during Stages I and II (Example 29). The dice faces are a reconstruction:
  the rulebook names the actions and some faces but prints no face list.
"""

from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from simkit import prob as P
from simkit.datafile import DataFolder
from simkit.errors import RulesError
from simkit.games.base import Question, QuestionParams, knob

from . import card_layout as CL
from . import layout as L
from .cards import load_cards
from .components import DATA, load_components
from .rules import Rules

C = load_components()
_DATA = DATA  # the files the answers read: the package's, or a designer's (with_data)
_GS = C.marker_values[L.MARKER_GUNPOWDER_STORE][:C.marker_len[L.MARKER_GUNPOWDER_STORE]]
GUNPOWDER_RANGE = (int(min(_GS)), int(max(_GS)))
CASUALTY_READINGS = Rules.knob("winner_casualties").choices
SENSE_FURY_SPACES = len(C.sense_fury_group)
MOST_POINTS = 5  # a card's Sense or Fury points: 1..5 (cards.py checks every card)
N_CHANCE = len(C.chance_number)
STAGES_I_III = L.STAGE_NAMES[:3]
POPOLI_STAGES = (L.STAGE_I, L.STAGE_II)  # "During Stages I and II" (Example 29)

@contextmanager
def with_data(folder):
    """Answer from a designer's data files (``simkit prob victus ... --data DIR``):
    ``folder`` holds any of Victus's files, validated as a run validates them; the
    package's for the others. The parameters' ranges stay the package's."""
    global C, _DATA
    saved = C, _DATA
    data = DataFolder(DATA, folder)
    C, _DATA = load_components(data), data
    load_cards(data)  # a bad cards.toml is refused before any answer
    try:
        yield data
    finally:
        C, _DATA = saved


BOURBONS_WIN = "Bourbons win"
BARCELONANS_WIN = "Barcelonans win"
BOTH_LOSE = "tie: both sides lose"


# -- combat ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Defence(QuestionParams):
    """What the Barcelonan side counts in a combat (Combat: "BARCELONANS = ...")."""

    coronela: int = knob(2, "Coronela pieces in the space (combat value 1 each)",
                         range=(0, C.counts["coronela"]))
    infantry: int = knob(1, "infantry pieces in the space (combat value 3 each)",
                         range=(0, C.counts["infantry"]))
    in_barcelona: bool = knob(True, "a Barcelona space: the Gunpowder Store counts")
    gunpowder_store: int = knob(4, "the GUNPOWDER STORE marker's value (data/markers.toml)",
                                range=GUNPOWDER_RANGE)
    flag_holder: bool = knob(False, "the combat is in the Flag of Saint Eulalia holder's "
                                    "turn (+1 to the Gunpowder Store)")
    bastion_defense: int = knob(2, "the bastion defense tile in the space (+1 or +2)",
                                range=(0, 2))
    barricades: int = knob(0, "barricade tiles in the space (+1 each; full game)",
                           range=(0, C.counts["barricade"]))
    organ_guns: int = knob(0, "organ-gun tiles in the space (+5 each; full game)",
                           range=(0, C.counts["organ_gun"]))

    def check(self) -> None:
        # bastions and barricades are Barcelona spaces' ("Add a barricade": "in a
        # Barcelona space"; bastions are wall spaces)
        for name in ("bastion_defense", "barricades"):
            if getattr(self, name) and not self.in_barcelona:
                raise RulesError(f"parameter {name!r} = {getattr(self, name)} needs "
                                 f"in_barcelona = true (only Barcelona spaces hold them; "
                                 f"outside Barcelona give {name} = 0)")


def gunpowder(d: Defence) -> int:
    """The Gunpowder Store as it counts in this space (0 outside Barcelona)."""
    return (d.gunpowder_store + d.flag_holder) if d.in_barcelona else 0


def barcelonan_value(d: Defence) -> int:
    return (d.coronela + 3 * d.infantry + gunpowder(d) + d.bastion_defense + d.barricades
            + 5 * d.organ_guns)


def casualty_discount(d: Defence, reading: str) -> int:
    """What a Barcelonan winner's casualties discount: "the value of the GUNPOWDER STORE
    marker and that of the bastion defenses"; the ``every_defence`` reading adds the
    barricades and organ-guns."""
    discount = gunpowder(d) + d.bastion_defense
    if reading == "every_defence":
        discount += d.barricades + 5 * d.organ_guns
    return discount


def combat_outcome(bourbons: int, d: Defence, reading: str) -> dict:
    """One combat: the result, the Bourbon value left and the casualty points the
    Barcelonan winners take (Examples 18 and 26: the winner takes casualties)."""
    barcelonans = barcelonan_value(d)
    row = {"bourbons": bourbons, "barcelonans": barcelonans}
    if bourbons > barcelonans:
        return {**row, "result": BOURBONS_WIN, "barcelonan_troops": "all eliminated",
                "bourbons_left": bourbons - barcelonans, "casualty_points": 0}
    if barcelonans > bourbons:
        points = max(0, bourbons - casualty_discount(d, reading))
        return {**row, "result": BARCELONANS_WIN, "barcelonan_troops": "stay",
                "bourbons_left": 0, "casualty_points": points}
    return {**row, "result": BOTH_LOSE, "barcelonan_troops": "all eliminated",
            "bourbons_left": 0, "casualty_points": 0}


@dataclass(frozen=True)
class CombatParams(Defence):
    bourbons: int = knob(8, "the Bourbon troop tiles' total value in the space",
                         range=(0, 300))
    winner_casualties: str = knob(Rules().winner_casualties, "what a Barcelonan winner's "
                                  "casualties discount (the rules knob of that name)",
                                  choices=CASUALTY_READINGS)


def answer_combat(q: CombatParams) -> pd.DataFrame:
    return pd.DataFrame([combat_outcome(q.bourbons, q, q.winner_casualties)])


def answer_break_space(q: Defence) -> pd.DataFrame:
    """The Bourbon values around the defence: one less holds, equal ties, one more breaks."""
    value = barcelonan_value(q)
    reading = Rules().winner_casualties
    rows = [{"bourbons_needed": "the least that breaks the space",
             **combat_outcome(value + 1, q, reading)},
            {"bourbons_needed": "a tie: the space is cleared, the attackers too",
             **combat_outcome(value, q, reading)}]
    if value > 0:
        rows.append({"bourbons_needed": "the most the defence holds",
                     **combat_outcome(value - 1, q, reading)})
    return pd.DataFrame(rows)


# -- cannon -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CannonParams(QuestionParams):
    gunpowder_store: int = knob(4, "the GUNPOWDER STORE marker's value (data/markers.toml)",
                                range=GUNPOWDER_RANGE)
    flag_holder: bool = knob(False, "the Flag of Saint Eulalia holder fires (+1)")


def answer_cannon(q: CannonParams) -> pd.DataFrame:
    """Each Bourbon troop tile value (data/tiles.toml) after one shot: "eliminates a
    quantity of Bourbon troops equal to the value of the GUNPOWDER STORE marker"."""
    shot = q.gunpowder_store + q.flag_holder
    return pd.DataFrame([{"tile": int(v), "shot": shot, "left": max(0, int(v) - shot),
                          "eliminated": int(v) <= shot} for v in C.troop_values])


# -- cards: Stage IV, the deal, the chance deck ---------------------------------------------


@dataclass(frozen=True)
class TableParams(QuestionParams):
    players: int = knob(2, "players (1 = the solo game, Villarroel and Casanova)",
                        range=(1, 4))
    level: str = knob("full", "first_game (its deal table and only the \u2022 cards) or "
                      "full", choices=("first_game", "full"))

    def check(self) -> None:
        if self.players == 1 and self.level == "first_game":
            raise RulesError("parameter 'players' = 1 (solo) needs level = full: the solo "
                             "game is dealt as a 2-player full game")

    def rules(self) -> Rules:
        return Rules(players=self.players, level=self.level)


@dataclass(frozen=True)
class StageIVParams(TableParams):
    casanova_cards: int = knob(3, "solo: the cards left in Casanova's pile plus those "
                                  "cancelled with resignation tiles", range=(0, 40))


def stage_iv_pool(q: StageIVParams) -> tuple[int, int]:
    """(cards in the Stage IV pool, of them in one real player's hand): each stage leaves
    cards - rounds in every hand; solo, Casanova's pile and the cancelled cards join
    Villarroel's hand."""
    cards, rounds = q.rules().deal()
    per_hand = 3 * (cards - rounds)
    if q.players == 1:
        return per_hand + q.casanova_cards, per_hand
    return q.players * per_hand, per_hand


def answer_stage_iv(q: StageIVParams) -> pd.DataFrame:
    pool, hand = stage_iv_pool(q)
    return P.answer_table([
        {"pool": pool, "event": "a given card of the pool is the Stage IV card",
         "p": Fraction(1, pool)},
        {"pool": pool, "event": "the Stage IV card comes from a given player's hand",
         "p": Fraction(hand, pool)}])


@dataclass(frozen=True)
class DealtParams(TableParams):
    stage: str = knob("I", "the stage whose pile the card is in", choices=STAGES_I_III)
    changes: int = knob(0, "Change 1 card actions in the stage (full game: each player "
                           "draws one card more)", range=(0, 30))

    def check(self) -> None:
        super().check()
        if self.changes and self.level == "first_game":
            raise RulesError("parameter 'changes' needs level = full: Change 1 card is "
                             "not available in the First Game")


def stage_pile(stage: int, full: bool) -> int:
    """The cards of a stage's pile (data/cards.toml): all 50, or the First Game's •."""
    meta = load_cards(_DATA).meta[1:]
    in_stage = meta[:, CL.M_STAGE] == stage
    return int((in_stage if full else in_stage & (meta[:, CL.M_FIRST_GAME] == 1)).sum())


def answer_event_dealt(q: DealtParams) -> pd.DataFrame:
    """A given card of the stage is among the first k + n c cards of its shuffled pile."""
    rules = q.rules()
    pile = stage_pile(L.STAGE_NAMES.index(q.stage), rules.full)
    drawn = min(pile, rules.seats * (rules.deal()[0] + q.changes))
    return P.answer_table([{"pile": pile, "cards_drawn": drawn,
                            "event": "a given card of the stage is dealt or drawn",
                            "p": Fraction(drawn, pile)}])


@dataclass(frozen=True)
class ChanceParams(QuestionParams):
    draws: int = knob(3, "chance cards drawn since the pile was last shuffled",
                      range=(1, N_CHANCE))


def answer_chance_cycle(q: ChanceParams) -> pd.DataFrame:
    return P.answer_table([
        {"draws": q.draws, "event": "a given chance card is among them",
         "p": Fraction(q.draws, len(C.chance_number))},
        {"draws": q.draws, "event": "a given chance card is the last of them",
         "p": Fraction(1, len(C.chance_number))}])


# -- competitive scoring ----------------------------------------------------------------------


@dataclass(frozen=True)
class SenseFuryParams(QuestionParams):
    start: int = knob(0, "the pin's space before the card (1..9 from the Sense end; 0 = "
                         "every space)", range=(0, SENSE_FURY_SPACES))
    moderating: bool = knob(False, "Moderating Sense and Fury: score only on a change of "
                                   "colour")


def pin_end(start: int, points: int) -> int:
    """Sense (negative) moves left, Fury right; the pin stops at the last space."""
    return min(SENSE_FURY_SPACES, max(1, start + points))


def scores(start: int, end: int, moderating: bool) -> bool:
    """The pin ended in another group (moderating: another colour) than it started."""
    track = C.sense_fury_colour if moderating else C.sense_fury_group
    return bool(track[start - 1] != track[end - 1])


def answer_sense_fury(q: SenseFuryParams) -> pd.DataFrame:
    starts = [q.start] if q.start else range(1, SENSE_FURY_SPACES + 1)
    rows = []
    for start in starts:
        for points in [-k for k in range(MOST_POINTS, 0, -1)] + list(range(1, MOST_POINTS + 1)):
            end = pin_end(start, points)
            hit = scores(start, end, q.moderating)
            card = f"Sense {-points}" if points < 0 else f"Fury {points}"
            rows.append({"start": start, "card": card, "end": end, "scores": hit,
                         "vp": abs(points) if hit else 0})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class FameParams(QuestionParams):
    vp: int = knob(55, "the VP of all players together", range=(0, 500))
    stage_iv_card: str = knob("fury", "the Stage IV card's kind", choices=("sense", "fury"))
    stage_iv_points: int = knob(3, "the Stage IV card's Sense or Fury points",
                                range=(1, MOST_POINTS))
    coronela_threshold: int = knob(5, "the fewest Coronela pieces in Barcelona that avoid "
                                      "defeat (5 standard)", range=(1, C.counts["coronela"]))
    coronela: int = knob(6, "Coronela pieces in Barcelona at the end",
                         range=(0, C.counts["coronela"]))
    rubble: int = knob(13, "rubble/ruined tiles on the board at the end",
                       range=(0, C.counts["rubble_ruined"]))
    adjustments: int = knob(0, "the difficulty adjustments' bonuses and penalties together",
                            range=(-200, 200))


def fame_items(q: FameParams) -> list[tuple[str, int]]:
    """The fame sum, item by item, in the rulebook's words."""
    card = q.stage_iv_points * (2 if q.stage_iv_card == "fury" else 1)
    return [("the VP of all players", q.vp),
            (f"the Stage IV card ({q.stage_iv_card} {q.stage_iv_points}"
             f"{', double' if q.stage_iv_card == 'fury' else ''})", card),
            ("the minimum number of Coronela pieces", q.coronela_threshold),
            ("1 point for each Coronela piece in Barcelona", q.coronela),
            ("-1 point for each rubble/ruined tile", -q.rubble),
            ("the difficulty-adjustment bonuses/penalties", q.adjustments)]


def answer_fame(q: FameParams) -> pd.DataFrame:
    items = fame_items(q)
    rows = [{"item": name, "points": points} for name, points in items]
    rows.append({"item": "TOTAL fame", "points": sum(points for _, points in items)})
    return pd.DataFrame(rows)


# -- the Bourbon action dice ------------------------------------------------------------------


@dataclass(frozen=True)
class DiceParams(QuestionParams):
    stage: str = knob("II", "the stage whose dice are rolled (data/dice.toml [stages])",
                      choices=L.STAGE_NAMES)
    popoli: bool = knob(False, "the Duke of Pópoli leader is active (-1 to Advance and "
                               "Trench in Stages I and II)")


def stage_dice(stage: int) -> list[int]:
    """The dice a stage rolls, in table order (data/dice.toml)."""
    return [int(d) for d in C.stage_dice[stage] if d >= 0]


def face_amount(action: int, amount: int, stage: int, popoli: bool) -> int:
    """A face's result after Pópoli's modifier (never below 0)."""
    if popoli and stage in POPOLI_STAGES and action in (L.ACT_ADVANCE, L.ACT_TRENCH):
        return max(0, amount - 1)
    return amount


def die_result(die: int, action: int, stage: int, popoli: bool) -> P.Dist:
    """One die's ``action`` result (0 if it shows another action): each face 1/6."""
    out: P.Dist = {}
    faces = len(C.die_action[die])
    for face_action, amount in zip(C.die_action[die], C.die_amount[die], strict=True):
        k = face_amount(int(face_action), int(amount), stage, popoli) \
            if face_action == action else 0
        out[k] = out.get(k, Fraction(0)) + Fraction(1, faces)
    return out


def turn_total(action: int, stage: int, popoli: bool = False) -> P.Dist:
    """The ``action`` results of all the stage's dice in one turn, added up."""
    total: P.Dist = {0: Fraction(1)}
    for die in stage_dice(stage):
        total = P.convolve(total, die_result(die, action, stage, popoli))
    return total


def p_no_advance(stage: int, popoli: bool = False) -> Fraction:
    """No die of the turn gives an Advance of 1 or more."""
    out = Fraction(1)
    for die in stage_dice(stage):
        out *= die_result(die, L.ACT_ADVANCE, stage, popoli).get(0, Fraction(0))
    return out


def _with_mean(table: pd.DataFrame, dist: P.Dist, what: str) -> pd.DataFrame:
    mean = P.mean(dist)
    table.attrs["summary"] = [f"expected {what}: {mean} ({float(mean):.6f})"]
    return table


def answer_reinforcements(q: DiceParams) -> pd.DataFrame:
    dist = turn_total(L.ACT_REINFORCEMENTS, L.STAGE_NAMES.index(q.stage), q.popoli)
    table = P.answer_table(P.dist_rows(dist, "disc_spaces"))
    return _with_mean(table, dist, "reinforcements-disc spaces per turn")


def answer_no_advance(q: DiceParams) -> pd.DataFrame:
    p = p_no_advance(L.STAGE_NAMES.index(q.stage), q.popoli)
    return P.answer_table([{"stage": q.stage, "event": "no Advance in the turn", "p": p},
                           {"stage": q.stage, "event": "one Advance or more", "p": 1 - p}])


def answer_trench(q: DiceParams) -> pd.DataFrame:
    dist = turn_total(L.ACT_TRENCH, L.STAGE_NAMES.index(q.stage), q.popoli)
    table = P.answer_table(P.dist_rows(dist, "trench_symbols"))
    return _with_mean(table, dist, "trench symbols per turn")


DICE_NOTE = ("The dice faces are a reconstruction (data/dice.toml): the rulebook prints "
             "no face list.")
COMBAT_NOTE = ("Casualties follow Examples 18 and 26: the winner takes them; Bourbon "
               "winners lose the Barcelonan value, Barcelonan winners take casualty_points.")

QUESTIONS = {
    q.name: q
    for q in (
        Question("combat", "outcome of one combat: Bourbon value against troops + "
                 "Gunpowder Store + bastion + barricades + 5 per organ-gun (Combat)",
                 CombatParams, answer_combat, COMBAT_NOTE, deterministic=True),
        Question("break_space", "the least Bourbon value that breaks a defended space "
                 "(Combat)", Defence, answer_break_space, COMBAT_NOTE, deterministic=True),
        Question("cannon", "each Bourbon tile after one cannon shot (Fire 1 cannon)",
                 CannonParams, answer_cannon, deterministic=True),
        Question("stage_iv", "the Stage IV card drawn from the cards left in hand "
                 "(Stage IV)", StageIVParams, answer_stage_iv),
        Question("event_dealt", "a given event card dealt or drawn in its stage (Start of "
                 "Stage; Change 1 card)", DealtParams, answer_event_dealt),
        Question("chance_cycle", "a given chance card among the draws since a shuffle "
                 "(Chance Cards)", ChanceParams, answer_chance_cycle),
        Question("sense_fury", "where a card moves the Sense/Fury pin and whether it "
                 "scores (Competitive: End of Round)", SenseFuryParams, answer_sense_fury,
                 deterministic=True),
        Question("fame", "the fame of the winner (Competitive: Players' Victory)",
                 FameParams, answer_fame, deterministic=True),
        Question("reinforcements", "reinforcements-disc spaces moved by a turn's dice "
                 "(4. Bourbon Actions)", DiceParams, answer_reinforcements, DICE_NOTE),
        Question("no_advance", "chance a turn's dice give no Advance (4. Bourbon Actions)",
                 DiceParams, answer_no_advance, DICE_NOTE),
        Question("trench", "trench symbols of a turn's dice (4. Bourbon Actions)",
                 DiceParams, answer_trench, DICE_NOTE),
    )
}
