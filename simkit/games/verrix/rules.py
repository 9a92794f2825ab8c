"""Rule knobs of Verrix (rulebook: Setup, How to Play, Action/Reaction/Support).

Each knob holds the value actually played. ``PARAMETERS`` declares the kernel's
parameter vector (offsets in ``layout``).

Four reconstruction knobs are a declared calibration (``CALIBRATION``): the VP of the
unprinted Event Cards (``event_vp``) and of Purple's Divine Will cards
(``mystic_card_vp``), Purple's Setup Card Divine Will and Yellow's Cleanup VP, chosen
among values every printed fact allows so that each tribe wins 10-30% seat-rotated under
greedy play; the reconstruction of 2025 (Purple about 1%) is the preset
``reconstruction_2025``.

The scripted tribes' tunable weights (``policies``, ``appraisal``) are declared here too,
beside the rules: the numbers the greedy tribe's appraisal weighs an action with, in
value points (1 VP = ``vp_points``). The rulebook prints none of them; the defaults are
the numbers the tribes played before they were declared. Each seat's policy id and
weights reach the kernels as its row of ``pol`` (``POLICY_ROWS``, layout ``W_*``); the
rules' vector ``p`` holds rules only, so tuning one tribe's weights changes no rule the
others play.
"""

from dataclasses import dataclass
from itertools import permutations

from simkit.errors import RulesError
from simkit.games.base import Parameters, PolicyRows, RulesBase, knob, reading, reconstruction

from . import layout as L
from .components import DATA, load_components

FESTIVAL_TILES = 4
# every seat order of the five tribes (seat1 first); ``players`` takes the first n
SEAT_ORDERS = tuple(",".join(order) for order in permutations(L.TRIBES))
MORRIGAN_SETS = ("0,0,1,1,2,2,3", "0,0,0,1,1,1,2", "0,1,1,2,2,3,3", "0,0,1,1,1,2,3",
                 "1,1,1,1,1,1,1")
BATTLE_TRACKS = ("3,6,5,4", "3,6,8,10", "3,6,6,6", "3,4,5,6")
#: the grounds of the four reconstruction knobs calibrated together
CALIBRATION = ("A CALIBRATION, not a finding: chosen with event_vp = 1, mystic_card_vp = 1 "
               "and purple_divine_will = 3 (simkit tune --knobs --target 0.13..0.27, seats "
               "rotated) so that each tribe wins 10-30% under greedy play "
               "(docs/games/verrix.md, the calibration); ")
#: the words of each calibrated knob's value before the calibration
BEFORE = ": the reconstruction of 2025 (preset reconstruction_2025)"


def _ints(text: str, name: str, count: int, lo: int, hi: int) -> list[int]:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise RulesError(f"rule {name!r} must be {count} comma-separated integers, "
                         f"got {text!r}") from None
    if len(values) != count or not all(lo <= v <= hi for v in values):
        raise RulesError(f"rule {name!r} must be {count} comma-separated integers in "
                         f"{lo}..{hi}, got {text!r}")
    return values


@dataclass(frozen=True)
class Rules(RulesBase):
    players: int = knob(5, "tribes in play (seat k plays the k-th tribe of `tribes`)",
                        range=(2, 5))
    tribes: str = knob(
        "blue,orange,purple,green,yellow", "the tribes by seat, comma-separated (seat1 "
        "first: it takes the Kings' Ring); only the first `players` play",
        choices=SEAT_ORDERS)
    turns: int = knob(12, "turns in the game, Month and Festival (rulebook: 12)",
                      range=(3, 15))
    festival_every: int = knob(
        3, "a Festival Turn every this many turns (rulebook: 3, after every 2 Month "
        "Turns; turns // festival_every must not exceed the 4 tiles)", range=(2, 6))
    territory_cost: int = knob(1, "Movement Cost tile A: Provisions per territory entered",
                               range=(0, 4))
    sea_cost: int = knob(2, "Movement Cost tile A: Provisions per sea area entered",
                         range=(0, 6))
    morrigan_tokens: str = reconstruction(
        "0,0,1,1,2,2,3", "values of the 7 Mórrígan tokens (the rulebook's examples show "
        "tokens of 0, 1, 2 and 3; the other allowed sets that lack one contradict them)",
        alternatives={
            "0,1,1,2,2,3,3": "high tokens: every printed value, more weight on 2 and 3",
            "0,0,1,1,1,2,3": "every printed value, a 1 the commonest"},
        why="every value the examples print (0, 1, 2 and 3), the middle ones twice",
        choices=MORRIGAN_SETS)
    battle_track_vp: str = reconstruction(
        "3,6,5,4", "Battle Progression Track VP with the disc 0 (tie), 1, 2 and 3 or more "
        "spaces from the centre (3,4,5,6 contradicts the Battle example's 6 for one step)",
        alternatives={
            "3,6,8,10": "rising with the margin: the centre 3 and one step 6 of the Battle "
                        "example, then more for a larger win",
            "3,6,6,6": "flat beyond one step"},
        why='the centre 3 and one step 6 are the Battle example\'s; falling after it follows '
            'the Note "Winning against strong opponents means you gain more Victory '
            'Points": a close win is won against a strong opponent',
        choices=BATTLE_TRACKS)
    yellow_extra_slot: int = reconstruction(
        1, "Yellow's Ability Card (Master Smiths): equipment spaces added to each of its "
        "leaders (data/tribes.toml's extra_slot for Yellow; this knob sets it)",
        alternatives={0: "no extra space: Master Smiths is its Cleanup VP alone "
                         "(yellow_cleanup_vp)"},
        why="the Craftsmanship trait: leaders that carry more goods; one space, as the "
            "rulebook's leaders carry 1 or 2", range=(0, 1))
    yellow_cleanup_vp: int = reconstruction(
        1, "Yellow's Ability Card (Master Smiths): VP in Cleanup if one of its leaders "
        "carries 2 goods or more (data/tribes.toml's cleanup_vp_equipped for Yellow; this "
        "knob sets it)",
        alternatives={0: "no VP: the extra equipment space alone is the craftsmen's ability "
                         "(the calibration of 2026-12-06, chosen under a greedy player that "
                         "priced every Learning alike)"},
        why="1 VP, the size of every other recurring Cleanup VP (hostages, a Fibula, the "
            "Spear of Gorias)", range=(0, 1))
    orange_raid_vp: int = reconstruction(
        1, "Orange's Ability Card (Reavers): VP for each of its Raids on a Village that "
        "succeeds (data/tribes.toml's raid_vp for Orange; this knob sets it)",
        alternatives={0: "no VP: +1 STRENGTH and +1 transport capacity alone are the "
                         "raiders' ability"},
        why="the Raid trait's reward in the size of the Sack's 1 VP for 3 types of goods "
            "(the Sack example), which the ability does not add to", range=(0, 1))
    orange_hostage: bool = reconstruction(
        True, "Orange's Setup Card entitles it to a hostage from the Portum Itium market "
        "(data/tribes.toml's hostage for Orange; this knob sets it)",
        alternatives={False: "no hostage: Yellow's Setup Card alone shows one"},
        why='Setup: "Players who are entitled to a hostage must choose one tribesman '
            'meeple from the Portum Itium market": the raiders start with a captive')
    purple_hostage: bool = reconstruction(
        False, "Purple's Setup Card entitles it to a hostage from the Portum Itium market "
        "(data/tribes.toml's hostage for Purple; this knob sets it)",
        alternatives={True: "a hostage, as Orange's and Yellow's Setup Cards show one"},
        why="Setup names hostage entitlement without the tribes entitled; Purple's Setup "
            "Card gives Divine Will instead (purple_divine_will)")
    purple_divine_will: int = reconstruction(
        3, "Divine Will on Purple's Setup Card (data/tribes.toml's divine_will for "
        "Purple; this knob sets it; the other tribes take 3 of the 20 cubes)",
        alternatives={6: "the Mysticism trait's resource: two Events' worth (3 each, "
                         "Event Phase)" + BEFORE,
                      8: "the most the 20 cubes allow beside the others' 12"},
        why=f"{CALIBRATION}the other Setup Cards' 3, the trait in Purple's cards and Benevolence",
        range=(0, 8))
    green_trade_capacity: int = reconstruction(
        1, "Green's Ability Card (Merchant Roads): transport capacity added to its Trades "
        "at Portum Itium (data/tribes.toml's trade_capacity for Green; this knob sets it)",
        alternatives={0: "no added capacity: the Movement Cost discount alone is the "
                         "merchants' ability",
                      2: "two more goods a Trade at Portum Itium: the Trade trait's "
                         "reward in the size of Orange's raids (+1 STRENGTH, +1 capacity, "
                         "+1 VP)"},
        why="one more good, as Orange's Reavers carry one more in a Raid", range=(0, 2))
    event_vp: int = reconstruction(
        1, "VP added to each of the 18 Event Cards the rulebook does not describe (the "
        "events.toml played, a --data one too; The Gift and Arianrhod keep their printed "
        "effects): what 3 Divine Will buys in the Event Phase",
        alternatives={0: "the events as data/events.toml lists them, mildly positive on "
                         "average, a gamble for 3 Divine Will" + BEFORE,
                      2: "Events worth about 2.4 VP each: 3 Divine Will buys nearly what a "
                         "Cooking and a Feast pay (3 VP for two actions)",
                      4: "Events worth about 4.4 VP each (the calibration of 2026-12-06, "
                         "chosen under a greedy player that priced every Learning alike)"},
        why=f"{CALIBRATION}Divine Will, the Mysticism trait's resource and the first tie-break, "
            "buys an Event worth about 1.4 VP, a VP more than a gamble", range=(0, 4))
    mystic_card_vp: int = reconstruction(
        1, "VP added to each Development card of Purple's alone that gives Divine Will "
        "(the cards.toml played, a --data one too: Druid's Grove and Consecrated Ground "
        "in the package's): the Mysticism trait's cards",
        alternatives={0: "the cards as data/cards.toml lists them, Divine Will their "
                         "reward" + BEFORE,
                      2: "2 VP more, about a Feast's VP for a card of the trait"},
        why=f"{CALIBRATION}Purple's Divine Will cards pay 1 VP more, as Consecrated Ground pays 1 "
            "beside its Divine Will", range=(0, 3))
    forge_fibula: bool = reconstruction(
        True, "Forge (Yellow's Basic Development card) may make a Fibula (data/cards.toml "
        "lists Sword, Hammer, Fibula, Spear; false plays it without the Fibula)",
        alternatives={False: "Sword, Hammer or Spear only: no card makes the Fibula, worth "
                             "1 VP each Cleanup on a leader, for 1 Provisions"},
        why="a smithy's four metal goods; the Fibula is a metal brooch")
    battle_disc_start: str = reading(
        "centre", "where the Battle Progression Track's black disc starts a second battle "
        "in the same Month Turn",
        values={
            "centre": 'Battle example: "The black disc is placed in the space with a 3 of '
                      'the Battle Progression Track" at the battle\'s deployment: every '
                      'battle starts on the centre',
            "where_left": 'Cleanup: "check that the other black disc on the Battle Board '
                          'Track is placed in the space with the value 3": it is put back '
                          'only in Cleanup, so a later battle starts where the last left it'},
        why="the Battle example places the disc on the 3 as part of the battle itself; "
            "Cleanup's check then only restores a disc a battle moved")
    vp_past_110: str = reading(
        "kept", "what a tribe's Victory Points do past 110, two laps of the 55-space track "
        "(one '55' token per tribe)",
        values={
            "kept": 'Player Area Setup: "if a player exceeds 55, they start at 1 again, '
                    'placing the \"55\" token under their disc": the track counts laps, '
                    "so a third lap counts as the second did and the total is kept",
            "capped": 'Components: "5x \"55\" Victory Points tokens in 5 colours (1 for '
                      'each tribe)": one token marks one lap, so the track holds at most '
                      "55 + 55 = 110 and Fame stops there"},
        why="the rulebook counts Fame, and a disc past its last token still has the VP; "
            "the tokens mark laps, they do not limit them")
    raid_support: str = reading(
        "defenders", "whether other players may Support a raided Village (travel there and "
        "engage units of the raid card's classes to add their STRENGTH to the defence)",
        values={
            "defenders": 'Action, Reaction and Support: "Defending your own Village from an '
                         'opposing player\'s Raid Action is considered a Reaction. Siding with '
                         '... an opposing player who is making a Reaction to defend himself, is '
                         'considered Support": a raided player\'s defence is the Reaction the '
                         'same paragraph names, and others may side with it (as in a Battle: '
                         'paying the Movement Cost, gaining nothing but the raid\'s failure)',
            "none": 'Raid: the target "takes into account that their units that can '
                    'participate in the Action are those described by the Raid Action Card"; '
                    'the Raid section lists only the attacker\'s and the target\'s units, and '
                    'Support is detailed only for Battles'},
        why="the definition of Support names the player defending itself with a Reaction, "
            "which the same paragraph defines as defending one's Village from a Raid")
    battle_tie_vp: str = reading(
        "battle_players", "who gains the centre's VP when a Battle ends on a tie",
        values={
            "battle_players": 'Battle: "each player of the winning faction gains all the '
                              'Victory Points indicated in the space where the black disc is '
                              'located ..., in case of a tie all players gain 3 Victory '
                              'Points": the sentence pays the factions; on a tie, every '
                              'player of both',
            "all_players": 'Battle: "in case of a tie all players gain 3 Victory Points": '
                           'every player of the game, in the Battle or not'},
        why="the sentence is about the factions' reward, and the Battle's Note says "
            '"Battle rewards risk": a player who took no part gains nothing from it')
    sack_hostages: str = reading(
        "goods", "what Sack (Orange's raid on Portum Itium) may take from the market",
        values={
            "goods": 'Raid, the Sack example: "there are 2 options on the card. The player '
                     'having engaged 4 units ... chooses a Sword, a Spear and 2 Provisions, '
                     'takes them from the Portum Itium market ...; they gain 1 Victory Point '
                     'for having taken 3 different types of goods": the card\'s options are '
                     'goods',
            "hostages_too": 'Tribesman, Hostage and Leader: "A hostage is ... any tribesman '
                            'in the Portum Itium market"; Raid: these cards "try to steal '
                            'goods, trophies and hostages": the market\'s tribesmen are loot '
                            'too'},
        why="the rulebook's only Sack takes goods and pays for their types; the card's "
            "options, which the example mentions, are not printed")
    battle_leaders: str = reading(
        "every_class", "which leaders the factions of a Battle deploy: every class, or only "
        "warriors and mystics (with tribesmen), the same rule for attacker, defender and "
        "supporters",
        values={
            "every_class": 'Battle: the attacker places "at least 4 units available among '
                           'tribesmen and leaders of their tribe" in the Camp, the defender '
                           '"the tribesmen and leaders that were already engaged in previous '
                           'Actions on their tribe\'s Village Card (this is mandatory)", '
                           'supporters "the available tribesmen and leaders that they want to '
                           'add": any leader, a merchant or craftsman fighting in the rounds '
                           'open to its class (a round without a Battle card). The scripted '
                           'players add only tribesmen, warriors and mystics of their own '
                           'choice: the others fight in no Battle card\'s round',
            "battle_classes": 'Battle: "you must be able to use at least 4 units available '
                              'among tribesmen, mystic leaders and/or warrior leaders", and the '
                              'defender loses VP "for each available unit (tribesman, warrior '
                              'leader, mystic leader)" it holds back: the units of a Battle '
                              'are these, so merchants and craftsmen stay out, the defender\'s '
                              'engaged ones too'},
        why="the deployment's three steps all say \"tribesmen and leaders\"; the "
            "declaration's count and the hold-back penalty name the classes that are "
            "counted, not those allowed")
    tie_order: str = reading(
        "bottom", "the last tie-break: which disc on the Play Order Track wins",
        values={
            "bottom": 'End of the Game: "the player whose tribe\'s disc is placed in the '
                      'lowest space on the Play Order Track wins"; discs fill a column '
                      '"(top to bottom)" as players pass: the lowest space is the last '
                      'passer\'s',
            "top": 'End of the Game: "the lowest space" read as the space numbered lowest, '
                   'the first of the column: the first to pass, who plays first'},
        why="the Action Phase fills the order columns top to bottom, so the lowest space "
            "is the bottom one")
    the_gift_source: str = reading(
        "choice", "where The Gift's Cow comes from",
        values={
            "choice": 'Event Phase, The Gift example: the player "takes 1 Cow tile from the '
                      'Portum Itium market or, if available, from another player\'s Village '
                      'Card": either, as the drawer chooses ("if available": if a Village '
                      'Card has one)',
            "market_first": 'the same words read as a fallback: from the market, and from '
                            'another player\'s Village Card only when the market has none'},
        why='"or" offers two sources; "if available" says the second needs a Cow on '
            "another Village Card, not that the market must be empty")
    event_cost: int = knob(3, "Divine Will paid to draw an Event card (rulebook: 3)",
                           range=(0, 10))
    start_vp: int = knob(3, "VP disc's starting space (rulebook: 3)", range=(1, 10))
    first_player_vp: int = knob(1, "VP of the first player at set-up (rulebook: 1)",
                                range=(0, 5))
    first_pass_vp: int = knob(1, "VP of the first player to pass each Month Turn "
                                 "(rulebook: 1)", range=(0, 5))
    hold_back_vp: int = knob(
        1, "VP a defender loses per available battle unit it does not deploy (rulebook: 1)",
        range=(0, 5))
    benevolence: bool = knob(True, "Purple's Ability Card Benevolence is in play")
    extra_provisions: int = knob(0, "Provisions every tribe takes on top of its Setup Card",
                                 range=(0, 10))
    extra_divine_will: int = knob(
        0, "Divine Will every tribe takes on top of its Setup Card", range=(0, 6))
    divine_will_cubes: int = knob(20, "Divine Will cubes in the game (rulebook: 20)",
                                  range=(10, 60))

    def check(self) -> None:
        names = self.tribe_names
        if len(names) != L.N_TRIBES or sorted(names) != sorted(L.TRIBES):
            raise RulesError(f"rule 'tribes' must list each of {', '.join(L.TRIBES)} once, "
                             f"got {self.tribes!r}")
        _ints(self.morrigan_tokens, "morrigan_tokens", L.N_TOKENS, 0, 9)
        _ints(self.battle_track_vp, "battle_track_vp", 4, 0, 30)
        if self.turns // self.festival_every > FESTIVAL_TILES:
            raise RulesError(f"turns={self.turns} with festival_every={self.festival_every} "
                             f"needs {self.turns // self.festival_every} Festival tiles; "
                             f"there are {FESTIVAL_TILES}")

    @property
    def tribe_names(self) -> list[str]:
        return [t.strip() for t in self.tribes.split(",")]

    @property
    def seat_tribes(self) -> list[str]:
        return self.tribe_names[:self.players]


#: the kernel's parameter vector (offsets in ``layout``): each field is the knob of the
#: same name, except the seats' tribe codes, the token and track values read from their
#: text and the component counts (the seats' policy weights are ``weights.POLICY_ROWS``)
PARAMETERS = Parameters(
    L._P, Rules,
    tribe=lambda r: [L.TRIBES.index(t) for t in r.tribe_names],
    morrigan=lambda r: _ints(r.morrigan_tokens, "morrigan_tokens", L.N_TOKENS, 0, 9),
    battle_vp=lambda r: _ints(r.battle_track_vp, "battle_track_vp", 4, 0, 30),
    battle_disc_start=lambda r: L.BATTLE_DISC_STARTS.index(r.battle_disc_start),
    vp_past_110=lambda r: L.VP_PAST_110.index(r.vp_past_110),
    raid_support=lambda r: L.RAID_SUPPORTS.index(r.raid_support),
    battle_tie_vp=lambda r: L.BATTLE_TIE_VPS.index(r.battle_tie_vp),
    sack_hostages=lambda r: L.SACK_TAKES.index(r.sack_hostages),
    battle_leaders=lambda r: L.BATTLE_LEADER_READINGS.index(r.battle_leaders),
    tie_order=lambda r: L.TIE_ORDERS.index(r.tie_order),
    the_gift_source=lambda r: L.GIFT_SOURCES.index(r.the_gift_source),
    n_festival_tiles=lambda r: FESTIVAL_TILES,
    package_data=DATA,
    from_data={"n_cards": lambda d: len(load_components(d).card_titles),
               "n_events": lambda d: len(load_components(d).event_titles),
               "n_nodes": lambda d: len(load_components(d).node_names)},
)


@dataclass(frozen=True)
class Weights(RulesBase):
    """The greedy tribe's weights (``greedy``; the trait styles add ``style_bonus``)."""

    KIND = "policy weight"

    vp_points: int = knob(
        30, "value points a VP is worth (a good is worth 10 per point of its Portum Itium "
        "value: this sets VP against goods, units and Divine Will)", range=(10, 90))
    unit_points: int = knob(
        10, "what a point of STRENGTH could earn elsewhere in a Month Turn: the cost of the "
        "units a Battle or its Support engages, and what a tribesman back as a unit is "
        "worth each Month Turn left", range=(0, 40))
    engaged_points: int = knob(
        3, "value points an action gives up per point of STRENGTH it engages (units left "
        "for later actions of the Month Turn)", range=(0, 15))
    short_provision_points: int = knob(
        20, "a Provision's worth while the tribe holds fewer than the dearest trip of a "
        "card in its hand takes (its Provisions reserve, kept so that it neither sells "
        "nor spends them lightly)", range=(0, 60))
    provision_points: int = knob(
        6, "a Provision's worth beyond its reserve, and the cost of each Provision a "
        "trip takes (an action away, the set-up village's trip to Portum Itium)",
        range=(0, 20))
    new_type_points: int = knob(
        10, "added to a good of a type the tribe does not hold (the Festivals' variety "
        "objectives)", range=(0, 40))
    event_points: int = knob(
        42, "what a drawn Event card is worth (about 1.4 VP) besides the VP event_vp adds "
        "to it: Divine Will that funds Events it can still draw is worth a third of the "
        "two a cube", range=(0, 120))
    spare_dw_points: int = knob(
        4, "a Divine Will cube beyond the Events it can still draw (Mórrígan draws, the "
        "tie-break)", range=(0, 30))
    clan_pact_points: int = knob(
        45, "a Clan Pact's new village besides the VP of the Festivals' village objectives "
        "it reaches (shorter trips, tribute, later Clan Pact sites)", range=(0, 120))
    learn_percent: int = knob(
        25, "percent of the best play now of the Special card a Learning adds that the "
        "Learning counts for each Month Turn left after this one (the card comes back to "
        "hand at every Cleanup but competes with the others for units; Learning also "
        "engages the Special's cost, priced at engaged_points)", range=(0, 100))
    site_distance_points: int = knob(
        40, "a village site's worth per Provision of the opponents' mean trip to it (the "
        "set-up village and a Clan Pact's: the farther, the dearer their Raids and "
        "Battles there)", range=(0, 120))
    trade_extra_units: int = knob(
        2, "units a trader engages beyond the card's cost (each carries more goods)",
        range=(0, 6))
    second_token_margin: int = knob(
        3, "the largest STRENGTH a side may still lack for which it pays 1 Divine Will to "
        "draw two Mórrígan tokens and keep the higher", range=(0, 6))
    rival_percent: int = knob(
        100, "percent of what an action gives the leading rival (the other tribe with the "
        "most VP on the track, none while several are level at the most: the VP it can "
        "expect as the defender or a supporter of a Battle the tribe declares, the surplus "
        "a Trade leaves on its Village) taken off "
        "the action's worth: 0 plays for the tribe's own VP, 100 counts a VP the leader "
        "gains as one the tribe loses", range=(0, 200))


@dataclass(frozen=True)
class StyleWeights(Weights):
    """A trait style's weights (``battle``, ``raid``, ``mysticism``, ``trade``,
    ``craftsmanship``): greedy's, and the bonus for an action of its trait."""

    style_bonus: int = knob(
        25, "value points added to every worthwhile action of the style's trait (and to "
        "Special cards of its trait when Learning): about 0.8 VP", range=(0, 120))


@dataclass(frozen=True)
class LookaheadWeights(Weights):
    """The ``lookahead`` tribe's weights (``lookahead``): greedy's (every choice it does
    not search, and every choice in its rollouts, is greedy's), its budget and width."""

    rollouts: int = knob(
        24, "rollouts of the rest of the game an action choice may play, spread over its "
        "options by successive halving (more is stronger and slower)", range=(1, 2048))
    width: int = knob(
        4, "the options an action choice weighs by rollouts: greedy's choice and the "
        "next best by greedy's own score (passing is one)", range=(1, 16))
    margin_weight: float = knob(
        0.0, "what one VP of the final margin (the tribe's VP less the best other "
        "tribe's) adds to a rollout's score, which is 1 for a win and 0 otherwise",
        range=(0.0, 1.0), step=0.001)


#: seat -> {policy: weights}, the same at every seat: every policy but ``random``; a
#: look-ahead's rollouts are played with its own row under greedy's id
#: (``lookahead.greedy_rows``)
POLICY_WEIGHTS = {seat: {"greedy": Weights, **{name: StyleWeights for name in L.POLICY_NAMES
                                               if name not in ("greedy", "random")},
                         "lookahead": LookaheadWeights}
                  for seat in L.SEATS}

#: the kernels' ``pol``: a row for every seat the kernel could seat (``MAX_PLAYERS``); a
#: seat without a policy, or with ``random`` (whose units, loot and trades are greedy's),
#: plays the defaults; ``greedy`` has no ``style_bonus`` and never reads it
POLICY_ROWS = PolicyRows(L._W, POLICY_WEIGHTS, defaults=StyleWeights(), rows=L.MAX_PLAYERS)
