"""The ``simkit`` command: games, run, compare, sweep, report, plan, ladder, calibrate,
skill, robustness, screen, tune, balance, study, playtests, data, trace, compile,
prob.

Bad input (unknown game, rule, value, option) prints one line naming the problem and
what is allowed, and exits with status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import re
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd

from simkit import __version__, _numba_cache, games, stats
from simkit.errors import SimkitError, UsageError
from simkit.runner import BACKENDS
from simkit.store import MAX_GAMES

EXIT_USAGE = 2


def _integer(text: str) -> int:
    """A whole number in ASCII digits (``int`` also takes '1_0' and other scripts' digits)."""
    if re.fullmatch(r"-?[0-9]+", text) is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (digits 0-9)")
    return int(text)


def _folder(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError("the folder name is empty")
    return Path(text)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not usage + message; "simkit: error: " once
        command = self.prog.removeprefix("simkit").strip()
        raise UsageError(f"{command}: {message}" if command else message)


def main(argv: list[str] | None = None) -> int:
    parser = _build_parser()
    stderr = sys.stderr  # errors go here even under --quiet
    try:
        args, extra = parser.parse_known_args(argv)
        if extra and args.command != "prob":
            raise UsageError(f"unrecognized arguments: {' '.join(extra)}")
        if getattr(args, "quiet", False) and getattr(args, "progress", False):
            raise UsageError("--quiet and --progress contradict each other: give one")
        if getattr(args, "no_progress", False) and getattr(args, "progress", False):
            raise UsageError("--progress and --no-progress contradict each other: give one")
        if getattr(args, "quiet", False):  # no bar, no notice: only the answer (and errors)
            with open(os.devnull, "w") as devnull, contextlib.redirect_stderr(devnull):
                return args.handler(args, extra) or 0
        return args.handler(args, extra) or 0
    except SimkitError as exc:
        print(f"simkit: error: {exc}", file=stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader went away (simkit prob ... | head): an OSError,
        _silence_stdout()  # so caught first
        return 0
    except OSError as exc:  # a full or read-only disk, a path under a file, ...
        where = f": {exc.filename}" if exc.filename else ""
        print(f"simkit: error: {exc.strerror or exc}{where}", file=stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("simkit: interrupted (finished parts are kept; rerun to resume)", file=stderr)
        return 130


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so that Python's final flush of
    the unwritten output does not complain again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # a captured stdout has no descriptor
        pass


def show_progress(args) -> bool:
    """A bar on stderr: asked with --progress; else when stderr is a terminal, unless
    --no-progress or --quiet."""
    if getattr(args, "quiet", False) or getattr(args, "no_progress", False):
        return False
    return bool(getattr(args, "progress", False)) or sys.stderr.isatty()


def command_seconds() -> float:
    """Wall time since this process started (Linux: /proc; elsewhere since import)."""
    try:
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - _IMPORTED


_IMPORTED = time.perf_counter()


def _timing(info) -> str:
    """The compile (or cached load) and the whole command's wall time, said apart."""
    return (f"engine compile or cache load {info.compile_seconds:.2f} s; whole command "
            f"{command_seconds():.2f} s")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="simkit", description="Monte Carlo balance toolkit for "
                     "historical board games.")
    parser.add_argument("--version", action="version", version=f"simkit {__version__}")
    _add_quiet_options(parser)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("games", help="list games, or one game's presets, policies, "
                       "rule knobs and outcome columns")
    p.add_argument("game", nargs="?")
    p.set_defaults(handler=cmd_games)

    p = sub.add_parser("run", help="play N seeded games and print win rates with 95%% "
                       "intervals")
    p.add_argument("game")
    p.add_argument("--games", type=_integer, default=10_000, help="games to play (first batch "
                   "with --until-ci) [10000]")
    _add_game_options(p)
    _add_jobs_option(p)
    p.add_argument("--chunk-size", type=_integer, default=None, help="games per chunk and part")
    p.add_argument("--out", type=_folder, default=None, help="results folder to write (rerun "
                   "to resume)")
    p.add_argument("--until-ci", type=float, default=None, metavar="HALF_WIDTH",
                   help="keep playing until every rate's 95%% half-width is below this")
    p.add_argument("--max-games", type=_integer, default=None, help="cap for --until-ci "
                   "[100 x --games]")
    p.add_argument("--side", default=None, help="with --until-ci: stop on this side's, "
                   "seat's or winner category's rate only (a Verrix tribe or seat)")
    _add_backend_options(p)
    _add_engine_option(p)
    _add_format_option(p)
    p.add_argument("--rotate-seats", action="store_true",
                   help="play every game index under each cyclic rotation of the seated "
                        "tribes and print win rates by seat and by tribe, with the seat "
                        "effect paired (verrix); --out gets one folder per rotation")
    _add_progress_options(p)
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser("sweep", help="run every cell of an experiment file (TOML) into "
                       "one folder; rerun to resume")
    p.add_argument("file", type=Path, help="experiment file (see experiments/README.md)")
    p.add_argument("--out", type=_folder, default=None, help="experiment folder "
                   "[results/<name>]")
    p.add_argument("--games", type=_integer, default=None, help="games per cell instead of the "
                   "file's (a smaller run of the same experiment; recorded in the folder, "
                   "which refuses a later run at fewer games per cell)")
    _add_budget_option(p)
    _add_jobs_option(p)
    _add_backend_options(p)
    _add_engine_option(p)
    _add_data_option(p)
    p.add_argument("--side", default=None, help="whose win rate to print: a side, a seat "
                   "or a winner category [the first side that can win; every tribe in "
                   "verrix]")
    _add_progress_options(p)
    p.set_defaults(handler=cmd_sweep)

    p = sub.add_parser("report", help="write report.md, report.html and PNG figures for an "
                       "experiment folder or a results folder")
    p.add_argument("results", type=Path, metavar="RESULTS_DIR")
    p.add_argument("--out", type=_folder, default=None, help="folder for the report "
                   "[RESULTS_DIR]")
    p.add_argument("--side", default=None, help="whose win rate: a side, a seat or a "
                   "winner category (a Verrix tribe) [the first side that can win]")
    p.add_argument("--balance", type=Path, default=None, metavar="DIR", help="the folder "
                   "of a finished simkit balance of the base cell's rules: What this rests "
                   "on gives the headline under the best play found")
    p.set_defaults(handler=cmd_report)

    p = sub.add_parser("plan", help="games needed: per cell of an experiment folder to "
                       "separate effects of given sizes, or from an expected discordance "
                       "or rate")
    p.add_argument("results", type=Path, nargs="?", metavar="RESULTS_DIR",
                   help="an experiment folder: plan from each cell's observed discordance")
    p.add_argument("--effect", type=float, action="append", default=None, metavar="POINTS",
                   help="difference to separate, in points (repeatable) [1, 2, 5]")
    p.add_argument("--discordance", type=float, default=None, metavar="SHARE",
                   help="expected share of games two settings end differently (0-1)")
    p.add_argument("--comparisons", type=_integer, default=None, help="comparisons tested "
                   "together (Bonferroni level 0.05/m) [1]")
    p.add_argument("--power", type=float, default=0.8, help="power to separate [0.8]")
    p.add_argument("--margin", type=float, default=None, metavar="POINTS",
                   help="wanted interval half-width, in points")
    p.add_argument("--rate", type=float, default=None, help="expected rate (0-1) for a "
                   "single rate's interval (with --margin)")
    _add_format_option(p)
    p.set_defaults(handler=cmd_plan)

    p = sub.add_parser("ladder", help="difficulty ladder: every cell of an experiment "
                       "folder ordered by win rate, with 95%% intervals and paired gaps")
    p.add_argument("results", type=Path, metavar="RESULTS_DIR", help="an experiment folder "
                   "(simkit sweep) or a results folder")
    p.add_argument("--side", default=None, help="whose win rate: a side, a seat or a "
                   "winner category (a Verrix tribe) [the first side that can win]")
    _add_format_option(p)
    p.set_defaults(handler=cmd_ladder)

    p = sub.add_parser("calibrate", help="find the adjacent values of a numeric knob whose "
                       "win rate brackets a target")
    p.add_argument("game")
    p.add_argument("--knob", required=True, help="a numeric rule knob with a range")
    p.add_argument("--target", type=float, default=0.5, help="target win rate [0.5]")
    p.add_argument("--side", default=None, help="whose win rate: a side, a seat or a "
                   "winner category (a Verrix tribe) [the first side that can win]")
    p.add_argument("--games", type=_integer, default=20_000, help="games per knob value "
                   "(first batch with --until-ci) [20000]")
    _add_game_options(p)
    _add_jobs_option(p)
    p.add_argument("--until-ci", type=float, default=None, metavar="HALF_WIDTH",
                   help="play each value until the side's 95%% half-width is below this")
    p.add_argument("--max-games", type=_integer, default=None, help="cap for --until-ci "
                   "[100 x --games]")
    p.add_argument("--steps", type=_integer, default=None, help="grid size for a float knob "
                   "(2 or more) [21]")
    _add_backend_options(p)
    p.set_defaults(handler=cmd_calibrate)

    p = sub.add_parser("skill", help="how far the players' skill moves the answer: each "
                       "side's script against its look-ahead on the same games (the player "
                       "headroom); or, with --policy, the policies given under every preset")
    p.add_argument("game")
    p.add_argument("--side", default=None, help="one side (a Verrix tribe) [every side with "
                   "a look-ahead; with --policy, the first side]")
    p.add_argument("--policy", action="append", default=[], metavar="NAME",
                   help="compare these policies of the side instead, weights after a colon "
                   "(repeatable; the first is the reference)")
    p.add_argument("--preset", action="append", default=[], metavar="PRESET",
                   help="a preset to play (repeatable) [the standard rules; with --policy, "
                   "every preset]")
    p.add_argument("--games", type=_integer, default=None, help="games per player (and "
                   "preset) [what --budget buys; 10000 with --policy]")
    p.add_argument("--budget", type=float, default=600.0, metavar="SECONDS", help="the "
                   "headroom's games sized to take about this long [600]")
    p.add_argument("--policy-games", action="append", default=[], metavar="NAME=N",
                   help="with --policy: fewer games for a slow policy (repeatable), e.g. "
                   "lookahead=500")
    p.add_argument("--seed", type=_integer, default=0, help="root seed [0]")
    _add_data_option(p)
    _add_jobs_option(p)
    p.set_defaults(handler=cmd_skill)

    p = sub.add_parser("robustness", help="what a headline rests on: its win rates under "
                       "every open reading, reconstruction alternative and pairing of the "
                       "scripted players, on the same games, paired")
    p.add_argument("game")
    p.add_argument("--preset", default=None, help="named rules [the standard rules]")
    p.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                   help="change one rule knob of the base (repeatable)")
    p.add_argument("--games", type=_integer, default=2000, help="games per setting [2000]")
    p.add_argument("--slow-games", type=_integer, default=200, help="games per setting "
                   "for a policy with its own slow kernel (a rollout player) [200]")
    p.add_argument("--seed", type=_integer, default=0, help="root seed [0]")
    p.add_argument("--figure", type=Path, default=None, metavar="PNG",
                   help="also draw the table as a figure into this file")
    p.add_argument("--balance", type=Path, default=None, metavar="DIR", help="add the "
                   "headline under the best play found: the answer of a finished simkit "
                   "balance GAME --out DIR of the same rules")
    _add_budget_option(p)
    _add_data_option(p)
    _add_jobs_option(p)
    _add_format_option(p)
    p.set_defaults(handler=cmd_robustness)

    p = sub.add_parser("compare", help="two settings on the same games (common random "
                       "numbers): each rate with its interval, the paired difference, "
                       "McNemar's test and the games needed to separate them")
    p.add_argument("game")
    p.add_argument("--games", type=_integer, default=10_000, help="games per setting "
                   "[10000]")
    _add_game_options(p)
    p.add_argument("--side", default=None, help="compare this side, seat or winner "
                   "category only [the first side that can win; every tribe in verrix]")
    _add_jobs_option(p)
    _add_format_option(p)
    _add_progress_options(p)
    p.add_argument("--rotate-seats", action="store_true", help="play both settings under "
                   "every rotation of the seats (a seated game): each tribe's and each "
                   "seat's rate pooled over the rotations, paired over the same (game, "
                   "rotation) pairs")
    p.add_argument("--flipped", type=_integer, default=0, metavar="N", help="list N game "
                   "indices that only the first setting won, and N that only the second "
                   "won, for the first side compared (simkit trace --vs replays one) [0]")
    p.add_argument("--vs", nargs=argparse.REMAINDER, default=None, metavar="OPTION",
                   help="the second setting, last: --set KNOB=VALUE, --preset P, --policy "
                   "NAME|SIDE=NAME and --data DIR (or --no-data: the package's files), "
                   "each changing the first setting's")
    p.set_defaults(handler=cmd_compare)

    p = sub.add_parser("screen", help="which knobs matter: Morris elementary effects "
                       "(SALib) over the rule knobs, on the same games, ranked with "
                       "intervals")
    p.add_argument("game")
    _add_game_options(p)
    p.add_argument("--knobs", default=None, metavar="A,B,...", help="the knobs to screen "
                   "[every knob the rules admit across its range]")
    p.add_argument("--side", default=None, help="the win rate screened: a side, a seat or "
                   "a winner category [the first side that can win]")
    p.add_argument("--trajectories", type=_integer, default=10, help="Morris walks, or "
                   "Sobol base points [10]")
    p.add_argument("--method", choices=("morris", "sobol"), default="morris",
                   help="Morris elementary effects, or Sobol indices (SALib) [morris]")
    p.add_argument("--around-default", type=_integer, default=None, metavar="K",
                   help="each numeric knob within K steps of its value in the rules "
                   "screened, instead of its whole range")
    p.add_argument("--games", type=_integer, default=1000, help="games per point [1000]")
    _add_budget_option(p)
    _add_jobs_option(p)
    _add_format_option(p)
    p.set_defaults(handler=cmd_screen)

    p = sub.add_parser("tune", help="the best play found for a side: a scan of each "
                       "policy weight alone, then restarted, raced optuna searches checked "
                       "on fresh games (--side); or rule knobs towards a target win rate "
                       "(--knobs --target)")
    p.add_argument("game")
    _add_game_options(p)
    p.add_argument("--side", default=None, help="the side whose policy weights are tuned "
                   "(a side, or a tribe: its seat), or whose win rate --target is (a side, "
                   "a seat or a winner category) [the first side that can win]")
    p.add_argument("--scan", action="store_true", help="only the scan: each weight alone "
                   "at its range's ends and points between, paired with the start")
    p.add_argument("--replay", type=_integer, default=0, metavar="N", help="with --scan: "
                   "play its N largest gains again on as many fresh games, paired with the "
                   "start there (a gain picked as the best of many values is partly luck; "
                   "one that comes back is not) [0]")
    p.add_argument("--restarts", type=_integer, default=3, help="independent searches, "
                   "each with its own sampler seed [3]")
    p.add_argument("--sampler", choices=("tpe", "cmaes"), default="tpe", help="optuna's "
                   "sampler [tpe]")
    p.add_argument("--rotate-seats", action="store_true", help="a tribe (--side) tuned "
                   "under every rotation of the seats, its policy moving with it")
    p.add_argument("--knobs", default=None, metavar="A,B=LOW..HIGH,...", help="tune these "
                   "rule knobs towards --target instead of a policy (a range may be "
                   "narrowed)")
    p.add_argument("--target", default=None, metavar="RATE|LOW..HIGH", help="the win "
                   "rate to reach, 0-1; or a band every side is to lie in (0.10..0.30: "
                   "every tribe of a seated game, its seats rotated)")
    p.add_argument("--trials", type=_integer, default=None, help="optuna trials [40 a "
                   "restart for a policy, 60 for knobs]")
    p.add_argument("--games", type=_integer, default=2000, help="training games per trial "
                   "[2000]; the checks play twice as many (four times for knobs)")
    p.add_argument("--out", type=Path, default=None, metavar="DIR", help="keep the studies "
                   "and the answer in DIR: a rerun prints a finished search's answer, or "
                   "tops it up to --trials")
    _add_budget_option(p)
    _add_jobs_option(p)
    _add_format_option(p)
    p.set_defaults(handler=cmd_tune)

    p = sub.add_parser("balance", help="the game between the players: each side's "
                       "policies (its scripts and the best responses the tuner finds) on "
                       "the same games, the matrix game solved, its value with an interval "
                       "(a seated game: each tribe's best response in turn, seats rotated)")
    p.add_argument("game")
    _add_game_options(p)
    p.add_argument("--rounds", type=_integer, default=None, help="rounds of best "
                   "responses [3; 2 for a seated game]")
    p.add_argument("--games", type=_integer, default=None, help="games per pairing of the "
                   "cross-table, or per rotation of a seated game's rates [2000; 1000]")
    p.add_argument("--trials", type=_integer, default=None, help="trials a restart of each "
                   "best response's search [20; 12]")
    p.add_argument("--restarts", type=_integer, default=2, help="restarts of each best "
                   "response's search [2]")
    p.add_argument("--tune-games", type=_integer, default=None, help="training games a "
                   "trial of a best response's search [1000; 300]")
    p.add_argument("--out", type=Path, default=None, metavar="DIR", help="keep the games and "
                   "searches in DIR (a rerun resumes) and draw DIR/balance.png")
    _add_budget_option(p)
    _add_jobs_option(p)
    _add_format_option(p)
    p.set_defaults(handler=cmd_balance)

    p = sub.add_parser("study", help="the whole question in one report: what the headline "
                       "rests on, which knobs matter near the design, the balance under the "
                       "best play found and, given --target, the setting that reaches it, "
                       "within --budget; a rerun resumes")
    p.add_argument("game")
    p.add_argument("--preset", default=None, help="named rules [the standard rules]")
    p.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                   help="change one rule knob (repeatable)")
    p.add_argument("--target", type=float, default=None, help="a win rate (0-1) to reach by "
                   "the knobs that matter near the design")
    p.add_argument("--side", default=None, help="whose rate the screen and the target are "
                   "[the first side that can win]")
    p.add_argument("--budget", type=float, default=600.0, metavar="SECONDS", help="the time "
                   "the study fits into, shared by its steps [600]")
    p.add_argument("--seed", type=_integer, default=0, help="root seed [0]")
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="the study's folder: "
                   "study.md, study.html, and every finished step (a rerun resumes)")
    _add_data_option(p)
    _add_jobs_option(p)
    p.set_defaults(handler=cmd_study)

    p = sub.add_parser("playtests", help="which scripted players, or which mix of them, "
                       "reproduce logged human games (a CSV: winner[, preset, set])")
    p.add_argument("game")
    p.add_argument("file", type=Path, metavar="FILE.csv")
    p.add_argument("--side", default=None, help="the side whose players are matched [each "
                   "side's in turn, the others at their defaults]")
    p.add_argument("--games", type=_integer, default=2000, help="simulated games per player "
                   "and setting [2000]")
    p.add_argument("--seed", type=_integer, default=0, help="root seed [0]")
    _add_jobs_option(p)
    _add_format_option(p)
    p.set_defaults(handler=cmd_playtests)

    p = sub.add_parser("data", help="list a game's data files (which are "
                       "reconstructions), or export them to edit (--data DIR plays them)")
    p.add_argument("game")
    p.add_argument("--export", type=Path, default=None, metavar="DIR",
                   help="write every data file into DIR (a new or empty folder)")
    p.set_defaults(handler=cmd_data)

    p = sub.add_parser("trace", help="narrate one game turn by turn; with --vs, the same "
                       "game under two settings side by side from where they part")
    p.add_argument("game")
    p.add_argument("--game-index", type=_integer, default=0)
    _add_game_options(p)
    p.add_argument("--width", type=_integer, default=160, help="with --vs: the width of the "
                   "two columns together [160]")
    p.add_argument("--vs", nargs=argparse.REMAINDER, default=None, metavar="OPTION",
                   help="the second setting, last, as simkit compare takes it (--set, "
                   "--preset, --policy, --data, --no-data)")
    p.set_defaults(handler=cmd_trace)

    p = sub.add_parser("compile", help="compile the engines now (every game, or those "
                       "named), in parallel, so that later runs start at once")
    p.add_argument("game", nargs="*")
    p.add_argument("--jobs", type=_integer, default=-1, help="games compiled at once "
                   "(-1: all cores) [-1]")
    p.set_defaults(handler=cmd_compile)

    # no argparse --help here: `simkit prob FAMILY QUESTION --help` shows the question's own
    # parameters (cmd_prob), which argparse cannot know
    p = sub.add_parser("prob", add_help=False, help="exact answers to rules-probability "
                       "questions (simkit prob FAMILY QUESTION --param value ...; "
                       "--format table|csv|json; --help)")
    p.add_argument("family", nargs="?")
    p.add_argument("question", nargs="?")
    p.set_defaults(handler=cmd_prob)
    for name, command in sub.choices.items():
        if name != "prob":  # prob reads its own options (cmd_prob)
            _add_quiet_options(command, argparse.SUPPRESS)
    return parser


def _add_quiet_options(p: argparse.ArgumentParser, default=False) -> None:
    p.add_argument("--quiet", action="store_true", default=default,
                   help="print only the answer: no progress bar, no notice on stderr "
                   "(errors still are)")


def _add_progress_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--progress", action="store_true", default=argparse.SUPPRESS,
                   help="show the progress bar even when stderr is not a terminal")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")


FORMATS = ("table", "csv", "json")


def _add_format_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=FORMATS, default="table",
                   help="table (text, the default), csv (a header and one line per row) "
                   "or json (records, numbers as numbers)")


def emit(table: pd.DataFrame, fmt: str, text) -> None:
    """Print an answer: ``text()`` for the table format, else ``table`` as csv or as
    json records (the one helper of every command's --format)."""
    if fmt == "csv":
        print(table.to_csv(index=False), end="")
    elif fmt == "json":
        print(_json_records(table))
    else:
        print(text())


def _add_data_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, default=None, metavar="DIR",
                   help="play the game's data files found in DIR instead of the package's "
                   "(any of them; simkit data GAME --export DIR writes them to edit)")


def _game(args):
    """The game named on the command line, on the user's data files if --data names them."""
    return games.get(args.game).with_data(getattr(args, "data", None))


def _add_game_options(p: argparse.ArgumentParser) -> None:
    _add_data_option(p)
    p.add_argument("--seed", type=_integer, default=0, help="root seed [0]")
    p.add_argument("--preset", default=None, help="named rules (see simkit games GAME)")
    p.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                   help="change one rule knob (repeatable)")
    p.add_argument("--policy", action="append", default=[], metavar="NAME|SIDE=NAME",
                   help="policy for every side, or for one side (repeatable); weights "
                        "after a colon: greedy:greed=0.5,coronela_weight=2")


def _add_backend_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backend", choices=BACKENDS, default="threads",
                   help="threads (local, sharing the compiled engines), loky (local "
                   "processes) or dask (a dask.distributed cluster) [threads]")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="dask scheduler "
                   "address, with --backend dask (default: a local cluster of --jobs "
                   "workers)")


def _add_budget_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--budget", type=float, default=None, metavar="SECONDS", help="fit the "
                   "command into about this many seconds: its games cut (never raised) "
                   "from the speed measured here, and the cut said [no limit]")


def say(text: str) -> None:
    """A notice on stderr (silenced by --quiet): an estimate, a cut, a step."""
    print(f"simkit: {text}", file=sys.stderr, flush=True)


def _add_jobs_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", type=_integer, default=1, help="threads (worker processes "
                   "with --backend loky; -1: all cores) [1]")


def _add_engine_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--allow-other-engine", action="store_true", help="extend a results "
                   "folder whose games another engine version played (recorded in it)")


def _check_jobs(args) -> None:
    if args.jobs < 1 and args.jobs != -1:
        raise UsageError(f"--jobs must be a positive integer or -1 (all cores), got "
                         f"{args.jobs}")


def _check_backend_options(args) -> None:
    if args.scheduler is not None and not args.scheduler.strip():
        raise UsageError("--scheduler: the address is empty; give the dask scheduler's "
                         "address (tls://HOST:PORT), or leave --scheduler out to start a "
                         "cluster on this machine")
    if args.scheduler and args.backend != "dask":
        raise UsageError("--scheduler needs --backend dask")
    if getattr(args, "max_games", None) is not None and args.until_ci is None:
        raise UsageError("--max-games caps --until-ci: give --until-ci too")
    _check_jobs(args)


def _rules(game, args):
    knobs = [text.partition("=")[0].strip() for text in args.set]
    twice = sorted({k for k in knobs if knobs.count(k) > 1})
    if twice:
        raise UsageError(f"--set {', '.join(twice)} given more than once; set each knob once")
    return game.resolve_rules(args.preset).parse_overrides(args.set)


def _policy(game, args, rules=None):
    """One policy for every side (at most once), then per-side choices (once a side, and
    only for a side in play under ``rules``)."""
    everyone, chosen = _policy_choices(args.policy)
    base = dict.fromkeys(game.sides, everyone) if everyone is not None else {}
    if rules is None:
        return game.resolve_policy(base | chosen)
    game.check_sides_in_play(rules, chosen)
    playing = game.sides_in_play(rules)  # simulate refuses a policy for an empty seat
    return {side: name for side, name in game.resolve_policy(base | chosen).items()
            if side in playing}


def _policy_choices(texts: list[str]) -> tuple[str | None, dict]:
    """``--policy`` texts as (the policy of every side or None, {side: policy})."""
    everyone, chosen = None, {}
    for text in texts:
        side, sep, name = text.partition("=")
        if sep and ":" not in side:  # SIDE=POLICY, not POLICY:WEIGHT=VALUE
            if side in chosen:
                raise UsageError(f"--policy {side}= given twice; give each side one policy")
            chosen[side] = name
        elif everyone is not None:
            raise UsageError(f"--policy {everyone} and {text} both name every side's "
                             "policy; give one (and SIDE=NAME for a side's own)")
        else:
            everyone = text
    return everyone, chosen


# -- compile ---------------------------------------------------------------------------


def cmd_compile(args, _extra) -> None:
    from simkit.runner import compile_engines

    _check_jobs(args)
    names = args.game or games.names()
    for name in names:
        games.get(name)  # an unknown name is refused before anything starts
    for name, seconds, fresh in compile_engines(names, args.jobs):
        print(f"{name}: {'compiled' if fresh else 'already compiled'} in {seconds:.1f} s")
    print(f"engines cached in {_numba_cache.cache_dir()}; whole command "
          f"{command_seconds():.1f} s")


# -- games ---------------------------------------------------------------------------


def cmd_games(args, _extra) -> None:
    if args.game is None:
        print("games:")
        for name in games.names():
            print(f"  {name:24} {games.get(name).title}")
        print("rules-probability questions (simkit prob FAMILY):")
        for family in games.question_sets():
            print(f"  {family:24} {', '.join(games.questions(family))}")
        return
    game = games.get(args.game)
    print(f"{game.name}: {game.title}")
    if game.caveat:
        print(f"caveat: {game.caveat}")
    print(f"sides: {', '.join(game.sides)}")
    print("presets:")
    for preset in game.presets.values():
        print(f"  {preset.name:24} {preset.description}")
    print("policies (first is the default):")
    for side, table in game.policies.items():
        for name, doc in table.items():
            print(f"  {side + ':' + name:24} {doc}")
    # sides whose policies take the same weights (Verrix's five seats) are listed once
    by_table: dict = {}
    for side, table in game.policy_weights.items():
        by_table.setdefault(tuple(table.items()), []).append(side)
    for items, sides in by_table.items():
        table = dict(items)
        for weights in dict.fromkeys(table.values()):
            users = ", ".join(n for n, w in table.items() if w is weights)
            print(f"policy weights of {', '.join(sides)}: {users} "
                  f"(--policy NAME:WEIGHT=VALUE,...):")
            print(_knob_table(weights.knobs()))
    knobs = game.Rules.knobs()
    print("rule knobs (--set KNOB=VALUE; a placeholder default shows the value the "
          "standard rules play):")
    print(_knob_table([k for k in knobs if k.role == "rule"], played=game.Rules().effective()))
    for role, title in (("reading", "readings (rules the rulebook leaves open; --set "
                         "KNOB=VALUE):"),
                        ("reconstruction", "reconstruction knobs (numbers the rulebook does "
                         "not print; --set KNOB=VALUE):")):
        declared = [k for k in knobs if k.role == role]
        if declared:
            print(title)
            print(_declared_table(declared))
    print("outcome columns:")
    for name, col in game.outcome_columns.items():
        print(f"  {name:24} {col.dtype:9} {col.description}")


def _declared_table(knobs) -> str:
    """Readings or reconstruction knobs: each value with its words, and why the default."""
    lines = []
    for k in knobs:
        lines.append(f"  {k.name:22} default {k.default!s:10} allowed {k.allowed:14} {k.doc}")
        for value, words in (k.words or {}).items():
            mark = "*" if value == k.default else " "
            lines.append(f"    {mark} {value!s:18} {words}")
        lines.append(f"      default because: {k.why}")
    return "\n".join(lines)


def _knob_table(knobs, indent: str = "  ", played=None) -> str:
    def default(k) -> str:
        value = getattr(played, k.name, k.default)
        return f"{k.default!s} (plays {value})" if value != k.default else str(k.default)

    def name(k) -> str:  # a flag (after "--") is spelled with dashes, as the docs do
        return k.name.replace("_", "-") if indent.endswith("--") else k.name

    return "\n".join(f"{indent}{name(k):22} default {default(k):10} allowed {k.allowed:14} "
                     f"{k.doc}" for k in knobs)


# -- run -----------------------------------------------------------------------------


def cmd_run(args, _extra) -> None:
    from simkit.runner import RunInfo, simulate

    _check_backend_options(args)
    game = _game(args)
    rules = game.effective(_rules(game, args))  # as played
    policy = _policy(game, args, rules)
    if args.side is not None:
        from simkit.sides import resolve_side

        resolve_side(game, args.side)  # an unknown side: one line, before anything runs
        if args.until_ci is None:
            raise UsageError("run --side names the rate --until-ci stops on: give "
                             "--until-ci too (a run prints every rate)")
    if args.rotate_seats:
        return _run_rotated(game, rules, policy, args)
    info = RunInfo()
    with _dask_client(args) as client:  # rows go to --out (if any), never to memory
        simulate(game, args.games, seed=args.seed, rules=rules, policy=policy,
                 n_jobs=args.jobs, chunk_size=args.chunk_size,
                 progress=show_progress(args), backend=args.backend, out=args.out,
                 until_ci=args.until_ci, max_games=args.max_games, client=client,
                 info=info, keep_rows=False, allow_other_engine=args.allow_other_engine,
                 until_ci_side=args.side)
    emit(run_table(game, info, rules), args.format,
         lambda: run_summary(game, rules, policy, args.seed, info, args))


def _rate_columns_shown(game, counts: dict) -> list[str]:
    """The winner, the end reason, and any other categorical outcome that varies."""
    others = [name for name, col in game.outcome_columns.items()
              if col.dtype == "category" and name not in ("winner", "end_reason")
              and sum(k > 0 for k in counts.get(name, {}).values()) > 1]  # a fame winner
    return [c for c in ("winner", "end_reason", *others) if c in counts]


def run_table(game, info, rules=None) -> pd.DataFrame:
    """A run's rates as a flat table: column, outcome, games, of, rate, low, high (given
    ``rules``, only the categories in play: no tribe that did not play)."""
    rows = []
    for column in _rate_columns_shown(game, info.counts):
        categories = (game.outcome_columns[column].categories if rules is None else
                      game.categories_in_play(rules, column))
        ordered = {c: info.counts[column].get(c, 0) for c in categories}
        for outcome, r in stats.rate_table(ordered, info.n_games).iterrows():
            rows.append({"column": column, "outcome": outcome, "games": int(r["count"]),
                         "of": info.n_games, "rate": r["rate"], "low": r["low"],
                         "high": r["high"]})
    return pd.DataFrame(rows, columns=["column", "outcome", "games", "of", "rate", "low",
                                       "high"])


def _run_rotated(game, rules, policy, args) -> None:
    from simkit.seats import rotated_rates

    if args.until_ci is not None:
        raise UsageError("--rotate-seats plays the same --games under every seating; "
                         "--until-ci would stop each at another count")
    with _dask_client(args) as client:
        result = rotated_rates(game, args.games, seed=args.seed, rules=rules, policy=policy,
                               out=args.out, n_jobs=args.jobs, chunk_size=args.chunk_size,
                               progress=show_progress(args), backend=args.backend,
                               client=client, allow_other_engine=args.allow_other_engine)
    if args.format != "table":
        tables = [t.reset_index().assign(by=by) for by, t in
                  (("seat", result.by_seat), ("tribe", result.by_tribe))]
        effects = result.seat_effects.rename(columns={"seat": "name", "difference": "rate"})
        tables.append(effects.assign(by="seat effect (minus seat1, paired)"))
        emit(pd.concat(tables, ignore_index=True)[["by", "name", "wins", "games", "rate",
                                                   "low", "high"]], args.format, str)
        return
    print(result.text())
    print(f"rules changed from standard (rotation 1): {rules.played_changes_text()}")
    print(f"played {len(result.rotations) * args.games:,} games in {result.seconds:.2f} s "
          f"(compile or cache load not included)")
    if game.caveat:
        print(f"caveat: {game.caveat}")


@contextlib.contextmanager
def _dask_client(args):
    """The dask client ``--backend dask`` runs on (None for another backend): on
    ``--scheduler``, or on a cluster of this machine that it starts and, at the end,
    closes with the client (a client does not close a cluster it was handed)."""
    if args.backend != "dask":
        yield None
        return
    try:
        from dask.distributed import Client
    except ImportError:
        raise UsageError("--backend dask needs dask[distributed]: "
                         "pip install 'simkit[dask]'") from None
    if args.scheduler:
        try:
            _check_scheme(args.scheduler)
            # the client is passed down explicitly; as a default it would outlive a failure
            client = Client(args.scheduler, timeout=DASK_TIMEOUT, set_as_default=False)
        except (OSError, ValueError, TypeError) as exc:  # unreachable or malformed
            raise UsageError(f"cannot use the dask scheduler {args.scheduler!r}: "
                             f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
                             ) from None
        with client:
            yield client
        return
    with local_dask_cluster(max(1, args.jobs)) as cluster, \
            Client(cluster, security=cluster.security, set_as_default=False) as client:
        yield client


DASK_TIMEOUT = "10s"


def _check_scheme(address: str) -> None:
    """Refuse an unknown address scheme before a client is built: the one built for it
    would hang at exit trying to close a connection it never had."""
    from distributed.comm import parse_address
    from distributed.comm.registry import get_backend

    get_backend(parse_address(address)[0])  # ValueError names the known schemes


def local_dask_cluster(workers: int):
    """A dask cluster on this machine only: every address on 127.0.0.1 (dask always
    starts its HTTP servers; they get random local ports), traffic over TLS with
    temporary certificates, so other local users cannot submit work to it."""
    from dask.distributed import LocalCluster
    from distributed.security import Security

    security = Security.temporary()
    return LocalCluster(n_workers=workers, threads_per_worker=1, host="127.0.0.1",
                        protocol="tls://", security=security,
                        dashboard_address="127.0.0.1:0", worker_dashboard_address=None)


def run_summary(game, rules, policy, seed, info, args) -> str:
    """The run's rates and game lengths, from the counts the run kept (``info.counts``)."""
    n = info.n_games
    lines = [f"{game.name}: {n:,} games, seed {seed}, "
             f"preset {args.preset or '(standard)'}, policy "
             + " ".join(f"{side}={name}" for side, name in policy.items())]
    lines.append("rules changed from standard: " + rules.played_changes_text())
    counts = info.counts
    for column in _rate_columns_shown(game, counts):
        ordered = {c: counts[column].get(c, 0)
                   for c in game.categories_in_play(rules, column)}
        lines.append("")
        lines.append(_format_rates(column, stats.rate_table(ordered, n)))
    if "turns" in counts:
        lines.append("\n" + _turns_line(counts["turns"]))
    workers = {"threads": "thread(s)", "loky": "worker process(es), their start-up included",
               "dask": "dask worker(s)"}[args.backend]
    if info.games_played:
        rate = info.games_played / max(info.seconds, 1e-9)
        lines.append(f"played {info.games_played:,} games in {info.seconds:.2f} s "
                     f"({rate:,.0f} games/s on {info.workers} {workers}); {_timing(info)}")
    else:
        lines.append("played no new game: every game was already in the results folder")
    if args.out is not None:
        lines.append(f"results: {args.out} (simkit.load to read)")
    if game.caveat:
        lines.append(f"caveat: {game.caveat}")
    return "\n".join(lines)


def _turns_line(counts: dict) -> str:
    """Mean, median, min and max game length from the count of games per length."""
    turns = pd.Series(counts, dtype="int64").sort_index()
    turns = turns[turns > 0]
    n, cumulative = int(turns.sum()), turns.cumsum().to_numpy()

    def ranked(rank: int) -> int:  # the rank-th shortest game's length (1-based)
        return int(turns.index[np.searchsorted(cumulative, rank)])

    median = (ranked((n + 1) // 2) + ranked(n // 2 + 1)) / 2
    mean = float((turns.index.to_numpy() * turns.to_numpy()).sum() / n)
    return (f"turns: mean {mean:.2f}, median {median:g}, min {turns.index.min()}, "
            f"max {turns.index.max()}")


def _format_rates(column: str, table: pd.DataFrame) -> str:
    width = max([14, len(column) - 2, *(len(str(o)) for o in table.index)])
    rows = [f"{column:{width + 2}} {'games':>12} {'rate':>8}   95% interval (Wilson)"]
    for outcome, row in table.iterrows():
        rows.append(f"  {outcome!s:{width}} {int(row['count']):>12,} {row['rate']:>8.2%}   "
                    f"[{row['low']:.2%}, {row['high']:.2%}]")
    return "\n".join(rows)


# -- sweep ---------------------------------------------------------------------------


def cmd_sweep(args, _extra) -> None:
    from simkit.experiment import SweepInfo, load_experiment, sweep
    from simkit.sides import default_categories, resolve_side

    _check_backend_options(args)
    experiment = load_experiment(args.file).with_games(args.games)
    game = games.get(experiment.game)
    sides = ([resolve_side(game, args.side)] if args.side is not None else
             [("winner", c) for c in default_categories(game)])
    games_per_cell = _sweep_sized(game, experiment, args)
    info = SweepInfo()
    with _dask_client(args) as client:
        summary = sweep(args.file, args.out, games=games_per_cell, n_jobs=args.jobs,
                        progress=show_progress(args), backend=args.backend, client=client,
                        info=info, allow_other_engine=args.allow_other_engine,
                        data=args.data)
    print(sweep_summary(experiment, summary, info, sides))
    if experiment.rotate_seats:
        from simkit.seats import experiment_text

        print(experiment_text(info.out))


def _sweep_sized(game, experiment, args) -> int | None:
    """The games per cell: the estimate told first (from the speed of each policy the
    cells play, under the base rules) and, given --budget, cut to fit it."""
    from simkit.experiment import check_folder
    from simkit.timing import Plan, announce, check_budget, fit, speed

    check_budget(args.budget)
    check_folder(Path(args.out), experiment)  # a refusal comes before any estimate
    if args.backend == "dask":  # another machine's speed: no estimate from here
        return args.games
    played = game.with_data(args.data or experiment.data)
    base = experiment.cells[0].rules
    seconds = sum(experiment.games / speed(played, base, c.policy, args.jobs)
                  for c in experiment.cells)
    plan = Plan(experiment.games * len(experiment.cells),
                experiment.games * len(experiment.cells) / seconds)
    announce(f"{len(experiment.cells)} cells of {experiment.games:,} games (those already "
             "in the folder are not played again)", plan, say)
    fitted, cut = fit(args.budget, plan, experiment.games, "games a cell")
    if cut:
        say(cut)
        return fitted
    return args.games


def _side_rates(summary: pd.DataFrame, out, sides) -> pd.DataFrame:
    """Each side's rate and Wilson interval per cell, as ``winner_<side>`` columns: from
    the summary for a winner category, from the cells' rows for a seat."""
    from simkit.experiment import cell_folders, load_cell

    extra = [(column, side) for column, side in sides if column != "winner"]
    if not extra:
        return summary
    summary = summary.copy()
    cells = dict((c["label"], folder) for c, folder in cell_folders(out)[1])
    for column, side in extra:
        rates = []
        for label in summary["cell"]:
            frame = load_cell(cells[label], [column])
            rates.append(stats.wilson(int((frame[column] == side).sum()), len(frame)))
        summary[f"winner_{side}"] = [r.estimate for r in rates]
        summary[f"winner_{side}_low"] = [r.low for r in rates]
        summary[f"winner_{side}_high"] = [r.high for r in rates]
    return summary


def sweep_summary(experiment, summary: pd.DataFrame, info, sides=None) -> str:
    """The sweep's cells with each side's win rate and its Wilson 95% interval (``sides``:
    (column, category) pairs; default the first side that can win, else every tribe)."""
    from simkit.sides import default_categories

    game = games.get(experiment.game)
    sides = sides or [("winner", c) for c in default_categories(game)]
    summary = _side_rates(summary, info.out, sides)
    per_cell = (f"{experiment.games:,} games per cell" if experiment.until_ci is None else
                f"until every 95% half-width < {experiment.until_ci:g} (first batch "
                f"{experiment.games:,})")
    if experiment.file_games:
        per_cell += f" (the file asks for {experiment.file_games:,})"
    lines = [f"experiment {experiment.name} ({experiment.game}): {info.cells} cells, "
             f"{per_cell}, seed {experiment.seed}"]
    if info.extended_from:
        lines.append(f"extending {info.out} from {info.extended_from:,} to "
                     f"{experiment.games:,} games per cell")
    shown = [side for _, side in sides if f"winner_{side}" in summary]
    width = max(14, *(len(c) for c in summary["cell"]))
    header = f"{'cell':{width + 2}} {'games':>10}"
    if len(shown) == 1:
        header += f" {shown[0] + ' win':>14}   95% interval (Wilson)"
    else:
        header += "".join(f" {side + ' win':>24}" for side in shown)
    lines.append(header)
    for row in summary.to_dict(orient="records"):
        text = f"  {row['cell']:{width}} {row['games']:>10,}"
        for side in shown:
            rate, low, high = (row[f"winner_{side}{end}"] for end in ("", "_low", "_high"))
            if len(shown) == 1:
                text += f" {rate:>14.2%}   [{low:.2%}, {high:.2%}]"
            else:
                text += f" {f'{100 * rate:.2f}% [{100 * low:.2f}, {100 * high:.2f}]':>24}"
        lines.append(text)
    if len(shown) > 1:
        lines.append("win rates with Wilson 95% intervals (in %)")
    if info.games_played:
        lines.append(f"played {info.games_played:,} games in {info.seconds:.2f} s (engine "
                     "compile or cache loads included); whole command "
                     f"{command_seconds():.2f} s")
    else:
        lines.append("played no new game: every cell was already in the folder")
    lines.append(f"results: {info.out} (summary.csv; simkit report {info.out}; simkit ladder "
                 f"{info.out})")
    if game.caveat:
        lines.append(f"caveat: {game.caveat}")
    return "\n".join(lines)


# -- report --------------------------------------------------------------------------


def cmd_report(args, _extra) -> None:
    from simkit.report import write_report

    report = write_report(args.results, args.out, side=args.side, balance=args.balance)
    print(f"wrote {report.markdown}, {report.html} and {len(report.figures)} figure(s)")
    print(textwrap.fill(report.findings, width=90))


# -- plan ----------------------------------------------------------------------------


def cmd_plan(args, _extra) -> None:
    effects = [e / 100 for e in (args.effect or [1.0, 2.0, 5.0])]
    if any(not 0 < e < 1 for e in effects):
        raise UsageError("--effect is a difference in points, between 0 and 100 "
                         "(exclusive)")
    if not 0 < args.power < 1:
        raise UsageError(f"--power must lie strictly between 0 and 1, got {args.power}")
    if args.comparisons is not None and args.comparisons < 1:
        raise UsageError(f"--comparisons must be at least 1, got {args.comparisons}")
    _check_plan_question(args)
    args.comparisons = args.comparisons or 1
    if args.margin is not None and not 0 < args.margin < 100:
        raise UsageError(f"--margin is an interval's half-width in points, between 0 and "
                         f"100 (exclusive), got {args.margin:g}")
    if args.results is not None:
        from simkit.analysis import collect, plan

        data = collect(args.results)
        if data.differences.empty:
            raise UsageError(f"{args.results} has one cell: plan needs an experiment "
                             "folder, or --discordance")
        table = plan(data.differences, effects, args.power)
        emit(table, args.format, lambda: plan_summary(data, table, args.power))
        return
    if args.rate is not None:
        if args.margin is None or not 0 <= args.rate <= 1:
            raise UsageError(f"--rate needs a rate in [0, 1] and --margin POINTS, got "
                             f"--rate {args.rate:g}"
                             + ("" if args.margin is not None else " and no --margin"))
        level = 1 - 0.05 / args.comparisons
        n = _games_or_refuse(lambda: stats.games_needed(args.margin / 100, p=args.rate,
                                                        confidence=level),
                             f"--margin {args.margin:g}")
        table = pd.DataFrame([{"rate": args.rate, "margin_points": args.margin,
                               "confidence": level, "games": n}])
        emit(table, args.format, lambda: f"{n:,} games for a Wilson interval of "
             f"+-{args.margin:g} points at a rate of {args.rate:.2%} (level {level:.2%})")
        return
    if args.discordance is None or not 0 < args.discordance <= 1:
        raise UsageError("plan needs RESULTS_DIR, --discordance SHARE (0-1] or --rate "
                         "RATE with --margin POINTS")
    emit(discordance_table(args.discordance, effects, args.power, args.comparisons,
                           args.margin), args.format,
         lambda: discordance_plan(args.discordance, effects, args.power, args.comparisons,
                                  args.margin))


def _check_plan_question(args) -> None:
    """One question a plan: a folder's cells (their own discordance and Holm over the
    cells), an expected discordance, or a rate's interval; an option of another is
    refused rather than ignored."""
    given = [f"--{name}" for name in ("discordance", "rate", "margin", "comparisons")
             if getattr(args, name) is not None]
    if args.results is not None and given:
        raise UsageError(f"{', '.join(given)}: not for a plan of RESULTS_DIR, which uses each "
                         "cell's observed discordance (Holm over its cells); give "
                         "RESULTS_DIR or those options")
    if args.rate is not None and args.discordance is not None:
        raise UsageError("--rate (one rate's interval) and --discordance (paired "
                         "comparisons) plan different things: give one")
    if args.rate is not None and args.effect is not None:
        raise UsageError("--effect is for paired comparisons (RESULTS_DIR or "
                         "--discordance); --rate plans one rate's interval (--margin)")


def _games_or_refuse(needed, what: str) -> int:
    """``needed()``, the games a plan asks for, refused in one line beyond what simkit
    can play (a tiny effect asks for more than any run: 1e-300 points, infinitely many)."""
    try:
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            n = needed()
    except (OverflowError, ValueError, ZeroDivisionError):
        n = None
    if n is None or not n <= MAX_GAMES:
        raise UsageError(f"{what} needs more games than simkit can play ({MAX_GAMES:,}); "
                         "ask for a larger difference or margin")
    return n


def discordance_table(discordance: float, effects: list[float], power: float,
                      comparisons: int, margin: float | None) -> pd.DataFrame:
    """``discordance_plan`` as a table: goal, points, games (None: cannot be shown)."""
    alpha = 0.05 / comparisons
    rows = [{"goal": "separate", "points": effect * 100, "games":
             None if effect > discordance else _games_or_refuse(
                 lambda e=effect: stats.paired_games_to_separate(e, discordance, alpha,
                                                                 power),
                 f"--effect {effect * 100:g}")}
            for effect in effects]
    if margin is not None:
        rows.append({"goal": "interval", "points": margin, "games": _games_or_refuse(
            lambda: stats.paired_games_needed(margin / 100, discordance, 0.0, 1 - alpha),
            f"--margin {margin:g}")})
    return pd.DataFrame(rows).assign(discordance=discordance, alpha=alpha, power=power)


def discordance_plan(discordance: float, effects: list[float], power: float,
                     comparisons: int, margin: float | None) -> str:
    """Games to separate each paired effect (Connor 1987) and, with ``margin``, for a
    paired interval of that half-width, from an expected discordance."""
    alpha = 0.05 / comparisons
    lines = [f"paired comparisons at level {alpha:.3g} (0.05 / {comparisons}), {power:.0%} "
             f"power, {discordance:.1%} of games discordant:"]
    for effect in effects:
        if effect > discordance:
            lines.append(f"  {effect * 100:g} points: cannot be shown (a difference exceeds "
                         "the discordance)")
            continue
        n = _games_or_refuse(
            lambda e=effect: stats.paired_games_to_separate(e, discordance, alpha, power),
            f"--effect {effect * 100:g}")
        lines.append(f"  separate {effect * 100:g} points: {n:,} games per cell")
    if margin is not None:
        n = _games_or_refuse(
            lambda: stats.paired_games_needed(margin / 100, discordance, 0.0, 1 - alpha),
            f"--margin {margin:g}")
        lines.append(f"  interval of +-{margin:g} points: {n:,} games per cell")
    return "\n".join(lines)


def plan_summary(data, table: pd.DataFrame, power: float) -> str:
    """Per cell of an experiment folder: games to separate each effect from the base."""
    columns = [c for c in table.columns if c.startswith(("separate", "interval"))]
    width = max(len(str(c)) for c in table["cell"]) + 2
    lines = [f"{data.head['name']}: games per cell to separate the base from each cell "
             f"({power:.0%} power, level 0.05/{len(table)}), from the observed discordance",
             f"{'cell':{width}}{'games':>9} {'discord.':>9} " + " ".join(
                 f"{c:>16}" for c in columns)]
    for _, row in table.iterrows():
        needed = " ".join(f"{'-' if pd.isna(row[c]) else f'{int(row[c]):,}':>16}"
                          for c in columns)
        lines.append(f"{row['cell']:{width}}{row['games']:>9,} {row['discordance']:>9.2%} "
                     f"{needed}")
    lines.append("-: the discordance is zero or smaller than the effect")
    return "\n".join(lines)


# -- ladder --------------------------------------------------------------------------


def cmd_ladder(args, _extra) -> None:
    from simkit.analysis import collect, ladder

    data = collect(args.results, side=args.side)
    table = ladder(data)
    emit(table, args.format, lambda: ladder_summary(data, table))


def ladder_summary(data, table: pd.DataFrame) -> str:
    """The ladder as text: one line per rung, then which gaps are not established."""
    side = data.side
    labels = [f"{r.cell} (= {r.also})" if r.also else r.cell for r in table.itertuples()]
    width = max(14, *(len(x) for x in labels))
    lines = [f"difficulty ladder of {data.head['name']} ({data.game.name}): {len(table)} "
             f"cells by {side} win rate, highest first",
             f"{'rung':>4}  {'cell':{width}} {'games':>10} {side + ' win':>14}   "
             f"{'95% interval':20} {'vs base':>8}   {'tier':6} gap to next rung (paired)"]
    for label, r in zip(labels, table.itertuples(), strict=True):
        gap = ("" if pd.isna(r.gap) else
               f"{r.gap * 100:+.2f} [{r.gap_low * 100:+.2f}, {r.gap_high * 100:+.2f}]"
               + ("" if r.separated else "  not separated"))
        lines.append(f"{r.rung:>4}  {label:{width}} {r.games:>10,} {r.rate:>14.2%}   "
                     f"{f'[{r.low:.2%}, {r.high:.2%}]':20} {r.vs_base * 100:>+8.2f}   "
                     f"{r.tier:6} {gap}")
    unseparated = int((table["separated"] == False).sum())  # noqa: E712 (nullable)
    pairs = len(table) * (len(table) - 1) // 2
    lines.append(f"win rates with Wilson 95% intervals; vs base and gaps in points, paired "
                 f"on the same games (McNemar, Holm over all {pairs} pairs of cells, "
                 f"intervals at the Holm-consistent level); cells sharing a tier letter are "
                 f"not separated; {unseparated} gap(s) not significant at 5%")
    from simkit.report import unfinished_note

    note = unfinished_note(data)  # a killed or running sweep: said, never silent
    if note:
        lines.append(note.strip())
    if data.game.caveat:
        lines.append(f"caveat: {data.game.caveat}")
    return "\n".join(lines)


# -- calibrate -----------------------------------------------------------------------


def cmd_calibrate(args, _extra) -> None:
    from simkit.calibration import calibrate

    _check_backend_options(args)
    if any(text.partition("=")[0].strip() == args.knob for text in args.set):
        raise UsageError(f"--set {args.knob}=... conflicts with --knob {args.knob}: "
                         "calibrate sets the knob it calibrates")
    game = _game(args)
    rules = _rules(game, args)
    policy = _policy(game, args, rules)
    steps = _calibration_steps(game, args)
    with _dask_client(args) as client:
        result = calibrate(game, args.knob, args.target, side=args.side, rules=rules,
                           policy=policy, n_games=args.games, seed=args.seed,
                           until_ci=args.until_ci, max_games=args.max_games,
                           n_jobs=args.jobs, steps=steps, backend=args.backend,
                           client=client)
    print(calibration_summary(game, result, rules, policy, args))


def _calibration_steps(game, args) -> int:
    """--steps: a float knob's grid of 2 or more values (an integer knob is bisected
    over its range and takes no grid)."""
    if args.steps is None:
        return 21
    if args.steps < 2:
        raise UsageError(f"--steps is the grid of a float knob's values: 2 or more, got "
                         f"{args.steps}")
    knob = game.Rules.knob(args.knob)
    if knob.type is not float:
        raise UsageError(f"--steps sets the grid of a float knob; {args.knob} is "
                         f"{'an integer' if knob.type is int else 'not a float'} knob, "
                         "bisected over its range: leave --steps out")
    return args.steps


def calibration_summary(game, result, rules, policy, args) -> str:
    values = result.values
    per_value = (f"{args.games:,} games per value" if args.until_ci is None else
                 f"until the {result.side} rate's 95% half-width < {args.until_ci:g}")
    lines = [f"{game.name}: calibrating {result.knob} ({values[0]}..{values[-1]}) for the "
             f"{result.side} to win {result.target:.2%}",
             f"preset {args.preset or '(standard)'}, rules changed from standard: "
             + (", ".join(f"{k}={v}" for k, v in rules.played_changes().items()
                           if k != result.knob)
                or "none") + ", policy " + " ".join(f"{s}={n}" for s, n in policy.items()),
             f"{per_value}, seed {args.seed} (the same games for every value)",
             *([f"not allowed with these rules: {result.knob} = "
                + ", ".join(str(v) for v in result.excluded)] if result.excluded else []),
             f"{result.knob:>16} {'games':>10} {result.side + ' win':>14}   95% interval "
             "(Wilson)"]
    for e in sorted(result.evaluations, key=lambda e: e.value):
        lines.append(f"{e.value!s:>16} {e.games:>10,} {e.rate.estimate:>14.2%}   "
                     f"[{e.rate.low:.2%}, {e.rate.high:.2%}]")
    lines.append(result.describe())
    return "\n".join(lines)


# -- compare -------------------------------------------------------------------------


def _vs_options(texts: list[str] | None) -> argparse.Namespace:
    """The second setting's options (after --vs): --set, --preset and --policy only."""
    if not texts:
        raise UsageError("compare needs the second setting after --vs: simkit compare "
                         "GAME --set KNOB=1 --vs --set KNOB=2 (--set, --preset, --policy)")
    vs = _Parser(prog="simkit compare --vs", add_help=False)
    vs.add_argument("--preset", default=None)
    vs.add_argument("--set", action="append", default=[])
    vs.add_argument("--policy", action="append", default=[])
    vs.add_argument("--data", type=Path, default=None)
    vs.add_argument("--no-data", action="store_true")
    options, extra = vs.parse_known_args(texts)
    if extra:
        raise UsageError(f"compare --vs takes --set, --preset, --policy, --data and "
                         f"--no-data only, got {' '.join(extra)}; give the other options "
                         "before --vs")
    if options.data is not None and options.no_data:
        raise UsageError("compare --vs takes --data DIR or --no-data, not both")
    return options


def _second_game(game, args, vs):
    """The second setting's game: the first's, or on --vs --data DIR (--no-data: the
    package's own files)."""
    if vs.no_data:
        return games.get(args.game)
    if vs.data is not None:
        return games.get(args.game).with_data(vs.data)
    return game


def compare_settings(game, args):
    """Both settings' (rules as played, policy, label, game): the second starts from the
    first and changes what its --vs options name (a knob set again takes the new value;
    --data another data folder)."""
    vs = _vs_options(args.vs)
    game_b = _second_game(game, args, vs)
    rules_a = game.effective(_rules(game, args))
    policy_a = _policy(game, args, rules_a)
    sets = {t.partition("=")[0].strip(): t for t in args.set}
    vs_knobs = [t.partition("=")[0].strip() for t in vs.set]
    twice = sorted({k for k in vs_knobs if vs_knobs.count(k) > 1})
    if twice:
        raise UsageError(f"--vs --set {', '.join(twice)} given more than once; set each "
                         "knob once")
    sets |= {t.partition("=")[0].strip(): t for t in vs.set}
    preset_b = vs.preset if vs.preset is not None else args.preset
    rules_b = game_b.effective(game_b.resolve_rules(preset_b).parse_overrides(
        list(sets.values())))
    everyone, chosen = _policy_choices(vs.policy)
    game.check_sides_in_play(rules_b, _policy_choices(args.policy)[1] | chosen)
    policy_b = dict(policy_a) | (dict.fromkeys(game.sides, everyone) if everyone else {})
    playing = game.sides_in_play(rules_b)
    policy_b = {side: name for side, name in game.resolve_policy(policy_b | chosen).items()
                if side in playing}
    same_data = game.data.digest == game_b.data.digest
    if rules_a == rules_b and policy_a == policy_b and same_data:
        raise UsageError("the two settings play the same rules, policies and data files: "
                         "change a knob, the preset, a policy or the data after --vs")
    return ((rules_a, policy_a, args.preset, game), (rules_b, policy_b, preset_b, game_b))


def cmd_compare(args, _extra) -> None:
    from simkit.runner import RunInfo, simulate

    game = _game(args)
    _check_jobs(args)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, got {args.games:,}")
    if args.flipped < 0:
        raise UsageError(f"--flipped must be 0 or more, got {args.flipped}")
    settings = compare_settings(game, args)
    sides = _compared_sides(game, settings, args)
    columns = sorted({column for column, _ in sides})
    frames, seconds = [], 0.0
    for rules, policy, _, played in settings:
        info = RunInfo()
        started = time.perf_counter()
        frame = simulate(played, args.games, seed=args.seed, rules=rules, policy=policy,
                         n_jobs=args.jobs, progress=show_progress(args), info=info,
                         rotate_seats=args.rotate_seats)
        frames.append(frame[["game_index", *(["rotation"] if args.rotate_seats else []),
                             *columns]])
        seconds += info.seconds if not args.rotate_seats else time.perf_counter() - started
    if len(frames[0]) != len(frames[1]):
        raise UsageError("--rotate-seats: the two settings seat different numbers of tribes, "
                         "so their rotations are not the same games; compare them without it")
    table = compare_table(frames, sides, flipped=args.flipped)
    emit(table, args.format, lambda: compare_summary(game, settings, table, args, seconds))


def _compared_sides(game, settings, args) -> list[tuple[str, str]]:
    """The (column, category) pairs compared: --side, else each side that can win; with
    --rotate-seats, every seated tribe and every seat."""
    from simkit.sides import default_categories, resolve_side

    if args.side is not None:
        return [resolve_side(game, args.side)]
    sides = [("winner", c) for c in default_categories(game, *(s[0] for s in settings))]
    if args.rotate_seats:
        if getattr(game, "seated", None) is None:
            raise UsageError(f"{game.name} has no seats to rotate: its sides play different "
                             "roles (--rotate-seats is for games whose seats hold tribes)")
        seats = game.categories_in_play(settings[0][0], "winner_seat")
        sides += [("winner_seat", seat) for seat in seats]
    return sides


def compare_table(frames: list[pd.DataFrame], sides: list[tuple[str, str]],
                  power: float = 0.8, flipped: int = 0) -> pd.DataFrame:
    """Per side: both rates (Wilson 95%), the paired difference second - first (Tango's
    score interval, McNemar's p), the discordant games, and if the difference is not
    significant at 5%, the games that would separate it (Connor 1987, 80% power).
    ``flipped``: the first side's row also lists that many game indices each setting
    alone won (``game#rotation`` after a rotation)."""
    first, second = frames
    rows = []
    for column, side in sides:
        a = (first[column] == side).to_numpy()
        b = (second[column] == side).to_numpy()
        if flipped and not rows:
            names = _game_names(first)
            rows_extra = {"first_only_games": " ".join(names[a & ~b][:flipped]),
                          "second_only_games": " ".join(names[b & ~a][:flipped])}
        else:
            rows_extra = {}
        n = len(a)
        ra, rb = stats.wilson(int(a.sum()), n), stats.wilson(int(b.sum()), n)
        d = stats.paired_difference(b, a)  # b_only: games only the first won
        discordance = (d.a_only + d.b_only) / n
        separated = d.p_value < 0.05
        needed = None
        if not separated and d.difference.estimate != 0:
            needed = stats.paired_games_to_separate(abs(d.difference.estimate), discordance,
                                                    0.05, power)
        rows.append({"side": side, "column": column, "games": n,
                     "first": ra.estimate, "first_low": ra.low, "first_high": ra.high,
                     "second": rb.estimate, "second_low": rb.low, "second_high": rb.high,
                     "difference": d.difference.estimate, "difference_low": d.difference.low,
                     "difference_high": d.difference.high, "p_value": d.p_value,
                     "only_first": d.b_only, "only_second": d.a_only,
                     "separated": bool(separated), "games_to_separate": needed,
                     **rows_extra})
    return pd.DataFrame(rows)


def _game_names(frame: pd.DataFrame) -> np.ndarray:
    """Each row's game index, with its rotation after a '#' in a rotated run."""
    index = frame["game_index"].astype(str).to_numpy()
    if "rotation" in frame:
        return np.char.add(np.char.add(index, "#"), frame["rotation"].astype(str).to_numpy())
    return index


def _setting_text(game, rules, policy, preset, played) -> str:
    data = "" if played.data.user is None else f"; data {played.data.user}"
    return (f"preset {preset or '(standard)'}, rules changed from standard: "
            f"{rules.played_changes_text()}; policy "
            + " ".join(f"{side}={name}" for side, name in policy.items()) + data)


def compare_summary(game, settings, table: pd.DataFrame, args, seconds: float) -> str:
    n = int(table["games"].iloc[0])
    rotated = (f" ({n // args.games} rotations of the seats x {args.games:,} games, paired "
               "over the same game and rotation)" if args.rotate_seats else "")
    lines = [f"{game.name}: {n:,} games per setting{rotated}, seed {args.seed}, the same "
             "games for both (common random numbers)",
             "  first:  " + _setting_text(game, *settings[0]),
             "  second: " + _setting_text(game, *settings[1])]
    width = max(10, *(len(s) for s in table["side"]))
    lines.append(f"  {'side':{width}} {'first':>24} {'second':>24}   "
                 f"{'second - first (paired, 95%)':>30} {'McNemar p':>10} "
                 f"{'only first':>11} {'only second':>12}")
    for r in table.itertuples():
        lines.append(f"  {r.side:{width}} "
                     f"{f'{r.first:.2%} [{r.first_low:.2%}, {r.first_high:.2%}]':>24} "
                     f"{f'{r.second:.2%} [{r.second_low:.2%}, {r.second_high:.2%}]':>24}   "
                     f"{_points(r.difference, r.difference_low, r.difference_high):>30} "
                     f"{_p_text(r.p_value):>10} {r.only_first:>11,} {r.only_second:>12,}")
    for r in table.itertuples():
        if r.separated:
            continue
        if r.only_first + r.only_second == 0:
            lines.append(f"{r.side}: no game ends differently for the {r.side} under the "
                         "two settings: nothing to separate on these games")
        elif r.difference == 0:
            lines.append(f"{r.side}: not separated, and the observed difference is 0: no "
                         "number of games can be planned from it")
        else:
            lines.append(f"{r.side}: not separated at 5%; about {int(r.games_to_separate):,} "
                         f"games would separate a difference of {100 * r.difference:+.2f} "
                         f"points with 80% power at this discordance "
                         f"({(r.only_first + r.only_second) / r.games:.2%} of games; Connor "
                         "1987)")
    if args.flipped:
        r = table.iloc[0]
        lines.append(f"games only the first won for the {r.side}: "
                     f"{r.first_only_games or 'none'}")
        lines.append(f"games only the second won for the {r.side}: "
                     f"{r.second_only_games or 'none'}")
        lines.append(f"replay one side by side: simkit trace {game.name} --game-index I "
                     "[the first setting's options] --vs [the second's]")
    lines.append("differences in points: McNemar's test with Tango's score interval (each "
                 "at 95% on its own); only first / only second: the games only that "
                 "setting won")
    lines.append(f"played {2 * n:,} games in {seconds:.2f} s; whole command "
                 f"{command_seconds():.2f} s")
    if game.caveat:
        lines.append(f"caveat: {game.caveat}")
    return "\n".join(lines)


def _points(estimate: float, low: float, high: float) -> str:
    return f"{100 * estimate:+.2f} [{100 * low:+.2f}, {100 * high:+.2f}]"


def _p_text(p: float) -> str:
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


# -- skill ---------------------------------------------------------------------------


def cmd_skill(args, _extra) -> None:
    game = _game(args)
    if not args.policy and not args.policy_games:
        _player_headroom(game, args)
        return
    from simkit.analysis import skill_sensitivity

    side = args.side or game.sides[0]
    if side not in game.sides:
        raise UsageError(f"unknown side {side!r} of {game.name}; sides: "
                         + ", ".join(game.sides))
    policies = args.policy or list(game.policies[side])
    for policy in policies:
        game.resolve_policy({side: policy})  # an unknown policy or weight: one line
    _check_skill_policies(game, side, policies, asked=bool(args.policy))
    presets = args.preset or list(game.presets) or [None]
    for preset in presets:
        game.resolve_rules(preset)
    n_games = 10_000 if args.games is None else args.games
    sizes = _policy_games(args.policy_games, policies, n_games)
    table = skill_sensitivity(game, side, policies, presets, n_games, seed=args.seed,
                              policy_games=sizes, n_jobs=args.jobs)
    print(skill_summary(game, side, table, args.seed))


def _player_headroom(game, args) -> None:
    from simkit.headroom import headroom, summary

    if len(args.preset) > 1:
        raise UsageError("the player headroom plays one rule set: give at most one --preset "
                         "(several presets: compare policies with --policy)")
    if args.budget <= 0:
        raise UsageError(f"--budget must be a positive number of seconds, got {args.budget:g}")
    started = time.perf_counter()
    table = headroom(game, side=args.side, rules=args.preset[0] if args.preset else None,
                     n_games=args.games, budget=args.budget, seed=args.seed,
                     n_jobs=args.jobs,
                     progress=lambda text: print(text, file=sys.stderr, flush=True))
    print(summary(game, table))
    print(f"played in {time.perf_counter() - started:.1f} s on {args.jobs} job(s), compiles "
          f"included (whole command {command_seconds():.1f} s)")


def _check_skill_policies(game, side: str, policies: list[str], asked: bool) -> None:
    """skill compares two or more different policies of one side."""
    twice = sorted({p for p in policies if policies.count(p) > 1})
    if twice:
        raise UsageError(f"--policy {', '.join(twice)} given more than once; name each "
                         "policy once")
    if len(policies) >= 2:
        return
    if asked:
        raise UsageError(f"skill compares two or more policies of {side}: one --policy "
                         f"given ({policies[0]}); give --policy again")
    several = [s for s in game.sides if len(game.policies[s]) > 1]
    hint = (f"; sides with several: {', '.join(several)} (--side)" if several else
            "; no side of this game has several")
    raise UsageError(f"skill compares two or more policies of a side, and {game.name}'s "
                     f"{side} has one ({policies[0]}){hint}")


def cmd_data(args, _extra) -> None:
    game = games.get(args.game)
    folder = game.data.package
    if args.export is None:
        print(f"{game.name}: data files (replace any of them with --data DIR)")
        for name in game.data.names:
            print(f"  {name:18} {_data_status(folder / name)}")
        return
    target = args.export
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UsageError(f"--export {target}: give a new or empty folder (it would "
                         "overwrite files)")
    target.mkdir(parents=True, exist_ok=True)
    for name in game.data.names:
        (target / name).write_bytes((folder / name).read_bytes())
    print(f"wrote {len(game.data.names)} files of {game.name} into {target}: edit any of "
          f"them, remove the others, and play them with --data {target}")


def _data_status(path: Path) -> str:
    """Whether a data file is a reconstruction, from its header's own words."""
    header = " ".join(line.lstrip("# ").strip() for line in
                      path.read_text(encoding="utf-8").splitlines()[:8] if line.startswith("#"))
    lowered = header.lower()
    if "partly a reconstruction" in lowered:
        return "partly reconstructed (its header says which values are printed)"
    if "not a reconstruction" in lowered:
        return "printed (the rulebook's own values)"
    if "reconstruction" in lowered:
        return "reconstructed (the rulebook does not print it)"
    return "see its header"


def cmd_robustness(args, _extra) -> None:
    from simkit.robustness import robustness

    game = _game(args)
    rules = game.resolve_rules(args.preset).parse_overrides(args.set)
    if args.games < 1 or args.slow_games < 1:
        raise UsageError("--games and --slow-games must be at least 1")
    if args.figure is not None and args.figure.suffix.lower() != ".png":
        raise UsageError(f"--figure {args.figure}: give a .png file")
    best = None
    if args.balance is not None:
        from simkit.balance import read

        best = read(args.balance, rules)
    started = time.perf_counter()
    table = robustness(game, rules, args.games, seed=args.seed, slow_games=args.slow_games,
                       n_jobs=args.jobs, best_play=best, budget=args.budget, say=say)
    if args.format != "table":
        emit(table, args.format, str)
    else:
        print(robustness_summary(game, rules, table, args.preset))
        print(f"{len(table)} settings in {time.perf_counter() - started:.1f} s "
              f"(whole command {command_seconds():.1f} s)")
    if args.figure is not None:
        from simkit.report import robustness_figure

        robustness_figure(table).savefig(args.figure, dpi=110)
        print(f"figure: {args.figure}")


def robustness_summary(game, rules, table: pd.DataFrame, preset: str | None) -> str:
    from simkit.robustness import best_play_lines, headline, headroom_lines, policy_matrix

    categories = table.attrs["categories"]
    first = categories[0]
    width = max(12, *(len(s) for s in table["setting"]))
    lines = [f"{game.name}: what the headline rests on ({preset or 'standard rules'}"
             f"{'; ' + rules.played_changes_text() if rules.played_changes() else ''}), "
             f"seed {table.attrs['seed']}, the same games for every setting",
             f"  {'kind':15} {'setting':{width}} {'games':>6}  "
             + "  ".join(f"{c + ' win':>24}" for c in categories)
             + f"  {'vs as played (' + first + ', paired)':>34}"]
    for _, row in table.iterrows():
        rates = "  ".join(f"{_pct(row[c]):>7} [{_pct(row[c + '_low'])}, "
                          f"{_pct(row[c + '_high'])}]".rjust(24) for c in categories)
        diff = ""
        if row["group"] != "as played":
            diff = (f"{_signed(row['difference'])} [{_signed(row['difference_low'])}, "
                    f"{_signed(row['difference_high'])}]")
        kind = row["group"] + (" (floor)" if row["baseline"] else "")
        lines.append(f"  {kind:15} {row['setting']:{width}} {row['games']:>6}  {rates}  "
                     f"{diff:>34}")
    matrix = policy_matrix(table, first, game.sides)
    if matrix is not None:
        lines.append(f"{first} win rate for every pairing of the scripted players "
                     f"(rows: {game.sides[0]}, columns: {game.sides[1]}):")
        lines += ["  " + line for line in matrix.to_string().splitlines()]
    lines.append("ranges (random players left out):")
    lines += [f"  {headline(table, c)}" for c in categories]
    lines += [f"  {line}" for line in best_play_lines(table) + headroom_lines(table, game)]
    if table.attrs.get("cut"):
        lines.append(f"  {table.attrs['cut']}")
    for note in table.attrs["refused"]:
        lines.append(f"  not played: {note}")
    if game.caveat:
        lines.append(f"caveat: {game.caveat}")
    return "\n".join(lines)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _signed(x: float) -> str:
    return f"{100 * x:+.1f}"


def _policy_games(texts: list[str], policies: list[str], games_per_cell: int) -> dict:
    names = [p.split(":")[0] for p in policies]
    sizes = {}
    for text in texts:
        name, sep, count = text.partition("=")
        if not sep or name not in names:
            raise UsageError(f"--policy-games {text}: give NAME=N with NAME one of "
                             + ", ".join(names))
        sizes[name] = min(_integer(count), games_per_cell)
    return sizes


def skill_summary(game, side: str, table: pd.DataFrame, seed: int) -> str:
    reference = table.attrs["reference"]
    width = max(10, *(len(p) for p in table["policy"]))
    lines = [f"{game.name}: the {side}' win rate under each policy, seed {seed}; differences "
             f"from {reference} paired on the same games"]
    for preset, rows in table.groupby("preset", sort=False):
        lines += ["", f"preset {preset}",
                  f"  {'policy':{width}} {'games':>8} {side + ' win':>13}   95% interval "
                  f"(Wilson)    vs {reference} (paired, 95%)"]
        for r in rows.itertuples():
            versus = ("reference" if pd.isna(r.vs_reference) else
                      f"{r.vs_reference * 100:+.2f} [{r.vs_low * 100:+.2f}, "
                      f"{r.vs_high * 100:+.2f}]")
            if not pd.isna(r.vs_reference) and r.paired_games < table["games"].max():
                versus += (f" on its {int(r.paired_games):,} games ({reference} "
                           f"{r.reference_rate:.2%} on them)")
            lines.append(f"  {r.policy:{width}} {r.games:>8,} {r.win_rate:>13.2%}   "
                         f"{f'[{r.low:.2%}, {r.high:.2%}]':22} {versus}")
    lines.append("")
    lines.append("differences in points (McNemar / Tango score interval), each at 95% on its "
                 "own (no correction for the number of comparisons)")
    if game.caveat:
        lines.append(f"caveat: {game.caveat}")
    return "\n".join(lines)


# -- trace ---------------------------------------------------------------------------


def cmd_trace(args, _extra) -> None:
    game = _game(args)
    if not 0 <= args.game_index <= MAX_GAMES - 1:
        raise UsageError(f"--game-index must be between 0 and {MAX_GAMES - 1:,}, got "
                         f"{args.game_index:,}")
    if args.vs is not None:
        _trace_side_by_side(game, args)
        return
    rules = _rules(game, args)
    for line in game.trace(rules, _policy(game, args, rules), args.game_index, args.seed):
        print(line)


def _trace_side_by_side(game, args) -> None:
    """The game under both settings: the lines they share once, then both columns from
    the first line where they part."""
    if args.width < 40:
        raise UsageError(f"--width must be 40 or more, got {args.width}")
    traces = [played.trace(rules, policy, args.game_index, args.seed)
              for rules, policy, _, played in compare_settings(game, args)]
    first, second = traces
    common = next((i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b),
                  min(len(first), len(second)))
    print(first[0])
    for line in first[1:common]:
        print(line)
    if common == len(first) == len(second):
        print("(the two settings play this game alike to its end)")
        return
    column = (args.width - 3) // 2
    print(f"--- the settings part here (line {common + 1}); left: the first, right: --vs ---")
    left = _wrapped(first[common:], column)
    right = _wrapped(second[common:], column)
    for a, b in itertools.zip_longest(left, right, fillvalue=""):
        print(f"{a:{column}} | {b}")


def _wrapped(lines: list[str], width: int) -> list[str]:
    out = []
    for line in lines:
        indent = len(line) - len(line.lstrip())
        out += textwrap.wrap(line, width, subsequent_indent=" " * (indent + 2)) or [""]
    return out


# -- prob ----------------------------------------------------------------------------


PROB_USAGE = """usage: simkit prob [FAMILY [QUESTION [--PARAMETER VALUE ...]]]
                   [--format table|csv|json] [--data DIR]
       simkit prob FAMILY QUESTION --help

Exact answers to rules-probability questions. Every answer is a table with one row per
event: the columns that say what the event is, then `p` (the chance, a float) and
`fraction` (the same chance exactly, a/b). A rules table (deterministic) has no chances.
--format: table (default), csv, or json (records; fraction as an "a/b" string).
--data DIR: answer on your data files in DIR (victus reads dice, chance cards, deck and
markers; the other families read no data file)."""


def cmd_prob(args, extra) -> None:
    wants_help = any(a in ("-h", "--help") for a in extra)
    extra = [a for a in extra if a not in ("-h", "--help", "--quiet")]  # prob prints no
    extra, fmt = _prob_format(extra)  # notice: --quiet changes nothing
    extra, data = _prob_data(extra)
    if args.family is None:
        if wants_help:
            print(PROB_USAGE)
        for family in games.question_sets():
            _list_questions(family)
        return
    questions = games.questions(args.family)
    if args.question is None:
        _list_questions(args.family)
        return
    if args.question not in questions:
        raise UsageError(f"unknown question {args.question!r} for {args.family}; "
                         f"questions: {', '.join(questions)}")
    question = questions[args.question]
    if wants_help:
        _question_help(args.family, question)
        return
    params = question.params().parse_overrides(_option_assignments(extra, question.params))
    with _prob_data_folder(args.family, data) as folder:
        _print_answer(args.family, question, params, question.answer(params), fmt)
        if folder is not None and fmt == "table":
            print(f"answered on your {', '.join(folder.edited_files) or 'copies of the '}"
                  f"{'' if folder.edited_files else 'package files'} (from {data}): a note "
                  "above that calls them a reconstruction is about the package's")


def _prob_data(extra: list[str]) -> tuple[list[str], str | None]:
    """Take ``--data DIR`` / ``--data=DIR`` out of the question's options."""
    rest, values = _take_option(extra, "--data", "a folder of the game's data files")
    if len(values) > 1:
        raise UsageError("--data given more than once; give one folder")
    return rest, values[0] if values else None


def _prob_data_folder(family: str, data: str | None):
    """The family's answers read from ``data`` (its module's ``with_data``), or as they
    are; a family whose answers read no data file refuses ``--data``."""
    if data is None:
        return contextlib.nullcontext()
    with_data = getattr(games.question_module(family), "with_data", None)
    if with_data is None:
        raise UsageError(f"{family}'s questions read no data file: --data changes nothing "
                         "there (families that take it: victus)")
    return with_data(data)


def _take_option(extra: list[str], name: str, needs: str) -> tuple[list[str], list[str]]:
    """Take every ``NAME VALUE`` / ``NAME=VALUE`` out of a question's options: (the rest,
    the values in order); ``needs`` says what a NAME with no value lacks."""
    rest, values, i = [], [], 0
    while i < len(extra):
        key, sep, value = extra[i].partition("=")
        if key != name:
            rest.append(extra[i])
        elif sep:
            values.append(value)
        elif i + 1 < len(extra):
            i += 1
            values.append(extra[i])
        else:
            raise UsageError(f"{name} needs {needs}")
        i += 1
    return rest, values


def _prob_format(extra: list[str]) -> tuple[list[str], str]:
    """Take ``--format X`` / ``--format=X`` out of the question's options (the last
    one given counts)."""
    rest, values = _take_option(extra, "--format", f"a value ({' | '.join(FORMATS)})")
    for value in values:
        if value not in FORMATS:
            raise UsageError(f"--format {value!r} is not one of: {' | '.join(FORMATS)}")
    return rest, values[-1] if values else "table"


def _question_help(family: str, question) -> None:
    print(f"usage: simkit prob {family} {question.name} [--PARAMETER VALUE ...] "
          f"[--format table|csv|json]"
          + (" [--data DIR]" if hasattr(games.question_module(family), "with_data") else ""))
    print(f"{question.description}")
    if question.deterministic:
        print("a rules table: the answer does not depend on chance (no p, fraction)")
    else:
        print("answer: one row per event, then p (float) and fraction (exact a/b)")
    print("parameters:")
    print(_knob_table(question.params.knobs(), indent="  --"))
    if question.notes:
        print(question.notes)


def _print_answer(family: str, question, params, table: pd.DataFrame, fmt: str) -> None:
    if fmt != "table":
        emit(table, fmt, str)
        return
    print(f"{family} {question.name}: {question.description}")
    print("given " + ", ".join(f"{k}={v}" for k, v in params.to_dict().items()))
    if question.deterministic:
        print("a rules table (deterministic: no chances)")
    with pd.option_context("display.float_format", "{:.6f}".format,
                           "display.max_colwidth", 80, "display.width", 200):
        print(table.to_string(index=False))
    for line in table.attrs.get("summary", ()):
        print(line)
    if question.notes:
        print(question.notes)


def _json_records(table: pd.DataFrame) -> str:
    """Records: ``p`` a float, ``fraction`` the string "a/b" (JSON has no fractions)."""
    out = table.copy()
    if "fraction" in out:
        out["fraction"] = out["fraction"].map(str)
    records = [{k: _native(v) for k, v in row.items()}
               for row in out.to_dict(orient="records")]
    return json.dumps(records, ensure_ascii=False, allow_nan=False)


def _native(value):
    """numpy scalars as Python numbers, a missing value (NaN, NA) as null."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, (str, bool, int, float)):
        return value
    return str(value)


def _list_questions(family: str) -> None:
    print(f"{family}:")
    for q in games.questions(family).values():
        print(f"  {q.name:12} {q.description}")
        print(_knob_table(q.params.knobs(), indent="      --"))


def _option_assignments(extra: list[str], params_cls) -> list[str]:
    """``--name value`` / ``--name=value`` / ``--flag`` options -> ``name=value`` strings."""
    out, i, seen = [], 0, set()
    while i < len(extra):
        token = extra[i]
        if not token.startswith("--"):
            raise UsageError(f"unexpected argument {token!r}; give --name value pairs")
        name, sep, value = token[2:].partition("=")
        name = name.replace("-", "_")
        knob = params_cls.knob(name)
        if name in seen:
            raise UsageError(f"--{token[2:].partition('=')[0]} given more than once; give "
                             "each parameter once")
        seen.add(name)
        if not sep:
            if knob.type is bool and (i + 1 == len(extra) or extra[i + 1].startswith("--")):
                value = "true"
            elif i + 1 < len(extra):
                i += 1
                value = extra[i]
            else:
                raise UsageError(f"--{name.replace('_', '-')} needs a value ({knob.allowed})")
        out.append(f"{name}={value}")
        i += 1
    return out

# -- screen and tune -------------------------------------------------------------------
def _knob_list(text: str | None) -> list[str] | None:
    """--knobs A,B,... (each maybe NAME=LOW..HIGH), each knob named once."""
    if text is None:
        return None
    knobs = [k.strip() for k in text.split(",") if k.strip()]
    names = [k.partition("=")[0].strip() for k in knobs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UsageError(f"--knobs names {', '.join(twice)} more than once; name each knob "
                         "once")
    return knobs


def cmd_screen(args, _extra) -> None:
    from simkit.screen import screen, screen_summary

    game = _game(args)
    rules = _rules(game, args)
    started = time.perf_counter()
    table = screen(game, rules=rules, knobs=_knob_list(args.knobs),
                   policy=_policy(game, args, rules) if args.policy else None,
                   side=args.side, trajectories=args.trajectories, n_games=args.games,
                   seed=args.seed, n_jobs=args.jobs, budget=args.budget, say=say,
                   around_default=args.around_default, method=args.method)
    emit(table, args.format, lambda: screen_summary(game, table) +
         f"\n{table.attrs['points']} points in {time.perf_counter() - started:.1f} s "
         f"(whole command {command_seconds():.1f} s)")


def _trials(args, default: int) -> int:
    return default if args.trials is None else args.trials


def _tune_rules(game, rules, args) -> None:
    from simkit.difficulty import parse_target, rules_summary, tune_rules

    policy = _policy(game, args, rules) if args.policy else None
    if args.knobs is None or args.target is None:
        raise UsageError("tuning rule knobs needs both --knobs A,B,... and --target RATE")
    if args.scan or args.rotate_seats:
        raise UsageError("--scan and --rotate-seats tune a policy (--side); rule knobs "
                         "take --knobs and --target")
    table = tune_rules(game, _knob_list(args.knobs), parse_target(args.target), side=args.side,
                       rules=rules, policy=policy, trials=_trials(args, 60),
                       n_games=args.games, seed=args.seed, n_jobs=args.jobs, out=args.out,
                       budget=args.budget, say=say)
    emit(table, args.format, lambda: rules_summary(game, table))


def _tuned_side(game, rules, args) -> tuple[str, str | None, dict]:
    """The side tuned, its start (a policy text or None) and the others' policies."""
    from simkit.tune import policy_side

    if args.side is None:
        raise UsageError(f"tuning a policy needs --side ({', '.join(game.sides)})")
    policy = _policy(game, args, rules) if args.policy else {}
    if args.rotate_seats:  # the others' policies follow their tribes: name tribes here
        return args.side, None, {}
    seat = policy_side(game, args.side, rules)  # a tribe: the seat it holds
    return args.side, policy.get(seat), {s: n for s, n in policy.items() if s != seat}


def _check_search_folder(out: Path | None, option: str) -> None:
    """A search's --out folder holds its studies: never a file, nor a results or
    experiment folder (its files would be mixed into one that simkit load, report or
    sweep reads)."""
    if out is None:
        return
    from simkit.experiment import EXPERIMENT_FILE
    from simkit.store import MANIFEST

    if out.exists() and not out.is_dir():
        raise UsageError(f"{option} {out} is a file; give a folder for the searches")
    held = [name for name in (MANIFEST, EXPERIMENT_FILE) if (out / name).exists()]
    if held:
        kind = "a results folder" if held[0] == MANIFEST else "an experiment folder"
        raise UsageError(f"{option} {out} is {kind} (it holds {held[0]}); keep the searches "
                         "in a folder of their own")


def cmd_tune(args, _extra) -> None:
    from simkit.tune import scan_policy, scan_summary, summary, tune_policy

    _check_search_folder(args.out, "--out")
    if args.replay and not args.scan:
        raise UsageError(f"--replay {args.replay} plays a scan's gains again: give --scan "
                         "too")
    game = _game(args)
    rules = _rules(game, args)
    started = time.perf_counter()
    if args.knobs is not None or args.target is not None:
        _tune_rules(game, rules, args)
    elif args.scan:
        side, start, others = _tuned_side(game, rules, args)
        table = scan_policy(game, side, start=start, against_=others, rules=rules,
                            n_games=args.games, seed=args.seed, n_jobs=args.jobs,
                            rotate=args.rotate_seats, budget=args.budget, progress=say,
                            replay=args.replay)
        emit(table, args.format, lambda: scan_summary(table, shown=len(table)))
    else:
        side, start, others = _tuned_side(game, rules, args)
        result = tune_policy(game, side, start=start, against_=others, rules=rules,
                             trials=_trials(args, 40), restarts=args.restarts,
                             n_games=args.games, seed=args.seed, n_jobs=args.jobs,
                             sampler=args.sampler, rotate=args.rotate_seats, out=args.out,
                             progress=say, budget=args.budget)
        emit(pd.DataFrame([result.record()]), args.format, lambda: summary(result))
    if args.format == "table":
        print(f"searched in {time.perf_counter() - started:.1f} s, compiles included "
              f"(whole command {command_seconds():.1f} s)"
              f"{'; kept in ' + str(args.out) if args.out else ''}")


def cmd_balance(args, _extra) -> None:
    from simkit.balance import balance, balance_seated, figure

    _check_search_folder(args.out, "--out")
    for option, value in (("--trials", args.trials), ("--restarts", args.restarts),
                          ("--tune-games", args.tune_games)):
        if value is not None and value < 1:  # refused before the cross-table is played
            raise UsageError(f"{option} must be 1 or more, got {value}")
    game = _game(args)
    rules = _rules(game, args)
    if args.policy:
        raise UsageError("balance plays every scripted policy of each side and the best "
                         "responses it finds; it takes no --policy")
    started = time.perf_counter()
    seated = getattr(game, "seated", None) is not None
    sizes = {"rounds": args.rounds, "n_games": args.games, "trials": args.trials,
             "tune_games": args.tune_games}
    sizes = {k: v for k, v in sizes.items() if v is not None}
    play = balance_seated if seated else balance
    result = play(game, rules=rules, restarts=args.restarts, seed=args.seed, n_jobs=args.jobs,
                  out=args.out, progress=say, budget=args.budget, **sizes)
    if seated:
        table = result.rates.assign(scripted=result.scripted["rate"],
                                    policy=pd.Series(result.profile))
    else:
        table = result.table.reset_index()
        if args.out is not None:
            figure(result, Path(args.out) / "balance.png")
    emit(table, args.format, result.text)
    if args.format == "table":
        print(f"balanced in {time.perf_counter() - started:.1f} s on {args.jobs} job(s), "
              f"compiles included (whole command {command_seconds():.1f} s)")


def cmd_playtests(args, _extra) -> None:
    from simkit.playtests import match, summary

    game = games.get(args.game)
    if args.games < 10:
        raise UsageError(f"--games must be 10 or more, got {args.games}")
    table = match(game, args.file, side=args.side, n_games=args.games, seed=args.seed,
                  n_jobs=args.jobs)
    emit(table, args.format, lambda: summary(game, table))


def cmd_study(args, _extra) -> None:
    from simkit.study import study

    game = _game(args)
    rules = _rules(game, args)
    started = time.perf_counter()
    process = time.process_time()
    found = study(game, rules=rules, target=args.target, side=args.side, budget=args.budget,
                  seed=args.seed, n_jobs=args.jobs, out=args.out, say=say)
    from simkit.study_report import answer

    for paragraph in answer(game, found):
        print(textwrap.fill(paragraph, width=100))
    print(f"wrote {args.out / 'study.md'} and {args.out / 'study.html'}; "
          f"{time.perf_counter() - started:.0f} s wall, {time.process_time() - process:.0f} "
          f"s CPU (this process), budget {args.budget:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
