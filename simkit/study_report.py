"""The study's report (``study.md``, ``study.html``): the answer first, then each step's
table, every figure with the games it comes from."""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from simkit.report import Html, Table, render, robustness_figure
from simkit.robustness import best_play_lines, headline, headroom_lines


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def answer(game, found) -> list[str]:
    """The first screen: one paragraph per step that ran."""
    out = []
    table = found.robustness
    if table is not None and not table.empty:
        categories = table.attrs["categories"]
        first = categories[0]
        base = table[table["group"] == "as played"].iloc[0]
        out.append(f"As played (the standard players, {int(base['games']):,} games): "
                   f"{first} {_pct(base[first])} [{_pct(base[first + '_low'])}, "
                   f"{_pct(base[first + '_high'])}]. Ranges: "
                   + "; ".join(headline(table, c) for c in categories) + ".")
        out += headroom_lines(table, game)
    best = found.best_play
    if best is not None:
        out.append(_best_play_text(best))
    screen = found.screen
    if screen is not None:
        out.append(_screen_text(screen))
    reached = found.reached
    if reached is not None:
        out.append(_target_text(reached, found.target))
    if game.caveat:
        out.append(f"Caveat: {game.caveat}")
    return out


def _best_play_text(best: dict) -> str:
    if best["kind"] == "two sides":
        return f"Under the best play found (simkit balance): {best['headline']}."
    if best["kind"] == "one side":
        return (f"Under the best play found (simkit tune, {best['games']:,} fresh games): "
                f"the {best['side']} win {_pct(best['rate'])} with {best['policy']} against "
                f"{_pct(best['start_rate'])} as scripted, a difference of "
                f"{100 * best['gain']:+.1f} [{100 * best['low']:+.1f}, "
                f"{100 * best['high']:+.1f}] points.")
    rates = "; ".join(f"{t} {_pct(r['rate'])} (scripted {_pct(best['scripted'][t]['rate'])})"
                      for t, r in best["rates"].items())
    return f"Under the best play found (each tribe's best response, seats rotated): {rates}."


def _screen_text(screen: pd.DataFrame) -> str:
    if screen.attrs.get("skipped"):
        return f"Near the design: not screened ({screen.attrs['skipped']})."
    moving = screen[screen["mu_star"] > 0]
    if moving.empty:
        return (f"Near the design (each knob within {screen.attrs.get('around')} steps): "
                "no knob moves the rate.")
    lead = ", ".join(f"{r.knob} ({r.mu_star:.1f} points over its screened range)"
                     for r in moving.head(3).itertuples())
    settled = ("; the first leads the second beyond their intervals"
               if screen.attrs.get("separated") else
               "; which of the first two matters more is not settled")
    return (f"Near the design (each knob within {screen.attrs.get('around')} steps of its "
            f"value, Morris, {screen.attrs.get('games'):,} games a point): the knobs that "
            f"move the rate most are {lead}{settled}.")


def _target_text(reached: pd.DataFrame, target: float) -> str:
    if reached.attrs.get("skipped") or reached.empty:
        return f"Target {_pct(target)}: not searched ({reached.attrs.get('skipped')})."
    from simkit.difficulty import reach

    best = reached.iloc[0]
    setting = ", ".join(f"{k}={best[k]}" for k in reached.attrs["knobs"])
    return (f"To reach {_pct(target)}: {setting} gives {_pct(best['rate'])} "
            f"[{_pct(best['low'])}, {_pct(best['high'])}] on "
            f"{int(reached.attrs['check_games']):,} fresh games ({reach(reached)}).")


def write(out: Path, game, found):
    """Write ``study.md`` and ``study.html`` (with their figures) into ``out``."""
    sections = [("The answer", answer(game, found))]
    if found.robustness is not None and not found.robustness.empty:
        table = found.robustness
        shown = table[["group", "setting", "games"]].copy()
        for c in table.attrs["categories"]:
            shown[f"{c} win"] = [f"{_pct(r)} [{_pct(lo)}, {_pct(hi)}]" for r, lo, hi in
                                 zip(table[c], table[f"{c}_low"], table[f"{c}_high"],
                                     strict=True)]
        blocks = [f"Every reading, reconstruction and pairing of the players on the same "
                  f"games ({int(table['games'].max()):,} a setting at most).", Table(shown),
                  ("study_robustness", robustness_figure(table))]
        blocks += best_play_lines(table)
        if table.attrs.get("cut"):
            blocks.append(table.attrs["cut"])
        sections.append(("What the headline rests on", blocks))
    if found.screen is not None and not found.screen.empty:
        sections.append(("Which knobs matter near the design",
                         [Table(found.screen.round(3))]))
    if found.best_play is not None:
        text = found.best_play.get("text")
        sections.append(("Under the best play found", [
            Html(f"<pre>{html.escape(text)}</pre>", f"```\n{text}\n```") if text else
            _best_play_text(found.best_play)]))
    if found.reached is not None and not found.reached.empty:
        sections.append((f"Difficulty to {_pct(found.target)}",
                         [Table(found.reached.round(4))]))
    spent = ", ".join(f"{k} {v:.0f} s" for k, v in found.seconds.items())
    sections.append(("How long each step took", [spent or "nothing ran"]))
    return render(out, f"Study: {game.title}", sections, " ".join(answer(game, found)),
                  stem="study")
