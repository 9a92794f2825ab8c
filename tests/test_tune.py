"""optuna searches on common random numbers (simkit.tune): rule knobs towards a target
win rate, and a side's policy weights, each checked again on fresh games."""

import optuna
import pytest

from simkit import games
from simkit.errors import RulesError, UsageError
from simkit.tune import policy_side, tune_alternate, tune_policy, tune_rules

ASSAULT = "setembre1714-assault"
#: an ochre street, no Catalan commander, the Bourbon one adjacent: the attack (10 with
#: him) leads the defence (9), so the cautious Catalans withdraw and give the zone up
STREET = {"terrain": "open", "defender_commander": False, "salvo_units": 0,
          "attacker_commander": True}


def test_a_rules_search_finds_settings_near_the_target_and_checks_them_afresh(tmp_path):
    table = tune_rules(ASSAULT, ["attacker_lead", "defender_units"], 0.5, trials=16,
                       n_games=2000, seed=4, out=tmp_path)
    assert 1 <= len(table) <= 3 and table.attrs["holdout_games"] == 8000
    best = table.iloc[0]
    assert abs(best["training_rate"] - 0.5) < 0.1
    assert float(best["attacker_lead"]).is_integer() and 1 <= best["attacker_lead"] <= 9
    assert (table["on_target"] == ((table["low"] <= 0.5) & (0.5 <= table["high"]))).all()
    assert (tmp_path / "search.png").stat().st_size > 0
    tune_rules(ASSAULT, ["attacker_lead", "defender_units"], 0.5, trials=2, n_games=200,
               seed=4, out=tmp_path)  # continues the study
    study = optuna.load_study(study_name="simkit", storage=f"sqlite:///{tmp_path}/study.db")
    assert len(study.trials) == 18


def test_a_policy_search_starts_from_the_default_weights_and_reports_a_holdout():
    result = tune_policy("victus", "players", trials=3, n_games=200, seed=2)
    assert result.trials == 3 and result.holdout_games == 400
    default = tune_policy("victus", "players", trials=1, n_games=200, seed=2)
    assert default.policy == "greedy" and default.gain.difference.estimate == 0
    assert result.training_rate >= default.training_rate  # the default was trial 0
    games.get("victus").resolve_policy({"players": result.policy})  # a usable --policy
    assert result.gain.n == 400


def test_alternating_tunes_each_side_and_shows_the_balance_under_tuned_play(tmp_path):
    result = tune_alternate(ASSAULT, 2, rules=STREET, trials=8, n_games=1000, seed=5,
                            out=tmp_path)
    table = result.table.set_index("side")
    assert list(table.index) == ["bourbons", "catalans"] and result.holdout_games == 2000
    catalans = table.loc["catalans"]
    assert catalans["policy"].startswith("cautious:withdraw_above=")  # not the default 0
    assert int(catalans["policy"].rpartition("=")[2]) >= 1  # 10 against 9: stand
    assert catalans["change_low"] > 0.3 and table.loc["bourbons", "change_high"] < -0.3
    for when in ("default", "tuned"):
        assert ((table[f"{when}_low"] <= table[f"{when}_rate"])
                & (table[f"{when}_rate"] <= table[f"{when}_high"])).all()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "round1-bourbons", "round1-catalans", "round2-bourbons", "round2-catalans"]
    again = tune_alternate(ASSAULT, 2, rules=STREET, trials=8, n_games=1000, seed=5,
                           out=tmp_path)  # resumed: every study already has its trials
    assert again.table.equals(result.table)
    study = optuna.load_study(study_name="simkit",
                              storage=f"sqlite:///{tmp_path}/round2-catalans/study.db")
    assert len(study.trials) == 8
    for other in [dict(rules=STREET, n_games=500), dict(rules=None, n_games=1000)]:
        with pytest.raises(UsageError, match="holds a search against"):
            tune_alternate(ASSAULT, 1, trials=8, seed=5, out=tmp_path, **other)


def test_a_tribe_names_the_seat_it_holds():
    verrix = games.get("verrix")
    rules = verrix.Rules()
    first, second = verrix.seated(rules)[:2]
    assert policy_side(verrix, first, rules) == "seat1"
    assert policy_side(verrix, second, rules) == "seat2"
    assert policy_side(verrix, "seat3", rules) == "seat3"
    with pytest.raises(UsageError, match="sides: seat1, .*; or a tribe seated: "):
        policy_side(verrix, "red", rules)


def test_alternating_needs_weights_on_every_side():
    game = games.get(ASSAULT)
    one_side = type("BourbonWeightsOnly", (type(game),),
                    {"policy_weights": {"bourbons": game.policy_weights["bourbons"]}})()
    with pytest.raises(UsageError, match="side 'catalans' has no policy with tunable"):
        tune_alternate(one_side, 1, trials=1, n_games=10)


@pytest.mark.parametrize("call, error, words", [
    (lambda: tune_rules(ASSAULT, ["attacker_lead"], 0.5, trials=0), UsageError, "--trials"),
    (lambda: tune_rules(ASSAULT, ["attacker_lead"], 1.5), UsageError, "--target"),
    (lambda: tune_rules(ASSAULT, ["nope"], 0.5), RulesError, "nope"),
    (lambda: tune_rules(ASSAULT, ["attacker_lead"], 0.5, side="french"), UsageError,
     "allowed: bourbons, catalans \\(winner\\)"),
    (lambda: tune_policy(ASSAULT, "catalans"), UsageError,
     "'stand' .* no tunable weights; tunable: bourbons=assault, catalans=cautious"),
    (lambda: tune_policy("victus", "french"), UsageError, "sides: players"),
    (lambda: tune_alternate("victus", 1), UsageError, "one side in play"),
    (lambda: tune_alternate(ASSAULT, 0), UsageError, "1 round or more"),
    (lambda: tune_alternate(ASSAULT, 1, trials=0), UsageError, "--trials"),
    (lambda: tune_alternate(ASSAULT, 1, policy={"catalans": "stand"}), UsageError,
     "'stand' .* no tunable weights"),
    (lambda: tune_alternate(ASSAULT, 1, policy={"french": "assault"}), UsageError,
     "unknown side 'french'"),
])
def test_bad_searches_are_one_clear_error(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_the_command_prints_a_pasteable_policy_and_refuses_bad_input(capsys):
    from simkit.cli import main

    assert main(["tune", ASSAULT, "--knobs", "attacker_lead,defender_units", "--target",
                 "0.5", "--trials", "4", "--games", "300"]) == 0
    out = capsys.readouterr().out
    assert "towards bourbons 50.0%" in out and "fresh games" in out
    for argv, words in [(["--trials", "0", "--knobs", "attacker_lead", "--target", "0.5"],
                         "--trials"),
                        (["--knobs", "attacker_lead"], "--target"),
                        ([], "--side"),
                        (["--side", "catalans"], "no tunable weights"),
                        (["--side", "french"], "unknown side 'french'"),
                        (["--side", "bourbons", "--policy",
                          "bourbons=assault:spare_commander_from=30"],
                         "'spare_commander_from' = 30 is out of range -20..20"),
                        (["--knobs", "attacker_lead", "--target", "0.5", "--side", "french"],
                         "allowed: bourbons, catalans (winner)"),
                        (["--alternate", "1", "--side", "bourbons"], "takes no --side"),
                        (["--alternate", "0"], "1 round or more"),
                        (["--alternate", "1", "--policy", "catalans=stand"],
                         "no tunable weights")]:
        assert main(["tune", ASSAULT, *argv]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], err
    assert main(["tune", "victus", "--alternate", "1"]) == 2
    assert "one side in play" in capsys.readouterr().err
    assert main(["tune", "victus", "--knobs", "victory_level", "--target", "0.6"]) == 2
    err = capsys.readouterr().err.strip().splitlines()  # competitive scoring only
    assert len(err) == 1 and "'victory_level' of victus cannot be tuned" in err[0]
    assert main(["tune", ASSAULT, "--alternate", "1", "--trials", "2", "--games", "200",
                 "--format", "csv"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("side,policy,default_rate,default_low") and len(out) == 3
