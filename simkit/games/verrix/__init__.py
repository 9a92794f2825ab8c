"""Verrix: 2-5 Celtic tribes over twelve turns of development, trade, raids and battles.

``GAME`` (registered as ``verrix``). Modules by rulebook section: ``components`` (the
reconstructed map, goods, tribes, leaders, trophies, cards, events, festivals:
``data/*.toml``), ``rules`` (the knobs, and the tribes' weights with each seat's row of
the kernels' ``pol``), ``layout`` (offsets, codes, outcome columns,
random streams), ``state`` (VP, goods, units, movement quotes), ``engine`` (Setup, Month
Turn: Event Phase, Action Phase, Cleanup; Festival Turn; End of the Game), ``actions``
(Action cards: Development, Trade, Raid, Clan Pact, Learning, Promote), ``battle``
(Battle with Support), ``checks`` (the state invariants, from Components, Setup, How to
Play and Battle, asserted after every rule step when asked), ``policies`` (the scripted
tribes), ``lookahead`` (the rollout tribe, its own kernel), ``appraisal`` (the greedy
tribe's appraisal of an action), ``events`` (the trace's sentences), ``prob`` (exact raid and
battle answers).
"""

from functools import cache
from types import SimpleNamespace

import numpy as np

from simkit.datafile import frozen
from simkit.errors import RulesError
from simkit.games.base import Game

from . import layout as L
from .components import DATA, load_components, tables
from .engine import play_games
from .events import EVENTS
from .lookahead import LOOKAHEAD_POLICY, greedy_rows, play_lookahead_games, searched_seats
from .policies import POLICIES
from .rules import PARAMETERS, POLICY_ROWS, POLICY_WEIGHTS, Rules

#: the reconstruction knobs that set a number of a tribe's cards (data/tribes.toml):
#: knob -> (tribe, column of the tribes' table)
TRIBE_CARD_KNOBS = {
    "yellow_extra_slot": ("yellow", L.TR_EXTRA_SLOT),
    "yellow_cleanup_vp": ("yellow", L.TR_CLEANUP_VP_EQUIPPED),
    "orange_raid_vp": ("orange", L.TR_RAID_VP),
    "orange_hostage": ("orange", L.TR_HOSTAGE),
    "purple_hostage": ("purple", L.TR_HOSTAGE),
    "purple_divine_will": ("purple", L.TR_DW),
    "green_trade_capacity": ("green", L.TR_TRADE_CAPACITY),
}
#: the Event Cards the rulebook describes, whose effects ``event_vp`` leaves as printed
PRINTED_EVENTS = ("The Gift", "Arianrhod")


@cache
def _tables(territory_cost: int, sea_cost: int, data=DATA, tribe_cards=(), forge_fibula=True,
            event_vp=0, mystic_card_vp=0):
    """The read-only component tables the kernel takes, for one Movement Cost tile.
    ``tribe_cards``: (knob, value) pairs of ``TRIBE_CARD_KNOBS`` (Yellow's and Green's
    Ability Cards, Orange's, Orange's and Purple's Setup Cards), each setting the data
    file's number; ``forge_fibula`` False: Forge's choice without the Fibula;
    ``event_vp`` and ``mystic_card_vp``: VP added to the unprinted Event Cards and to
    Purple's own Divine Will cards."""
    comp = load_components(data)
    out = list(tables(comp, territory_cost, sea_cost))
    if tribe_cards:
        tribes_ = out[L.S_TRIBES].copy()
        for name, value in tribe_cards:
            tribe, column = TRIBE_CARD_KNOBS[name]
            tribes_[L.TRIBES.index(tribe), column] = int(value)
        out[L.S_TRIBES] = frozen(tribes_)
    if not forge_fibula and "Forge" in comp.card_titles:
        cards = out[L.S_CARDS].copy()
        c = comp.card_titles.index("Forge")
        for k in range(cards[c, L.CD_N_OPS]):
            o = L.CD_OPS + k * L.OP_WIDTH
            if cards[c, o] == L.OP_GAIN_CHOICE:
                cards[c, o + 1] &= ~(1 << L.FIBULA)
        out[L.S_CARDS] = frozen(cards)
    if event_vp:
        printed = [comp.event_titles.index(t) for t in PRINTED_EVENTS if t in comp.event_titles]
        out[L.S_EVENTS] = frozen(_vp_added(out[L.S_EVENTS], L.EV_N_OPS, L.EV_OPS, L.EO_VP,
                                           event_vp, np.setdiff1d(
                                               np.arange(len(comp.event_titles)), printed)))
    if mystic_card_vp:
        out[L.S_CARDS] = frozen(_vp_added(out[L.S_CARDS], L.CD_N_OPS, L.CD_OPS, L.OP_VP,
                                          mystic_card_vp, mystic_cards(out[L.S_CARDS])))
    return tuple(out)


def tables_for(rules, data=DATA) -> tuple:
    """The component tables ``rules`` play: the data files' with the reconstruction
    knobs applied."""
    return _tables(rules.territory_cost, rules.sea_cost, data,
                   tuple((k, getattr(rules, k)) for k in TRIBE_CARD_KNOBS),
                   rules.forge_fibula, rules.event_vp, rules.mystic_card_vp)


def mystic_cards(cards) -> np.ndarray:
    """Purple's own Development cards that give Divine Will (``mystic_card_vp``)."""
    purple = 1 << L.TRIBES.index("purple")
    rows = [c for c in range(cards.shape[0])
            if cards[c, L.CD_OWNERS] == purple and cards[c, L.CD_TYPE] == L.CT_DEVELOPMENT
            and any(cards[c, L.CD_OPS + k * L.OP_WIDTH] == L.OP_DIVINE_WILL
                    for k in range(cards[c, L.CD_N_OPS]))]
    return np.array(rows, dtype=np.int64)


def _vp_added(table, n_ops: int, ops: int, vp_op: int, vp: int, rows) -> np.ndarray:
    """``table`` with ``vp`` added to the VP operation of each of ``rows`` (one
    appended where a row has none)."""
    out = table.copy()
    for r in rows:
        n = out[r, n_ops]
        have = [k for k in range(n) if out[r, ops + k * L.OP_WIDTH] == vp_op]
        if have:
            out[r, ops + have[0] * L.OP_WIDTH + 1] += vp
            continue
        if n == L.MAX_OPS:
            raise RulesError(f"a card with {L.MAX_OPS} operations has no room for the VP "
                             "a reconstruction knob adds")
        o = ops + n * L.OP_WIDTH
        out[r, o:o + L.OP_WIDTH] = 0
        out[r, o], out[r, o + 1] = vp_op, vp
        out[r, n_ops] = n + 1
    return out


assert len(POLICIES) == L.POL_LOOKAHEAD  # the look-ahead's id: after the scripts


class Verrix(Game):
    name = "verrix"
    title = "Verrix: Celtic tribes of Britannia (2-5 players)"
    sides = L.SEATS
    Rules = Rules
    rule_parameters = PARAMETERS
    data = DATA
    policies = {seat: {**POLICIES, **LOOKAHEAD_POLICY} for seat in L.SEATS}
    policy_weights = POLICY_WEIGHTS
    policy_rows = POLICY_ROWS
    outcome_columns = L.OUTCOMES
    invariants = L.INVARIANTS
    steps = L.STEPS
    compile_seconds = 33  # measured: 33 s of CPU for a cold compile (2026-12-07)
    # measured: 12 s of CPU after the engine (whose cold compile took 31 s), one kernel
    # for every seat, compiled at the first seat's first use (2026-12-07)
    policy_kernels = {(seat, "lookahead"): 13 for seat in L.SEATS}
    reconstructions = {"map.toml": "the map", "cards.toml": "the 70 action cards",
                       "events.toml": "the 20 events", "festivals.toml": "the 4 festivals",
                       "tribes.toml": "the tribes' abilities, set-up cards and trophies",
                       "goods.toml": "goods values and counts, the hostage trade value"}
    caveat = ("Verrix results describe a reconstruction: the map, the 70 action cards, 20 "
              "events, 4 festivals, trophies, abilities of 4 tribes, goods values and "
              "counts, Mórrígan token values and battle-track VP are not printed in the "
              "rulebook and were reconstructed (simkit/games/verrix/data/*.toml), as is "
              "the hostage trade value; the Events' and Purple's cards' VP and Purple's "
              "Divine Will are a calibration chosen so that each "
              "tribe wins 10-30% (a property of the calibration, not a finding; preset "
              "reconstruction_2025 plays the reconstruction before it).")

    def rotate_seats(self, rules, shift: int):
        """``rules`` with the tribes in play moved ``shift`` seats back: seat 1 takes the
        tribe of seat ``1 + shift`` (the tribes not in play stay where they are)."""
        seated = rules.seat_tribes
        turned = seated[shift:] + seated[:shift] + rules.tribe_names[rules.players:]
        return rules.replace({"tribes": ",".join(turned)})

    def seats_in_play(self, rules) -> int:
        return rules.players

    def seated(self, rules) -> list[str]:
        return rules.seat_tribes

    def categories_in_play(self, rules, column: str) -> tuple[str, ...]:
        """Only the tribes in play can be the winner, only the seats in play its seat."""
        if column == "winner":
            return tuple(t for t in L.TRIBES if t in rules.seat_tribes)
        if column == "winner_seat":
            return L.SEATS[:rules.players]
        return super().categories_in_play(rules, column)

    def has_values(self, rules, columns):
        """A seat's and a tribe's columns hold values exactly when it is in play."""
        playing = {*L.SEATS[:rules.players], *rules.seat_tribes}
        return {name: who in playing for name, who in L.COLUMN_OF.items()}

    def kernel_inputs(self, rules, policies):
        return (tables_for(rules, self.data), *super().kernel_inputs(rules, policies))

    def load_data(self):
        super().load_data()
        load_components(self.data)

    def kernel(self, rules, policies, game_indices, root_seed, log):
        S, p, pol = self.kernel_inputs(rules, policies)
        searched = searched_seats(pol[:rules.players])
        if not searched:
            return play_games(S, p, greedy_rows(pol), game_indices, root_seed, log)
        seat = L.SEATS[(searched & -searched).bit_length() - 1]
        with self.compiling_policy(seat, "lookahead"):
            out = play_lookahead_games(S, p, greedy_rows(pol), searched, game_indices,
                                       root_seed, log)
        for other in L.SEATS:  # one kernel plays every seat's look-ahead: compiled for all
            self._mark_compiled(f"{other}-lookahead")
        return out

    def narration(self, rules, log):
        x = context(load_components(self.data), rules)
        return (["Seats: " + ", ".join(x.seat[s] for s in range(rules.players))]
                + EVENTS.narrate(log, x))

    def closing_lines(self, rules, row):
        return [f"{L.TRIBES[row[L.O_WINNER]].capitalize()} "
                f"({L.SEATS[row[L.O_WINNER_SEAT]]}) is VERRIX."]


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
