"""One layout for every ``simkit prob`` answer in every family, and the ``prob`` command:
per-question --help, --format table|csv|json, one-line errors that name the parameter."""

import io
import json
from fractions import Fraction

import pandas as pd
import pytest

from simkit import games
from simkit.cli import main

ALL_QUESTIONS = [(family, name) for family in games.question_sets()
                 for name in games.questions(family)]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_family_has_questions():
    assert set(games.question_sets()) == {"setembre1714", "king_in_the_north", "verrix",
                                          "victus"}


@pytest.mark.parametrize("family, name", ALL_QUESTIONS)
def test_every_answer_ends_with_p_and_fraction(family, name):
    question = games.questions(family)[name]
    table = question.answer(question.params())
    assert len(table) > 0
    if question.deterministic:
        assert not {"p", "fraction"} & set(table.columns)
        return
    assert list(table.columns[-2:]) == ["p", "fraction"]
    assert all(isinstance(v, Fraction) for v in table["fraction"])
    assert all(0 <= v <= 1 for v in table["fraction"])
    assert table["p"].dtype == float
    assert table["p"].tolist() == [float(v) for v in table["fraction"]]


@pytest.mark.parametrize("family, name", ALL_QUESTIONS)
def test_question_help_lists_its_parameters(capsys, family, name):
    code, out, _ = run(capsys, "prob", family, name, "--help")
    assert code == 0
    assert out.startswith(f"usage: simkit prob {family} {name}")
    for k in games.questions(family)[name].params.knobs():
        flag = k.name.replace("_", "-")
        line = next(x for x in out.splitlines() if x.strip().startswith(f"--{flag} "))
        assert f"default {k.default}" in line and f"allowed {k.allowed}" in line


def test_json_records_have_p_float_and_fraction_string(capsys):
    code, out, _ = run(capsys, "prob", "setembre1714", "commander", "--format", "json")
    assert code == 0
    records = json.loads(out)
    assert [r["fraction"] for r in records] == ["25/36", "5/18", "1/36"]
    assert [r["p"] for r in records] == [25 / 36, 5 / 18, 1 / 36]
    assert records[0]["commanders_lost"] == 0


def test_csv_has_the_same_columns(capsys):
    code, out, _ = run(capsys, "prob", "victus", "stage_iv", "--players=3", "--format=csv")
    assert code == 0
    table = pd.read_csv(io.StringIO(out))
    assert list(table.columns) == ["pool", "event", "p", "fraction"]
    assert table["fraction"][0] == "1/9" and table["pool"][0] == 9


def test_table_format_of_a_rules_table_says_so(capsys):
    code, out, _ = run(capsys, "prob", "victus", "fame")
    assert code == 0
    assert "a rules table (deterministic: no chances)" in out and "59" in out


@pytest.mark.parametrize("argv, names", [
    (("king_in_the_north", "holds_card", "--deck", "5", "--copies", "10", "--hand", "7"),
     ["parameter 'copies'", "0..5"]),
    (("king_in_the_north", "holds_card", "--copies", "60", "--deck", "49"),
     ["parameter 'copies'", "0..49"]),
    (("king_in_the_north", "holds_card", "--hand", "50"), ["parameter 'hand'", "0..49"]),
    (("verrix", "raid", "--attack", "99"), ["parameter 'attack'", "0..30"]),
    (("victus", "combat", "--gunpowder-store", "9"), ["parameter 'gunpowder_store'", "1..5"]),
    (("victus", "stage_iv", "--players", "0"), ["parameter 'players'", "1..4"]),
    (("victus", "stage_iv", "--players", "1", "--level", "first_game"),
     ["parameter 'players'", "level = full"]),
    (("setembre1714", "breach", "--nope", "1"), ["unknown parameter 'nope'", "turns"]),
    (("victus", "cannon", "--format", "xml"), ["--format", "json"]),
    (("victus", "cannon", "--format"), ["--format"]),
])
def test_bad_values_are_one_line_naming_the_parameter(capsys, argv, names):
    code, out, err = run(capsys, "prob", *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("simkit: error:")
    assert "rule" not in lines[0]
    for name in names:
        assert name in lines[0]


def test_prob_help_explains_the_layout(capsys):
    code, out, _ = run(capsys, "prob", "--help")
    assert code == 0
    assert "--format" in out and "fraction" in out and "victus:" in out
