"""Verrix policy weights (``weights``): one row per seat in the parameter vector, the
defaults the numbers the tribes played before they were declared, and each seat's
weights read by that seat's choices only."""

import numpy as np
import pytest

import simkit
from simkit.errors import UsageError
from simkit.games.verrix import GAME, _tables
from simkit.games.verrix import appraisal as PL
from simkit.games.verrix import layout as L
from simkit.games.verrix import policies as PO
from simkit.games.verrix.components import load_components
from simkit.games.verrix.rules import PARAMETERS, Rules
from simkit.games.verrix.weights import StyleWeights, Weights, weight_rows


def _row(p, seat):
    return p[L.P_WEIGHTS + seat * L.N_W:L.P_WEIGHTS + (seat + 1) * L.N_W]


def test_the_rules_vector_holds_the_default_weights_for_every_seat():
    """Code that builds the vector from the rules alone (the tests, ``prob``) plays the
    defaults, the same vector the default policies give."""
    r = Rules()
    p = PARAMETERS.build(r)
    assert np.array_equal(p, GAME.parameters(r, GAME.policy_choices("greedy")))
    defaults = StyleWeights()
    for seat in range(L.MAX_PLAYERS):
        assert _row(p, seat)[L.W_VP_POINTS] == defaults.vp_points == 30
        assert _row(p, seat)[L.W_STYLE_BONUS] == defaults.style_bonus == 25
        for name, (offset, _) in L._W.fields.items():
            assert _row(p, seat)[offset] == getattr(defaults, name)


def test_a_seats_weights_go_to_its_row_only():
    choices = GAME.policy_choices({"seat3": "raid:vp_points=40,style_bonus=60",
                                   "seat5": "random"})
    rows = weight_rows(choices)
    p = GAME.parameters(Rules(), choices)
    assert rows[2, L.W_VP_POINTS] == 40 and rows[2, L.W_STYLE_BONUS] == 60
    assert np.array_equal(_row(p, 2), rows[2])
    for seat in (0, 1, 3, 4):  # greedy and random play the defaults
        assert np.array_equal(rows[seat], weight_rows()[seat])


def test_weights_reach_the_choices_that_read_them():
    S = _tables(1, 2)
    comp = load_components()
    card = {t: i for i, t in enumerate(comp.card_titles)}
    p = GAME.parameters(Rules(), GAME.policy_choices(
        {"seat1": "greedy:raid_extra_units=0,trade_extra_units=5,second_token_margin=0"}))
    # the raider engages only the card's cost; the trader 5 units more
    assert PL.extra_units(S, p, 0, card["Pillage"]) == 0
    assert PL.extra_units(S, p, 1, card["Pillage"]) == Weights().raid_extra_units
    assert PL.extra_units(S, p, 0, card["Celebration"]) == 5
    assert PL.extra_units(S, p, 0, card["Cooking"]) == 0
    g = np.zeros(L.N_STATE, dtype=np.int64)
    g[L.N_GLOBALS + L.PL_DW] = 3  # seat 0's Divine Will
    g[L.N_GLOBALS + L.N_PL + L.PL_DW] = 3
    assert not PO.second_token(p, g, 0, 1)  # a token must win it outright
    assert PO.second_token(p, g, 0, 0)
    assert PO.second_token(p, g, 1, 3)  # seat 2 keeps the default margin 3


def test_a_tribe_that_prices_its_units_high_never_declares_a_battle():
    """``unit_points`` is what a point of STRENGTH could earn elsewhere: at 40 no Battle
    pays for the units it engages, so Blue (seat 1) declares none; at the default it
    declares several a game. The other seats keep fighting."""
    default = simkit.simulate("verrix", 30, seed=1)
    dear = simkit.simulate("verrix", 30, seed=1, policy={"seat1": "greedy:unit_points=40"})
    assert default["blue_battles"].mean() > 1
    assert dear["blue_battles"].sum() == 0
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

    result = tune_policy("verrix", "purple", trials=2, n_games=30, holdout_games=30)
    assert result.side == "seat3" and result.trials == 2
    assert result.policy.split(":")[0] == "greedy"
    d = result.gain.difference
    assert d.low <= d.estimate <= d.high
    assert result.tuned_rate - result.default_rate == pytest.approx(d.estimate)
