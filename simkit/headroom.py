"""How far each side's script is from better play: the player headroom (``simkit skill
GAME``).

Each side that has a ``lookahead`` policy is played by its default script and by the
look-ahead on the same games, every other side keeping its default (a seated game: the
tribe under every rotation of the seats, its policy moving with it, scored over the
rotations). The paired difference is the headroom: how many points better decisions win
that the script leaves. Where the look-ahead's ``decides`` weight can limit its search to
one kind of decision, each kind is played alone too, so the headroom shows where it comes
from.

The look-ahead is thousands of times slower than a script, so the games are sized from a
time budget: a few look-ahead games are timed first, and the run says how many games the
budget buys.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from simkit.arena import Arena, against, paired_gain, rotated
from simkit.errors import UsageError

LOOKAHEAD = "lookahead"
#: the budget (seconds of wall time) the command sizes itself to by default
BUDGET = 600.0
#: games per run are kept between these, whatever the budget buys
MIN_GAMES, MAX_GAMES = 20, 4000


@dataclass(frozen=True)
class Who:
    """A side (or tribe) whose script is compared with its look-ahead, and where."""

    label: str
    seat: str
    arena: Arena


def contenders(game, rules, side: str | None, n_jobs: int) -> list[Who]:
    """Every side (every seated tribe) with a look-ahead, or only ``side``."""
    seated = getattr(game, "seated", None)
    if seated is not None:
        tribes = game.seated(rules)
        chosen = tribes if side is None else [side]
        if side is not None and side not in tribes:
            raise UsageError(f"unknown tribe {side!r} for {game.name}; seated: "
                             f"{', '.join(tribes)}")
        out = []
        for tribe in chosen:
            arena = rotated(game, tribe, rules, {}, n_jobs)
            out.append(Who(tribe, arena.entries[0].side, arena))
        return [w for w in out if LOOKAHEAD in game.policies[w.seat]]
    sides = game.sides_in_play(rules) if side is None else [side]
    if side is not None and side not in game.sides:
        raise UsageError(f"unknown side {side!r} for {game.name}; sides: "
                         f"{', '.join(game.sides)}")
    with_lookahead = [s for s in sides if LOOKAHEAD in game.policies[s]]
    if not with_lookahead:
        raise UsageError(f"{game.name} has no {LOOKAHEAD} player for "
                         f"{side or 'any side'}; policies: " + "; ".join(
                             f"{s}: {', '.join(game.policies[s])}" for s in sides))
    return [Who(s, s, against(game, s, rules, {}, n_jobs)) for s in with_lookahead]


def decision_kinds(game, seat: str) -> list[str]:
    """The look-ahead's policies to play: all its decisions, then each kind alone (the
    values of its ``decides`` weight other than its default), as policy texts."""
    weights = game.policy_weights.get(seat, {}).get(LOOKAHEAD)
    knob = None
    if weights is not None:
        knob = next((k for k in weights.knobs() if k.name == "decides"), None)
    kinds = [] if knob is None or knob.choices is None else [
        f"{LOOKAHEAD}:decides={c}" for c in knob.choices if c != knob.default]
    return [LOOKAHEAD, *kinds]


def look_seconds(who: list[Who], seed: int) -> float:
    """Seconds of one core a game index costs over every look-ahead run to play: a
    look-ahead game of each side timed (compiles left out), times its runs."""
    per_game = 0.0
    for w in who:
        kinds = decision_kinds(w.arena.game, w.seat)
        w.arena.scores(LOOKAHEAD, seed, 0, 1)  # the look-ahead's kernel compiled
        started = time.perf_counter()
        w.arena.scores(LOOKAHEAD, seed + 7, 0, 2)
        per_game += (time.perf_counter() - started) / 2 * len(kinds)
    return per_game


def games_for(who: list[Who], budget: float, seed: int, n_jobs: int,
              per_game: float | None = None) -> int:
    """The games per run that ``budget`` seconds buy (``look_seconds`` a game index)."""
    per_game = look_seconds(who, seed) if per_game is None else per_game
    workers = max(1, n_jobs)
    return int(min(MAX_GAMES, max(MIN_GAMES, budget * workers / max(per_game, 1e-9))))


def headroom(game, *, side: str | None = None, rules=None, n_games: int | None = None,
             budget: float = BUDGET, seed: int = 0, n_jobs: int = 1, progress=None,
             data=None) -> pd.DataFrame:
    """Each side's script and look-ahead (and each decision kind of the look-ahead) on
    the same ``n_games`` (default: what ``budget`` seconds buy), with the paired headroom
    over the script: one row per (side, player)."""
    from simkit import games as registry

    game = registry.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    rules = game.resolve_rules(rules)
    game.warm_up()
    who = contenders(game, rules, side, n_jobs)
    if n_games is not None and n_games < 2:
        raise UsageError(f"--games must be 2 or more, got {n_games}")
    sized = n_games is None
    say = progress or (lambda text: None)
    per_game = look_seconds(who, seed)
    n_games = n_games or games_for(who, budget, seed, n_jobs, per_game)
    runs = sum(len(decision_kinds(game, w.seat)) for w in who)
    say(f"the player headroom: {runs} look-ahead run(s) of {n_games:,} games (and the "
        f"scripts), about {n_games * per_game / max(1, n_jobs):.0f} s from a timed "
        f"look-ahead game" + (f" (sized to the {budget:g} s budget)" if sized else ""))
    rows = []
    for w in who:
        script = next(iter(game.policies[w.seat]))
        say(f"{w.label}: {script} on {n_games:,} games")
        base = w.arena.scores(script, seed, 0, n_games)
        rows.append(_row(w, script, base, None))
        for policy in decision_kinds(game, w.seat):
            say(f"{w.label}: {policy} on {n_games:,} games")
            rows.append(_row(w, policy, w.arena.scores(policy, seed, 0, n_games), base))
    table = pd.DataFrame(rows)
    table.attrs.update(games=n_games, seed=seed, sized_by_budget=sized, budget=budget,
                       rotated=getattr(game, "seated", None) is not None)
    return table


def _row(who: Who, policy: str, scores, base) -> dict:
    row = {"side": who.label, "policy": policy, "games": scores.size,
           "rate": float(scores.mean())}
    if base is not None:
        gain = paired_gain(scores, base)
        d = gain.difference
        row.update(headroom=d.estimate, low=d.low, high=d.high, p_value=gain.p_value)
    return row


def summary(game, table: pd.DataFrame) -> str:
    """The headroom as ``simkit skill`` prints it."""
    a = table.attrs
    how = (f"{a['games']:,} games (what a budget of {a['budget']:.0f} s buys)"
           if a["sized_by_budget"] else f"{a['games']:,} games")
    where = ", seats rotated (each tribe's wins averaged over the rotations)" \
        if a["rotated"] else ", the other sides at their default players"
    lines = [f"{game.name}: each side's script against its look-ahead on the same "
             f"{how}, seed {a['seed']}{where}",
             f"  {'side':10} {'player':28} {'win':>8}   {'headroom (paired, 95%)':>26}"]
    for r in table.itertuples():
        gain = ("" if pd.isna(getattr(r, "headroom", float("nan"))) else
                f"{100 * r.headroom:+6.2f} [{100 * r.low:+.2f}, {100 * r.high:+.2f}]")
        lines.append(f"  {r.side:10} {r.policy:28} {100 * r.rate:7.2f}%   {gain:>26}")
    lines.append("headroom: the look-ahead's win rate minus the script's on the same games, "
                 "in points; a decides= row limits the look-ahead to that kind of decision")
    if game.caveat:
        lines.append(f"caveat: {game.caveat}")
    return "\n".join(lines)
