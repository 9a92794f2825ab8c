"""The designer's own components: ``simkit data GAME --export DIR`` writes a starting
folder, ``--data DIR`` (and ``data=``) plays the files found there (the others from the
package), the manifest records their digest and refuses to mix them with other data, and
a placeholder knob ("the level's set-up") resolves on the files played."""

import hashlib
from pathlib import Path

import pytest

from simkit import ComponentError, RulesError, games, simulate
from simkit.cli import main

N = 60


@pytest.fixture
def exported(tmp_path, capsys) -> Path:
    folder = tmp_path / "mine"
    assert main(["data", "victus", "--export", str(folder)]) == 0
    capsys.readouterr()
    return folder


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_export_writes_every_file_and_lists_what_each_is(exported, capsys):
    names = games.get("victus").data.names
    assert sorted(p.name for p in exported.iterdir()) == sorted(names)
    assert main(["data", "victus"]) == 0
    listing = capsys.readouterr().out
    assert "dice.toml" in listing and "reconstructed" in listing and "printed" in listing
    assert main(["data", "victus", "--export", str(exported)]) == 2  # would overwrite
    assert "give a new or empty folder" in capsys.readouterr().err


def test_an_edited_die_face_plays_other_games(exported):
    shipped = simulate("victus", N, seed=4)
    assert simulate("victus", N, seed=4, data=exported).equals(shipped)  # same files
    # the white die's last face (not printed): Advance 2 instead of Advance 1
    _edit(exported / "dice.toml", '"Bombardment 2", "Advance 1"]',
          '"Bombardment 2", "Advance 2"]')
    for name in ("board.toml", "cards.toml"):  # any subset: the rest from the package
        (exported / name).unlink()
    edited = simulate("victus", N, seed=4, data=exported)
    assert not edited.equals(shipped)
    mine = games.get("victus").with_data(exported).data.user_files
    assert "dice.toml" in mine and "board.toml" not in mine


def test_extending_a_folder_with_other_data_is_refused_and_keeps_it(exported, tmp_path,
                                                                    capsys):
    out = tmp_path / "run"
    assert main(["run", "victus", "--games", str(N), "--out", str(out), "--no-progress"]) == 0
    before = _tree(out)
    _edit(exported / "dice.toml", '"Bombardment 2", "Advance 1"]',
          '"Bombardment 2", "Advance 2"]')
    capsys.readouterr()
    assert main(["run", "victus", "--games", str(2 * N), "--out", str(out),
                 "--data", str(exported), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "was played with data" in err and "dice.toml" in err
    assert _tree(out) == before


@pytest.mark.parametrize("problem", ["missing", "foreign file", "broken file"])
def test_bad_data_is_one_line_and_writes_nothing(problem, exported, tmp_path, capsys,
                                                 monkeypatch):
    # an empty compile cache: a notice that a compile starts would come before the error
    monkeypatch.setenv("SIMKIT_CACHE_DIR", str(tmp_path / "cache"))
    folder = exported
    if problem == "missing":
        folder = tmp_path / "nowhere"
    elif problem == "foreign file":
        (exported / "map.toml").write_text("x = 1\n", encoding="utf-8")
    else:
        _edit(exported / "dice.toml", 'colour = "white"', 'colour = 7')
    out = tmp_path / "run"
    assert main(["run", "victus", "--games", "5", "--out", str(out),
                 "--data", str(folder), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("simkit: error:")
    assert not out.exists()


def test_the_level_set_up_is_read_from_the_files_played(exported, capsys):
    # the designer's dial: the full game's Gunpowder Store pin (its red value is not
    # printed) starts on 3, not 4
    _edit(exported / "markers.toml", "first_game_start = 5\nfull_start = 4",
          "first_game_start = 5\nfull_start = 3")
    game = games.get("victus").with_data(exported)
    assert game.effective(game.Rules()).start_gunpowder_store == 3
    assert games.get("victus").Rules().effective().start_gunpowder_store == 4
    mine = simulate("victus", N, seed=2, data=exported)
    stated = simulate("victus", N, seed=2, data=exported, rules={"start_gunpowder_store": 3})
    assert mine.equals(stated)
    assert not mine.equals(simulate("victus", N, seed=2, data=exported,
                                    rules={"start_gunpowder_store": 4}))
    assert "your markers.toml" in game.caveat


def test_a_start_value_the_dial_does_not_show_is_a_rules_error(exported):
    # the designer's Generalitat dial skips 6 and tops out at 7 (at least 6 is printed:
    # a highest value of 7 keeps it; the values below 5 are not printed)
    _edit(exported / "markers.toml", "values = [1, 2, 3, 4, 5, 6]\nfirst_game_start = 6",
          "values = [1, 2, 3, 4, 5, 7]\nfirst_game_start = 7")
    with pytest.raises(RulesError, match="generalitat dial .* has no value 6; its values: 1, "
                                         "2, 3, 4, 5, 7"):
        simulate("victus", 2, seed=0, data=exported, rules={"start_generalitat": 6})


def test_an_experiment_resolves_its_cells_on_its_data(exported, tmp_path):
    from simkit.experiment import load_experiment

    _edit(exported / "markers.toml", "first_game_start = 5\nfull_start = 4",
          "first_game_start = 5\nfull_start = 3")
    path = tmp_path / "mine.toml"
    path.write_text('[experiment]\nname = "mine"\ngame = "victus"\ngames = 10\n'
                    f'data = "{exported.name}"\n\n[[sweep]]\n'
                    'kind = "one_at_a_time"\n\n[sweep.knobs]\ncoronela_threshold = [3]\n',
                    encoding="utf-8")
    experiment = load_experiment(path)
    assert {cell.rules.start_gunpowder_store for cell in experiment.cells} == {3}


# -- designer data that contradicts a printed value (issue 45, item 5) ----------------------
@pytest.mark.parametrize("file, old, new, words", [
    # the case: it played 32.8% instead of 86.8%, with only the generic caveat
    ("markers.toml", "{ value = 0 },", "{ value = 1 },",
     "markers.toml: [bourbon_marker] track position 0: value = 1; the rulebook prints 0 "
     "(Component Descriptions"),
    ("markers.toml", "{ value = 2, icons = [\"healing\"] }", "{ value = 2 }",
     "[bourbon_marker] track position 3: icons = []; the rulebook prints ['healing']"),
    ("markers.toml", "start = { reinforcements = 0, batteries = 1, mine = 0 }",
     "start = { reinforcements = 0, batteries = 1, mine = 1 }",
     "[bourbon_marker] start: start = {'reinforcements': 0, 'batteries': 1, 'mine': 1}; the "
     "rulebook prints {'reinforcements': 0, 'batteries': 1, 'mine': 0} (Setup)"),
    ("markers.toml", "first_game_start = 6\nfull_start = 5",
     "first_game_start = 6\nfull_start = 3",
     "[generalitat]: full_start = 3; the rulebook prints 5 (Examples 14, 24 and 29"),
    ("markers.toml", "values = [-2, -1, 0, 1]", "values = [-3, -1, 0, 1]",
     "[port]: values = [-3, -1, 0, 1]; the rulebook prints [-2, -1, 0, 1]"),
    ("markers.toml", "values = [1, 2, 3, 4, 5, 6]\nfirst_game_start = 6\nfull_start = 5",
     "values = [1, 2, 3, 4, 5]\nfirst_game_start = 5\nfull_start = 5",
     "[generalitat]: values = [1, 2, 3, 4, 5]; the rulebook prints a highest value of at "
     "least 6"),
    ("markers.toml", 'spaces = ["36"]', 'spaces = ["35"]',
     "[gunpowder_store]: spaces = ['35']; the rulebook prints ['36']"),
    ("markers.toml", 'colours = ["ochre", "ochre", "ochre", "red",',
     'colours = ["ochre", "ochre", "red", "ochre",',
     "[sense_fury]: colours = ['ochre', 'ochre', 'red', 'ochre'"),
    ("dice.toml", '"Reinforcements 1", "Reinforcements 2", "Reinforcements 3",',
     '"Reinforcements 1", "Reinforcements 2", "Trench 3",',
     "dice.toml: die 'white': faces = ["),
    ("dice.toml", 'II = ["blue", "yellow", "red"]', 'II = ["blue", "red", "yellow"]',
     "dice.toml: [stages]: II = ['blue', 'red', 'yellow']; the rulebook prints ['blue', "
     "'yellow', 'red']"),
    ("chance.toml", "stage_I = [11, 45, 46, 36, 52, 32]", "stage_I = [11, 46, 45, 36, 52, 32]",
     "a Stage I row beginning 11, 45, 46 (Examples 4 and 29)"),
    ("actions.toml", "[healing]\ngroup = \"movement\"\nfirst = 3\ngeneral = 4",
     "[healing]\ngroup = \"movement\"\nfirst = 3\ngeneral = 5",
     "actions.toml: [healing]: general = 5; the rulebook prints 4"),
    ("board.toml", 'name = "Saint Cross"', 'name = "Holy Cross"',
     "board.toml: space '14': name = 'Holy Cross'; the rulebook prints 'Saint Cross'"),
    ("cards.toml", 'to = ["32", "36"], each = 1, partial = true',
     'to = ["32", "36"], each = 3000000000, partial = true',
     "bad value each = 3000000000; allowed 0..60"),
    ("board.toml", 'infantry = "14"', 'infantry = "13"',
     "[hospitals]: hospitals = {'infantry': '13', 'coronela': '34'}; the rulebook prints"),
])
def test_data_that_contradicts_a_printed_value_is_refused(exported, capsys, file, old, new,
                                                          words):
    """Each file's header lists what the rulebook prints; a replacement that says otherwise
    is refused in one line naming the file, the entry, the value found and the
    rulebook's, before anything plays."""
    _edit(exported / file, old, new)
    code = main(["run", "victus", "--games", "5", "--data", str(exported), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert words in err[0]


@pytest.mark.parametrize("values, start", [
    (", ".join(map(str, range(1, 201))), 200), ("-21, 1, 2, 3, 4, 5, 6", 6)])
def test_a_dial_value_out_of_bounds_is_refused_not_an_overflow(exported, capsys, values,
                                                               start):
    """Generalitat values up to 200 ended in an int8 OverflowError traceback."""
    _edit(exported / "markers.toml", "values = [1, 2, 3, 4, 5, 6]\nfirst_game_start = 6",
          f"values = [{values}]\nfirst_game_start = {start}")
    code = main(["run", "victus", "--games", "5", "--data", str(exported), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    low, high = values.split(", ")[0], values.split(", ")[-1]
    assert (f"markers.toml: [generalitat]: 'values' run {low}..{high}; a dial's values lie "
            "within -20..20") in err[0]


@pytest.fixture
def export(tmp_path, capsys):
    """Export a game's data files into a fresh folder (its path)."""
    def run(game):
        folder = tmp_path / game
        assert main(["data", game, "--export", str(folder)]) == 0
        capsys.readouterr()
        return folder
    return run


@pytest.mark.parametrize("game, file, old, new, words", [
    ("king_in_the_north", "blocks.toml", 'diamonds = 4\nspecial = "requete"',
     'diamonds = 3\nspecial = "requete"',
     "blocks.toml: the roster: blocks of Requeté with 4 diamonds = 0; the rulebook prints "
     "one or more (the Example of a Battle (8.5))"),
    ("king_in_the_north", "map.toml", 'id = "onate"\nkind = "city"\nresource = true',
     'id = "onate"\nkind = "city"\nresource = false',
     "map.toml: location 'onate': kind = 'city'; the rulebook prints a City and a Resource "
     "Location (4.2)"),
    ("king_in_the_north", "map.toml", 'factions = ["alava", "navarra", "castilla"]',
     'factions = ["alava", "navarra", "castilla", "guipuzcoa"]',
     "map.toml: faction 'guipuzcoa': its Recruitment Location = 'amezcoas'; the rulebook "
     "prints onate (7.2.1)"),
    ("king_in_the_north", "campaign.toml", "carlists = [3, 4, 4, 4, 3, 3]",
     "carlists = [3, 4, 4, 4, 3, 300]", "0..40 each"),
    ("king_in_the_north", "blocks.toml", 'type = "lancer"\ndiamonds = 2',
     'type = "lancer"\ndiamonds = 0', "'diamonds' = 0 is out of range 1..4"),
    ("king_in_the_north", "map.toml", 'id = "bilbao"\nkind = "capital"\nvp = 3',
     'id = "bilbao"\nkind = "capital"\nvp = 2',
     "map.toml: location 'bilbao': vp = 2; the rulebook prints 3 (2.2)"),
    ("verrix", "cards.toml", '{ op = "gain", good = "Cow", n = 1 }, { op = "gain", '
     'good = "Provisions", n = 1 }', '{ op = "gain", good = "Cow", n = -1 }, { op = "gain", '
     'good = "Provisions", n = 1 }', "'n' = -1 is out of range 1..10"),
    ("verrix", "goods.toml", 'name = "Sword"\nvalue = 5', 'name = "Sword"\nvalue = 6',
     "goods.toml: [[good]] 'Sword': value = 6; the rulebook prints 5 (the Trade example)"),
    ("verrix", "tribes.toml", "battle_units = 3", "battle_units = 0",
     "tribes.toml: [[tribe]] 'blue': 'battle_units' = 0 is out of range 1..5"),
    ("verrix", "tribes.toml", 'name = "Niamh"\ntribe = "blue"\nclass = "warrior"\nstrength = 2',
     'name = "Niamh"\ntribe = "blue"\nclass = "warrior"\nstrength = 3',
     "tribes.toml: [[leader]] 'Niamh': strength = 3; the rulebook prints 2"),
    ("verrix", "cards.toml", 'title = "Cooking"\ntype = "development"\nbasic = true\n'
     'owners = ["blue", "orange", "purple", "green", "yellow"]\nrarity = 1\ncost = 2',
     'title = "Cooking"\ntype = "development"\nbasic = true\n'
     'owners = ["blue", "orange", "purple", "green", "yellow"]\nrarity = 1\ncost = 1',
     "cards.toml: [[card]] 'Cooking': cost = 1; the rulebook prints 2"),
    ("verrix", "map.toml",
     [('name = "Caledonii"\nkind = "territory"\nadjacent = ["Venicones",',
       'name = "Caledonii"\nkind = "territory"\nadjacent = ["Brigantes", "Venicones",'),
      ('adjacent = ["Votadini", "Carvetii",', 'adjacent = ["Caledonii", "Votadini", '
       '"Carvetii",')],
     None, "map.toml: [[node]] 'Caledonii': the Movement Cost on tile A to Brigantes = 1; "
     "the rulebook prints 3 (the Pillage example, Raid)"),
    ("setembre1714", "forces.toml", 'names = ["Coronela: Velers", "Coronela: Paraires"]',
     'names = ["Coronela: Velers", "Coronela: Velers"]',
     "forces.toml: [[group]] #1: counter name 'Coronela: Velers' is given twice"),
    ("setembre1714", "forces.toml", 'regulars = ["catalans", 5]',
     'regular_army = ["catalans", 5]', "forces.toml: [kinds]: no kind 'regulars'"),
    ("setembre1714", "forces.toml", 'coronela = ["catalans", 3]',
     'coronela = ["bourbons", 3]', "[kinds] coronela: side = 'bourbons'; the rulebook "
     "prints catalans (2.1)"),
])
def test_other_games_refuse_data_that_contradicts_a_printed_value(export, game, file, old,
                                                                  new, words):
    """Issue 45, items 5 and 7: every game's printed values are checked as Victus's are;
    a Verrix battle_units = 0 ("the rulebook's 4") and a counter named twice in
    setembre1714's forces.toml were played."""
    folder = export(game)
    for name in games.get(game).data.names:  # the edited file alone, the rest the package's
        if name != file:
            (folder / name).unlink()
    for a, b in old if new is None else [(old, new)]:
        _edit(folder / file, a, b)
    with pytest.raises(ComponentError) as refused:
        games.get(game).with_data(folder)
    assert words in str(refused.value)
    assert "\n" not in str(refused.value)
