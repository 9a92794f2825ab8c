"""The ``simkit`` command: real output for good input, one line and status 2 for bad."""

import re
import subprocess
import sys

import pytest

import simkit
from simkit.cli import main

GAME = "setembre1714-assault"


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_games_and_questions(capsys):
    code, out, _ = run_cli(capsys, "games")
    assert code == 0
    assert GAME in out and "setembre1714" in out and "assault" in out


def test_games_game_lists_knobs_presets_policies_columns(capsys):
    code, out, _ = run_cli(capsys, "games", GAME)
    assert code == 0
    for knob in simkit.games.get(GAME).Rules.knobs():
        assert knob.name in out
    assert "example_second_assault" in out and "catalans:cautious" in out
    assert "end_reason" in out and "allowed 0..10" in out


def test_run_prints_rates_matching_the_python_api(capsys):
    code, out, _ = run_cli(capsys, "run", GAME, "--games", "3000", "--seed", "5",
                           "--set", "terrain=open", "--no-progress")
    assert code == 0
    frame = simkit.simulate(GAME, 3000, seed=5, rules={"terrain": "open"})
    taken = int((frame["end_reason"] == "taken").sum())
    assert re.search(rf"taken\s+{taken:,}\s+{taken / 3000:.2%}", out)
    assert "rules changed from standard: terrain=open" in out
    assert "95% interval" in out


def test_run_writes_and_resumes_a_results_folder(capsys, tmp_path):
    out_dir = tmp_path / "run"
    args = ("run", GAME, "--games", "2000", "--chunk-size", "500", "--out", str(out_dir),
            "--no-progress")
    assert run_cli(capsys, *args)[0] == 0
    code, out, _ = run_cli(capsys, *args)
    assert code == 0 and "played no new game" in out
    assert len(simkit.load(out_dir)) == 2000


def test_trace_narrates_a_game(capsys):
    code, out, _ = run_cli(capsys, "trace", GAME, "--seed", "4", "--game-index", "2",
                           "--preset", "example_second_assault", "--policy",
                           "catalans=withdraw")
    assert code == 0
    assert "Royal Breach check" in out and out.strip().splitlines()[-1].startswith("Result:")


def test_prob_assault_prints_exact_fractions(capsys):
    code, out, _ = run_cli(capsys, "prob", "setembre1714", "assault", "--attacker", "9",
                           "--defender", "12")
    assert code == 0
    assert "1/12" in out and "11/12" in out and "0.083333" in out


def test_prob_scenario_accepts_flags_and_choices(capsys):
    code, out, _ = run_cli(capsys, "prob", "setembre1714", "scenario", "--catalans",
                           "withdraw", "--attacker-commander", "--max-turns=60")
    assert code == 0
    assert "attacker_commander=True" in out and "max_turns=60" in out


@pytest.mark.parametrize("argv, names", [
    (("run", "nogame"), ["nogame", GAME]),
    (("run", GAME, "--set", "foo=1"), ["foo", "salvo_units"]),
    (("run", GAME, "--set", "salvo_units=11"), ["salvo_units", "0..10"]),
    (("run", GAME, "--set", "terrain=swamp"), ["terrain", "barricade"]),
    (("run", GAME, "--set", "salvo_units"), ["name=value"]),
    (("run", GAME, "--set", "attacker_commander=maybe"), ["attacker_commander", "true"]),
    (("run", GAME, "--preset", "nope"), ["nope", "example_first_assault"]),
    (("run", GAME, "--policy", "catalans=flee"), ["flee", "cautious"]),
    (("run", GAME, "--policy", "french=stand"), ["french", "bourbons"]),
    (("run", GAME, "--games", "0"), ["n_games"]),
    (("run", GAME, "--games", "x"), ["--games"]),
    (("run", GAME, "--seed", "-1"), ["seed"]),
    (("run", GAME, "--jobs", "0"), ["--jobs"]),
    (("trace", GAME, "--game-index", "-3"), ["--game-index"]),
    (("prob", "nogame"), ["nogame", "setembre1714"]),
    (("prob", "setembre1714", "nope"), ["nope", "assault"]),
    (("prob", "setembre1714", "assault", "--attacker", "99"), ["attacker", "1..40"]),
    (("prob", "setembre1714", "assault", "--bogus", "1"), ["bogus", "attacker"]),
    (("prob", "setembre1714", "assault", "--attacker"), ["--attacker"]),
    (("frobnicate",), ["frobnicate"]),
    (("run", "verrix", "--set", "players=2", "--policy", "seat5=random"),
     ["seat5", "does not play", "seat1, seat2"]),
    (("trace", "verrix", "--set", "players=3", "--policy", "seat4=random"), ["seat4"]),
    (("run", "victus", "--policy", "greedy:greed=1,greed=2"),
     ["--policy greedy:", "'greed' more than once"]),
    (("run", "victus", "--policy", "greedy:greed"), ["--policy greedy:", "name=value"]),
    (("plan", "--rate", "0.5", "--margin", "0"), ["--margin", "0 and 100"]),
    (("plan", "--rate", "0.5", "--margin", "-1"), ["--margin", "got -1"]),
    (("plan", "--discordance", "0.1", "--margin", "100"), ["--margin", "got 100"]),
    (("plan", "--rate", "1.5", "--margin", "1"), ["--rate", "[0, 1]", "1.5"]),
    (("plan", "--rate", "0.5"), ["--margin", "no --margin"]),
])
def test_bad_input_is_one_line_and_status_2(capsys, argv, names):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("simkit: error:")
    for name in names:
        assert name in lines[0]


def test_console_script_exit_status(tmp_path):
    script = [sys.executable, "-m", "simkit.cli"]
    bad = subprocess.run([*script, "run", GAME, "--set", "max_turns=0"],
                         capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stderr.strip() == "simkit: error: rule 'max_turns' = 0 is out of range 1..60"
    good = subprocess.run([*script, "prob", "setembre1714", "breach", "--turns", "3"],
                          capture_output=True, text=True)
    assert good.returncode == 0 and "91/216" in good.stdout  # 1 - (5/6)^3


def test_run_reports_play_compile_and_command_times_apart(capsys):
    code, out, _ = run_cli(capsys, "run", GAME, "--games", "2000", "--no-progress")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("played "))
    assert "compile included" not in line
    play, compile_, command = (float(x) for x in re.findall(
        r"in ([\d.]+) s .*engine compile or cache load ([\d.]+) s; whole command ([\d.]+) s",
        line)[0])
    assert command >= play + compile_


def test_a_first_compile_is_announced_once(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("SIMKIT_CACHE_DIR", str(tmp_path))  # no engine compiled here yet
    game = simkit.games.get(GAME)
    game.warm_up()
    err = capsys.readouterr().err
    assert f"compiling the {GAME} engine (first run only, about " in err
    game.warm_up()
    assert capsys.readouterr().err == ""


def test_a_policy_with_its_own_kernel_is_announced_once_and_compiled_by_compile(
        capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("SIMKIT_CACHE_DIR", str(tmp_path))
    game = simkit.games.get(GAME)
    monkeypatch.setattr(type(game), "policy_kernels", {("catalans", "withdraw"): 7})
    game.warm_up()
    capsys.readouterr()
    assert not game.is_policy_compiled("catalans", "withdraw")
    with game.compiling_policy("catalans", "withdraw"):
        pass
    err = capsys.readouterr().err
    assert f"compiling the {GAME} catalans=withdraw player (first use only, about 7 s" in err
    assert game.is_policy_compiled("catalans", "withdraw")
    with game.compiling_policy("catalans", "withdraw"):
        pass
    assert capsys.readouterr().err == ""
    assert main(["compile", GAME, "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"^{GAME}: already compiled in \d+\.\d s$", out, re.M)
    assert re.search(rf"^{GAME} catalans=withdraw: already compiled in \d+\.\d s$", out,
                     re.M)


def test_a_policy_kernel_notice_counts_the_engine_typing_when_loaded_from_the_cache(
        capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("SIMKIT_CACHE_DIR", str(tmp_path))
    game = simkit.games.get(GAME)
    monkeypatch.setattr(type(game), "policy_kernels", {("catalans", "withdraw"): 7})
    monkeypatch.setattr(type(game), "compile_seconds", 20)
    monkeypatch.setattr(game, "_engine_compiled_here", False)  # loaded, not compiled
    with game.compiling_policy("catalans", "withdraw"):
        pass
    assert "catalans=withdraw player (first use only, about 27 s" in capsys.readouterr().err


def test_compile_warms_the_named_engines(capsys):
    assert main(["compile", GAME, "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"^{GAME}: (already )?compiled in \d+\.\d s$", out, re.M)
    assert simkit.games.get(GAME).is_compiled()
    assert main(["compile", "nogame"]) == 2
    assert "unknown game 'nogame'" in capsys.readouterr().err
