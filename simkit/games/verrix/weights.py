"""The scripted tribes' tunable weights (``policies``, ``appraisal``): the numbers the
greedy tribe's appraisal weighs an action with, in value points (1 VP = ``vp_points``).
The rulebook prints none of them; the defaults are the numbers the tribes played before
they were declared, so the default policies play the same games.

Each seat's policy id and weights reach the kernels as its row of ``pol``
(``POLICY_ROWS``, layout ``W_*``), declared once by these classes; the rules' vector ``p``
holds rules only, so tuning one tribe's weights changes no rule the others play.
"""

from dataclasses import dataclass

from simkit.games.base import PolicyRows, RulesBase, knob

from . import layout as L


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
    min_provisions: int = knob(
        5, "Provisions kept for travel: below this a Provision is worth "
        "short_provision_points, so the tribe neither sells nor spends them lightly",
        range=(0, 12))
    short_provision_points: int = knob(
        20, "a Provision's worth while the tribe holds fewer than min_provisions",
        range=(0, 60))
    provision_points: int = knob(
        6, "a Provision's worth beyond min_provisions, and the cost of each Provision a "
        "trip takes (an action away, the set-up village's trip to Portum Itium)",
        range=(0, 20))
    new_type_points: int = knob(
        10, "added to a good of a type the tribe does not hold (the Festivals' variety "
        "objectives)", range=(0, 40))
    event_points: int = knob(
        42, "what a drawn Event card is worth (about 1.4 VP): Divine Will that funds Events "
        "it can still draw is worth a third of this a cube", range=(0, 120))
    spare_dw_points: int = knob(
        4, "a Divine Will cube beyond the Events it can still draw (Mórrígan draws, the "
        "tie-break)", range=(0, 30))
    clan_pact_points: int = knob(
        45, "a Clan Pact's new village (and, at set-up, each free neighbouring territory "
        "of a village site: a later Clan Pact site)", range=(0, 120))
    raid_extra_units: int = knob(
        10, "units a raider engages beyond the card's cost, as far as it has them (10: all "
        "of them)", range=(0, 10))
    trade_extra_units: int = knob(
        2, "units a trader engages beyond the card's cost (each carries more goods)",
        range=(0, 6))
    second_token_margin: int = knob(
        3, "the largest STRENGTH a side may still lack for which it pays 1 Divine Will to "
        "draw two Mórrígan tokens and keep the higher", range=(0, 6))


@dataclass(frozen=True)
class StyleWeights(Weights):
    """A trait style's weights (``battle``, ``raid``, ``mysticism``, ``trade``,
    ``craftsmanship``): greedy's, and the bonus for an action of its trait."""

    style_bonus: int = knob(
        25, "value points added to every worthwhile action of the style's trait (and to "
        "Special cards of its trait when Learning): about 0.8 VP", range=(0, 120))


#: seat -> {policy: weights}, the same at every seat: every policy but ``random``
POLICY_WEIGHTS = {seat: {"greedy": Weights, **{name: StyleWeights for name in L.POLICY_NAMES
                                               if name not in ("greedy", "random")}}
                  for seat in L.SEATS}

#: the kernels' ``pol``: a row for every seat the kernel could seat (``MAX_PLAYERS``); a
#: seat without a policy, or with ``random`` (whose units, loot and trades are greedy's),
#: plays the defaults; ``greedy`` has no ``style_bonus`` and never reads it
POLICY_ROWS = PolicyRows(L._W, POLICY_WEIGHTS, defaults=StyleWeights(), rows=L.MAX_PLAYERS)
