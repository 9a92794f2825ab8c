"""Golden playthroughs: the narrated trace of a few fixed games of every game, committed
as text under ``tests/playthroughs/<game>/`` and diffed here.

A rules change shows up as a readable diff of these files; speed work proves "same
games" by leaving them untouched. The cases come from each game's declaration alone (the
standard rules and every preset with the default policies, and every other policy of
each side under the standard rules; a seated game's rollout player at its first seat
only), so a new game needs no code here.
``make playthroughs`` (``SIMKIT_REGENERATE_PLAYTHROUGHS=1``) rewrites them on purpose.
"""

import difflib
import os
from pathlib import Path

import pytest

from simkit import games

FOLDER = Path(__file__).parent / "playthroughs"
SEED, GAME_INDEX = 1714, 0
REGENERATE = os.environ.get("SIMKIT_REGENERATE_PLAYTHROUGHS") == "1"


def game_of(name):
    return games.get(name) if name in games.names() else games.get_in_progress(name)


def playthrough_cases():
    out = []
    for name in games.names() + games.in_progress():
        game = game_of(name)
        out.append((name, None, None))
        out += [(name, preset, None) for preset in game.presets]
        for side in game.sides:
            default = next(iter(game.policies[side]))
            out += [(name, None, {side: policy}) for policy in game.policies[side]
                    if policy != default and not other_seats_search(game, side, policy)]
    return out


def other_seats_search(game, side, policy) -> bool:
    """A rollout player (a kernel of its own, seconds a game) of a seated game beyond its
    first seat: every seat plays the same policies, one seat's trace covers it."""
    return ((side, policy) in game.policy_kernels and getattr(game, "seated", None) is not None
            and side != game.sides[0])


def case_id(name, preset, policy) -> str:
    rules = f"preset-{preset}" if preset else "standard-rules"
    who = "default-policy" if policy is None else "-".join(f"{s}={p}" for s, p in
                                                          policy.items())
    return f"{name}/{rules}--{who}"


def playthrough(name, preset, policy) -> str:
    game = game_of(name)
    command = f"simkit trace {name} --seed {SEED} --game-index {GAME_INDEX}"
    if preset:
        command += f" --preset {preset}"
    for side, p in (policy or {}).items():
        command += f" --policy {side}={p}"
    lines = game.trace(preset, policy, GAME_INDEX, SEED)
    return "\n".join([f"# {command}", *lines]) + "\n"


@pytest.mark.parametrize(("name", "preset", "policy"), playthrough_cases(),
                         ids=[case_id(*c) for c in playthrough_cases()])
def test_playthrough_is_unchanged(name, preset, policy):
    path = FOLDER / (case_id(name, preset, policy) + ".txt")
    text = playthrough(name, preset, policy)
    if REGENERATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no golden playthrough {path}: run `make playthroughs`"
    golden = path.read_text(encoding="utf-8")
    if text != golden:
        diff = "".join(list(difflib.unified_diff(
            golden.splitlines(True), text.splitlines(True), str(path), "now"))[:80])
        pytest.fail(f"the game changed; if that is meant, run `make playthroughs` and commit "
                    f"the new traces:\n{diff}")


def test_no_stray_playthroughs():
    """Every committed trace belongs to a current case (a renamed preset leaves none)."""
    expected = {case_id(*c) + ".txt" for c in playthrough_cases()}
    present = {str(p.relative_to(FOLDER)) for p in FOLDER.glob("*/*.txt")}
    assert present <= expected, sorted(present - expected)
