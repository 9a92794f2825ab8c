"""Scripted commanders for both sides, selected by integer id inside the kernels.

Every decision of the game is one function here; the rules offer the legal choices
(with what each does: the Impact a deployment adds, the Locations a stack reaches) and
the policy picks. A commander plays on what a player at the table sees (``view``): the
enemy's blocks as they stand upright (how many, where), their identities only as far as
they were shown and followed, else as expectations over what the roster can still hold;
the enemy's hand as its size and the cards shown. The policy weight ``sees_hidden`` (0)
gives a commander the full view instead (every hidden block and hand).

- ``greedy``: reads the options. Bids high cards when it can; plays its moves ahead on
  a copy of the game and pays the fewest cards that buy them (cards kept are Impact in
  battle; 3 for Total once, for 2 recruitments); sends each stack to the best-scored
  reachable Location (enemy VP Locations it can take, weaker enemy stacks, sieges it can
  win at the siege rate, its own threatened Cities), judging an attack by the blocks it
  is expected to gain against the Impact it expects of the enemy, with the cards left
  after a Forced March and the turn's other battles; keeps a guard in each City it
  leaves, garrisons what it leaves, recruits where most blocks enter (into enemy blocks
  only with a card for them), deploys the option with the most Impact (free ones first;
  a lone Leader free rather than lose a 0-0 tie; never Don Carlos but as a besieger; not
  the only card for a block on one another card deploys), loses its deployed artillery
  first when beaten, challenges loyalty when the block more likely cannot be vouched
  for, retreats before a battle it would lose (any it could lose with Don Carlos),
  sallies only with Impact to deploy, shelters in Cities, plays every event where it
  helps. The outcome columns ``SIDE_unused_movement_cards``, ``SIDE_empty_attacks``,
  ``SIDE_paid_free_leaders``, ``SIDE_cities_abandoned`` and
  ``SIDE_overpaid_movement_cards`` count the blunders this avoids.
- ``random``: a uniformly random legal choice at every decision.
- ``lookahead``: greedy, except each stack's destination, which it chooses by rollouts
  of the rest of the game (``lookahead``; its own kernel).
- ``cautious``: greedy's evaluation with wider margins: attacks at 1.6 times the
  enemy's expected Impact (greedy 1.2), sieges with 4 Impact to spare, one more block
  left in each City, Unlimited Movement only with 8+ cards, sallies at 2 to 1.

The numbers greedy and cautious weigh with are their policy weights (``rules.Weights``,
``CarlistWeights`` and the cautious defaults): every function takes its side's policy row
``w`` (``layout.W_*``: the policy id, then the weights, ratios x100), so
``--policy carlists=greedy:attack_ratio=1.5`` plays another commander without recompiling.
"""

from collections import namedtuple

import numpy as np

from simkit.layout import codes
from simkit.rng import uniform_int
from simkit.unmanaged import allocating, borrowing

from . import layout as L
from .state import (
    block_value,
    blocks_at,
    bucket_blocks,
    count_at,
    hand,
    hand_size,
    inside_besieged,
)
from .view import KNOWN, battle_impact, hidden_card, see

CARLIST_POLICIES = {
    "greedy": "scores every legal choice by what it does and takes the best, seeing what a "
              "player at the table sees",
    "random": "a uniformly random legal choice at every decision",
    "cautious": "greedy's reading of the options, but attacks and sieges only with a wide "
                "margin, holds Cities with more blocks, spends fewer cards on movement",
    "lookahead": "greedy, except that it sends each stack where rollouts of the rest of the "
                 "game (greedy for both sides, the hidden dealt again) win most",
}
LIBERAL_POLICIES = dict(CARLIST_POLICIES)
GREEDY, RANDOM, CAUTIOUS, LOOKAHEAD = codes(tuple(CARLIST_POLICIES))


@borrowing
def _rand(s, rng, side, n):
    return uniform_int(rng, L.ST_POLICY[side], n)


# -- cards ---------------------------------------------------------------------------------
@borrowing
def card_value(w, card, c):
    """A card's worth in hand (weights ``w``): Faction cards by what they deploy (2, more
    with a bugle, a Double, a shield 6, two Factions), the Headquarters, Loyalty,
    «Lancer Charge» and «Siege Mortar», and the other Special Events at their worths,
    Local Informants nothing to a full view."""
    sp = card[c, L.CD_SPECIAL]
    if sp == L.CS_NONE:
        v = 2 + w[L.W_BUGLE_WORTH] * card[c, L.CD_BUGLE] \
            + w[L.W_DOUBLE_WORTH] * card[c, L.CD_DOUBLE] + card[c, L.CD_SHIELD6]
        if card[c, L.CD_FAC2] != L.NO_FACTION:
            v += 1
        return v
    if sp == L.CS_HQ:
        return w[L.W_HQ_WORTH]
    if sp == L.CS_LOYALTY:
        return w[L.W_LOYALTY_WORTH]
    if sp == L.EV_INFORMANTS:  # it shows the enemy's hand (12.1): nothing to a full view
        return 0 if w[L.W_SEES_HIDDEN] else w[L.W_EVENT_WORTH]
    if sp == L.EV_LANCER or sp == L.EV_MORTAR:  # each waits on a rare block deployed
        return w[L.W_LANCER_MORTAR_WORTH]
    return w[L.W_EVENT_WORTH]


@borrowing
def worst_card(w, card, s, rng, side):
    """The card to give up (movement, Forced March, Partisans, attrition, discards)."""
    pid = w[L.W_ID]
    best, best_v, n = -1, 1 << 30, 0
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] != side or s[L.S_C_WHERE + c] != L.CW_HAND:
            continue
        n += 1
        if pid == RANDOM:
            if _rand(s, rng, side, n) == 0:
                best = c
            continue
        v = card_value(w, card, c) * 1000 - card[c, L.CD_BID]
        if v < best_v:
            best, best_v = c, v
    return best


@borrowing
def best_bid(card, s, side):
    best, best_b = -1, -1
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_HAND \
                and card[c, L.CD_BID] > best_b:
            best, best_b = c, card[c, L.CD_BID]
    return best


@borrowing
def bid_card(w, card, s, rng, side):
    """Turn Order bid (6.2): greedy bids its highest number if it is a plain card of low
    worth, else its worst card."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return worst_card(w, card, s, rng, side)
    c = best_bid(card, s, side)
    if c >= 0 and card[c, L.CD_BID] >= w[L.W_BID_FROM] and card_value(w, card, c) <= 4:
        return c
    return worst_card(w, card, s, rng, side)


@borrowing
def choose_first(w, s, rng, side):
    """The bid winner chooses who moves first (6.2): greedy lets the enemy move first.
    Moving second, its moves are the Semester's last: what it takes stands until the
    enemy's next turn, at the Reinforcement Phase's count of Cities and Resource
    Locations (6.4) and, in the last Year, at the final count (2.2)."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, 2)
    return 1 - side


@borrowing
def initiative_challenge(w, card, s, rng, side):
    """Semester B (6.3.1): the side without Initiative may bid face down. Greedy, which
    chooses to move second (``choose_first``), challenges only from ``challenge_from``
    (default 100: never, no bid reaches it): a challenge can only give it the first
    move."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        if _rand(s, rng, side, 2) == 0:
            return -1
        return worst_card(w, card, s, rng, side)
    c = best_bid(card, s, side)
    if c >= 0 and card[c, L.CD_BID] >= w[L.W_CHALLENGE_FROM] and hand_size(s, card, side) >= 6:
        return c
    return -1


@borrowing
def accept_challenge(w, card, s, rng, side):
    """The Initiative holder accepts with a card (or -1: declines). Greedy accepts only
    from ``accept_from`` (default 100: never): declining, it moves second for no card
    (6.3.1: "Initiative passes to the challenging player")."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        if _rand(s, rng, side, 2) == 0:
            return -1
        return worst_card(w, card, s, rng, side)
    c = best_bid(card, s, side)
    if c >= 0 and card[c, L.CD_BID] >= w[L.W_ACCEPT_FROM]:
        return c
    return -1


@borrowing
def redraw_card(w, card, s, rng, side, c):
    """Minimum Movement redraw: greedy throws away cards of no use (Local Informants)."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, 4) == 0
    return card_value(w, card, c) <= 2


@borrowing
def play_event(w, s, rng, side, sp):
    """Play an event whose conditions hold? Greedy always does."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, 2) == 0
    return True


@borrowing
def blow_bridge(w, loc, blk, s, rng, dest):
    """Play «Blown Bridge» (12.1) on the Liberal stack heading for ``dest``? Greedy: when
    it would attack Carlist blocks there or take a Location the Carlists hold with VP."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, L.CARLISTS, 2) == 0
    return count_at(s, blk, dest, L.CARLISTS) > 0 or (
        s[L.S_OWNER + dest] == L.CARLISTS and loc[dest, L.LC_VP] > 0)


@borrowing
def play_night(w, s, rng, lead, carlists_next):
    """«Under Cover of Night» mid-battle (12.2): greedy ends the battle when the
    Liberals lead or tie (they win it) and the Carlists are about to deploy to catch up;
    when behind it waits (played at the end it still saves the loser's extra block)."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, L.LIBERALS, 4) == 0
    return lead >= 0 and carlists_next


# -- movement ------------------------------------------------------------------------------
@borrowing
def movement_cards(w, card, s, rng, side, limited, unlimited, recruits):
    """Cards spent for movement (7.1): 0, 1, 2 or 3 (Total, once per game), given the
    stack moves the commander would make with Limited and with Unlimited Movement
    (``movement.planned_moves``: at most 3 with Limited) and the recruitments it can
    make (0-2, ``movement.recruitments_possible``). It pays for no more than it would
    do: 0 cards for 1 stack or 1 recruitment, 1 for up to 3 stacks or 2 and a
    recruitment (with ``limited_hand`` cards in hand), 2 for more (with
    ``unlimited_hand``), 3 for 2 recruitments (with 8 cards and 4 blocks waiting): cards
    kept are Impact in battle."""
    pid = w[L.W_ID]
    h = hand_size(s, card, side)
    top = min(3 if s[L.S_TOTAL_USED + side] == 0 else 2, h)
    if pid == RANDOM:
        return _rand(s, rng, side, top + 1)
    if top == 3 and recruits >= 2 and h >= 8 and box_size(s, side) >= 4:
        return 3
    if limited + min(recruits, 1) <= 1:
        return 0
    if (unlimited > 3 or unlimited + min(recruits, 1) > 3) and h >= w[L.W_UNLIMITED_HAND]:
        return 2
    return 1 if h >= w[L.W_LIMITED_HAND] else 0


@borrowing
def box_size(s, side):
    """Blocks waiting in ``side``'s Recruitment Box."""
    n = 0
    for b in range(L.MAX_BLOCKS):
        if s[L.S_B_WHERE + b] == L.W_BOX and s[L.S_B_SIDE + b] == side:
            n += 1
    return n


@borrowing
def next_stack(w, loc, blk, s, rng, side, look, weight):
    """The next Location whose unmoved blocks move (-1: stop): greedy takes the biggest.
    Each Location's weight (diamonds + 1 per block) is totalled from its bucket
    (``look``: ``read_map`` of the state as it stands) in ``weight`` (a slot per
    Location)."""
    pid = w[L.W_ID]
    nl = loc.shape[0]
    for i in range(nl):
        weight[i] = 0
        for j in range(look.start[side * nl + i], look.start[side * nl + i + 1]):
            b = look.order[j]
            if s[L.S_B_MOVED + b] == 0 and blk[b, L.BK_TYPE] != L.NAVAL:
                weight[i] += blk[b, L.BK_DIAMONDS] + 1
    best, best_v, n = -1, 0, 0
    for i in range(nl):
        c = weight[i]
        if c == 0 or inside_besieged(s, i, side):
            continue
        n += 1
        if pid == RANDOM:
            if _rand(s, rng, side, n) == 0:
                best = i
        elif c > best_v:
            best, best_v = i, c
    return best


@borrowing
def blocks_to_keep(w, loc, blk, s, rng, side, origin, ids, n):
    """How many of the ``n`` blocks that may move from ``origin`` stay (the weakest):
    greedy holds a City/Capital it controls with ``city_guard`` blocks (one more in a
    Capital), counting those that stay there anyway (moved in this turn), and moves
    only what is left over; a stack besieging a City stays."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, n + 1)
    if count_at(s, blk, origin, 1 - side) > 0:
        return n  # a stack besieging a City stays
    if s[L.S_OWNER + origin] == side and loc[origin, L.LC_KIND] >= L.CITY:
        keep = w[L.W_CITY_GUARD] + (1 if loc[origin, L.LC_KIND] == L.CAPITAL else 0)
        keep = max(0, keep - (count_at(s, blk, origin, side) - n))  # those that cannot move
        return min(keep, n)
    return 0


@borrowing
def stay_rank(blk, b):
    """The order in which a commander leaves blocks behind when a stack divides
    (``blocks_to_keep``): the weakest blocks first, Leaders last."""
    return blk[b, L.BK_DIAMONDS] + (10 if blk[b, L.BK_TYPE] == L.LEADER else 0)


@borrowing
def location_worth(w, loc, s, side, v):
    """What taking Location ``v`` is worth to ``side`` (weights ``w``): its VP times the
    swing if the enemy holds it, its VP if nobody does; enemy Recruitment Locations and,
    for the Carlists, Port Capitals (their sudden victories need one, 2.2) count extra."""
    worth = 0
    vp = loc[v, L.LC_VP]
    owner = s[L.S_OWNER + v]
    if owner == 1 - side:
        worth += w[L.W_VP_SWING] * vp
        if loc[v, L.LC_RECRUIT_SIDE] == 1 - side:
            worth += w[L.W_RECRUITMENT_BONUS]
    elif owner == L.NOBODY:
        worth += vp
    if side == L.CARLISTS and loc[v, L.LC_KIND] == L.CAPITAL and loc[v, L.LC_PORT] \
            and owner != side:
        worth += w[L.W_PORT_CAPITAL_BONUS]
    return worth


@borrowing
def usable_cards(card, s, side):
    """Faction cards (and the Headquarters) in hand: the deployments a battle can use."""
    n = 0
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_HAND and (
                card[c, L.CD_SPECIAL] == L.CS_NONE or card[c, L.CD_SPECIAL] == L.CS_HQ):
            n += 1
    return n


@borrowing
def deploys(blk, card, c, b):
    """Can card ``c`` deploy block ``b`` (a policy's reading of rulebook 8.2.2)?"""
    sp = card[c, L.CD_SPECIAL]
    if sp == L.CS_HQ:
        return True
    if sp != L.CS_NONE:
        return False
    t = blk[b, L.BK_TYPE]
    if t == L.FIELD_ART or t == L.MOUNTAIN_ART:
        return card[c, L.CD_BUGLE] == 1
    f = blk[b, L.BK_FACTION]
    if f == L.NO_FACTION or blk[b, L.BK_SPECIAL] != L.SP_NONE:
        return True
    return card[c, L.CD_FAC1] == f or card[c, L.CD_FAC2] == f


NEEDS_ANY, NEEDS_BUGLE = -1, -2  # ``battle_power``: any card deploys it; a bugle card


@borrowing
def list_hands(card, s, hands):
    """``hands[side, 0]``: how many cards ``side`` holds; ``hands[side, 1:]`` their ids in
    card order. One pass over the cards for the many ``battle_power`` calls of a move."""
    hands[0, 0] = 0
    hands[1, 0] = 0
    for c in range(card.shape[0]):
        if s[L.S_C_WHERE + c] == L.CW_HAND:
            side = card[c, L.CD_SIDE]
            hands[side, 0] += 1
            hands[side, hands[side, 0]] = c


@borrowing
def battle_power(blk, card, ids, n, order, lo, hi, hands, side, skip, spare, scratch, own):
    """Impact a side can expect in a fight (8.2-8.4): up to 2 Leaders free (8.2.4; with
    ``own``, the commander weighing its own forces, not Don Carlos, whom it keeps back,
    ``risks_don_carlos``) and
    one artillery block free (1, 8.4.2), then each card of its hand (``list_hands``, but
    card ``skip``; all but ``spare``) matched to the block it adds most with (``deploys``):
    its diamonds (artillery 1, 8.4.2), +1 per block of its Faction already matched
    (8.3.3), +2 for a cavalry charge on a bugle card (8.4.1), +2 with the Headquarters
    (11.1); a Double card deploys a second block of its Faction (8.4.5). The blocks are
    ``ids[:n]`` then ``order[lo:hi]`` (the side's blocks at the battle's Location, from
    ``bucket_blocks``); each is read once into ``scratch`` (``SCRATCH_ROWS`` rows): its
    Impact (0: not deployable by a card, or used), what card deploys it, the Faction
    its bonus counts for, whether it charges; then the Factions' counts."""
    k = min(n + hi - lo, L.MAX_BLOCKS)
    power = 0
    leaders = 0
    art = -1
    for f in range(L.N_FACTIONS):
        scratch[4, f] = 0
    for i in range(k):
        b = ids[i] if i < n else order[lo + i - n]
        t = blk[b, L.BK_TYPE]
        scratch[0, i] = blk[b, L.BK_DIAMONDS]
        scratch[2, i] = blk[b, L.BK_FACTION]
        scratch[3, i] = 0
        if t == L.NAVAL or t == L.DECOY or t == L.CUSTOMS or t == L.PARTISANS \
                or (own and blk[b, L.BK_SPECIAL] == L.SP_DON_CARLOS):
            scratch[0, i] = 0
        elif t == L.LEADER and leaders < 2:
            power += blk[b, L.BK_DIAMONDS]
            leaders += 1
            scratch[0, i] = 0
        if t == L.LEADER or t == L.DEFECTORS or t == L.GUERRILLA:
            scratch[2, i] = L.NO_FACTION  # no Faction bonus (8.3.3)
        if (t == L.CAVALRY or t == L.LANCER) and blk[b, L.BK_SPECIAL] != L.SP_HUSSARS:
            scratch[3, i] = 1
        if t == L.FIELD_ART or t == L.MOUNTAIN_ART:  # NEEDS_ANY, NEEDS_BUGLE or a Faction
            scratch[0, i] = 1
            scratch[1, i] = NEEDS_BUGLE
            if art < 0:
                art = i
        elif blk[b, L.BK_FACTION] == L.NO_FACTION or blk[b, L.BK_SPECIAL] != L.SP_NONE:
            scratch[1, i] = NEEDS_ANY
        else:
            scratch[1, i] = blk[b, L.BK_FACTION]
    if art >= 0:
        power += 1  # the first artillery block, free before any card (8.2.4)
        scratch[0, art] = 0
    budget = -spare
    for j in range(1, hands[side, 0] + 1):
        c = hands[side, j]
        if c == skip:
            continue
        budget += 1
        if budget <= 0:
            continue
        sp = card[c, L.CD_SPECIAL]
        if sp != L.CS_NONE and sp != L.CS_HQ:
            continue
        hq = sp == L.CS_HQ
        bugle = hq or card[c, L.CD_BUGLE] == 1
        f1, f2 = card[c, L.CD_FAC1], card[c, L.CD_FAC2]
        best, best_v = -1, 0
        for i in range(k):
            if scratch[0, i] == 0:
                continue
            need = scratch[1, i]
            if hq or need == NEEDS_ANY or (need == NEEDS_BUGLE and bugle) \
                    or (need >= 0 and (f1 == need or f2 == need)):
                v = added_impact(scratch, i, bugle, hq)
                if v > best_v:
                    best, best_v = i, v
        if best < 0:
            continue
        power += take_block(scratch, best, best_v)
        f = scratch[1, best]
        if card[c, L.CD_DOUBLE] == 1 and not hq and f >= 0:  # a second block (8.4.5)
            second, second_v = -1, 0
            for i in range(k):
                if scratch[0, i] > 0 and scratch[1, i] == f:
                    v = added_impact(scratch, i, bugle, False)
                    if v > second_v:
                        second, second_v = i, v
            if second >= 0:
                power += take_block(scratch, second, second_v)
    return power


#: rows of ``battle_power``'s scratch
SCRATCH_ROWS = 5


@borrowing
def added_impact(scratch, i, bugle, hq):
    """What block ``i`` of ``battle_power``'s scratch adds deployed now."""
    v = scratch[0, i]
    if scratch[2, i] >= 0:
        v += scratch[4, scratch[2, i]]
    if bugle and scratch[3, i] == 1:
        v += 2
    if hq:
        v += 2
    return v


@borrowing
def take_block(scratch, i, v):
    """Block ``i`` of ``battle_power``'s scratch is deployed for ``v``: returns ``v``."""
    scratch[0, i] = 0
    if scratch[2, i] >= 0:
        scratch[4, scratch[2, i]] += 1
    return v


@borrowing
def defence_bonus(loc, card, hands, side, where):
    """The Impact ``side``'s cards add defending a battle at ``where``: a Fortified House
    card (11.2: 4 with the icon, else 2; not in a Capital) and, for the Liberals, the
    Defensive Battery in a City or Capital (12.2: 4)."""
    bonus = 0
    fh = False
    for j in range(1, hands[side, 0] + 1):
        sp = card[hands[side, j], L.CD_SPECIAL]
        if sp == L.CS_FORTIFIED_HOUSE and not fh and loc[where, L.LC_KIND] != L.CAPITAL:
            bonus += 4 if loc[where, L.LC_FH] else 2
            fh = True
        elif sp == L.EV_BATTERY and loc[where, L.LC_KIND] >= L.CITY:
            bonus += 4
    return bonus


@allocating
def battle_power_at(blk, card, s, side, where, own):
    """``battle_power`` of ``side``'s blocks at ``where`` with its whole hand."""
    order = np.empty(L.MAX_BLOCKS, dtype=np.int64)
    n = blocks_at(s, blk, where, side, order)
    hands = np.empty((2, card.shape[0] + 1), dtype=np.int64)
    list_hands(card, s, hands)
    scratch = np.empty((SCRATCH_ROWS, L.MAX_BLOCKS), dtype=np.int64)
    return battle_power(blk, card, order, 0, order, 0, n, hands, side, -1, 0, scratch, own)


@allocating
def defence_at(loc, card, s, side, where):
    """``defence_bonus`` of ``side``'s whole hand."""
    hands = np.empty((2, card.shape[0] + 1), dtype=np.int64)
    list_hands(card, s, hands)
    return defence_bonus(loc, card, hands, side, where)


#: What ``choose_destination_in`` reads of the map while the state stands still
#: (``read_map``): ``strength``, ``strengths_into``; ``order`` and ``start``, the blocks
#: bucketed by side and Location (``bucket_blocks``); both ``hands`` (``list_hands``);
#: ``battle_power``'s ``scratch``; ``enemy_power[v]``, the enemy's Impact at ``v`` in
#: hundredths once weighed (``enemy_impact``, -1 before), which holds until a stack
#: moves (only a move, an Overrun or a «Blown Bridge» on its way, changes the enemy's
#: blocks or hand); ``sight``, the moving side's view of its enemy (``view.see``, with
#: ``factions`` its scratch); ``dest_score[v]``, the score ``choose_destination_in`` last
#: gave Location ``v`` (slot ``len(loc)``: staying; ``UNSCORED``, a Location it did not
#: weigh), by which a look-ahead ranks the options (``plan``).
Look = namedtuple("Look", ("strength", "order", "start", "hands", "scratch", "enemy_power",
                           "sight", "factions", "dest_score"))
#: ``Look.dest_score`` of a Location ``choose_destination_in`` did not weigh
UNSCORED = -(1 << 40)


@allocating
def new_look(loc, card):
    """A ``Look``'s arrays, to be filled by ``read_map``."""
    nl = loc.shape[0]
    return Look(np.empty((4, nl), dtype=np.int64), np.empty(L.MAX_BLOCKS, dtype=np.int64),
                np.empty(2 * nl + 1, dtype=np.int64),
                np.empty((2, card.shape[0] + 1), dtype=np.int64),
                np.empty((SCRATCH_ROWS, L.MAX_BLOCKS), dtype=np.int64),
                np.empty(nl, dtype=np.int64), np.empty(L.N_V, dtype=np.float64),
                np.empty(2 * L.N_FACTIONS, dtype=np.float64),
                np.full(nl + 1, UNSCORED, dtype=np.int64))


@borrowing
def read_map(loc, blk, card, s, look, side):
    """Fill ``look`` from the state as it stands, and ``side``'s view of its enemy
    (``view.see``)."""
    strengths_into(loc, blk, s, look.strength)
    bucket_blocks(blk, s, loc.shape[0], look.order, look.start)
    list_hands(card, s, look.hands)
    look.enemy_power[:] = -1
    see(blk, card, s, side, look.factions, look.sight)


@borrowing
def strengths_into(loc, blk, s, out):
    """``strength_at`` (rows 0-1) and ``count_at`` (rows 2-3) for both sides and every
    Location, in one pass over the blocks, written into ``out`` (4 x Locations)."""
    out[:, :] = 0
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_MAP:
            d = blk[b, L.BK_DIAMONDS]
            if blk[b, L.BK_TYPE] == L.LEADER:
                d += 2
            side, where = s[L.S_B_SIDE + b], s[L.S_B_LOC + b]
            out[side, where] += d
            if blk[b, L.BK_TYPE] != L.NAVAL:
                out[2 + side, where] += 1


@borrowing
def battle_gain(p, loc, side, where, n_def, mp, ep):
    """Blocks a won battle at ``where`` is expected to gain: the enemy's losses less
    ``side``'s (8.7.1: "Players lose 1 block for every 7 points of Impact made by their
    opponent ... The losing side then loses 1 additional block"; 8 against Carlists in
    Mountainous Areas, 8.7.2), with ``mp`` Impact against ``ep``."""
    kills = min(n_def, mp // loss_rate(p, loc, where, 1 - side) + 1)
    return kills - ep // loss_rate(p, loc, where, side)


@borrowing
def may_retreat_before(s, side, n):
    """Can ``side``'s stack of ``n`` blocks leave an attack before combat, as a player at
    the table sees it (8.8.7: "A Carlist stack comprising 4 or fewer blocks may retreat
    ... A Carlist force of 5 or more blocks may also retreat, but doing so would result in
    the loss of 1 block ... Only one of this type of retreat is allowed per Semester")? A
    Carlist stack can while its retreat of the Semester is unused; a Liberal stack only
    of cavalry and Leaders, whose identities the Carlists may not see, and the
    Headquarters card in a hand they do not see (11.1) are left out."""
    return side == L.CARLISTS and n > 0 and s[L.S_RETREAT_USED + side] == 0


@borrowing
def loss_rate(p, loc, where, victim):
    """Impact per block ``victim`` loses in a battle at ``where`` (8.7.1-8.7.2)."""
    if victim == L.CARLISTS and loc[where, L.LC_MOUNTAIN]:
        return p[L.P_MOUNTAIN_RATE]
    return p[L.P_LOSS_RATE]


@borrowing
def pending_battles(blk, s, side, strength, order, start):
    """Locations where blocks of ``side`` moved in this turn and enemy blocks stand: the
    battles of its coming Combat Phase (8.1). ``strength``: ``strengths_into``; ``order``,
    ``start``: ``bucket_blocks``."""
    nl = strength.shape[1]
    n = 0
    for i in range(nl):
        if strength[3 - side, i] == 0:  # no enemy army block there
            continue
        for j in range(start[side * nl + i], start[side * nl + i + 1]):
            b = order[j]
            if s[L.S_B_FROM + b] >= 0 and blk[b, L.BK_TYPE] != L.NAVAL:
                n += 1
                break
    return n


@allocating
def choose_destination(w, p, loc, blk, card, s, rng, side, origin, movers, m, dest_mode,
                       dest_fm, spare):
    """Where the moving blocks go (-1: they stay)."""
    look = new_look(loc, card)
    read_map(loc, blk, card, s, look, side)
    return choose_destination_in(w, p, loc, blk, card, s, rng, side, origin, movers, m,
                                 dest_mode, dest_fm, spare,
                                 reserve_cards(w, blk, s, side, look), look)


@borrowing
def reserve_cards(w, blk, s, side, look):
    """Cards kept back from a new attack for the turn's other battles: a base and so many
    per battle already coming (``pending_battles``)."""
    return w[L.W_RESERVE_CARDS] + w[L.W_RESERVE_PER_BATTLE] \
        * pending_battles(blk, s, side, look.strength, look.order, look.start)


@borrowing
def choose_destination_in(w, p, loc, blk, card, s, rng, side, origin, movers, m, dest_mode,
                          dest_fm, spare, reserve, look):
    """``choose_destination`` given the map as read (``look``: ``read_map`` of the state
    as it stands) and the cards ``reserve``d for the turn's other battles
    (``reserve_cards``)."""
    pid = w[L.W_ID]
    n_loc = loc.shape[0]
    strength, order, start, hands = look.strength, look.order, look.start, look.hands
    scratch, enemy_power = look.scratch, look.enemy_power
    if pid == RANDOM:
        k, choice = 0, -1
        for v in range(n_loc):
            if dest_mode[v] >= 0 and (dest_fm[v] == 0 or spare > 0):
                k += 1
                if _rand(s, rng, side, k) == 0:
                    choice = v
        return choice
    has_art = False  # Field Artillery: a Capital siege needs it (8.9.3 A)
    any_art = False  # artillery on a bugle card: 7 per block in a City siege (8.9.3 C)
    for i in range(m):
        t = blk[movers[i], L.BK_TYPE]
        if t == L.FIELD_ART:
            has_art = True
        if t == L.FIELD_ART or t == L.MOUNTAIN_ART:
            any_art = True
    if any_art:
        any_art = bugle_in_hand(card, s, side)
    stay = 0
    # staying value: defend a valuable own Location that is threatened
    if s[L.S_OWNER + origin] == side and loc[origin, L.LC_VP] > 0:
        stay = loc[origin, L.LC_VP]
    best, best_v = -1, stay
    fm_card = -2  # the card a Forced March costs (``worst_card``), once asked
    dest_score = look.dest_score  # slot n_loc: staying
    dest_score[n_loc] = stay * 10
    for v in range(n_loc):
        dest_score[v] = UNSCORED
        if dest_mode[v] < 0 or (dest_fm[v] == 1 and spare < 3):
            continue
        own = strength[side, v]
        score = location_worth(w, loc, s, side, v)
        n_def = strength[3 - side, v]  # count_at(s, blk, v, 1 - side)
        marched = -1
        if n_def > 0 and dest_fm[v] == 1:  # the Forced March card is gone before the battle
            if fm_card == -2:
                fm_card = worst_card(w, card, s, rng, side)
            marched = fm_card
            if marched >= 0:
                s[L.S_C_WHERE + marched] = L.CW_DISCARD
        if n_def > 0:  # Decoys too (no strength): entering them is a battle
            if loc[v, L.LC_KIND] >= L.CITY and s[L.S_OWNER + v] == 1 - side \
                    and n_def <= (3 if loc[v, L.LC_KIND] == L.CAPITAL else 2):
                # a siege: a Capital needs Field Artillery; its Impact per defender
                if loc[v, L.LC_KIND] == L.CAPITAL:
                    rate = p[L.P_SIEGE_CAPITAL]
                else:
                    rate = p[L.P_SIEGE_CITY_ART] if any_art else p[L.P_SIEGE_CITY_NO_ART]
                if loc[v, L.LC_KIND] == L.CAPITAL and not has_art:
                    score = -5
                elif battle_power(blk, card, movers, m, order, start[side * n_loc + v],
                                  start[side * n_loc + v + 1], hands, side, marched, reserve,
                                  scratch, True) < rate * n_def + w[L.W_SIEGE_SPARE]:
                    score = -2
            else:
                mp = battle_power(blk, card, movers, m, order, start[side * n_loc + v],
                                  start[side * n_loc + v + 1], hands, side, marched, reserve,
                                  scratch, True)
                if enemy_power[v] < 0:
                    e = (1 - side) * n_loc + v
                    enemy_power[v] = enemy_impact(w, loc, blk, card, s, look.sight, order,
                                                  start[e], start[e + 1], hands, 1 - side,
                                                  v, True, scratch)
                ep = enemy_power[v]  # hundredths
                if mp * 100 > ep and mp * 10000 >= ep * w[L.W_ATTACK_RATIO] \
                        + 10000 * w[L.W_ATTACK_EDGE]:
                    gain = battle_gain(p, loc, side, v, n_def, mp, ep // 100)
                    if may_retreat_before(s, 1 - side, n_def):
                        gain = min(gain, 1 if n_def >= 5 else 0)
                    score += w[L.W_BLOCK_WORTH] * gain
                else:
                    score = -10
            if marched >= 0:
                s[L.S_C_WHERE + marched] = L.CW_HAND
        else:
            # join or support: small bonus for concentrating near enemies
            score += 0 if own == 0 else 1
        score = score * 10 - dest_fm[v] * 5
        dest_score[v] = score
        if score > best_v * 10 or (best < 0 and score > stay * 10):
            best, best_v = v, score // 10
    return best


@borrowing
def transport_port(w, loc, blk, s, rng, here, n):
    """Where a Squadron carries blocks from ``here`` (-1: no transport). Greedy: to a
    Port the Carlists hold with no Carlist block (landing takes it), else none."""
    pid = w[L.W_ID]
    side = L.LIBERALS
    if pid == RANDOM:
        if _rand(s, rng, side, 4) != 0:
            return -1
        k, choice = 0, -1
        for v in range(loc.shape[0]):
            if loc[v, L.LC_PORT] and v != here:
                k += 1
                if _rand(s, rng, side, k) == 0:
                    choice = v
        return choice
    if inside_besieged(s, here, side) or count_at(s, blk, here, L.CARLISTS) > 0:
        return -1
    best, best_v = -1, 0
    for v in range(loc.shape[0]):
        if not loc[v, L.LC_PORT] or v == here or count_at(s, blk, v, L.CARLISTS) > 0:
            continue
        if s[L.S_OWNER + v] == L.CARLISTS and loc[v, L.LC_VP] > best_v:
            best, best_v = v, loc[v, L.LC_VP]
    if best >= 0 and n < 3 and loc[here, L.LC_KIND] >= L.CITY:
        return -1  # do not strip a small City garrison
    return best


@borrowing
def barrel_capital(w, loc, s, rng):
    """Where the Liberals' 2 Barrels go: a controlled Capital (greedy: the first in map
    order; they then travel with the stacks leaving it)."""
    pid = w[L.W_ID]
    k, choice = 0, -1
    for v in range(loc.shape[0]):
        if loc[v, L.LC_KIND] == L.CAPITAL and s[L.S_OWNER + v] == L.LIBERALS:
            k += 1
            if pid == RANDOM:
                if _rand(s, rng, L.LIBERALS, k) == 0:
                    choice = v
            elif choice < 0:
                choice = v
    return choice


PICK_JOIN, PICK_GUERRILLA, PICK_LEVY, PICK_RETREAT = 0, 1, 2, 3  # what it is for


@borrowing
def pick_location(w, loc, blk, s, rng, side, cands, n, purpose):
    """One of the ``n`` legal Locations ``cands`` (-1 if none). Greedy: new blocks join
    the biggest friendly stack; Guerrillas go to enemy Resource Locations first (they
    change hands), then any Resource Location; levies go to friendly stacks first; a
    retreat goes to the biggest friendly stack, else to a Location it controls. A block
    placed alone never goes into enemy blocks (it would attack them, 8.1)."""
    pid = w[L.W_ID]
    if n == 0:
        return -1
    if pid == RANDOM:
        return cands[_rand(s, rng, side, n)]
    best, best_v = -1, -1
    for k in range(n):
        v = cands[k]
        own = count_at(s, blk, v, side)
        if purpose != PICK_RETREAT and own == 0 and count_at(s, blk, v, 1 - side) > 0:
            continue
        if purpose == PICK_JOIN:
            score = own
        elif purpose == PICK_GUERRILLA:
            score = 0
            if loc[v, L.LC_RESOURCE]:
                score = 2 if s[L.S_OWNER + v] != side else 1
        elif purpose == PICK_RETREAT:
            score = 2 * own + (1 if s[L.S_OWNER + v] == side else 0)
        else:
            score = 2 if own > 0 else (1 if s[L.S_OWNER + v] == side else 0)
        if score > best_v:
            best, best_v = v, score
    return best


@borrowing
def place_garrison(w, loc, s, rng, side, where):
    """Drop a cube on a VP Location left empty?"""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, 2) == 0
    return True


@borrowing
def choose_recruitment(w, loc, blk, card, s, rng, side, opts, n):
    """Which recruitment (rows: location, faction, blocks): greedy takes the most blocks,
    but not into enemy blocks with no friendly block there unless a card in hand deploys
    the recruits' Faction (recruits entering enemy blocks attack them, 8.1)."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, n)
    best, best_v = -1, 0
    for k in range(n):
        where = opts[k, 0]
        enemy = count_at(s, blk, where, 1 - side)
        if enemy > 0 and count_at(s, blk, where, side) == 0 \
                and not faction_card(card, s, side, opts[k, 1]):
            continue
        v = opts[k, 2] * 10 + enemy
        if v > best_v:
            best, best_v = k, v
    return best


@borrowing
def bugle_in_hand(card, s, side):
    """A Faction card with the bugle (Special Attack) in hand."""
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_HAND \
                and card[c, L.CD_SPECIAL] == L.CS_NONE and card[c, L.CD_BUGLE] == 1:
            return True
    return False


@borrowing
def faction_card(card, s, side, f):
    """A Faction card of ``f`` in hand (any Faction card if ``f`` < 0)."""
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_HAND \
                and card[c, L.CD_SPECIAL] == L.CS_NONE \
                and (f < 0 or card[c, L.CD_FAC1] == f or card[c, L.CD_FAC2] == f):
            return True
    return False


@borrowing
def choose_port(w, loc, blk, s, rng, here):
    """A Squadron's Port: greedy sails to a Carlist-held Port with Liberal blocks (a
    blockade) or a Liberal Port under threat; else it stays."""
    pid = w[L.W_ID]
    side = L.LIBERALS
    if pid == RANDOM:
        k, choice = 0, here
        for v in range(loc.shape[0]):
            if loc[v, L.LC_PORT] and count_at(s, blk, v, L.CARLISTS) == 0 or v == here:
                k += 1
                if _rand(s, rng, side, k) == 0:
                    choice = v
        return choice
    best, best_v = here, 0
    for v in range(loc.shape[0]):
        if not loc[v, L.LC_PORT]:
            continue
        c = count_at(s, blk, v, L.CARLISTS)
        lib = count_at(s, blk, v, L.LIBERALS)
        val = 0
        if c > 0 and lib > 0:
            val = 5
        elif c > 0 and s[L.S_OWNER + v] == L.CARLISTS:
            val = 2
        if val > best_v:
            best, best_v = v, val
    return best


# -- combat --------------------------------------------------------------------------------
@allocating
def retreat_before_combat(w, loc, blk, card, s, rng, side, where, mine, enemy):
    """Retreat before combat (8.8.7, 11.1) from a battle it expects to lose? Greedy
    compares the Impact each side can put in (blocks matched to the cards in hand, not
    bare diamonds) and leaves a fight the enemy wins by ``retreat_ratio`` and
    ``retreat_edge``, holding a Location worth VP unless outmatched by ``hold_ratio``,
    and any fight it could lose with Don Carlos there (2.1); cautious compares diamonds,
    by ``retreat_ratio`` and ``retreat_edge``."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, 3) == 0
    edge = 100 * w[L.W_RETREAT_EDGE]
    if pid == CAUTIOUS:  # the diamonds (hundredths): as they are, or as seen
        enemy = 100 * enemy if w[L.W_SEES_HIDDEN] else enemy_diamonds(blk, card, s, side,
                                                                        where)
        return enemy > mine * w[L.W_RETREAT_RATIO] + edge
    mp = battle_power_at(blk, card, s, side, where, True) \
        + defence_at(loc, card, s, side, where)
    ep = enemy_impact_at(w, loc, blk, card, s, 1 - side, where, False)  # hundredths
    if side == L.CARLISTS and don_carlos_at(blk, s, where):
        return ep >= mp * 100  # 2.1: losing him loses the game
    if loc[where, L.LC_VP] > 0 and s[L.S_OWNER + where] == side:
        return ep > mp * w[L.W_HOLD_RATIO] + edge
    return ep > mp * w[L.W_RETREAT_RATIO] + edge


@borrowing
def don_carlos_at(blk, s, where):
    """Does Don Carlos stand at ``where``?"""
    for b in range(blk.shape[0]):
        if blk[b, L.BK_SPECIAL] == L.SP_DON_CARLOS and s[L.S_B_WHERE + b] == L.W_MAP \
                and s[L.S_B_LOC + b] == where:
            return True
    return False


@allocating
def sally(w, loc, blk, card, s, rng, side, where):
    """Do the besieged sally out and fight the besiegers (8.9.5)? Greedy and cautious
    weigh the Impact each side can deploy (the sally is their attack: a tie loses) and
    sally when theirs is more than ``sally_ratio`` times the besiegers'."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, 4) == 0
    mp = battle_power_at(blk, card, s, side, where, True)
    ep = enemy_impact_at(w, loc, blk, card, s, 1 - side, where, True)  # hundredths
    return mp > 0 and mp * 10000 > ep * w[L.W_SALLY_RATIO]


@borrowing
def declare_inside(w, s, rng, side, mine, enemy):
    """Defend a City from inside (a siege) rather than outside (a battle)?"""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, 2) == 0
    return enemy > mine


@borrowing
def lay_siege(w, s, rng, side):
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, 4) != 0
    return True


@borrowing
def play_breach(w, s, rng, side, mine, enemy):
    """«Breach in the Walls» (13.3): force an open battle when stronger."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, 2) == 0
    return mine > enemy


@borrowing
def show_partisans(w, s, rng):
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, L.CARLISTS, 2) == 0
    return True


@borrowing
def challenge_loyalty(w, blk, card, s, rng, side, b, gain, refutable):
    """Challenge block ``b`` just deployed by the enemy? Greedy: one that brought 2+
    Impact and that the enemy's hand more likely cannot vouch for (8.6.1: "If the player
    who has just deployed the block is able to show another card from their hand that
    can be used to deploy that same block, the unit in question remains"): the chance
    ``refute_chance`` at most 1/2; with ``sees_hidden`` it sees whether (``refutable``)."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, 2) == 0
    if gain < 2:
        return False
    if w[L.W_SEES_HIDDEN]:
        return not refutable
    return refute_chance(blk, card, s, side, b) <= 0.5


@borrowing
def shelter_inside(w, s, rng, side, inside, n_left):
    """How many retreating blocks shelter inside the City (8.8.5)."""
    pid = w[L.W_ID]
    if pid == RANDOM:
        return _rand(s, rng, side, inside + 1)
    return inside


@borrowing
def choose_loss(w, blk, s, bt, rng, side, army, n_army):
    """The next block to lose (8.7.3): deployed blocks before the others,
    Customs Officers and Partisans last; greedy gives the least valuable, and the
    battle's loser its deployed artillery first, which it loses anyway (8.8.4: "A defeated
    army that retreats may not take Artillery Blocks it had deployed")."""
    pid = w[L.W_ID]
    for tier in range(3):
        best, best_v, k = -1, 1 << 30, 0
        for i in range(n_army):
            b = army[i]
            if s[L.S_B_WHERE + b] != L.W_MAP or s[L.S_B_SIDE + b] != side:
                continue
            t = blk[b, L.BK_TYPE]
            last = t == L.CUSTOMS or t == L.PARTISANS
            deployed = bt[L.BT_DEPLOYED + b] != 0
            if tier == 0 and not deployed:
                continue
            if tier == 1 and (deployed or last):
                continue
            if tier == 2 and not last:
                continue
            k += 1
            if pid == RANDOM:
                if _rand(s, rng, side, k) == 0:
                    best = b
                continue
            v = block_value(blk, b)
            if deployed and bt[L.BT_LOSER] == side + 1 \
                    and (t == L.FIELD_ART or t == L.MOUNTAIN_ART):
                v = -1
            if v < best_v:
                best, best_v = b, v
        if best >= 0:
            return best
    return -1


@borrowing
def option_value(w, blk, card, s, bt, side, opts, k):
    """Impact per card spent, free deployments first; a Lancer
    (Carlists) or a cavalry block (Liberals) is worth 2 Impact more while the event it
    enables is in hand and not yet possible: «Lancer Charge» needs a Lancer deployed,
    «Cavalry Pursuit» a cavalry block (12.1, 12.2)."""
    kind = opts[k, L.OP_KIND]
    gain = opts[k, L.OP_GAIN]
    b = opts[k, L.OP_B1]
    if b >= 0 and enables_event(blk, card, s, bt, side, b):
        gain += 2
    if kind == L.OPT_FREE_LEADER or kind == L.OPT_FREE_ART:
        return gain * 10 + 50
    if kind == L.OPT_EVENT:
        sp = card[opts[k, L.OP_CARD], L.CD_SPECIAL]
        if sp == L.EV_SNOW or sp == L.EV_LANCER:
            return 30
        if sp == L.EV_CAV_CHARGE:
            return 5
    c = opts[k, L.OP_CARD]
    penalty = card_value(w, card, c) if c >= 0 else 0
    return gain * 10 - penalty


@borrowing
def enables_event(blk, card, s, bt, side, b):
    """Would deploying ``b`` make «Lancer Charge» (a Carlist Lancer) or «Cavalry Pursuit»
    (a Liberal cavalry block) playable, the card being in ``side``'s hand?"""
    t = blk[b, L.BK_TYPE]
    if side == L.CARLISTS:
        if t != L.LANCER or bt[L.BT_LANCER_DEPLOYED] == 1:
            return False
        sp = L.EV_LANCER
    else:
        if (t != L.CAVALRY and t != L.LANCER) or bt[L.BT_CAV + side] > 0 \
                or bt[L.BT_SIEGE] == 1:
            return False
        sp = L.EV_PURSUIT
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_HAND \
                and card[c, L.CD_SPECIAL] == sp:
            return True
    return False


@allocating
def choose_deployment(w, p, loc, blk, card, s, bt, rng, side, opts, n):
    """The next deployment (row of ``opts``) or -1 to pass."""
    pid = w[L.W_ID]
    if n == 0:
        return -1
    if pid == RANDOM:
        k = _rand(s, rng, side, n + 1)
        return k if k < n else -1
    siege = bt[L.BT_SIEGE] == 1
    me = bt[L.BT_IMPACT + side]
    foe = bt[L.BT_IMPACT + 1 - side]
    if siege and side == bt[L.BT_ATTACKER]:
        where = bt[L.BT_LOC]
        defenders = count_at(s, blk, where, 1 - side)
        if loc[where, L.LC_KIND] == L.CAPITAL:
            rate = p[L.P_SIEGE_CAPITAL]
        elif bt[L.BT_FORTIFY] == 1:
            rate = max(p[L.P_SIEGE_CITY_ART], p[L.P_SIEGE_CITY_NO_ART])
        else:  # 8.9.3 C: 7 per block once artillery is deployed with a bugle, else 8
            rate = p[L.P_SIEGE_CITY_ART] if bt[L.BT_SIEGE_ART] == 1 \
                else p[L.P_SIEGE_CITY_NO_ART]
        if me >= rate * defenders + w[L.W_SIEGE_OVERKILL]:
            return -1
    army = np.empty(L.MAX_BLOCKS, dtype=np.int64)
    n_army = blocks_at(s, blk, bt[L.BT_LOC], side, army)
    cards = np.empty(card.shape[0], dtype=np.int64)
    n_cards = hand(s, card, side, cards)
    if not siege and bt[L.BT_PASSED + 1 - side] == 1 and me > foe:
        rate = p[L.P_LOSS_RATE]
        # more Impact only helps if it kills one more block
        best, best_v = -1, -1 << 30
        for k in range(n):
            if risks_don_carlos(blk, bt, side, opts, k):
                continue
            if (me + opts[k, L.OP_GAIN]) // rate > me // rate:
                v = deployment_worth(w, blk, card, s, bt, side, army, n_army, cards, n_cards,
                                     opts, k)
                if v > best_v:
                    best, best_v = k, v
        return best
    backing = deployed_count(bt, blk, s, side) + usable_cards(card, s, side)
    free = np.zeros(blk.shape[0], dtype=np.int64)  # Leaders that may deploy free (8.2.4)
    for k in range(n):
        if opts[k, L.OP_KIND] == L.OPT_FREE_LEADER:
            free[opts[k, L.OP_B1]] = 1
    best, best_v = -1, -1 << 30
    for k in range(n):
        if risks_don_carlos(blk, bt, side, opts, k):
            continue
        if opts[k, L.OP_KIND] == L.OPT_FREE_LEADER and backing < 3 and bt[L.BT_SIEGE] == 0 \
                and (me > foe or me == foe and side != bt[L.BT_ATTACKER]):
            continue  # a lone leader deployed first would be the first loss (8.7.3);
            # an attacker deploys it rather than lose the tie (8.7.1)
        if opts[k, L.OP_KIND] == L.OPT_CARD and opts[k, L.OP_B2] < 0 \
                and free[opts[k, L.OP_B1]] == 1:
            continue  # no card for a Leader that deploys free
        v = deployment_worth(w, blk, card, s, bt, side, army, n_army, cards, n_cards, opts, k)
        if v > best_v:
            best, best_v = k, v
    if best_v <= 0:
        return -1
    return best


@borrowing
def deployment_worth(w, blk, card, s, bt, side, army, n_army, cards, n_cards, opts, k):
    """Greedy's score of deployment ``k``: its Impact per card spent (``option_value``)
    less 10 per Impact of the block its card strands (``card_stranded``)."""
    return option_value(w, blk, card, s, bt, side, opts, k) \
        - 10 * card_stranded(blk, card, bt, army, n_army, cards, n_cards, opts, k)


@borrowing
def card_stranded(blk, card, bt, army, n_army, cards, n_cards, opts, k):
    """``stranded`` by option ``k`` if it deploys with a Faction card, else 0."""
    if opts[k, L.OP_KIND] != L.OPT_CARD:
        return 0
    return stranded(blk, card, bt, army, n_army, cards, n_cards, opts[k, L.OP_CARD],
                    opts[k, L.OP_B1], opts[k, L.OP_B2])


@borrowing
def stranded(blk, card, bt, army, n_army, cards, n_cards, c, b1, b2):
    """The Impact (diamonds + 1) of the best block card ``c`` alone could still deploy,
    if ``c`` is spent on ``b1`` that another card in hand deploys too: the only matching
    Faction card spent on a block any card could deploy (8.2.2: "Each card used to
    deploy a block must show the same Faction as the block deployed. Exception: cards
    from any Faction may be used to deploy Artillery ..., Guerrillas, Requetés, Hussars
    of the Princess, Carabineers, and Defectors"). ``army``: the side's blocks at the
    battle; ``cards``: its hand."""
    if not other_card(blk, card, cards, n_cards, c, b1):
        return 0
    best = 0
    for i in range(n_army):
        b = army[i]
        if b == b1 or b == b2 or bt[L.BT_DEPLOYED + b] != 0 or blk[b, L.BK_TYPE] == L.LEADER:
            continue
        t = blk[b, L.BK_TYPE]
        if t == L.NAVAL or t == L.DECOY or t == L.CUSTOMS or t == L.PARTISANS:
            continue
        if deploys(blk, card, c, b) and not other_card(blk, card, cards, n_cards, c, b):
            best = max(best, blk[b, L.BK_DIAMONDS] + 1)
    return best


@borrowing
def other_card(blk, card, cards, n_cards, c, b):
    """Does a card of the hand ``cards`` other than ``c`` (the Headquarters apart)
    deploy block ``b``?"""
    for j in range(n_cards):
        o = cards[j]
        if o != c and card[o, L.CD_SPECIAL] == L.CS_NONE and deploys(blk, card, o, b):
            return True
    return False


@borrowing
def risks_don_carlos(blk, bt, side, opts, k):
    """Would deployment ``k`` put Don Carlos first in line for the losses? 8.7.3:
    "Players must select as losses those blocks that were deployed in the battle before
    choosing any that were not", and losing him loses the game (2.1); only a besieger
    takes no losses (8.9.3: "No losses are inflicted on an attacking force during a
    siege"). The commanders keep him back otherwise, free or not."""
    b = opts[k, L.OP_B1]
    return b >= 0 and blk[b, L.BK_SPECIAL] == L.SP_DON_CARLOS \
        and not (bt[L.BT_SIEGE] == 1 and side == bt[L.BT_ATTACKER])


@borrowing
def deployed_count(bt, blk, s, side):
    n = 0
    for b in range(blk.shape[0]):
        if bt[L.BT_DEPLOYED + b] == 1 and s[L.S_B_SIDE + b] == side:
            n += 1
    return n


# -- the enemy as a commander sees it (``view``) ------------------------------------------
@borrowing
def enemy_impact(w, loc, blk, card, s, view, order, lo, hi, hands, e, where, defending,
                 scratch):
    """The Impact (hundredths) side ``e``'s blocks ``order[lo:hi]`` at ``where`` can bring
    in a battle, as its enemy weighs them: with ``sees_hidden``, ``battle_power`` of the
    blocks and hand as they are (and the cards a defender plays, ``defence_bonus``); else
    ``expected_impact`` over what the enemy can see (``view``: ``view.see``)."""
    if w[L.W_SEES_HIDDEN]:
        v = battle_power(blk, card, order, 0, order, lo, hi, hands, e, -1, 0, scratch, False)
        if defending:
            v += defence_bonus(loc, card, hands, e, where)
        return 100 * v
    return expected_impact(loc, blk, card, s, view, order, lo, hi, hands, e, where,
                           defending, scratch)


@allocating
def enemy_impact_at(w, loc, blk, card, s, e, where, defending):
    """``enemy_impact`` of side ``e``'s blocks at ``where``, the view read afresh."""
    look = new_look(loc, card)
    n = blocks_at(s, blk, where, e, look.order)
    list_hands(card, s, look.hands)
    see(blk, card, s, 1 - e, look.factions, look.sight)
    return enemy_impact(w, loc, blk, card, s, look.sight, look.order, 0, n, look.hands, e,
                        where, defending, look.scratch)


@borrowing
def expected_impact(loc, blk, card, s, view, order, lo, hi, hands, e, where, defending,
                    scratch):
    """The Impact (hundredths) side ``e``'s blocks ``order[lo:hi]`` at ``where`` can be
    expected to bring, from what its enemy sees (``view``): the blocks it knows as they
    are (Leaders free, 8.2.4; one artillery block free, 1; the others by their Impact);
    each block it does not know as the expectation over the candidates (``view.see``: a
    Leader's share of its diamonds, up to 2 Leaders; a share of the free artillery; a
    fighter's share of the mean Impact); deployed by the cards it knows in the hand and
    by each card it does not know as the chance it deploys such a block, the best blocks
    first, +1 a pair for the Faction bonus (8.3.3) by the chance two share a Faction;
    defending, a Fortified House card (11.2) and, for the Liberals in a City, «Defensive
    Battery» (12.2) by the chance the hand holds one."""
    power = 0.0
    leaders = 0
    art = False
    k = 0
    u = 0
    for j in range(lo, hi):
        b = order[j]
        t = blk[b, L.BK_TYPE]
        if t == L.NAVAL:
            continue
        if s[L.S_B_SEEN + b] != KNOWN:
            u += 1
        elif t == L.LEADER:
            if leaders < 2:
                power += blk[b, L.BK_DIAMONDS]
                leaders += 1
        elif (t == L.FIELD_ART or t == L.MOUNTAIN_ART) and not art:
            art = True
            power += 1
        elif battle_impact(blk, b) > 0:
            scratch[0, k] = battle_impact(blk, b)
            k += 1
    power += min(2.0 - leaders, u * view[L.V_LEADER]) * view[L.V_LEADER_D]
    free_art = 0.0 if art else min(1.0, u * view[L.V_ART])
    power += free_art
    slots = max(0.0, u * view[L.V_FIGHTER] - free_art)
    seen = deploying = 0
    fh = battery = False
    for j in range(1, hands[e, 0] + 1):
        c = hands[e, j]
        if s[L.S_C_SEEN + c] == 0:
            continue
        seen += 1
        sp = card[c, L.CD_SPECIAL]
        deploying += sp == L.CS_NONE or sp == L.CS_HQ
        fh = fh or sp == L.CS_FORTIFIED_HOUSE
        battery = battery or sp == L.EV_BATTERY
    unseen = hands[e, 0] - seen
    cards = deploying + unseen * view[L.V_DEPLOY] * view[L.V_MATCH]
    for i in range(1, k):  # the blocks it knows, the strongest first
        x = scratch[0, i]
        j = i - 1
        while j >= 0 and scratch[0, j] < x:
            scratch[0, j + 1] = scratch[0, j]
            j -= 1
        scratch[0, j + 1] = x
    deployed = min(k + slots, cards)
    left = deployed
    i = 0
    while left > 1e-9:
        if i < k and (scratch[0, i] >= view[L.V_FIGHTER_D] or slots <= 1e-9):
            power += min(1.0, left) * scratch[0, i]
            i += 1
            left -= 1.0
        elif slots > 1e-9:
            x = min(1.0, left, slots)
            power += x * view[L.V_FIGHTER_D]
            slots -= x
            left -= x
        else:
            break
    power += deployed * (deployed - 1) / 2 * view[L.V_SAME]
    if defending:
        if loc[where, L.LC_KIND] != L.CAPITAL:
            p_fh = 1.0 if fh else 1.0 - (1.0 - view[L.V_FH]) ** unseen
            power += p_fh * (4 if loc[where, L.LC_FH] else 2)
        if e == L.LIBERALS and loc[where, L.LC_KIND] >= L.CITY:
            power += 4 * (1.0 if battery else 1.0 - (1.0 - view[L.V_BATTERY]) ** unseen)
    return int(100 * power)


@allocating
def enemy_diamonds(blk, card, s, me, where):
    """The diamonds (in hundredths) ``me`` can expect of its enemy's blocks at
    ``where``: those it knows, and the mean of the candidates for each it does not
    (``view.see``)."""
    v = np.empty(L.N_V, dtype=np.float64)
    see(blk, card, s, me, np.empty(2 * L.N_FACTIONS, dtype=np.float64), v)
    total = 0.0
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] != L.W_MAP or s[L.S_B_LOC + b] != where \
                or s[L.S_B_SIDE + b] == me or blk[b, L.BK_TYPE] == L.NAVAL:
            continue
        total += blk[b, L.BK_DIAMONDS] if s[L.S_B_SEEN + b] == KNOWN else v[L.V_DIAMONDS]
    return int(100 * total)


@borrowing
def refute_chance(blk, card, s, me, b):
    """The chance ``me``'s enemy can show a card that deploys its block ``b`` (or the
    Headquarters) to refute a Loyalty Challenge (8.6.1), from what ``me`` sees: 1 if a
    card it knows is in that hand does, else 1 - (1 - f) ** n for the n cards of the hand
    it does not know, each deploying ``b`` with the share f of such cards among those the
    hand may hold (``view.hidden_card``)."""
    e = 1 - me
    unseen = pool = able = 0
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] != e:
            continue
        if s[L.S_C_WHERE + c] == L.CW_HAND and s[L.S_C_SEEN + c] == 1:
            if card[c, L.CD_SPECIAL] == L.CS_HQ or deploys(blk, card, c, b):
                return 1.0
            continue
        unseen += s[L.S_C_WHERE + c] == L.CW_HAND
        if hidden_card(card, s, me, c):
            pool += 1
            able += card[c, L.CD_SPECIAL] == L.CS_HQ or deploys(blk, card, c, b)
    if pool == 0:
        return 0.0
    return 1.0 - (1.0 - able / pool) ** unseen
