"""Verrix's state invariants, asserted after every rule step when a run asks for it
(``simkit.checks``: ``simulate(..., check_state=True)`` or ``SIMKIT_CHECK_STATE=1``).

``check_state`` tests each invariant of ``layout.INVARIANTS`` in turn and reports the first
that fails, with a detail (a good, seat, tribe, trophy, count or turn; ``layout.POOL`` for
the Common Pool or a total). ``step_checked`` is what the kernels call after each of
``layout.STEPS``. Where the invariants come from in the rulebook:

- Components: 67 goods tiles, 20 Divine Will cubes, 35 tribesman meeples (7 per tribe), 15
  village tokens (3 per tribe), 4 trophy tiles, 7 Mórrígan tokens, 20 Event Cards, 70
  Action Cards (14 per tribe), 7 Common Leader Cards and 5 grey meeples, one "55" token
  per tribe, 4 Festival tiles, 3 Movement Cost tiles;
- Common Area Setup: "The amount of goods and Divine Will is not infinite"; the grey
  leader meeples, one for each player; the battle disc on the centre (value 3);
- Player Area Setup: 5 tribesmen available and 2 in the market; no hostage of one's own
  tribe; "It is not possible to drop below 1 on the Victory Points track"; 9 Basic and 5
  Special Action Cards;
- Tribesman, Hostage and Leader: available and engaged units (Village or Travel Card),
  goods on the Leader Card's spaces;
- Playing Order and End of Setup; Territories, Sea Areas and Movement (village tokens);
- How to Play: 12 turns, a Festival Turn after every 2 Month Turns; Event Phase ("A player
  cannot have more than one Event Card in their playing area"); Action Phase (passing
  onto the other order column); Cleanup Phase (the Travel Card moved to the Village Card,
  units available again, the Action Cards deck recreated, the battle disc back on 3);
- Action, Reaction and Support: Learning, Promote Tribesman and Clan Pact go to the box;
  Battle: the Battle Progression Track, "The used tokens are not put back inside the bag
  until the end of the Battle".

A normal run never calls ``check_state`` (``checking`` is false for its log), so these
functions cost nothing then.
"""

from simkit.checks import broken, checking, failed
from simkit.unmanaged import borrowing

from . import layout as L
from .components import BASIC_PER_TRIBE, SPECIAL_PER_TRIBE
from .state import equipped, leader_slots, pl

HOLDS = -(1 << 40)  # what an invariant's test returns when it holds (else the detail)


@borrowing
def step_checked(S, p, g, log, step):
    """After a rule step: check the invariants if this run asks; whether one broke (the
    kernels then stop the game)."""
    if checking(log):
        check_state(S, p, g, log, step, g[L.G_TURN])
    return failed(log)


@borrowing
def check_state(S, p, g, log, step, turn):
    """Test every invariant; record the first broken one (``simkit.checks.broken``)."""
    for invariant in range(L.N_INVARIANTS):
        detail = broken_detail(S, p, g, step, invariant)
        if detail != HOLDS:
            broken(log, invariant, detail, step, turn)
            return


@borrowing
def broken_detail(S, p, g, step, invariant):
    """The detail of ``invariant`` broken in this state, or HOLDS."""
    if invariant == L.INV_GOODS:
        return goods_broken(S, p, g)
    if invariant == L.INV_DIVINE_WILL:
        return divine_will_broken(p, g)
    if invariant == L.INV_TRIBESMEN:
        return tribesmen_broken(p, g)
    if invariant == L.INV_HOSTAGES:
        return hostages_broken(p, g, step)
    if invariant == L.INV_LEADERS:
        return leaders_broken(S, p, g)
    if invariant == L.INV_UNITS:
        return units_broken(p, g, step)
    if invariant == L.INV_VILLAGES:
        return villages_broken(S, p, g)
    if invariant == L.INV_TROPHIES:
        return trophies_broken(p, g, step)
    if invariant == L.INV_TRAVEL:
        return travel_broken(p, g, step)
    if invariant == L.INV_EQUIPMENT:
        return equipment_broken(S, p, g)
    if invariant == L.INV_VP:
        return vp_broken(p, g)
    if invariant == L.INV_BATTLE_TRACK:
        return battle_track_broken(g, step)
    if invariant == L.INV_MORRIGAN:
        return morrigan_broken(g, step)
    if invariant == L.INV_ACTION_CARDS:
        return action_cards_broken(S, p, g, step)
    if invariant == L.INV_EVENT_CARDS:
        return event_cards_broken(S, p, g, step)
    if invariant == L.INV_PLAYING_ORDER:
        return playing_order_broken(p, g, step)
    if invariant == L.INV_TURN:
        return turn_broken(p, g, step)
    return tile_broken(g, step)


@borrowing
def at_rest(step):
    """After Setup, Cleanup, a Festival Turn or the end: nothing engaged or travelling,
    no one passed (Cleanup Phase: "Make available again all tribesmen and leader
    meeples ... that are on Travel and on Village Cards")."""
    return step == L.STEP_SETUP or step == L.STEP_CLEANUP or step == L.STEP_FESTIVAL or \
        step == L.STEP_END


@borrowing
def in_action_phase(step):
    return step == L.STEP_DELAYED_EVENT or step == L.STEP_ACTION or \
        step == L.STEP_BATTLE_ROUND or step == L.STEP_PASS


# -- pieces with a fixed supply --------------------------------------------------------------
@borrowing
def goods_broken(S, p, g):
    """Components: 67 goods tiles; each good's count (``data/goods.toml``) is in the
    Portum Itium market, on Village and Travel Cards or on Leader Cards, none negative.
    Detail: the good."""
    for good in range(L.N_GOODS):
        total = g[L.G_MARKET + good]
        if total < 0:
            return good
        for s in range(p[L.P_PLAYERS]):
            village = g[pl(s) + L.PL_GOODS + good]
            travel = g[pl(s) + L.PL_TRAVEL_GOODS + good]
            if village < 0 or travel < 0:
                return good
            total += village + travel
            for k in range(L.MAX_LEADERS):
                total += equipped(g, s, k, good)
        if total != S[L.S_GOODS][good, L.GD_COUNT]:
            return good
    return HOLDS


@borrowing
def divine_will_broken(p, g):
    """Components: 20 Divine Will cubes (the ``divine_will_cubes`` knob), in the Common
    Pool or on the Village Cards, none negative. Detail: the seat, or POOL."""
    total = g[L.G_POOL_DW]
    if total < 0:
        return L.POOL
    for s in range(p[L.P_PLAYERS]):
        if g[pl(s) + L.PL_DW] < 0:
            return s
        total += g[pl(s) + L.PL_DW]
    return HOLDS if total == p[L.P_DIVINE_WILL] else L.POOL


@borrowing
def in_play(p, tribe):
    for s in range(p[L.P_PLAYERS]):
        if p[L.P_TRIBE + s] == tribe:
            return True
    return False


@borrowing
def tribesmen_broken(p, g):
    """Components: 7 tribesman meeples per tribe in play (none of a tribe out of play):
    available, engaged on the Village or Travel Card, in the Portum Itium market, or a
    hostage on any tribe's Village or Travel Card; none negative. Detail: the tribe."""
    for tribe in range(L.N_TRIBES):
        total = g[L.G_MARKET_MEN + tribe]
        if total < 0:
            return tribe
        for s in range(p[L.P_PLAYERS]):
            b = pl(s)
            if g[b + L.PL_HOSTAGES + tribe] < 0 or g[b + L.PL_TRAVEL_HOSTAGES + tribe] < 0:
                return tribe
            total += g[b + L.PL_HOSTAGES + tribe] + g[b + L.PL_TRAVEL_HOSTAGES + tribe]
            if g[b + L.PL_TRIBE] == tribe:
                men = (g[b + L.PL_MEN], g[b + L.PL_MEN_VILLAGE], g[b + L.PL_MEN_TRAVEL])
                for n in men:
                    if n < 0:
                        return tribe
                    total += n
        if total != (L.TRIBESMEN if in_play(p, tribe) else 0):
            return tribe
    return HOLDS


@borrowing
def hostages_broken(p, g, step):
    """Player Area Setup: "It is not possible for a player to take one of their own
    tribesman meeples"; Tribesman, Hostage and Leader: "Hostages rescued by their own
    tribes ... become tribesmen again during the next Cleanup Phase". Detail: the seat."""
    if not at_rest(step):
        return HOLDS
    for s in range(p[L.P_PLAYERS]):
        if g[pl(s) + L.PL_HOSTAGES + g[pl(s) + L.PL_TRIBE]] != 0:
            return s
    return HOLDS


# -- units --------------------------------------------------------------------------------
@borrowing
def grey_leader_ok(S, p, g, s, leader):
    """A seat's second leader: a grey Common Leader Card taken from the pool, held by no
    earlier seat."""
    if leader >= S[L.S_LEADERS].shape[0] or S[L.S_LEADERS][leader, L.LD_TRIBE] != -1 or \
            g[L.G_GREY_TAKEN + leader] != 1:
        return False
    for other in range(s):
        if g[pl(other) + L.PL_LEADER + 1] == leader:
            return False
    return True


@borrowing
def leaders_broken(S, p, g):
    """Player Area Setup: each tribe its own Leader Card; Promote Tribesman: a grey
    Common Leader Card and meeple join (Common Area Setup: "grey leader meeples (one for
    each player)"). Detail: the seat, or POOL for the grey pool."""
    grey_held = 0
    for s in range(p[L.P_PLAYERS]):
        b = pl(s)
        if g[b + L.PL_TRIBE] != p[L.P_TRIBE + s] or \
                g[b + L.PL_LEADER] != S[L.S_TRIBES][g[b + L.PL_TRIBE], L.TR_LEADER]:
            return s
        grey = g[b + L.PL_LEADER + 1]
        if grey >= 0:
            if not grey_leader_ok(S, p, g, s, grey):
                return s
            grey_held += 1
        elif grey != -1:
            return s
    taken = 0
    for i in range(S[L.S_LEADERS].shape[0]):
        if g[L.G_GREY_TAKEN + i] != 0 and g[L.G_GREY_TAKEN + i] != 1:
            return L.POOL
        taken += g[L.G_GREY_TAKEN + i]
    if g[L.G_GREY_MEEPLES] < 0 or g[L.G_GREY_MEEPLES] + grey_held != p[L.P_PLAYERS] or \
            taken != grey_held:
        return L.POOL
    return HOLDS


@borrowing
def units_broken(p, g, step):
    """Tribesman, Hostage and Leader: a unit is available, or engaged on the Village Card
    (an action at the Village) or the Travel Card (away); units are engaged by actions
    (before the Action Phase only The Gift sends a tribesman to the Travel Card) and
    Cleanup makes every unit available again. Detail: the seat."""
    acting = in_action_phase(step)
    for s in range(p[L.P_PLAYERS]):
        b = pl(s)
        for k in range(L.MAX_LEADERS):
            at = g[b + L.PL_LEADER_AT + k]
            if g[b + L.PL_LEADER + k] < 0:
                if at != L.AT_NONE:
                    return s
            elif at != L.AT_AVAILABLE and at != L.AT_VILLAGE and at != L.AT_TRAVEL:
                return s
            elif not acting and at != L.AT_AVAILABLE:
                return s
        if (not acting and g[b + L.PL_MEN_VILLAGE] != 0) or \
                (at_rest(step) and g[b + L.PL_MEN_TRAVEL] != 0):
            return s
    return HOLDS


# -- the map and the boards ----------------------------------------------------------------
@borrowing
def villages_broken(S, p, g):
    """Components: 3 village tokens per tribe; Playing Order and End of Setup: the first
    on one of the Setup Card's territories; Clan Pact: the others on unoccupied
    territories. Each token on the map is on a territory, on its tribe's list, alone.
    Detail: the seat, or POOL for a token on no tribe's list."""
    for s in range(p[L.P_PLAYERS]):
        b = pl(s)
        n = g[b + L.PL_VILLAGES]
        if n < 1 or n > L.VILLAGE_TOKENS:
            return s
        on_map = 0
        for v in range(p[L.P_N_NODES]):
            if g[L.G_VILLAGE + v] == s:
                on_map += 1
        if on_map != n:
            return s  # a token lost, or two on one territory
        for k in range(n):
            v = g[b + L.PL_VILLAGE_NODE + k]
            if v < 0 or v >= p[L.P_N_NODES] or g[L.G_VILLAGE + v] != s:
                return s
    for v in range(L.MAX_NODES):
        owner = g[L.G_VILLAGE + v]
        if owner < -1 or owner >= p[L.P_PLAYERS] or \
                (owner >= 0 and S[L.S_NODES][v, 0] != L.NODE_TERRITORY):
            return L.POOL
    return HOLDS


@borrowing
def trophies_broken(p, g, step):
    """Components: 4 trophy tiles, in the Common Pool or on one tribe's Village or
    Travel Card; Cleanup moves the Travel Card's trophies to the Village Card. Detail:
    the trophy."""
    for t in range(L.N_TROPHIES):
        owner = g[L.G_TROPHY_OWNER + t]
        travel = g[L.G_TROPHY_TRAVEL + t]
        if owner < -1 or owner >= p[L.P_PLAYERS] or (travel != 0 and travel != 1):
            return t
        if travel == 1 and (owner < 0 or not in_action_phase(step)):
            return t
    return HOLDS


@borrowing
def travel_broken(p, g, step):
    """Cleanup Phase: "Move on the Travel Card goods, trophies and hostages to their own
    Village Card"; hostages reach the Travel Card only by Trades, Raids and Clan Pacts
    (goods also by The Gift, in the Event Phase). Detail: the seat."""
    for s in range(p[L.P_PLAYERS]):
        for good in range(L.N_GOODS):
            if at_rest(step) and g[pl(s) + L.PL_TRAVEL_GOODS + good] != 0:
                return s
        for c in range(L.N_TRIBES):
            if not in_action_phase(step) and g[pl(s) + L.PL_TRAVEL_HOSTAGES + c] != 0:
                return s
    return HOLDS


@borrowing
def equipment_broken(S, p, g):
    """Tribesman, Hostage and Leader: goods "placed on a Leader Card's spaces"; a leader
    carries goods only on the spaces its card has (Yellow's Master Smiths: one more), and
    no card means no goods. Detail: the seat."""
    for s in range(p[L.P_PLAYERS]):
        for k in range(L.MAX_LEADERS):
            slots = leader_slots(S, g, s, k) if g[pl(s) + L.PL_LEADER + k] >= 0 else 0
            for j in range(L.MAX_SLOTS):
                good = g[pl(s) + L.PL_EQUIP + k * L.MAX_SLOTS + j]
                if good < -1 or good >= L.N_GOODS or (j >= slots and good != -1):
                    return s
    return HOLDS


# -- tracks -------------------------------------------------------------------------------
@borrowing
def vp_broken(p, g):
    """Player Area Setup: "It is not possible to drop below 1 on the Victory Points
    track". Past 55 the disc starts at 1 again over the tribe's '55' token; the rulebook
    gives one token per tribe and says nothing of passing 110, which the scripted tribes
    do in about 1 game in 3,000 (hostages score every Cleanup): the reading
    ``vp_past_110`` keeps the total (no upper limit) or stops it at 110. Detail: the
    seat."""
    for s in range(p[L.P_PLAYERS]):
        vp = g[pl(s) + L.PL_VP]
        if vp < 1 or vp > g[L.G_VP_CAP]:
            return s
    return HOLDS


@borrowing
def battle_track_broken(g, step):
    """Battle: the black disc moves on the Battle Progression Track, at most 3 spaces
    from the centre; Cleanup Phase: "check that the other black disc on the Battle Board
    Track is placed in the space with the value 3". Detail: the disc's space."""
    disc = g[L.G_BATTLE_DISC]
    if abs(disc) > L.BATTLE_REACH or (at_rest(step) and disc != 0):
        return disc
    return HOLDS


@borrowing
def morrigan_broken(g, step):
    """Components: 7 Mórrígan tokens, each in the bag or drawn; a Raid puts its token back
    at once, a Battle at its end ("The used tokens are not put back inside the bag
    until the end of the Battle"). Detail: the tokens in the bag."""
    n = 0
    for t in range(L.N_TOKENS):
        if g[L.G_BAG + t] != 0 and g[L.G_BAG + t] != 1:
            return L.N_TOKENS + 1
        n += g[L.G_BAG + t]
    if n != L.N_TOKENS and step != L.STEP_BATTLE_ROUND:
        return n
    return HOLDS


# -- decks and hands --------------------------------------------------------------------------
@borrowing
def has_op(S, c, op):
    for k in range(S[L.S_CARDS][c, L.CD_N_OPS]):
        if S[L.S_CARDS][c, L.CD_OPS + k * L.OP_WIDTH] == op:
            return True
    return False


@borrowing
def boxed_ok(S, p, g, s, c):
    """A card in the box: Promote Tribesman after use, Learning once every Special card
    is learned, Clan Pact with the last village token placed."""
    if has_op(S, c, L.OP_PROMOTE):
        return True
    if has_op(S, c, L.OP_LEARN):
        for other in range(p[L.P_N_CARDS]):
            if g[pl(s) + L.PL_CARD + other] == L.CARD_UNLEARNED:
                return False
        return True
    return has_op(S, c, L.OP_CLAN_PACT) and g[pl(s) + L.PL_VILLAGES] == L.VILLAGE_TOKENS


@borrowing
def action_card_ok(S, p, g, s, c, step):
    """One Action Card's place: none if the tribe does not own it; else in the deck, the
    discard pile (until Cleanup), the box, or (a Special card) still to learn."""
    where = g[pl(s) + L.PL_CARD + c]
    if not (S[L.S_CARDS][c, L.CD_OWNERS] >> g[pl(s) + L.PL_TRIBE]) & 1:
        return where == L.CARD_NONE
    if where == L.CARD_UNLEARNED:
        return not S[L.S_CARDS][c, L.CD_BASIC]
    if where == L.CARD_DISCARD:
        return in_action_phase(step)
    if where == L.CARD_BOXED:
        return boxed_ok(S, p, g, s, c)
    return where == L.CARD_HAND


@borrowing
def action_cards_broken(S, p, g, step):
    """Player Area Setup: 14 Action Cards per tribe, 9 Basic (the deck) and 5 Special (to
    learn); "Any Action Card can only be played once during the Action Phase" (the
    discard pile), the deck recreated at Cleanup; the Special card a Learning adds is
    chosen in that action (none waits between steps). Detail: the seat."""
    for s in range(p[L.P_PLAYERS]):
        if g[pl(s) + L.PL_LEARN_CHOICE] != -1:
            return s
        owned = 0
        for c in range(p[L.P_N_CARDS]):
            if not action_card_ok(S, p, g, s, c, step):
                return s
            owned += g[pl(s) + L.PL_CARD + c] != L.CARD_NONE
        if owned != BASIC_PER_TRIBE + SPECIAL_PER_TRIBE:
            return s
    return HOLDS


@borrowing
def deck_is_whole(p, g):
    """The Event deck's order holds each of the cards once."""
    seen = 0
    for i in range(p[L.P_N_EVENTS]):
        ev = g[L.G_DECK + i]
        if ev < 0 or ev >= p[L.P_N_EVENTS] or (seen >> ev) & 1:
            return False
        seen |= 1 << ev
    return True


@borrowing
def drawn(p, g, ev):
    """Has Event card ``ev`` left the deck (discarded or held)?"""
    for i in range(g[L.G_EVENT_TOP]):
        if g[L.G_DECK + i] == ev:
            return True
    return False


@borrowing
def event_cards_broken(S, p, g, step):
    """Components: 20 Event Cards, in the deck, the discard pile or a player's area; each
    card drawn paid for with Divine Will (Purple's Benevolence: one more per draw);
    delayed cards face down ("A player cannot have more than one Event Card in their
    playing area"); "If the Event Card deck runs out, the Event Phase ... is not
    performed again"; a free move (Hidden Path) is spent by the trip it is played for.
    Detail: the seat, or POOL for the deck."""
    top = g[L.G_EVENT_TOP]
    draws = 0
    second_draws = 0  # Benevolence: "draw a new one", once per draw
    for s in range(p[L.P_PLAYERS]):
        draws += g[pl(s) + L.PL_N_EVENTS]
        if p[L.P_BENEVOLENCE] and S[L.S_TRIBES][g[pl(s) + L.PL_TRIBE], L.TR_REDRAW]:
            second_draws += g[pl(s) + L.PL_N_EVENTS]
    if top < 0 or top > p[L.P_N_EVENTS] or not deck_is_whole(p, g) or draws > top or \
            top > draws + second_draws or \
            (g[L.G_EVENTS_OVER] != 0 and top != p[L.P_N_EVENTS]):
        return L.POOL
    for s in range(p[L.P_PLAYERS]):
        ev = g[pl(s) + L.PL_HELD_EVENT]
        if ev >= 0 and (not drawn(p, g, ev) or
                        S[L.S_EVENTS][ev, L.EV_TIMING] != L.TIMING_DELAYED):
            return s
        for other in range(s):
            if ev >= 0 and g[pl(other) + L.PL_HELD_EVENT] == ev:
                return s
        free = g[pl(s) + L.PL_FREE_MOVE]  # set by Hidden Path, spent by the next trip
        if free != 0 and (free != 1 or (step != L.STEP_DELAYED_EVENT and step != L.STEP_END)):
            return s
    return HOLDS


@borrowing
def month_turns_before(p, turn):
    n = 0
    for t in range(1, turn):
        if t % p[L.P_FESTIVAL_EVERY] != 0:
            n += 1
    return n


@borrowing
def first_passes_due(p, g, step):
    """Month Turns whose first pass has been made: "The player who passes first ...
    immediately gains 1 Victory Point", once per Month Turn."""
    turn = g[L.G_TURN]
    if step == L.STEP_SETUP:
        return 0
    n = month_turns_before(p, turn)
    if step == L.STEP_CLEANUP or (in_action_phase(step) and g[L.G_N_PASSED] > 0):
        n += 1
    elif step == L.STEP_END and turn % p[L.P_FESTIVAL_EVERY] != 0:
        n += 1  # a game ending on a Month Turn
    return n


@borrowing
def playing_order_broken(p, g, step):
    """Playing Order: each tribe's disc once on the order column; in the Action Phase
    each pass moves a disc onto the first free space of the other column, the first of
    each Month Turn gaining 1 VP; after Cleanup no one has passed. Detail: the seat, or
    POOL for the column."""
    n = p[L.P_PLAYERS]
    seen = 0
    for i in range(n):
        s = g[L.G_ORDER + i]
        if s < 0 or s >= n or (seen >> s) & 1:
            return L.POOL
        seen |= 1 << s
    passed = 0
    first = 0
    for s in range(n):
        flag = g[pl(s) + L.PL_PASSED]
        if flag != 0 and (flag != 1 or not in_action_phase(step)):
            return s
        passed += flag
        first += g[pl(s) + L.PL_FIRST_PASS]
    if first != first_passes_due(p, g, step):
        return L.POOL
    if in_action_phase(step):
        if passed != g[L.G_N_PASSED]:
            return L.POOL
        moved = 0
        for i in range(passed):
            s = g[L.G_NEXT_ORDER + i]
            if s < 0 or s >= n or not g[pl(s) + L.PL_PASSED] or (moved >> s) & 1:
                return L.POOL
            moved |= 1 << s
    return HOLDS


@borrowing
def turn_broken(p, g, step):
    """How to Play: "The game is played in 12 turns" (the ``turns`` knob), a Festival Turn
    after every 2 Month Turns, each with its Festival tile (Components: 4). Detail: the
    turn."""
    turn = g[L.G_TURN]
    if step == L.STEP_SETUP:
        return HOLDS if turn == 0 else turn
    if turn < 1 or turn > p[L.P_TURNS]:
        return turn
    festival = turn % p[L.P_FESTIVAL_EVERY] == 0
    if step == L.STEP_FESTIVAL:
        if not festival or turn // p[L.P_FESTIVAL_EVERY] > p[L.P_N_FESTIVALS]:
            return turn
    elif step == L.STEP_END:
        if turn != p[L.P_TURNS]:
            return turn
    elif festival:
        return turn  # a Month Turn's step on a Festival Turn
    return HOLDS


@borrowing
def tile_broken(g, step):
    """Territories, Sea Areas and Movement: Movement Cost tile A, or B or C "for one Month
    Turn only" (back to A at Cleanup). Detail: the tile."""
    tile = g[L.G_TILE]
    if tile < L.TILE_A or tile > L.TILE_C or (at_rest(step) and tile != L.TILE_A):
        return tile
    return HOLDS
