"""Every game package holds the files docs/architecture.md ("One game package") names,
each with what it says it holds: a reader who knows one game finds everything in another."""

import importlib
from pathlib import Path

import pytest

from simkit import games

GAMES = Path(games.__file__).parent
#: the files every game package has (docs/architecture.md, "One game package")
REQUIRED = ("__init__.py", "rules.py", "layout.py", "events.py", "checks.py",
            "components.py", "engine.py", "policies.py", "data/presets.toml")
PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())


def package_of(name: str) -> str:
    return type(games.get(name)).__module__


def test_every_registered_game_is_a_package_here():
    assert sorted({package_of(n).rpartition(".")[2] for n in games.names()}) == PACKAGES


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_has_the_named_files(package):
    missing = [f for f in REQUIRED if not (GAMES / package / f).exists()]
    assert not missing, f"{package} lacks {missing} (docs/architecture.md)"


@pytest.mark.parametrize("package", PACKAGES)
def test_the_named_modules_hold_what_the_contract_says(package):
    layout = importlib.import_module(f"simkit.games.{package}.layout")
    assert hasattr(layout, "OUTCOMES") and hasattr(layout, "INVARIANTS")
    assert hasattr(importlib.import_module(f"simkit.games.{package}.events"), "EVENTS")
    assert hasattr(importlib.import_module(f"simkit.games.{package}.checks"), "check_state")
    rules = importlib.import_module(f"simkit.games.{package}.rules")
    assert hasattr(rules, "Rules")


@pytest.mark.parametrize("package", [p for p in PACKAGES if (GAMES / p / "prob.py").exists()])
def test_a_prob_py_holds_registered_questions(package):
    """A package's exact questions live in its prob.py, and every prob.py is asked."""
    module = importlib.import_module(f"simkit.games.{package}.prob")
    registered = [games.questions(f) for f in games.question_sets()]
    assert any(q is module.QUESTIONS for q in registered), f"{package}/prob.py is never asked"
