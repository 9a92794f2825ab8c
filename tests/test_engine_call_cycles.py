"""No call cycle among the engines' jitted functions.

numba's disk cache cannot hold one: functions that call each other round a cycle compile
and play in the process that compiled them, then load from the cache broken in the next
process and crash it (a Verrix appraisal calling back into ``card_value`` did: the suite,
compiling once, passed). This reads the sources (no compile): each jitted function's
calls, resolved through the module's imports, and scipy's strongly connected components.
"""

import ast
import functools
from pathlib import Path

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

import simkit

PACKAGE = Path(simkit.__file__).parent
JIT_DECORATORS = {"njit", "jit", "borrowing", "allocating"}


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _jitted(fn: ast.FunctionDef) -> bool:
    for d in fn.decorator_list:
        f = d.func if isinstance(d, ast.Call) else d
        if (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")) in JIT_DECORATORS:
            return True
    return False


def _imports(tree: ast.Module, module: str, package: str, modules: set[str]):
    """(module aliases, imported function names) of a module."""
    aliases, names = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([source] if source else []))
            for a in node.names:
                full = f"{source}.{a.name}"
                if full in modules:
                    aliases[a.asname or a.name] = full
                else:
                    names[a.asname or a.name] = (source, a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                aliases[a.asname or a.name] = a.name
    return aliases, names


@functools.cache  # the sources are read once for both tests
def call_graph() -> dict[tuple[str, str], set[tuple[str, str]]]:
    """Each jitted function (module, name) and the jitted functions it calls."""
    trees = {_module(p): (p, ast.parse(p.read_text(encoding="utf-8")))
             for p in PACKAGE.rglob("*.py")}
    calls = {}
    for module, (path, tree) in trees.items():
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        aliases, names = _imports(tree, module, package, set(trees))
        for fn in tree.body:
            if not (isinstance(fn, ast.FunctionDef) and _jitted(fn)):
                continue
            called = set()
            for node in ast.walk(fn):
                f = node.func if isinstance(node, ast.Call) else None
                if isinstance(f, ast.Name):
                    called.add(names.get(f.id, (module, f.id)))
                elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                        and f.value.id in aliases:
                    called.add((aliases[f.value.id], f.attr))
            calls[(module, fn.name)] = called
    return {fn: called & set(calls) for fn, called in calls.items()}


def cycles(graph) -> list[list]:
    """The strongly connected components with a cycle (several functions, or one that
    calls itself), each sorted."""
    nodes = list(graph)
    at = {v: i for i, v in enumerate(nodes)}
    pairs = np.array([(at[v], at[w]) for v in nodes for w in graph[v]],
                     dtype=np.int64).reshape(-1, 2)
    edges = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])),
                       shape=(len(nodes),) * 2)
    _, labels = connected_components(edges, directed=True, connection="strong")
    members = {}
    for v in nodes:
        members.setdefault(labels[at[v]], []).append(v)
    return [sorted(group) for group in members.values()
            if len(group) > 1 or group[0] in graph[group[0]]]


def test_the_reader_finds_the_engines_and_a_cycle():
    graph = call_graph()
    assert len(graph) > 500
    assert ("simkit.games.verrix.policies", "month_turns_left") in \
        graph[("simkit.games.verrix.appraisal", "learning_worth")]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]] and cycles({"a": {"b"}, "b": set()}) == []


def test_no_jitted_function_calls_round_a_cycle():
    assert cycles(call_graph()) == []
