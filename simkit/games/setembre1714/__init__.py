"""11 de Setembre. Setge 1714: the combat system, played as an assault scenario.

``ASSAULT`` (registered as ``setembre1714-assault``) plays one defended zone attacked
through the Royal Breach: Royal Breach checks until assured (rule 7), the artillery phase
(9), a salvo (11.2), then an assault with withdrawal choice and commander casualties
(11.3). It relies on no reconstructed component: every number is the rulebook's.
"""

import numpy as np

from simkit.eventlog import events, new_log, no_log
from simkit.games.base import Column, Game

from . import layout as L
from .components import assault_presets
from .engine import play_assault_games
from .policies import BOURBON_POLICIES, CATALAN_POLICIES
from .rules import AssaultRules, assault_params

_BOOL = "bool"
_OUTCOMES = {
    "winner": Column("category", "who holds the zone at the end", L.WINNERS),
    "end_reason": Column(
        "category", "taken (defender's lead eliminated), withdrew (defenders retreated), "
        "cleared (fire left no defender), repulsed (attacker's lead eliminated), "
        "breach_closed (the Royal Breach was never assured)", L.END_REASONS),
    "turns": Column("int16", "Bourbon turn of the assault (max_turns if it never came)"),
    "breach_turn": Column("int16", "turn the Royal Breach was assured (0: never)"),
    "artillery_kills": Column("int8", "defenders eliminated by artillery"),
    "salvo_kills": Column("int8", "defenders eliminated by the salvo"),
    "defenders_assaulted": Column("int8", "defenders in the zone when assaulted"),
    "attack_value": Column("int16", "attacker's assault value before the die"),
    "defence_value": Column("int16", "defender's value before the die, withdrawal included"),
    "attack_roll": Column("int8", "attacker's die (0: no assault)"),
    "defence_roll": Column("int8", "defender's die (0: no assault)"),
    "withdrew": Column(_BOOL, "the defenders declared a withdrawal"),
    "attacker_lead_lost": Column(_BOOL, "the attacking lead unit was eliminated"),
    "defender_lead_lost": Column(_BOOL, "the defending lead unit was eliminated"),
    "attacker_commander_lost": Column(_BOOL, "the Bourbon commander died (a 6)"),
    "defender_commander_lost": Column(_BOOL, "the Catalan commander died (a 6)"),
}
_OFFSETS = {name: i for i, name in enumerate(_OUTCOMES)}
assert [_OFFSETS[k] for k in ("winner", "end_reason", "defender_commander_lost")] == [
    L.O_WINNER, L.O_END_REASON, L.O_DEFENDER_COMMANDER_LOST]


class AssaultScenario(Game):
    name = "setembre1714-assault"
    title = "11 de Setembre. Setge 1714: an assault through the Royal Breach"
    sides = ("bourbons", "catalans")
    Rules = AssaultRules
    presets = assault_presets()
    policies = {"bourbons": BOURBON_POLICIES, "catalans": CATALAN_POLICIES}
    outcome_columns = _OUTCOMES

    def play(self, rules, policies, game_indices, root_seed):
        table = play_assault_games(assault_params(rules), _ids(policies), game_indices,
                                   root_seed, no_log())
        return {name: table[:, i].astype(np.int8 if col.dtype == "category" else col.dtype)
                for i, (name, col) in enumerate(self.outcome_columns.items())}

    def narrate(self, rules, policies, game_index, root_seed):
        log = new_log()
        table = play_assault_games(assault_params(rules), _ids(policies),
                                   np.array([game_index], dtype=np.int64), root_seed, log)
        lines = [f"{self.title} - game {game_index} of seed {root_seed}"]
        lines += [_sentence(code, a, b, c) for code, a, b, c in events(log)]
        row = table[0]
        lines.append(f"Result: {L.END_REASONS[row[L.O_END_REASON]]}; the zone is held by "
                     f"the {L.WINNERS[row[L.O_WINNER]].capitalize()}.")
        return lines


def _ids(policies) -> np.ndarray:
    return np.array([choice.id for choice in policies], dtype=np.int64)


def _sentence(code, a, b, c) -> str:
    if code == L.EV_BREACH_CHECK:
        state = "assured!" if c else "not yet assured"
        return f"Turn {a}: Royal Breach check, die {b}: the breach is {state}"
    if code == L.EV_BREACH_NEVER:
        return f"The Royal Breach was never assured in {a} turns; the assault is called off"
    if code == L.EV_ARTILLERY:
        where = "an adjacent zone" if a == 1 else "a zone two zones away"
        return f"  Artillery fire from {where}: die {b}, " + ("a unit eliminated" if c
                                                              else "a miss")
    if code == L.EV_SALVO:
        return f"  Salvo fire by {a} units: {b} sixes, {c} defenders eliminated"
    if code == L.EV_ZONE_CLEARED:
        return "  No defender is left: the Bourbons occupy the zone without an assault"
    if code == L.EV_ASSAULT_VALUES:
        choice = "declares a withdrawal (included)" if c else "stands"
        return f"  Assault: attacker value {a} against defender value {b}; the defender {choice}"
    if code == L.EV_ASSAULT_ROLL:
        verdict = "the attacker wins" if c else "the defender wins (ties to the defender)"
        return f"  Dice: attacker {a}, defender {b}: {verdict}"
    if code == L.EV_COMMANDER_ROLL:
        who = "Bourbon" if a == L.SIDE_BOURBONS else "Catalan"
        return f"  {who} commander casualty roll {b}: " + ("eliminated" if c else "survives")
    return f"  (event {code}: {a} {b} {c})"


ASSAULT = AssaultScenario()
