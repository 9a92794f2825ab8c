"""Balance reports: ``report.md``, a self-contained ``report.html`` and PNG figures.

``write_report(path, side=...)`` reads an experiment folder (``simkit sweep``) or a
single results folder and writes, beside the results (or into ``out``):

* win rates per cell with Wilson 95% intervals (every winner category);
* paired differences from the base cell in the side's win rate (the cells share seeds
  and game indices, paired by ``game_index``): the games won only in the cell and only
  in the base, the McNemar p-value, Holm's correction over the cells, and Tango's score
  interval (which inverts the same test) at the level Holm tested the cell at
  (``stats.holm_confidences``), so it excludes zero exactly when the verdict is
  "significant"; cells that changed no game are flagged;
* end-reason shares and their paired shifts per cell, the distribution of ``turns``,
  game length by end reason, a survival curve (the turn of defeat), every numeric
  outcome column's mean and its paired differences, seat balance from the per-seat
  columns, a seat-rotated experiment's rotations pooled per cell (``simkit.seats``),
  grids as heatmaps with their within-grid comparisons and interactions
  (``simkit.analysis``: everything driven by the game's declared outcome columns);
* an experiment's screen sweep as a Morris screening (``simkit.screen.analyze`` of the
  side's win rate at its points): each knob's mu* with its bootstrap interval and its
  sigma, ranked, in a table and a figure;
* a sensitivity "tornado" and, for numeric knobs swept one at a time and policy weights,
  the win rate against the value played (``Rules.effective``: a placeholder such as
  Victus ``start_generalitat = 0`` is drawn at the value it plays);
* a difficulty ladder (``ladder``): every cell ordered by the side's win rate, with tiers
  from the comparison of every pair of cells (Holm over all pairs) and the gap to the
  next rung;
* side balance (Ludii-style) for games of two or more sides, a planning table (games
  needed to separate effects of 1, 2 and 5 points), the cells, and the provenance the
  results folders record;
* a plain-language paragraph naming the largest effects.

Every number comes from ``simkit.load`` of the results folders. Figures are drawn on
matplotlib ``Figure`` objects with the Agg canvas (no pyplot state).
"""

from __future__ import annotations

import base64
import html
import io
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from simkit import analysis
from simkit.analysis import (
    MAX_PAIRWISE,
    ReportData,
    balance,
    collect,
    curves,
    ladder,
    played_rules,
    rests_on,
    sensitivity,
)
from simkit.errors import StoreError
from simkit.experiment import (
    CELLS_DIR,
    EXPERIMENT_FILE,
    format_value,
    games_in,
    read_experiment,
)
from simkit.robustness import best_play_lines, headline
from simkit.seats import experiment_table
from simkit.store import read_manifest

SECTIONS = ("Key findings", "What this rests on", "Win rates", "Differences from the base",
            "End reasons",
            "End-reason shifts", "Game length", "Survival", "Outcome means",
            "Seat balance", "Every seating", "Screening", "Sensitivity",
            "Win rate by knob value", "Grids",
            "Difficulty ladder", "Side balance", "Planning", "Cells")
#: cells drawn in a per-cell figure at most (the highest and lowest win rates, and the
#: base); every cell stays in the tables and in summary.csv
FIGURE_CELLS = 40


@dataclass
class Report:
    """What ``write_report`` wrote."""

    markdown: Path
    html: Path
    figures: list[Path] = field(default_factory=list)
    findings: str = ""


#: a table longer than this is collapsed: its headline rows shown, every row behind a
#: <details> in HTML (Markdown shows the headline rows and says how many are left out)
LONG_TABLE = 30


@dataclass
class Table:
    """A table block; ``headline``: the rows kept when it is collapsed (a boolean mask
    over its rows, default the first ``LONG_TABLE // 2``), ``what`` says which they are."""

    frame: pd.DataFrame
    headline: object = None
    what: str = ""

    @property
    def collapsed(self) -> bool:
        return len(self.frame) > LONG_TABLE

    @property
    def head_rows(self) -> pd.DataFrame:
        if self.headline is None:
            self.what = self.what or f"the first {LONG_TABLE // 2} shown"
            return self.frame.head(LONG_TABLE // 2)
        return self.frame[np.asarray(self.headline, dtype=bool)]


@dataclass
class Html:
    """A block with its own HTML and Markdown (the first screen's parts)."""

    text: str
    markdown: str


# -- words -------------------------------------------------------------------------------


def _possessive(name: str) -> str:
    return f"the {name}'" if name.endswith("s") else f"the {name}'s"


def _change(cell: dict) -> str:
    kind = cell["kind"]
    if kind == "presets":
        return f"Using preset {cell['value']}"
    if kind == "policies":
        return f"Switching to policy {cell['value']}"
    parts = cell.get("description", cell["label"]).split(", ")  # the full setting
    return "Setting " + (parts[0] if len(parts) == 1 else
                         ", ".join(parts[:-1]) + " and " + parts[-1])


def _group(knob: str) -> str:
    if knob in ("preset", "policy"):
        return f"the choice of {knob}"
    return f"the grid over {knob}" if "," in knob else f"the knob {knob}"


def _effect_sentence(cell: dict, row) -> str:
    d, low, high = row["difference"] * 100, row["low"] * 100, row["high"] * 100
    if d == 0:
        return f"{_change(cell)} leaves {_possessive(cell['side'])} win rate unchanged."
    verb, lo, hi = ("raises", low, high) if d > 0 else ("lowers", -high, -low)
    return (f"{_change(cell)} {verb} {_possessive(cell['side'])} win rate by {abs(d):.1f} "
            f"points (Holm-adjusted {row['confidence']:.2%} interval {lo:.1f} to {hi:.1f}) "
            "against the base.")


def _realistic(data: ReportData, cells: pd.DataFrame) -> set[str]:
    """The cells among ``cells`` that set a knob swept one at a time to a value next to
    its base value (the nearest below and above), or to a non-numeric value: the
    settings a designer would play, before the extremes of a sweep."""
    members = analysis.memberships(data)
    members = members[(members["kind"] == "one_at_a_time") & members["cell"].isin(
        cells["cell"])]
    base_rules = played_rules(data.game, data.cells[0][0]["rules"])
    entries = {c["label"]: c for c, _ in data.cells}
    everyone = analysis.memberships(data)
    keep = set()
    for knob, group in members.groupby("knob", sort=False):
        base_value = base_rules.get(knob)
        if not isinstance(base_value, (int, float)) or isinstance(base_value, bool):
            keep |= set(group["cell"])
            continue
        played = {c: played_rules(data.game, entries[c]["rules"])[knob] for c in everyone[
            (everyone["knob"] == knob) & (everyone["kind"] == "one_at_a_time")]["cell"]}
        below = [v for v in played.values() if v < base_value]
        above = [v for v in played.values() if v > base_value]
        nearest = {max(below, default=None), min(above, default=None)}
        keep |= {c for c in group["cell"] if played[c] in nearest}
    return keep


def findings(data: ReportData, top: int = 3) -> str:
    """The plain-language paragraph: the base, the largest effects of the settings
    next to the base values (then of any cell), the top knob."""
    base = data.summary.iloc[0]
    side = data.side
    key = data.rate_key
    text = [f"In the base cell, {'the ' + side} win {base[key]:.2%} of "
            f"{int(base['games']):,} games (95% CI {base[f'{key}_low']:.2%} to "
            f"{base[f'{key}_high']:.2%})."]
    diffs = data.differences
    if diffs.empty:
        return text[0] + " There is no other cell to compare with it."
    cells = {c["label"]: {**c, "side": side} for c, _ in data.cells}
    significant = diffs[diffs["significant"]]
    ranked = significant.reindex(significant["difference"].abs().sort_values(
        ascending=False, kind="stable").index)
    realistic = _realistic(data, significant)
    policy = ranked["cell"].isin(_policy_cells(data))
    points = {c["label"] for c, _ in data.cells if c["kind"] == "screen"}
    rules = ranked[~policy.to_numpy() & ~ranked["cell"].isin(points).to_numpy()]
    ranked = pd.concat([rules[rules["cell"].isin(realistic)],
                        rules[~rules["cell"].isin(realistic)]])
    text += [_effect_sentence(cells[row["cell"]], row) for _, row in ranked.head(top).iterrows()]
    if policy.any():  # the scripted players, not the rules: said apart
        row = significant.loc[significant["difference"].abs().sort_values(
            ascending=False, kind="stable").index]
        row = row[row["cell"].isin(_policy_cells(data))].iloc[0]
        sentence = _effect_sentence(cells[row["cell"]], row)
        text.append("Of the policy cells (the scripted players, not the rules): "
                    + sentence[0].lower() + sentence[1:])
    text.append(f"{len(significant)} of {len(diffs)} cells differ significantly from the "
                f"base (paired McNemar tests, Holm-corrected, 5% level).")
    if significant.empty:
        largest = diffs.loc[diffs["difference"].abs().idxmax()]
        text.append(f"The largest observed difference, {largest['cell']}, is "
                    f"{largest['difference'] * 100:+.1f} points.")
    for sweep in _screen_sweeps(data):  # a screening's points are not settings to name
        top_knob = screening_table(data, sweep["design"]).iloc[0]
        text.append(f"The Morris screening ranks {top_knob['knob']} first: mu* "
                    f"{top_knob['mu_star']:.1f} points over its range (95% bootstrap "
                    f"interval {top_knob['mu_star_low']:.1f} to "
                    f"{top_knob['mu_star_high']:.1f}), sigma {top_knob['sigma']:.1f}.")
    tornado = sensitivity(data)
    tornado = tornado[tornado["knob"] != "policy"]
    if not tornado.empty:
        top_row = tornado.iloc[0]
        text.append(f"Of the rules swept, {_group(top_row['knob'])} moves the win rate "
                    f"most: its cells range from {top_row['low'] * 100:+.1f} to "
                    f"{top_row['high'] * 100:+.1f} points.")
    return " ".join(text)


# -- tables (strings, shared by Markdown and HTML) ---------------------------------------


def _pct(x: float) -> str:
    return f"{x:.2%}"


def _points(x: float) -> str:
    return f"{x * 100:+.2f}"


def _p(x: float) -> str:
    return "< 1e-300" if x == 0 else f"{x:.3g}"


def win_rate_table(data: ReportData) -> pd.DataFrame:
    s = data.summary
    table = pd.DataFrame({"cell": s["cell"], "games": s["games"].map("{:,}".format)})
    for name in _winner_names(data):
        table[f"{name} win"] = s[f"winner_{name}"].map(_pct)
        table["95% interval"] = [f"[{_pct(lo)}, {_pct(hi)}]" for lo, hi in
                                 zip(s[f"winner_{name}_low"], s[f"winner_{name}_high"],
                                     strict=True)]
        table = table.rename(columns={"95% interval": f"{name} 95% interval"})
    return table


def _interval(low: float, high: float) -> str:
    return f"[{_points(low)}, {_points(high)}]"


def difference_table(data: ReportData) -> pd.DataFrame:
    d = data.differences
    return pd.DataFrame({
        "cell": d["cell"], "paired games": d["games"].map("{:,}".format),
        "won only here / only in base": [f"{g:,} / {x:,}" for g, x in
                                         zip(d["gained"], d["lost"], strict=True)],
        f"{data.side} win difference (points)": d["difference"].map(_points),
        "Holm-adjusted interval": [_interval(lo, hi) for lo, hi in
                                   zip(d["low"], d["high"], strict=True)],
        "level": d["confidence"].map(lambda c: f"{c:.2%}"),
        "p (McNemar)": d["p_value"].map(_p), "p (Holm)": d["p_holm"].map(_p),
        "significant": d["significant"].map({True: "yes", False: "no"}),
        "note": d["no_game_changed"].map({True: "changed no game", False: ""})})


def end_reason_table(data: ReportData) -> pd.DataFrame:
    s = data.summary
    table = pd.DataFrame({"cell": s["cell"]})
    for column in [c for c in s.columns if c.startswith("end_reason_")]:
        table[column[len("end_reason_"):]] = s[column].map(_pct)
    return table


def length_table(data: ReportData) -> pd.DataFrame:
    rows = []
    for cell, counts in data.turns.iterrows():
        values = np.repeat(counts.index.to_numpy(), counts.to_numpy())
        rows.append({"cell": cell, "mean": f"{values.mean():.2f}",
                     "median": f"{np.median(values):g}", "min": str(values.min()),
                     "max": str(values.max())})
    return pd.DataFrame(rows)


def sensitivity_table(data: ReportData) -> pd.DataFrame:
    t = sensitivity(data)
    return pd.DataFrame({"knob": t["knob"], "cells": t["cells"].map(str),
                         "lowest (points)": [f"{_points(v)} ({c})" for v, c in
                                             zip(t["low"], t["low_cell"], strict=True)],
                         "highest (points)": [f"{_points(v)} ({c})" for v, c in
                                              zip(t["high"], t["high_cell"], strict=True)],
                         "span (points)": t["span"].map(lambda x: f"{x * 100:.2f}")})


def _rung_label(row) -> str:
    return f"{row['cell']} (= {row['also']})" if row["also"] else row["cell"]


def ladder_table(data: ReportData, table: pd.DataFrame | None = None) -> pd.DataFrame:
    t = ladder(data) if table is None else table
    gap = [("-" if pd.isna(g) else f"{_points(g)} {_interval(lo, hi)}")
           for g, lo, hi in zip(t["gap"], t["gap_low"], t["gap_high"], strict=True)]
    return pd.DataFrame({
        "rung": t["rung"].map(str), "tier": t["tier"],
        "cell": [_rung_label(r) for _, r in t.iterrows()],
        "games": t["games"].map("{:,}".format), f"{data.side} win": t["rate"].map(_pct),
        "95% interval": [f"[{_pct(lo)}, {_pct(hi)}]" for lo, hi in
                         zip(t["low"], t["high"], strict=True)],
        "vs base (points)": t["vs_base"].map(_points),
        "gap to next rung (points, Holm-adjusted interval)": gap,
        "p (Holm, all pairs)": ["-" if pd.isna(p) else _p(p) for p in t["gap_p_holm"]],
        "separated": ["-" if pd.isna(x) else ("yes" if x else "no") for x in t["separated"]]})


def balance_table(data: ReportData) -> pd.DataFrame:
    t = balance(data)
    if t.empty:
        return t
    out = pd.DataFrame({"cell": t["cell"], "balance": t["balance"].map("{:.3f}".format),
                        "decisiveness": t["decisiveness"].map("{:.3f}".format)})
    if "duration" in t:
        out["duration (mean turns)"] = t["duration"].map("{:.2f}".format)
    return out


def _aliases(cell: dict, is_base: bool) -> str:
    """The settings a cell also stands for; the base's play the base rules unchanged."""
    text = "; ".join(a["label"] for a in cell["aliases"])
    if text and is_base:
        return f"{text} (these settings leave the base rules unchanged)"
    return text or "-"


def cell_table(data: ReportData) -> pd.DataFrame:
    base = data.cells[0][0]
    rows = []
    for cell, _ in data.cells:
        changed = {k: v for k, v in cell["rules"].items() if base["rules"].get(k) != v}
        policy = {k: v for k, v in cell["policy"].items() if base["policy"].get(k) != v}
        rows.append({"cell": cell["label"], "setting": cell.get("description", cell["label"]),
                     "rules changed from base (as played)": ", ".join(
                         f"{k}={format_value(v)}" for k, v in changed.items()) or "-",
                     "policy changed from base": ", ".join(
                         f"{k}={v}" for k, v in policy.items()) or "-",
                     "also stands for": _aliases(cell, cell is base)})
    return pd.DataFrame(rows)


# -- figures -----------------------------------------------------------------------------


def shown_cells(data: ReportData) -> list[str]:
    """The cells a per-cell figure draws: all of them, or for a large sweep the base and
    the ``FIGURE_CELLS - 1`` highest and lowest win rates of the side (in cell order)."""
    labels = list(data.summary["cell"])
    if len(labels) <= FIGURE_CELLS:
        return labels
    order = data.summary.sort_values(data.rate_key, ascending=False,
                                     kind="stable")["cell"].tolist()
    half = (FIGURE_CELLS - 1) // 2
    keep = {labels[0], *order[:half], *order[-(FIGURE_CELLS - 1 - half):]}
    return [label for label in labels if label in keep]


def _only_shown(data: ReportData, frame: pd.DataFrame, ax, column: str | None = "cell"):
    """``frame``'s rows of the shown cells (``column``, or the index if None); the
    figure's ``simkit_note`` (printed under it) names the cells left out and why."""
    shown = shown_cells(data)
    labels = frame.index if column is None else frame[column]
    keep = labels.isin(shown)
    if keep.all():
        return frame
    left = [str(x) for x in labels[~keep]]
    ax.figure.simkit_note = (
        f"{int(keep.sum())} of {len(frame)} cells drawn: the base and the highest and lowest "
        f"{data.side} win rates; left out (every cell is in the table and summary.csv): "
        + ", ".join(left) + ".")
    return frame[keep]


def _wrap(label, width: int = 38) -> str:
    return "\n".join(textwrap.wrap(str(label), width)) or str(label)


def _figure(rows: int, labels=()) -> tuple[Figure, object]:
    """A figure with one row per cell, wide enough for the plot beside the longest label."""
    width = 5.5 + 0.075 * min(max((len(str(x)) for x in labels), default=10), 38)
    lines = max((_wrap(x).count("\n") + 1 for x in labels), default=1)
    fig = Figure(figsize=(width, max(2.6, 0.34 * rows * (1 + 0.4 * (lines - 1)) + 1.3)),
                 layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.subplots()


def _cell_axis(ax, labels) -> None:
    ax.set_yticks(range(len(labels)), [_wrap(x) for x in labels])
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.grid(axis="x", alpha=0.3)


def win_rate_figure(data: ReportData) -> Figure:
    names = [c[len("winner_"):] for c in data.summary.columns
             if c.startswith("winner_") and not c.endswith(("_low", "_high"))]
    shown = shown_cells(data)
    fig, ax = _figure(len(shown), shown)
    s = _only_shown(data, data.summary, ax)
    y = np.arange(len(s))
    for i, name in enumerate(names):
        rate = s[f"winner_{name}"].to_numpy() * 100
        err = [rate - s[f"winner_{name}_low"] * 100, s[f"winner_{name}_high"] * 100 - rate]
        ax.errorbar(rate, y + (i - (len(names) - 1) / 2) * 0.2, xerr=err, fmt="o",
                    capsize=3, label=f"{name} win")
    _cell_axis(ax, s["cell"])
    ax.set_xlabel("win rate (%) with 95% Wilson interval")
    fig.legend(loc="outside lower center", ncols=min(len(names), 5), fontsize="small")
    return fig


def difference_figure(data: ReportData, policy: bool = False) -> Figure:
    """The rule cells' differences from the base (``policy``: the policy cells')."""
    policies = _policy_cells(data)
    d = data.differences[data.differences["cell"].isin(policies) == policy]
    shown = [c for c in shown_cells(data) if c in set(d["cell"])]
    fig, ax = _figure(len(shown), shown)
    d = _only_shown(data, d, ax)
    y = np.arange(len(d))
    x = d["difference"].to_numpy() * 100
    err = [x - d["low"] * 100, d["high"] * 100 - x]
    ax.errorbar(x, y, xerr=err, fmt="none", ecolor="tab:blue", capsize=3)
    sig = d["significant"].to_numpy(dtype=bool)
    ax.plot(x[sig], y[sig], "o", color="tab:blue", label="significant (Holm, 5%)")
    ax.plot(x[~sig], y[~sig], "o", mfc="white", color="tab:blue", label="not significant")
    ax.axvline(0, color="black", lw=0.8)
    _cell_axis(ax, d["cell"])
    ax.set_xlabel(_wrap(f"{data.side} win rate minus base (points), Holm-adjusted "
                        f"interval" + (" (policy cells)" if policy else ""), 70))
    fig.legend(loc="outside lower center", ncols=2, fontsize="small")
    return fig


def end_reason_figure(data: ReportData) -> Figure:
    reasons = [c for c in data.summary.columns if c.startswith("end_reason_")]
    shown = shown_cells(data)
    fig, ax = _figure(len(shown), shown)
    s = _only_shown(data, data.summary, ax)
    left = np.zeros(len(s))
    for column in reasons:
        share = s[column].to_numpy() * 100
        ax.barh(np.arange(len(s)), share, left=left, label=column[len("end_reason_"):])
        left += share
    _cell_axis(ax, s["cell"])
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of games (%)")
    fig.legend(loc="outside lower center", ncols=min(len(reasons), 5), fontsize="small")
    return fig


def length_figure(data: ReportData) -> Figure:
    shown = [c for c in shown_cells(data) if c in set(data.turns.index)]
    fig, ax = _figure(len(shown), shown)
    t = _only_shown(data, data.turns, ax, column=None)
    share = t.to_numpy() / t.to_numpy().sum(axis=1, keepdims=True) * 100
    image = ax.imshow(share, aspect="auto", cmap="viridis",
                      extent=(t.columns.min() - 0.5, t.columns.max() + 0.5, len(t) - 0.5, -0.5))
    means = (t.to_numpy() * t.columns.to_numpy()).sum(axis=1) / t.to_numpy().sum(axis=1)
    ax.plot(means, np.arange(len(t)), "w|", markersize=12, mew=2, label="mean")
    ax.set_yticks(range(len(t)), t.index)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("turns")
    ax.legend(loc="lower right", fontsize="small")
    fig.colorbar(image, ax=ax, label="share of games (%)")
    return fig


def tornado_figure(data: ReportData) -> Figure:
    """The rule knobs' ranges (the policies, players not rules, are left out)."""
    t = sensitivity(data)
    t = t[t["knob"] != "policy"].reset_index(drop=True)
    fig, ax = _figure(len(t), t["knob"])
    low, high = t["low"].to_numpy() * 100, t["high"].to_numpy() * 100
    y = np.arange(len(t))
    ax.barh(y, high - low, left=low, color="tab:blue", alpha=0.8)
    ax.plot(low, y, "|", high, y, "|", color="tab:blue", markersize=14, mew=2)
    for i in y:
        ax.annotate(f"{low[i]:+.1f} to {high[i]:+.1f}", (max(high[i], 0), i), xytext=(6, 0),
                    textcoords="offset points", ha="left", va="center", fontsize="small")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlim(min(low.min(), 0) - 2, max(high.max(), 0) + 0.25 * (np.ptp([
        *low, *high, 0]) + 4))
    _cell_axis(ax, t["knob"])
    ax.set_xlabel(f"range of the cells' {data.side} win difference from base (points)")
    ax.set_title(f"What moves {_possessive(data.side)} win rate (rule knobs and presets)",
                 fontsize="medium", loc="left", wrap=True)
    return fig


_GROUP_COLOURS = {"as played": "black", "reading": "tab:red", "reconstruction": "tab:purple",
                  "players": "tab:green"}


def robustness_figure(table: pd.DataFrame) -> Figure:
    """The headline category's win rate under every setting of a robustness table, with
    its 95% interval, coloured by kind of setting; the band is the rate as played."""
    category = table.attrs["categories"][0]
    labels = [("(floor) " if row.baseline else "") + row.setting for row in table.itertuples()]
    fig, ax = _figure(len(table), labels)
    y = np.arange(len(table))
    rate, low, high = (table[f"{category}{end}"].to_numpy() * 100
                       for end in ("", "_low", "_high"))
    for group, colour in _GROUP_COLOURS.items():
        m = (table["group"] == group).to_numpy()
        if m.any():
            ax.errorbar(rate[m], y[m], xerr=[rate[m] - low[m], high[m] - rate[m]], fmt="o",
                        color=colour, label=group, capsize=2)
    base = table["group"] == "as played"
    ax.axvspan(low[base][0], high[base][0], color="black", alpha=0.08)
    _cell_axis(ax, labels)
    ax.set_xlabel(f"{category} win rate (%), 95% interval\n{table.attrs['games']:,} games "
                  "per setting, the same games")
    ax.legend(loc="best", fontsize="small")
    return fig


_KIND_COLOURS = {"base": "black", "presets": "tab:red", "one_at_a_time": "tab:blue",
                 "grid": "tab:purple", "policies": "tab:green", "screen": "tab:gray"}
_KIND_NAMES = {"base": "base", "presets": "preset", "one_at_a_time": "one knob",
               "grid": "grid", "policies": "policy", "screen": "screening point"}


def ladder_figure(data: ReportData, table: pd.DataFrame | None = None) -> Figure:
    t = ladder(data) if table is None else table
    shown = set(shown_cells(data))
    fig, ax = _figure(min(len(t), len(shown)), [_rung_label(r) for _, r in t.iterrows()])
    t = _only_shown(data, t, ax)
    labels = [_rung_label(r) for _, r in t.iterrows()]
    y = np.arange(len(t))
    rate = t["rate"].to_numpy() * 100
    err = [rate - t["low"].to_numpy() * 100, t["high"].to_numpy() * 100 - rate]
    base_rate = t.loc[t["kind"] == "base", "rate"]
    if len(base_rate):
        ax.axvline(base_rate.iloc[0] * 100, color="grey", ls="--", lw=0.8)
    for kind in [k for k in _KIND_COLOURS if (t["kind"] == k).any()]:
        pick = (t["kind"] == kind).to_numpy()
        ax.errorbar(rate[pick], y[pick], xerr=[e[pick] for e in err], fmt="o", capsize=3,
                    color=_KIND_COLOURS[kind], label=_KIND_NAMES[kind])
    _cell_axis(ax, labels)
    ax.set_xlabel(f"{data.side} win rate (%) with 95% Wilson interval, highest first")
    fig.legend(loc="outside lower center", ncols=5, fontsize="small")
    return fig


def curve_figure(data: ReportData, knob: str, points: pd.DataFrame,
                 knob_type: type | None = None) -> Figure:
    fig = Figure(figsize=(6, 3.6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    x = points["value"].to_numpy()
    ax.fill_between(x, points["low"] * 100, points["high"] * 100, alpha=0.25,
                    label="95% interval")
    ax.plot(x, points["rate"] * 100, "o-", label=f"{data.side} win")
    base = data.cells[0][0]["label"]
    if knob_type is None:
        base_value = played_rules(data.game, data.cells[0][0]["rules"])[knob]
        knob_type = data.game.Rules.knob(knob).type
    else:
        base_value = points.loc[points["cell"] == base, "value"].iloc[0]
    ax.axvline(base_value, color="grey", ls="--", lw=0.8, label="base")
    if knob_type is int:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(knob)
    ax.set_ylabel("win rate (%)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    return fig


# -- writing -----------------------------------------------------------------------------


def _png(fig: Figure) -> bytes:
    """The figure as PNG bytes. Every report figure lays itself out (``constrained``), so
    it is saved as drawn: ``bbox_inches="tight"`` would draw it a second time to crop it."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    return buffer.getvalue()


def _md_table(table: pd.DataFrame) -> str:
    """pandas' Markdown writer (tabulate's pipe format), every cell kept as text, without
    the padding to the widest cell (a long cell would pad every row of its column)."""
    text = table.astype(str).map(lambda x: x.replace("|", "\\|")).to_markdown(
        index=False, tablefmt="pipe", disable_numparse=True)
    return "\n".join(re.sub(r"(?<=\S) +\|", " |", re.sub(r"\| +(?=\S)", "| ", line))
                     for line in text.splitlines())


def _policy_cells(data: ReportData) -> set[str]:
    """The cells that change the scripted players, not the rules."""
    return {c["label"] for c, _ in data.cells if c["kind"] == "policies"}


def _effect(row) -> str:
    star = "*" if row["significant"] else ""
    return f"{_points(row['difference'])} {_interval(row['low'], row['high'])}{star}"


def knob_headlines(data: ReportData) -> pd.DataFrame:
    """Per knob (and the presets, the policies): its settings' effects, the realistic
    ones (nearest the base value) first, then the extremes."""
    members = analysis.memberships(data)
    if members.empty or data.differences.empty:
        return pd.DataFrame(columns=["knob", "base value", "near the base", "extremes"])
    diffs = data.differences.set_index("cell")
    base_rules = played_rules(data.game, data.cells[0][0]["rules"])
    entries = {c["label"]: c for c, _ in data.cells}
    rows = []
    for knob, group in members.groupby("knob", sort=False):
        group = group[group["cell"].isin(diffs.index)].drop_duplicates("cell")
        if group.empty:
            continue
        kind = group["kind"].iloc[0]
        base_value = base_rules.get(knob, None) if kind == "one_at_a_time" else None
        if kind == "one_at_a_time" and isinstance(base_value, (int, float)) and not \
                isinstance(base_value, bool):
            played = [played_rules(data.game, entries[c]["rules"])[knob] for c in group["cell"]]
            group = group.assign(distance=[abs(float(v) - base_value) for v in played],
                                 played=played).sort_values("distance", kind="stable")
            near = group.head(2)
            far = group.iloc[2:]
            far = far[far["played"].isin([max(far["played"], default=None),
                                          min(far["played"], default=None)])]
        else:
            near, far = group.head(3), group.iloc[3:]
        text = lambda g: "; ".join(f"{v}: {_effect(diffs.loc[c])}"  # noqa: E731
                                   for v, c in zip(g["value"], g["cell"], strict=True))
        name = {"presets": "preset", "policies": "policy (players, not rules)"}.get(
            kind, knob)
        rows.append({"knob": name, "base value": "-" if base_value is None else
                     format_value(base_value), "near the base": text(near),
                     "extremes": text(far) or "-", "kind": kind})
    table = pd.DataFrame(rows)
    order = table["kind"].map({"one_at_a_time": 0, "grid": 1, "presets": 2, "policies": 3})
    return table.assign(_o=order).sort_values("_o", kind="stable").drop(
        columns=["_o", "kind"]).reset_index(drop=True)


def first_screen(data: ReportData) -> list:
    """The answer: the question, the base, each knob's headline, the tornado and the
    robustness range."""
    head, side = data.head, data.side
    base = data.summary.iloc[0]
    question = head.get("description") or (
        f"{data.game.title}: {_possessive(side)} win rate in "
        + ("this run" if len(data.cells) == 1 else f"{len(data.cells)} cells"))
    games_text = ", ".join(f"{n:,}" for n in sorted(set(data.summary["games"])))
    key = data.rate_key
    lead = (f"In the base cell {'the ' + side} win {base[key]:.2%} "
            f"(95% CI {base[f'{key}_low']:.2%} to {base[f'{key}_high']:.2%}) "
            f"of {int(base['games']):,} games; {len(data.cells)} cell(s), {games_text} games "
            f"per cell, seed {head['seed']}.")
    blocks: list = [Html(f'<p class="question"><strong>Question:</strong> '
                         f"{html.escape(question)}</p><p>{html.escape(lead)}</p>",
                         f"**Question:** {question}\n\n{lead}")]
    if data.game.caveat:
        blocks.append(f"Caveat: {data.game.caveat}.")
    if not data.differences.empty:
        significant = int(data.differences["significant"].sum())
        blocks.append(
            f"Each knob's effect on {_possessive(side)} win rate against the base, in "
            "points with its Holm-adjusted interval (* significant at 5%, paired McNemar "
            f"tests on the same games, Holm over the cells: {significant} of "
            f"{len(data.differences)} cells). Settings nearest the base value come first, "
            "then the extremes.")
        blocks.append(Table(knob_headlines(data)))
        tornado = sensitivity(data)
        if not tornado[tornado["knob"] != "policy"].empty:
            blocks.append(("tornado", tornado_figure(data)))
    blocks += _robustness_line(data)
    blocks.append(findings(data))
    return blocks


def _robustness_line(data: ReportData) -> list:
    command = f"simkit robustness {data.game.name}"
    try:
        table = rests_on(data)
    except Exception:  # noqa: BLE001 - the report stands without it
        return [f"Robustness: `{command}` plays the base under every open reading, "
                "reconstruction alternative and pairing of the scripted players."]
    data.rests_on_table = table
    ranges = "; ".join(headline(table, c) for c in table.attrs["categories"])
    which = _replayed_games(data, table)
    return [Html(f"<p><strong>Robustness</strong> ({html.escape(which)}): "
                 f"{html.escape(ranges)}. "
                 f'Details in <a href="#what-this-rests-on">What this rests on</a>; '
                 f"<code>{html.escape(command)}</code> plays more, rollout players too.</p>",
                 f"**Robustness** ({which}): {ranges}. Details in "
                 f"[What this rests on](#what-this-rests-on); `{command}` plays more, "
                 "rollout players too.")]


def _replayed_games(data: ReportData, table: pd.DataFrame) -> str:
    """Which games the robustness figures come from: the base cell's first games, and
    its rate on them beside its rate on all of its games, so the two figures on one page
    say how they differ."""
    n = table.attrs["games"]
    first = table.attrs["categories"][0]
    all_games = int(data.summary.iloc[0]["games"])
    rate_all = data.summary.iloc[0].get(f"winner_{first}")
    if n >= all_games or rate_all is None or pd.isna(rate_all):
        return f"the base replayed, its {n:,} games per setting"
    replay = float(table.loc[table["group"] == "as played", first].iloc[0])
    return (f"the base cell's first {n:,} games replayed under every setting, rollout "
            f"players left out; on those games the {first} win {_pct(replay)}, on all "
            f"{all_games:,} of the cell's {_pct(rate_all)}")


def sections(data: ReportData) -> list[tuple[str, list]]:
    """(heading, blocks) in order, only the sections that apply; a block is a str
    paragraph, a DataFrame or ``Table``, an ``Html`` block or a figure (name, Figure)."""
    diffs = not data.differences.empty
    policies = _policy_cells(data)
    curve_blocks = [(f"curve_{k}", curve_figure(data, k, p)) for k, p in curves(data).items()]
    balance_t = balance_table(data)
    out = [("Key findings", first_screen(data)),
           ("What this rests on", rests_on_blocks(data))]
    win_note = _complement_note(data)
    out.append(("Win rates", [*([win_note] if win_note else []),
                              Table(win_rate_table(data), _headline_cells(data),
                                    "the base and the cells named in the findings"),
                              ("win_rates", win_rate_figure(data))]))
    if diffs:
        table = difference_table(data)
        rule = ~table["cell"].isin(policies)
        blocks = [f"Paired differences in {_possessive(data.side)} win rate from the base "
                  "cell on the same games: the games won only in the cell and only in the "
                  "base (the discordant pairs), the McNemar p-value (asymptotic, no "
                  "continuity correction), Holm's correction over all cells, and Tango's "
                  "score interval (it inverts the same test) at the level Holm tested the "
                  "cell at ('level': 1 - 0.05/k), so it excludes zero exactly when the "
                  "cell is significant. 'changed no game': every outcome of every game "
                  "equals the base's.",
                  Table(table[rule].reset_index(drop=True),
                        (table[rule]["significant"] == "yes").to_numpy(),
                        "the significant ones"),
                  ("differences", difference_figure(data))]
        if policies:
            blocks += [("Policy cells (the scripted players changed, not the rules), apart "
                        "so they do not set the scale of the rule effects:"),
                       Table(table[~rule].reset_index(drop=True)),
                       ("policy_differences", difference_figure(data, policy=True))]
        out.append(("Differences from the base", blocks))
    if any(c.startswith("end_reason_") for c in data.summary.columns):
        out.append(("End reasons", [Table(end_reason_table(data), _headline_cells(data),
                                          "the base and the cells named in the findings"),
                                    ("end_reasons", end_reason_figure(data))]))
        if diffs:
            out.append(("End-reason shifts", end_reason_shift_blocks(data)))
    if not data.turns.empty:
        out.append(("Game length", [Table(length_table(data), _headline_cells(data),
                                          "the base and the cells named in the findings"),
                                    ("game_length", length_figure(data)),
                                    *length_by_outcome_blocks(data)]))
        out.append(("Survival", survival_blocks(data)))
    for heading, blocks in (("Outcome means", outcome_mean_blocks(data)),
                            ("Seat balance", seat_blocks(data))):
        if blocks:
            out.append((heading, blocks))
    if data.head.get("rotate_seats"):
        out.append(("Every seating", rotation_blocks(data)))
    screening = screening_blocks(data)
    if screening:
        out.append(("Screening", screening))
    if diffs:
        out.append(("Sensitivity",
                    ["For each knob (or the presets, a grid), the range of its cells' "
                     "differences from the base, the widest first; a knob swept one at a "
                     "time counts its base value (difference 0). Policy cells are listed "
                     "but left out of the figure (the tornado, in Key findings).",
                     sensitivity_table(data)]))
    value_blocks = curve_blocks + policy_curve_blocks(data)
    if value_blocks:
        out.append(("Win rate by knob value", value_blocks))
    grid = grid_blocks(data)
    if grid:
        out.append(("Grids", grid))
    if diffs:
        ladder_t = ladder(data)
        out.append(("Difficulty ladder", [
            f"Every cell (presets, knob settings, policies) ordered by "
            f"{_possessive(data.side)} win rate, highest first, with its Wilson 95% interval "
            "and its paired difference from the base. " + (
                "Every pair of cells is compared on the same games (asymptotic "
                "McNemar test without continuity correction, Holm-corrected over all "
                "pairs); cells sharing a tier letter are not separated at 5% (a letter is "
                "a run of consecutive rungs no two of which are separated)."
                if len(data.cells) <= MAX_PAIRWISE else
                f"With more than {MAX_PAIRWISE} cells only adjacent rungs are compared "
                "(Holm over those gaps); cells sharing a tier letter are not separated "
                "from their neighbours.") + " The gap to the next rung is the paired "
            "difference from the cell below with its Holm-adjusted interval; 'separated: "
            "no' means the order of those two rungs is not established. A cell that "
            "stands for others names them in brackets.",
            Table(ladder_table(data, ladder_t)), ("ladder", ladder_figure(data, ladder_t))]))
    if not balance_t.empty:
        out.append(("Side balance",
                    ["balance = 1 - (max - min) of the sides' win rates (1 - |p1 - p2| for "
                     "two sides); decisiveness = share of games some side won; duration = "
                     "mean turns.", Table(balance_t, _headline_cells(data),
                                          "the base and the cells named in the findings")]))
    if diffs:
        out.append(("Planning", planning_blocks(data)))
    out.append(("Cells", [_intro(data), Table(cell_table(data))]))
    assert [h for h, _ in out] == [h for h in SECTIONS if h in {h for h, _ in out}]
    return out


def _headline_cells(data: ReportData) -> np.ndarray:
    """The rows a collapsed per-cell table keeps: the base, the presets and the cells
    farthest from the base."""
    keep = set(_featured(data, most=12))
    return data.summary["cell"].isin(keep).to_numpy()


def _complement_note(data: ReportData) -> str:
    """Says which winner column is left out of the win-rate table as the complement of
    the others (two categories that sum to 1 in every cell)."""
    names = _winner_names(data)
    if len(names) == 2 and names == _winner_names(data, shown_only=False):
        return ""
    dropped = [n for n in _winner_names(data, shown_only=False) if n not in names]
    if not dropped:
        return ""
    return (f"'{dropped[0]} win' is left out: it is 100% minus "
            + " plus ".join(f"'{n} win'" for n in names) + " in every cell.")


def _winner_names(data: ReportData, shown_only: bool = True) -> list[str]:
    s = data.summary
    names = [c[len("winner_"):] for c in s.columns
             if c.startswith("winner_") and not c.endswith(("_low", "_high"))]
    if not shown_only or len(names) != 2:
        return names
    total = s[f"winner_{names[0]}"] + s[f"winner_{names[1]}"]
    if np.allclose(total, 1.0):
        return [n for n in names if n == data.side] or names[:1]
    return names


def rests_on_blocks(data: ReportData) -> list:
    """The base cell's headline under every open reading, reconstruction alternative and
    pairing of the scripted players (``analysis.rests_on``), said at its modest size."""
    table = getattr(data, "rests_on_table", None)
    table = rests_on(data) if table is None else table
    categories = table.attrs["categories"]
    shown = pd.DataFrame({"kind": table["group"] + np.where(table["baseline"], " (floor)", ""),
                          "setting": table["setting"], "games": table["games"]})
    for c in categories:
        shown[f"{c} win"] = [f"{_pct(r)} [{_pct(lo)}, {_pct(hi)}]" for r, lo, hi in
                             zip(table[c], table[f"{c}_low"], table[f"{c}_high"], strict=True)]
    shown[f"vs as played ({categories[0]})"] = [
        "" if g == "as played" else f"{_points(d)} {_interval(lo, hi)}"
        for g, d, lo, hi in zip(table["group"], table.get("difference", 0),
                                table.get("difference_low", 0), table.get("difference_high", 0),
                                strict=True)]
    intro = (f"A win rate's interval covers the dice, not the choices behind it. The base "
             f"cell played again, {table.attrs['games']:,} games per setting (a modest size: "
             "`simkit robustness` plays more), under every reading the rulebook leaves "
             "open, every reconstruction alternative and every pairing of the scripted "
             "players (rollout players left out), on the same games; differences are "
             "paired (McNemar/Tango 95%). Ranges leave random players out: "
             + "; ".join(headline(table, c) for c in categories) + ".")
    best = best_play_lines(table)
    intro += (" Under the best play found (`simkit balance`): " + "; ".join(best) + "."
              if best else " The headline under the best play found: `simkit balance "
              f"{data.game.name} --out DIR`, then `simkit report --balance DIR`.")
    return [intro, shown, ("rests_on", robustness_figure(table))]


# -- every outcome column (simkit.analysis) ----------------------------------------------

_HOLM_NOTE = ("Intervals are at the level Holm's step-down tested each comparison at "
              "(1 - 0.05/k), so an interval excludes zero exactly when the comparison "
              "is significant (marked *).")


def _shift(row) -> str:
    star = "*" if row["significant"] else ""
    return f"{_points(row['difference'])} {_interval(row['low'], row['high'])}{star}"


def end_reason_shift_blocks(data: ReportData) -> list:
    t = analysis.end_reason_shifts(data.game, data.frames)
    if t.empty:
        return []
    t["text"] = [_shift(r) for _, r in t.iterrows()]
    wide = t.pivot(index="cell", columns="reason", values="text").reindex(
        [label for label in data.frames.labels[1:] if label in set(t["cell"])]).fillna("-")
    return [("Each cell's paired difference from the base in the share of games ending "
             "with each end reason (points; McNemar on the games that end so only "
             f"in one of the two, Holm over every cell and reason). {_HOLM_NOTE}"),
            wide.reset_index()]


def length_by_outcome_blocks(data: ReportData) -> list:
    t = analysis.length_by_outcome(data.game, data.frames)
    if t.empty:
        return []
    t["text"] = [f"{r['mean']:.2f}" + ("" if np.isnan(r["low"]) else
                                       f" [{r['low']:.2f}, {r['high']:.2f}]")
                 + f" (n={r['games']:,})" for _, r in t.iterrows()]
    wide = t.pivot(index="cell", columns="end_reason", values="text").reindex(
        data.frames.labels).fillna("-")
    return ["Mean turns by end reason (t 95% interval; none when every such game lasted "
            "the same), so a turn cap does not hide when games are lost.",
            wide.reset_index()]


def _featured(data: ReportData, most: int = 8) -> list[str]:
    """The base, the presets and the cells farthest from the base, at most ``most``."""
    labels = [data.frames.labels[0]]
    labels += [c["label"] for c, _ in data.cells if c["kind"] == "presets"]
    if not data.differences.empty:
        far = data.differences.reindex(data.differences["difference"].abs().sort_values(
            ascending=False).index)["cell"]
        labels += [x for x in far if x not in labels]
    return labels[:most]


def survival_blocks(data: ReportData) -> list:
    t = analysis.survival(data.game, data.frames, data.side, data.side_column)
    if t.empty:
        return []
    turns = t.columns.to_numpy()
    picks = sorted({int(x) for x in np.linspace(turns.min(), turns.max(), 7).round()})
    table = t[picks].map(_pct)
    table.columns = [f"turn {c}" for c in picks]
    fig = Figure(figsize=(7, 4), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    for label in _featured(data):
        ax.step(turns, t.loc[label] * 100, where="post", label=label)
    ax.set_xlabel("turn")
    ax.set_ylabel(f"games {data.side} have not lost (%)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="x-small", loc="best")
    return [(f"The share of games {data.side} have not yet lost by the end of each turn "
             "(a survival curve: the turn of defeat; a game another winner takes counts "
             "as lost at its last turn). The figure shows the base, the presets and the "
             "cells farthest from the base."), table.reset_index(names="cell"),
            ("survival", fig)]


def outcome_mean_blocks(data: ReportData) -> list:
    means = analysis.outcome_means(data.game, data.frames)
    if means.empty:
        return []
    means["text"] = [f"{r['mean']:.3g}" + ("" if np.isnan(r["low"]) else
                                           f" \u00b1{(r['high'] - r['low']) / 2:.2g}")
                     for _, r in means.iterrows()]
    wide = means.pivot(index="cell", columns="column", values="text").reindex(
        data.frames.labels)  # a column no cell has in play (a seat left empty) is left out
    wide = wide[[c for c in analysis.numeric_columns(data.game) if c in wide]].fillna("")
    blocks = ["The mean of every numeric outcome column per cell, \u00b1 the half-width of "
              "its t 95% interval (none when the column is constant in the cell). Column "
              "meanings: " + "; ".join(f"{n}: {data.game.outcome_columns[n].description}"
                                       for n in analysis.numeric_columns(data.game)) + ".",
              Table(wide.reset_index(), _headline_cells(data),
                  "the base and the cells named in the findings")]
    diffs = analysis.mean_differences(data.game, data.frames)
    if not diffs.empty:
        shown = diffs[diffs["significant"]]
        blocks += [(f"Paired differences from the base in these means (per-game differences "
                    f"on the same games, paired t test, Holm over the {len(diffs)} cell and "
                    f"column pairs that differ in some game): the {len(shown)} significant "
                    f"ones. {_HOLM_NOTE}"),
                   pd.DataFrame({"cell": shown["cell"], "column": shown["column"],
                                 "difference": shown["mean"].map("{:+.3g}".format),
                                 "Holm-adjusted interval": [
                                     f"[{lo:+.3g}, {hi:+.3g}]" for lo, hi in
                                     zip(shown["low"], shown["high"], strict=True)],
                                 "p (Holm)": shown["p_holm"].map(_p)})]
    return blocks


def _seat_namer(data: ReportData) -> Callable:
    """(cell, seat) -> the seat as the game names it in that cell: ``seat_names(rules)``
    or ``seated(rules)`` (a list, seat 1 first) where the game gives one, else the
    column's own name (seat1, seat2, ...)."""
    name_of = getattr(data.game, "seat_names", None) or getattr(data.game, "seated", None)
    rules = {c["label"]: c["rules"] for c, _ in data.cells}
    cache: dict = {}

    def name(cell: str, seat: str) -> str:
        if name_of is None:
            return seat
        if cell not in cache:
            try:
                cache[cell] = list(name_of(data.game.Rules().replace(rules[cell])))
            except Exception:  # noqa: BLE001 - a seat is still named by its column
                cache[cell] = []
        number = int(seat[len("seat"):]) - 1
        names = cache[cell]
        return f"{names[number]} ({seat})" if 0 <= number < len(names) else seat

    return name


def seat_blocks(data: ReportData) -> list:
    wins, measures = analysis.seat_balance(data.game, data.frames)
    name = _seat_namer(data)
    for t in (wins, measures):
        if not t.empty:
            t["seat"] = [name(c, x) for c, x in zip(t["cell"], t["seat"], strict=True)]
    if wins.empty and measures.empty:  # no per-seat column, or no cell seats two
        return []
    blocks = []
    if not wins.empty:
        blocks += [("Each seat's share of the games it wins in each seat-winner column "
                    "(Wilson 95% interval), over the seats that win at least once in the "
                    "cell; balance = 1 - (max - min) of those shares (Ludii-style)."),
                   pd.DataFrame({"cell": wins["cell"], "column": wins["column"],
                                 "seat": wins["seat"], "share": wins["share"].map(_pct),
                                 "95% interval": [f"[{_pct(lo)}, {_pct(hi)}]" for lo, hi in
                                                  zip(wins["low"], wins["high"],
                                                      strict=True)],
                                 "balance": wins["balance"].map("{:.3f}".format)})]
        blocks[-1] = Table(blocks[-1], (wins["cell"] == data.frames.labels[0]).to_numpy(),
                           "the base cell's rows")
    if not measures.empty:
        measures = measures.reset_index(drop=True)
        advantage = [("-" if np.isnan(r["p_value"]) else
                      f"{r['mean']:+.2f} [{r['low']:+.2f}, {r['high']:+.2f}]"
                      + ("*" if r["significant"] else "")) for _, r in measures.iterrows()]
        blocks += [("Each seat's mean of every per-seat measure (t 95% interval) and its "
                    "advantage over the first seat in play: the mean per-game difference "
                    f"(paired t, Holm over every advantage). {_HOLM_NOTE} A seat whose "
                    "column is constant in a cell (an empty seat) is left out."),
                   pd.DataFrame({"cell": measures["cell"], "measure": measures["measure"],
                                 "seat": measures["seat"],
                                 "mean": [f"{m:.2f} [{lo:.2f}, {hi:.2f}]" for m, lo, hi in
                                          zip(measures["seat_mean"], measures["seat_low"],
                                              measures["seat_high"], strict=True)],
                                 "advantage over the first seat": advantage})]
        blocks[-1] = Table(blocks[-1], (measures["cell"] == data.frames.labels[0]).to_numpy(),
                           "the base cell's rows (every cell's, significant advantages "
                           "marked *, in the HTML)")
    return blocks


def rotation_blocks(data: ReportData) -> list:
    """A rotated experiment's cells with their rotations pooled (``seats.experiment_table``):
    the tables above show each seating as its own cell."""
    table = experiment_table(data.path)
    effect = table["by"] == "seat effect"
    shown = pd.DataFrame({
        "cell": table["cell"], "by": table["by"], "name": table["name"],
        "rate": [_points(r) if e else _pct(r)
                 for r, e in zip(table["rate"], effect, strict=True)],
        "95% interval": [(_interval(lo, hi) if e else f"[{_pct(lo)}, {_pct(hi)}]")
                         for lo, hi, e in zip(table["low"], table["high"], effect,
                                              strict=True)]})
    return [("Each cell's seatings (the stated one and its cyclic rotations, the same game "
             "indices) pooled: the win rate by seat and by tribe (Wilson 95% interval), and "
             "each seat's effect, its win rate minus seat 1's in percentage points, paired "
             "over the same games (each at 95% on its own). Elsewhere in the report each "
             "rotation is a cell of its own, labelled [rotation k]."),
            Table(shown, (table["cell"] == table["cell"].iloc[0]).to_numpy(),
                  "the base cell's rows")]


def _rate(data: ReportData) -> Callable:
    s = data.summary.set_index("cell")
    return lambda label: tuple(s.loc[label, f"{data.rate_key}{x}"]
                               for x in ("", "_low", "_high"))


def policy_curve_blocks(data: ReportData) -> list:
    return [(f"policy_curve_{re.sub(r'[^A-Za-z0-9]+', '_', name)}",
             curve_figure(data, name, points, knob_type=float))
            for name, points in analysis.policy_curves(data.game, data.cells,
                                                       _rate(data)).items()]


def _screen_sweeps(data: ReportData) -> list[dict]:
    """The screen sweeps of an experiment folder, each with its Morris design."""
    folder = data.cells[0][1]
    root = folder.parent.parent
    if folder.parent.name != CELLS_DIR or not (root / EXPERIMENT_FILE).exists():
        return []
    return [s for s in read_experiment(root).get("sweeps", [])
            if s.get("kind") == "screen" and "design" in s]


def screening_table(data: ReportData, design: dict) -> pd.DataFrame:
    """The Morris effects (``simkit.screen.analyze``) of the side's win rate at the
    screen sweep's points, each point's rate read from the cell that played it (a point
    merged with an earlier cell reads that cell's)."""
    from simkit.screen import analyze

    owner = {}
    for cell, _ in data.cells:
        for label in [cell["label"], *(a["label"] for a in cell["aliases"])]:
            owner.setdefault(label, cell["label"])
    rate = _rate(data)
    width = len(design["knobs"]) + 1
    y = [100 * rate(owner[f"screen {k // width + 1}.{k % width}"])[0]
         for k in range(len(design["x"]))]
    return analyze(design["knobs"], design["x"], y, design["levels"],
                   int(data.head.get("seed", 0)))


def screening_blocks(data: ReportData) -> list:
    blocks = []
    for sweep in _screen_sweeps(data):
        design = sweep["design"]
        table = screening_table(data, design)
        blocks += [f"Morris screening of {len(design['knobs'])} knobs ({design['trajectories']} "
                   f"walks on {design['levels']} levels of each knob's range, every point on "
                   f"the same games): for each knob, mu* is the mean absolute change in "
                   f"{_possessive(data.side)} win rate (points) when it moves one step of "
                   "its range, scaled to the whole range, with SALib's 95% bootstrap "
                   "interval; sigma is the spread of those changes: a sigma as large as mu* "
                   "says the knob acts non-linearly or through other knobs (interactions); "
                   "mu is the signed mean.",
                   pd.DataFrame({"knob": table["knob"],
                                 "mu*": table["mu_star"].map("{:.2f}".format),
                                 "95% interval": [f"[{lo:.2f}, {hi:.2f}]" for lo, hi in
                                                  zip(table["mu_star_low"],
                                                      table["mu_star_high"], strict=True)],
                                 "sigma": table["sigma"].map("{:.2f}".format),
                                 "mu": table["mu"].map("{:+.2f}".format)}),
                   ("screening", screening_figure(table, data.side))]
    return blocks


def screening_figure(table: pd.DataFrame, side: str) -> Figure:
    """Each knob's mu* with its interval, and its sigma, ranked (largest first)."""
    fig, ax = _figure(len(table), table["knob"])
    y = np.arange(len(table))
    mu = table["mu_star"].to_numpy()
    err = [mu - table["mu_star_low"].to_numpy(), table["mu_star_high"].to_numpy() - mu]
    ax.barh(y, mu, color="tab:blue", alpha=0.7, label="mu* (95% bootstrap interval)")
    ax.errorbar(mu, y, xerr=err, fmt="none", ecolor="black", capsize=3)
    ax.plot(table["sigma"].to_numpy(), y, "D", color="tab:orange", label="sigma")
    _cell_axis(ax, table["knob"])
    ax.set_xlabel(f"{side} win rate, points over the knob's range")
    ax.set_title(f"Which knobs move {_possessive(side)} win rate (Morris screening)",
                 fontsize="medium", loc="left", wrap=True)
    fig.legend(loc="outside lower center", ncols=2, fontsize="small")
    return fig


def grid_blocks(data: ReportData) -> list:
    found = analysis.grids(data.cells)
    if not found:
        return []
    rate = _rate(data)
    blocks = []
    for n, grid in enumerate(found, 1):
        table = analysis.grid_table(grid, lambda label: rate(label)[0])
        lows = analysis.grid_table(grid, lambda label: rate(label)[1])
        highs = analysis.grid_table(grid, lambda label: rate(label)[2])
        intervals = [[(lo * 100, hi * 100) for lo, hi in zip(lrow, hrow, strict=True)]
                     for lrow, hrow in zip(lows.to_numpy(dtype=float),
                                           highs.to_numpy(dtype=float), strict=True)]
        shown = table.copy().astype(object)
        for (i, j), v in np.ndenumerate(table.to_numpy(dtype=float)):
            shown.iat[i, j] = "-" if np.isnan(v) else (
                f"{_pct(v)} [{_pct(lows.iat[i, j])}, {_pct(highs.iat[i, j])}]")
        blocks += [f"Grid {n} over {', '.join(grid['knobs'])}: {_possessive(data.side)} win "
                   "rate with its Wilson 95% interval.", shown.reset_index(),
                   (f"grid_{n}", heatmap_figure(data, grid, table, intervals))]
        comparisons = analysis.grid_comparisons(grid, data.frames, data.side,
                                                data.side_column)
        if not comparisons.empty:
            blocks += [("Inside the grid, on the same games: each knob's values against its "
                        "first value at each setting of the other knobs (McNemar), "
                        "and the interactions - how much the first knob's effect changes "
                        "with the second knob (paired t on the per-game contrast); Holm "
                        f"over each kind. {_HOLM_NOTE}"),
                       pd.DataFrame({"comparison": comparisons["comparison"],
                                     "at": comparisons["at"],
                                     "difference (points)": comparisons["difference"].map(
                                         _points),
                                     "Holm-adjusted interval": [
                                         _interval(lo, hi) for lo, hi in
                                         zip(comparisons["low"], comparisons["high"],
                                             strict=True)],
                                     "p (Holm)": comparisons["p_holm"].map(_p),
                                     "significant": comparisons["significant"].map(
                                         {True: "yes", False: "no"})})]
    return blocks


def heatmap_figure(data: ReportData, grid: dict, table: pd.DataFrame,
                   intervals=None) -> Figure:
    """The grid's win rates, each cell's text (black or white by the colour's luminance)
    with its 95% interval (``intervals``: per row, per column, (low, high) in %)."""
    fig = Figure(figsize=(2.2 + 1.5 * table.shape[1], 1.6 + 0.8 * table.shape[0]),
                 layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    values = table.to_numpy(dtype=float) * 100
    image = ax.imshow(values, cmap="viridis", aspect="auto")
    for (i, j), v in np.ndenumerate(values):
        if not np.isnan(v):
            r, g, b, _ = image.cmap(image.norm(v))
            dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5  # relative luminance
            low, high = (intervals[i][j] if intervals is not None else (np.nan, np.nan))
            text = f"{v:.1f}" + ("" if np.isnan(low) else f"\n[{low:.1f}, {high:.1f}]")
            ax.text(j, i, text, ha="center", va="center", fontsize="small",
                    color="white" if dark else "black")
    ax.set_xticks(range(table.shape[1]), table.columns)
    ax.set_yticks(range(table.shape[0]), table.index)
    ax.set_ylabel(grid["knobs"][0])
    ax.set_xlabel(", ".join(grid["knobs"][1:]) or "")
    fig.colorbar(image, ax=ax, label=f"{data.side} win (%)")
    return fig


def planning_blocks(data: ReportData) -> list:
    t = analysis.plan(data.differences)

    def games(x) -> str:
        return "-" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{int(x):,}"

    table = pd.DataFrame({"cell": t["cell"], "games": t["games"].map("{:,}".format),
                          "discordance": t["discordance"].map(_pct)})
    for column in [c for c in t.columns if c.startswith(("separate", "interval"))]:
        table[f"games: {column}"] = t[column].map(games)
    return [(f"How many games per cell the comparisons with the base need, from each "
             f"cell's observed discordance (the share of games won in only one of the "
             f"two): to separate a difference of 1, 2 or 5 points with 80% power (McNemar, "
             f"Connor 1987) at 5%/{len(t)} (Bonferroni over the cells; Holm is never "
             f"stricter), and for a Holm-level interval of +-1 point around the observed "
             f"difference. '-': the discordance is smaller than the effect (no number of "
             f"games of this pairing can show it) or zero. `simkit plan` gives the same "
             f"for other sizes."), table]


def _intro(data: ReportData) -> str:
    head = data.head
    games_text = ", ".join(f"{n:,}" for n in sorted(set(data.summary["games"])))
    base = ", ".join(filter(None, [
        f"preset {head['preset']}" if head.get("preset") else "",
        ", ".join(f"{k}={format_value(v)}" for k, v in head.get("rules", {}).items()),
        "policy " + " ".join(f"{k}={v}" for k, v in head["policy"].items())]))
    smaller = (f" (the experiment file asks for {head['file_games']:,}; this folder was "
               "run at another size)" if head.get("file_games") else "")
    return (f"{data.game.title} ({data.game.name}): {len(data.cells)} cell(s), "
            f"{games_text} games per cell{smaller}, seed {head['seed']}; base: {base}."
            + unfinished_note(data) + _provenance(data))


def unfinished_note(data: ReportData) -> str:
    """The cells holding fewer games than their run asked for (a killed or running
    sweep): the report uses the games they hold, and says so."""
    short = []
    for cell, folder in data.cells:
        runs = read_manifest(folder).get("runs") or []
        asked = data.head.get("games") or max((r.get("n_games", 0) for r in runs), default=0)
        held = games_in(folder)
        if held < asked:
            short.append(f"{cell['label']} ({held:,} of {asked:,})")
    if not short:
        return ""
    return (" Unfinished: " + ", ".join(short) + " games; the numbers use the games held "
            "(rerun the same command to finish).")


def _provenance(data: ReportData) -> str:
    """What the cells' manifests record of the engine that played them (read
    defensively: older folders record less)."""
    found: dict[str, set] = {}
    for _, folder in data.cells:
        try:
            manifest = read_manifest(folder)
        except (StoreError, OSError):
            continue
        for key, name in (("simkit_version", "simkit version"),
                          ("engine", "engine source hash"), ("git_commit", "git commit")):
            value = manifest.get(key)
            if isinstance(value, (str, int)):
                found.setdefault(name, set()).add(str(value))
    if not found:
        return ""
    parts = [f"{name} {', '.join(sorted(v))}" for name, v in found.items()]
    return " Played by: " + "; ".join(parts) + "."


_TEMPLATES = Path(__file__).with_name("templates")


def _environment():
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(_TEMPLATES),
                              autoescape=jinja2.select_autoescape(["html.j2"]),
                              keep_trailing_newline=True)


def _anchor(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def _html_table(frame: pd.DataFrame) -> str:
    return frame.to_html(index=False, border=0, classes="table", escape=True)


def _html_block(block, name_to_png: dict) -> str:
    if isinstance(block, str):
        return f"<p>{html.escape(block)}</p>"
    if isinstance(block, Html):
        return block.text
    if isinstance(block, pd.DataFrame):
        block = Table(block)
    if isinstance(block, Table):
        if not block.collapsed:
            return _html_table(block.frame)
        return (_html_table(block.head_rows) + f"<details><summary>All {len(block.frame):,} "
                f"rows ({block.what})</summary>" + _html_table(block.frame) + "</details>")
    name, fig = block
    note = getattr(fig, "simkit_note", "")
    png = name_to_png[name]
    return (f'<img alt="{html.escape(name)}" src="data:image/png;base64,'
            f'{base64.b64encode(png).decode("ascii")}">'
            + (f'<p class="small">{html.escape(note)}</p>' if note else ""))


def _md_block(block, name_to_file: dict) -> str:
    if isinstance(block, str):
        return block
    if isinstance(block, Html):
        return block.markdown
    if isinstance(block, pd.DataFrame):
        block = Table(block)
    if isinstance(block, Table):
        if not block.collapsed:
            return _md_table(block.frame)
        return (_md_table(block.head_rows) + f"\n\n({len(block.head_rows):,} of "
                f"{len(block.frame):,} rows: {block.what}; every row is in report.html.)")
    name, fig = block
    note = getattr(fig, "simkit_note", "")
    return f"![{name}]({name_to_file[name].name})" + (f"\n\n{note}" if note else "")


def write_report(path, out=None, side: str | None = None, balance=None) -> Report:
    """Write report.md, report.html and the PNG figures for a results or experiment
    folder ``path`` (into ``out``, default ``path``); ``side``: whose win rate (default
    the game's first side); ``balance``: the folder of a finished ``simkit balance`` of
    the base cell's rules, whose headline under the best play found "What this rests on"
    then gives."""
    path = Path(path)
    if path.is_file():
        hint = (f"; run it first (simkit sweep {path} --out DIR) and report DIR"
                if path.suffix == ".toml" else "")
        raise StoreError(f"{path} is a file, not a results or experiment folder{hint}")
    out = Path(out) if out is not None else path
    data = collect(path, side)  # the folder read whole before anything is written
    if balance is not None:
        from simkit.balance import read

        entry = data.cells[0][0]
        data.best_play = read(balance, data.game.Rules().replace(entry["rules"]))
    out.mkdir(parents=True, exist_ok=True)
    return render(out, f"Balance report: {data.head['name']}", sections(data),
                  findings(data))


def render(out: Path, title: str, built: list[tuple[str, list]], summary: str = "",
           stem: str = "report") -> Report:
    """Write ``stem``.md, ``stem``.html and the figures of ``built`` ((heading, blocks)
    in order; a block is a paragraph, a DataFrame or ``Table``, an ``Html`` block or a
    figure (name, Figure)) into ``out``; ``summary``: the answer in words."""
    figures, pngs, files = [], {}, {}
    for _, blocks in built:
        for block in blocks:
            if isinstance(block, tuple):
                name, fig = block
                pngs[name] = _png(fig)
                files[name] = out / f"{name}.png"
                files[name].write_bytes(pngs[name])
                figures.append(files[name])
    view = [{"heading": heading, "anchor": _anchor(heading),
             "html_blocks": [_html_block(b, pngs) for b in blocks],
             "md_blocks": [_md_block(b, files) for b in blocks]} for heading, blocks in built]
    env = _environment()
    report = Report(out / f"{stem}.md", out / f"{stem}.html", figures, summary)
    report.markdown.write_text(env.get_template("report.md.j2").render(
        title=title, sections=view), encoding="utf-8")
    from markupsafe import Markup

    for section in view:
        section["html_blocks"] = [Markup(b) for b in section["html_blocks"]]
    report.html.write_text(env.get_template("report.html.j2").render(
        title=title, sections=view), encoding="utf-8")
    return report
