"""simkit's modules import each other without a cycle, counting the imports inside
functions too (a cycle hidden behind a function-local import is still a cycle: which
module may be imported first then depends on the call)."""

import ast
import graphlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "simkit"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imported(name: str, path: Path) -> set[str]:
    """The simkit modules ``name`` imports anywhere in its file. ``from . import x``
    names the submodule x, not its package (whose ``__init__`` is already running)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] \
                if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            subs = [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in MODULES]
            out |= set(subs) if len(subs) == len(node.names) else {module, *subs}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return {m for m in out if m in MODULES and m != name}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """Each simkit module's imports (parsed when a test asks, not when pytest collects
    this file in every worker)."""
    return {name: imported(name, path) for name, path in MODULES.items()}


def test_no_import_cycle(graph):
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        pytest.fail(f"import cycle: {' -> '.join(exc.args[1])}")


def test_the_cycle_finder_finds_a_cycle(graph):
    cyclic = {**graph, "simkit.sides": graph["simkit.sides"] | {"simkit.runner"}}
    with pytest.raises(graphlib.CycleError):
        graphlib.TopologicalSorter(cyclic).prepare()


def test_side_naming_imports_no_runner_or_experiment(graph):
    assert not graph["simkit.sides"] & {"simkit.runner", "simkit.experiment", "simkit.seats"}
    assert "simkit.sides" in graph["simkit.runner"]
