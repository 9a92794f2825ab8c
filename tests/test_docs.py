"""The README is a front door of at most 250 lines; every relative link of the README and
of docs/ leads to a file of this repository (and, with a #anchor, to one of its
headings); docs/cli.md names every flag of every command; every runnable python block of
docs/python.md runs.

A python block is runnable unless the line just before its fence is ``<!-- not run -->``.
Each runs in a fresh namespace, in a temporary working folder, with the package's engines
(compiled once by ``make install``)."""

import argparse
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MARKDOWN = [README, *sorted(DOCS.rglob("*.md"))]
NOT_RUN = "<!-- not run -->"

FENCE = re.compile(r"^(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"(`+).*?\1")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text: str):
    """(line number, line) outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the text as rendered, lower case, punctuation other
    than - and _ dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    kept = "".join(c for c in text
                   if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def links(path: Path):
    """(line number, target) of every Markdown link and image outside code."""
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        for match in LINK.finditer(INLINE_CODE.sub("", line)):
            yield number, match.group(1)


def test_the_readme_is_at_most_250_lines():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 250, f"README.md has {lines} lines"


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(path):
    broken = []
    for number, target in links(path):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto: ...
            continue
        file, _, anchor = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        where = f"{path.relative_to(ROOT)}:{number}: {target}"
        if not resolved.is_relative_to(ROOT):
            broken.append(f"{where} (outside the repository)")
        elif not resolved.exists():
            broken.append(f"{where} (no such file)")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{where} (no such heading)")
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_docs_refer_to_nothing_outside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"\.\./shared|/work/", text), path


def test_every_page_of_docs_is_reached_from_the_readme():
    reached, todo = set(), [README.resolve()]
    while todo:
        page = todo.pop()
        if page in reached:
            continue
        reached.add(page)
        for _, target in links(page):
            file = target.partition("#")[0]
            resolved = (page.parent / file).resolve()
            if file and resolved.suffix == ".md" and resolved.is_file():
                todo.append(resolved)
    missing = [str(p.relative_to(ROOT)) for p in MARKDOWN if p.resolve() not in reached]
    assert not missing, f"no chain of links from README.md to: {missing}"


def _subcommands():
    from simkit.cli import _build_parser

    parser = _build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


def test_cli_md_names_every_command_and_flag():
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    missing = []
    for name, parser in _subcommands().items():
        heading = f"### simkit {name}\n"
        if heading not in text:
            missing.append(f"section {heading.strip()!r}")
            continue
        section = text.split(heading, 1)[1].split("\n### ", 1)[0]
        for action in parser._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help") and f"`{flag}" not in section:
                    missing.append(f"simkit {name} {flag}")
    assert not missing, f"not in docs/cli.md: {missing}"


def python_blocks():
    text = (DOCS / "python.md").read_text(encoding="utf-8")
    lines = text.split("\n")
    blocks, start, skip = [], None, False
    for number, line in enumerate(lines, 1):
        if start is None and line.strip() == "```python":
            previous = next((p for p in reversed(lines[:number - 1]) if p.strip()), "")
            start, skip = number, previous.strip() == NOT_RUN
        elif start is not None and line.strip() == "```":
            if not skip:
                blocks.append(pytest.param("\n".join(lines[start:number - 1]),
                                           id=f"python.md:{start}"))
            start = None
    return blocks


def test_python_md_has_runnable_blocks():
    assert len(python_blocks()) >= 10


@pytest.mark.parametrize("code", python_blocks())
def test_python_md_block_runs(code, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/python.md", "exec"), {"__name__": "docs_python_md"})
    assert capsys.readouterr().out  # every example prints what it shows
