"""The reliability campaign's bad-input and data-fault areas, repeatable: counts per area.

Bad input: every rule knob and every policy weight of every engine set out of its range,
unknown knobs, presets, policies and weights, bad game counts, jobs and seeds, and each
long command's bad options, all through ``simkit.cli.main`` in this process. A case
passes when it exits 2 with one stderr line ``simkit: error: ...`` (nothing played).

Data faults: every data file of the four games under five harms, each twice at random
(a number in the data, not in a comment or a text, made -999, 10**12 or a string; a key line
deleted; the file cut in half). A case passes when the game refuses the folder with a
``SimkitError`` (every preset resolved too) or plays 10 games of it without another
exception; a harmed number that plays is listed, since it may be a value no check bounds.

Run: ``python benchmarks/reliability_campaign.py [--area bad-input|data] [--seed 7]``
(a few minutes; the folder faults are tests/test_fuzz.py's).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import re
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import simkit
from simkit import games
from simkit.cli import main as cli
from simkit.errors import SimkitError

NUMBER = re.compile(r"(?<![\w.\"])-?\d+(?![\w.\"])")
STRING = re.compile(r'"[^"]*"')


def refused(argv: list[str]) -> tuple[bool, str]:
    """Whether ``simkit ARGV`` is one clear refusal, and what it said."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = cli(argv)
    except SystemExit as exc:
        code = exc.code
    except Exception as exc:  # noqa: BLE001 - a traceback is what the campaign looks for
        return False, f"traceback {type(exc).__name__}: {exc}"
    lines = [line for line in err.getvalue().strip().splitlines()
             if not line.startswith("simkit: compiling")]
    ok = code == 2 and len(lines) == 1 and lines[0].startswith("simkit: error: ")
    return ok, lines[-1] if lines else f"exit {code}, nothing on stderr"


def out_of_range(knob) -> str:
    if knob.choices is not None:
        return "not_a_choice"
    if knob.type is bool:
        return "maybe"
    high = knob.range[1] if knob.range else None
    return str(high * 10 + 1000) if isinstance(high, (int, float)) else "not_a_number"


def bad_inputs() -> list[tuple[str, list[str]]]:
    cases = []
    for name in games.names():
        game = games.get(name)
        run = ["run", name, "--games", "5"]
        cases += [("unknown names", [*run, "--set", "nosuch=1"]),
                  ("unknown names", [*run, "--preset", "nosuch"]),
                  ("unknown names", [*run, "--policy", "nosuch"]),
                  ("counts", ["run", name, "--games", "0"]),
                  ("counts", ["run", name, "--games", "-3"]),
                  ("counts", [*run, "--jobs", "0"]), ("counts", [*run, "--seed", "-1"])]
        cases += [("a rule knob out of range", [*run, "--set", f"{k.name}={out_of_range(k)}"])
                  for k in game.Rules.knobs()]
        for side, policies in game.policy_weights.items():
            for policy, weights in policies.items():
                cases.append(("unknown names", [*run, "--policy", f"{side}={policy}:nosuch=1"]))
                cases += [("a weight out of range",
                           [*run, "--policy", f"{side}={policy}:{k.name}={out_of_range(k)}"])
                          for k in weights.knobs()]
        cases += [("other commands", argv) for argv in (
            ["compare", name, "--games", "5", "--vs", "--set", "nosuch=1"],
            ["robustness", name, "--games", "0"], ["screen", name, "--knobs", "nosuch"],
            ["tune", name, "--side", "nosuch"], ["balance", name, "--rounds", "0"],
            ["skill", name, "--side", "nosuch"], ["trace", name, "--game-index", "-1"],
            ["calibrate", name, "--knob", "nosuch"], [*run, "--data", "/nonexistent/dir"],
            ["study", name, "--out", "/nonexistent/dir", "--budget", "-1"])]
    cases += [("other commands", argv) for argv in (
        ["run", "nosuch"], ["sweep", "/nonexistent.toml", "--out", "/nonexistent/out"],
        ["report", "/nonexistent"], ["ladder", "/nonexistent"], ["prob", "nosuch"],
        ["prob", "victus", "combat", "--bourbons", "-5"], ["prob", "victus", "nosuch"],
        ["plan", "--effect", "0"], ["plan", "--effect", "abc"],
        ["playtests", "victus", "/nonexistent.csv"])]
    return cases


def harms(text: str, rng: random.Random) -> list[tuple[str, str]]:
    lines = text.split("\n")
    spans, at = [], 0
    for line in lines:  # numbers in the data, not in its comments or its texts
        data = STRING.sub(lambda m: " " * len(m.group()), line).split("#", 1)[0]
        spans += [(at + m.start(), at + m.end()) for m in NUMBER.finditer(data)]
        at += len(line) + 1
    out = []
    for what, new in (("a number made -999", "-999"), ("a number made 10**12", str(10**12)),
                      ("a number made a string", '"x"')):
        if spans:
            a, b = rng.choice(spans)
            out.append((what, text[:a] + new + text[b:]))
    keys = [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith("#")]
    if keys:
        i = rng.choice(keys)
        out.append(("a key line deleted", "\n".join(lines[:i] + lines[i + 1:])))
    out.append(("the file cut in half", text[: len(text) // 2]))
    return out


def data_faults(seed: int) -> tuple[Counter, list[str]]:
    rng, counts, listed = random.Random(seed), Counter(), []
    for name in ("victus", "king_in_the_north", "setembre1714", "verrix"):
        game = games.get(name)
        for path in sorted(Path(game.data.package).glob("*.toml")):
            for _ in range(2):
                for what, text in harms(path.read_text(encoding="utf-8"), rng):
                    folder = Path(tempfile.mkdtemp(prefix="simkit-harm-"))
                    (folder / path.name).write_text(text, encoding="utf-8")
                    try:
                        played = game.with_data(folder)
                        for preset in played.presets:  # a harmed preset is refused too
                            played.resolve_rules(preset)
                        simkit.simulate(played, 10)
                        counts["played"] += 1
                        if "number" in what and "string" not in what:
                            listed.append(f"played: {name} {path.name}, {what}")
                    except SimkitError:
                        counts["refused"] += 1
                    except Exception as exc:  # noqa: BLE001 - the campaign counts these
                        counts["traceback"] += 1
                        listed.append(f"traceback: {name} {path.name}, {what}: "
                                      f"{type(exc).__name__}: {exc}")
                    finally:
                        shutil.rmtree(folder)
    return counts, listed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--area", choices=("bad-input", "data"), action="append")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    areas = args.area or ["bad-input", "data"]
    if "bad-input" in areas:
        cases = bad_inputs()
        totals, passed, failed = Counter(), Counter(), []
        for area, argv in cases:
            ok, said = refused(argv)
            totals[area] += 1
            passed[area] += ok
            if not ok:
                failed.append(f"{area}: simkit {' '.join(argv)} -> {said}")
        print(f"bad input: {len(cases)} cases, {sum(passed.values())} one-line refusals")
        for area in totals:
            print(f"  {area:26} {totals[area]:5} cases, {passed[area]:5} refused in one line")
        print("\n".join(failed))
    if "data" in areas:
        counts, listed = data_faults(args.seed)
        print(f"data faults: {sum(counts.values())} cases, {counts['refused']} refused, "
              f"{counts['played']} played, {counts['traceback']} tracebacks")
        print("\n".join(listed))


if __name__ == "__main__":
    main()
