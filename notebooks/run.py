"""Execute the notebooks top to bottom, or strip their outputs.

    python notebooks/run.py [--games N] [--jobs J] [--results DIR] [--data DIR]
                            [--out DIR] [NOTEBOOK ...]
    python notebooks/run.py --strip [NOTEBOOK ...]

Runs each notebook (default: every ``notebooks/*.ipynb``) in a fresh kernel from the
``notebooks/`` folder and writes the executed copy, outputs included, to ``--out``
(default ``results/notebooks/``); the committed notebooks are left without outputs.
``--games``, ``--jobs``, ``--results`` and ``--data`` set ``SIMKIT_NOTEBOOK_GAMES``,
``SIMKIT_NOTEBOOK_JOBS``, ``SIMKIT_NOTEBOOK_RESULTS`` and ``SIMKIT_NOTEBOOK_DATA`` for
the kernel, which the notebooks' first cell reads (unset there: each notebook's full
size, 2 threads, ``results/`` beside the notebook, the package's data; this script's
own default for the results is the checkout's ``results/notebooks/``). A cell error
stops with exit status 1, naming the notebook and the cell. ``--strip`` removes outputs
and execution counts from the notebooks in place (do it before committing a notebook
saved from Jupyter). ``make notebooks`` runs this at full size; tests/test_notebooks.py
runs ``execute`` at a small size.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbformat.v4 import new_code_cell

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CELL_TIMEOUT = 4 * 3600  # seconds per cell: a full-size sweep of Victus takes long


def notebooks() -> list[Path]:
    return sorted(HERE.glob("*.ipynb"))


def execute(path: Path, out: Path | None = None, timeout: int = CELL_TIMEOUT,
            kernel=None, env: dict[str, str] | None = None):
    """Run the notebook at ``path`` top to bottom in a new kernel started in its folder
    (the kernel inherits this process's environment); write the executed copy to ``out``
    if given and return it. Raises CellExecutionError at the first failing cell.

    With ``kernel`` (a jupyter_client ``AsyncKernelManager``, started by its first
    notebook and shut down by its owner: the tests share one), the notebook runs in that
    kernel after a first cell, left out of the result, that clears its namespace
    (``%reset -f``), moves to the notebook's folder and sets ``env``: the modules an
    earlier notebook imported stay imported, nothing it defined stays defined."""
    nb = nbformat.read(path, as_version=4)
    prelude = None
    if kernel is not None:
        prelude = new_code_cell(PRELUDE.format(env=dict(env or {}), cwd=str(path.parent)))
        nb.cells.insert(0, prelude)
    client = NotebookClient(nb, timeout=timeout, startup_timeout=300, kernel_name="python3",
                            km=kernel, resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    finally:
        if prelude is not None:
            nb.cells.remove(prelude)
            if client.kc is not None:  # a shared kernel's client is this call's to close
                client.kc.stop_channels()
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, out)
    return nb


PRELUDE = """%reset -f
import os as _os
_os.environ.update({env!r})
_os.chdir({cwd!r})
del _os"""


def strip(path: Path) -> bool:
    """Remove outputs and execution counts in place; True if the file changed."""
    nb = nbformat.read(path, as_version=4)
    changed = False
    for cell in nb.cells:
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None):
            cell.outputs, cell.execution_count = [], None
            changed = True
        if cell.metadata.pop("execution", None) is not None:
            changed = True
    if changed:
        nbformat.write(nb, path)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebook", nargs="*", type=Path, help="[every notebooks/*.ipynb]")
    parser.add_argument("--games", type=int, help="games per cell or run "
                        "(SIMKIT_NOTEBOOK_GAMES) [each notebook's full size]")
    parser.add_argument("--jobs", type=int, help="threads (SIMKIT_NOTEBOOK_JOBS) [2]")
    parser.add_argument("--results", type=Path, default=ROOT / "results" / "notebooks",
                        help="results folder for the runs (SIMKIT_NOTEBOOK_RESULTS) "
                        "[results/notebooks]")
    parser.add_argument("--data", type=Path, help="a folder of data files the notebooks "
                        "play instead of the package's (SIMKIT_NOTEBOOK_DATA)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "notebooks",
                        help="folder for the executed copies [results/notebooks]")
    parser.add_argument("--strip", action="store_true", help="strip outputs in place")
    args = parser.parse_args(argv)
    paths = args.notebook or notebooks()
    for path in paths:
        if not path.is_file():
            parser.error(f"no notebook {path}")
    if args.strip:
        for path in paths:
            print(f"{path}: {'stripped' if strip(path) else 'no outputs'}")
        return 0
    if args.games is not None and args.games < 1:
        parser.error(f"--games must be a positive integer, got {args.games}")
    for name, value in (("SIMKIT_NOTEBOOK_GAMES", args.games),
                        ("SIMKIT_NOTEBOOK_JOBS", args.jobs),
                        ("SIMKIT_NOTEBOOK_RESULTS", args.results),
                        ("SIMKIT_NOTEBOOK_DATA", args.data)):
        if value is not None:
            os.environ[name] = str(Path(value).resolve() if isinstance(value, Path)
                                   else value)
    for path in paths:
        started = time.perf_counter()
        out = args.out / path.name
        try:
            execute(path.resolve(), out)
        except CellExecutionError as exc:
            print(f"{path}: a cell failed (executed copy: {out})\n{exc}", file=sys.stderr)
            return 1
        print(f"{path}: ran in {time.perf_counter() - started:.0f} s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
