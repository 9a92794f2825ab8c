"""``simkit compare`` pairs anything: a designer's data files on either side of --vs, the
seats rotated, the games each setting alone won (--flipped), and ``simkit trace --vs``
showing one of them side by side."""

import json
import shutil

from simkit import games
from simkit.cli import main

ASSAULT = "setembre1714-assault"


def _edited_dice(tmp_path):
    """Victus's dice with the black die's Bombardment 3 made a Reinforcements 3."""
    folder = tmp_path / "mine"
    folder.mkdir()
    dice = games.get("victus").data.package / "dice.toml"
    shutil.copy(dice, folder / "dice.toml")
    text = (folder / "dice.toml").read_text()
    assert text.count('"Bombardment 3"') >= 1
    (folder / "dice.toml").write_text(text.replace('"Bombardment 3"', '"Reinforcements 3"', 1))
    return folder


def test_a_designer_s_die_against_the_package_s_is_paired(capsys, tmp_path):
    mine = _edited_dice(tmp_path)
    assert main(["compare", "victus", "--preset", "full", "--games", "400", "--format",
                 "json", "--vs", "--data", str(mine)]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["side"] == "players" and row["only_first"] + row["only_second"] > 0
    assert main(["compare", "victus", "--preset", "full", "--games", "400", "--data",
                 str(mine), "--vs", "--no-data"]) == 0
    out = capsys.readouterr().out
    assert f"data {mine}" in out.splitlines()[1] and "data" not in out.splitlines()[2]


def test_the_seats_rotated_pool_tribes_and_seats(capsys):
    assert main(["compare", "verrix", "--preset", "three_players", "--games", "60",
                 "--rotate-seats", "--format", "json", "--vs", "--set",
                 "first_player_vp=0"]) == 0
    rows = json.loads(capsys.readouterr().out)
    seated = games.get("verrix").seated(games.get("verrix").resolve_rules("three_players"))
    assert [r["side"] for r in rows] == seated + ["seat1", "seat2", "seat3"]
    assert all(r["games"] == 180 for r in rows)


def test_flipped_games_are_listed_and_one_is_traced_side_by_side(capsys):
    assert main(["compare", ASSAULT, "--games", "2000", "--flipped", "3", "--vs", "--set",
                 "santa_eulalia_flag=true"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("games only the first won"))
    flipped = line.rpartition(": ")[2].split()
    assert len(flipped) == 3
    assert main(["trace", ASSAULT, "--game-index", flipped[0], "--vs", "--set",
                 "santa_eulalia_flag=true"]) == 0
    trace = capsys.readouterr().out
    assert "the settings part here" in trace
    last = trace.strip().splitlines()[-1]
    assert "winner bourbons" in last.split(" | ")[0] and "winner catalans" in last


def test_bad_comparisons_are_one_line(capsys):
    for argv, words in [
            (["compare", ASSAULT, "--flipped", "-1", "--vs", "--set", "salvo_units=3"],
             "--flipped must be 0 or more"),
            (["compare", ASSAULT, "--vs", "--data", "x", "--no-data"], "not both"),
            (["compare", ASSAULT, "--rotate-seats", "--vs", "--set", "salvo_units=3"],
             "no seats to rotate"),
            (["compare", ASSAULT, "--vs", "--jobs", "2"], "--no-data only"),
            (["trace", ASSAULT, "--width", "10", "--vs", "--set", "salvo_units=3"],
             "--width must be 40")]:
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], err
