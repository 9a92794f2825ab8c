"""The best play found for a side (simkit.tune: scan, restarted raced searches, checks on
fresh games) and rule knobs towards a target (simkit.difficulty), on the assault
scenario, whose games are fast and whose best Catalan answer is known."""

import json

import optuna
import pytest

from simkit import games
from simkit.arena import against, paired_gain, rotated
from simkit.difficulty import parse_knobs, rules_summary, tune_rules
from simkit.errors import RulesError, UsageError
from simkit.tune import (
    levers,
    player,
    policy_side,
    rungs,
    sampler_seed,
    scan_policy,
    scan_summary,
    summary,
    tune_policy,
    weight_values,
)

ASSAULT = "setembre1714-assault"
#: an ochre street, no Catalan commander, the Bourbon one adjacent: the attack (10 with
#: him) leads the defence (9), so the default cautious Catalans withdraw and give the zone
#: up; standing (withdraw_above >= 1) is their known best answer
STREET = {"terrain": "open", "defender_commander": False, "salvo_units": 0,
          "attacker_commander": True}


def test_weight_values_cover_the_range_in_the_knob_s_own_steps():
    kitn = games.get("king_in_the_north").policy_weights["carlists"]["greedy"]
    ratio = kitn.knob("attack_ratio")
    values = weight_values(ratio)
    assert values[0] == ratio.range[0] and values[-1] == ratio.range[1] and len(values) == 5
    assert all(abs(v * 100 - round(v * 100)) < 1e-6 for v in values)
    cautious = games.get(ASSAULT).policy_weights["catalans"]["cautious"]
    assert weight_values(cautious.knob("withdraw_above")) == [-20, -10, 0, 10, 20]
    assert rungs(2000) == [223, 669, 2000] and rungs(5) == [1, 3, 5]


def test_the_scan_finds_a_planted_one_weight_lever():
    """Under STREET the default Catalans give the zone away; standing wins it back: the
    scan shows withdraw_above >= 1 as a lever, and withdrawing earlier (< 0) as no gain."""
    scan = scan_policy(ASSAULT, "catalans", start="cautious", rules=STREET, n_games=3000,
                       seed=3)
    assert set(scan["weight"]) == {"withdraw_above"}
    assert list(scan["value"])[:2] in ([10, 20], [20, 10])
    assert scan.iloc[0]["low"] > 0.1 and scan.iloc[0]["holm_p"] < 1e-6
    assert levers(scan) == {"withdraw_above": scan.iloc[0]["value"]}
    withdraw_sooner = scan[scan["value"] < 0]
    assert (withdraw_sooner["gain"] <= 0).all()
    text = scan_summary(scan)
    assert "levers (a gain, Holm p < 0.05): withdraw_above=" in text
    assert "3,000 games of seed 3" in text


def test_a_replayed_gain_is_played_again_on_fresh_games_paired_with_the_start():
    """``replay``: the largest gains played again on games n..2n-1 of the seed, each
    paired with the start there: the planted lever comes back, its figures those of the
    same comparison made by hand, and the summary says so."""
    n = 1000
    scan = scan_policy(ASSAULT, "catalans", start="cautious", rules=STREET, n_games=n,
                       seed=3, replay=2)
    replayed = scan.dropna(subset=["replay_gain"])
    assert scan.attrs["replayed"] == len(replayed) == 2
    assert list(replayed.index) == [0, 1] and scan["replay_gain"].iloc[2:].isna().all()
    game = games.get(ASSAULT)
    arena = against(game, "catalans", game.resolve_rules(STREET), {})
    start = arena.scores("cautious", 3, n, 2 * n)
    assert not (start == arena.scores("cautious", 3, 0, n)).all()  # other games
    for row in replayed.itertuples():
        by_hand = paired_gain(arena.scores(f"cautious:withdraw_above={row.value}", 3, n,
                                           2 * n), start)
        assert row.replay_gain == pytest.approx(by_hand.difference.estimate)
        assert row.replay_low == pytest.approx(by_hand.difference.low)
        assert row.replay_p == pytest.approx(by_hand.p_value)
        assert row.replay_low > 0.1  # the stand wins the zone back on fresh games too
    text = scan_summary(scan)
    assert "the 2 largest gains played again on fresh games (1,000-1,999 of seed 3)" in text
    assert text.count(": comes back") == 2
    unreplayed = scan_policy(ASSAULT, "catalans", start="cautious", rules=STREET,
                             n_games=n, seed=3)
    assert "replay_gain" not in unreplayed and "played again" not in scan_summary(unreplayed)
    assert unreplayed["gain"].tolist() == scan["gain"].tolist()  # the scan itself unchanged


def test_the_scan_says_its_games_first_and_fits_a_budget():
    from simkit.timing import FLOOR

    said = []
    scan = scan_policy(ASSAULT, "catalans", start="cautious", rules=STREET, n_games=10**7,
                       seed=3, budget=0.5, progress=said.append)
    assert said[0].startswith("the scan of 1 weights (") and " settings of 10,000,000 games)"\
        in said[0] and "so about" in said[0]
    assert said[1].startswith("budget ") and "games a setting would take about" in said[1]
    assert FLOOR <= scan.attrs["games"] < 10**7


def test_restarts_with_different_seeds_agree_on_the_known_best(tmp_path):
    """Two searches from other seeds both find the Catalans' stand, and their confirmed
    gains agree within their intervals; each restart's sampler seed is its own."""
    results = [tune_policy(ASSAULT, "catalans", start="cautious", rules=STREET, trials=8,
                           restarts=3, n_games=1500, seed=seed) for seed in (1, 2)]
    for result in results:
        assert result.policy.startswith("cautious:withdraw_above=")
        assert int(result.policy.rpartition("=")[2]) >= 1
        assert result.low > 0.1 and result.verdict == "a gain"
        assert len(result.restarts) == 3
        assert len({r.sampler_seed for r in result.restarts}) == 3
        assert result.fresh_games == 3000
        assert result.tuned_rate - result.start_rate == pytest.approx(result.gain)
    a, b = results
    assert a.low <= b.high and b.low <= a.high
    assert sampler_seed(1, "catalans", 0, 0) != sampler_seed(2, "catalans", 0, 0)
    text = summary(a)
    assert "restart 3:" in text and "spread of the restarts" in text
    assert "--policy catalans=cautious:withdraw_above=" in text


def test_a_finished_search_is_read_back_and_a_killed_trial_is_not_counted(tmp_path):
    first = _kept_search(tmp_path, trials=4)
    kept = json.loads((tmp_path / "result.json").read_text())
    assert kept["policy"] == first.policy
    storage = f"sqlite:///{tmp_path}/restart1.db"
    study = optuna.load_study(study_name="simkit", storage=storage)
    counted = len(study.trials)
    study.ask()  # a trial a killed run left RUNNING
    again = _kept_search(tmp_path, trials=4)
    assert again.record() == first.record()  # read back, not searched again
    assert len(optuna.load_study(study_name="simkit", storage=storage).trials) == counted + 1
    more = _kept_search(tmp_path, trials=6)
    states = [t.state.name for t in optuna.load_study(study_name="simkit",
                                                      storage=storage).trials]
    assert states.count("FAIL") == 1 and len(states) - 1 == 6  # the killed one not counted
    assert more.settings["trials"] == 6
    with pytest.raises(UsageError, match="holds a search of another question"):
        tune_policy(ASSAULT, "catalans", start="cautious", trials=4, restarts=2,
                    n_games=300, seed=4, out=tmp_path)


def _kept_search(out, trials: int):
    return tune_policy(ASSAULT, "catalans", start="cautious", rules=STREET, trials=trials,
                       restarts=2, n_games=300, seed=4, out=out)


def test_a_tribe_is_tuned_at_its_seat_or_under_every_rotation():
    verrix = games.get("verrix")
    rules = verrix.resolve_rules("three_players")
    first, second, third = verrix.seated(rules)
    assert policy_side(verrix, second, rules) == "seat2"
    with pytest.raises(UsageError, match="sides: seat1, .*; or a tribe seated: "):
        policy_side(verrix, "red", rules)
    arena = rotated(verrix, second, rules, {})
    assert [e.side for e in arena.entries] == ["seat2", "seat1", "seat3"]
    assert arena.target == ("winner", second) and not arena.binary
    scores = arena.scores("greedy", 0, 0, 20)
    assert ((0 <= scores) & (scores <= 1)).all()
    scan = scan_policy(verrix, second, rules=rules, n_games=20, points=2, rotate=True)
    assert scan.attrs["side"] == second and (scan["low"] <= scan["gain"]).all()


def test_paired_gain_is_mcnemar_for_wins_and_a_paired_t_for_weighted_scores():
    import numpy as np

    wins = paired_gain(np.array([1, 1, 0, 1] * 50), np.array([0, 1, 0, 1] * 50))
    assert wins.method.startswith("McNemar") and wins.difference.estimate == 0.25
    mixed = paired_gain(np.array([0.5, 1, 0, 1] * 50), np.array([0, 1, 0, 1] * 50))
    assert mixed.method == "paired t" and mixed.difference.estimate == pytest.approx(0.125)
    assert mixed.difference.low < 0.125 < mixed.difference.high


def test_a_rules_search_reaches_the_target_at_the_least_change_and_says_how_games_end():
    table = tune_rules(ASSAULT, ["attacker_lead", "defender_units=2..4"], 0.5, trials=16,
                       n_games=1000, seed=4)
    best = table.iloc[0]
    assert abs(best["rate"] - 0.5) < 0.03 and best["on_target"] == (best["low"] <= 0.5
                                                                      <= best["high"])
    assert 2 <= table["defender_units"].min() and table["defender_units"].max() <= 4
    assert table.attrs["check_games"] == 4000
    assert len({(r.attacker_lead, r.defender_units) for r in table.itertuples()}) == len(table)
    assert all(r.end_reasons for r in table.itertuples())
    text = rules_summary(games.get(ASSAULT), table)
    assert "reached:" in text and "ends: " in text and "defender_units 2..4" in text


def test_a_target_out_of_reach_is_said_so():
    table = tune_rules(ASSAULT, ["attacker_lead=1..2"], 0.9, trials=4, n_games=300, seed=1)
    assert "out of reach" in rules_summary(games.get(ASSAULT), table)


def test_a_band_search_puts_every_side_in_the_band_or_says_how_far_it_is():
    table = tune_rules(ASSAULT, ["attacker_lead"], (0.3, 0.7), trials=6, n_games=300,
                       seed=2)
    best = table.iloc[0]
    rates = {side: best[f"rate_{side}"] for side in ("bourbons", "catalans")}
    assert best["miss"] == pytest.approx(100 * sum(max(0.3 - r, r - 0.7, 0)
                                                   for r in rates.values()))
    assert best["on_target"] == (best["miss"] == 0)
    assert all(best[f"low_{s}"] <= rates[s] <= best[f"high_{s}"] for s in rates)
    text = rules_summary(games.get(ASSAULT), table)
    assert "towards every side within 30.0%-70.0%" in text and "seatings" not in text
    assert ("reached:" in text) == bool(best["on_target"])


def test_a_band_over_tribes_plays_every_seating():
    from simkit.difficulty import Target, _Played
    from simkit.seats import rotated_rates

    game = games.get("verrix")
    rules = game.resolve_rules({"players": 3})
    tribes = tuple(game.categories_in_play(rules, "winner"))
    played = _Played(game, None, Target("winner", tribes, 0.1, 0.3), 1, rotate=True)
    rates = played.rates(rules, 3, 6)
    every = rotated_rates("verrix", 6, seed=3, rules={"players": 3}).by_tribe
    for tribe in tribes:
        assert rates[tribe] == pytest.approx(every.loc[tribe, "rate"])
    assert played.columns(rules, 3, 4)["code"].size == 3 * 4  # a prefix of each seating


@pytest.mark.parametrize("text, words", [("0.3..0.1", "0 <= LOW < HIGH <= 1"),
                                         ("-0.1..0.3", "0 <= LOW < HIGH <= 1"),
                                         ("1.5", "between 0 and 1"),
                                         ("abc", "a band LOW..HIGH")])
def test_a_bad_target_is_one_clear_error(text, words):
    from simkit.difficulty import parse_target

    with pytest.raises(UsageError, match=words):
        tune_rules(ASSAULT, ["attacker_lead"], parse_target(text), trials=2, n_games=50)


def test_a_band_is_over_every_side():
    with pytest.raises(UsageError, match="over every side"):
        tune_rules(ASSAULT, ["attacker_lead"], (0.2, 0.8), side="catalans")


@pytest.mark.parametrize("call, error, words", [
    (lambda: tune_rules(ASSAULT, ["attacker_lead"], 0.5, trials=0), UsageError, "--trials"),
    (lambda: tune_rules(ASSAULT, ["attacker_lead"], 1.5), UsageError, "--target"),
    (lambda: tune_rules(ASSAULT, ["nope"], 0.5), RulesError, "nope"),
    (lambda: tune_rules(ASSAULT, ["attacker_lead"], 0.5, side="french"), UsageError,
     "allowed: bourbons, catalans \\(winner\\)"),
    (lambda: tune_rules(ASSAULT, ["attacker_lead=5..3"], 0.5), UsageError, "LOW must be"),
    (lambda: tune_rules(ASSAULT, ["attacker_lead=0..3"], 0.5), RulesError, "out of range"),
    (lambda: tune_rules(ASSAULT, ["attacker_lead=3"], 0.5), UsageError, "NAME=LOW..HIGH"),
    (lambda: tune_rules(ASSAULT, ["terrain=a..b"], 0.5), UsageError, "only a knob with a"),
    (lambda: tune_rules(ASSAULT, ["attacker_lead", "attacker_lead"], 0.5), UsageError,
     "each knob once"),
    (lambda: tune_policy(ASSAULT, "catalans"), UsageError,
     "'stand' .* no tunable weights; tunable: bourbons=assault, catalans=cautious"),
    (lambda: tune_policy("victus", "french"), UsageError, "sides: players"),
    (lambda: tune_policy(ASSAULT, "catalans", start="cautious", restarts=0), UsageError,
     "--restarts"),
    (lambda: tune_policy(ASSAULT, "catalans", start="cautious", sampler="grid"), UsageError,
     "--sampler"),
    (lambda: scan_policy(ASSAULT, "bourbons", rotate=True), UsageError, "tribe of a seated"),
])
def test_bad_searches_are_one_clear_error(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_parse_knobs_keeps_declared_ranges_unless_narrowed():
    game = games.get(ASSAULT)
    lead, units = parse_knobs(game, ["attacker_lead", "defender_units=2..4"])
    assert (lead.low, lead.high) == game.Rules.knob("attacker_lead").range
    assert (units.low, units.high) == (2, 4)


def test_the_start_may_carry_weights():
    game = games.get(ASSAULT)
    who = player(game, "catalans", "cautious:withdraw_above=3")
    assert who.start == "cautious:withdraw_above=3" and who.name == "cautious"
    arena = against(game, "catalans", game.resolve_rules(STREET), {})
    assert arena.binary and arena.target == ("winner", "catalans")


def test_the_command_prints_the_scan_the_search_and_refuses_bad_input(capsys):
    from simkit.cli import main

    assert main(["tune", ASSAULT, "--side", "catalans", "--policy", "catalans=cautious",
                 "--scan", "--games", "300", *_street()]) == 0
    assert "levers (a gain, Holm p < 0.05): withdraw_above=" in capsys.readouterr().out
    assert main(["tune", ASSAULT, "--side", "catalans", "--policy", "catalans=cautious",
                 "--trials", "3", "--restarts", "2", "--games", "300", *_street()]) == 0
    out = capsys.readouterr().out
    assert "restart 2:" in out and "--policy catalans=cautious" in out
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
                        (["--knobs", "attacker_lead", "--target", "0.5", "--scan"],
                         "--scan and --rotate-seats tune a policy"),
                        (["--side", "catalans", "--replay", "2"], "give --scan too"),
                        (["--side", "catalans", "--policy", "catalans=cautious", "--scan",
                          "--replay", "-1"],
                         "--replay")]:
        assert main(["tune", ASSAULT, *argv]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], err
    assert main(["tune", "victus", "--knobs", "victory_level", "--target", "0.6"]) == 2
    err = capsys.readouterr().err.strip().splitlines()  # competitive scoring only
    assert len(err) == 1 and "'victory_level' of victus cannot be tuned" in err[0]


def _street() -> list[str]:
    return [a for k, v in STREET.items() for a in ("--set", f"{k}={str(v).lower()}")]


def test_a_sight_option_is_never_searched():
    """King in the North's ``sees_hidden`` lets a commander see hidden blocks and hands:
    declared to measure what hidden information is worth, never part of a best response
    (the scan and the search leave it at the start's value)."""
    from simkit import games
    from simkit.tune import player

    kitn = games.get("king_in_the_north")
    for side in kitn.sides:
        who = player(kitn, side)
        names = [k.name for k in who.knobs]
        assert "sees_hidden" not in names and len(names) > 10
        assert "sees_hidden" in [k.name for k in who.weights.knobs()]
