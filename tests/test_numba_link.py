"""Tests for simkit._numba_link: callees compiled once, kernels whole and cached alone,
and only for simkit's own functions.

Each check runs in a fresh Python process on a small module of three cached functions
(``top`` calls ``mid`` calls ``leaf``), so that what numba holds in memory and on disk
is known exactly. The module counts as simkit's own (``_numba_patches.OWNED``) unless a
test says it is foreign.
"""

import json
import subprocess
import sys
import textwrap

import pytest
from plain_python import run_with

from simkit import _numba_patches

KERNELS = textwrap.dedent("""
    from numba import njit

    @njit(cache=True)
    def leaf(x):
        return x * 3 + 1

    @njit(cache=True)
    def mid(x):
        return leaf(x) + leaf(x + 1)

    @njit(cache=True)
    def top(x):
        total = 0
        for k in range(x):
            total += mid(k)
        return total
""")

PROBE = textwrap.dedent("""
    import json, os, sys
    from simkit import _numba_patches
    if os.environ.get("PROBE_OWNED") == "1":
        _numba_patches.OWNED += ("kernels",)
    import simkit.games  # installs the patch, as every engine import does
    from simkit import _numba_link
    import kernels as k

    def kind(dispatcher):
        return [("callee+code" if c.library._simkit_emitted else "callee")
                if _numba_link._is_callee(c.library) else "whole"
                for c in dispatcher.overloads.values()]

    out = {"installed": _numba_link._installed, "top": k.top(10)}
    out["after_top"] = {"top": kind(k.top), "mid": kind(k.mid), "leaf": kind(k.leaf)}
    out["top_cache_hits"] = sum(k.top.stats.cache_hits.values())
    out["mid"] = k.mid(4)  # a function first compiled as a callee, now called from Python
    out["after_mid"] = kind(k.mid)
    print(json.dumps(out))
""")


def expected_top(x):
    return sum((3 * k + 1) + (3 * (k + 1) + 1) for k in range(x))


def probe(folder, **more_env):
    env = {"NUMBA_CACHE_DIR": str(folder / "cache"), "PYTHONPATH": str(folder),
           "PATH": "/usr/bin:/bin", "PROBE_OWNED": "1", **more_env}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("link")
    (folder / "kernels.py").write_text(KERNELS)
    return probe(folder), probe(folder)


@pytest.mark.skipif(not _numba_patches.supported(), reason="numba release not tested")
def test_callees_are_compiled_once_without_machine_code_of_their_own(two_runs):
    first, _ = two_runs
    assert first["installed"]
    assert first["top"] == expected_top(10)
    assert first["after_top"] == {"top": ["whole"], "mid": ["callee"], "leaf": ["callee"]}


@pytest.mark.skipif(not _numba_patches.supported(), reason="numba release not tested")
def test_a_callee_called_from_python_is_compiled_again_whole_and_right(two_runs):
    first, _ = two_runs
    assert first["mid"] == (3 * 4 + 1) + (3 * 5 + 1)
    assert first["after_mid"] == ["whole"]


@pytest.mark.skipif(not _numba_patches.supported(), reason="numba release not tested")
def test_a_kernel_loads_from_the_cache_on_its_own_in_a_new_process(two_runs):
    first, second = two_runs
    assert first["top_cache_hits"] == 0
    assert second["top_cache_hits"] == 1  # loaded whole: its callees were never cached
    assert second["top"] == expected_top(10)
    assert second["after_top"] == {"top": ["whole"], "mid": [], "leaf": []}


@pytest.mark.skipif(not _numba_patches.supported(), reason="numba release not tested")
def test_light_compiles_from_python_like_callees_and_caches_nothing(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    first = probe(tmp_path, SIMKIT_TEST_COMPILE="light")
    second = probe(tmp_path, SIMKIT_TEST_COMPILE="light")
    for run in (first, second):
        assert run["top"] == expected_top(10)
        # run from Python, so top's code is emitted, and with it its callees'
        assert run["after_top"] == {"top": ["callee+code"], "mid": ["callee+code"],
                                    "leaf": ["callee+code"]}
        assert run["top_cache_hits"] == 0
        assert run["mid"] == (3 * 4 + 1) + (3 * 5 + 1)
        assert run["after_mid"] == ["callee+code"]  # compiled again, with its wrapper


@pytest.mark.parametrize("version, ok", [("0.68.0", True), ("0.68.1", True), ("0.60.0", False),
                                         ("0.59.1", False), ("0.69.0", False),
                                         ("1.0.0", False), ("0.70.0rc1", False),
                                         ("dev", False)])
def test_installed_only_on_the_numba_releases_it_was_tested_on(version, ok):
    assert _numba_patches.supported(version) is ok


@pytest.mark.skipif(not _numba_patches.supported(), reason="numba release not tested")
def test_a_foreign_module_compiles_as_numba_compiles_it(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    first = probe(tmp_path, PROBE_OWNED="0")
    second = probe(tmp_path, PROBE_OWNED="0")
    assert first["installed"]  # simkit's patch is in, and leaves these functions alone
    for run in (first, second):
        assert run["top"] == expected_top(10)
        assert run["mid"] == (3 * 4 + 1) + (3 * 5 + 1)
    assert first["after_top"] == {"top": ["whole"], "mid": ["whole"], "leaf": ["whole"]}
    # numba cached every one of them whole, in the user's own cache folder, not simkit's
    assert second["top_cache_hits"] == 1
    cached = {p.name for p in (tmp_path / "cache").rglob("*.nbi")}
    assert any(name.startswith("kernels.mid") for name in cached), cached
    assert not list((tmp_path / "cache").glob("numba-*")), "nothing of simkit's was compiled"


@pytest.mark.skipif(not _numba_patches.supported(), reason="numba release not tested")
def test_switched_off_nothing_is_patched(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    run = probe(tmp_path, SIMKIT_NUMBA_PATCHES="0")
    assert not run["installed"]
    assert run["top"] == expected_top(10)
    assert run["after_top"] == {"top": ["whole"], "mid": ["whole"], "leaf": ["whole"]}


def test_patches_off_say_so_once_at_the_first_compile(tmp_path):
    """Switched off (or on an untested release), the first compile of a process says
    that the patches are off, why and what it costs, on one line of stderr; once."""
    # two first runs of an engine from an empty cache, each announcing its compile; the
    # compile itself is left out (an unpatched one takes about 10 s and is no part of this)
    code = ("import simkit, json\n"
            "game = simkit.games.get('setembre1714-assault')\n"
            "game.simulate = lambda *args: None\n"
            "game.warm_up(); game.warm_up()\n"
            "print(json.dumps(game.is_compiled()))")
    lines = []
    assert run_with(code, {"SIMKIT_NUMBA_PATCHES": "0", "SIMKIT_CACHE_DIR": str(tmp_path)},
                    600, stderr=lines) is False
    assert sum("simkit: compiling the setembre1714-assault engine" in line
               for line in lines) == 2, lines
    told = [line for line in lines if "numba patches off" in line]
    assert told == ["simkit: numba patches off (SIMKIT_NUMBA_PATCHES=0): the same games, "
                    "compiled 2-5x and played 10-130x slower"], lines


def test_an_untested_release_is_named_in_the_patches_off_line(monkeypatch, capsys):
    import numba

    monkeypatch.setattr(numba, "__version__", "0.71.0")
    monkeypatch.setattr(_numba_patches, "_told", False)
    _numba_patches.tell_if_off(sys.stderr)
    _numba_patches.tell_if_off(sys.stderr)
    assert capsys.readouterr().err.splitlines() == [
        "simkit: numba patches off (numba 0.71.0 is not a release they were tested on "
        "(0.68)): the same games, compiled 2-5x and played 10-130x slower"]
