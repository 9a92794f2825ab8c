"""Every outcome column of an experiment analysed, driven by the game's declaration.

The report (``simkit.report``) analyses the winner; this module adds what the other
outcome columns say, with no per-game code - only the columns a game declares
(``Game.outcome_columns``) and its sides:

* :func:`seat_columns` / :func:`seat_winner_columns` - per-seat (or per-side) columns,
  found by name (``vp_seat1``, ``carlist_vp``, ``liberals_blocks_lost``) and category
  columns whose categories name seats (``fame_winner``, ``winner_seat``);
* :func:`seat_balance` - per seat: its share of the seat-winner column with Wilson
  intervals and Ludii-style balance, and its mean of each per-seat measure with the
  paired seat advantage over seat 1 (t intervals);
* :func:`end_reason_shifts` - paired differences from the base in each end reason;
* :func:`length_by_outcome` and :func:`survival` - game length by end reason and the
  share of games the side has not yet lost by each turn (the turn of defeat);
* :func:`outcome_means` and :func:`mean_differences` - numeric columns' means (t
  intervals) and paired differences from the base (paired t, Holm);
* :func:`grids` and :func:`grid_comparisons` - grid sweeps as tables of win rates and
  paired comparisons inside each grid, with the interaction of two knobs;
* :func:`policy_curves` - a sweep of one policy weight as a curve;
* :func:`plan` - games per cell needed to separate effects of a given size.

Intervals beside a Holm verdict are at the Holm-consistent level
(``stats.holm_confidences``): they exclude zero exactly when the verdict is
"significant". Numbers come from ``simkit.load`` of the cells' results folders.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

from simkit import games, stats
from simkit.errors import RulesError, StoreError, UsageError
from simkit.experiment import cell_folders, cell_schema, load_cell, summarize
from simkit.sides import NOT_A_SIDE, WINNER_COLUMNS

ALPHA = 0.05
_SEAT = re.compile(r"^seat\d+$")


# -- columns from the declaration --------------------------------------------------------


def _seat_token(game, token: str) -> str | None:
    """The seat or side a name part stands for (``seat2``, ``carlists`` for ``carlist``)."""
    if _SEAT.match(token):
        return token
    for side in game.sides:
        if token in (side, side.rstrip("s")):
            return side
    return None


def seat_columns(game) -> dict[str, dict[str, str]]:
    """Numeric per-seat columns grouped by measure: {measure: {seat: column}}, for
    measures at least two seats or sides have (``vp`` -> {seat1: vp_seat1, ...})."""
    groups: dict[str, dict[str, str]] = {}
    for name, column in game.outcome_columns.items():
        if column.dtype in ("category", "bool"):
            continue
        parts = name.split("_")
        for i, part in enumerate(parts):
            seat = _seat_token(game, part)
            if seat is not None:
                measure = "_".join(parts[:i] + parts[i + 1:]) or name
                groups.setdefault(measure, {})[seat] = name
                break
    return {m: seats for m, seats in groups.items() if len(seats) >= 2}


def seat_winner_columns(game) -> list[str]:
    """Category columns whose categories name at least two seats (``fame_winner``,
    ``winner_seat``); ``winner`` itself only when its categories are seats but the game's
    sides are not (the side balance already covers a winner of sides)."""
    out = []
    for name, column in game.outcome_columns.items():
        if column.dtype != "category":
            continue
        seats = [c for c in column.categories if _SEAT.match(c)]
        if len(seats) >= 2 and not (name == "winner" and set(seats) <= set(game.sides)):
            out.append(name)
    return out


def numeric_columns(game) -> list[str]:
    """Every numeric outcome column (bool counts as 0/1), in declaration order."""
    return [n for n, c in game.outcome_columns.items() if c.dtype != "category"]


# -- loading -----------------------------------------------------------------------------


class Frames:
    """The cells' games, loaded once each and cut to the games every cell shares."""

    def __init__(self, cells: list):
        self.cells = cells
        self.labels = [c["label"] for c, _ in cells]
        self._folders = {c["label"]: f for c, f in cells}
        self._frames: dict[str, pd.DataFrame] = {}

    def __getitem__(self, label: str) -> pd.DataFrame:
        if label not in self._frames:
            self._frames[label] = load_cell(self._folders[label])
        return self._frames[label]

    def paired(self, label: str, other: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        a, b = self[label], self[other]
        n = min(len(a), len(b))
        if not np.array_equal(a["game_index"].to_numpy()[:n], b["game_index"].to_numpy()[:n]):
            raise ValueError(f"cells {label!r} and {other!r} do not hold the same games")
        return a.iloc[:n], b.iloc[:n]


def _holm_rows(rows: list[dict]) -> pd.DataFrame:
    """Paired binary comparisons (gained/lost over games): McNemar, Holm over the
    rows, Holm-consistent intervals."""
    return holm_table(rows) if rows else pd.DataFrame(rows)


def _paired_t(diffs: np.ndarray) -> tuple[float, float, float]:
    """(mean, standard error, two-sided p-value) of per-game paired differences; with
    no spread the p-value is 1 for a zero mean and 0 otherwise."""
    mean = float(np.mean(diffs))
    if diffs.size < 2 or np.all(diffs == diffs[0]):
        return mean, 0.0, 1.0 if mean == 0 else 0.0
    se = float(np.std(diffs, ddof=1) / math.sqrt(diffs.size))
    p = float(2 * sps.t.sf(abs(mean) / se, diffs.size - 1))
    return mean, se, p


def _holm_t(rows: list[dict]) -> pd.DataFrame:
    """Rows with ``mean``, ``se``, ``n`` and ``p_value`` of paired t tests: Holm over the
    rows and each mean's t interval at its Holm-consistent level."""
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    table["p_holm"], table["significant"] = stats.holm(table["p_value"].to_numpy(), ALPHA)
    table["confidence"] = stats.holm_confidences(table["p_value"].to_numpy(), ALPHA)
    q = sps.t.ppf(1 - (1 - table["confidence"]) / 2, np.maximum(table["n"] - 1, 1))
    table["low"] = table["mean"] - q * table["se"]
    table["high"] = table["mean"] + q * table["se"]
    return table


# -- seats -------------------------------------------------------------------------------


def seat_balance(game, frames: Frames) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(seat wins, seat measures) for the cells where two or more seats are in play.

    Seat wins: per cell and seat-winner column, each seat's share with its Wilson 95%
    interval, and balance = 1 - (max - min) of the shares of the seats that won at least
    once. Seat measures: per cell and per-seat measure, each seat's mean (t 95% interval)
    and its paired advantage over the first seat in play (per-game difference, paired t,
    Holm over every advantage shown); a seat whose column is constant in a cell (an
    empty seat) is not in play there."""
    win_rows, measure_rows = [], []
    winners, measures = seat_winner_columns(game), seat_columns(game)
    for label in frames.labels:
        frame = frames[label]
        for column in winners:
            counts = frame[column].value_counts()
            seats = [c for c in game.outcome_columns[column].categories
                     if _SEAT.match(c) and counts.get(c, 0) > 0]
            if len(seats) < 2:
                continue
            shares = {s: stats.wilson(int(counts[s]), len(frame)) for s in seats}
            rates = [ci.estimate for ci in shares.values()]
            for seat, ci in shares.items():
                win_rows.append({"cell": label, "column": column, "seat": seat,
                                 "games": len(frame), "share": ci.estimate, "low": ci.low,
                                 "high": ci.high, "balance": 1 - (max(rates) - min(rates))})
        for measure, columns in measures.items():
            in_play = {s: c for s, c in columns.items() if frame[c].nunique() > 1}
            if len(in_play) < 2:
                continue
            first = next(iter(in_play.values()))
            for seat, column in in_play.items():
                values = frame[column].to_numpy(dtype=float)
                ci = stats.mean_interval(values)
                mean, se, p = _paired_t(values - frame[first].to_numpy(dtype=float))
                measure_rows.append({"cell": label, "measure": measure, "seat": seat,
                                     "n": len(frame), "seat_mean": ci.estimate,
                                     "seat_low": ci.low, "seat_high": ci.high,
                                     "mean": mean, "se": se,
                                     "p_value": p if column != first else np.nan})
    measures_t = pd.DataFrame(measure_rows)
    if not measures_t.empty:
        tested = measures_t["p_value"].notna()
        adjusted = _holm_t(measures_t[tested].to_dict("records"))
        adjusted.index = measures_t.index[tested]
        measures_t = pd.concat([adjusted, measures_t[~tested]]).sort_index()
    return pd.DataFrame(win_rows), measures_t


# -- end reasons, length, survival -------------------------------------------------------


def end_reason_shifts(game, frames: Frames) -> pd.DataFrame:
    """Each cell's paired difference from the base in the share of games ending with each
    end reason (games ending so only in the cell / only in the base), McNemar,
    Holm over every (cell, reason), Holm-consistent intervals."""
    if "end_reason" not in game.outcome_columns or len(frames.labels) < 2:
        return pd.DataFrame()
    base_label = frames.labels[0]
    rows = []
    for label in frames.labels[1:]:
        cell, base = frames.paired(label, base_label)
        for reason in game.outcome_columns["end_reason"].categories:
            a = (cell["end_reason"] == reason).to_numpy()
            b = (base["end_reason"] == reason).to_numpy()
            if not (a.any() or b.any()):
                continue
            rows.append({"cell": label, "reason": reason, "games": a.size,
                         "gained": int(np.count_nonzero(a & ~b)),
                         "lost": int(np.count_nonzero(~a & b))})
    return _holm_rows(rows)


def length_by_outcome(game, frames: Frames, by: str = "end_reason") -> pd.DataFrame:
    """Per cell and outcome (``by``: end_reason or winner): games, mean turns with its t
    95% interval (None when every such game lasted the same), median, min, max."""
    if "turns" not in game.outcome_columns or by not in game.outcome_columns:
        return pd.DataFrame()
    rows = []
    for label in frames.labels:
        frame = frames[label]
        for outcome, group in frame.groupby(by, observed=True):
            turns = group["turns"].to_numpy(dtype=float)
            ci = stats.mean_interval(turns)
            rows.append({"cell": label, by: outcome, "games": turns.size,
                         "mean": float(turns.mean()), "low": ci.low if ci else np.nan,
                         "high": ci.high if ci else np.nan,
                         "median": float(np.median(turns)), "min": int(turns.min()),
                         "max": int(turns.max())})
    return pd.DataFrame(rows)


def survival(game, frames: Frames, side: str, column: str = "winner") -> pd.DataFrame:
    """cells x turns: the share of games ``side`` (a category of ``column``) has not yet
    lost by the end of each turn (a game another winner takes counts as lost at its last
    turn)."""
    if "turns" not in game.outcome_columns:
        return pd.DataFrame()
    rows = {}
    last = max(int(frames[label]["turns"].max()) for label in frames.labels)
    turns = np.arange(0, last + 1)
    for label in frames.labels:
        frame = frames[label]
        lost = frame.loc[frame[column] != side, "turns"].to_numpy()
        lost_by = np.searchsorted(np.sort(lost), turns, side="right")
        rows[label] = 1 - lost_by / len(frame)
    return pd.DataFrame(rows, index=pd.Index(turns, name="turn")).T


# -- numeric means -----------------------------------------------------------------------


def outcome_means(game, frames: Frames) -> pd.DataFrame:
    """Per cell and numeric column: mean with its t 95% interval (NaN limits when the
    column is constant in the cell: no interval can be estimated)."""
    rows = []
    for label in frames.labels:
        frame = frames[label]
        for column in numeric_columns(game):
            values = frame[column].to_numpy(dtype=float)
            values = values[~np.isnan(values)]  # missing: a seat or tribe not in play
            if values.size == 0:
                continue
            ci = stats.mean_interval(values)
            rows.append({"cell": label, "column": column, "games": values.size,
                         "mean": float(values.mean()), "low": ci.low if ci else np.nan,
                         "high": ci.high if ci else np.nan})
    return pd.DataFrame(rows)


def mean_differences(game, frames: Frames) -> pd.DataFrame:
    """Each cell's paired difference from the base in each numeric column's mean
    (per-game differences on the same games, paired t test, Holm over every (cell,
    column) that differs in some game; Holm-consistent t intervals)."""
    if len(frames.labels) < 2:
        return pd.DataFrame()
    base_label = frames.labels[0]
    rows = []
    for label in frames.labels[1:]:
        cell, base = frames.paired(label, base_label)
        for column in numeric_columns(game):
            diffs = cell[column].to_numpy(dtype=float) - base[column].to_numpy(dtype=float)
            diffs = diffs[~np.isnan(diffs)]  # a seat or tribe not in play in either cell
            if not diffs.any():
                continue
            mean, se, p = _paired_t(diffs)
            rows.append({"cell": label, "column": column, "n": diffs.size, "mean": mean,
                         "se": se, "p_value": p})
    return _holm_t(rows)


# -- grids -------------------------------------------------------------------------------


def grids(cells: list) -> list[dict]:
    """The grid sweeps: {"knobs": [varying knobs], "cells": {(values...): label}},
    merged duplicates included; knobs with one value in the grid are dropped."""
    found: dict[str, dict] = {}
    for cell, _ in cells:
        for kind, knob, value in [(cell["kind"], cell["knob"], cell["value"]),
                                  *((a["kind"], a["knob"], a["value"])
                                    for a in cell["aliases"])]:
            if kind == "grid":
                found.setdefault(knob, {})[tuple(value.split(", "))] = cell["label"]
    out = []
    for knob, members in found.items():
        names = knob.split(", ")
        keep = [i for i in range(len(names)) if len({k[i] for k in members}) > 1]
        if not keep:
            continue
        out.append({"knobs": [names[i] for i in keep],
                    "cells": {tuple(k[i] for i in keep): label
                              for k, label in members.items()}})
    return out


def grid_table(grid: dict, rate: Callable[[str], float]) -> pd.DataFrame:
    """A grid's win rates: rows the first knob's values, columns the second's (one
    column when the grid varies one knob)."""
    rows: dict[str, dict[str, float]] = {}
    for key, label in grid["cells"].items():
        column = ", ".join(key[1:]) or "win rate"
        rows.setdefault(key[0], {})[column] = rate(label)
    return pd.DataFrame(rows).T.rename_axis(grid["knobs"][0])


def grid_comparisons(grid: dict, frames: Frames, side: str,
                     column: str = "winner") -> pd.DataFrame:
    """Inside one grid, on the same games: each knob's every value against its first
    value at each setting of the other knobs (McNemar), and for two knobs the
    interaction - how much the first knob's effect changes from the second knob's first
    value to each other value (paired t on the per-game contrast
    (y[a, b] - y[a0, b]) - (y[a, b0] - y[a0, b0])). Holm over the grid's comparisons
    of each kind."""
    cells, knobs = grid["cells"], grid["knobs"]
    values = [list(dict.fromkeys(k[i] for k in cells)) for i in range(len(knobs))]

    def wins(key) -> np.ndarray | None:
        label = cells.get(key)
        if label is None:
            return None
        return (frames[label][column] == side).to_numpy()

    n = min(len(frames[label]) for label in cells.values())
    rows = []
    for i, knob in enumerate(knobs):
        for key in cells:
            if key[i] == values[i][0]:
                continue
            ref = key[:i] + (values[i][0],) + key[i + 1:]
            a, b = wins(key), wins(ref)
            if a is None or b is None:
                continue
            at = ", ".join(f"{k}={v}" for j, (k, v) in enumerate(zip(knobs, key,
                                                                      strict=True)) if j != i)
            rows.append({"comparison": f"{knob}={key[i]} vs {values[i][0]}",
                         "at": at or "-", "games": n,
                         "gained": int(np.count_nonzero(a[:n] & ~b[:n])),
                         "lost": int(np.count_nonzero(~a[:n] & b[:n]))})
    table = _holm_rows(rows)
    if len(knobs) == 2:
        interactions = _interactions(knobs, values, wins, n)
        if not interactions.empty:
            table = pd.concat([table, interactions], ignore_index=True)
    return table


def _interactions(knobs, values, wins, n) -> pd.DataFrame:
    rows = []
    (a0, *others_a), (b0, *others_b) = values
    for a in others_a:
        for b in others_b:
            parts = [wins((a, b)), wins((a0, b)), wins((a, b0)), wins((a0, b0))]
            if any(p is None for p in parts):
                continue
            y = [p[:n].astype(float) for p in parts]
            contrast = (y[0] - y[1]) - (y[2] - y[3])
            mean, se, p = _paired_t(contrast)
            rows.append({"comparison": f"interaction: effect of {knobs[0]}={a} (vs {a0}) at "
                                       f"{knobs[1]}={b} minus at {knobs[1]}={b0}",
                         "at": "-", "games": n, "n": n, "mean": mean, "se": se,
                         "p_value": p})
    table = _holm_t(rows)
    if not table.empty:
        table["difference"] = table["mean"]
    return table


# -- policies ----------------------------------------------------------------------------


def _policy_weights(text: str) -> tuple[str, dict[str, float]]:
    name, _, assignments = text.partition(":")
    weights = {}
    for part in filter(None, (a.strip() for a in assignments.split(","))):
        key, _, value = part.partition("=")
        weights[key.strip()] = float(value)
    return name.strip(), weights


def policy_curves(game, cells: list, rate: Callable[[str], tuple]) -> dict[str, pd.DataFrame]:
    """For each (side, policy, weight) a policies sweep varies alone: the side's win
    rate (``rate(label)`` -> (rate, low, high)) against the weight, the base cell drawn
    at the weight it plays (its stated value or the weight's default)."""
    base_cell = cells[0][0]
    groups: dict[tuple, dict] = {}
    for cell, _ in cells:
        for side, text in cell["policy"].items():
            name, weights = _policy_weights(text)
            base_name, base_weights = _policy_weights(base_cell["policy"][side])
            if name != base_name:
                continue
            weights_cls = game.policy_weights.get(side, {}).get(name)
            if weights_cls is None:
                continue
            defaults = {k.name: float(k.default) for k in weights_cls.knobs()}
            played = {**defaults, **weights}
            base_played = {**defaults, **base_weights}
            changed = [k for k in played if played[k] != base_played[k]]
            if len(changed) == 1:
                key = (side, name, changed[0])
                groups.setdefault(key, {})[cell["label"]] = played[changed[0]]
                groups[key][base_cell["label"]] = base_played[changed[0]]
    out = {}
    for (side, name, weight), members in groups.items():
        points = pd.DataFrame([{"value": v, "cell": label, **dict(zip(
            ("rate", "low", "high"), rate(label), strict=True))}
            for label, v in members.items()]).sort_values("value")
        if len(points) >= 2:
            out[f"{side} {name}:{weight}"] = points.reset_index(drop=True)
    return out


# -- planning ----------------------------------------------------------------------------


def plan(differences: pd.DataFrame, effects=(0.01, 0.02, 0.05), power: float = 0.8,
         alpha: float = ALPHA) -> pd.DataFrame:
    """Games per cell for each cell's comparison with the base to separate a difference
    of each size in ``effects`` with probability ``power`` (McNemar, Connor 1987), at
    the Bonferroni level alpha / m over the m cells (Holm is never stricter), from the
    cell's observed discordance (games won only in one of the two); and the games for a
    +-1 point interval of its observed difference."""
    m = max(len(differences), 1)
    rows = []
    for _, row in differences.iterrows():
        discordance = (row["gained"] + row["lost"]) / row["games"]
        out = {"cell": row["cell"], "games": int(row["games"]),
               "discordance": discordance, "difference": row["difference"]}
        for effect in effects:
            ok = 0 < discordance and effect <= discordance
            out[f"separate {effect * 100:g} points"] = (stats.paired_games_to_separate(
                effect, discordance, alpha / m, power) if ok else None)
        ok = discordance > 0 and abs(row["difference"]) <= discordance
        out["interval +-1 point"] = (stats.paired_games_needed(
            0.01, discordance, float(row["difference"]), 1 - alpha / m) if ok else None)
        rows.append(out)
    return pd.DataFrame(rows)


# -- the players' skill --------------------------------------------------------------------


def skill_sensitivity(game, side: str, policies, presets, n_games: int, *, seed: int = 0,
                      reference: str | None = None, policy_games=None,
                      n_jobs: int = 1) -> pd.DataFrame:
    """How much of each preset's outcome is the players' skill rather than the rules.

    Plays every preset (a name, or None for the standard rules) with ``side`` under each
    of ``policies`` (the other sides keep their defaults) on the same ``n_games`` games
    (seed and indices 0..n-1), and gives per (preset, policy) the side's win rate with its Wilson
    95% interval, and its paired difference from the ``reference`` policy (default: the
    first) with the McNemar / Tango 95% interval on the games both played.
    ``policy_games`` plays fewer games for slow policies (``{"lookahead": 500}``); their
    comparison uses the reference's first games, the same games (``reference_rate`` is
    the reference's win rate on them).
    """
    from simkit.runner import simulate

    reference = reference or policies[0]
    if reference not in policies:
        raise ValueError(f"reference policy {reference!r} is not among {list(policies)}")
    sizes = {policy: int((policy_games or {}).get(policy.split(":")[0], n_games))
             for policy in policies}
    rows = []
    for preset in presets:
        wins = {}
        for policy in policies:
            frame = simulate(game, sizes[policy], seed=seed, rules=preset,
                             policy={side: policy}, n_jobs=n_jobs)
            wins[policy] = (frame["winner"] == side).to_numpy()
        for policy in policies:
            won = wins[policy]
            rate = stats.wilson(int(won.sum()), won.size)
            n = min(won.size, wins[reference].size)
            row = {"preset": preset or "standard", "policy": policy, "games": won.size,
                   "win_rate": rate.estimate, "low": rate.low, "high": rate.high}
            if policy != reference:
                diff = stats.paired_difference(won[:n], wins[reference][:n])
                row.update(paired_games=n, reference_rate=wins[reference][:n].mean(),
                           vs_reference=diff.difference.estimate,
                           vs_low=diff.difference.low, vs_high=diff.difference.high,
                           p_value=diff.p_value)
            rows.append(row)
    table = pd.DataFrame(rows)
    table.attrs["reference"] = reference
    return table


# -- the numbers a report shows (simkit.report renders them) ----------------------------

#: cells compared pairwise in the ladder at most (beyond, adjacent rungs only)
MAX_PAIRWISE = 120


@dataclass
class ReportData:
    """Everything a report shows, read from the results folders."""

    head: dict
    game: object
    cells: list  # [(cell entry, folder)]
    summary: pd.DataFrame
    side: str  # the winner category compared against the base
    differences: pd.DataFrame
    turns: pd.DataFrame  # cell x turns -> games
    frames: Frames | None = None  # every cell's games, loaded on first use
    side_column: str = "winner"  # the outcome column ``side`` is a category of
    path: Path | None = None  # the experiment or results folder read

    @property
    def rate_key(self) -> str:
        """The summary column of ``side``'s win rate (``_low``/``_high`` for its
        interval)."""
        return rate_key(self.side_column, self.side)


def rate_key(column: str, side: str) -> str:
    """``winner_<side>`` for a winner (``summarize``'s columns), ``<seat> (<column>)`` for
    a seat of another winner column (added by ``collect`` for the side it names)."""
    return f"winner_{side}" if column == "winner" else f"{side} ({column})"




def collect(path, side: str | None = None) -> ReportData:
    """Read an experiment or results folder. ``side``: the side, seat or winner category
    whose win rate is compared (default: the game's first side that can win)."""
    head, cells = cell_folders(path)
    game = games.get(head["game"])
    column, side = _report_side(game, cell_schema(cells[0][1]), side)
    summary = summarize(path)
    if column != "winner":
        summary = _with_seat_rates(summary, cells, column, side)
    frames = Frames(cells)
    return ReportData(head, game, cells, summary, side,
                      differences(cells, side, frames, column), turn_counts(cells), frames,
                      column, Path(path))


def _report_side(game, schema: dict, side: str | None) -> tuple[str, str]:
    """``(column, category)`` of the side a report compares, from the categories the
    results folder holds; an unknown name is one line naming what is allowed."""
    held = {c: [x for x in schema[c]["categories"] if x not in NOT_A_SIDE]
            for c in WINNER_COLUMNS if c in schema and "categories" in schema[c]}
    if side is None:
        categories = schema["winner"]["categories"]
        return "winner", next((s for s in game.sides if s in categories), categories[0])
    for column, categories in held.items():
        if side in categories:
            return column, side
    allowed = "; ".join(f"{', '.join(cats)} ({column})" for column, cats in held.items())
    raise UsageError(f"unknown side {side!r} for {game.name}; allowed: {allowed}")


def _with_seat_rates(summary: pd.DataFrame, cells: list, column: str,
                     side: str) -> pd.DataFrame:
    """The summary with ``side``'s rate in ``column`` and its Wilson interval per cell."""
    rows = []
    for _, folder in cells:
        frame = load_cell(folder, [column])
        ci = stats.wilson(int((frame[column] == side).sum()), len(frame))
        rows.append((ci.estimate, ci.low, ci.high))
    key = rate_key(column, side)
    values = np.array(rows, dtype=float).reshape(-1, 3)
    return summary.assign(**{key: values[:, 0], f"{key}_low": values[:, 1],
                             f"{key}_high": values[:, 2]})


DIFFERENCE_COLUMNS = ["cell", "games", "gained", "lost", "difference", "low", "high",
                      "confidence", "p_value", "p_holm", "significant", "no_game_changed"]


def _paired_frames(base: pd.DataFrame, frame: pd.DataFrame, folder) -> int:
    """The number of games two cells share, checking that they are the same games."""
    n = min(len(frame), len(base))
    if not np.array_equal(frame["game_index"].to_numpy()[:n],
                          base["game_index"].to_numpy()[:n]):
        raise StoreError(f"{folder}: games are not paired with the base cell's")
    return n


def holm_table(rows: list[dict]) -> pd.DataFrame:
    """Paired comparisons (``gained``/``lost`` discordant counts over ``games``) with the
    McNemar p-value, Holm's adjustment over all of them, and each difference's
    interval at the level that agrees with its Holm verdict (``stats.holm_confidences``):
    it excludes 0 exactly when the comparison is significant."""
    table = pd.DataFrame(rows)
    gained, lost, n = (table[k].to_numpy() for k in ("gained", "lost", "games"))
    table["difference"] = (gained - lost) / n
    table["p_value"] = stats.mcnemar_p(gained, lost)
    table["p_holm"], table["significant"] = stats.holm(table["p_value"].to_numpy(), ALPHA)
    table["confidence"] = stats.holm_confidences(table["p_value"].to_numpy(), ALPHA)
    table["low"], table["high"] = stats.paired_limits(gained, lost, n,
                                                      table["confidence"].to_numpy())
    return table


def differences(cells: list, side: str, frames: Frames | None = None,
                column: str = "winner") -> pd.DataFrame:
    """Paired differences of each cell from the first (base) cell in ``side``'s win rate
    (``side`` a category of ``column``):
    games won only in the cell (``gained``) and only in the base (``lost``), the
    asymptotic McNemar test (``stats.mcnemar_p``), Holm over the cells, Holm-consistent
    intervals (``holm_table``), and ``no_game_changed`` when every outcome column of every
    game equals the base's."""
    if len(cells) < 2:
        return pd.DataFrame(columns=DIFFERENCE_COLUMNS)
    frames = frames if frames is not None else Frames(cells)  # each cell loaded once
    base = frames[cells[0][0]["label"]]
    base_wins = (base[column] == side).to_numpy()
    rows = []
    for cell, folder in cells[1:]:
        frame = frames[cell["label"]]
        n = _paired_frames(base, frame, folder)
        wins = (frame[column].iloc[:n] == side).to_numpy()
        same = all(np.array_equal(frame[c].iloc[:n].to_numpy(), base[c].iloc[:n].to_numpy())
                   for c in frame.columns if c not in ("seed",))
        rows.append({"cell": cell["label"], "games": n,
                     "gained": int(np.count_nonzero(wins & ~base_wins[:n])),
                     "lost": int(np.count_nonzero(~wins & base_wins[:n])),
                     "no_game_changed": same})
    return holm_table(rows)[DIFFERENCE_COLUMNS]


def turn_counts(cells: list) -> pd.DataFrame:
    """Games per number of turns, one row per cell (empty if there is no turns column)."""
    if "turns" not in cell_schema(cells[0][1]):
        return pd.DataFrame()
    counts = {cell["label"]: load_cell(folder, ["turns"])["turns"].value_counts()
              for cell, folder in cells}
    table = pd.DataFrame(counts).T.fillna(0).astype(int)
    return table[sorted(table.columns)]


def played_rules(game, rules: dict) -> dict:
    """A cell's rules at the values played (``Rules.effective``); folders written before
    cells recorded played values may hold placeholders, resolved here."""
    try:
        return game.effective(game.Rules(**rules)).to_dict()
    except (TypeError, RulesError):  # a knob this version no longer has
        return dict(rules)


def memberships(data: ReportData) -> pd.DataFrame:
    """Every (knob group, value) a cell stands for, aliases included, with its difference."""
    diff = dict(zip(data.differences["cell"], data.differences["difference"], strict=True))
    rows = []
    for cell, _ in data.cells:
        own = (cell["kind"], cell["knob"], cell["value"])
        for kind, knob, value in [own, *((a["kind"], a["knob"], a["value"])
                                         for a in cell["aliases"])]:
            if kind not in ("base", "screen"):  # a screening's points: its own section
                rows.append({"cell": cell["label"], "kind": kind, "knob": knob,
                             "value": value, "difference": diff.get(cell["label"], 0.0)})
    return pd.DataFrame(rows, columns=["cell", "kind", "knob", "value", "difference"])


def sensitivity(data: ReportData) -> pd.DataFrame:
    """Per knob group: the lowest and highest difference from base among its cells; a
    knob swept one at a time counts the base (its base value, difference 0) among them."""
    members = memberships(data)
    base = data.cells[0][0]["label"]
    rows = []
    for knob, group in members.groupby("knob", sort=False):
        if (group["kind"] == "one_at_a_time").any() and base not in set(group["cell"]):
            group = pd.concat([group, pd.DataFrame([{"cell": base, "kind": "base",
                                                     "knob": knob, "difference": 0.0}])],
                              ignore_index=True)
        low, high = group.loc[group["difference"].idxmin()], group.loc[
            group["difference"].idxmax()]
        rows.append({"knob": knob, "cells": len(group), "low": low["difference"],
                     "low_cell": low["cell"], "high": high["difference"],
                     "high_cell": high["cell"]})
    table = pd.DataFrame(rows, columns=["knob", "cells", "low", "low_cell", "high",
                                        "high_cell"])
    table["span"] = table["high"] - table["low"]
    return table.sort_values("span", ascending=False, kind="stable").reset_index(drop=True)


def curves(data: ReportData) -> dict[str, pd.DataFrame]:
    """For numeric knobs swept one at a time: the side's win rate at each knob value."""
    members = memberships(data)
    rates = data.summary.set_index("cell")
    base_cell = data.cells[0][0]
    out = {}
    for knob in members.loc[members["kind"] == "one_at_a_time", "knob"].unique():
        if data.game.Rules.knob(knob).type not in (int, float):
            continue
        cells = set(members.loc[(members["knob"] == knob)
                                & (members["kind"] == "one_at_a_time"), "cell"])
        cells.add(base_cell["label"])
        rules = {c["label"]: played_rules(data.game, c["rules"]) for c, _ in data.cells}
        points = pd.DataFrame([{"value": rules[c][knob], "cell": c,
                                "rate": rates.loc[c, data.rate_key],
                                "low": rates.loc[c, f"{data.rate_key}_low"],
                                "high": rates.loc[c, f"{data.rate_key}_high"]}
                               for c in cells])
        points = points.sort_values("value").drop_duplicates("value")
        if len(points) >= 2:
            out[knob] = points.reset_index(drop=True)
    return out


LADDER_COLUMNS = ["rung", "tier", "cell", "kind", "knob", "value", "also", "games", "rate",
                  "low", "high", "vs_base", "vs_base_low", "vs_base_high", "gap", "gap_low",
                  "gap_high", "gap_p_value", "gap_p_holm", "separated"]


def ladder(source, side: str | None = None) -> pd.DataFrame:
    """The difficulty ladder: every cell ordered by ``side``'s win rate, highest first.

    ``source`` is an experiment or results folder (or a ``ReportData`` from ``collect``).
    One row per cell (a merged duplicate is named in ``also``): ``rate``/``low``/``high``
    are the win rate and its Wilson 95% interval (``summarize``); ``vs_base*`` the paired
    difference from the base cell (as in the report). Every pair of cells is compared
    on the same games (McNemar, Holm over all pairs: ``pairwise``); ``tier`` gives
    each cell letters such that cells sharing a letter are not separated, and ``gap*``
    is the comparison with the next rung down, its interval at the Holm-consistent level
    (``separated``: the pair's order is established at 5%). The last rung has no gap.
    Ties keep the cells' order in the experiment.
    """
    data = source if isinstance(source, ReportData) else collect(source, side)
    rates = data.summary.set_index("cell")
    vs_base = data.differences.set_index("cell")
    rows = []
    for cell, _ in data.cells:
        label = cell["label"]
        is_base = label == data.cells[0][0]["label"]
        d = None if is_base else vs_base.loc[label]
        rows.append({
            "cell": label, "kind": cell["kind"], "knob": cell["knob"], "value": cell["value"],
            "also": "; ".join(a["label"] for a in cell["aliases"]),
            "games": int(rates.loc[label, "games"]),
            "rate": rates.loc[label, data.rate_key],
            "low": rates.loc[label, f"{data.rate_key}_low"],
            "high": rates.loc[label, f"{data.rate_key}_high"],
            "vs_base": 0.0 if is_base else d["difference"],
            "vs_base_low": 0.0 if is_base else d["low"],
            "vs_base_high": 0.0 if is_base else d["high"]})
    table = pd.DataFrame(rows).sort_values("rate", ascending=False, kind="stable")
    table = table.reset_index(drop=True)
    table.insert(0, "rung", np.arange(1, len(table) + 1))
    labels = list(table["cell"])
    pairs = (pairwise(data, labels) if len(labels) <= MAX_PAIRWISE
             else adjacent_pairs(data, labels))
    table.insert(1, "tier", tiers(labels, pairs))
    nan = float("nan")
    gaps = pairs.set_index(["upper", "lower"])
    adjacent = [gaps.loc[(u, w)] for u, w in zip(labels, labels[1:], strict=False)]
    for key, column in (("gap", "difference"), ("gap_low", "low"), ("gap_high", "high"),
                        ("gap_p_value", "p_value"), ("gap_p_holm", "p_holm")):
        table[key] = [g[column] for g in adjacent] + [nan]
    table["separated"] = pd.array([bool(g["significant"]) for g in adjacent] + [pd.NA],
                                  dtype="boolean")
    return table[LADDER_COLUMNS]


def _side_wins(data: ReportData, labels: list[str]) -> np.ndarray:
    """cells x games: whether ``side`` won each game, on the games every cell holds."""
    folders = {c["label"]: f for c, f in data.cells}
    frames = {label: load_cell(folders[label], [data.side_column]) for label in labels}
    n = min(len(f) for f in frames.values())
    first = frames[labels[0]]["game_index"].to_numpy()[:n]
    for label in labels:
        if not np.array_equal(frames[label]["game_index"].to_numpy()[:n], first):
            raise StoreError(f"{folders[label]}: games are not paired with "
                             f"{folders[labels[0]]}'s")
    return np.array([(frames[label][data.side_column].iloc[:n] == data.side).to_numpy()
                     for label in labels])


def pairwise(data: ReportData, labels: list[str]) -> pd.DataFrame:
    """Every pair (upper, lower) of ``labels`` (upper first in ``labels``) compared on the
    same games: ``holm_table`` columns, Holm over all pairs."""
    if len(labels) < 2:
        return pd.DataFrame(columns=["upper", "lower", "games", "gained", "lost",
                                     "difference", "low", "high", "confidence", "p_value",
                                     "p_holm", "significant"])
    wins = _side_wins(data, labels).astype(np.int64)
    only = wins @ (1 - wins).T  # only[i, j]: games i won and j did not
    rows = [{"upper": labels[i], "lower": labels[j], "games": wins.shape[1],
             "gained": int(only[i, j]), "lost": int(only[j, i])}
            for i in range(len(labels)) for j in range(i + 1, len(labels))]
    return holm_table(rows)


def adjacent_pairs(data: ReportData, labels: list[str]) -> pd.DataFrame:
    """Each rung against the next only (Holm over those gaps): a large sweep's ladder,
    where comparing every pair would cost the square of the cells."""
    wins = _side_wins(data, labels).astype(np.int64)
    rows = [{"upper": labels[i], "lower": labels[i + 1], "games": wins.shape[1],
             "gained": int((wins[i] & (1 - wins[i + 1])).sum()),
             "lost": int((wins[i + 1] & (1 - wins[i])).sum())}
            for i in range(len(labels) - 1)]
    return holm_table(rows)


def tiers(labels: list[str], pairs: pd.DataFrame) -> list[str]:
    """A compact letter display of ranked cells: each maximal run of consecutive rungs
    in which no pair is separated gets a letter, so cells sharing a letter are not
    separated (a letter is a maximal run of consecutive rungs no two of which are
    separated; ``pairwise`` has every pair's verdict)."""
    separated = {(u, w) for u, w, sig in zip(pairs["upper"], pairs["lower"],
                                             pairs["significant"], strict=True) if sig}

    def apart(i: int, j: int) -> bool:
        return (labels[i], labels[j]) in separated or (labels[j], labels[i]) in separated

    runs, last_end = [], -1
    for start in range(len(labels)):
        end = start
        while end + 1 < len(labels) and not any(apart(k, end + 1)
                                                for k in range(start, end + 1)):
            end += 1
        if end > last_end:
            runs.append((start, end))
            last_end = end
    letters = [""] * len(labels)
    for n, (start, end) in enumerate(runs):
        for i in range(start, end + 1):
            letters[i] += _letter(n)
    return letters


def _letter(n: int) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return alphabet[n] if n < len(alphabet) else f"<{n + 1}>"


def balance(data: ReportData) -> pd.DataFrame:
    """Ludii-style balance, decisiveness and duration per cell (two or more sides)."""
    sides = [s for s in data.game.sides if f"winner_{s}" in data.summary]
    if len(sides) < 2:
        return pd.DataFrame()
    rates = data.summary[[f"winner_{s}" for s in sides]]
    table = pd.DataFrame({"cell": data.summary["cell"],
                          "balance": 1 - (rates.max(axis=1) - rates.min(axis=1)),
                          "decisiveness": rates.sum(axis=1)})
    if "turns_mean" in data.summary:
        table["duration"] = data.summary["turns_mean"]
    return table




#: games per setting of a report's "What this rests on" (a modest size, said in the report)
RESTS_ON_GAMES = 500


def rests_on(data: ReportData, n_games: int = RESTS_ON_GAMES) -> pd.DataFrame:
    """The robustness table (``simkit.robustness``) of the report's base cell: its rules,
    seed and data files, ``n_games`` per setting (no more than the cell holds: a small
    run's report replays its own games, not more), the rollout players left out."""
    from simkit.robustness import robustness
    from simkit.store import read_manifest

    entry, folder = data.cells[0]
    rules = data.game.Rules().replace(entry["rules"])
    user = data.head.get("data")
    if user is None and (folder / "manifest.json").exists():
        user = (read_manifest(folder).get("data") or {}).get("user_folder")
    n_games = min(n_games, int(data.summary.iloc[0]["games"]))
    return robustness(data.game, rules, n_games, seed=int(data.head.get("seed", 0)),
                      slow_games=None, data=user, best_play=getattr(data, "best_play", None))
