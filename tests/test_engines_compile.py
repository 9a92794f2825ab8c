"""Every game's engine and each player with a kernel of its own compile whole into numba's
cache (``simkit compile``'s ``compile_engines``, in this process).

``make test`` runs no ``simkit compile`` first: each engine group of ``conftest.py`` begins
with its case here, so the worker that runs the group's rule tests types each engine once,
for its kernels and for the functions those tests call from Python (the suite's light
mode, ``simkit/_numba_link.py``), and the tests in other workers, subprocesses and
notebooks load the kernels from the cache.
"""

import pytest
from conftest import ENGINE_GROUPS

from simkit import games
from simkit.runner import compile_engines


@pytest.mark.parametrize("group", sorted(ENGINE_GROUPS))
def test_each_engine_and_its_players_kernels_compile_into_the_cache(group, monkeypatch):
    names = list(ENGINE_GROUPS[group])
    # compiled as ``simkit compile`` compiles them (optimised and cached), not in the
    # suite's light mode
    monkeypatch.delenv("SIMKIT_TEST_COMPILE", raising=False)
    labels = [label for label, _, _ in compile_engines(names, n_jobs=1)]
    for name in names:
        game = games.get(name)
        assert name in labels and game.is_compiled()
        for side, policy in game.policy_kernels:
            assert f"{name} {side}={policy}" in labels
            assert game.is_policy_compiled(side, policy)
