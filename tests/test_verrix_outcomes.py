"""Verrix's results with fewer than five tribes: a seat or tribe not in play is a missing
value, and ``winner`` (``winner_seat``) holds only the tribes (seats) in play; the
report, ladder, compare and stats read such a run."""

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit import stats
from simkit.cli import main
from simkit.experiment import summarize

N = 60
THREE = {"players": 3}


def test_absent_seats_and_tribes_are_missing_values(tmp_path):
    frame = simkit.simulate("verrix", N, seed=5, rules=THREE, out=tmp_path / "r")
    kernel = simkit.games.get("verrix").simulate(THREE, None, np.arange(N), 5)
    for column in ("vp_seat4", "vp_seat5", "vp_green", "vp_yellow", "green_raids",
                   "yellow_festival_vp"):
        assert (kernel[column] == -1).all()  # the kernel's marker ...
        assert frame[column].isna().all()  # ... is a missing value in the results
    for column in ("vp_seat1", "vp_seat3", "vp_blue", "purple_raids"):
        assert frame[column].notna().all()
        assert (frame[column] == kernel[column]).all()
    # the mean of a seat in play is not pulled down by the absent seats' markers
    assert frame[["vp_seat1", "vp_seat2", "vp_seat3"]].stack().mean() == \
        frame.filter(like="vp_seat").stack().mean()
    assert list(frame["winner"].cat.categories) == ["blue", "orange", "purple"]
    assert list(frame["winner_seat"].cat.categories) == ["seat1", "seat2", "seat3"]
    loaded = simkit.load(tmp_path / "r")
    assert list(loaded["winner"].cat.categories) == ["blue", "orange", "purple"]
    pd.testing.assert_frame_equal(loaded, frame, check_dtype=False)


def test_a_rotated_seating_keeps_its_own_tribes():
    frame = simkit.simulate("verrix", 20, seed=5,
                            rules={"players": 2, "tribes": "yellow,green,blue,orange,purple"})
    assert list(frame["winner"].cat.categories) == ["green", "yellow"]
    assert frame["vp_blue"].isna().all() and frame["vp_green"].notna().all()


def swept_three_players(tmp_path, knobs: str, games: int):
    """A swept 3-player Verrix experiment (base and one cell per value of ``knobs``):
    its results folder."""
    file = tmp_path / "three.toml"
    file.write_text('[experiment]\nname = "three"\ngame = "verrix"\nrules = { players = 3 }\n'
                    f'games = {games}\nseed = 5\n\n[[sweep]]\nkind = "one_at_a_time"\n'
                    f'knobs = {{ {knobs} }}\n')
    out = tmp_path / "out"
    assert main(["sweep", str(file), "--out", str(out), "--no-progress"]) == 0
    return out


def test_the_tools_read_a_three_player_run(tmp_path, capsys):
    out = swept_three_players(tmp_path, "festival_every = [4]", 20)
    assert main(["report", str(out)]) == 0
    report = (out / "report.md").read_text()
    sections = {part.split("\n")[0]: part for part in report.split("\n## ")}
    for heading in ("Win rates", "What this rests on", "Outcome means"):
        assert "purple" in sections[heading]
        headers = [line for line in sections[heading].splitlines()
                   if line.startswith("| ") and "blue" in line and "[" not in line]
        assert headers and not any("yellow" in h or "green" in h for h in headers)
    assert "seat3" in sections["Seat balance"] and "seat4" not in sections["Seat balance"]
    assert main(["ladder", str(out), "--side", "orange"]) == 0
    assert main(["compare", "verrix", "--games", "20", "--set", "players=3",
                 "--no-progress", "--vs", "--set", "festival_every=4"]) == 0
    printed = capsys.readouterr().out.split("seats: ")[-1]  # the compare's table
    assert "orange" in printed and "yellow" not in printed
    assert main(["run", "verrix", "--games", "20", "--set", "players=3",
                 "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "purple" in printed and "yellow" not in printed.split("caveat")[0]
    assert "seat3" in printed and "seat4" not in printed
    frame = simkit.load(out / "cells" / "base")
    counts = frame["winner"].value_counts(sort=False)
    table = stats.rate_table(counts.to_dict(), len(frame))
    assert list(table.index) == ["blue", "orange", "purple"]
    assert np.isclose(table["rate"].sum(), 1)


def test_a_summary_leaves_a_tribe_out_of_the_cells_it_is_not_in(tmp_path):
    """Each cell's winner categories are its own: purple, seated in the 3-player base,
    has no win rate in the 2-player cell (not 0%)."""
    table = summarize(swept_three_players(tmp_path, "players = [2]", 30)).set_index("cell")
    base, two = table.loc["base"], table.drop(index="base").iloc[0]
    assert base[["winner_blue", "winner_orange", "winner_purple"]].sum() == pytest.approx(1)
    assert np.isnan(two["winner_purple"]) and np.isnan(two["winner_purple_low"])
    assert two[["winner_blue", "winner_orange"]].sum() == pytest.approx(1)
