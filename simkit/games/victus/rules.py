"""Victus rule knobs and the integer vector ``p`` the kernels read.

Rulebook sections: "First Game", "Full Game", "Competitive Game Rules", "Adjusting the
Difficulty", "Solo Game", "End of the Game", and the deal tables of "Start of Stage I /
II / III". Every difficulty
adjustment the rulebook offers is a knob; each knob does one thing, so a level does not
move the numeric knobs: the presets (``data/presets.toml``) set them as the rulebook
lists them (e.g. the first game's Coronela threshold 3 and table dice order).

The scripted players' tunable weights are not rules: they are the policy's ``Weights``
(``"greedy:greed=1.5"``), which reach the kernels in their own array (``POLICY_ROWS``),
so that the rules vector ``p`` means the same game whoever plays it.
"""

from dataclasses import dataclass
from functools import cache

import numpy as np

from simkit.errors import RulesError
from simkit.games.base import (
    Parameters,
    PolicyRows,
    RulesBase,
    knob,
    read_presets,
    reading,
)

from . import card_layout as CL
from . import layout as L
from .components import DATA

LEVELS = ("first_game", "full", "competitive")
RESIGNATION = ("per_stage", "per_round")

# (cards dealt per seat, rounds) per stage by seats (solo: 2): the tables of "Start of
# Stage I / II / III" (first game; full game, whose table the solo game uses)
DEAL_FIRST = {2: (5, 4), 3: (4, 3), 4: (3, 2)}
DEAL_FULL = {2: (7, 6), 3: (5, 4), 4: (4, 3)}


@dataclass(frozen=True)
class Rules(RulesBase):
    level: str = knob(
        "full", "first_game (priority costs, only the \u2022 cards, no leaders, the first "
        "game's set-up; the First Game itself is the first_game preset, which also sets "
        "coronela_threshold 3 and dice_order sequential), full, or competitive (full plus "
        "Sense/Fury scoring, VP and fame)", choices=LEVELS)
    players: int = knob(
        2, "players at the table; 1 = the solo game (Villarroel and a fictional Casanova, "
        "dealt as 2 players)", range=(1, 4))
    coronela_threshold: int = knob(
        5, "defeat when fewer Coronela than this stand in Barcelona (first game 3, full 5; "
        "Mode 1: 1, Mode 2: 10)", range=(1, 27))
    rubble_threshold: int = knob(
        15, "defeat when this many rubble/ruined tiles are on the board (Mode 1: 18, "
        "Mode 2: 10)", range=(1, 33))
    given_half_a_bomb: bool = knob(
        False, "Given Half a Bomb: hits on a ruined space with nothing to absorb them move "
        "one marker's pin 1 space counter-clockwise (once per space and event)")
    dice_order: str = knob(
        "free", "who orders the Bourbon action dice: free (the active player), sequential "
        "(table order all game, as in the first game), partial (chosen or not per stage)",
        choices=L.DICE_ORDER_NAMES)
    always_priority_cost: bool = knob(
        False, "Always Priority Cost: every action costs its priority cost, the cards' War "
        "Council is ignored (and card 39's leader has no effect)")
    moderating_sense_fury: bool = knob(
        False, "Moderating Sense and Fury (competitive): a card scores only if the pin "
        "changes colour, not merely group")
    victory_level: int = knob(
        50, "competitive: VP needed among all players after Stage IV (Mode 2: 80)",
        range=(0, 300))
    resignation_tiles: str = reading(
        "per_stage", "solo: when Villarroel receives a resignation tile",
        values={
            "per_stage": 'Solo Game, "Start of Stage I / II / III": "Villarroel receives a '
                         'Villarroel resignation tile"; Examples 30 and 31 (one tile at '
                         'the start of each stage)',
            "per_round": 'Solo Game, the Note: "Villarroel receives a Villarroel '
                         'resignation tile at the start of each round"'},
        why="the set-up text and both worked examples give one tile a stage; the Note is "
            "the lone sentence against them (and the three tiles of the component list "
            "are one per stage I-III)")
    cards_per_stage: int = knob(
        0, "cards dealt to each seat per stage; 0 = the rulebook's table (full: 7/5/4 for "
        "2/3/4 players)", range=(0, 12))
    rounds_per_stage: int = knob(
        0, "rounds per stage; 0 = the rulebook's table (full: 6/4/3 for 2/3/4 players)",
        range=(0, 11))
    start_generalitat: int = knob(
        0, "the Generalitat pin's starting value (the AP); 0 = the level's set-up (first "
        "game 6, full 5)", range=(0, 6))
    start_gunpowder_store: int = knob(
        0, "the Gunpowder Store pin's starting value; 0 = the level's set-up (first game "
        "5, full 4)", range=(0, 5))
    reserve_coronela: int = knob(
        -1, "Coronela in the Reserve at set-up; -1 = the level's set-up (first game 5, "
        "full 3)", range=(-1, 5))
    reserve_infantry: int = knob(
        -1, "infantry in the Reserve at set-up; -1 = the level's set-up (first game 3, "
        "full 2)", range=(-1, 3))
    empty_reinforcements: str = reading(
        "no_combat", "troops enter a camp (or a trench tile's space) while the "
        "reinforcements disc shows 0 and no Bourbon tile is there",
        values={
            "no_combat": 'Combats in Camps: "no combat occurs (since no Bourbon troops '
                         'remain there)", said of a razed camp: no Bourbon troop is placed, '
                         'nothing is razed, the batteries stay, no captive is freed, the '
                         'trench tile stays',
            "barcelonans_win": 'Combat: "The side with the higher combat value wins the '
                               'combat": a Bourbon side of value 0 loses (the camp razed, '
                               'batteries -1, a captive freed, the trench tile back one)'},
        why="the rulebook's one sentence about an empty camp (a razed one) says no combat "
            "occurs; no tile has value 0, so no Bourbon troop is there to fight")
    winner_casualties: str = reading(
        "gunpowder_and_bastion", "what the Barcelonans' casualties discount when they win a "
        "combat in a space with barricades or organ-guns (full game)",
        values={
            "gunpowder_and_bastion": 'Combat: "If the winners are the BARCELONANS: from the '
                                     'combat value the Bourbons had, subtract the value of '
                                     'the GUNPOWDER STORE marker and that of the bastion '
                                     'defenses (if any)": barricades and organ-guns are not '
                                     'named',
            "every_defence": 'Add a barricade: "Barricade tiles have the same effect as '
                             'bastion defenses: +1 to the value given by the GUNPOWDER STORE '
                             'marker"; The Organ-Guns: "each organ-gun in a space adds 5 to '
                             'the value given by the GUNPOWDER STORE marker": both discount '
                             'the casualties too'},
        why="the casualty sentence names only the Gunpowder Store and the bastion defenses; "
            "the full game's Combat section rewrites only the combat-value line (adding the "
            "barricades) and leaves the casualty sentence as it was; the other reading "
            "rests on 'the same effect', said where the value is counted")
    trench_blocked_tile: str = reading(
        "next_tile", "a trench symbol whose tile (the rearmost position's alphabetically "
        "first) shares a space with Barcelonan troops",
        values={
            "next_tile": '4. Bourbon Actions, Trench: "If there are Barcelonan troops in the '
                         'same space as a trench/camp tile, it cannot be taken": the symbol '
                         'goes to the next tile that can, at that position or a later one',
            "symbol_lost": 'Trench: "players take, from the rearmost position ... with '
                           'trench/camp tiles, the one earliest in alphabetical order" '
                           'names one tile; if it "cannot be taken", the symbol cannot be '
                           'applied (the mine +1 in the full game, Example 22)'},
        why="'it cannot be taken' excludes the tile, not the symbol; Example 22 (no tile "
            "can be taken at all) fits both readings")

    @property
    def full(self) -> bool:
        return self.level != "first_game"

    @property
    def competitive(self) -> bool:
        return self.level == "competitive"

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def seats(self) -> int:
        return 2 if self.solo else self.players

    def deal(self) -> tuple[int, int]:
        """(cards dealt per seat, rounds) per stage."""
        cards, rounds = (DEAL_FULL if self.full else DEAL_FIRST)[self.seats]
        return self.cards_per_stage or cards, self.rounds_per_stage or rounds

    def resolved(self, data=None) -> dict:
        """The placeholder knobs at the values played on ``data`` (default: the package's
        files): the level's set-up for the pins and the Reserve (0 or -1), read from its
        markers.toml, the rulebook's deal table for cards and rounds per stage (0);
        ``effective()`` applies them."""
        from .components import load_components
        from .state import level_set_up

        played = level_set_up(load_components(DATA if data is None else data), self.full)
        out = {name: value for name, value in played.items()
               if getattr(self, name) == self.knob(name).default}
        cards, rounds = self.deal()
        return {**out, "cards_per_stage": cards, "rounds_per_stage": rounds}

    def value_notes(self) -> dict[str, str]:
        """``level = "first_game"`` sets the First Game's costs, cards and set-up, but the
        rulebook's First Game also loses below 3 Coronela and rolls the dice in table order
        (the ``first_game`` preset); where those knobs keep other values, a label says so:
        ``level=first_game (not the First Game: coronela_threshold=5 and dice_order=free)``."""
        if self.level != "first_game":
            return {}
        first = read_presets(DATA / "presets.toml", Rules)["first_game"].rules
        differ = [f"{name}={getattr(self, name)}" for name in first.changes()
                  if name != "level" and getattr(self, name) != getattr(first, name)]
        return {"level": "not the First Game: " + " and ".join(differ)} if differ else {}

    def check(self) -> None:
        if self.solo and not self.full:
            raise RulesError("players = 1 (solo) needs level = full or competitive: the "
                             "rulebook deals the solo game as a 2-player full game")
        if self.moderating_sense_fury and not self.competitive:
            raise RulesError("moderating_sense_fury changes the competitive scoring; it "
                             "needs level = competitive")
        if self.victory_level != 50 and not self.competitive:
            raise RulesError("victory_level is the competitive game's VP target; it needs "
                             "level = competitive")
        if self.resignation_tiles != "per_stage" and not self.solo:
            raise RulesError("resignation_tiles is a solo rule; it needs players = 1")
        self._check_deal()

    def _check_deal(self) -> None:
        cards, rounds = self.deal()
        if rounds >= cards:
            raise RulesError(f"rounds_per_stage ({rounds}) must be below cards_per_stage "
                             f"({cards}): Stage IV draws from the cards left in hand")
        pile = stage_pile(self.full)
        if cards * self.seats > pile:
            what = "the First Game's \u2022 cards" if not self.full else "the cards"
            raise RulesError(f"cards_per_stage ({cards}) x {self.seats} seats exceeds "
                             f"{what} of a stage ({pile}): the last players would be dealt "
                             f"fewer")
        if cards + 2 * (cards - rounds) > L.HAND_SIZE - 4:
            raise RulesError(f"cards_per_stage {cards} with rounds_per_stage {rounds} leaves "
                             f"more cards in hand than the engine holds; keep "
                             f"3 x cards - 2 x rounds <= {L.HAND_SIZE - 4}")
        if self.solo and casanova_pile_at_most(cards, rounds) > L.PILE_SLOTS:
            raise RulesError(f"solo: cards_per_stage {cards} with rounds_per_stage {rounds} "
                             f"lets Casanova's pile grow past the {L.PILE_SLOTS} cards the "
                             f"engine holds")


@cache
def stage_pile(full: bool) -> int:
    """The cards of the smallest stage pile: 50, or in the First Game the cards with the
    "\u2022" ("From each pile, find the cards that have a \u2022 ...")."""
    from .cards import load_cards

    meta = load_cards().meta
    playing = np.ones(L.N_CARDS, bool) if full else meta[1:, CL.M_FIRST_GAME] == 1
    return int(min((playing & (meta[1:, CL.M_STAGE] == stage)).sum() for stage in range(3)))


def casanova_pile_at_most(cards: int, rounds: int) -> int:
    """Solo: the most cards Casanova's pile can hold: all he is dealt, less what he plays
    in Stages I and II, plus one for every Change 1 card, of which a stage has at most
    one per 2 cards its pile keeps after the deal (each draws Villarroel's and his)."""
    return 3 * cards - 2 * rounds + 3 * ((50 - 2 * cards) // 2)


@dataclass(frozen=True)
class NaiveWeights(RulesBase):
    """``naive``'s tunable weights: the ones it shares with the strong players. It keeps
    the session-4 choices (cards by their Almanac, a fixed dice ranking, a card changed
    at -3), so the strong players' other weights would change none of its games."""

    KIND = "policy weight"

    coronela_weight: float = knob(
        1.5, "how dear a Coronela is against an infantry when casualty points are spread "
        "(an infantry weighs 3)", range=(0.0, 6.0), step=0.1)
    greed: float = knob(
        1.0, "competitive: how much a card's VP count against its help to the city when "
        "choosing a card (0 = ignore points)", range=(0.0, 10.0), step=0.1)
    dice_choice_from_stage: int = knob(
        1, "partial dice order: the players choose the order from this stage on (1-4; "
        "5 = never, taking every stage's fame bonus)", range=(1, 5))
    resign_below: int = knob(
        -2, "solo: Villarroel cancels a Casanova card whose score (Almanac, leaders, and "
        "for greedy/fortify its effects) is below this", range=(-20, 20))


@dataclass(frozen=True)
class Weights(NaiveWeights):
    """The strong players' (``greedy``, ``fortify``) tunable weights: naive's, and how
    they judge cards, search dice orders and change cards."""

    card_effects: float = knob(
        0.2, "greedy/fortify: how much a card's effects (its compiled ops: Advance, "
        "Bombardment, Trench, discs, pieces, AP granted) count beside its Almanac when "
        "choosing, discarding or cancelling cards (0 = the Almanac only)", range=(0.0, 4.0),
        step=0.1)
    dice_search_from_stage: int = knob(
        5, "greedy/fortify: from this stage on (1-4; 5 = never) the dice order is chosen by "
        "resolving the dice on copies of the position rather than by a fixed ranking "
        "(full game: from 1, +3.8 points of wins at 54% of the speed; the default keeps "
        "3,000 games/s)", range=(1, 5))
    change_card_below: int = knob(
        0, "greedy/fortify: buy Change 1 card when the worst card in hand scores this or "
        "less (naive: -3 on the Almanac score)", range=(-40, 20))


# the strong players' fixed dice ranking (per ACT_*: Reinforcements, Bombardment, Advance,
# Trench; lowest first) when they do not search: Trench, Advance, Bombardment,
# Reinforcements, the best of the 24 fixed orders (seed 2026, 5,000 games: 90.0% against
# 84.6-89.7%; confirmed on seed 7, 10,000 games: +1.3 points [+0.6, +2.0] over naive's
# ranking). Reinforcements before Advance costs 3-4 points: Advance first reinforces the
# camps with the disc's present value and sets it to 0.
STRONG_DICE_RANK = (3, 2, 1, 0)


@cache
def card_effects(data=None) -> np.ndarray:
    """``judgement.card_effect_score`` of every card of ``data``'s deck (default: the
    package's; row 0 unused), computed once: the strong players read it from ``p`` rather
    than walk a card's ops at every choice."""
    from .cards import load_cards
    from .judgement import card_effect_score

    cards = load_cards(DATA if data is None else data).as_tuple()
    return np.array([0] + [card_effect_score(cards, c) for c in range(1, L.N_CARDS + 1)],
                    dtype=np.int64)


@dataclass(frozen=True)
class LookaheadWeights(Weights):
    """The ``lookahead`` player's weights: greedy's (its rollouts and every choice it does
    not search are greedy's), its budget, what it searches and how rollouts score."""

    rollouts: int = knob(
        64, "rollouts a searched decision may play, spread over its options by successive "
        "halving (more is stronger and slower)", range=(1, 2048))
    decides: str = knob(
        "cards_and_dice", "which decisions are searched: cards_and_dice, cards (the dice "
        "orders are greedy's) or dice (the cards are greedy's)",
        choices=L.LOOKAHEAD_DECISIONS)
    ties: str = knob(
        "none", "what a rollout scores beside Barcelona holding (1) or falling (0), "
        "worth less than one rollout: none (a tie goes to greedy's choice) or margin (how "
        "well the end position looks if held, how many turns were lasted if not)",
        choices=L.LOOKAHEAD_TIES)


#: the rules part of the kernels' vector ``p`` (offsets ``layout.P_*``): each field is the
#: knob or property of the same name, except these. ``card_effect`` is the deck's, not a
#: weight: it comes from the data files (a user's cards.toml changes it), which the
#: policy rows never see, and it is the same whoever plays
RULE_PARAMETERS = Parameters(
    L._P, Rules,
    dice_order=lambda r: L.DICE_ORDER_NAMES.index(r.dice_order),
    resign_per_round=lambda r: r.resignation_tiles == "per_round",
    cards=lambda r: r.deal()[0],
    rounds=lambda r: r.deal()[1],
    empty_reinforcements=lambda r: L.EMPTY_REINFORCEMENTS_NAMES.index(r.empty_reinforcements),
    winner_casualties=lambda r: L.WINNER_CASUALTIES_NAMES.index(r.winner_casualties),
    trench_blocked_tile=lambda r: L.TRENCH_BLOCKED_TILE_NAMES.index(r.trench_blocked_tile),
    package_data=DATA,
    from_data={"card_effect": card_effects},
)

POLICY_WEIGHTS = {"players": {"greedy": Weights, "fortify": Weights, "naive": NaiveWeights,
                              "lookahead": LookaheadWeights}}

# the strong players' skill pieces and their fixed dice ranking are no weights (no knob:
# measured choices, benchmarks/victus_player_skills.py prices a piece by changing its
# bit in the row), but they sit in the row beside the weights because only the players
# read them; every policy gets the same values
_FIXED = {"skills": L.DEFAULT_SKILLS, "dice_rank": STRONG_DICE_RANK}

#: the players' row of the kernels' ``pol`` (``layout.W_*``): the policy's id, then its
#: weights (tenths where the knob's step is 0.1). A policy without a weight plays its
#: default (``random`` shares the strong players' casualty split; ``naive``'s row holds
#: the strong players' own weights too, which it never reads)
POLICY_ROWS = PolicyRows(L._W, POLICY_WEIGHTS, defaults=Weights(),
                         fixed={name: _FIXED for name in L.POLICY_NAMES})
