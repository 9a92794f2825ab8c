"""Players matched to human playtests (``simkit playtests GAME FILE.csv``).

"greedy wins 89%" is the scripts' answer; a designer's own group plays otherwise. Given
logged human games (the rules each was played under and who won), this finds which
scripted players, or which mix of them, reproduce the humans' outcomes: each candidate
(a side's scripted policy, the others at their defaults) plays every rule setting the
log names, on the same games; the humans' log-likelihood under each candidate, and under
the mix of candidates that maximises it (a multinomial mixture fitted on the simplex,
``scipy.optimize.minimize``), says which play they resemble. A bootstrap over the human
games gives the mix weights' intervals, and the mix's predicted rate at each setting is
"about X% for a group like yours".

The file is CSV with one row per game: ``winner`` (a side, a tribe or "game" for a
co-operative game's loss: any category of the winner column), and optionally ``preset``
and ``set`` (rule changes as ``KNOB=VALUE`` separated by ``;``); lines starting with ``#``
are comments.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import minimize

from simkit.errors import SimkitError, UsageError
from simkit.runner import simulate

#: candidate outcome probabilities are kept above this (a human outcome no script ever
#: reaches must not make a candidate impossible: it makes it unlikely)
FLOOR = 1e-4
RESAMPLES = 200


@dataclass(frozen=True)
class Setting:
    """The rules one group of the log's games was played under, and their outcomes."""

    label: str
    rules: object
    counts: dict  # winner category -> human games


def read_log(game, path) -> list[Setting]:
    """The log's games grouped by rule setting; one clear error for a bad file."""
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"{path}: no such file (a CSV of human games: winner[, preset, set])")
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(line for line in handle if not line.startswith("#")))
    if not rows or "winner" not in rows[0]:
        raise UsageError(f"{path}: needs a 'winner' column (and optionally 'preset' and "
                         "'set'); found " + (", ".join(rows[0]) if rows else "no rows"))
    allowed = set(game.outcome_columns["winner"].categories)
    groups: dict[tuple, dict] = {}
    for i, row in enumerate(rows, start=2):
        winner = (row.get("winner") or "").strip()
        if winner not in allowed:
            raise UsageError(f"{path} line {i}: winner {winner!r} is not one of: "
                             f"{', '.join(sorted(allowed))}")
        key = ((row.get("preset") or "").strip(), (row.get("set") or "").strip())
        groups.setdefault(key, {})
        groups[key][winner] = groups[key].get(winner, 0) + 1
    out = []
    for (preset, sets), counts in groups.items():
        try:
            rules = game.resolve_rules(preset or None).parse_overrides(
                [s for s in sets.split(";") if s.strip()])
        except SimkitError as exc:  # an unknown knob or preset: say which setting
            raise UsageError(f"{path}: the setting preset={preset!r} set={sets!r}: "
                             f"{exc}") from None
        label = " ".join(x for x in (preset and f"preset {preset}", sets) if x) or "standard"
        out.append(Setting(label, rules, counts))
    return out


def candidates(game, side: str | None) -> list[dict]:
    """Each scripted policy of ``side`` (default: each side's) with the others at their
    defaults (players with a kernel of their own, the look-aheads, left out: too slow to
    fit)."""
    sides = [side] if side else list(game.sides)
    out = []
    for s in sides:
        if s not in game.sides:
            raise UsageError(f"unknown side {s!r} for {game.name}; sides: "
                             f"{', '.join(game.sides)}")
        out += [{s: p} for p in game.policies[s] if (s, p) not in game.policy_kernels]
    return out


def _label(policy: dict) -> str:
    return ", ".join(f"{s}={p}" for s, p in policy.items())


def predicted(game, settings, players, n_games, seed, n_jobs) -> np.ndarray:
    """P(outcome) per (candidate, setting, category of the winner column)."""
    categories = list(game.outcome_columns["winner"].categories)
    table = np.zeros((len(players), len(settings), len(categories)))
    for i, policy in enumerate(players):
        for j, setting in enumerate(settings):
            frame = simulate(game, n_games, seed=seed, rules=setting.rules, policy=policy,
                             n_jobs=n_jobs)
            shares = frame["winner"].value_counts(normalize=True)
            table[i, j] = [shares.get(c, 0.0) for c in categories]
    return np.maximum(table, FLOOR) / np.maximum(table, FLOOR).sum(axis=2, keepdims=True)


def _counts(game, settings) -> np.ndarray:
    categories = list(game.outcome_columns["winner"].categories)
    return np.array([[s.counts.get(c, 0) for c in categories] for s in settings], dtype=float)


def fit_mix(probs: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The mix of candidates (weights on the simplex) maximising the humans'
    log-likelihood: sum over settings and outcomes of count * log(sum_k w_k p_k)."""
    k = probs.shape[0]

    def loss(z):
        w = np.exp(z - z.max())
        w /= w.sum()
        mixed = np.tensordot(w, probs, axes=1)
        return -(counts * np.log(mixed)).sum()

    best = min((minimize(loss, start, method="Nelder-Mead",
                         options={"xatol": 1e-6, "fatol": 1e-9, "maxiter": 4000})
                for start in [np.zeros(k), *np.eye(k) * 3]), key=lambda r: r.fun)
    w = np.exp(best.x - best.x.max())
    return w / w.sum()


def match(game, log, *, side: str | None = None, n_games: int = 2000, seed: int = 0,
          n_jobs: int = 1, resamples: int = RESAMPLES) -> pd.DataFrame:
    """Each candidate's log-likelihood of the humans' games and the best mix's weights
    with bootstrap intervals (resampling the human games), one row per candidate; the
    mix's predicted rate per setting in ``attrs["predicted"]``."""
    from simkit import games as registry

    game = registry.get(game) if isinstance(game, str) else game
    settings = read_log(game, log)
    players = candidates(game, side)
    probs = predicted(game, settings, players, n_games, seed, n_jobs)
    counts = _counts(game, settings)
    loglik = (counts[None] * np.log(probs)).sum(axis=(1, 2))
    weights = fit_mix(probs, counts)
    draws = _bootstrap(probs, counts, resamples, seed)
    low, high = np.quantile(draws, [0.025, 0.975], axis=0)
    table = pd.DataFrame({"player": [_label(p) for p in players], "log_likelihood": loglik,
                          "weight": weights, "weight_low": low, "weight_high": high})
    categories = list(game.outcome_columns["winner"].categories)
    mixed = np.tensordot(weights, probs, axes=1)
    table.attrs.update(
        games=int(counts.sum()), n_games=n_games, seed=seed,
        best=table.loc[table["log_likelihood"].idxmax(), "player"],
        predicted=[{"setting": s.label, "human_games": int(counts[j].sum()),
                    **{f"human_{c}": counts[j, i] / counts[j].sum()
                       for i, c in enumerate(categories) if counts[:, i].any()},
                    **{f"mix_{c}": mixed[j, i] for i, c in enumerate(categories)
                       if counts[:, i].any() or mixed[j, i] > 0.01}}
                   for j, s in enumerate(settings)])
    return table


def _bootstrap(probs, counts, resamples: int, seed: int) -> np.ndarray:
    """Mix weights refitted on human games resampled with replacement (within each
    setting, so every setting keeps its number of games)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(resamples):
        drawn = np.array([rng.multinomial(int(row.sum()), row / row.sum()) if row.sum()
                          else row for row in counts], dtype=float)
        out.append(fit_mix(probs, drawn))
    return np.array(out)


def summary(game, table: pd.DataFrame) -> str:
    a = table.attrs
    lines = [f"{game.name}: {a['games']:,} human games against each scripted player "
             f"({a['n_games']:,} simulated games a setting, seed {a['seed']})",
             f"  {'player':32} {'log-likelihood':>15}   {'mix weight (95%, bootstrap)':>30}"]
    for r in table.itertuples():
        lines.append(f"  {r.player:32} {r.log_likelihood:15.1f}   {r.weight:8.2f} "
                     f"[{r.weight_low:.2f}, {r.weight_high:.2f}]")
    lines.append(f"the single player most like them: {a['best']}")
    lines.append("per setting, the humans' outcomes and the best mix's prediction:")
    for row in a["predicted"]:
        parts = [f"{k[6:]} {100 * v:.1f}%" for k, v in row.items() if k.startswith("human_")
                 and k != "human_games"]
        mix = [f"{k[4:]} {100 * v:.1f}%" for k, v in row.items() if k.startswith("mix_")]
        lines.append(f"  {row['setting']} ({row['human_games']} games): humans "
                     f"{', '.join(parts)}; the mix {', '.join(mix)}")
    lines.append("a figure simkit reports for its scripts reads, for a group like this one, "
                 "as the mix's prediction at that setting")
    return "\n".join(lines)
