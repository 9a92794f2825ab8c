"""The ``victus`` question family (simkit/games/victus/prob.py) against the game's own code
paths: each answer checked against the engine's functions (combat resolution, cannon fire,
the Stage IV draw, the event piles, the chance deck, the Bourbon action dice through the
real random streams, Sense/Fury scoring, fame), and each worked example's numbers."""

from fractions import Fraction as F

import numpy as np
import pytest
from scipy.stats import binomtest
from victus_support import C, K, S, W, params, set_marker, streams

from simkit import RulesError, games
from simkit.eventlog import no_log
from simkit.games.victus import barcelonans as BA
from simkit.games.victus import bourbons as B
from simkit.games.victus import card_effects as E
from simkit.games.victus import card_layout as CL
from simkit.games.victus import combat as CB
from simkit.games.victus import engine as EN
from simkit.games.victus import hands as H
from simkit.games.victus import layout as L
from simkit.games.victus import prob as VP
from simkit.games.victus import scoring as SC
from simkit.games.victus.cards import load_cards
from simkit.games.victus.state import empty_state, set_up

D = load_cards()
CARDS = D.as_tuple()
DICE = tuple(np.ascontiguousarray(a, dtype=np.int64)
             for a in (C.die_action, C.die_amount, C.stage_dice))
ENGINE_RESULT = {CB.BOURBONS_WIN: VP.BOURBONS_WIN, CB.BARCELONANS_WIN: VP.BARCELONANS_WIN,
                 CB.BOTH_LOSE: VP.BOTH_LOSE}
CONFIDENCE = 0.999


def within(hits: int, n: int, p, tests: int = 1) -> bool:
    """``p`` lies in the exact (Clopper-Pearson) interval of ``hits`` in ``n``, at a
    family-wise level of CONFIDENCE over ``tests`` intervals (Bonferroni)."""
    ci = binomtest(hits, n).proportion_ci(1 - (1 - CONFIDENCE) / tests, method="exact")
    return ci.low <= float(p) <= ci.high


def ask(name: str, **given):
    question = VP.QUESTIONS[name]
    return question.answer(question.params(**given))


def outside_space() -> int:
    """A space outside Barcelona on a Bourbon route (its yellow arrow leads into 52)."""
    return int(np.flatnonzero(C.arrows[:, L.YELLOW] == S(52))[0])


# -- combat ------------------------------------------------------------------------------------


def engine_combat(d: VP.Defence, bourbons: int, reading: str):
    """Set the defence up in a bastion (53) or outside Barcelona and run the kernel's
    ``resolve_combat``: (result, Bourbon value left, troop value lost, infantry left)."""
    sp, g = empty_state(C)
    set_marker(g, L.MARKER_GUNPOWDER_STORE, d.gunpowder_store)
    space = S(53) if d.in_barcelona else outside_space()
    sp[space, [L.SP_CORONELA, L.SP_INFANTRY, L.SP_DEFENSE, L.SP_BARRICADES,
               L.SP_ORGAN_GUNS, L.SP_BOURBON]] = (d.coronela, d.infantry, d.bastion_defense,
                                                  d.barricades, d.organ_guns, bourbons)
    p = params(full=True, winner_casualties=reading)
    result = CB.resolve_combat(K, p, W, sp, g, space, d.flag_holder, no_log())
    lost = (d.coronela - sp[space, L.SP_CORONELA]) + 3 * (d.infantry - sp[space, L.SP_INFANTRY])
    return result, int(sp[space, L.SP_BOURBON]), int(lost), int(sp[space, L.SP_INFANTRY])


def random_defences(n: int, seed: int = 3):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        inside = bool(rng.integers(2))
        yield VP.CombatParams(
            coronela=int(rng.integers(0, 5)), infantry=int(rng.integers(0, 3)),
            in_barcelona=inside, gunpowder_store=int(rng.integers(*VP.GUNPOWDER_RANGE)),
            flag_holder=bool(rng.integers(2)),
            bastion_defense=int(rng.integers(0, 3)) if inside else 0,
            barricades=int(rng.integers(0, 3)) if inside else 0,
            organ_guns=int(rng.integers(0, 2)), bourbons=int(rng.integers(0, 25)),
            winner_casualties=str(rng.choice(VP.CASUALTY_READINGS)))


def test_combat_answers_match_the_kernels_combat_resolution():
    seen = set()
    for q in random_defences(300):
        row = ask("combat", **q.to_dict()).iloc[0]
        result, left, lost, infantry_left = engine_combat(q, q.bourbons, q.winner_casualties)
        if q.bourbons == 0 and q.coronela + q.infantry + q.organ_guns == 0:
            continue  # nothing to fight: the engine has no combat here
        seen.add(row["result"])
        assert ENGINE_RESULT[result] == row["result"]
        assert left == row["bourbons_left"]
        troops = q.coronela + 3 * q.infantry
        if row["barcelonan_troops"] == "all eliminated":
            assert lost == troops
        else:  # the casualty points are spent: lost value up to them, the rest on infantry
            points = row["casualty_points"]
            if points >= troops:
                assert lost == troops
            else:
                assert lost <= points <= lost + 2 * infantry_left
    assert seen == {VP.BOURBONS_WIN, VP.BARCELONANS_WIN, VP.BOTH_LOSE}


EXAMPLE_18 = [  # (defence, Bourbons, Barcelonan value, result, Bourbons left, casualty points)
    (dict(coronela=0, infantry=1, in_barcelona=False, bastion_defense=0), 4, 3,
     VP.BOURBONS_WIN, 1, 0),
    (dict(coronela=1, infantry=1, bastion_defense=0), 9, 8, VP.BOURBONS_WIN, 1, 0),
    (dict(coronela=2, infantry=1, bastion_defense=2), 8, 11, VP.BARCELONANS_WIN, 0, 2),
]


@pytest.mark.parametrize("defence, bourbons, value, result, left, points", EXAMPLE_18)
def test_example_18_three_combats(defence, bourbons, value, result, left, points):
    """Example 18, Gunpowder Store 4: 4 vs 3 leaves 1; 9 vs 8 leaves 1; 8 vs 11: 8 - 4 - 2
    = 2 casualty points, taken by the infantry, which stays."""
    q = VP.CombatParams(gunpowder_store=4, bourbons=bourbons, **defence)
    row = ask("combat", **q.to_dict()).iloc[0]
    assert (row["barcelonans"], row["result"], row["bourbons_left"],
            row["casualty_points"]) == (value, result, left, points)
    engine = engine_combat(q, bourbons, q.winner_casualties)
    assert ENGINE_RESULT[engine[0]] == result and engine[1] == left


def test_example_26_organ_gun_and_barricade():
    """Example 26: 12 Bourbons against 4 (Gunpowder Store) + 5 (organ-gun) + 1 (barricade)
    = 10 and no troops: the Bourbons win and a value-2 tile is left."""
    q = VP.CombatParams(coronela=0, infantry=0, gunpowder_store=4, bastion_defense=0,
                        barricades=1, organ_guns=1, bourbons=12)
    row = ask("combat", **q.to_dict()).iloc[0]
    assert (row["barcelonans"], row["result"], row["bourbons_left"]) == \
        (10, VP.BOURBONS_WIN, 2)
    assert engine_combat(q, 12, q.winner_casualties)[:2] == (CB.BOURBONS_WIN, 2)


def test_break_space_is_one_more_than_the_defence_on_the_kernel():
    """The digest's example: 1 infantry + 2 Coronela + Gunpowder Store 4 + bastion 2 = 11;
    12 Bourbons break it and leave a value-1 tile, 11 tie, 10 are held."""
    table = ask("break_space")
    assert list(table["bourbons"]) == [12, 11, 10]
    assert list(table["result"]) == [VP.BOURBONS_WIN, VP.BOTH_LOSE, VP.BARCELONANS_WIN]
    for q in random_defences(100, seed=5):
        d = VP.Defence(**{k: v for k, v in q.to_dict().items()
                          if k in VP.Defence.__dataclass_fields__})
        table = ask("break_space", **d.to_dict())
        for _, row in table.iterrows():
            result, left, _, _ = engine_combat(d, row["bourbons"], VP.Rules().winner_casualties)
            if row["bourbons"] or d.coronela + d.infantry + d.organ_guns:
                assert ENGINE_RESULT[result] == row["result"] and left == row["bourbons_left"]
        assert table["bourbons"].iloc[0] == VP.barcelonan_value(d) + 1


# -- cannon ------------------------------------------------------------------------------------


@pytest.mark.parametrize("gunpowder, flag", [(4, False), (3, True), (1, False), (5, True)])
def test_cannon_shot_matches_fire_cannon(gunpowder, flag):
    table = ask("cannon", gunpowder_store=gunpowder, flag_holder=flag)
    assert list(table["tile"]) == [int(v) for v in C.troop_values]
    for _, row in table.iterrows():
        sp, g = empty_state(C)
        set_marker(g, L.MARKER_GUNPOWDER_STORE, gunpowder)
        g[L.G_FLAG_TURN] = int(flag)
        target = outside_space()
        sp[target, L.SP_BOURBON] = row["tile"]
        BA.fire_cannon(K, sp, g, S(52), target)
        assert sp[target, L.SP_BOURBON] == row["left"]
        assert row["eliminated"] == (row["left"] == 0)


def test_example_14_cannon_6_becomes_2_and_4_is_eliminated():
    table = ask("cannon", gunpowder_store=4).set_index("tile")
    assert table.loc[6, "left"] == 2 and table.loc[4, "eliminated"]


# -- Stage IV, the deal, the chance deck ---------------------------------------------------------


def stage_iv_draws(players: int, casanova_pile: int, cancelled: int, n: int):
    """The kernel's ``stage_iv_card`` over ``n`` games: how often card 1 (in seat 0's
    hand) is drawn, and how often the card drawn came from seat 0's hand."""
    p = params(full=True, players=players)
    seats = 2 if players == 1 else players
    given = from_first_hand = 0
    for i in range(n):
        _, g = set_up(C, full=True)
        g[L.G_SEATS] = seats
        card = 1
        for seat in range(seats):
            count = casanova_pile if players == 1 and seat == L.CASANOVA else 3
            for _ in range(count):
                H.add_to_hand(g, seat, card, H.hand_slots(p, seat))
                card += 1
        for k in range(cancelled):
            g[L.G_CANCELLED_CARDS + k] = card + k
        g[L.G_CANCELLED] = cancelled
        drawn = EN.stage_iv_card(g, streams(11, i))
        given += drawn == 1
        from_first_hand += drawn <= 3
    return given, from_first_hand


@pytest.mark.parametrize("players, pile, cancelled", [(2, 3, 0), (3, 3, 0), (1, 2, 3)])
def test_stage_iv_card_against_the_kernels_draw(players, pile, cancelled):
    n = 3000
    table = ask("stage_iv", players=players, casanova_cards=pile + cancelled)
    one, hand = list(table["fraction"])
    assert one == F(1, 3 * players) if players > 1 else one == F(1, 3 + pile + cancelled)
    given, from_hand = stage_iv_draws(players, pile, cancelled, n)
    assert within(given, n, one, 2) and within(from_hand, n, hand, 2)


def dealt_frequency(players: int, full: bool, stage: int, changes: int, n: int) -> int:
    """How often the stage's first card (by number) is dealt or drawn: the kernel's
    ``build_piles`` and ``deal``, then one ``draw_event`` per seat and Change 1 card."""
    p = params(full=full, players=players)
    cards = VP.Rules(players=players, level="full" if full else "first_game").deal()[0]
    meta = D.meta
    wanted = next(c for c in range(1, L.N_CARDS + 1) if meta[c, CL.M_STAGE] == stage
                  and (full or meta[c, CL.M_FIRST_GAME]))
    hits = 0
    for i in range(n):
        _, g = set_up(C, full=full)
        g[L.G_SEATS] = 2 if players == 1 else players
        H.build_piles(CARDS, p, g, streams(5, i))
        H.deal(CARDS, p, g, stage, cards)
        drawn = [H.draw_event(g, stage) for _ in range(g[L.G_SEATS] * changes)]
        hits += wanted in set(g[L.G_HAND:L.G_HAND + L.N_SEATS * L.HAND_SIZE]) | set(drawn)
    return hits


@pytest.mark.parametrize("players, level, stage, changes", [
    (2, "full", "I", 0), (3, "full", "II", 2), (1, "full", "III", 1),
    (4, "first_game", "I", 0)])
def test_event_dealt_against_the_kernels_piles(players, level, stage, changes):
    n = 2000
    q = VP.DealtParams(players=players, level=level, stage=stage, changes=changes)
    p = VP.answer_event_dealt(q)["fraction"][0]
    hits = dealt_frequency(players, level == "full", L.STAGE_NAMES.index(stage), changes, n)
    assert within(hits, n, p)


def test_event_dealt_k_over_50():
    """k/50 with k = players x cards: 14/50, 15/50, 16/50; each Change 1 card adds n."""
    assert [ask("event_dealt", players=n)["fraction"][0] for n in (2, 3, 4)] == \
        [F(14, 50), F(15, 50), F(16, 50)]
    assert ask("event_dealt", players=1)["fraction"][0] == F(14, 50)  # solo: 7 + 7
    assert ask("event_dealt", players=3, changes=2)["fraction"][0] == F(15 + 6, 50)
    with pytest.raises(RulesError, match="changes"):
        VP.DealtParams(level="first_game", changes=1)


@pytest.mark.parametrize("draws", [1, 5, 14])
def test_chance_cycle_against_draw_chance(draws):
    n = 2000
    among = last = 0
    for i in range(n):
        _, g = empty_state(C)
        g[L.G_CHANCE_NEXT] = VP.N_CHANCE  # an empty pile: the next draw shuffles
        rng = streams(9, i)
        seen = [B.draw_chance(g, rng) for _ in range(draws)]
        among += 0 in seen
        last += seen[-1] == 0
    table = ask("chance_cycle", draws=draws)
    assert list(table["fraction"]) == [F(draws, 14), F(1, 14)]
    assert within(among, n, F(draws, 14), 2) and within(last, n, F(1, 14), 2)


# -- Sense/Fury and fame ---------------------------------------------------------------------


@pytest.mark.parametrize("moderating", [False, True])
def test_sense_fury_table_matches_the_scoring_code(moderating):
    p = params(full=True, level="competitive", moderating_sense_fury=moderating)
    table = ask("sense_fury", moderating=moderating)
    assert len(table) == 9 * 10
    for _, row in table.iterrows():
        kind, points = row["card"].split()
        signed = -int(points) if kind == "Sense" else int(points)
        end = SC.move_pin(CARDS, row["start"], signed)
        assert end == row["end"]
        assert bool(SC.card_scores(CARDS, p, row["start"], end)) == row["scores"]
        assert row["vp"] == (int(points) if row["scores"] else 0)


def pin_walk(start: int, cards: list[str], moderating: bool = False):
    """Each card in turn from ``start``: (end, VP) through the sense_fury answer."""
    out, pin = [], start
    for card in cards:
        table = ask("sense_fury", start=pin, moderating=moderating)
        row = table[table["card"] == card].iloc[0]
        out.append((int(row["end"]), int(row["vp"])))
        pin = int(row["end"])
    return out


def test_example_27_round_scoring():
    """From R (5): Fury 2 -> 7, 2 VP; Sense 4 -> 3, 4 VP; Sense 5 stops at 1, no VP (and
    Moderating: 7 -> 3 goes ochre to ochre, no VP)."""
    assert pin_walk(5, ["Fury 2", "Sense 4", "Sense 5"]) == [(7, 2), (3, 4), (1, 0)]
    assert pin_walk(7, ["Sense 4"], moderating=True) == [(3, 0)]


def test_example_29_round_scoring():
    """Fury 3 from R -> 8, 3 VP; then Fury 5 -> 9 (the last space), no VP."""
    assert pin_walk(5, ["Fury 3", "Fury 5"]) == [(8, 3), (9, 0)]


def test_example_28_fame_is_59():
    table = ask("fame", vp=13 + 17 + 25, stage_iv_card="fury", stage_iv_points=3,
                coronela_threshold=5, coronela=6, rubble=13)
    assert list(table["points"]) == [55, 6, 5, 6, -13, 0, 59]
    p = params(full=True, level="competitive")
    assert SC.fame(p, 55, 3, 6, 13) == 59


@pytest.mark.parametrize("changes", [{}, {"rubble_threshold": 10, "given_half_a_bomb": True},
                                     {"always_priority_cost": True, "victory_level": 80}])
def test_fame_matches_the_scoring_code(changes):
    p = params(full=True, level="competitive", **changes)
    rng = np.random.default_rng(2)
    for _ in range(50):
        kind = str(rng.choice(["sense", "fury"]))
        points, vp = int(rng.integers(1, 6)), int(rng.integers(0, 120))
        coronela, rubble = int(rng.integers(0, 20)), int(rng.integers(0, 20))
        table = ask("fame", vp=vp, stage_iv_card=kind, stage_iv_points=points,
                    coronela_threshold=int(p[L.P_CORONELA_THRESHOLD]), coronela=coronela,
                    rubble=rubble, adjustments=int(SC.difficulty_fame(p, 0)))
        signed = points if kind == "fury" else -points
        assert table["points"].iloc[-1] == SC.fame(p, vp, signed, coronela, rubble)


# -- the Bourbon action dice -----------------------------------------------------------------


def popoli_card() -> int:
    """The Duke of Pópoli's leader card (data/cards.toml)."""
    name = D.leader_names.index("Duke of Pópoli")
    return next(c for c in range(1, L.N_CARDS + 1) if D.meta[c, CL.M_LEADER] == name)


def rolled_totals(stage: str, popoli: bool, n: int) -> np.ndarray:
    """``n`` turns of the kernel's ``roll_bourbon_dice`` (after leaders' modifiers):
    per turn, the total of each action's results and the number of Advance results."""
    sp, g = set_up(C, full=True)
    if popoli:
        E.resolve_card(K, CARDS, params(True), W, sp, g, streams(0, 0), 0, popoli_card(),
                       no_log())
    g[L.G_STAGE] = L.STAGE_NAMES.index(stage)
    rng = streams(21, 0)
    out = np.zeros((n, 5), dtype=np.int64)
    for turn in range(n):
        g[L.G_TURN] = turn  # each turn's dice come from their own restart of the stream
        faces = EN.roll_bourbon_dice(DICE, CARDS, g, rng, no_log())
        for action in range(4):
            out[turn, action] = faces[faces[:, 0] == action, 1].sum()
        out[turn, 4] = ((faces[:, 0] == L.ACT_ADVANCE) & (faces[:, 1] > 0)).sum()
    return out


def distribution_within(samples: np.ndarray, table, column: str) -> bool:
    rows = list(zip(table[column], table["fraction"], strict=True))
    assert sum(p for _, p in rows) == 1
    assert set(np.unique(samples)) <= {k for k, _ in rows}
    return all(within(int((samples == k).sum()), len(samples), p, len(rows)) for k, p in rows)


# (stage, Pópoli active, turns): the leader's modifier is slow outside numba, so fewer turns
DICE_CASES = [("I", False, 3000), ("II", False, 3000), ("III", False, 3000),
              ("I", True, 800), ("II", True, 800), ("IV", True, 3000)]


@pytest.mark.parametrize("stage, popoli, n", DICE_CASES)
def test_dice_answers_against_the_kernels_rolls(stage, popoli, n):
    totals = rolled_totals(stage, popoli, n)
    given = dict(stage=stage, popoli=popoli)
    assert distribution_within(totals[:, L.ACT_REINFORCEMENTS], ask("reinforcements", **given),
                               "disc_spaces")
    assert distribution_within(totals[:, L.ACT_TRENCH], ask("trench", **given),
                               "trench_symbols")
    none = ask("no_advance", **given)["fraction"][0]
    assert within(int((totals[:, 4] == 0).sum()), n, none)


def test_dice_answers_read_the_data_files():
    """Stage I rolls white and gray (data/dice.toml): white has Reinforcements 1, 2, 3 and
    gray 1, 2, so the turn's mean disc movement is 6/6 + 3/6 = 3/2; with Pópoli the one
    Advance 1 face of each becomes Advance 0, and the gray Advance 2 an Advance 1."""
    assert VP.stage_dice(L.STAGE_I) == [C.die_colours.index("white"),
                                        C.die_colours.index("gray")]
    assert VP.P.mean(VP.turn_total(L.ACT_REINFORCEMENTS, L.STAGE_I)) == F(3, 2)
    assert VP.p_no_advance(L.STAGE_I) == F(5, 6) * F(4, 6)
    assert VP.p_no_advance(L.STAGE_I, popoli=True) == F(5, 6)
    assert VP.p_no_advance(L.STAGE_III, popoli=True) == VP.p_no_advance(L.STAGE_III)
    table = ask("trench", stage="II")
    assert "expected trench symbols per turn" in table.attrs["summary"][0]


# -- registration and parameters ---------------------------------------------------------------


def test_victus_is_a_question_family():
    assert games.questions("victus") is VP.QUESTIONS
    assert set(VP.QUESTIONS) == {"combat", "break_space", "cannon", "stage_iv",
                                 "event_dealt", "chance_cycle", "sense_fury", "fame",
                                 "reinforcements", "no_advance", "trench"}


def _range_cases():
    cases = []
    for name, q in VP.QUESTIONS.items():
        for k in q.params.knobs():
            if k.range is not None:
                cases += [(name, k.name, k.range[0] - 1), (name, k.name, k.range[1] + 1)]
            elif k.choices is not None:
                cases.append((name, k.name, "sometimes"))
    return cases


@pytest.mark.parametrize("question, name, value", _range_cases())
def test_parameters_out_of_range_are_rejected_naming_the_parameter(question, name, value):
    params_cls = VP.QUESTIONS[question].params
    params_cls()  # the defaults are valid
    with pytest.raises(RulesError, match=f"parameter '{name}'"):
        params_cls(**{name: value})


def test_bastion_and_barricades_need_a_barcelona_space():
    with pytest.raises(RulesError, match="parameter 'bastion_defense'"):
        VP.Defence(in_barcelona=False)
    VP.Defence(in_barcelona=False, bastion_defense=0)


def test_prob_answers_on_a_designers_dice(tmp_path, capsys):
    """``simkit prob victus ... --data DIR``: gray's reconstructed Advance 2 face made a
    Reinforcements 3 moves Stage I's mean disc movement from 3/2 to 2 (6/6 + 6/6); the
    package's answer is unchanged afterwards, and a family that reads no data refuses."""
    from simkit.cli import main
    from simkit.games.victus.components import DATA

    text = (DATA / "dice.toml").read_text(encoding="utf-8")
    edited = text.replace('"Bombardment 2", "Advance 1", "Advance 2"]',
                          '"Bombardment 2", "Advance 1", "Reinforcements 3"]')
    assert edited != text
    (tmp_path / "dice.toml").write_text(edited, encoding="utf-8")
    argv = ["prob", "victus", "reinforcements", "--stage", "I"]
    assert main([*argv, "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "expected reinforcements-disc spaces per turn: 2 (2.000000)" in out
    assert f"answered on your dice.toml (from {tmp_path})" in out
    assert main(argv) == 0
    assert "per turn: 3/2 (1.500000)" in capsys.readouterr().out
    assert main(["prob", "verrix", "raid", "--data", str(tmp_path)]) == 2
    assert "verrix's questions read no data file" in capsys.readouterr().err


def test_a_questions_help_spells_its_flags_with_dashes_as_the_docs_do(capsys):
    from simkit.cli import main

    assert main(["prob", "victus", "combat", "--help"]) == 0
    text = capsys.readouterr().out
    assert "  --bastion-defense " in text and "--bastion_defense" not in text
    assert main(["prob", "victus", "combat", "--bastion_defense", "1", "--bastion-defense",
                 "1"]) == 2  # both spellings are one parameter
    assert "given more than once" in capsys.readouterr().err
