"""The Game contract, checked on every game (registered or in progress) with no per-game
code: a new game passes it or is not done.

Checks: every outcome column present with its dtype and its categories in range; a
game does not depend on chunking or order; every preset and every policy of every side
plays, with the state checks on (``check_state``: the game's invariants after every rule
step); every rule knob and policy weight reaches the kernel (set to another allowed value,
it changes what the kernel is given, and it changes the games played, from the standard
rules, a preset or a one-knob neighbour, under some pairing of the policies); ``trace``
ends with the row ``simulate`` produced; plain Python (``NUMBA_DISABLE_JIT=1``) plays
the same games; bad rules raise ``RulesError``; the assault and the whole 11 de Setembre
play the same games compiled without simkit's numba patches (``SIMKIT_NUMBA_PATCHES=0``).
"""

import json

import numpy as np
import pytest
from plain_python import run_without_jit, run_without_patches

from simkit import games
from simkit.errors import RulesError, UsageError
from simkit.games.base import PolicyChoice

SEED = 2026
N_GAMES = 8
#: games each setting of the count-column test plays (a column too small for a game's
#: value raises StateError in any game; the fill only steers the ascent)
FILL_GAMES = 4
GAMES = games.names() + games.in_progress()


def game_of(name):
    return games.get(name) if name in games.names() else games.get_in_progress(name)


def columns_of(name, rules=None, policy=None, indices=range(N_GAMES), seed=SEED):
    return game_of(name).simulate(rules, policy, np.asarray(indices, dtype=np.int64), seed)


def assert_valid_columns(game, cols, n):
    assert list(cols) == list(game.outcome_columns), "columns differ from the declaration"
    for name, col in game.outcome_columns.items():
        values = cols[name]
        assert values.shape == (n,), name
        assert values.dtype == np.dtype(col.numpy_dtype), f"{name}: {values.dtype}"
        if col.dtype == "category":
            assert col.categories, f"{name}: a category column needs its categories"
            assert ((values >= 0) & (values < len(col.categories))).all(), name


def row_result_line(game, cols, i: int) -> str:
    """The result line a trace of game ``i`` ends with, from its simulated row."""
    winner = game.outcome_columns["winner"].categories[cols["winner"][i]]
    reason = game.outcome_columns["end_reason"].categories[cols["end_reason"][i]]
    return game.result_line(winner, reason, int(cols["turns"][i]))


def cases(kind):
    """(game, item) pairs for the parametrised tests: presets or (side, policy)."""
    out = []
    for name in GAMES:
        game = game_of(name)
        if kind == "presets":
            out += [(name, preset) for preset in game.presets]
        else:
            out += [(name, (side, policy)) for side in game.sides
                    for policy in game.policies[side]]
    return out


@pytest.mark.parametrize("name", GAMES)
def test_declares_the_contract(name):
    game = game_of(name)
    assert game.name == name
    assert game.title and game.sides
    for required in ("winner", "end_reason", "turns"):
        assert required in game.outcome_columns, required
    assert game.outcome_columns["winner"].dtype == "category"
    assert game.outcome_columns["end_reason"].dtype == "category"
    assert set(game.policies) == set(game.sides)
    for side in game.sides:
        assert game.policies[side], f"side {side} has no policy"
    for knob in game.Rules.knobs():
        assert knob.doc, f"knob {knob.name} has no doc string"
        assert knob.type is bool or knob.range or knob.choices, \
            f"knob {knob.name} declares no range or choices"
        if knob.role != "rule":
            assert_declared_words(knob)


def assert_declared_words(knob):
    """A reading gives the rulebook's words for every value; a reconstruction gives at
    least one alternative, each allowed and with why it fits; both say why the default."""
    assert knob.why, f"{knob.name}: say why the default was chosen"
    assert knob.words and all(text.strip() for text in knob.words.values()), knob.name
    if knob.role == "reading":
        assert tuple(knob.words) == knob.choices, f"{knob.name}: words for every value"
        assert knob.default in knob.words
    else:
        assert knob.role == "reconstruction" and knob.alternatives, knob.name
    for value in knob.alternatives:
        assert knob.check(value) == value, f"{knob.name}: {value!r} is not allowed"


@pytest.mark.parametrize("name", GAMES)
def test_outcome_columns_present_typed_and_in_range(name):
    game = game_of(name)
    assert_valid_columns(game, columns_of(name), N_GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_chunking_and_order_do_not_change_a_game(name):
    whole = columns_of(name)
    order = np.random.default_rng(0).permutation(N_GAMES)
    shuffled = columns_of(name, indices=order)
    halves = [columns_of(name, indices=range(0, 3)), columns_of(name, indices=range(3, N_GAMES))]
    for col in whole:
        assert np.array_equal(shuffled[col], whole[col][order]), col
        assert np.array_equal(np.concatenate([h[col] for h in halves]), whole[col]), col


def numeric_knobs(game):
    return [k for k in game.Rules.knobs() if k.range is not None and k.type in (int, float)]


def legal(game, rules, changes):
    """``rules`` with ``changes``, if the cross-knob checks and the data played admit
    them (``Game.resolve_rules``); else RulesError."""
    return game.resolve_rules(rules.replace(changes))


def pushed(game, base, knobs, ends):
    """``base`` with each knob moved to its ``ends`` entry (0 low, 1 high, None left as
    it is), in turn, where the checks admit it: a corner of the rule space."""
    rules = base
    for knob, end in zip(knobs, ends, strict=True):
        if end is None:
            continue
        try:
            rules = legal(game, rules, {knob.name: knob.range[end]})
        except RulesError:
            continue
    return rules


_filled: dict = {}


def fill(game, rules):
    """How full ``rules``' games make the integer columns: (the sum over columns of
    |value| / the dtype's limit, the fullest column, its ratio). A column too small for
    its values raises StateError, failing the test. Each setting is played once (the
    coordinate ascent comes back to the same settings)."""
    key = (game.name, repr(rules))
    if key not in _filled:
        _filled[key] = _fill(game, rules)
    return _filled[key]


def _fill(game, rules):
    cols = game.simulate(rules, None, np.arange(FILL_GAMES), SEED)
    ratios = {}
    for name, col in game.outcome_columns.items():
        values = cols[name]
        if col.dtype != "category" and np.issubdtype(values.dtype, np.integer):
            limits = np.iinfo(values.dtype)
            ratios[name] = max(values.max() / limits.max, values.min() / limits.min)
    fullest = max(ratios, key=ratios.get)
    return sum(ratios.values()), fullest, ratios[fullest]


def fullest_setting(game, base, knobs):
    """Coordinate ascent over the ends of the knobs' ranges towards the setting whose
    games fill some column most: a count overflows only where several knobs lengthen
    the game together (Victus: 4 players, 12 cards and 11 rounds a stage)."""
    rules, best = base, fill(game, base)
    for _ in range(2):
        for knob in knobs:
            for end in knob.range:
                for candidate in moves(game, rules, knobs, knob, end):
                    score = fill(game, candidate)
                    if score[0] > best[0]:
                        rules, best = candidate, score
    return rules, best


def moves(game, rules, knobs, knob, end):
    """``rules`` with ``knob`` at ``end``; where the cross-knob checks refuse that alone
    (Victus: 12 cards a stage need more rounds), with each other knob at an end too."""
    try:
        return [legal(game, rules, {knob.name: end})]
    except RulesError:
        pass
    out = []
    for other in knobs:
        for other_end in other.range:
            try:
                out.append(legal(game, rules, {knob.name: end, other.name: other_end}))
            except RulesError:
                continue
    return out


@pytest.mark.parametrize("name", GAMES)
def test_count_columns_hold_the_knobs_extremes(name):
    """No legal setting fills an integer column to its dtype's limit: each knob alone at
    either end of its range, all low and all high from the standard rules and every
    preset, and the fullest setting a coordinate ascent finds stay strictly inside."""
    game = game_of(name)
    knobs = numeric_knobs(game)
    standard = game.Rules()
    alone = [[end if j == i else None for j in range(len(knobs))]
             for i in range(len(knobs)) for end in (0, 1)]
    settings = [pushed(game, standard, knobs, ends) for ends in alone]
    for base in [standard] + [preset.rules for preset in game.presets.values()]:
        settings += [pushed(game, base, knobs, [end] * len(knobs)) for end in (0, 1)]
    settings.append(fullest_setting(game, standard, knobs)[0])
    full = {}
    for rules in dict.fromkeys(settings):
        _, column, ratio = fill(game, rules)
        if ratio >= 1.0 - 1e-9:
            full[column] = rules
    assert not full, f"columns at their dtype's limit: {full}"


#: games each preset and policy plays with the state checks on (a few hundred in all)
CHECKED_GAMES = 6


def checked_columns(name, rules=None, policy=None, n=CHECKED_GAMES):
    game = game_of(name)
    return game.simulate(rules, policy, np.arange(n), SEED, check_state=True)


@pytest.mark.parametrize(("name", "preset"), cases("presets"))
def test_every_preset_plays_with_state_checks(name, preset):
    game = game_of(name)
    assert game.presets[preset].description
    assert_valid_columns(game, checked_columns(name, rules=preset), CHECKED_GAMES)


@pytest.mark.parametrize(("name", "side_policy"), cases("policies"))
def test_every_policy_of_every_side_plays_with_state_checks(name, side_policy):
    side, policy = side_policy
    game = game_of(name)
    assert game.policies[side][policy], "a policy needs a description"
    n = 1 if (side, policy) in game.policy_kernels else CHECKED_GAMES  # rollouts are slow
    assert_valid_columns(game, checked_columns(name, policy={side: policy}, n=n), n)


@pytest.mark.parametrize("name", GAMES)
def test_checked_games_are_the_games_played(name):
    assert game_of(name).invariants and game_of(name).steps, "the game declares check_state"
    plain = columns_of(name, indices=range(CHECKED_GAMES))
    checked = checked_columns(name)
    for col in plain:
        assert np.array_equal(plain[col], checked[col]), col


def other_values(knob):
    """Allowed values of ``knob`` other than its default, most different first."""
    if knob.type is bool:
        return [not knob.default]
    if knob.choices is not None:
        return [c for c in knob.choices if c != knob.default]
    lo, hi = knob.range
    spread = np.linspace(lo, hi, 13)
    if knob.step:  # a weight the engine reads in steps takes multiples of the step only
        spread = np.round(np.round(spread / knob.step) * knob.step, 9)
        hi = round(int(hi / knob.step) * knob.step, 9)
    if knob.type is int:
        spread = [*range(knob.default - 3, knob.default + 4), *np.rint(spread).astype(int)]
    values = [knob.type(v) for v in (hi, lo, *spread)]
    return [v for v in dict.fromkeys(values) if lo <= v <= hi and v != knob.default]


def flat(inputs):
    """The kernel's inputs as one list of arrays (tuples of component arrays unpacked)."""
    out = []
    for item in inputs:
        out += flat(item) if isinstance(item, tuple) else [np.asarray(item)]
    return out


def same_inputs(a, b) -> bool:
    fa, fb = flat(a), flat(b)
    return len(fa) == len(fb) and all(x.shape == y.shape and np.array_equal(x, y)
                                      for x, y in zip(fa, fb, strict=True))


def changed_rules(game, knob):
    """(rules, the same with ``knob`` at another allowed value) from the standard rules
    and every preset, where the changed rules pass the cross-knob checks (a knob that
    needs another, such as Victus's competitive scoring knobs, is tried where it is on)."""
    for base in [game.Rules()] + [preset.rules for preset in game.presets.values()]:
        for value in other_values(knob):
            try:
                yield base, legal(game, base, {knob.name: value})
            except RulesError:
                continue


@pytest.mark.parametrize("name", GAMES)
def test_every_knob_reaches_the_kernel(name):
    game = game_of(name)
    default = game.policy_choices(None)
    dead = []
    for knob in game.Rules.knobs():
        pairs = list(changed_rules(game, knob))
        assert pairs, f"{knob.name}: no other allowed value passes the rules' checks"
        if all(same_inputs(game.kernel_inputs(base, default), game.kernel_inputs(rules, default))
               for base, rules in pairs):
            dead.append(knob.name)
    assert not dead, f"knobs that change nothing the kernel is given: {dead}"


def weight_cases():
    return [(name, side, policy) for name in GAMES
            for side, by_policy in game_of(name).policy_weights.items()
            for policy in by_policy]


@pytest.mark.parametrize(("name", "side", "policy"), weight_cases())
def test_every_policy_weight_reaches_the_kernel(name, side, policy):
    game = game_of(name)
    rules = game.Rules()
    weights_cls = game.policy_weights[side][policy]
    choices = list(game.policy_choices({side: policy}))
    k = game.sides.index(side)
    base = game.kernel_inputs(rules, tuple(choices))
    dead = []
    for knob in weights_cls.knobs():
        changed = []
        for value in other_values(knob):
            choices[k] = PolicyChoice(policy, choices[k].id, weights_cls(**{knob.name: value}))
            changed.append(game.kernel_inputs(rules, tuple(choices)))
        if all(same_inputs(base, inputs) for inputs in changed):
            dead.append(knob.name)
    assert not dead, f"{policy} weights that change nothing the kernel is given: {dead}"


#: games played per try when asking whether a knob changes the games (the first value
#: that changes them ends the search)
CHANGE_GAMES = 40
#: of which played first
CHANGE_GAMES_FIRST = 8
#: values tried per base rules, the most different first
CHANGE_VALUES = 3


#: games per try for a policy with a kernel of its own (a rollout player), enough for
#: each of its weights to change one (King in the North: a Liberal retreat before combat,
#: which `retreat_ratio` weighs, is rare: 2 games of its look-ahead held none)
CHANGE_GAMES_SEARCH = 4
#: a rollout player's weight that sets what its games cost: its other weights are tried
#: at its lowest value (the same code reads them at any value, 10x faster at Victus's 1)
SEARCH_BUDGET = "rollouts"


def is_search(game, policies) -> bool:
    """Whether a rollout player (a policy with a kernel of its own) is among ``policies``."""
    return any((side, choice.name) in game.policy_kernels
               for side, choice in zip(game.sides, policies, strict=True))


_played: dict = {}


def games_differ(game, default, variant) -> bool:
    """Whether (rules, policies) ``variant`` plays any of the ``CHANGE_GAMES`` games
    (``CHANGE_GAMES_SEARCH`` with a rollout player) otherwise than ``default``. A rollout
    player's games are compared one at a time and a script's first ``CHANGE_GAMES_FIRST``
    before the rest, so a knob that changes the first games costs only those; each
    default game is played once for all the knobs tried from it."""
    if is_search(game, default[1]):
        chunks = [(start, 1) for start in range(CHANGE_GAMES_SEARCH)]
    else:  # most changes show in the first few games: the rest only if they do not
        chunks = [(0, CHANGE_GAMES_FIRST), (CHANGE_GAMES_FIRST, CHANGE_GAMES - CHANGE_GAMES_FIRST)]
    return any(games_played(game, *default, start, n) != games_played(game, *variant, start, n)
               for start, n in chunks)


def games_played(game, rules, policies, start: int, n: int) -> bytes:
    """The outcome rows of games ``start`` to ``start + n``, as bytes to compare."""
    key = (game.name, repr(rules), repr(tuple(policies)), start, n)
    if key not in _played:
        indices = np.arange(start, start + n, dtype=np.int64)
        cols = game.play(rules, tuple(policies), indices, np.uint64(SEED))
        _played[key] = b"".join(np.ascontiguousarray(v).tobytes() for v in cols.values())
    return _played[key]


def bases(game, skip: str = ""):
    """Rules to change a knob from: the standard rules, every preset, then the standard
    rules with one other knob (not ``skip``) at another allowed value: a knob that acts
    only where another is on (a salvo's zone, a competitive weight) is tried there; the
    choices and switches first, since they turn a part of the game on."""
    yield game.Rules()
    yield from (preset.rules for preset in game.presets.values())
    numeric = lambda k: k.type is not bool and k.choices is None  # noqa: E731
    for other in sorted(game.Rules.knobs(), key=numeric):
        if other.name == skip:
            continue
        for value in other_values(other)[:CHANGE_VALUES]:
            try:
                yield legal(game, game.Rules(), {other.name: value})
            except RulesError:
                continue


def changes_games(game, knob, variants, values=None, first=None) -> bool:
    """Whether, from some base rules (``first``'s changes to the standard rules tried
    first), ``knob`` at another value (``values``, else ``other_values``) plays other
    games: ``variants(base, value)`` gives (rules, policies) or raises RulesError."""
    tried_first = [legal(game, game.Rules(), first)] if first else []
    for base in [*tried_first, *bases(game, skip=knob.name)]:
        default = None
        for value in (values or other_values(knob))[:CHANGE_VALUES]:
            try:
                variant = variants(base, value)
            except RulesError:
                continue
            default = default or variants(base, knob.default)
            if games_differ(game, default, variant):
                return True
    return False


#: knobs this test found changing no game, an open finding to resolve (not a pass):
#: King in the North ``tied_bid`` changed none of 400 standard games (are bids ever tied
#: under the scripted commanders?)
UNREACHED = {"king_in_the_north": ("tied_bid",)}
#: players tried first for a knob that acts only on a position the default players
#: seldom reach (the Carlists lead in 1836 mostly against random Liberals, the Liberals
#: in 1836 mostly against random Carlists; the cautious Carlists meet the cavalry
#: charges the reading changes soonest): the same test, the players that show the
#: effect tried first (under the calibrated set-up 18 s less than the default players)
PLAYERS_FIRST = {("king_in_the_north", "carlist_lead_1836"): {"liberals": "random"},
                 ("king_in_the_north", "liberal_lead_1836_turn"): {"carlists": "random"},
                 ("king_in_the_north", "cavalry_charge"): {"carlists": "cautious"}}
#: the other side's player for a policy weight that answers only what the default player
#: never does (King in the North: greedy never challenges for the Initiative, so only a
#: random challenger meets a commander's ``accept_from``)
OPPONENTS_FOR = {("king_in_the_north", "accept_from"): {"carlists": "random",
                                                       "liberals": "random"}}
#: rules tried first as the base for a knob that acts only where another knob is off its
#: default (found by this test's own search, which tries every base in turn; 10 s less)
BASE_FIRST = {("king_in_the_north", "carlist_lead_1837"): {"loss_rate": 14},
              ("king_in_the_north", "liberal_lead_1836_turn"): {"liberal_lead_1836": 17},
              ("verrix", "tie_order"): {"sea_cost": 1},
              ("verrix", "vp_past_110"): {"battle_track_vp": "3,6,8,10"},
              ("setembre1714", "barricade_bonus"): {"stop_across_walls": "no"}}


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_knob_changes_the_games(name):
    """Not only the kernel's input: a knob written and never read would pass that."""
    game = game_of(name)
    # the default players, then each side's other policies: a knob may act only on a
    # choice the default never makes (the assault's withdrawal bonus, on a withdrawal)
    players = [game.policy_choices(None)] + [
        game.policy_choices({side: policy}) for side in game.sides
        for policy in list(game.policies[side])[1:]]

    def variants(base, value, knob, policies):
        return legal(game, base, {knob.name: value}), policies

    def players_for(knob):
        first = PLAYERS_FIRST.get((name, knob.name))
        return players if first is None else [game.policy_choices(first), *players]

    dead = [k.name for k in game.Rules.knobs() if k.name not in UNREACHED.get(name, ())
            and not any(changes_games(game, k, lambda b, v, k=k, c=c: variants(b, v, k, c),
                                      first=BASE_FIRST.get((name, k.name)))
                        for c in players_for(k))]
    assert not dead, f"knobs that change no game of {CHANGE_GAMES}: {dead}"


def weight_change_cases():
    """``weight_cases`` with each policy of a seated game at one seat, the seats taken in
    turn (every seat's row is read by the same code; each seat is still tried)."""
    out, seen = [], {}
    for name, side, policy in weight_cases():
        game = game_of(name)
        if game.rotate_seats is None:
            out.append((name, side, policy))
            continue
        k = seen.setdefault((name, policy), len([key for key in seen if key[0] == name]))
        if game.sides.index(side) == k % len(game.sides):
            out.append((name, side, policy))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("name", "side", "policy"), weight_change_cases())
def test_every_policy_weight_changes_the_games(name, side, policy):
    game = game_of(name)
    weights_cls = game.policy_weights[side][policy]
    choices = game.policy_choices({side: policy})
    k = game.sides.index(side)

    cheapest, values, tried = {}, {}, weights_cls.knobs()
    if is_search(game, choices):
        budget = {w.name: w for w in weights_cls.knobs()}[SEARCH_BUDGET]
        cheapest = {SEARCH_BUDGET: budget.range[0]}
        values = {SEARCH_BUDGET: [budget.range[0]]}  # the budget itself: its default or 1
        tried = search_weights_to_play(game, side, policy)

    def variants(base, value, knob=None):
        weights = weights_cls(**{**cheapest, knob.name: value})
        opponents = OPPONENTS_FOR.get((name, knob.name))
        played = game.policy_choices({**opponents, side: policy}) if opponents else choices
        changed = PolicyChoice(policy, played[k].id, weights)
        return game.resolve_rules(base), (*played[:k], changed, *played[k + 1:])

    dead = [w.name for w in tried
            if not changes_games(game, w, lambda b, v, w=w: variants(b, v, w),
                                 values.get(w.name))]
    assert not dead, f"{policy} weights that change no game of {CHANGE_GAMES}: {dead}"


def search_weights_to_play(game, side: str, policy: str) -> list:
    """The weights of a rollout player to try through its games: its own, and the first
    of the script's it plays with (a rollout player is its side's default script at every
    choice it does not search, and in its rollouts). Each other script weight is checked
    to reach the kernel in the script's own field, as the script's does: the script's
    test shows that each of those fields changes games, and the one played here that the
    rollout player's kernel reads them (a rollout game costs a hundred script games)."""
    script = next(iter(game.policies[side]))
    own = {w.name: w for w in game.policy_weights[side][policy].knobs()}
    scripts = [w for w in game.policy_weights[side][script].knobs() if w.name in own]
    k = game.sides.index(side)
    fields = list(game.policy_rows.fields.fields)
    for weight in scripts:
        for value in other_values(weight)[:CHANGE_VALUES]:
            rows = {}
            for name in (policy, script):
                choices = list(game.policy_choices({side: name}))
                weights = game.policy_weights[side][name](**{weight.name: value})
                choices[k] = PolicyChoice(name, choices[k].id, weights)
                rows[name] = game.policy_rows.build(tuple(choices))[k]
            column = fields.index(weight.name)
            assert rows[policy][column] == rows[script][column], (weight.name, value)
    return [w for name, w in own.items() if name not in {s.name for s in scripts}] + \
        scripts[:1]


@pytest.mark.parametrize("name", GAMES)
def test_trace_replays_the_row(name):
    game = game_of(name)
    cols = columns_of(name, indices=range(3))
    for i in range(3):
        lines = game.trace(None, None, i, SEED)
        assert game.trace(None, None, i, SEED) == lines, "a trace is deterministic"
        assert lines[-1] == row_result_line(game, cols, i)
        assert len(lines) > 2, "the trace narrates the game"


_PLAIN = """
import json, numpy as np
from simkit import games
name = {name!r}
game = games.get(name) if name in games.names() else games.get_in_progress(name)
cols = game.simulate(None, None, np.arange({n}), {seed})
print(json.dumps({{k: v.tolist() for k, v in cols.items()}}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_plain_python_plays_the_same_games(name):
    n = 2
    plain = run_without_jit(_PLAIN.format(name=name, n=n, seed=SEED), timeout=600)
    compiled = columns_of(name, indices=range(n))
    assert plain == json.loads(json.dumps({k: v.tolist() for k, v in compiled.items()}))


_UNPATCHED_CHECK = """
from simkit import _numba_link, unmanaged
assert not _numba_link._installed and unmanaged.unmanaged is unmanaged._identity
"""

#: games played with simkit's numba patches off: the assault in make test, and one whole
#: game in make heavy (each compiles cold in a fresh process without the patches, about
#: 5x slower: a minute of CPU for the whole 11 de Setembre)
UNPATCHED = ("setembre1714-assault",
             pytest.param("setembre1714", marks=pytest.mark.heavy))


@pytest.mark.slow
@pytest.mark.parametrize("name", UNPATCHED)
def test_plain_numba_plays_the_same_games(name):
    n = 40
    code = _PLAIN.format(name=name, n=n, seed=SEED) + _UNPATCHED_CHECK
    plain = run_without_patches(code, timeout=900)
    compiled = columns_of(name, indices=range(n))
    assert plain == json.loads(json.dumps({k: v.tolist() for k, v in compiled.items()}))


@pytest.mark.parametrize("name", GAMES)
def test_bad_rules_raise_rules_error(name):
    game = game_of(name)
    with pytest.raises(RulesError, match="unknown rule 'no_such_knob'"):
        game.simulate({"no_such_knob": 1}, None, np.arange(1), SEED)
    with pytest.raises(RulesError, match="unknown preset"):
        game.simulate("no_such_preset", None, np.arange(1), SEED)
    for knob in game.Rules.knobs():
        if knob.choices is not None:
            bad = "no-such-choice"
        elif knob.type is bool:
            bad = "yes"
        elif knob.range is not None:
            bad = knob.range[1] + 1
        else:
            continue
        with pytest.raises(RulesError, match=knob.name):
            game.simulate({knob.name: bad}, None, np.arange(1), SEED)


@pytest.mark.parametrize("name", GAMES)
def test_bad_policy_raises_usage_error(name):
    game = game_of(name)
    with pytest.raises(UsageError, match="unknown policy"):
        game.simulate(None, "no_such_policy", np.arange(1), SEED)
