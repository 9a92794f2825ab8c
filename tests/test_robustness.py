"""simkit robustness: every reading, reconstruction alternative and pairing of the
scripted players, played on the same games as the base and compared paired."""

import numpy as np
import pytest

from simkit import games, robustness, simulate
from simkit.cli import main


def test_settings_cover_every_reading_alternative_and_policy_pairing():
    game = games.get("king_in_the_north")
    todo, refused = robustness.settings(game, game.Rules(), 100, 10)
    labels = [s.label for s in todo]
    assert labels[0].startswith("as played")
    for knob in game.Rules.knobs():
        for value in knob.alternatives:
            assert f"{knob.name}={value}" in labels
    pairings = [s for s in todo if s.group == "players"]
    n = len(game.policies["carlists"]) * len(game.policies["liberals"])
    assert len(pairings) == n - 1  # every pairing but the default one
    assert {s.baseline for s in pairings} == {True, False}  # random players: a floor
    assert not refused


def test_a_game_of_many_seats_plays_each_policy_at_every_seat():
    game = games.get("verrix")
    todo, _ = robustness.settings(game, game.Rules(), 100, 10)
    players = [s for s in todo if s.group == "players"]
    assert all(len(set(s.policy.values())) == 1 for s in players)
    # each script at every seat; not the look-ahead (every seat searching measures no
    # seat's headroom: `simkit skill verrix` does, seats rotated)
    scripts = [n for n in game.policies["seat1"] if ("seat1", n) not in game.policy_kernels]
    assert ("seat1", "lookahead") in game.policy_kernels
    assert sorted(s.policy["seat1"] for s in players) == sorted(scripts[1:])
    recon = {s.label for s in todo if s.group == "reconstruction"}
    assert "battle_track_vp=3,6,8,10" in recon


def test_rates_and_paired_differences_are_those_of_the_same_games():
    table = robustness.robustness("setembre1714-assault", n_games=400, seed=3)
    assert list(table["group"])[0] == "as played"
    assert (table["games"] == 400).all()
    base = simulate("setembre1714-assault", 400, seed=3)["winner"] == "bourbons"
    for row in table.itertuples():
        if row.group == "as played":
            assert row.bourbons == pytest.approx(base.mean())
            continue
        chosen = dict(part.split("=") for part in row.setting.split(", "))
        if row.group == "players":
            won = simulate("setembre1714-assault", 400, seed=3, policy=chosen)["winner"]
        else:  # a reading or a reconstruction: the rules change, the players stay
            rules = {name: int(value) for name, value in chosen.items()}
            won = simulate("setembre1714-assault", 400, seed=3, rules=rules)["winner"]
        won = (won == "bourbons").to_numpy()
        assert row.bourbons == pytest.approx(won.mean())
        assert row.difference == pytest.approx(won.mean() - base.to_numpy().mean())
        assert row.difference_low <= row.difference <= row.difference_high
    assert np.allclose(table["bourbons"] + table["catalans"], 1)
    low, high = robustness.range_of(table, "bourbons", "players")
    assert low <= table["bourbons"].iloc[0] <= high


def test_the_command_prints_the_table_and_the_ranges(capsys, tmp_path):
    figure = tmp_path / "robustness.png"
    assert main(["robustness", "setembre1714-assault", "--games", "300",
                 "--figure", str(figure)]) == 0
    out = capsys.readouterr().out
    assert "as played: bourbons=assault, catalans=stand" in out
    assert "over the scripted players" in out
    assert figure.stat().st_size > 1000


def test_bad_input_is_one_line(capsys):
    assert main(["robustness", "setembre1714-assault", "--games", "0"]) == 2
    assert main(["robustness", "setembre1714-assault", "--set", "nope=1"]) == 2
    assert main(["robustness", "setembre1714-assault", "--figure", "x.txt"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("simkit: error:") for line in err)


def test_a_two_sided_game_gets_its_policy_matrix():
    game = games.get("setembre1714-assault")
    table = robustness.robustness(game, n_games=200, seed=2)
    matrix = robustness.policy_matrix(table, "bourbons", game.sides)
    pairs = [(b, c) for b in game.policies["bourbons"] for c in game.policies["catalans"]]
    assert matrix.shape == (len(game.policies["bourbons"]), len(game.policies["catalans"]))
    for bourbons, catalans in pairs:
        rate = simulate(game, 200, seed=2, policy={"bourbons": bourbons,
                                                   "catalans": catalans})["winner"]
        assert matrix.loc[bourbons, catalans].startswith(
            f"{100 * (rate == 'bourbons').mean():.1f}% [")
    assert robustness.policy_matrix(table, "bourbons", ("a", "b", "c")) is None


def test_the_player_headroom_is_the_look_ahead_against_the_script(capsys):
    """Victus's look-ahead row of the players' group, read as the headroom line."""
    from simkit import games
    from simkit.robustness import headroom_lines, robustness

    victus = games.get("victus")
    table = robustness(victus, n_games=40, slow_games=3, seed=2)
    look = table[table["setting"] == "players=lookahead"].iloc[0]
    (line,) = headroom_lines(table, victus)
    assert line.startswith(f"player headroom of the players: lookahead "
                           f"{100 * look['difference']:+.1f} [")
    assert "over greedy (3 games, paired)" in line


def test_a_budget_cuts_the_slow_players_games_first(monkeypatch):
    """Victus's look-ahead plays at a few games a second: a budget takes its games first
    (down to SLOW_FLOOR) and leaves the scripted settings theirs, then cuts those."""
    from simkit import games, timing
    from simkit.robustness import SLOW_FLOOR, _sized, _slow, settings

    victus = games.get("victus")
    rules = victus.resolve_rules(None)
    todo, _ = settings(victus, rules, 2000, 200)
    slow = [_slow(victus, s.policy) for s in todo]
    assert any(slow) and not all(slow)
    monkeypatch.setattr(timing, "speed",
                        lambda game, rules, policy, n_jobs: 10.0 if _slow(game, policy)
                        else 1000.0)
    fast_seconds = 2.0 * (len(todo) - sum(slow))  # 2,000 games at 1,000 games/s each
    sized, said = _sized(victus, rules, todo, fast_seconds + 5.0, 1, None)
    assert [s.games for s, x in zip(sized, slow, strict=True) if not x] == [2000] * (
        len(todo) - sum(slow))
    assert all(SLOW_FLOOR <= s.games < 200 for s, x in zip(sized, slow, strict=True) if x)
    assert "a slow player's to" in said and "(cut first)" in said
    sized, said = _sized(victus, rules, todo, fast_seconds / 2, 1, None)
    assert all(s.games == SLOW_FLOOR for s, x in zip(sized, slow, strict=True) if x)
    assert all(20 <= s.games < 2000 for s, x in zip(sized, slow, strict=True) if not x)
