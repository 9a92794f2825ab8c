"""The whole question in one command (``simkit study GAME``): what the headline rests on,
which knobs matter near the design, the balance under the best play found, and, given a
target, the setting that reaches it; one report that opens on the answer.

The steps share a time budget: each gets its share of what is left when it starts
(time a step does not use goes to the next), and each sizes its games to fit (the
commands' own ``--budget``). Every finished step is kept in the study's folder
(``study.json``; the best play's searches in ``balance/`` or ``tune/``), so a rerun
resumes at the first unfinished step and a finished study only writes its report again.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from simkit.errors import UsageError

#: each step's share of the budget (the target's, without a target, goes to the others)
SHARES = {"robustness": 0.3, "screen": 0.2, "best play": 0.35, "target": 0.15}
#: knobs screened near the design: within this many steps of their values
AROUND = 2
#: the knobs the target is searched over: the screen's leading numeric knobs
TARGET_KNOBS = 3


@dataclass
class Study:
    """What ``study`` found, step by step (a step not run is None)."""

    game: str
    question: dict
    target: float | None
    robustness: pd.DataFrame | None = None
    screen: pd.DataFrame | None = None
    best_play: dict | None = None
    reached: pd.DataFrame | None = None
    seconds: dict = field(default_factory=dict)


def study(game, *, rules=None, target: float | None = None, side: str | None = None,
          data=None, budget: float = 600.0, seed: int = 0, n_jobs: int = 1, out,
          say=None) -> Study:
    """Run (or resume) every step of the study into ``out`` within about ``budget``
    seconds, and write ``out/study.md`` and ``out/study.html``."""
    from simkit import games as registry
    from simkit.timing import check_budget

    check_budget(budget)
    if target is not None and not 0 < target < 1:
        raise UsageError(f"--target is a win rate between 0 and 1 (exclusive), got {target}")
    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    rules = game.resolve_rules(rules)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    say = say or (lambda text: None)
    found = _read(out, game, rules, target, seed)
    steps = [s for s in SHARES if s != "target" or target is not None]
    started = time.perf_counter()
    for i, step in enumerate(steps):
        if found.seconds.get(step) is not None:
            say(f"{step}: kept from an earlier run")
            continue
        left = max(budget - (time.perf_counter() - started), 0.0)
        share = SHARES[step] / sum(SHARES[s] for s in steps[i:])
        say(f"{step}: about {left * share:.0f} s of the {budget:.0f} s budget")
        began = time.perf_counter()
        _STEPS[step](found, game, rules, side, max(left * share, 1.0), seed, n_jobs, out, say)
        found.seconds[step] = time.perf_counter() - began
        _write(out, found)
    from simkit.study_report import write

    write(out, game, found)
    return found


def _robustness(found, game, rules, side, budget, seed, n_jobs, out, say):
    from simkit.robustness import robustness

    found.robustness = robustness(game, rules, seed=seed, n_jobs=n_jobs, budget=budget,
                                  say=say)


def _screen(found, game, rules, side, budget, seed, n_jobs, out, say):
    from simkit.screen import screen

    try:
        found.screen = screen(game, rules=rules, side=side, around_default=AROUND,
                              seed=seed, n_jobs=n_jobs, budget=budget, say=say)
    except UsageError as exc:  # too few knobs move near this design: said, not fatal
        found.screen = pd.DataFrame(columns=["knob", "mu_star"])
        found.screen.attrs["skipped"] = str(exc)


def _best_play(found, game, rules, side, budget, seed, n_jobs, out, say):
    from simkit.balance import balance, balance_seated
    from simkit.tune import tune_policy

    if getattr(game, "seated", None) is not None:
        result = balance_seated(game, rules=rules, seed=seed, n_jobs=n_jobs,
                                out=out / "balance", budget=budget, progress=say)
        found.best_play = {"kind": "seated", "text": result.text(),
                           "rates": result.rates.to_dict("index"),
                           "scripted": result.scripted.to_dict("index")}
    elif len(game.sides_in_play(rules)) >= 2:
        result = balance(game, rules=rules, rounds=2, seed=seed, n_jobs=n_jobs,
                         out=out / "balance", budget=budget, progress=say)
        found.best_play = {"kind": "two sides", "text": result.text(),
                           "headline": result.headline(), "value": result.value,
                           "low": result.low, "high": result.high,
                           "scripted": result.scripted, "side": result.sides[0]}
    else:
        only = game.sides_in_play(rules)[0]
        result = tune_policy(game, only, rules=rules, seed=seed, n_jobs=n_jobs,
                             out=out / "tune", budget=budget, progress=say)
        found.best_play = {"kind": "one side", "side": only, "policy": result.policy,
                           "start_rate": result.start_rate, "rate": result.tuned_rate,
                           "gain": result.gain, "low": result.low, "high": result.high,
                           "games": result.fresh_games}


def _target(found, game, rules, side, budget, seed, n_jobs, out, say):
    from simkit.difficulty import tune_rules

    knobs = _target_knobs(game, found.screen)
    if not knobs:
        found.reached = pd.DataFrame()
        found.reached.attrs["skipped"] = "no numeric knob moved the rate near the design"
        return
    found.reached = tune_rules(game, knobs, found.target, side=side, rules=rules, seed=seed,
                               n_jobs=n_jobs, budget=budget, say=say)


def _target_knobs(game, screen: pd.DataFrame | None) -> list[str]:
    """The screen's leading knobs that are numbers (a target is reached by degrees)."""
    if screen is None or screen.empty:
        return []
    numeric = [k for k in screen["knob"] if game.Rules.knob(k).range is not None
               and game.Rules.knob(k).type is not bool]
    moving = [k for k in numeric if float(screen.set_index("knob").loc[k, "mu_star"]) > 0]
    return moving[:TARGET_KNOBS]


_STEPS = {"robustness": _robustness, "screen": _screen, "best play": _best_play,
          "target": _target}


# -- the study's folder ----------------------------------------------------------------------
def _question(game, rules, target, seed) -> dict:
    return {"game": game.name, "rules": json.loads(json.dumps(rules.changes(), default=str)),
            "target": target, "seed": seed, "data": game.data.digest}


def _frame(table: pd.DataFrame | None):
    if table is None:
        return None
    return {"rows": json.loads(table.to_json(orient="records")),
            "attrs": json.loads(json.dumps(table.attrs, default=str))}


def _table(data) -> pd.DataFrame | None:
    if data is None:
        return None
    table = pd.DataFrame(data["rows"])
    table.attrs.update(data["attrs"])
    return table


def _write(out: Path, found: Study) -> None:
    state = {"question": found.question, "seconds": found.seconds,
             "robustness": _frame(found.robustness), "screen": _frame(found.screen),
             "best_play": found.best_play, "reached": _frame(found.reached)}
    temporary = out / "study.tmp"
    temporary.write_text(json.dumps(state, indent=1, default=str))
    temporary.replace(out / "study.json")


def _read(out: Path, game, rules, target, seed) -> Study:
    question = _question(game, rules, target, seed)
    path = out / "study.json"
    if not path.exists():
        return Study(game.name, question, target)
    kept = json.loads(path.read_text())
    if kept["question"] != question:
        raise UsageError(f"{out} holds a study of another question ({kept['question']}); "
                         "give --out another folder")
    return Study(game.name, question, target, _table(kept["robustness"]),
                 _table(kept["screen"]), kept["best_play"], _table(kept["reached"]),
                 kept["seconds"])
