"""Interrupt and resume say where they stand (runner): Ctrl-C prints the rates of the
games kept, a resumed bar counts the games already played, and the chunks keep the size
they had grown to."""

import pytest

import simkit
from simkit.runner import FIRST_CHUNK, default_chunk_size
from simkit.store import read_manifest

GAME = "setembre1714-assault"


def interrupt_after(chunks: int):
    seen = []

    def report(games):
        seen.append(games)
        if len(seen) == chunks:
            raise KeyboardInterrupt

    return report


def test_an_interrupt_prints_the_rates_kept_and_a_resume_goes_on_from_there(tmp_path, capsys):
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        simkit.simulate(GAME, 10**6, seed=3, out=out, progress=interrupt_after(4))
    parts = read_manifest(out)["parts"]
    kept = sum(p["stop"] - p["start"] for p in parts)
    frame = simkit.load(out)
    bourbons = (frame["winner"] == "bourbons").mean()
    err = capsys.readouterr().err
    assert f"simkit: interrupted after {kept:,} games kept; winner: " in err
    assert f"bourbons {bourbons:.2%} [" in err
    grown = max(p["stop"] - p["start"] for p in parts)
    assert grown > parts[0]["stop"] - parts[0]["start"]  # the chunks had grown

    total = kept + 3 * grown
    simkit.simulate(GAME, total, seed=3, out=out, progress=True)
    assert f"(resumed: {kept:,} already played)" in capsys.readouterr().err
    new = [p for p in read_manifest(out)["parts"] if p["start"] >= kept]
    largest = default_chunk_size(total - kept, 1)  # the cap of any chunk of the rest
    assert new[0]["stop"] - new[0]["start"] == min(grown, largest) > FIRST_CHUNK
