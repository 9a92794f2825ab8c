"""Morris screening (simkit.screen): knobs on a grid of their ranges, walks the rules
admit, every point on the same games, effects ranked with bootstrap intervals."""

import numpy as np
import pytest

from simkit import games
from simkit.errors import RulesError, UsageError
from simkit.screen import Factor, factors, levels_of, screen, screen_summary

ASSAULT = games.get("setembre1714-assault")
VICTUS = games.get("victus")


def test_a_knob_s_grid_covers_its_range_in_its_own_values():
    knob = ASSAULT.Rules.knob
    assert levels_of(Factor(knob("attacker_lead")), 4) == [1, 4, 6, 9]
    assert levels_of(Factor(knob("attacker_commander")), 4) == [False, True]
    assert levels_of(Factor(knob("salvo_from")), 4) == ["open", "urban", "convent"]


def test_the_default_knobs_are_those_the_rules_admit_at_every_grid_value():
    names = [f.knob.name for f in factors(VICTUS, VICTUS.Rules(), None, 4)]
    assert "rubble_threshold" in names and "players" in names
    assert "victory_level" not in names  # competitive scoring only


def test_stronger_attackers_win_more_and_stronger_defenders_less():
    table = screen(ASSAULT, knobs=["attacker_lead", "defender_units", "breach_roll"],
                   trajectories=4, n_games=4000, seed=3)
    assert table.attrs["points"] == 4 * 4 and table.attrs["side"] == "bourbons"
    assert (table["mu_star"].diff().dropna() <= 0).all()  # ranked
    assert ((table["mu_star_low"] <= table["mu_star"])
            & (table["mu_star"] <= table["mu_star_high"])).all()
    effect = table.set_index("knob")["mu"]
    assert effect["attacker_lead"] > 10 and effect["defender_units"] < -10
    again = screen(ASSAULT, knobs=["attacker_lead", "defender_units", "breach_roll"],
                   trajectories=4, n_games=4000, seed=3)
    assert np.array_equal(again["mu_star"], table["mu_star"])  # the same games


def test_a_seat_or_any_winner_category_can_be_screened():
    knobs = ["rubble_threshold", "coronela_threshold"]
    players = screen(VICTUS, knobs=knobs, trajectories=2, n_games=60, seed=1)
    lost = screen(VICTUS, knobs=knobs, side="game", trajectories=2, n_games=60, seed=1)
    assert players.attrs["side"] == "players" and lost.attrs["side"] == "game"
    # every game is won by the players or by the game: the same effects, signs flipped
    mu = players.set_index("knob")["mu"]
    assert np.allclose(mu, -lost.set_index("knob")["mu"].reindex(mu.index))
    seat = screen(VICTUS, rules="competitive", knobs=knobs, side="seat1", trajectories=2,
                  n_games=60, seed=1)  # the fame winner's seat
    assert seat.attrs["side"] == "seat1"


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(knobs=["nope", "players"]), RulesError, "nope"),
    (dict(knobs=["victory_level", "players"]), UsageError, "cannot be screened"),
    (dict(knobs=["players"]), UsageError, "two knobs"),
    (dict(trajectories=1), UsageError, "--trajectories"),
    (dict(side="bourbons"), UsageError,
     r"allowed: players, game \(winner\); seat1, seat2, seat3, seat4 \(fame_winner\)"),
])
def test_bad_screens_are_one_clear_error(kwargs, error, words):
    with pytest.raises(error, match=words):
        screen(VICTUS, n_games=10, **kwargs)


def test_the_command_prints_the_ranking_and_refuses_bad_input(capsys):
    from simkit.cli import main

    assert main(["screen", "setembre1714-assault", "--knobs",
                 "attacker_lead,defender_units", "--trajectories", "2", "--games", "200",
                 "--format", "csv"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("knob,mu_star,mu_star_low,mu_star_high") and len(out) == 3
    for argv, words in [(["--knobs", "victory_level,players"], "cannot be screened"),
                        (["--side", "french"], "unknown side 'french' for victus; allowed"),
                        (["--trajectories", "1"], "--trajectories 2 or more"),
                        (["--knobs", "players,nope"], "nope")]:
        assert main(["screen", "victus", *argv]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], err


SCREEN_FILE = """
[experiment]
name = "assault_screen"
game = "setembre1714-assault"
games = 300
seed = 7

[[sweep]]
kind = "screen"
knobs = ["attacker_lead", "defender_units", "breach_roll"]
trajectories = 3
"""


def direct_first(seed):
    return screen(ASSAULT, knobs=["attacker_lead", "defender_units", "breach_roll"],
                  trajectories=3, n_games=300, seed=seed)["knob"].iloc[0]


def test_a_screen_sweep_plays_its_points_as_cells_and_the_report_ranks_them(tmp_path):
    from simkit.analysis import collect
    from simkit.experiment import load_experiment, sweep
    from simkit.report import sections, write_report

    path = tmp_path / "screen.toml"
    path.write_text(SCREEN_FILE)
    experiment = load_experiment(path)
    labels = {c.label for c in experiment.cells} | {
        a[0] for c in experiment.cells for a in c.aliases}
    assert {f"screen {w}.{p}" for w in (1, 2, 3) for p in range(4)} <= labels
    sweep(path, tmp_path / "out")
    report = write_report(tmp_path / "out")
    assert (tmp_path / "out" / "screening.png").stat().st_size > 0
    assert "## Screening" in report.markdown.read_text()
    assert f"The Morris screening ranks {direct_first(7)} first" in report.findings
    found = dict(sections(collect(tmp_path / "out")))["Screening"][1]
    direct = screen(ASSAULT, knobs=["attacker_lead", "defender_units", "breach_roll"],
                    trajectories=3, n_games=300, seed=7)
    assert list(found["knob"]) == list(direct["knob"])  # the same games, the same ranking
    assert list(found["mu*"]) == [f"{m:.2f}" for m in direct["mu_star"]]


@pytest.mark.parametrize("sweep_text, words", [
    ('kind = "screen"\nknobs = ["attacker_lead"]', "two knobs"),
    ('kind = "screen"\nknobs = ["nope", "attacker_lead"]', "nope"),
    ('kind = "screen"\ntrajectories = 1', "--trajectories"),
    ('kind = "screen"\nwalks = 3', "unknown key 'walks'"),
])
def test_a_bad_screen_sweep_is_one_line_naming_it(tmp_path, sweep_text, words):
    from simkit.errors import ExperimentError
    from simkit.experiment import load_experiment

    path = tmp_path / "bad.toml"
    path.write_text(SCREEN_FILE.split("[[sweep]]")[0] + "[[sweep]]\n" + sweep_text + "\n")
    with pytest.raises(ExperimentError, match=words) as caught:
        load_experiment(path)
    assert "\n" not in str(caught.value) and "(screen)" in str(caught.value)


def test_screening_near_the_design_keeps_each_knob_within_k_steps():
    from simkit.screen import around, screen

    game = games.get("setembre1714-assault")
    lead = game.Rules.knob("attacker_lead")
    assert around(lead, 5, 2).bounds == (3, 7) and around(lead, 1, 2).bounds == (1, 3)
    assert around(game.Rules.knob("terrain"), "barricade", 1).bounds is None
    table = screen(game, knobs=["attacker_lead", "guns_adjacent"], around_default=1,
                   trajectories=4, n_games=300)
    assert table.attrs["bounds"] == {"attacker_lead": (4, 6), "guns_adjacent": (0, 1)}
    assert table.attrs["separated"] in (True, False)
    text = screen_summary(game, table)
    assert "within 1 steps of the design" in text and "attacker_lead 4..6" in text


def test_sobol_indices_rank_the_knobs_that_carry_the_variance():
    from simkit.screen import screen

    game = games.get("setembre1714-assault")
    table = screen(game, knobs=["attacker_lead", "guns_adjacent", "salvo_from"],
                   method="sobol", trajectories=16, n_games=400)
    assert table.attrs["points"] == 16 * 5
    assert table.iloc[-1]["knob"] == "salvo_from" and table.iloc[-1]["total"] == 0
    assert set(table.iloc[:2]["knob"]) == {"attacker_lead", "guns_adjacent"}
    assert "Sobol indices of 3 knobs" in screen_summary(game, table)


@pytest.mark.parametrize("kwargs, words", [
    ({"method": "fast"}, "--method 'fast' is not one of"),
    ({"around_default": 0}, "--around-default must be 1 step"),
    ({"knobs": ["attacker_lead", "attacker_units", "salvo_units"], "method": "sobol"},
     "a Sobol point the rules refuse"),
])
def test_bad_screen_methods_are_one_clear_error(kwargs, words):
    from simkit.screen import screen

    with pytest.raises(UsageError, match=words):
        screen("setembre1714-assault", trajectories=4, n_games=10,
               **({"knobs": ["attacker_lead", "guns_adjacent"]} | kwargs))
