"""The rule-knob machinery of simkit/games/base.py, exercised through 11 de Setembre's
``Rules`` and the ``setembre1714-assault`` Game: validation, overrides, ``--set``
parsing, ``changes()``, presets files and their errors."""

import dataclasses
import re
import tomllib

import numpy as np
import pytest

from simkit import ComponentError, RulesError
from simkit.games import get
from simkit.games.base import Knob, Preset, RulesBase, load_presets
from simkit.games.setembre1714_assault.components import DATA
from simkit.games.setembre1714_assault.rules import Rules

GAME = get("setembre1714-assault")
TERRAINS = ("open", "urban", "convent", "blue_line", "barricade")
INT_KNOBS = {  # name -> allowed range, as rules.py declares it
    "max_turns": (1, 60),
    "breach_roll": (1, 6),
    "guns_adjacent": (0, 10),
    "guns_at_range_2": (0, 10),
    "salvo_units": (0, 10),
    "attacker_lead": (1, 9),
    "attacker_units": (1, 10),
    "defender_lead": (1, 9),
    "defender_others": (1, 9),
    "defender_units": (1, 5),
    "withdrawal_bonus": (0, 6),
}
BOOL_KNOBS = ("attacker_commander", "defender_commander", "santa_eulalia_flag",
              "blue_line_covers_salvo")
DEFAULTS = {
    "max_turns": 12, "breach_roll": 6, "guns_adjacent": 0, "guns_at_range_2": 0,
    "salvo_units": 4, "salvo_from": "urban", "blue_line_covers_salvo": True,
    "attacker_lead": 5, "attacker_units": 5, "attacker_commander": False,
    "defender_lead": 5, "defender_others": 5, "defender_units": 5, "terrain": "barricade",
    "defender_commander": True, "santa_eulalia_flag": False, "withdrawal_bonus": 2,
}


def raises_naming(*parts: str):
    """pytest.raises(RulesError) whose message contains every one of ``parts``."""
    return pytest.raises(RulesError, match="(?s)" + "".join(
        f"(?=.*{re.escape(p)})" for p in parts))


# -- knobs and defaults ----------------------------------------------------------------------


def test_defaults_validate_and_are_the_rulebook_example():
    rules = Rules()
    assert rules.validate() is rules
    assert rules.to_dict() == DEFAULTS
    assert GAME.Rules is Rules
    assert GAME.resolve_rules(None) == rules
    assert rules.changes() == {}


def test_knobs_describe_types_ranges_and_choices():
    knobs = {k.name: k for k in Rules.knobs()}
    assert list(knobs) == list(DEFAULTS)
    assert all(isinstance(k, Knob) and k.doc for k in knobs.values())
    for name, (low, high) in INT_KNOBS.items():
        assert knobs[name].type is int
        assert knobs[name].range == (low, high)
        assert knobs[name].allowed == f"{low}..{high}"
    for name in BOOL_KNOBS:
        assert knobs[name].type is bool
        assert knobs[name].allowed == "true | false"
    assert knobs["terrain"].choices == TERRAINS
    assert knobs["terrain"].allowed == " | ".join(TERRAINS)
    assert Rules.knob("terrain") == knobs["terrain"]
    with raises_naming("'bogus'", "salvo_units", "terrain", "withdrawal_bonus"):
        Rules.knob("bogus")


@pytest.mark.parametrize("name", sorted(INT_KNOBS))
def test_int_knob_bounds(name):
    low, high = INT_KNOBS[name]
    # the defender's other units are never stronger than its lead (rules.check)
    weakest = {"defender_others": 1} if name == "defender_lead" else {}
    strongest = {"defender_lead": 9} if name == "defender_others" else {}
    assert getattr(Rules(**{name: low}, **weakest), name) == low
    assert getattr(Rules(**{name: high}, **strongest), name) == high
    for bad in (low - 1, high + 1):
        with raises_naming(repr(name), f"{low}..{high}", str(bad)):
            Rules(**{name: bad})
        with raises_naming(repr(name), f"{low}..{high}"):
            Rules().replace({name: bad})


@pytest.mark.parametrize("name", sorted(INT_KNOBS))
def test_int_knob_rejects_other_types(name):
    low, high = INT_KNOBS[name]
    for bad in (str(low), float(low), True, None):
        with raises_naming(repr(name), "int", f"{low}..{high}", repr(bad)):
            Rules(**{name: bad})


def test_numpy_integers_are_accepted_as_plain_ints():
    rules = Rules(salvo_units=np.int64(3), attacker_commander=np.bool_(True))
    assert rules.salvo_units == 3 and type(rules.salvo_units) is int
    assert rules.attacker_commander is True


@pytest.mark.parametrize("name", BOOL_KNOBS)
def test_bool_knob_rejects_ints_and_strings(name):
    for bad in (1, 0, "true", "yes"):
        with raises_naming(repr(name), "bool", "true | false", repr(bad)):
            Rules(**{name: bad})


def test_choice_knob():
    for terrain in TERRAINS:
        assert Rules(terrain=terrain).terrain == terrain
    with raises_naming("'terrain'", "'swamp'", " | ".join(TERRAINS)):
        Rules(terrain="swamp")
    with raises_naming("'terrain'", "'Open'", " | ".join(TERRAINS)):
        Rules(terrain="Open")  # choices are case-sensitive
    with raises_naming("'terrain'", "str", " | ".join(TERRAINS)):
        Rules(terrain=3)


def test_cross_field_check():
    assert Rules(attacker_units=10, salvo_units=5).attack_value == 14
    assert Rules(attacker_units=5, salvo_units=10).salvo_units == 10
    with raises_naming("attacker_units=6", "salvo_units=6"):
        Rules(attacker_units=6, salvo_units=6)
    with raises_naming("attacker_units=10", "salvo_units=7"):
        Rules(attacker_units=10).replace(salvo_units=7)
    with raises_naming("attacker_units", "salvo_units"):
        Rules().parse_overrides(["attacker_units=6", "salvo_units=6"])


def test_validate_catches_a_knob_set_behind_its_back():
    rules = Rules()
    object.__setattr__(rules, "defender_units", 6)  # bypasses the frozen dataclass
    with raises_naming("'defender_units'", "1..5"):
        rules.validate()
    with raises_naming("'defender_units'", "1..5"):
        GAME.resolve_rules(rules)


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().salvo_units = 3


# -- replace, resolve_rules and parse_overrides ------------------------------------------------


def test_replace():
    rules = Rules()
    changed = rules.replace({"salvo_units": 0}, terrain="open")
    assert (changed.salvo_units, changed.terrain) == (0, "open")
    assert rules.salvo_units == 4  # the original is unchanged
    assert rules.replace() == rules
    with raises_naming("unknown rule 'x'", "max_turns", "withdrawal_bonus"):
        rules.replace({"x": 1})
    with raises_naming("unknown rule 'salvo'", "salvo_units"):
        rules.replace(salvo=1)


def test_resolve_rules_accepts_each_form():
    standard = Rules()
    assert GAME.resolve_rules(None) == standard
    assert GAME.resolve_rules(standard) is standard
    assert GAME.resolve_rules({"terrain": "open"}) == standard.replace(terrain="open")
    preset = GAME.resolve_rules("open_ground")
    assert preset.changes() == {"salvo_units": 0, "terrain": "open",
                                "defender_commander": False}


def test_resolve_rules_rejects_unknown_knobs_and_types():
    with raises_naming("unknown rule 'x'", "salvo_units"):
        GAME.resolve_rules({"x": 1})
    with raises_naming("'salvo_units'", "0..10"):
        GAME.resolve_rules({"salvo_units": 11})
    with raises_naming("preset name", "dict", "int"):
        GAME.resolve_rules(3)


def test_unknown_preset_lists_the_presets():
    presets = ("example_first_assault", "example_second_assault", "open_ground",
               "bombarded_bastion")
    with raises_naming("unknown preset 'nope'", "setembre1714-assault", *presets):
        GAME.resolve_rules("nope")


def test_parse_overrides():
    rules = Rules().parse_overrides(["terrain=open", "attacker_commander=yes"])
    assert rules.terrain == "open"
    assert rules.attacker_commander is True
    assert rules.changes() == {"terrain": "open", "attacker_commander": True}
    spaced = Rules().parse_overrides([" salvo_units = 3 ", "defender_commander=OFF"])
    assert (spaced.salvo_units, spaced.defender_commander) == (3, False)
    for text, value in (("1", True), ("true", True), ("on", True), ("0", False),
                        ("false", False), ("no", False)):
        assert Rules().parse_overrides([f"santa_eulalia_flag={text}"]) \
            .santa_eulalia_flag is value
    assert Rules().parse_overrides([]) == Rules()
    with raises_naming("--set", "salvo_units", "more than once"):
        Rules().parse_overrides(["salvo_units=1", "salvo_units=2"])


@pytest.mark.parametrize(("text", "parts"), [
    ("x=1", ("unknown rule 'x'", "salvo_units", "terrain")),
    ("salvo_units=abc", ("'salvo_units'", "int", "0..10", "'abc'")),
    ("salvo_units=3.5", ("'salvo_units'", "0..10", "'3.5'")),
    ("salvo_units=", ("'salvo_units'", "0..10")),
    ("salvo_units=11", ("'salvo_units'", "0..10", "11")),
    ("defender_units=0", ("'defender_units'", "1..5")),
    ("terrain=swamp", ("'terrain'", "'swamp'", " | ".join(TERRAINS))),
    ("attacker_commander=maybe", ("'attacker_commander'", "true", "false", "'maybe'")),
    ("salvo_units", ("name=value", "'salvo_units'")),
    ("=3", ("name=value", "'=3'")),
    (" =3", ("name=value",)),
])
def test_parse_overrides_rejects_malformed_text(text, parts):
    with raises_naming(*parts):
        Rules().parse_overrides([text])


# -- changes() -----------------------------------------------------------------------------


def test_changes_lists_only_changed_knobs():
    assert Rules().changes() == {}
    rules = Rules(salvo_units=0, terrain="open", defender_commander=True)
    assert rules.changes() == {"salvo_units": 0, "terrain": "open"}  # True is the default
    back = rules.replace(salvo_units=4)
    assert back.changes() == {"terrain": "open"}
    assert GAME.resolve_rules("example_first_assault").changes() == {}
    assert GAME.resolve_rules("example_second_assault").changes() == {
        "salvo_units": 0, "defender_units": 4, "terrain": "blue_line",
        "defender_commander": False}


# -- presets --------------------------------------------------------------------------------


def test_shipped_presets_load():
    presets = load_presets(DATA / "presets.toml", Rules)
    assert list(presets) == ["example_first_assault", "example_second_assault", "open_ground",
                             "bombarded_bastion", "blue_line"]
    assert presets == dict(GAME.presets)
    for name, preset in presets.items():
        assert isinstance(preset, Preset) and preset.name == name
        assert isinstance(preset.rules, Rules) and preset.description
    raw = tomllib.loads((DATA / "presets.toml").read_text())
    for name, entry in raw.items():
        assert presets[name].rules.changes() == entry.get("rules", {})
    assert presets["bombarded_bastion"].rules.changes() == {
        "guns_adjacent": 2, "guns_at_range_2": 1, "salvo_units": 0, "terrain": "urban"}


def write(tmp_path, text: str | bytes):
    path = tmp_path / "presets.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def load_error(path) -> str:
    with pytest.raises(ComponentError) as info:
        load_presets(path, Rules)
    return str(info.value)


def test_presets_file_with_an_unknown_knob(tmp_path):
    path = write(tmp_path, '[good]\ndescription = "fine"\n\n'
                           '[broken]\ndescription = "typo"\nrules = { salvo_unit = 3 }\n')
    message = load_error(path)
    assert str(path) in message and "[broken]" in message and "'salvo_unit'" in message
    assert "[good]" not in message


def test_presets_file_with_a_bad_value(tmp_path):
    path = write(tmp_path, '[deep]\ndescription = "too deep"\nrules = { defender_units = 6 }\n')
    message = load_error(path)
    assert str(path) in message and "[deep]" in message
    assert "'defender_units'" in message and "1..5" in message
    path = write(tmp_path, '[both]\ndescription = "too many"\n'
                           'rules = { attacker_units = 6, salvo_units = 6 }\n')
    message = load_error(path)
    assert "[both]" in message and "attacker_units=6" in message


def test_presets_file_missing_description(tmp_path):
    path = write(tmp_path, '[nodesc]\nrules = { salvo_units = 3 }\n')
    message = load_error(path)
    assert str(path) in message and "[nodesc]" in message and "description" in message
    path = write(tmp_path, '[numdesc]\ndescription = 3\n')
    assert "[numdesc]" in load_error(path)
    path = write(tmp_path, 'loose = 1\n')  # a top-level value, not a preset table
    assert "[loose]" in load_error(path)


def test_presets_file_with_an_unknown_key(tmp_path):
    path = write(tmp_path, '[extra]\ndescription = "x"\nnotes = "y"\n')
    message = load_error(path)
    assert str(path) in message and "[extra]" in message and "notes" in message


def test_presets_file_invalid_toml(tmp_path):
    path = write(tmp_path, '[broken\ndescription = "x"\n')
    message = load_error(path)
    assert str(path) in message and "not valid TOML" in message
    missing = tmp_path / "absent.toml"
    assert str(missing) in load_error(missing)


def test_presets_file_empty_is_no_presets(tmp_path):
    assert load_presets(write(tmp_path, "# nothing yet\n"), Rules) == {}


def test_presets_file_rules_not_a_table(tmp_path):
    path = write(tmp_path, '[flat]\ndescription = "x"\nrules = "salvo_units=3"\n')
    message = load_error(path)
    assert str(path) in message and "[flat]" in message


def test_presets_file_not_utf8(tmp_path):
    path = write(tmp_path, b'\xff[bad]\ndescription = "x"\n')
    assert str(path) in load_error(path)


def test_rules_base_subclass_without_knobs():
    @dataclasses.dataclass(frozen=True)
    class Empty(RulesBase):
        pass

    assert Empty().changes() == {} and Empty.knobs() == []
    with raises_naming("unknown rule 'x'"):
        Empty().replace(x=1)


def test_a_stepped_weight_takes_only_what_the_engine_plays():
    """The King in the North stores its ratios in hundredths (its policy rows): 1.426 would
    play as 1.43, so it is refused, naming the step; tune draws on the same grid."""
    import optuna

    from simkit.tune import suggest

    weights = get("king_in_the_north").policy_weights["carlists"]["greedy"]
    knob = weights.knob("attack_ratio")
    assert knob.step == 0.01 and "in steps of 0.01" in knob.allowed
    assert weights().replace(attack_ratio=1.43).attack_ratio == 1.43
    with pytest.raises(RulesError, match=r"'attack_ratio' = 1.426 is not a multiple of 0.01"):
        weights().replace(attack_ratio=1.426)
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=1))
    for _ in range(20):
        value = suggest(study.ask(), knob)
        assert abs(value * 100 - round(value * 100)) < 1e-6
        knob.check(value)
