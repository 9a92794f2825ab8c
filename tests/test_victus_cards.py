"""Victus event/leader cards: the loader's checks, the cards the rulebook names (Examples 1,
2, 20, 29; card 39), one scenario per opcode of the card language, the timed effects and
leaders' modifiers, and a property test over the whole reconstructed deck."""

import re
import shutil

import numpy as np
import pytest
from victus_support import C, K, S, W, params, set_marker, streams

from simkit.errors import ComponentError
from simkit.eventlog import events, new_log, no_log
from simkit.games.victus import barcelonans as A
from simkit.games.victus import bourbons as B
from simkit.games.victus import card_effects as E
from simkit.games.victus import card_layout as CL
from simkit.games.victus import events as EV
from simkit.games.victus import layout as L
from simkit.games.victus.cards import load_cards
from simkit.games.victus.components import DATA
from simkit.games.victus.pieces import disc_value, marker_value, rubble_on_board
from simkit.games.victus.scoring import score_round
from simkit.games.victus.state import empty_state, set_up
from simkit.rng import uniform_int

D = load_cards()
CARDS = D.as_tuple()
WOUNDED, RESERVE, CAPTURED, EXPEDITION = C.wounded, C.reserve, C.captured, C.expedition
TROOPS = [L.SP_CANNON, L.SP_INFANTRY, L.SP_CORONELA]


def rng(seed=0):
    return streams(seed, 0)


def marker(g, m):
    return marker_value(K, g, m)


def put_chance_on_top(g, *cards):
    rest = [c for c in range(14) if c not in cards]
    g[L.G_CHANCE_DECK:L.G_CHANCE_DECK + 14] = list(cards) + rest
    g[L.G_CHANCE_NEXT] = 0


def chance_starting(*space_ids):
    """The chance card whose Stage I row starts with these spaces."""
    want = [S(s) for s in space_ids]
    return next(k for k in range(14) if list(C.chance_bombard[k, 0, :len(want)]) == want)


def play(card, sp, g, seat=0, p=None, cards=CARDS, log=None, seed=0):
    E.resolve_card(K, cards, p if p is not None else params(True), W, sp, g, rng(seed), seat, card,
                   log if log is not None else no_log())


def logged(log, code):
    return [tuple(e[1:]) for e in events(log) if e[0] == code]


def pieces_total(sp):
    return sp[:, TROOPS].sum(axis=0)


# -- custom decks: the real file with some cards rewritten -----------------------------------

BLOCK = re.compile(r"(?m)^\[\[card\]\]\n")


def card_blocks(text):
    parts = BLOCK.split(text)
    return parts[0], parts[1:]


def block_number(block):
    return int(re.search(r"(?m)^number = (\d+)", block).group(1))


def deck_dir(tmp_path, edit):
    """A copy of the data folder whose cards.toml is ``edit(text)``."""
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    path = folder / "cards.toml"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return folder


def replace_card(text, number, body):
    head, blocks = card_blocks(text)
    out = [b if block_number(b) != number else body for b in blocks]
    return head + "".join("[[card]]\n" + b for b in out if b)


def edit_card(text, number, old, new):
    head, blocks = card_blocks(text)
    out = []
    for b in blocks:
        if block_number(b) == number:
            assert old in b, (number, old)
            b = b.replace(old, new, 1)
        out.append(b)
    return head + "".join("[[card]]\n" + b for b in out)


def custom_card(tmp_path, toml_lines, number=150, kind="event", extra=""):
    """The deck with card ``number`` rewritten: a full-game Stage III card with ``toml_lines``."""
    stage = "I" if number <= 50 else "II" if number <= 100 else "III"
    body = (f'number = {number}\nstage = "{stage}"\ntitle = "Test"\nkind = "{kind}"\n'
            f'war_council = "all"\nfury = 1\n{extra}{toml_lines}\n\n')
    folder = deck_dir(tmp_path, lambda text: replace_card(text, number, body))
    return load_cards(folder).as_tuple()


def program(tmp_path, *ops, number=150):
    """CARDS whose card ``number`` has exactly these effect ops (TOML inline tables)."""
    return custom_card(tmp_path, "effect = [\n  " + ",\n  ".join(ops) + ",\n]", number)


# == the loader ===============================================================================


def test_deck_counts_stages_kinds_and_first_game_marks():
    assert D.meta.shape == (151, CL.N_META)
    for stage in range(3):
        cards = D.stage(stage)
        assert list(cards) == list(range(50 * stage + 1, 50 * stage + 51))
        first = D.stage(stage, first_game=True)
        assert len(first) >= 16  # the first game deals at most 12 per stage
        assert (D.meta[first, CL.M_KIND] == CL.KIND_EVENT).all()  # no leaders in a first game
        kinds = np.bincount(D.meta[cards, CL.M_KIND], minlength=3)
        assert kinds[CL.KIND_BARCELONAN_LEADER] >= 3 and kinds[CL.KIND_BOURBON_LEADER] >= 3
    points = D.meta[1:, CL.M_SENSE_FURY]
    assert ((1 <= abs(points)) & (abs(points) <= 5)).all()
    assert (points < 0).sum() > 40 and (points > 0).sum() > 40  # Sense and Fury both common
    assert set(D.leader_names) >= {"Antoni de Villarroel", "Rafael Casanova", "Martí Zuviría",
                                   "Duke of Pópoli", "Duke of Berwick"}
    for name in ("Antoni de Villarroel", "Martí Zuviría", "Duke of Berwick"):
        assert (D.meta[:, CL.M_LEADER] == D.leader_names.index(name)).sum() >= 2


def test_every_war_council_group_and_notation_occurs():
    assert set(D.meta[1:, CL.M_WAR_COUNCIL]) == set(range(5))
    codes = set(D.ops[:, CL.O_CODE])
    assert codes >= set(range(len(CL.OP_NAMES)))  # every opcode is used by some card


BROKEN = [
    ("unknown op", lambda t: edit_card(t, 15, '"advance"', '"advanse"'), 15,
     "unknown op 'advanse'"),
    ("unknown argument", lambda t: edit_card(t, 3, "hits = 1", "hitz = 1"), 3,
     "unknown argument 'hitz'"),
    ("bad value", lambda t: edit_card(t, 19, "hits = 2", "hits = 9"), 19,
     "bad value hits = 9"),
    ("unknown space", lambda t: edit_card(t, 4, '"32"', '"99"'), 4, "unknown space '99'"),
    ("duplicate number", lambda t: edit_card(t, 2, "number = 2", "number = 1"), 1,
     "duplicate card number"),
    ("wrong stage", lambda t: edit_card(t, 51, 'stage = "II"', 'stage = "I"'), 51,
     "wrong stage"),
    ("leader in the first game", lambda t: edit_card(t, 44, 'kind = "bourbon',
                                                     'first_game = true\nkind = "bourbon'),
     44, "first-game card must be an event"),
    ("first game with the Expedition", lambda t: edit_card(
        t, 26, 'kind = "event"', 'first_game = true\nkind = "event"'), 26, "Expedition"),
    ("almanac marker", lambda t: edit_card(t, 1, "port = -1", "harbour = -1"), 1,
     "unknown marker 'harbour'"),
    ("sense and fury", lambda t: edit_card(t, 1, "sense = 3", "sense = 3\nfury = 2"), 1,
     "exactly one of 'sense' and 'fury'"),
    ("modifier on an event", lambda t: edit_card(t, 3, "fury = 3", "fury = 3\nmodifiers = []"),
     3, "an event has no"),
    ("bad piece", lambda t: edit_card(t, 31, '"organ_gun"', '"cannon"'), 31,
     "piece must be one of"),
    ("bad condition", lambda t: edit_card(t, 25, "at_least = 5", "more_than = 5"), 25,
     "give exactly one of at_least"),
    ("battery tile without Batteries +", lambda t: edit_card(
        t, 71, '{ op = "disc", disc = "batteries", n = 2 },', ''), 71,
     "a battery tile comes with Batteries +2"),
]


@pytest.mark.parametrize("what, edit, card, problem", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_card_file_names_the_file_the_card_and_the_problem(tmp_path, what, edit,
                                                                      card, problem):
    folder = deck_dir(tmp_path, edit)
    with pytest.raises(ComponentError) as err:
        load_cards(folder)
    message = str(err.value)
    assert str(folder / "cards.toml") in message
    assert f"card {card}:" in message
    assert problem in message


def test_a_missing_card_is_named(tmp_path):
    folder = deck_dir(tmp_path, lambda t: replace_card(t, 150, ""))
    with pytest.raises(ComponentError, match=r"cards\.toml: \[\[card\]\]: missing cards \[150\]"):
        load_cards(folder)


def test_too_few_first_game_cards_is_an_error(tmp_path):
    folder = deck_dir(tmp_path, lambda t: t.replace("first_game = true\n", "", 10))
    with pytest.raises(ComponentError, match="stage I has 10 first-game cards"):
        load_cards(folder)


def test_arrays_are_read_only_and_if_else_compiles_to_forward_jumps():
    assert not D.meta.flags.writeable and not D.ops.flags.writeable
    for k, row in enumerate(D.ops):
        if row[CL.O_CODE] == CL.OP_IF:
            assert row[CL.O_F] > k
        if row[CL.O_CODE] == CL.OP_JUMP:
            assert row[CL.O_A] > k
    prog = D.program(5, CL.T_PLAY)  # move_troops, jump, marker, marker
    assert list(prog[:, CL.O_CODE]) == [CL.OP_MOVE_TROOPS, CL.OP_JUMP, CL.OP_MARKER,
                                        CL.OP_MARKER]


def test_space_sets_use_the_rulebook_notation():
    sets = {spec: D.space_sets[i] for i, spec in enumerate(D.set_specs)}
    four_x = sets["4X"]
    assert sorted(C.space_ids[s] for s in four_x[1:1 + four_x[0]]) == [str(n)
                                                                      for n in range(41, 49)]
    example_2 = next(row for spec, row in sets.items() if "-montjuic" in spec)
    members = set(example_2[1:1 + example_2[0]])
    assert C.montjuic not in members and C.beach not in members and len(members) == 35


# == the cards the rulebook names ===============================================================


def modifiers(card):
    return [tuple(r[:4]) for r in D.program(card, CL.T_MODIFIERS)]


def test_card_44_duke_of_popoli_exactly_as_example_29():
    meta = D.meta[44]
    assert meta[CL.M_KIND] == CL.KIND_BOURBON_LEADER and meta[CL.M_STAGE] == L.STAGE_I
    assert D.leader_names[meta[CL.M_LEADER]] == "Duke of Pópoli"
    assert meta[CL.M_WAR_COUNCIL] == L.WAR_DEFENSE and meta[CL.M_SENSE_FURY] == 3
    assert list(meta[CL.M_ALMANAC:CL.M_ALMANAC + 4]) == [0, 0, 0, 0]  # no Almanac
    assert len(D.program(44, CL.T_PLAY)) == 0
    stages_i_ii = (1 << L.STAGE_I) | (1 << L.STAGE_II)
    assert modifiers(44) == [(CL.MOD_BOMBARD_SPACES, 1, 5, 0b1111),
                             (CL.MOD_ADVANCE_DIE, -1, 0, stages_i_ii),
                             (CL.MOD_TRENCH_DIE, -1, 0, stages_i_ii)]


def test_card_30_victorias_card_of_example_29():
    meta = D.meta[30]
    assert meta[CL.M_KIND] == CL.KIND_EVENT and meta[CL.M_STAGE] == L.STAGE_I
    assert meta[CL.M_SENSE_FURY] == 5 and not meta[CL.M_FIRST_GAME]
    assert meta[CL.M_WAR_COUNCIL] not in (L.WAR_DEFENSE, L.WAR_MARKERS, L.WAR_ALL)
    assert list(meta[CL.M_ALMANAC:CL.M_ALMANAC + 4]) == [-1, 0, 0, -2]
    prog = D.program(30, CL.T_PLAY)
    assert list(prog[:, CL.O_CODE]) == [CL.OP_RANDOM_CHOICE, CL.OP_BOURBONS]
    assert prog[1, CL.O_C] == CL.VALUE_REINFORCEMENTS


def test_card_39_villarroel_every_action_at_priority_cost():
    meta = D.meta[39]
    assert meta[CL.M_KIND] == CL.KIND_BARCELONAN_LEADER
    assert D.leader_names[meta[CL.M_LEADER]] == "Antoni de Villarroel"
    assert D.titles[39] == "We Were All Sick of It, All but One Man"
    assert modifiers(39) == [(CL.MOD_ALL_PRIORITY, 1, 0, 0b1111)]
    sp, g = set_up(C, full=True)
    assert not E.group_at_priority(g, CARDS, L.WAR_ARTILLERY)
    play(39, sp, g, seat=1)
    for group in range(4):
        assert E.group_at_priority(g, CARDS, group)
    assert g[L.G_ALL_PRIORITY] == 1  # what the action costs read
    play(81, sp, g, seat=0)  # deactivated by a card
    assert g[L.G_ALL_PRIORITY] == 0


def test_examples_1_and_2_are_first_game_cards():
    assert D.meta[5, CL.M_FIRST_GAME] and D.meta[6, CL.M_FIRST_GAME]


# -- Example 1 ------------------------------------------------------------------------------


def walls():
    return [s for s in range(C.n_spaces)
            if C.space_info[s, L.S_KIND] in (L.KIND_BASTION, L.KIND_WALL)]


def test_example_1_five_troops_from_the_walls_go_to_12_21_25_26_35():
    sp, g = set_up(C, full=False)
    on_walls = sum(sp[s, L.SP_CORONELA] + sp[s, L.SP_INFANTRY] for s in walls())
    before = {t: sp[S(t), [L.SP_CORONELA, L.SP_INFANTRY]].sum() for t in (12, 21, 25, 26, 35)}
    markers = g[L.G_MARKER:L.G_MARKER + 4].copy()
    play(5, sp, g, p=params(full=False))
    for t in (12, 21, 25, 26, 35):
        assert sp[S(t), [L.SP_CORONELA, L.SP_INFANTRY]].sum() == before[t] + 1
    assert sum(sp[s, L.SP_CORONELA] + sp[s, L.SP_INFANTRY] for s in walls()) == on_walls - 5
    assert (g[L.G_MARKER:L.G_MARKER + 4] == markers).all()


def test_example_1_fewer_than_five_on_the_walls_sets_port_and_hospital_to_minimum():
    sp, g = set_up(C, full=False)
    for s in walls():
        sp[s, [L.SP_CORONELA, L.SP_INFANTRY]] = 0
    sp[S(41), L.SP_INFANTRY], sp[S(45), L.SP_CORONELA] = 2, 2  # 4 troops on the walls
    log = new_log()
    play(5, sp, g, p=params(full=False), log=log)
    assert marker(g, L.MARKER_PORT) == -2 and marker(g, L.MARKER_HOSPITAL) == 0
    assert marker(g, L.MARKER_GENERALITAT) == 6  # untouched
    assert sp[S(41), L.SP_INFANTRY] == 2 and sp[S(45), L.SP_CORONELA] == 2  # nobody moved
    assert logged(log, EV.EV_NOT_ENOUGH) == [(5, 4, 0)]


# -- Example 2 ------------------------------------------------------------------------------


def test_example_2_only_8_troops_all_move_at_most_5_on_either_then_batteries_plus_1():
    sp, g = empty_state(C)
    sp[S(12), L.SP_CORONELA] = 3
    sp[S(33), L.SP_CORONELA] = 2
    sp[S(44), L.SP_INFANTRY] = 3
    sp[C.montjuic, L.SP_INFANTRY] = 0
    batteries = g[L.G_DISC + L.DISC_BATTERIES]
    play(6, sp, g, p=params(full=False))
    on_m = sp[C.montjuic, [L.SP_CORONELA, L.SP_INFANTRY]].sum()
    on_b = sp[C.beach, [L.SP_CORONELA, L.SP_INFANTRY]].sum()
    assert on_m + on_b == 8 and on_m <= 5 and on_b <= 5
    assert sp[[S(12), S(33), S(44)]][:, [L.SP_CORONELA, L.SP_INFANTRY]].sum() == 0
    assert g[L.G_DISC + L.DISC_BATTERIES] == batteries + 1


def test_example_2_with_enough_troops_exactly_5_and_5_move():
    sp, g = set_up(C, full=False)  # 37 Barcelona troops, 35 outside Montjuïc and Beach
    play(6, sp, g, p=params(full=False))
    assert sp[C.montjuic, [L.SP_CORONELA, L.SP_INFANTRY]].sum() == 1 + 5  # its own + 5
    assert sp[C.beach, [L.SP_CORONELA, L.SP_INFANTRY]].sum() == 1 + 5
    assert pieces_total(sp).tolist() == [12, 13, 32]


# -- Example 20 -------------------------------------------------------------------------------


def test_example_20_a_new_leader_replaces_the_old_and_a_card_deactivates_another_players():
    sp, g = set_up(C, full=True)
    victor, victoria = 0, 1
    zuviria, casanova, villarroel = 42, 41, 39
    play(zuviria, sp, g, seat=victor)
    assert g[L.G_LEADER + victor] == zuviria
    log = new_log()
    play(casanova, sp, g, seat=victor, log=log)
    assert g[L.G_LEADER + victor] == casanova
    assert logged(log, EV.EV_LEADER_OFF) == [(victor, zuviria, 0)]
    play(villarroel, sp, g, seat=victoria)
    g[L.G_ROUND_CARD:L.G_ROUND_CARD + 4] = 0  # a later round
    log = new_log()
    play(81, sp, g, seat=victoria, log=log)  # "a Barcelonan leader must be deactivated"
    assert g[L.G_LEADER + victor] == 0 and g[L.G_LEADER + victoria] == villarroel
    assert logged(log, EV.EV_LEADER_OFF) == [(victor, casanova, 1)]
    assert g[L.G_LEADERS_DEACTIVATED] == 1


# -- Example 29 ------------------------------------------------------------------------------


def example_29_state():
    sp, g = set_up(C, full=True)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 4  # after the white +3 and the gray +1
    set_marker(g, L.MARKER_GENERALITAT, 6)  # Víctor improved it from 5
    return sp, g


def test_example_29_victorias_card_puts_a_value_2_tile_on_the_expedition():
    sp, g = example_29_state()
    play(44, sp, g, seat=0)  # Víctor: Pópoli, no Almanac
    assert marker(g, L.MARKER_GENERALITAT) == 6 and marker(g, L.MARKER_HOSPITAL) == 2
    assert disc_value(K, g, L.DISC_REINFORCEMENTS) == 2
    play(30, sp, g, seat=1)
    assert sp[EXPEDITION, L.SP_BOURBON] == 2
    assert sp[EXPEDITION, L.SP_INFANTRY] == 1 and sp[EXPEDITION, L.SP_CORONELA] == 2  # no fight
    assert g[L.G_RANDOM_CHOICE] == 1  # next round: cards chosen at random
    assert marker(g, L.MARKER_GENERALITAT) == 5 and marker(g, L.MARKER_HOSPITAL) == 0
    assert g[L.G_WAR_COUNCIL] == D.meta[30, CL.M_WAR_COUNCIL] and g[L.G_CARD_PLAYED] == 30


def test_example_29_the_ap_of_both_turns():
    """Example 29. Víctor: "Generalitat value: 5 ... Defense actions have priority. 2 AP to
    move the Coronela from space 58 to 47, using the Rambla. 2 AP to advance the Generalitat
    marker's pin 1 position ... 1 AP to place a bastion defense at Bastion of Sta.
    Clara-55." Victòria: "Generalitat value: 5 ... 2 AP to place a bastion defense at the
    Bastion of Tallers-46 ... 3 AP to change a card." (Full Game costs)"""
    sp, g = set_up(C, full=True)
    p = params(True)
    play(44, sp, g, seat=0)  # Pópoli: Defense priority, no Almanac
    g[L.G_SEAT_AP] = marker(g, L.MARKER_GENERALITAT)
    assert g[L.G_SEAT_AP] == 5
    A.pay(K, p, g, L.A_MOVE_TROOPS, S(58), S(47), no_log())
    A.move_troops(K, p, W, sp, g, S(58), S(47), 1, 0, no_log())
    assert g[L.G_SEAT_AP] == 3 and sp[S(47), L.SP_CORONELA] == 2
    assert A.improve_action(K, sp, L.MARKER_GENERALITAT) == L.A_IMPROVE_PRESENT  # 32 held
    A.pay(K, p, g, L.A_IMPROVE_PRESENT, L.MARKER_GENERALITAT, 0, no_log())
    A.improve_marker(K, g, L.MARKER_GENERALITAT)
    assert g[L.G_SEAT_AP] == 1 and marker(g, L.MARKER_GENERALITAT) == 6
    A.pay(K, p, g, L.A_BASTION_DEFENSE, S(55), 0, no_log())
    A.add_bastion_defense(sp, S(55))
    assert g[L.G_SEAT_AP] == 0 and sp[S(55), L.SP_DEFENSE] == 1
    E.clear_turn(g)
    play(30, sp, g, seat=1)  # Almanac: Generalitat -1; not Defense, not Markers
    g[L.G_SEAT_AP] = marker(g, L.MARKER_GENERALITAT)
    assert g[L.G_SEAT_AP] == 5
    A.pay(K, p, g, L.A_BASTION_DEFENSE, S(46), 0, no_log())
    A.add_bastion_defense(sp, S(46))
    assert g[L.G_SEAT_AP] == 3 and sp[S(46), L.SP_DEFENSE] == 1
    assert A.action_cost(K, p, g, L.A_CHANGE_CARD) == 3
    A.pay(K, p, g, L.A_CHANGE_CARD, 0, 0, no_log())
    assert g[L.G_SEAT_AP] == 0


def test_example_29_popoli_bombardment_hits_2_spaces_and_advance_1_becomes_0():
    sp, g = example_29_state()
    play(44, sp, g, seat=0)
    assert disc_value(K, g, L.DISC_BATTERIES) == 1
    assert B.bombard_spaces(K, g) == 2
    put_chance_on_top(g, chance_starting(51, 22))
    log = new_log()
    B.bombard(K, params(True), W, sp, g, rng(), 2, log)
    assert [(a, b) for a, b, _ in logged(log, EV.EV_BOMBARD_SPACE)] == [(S(51), 2), (S(22), 2)]
    assert sp[S(51), [L.SP_CANNON, L.SP_INFANTRY]].sum() == 0
    assert sp[S(22), L.SP_CORONELA] == 0 and sp[S(22), L.SP_RUBBLE] == L.RUBBLE
    assert sp[WOUNDED, L.SP_CANNON] == 2 + 1 and sp[WOUNDED, L.SP_INFANTRY] == 1
    assert E.die_amount(g, CARDS, L.ACT_ADVANCE, 1) == 0  # Advance 1 - 1: no effect
    assert E.die_amount(g, CARDS, L.ACT_TRENCH, 3) == 2
    assert E.die_amount(g, CARDS, L.ACT_BOMBARDMENT, 2) == 2
    before = sp.copy()
    B.advance_bourbons(K, params(True), W, sp, g, rng(), 0, False, no_log())
    assert (sp == before).all()


@pytest.mark.parametrize("position, spaces", [(1, 2), (10, 5), (13, 5), (15, 6)])
def test_popoli_batteries_bonus_never_above_5(position, spaces):
    sp, g = set_up(C, full=True)
    play(44, sp, g)
    g[L.G_DISC + L.DISC_BATTERIES] = position  # values 1, 4, 5, 6
    assert B.bombard_spaces(K, g) == spaces


def test_popoli_dice_modifiers_stop_in_stage_iii():
    sp, g = set_up(C, full=True)
    play(44, sp, g)
    g[L.G_STAGE] = L.STAGE_II
    assert E.die_amount(g, CARDS, L.ACT_ADVANCE, 2) == 1
    g[L.G_STAGE] = L.STAGE_III
    assert E.die_amount(g, CARDS, L.ACT_ADVANCE, 2) == 2
    assert B.bombard_spaces(K, g) == 2  # the batteries bonus has no stage limit


# == leaders' modifiers and timed effects =========================================================


def test_leader_modifiers_add_up_across_seats_and_stop_when_deactivated():
    sp, g = set_up(C, full=True)
    play(41, sp, g, seat=0)  # Casanova: +1 AP
    play(46, sp, g, seat=1)  # Patiño: -1 AP
    assert E.action_ap_bonus(g, CARDS) == 0
    E.deactivate_leader(CARDS, g, 1, no_log())
    assert E.action_ap_bonus(g, CARDS) == 1
    play(42, sp, g, seat=0)  # Zuviría replaces Casanova: Defense at priority
    assert E.action_ap_bonus(g, CARDS) == 0
    assert E.group_at_priority(g, CARDS, L.WAR_DEFENSE)
    assert not E.group_at_priority(g, CARDS, L.WAR_MOVEMENT)


def test_a_leaders_turn_lists_run_every_turn_of_its_owner():
    sp, g = set_up(C, full=True)
    g[L.G_STAGE] = L.STAGE_II
    g[L.G_TRENCH:L.G_TRENCH + 6] = [2, 2, 2, 2, 2, 2]
    play(93, sp, g, seat=0)  # Zuviría: end of turn, Trench -1
    E.timed_effects(K, CARDS, params(True), W, sp, g, rng(), 0, CL.T_END_OF_TURN, no_log())
    E.timed_effects(K, CARDS, params(True), W, sp, g, rng(), 1, CL.T_END_OF_TURN,
                    no_log())  # not his
    assert g[L.G_TRENCH:L.G_TRENCH + 6].tolist() == [2, 2, 2, 2, 2, 1]
    E.timed_effects(K, CARDS, params(True), W, sp, g, rng(), 0, CL.T_END_OF_TURN, no_log())
    assert g[L.G_TRENCH:L.G_TRENCH + 6].tolist() == [2, 2, 2, 2, 1, 1]


def test_leader_start_of_turn_grant_and_the_grant_is_gone_after_the_turn():
    sp, g = set_up(C, full=True)
    play(91, sp, g, seat=0)  # Villarroel: start of turn, Movement (1 AP)
    E.timed_effects(K, CARDS, params(True), W, sp, g, rng(), 0, CL.T_START_OF_TURN, no_log())
    assert E.granted_ap(g, L.WAR_MOVEMENT) == 1
    E.timed_effects(K, CARDS, params(True), W, sp, g, rng(), 0, CL.T_START_OF_TURN, no_log())
    assert E.granted_ap(g, L.WAR_MOVEMENT) == 1  # a new turn: a new grant, not two
    E.timed_effects(K, CARDS, params(True), W, sp, g, rng(), 0, CL.T_END_OF_TURN, no_log())
    assert E.granted_ap(g, L.WAR_MOVEMENT) == 0


def test_a_leaders_round_list_runs_every_round_an_events_only_once(tmp_path):
    sp, g = set_up(C, full=True)
    set_marker(g, L.MARKER_PORT, 1)
    play(45, sp, g, seat=0)  # Pópoli, "The Blockade Tightens": each round, Port -1
    for expected in (0, -1, -2, -2):
        E.round_effects(K, CARDS, params(True), W, sp, g, rng(), 2, 0, CL.T_NEXT_ROUND_START,
                        no_log())
        assert marker(g, L.MARKER_PORT) == expected
    cards = custom_card(tmp_path, 'next_round_start = [{ op = "marker", marker = "port", '
                                  'n = 1 }]\nend_of_round = [{ op = "disc", disc = "mine", '
                                  'n = 1 }]')
    sp, g = set_up(C, full=True)
    play(150, sp, g, seat=1, cards=cards)
    for _ in range(3):
        E.round_effects(K, cards, params(True), W, sp, g, rng(), 2, 0, CL.T_END_OF_ROUND, no_log())
        E.new_round(g)
        E.round_effects(K, cards, params(True), W, sp, g, rng(), 2, 0, CL.T_NEXT_ROUND_START,
                        no_log())
    assert marker(g, L.MARKER_PORT) == 1 and g[L.G_DISC + L.DISC_MINE] == 1


def test_an_events_start_of_turn_waits_for_its_players_next_turn(tmp_path):
    cards = custom_card(tmp_path, 'start_of_turn = [{ op = "grant_ap", group = "defense", '
                                  'n = 2 }]')
    sp, g = set_up(C, full=True)
    play(150, sp, g, seat=1, cards=cards)
    E.timed_effects(K, cards, params(True), W, sp, g, rng(), 0, CL.T_START_OF_TURN, no_log())
    assert E.granted_ap(g, L.WAR_DEFENSE) == 0  # another player's turn
    E.timed_effects(K, cards, params(True), W, sp, g, rng(), 1, CL.T_START_OF_TURN, no_log())
    assert E.granted_ap(g, L.WAR_DEFENSE) == 2
    E.timed_effects(K, cards, params(True), W, sp, g, rng(), 1, CL.T_START_OF_TURN, no_log())
    assert E.granted_ap(g, L.WAR_DEFENSE) == 0  # once only


def test_a_leader_deactivated_in_the_round_it_was_played_is_still_scored():
    sp, g = set_up(C, full=True)
    play(41, sp, g, seat=0)
    play(81, sp, g, seat=1)
    assert g[L.G_LEADER] == 0  # boxed
    assert g[L.G_ROUND_CARD] == 41  # but still the card seat 1 played this round
    log = new_log()
    g[L.G_SEATS] = 2
    score_round(CARDS, params(True, level="competitive"), g, 0, log)
    scored = [tuple(e[1:]) for e in events(log) if e[0] == EV.EV_CARD_SCORED]
    assert [seat for seat, _, _ in scored] == [0, 1]  # seat 1's leader card moved the pin


# == one scenario per opcode ==================================================================


def test_op_advance_moves_the_bourbons_like_a_die(tmp_path):
    sp, g = set_up(C, full=True)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 2  # value 2 on every camp
    log = new_log()
    play(15, sp, g, log=log)  # Advance 1
    assert len(logged(log, EV.EV_CAMP_PLACED)) == 15
    assert g[L.G_DISC + L.DISC_REINFORCEMENTS] == 0 and g[L.G_CHANCE_DRAWN] == 1


def test_op_bombard_uses_the_batteries_value_and_the_hits(tmp_path):
    sp, g = set_up(C, full=True)
    g[L.G_DISC + L.DISC_BATTERIES] = 6  # value 3
    log = new_log()
    play(19, sp, g, log=log)  # Bombardment 2
    assert [b for _, b, _ in logged(log, EV.EV_BOMBARD_SPACE)] == [2, 2, 2]


def test_op_trench_forward_and_back():
    sp, g = set_up(C, full=True)
    play(52, sp, g)  # Trench +3
    assert g[L.G_TRENCH:L.G_TRENCH + 6].tolist() == [1, 1, 1, 0, 0, 0]
    play(55, sp, g)  # Trench -2
    assert g[L.G_TRENCH:L.G_TRENCH + 6].tolist() == [1, 0, 0, 0, 0, 0]


def test_op_disc_reinforcements_resolves_the_icon_it_ends_on():
    sp, g = set_up(C, full=True)
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 0
    batteries = g[L.G_DISC + L.DISC_BATTERIES]
    play(2, sp, g)  # Reinforcements +2: lands on the batteries icon
    assert g[L.G_DISC + L.DISC_REINFORCEMENTS] == 2
    assert g[L.G_DISC + L.DISC_BATTERIES] == batteries + 1


def test_op_disc_batteries_mine_and_to_min():
    sp, g = set_up(C, full=True)
    play(72, sp, g)  # Mine +2
    assert g[L.G_DISC + L.DISC_MINE] == 2
    play(73, sp, g)  # the counter-mine: to its minimum
    assert g[L.G_DISC + L.DISC_MINE] == 0
    play(61, sp, g)  # Batteries -1 at the minimum: stays
    assert g[L.G_DISC + L.DISC_BATTERIES] == C.batteries_minimum


def test_op_marker_steps_clamp_and_min_max(tmp_path):
    cards = program(tmp_path, '{ op = "marker", marker = "gunpowder_store", n = -9 }',
                    '{ op = "marker", marker = "port", to = "max" }',
                    '{ op = "marker", marker = "hospital", n = 1 }')
    sp, g = set_up(C, full=True)
    play(150, sp, g, cards=cards)
    assert marker(g, L.MARKER_GUNPOWDER_STORE) == 1
    assert marker(g, L.MARKER_PORT) == 1 and marker(g, L.MARKER_HOSPITAL) == 3


def test_almanac_moves_pins_and_stops_at_the_ends():
    sp, g = set_up(C, full=True)
    set_marker(g, L.MARKER_GENERALITAT, 2)
    play(22, sp, g)  # Generalitat -2
    assert marker(g, L.MARKER_GENERALITAT) == 1  # the dial's minimum
    log = new_log()
    play(24, sp, g, log=log)  # Generalitat +1, hospital +1
    assert marker(g, L.MARKER_GENERALITAT) == 2 and marker(g, L.MARKER_HOSPITAL) == 3
    assert [a for a, _, _ in logged(log, EV.EV_ALMANAC)] == [L.MARKER_GENERALITAT,
                                                              L.MARKER_HOSPITAL]


def test_op_temp_changes_the_value_for_this_turn_only_no_pin_moves():
    sp, g = set_up(C, full=True)
    pin = g[L.G_MARKER + L.MARKER_GUNPOWDER_STORE]
    play(70, sp, g)  # ↑ Gunpowder Store, Artillery (2 AP)
    assert g[L.G_MARKER + L.MARKER_GUNPOWDER_STORE] == pin
    dial = C.marker_values[L.MARKER_GUNPOWDER_STORE][pin]
    assert marker(g, L.MARKER_GUNPOWDER_STORE) == dial + 1  # every rule reads the ↑
    assert E.granted_ap(g, L.WAR_ARTILLERY) == 2
    E.timed_effects(K, CARDS, params(True), W, sp, g, rng(), 0, CL.T_END_OF_TURN, no_log())
    assert marker(g, L.MARKER_GUNPOWDER_STORE) == dial


def test_op_temp_on_the_batteries_disc_widens_a_card_bombardment():
    sp, g = set_up(C, full=True)
    log = new_log()
    play(116, sp, g, log=log)  # ↑ Batteries, Bombardment 1
    assert len(logged(log, EV.EV_BOMBARD_SPACE)) == 2  # batteries value 1, read as 2
    assert g[L.G_DISC + L.DISC_BATTERIES] == 1


def test_op_move_troops_into_bourbons_fights_at_once(tmp_path):
    cards = program(tmp_path, '{ op = "move_troops", from = "reserve", to = "12", n = 2 }')
    sp, g = set_up(C, full=True)
    sp[S(12), L.SP_BOURBON] = 2
    log = new_log()
    play(150, sp, g, cards=cards, log=log)
    assert len(logged(log, EV.EV_COMBAT)) == 1 and sp[S(12), L.SP_BOURBON] == 0


def test_op_move_troops_cannons_from_wounded_to_bastions():
    sp, g = set_up(C, full=True)
    before = sp[:, L.SP_CANNON].copy()
    play(88, sp, g)  # 2 cannons, one per bastion
    assert sp[WOUNDED, L.SP_CANNON] == 0
    gained = np.flatnonzero(sp[:, L.SP_CANNON] > before)
    assert len(gained) == 2 and (sp[gained, L.SP_CANNON] == before[gained] + 1).all()
    assert (C.space_info[gained, L.S_KIND] == L.KIND_BASTION).all()


def test_op_move_troops_a_cannon_alone_with_bourbons_is_eliminated(tmp_path):
    cards = program(tmp_path, '{ op = "move_troops", piece = "cannon", from = "reserve", '
                              'to = "41", n = 1 }')
    sp, g = set_up(C, full=True)
    sp[S(41), [L.SP_BOURBON, L.SP_INFANTRY]] = (3, 0)
    sp[RESERVE, L.SP_INFANTRY] += 1
    play(150, sp, g, cards=cards)
    assert sp[S(41), L.SP_CANNON] == 0 and sp[WOUNDED, L.SP_CANNON] == 2 + 1


def test_op_move_troops_out_of_barcelona_takes_infantry_first():
    sp, g = set_up(C, full=True)
    play(18, sp, g)  # 2 deserters to Reserve
    assert sp[RESERVE, L.SP_INFANTRY] == 2 + 2 and sp[RESERVE, L.SP_CORONELA] == 3


def test_op_place_organ_gun_on_the_most_threatened_space():
    sp, g = set_up(C, full=True)
    source = int(np.flatnonzero(C.arrows[:, L.YELLOW] == S(52))[0])
    sp[source, L.SP_BOURBON] = 6
    play(31, sp, g)
    assert sp[S(52), L.SP_ORGAN_GUNS] == 1 and sp[:, L.SP_ORGAN_GUNS].sum() == 1


def test_op_place_respects_the_supply_and_one_defense_tile_per_bastion(tmp_path):
    sp, g = set_up(C, full=True)
    sp[[S(n) for n in (11, 12, 13, 14, 15)], L.SP_ORGAN_GUNS] = 1  # all 5 on the board
    play(123, sp, g)
    assert sp[:, L.SP_ORGAN_GUNS].sum() == 5
    cards = program(tmp_path, '{ op = "place", piece = "bastion_defense", where = "53", '
                              'mode = "each", n = 3 }')
    play(150, sp, g, cards=cards)
    assert sp[S(53), L.SP_DEFENSE] == 2  # +1, flipped to +2, then no more


def test_op_place_barricades_rubble_and_ruined():
    sp, g = set_up(C, full=True)
    play(32, sp, g)  # 2 barricades in 3X
    threex = [S(n) for n in range(31, 37)]
    assert sp[threex, L.SP_BARRICADES].sum() == 2
    supply = g[L.G_RUBBLE_SUPPLY]
    play(14, sp, g)  # rubble on 36
    assert sp[S(36), L.SP_RUBBLE] == L.RUBBLE and g[L.G_RUBBLE_SUPPLY] == supply - 1
    play(103, sp, g)  # ruined on 53, its defense removed
    assert sp[S(53), L.SP_RUBBLE] == L.RUINED and sp[S(53), L.SP_DEFENSE] == 0


def test_op_place_rubble_where_a_chance_card_says():
    sp, g = set_up(C, full=True)
    g[L.G_STAGE] = L.STAGE_I
    put_chance_on_top(g, chance_starting(11, 45))
    play(56, sp, g)  # Red-Hot Shot: the first 2 spaces of a chance card
    assert sp[S(11), L.SP_RUBBLE] == L.RUBBLE and sp[S(45), L.SP_RUBBLE] == L.RUBBLE
    assert rubble_on_board(sp, g) == 2


def test_op_place_battery_tiles_on_camps():
    sp, g = set_up(C, full=True)
    batteries = g[L.G_DISC + L.DISC_BATTERIES]
    play(71, sp, g)  # 2 battery tiles on trench camps, Batteries +2
    assert sp[C.trench[:, 0], L.SP_BATTERY_TILES].sum() == 2
    assert g[L.G_DISC + L.DISC_BATTERIES] == batteries + 2


def test_card_98_places_its_battery_tile_with_batteries_plus_1():
    """Verboom's battery tile is a battery: "Battery: ... represented abstractly by the
    batteries disc, and also by the Bourbon battery tiles" (Glossary), and taking one moves
    the disc back "as many spaces ... as the number of Bourbon battery tiles removed"."""
    sp, g = set_up(C, full=True)
    batteries = g[L.G_DISC + L.DISC_BATTERIES]
    play(98, sp, g)
    assert sp[C.trench[:, 0], L.SP_BATTERY_TILES].sum() == 1
    assert g[L.G_DISC + L.DISC_BATTERIES] == batteries + 1
    camp = C.trench[:, 0][sp[C.trench[:, 0], L.SP_BATTERY_TILES] == 1][0]
    assert E.remove_one(K, sp, g, camp, CL.PIECE_BATTERY, 1, no_log()) == 1
    assert g[L.G_DISC + L.DISC_BATTERIES] == batteries  # won back: as before the card


def test_op_remove_battery_tiles_moves_the_batteries_disc_back():
    sp, g = set_up(C, full=True)
    g[L.G_DISC + L.DISC_BATTERIES] = 6
    sp[C.trench[2, 0], L.SP_BATTERY_TILES] = 2
    play(86, sp, g)  # remove 2 battery tiles at the trench camps, Trench -1
    assert sp[:, L.SP_BATTERY_TILES].sum() == 0 and g[L.G_DISC + L.DISC_BATTERIES] == 4


def test_op_remove_rubble_ruined_first():
    sp, g = set_up(C, full=True)
    sp[S(11), L.SP_RUBBLE] = L.RUBBLE
    sp[S(12), L.SP_RUBBLE] = L.RUINED
    sp[S(13), L.SP_RUBBLE] = L.RUBBLE
    play(117, sp, g)  # 2 bastion defenses, 1 rubble/ruined removed
    assert sp[S(12), L.SP_RUBBLE] == L.RUBBLE_NONE and rubble_on_board(sp, g) == 2
    assert (sp[:, L.SP_DEFENSE] > 0).sum() == 2


def test_op_remove_bourbon_points(tmp_path):
    cards = program(tmp_path, '{ op = "remove", piece = "bourbon", where = "outside", n = 5 }')
    sp, g = set_up(C, full=True)
    outside = [s for s in range(C.n_spaces) if C.space_info[s, L.S_KIND] == L.KIND_OUTSIDE]
    sp[outside[0], L.SP_BOURBON], sp[outside[1], L.SP_BOURBON] = 3, 4
    play(150, sp, g, cards=cards)
    assert sp[outside, L.SP_BOURBON].sum() == 2 and sp[outside[1], L.SP_BOURBON] == 0


def test_op_capture_sends_troops_to_captured_and_keeps_coronela_above_threshold():
    sp, g = set_up(C, full=True)
    play(77, sp, g)  # capture 2 on the walls
    assert sp[CAPTURED, [L.SP_INFANTRY, L.SP_CORONELA]].sum() == 2
    assert g[L.G_TROOPS_CAPTURED] == 2
    p = params(True)
    p[L.P_CORONELA_THRESHOLD] = 40  # every Coronela is precious now
    sp, g = set_up(C, full=True)
    play(77, sp, g, p=p)
    assert sp[CAPTURED, L.SP_INFANTRY] == 2 and sp[CAPTURED, L.SP_CORONELA] == 0


def test_op_free_brings_captives_back():
    sp, g = set_up(C, full=True)
    sp[CAPTURED, [L.SP_INFANTRY, L.SP_CORONELA]] = (1, 2)
    sp[RESERVE, [L.SP_INFANTRY, L.SP_CORONELA]] -= (1, 2)
    play(78, sp, g)
    assert sp[CAPTURED, L.SP_INFANTRY] == 0 and sp[CAPTURED, L.SP_CORONELA] == 1
    assert pieces_total(sp).tolist() == [12, 13, 32]


def test_op_eliminate_troops_go_to_wounded_cannons_too():
    sp, g = set_up(C, full=True)
    play(68, sp, g)  # 2 Coronela from Barcelona
    assert sp[WOUNDED, L.SP_CORONELA] == 2
    play(87, sp, g)  # 2 cannons from the bastions
    assert sp[WOUNDED, L.SP_CANNON] == 2 + 2


def test_op_bourbons_and_combat_at_the_expedition():
    sp, g = set_up(C, full=True)  # Expedition: 1 infantry + 2 Coronela = 5
    log = new_log()
    play(28, sp, g, log=log)  # 3 Bourbons, then combat: the Expedition wins
    assert logged(log, EV.EV_COMBAT) == [(EXPEDITION, 3, 5)]
    assert sp[EXPEDITION, L.SP_BOURBON] == 0
    sp, g = set_up(C, full=True)
    sp[EXPEDITION, [L.SP_INFANTRY, L.SP_CORONELA]] = (0, 1)
    sp[RESERVE, [L.SP_INFANTRY, L.SP_CORONELA]] += (1, 1)
    play(38, sp, g)  # 2 Bourbons beat 1 Coronela: it goes to Reserve (outside Barcelona)
    assert sp[EXPEDITION, L.SP_CORONELA] == 0 and sp[EXPEDITION, L.SP_BOURBON] == 1
    assert sp[RESERVE, L.SP_CORONELA] == 3 + 1 + 1


def test_op_bourbons_in_barcelona_fight_at_once(tmp_path):
    cards = program(tmp_path, '{ op = "bourbons", where = "12", value = 9 }')
    sp, g = set_up(C, full=True)
    play(150, sp, g, cards=cards)
    assert sp[S(12), L.SP_CORONELA] == 0 and sp[S(12), L.SP_BOURBON] == 9 - 1 - 4


def test_op_heal_resolves_port_and_hospitals():
    sp, g = set_up(C, full=True)
    sp[WOUNDED, L.SP_CORONELA] = 2
    sp[RESERVE, L.SP_CORONELA] -= 2
    set_marker(g, L.MARKER_HOSPITAL, 2)
    play(62, sp, g)  # heal, then hospital -2
    assert sp[S(34), L.SP_CORONELA] == 1 + 2 and marker(g, L.MARKER_HOSPITAL) == 0


@pytest.mark.parametrize("full", [True, False])
def test_op_mine_explodes_only_in_the_full_game(full):
    sp, g = set_up(C, full=True)
    g[L.G_DISC + L.DISC_MINE] = 2
    g[L.G_DISC + L.DISC_REINFORCEMENTS] = 1
    log = new_log()
    play(74, sp, g, p=params(full), log=log)
    assert (len(logged(log, EV.EV_BOMBARD_SPACE)) == 2) == full
    assert (g[L.G_DISC + L.DISC_MINE] == 0) == full


def test_op_chance_hits_draws_a_card_for_spaces_and_hits():
    sp, g = set_up(C, full=True)
    g[L.G_STAGE] = L.STAGE_III
    log = new_log()
    play(137, sp, g, log=log)
    assert [b for _, b, _ in logged(log, EV.EV_BOMBARD_SPACE)] == [2, 2, 2]


def test_op_grant_ap_and_random_card_choice():
    sp, g = set_up(C, full=True)
    play(150, sp, g)
    assert E.granted_ap(g, L.WAR_MARKERS) == 2 and g[L.G_RANDOM_CHOICE] == 1


def test_granted_ap_are_spent_in_the_card_step_before_the_next_action(tmp_path):
    """"Artillery (X AP): text on some event/leader cards that tells the player they have
    X AP to use on the Barcelonan actions described in the "Artillery" section", and "every
    action must be resolved before starting the next one" (2. Resolve the Card Effect):
    the cannon fires before the card's Advance, not after the Bourbon dice."""
    cards = program(tmp_path, '{ op = "grant_ap", group = "artillery", n = 1 }',
                    '{ op = "advance", n = 1 }')
    sp, g = empty_state(C)
    set_marker(g, L.MARKER_GUNPOWDER_STORE, 4)
    sp[S(21), L.SP_CANNON] = 1  # Example 14: the cannon at 21 fires at an adjacent space
    sp[S(22), L.SP_BOURBON] = 4
    log = new_log()
    play(150, sp, g, cards=cards, log=log)
    shots = [(b, c) for a, b, c in logged(log, EV.EV_ACTION) if a == L.A_FIRE_CANNON]
    assert shots == [(S(21), S(22))] and sp[:, L.SP_BOURBON].sum() == 0
    assert logged(log, EV.EV_ADVANCE) == []  # nothing left to advance
    assert E.granted_ap(g, L.WAR_ARTILLERY) == 1  # the turn's record
    assert g[L.G_SEAT_AP] == 0 and g[L.G_AP_GROUP] == -1  # spent: none left for step 5


def test_op_deactivate_leader_bourbon_and_whose(tmp_path):
    sp, g = set_up(C, full=True)
    play(44, sp, g, seat=0)  # Pópoli (3 modifiers)
    play(46, sp, g, seat=1)  # Patiño (1 modifier)
    play(80, sp, g, seat=1)  # a Bourbon leader: the heaviest goes
    assert g[L.G_LEADER + 0] == 0 and g[L.G_LEADER + 1] == 46
    cards = program(tmp_path, '{ op = "deactivate_leader", side = "barcelonan", whose = "own" }')
    sp, g = set_up(C, full=True)
    play(41, sp, g, seat=0)
    play(42, sp, g, seat=1)
    play(150, sp, g, seat=1, cards=cards)
    assert g[L.G_LEADER + 0] == 41 and g[L.G_LEADER + 1] == 0
    play(150, sp, g, seat=1, cards=cards)  # nothing of its own left: nothing happens
    assert g[L.G_LEADER + 0] == 41


def test_op_rubble_on_marker_counts_towards_defeat(tmp_path):
    sp, g = set_up(C, full=True)
    supply = g[L.G_RUBBLE_SUPPLY]
    play(82, sp, g)
    assert g[L.G_RUBBLE_ON_MARKERS] == 1 and rubble_on_board(sp, g) == 1
    assert g[L.G_RUBBLE_SUPPLY] == supply - 1
    cards = program(tmp_path, '{ op = "rubble_on_marker", n = -3 }')
    play(150, sp, g, cards=cards)
    assert g[L.G_RUBBLE_ON_MARKERS] == 0 and g[L.G_RUBBLE_SUPPLY] == supply


def test_op_if_marker_disc_count_and_leaders(tmp_path):
    cards = program(
        tmp_path,
        '{ op = "if", cond = { marker = "port", at_most = -1 }, then = ['
        '{ op = "grant_ap", group = "movement", n = 1 }], else = ['
        '{ op = "grant_ap", group = "markers", n = 1 }] }',
        '{ op = "if", cond = { disc = "batteries", equals = 1 }, then = ['
        '{ op = "grant_ap", group = "artillery", n = 1 }] }',
        '{ op = "if", cond = { count = "bourbon", in = "expedition", at_least = 3 }, then = ['
        '{ op = "grant_ap", group = "defense", n = 1 }] }',
        '{ op = "if", cond = { leaders = "bourbon", at_least = 1 }, then = ['
        '{ op = "grant_ap", group = "defense", n = 5 }] }')
    sp, g = set_up(C, full=True)  # Port 0, batteries 1, nobody at the Expedition
    play(150, sp, g, cards=cards)
    assert [E.granted_ap(g, k) for k in range(4)] == [0, 1, 1, 0]
    sp, g = set_up(C, full=True)
    set_marker(g, L.MARKER_PORT, -1)
    sp[EXPEDITION, L.SP_BOURBON] = 3
    play(44, sp, g, seat=1)
    play(150, sp, g, cards=cards)
    assert [E.granted_ap(g, k) for k in range(4)] == [1, 0, 1, 6]


def test_op_if_parallel_and_rubble_on_board():
    sp, g = set_up(C, full=True)
    g[L.G_TRENCH:L.G_TRENCH + 6] = [2, 2, 2, 2, 2, 1]
    play(53, sp, g)  # 1st Parallel completed: Batteries +1, no trench
    assert g[L.G_DISC + L.DISC_BATTERIES] == 2 and g[L.G_TRENCH + 5] == 1
    g[L.G_TRENCH:L.G_TRENCH + 6] = 0
    play(53, sp, g)  # not completed: Trench +2
    assert g[L.G_TRENCH:L.G_TRENCH + 6].sum() == 2
    sp, g = set_up(C, full=True)
    set_marker(g, L.MARKER_GENERALITAT, 5)
    g[L.G_RUBBLE_ON_MARKERS] = 10
    play(110, sp, g)  # 10 or more rubble: Generalitat -1, then the Almanac's -1
    assert marker(g, L.MARKER_GENERALITAT) == 3


# == the whole deck ===========================================================================


def mid_game(seed, full):
    """A set-up roughed up by 12 random Bourbon dice."""
    sp, g = set_up(C, full=full)
    state = streams(seed, 7)
    p = params(full)
    for turn in range(12):
        g[L.G_STAGE] = turn // 5
        B.resolve_die(K, p, W, sp, g, state, uniform_int(state, 0, 4), uniform_int(state, 0, 3) + 1,
                      False, no_log())
    return sp, g


def check_state(sp, g, card):
    assert (sp >= 0).all(), card
    assert pieces_total(sp).tolist() == [12, 13, 32], card
    for m in range(4):
        assert 0 <= g[L.G_MARKER + m] < C.marker_len[m], card
    for d in range(3):
        assert 0 <= g[L.G_DISC + d] < C.track_value.shape[0], card
    assert g[L.G_DISC + L.DISC_BATTERIES] >= C.batteries_minimum, card
    assert ((0 <= g[L.G_TRENCH:L.G_TRENCH + 6]) & (g[L.G_TRENCH:L.G_TRENCH + 6] <= 3)).all()
    assert (sp[:, L.SP_RUBBLE] <= L.RUINED).all() and (sp[:, L.SP_DEFENSE] <= 2).all()
    assert sp[:, L.SP_ORGAN_GUNS].sum() <= 5 and sp[:, L.SP_BARRICADES].sum() <= 10
    assert sp[:, L.SP_BATTERY_TILES].sum() <= 10 and g[L.G_RUBBLE_ON_MARKERS] >= 0


@pytest.mark.parametrize("seed", range(4))
def test_every_card_keeps_the_pieces_and_the_state_in_range(seed):
    for start in ("set_up", "mid_game"):
        for card in range(1, 151):
            full = not (seed == 0 and D.meta[card, CL.M_FIRST_GAME])
            if start == "set_up":
                sp, g = set_up(C, full=full)
            else:
                sp, g = mid_game(seed, full)
            g[L.G_STAGE] = D.meta[card, CL.M_STAGE]
            p = params(full)
            seat = seed % 2
            g[L.G_LEADER + 1 - seat] = 44  # Pópoli is active on the other seat
            E.resolve_card(K, CARDS, p, W, sp, g, streams(seed, card), seat, card, no_log())
            check_state(sp, g, card)
            for when in (CL.T_END_OF_TURN, CL.T_END_OF_ROUND, CL.T_NEXT_ROUND_START,
                         CL.T_START_OF_TURN):
                E.round_effects(K, CARDS, p, W, sp, g, streams(seed, card), 2, 0, when,
                                no_log())
            check_state(sp, g, card)


def severity(card):
    """A rough reading of how bad a card is for Barcelona (positive = bad news)."""
    score = -int(D.meta[card, CL.M_ALMANAC:CL.M_ALMANAC + 4].sum())
    weights = {CL.OP_ADVANCE: 2, CL.OP_BOMBARD: 2, CL.OP_CAPTURE: 1, CL.OP_ELIMINATE: 1,
               CL.OP_CHANCE_HITS: 2, CL.OP_MINE_EXPLODES: 2, CL.OP_RUBBLE_ON_MARKER: 2,
               CL.OP_GRANT_AP: -1, CL.OP_HEAL: -1, CL.OP_FREE: -1}
    for row in D.program(card, CL.T_PLAY):
        code, a = row[CL.O_CODE], row[CL.O_A]
        if code in (CL.OP_TRENCH, CL.OP_DISC):
            score += int(np.sign(row[CL.O_A if code == CL.OP_TRENCH else CL.O_B]))
        elif code == CL.OP_PLACE:
            score += 1 if a in (CL.PIECE_RUBBLE, CL.PIECE_RUINED, CL.PIECE_BATTERY) else -1
        elif code == CL.OP_REMOVE:
            score += -1 if a in (CL.PIECE_RUBBLE, CL.PIECE_BATTERY, CL.PIECE_BOURBON) else 1
        else:
            score += weights.get(int(code), 0)
    return score


def test_most_events_are_bad_news_and_stage_iii_is_harsher_than_stage_i():
    events_ = [c for c in range(1, 151) if D.meta[c, CL.M_KIND] == CL.KIND_EVENT]
    bad = [c for c in events_ if severity(c) > 0]
    assert len(bad) / len(events_) > 0.55
    mean = [np.mean([severity(c) for c in D.stage(s) if c in events_]) for s in range(3)]
    assert mean[2] > mean[0] > 0


def test_card_events_are_narrated_for_traces():
    from simkit.games.victus.narrate import narrate_log

    sp, g = example_29_state()
    log = new_log()
    play(44, sp, g, seat=0, log=log)
    play(30, sp, g, seat=1, log=log)
    text = "\n".join(narrate_log(log, C, D))
    assert 'seat 1 plays card 44 "The Duke of Pópoli" (bourbon leader)' in text
    assert "(Duke of Pópoli)" in text
    assert "next round, all players choose their card at random" in text
    assert "a value-2 Bourbon tile is added to Military Deputy's Expedition" in text
    assert "Almanac: Generalitat 6 -> 5" in text and "Almanac: Saint Cross" in text


def test_every_event_has_a_sentence():
    """The table covers every code the rules log (no "(unknown event)" in a trace)."""
    from simkit.games.victus.events import EVENTS

    codes = [row[0] for row in EVENTS.rows]
    assert codes == list(range(1, len(codes) + 1))
    assert EVENTS.sentence(None, len(codes) + 1, 0, 0, 0).startswith("(unknown event")
