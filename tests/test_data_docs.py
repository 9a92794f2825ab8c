"""docs/data/<game>.md are what docs/data/generate.py writes from the validators, so the
data reference cannot drift from the checks made on load; and every top-level table or
key of each shipped data file is documented. Loads data files only: no game is played."""

import importlib.util
import re
import sys
import tomllib
from pathlib import Path

import pytest

from simkit import games
from simkit.datafile import DataFile, recording

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "data"


def _generator():
    spec = importlib.util.spec_from_file_location("docs_data_generate", DOCS / "generate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    return _generator().render_all()


def test_regenerating_gives_the_committed_files(rendered):
    assert sorted(rendered) == sorted(f"{name}.md" for name in games.names())
    stale = [name for name, text in rendered.items()
             if not (DOCS / name).exists() or (DOCS / name).read_text(encoding="utf-8") != text]
    assert not stale, f"out of date: {stale}; run python docs/data/generate.py"
    assert sorted(p.name for p in DOCS.glob("*.md")) == sorted(rendered)


@pytest.mark.parametrize("name", games.names())
def test_every_top_level_key_of_the_shipped_files_is_documented(rendered, name):
    game = games.get(name)
    text = rendered[f"{name}.md"]
    for file in game.data.names:
        if f"## {file}" not in text:  # a file of a shared folder that this game does not read
            assert re.search(rf"^\| {re.escape(file)} \|.*not read by this game", text, re.M)
            continue
        data = tomllib.loads((game.data.package / file).read_text(encoding="utf-8"))
        section = text.split(f"## {file}", 1)[1].split("\n## ", 1)[0]
        for key in data:
            assert any(f"`{form}`" in section for form in (key, f"[{key}]", f"[[{key}]]")), \
                f"{name}: {file}: top-level {key!r} is not in the doc"


def test_the_docs_cite_nothing_outside_the_repository(rendered):
    for name, text in rendered.items():
        assert not re.search(r"digest", text, re.IGNORECASE), name


def test_the_recorder_records_only_inside_its_block(tmp_path):
    path = tmp_path / "f.toml"
    path.write_text('[[space]]\nid = "12"\nkind = "wall"\n', encoding="utf-8")
    doc = DataFile(path)
    row = doc.tables("space")[0]
    doc.get(row, "id", str, "space '12'")  # outside: nothing to record into
    with recording() as log:
        doc.choice(row, "kind", ("wall", "inner"), "space '12'")
        doc.number(row, "n", "[[space]] #1", 0, 9, default=0)
    assert [(c.entry, c.key, c.choices, c.range, c.optional, c.default) for c in log] == [
        ("[[space]]", "kind", ("wall", "inner"), None, False, None),
        ("[[space]]", "n", None, (0, 9), True, 0)]
