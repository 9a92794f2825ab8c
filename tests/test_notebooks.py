"""The notebooks run top to bottom at a small size (nbclient, notebooks/run.py), and are
committed without outputs."""

import importlib.util
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output

ROOT = Path(__file__).parents[1]
NOTEBOOKS = ROOT / "notebooks"
# games per cell (or per run) for the test: small, yet every section has something to show
# (01: 50 games x 50 cells, plus 8 x 3 x 50 games for the replicate demonstration and
# 4 Morris walks x 13 points x 50 games for the screening)
SIZES = {"01_victus_difficulty": 50, "02_rules_probability": 3000,
         "03_setembre1714_assault": 200, "04_king_in_the_north": 50, "05_verrix": 50}
# figures each notebook must draw (at least)
FIGURES = {"01_victus_difficulty": 10, "02_rules_probability": 0, "03_setembre1714_assault": 3,
           "04_king_in_the_north": 3, "05_verrix": 2}
# what its outputs must say (the caveat, the verdict, the calibration)
SAYS = {"01_victus_difficulty": ["are reconstructions", "Easiest:", "times** as wide",
                                 "Morris screening of", "Ranked first:",
                                 "for `greedy` on the same games: a gap of"],
        "02_rules_probability": ["inside the family-wise 99% intervals", "setembre1714"],
        "03_setembre1714_assault": ["no reconstructed component", "favour the bourbons",
                                    "bracket: attacker_lead="],
        "04_king_in_the_north": ["are reconstructions", "favour the carlists",
                                 "share of all games by end reason",
                                 "games per pairing, seed 0", "Mean uses per campaign",
                                 "under the best play found"],
        "05_verrix": ["reconstruction", "Weakest tribe:", "when it plays first"]}
CELL_TIMEOUT = 1800  # a cold numba cache compiles Victus inside the kernel (minutes)


def _runner():
    spec = importlib.util.spec_from_file_location("notebook_runner", NOTEBOOKS / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


runner = _runner()


def _text(nb) -> str:
    parts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            data = output.get("data", {})
            parts += [data.get("text/markdown", ""), data.get("text/plain", "")]
    return "\n".join(parts)


def test_every_notebook_has_a_test_size():
    assert sorted(p.stem for p in runner.notebooks()) == sorted(SIZES)


@pytest.mark.parametrize("name", sorted(SIZES))
def test_committed_notebooks_have_no_outputs(name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    nbformat.validate(nb)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code
    for cell in code:
        assert cell.outputs == [] and cell.execution_count is None, (
            f"{name}: strip the outputs (python notebooks/run.py --strip) before committing")


@pytest.mark.parametrize("name", sorted(SIZES))
def test_the_first_code_cell_is_the_parameters(name):
    """One place to change a notebook's size, cores, results and data folder: the first
    code cell (tagged ``parameters``), and no later cell reads the environment."""
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    first, *later = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert first.source.startswith("# Parameters:") and "parameters" in first.metadata.get(
        "tags", [])
    for variable in ("SIMKIT_NOTEBOOK_GAMES", "SIMKIT_NOTEBOOK_JOBS"):
        assert variable in first.source
    assert not [cell for cell in later if "os.environ" in cell.source]


def test_strip_removes_outputs(tmp_path):
    nb = new_notebook(cells=[new_code_cell("1 + 1", execution_count=3, outputs=[
        new_output("execute_result", data={"text/plain": "2"}, execution_count=3)])])
    path = tmp_path / "x.ipynb"
    nbformat.write(nb, path)
    assert runner.strip(path) is True
    cell = nbformat.read(path, as_version=4).cells[0]
    assert cell.outputs == [] and cell.execution_count is None and cell.source == "1 + 1"
    assert runner.strip(path) is False


@pytest.fixture(scope="module")
def kernel():
    """One kernel for the notebooks (all in one worker): each starts from a cleared
    namespace (``run.execute``), without a kernel's start and imports of its own (about
    4 CPU-s each). Shut down when the last of them is done."""
    from jupyter_client.manager import AsyncKernelManager
    from nbclient.util import run_sync

    manager = AsyncKernelManager(kernel_name="python3")
    yield manager
    if manager.has_kernel:
        run_sync(manager.shutdown_kernel)(now=True)
    run_sync(manager.cleanup_resources)()


@pytest.mark.slow
@pytest.mark.xdist_group("notebooks")  # one worker, so one kernel starts, not one a worker
@pytest.mark.parametrize("name", sorted(SIZES))
def test_notebook_runs_top_to_bottom(name, tmp_path, kernel):
    env = {"SIMKIT_NOTEBOOK_GAMES": str(SIZES[name]), "SIMKIT_NOTEBOOK_JOBS": "1",
           "SIMKIT_NOTEBOOK_RESULTS": str(tmp_path / "results")}
    nb = runner.execute(NOTEBOOKS / f"{name}.ipynb", tmp_path / f"{name}.ipynb",
                        timeout=CELL_TIMEOUT, kernel=kernel, env=env)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert all(cell.execution_count is not None for cell in code)
    assert not [o for cell in code for o in cell.outputs if o.output_type == "error"]
    figures = sum("image/png" in o.get("data", {}) for cell in code for o in cell.outputs)
    assert figures >= FIGURES[name]
    text = _text(nb)
    for phrase in SAYS[name]:
        assert phrase in text, phrase
    folders = [p.name for p in (tmp_path / "results").iterdir()] if (
        tmp_path / "results").exists() else []
    assert all(f.endswith(f"-{SIZES[name]}") for f in folders)  # the size it was asked for
    assert (tmp_path / f"{name}.ipynb").exists()
