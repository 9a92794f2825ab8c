"""The competitive game's scoring (rulebook "Competitive Game Rules": End of Round, End of
the Game, Players' Victory, Examples 27-29; "Adjusting the Difficulty"): the Sense/Fury
marker, VP, the next starting player, the VP defeat and the fame of the winner.

The Sense/Fury marker is printed on the board, not reconstructed: 9 spaces, 1-3 the
ochre Sense group, 4-6 the red centre (R = 5, the set-up space), 7-9 the ochre Fury group;
the engine reads it from ``data/markers.toml [sense_fury]`` (``Cards.sense_fury``).

Readings of what the rulebook leaves open:
- the next starting player's tie: "the player seated closest (counter-clockwise) to whoever
  was the starting player" is read as the tied seats in counter-clockwise order from the
  starting player's right-hand neighbour, the starting player himself last;
- the victory level's fame term, "+1/-1 for every 3 VP more or fewer", counts whole steps
  of 3 (rounded toward 50).
"""

import numpy as np

from simkit.eventlog import log_event
from simkit.unmanaged import borrowing

from . import card_layout as CL
from . import layout as L
from .events import EV_CARD_SCORED

# fame bonuses and penalties of the difficulty adjustments ("Adjusting the Difficulty")
FAME_HALF_A_BOMB = 8
FAME_SEQUENTIAL_DICE = 15
FAME_ALWAYS_PRIORITY = -15
FAME_MODERATING = 10



@borrowing
def move_pin(CARDS, start, points):
    """The space the pin ends on: Sense (negative) left, Fury right, clamped at the ends."""
    return min(CARDS[CL.C_SENSE_FURY].shape[1], max(1, start + points))


@borrowing
def card_scores(CARDS, p, start, end):
    """Standard: the pin changed group (Sense, centre, Fury). Moderating: the pin changed
    colour (ochre, red)."""
    track = CARDS[CL.C_SENSE_FURY][CL.SF_COLOUR if p[L.P_MODERATING] else CL.SF_GROUP]
    return track[start - 1] != track[end - 1]


@borrowing
def card_vp(CARDS, p, pin, card):
    """The VP ``card`` would score with the pin on ``pin``, and where the pin ends."""
    points = CARDS[CL.C_META][card, CL.M_SENSE_FURY]
    end = move_pin(CARDS, pin, points)
    return (abs(points) if card_scores(CARDS, p, pin, end) else 0), end


@borrowing
def score_round(CARDS, p, g, first, log):
    """End of round: from the starting player clockwise, each seat's card moves the pin
    and scores its points if the pin changed group (colour, when moderating)."""
    seats = g[L.G_SEATS]
    for k in range(seats):
        seat = (first + k) % seats
        card = g[L.G_ROUND_CARD + seat]
        if card:
            vp, g[L.G_SENSE_FURY] = card_vp(CARDS, p, g[L.G_SENSE_FURY], card)
            g[L.G_VP + seat] += vp
            log_event(log, EV_CARD_SCORED, seat, g[L.G_SENSE_FURY], vp)


@borrowing
def next_starting_player(CARDS, g, first):
    """The seat with the lowest Sense/Fury value on its card this round; ties go to the
    tied seat closest counter-clockwise to the starting player, who comes last."""
    seats = g[L.G_SEATS]
    best, lowest = first, 1 << 30
    for k in range(1, seats + 1):
        seat = (first - k) % seats
        card = g[L.G_ROUND_CARD + seat]
        if card:
            value = abs(CARDS[CL.C_META][card, CL.M_SENSE_FURY])
            if value < lowest:
                best, lowest = seat, value
    return best


@borrowing
def total_vp(g):
    total = 0
    for seat in range(g[L.G_SEATS]):
        total += g[L.G_VP + seat]
    return total


@borrowing
def short_of_victory_level(p, g):
    """After Stage IV: all players' VP together are below the victory level."""
    return p[L.P_COMPETITIVE] == 1 and total_vp(g) < p[L.P_VICTORY_LEVEL]


def fame_winners(vp: np.ndarray) -> np.ndarray:
    """Per game (rows of per-seat VP): the seat (1-based) with the most VP, which takes the
    fame, or ``len(seats) + 1`` when the most VP are tied and the fame is shared."""
    shared = (vp == vp.max(axis=1)[:, None]).sum(axis=1) > 1
    return np.where(shared, vp.shape[1] + 1, vp.argmax(axis=1) + 1)


def difficulty_fame(p: np.ndarray, dice_chosen) -> np.ndarray:
    """The fame bonuses and penalties of the difficulty adjustments in play, for a won game
    (all four stages played); ``dice_chosen``: the G_DICE_CHOSEN bits, one per game."""
    fixed = (15 - int(p[L.P_RUBBLE_THRESHOLD])) + int((int(p[L.P_VICTORY_LEVEL]) - 50) / 3)
    fixed += FAME_HALF_A_BOMB * int(p[L.P_HALF_A_BOMB])
    fixed += FAME_ALWAYS_PRIORITY * int(p[L.P_ALWAYS_PRIORITY])
    fixed += FAME_MODERATING * int(p[L.P_MODERATING])
    if p[L.P_DICE_ORDER] == L.DICE_SEQUENTIAL:
        fixed += FAME_SEQUENTIAL_DICE
    chosen = np.asarray(dice_chosen, dtype=np.int64)
    fame = np.full(chosen.shape, fixed, dtype=np.int64)
    if p[L.P_DICE_ORDER] == L.DICE_PARTIAL:
        for stage in range(4):
            fame += np.where(chosen >> stage & 1, -(stage + 1), stage + 1)
    return fame


def fame(p: np.ndarray, vp_total, stage_iv_points, coronela, rubble, dice_chosen=0):
    """The fame of the winner (Competitive Game Rules, Players' Victory): all players'
    VP, the Stage IV card (Sense its value, Fury double), the Coronela threshold, +1 per
    Coronela in Barcelona, -1 per rubble/ruined tile, and the difficulty adjustments'
    bonuses and penalties. Arrays (one entry per game) or scalars."""
    points = np.asarray(stage_iv_points, dtype=np.int64)
    stage_iv = np.where(points > 0, 2 * points, -points)
    return (np.asarray(vp_total, dtype=np.int64) + stage_iv + int(p[L.P_CORONELA_THRESHOLD])
            + np.asarray(coronela, dtype=np.int64) - np.asarray(rubble, dtype=np.int64)
            + difficulty_fame(p, dice_chosen))
