"""Every trace event of Verrix: its code, the meaning of its arguments and the sentence
that tells it (the engine logs codes from here; ``narrate`` reads this table with the
game's names as context ``x``: ``x.seat[s]``, ``x.card[c]``, ``x.event[e]``, ...)."""

from simkit.eventlog import EventTable

EVENTS = EventTable("verrix")

EV_SETUP = EVENTS.add("setup", "a = seat, b = territory of its first village, c = hostage "
                      "colour (-1 none)",
                      lambda x, a, b, c: f"{x.seat[a]} places its first village in "
                      f"{x.node[b]}" + (f" and takes a {x.tribe[c]} hostage" if c >= 0 else ""))
EV_TURN = EVENTS.add("turn", "a = turn, b = festival (0/1)",
                     lambda x, a, b, c: f"== Turn {a}: " + ("Festival" if b else "Month Turn"))
EV_DRAW = EVENTS.add("draw", "a = seat, b = event, c = redrawn (0/1)",
                     lambda x, a, b, c: f"  {x.seat[a]} pays Divine Will and draws "
                     f"'{x.event[b]}'" + (" (Benevolence: a second draw)" if c else ""))
EV_DECK_OUT = EVENTS.add("deck_out", "", "  The Event deck has run out: no more Event Phases")
EV_DELAYED = EVENTS.add("delayed", "a = seat, b = event",
                        lambda x, a, b, c: f"  {x.seat[a]} plays its delayed event "
                        f"'{x.event[b]}'")
EV_CARD = EVENTS.add("card", "a = seat, b = card, c = target (-1 none, -2 market)",
                     lambda x, a, b, c: f"  {x.seat[a]} plays {x.card[b]}" +
                     ("" if c == -1 else " at Portum Itium" if c == -2 else
                      f" against {x.seat[c]}"))
EV_ENGAGE = EVENTS.add("engage", "a = tribesmen, b = leader mask, c = STRENGTH",
                       "    engaging {a} tribesmen and leaders {b:b}: STRENGTH {c}")
EV_MOVE = EVENTS.add("move", "a = node, b = Provisions paid, c = tribute",
                     lambda x, a, b, c: f"    travels to {x.node[a]}: {b} Provisions"
                     + (f", {c} as tribute" if c else ""))
EV_GAIN = EVENTS.add("gain", "a = seat, b = good, c = n",
                     lambda x, a, b, c: f"    {x.seat[a]} takes {c} {x.good[b]}" if c else None)
EV_DW = EVENTS.add("divine_will", "a = seat, b = n",
                   lambda x, a, b, c: f"    {x.seat[a]} takes {b} Divine Will" if b else None)
EV_VP = EVENTS.add("vp", "a = seat, b = VP change, c = total",
                   lambda x, a, b, c: f"    {x.seat[a]} {'+' if b >= 0 else ''}{b} VP "
                   f"(now {c})" if b else None)
EV_LEARN = EVENTS.add("learn", "a = seat, b = card",
                      lambda x, a, b, c: f"    {x.seat[a]} learns {x.card[b]}")
EV_PROMOTE = EVENTS.add("promote", "a = seat, b = leader",
                        lambda x, a, b, c: f"    {x.seat[a]} promotes a tribesman: "
                        f"{x.leader[b]} joins")
EV_TRADE = EVENTS.add("trade", "a = seat, b = goods sold, c = goods bought",
                      "    trade: {b} goods sold, {c} bought")
EV_HOSTAGE_TRADE = EVENTS.add("hostage_trade", "a = seat, b = hostages sold, c = bought",
                              "    and hostages: {b} sold, {c} bought")
EV_RAID = EVENTS.add("raid", "a = attack STRENGTH, b = defence before the token, c = token",
                     lambda x, a, b, c: f"    raid: {a} against {b} + Mórrígan {c}: "
                     + ("success" if a > b + c else "fails"))
EV_LOOT = EVENTS.add("loot", "a = item (good, trophy, hostage code), b = n",
                     lambda x, a, b, c: f"    takes {x.item(a)}")
EV_VILLAGE = EVENTS.add("village", "a = seat, b = node",
                        lambda x, a, b, c: f"    {x.seat[a]} founds a village in {x.node[b]}")
EV_TROPHY = EVENTS.add("trophy", "a = seat, b = trophy",
                       lambda x, a, b, c: f"    {x.seat[a]} takes the trophy {x.trophy[b]}")
EV_BATTLE = EVENTS.add("battle", "a = attacker, b = defender",
                       lambda x, a, b, c: f"  {x.seat[a]} declares a Battle on {x.seat[b]}")
EV_HELD_BACK = EVENTS.add("held_back", "a = defender, b = units held back",
                          lambda x, a, b, c: f"    {x.seat[a]} deploys every unit it can"
                          if b == 0 else f"    {x.seat[a]} holds back {b} units")
EV_SUPPORT = EVENTS.add("support", "a = seat, b = side (1 attacker, 2 defender), c = STR",
                        lambda x, a, b, c: f"    {x.seat[a]} supports the "
                        + ("attackers" if b == 1 else "defenders") + f" with STRENGTH {c}")
EV_REFUSED = EVENTS.add("refused", "a = faction leader, b = refused seat, c = side",
                        lambda x, a, b, c: f"    {x.seat[a]} refuses the Support of "
                        f"{x.seat[b]}")
EV_ROUND = EVENTS.add("round", "a = card (-1 none), b = attack STRENGTH, c = defence",
                      lambda x, a, b, c: "    round: " + (x.card[a] if a >= 0 else "no card")
                      + f", {b} against {c}")
EV_DISC = EVENTS.add("disc", "a = disc (+ toward the attacker)",
                     "    the battle disc stands at {a:+d}")
EV_PASS = EVENTS.add("pass", "a = seat, b = first (0/1)",
                     lambda x, a, b, c: f"  {x.seat[a]} passes" + (" first" if b else ""))
EV_FESTIVAL = EVENTS.add("festival", "a = seat, b = VP, c = festival",
                         lambda x, a, b, c: f"  {x.festival[c]}: {x.seat[a]} +{b} VP"
                         if b else None)
EV_CLEANUP_VP = EVENTS.add("cleanup_vp", "a = seat, b = VP",
                           lambda x, a, b, c: f"  Cleanup: {x.seat[a]} +{b} VP" if b else None)
EV_FINAL = EVENTS.add("final", "a = seat, b = VP, c = Divine Will",
                      lambda x, a, b, c: f"  {x.seat[a]}: {b} VP, {c} Divine Will")
