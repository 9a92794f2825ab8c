"""Verrix policy weights (``weights``): one row per seat of the kernels' ``pol``, apart
from the rules' vector, the defaults the numbers the tribes played before they were
declared, and each seat's weights read by that seat's choices only."""

import numpy as np
import pytest

import simkit
from simkit.errors import UsageError
from simkit.games.verrix import GAME, tables_for
from simkit.games.verrix import layout as L
from simkit.games.verrix import policies as PO
from simkit.games.verrix.components import load_components
from simkit.games.verrix.rules import PARAMETERS, POLICY_ROWS, Rules, StyleWeights, Weights


def test_a_seat_without_weights_plays_the_defaults():
    """Code that builds the rows without policies (the tests) plays the defaults, the same
    rows the default policies give; the rules' vector is the same whatever the policies."""
    r = Rules()
    rows = POLICY_ROWS.build(())
    assert rows.shape == (L.MAX_PLAYERS, L.N_W)
    assert np.array_equal(rows, POLICY_ROWS.build(GAME.policy_choices("greedy")))
    _, _, pol = GAME.kernel_inputs(r, GAME.policy_choices("random"))
    assert np.array_equal(pol[:, 1:], rows[:, 1:])  # random plays greedy's units and loot
    assert (pol[:, L.W_ID] == L.POL_RANDOM).all()
    for choices in (GAME.policy_choices("greedy"), GAME.policy_choices("raid:vp_points=40")):
        _, p, _ = GAME.kernel_inputs(r, choices)  # the rules' vector: rules only
        assert np.array_equal(p, PARAMETERS.build(r))
    defaults = StyleWeights()
    for seat in range(L.MAX_PLAYERS):
        assert rows[seat, L.W_ID] == L.POL_GREEDY
        assert rows[seat, L.W_VP_POINTS] == defaults.vp_points == 30
        assert rows[seat, L.W_STYLE_BONUS] == defaults.style_bonus == 25
        for name, (offset, _) in L._W.fields.items():
            if name != "policy":  # the look-ahead's own weights: read by no script, 0
                assert rows[seat, offset] == getattr(defaults, name, 0)


def test_a_seats_weights_go_to_its_row_only():
    choices = GAME.policy_choices({"seat3": "raid:vp_points=40,style_bonus=60",
                                   "seat5": "random"})
    rows = POLICY_ROWS.build(choices)
    assert rows[2, L.W_ID] == L.POL_RAID and rows[4, L.W_ID] == L.POL_RANDOM
    assert rows[2, L.W_VP_POINTS] == 40 and rows[2, L.W_STYLE_BONUS] == 60
    assert np.array_equal(GAME.kernel_inputs(Rules(), choices)[2], rows)
    defaults = POLICY_ROWS.build(())
    for seat in (0, 1, 3, 4):  # greedy and random play the defaults
        assert np.array_equal(rows[seat, 1:], defaults[seat, 1:])


def test_weights_reach_the_choices_that_read_them():
    S = tables_for(Rules())
    p = PARAMETERS.build(Rules())
    comp = load_components()
    card = {t: i for i, t in enumerate(comp.card_titles)}
    pol = POLICY_ROWS.build(GAME.policy_choices(
        {"seat1": "greedy:trade_extra_units=5,second_token_margin=0"}))
    g = np.zeros(L.N_STATE, dtype=np.int64)
    for seat in range(2):
        b = L.N_GLOBALS + seat * L.N_PL
        g[b + L.PL_MEN] = 7
        g[b + L.PL_LEADER] = -1
        g[b + L.PL_LEADER + 1] = -1
        g[b + L.PL_DW] = 3
    # the trader engages the card's cost and trade_extra_units more: seat 1 5, seat 2 2
    cost = S[L.S_CARDS][card["Celebration"], L.CD_COST]
    assert PO.action_units(S, p, pol, g, 0, card["Celebration"], 1) == (cost + 4, 0)
    assert PO.action_units(S, p, pol, g, 1, card["Celebration"], 0) == \
        (cost + Weights().trade_extra_units, 0)
    assert PO.action_units(S, p, pol, g, 0, card["Cooking"], -1) == (2, 0)  # the cost
    # a Clan Pact is a Trade card that carries nothing: its cost only (the Clan Pact
    # example engages STRENGTH 4 for its cost 4), whatever trade_extra_units is
    pact = card["Clan Pact"]
    assert PO.action_units(S, p, pol, g, 0, pact, -1) == (S[L.S_CARDS][pact, L.CD_COST], 0)
    assert not PO.second_token(pol, g, 0, 1)  # a token must win it outright
    assert PO.second_token(pol, g, 0, 0)
    assert PO.second_token(pol, g, 1, 3)  # seat 2 keeps the default margin 3


def test_a_tribe_that_prices_its_units_high_almost_never_declares_a_battle():
    """``unit_points`` is what a point of STRENGTH could earn elsewhere in a Month Turn
    (while a card in hand could use it): at 40 a Battle seldom pays for the units it
    engages, so Blue (seat 1) declares almost none; at the default it declares several a
    game. The other seats keep fighting."""
    default = simkit.simulate("verrix", 30, seed=1)
    dear = simkit.simulate("verrix", 30, seed=1, policy={"seat1": "greedy:unit_points=40"})
    assert default["blue_battles"].mean() > 1
    assert dear["blue_battles"].mean() < default["blue_battles"].mean() / 10
    assert dear["orange_battles"].sum() > 0


def test_a_weight_outside_its_range_is_one_clear_error():
    with pytest.raises(Exception, match="vp_points.*10..90"):
        GAME.policy_choices({"seat1": "greedy:vp_points=400"})
    with pytest.raises(UsageError, match="random.*takes no weights"):
        GAME.policy_choices({"seat1": "random:vp_points=40"})


def test_tune_searches_a_tribes_weights_from_its_seat():
    """``simkit tune verrix --side purple``: the seat Purple holds is tuned (its first
    trial the defaults), its wins counted, and the result checked on fresh games."""
    from simkit.tune import tune_policy

    result = tune_policy("verrix", "purple", trials=2, restarts=1, n_games=10,
                         check_games=10)
    assert result.settings["seat"] == "seat3" and result.side == "purple"
    assert result.policy.split(":")[0] == "greedy"
    assert result.low <= result.gain <= result.high
    assert result.tuned_rate - result.start_rate == pytest.approx(result.gain)
