"""Write docs/data/<game>.md, the reference of every game's data files, from the validators.

For every registered game it copies the game's data folder, loads it the way
``simkit run GAME --data DIR`` does while ``simkit.datafile.recording()`` notes every
typed look-up the loaders make (file, entry, key, kind, allowed values, optional and
default), and reads the loaders' source for the error messages they can raise. No game
is played and nothing is compiled.

    python docs/data/generate.py          # write the files
    python docs/data/generate.py --check  # exit 1 if a committed file differs

tests/test_data_docs.py checks that regenerating gives exactly the committed files.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import re
import shutil
import sys
import tempfile
import textwrap
import tomllib
from collections import defaultdict
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from simkit import games
from simkit.datafile import Check, recording
from simkit.games import base

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TOP = "(the file itself)"

# The loader of presets files (in simkit/games/base.py, not in the game's package).
PRESETS_LOADER = "load_presets"


# -- recording a game's look-ups ------------------------------------------------------------


@dataclass
class Recorded:
    checks: list[Check]
    files: list[str]  # the files recorded, in the data folder's order
    unread: list[str]  # files of the data folder this game does not read


def record(game) -> Recorded:
    """Load a copy of ``game``'s data folder under the recorder (a fresh folder, so no
    loader's cache answers instead of the loader)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name in game.data.names:
            shutil.copyfile(game.data.package / name, folder / name)
        played = type(game)(folder)
        with ExitStack() as stack:
            log = stack.enter_context(recording())
            stack.enter_context(_victus_card_readers(log))
            played.load_data()
    # in the folder's order, not the order first read: a loader's cache warmed by an
    # earlier caller (the tests, in one process) changes which file is read first
    read = {c.file for c in log}
    files = [name for name in game.data.names if name in read]
    unread = [name for name in game.data.names if name not in read]
    return Recorded(log, files, unread)


@contextmanager
def _victus_card_readers(log: list[Check]):
    """Victus's cards.py reads cards.toml with its own small readers (``_get``,
    ``_choice``, ``_count``, ``_signed``, ``_only``, space sets), not DataFile's; while
    recording, each of them also appends a Check, as DataFile's look-ups do."""
    try:
        cards = importlib.import_module("simkit.games.victus.cards")
    except ImportError:
        yield
        return
    names = ("_get", "_choice", "_count", "_signed", "_only")
    if not all(hasattr(cards, n) for n in names) or not hasattr(cards, "_Compiler"):
        yield
        return
    file = getattr(cards, "FILE", "cards.toml")
    originals = {n: getattr(cards, n) for n in names}
    compiler = cards._Compiler
    originals_c = {n: getattr(compiler, n) for n in ("card", "space_set")}
    depth = [0]

    def note(t, key, kind, where, **kw):
        log.append(Check(file, _card_entry(where), key, kind,
                         value=t.get(key) if isinstance(t, dict) and key else None, **kw))

    def wrap(name, describe):
        original = originals[name]
        signature = inspect.signature(original)

        def reader(*args, **kwargs):
            if depth[0] == 0:
                bound = signature.bind(*args, **kwargs)
                bound.apply_defaults()
                describe(**bound.arguments)
            depth[0] += 1
            try:
                return original(*args, **kwargs)
            finally:
                depth[0] -= 1

        return reader

    missing = cards._MISSING

    def get(t, key, kind, default, where):
        note(t, key, kind, where, optional=default is not missing,
             default=None if default is missing else default)

    def choice(t, key, names, where, default):
        note(t, key, str, where, choices=tuple(names), optional=default is not None,
             default=default)

    def count(t, key, lo, hi, where, default):
        note(t, key, int, where, range=(lo, hi), optional=default is not missing,
             default=None if default is missing else default)

    def signed(t, key, hi, where):
        note(t, key, int, where, range=(-hi, hi, "not 0"))

    def only(t, allowed, where):
        note(t, None, None, where, choices=tuple(sorted(allowed)))

    def card(self, number, e, *args):
        note(e, None, None, "", choices=tuple(sorted(cards.CARD_KEYS)))
        return originals_c["card"](self, number, e, *args)

    def space_set(self, op, key, w, kinds):
        if depth[0] == 0:
            note(op, key, "spaces", w, choices=None if kinds is None else tuple(kinds))
        return originals_c["space_set"](self, op, key, w, kinds)

    for name, describe in (("_get", get), ("_choice", choice), ("_count", count),
                           ("_signed", signed), ("_only", only)):
        setattr(cards, name, wrap(name, describe))
    compiler.card, compiler.space_set = card, space_set
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(cards, name, original)
        for name, original in originals_c.items():
            setattr(compiler, name, original)


def _card_entry(where: str) -> str:
    """A Victus card reader's ``where`` as one entry: "" is the card, "effect op #2
    (place)" and "... then op #1 (marker)" an op of any list, "... cond" a condition."""
    if not where:
        return "[[card]]"
    if where.startswith("modifiers"):
        return "[[card]] modifiers"
    last = where.rsplit(" op #", 1)[-1]
    if last.endswith("cond"):
        return '[[card]] op { op = "if" } cond'
    return "[[card]] op"


# -- rows of the field tables ------------------------------------------------------------------


@dataclass
class Row:
    key: str
    kind: object
    item: object = None
    range: tuple | None = None
    choices: tuple | None = None
    optional: bool = False
    default: object = None
    count: int = 0  # look-ups made (the most of any one kind of look-up of this key)
    conditional: bool = False

    def signature(self, describe) -> tuple:
        return (describe.kind(self), describe.allowed(self), describe.required(self))


@dataclass
class Entry:
    name: str
    rows: dict[str, Row] = field(default_factory=dict)
    occurrences: int = 0  # how many times the entry was checked (its only() look-ups)
    closed: tuple | None = None  # the keys only() allows, when it is called
    names: list[str] = field(default_factory=list)  # entries collapsed into this one
    base: str | None = None  # for a form `E { key = "value" }`: E
    discriminator: str | None = None  # and key
    rank: int = 0  # the value's place among the values allowed


def entries_of(checks: list[Check]) -> dict[str, dict[str, Entry]]:
    """file -> entry name -> Entry, in the order first checked. A ``choice`` followed at
    once by ``only`` on the same entry (an op's name, an objective's kind) chooses the
    keys that follow: each value gets its own entry, ``E { key = "value" }``."""
    def chooser(i: int) -> Check | None:
        """The choice just before the only() at ``i``, if any."""
        c, prev = checks[i], checks[i - 1] if i else None
        if c.key is None and prev is not None and prev.file == c.file \
                and prev.entry == c.entry and prev.choices and prev.key is not None \
                and isinstance(prev.value, str) and not prev.top:
            return prev
        return None

    # a choice is a discriminator where the keys allowed after it differ with its value
    allowed_after: dict[tuple, set[tuple]] = defaultdict(set)
    for i, c in enumerate(checks):
        prev = chooser(i)
        if prev is not None:
            allowed_after[(c.file, c.entry, prev.key)].add(c.choices)
    discriminators = {k for k, sets in allowed_after.items() if len(sets) > 1}

    opening = {i - 1 for i in range(len(checks)) if chooser(i) is not None
               and (checks[i].file, checks[i].entry, checks[i - 1].key) in discriminators}
    files: dict[str, dict[str, Entry]] = defaultdict(dict)
    current: dict[tuple[str, str], str] = {}  # (file, entry) -> the sub-entry open
    counts: dict[tuple[str, str, str, tuple], int] = defaultdict(int)
    for i, c in enumerate(checks):
        base_entry = TOP if c.top else c.entry
        name = current.get((c.file, base_entry), base_entry)
        if i in opening:  # the choice itself: a row of the base entry, naming every value
            name = base_entry
        elif i - 1 in opening:
            prev = checks[i - 1]
            name = f'{base_entry} {{ {prev.key} = "{prev.value}" }}'
            current[(c.file, base_entry)] = name
            if name not in files[c.file]:
                files[c.file].setdefault(base_entry, Entry(base_entry))
                files[c.file][name] = Entry(name, base=base_entry, discriminator=prev.key,
                                            rank=prev.choices.index(prev.value))
        entry = files[c.file].setdefault(name, Entry(name))
        if c.key is None:
            entry.occurrences += 1
            entry.closed = tuple(sorted(set(entry.closed or ()) | set(c.choices)))
            continue
        if c.top and c.entry == f"[[{c.key}]]":
            key, item = f"[[{c.key}]]", dict
        elif c.top and c.kind is dict:
            key, item = f"[{c.key}]", c.item
        else:
            key, item = c.key, c.item
        row = entry.rows.get(key)
        if row is None:
            row = entry.rows[key] = Row(key, c.kind, item, c.range, c.choices, c.optional,
                                        c.default)
        else:
            row.kind = row.kind or c.kind
            row.item = row.item or item
            row.range = row.range or c.range
            row.choices = row.choices or c.choices
            row.optional = row.optional and c.optional
        variant = (c.file, name, key, (c.kind, c.range, c.choices, c.optional))
        counts[variant] += 1
        row.count = max(row.count, counts[variant])
    out = {}
    for file, entries in files.items():
        for entry in entries.values():
            n = entry.occurrences or max((r.count for r in entry.rows.values()), default=0)
            for row in entry.rows.values():
                row.conditional = not row.optional and row.count < n
            for key in entry.closed or ():
                if key != entry.discriminator and key not in entry.rows \
                        and f"[{key}]" not in entry.rows and f"[[{key}]]" not in entry.rows:
                    entry.rows[key] = Row(key, None)
        # each entry followed by its forms, in the order of the values that choose them
        ordered: dict[str, Entry] = {}
        for entry in entries.values():
            if entry.base is None:
                ordered[entry.name] = entry
                forms = [e for e in entries.values() if e.base == entry.name]
                for form in sorted(forms, key=lambda e: e.rank):
                    ordered[form.name] = form
        out[file] = ordered
    return out


# -- words for kinds, values and defaults ---------------------------------------------------------

KIND_WORDS = {str: "text", int: "whole number", float: "number", bool: "true or false",
              dict: "table", list: "list"}
ITEM_WORDS = {str: "list of text", int: "list of whole numbers", float: "list of numbers",
              bool: "list of true/false", dict: "list of tables", list: "list of lists"}


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }" \
            if v else "{}"
    return str(v)


class Describe:
    """Cells of a field table in a designer's words."""

    def __init__(self, sources: dict[tuple[str, str, str], list[str]], file: str):
        self.sources = sources  # (file, entry, key) -> the text values the files hold
        self.file = file

    def kind(self, row: Row) -> str:
        if row.kind is None:
            return "(see the checks below)"
        if row.kind == "spaces":
            return "a space, or a list of spaces"
        if row.kind is list:
            return ITEM_WORDS.get(row.item, "list")
        return KIND_WORDS.get(row.kind, str(row.kind))

    def allowed(self, row: Row) -> str:
        if row.kind == "spaces":
            words = "/".join(row.choices) if row.choices else "any"
            return f"board ids and set words (see below); {words} spaces"
        if row.range is not None:
            lo, hi, *rest = row.range
            text = f"exactly {lo}" if lo == hi else f"{lo}..{hi}"
            return text + (f", {rest[0]}" if rest else "")
        if row.choices:
            return self.choices(row.choices)
        return ""

    def choices(self, choices: tuple) -> str:
        if len(choices) > 12:
            source = self.source_of(choices)
            if source is not None:
                (file, entry, key), rest = source
                where = "this file" if file == self.file else file
                text = f"the `{key}` of a `{entry}` ({where})"
                if rest:
                    text += ", or " + ", ".join(f"`{c}`" for c in rest)
                return text
        return ", ".join(f"`{c}`" for c in choices)

    def source_of(self, choices: tuple):
        """The (file, entry, key) whose values are (nearly all) ``choices``: a choice of
        a location id or a leader's name."""
        best = None
        allowed = set(choices)
        for where, values in self.sources.items():
            found = set(values)
            if len(found) >= 5 and found <= allowed and len(found) >= 0.8 * len(allowed):
                if best is None or len(found) > len(set(self.sources[best])):
                    best = where
        if best is None:
            return None
        found = set(self.sources[best])
        return best, [c for c in choices if c not in found]

    def required(self, row: Row) -> str:
        if row.kind is None:
            return ""
        if row.optional and row.default is None and (row.range or row.choices) \
                and row.kind != "spaces":
            return "required"  # leaving it out gives None, which no range or name allows
        if row.optional:
            if row.default is None:
                return "optional"
            return f"optional (default `{toml_value(row.default)}`)"
        if row.conditional:
            return "where it applies"
        return "required"


# -- the error messages of the loaders' source --------------------------------------------------


def _message_modules(game) -> list[Path]:
    """The game's loader modules: the .py files of its package that read data files."""
    package = Path(game.data.package).parent
    found = []
    for path in sorted(package.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "DataFile(" in text or "raise ComponentError" in text:
            found.append(path)
    return found


def _module_name(path: Path) -> str:
    rel = path.resolve().relative_to(ROOT).with_suffix("")
    return ".".join(rel.parts)


class Messages:
    """The distinct messages of ``<doc>.error(entry, problem)``, ``ComponentError(...)``
    and exception classes of the module carried into one, per data file, read from a
    loader module's source. A function's file: the .toml name its caller hands it (or
    the one it opens itself); a function handed none serves the files of its callers."""

    def __init__(self, path: Path, files: list[str], seeds: dict[str, set[str]] | None = None):
        self.path = path
        self.module = importlib.import_module(_module_name(path))
        self.env = vars(self.module)
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.files = files
        self.units: dict[str, ast.AST] = {}
        self.classes: dict[str, list[str]] = {}
        for node in self.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.units[node.name] = node
            elif isinstance(node, ast.ClassDef):
                self.classes[node.name] = []
                for sub in node.body:
                    if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self.units[f"{node.name}.{sub.name}"] = sub
                        self.classes[node.name].append(f"{node.name}.{sub.name}")
        self.exceptions = {node.name for node in self.tree.body
                           if isinstance(node, ast.ClassDef)
                           and any(isinstance(b, ast.Name) and b.id.endswith(("Exception",
                                                                               "Error"))
                                   for b in node.bases)}
        self.unit_files = self._files(seeds or {})

    # which file each function serves
    def _file_in(self, node) -> str | None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str) \
                    and sub.value in self.files:
                return sub.value
            if isinstance(sub, ast.Name) and isinstance(self.env.get(sub.id), str) \
                    and self.env[sub.id] in self.files:
                return self.env[sub.id]
        return None

    def _callee(self, unit: str, call: ast.Call) -> list[str]:
        f = call.func
        cls = unit.split(".")[0] if "." in unit else None
        if isinstance(f, ast.Name):
            if f.id in self.units:
                return [f.id]
            if f.id in self.classes:
                return self.classes[f.id]
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                and f.value.id == "self" and cls and f"{cls}.{f.attr}" in self.units:
            return [f"{cls}.{f.attr}"]
        return []

    def _files(self, seeds: dict[str, set[str]]) -> dict[str, set[str]]:
        own: dict[str, set[str]] = defaultdict(set)
        for name, files in seeds.items():
            own[name] |= files
        callers: dict[str, set[str]] = defaultdict(set)
        for unit, node in self.units.items():
            handed = set()
            for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
                for callee in self._callee(unit, call):
                    callers[callee].add(unit)
                    file = self._file_in(ast.Module(body=[ast.Expr(a) for a in call.args]
                                                    + [ast.Expr(k.value)
                                                       for k in call.keywords],
                                                    type_ignores=[]))
                    if file is not None:
                        own[callee].add(file)
                        handed.add(id(call))
            for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
                if isinstance(call.func, ast.Name) and call.func.id == "DataFile":
                    file = self._file_in(call)
                    if file is not None and not any(
                            id(c) in handed and call in ast.walk(c)
                            for c in ast.walk(node) if isinstance(c, ast.Call)):
                        own[unit].add(file)
            # a class's methods serve whoever uses the class (methods run by getattr), a
            # function handed on as a value whoever hands it on
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and sub.id in self.classes:
                    for method in self.classes[sub.id]:
                        callers[method].add(unit)
                elif isinstance(sub, ast.Name) and sub.id in self.units:
                    callers[sub.id].add(unit)
        result = {unit: set(own.get(unit, ())) for unit in self.units}
        changed = True
        while changed:
            changed = False
            for unit in self.units:
                if own.get(unit):
                    continue
                inherited = set().union(*(result.get(c, set()) for c in callers[unit]))
                if not inherited <= result[unit]:
                    result[unit] |= inherited
                    changed = True
        return result

    # the messages
    def per_file(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for unit, node in self.units.items():
            if self._is_wrapper(node):
                continue
            local = _local_names(node)
            assignments = [(target.id, sub.lineno, sub.value) for sub in ast.walk(node)
                           if isinstance(sub, ast.Assign) for target in sub.targets
                           if isinstance(target, ast.Name)]
            calls = sorted((n for n in ast.walk(node) if isinstance(n, ast.Call)),
                           key=lambda n: (n.lineno, n.col_offset))
            for call in calls:
                found = self._message(call, local, assignments)
                if found is None:
                    continue
                receiver_file, text = found
                targets = [receiver_file] if receiver_file else sorted(self.unit_files[unit])
                for file in targets:
                    if text not in out[file]:
                        out[file].append(text)
        return out

    @staticmethod
    def _is_wrapper(node) -> bool:
        """``error``/``fail``: they build the ComponentError every other call words."""
        return any(isinstance(s, ast.Return) and isinstance(s.value, ast.Call)
                   and isinstance(s.value.func, ast.Name)
                   and s.value.func.id == "ComponentError" for s in ast.walk(node))

    def _message(self, call: ast.Call, local: set[str], assignments):
        f = call.func
        receiver_file = None
        if isinstance(f, ast.Attribute) and f.attr in ("error", "fail") \
                and len(call.args) == 2:
            if isinstance(f.value, ast.Call):
                receiver_file = self._file_in(f.value)
            entry, problem = call.args
        elif isinstance(f, ast.Name) and (f.id == "ComponentError" or f.id in self.exceptions) \
                and len(call.args) == 1:
            entry, problem = None, call.args[0]
        else:
            return None
        text = render(problem, self.env, local)
        if text is None or len(re.findall(r"[A-Za-z]{2,}", text.replace("{...}", ""))) < 2:
            return None  # a message carried from elsewhere, or one with no words
        text = re.sub(r"^\{\.\.\.\}(?:: |(?=[a-z]))", "", text)  # a reader's where
        where = self._entry(entry, call, local, assignments) if entry is not None else None
        if where and where.strip("{}. #") and where not in ("file", "the file"):
            text = f"{where}: {text}"
        return receiver_file, text

    def _entry(self, node, call: ast.Call, local: set[str], assignments) -> str | None:
        """The entry a message names, as written: a name bound to an entry just before
        the call is read as that entry."""
        if isinstance(node, ast.Name):
            before = [(line, value) for name, line, value in assignments
                      if name == node.id and line <= call.lineno]
            if not before:
                return None
            node = max(before, key=lambda item: item[0])[1]
        return render(node, self.env, local)


def _local_names(node) -> set[str]:
    names = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.arg):
            names.add(sub.arg)
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            names.add(sub.id)
    return names


def render(node, env: dict, local: set[str]) -> str | None:
    """A message as a reader sees it: constants as they are, a placeholder that only
    names the module's constants as its value, any other placeholder as ``{...}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                parts.append(_placeholder(value, env, local))
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = render(node.left, env, local), render(node.right, env, local)
        if left is not None and right is not None:
            return left + right
    return None


def _placeholder(value: ast.FormattedValue, env: dict, local: set[str]) -> str:
    names = {n.id for n in ast.walk(value.value) if isinstance(n, ast.Name)}
    if names and all(n not in local and (n in env or hasattr(builtins, n)) for n in names):
        try:
            result = eval(compile(ast.Expression(value.value), "<message>", "eval"),
                          dict(env))
        except Exception:  # noqa: BLE001 - a placeholder we cannot work out stays {...}
            return "{...}"
        if value.conversion == ord("r"):
            result = repr(result)
        spec = render(value.format_spec, env, local) if value.format_spec else ""
        return format(result, spec or "")
    return "{...}"


def datafile_messages() -> list[str]:
    """The problems every typed look-up reports (simkit/datafile.py)."""
    path = ROOT / "simkit" / "datafile.py"
    module = importlib.import_module("simkit.datafile")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "DataFile":
            for method in node.body:
                if not isinstance(method, ast.FunctionDef) or method.name == "error":
                    continue
                local = _local_names(method)
                for call in (n for n in ast.walk(method) if isinstance(n, ast.Call)):
                    f = call.func
                    if isinstance(f, ast.Attribute) and f.attr == "error" \
                            and len(call.args) == 2:
                        text = render(call.args[1], vars(module), local)
                    elif isinstance(f, ast.Name) and f.id == "ComponentError":
                        text = render(call.args[0], vars(module), local)
                        text = text and re.sub(r"^\{\.\.\.\}: ", "", text)
                    else:
                        continue
                    if text and text not in out:
                        out.append(text)
    return out


def messages_for(game, files: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    seeds = {PRESETS_LOADER: {game.presets_file}}
    sources = [(Path(base.__file__), seeds)]
    sources += [(path, None) for path in _message_modules(game)]
    for path, unit_seeds in sources:
        per_file = Messages(path, files, unit_seeds).per_file()
        if path == Path(base.__file__):
            per_file = {game.presets_file: per_file.get(game.presets_file, [])}
        for file, texts in per_file.items():
            for text in texts:
                if text not in out[file]:
                    out[file].append(text)
    return out


# -- the header comment of a data file ------------------------------------------------------


def header(path: Path) -> list[str]:
    """The file's opening comment block, without its closing separator lines."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:][1:] if line.startswith("# ") else line[1:])
    while lines and (not lines[-1].strip() or re.match(r"^\s*[-=]{3,}", lines[-1])):
        lines.pop()
    return lines


def scrub(text: str) -> str:
    """The header rewrapped; the docs cite only the rulebook, never notes outside the
    repository, so a header that mentions a digest stops the generator."""
    text = "\n".join(_wrap(line) for line in text.split("\n"))
    if re.search("digest", text, re.IGNORECASE):
        bad = next(line for line in text.splitlines() if re.search("digest", line, re.I))
        raise SystemExit(f"generate.py: a data file's header mentions a digest: {bad}")
    return text


def summary(lines: list[str], title: str) -> str:
    """What a file holds: the first sentence of its header, without the game's name."""
    paragraph = []
    for line in lines:
        if not line.strip() or re.match(r"\s*(THIS IS|A RECONSTRUCTION|RECONSTRUCTION|NOT a|"
                                         r"PARTLY|MOSTLY|Not a)", line):
            break
        paragraph.append(line.strip())
    text = " ".join(paragraph)
    if " -- " in text:
        text = text.split(" -- ", 1)[1]
    elif text.startswith(title.split(":")[0] + ": "):
        text = text.split(": ", 1)[1]
    text = re.split(r"(?<=\.)\s", text, maxsplit=1)[0]
    return scrub(text[:1].upper() + text[1:])


def _wrap(line: str, width: int = 90) -> str:
    """A line a replacement made too long, wrapped at its own indentation."""
    if len(line) <= width:
        return line
    m = re.match(r"^(\s*)(- )?", line)
    first = m.group(1)
    rest = first + ("  " if m.group(2) else "")
    return textwrap.fill(line[len(first):], width=width, initial_indent=first,
                         subsequent_indent=rest, break_long_words=False,
                         break_on_hyphens=False)


def status(lines: list[str]) -> str:
    """Printed or reconstructed, in the header's own words."""
    text = " ".join(lines).lower()
    if "partly a reconstruction" in text:
        return "partly reconstructed: the header says which values are printed"
    if "mostly given" in text:
        return "mostly printed: the header says what is reconstructed"
    if re.search(r"not (a )?reconstructions?\b", text):
        return "printed: the rulebook's own values"
    if "reconstruction" in text:
        return "reconstructed: the rulebook does not print it"
    if text.startswith("presets"):
        return "presets: rule settings, no components"
    return "see the header"


# -- the Victus card language (cards.py's own description) --------------------------------------

CARD_LANGUAGE_SECTIONS = ("Space sets", "Operations", "Modifiers (leaders)")


def card_language(module) -> str:
    """The effect language's sections of the card loader's docstring (space sets,
    operations, modifiers) in Markdown."""
    doc = inspect.getdoc(module) or ""
    sections: dict[str, list[str]] = {}
    lines = doc.splitlines()
    title = None
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and re.fullmatch(r"=+", lines[i + 1]) and line.strip():
            title = line.strip()
            sections[title] = []
            continue
        if re.fullmatch(r"=+", line):
            continue
        if title:
            sections[title].append(line)
    out = []
    for name in CARD_LANGUAGE_SECTIONS:
        if name not in sections:
            continue
        body = "\n".join(sections[name]).strip("\n")
        body = re.sub(r" ?\(``card_layout\.\w+\*?``\)", "", body)
        body = re.sub(r" Sets are expanded once into ``space_sets``\.", "", body)
        out.append(f"#### {name}\n\n```text\n{body.replace('``', '')}\n```\n")
    return "\n".join(out)


# -- Markdown ----------------------------------------------------------------------------------


def table(head: list[str], rows: list[list[str]]) -> str:
    """A Markdown table (tabulate is not installed, so pandas' to_markdown is not used)."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def code(name: str) -> str:
    return f"`{name}`"


def field_rows(entries: dict[str, Entry], describe: Describe) -> tuple[list[list[str]], list]:
    """The field table of one file: entries with the same keys collapse into one, and
    neighbouring keys of one entry with the same description share a row."""
    groups: dict[tuple, Entry] = {}
    for entry in entries.values():
        signature = tuple((r.key, r.signature(describe)) for r in entry.rows.values())
        key = (TOP,) if entry.name == TOP else (entry.base, signature)
        if key in groups:
            groups[key].names.append(entry.name)
        else:
            entry.names = [entry.name]
            groups[key] = entry
    rows, closed = [], []
    for entry in groups.values():
        names = entry.names
        label = TOP if names == [TOP] else ", ".join(code(n) for n in names)
        if len(names) > 1:
            label = "each of " + label
        if entry.closed:
            if entry.base is None:
                closed.append(label)
            elif f"every `{entry.base} {{ {entry.discriminator} = ... }}`" not in closed:
                closed.append(f"every `{entry.base} {{ {entry.discriminator} = ... }}`")
        merged: list[tuple[list[str], tuple]] = []
        for row in entry.rows.values():
            sig = row.signature(describe)
            if merged and merged[-1][1] == sig and row.kind is not None:
                merged[-1][0].append(row.key)
            else:
                merged.append(([row.key], sig))
        if not merged:
            rows.append([label, "", "(no other key)", "", ""])
        for k, (keys, (kind, allowed, required)) in enumerate(merged):
            rows.append([label if k == 0 else "", ", ".join(code(x) for x in keys), kind,
                         allowed, required])
    return rows, closed


def render_game(game, rec: Recorded, shared: dict[str, list[str]]) -> str:
    folder = Path(game.data.package)
    entries = entries_of(rec.checks)
    sources: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for c in rec.checks:
        if c.kind is str and isinstance(c.value, str) and c.key and not c.choices:
            sources[(c.file, c.entry, c.key)].append(c.value)
    msgs = messages_for(game, rec.files)
    rel = folder.relative_to(ROOT)
    headers = {name: header(folder / name) for name in game.data.names}
    out = []
    out.append(f"# Data files: {scrub(game.title)}\n\n")
    out.append(
        f"This page is written by `docs/data/generate.py` from the loaders that check the "
        f"files; do not edit it by hand.\n\n"
        f"The game's components are TOML files in `{rel}/`. "
        f"`simkit data {game.name}` lists them; `simkit data {game.name} --export DIR` "
        f"writes a copy of every file into DIR, to edit; `simkit run {game.name} --data DIR` "
        f"(and `sweep`, `trace`, `skill`, `calibrate`, `robustness`) plays the files DIR holds "
        f"and the package's own for the others. DIR may hold any of the files and no other. "
        f"Every file is checked when it is loaded: a broken one stops the command with one "
        f"line naming the file, the entry and the problem.\n\n")
    rows = []
    for name in game.data.names:
        first = summary(headers[name], game.title)
        if name in rec.unread:
            what = "not read by this game (" + (", ".join(
                f"`{g}`" for g in shared.get(name, [])) or "no other game") + " plays it)"
        else:
            what = status(headers[name])
        rows.append([f"[{name}](#{_anchor(name)})" if name not in rec.unread else name,
                     first, what])
    out.append(table(["File", "What it holds", "Printed or reconstructed"], rows))
    forms = [e for file in rec.files for e in entries.get(file, {}).values() if e.base]
    form = (f" An entry such as `{forms[0].name}` is the form a table takes for that value "
            f"of its key `{forms[0].discriminator}`: each value allows its own keys."
            if forms else "")
    out.append(
        "\nHow to read the field tables: `[name]` is a table of that name; `[[name]]` is one "
        "of a list of tables (one row stands for all of them: every space, card or block). "
        f"The entry {TOP} holds the keys at the top of the file.{form} \"Where it applies\" "
        "marks a key that only some entries need (the header says which); an entry named "
        "\"each of\" stands for several tables with the same keys. What a value must also "
        "agree with (counts, names of other entries, the rulebook's facts) is under "
        "[Checks made on load](#checks-made-on-load).\n")
    for name in rec.files:
        out.append(f"\n## {name}\n\n")
        out.append(f"{status(headers[name]).capitalize()}.\n")
        if headers[name]:
            out.append("\nThe file's header:\n\n```text\n" + scrub("\n".join(headers[name]))
                       + "\n```\n")
        data = tomllib.loads((folder / name).read_text(encoding="utf-8"))
        describe = Describe(sources, name)
        rows, closed = field_rows(entries.get(name, {}), describe)
        out.append("\n" + table(["Entry", "Key", "Type", "Allowed", "Required"], rows))
        if closed:
            out.append(f"\nAny other key is refused in: {', '.join(closed)}.\n")
        read = entries.get(name, {})
        by_hand = [key for key, value in data.items() if isinstance(value, dict)
                   and name != game.presets_file
                   and not any(n == f"[{key}]" or n.startswith((f"[{key}.", f"{key}."))
                               for n in read)]
        for key in by_hand:
            shipped = ", ".join(f"`{k}`" for k in data[key])
            out.append(f"\n`[{key}]`: the loader reads its keys one by one (what it "
                       f"allows is under the checks below); the shipped file has "
                       f"{shipped}.\n")
        if name == game.presets_file:
            out.append(
                f"\nEach preset is a table named after it; `rules` sets rule knobs by name "
                f"(`simkit games {game.name}` lists every knob, its range and default), and "
                f"knobs left out keep their standard values. The shipped presets: "
                f"{', '.join(code(k) for k in data)}.\n")
        if name == getattr(_victus_cards(), "FILE", None) and game.name == "victus":
            out.append("\n### The effect language\n\nAs the card loader describes it:\n\n"
                       + card_language(_victus_cards()))
    out.append("\n## Checks made on load\n")
    out.append(
        "\nEvery look-up in the tables above refuses a missing key, a value of the wrong "
        "type, a number out of range and a name not allowed; its message is one of:\n\n"
        + "".join(f"- {scrub(t)}\n" for t in datafile_messages())
        + "\nBeyond these, the loaders check what follows (`{...}` stands for the value, "
          "the entry or the count found), file by file:\n")
    for name in rec.files:
        out.append(f"\n### {name}\n\n")
        texts = msgs.get(name, [])
        out.append("".join(f"- {scrub(t)}\n" for t in texts) if texts else
                   "- (nothing beyond the look-ups)\n")
    return "".join(out)


def _victus_cards():
    try:
        return importlib.import_module("simkit.games.victus.cards")
    except ImportError:
        return None


def _anchor(name: str) -> str:
    return re.sub(r"[^a-z0-9_ -]", "", name.lower()).replace(" ", "-")


def render_all() -> dict[str, str]:
    """docs/data file name -> its text, for every registered game."""
    names = games.names()
    readers: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    recorded = {}
    for name in names:
        game = games.get(name)
        recorded[name] = record(game)
        for file in recorded[name].files:
            readers[str(game.data.package)][file].append(name)
    out = {}
    for name in names:
        game = games.get(name)
        shared = readers[str(game.data.package)]
        out[f"{name}.md"] = render_game(game, recorded[name], shared)
    return out


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for file, text in render_all().items():
        path = HERE / file
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(file)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)} ({len(text.encode())} bytes)")
    if stale:
        print(f"out of date: {', '.join(stale)}; run python docs/data/generate.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
