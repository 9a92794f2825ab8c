"""Every trace event of The King in the North: code, arguments and sentence. The
narration context ``x`` has ``loc`` (Location names), ``block`` (block names) and
``card`` (card descriptions)."""

from simkit.eventlog import EventTable

from . import layout as L

EVENTS = EventTable("king_in_the_north")


def _side(a):
    return L.SIDES[a].capitalize()


EV_SEMESTER = EVENTS.add(
    "semester", "a = year, b = semester (0 A, 1 B), c = first side",
    lambda x, a, b, c: f"== {a} {L.SEMESTERS[b]}: the {_side(c)} move first ==")
EV_BID = EVENTS.add(
    "bid", "a = Carlist bid, b = Liberal bid, c = side moving first",
    lambda x, a, b, c: f"Turn Order bids: Carlists {a}, Liberals {b}; the {_side(c)} move "
                       "first")
EV_CHALLENGE = EVENTS.add(
    "initiative_challenge", "a = challenger, b = accepted (0/1), c = side moving first",
    lambda x, a, b, c: f"Initiative Challenge by the {_side(a)}: "
                       + ("accepted" if b else "declined")
                       + f"; the {_side(c)} move first")
EV_TURN = EVENTS.add(
    "turn", "a = side, b = Carlist VP, c = Liberal VP",
    lambda x, a, b, c: f"- {_side(a)} turn (VP Carlists {b}, Liberals {c})")
EV_ARRIVE = EVENTS.add(
    "arrive", "a = block, b = location",
    lambda x, a, b, c: f"  Reinforcement: {x.block[a]} enters at {x.loc[b]}")
EV_MOVEMENT_CARDS = EVENTS.add(
    "movement_cards", "a = side, b = movement bought (0-3 cards' worth), c = cards "
                      "discarded (fewer with Forced Levies)",
    lambda x, a, b, c: f"  {_side(a)} spend {c} card(s) for movement ("
                       + ("Minimum", "Limited", "Unlimited", "Total")[b] + ")")
EV_MOVE = EVENTS.add(
    "move", "a = side*1000 + origin (900: a squadron), b = destination, c = blocks",
    lambda x, a, b, c: (f"  A Naval Squadron sails to {x.loc[b]}" if a % 1000 == 900 else
                        f"  {c} block(s) move from {x.loc[a % 1000]} to {x.loc[b]}"))
EV_OVERRUN = EVENTS.add(
    "overrun", "a = side, b = location",
    lambda x, a, b, c: f"  The {_side(a)} overrun the enemy at {x.loc[b]}")
EV_GARRISON = EVENTS.add(
    "garrison", "a = side (+10: Barrels), b = location, c = Barrels",
    lambda x, a, b, c: (f"  The Liberals take {c} Barrels to {x.loc[b]}" if a >= 10 else
                        f"  {_side(a)} garrison {x.loc[b]}"))
EV_RECRUIT = EVENTS.add(
    "recruit", "a = side, b = location, c = blocks",
    lambda x, a, b, c: f"  {_side(a)} recruit {c} block(s) at {x.loc[b]}")
EV_EVENT = EVENTS.add(
    "event", "a = side, b = card special, c = location",
    lambda x, a, b, c: f"  {_side(a)} play «{L.CARD_SPECIALS[b].replace('_', ' ')}»")
EV_BATTLE = EVENTS.add(
    "battle", "a = location, b = attacker, c = attacker blocks*100 + defender blocks",
    lambda x, a, b, c: f"  Battle at {x.loc[a]}: {_side(b)} attack with {c // 100} "
                       f"block(s) against {c % 100}")
EV_SIEGE = EVENTS.add(
    "siege", "a = location, b = attacker, c = defenders",
    lambda x, a, b, c: f"  Siege of {x.loc[a]} by the {_side(b)} ({c} block(s) inside)")
EV_DEPLOY = EVENTS.add(
    "deploy", "a = side*1000 + block (997 event, 998 Fortified House, 999 naval), "
              "b = Impact, c = card (-1 free, -2 Partisans shown)",
    lambda x, a, b, c: "    " + _side(a // 1000) + " deploy "
    + ({997: "an event", 998: "the Fortified House card", 999: "naval support"}.get(
        a % 1000) or x.block[a % 1000])
    + (" (shown: the Liberals discard a card)" if c == -2 else
       " free" if c == -1 else f" with {x.card[c]}") + f": +{b} Impact")
EV_REFUTED = EVENTS.add(
    "refuted", "a = challenger, b = block",
    lambda x, a, b, c: f"    Loyalty Challenge by the {_side(a)} against {x.block[b]}: "
                       "refuted")
EV_DEFECTION = EVENTS.add(
    "defection", "a = challenger, b = block, c = second block",
    lambda x, a, b, c: f"    Loyalty Challenge by the {_side(a)}: {x.block[b]} defects")
EV_BATTLE_END = EVENTS.add(
    "battle_end", "a = Carlist Impact, b = Liberal Impact, c = winner",
    lambda x, a, b, c: f"    Impact: Carlists {a}, Liberals {b}; the {_side(c)} win")
EV_LOSS = EVENTS.add(
    "loss", "a = side, b = block",
    lambda x, a, b, c: f"    {_side(a)} lose {x.block[b]}")
EV_RETREAT = EVENTS.add(
    "retreat", "a = side, b = from, c = to (-1: no retreat, eliminated)",
    lambda x, a, b, c: (f"    The {_side(a)} retreat inside {x.loc[b]}" if b == c else
                        f"    The {_side(a)} cannot retreat and are eliminated" if c < 0 else
                        f"    The {_side(a)} retreat from {x.loc[b]} to {x.loc[c]}"))
EV_RETREAT_BEFORE = EVENTS.add(
    "retreat_before_combat", "a = side, b = from, c = to",
    lambda x, a, b, c: f"  The {_side(a)} retreat before combat from {x.loc[b]} to "
                       f"{x.loc[c]}")
EV_SIEGE_END = EVENTS.add(
    "siege_end", "a = besieger Impact, b = Impact per block, c = blocks eliminated",
    "    Besieger Impact {a} at {b} per block: {c} defender(s) eliminated")
EV_CAPTURE = EVENTS.add(
    "capture", "a = location, b = new owner",
    lambda x, a, b, c: f"    {x.loc[a]} falls to the {_side(b)}")
EV_REINFORCEMENT = EVENTS.add(
    "reinforcement", "a = side, b = cards drawn, c = blocks drawn",
    lambda x, a, b, c: f"Reinforcement Phase: the {_side(a)} draw {b} cards and {c} "
                       "block(s)")
EV_ATTRITION = EVENTS.add(
    "attrition", "a = side",
    lambda x, a, b, c: f"Siege Attrition: the {_side(a)} eliminate 1 card")
EV_VICTORY = EVENTS.add(
    "victory", "a = winner, b = end reason",
    lambda x, a, b, c: f"Game over: {L.WINNERS[a]} ({L.END_REASONS[b].replace('_', ' ')})")
