"""Verrix: 2-5 Celtic tribes over twelve turns of development, trade, raids and battles.

``GAME`` (registered as ``verrix``, in progress). Modules by rulebook section:
``components`` (the reconstructed map, goods, tribes, leaders, trophies, cards, events,
festivals: ``data/*.toml``), ``rules`` (the knobs), ``layout`` (offsets, codes, outcome
columns, random streams), ``state`` (VP, goods, units, movement quotes), ``engine``
(Setup, Month Turn: Event Phase, Action Phase, Cleanup; Festival Turn; End of the Game),
``actions`` (Action cards: Development, Trade, Raid, Clan Pact, Learning, Promote),
``battle`` (Battle with Support), ``policies`` and ``players`` (the scripted tribes),
``events`` (the trace's sentences), ``prob`` (exact raid and battle answers).
"""

from functools import cache
from types import SimpleNamespace

import numpy as np

from simkit.eventlog import new_log, no_log
from simkit.games.base import Game, ids_of

from . import layout as L
from .components import load_components, presets, tables
from .engine import play_games
from .events import EVENTS
from .policies import POLICIES
from .rules import VerrixRules, params


@cache
def _static(territory_cost: int, sea_cost: int):
    comp = load_components()
    return comp, tables(comp, territory_cost, sea_cost)


def _run(rules: VerrixRules, policies, game_indices, root_seed, log):
    comp, S = _static(rules.territory_cost, rules.sea_cost)
    p = params(rules, len(comp.card_titles), len(comp.event_titles), len(comp.node_names))
    return comp, play_games(S, p, ids_of(policies), game_indices, root_seed, log)


class Verrix(Game):
    name = "verrix"
    title = "Verrix: Celtic tribes of Britannia (2-5 players)"
    sides = L.SEATS
    Rules = VerrixRules
    presets = presets()
    policies = {seat: POLICIES for seat in L.SEATS}
    outcome_columns = L.OUTCOMES
    compile_seconds = 20  # measured: 20 s of CPU for a cold compile (2026-12-01)
    caveat = ("Verrix results describe a reconstruction: the map, the 70 action cards, 20 "
              "events, 4 festivals, trophies, abilities of 4 tribes, goods values and "
              "counts, Mórrígan token values and battle-track VP are not printed in the "
              "rulebook and were reconstructed (simkit/games/verrix/data/*.toml), as is "
              "the hostage trade value; the scripted tribes never sell hostages.")

    def play(self, rules, policies, game_indices, root_seed):
        _, table = _run(rules, policies, game_indices, root_seed, no_log())
        return L.OUTCOMES.columns(table)

    def narrate(self, rules, policies, game_index, root_seed):
        log = new_log(20000)
        comp, table = _run(rules, policies, np.array([game_index], dtype=np.int64),
                           root_seed, log)
        x = context(comp, rules)
        lines = [f"{self.title} - game {game_index} of seed {root_seed}",
                 "Seats: " + ", ".join(x.seat[s] for s in range(rules.players))]
        lines += EVENTS.narrate(log, x)
        row = table[0]
        lines.append(f"{L.TRIBES[row[L.O_WINNER]].capitalize()} "
                     f"({L.SEATS[row[L.O_WINNER_SEAT]]}) is VERRIX.")
        lines.append(self.result_line(L.TRIBES[row[L.O_WINNER]],
                                      L.END_REASONS[row[L.O_END_REASON]], row[L.O_TURNS]))
        return lines


def context(comp, rules):
    """Names for the trace's sentences."""
    seats = [f"{L.SEATS[s]} ({t})" for s, t in enumerate(rules.tribe_names)]

    def item(code):
        if code < L.N_GOODS:
            return L.GOODS[code]
        if code < L.N_GOODS + L.N_TROPHIES:
            return "the trophy " + comp.trophy_names[code - L.N_GOODS]
        return f"a {L.TRIBES[code - L.N_GOODS - L.N_TROPHIES]} hostage"

    return SimpleNamespace(seat=seats, node=comp.node_names, card=comp.card_titles,
                           event=comp.event_titles, good=L.GOODS, leader=comp.leader_names,
                           trophy=comp.trophy_names, festival=comp.festival_names,
                           tribe=L.TRIBES, item=item)


GAME = Verrix()
