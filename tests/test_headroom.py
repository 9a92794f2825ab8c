"""The player headroom (simkit.headroom, ``simkit skill GAME``): each side's script
against its look-ahead on the same games, and each decision kind alone."""

import pytest

from simkit.errors import UsageError
from simkit.headroom import decision_kinds, headroom, summary


def test_the_script_and_each_look_ahead_play_the_same_games():
    from simkit import games

    victus = games.get("victus")
    assert decision_kinds(victus, "players") == [
        "lookahead", "lookahead:decides=cards", "lookahead:decides=dice"]
    said = []
    table = headroom(victus, n_games=2, seed=5, progress=said.append)
    assert said[0].startswith("the player headroom: 3 look-ahead run(s) of 2 games (and the "
                              "scripts), about ") and "budget" not in said[0]
    assert list(table["policy"]) == ["greedy", *decision_kinds(victus, "players")]
    assert (table["games"] == 2).all() and not table.attrs["sized_by_budget"]
    look = table.iloc[1]
    assert look.headroom == pytest.approx(look.rate - table.iloc[0].rate)
    assert look.low <= look.headroom <= look.high
    text = summary(victus, table)
    assert "each side's script against its look-ahead on the same 2 games" in text


def test_the_budget_sizes_the_games():
    from simkit import games
    from simkit.headroom import MAX_GAMES, MIN_GAMES, contenders, games_for, look_seconds

    victus = games.get("victus")
    who = contenders(victus, victus.resolve_rules(None), None, 1)
    assert look_seconds(who, 5) > 0  # a look-ahead game of each side, timed
    # the sizing from a game index's seconds (not timed here: the load would decide it)
    assert games_for(who, 0.01, 5, 1, per_game=1.0) == MIN_GAMES
    assert games_for(who, 1e9, 5, 1, per_game=1.0) == MAX_GAMES
    assert games_for(who, 120.0, 5, 2, per_game=1.0) == 240  # 2 workers


def test_a_game_without_a_look_ahead_says_so(capsys):
    from simkit.cli import main

    with pytest.raises(UsageError, match="no lookahead player"):
        headroom("setembre1714-assault")
    assert main(["skill", "setembre1714-assault"]) == 2
    assert "no lookahead player" in capsys.readouterr().err
    assert main(["skill", "victus", "--budget", "0"]) == 2
    assert "--budget must be a positive" in capsys.readouterr().err
