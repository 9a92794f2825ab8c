"""Seat-rotated runs (simkit.seats): every game index under each cyclic rotation of the
seated tribes; rates by seat pool over tribes and by tribe over seats, and the seat
effect is paired over the same games."""

import numpy as np
import pytest

from simkit import UsageError, games, rotated_rates, simulate, stats
from simkit.cli import main

N = 40


def test_rotations_seat_every_tribe_in_every_seat_once():
    game = games.get("verrix")
    rules = game.Rules(players=3)
    from simkit.sides import seatings

    seated = [game.seated(r) for r in seatings(game, rules)]
    assert seated == [["blue", "orange", "purple"], ["orange", "purple", "blue"],
                      ["purple", "blue", "orange"]]
    for seat in range(3):
        assert sorted(s[seat] for s in seated) == ["blue", "orange", "purple"]


def test_the_tables_are_the_pooled_rows_of_the_rotated_games():
    rules = {"players": 3}
    rates = rotated_rates("verrix", N, seed=5, rules=rules)
    rows = simulate("verrix", N, seed=5, rules=rules, rotate_seats=True)
    assert len(rows) == 3 * N and sorted(rows["rotation"].unique()) == [1, 2, 3]
    assert list(rates.by_seat.index) == ["seat1", "seat2", "seat3"]
    assert list(rates.by_tribe.index) == ["blue", "orange", "purple"]
    for seat, row in rates.by_seat.iterrows():
        assert row.wins == (rows["winner_seat"] == seat).sum() and row.games == 3 * N
    for tribe, row in rates.by_tribe.iterrows():
        assert row.wins == (rows["winner"] == tribe).sum()
    assert rates.by_seat["wins"].sum() == rates.by_tribe["wins"].sum() == 3 * N
    # rotation 1 is the stated seating: the same games as a plain run
    plain = simulate("verrix", N, seed=5, rules=rules)
    first = rows[rows["rotation"] == 1].drop(columns="rotation").reset_index(drop=True)
    assert first["winner"].astype(str).equals(plain["winner"].astype(str))
    effect = rates.seat_effects.set_index("seat").loc["seat2"]
    direct = stats.paired_difference((rows["winner_seat"] == "seat2").to_numpy(),
                                     (rows["winner_seat"] == "seat1").to_numpy())
    assert effect.difference == pytest.approx(direct.difference.estimate)
    assert effect.low == pytest.approx(direct.difference.low)
    assert effect.low <= effect.difference <= effect.high
    assert np.isclose(rates.by_seat["rate"].sum(), 1)


def test_the_command_prints_seat_and_tribe_rates(capsys, tmp_path):
    assert main(["run", "verrix", "--set", "players=2", "--games", "50", "--rotate-seats",
                 "--no-progress", "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "win rate by seat" in out and "win rate by tribe" in out and "seat2" in out
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == ["rotation1", "rotation2"]


def test_a_game_without_tribes_refuses_rotation(capsys):
    with pytest.raises(UsageError, match="no seats to rotate"):
        rotated_rates("king_in_the_north", 10)
    assert main(["run", "king_in_the_north", "--games", "10", "--rotate-seats"]) == 2
    assert main(["run", "verrix", "--games", "10", "--rotate-seats", "--until-ci",
                 "0.01"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("simkit: error:") for line in err)


def test_a_policy_for_an_empty_seat_is_refused_and_one_in_play_is_taken():
    with pytest.raises(UsageError, match=r"seat3, which does not play.*seat1, seat2"):
        simulate("verrix", 2, rules=dict(players=2), policy={"seat3": "random"})
    played = simulate("verrix", 2, rules=dict(players=2), policy={"seat2": "random"})
    assert len(played) == 2


ROTATED = """\
[experiment]
name = "rotated"
game = "verrix"
rules = { players = 3 }
games = 20
seed = 5
rotate_seats = true

[[sweep]]
kind = "one_at_a_time"
knobs = { festival_every = [4], tribes = ["orange,purple,blue,green,yellow"] }
"""


def test_an_experiment_file_rotates_every_cell_and_pools_the_rotations(tmp_path, capsys):
    from simkit.experiment import load_experiment
    from simkit.seats import experiment_rates, experiment_table

    file = tmp_path / "rotated.toml"
    file.write_text(ROTATED)
    experiment = load_experiment(file)
    labels = [c.label for c in experiment.cells]
    assert labels == [cell if k == 1 else f"{cell} [rotation {k}]"
                      for cell in ("base", "festival_every=4") for k in (1, 2, 3)]
    assert [c.rotation for c in experiment.cells] == [1, 2, 3, 1, 2, 3]
    # the tribes cell is the base's second seating: its rotations are the base's
    base = experiment.cells[1]
    assert base.aliases[0][0] == "tribes=orange,purple,blue,green,yellow"
    assert main(["sweep", str(file), "--out", str(tmp_path / "out"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "pooled over the rotations" in out and "seat effect" in out
    rates = experiment_rates(tmp_path / "out")
    assert set(rates) == {"base", "festival_every=4", "tribes=orange,purple,blue,green,yellow"}
    played = rotated_rates("verrix", 20, seed=5, rules={"players": 3})
    for table in ("by_seat", "by_tribe", "seat_effects"):
        assert getattr(rates["base"], table).equals(getattr(played, table))
    # the alias's rotations are the base's, in its own order of seatings
    assert rates["tribes=orange,purple,blue,green,yellow"].by_tribe.equals(played.by_tribe)
    table = experiment_table(tmp_path / "out")
    assert set(table["by"]) == {"seat", "tribe", "seat effect"}
    # the report pools them too, beside the rotations' own cells
    from simkit.report import write_report

    report = write_report(tmp_path / "out").markdown.read_text()
    pooled = report.split("## Every seating")[1].split("\n## ")[0]
    seat1 = rates["base"].by_seat.loc["seat1"]
    assert f"| base | seat | seat1 | {seat1.rate:.2%} | [{seat1.low:.2%}, {seat1.high:.2%}] |" \
        in pooled
    assert "| base [rotation 2] |" in report.split("## Every seating")[0]


@pytest.mark.parametrize("line, problem", [
    ("rotate_seats = 1", "rotate_seats must be true or false, got 1"),
    ('rotate_seats = "yes"', "rotate_seats must be true or false, got 'yes'"),
    ("rotate_seat = true", "unknown key 'rotate_seat' in [experiment]; allowed: "),
])
def test_a_bad_rotate_seats_is_one_clear_error(tmp_path, capsys, line, problem):
    file = tmp_path / "bad.toml"
    file.write_text(ROTATED.replace("rotate_seats = true", line))
    assert main(["sweep", str(file), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert problem in err and "line 7" in err and len(err.strip().splitlines()) == 1


def test_rotate_seats_is_refused_for_a_game_of_roles(tmp_path):
    from simkit import ExperimentError
    from simkit.experiment import parse_experiment

    text = ('[experiment]\nname = "x"\ngame = "king_in_the_north"\ngames = 10\n'
            "rotate_seats = true\n")
    with pytest.raises(ExperimentError, match="line 5: rotate_seats: king_in_the_north "
                                              "has no seats to rotate"):
        parse_experiment(text)
