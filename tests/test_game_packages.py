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


def test_the_caveat_on_a_designers_file_names_only_the_reconstructions_still_played(tmp_path):
    """A designer's dice.toml is theirs: the caveat no longer calls the dice faces a
    reconstruction, and still names every other reconstructed file."""
    victus = games.get("victus")
    text = (victus.data.package / "dice.toml").read_text(encoding="utf-8")
    mine = text.replace('"Bombardment 2", "Advance 1", "Advance 2"]',
                        '"Bombardment 2", "Advance 1", "Bombardment 2"]')
    assert mine != text
    (tmp_path / "dice.toml").write_text(mine, encoding="utf-8")
    caveat = victus.with_data(tmp_path).caveat
    assert caveat.startswith(f"these results play your dice.toml (from {tmp_path})")
    assert "dice faces" not in caveat
    for name in set(type(victus).reconstructions) - {"dice.toml"}:
        assert f"({name})" in caveat
    assert set(type(victus).reconstructions) <= set(victus.data.names)


@pytest.mark.parametrize("name", ["victus", "king_in_the_north", "setembre1714", "verrix"])
def test_every_reconstructed_file_named_is_a_file_of_the_game(name):
    game = games.get(name)
    assert type(game).reconstructions
    assert set(type(game).reconstructions) <= set(game.data.names)
