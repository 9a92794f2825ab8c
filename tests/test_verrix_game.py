"""Verrix as a whole: conservation of goods and meeples, VP floor, exact answers against
the engine's dice, and what the outcome columns report."""

from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest

from simkit import games
from simkit.games.verrix import _tables, tables_for
from simkit.games.verrix import actions as A
from simkit.games.verrix import engine as E
from simkit.games.verrix import layout as L
from simkit.games.verrix import prob as P
from simkit.games.verrix import state as ST
from simkit.games.verrix.components import load_components
from simkit.games.verrix.rules import PARAMETERS, POLICY_ROWS, Rules, StyleWeights
from simkit.rng import game_streams

NOLOG = np.zeros((0, 4), dtype=np.int64)
GAME = games.get("verrix")


def finished(seed, players=5, policy=0):
    r = Rules(players=players)
    S = tables_for(r)
    p = PARAMETERS.build(r)
    pol = POLICY_ROWS.build(GAME.policy_choices(L.POLICY_NAMES[policy]))
    g = np.zeros(L.N_STATE, dtype=np.int64)
    out = np.zeros(L.N_OUT, dtype=np.int64)
    rng = game_streams(np.uint64(seed), 0, L.N_STREAMS)
    E.play_game(S, p, pol, rng, g, out, NOLOG)
    return S, p, g, out


@pytest.mark.parametrize("policy", range(len(L.POLICY_NAMES)))
@pytest.mark.parametrize("players", [2, 5])
def test_goods_meeples_and_divine_will_are_conserved(players, policy):
    for seed in range(6):
        S, p, g, out = finished(seed, players, policy)
        for good in range(L.N_GOODS):
            total = g[L.G_MARKET + good]
            for s in range(players):
                total += ST.held(g, s, good) + g[ST.pl(s) + L.PL_TRAVEL_GOODS + good]
            assert total == S[L.S_GOODS][good, L.GD_COUNT], L.GOODS[good]
        for s in range(players):
            tribe = g[ST.pl(s) + L.PL_TRIBE]
            men = g[ST.pl(s) + L.PL_MEN] + g[ST.pl(s) + L.PL_MEN_VILLAGE] + \
                g[ST.pl(s) + L.PL_MEN_TRAVEL] + g[L.G_MARKET_MEN + tribe]
            for h in range(players):
                men += g[ST.pl(h) + L.PL_HOSTAGES + tribe] + \
                    g[ST.pl(h) + L.PL_TRAVEL_HOSTAGES + tribe]
            assert men == 7
            assert g[ST.pl(s) + L.PL_VP] >= 1
        dw = g[L.G_POOL_DW] + sum(g[ST.pl(s) + L.PL_DW] for s in range(players))
        assert dw == 20


def test_columns_report_the_game():
    cols = GAME.simulate({"players": 3}, None, np.arange(20), 5)
    assert (cols["players"] == 3).all()
    assert (cols["vp_seat4"] == -1).all() and (cols["vp_yellow"] == -1).all()
    assert set(cols["winner"]) <= {0, 1, 2}
    winner_vp = np.array([cols[f"vp_seat{s + 1}"][i] for i, s in
                          enumerate(cols["winner_seat"])])
    assert (winner_vp >= cols["vp_seat1"]).all() and (cols["margin"] >= 0).all()
    assert (cols["turns"] == 12).all()


def test_seat_order_knob_moves_tribes():
    order = "purple,green,yellow,blue,orange"
    cols = GAME.simulate({"tribes": order, "players": 2}, None, np.arange(10), 3)
    assert set(cols["winner"]) <= {L.PURPLE, L.GREEN}
    assert (cols["vp_blue"] == -1).all()


def test_raid_probability_matches_the_engine_draws():
    # Pillage example: 6 against 4 needs a token <= 1: 4 of the 7 tokens
    assert P.raid_success(6, 4) == Fraction(4, 7)
    assert P.raid_success(6, 4, best_of_two=True) == Fraction(2, 7)
    assert P.raid_success(6, 6) == 0
    r = Rules()
    p = PARAMETERS.build(r)
    pol = POLICY_ROWS.build(())  # every seat greedy, the default weights
    g = np.zeros(L.N_STATE, dtype=np.int64)
    g[L.G_BAG:L.G_BAG + 7] = 1
    wins = 0
    n = 4000
    for i in range(n):
        rng = game_streams(np.uint64(11), i, L.N_STREAMS)
        wins += 6 > 4 + A.morrigan_draw(p, pol, g, rng, 0, 99, False)
    assert abs(wins / n - 4 / 7) < 0.03


def test_battle_disc_distribution():
    dist = P.battle_disc([(7, 5, 2), (6, 8, 1), (8, 5, 2)])
    assert sum(dist.values()) == 1
    # the Battle example's rounds with a bag of its tokens 3, 1, 0: the six orders of the draws.
    # (3, 1, 0) gives -1, -1, +3: +1 (the example); (3, 0, 1): -1, -2, +2 -> -1;
    by_hand = {}
    for t1, t2, t3 in permutations([3, 1, 0]):
        disc = 0
        for d in (7 - 5 - t1, 6 + t2 - 8, 8 - 5 - t3):
            disc = max(-3, min(3, disc + d))
        by_hand[disc] = by_hand.get(disc, 0) + Fraction(1, 6)
    assert P.battle_disc([(7, 5, 2), (6, 8, 1), (8, 5, 2)], bag=[3, 1, 0]) == \
        dict(sorted(by_hand.items()))
    assert by_hand[1] >= Fraction(1, 6)


def test_questions_answer():
    raid = P.QUESTIONS["raid"].answer(P.RaidQuestion())
    assert list(raid["fraction"]) == [Fraction(4, 7), Fraction(2, 7)]
    assert list(raid["p"]) == [4 / 7, 2 / 7]
    battle = P.QUESTIONS["battle"].answer(P.BattleQuestion())
    assert sum(battle["fraction"]) == 1


def test_verrix_is_offered_with_its_questions():
    assert "verrix" in games.names() and "verrix" not in games.in_progress()
    assert games.questions("verrix") is P.QUESTIONS
    assert set(games.question_sets()) >= {"setembre1714", "verrix"}


def test_raid_question_pillage_example():
    # Raid, the Pillage example: 6 against 4 + token: only a token of 1 or less lets it succeed
    # (6 > 4 + t); with the reconstructed bag 0,0,1,1,2,2,3 that is 4 tokens of 7
    q = P.RaidQuestion(attack=6, defence=4)
    table = P.QUESTIONS["raid"].answer(q)
    assert table["fraction"][0] == Fraction(4, 7)
    # best of two: both tokens <= 1, drawn without replacement: 4/7 * 3/6
    assert table["fraction"][1] == Fraction(4, 7) * Fraction(3, 6)


def test_prob_cli_answers_verrix(capsys):
    from simkit.cli import main
    assert main(["prob", "verrix", "raid", "--attack", "6", "--defence", "4"]) == 0
    out = capsys.readouterr().out
    assert "4/7" in out and "2/7" in out
    assert main(["prob", "verrix", "raid", "--attack", "99"]) == 2
    assert "attack" in capsys.readouterr().err


def test_trait_styles_favour_their_trait():
    from simkit.games.verrix import policies as PO
    comp, S = load_components(), _tables(1, 2)
    card = {t: i for i, t in enumerate(comp.card_titles)}
    style = {"battle": L.POL_BATTLE, "raid": L.POL_RAID, "mysticism": L.POL_MYSTICISM,
             "trade": L.POL_TRADE, "craftsmanship": L.POL_CRAFTSMANSHIP}
    assert PO.in_style(S, style["battle"], -1)  # declaring a Battle
    assert PO.in_style(S, style["battle"], card["Supremacy"])
    assert PO.in_style(S, style["raid"], card["Pillage"])
    assert PO.in_style(S, style["mysticism"], card["Druid's Grove"])
    assert PO.in_style(S, style["trade"], card["Celebration"])
    assert PO.in_style(S, style["craftsmanship"], card["Forge"])
    assert not PO.in_style(S, style["craftsmanship"], card["Offering"])
    assert not PO.in_style(S, L.POL_GREEDY, card["Pillage"])
    # the bonus (the seat's style_bonus) goes to worthwhile actions of the trait only; a
    # loss stays a loss
    pol = POLICY_ROWS.build(GAME.policy_choices({"seat1": "raid"}))  # seat2 greedy
    bonus = StyleWeights().style_bonus
    assert PO.style_score(S, pol, 0, card["Pillage"], 40) == 40 + bonus
    assert PO.style_score(S, pol, 0, card["Pillage"], -5) == -5
    assert PO.style_score(S, pol, 0, card["Cooking"], 40) == 40
    assert PO.style_score(S, pol, 1, -1, 40) == 40


def test_divine_will_worth_follows_what_it_buys():
    from simkit.games.verrix import policies as PO
    r = Rules()
    S = tables_for(r)
    p = PARAMETERS.build(r)
    pol = POLICY_ROWS.build(())  # every seat greedy, the default weights
    g = np.zeros(L.N_STATE, dtype=np.int64)
    E.setup(S, p, pol, g, game_streams(np.uint64(0), 0, L.N_STREAMS), NOLOG)
    b = L.N_GLOBALS  # seat 0
    g[L.G_TURN] = 1
    g[b + L.PL_DW] = 0
    w = StyleWeights()
    early = PO.divine_will_worth(S, p, pol, g, 0, 3)
    # funds one Event card: event_points and the VP every unprinted card adds (event_vp)
    assert early == w.event_points + w.vp_points * r.event_vp
    g[b + L.PL_DW] = 30  # more than every Event left could use
    assert PO.divine_will_worth(S, p, pol, g, 0, 3) == 3 * w.spare_dw_points
    g[b + L.PL_DW] = 0
    g[L.G_EVENTS_OVER] = 1
    assert PO.divine_will_worth(S, p, pol, g, 0, 2) == 2 * w.spare_dw_points
    # Imbolc (turn 6) pays 2 VP for 4 Divine Will or more: 2 cubes on 2 reach it
    g[b + L.PL_DW] = 2
    g[L.G_TURN] = 5
    assert PO.divine_will_worth(S, p, pol, g, 0, 2) == 2 * w.spare_dw_points + 2 * w.vp_points
    g[L.G_TURN] = 7  # Imbolc is past
    assert PO.divine_will_worth(S, p, pol, g, 0, 2) == 2 * w.spare_dw_points


def test_clan_pact_counts_the_village_objectives_it_reaches():
    """Festivals: Imbolc pays 3 VP for 2 villages or more, Lughnasadh 4 for 3. A Clan
    Pact making a tribe's second village before Imbolc reaches Imbolc's objective; after
    Imbolc, only a third village pays (Lughnasadh's)."""
    from simkit.games.verrix import policies as PO
    r = Rules()
    S = tables_for(r)
    p = PARAMETERS.build(r)
    pol = POLICY_ROWS.build(())
    g = np.zeros(L.N_STATE, dtype=np.int64)
    E.setup(S, p, pol, g, game_streams(np.uint64(0), 0, L.N_STREAMS), NOLOG)
    b = L.N_GLOBALS  # seat 0, one village
    g[L.G_TURN] = 4
    assert PO.village_objectives_vp(S, p, g, 0) == 3
    g[L.G_TURN] = 7
    assert PO.village_objectives_vp(S, p, g, 0) == 0
    g[b + L.PL_VILLAGES] = 2
    assert PO.village_objectives_vp(S, p, g, 0) == 4
