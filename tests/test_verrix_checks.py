"""Verrix's state invariants (``verrix/checks.py``): each one fails on a real state
corrupted the way a rule bug would corrupt it, the kernels stop at the first broken one,
and every preset and policy plays its games with the checks on."""

import numpy as np
import pytest

from simkit import checks, games
from simkit.checks import broken_state
from simkit.errors import StateError
from simkit.eventlog import no_log
from simkit.games.verrix import checks as C
from simkit.games.verrix import engine as E
from simkit.games.verrix import layout as L
from simkit.games.verrix import tables_for
from simkit.games.verrix.components import load_components
from simkit.games.verrix.rules import PARAMETERS, POLICY_ROWS, Rules
from simkit.rng import game_streams, restart

NOLOG = np.zeros((0, 4), dtype=np.int64)
GAME = games.get("verrix")
BLUE, ORANGE, PURPLE, GREEN, YELLOW = range(5)  # seats of the standard tribes order


class Position:
    """A real state to corrupt: just after Setup, or (``mid``) in the middle of turn 1
    (its Event and Action Phases played, Cleanup not yet)."""

    def __init__(self, mid=False, players=5, seed=3):
        r = Rules(players=players)
        self.comp, self.S = load_components(), tables_for(r)
        self.p = PARAMETERS.build(r)
        self.pol = POLICY_ROWS.build(())  # every seat greedy, the default weights
        self.g = np.zeros(L.N_STATE, dtype=np.int64)
        self.rng = game_streams(np.uint64(seed), 0, L.N_STREAMS)
        E.setup(self.S, self.p, self.pol, self.g, self.rng, NOLOG)
        self.step = L.STEP_SETUP
        if mid:
            self.g[L.G_TURN] = 1
            restart(self.rng, L.ST_MORRIGAN, 1)
            E.event_phase(self.S, self.p, self.pol, self.g, self.rng, NOLOG)
            E.action_phase(self.S, self.p, self.pol, self.g, self.rng, NOLOG)
            self.step = L.STEP_PASS  # after the Month Turn's last pass

    def b(self, seat):
        return L.N_GLOBALS + seat * L.N_PL

    def __getitem__(self, key):
        seat, field = key
        return self.g[self.b(seat) + field]

    def __setitem__(self, key, value):
        seat, field = key
        self.g[self.b(seat) + field] = value

    def broken(self, step=None):
        """(invariant, detail) of the first broken invariant, or None."""
        log = no_log(check_state=True)
        step = self.step if step is None else step
        C.check_state(self.S, self.p, self.g, log, step, self.g[L.G_TURN])
        found = broken_state(log)
        return None if found is None else found[:2]


# -- real states hold ------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 5])
def test_set_up_and_mid_game_states_hold(players):
    assert Position(players=players).broken() is None
    mid = Position(mid=True, players=players)
    assert mid.broken() is None
    E.cleanup(mid.S, mid.p, mid.g, NOLOG)
    assert mid.broken(L.STEP_CLEANUP) is None


def test_a_month_turn_without_its_cleanup_breaks_the_cleanup_invariants():
    # Cleanup Phase: "Make available again all tribesmen and leader meeples ... that are
    # on Travel and on Village Cards". Mid-turn the units are engaged, which the Action
    # Phase allows and the state after Cleanup does not.
    mid = Position(mid=True)
    engaged = sum(mid[s, L.PL_MEN_VILLAGE] + mid[s, L.PL_MEN_TRAVEL] for s in range(5))
    assert engaged > 0 and mid.broken() is None
    assert mid.broken(L.STEP_CLEANUP)[0] == L.INV_UNITS


# -- each invariant fails on its own corruption -----------------------------------------------
def extra_sword(x):
    """A Sword tile appears in the market (67 tiles: 5 Swords)."""
    x.g[L.G_MARKET + L.SWORD] += 1
    return L.SWORD


def lost_cube(x):
    """A Divine Will cube leaves the game (20 cubes)."""
    x[PURPLE, L.PL_DW] -= 1
    return L.POOL


def extra_tribesman(x):
    """Orange has an eighth tribesman (7 meeples per tribe)."""
    x[ORANGE, L.PL_MEN] += 1
    return L.ORANGE


def own_hostage(x):
    """Blue takes one of its own tribesmen from the market as a hostage ("It is not
    possible for a player to take one of their own tribesman meeples")."""
    x.g[L.G_MARKET_MEN + L.BLUE] -= 1
    x[BLUE, L.PL_HOSTAGES + L.BLUE] += 1
    return BLUE


def grey_leader_not_taken(x):
    """Green has a grey Common Leader that never left the pool (no Promote)."""
    grey = x.comp.leader_names.index("Ambigath")
    x[GREEN, L.PL_LEADER + 1] = grey
    x[GREEN, L.PL_LEADER_AT + 1] = L.AT_AVAILABLE
    return GREEN


def engaged_after_setup(x):
    """Two of Yellow's tribesmen on its Village Card before any action."""
    x[YELLOW, L.PL_MEN] -= 2
    x[YELLOW, L.PL_MEN_VILLAGE] += 2
    return YELLOW


def village_token_lost(x):
    """Green's village token leaves the map while Green still counts it."""
    x.g[L.G_VILLAGE + x[GREEN, L.PL_VILLAGE_NODE]] = -1
    return GREEN


def trophy_travelling_from_the_pool(x):
    """A trophy of the Common Pool on a Travel Card."""
    x.g[L.G_TROPHY_TRAVEL + 2] = 1
    return 2


def travel_goods_at_rest(x):
    """Provisions on Yellow's Travel Card with no action played."""
    x[YELLOW, L.PL_GOODS + L.PROVISIONS] -= 1
    x[YELLOW, L.PL_TRAVEL_GOODS + L.PROVISIONS] += 1
    return YELLOW


def third_space(x):
    """Niamh (2 spaces) carries Blue's Sword on a third space."""
    x[BLUE, L.PL_GOODS + L.SWORD] -= 1
    x[BLUE, L.PL_EQUIP + 2] = L.SWORD
    return BLUE


def below_one(x):
    """Purple's VP disc below 1 ("It is not possible to drop below 1")."""
    x[PURPLE, L.PL_VP] = 0
    return PURPLE


def disc_off_track(x):
    """The battle disc 4 spaces toward the attacker (the track reaches 3)."""
    x.g[L.G_BATTLE_DISC] = 4
    return 4


def token_out_of_the_bag(x):
    """A Mórrígan token kept out of the bag outside a Battle."""
    x.g[L.G_BAG + 3] = 0
    return L.N_TOKENS - 1


def basic_card_to_learn(x):
    """Orange's Cooking (a Basic card) set aside as a Special card to learn."""
    x[ORANGE, L.PL_CARD + x.comp.card_titles.index("Cooking")] = L.CARD_UNLEARNED
    return ORANGE


def event_card_twice(x):
    """The Event deck holds one card twice and has lost another."""
    x.g[L.G_DECK + 1] = x.g[L.G_DECK]
    return L.POOL


def order_disc_twice(x):
    """One tribe's disc twice on the Playing Order column."""
    x.g[L.G_ORDER + 1] = x.g[L.G_ORDER]
    return L.POOL


def turn_before_the_game(x):
    """The turn disc on turn 1 at Setup."""
    x.g[L.G_TURN] = 1
    return 1


def tile_left_at_b(x):
    """Movement Cost tile B at Setup (A is placed; B lasts one Month Turn)."""
    x.g[L.G_TILE] = L.TILE_B
    return L.TILE_B


CORRUPTIONS = {
    L.INV_GOODS: extra_sword,
    L.INV_DIVINE_WILL: lost_cube,
    L.INV_TRIBESMEN: extra_tribesman,
    L.INV_HOSTAGES: own_hostage,
    L.INV_LEADERS: grey_leader_not_taken,
    L.INV_UNITS: engaged_after_setup,
    L.INV_VILLAGES: village_token_lost,
    L.INV_TROPHIES: trophy_travelling_from_the_pool,
    L.INV_TRAVEL: travel_goods_at_rest,
    L.INV_EQUIPMENT: third_space,
    L.INV_VP: below_one,
    L.INV_BATTLE_TRACK: disc_off_track,
    L.INV_MORRIGAN: token_out_of_the_bag,
    L.INV_ACTION_CARDS: basic_card_to_learn,
    L.INV_EVENT_CARDS: event_card_twice,
    L.INV_PLAYING_ORDER: order_disc_twice,
    L.INV_TURN: turn_before_the_game,
    L.INV_TILE: tile_left_at_b,
}


def test_every_invariant_has_a_corruption():
    assert sorted(CORRUPTIONS) == list(range(L.N_INVARIANTS))


@pytest.mark.parametrize("invariant", range(L.N_INVARIANTS), ids=lambda i: L.INVARIANTS[i])
def test_each_invariant_fails_on_a_corrupted_state(invariant):
    x = Position()
    detail = CORRUPTIONS[invariant](x)
    assert x.broken() == (invariant, detail)


# -- what the Action Phase allows, and what it does not ------------------------------------------
def test_tokens_stay_out_of_the_bag_only_during_a_battle():
    # Battle: "The used tokens are not put back inside the bag until the end of the Battle"
    x = Position(mid=True)
    x.g[L.G_BAG + 0] = x.g[L.G_BAG + 1] = 0
    assert x.broken(L.STEP_BATTLE_ROUND) is None
    assert x.broken(L.STEP_ACTION) == (L.INV_MORRIGAN, L.N_TOKENS - 2)


def test_the_discard_pile_is_back_in_the_deck_after_cleanup():
    # Cleanup Phase: "retrieve the Action Cards from the discard pile of their tribe and
    # recreate the Action Cards deck"
    x = Position()
    x[GREEN, L.PL_CARD + x.comp.card_titles.index("Cooking")] = L.CARD_DISCARD
    x.g[L.G_TURN] = 1  # as in turn 1's Action Phase
    assert x.broken(L.STEP_ACTION) is None
    x.g[L.G_TURN] = 0
    assert x.broken(L.STEP_SETUP) == (L.INV_ACTION_CARDS, GREEN)


def test_learning_is_boxed_only_once_every_special_card_is_learned():
    # Learning: "If they have added the last Special Action Card ... they can permanently
    # discard the Learning Action Card and put it in the box"
    x = Position()
    x[BLUE, L.PL_CARD + x.comp.card_titles.index("Learning")] = L.CARD_BOXED
    assert x.broken() == (L.INV_ACTION_CARDS, BLUE)


def test_a_delayed_event_is_held_only_after_it_is_drawn():
    # Event Phase: the delayed card is drawn, then placed covered in the playing area
    x = Position()
    arianrhod = x.comp.event_titles.index("Arianrhod")
    x[ORANGE, L.PL_HELD_EVENT] = arianrhod  # still in the deck: top is 0
    assert x.broken() == (L.INV_EVENT_CARDS, ORANGE)
    deck = x.g[L.G_DECK:L.G_DECK + 20]
    i = list(deck).index(arianrhod)
    deck[0], deck[i] = deck[i], deck[0]  # Arianrhod on top, then drawn by Orange
    x.g[L.G_EVENT_TOP] = 1
    x[ORANGE, L.PL_N_EVENTS] = 1
    assert x.broken() is None


def test_each_month_turn_has_one_first_pass():
    # Action Phase: "The player who passes first ... immediately gains 1 Victory Point"
    x = Position(mid=True)
    first = [s for s in range(5) if x[s, L.PL_FIRST_PASS]]
    assert len(first) == 1
    x[first[0], L.PL_FIRST_PASS] = 2
    assert x.broken() == (L.INV_PLAYING_ORDER, L.POOL)


# -- the kernels stop at the first broken invariant --------------------------------------------
def test_play_games_stops_at_the_first_broken_invariant():
    # no Festival tile for the Festival Turns: the turn-track invariant breaks on turn 3
    r = Rules()
    S = tables_for(r)
    p = PARAMETERS.build(r)
    p[L.P_N_FESTIVALS] = 0
    log = no_log(check_state=True)
    pol = POLICY_ROWS.build(())
    out = E.play_games(S, p, pol, np.arange(3, dtype=np.int64), np.uint64(5), log)
    assert broken_state(log) == (L.INV_TURN, 3, L.STEP_FESTIVAL, 3, 0)
    assert (out == 0).all()  # the game stopped before its outcome; the others not played


def test_a_broken_invariant_raises_state_error_naming_it():
    log = no_log(check_state=True)
    checks.broken(log, L.INV_VP, PURPLE, L.STEP_FESTIVAL, 12)
    with pytest.raises(StateError, match=r"game index 7 .* turn 12, after Festival Turn: "
                                         r"invariant broken: Victory Points track"):
        GAME._raise_if_broken(log, np.array([7]), 1)
    assert GAME.invariants == L.INVARIANTS and GAME.steps == L.STEPS


# -- every preset and policy plays with the checks on -------------------------------------------
def checked_cases():
    """Every preset under every script; the rollout player (a kernel of its own, about a
    second a game) at one seat under the standard rules only: its rollouts are greedy's
    games."""
    scripts = [p for p in GAME.policies["seat1"] if ("seat1", p) not in GAME.policy_kernels]
    return ([(preset, policy) for preset in [None, *GAME.presets] for policy in scripts]
            + [(None, {"seat1": "lookahead:rollouts=4"})])


@pytest.mark.parametrize(("preset", "policy"), checked_cases())
def test_checked_games_break_no_invariant(preset, policy):
    n = 20 if isinstance(policy, str) else 2
    checked = GAME.simulate(preset, policy, range(n), 11, check_state=True)
    plain = GAME.simulate(preset, policy, range(n), 11)
    for column in ("winner", "vp_blue", "vp_orange", "turns"):
        assert (checked[column] == plain[column]).all()  # checking changes no game


def test_a_checked_trace_plays_the_same_game():
    assert GAME.trace("two_players", "random", 3, 9, check_state=True) == \
        GAME.trace("two_players", "random", 3, 9)
