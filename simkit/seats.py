"""Seat-rotated runs: every game index played under each cyclic rotation of who sits
where, so that a seat's win rate pools over the tribes (or roles) seated there and a
tribe's over the seats it sat in.

In a game whose seats hold different tribes, the standard seating measures the tribes,
not the seats: "seat 2 wins more" may only mean the tribe in seat 2 is strong. Rotating
the seated tribes cyclically over the same game indices (the same dice for every
rotation) separates the two, and the seat effect is a paired comparison: seat k against
seat 1 over the same (game, rotation) pairs. A game offers rotation by giving
``Game.rotate_seats(rules, shift)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from simkit import games, stats
from simkit.errors import UsageError
from simkit.experiment import games_in, load_cell, read_experiment
from simkit.runner import RunInfo, simulate
from simkit.sides import seatings


@dataclass
class SeatRates:
    """A rotated run's answers: each table has wins, games, rate and its 95% interval."""

    game: str
    rotations: list[str]  # the seating of each rotation, seat1 first
    n_games: int  # game indices per rotation
    by_seat: pd.DataFrame
    by_tribe: pd.DataFrame
    seat_effects: pd.DataFrame  # seat k minus seat 1, paired over the same games
    seconds: float = 0.0
    counts: list[dict] = field(default_factory=list)  # per rotation: column -> counts

    def text(self) -> str:
        lines = [f"{self.game}: {self.n_games:,} games under each of {len(self.rotations)} "
                 f"seatings (cyclic rotations, the same game indices):"]
        lines += [f"  rotation {i + 1}: {seating}" for i, seating in enumerate(self.rotations)]
        lines += ["", "win rate by seat, pooled over the tribes seated there:",
                  _rate_lines(self.by_seat), "",
                  "win rate by tribe, pooled over the seats it sat in:",
                  _rate_lines(self.by_tribe), "",
                  "seat effect: seat minus seat1, paired over the same games "
                  "(percentage points, 95% interval):"]
        for row in self.seat_effects.itertuples():
            lines.append(f"  {row.seat:8} {100 * row.difference:+6.2f} "
                         f"[{100 * row.low:+.2f}, {100 * row.high:+.2f}]")
        return "\n".join(lines)


def _rate_lines(table: pd.DataFrame) -> str:
    return "\n".join(f"  {row.Index:8} {row.wins:8,} of {row.games:,}  {100 * row.rate:6.2f}% "
                     f"[{100 * row.low:.2f}%, {100 * row.high:.2f}%]"
                     for row in table.itertuples())


def rotated_rates(game, n_games: int, *, seed: int = 0, rules=None, policy=None,
                  out=None, **simulate_options) -> SeatRates:
    """Play ``n_games`` game indices under every rotation of the seats and pool the win
    counts by seat and by tribe. ``out``: a folder that gets one results folder per
    rotation (``rotation1``, ...), each resumable like any other. Other options go to
    ``simkit.simulate``."""
    game = games.get(game) if isinstance(game, str) else game
    game = game.with_data(simulate_options.pop("data", None))
    stated = game.resolve_rules(rules)
    every = seatings(game, stated)
    counts, seconds = [], 0.0
    for i, seated in enumerate(every):
        info = RunInfo()
        where = None if out is None else Path(out) / f"rotation{i + 1}"
        simulate(game, n_games, seed=seed, rules=seated, policy=policy, out=where,
                 info=info, keep_rows=False, **simulate_options)
        counts.append(info.counts)
        seconds += info.seconds
    return _rates(game, stated, every, n_games, counts, seconds)


def _rates(game, stated, every: list, n_games: int, counts: list[dict],
           seconds: float = 0.0) -> SeatRates:
    """The pooled tables of the rotations ``every`` of ``stated`` from each rotation's
    counts of ``winner`` and ``winner_seat``."""
    seats = list(game.outcome_columns["winner_seat"].categories)
    seats = seats[:game.seats_in_play(stated)]
    tribes = [t for t in game.outcome_columns["winner"].categories
              if t in game.seated(stated)]
    games_each = n_games * len(every)
    return SeatRates(game.name, [", ".join(game.seated(r)) for r in every], n_games,
                     _pooled(counts, "winner_seat", seats, games_each),
                     _pooled(counts, "winner", tribes, games_each),
                     _seat_effects(counts, seats, games_each), seconds, counts)


_ROTATION = re.compile(r"^(?P<cell>.*) \[rotation (?P<k>\d+)\]$")


def _rotation_of(label: str) -> tuple[str, int]:
    """(cell, rotation) of a rotated experiment's label: ``base [rotation 2]`` is
    rotation 2 of ``base``; a label without the suffix is its cell's stated seating."""
    m = _ROTATION.match(label)
    return (m["cell"], int(m["k"])) if m else (label, 1)


def experiment_rates(path) -> dict[str, SeatRates]:
    """Each cell of an experiment run with ``rotate_seats = true``, its rotations pooled:
    ``{cell label: SeatRates}`` in file order, from the games every rotation holds
    (``simkit.experiment``). A rotation merged into another cell (the same rules) is
    read from that cell's folder."""
    spec = read_experiment(path)
    if not spec["experiment"].get("rotate_seats"):
        raise UsageError(f"{path} was not run with rotate_seats = true: its cells are not "
                         "played under every seating")
    game = games.get(spec["experiment"]["game"]).with_data(spec["experiment"].get("data"))
    groups: dict[str, dict[int, tuple[dict, Path]]] = {}
    for cell in spec["cells"]:
        folder = Path(path) / "cells" / cell["slug"]
        for label in [cell["label"], *(a["label"] for a in cell["aliases"])]:
            name, k = _rotation_of(label)
            groups.setdefault(name, {})[k] = (cell, folder)
    out = {}
    for label, rotations in groups.items():
        members = [rotations[k] for k in sorted(rotations)]
        n_games = min(games_in(folder) for _, folder in members)
        counts = []
        for _, folder in members:
            frame = load_cell(folder, ["winner", "winner_seat"]).iloc[:n_games]
            counts.append({c: frame[c].value_counts().to_dict()
                           for c in ("winner", "winner_seat")})
        every = [game.Rules().replace(cell["rules"]) for cell, _ in members]
        out[label] = _rates(game, every[0], every, n_games, counts)
    return out


def experiment_text(path) -> str:
    """Each rotated cell's pooled rates, a few lines a cell (``simkit sweep`` prints it)."""
    lines = ["pooled over the rotations of each cell (95% intervals; seat effect: seat "
             "minus seat1, paired over the same games, percentage points):"]
    for label, rates in experiment_rates(path).items():
        lines.append(f"  {label} ({rates.n_games:,} games x {len(rates.rotations)} "
                     "seatings)")
        for by, table in (("by seat", rates.by_seat), ("by tribe", rates.by_tribe)):
            lines.append(f"    {by:9} " + "; ".join(
                f"{name} {100 * r.rate:.1f}% [{100 * r.low:.1f}, {100 * r.high:.1f}]"
                for name, r in zip(table.index, table.itertuples(), strict=True)))
        lines.append("    seat effect " + "; ".join(
            f"{r.seat} {100 * r.difference:+.1f} [{100 * r.low:+.1f}, {100 * r.high:+.1f}]"
            for r in rates.seat_effects.itertuples()))
    return "\n".join(lines)


def experiment_table(path) -> pd.DataFrame:
    """``experiment_rates`` as one flat table: cell, by (seat, tribe or seat effect),
    name, wins, games, rate (a seat effect: the paired difference), low, high."""
    rows = []
    for label, rates in experiment_rates(path).items():
        for by, table in (("seat", rates.by_seat), ("tribe", rates.by_tribe)):
            rows += [{"cell": label, "by": by, "name": name, **row}
                     for name, row in table.to_dict("index").items()]
        rows += [{"cell": label, "by": "seat effect", "name": f"{r['seat']} - seat1",
                  "rate": r["difference"], "low": r["low"], "high": r["high"]}
                 for r in rates.seat_effects.to_dict("records")]
    return pd.DataFrame(rows, columns=["cell", "by", "name", "wins", "games", "rate",
                                       "low", "high"])


def _pooled(counts: list[dict], column: str, names: list[str], games: int) -> pd.DataFrame:
    rows = []
    for name in names:
        wins = int(sum(c[column].get(name, 0) for c in counts))
        interval = stats.wilson(wins, games)
        rows.append({"name": name, "wins": wins, "games": games, "rate": interval.estimate,
                     "low": interval.low, "high": interval.high})
    return pd.DataFrame(rows).set_index("name")


def _seat_effects(counts: list[dict], seats: list[str], games: int) -> pd.DataFrame:
    """Seat k against seat 1 on the same (game, rotation) pairs: one seat's win excludes
    the other's, so the paired counts are the two seats' wins."""
    first = int(sum(c["winner_seat"].get(seats[0], 0) for c in counts))
    rows = []
    for seat in seats[1:]:
        wins = int(sum(c["winner_seat"].get(seat, 0) for c in counts))
        d = stats.paired_from_counts(wins, first, games)
        rows.append({"seat": seat, "difference": d.difference.estimate,
                     "low": d.difference.low, "high": d.difference.high,
                     "p_value": d.p_value})
    return pd.DataFrame(rows)
