"""What a side can see of its enemy, one home for the commanders and any look-ahead.

3.1: "Blocks placed on the game board must be positioned so that only their owner can
see the identity of each one"; 8.2.1: "All blocks involved in a battle remain hidden
until they are deployed. Once the battle is over, the revealed blocks that are not
eliminated are hidden again"; 6.4: the blocks drawn go to the Recruitment Box "without
showing their types to the opposing player"; 3.3: "Players may not examine either
discard pile". A side sees every block standing upright (how many, where), the blocks
eliminated (8.7.4: "kept to the side, in view of both players"), the size of the enemy's
hand, and remembers what was shown to it: the state keeps, per block, whether its enemy
knows its identity (``S_B_SEEN``) and, per card in a hand, whether the other side knows
it is there (``S_C_SEEN``); the rules set them (``reveal``, ``forget_stack``,
``reveal_hand``) as the table would:

- known: the Playbook's set-up (5; not the Decoys, Partisans and Customs Officers, which
  "may be placed in any Location where there is at least 1 friendly block", 7.3.7), the
  historical reinforcements, «El Abuelo», Ceballos, the Guerrillas and Defectors as they
  enter, every block deployed in a battle or siege, the Liberal blocks a Customs Officers
  block meets (7.3.7: "may look at the block(s) comprising it"), the hand Local
  Informants shows (12.1) and a card shown to refute a Loyalty Challenge (8.6.1);
- forgotten: the blocks of a stack that divides (which blocks stayed and which left is
  not shown: 7.3.1), recruits and levies (from the Recruitment Box), a card drawn.

``see`` turns what a side cannot see into expectations over the candidates the roster
can still hold (the enemy's unseen blocks on the map, its Recruitment Box and bag; its
hand's unseen cards, draw pile and discards); ``resample`` deals those candidates
into a whole state consistent with everything the side sees, for a look-ahead that
must not play on hidden information.
"""

from simkit.rng import shuffle
from simkit.unmanaged import borrowing

from . import layout as L

# -- the knowledge the rules keep ----------------------------------------------------------
#: ``S_B_SEEN``: never shown to the enemy; shown and followed; shown once, on the map
#: since, but no longer followed
UNKNOWN, KNOWN, FORGOTTEN = 0, 1, 2


@borrowing
def reveal(s, b):
    """Block ``b``'s identity is shown to its enemy."""
    s[L.S_B_SEEN + b] = KNOWN


@borrowing
def forget_stack(s, blk, where, side):
    """``side``'s stack at ``where`` divided where its enemy could not tell which blocks
    went: those it knew are still on the map, it no longer knows where (``FORGOTTEN``)."""
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_MAP and s[L.S_B_LOC + b] == where \
                and s[L.S_B_SIDE + b] == side and s[L.S_B_SEEN + b] == KNOWN:
            s[L.S_B_SEEN + b] = FORGOTTEN


@borrowing
def reveal_stack(s, blk, where, side):
    """``side``'s blocks at ``where`` are shown to its enemy."""
    for b in range(blk.shape[0]):
        if s[L.S_B_WHERE + b] == L.W_MAP and s[L.S_B_LOC + b] == where \
                and s[L.S_B_SIDE + b] == side:
            s[L.S_B_SEEN + b] = KNOWN


@borrowing
def dummy(blk, b):
    """Decoys, Partisans and Customs Officers: blocks that never fight (7.3.7)."""
    t = blk[b, L.BK_TYPE]
    return t == L.DECOY or t == L.PARTISANS or t == L.CUSTOMS


@borrowing
def reveal_hand(s, card, side):
    """``side`` shows its hand (12.1 «Local Informants»)."""
    for c in range(card.shape[0]):
        if card[c, L.CD_SIDE] == side and s[L.S_C_WHERE + c] == L.CW_HAND:
            s[L.S_C_SEEN + c] = 1


# -- what a side sees ----------------------------------------------------------------------
@borrowing
def hidden_block(blk, s, me, b):
    """Is enemy block ``b`` one whose identity ``me`` does not know, and that could stand
    on the map (on it unseen, in the Recruitment Box or in the bag)? Naval Squadrons are
    known by their shape and ports (7.4), a Defectors block in the box by the empty bag
    it was drawn from."""
    if s[L.S_B_SIDE + b] == me or blk[b, L.BK_TYPE] == L.NAVAL:
        return False
    where = s[L.S_B_WHERE + b]
    if where == L.W_MAP:
        return s[L.S_B_SEEN + b] != KNOWN
    if blk[b, L.BK_TYPE] == L.DEFECTORS:
        return False  # drawn when the bag is empty, as all can see (6.4)
    return where == L.W_BOX or where == L.W_BAG


@borrowing
def hidden_on_map(blk, s, b):
    """A hidden block its enemy knows stands on the map, somewhere: one it followed
    before (``FORGOTTEN``), or one that never was in the bag (the Decoys, Partisans and
    Customs Officers of the set-up, 7.3.7)."""
    return s[L.S_B_WHERE + b] == L.W_MAP and (s[L.S_B_SEEN + b] == FORGOTTEN
                                              or blk[b, L.BK_START] != L.START_BAG)


@borrowing
def hidden_card(card, s, me, c):
    """Is enemy card ``c`` one ``me`` cannot place: in the enemy's hand unseen, its draw
    pile or its discards?"""
    if card[c, L.CD_SIDE] == me:
        return False
    where = s[L.S_C_WHERE + c]
    if where == L.CW_HAND:
        return s[L.S_C_SEEN + c] == 0
    return where == L.CW_DRAW or where == L.CW_DISCARD


@borrowing
def battle_impact(blk, b):
    """A block's Impact deployed in a battle (8.3.2, 8.4.2: artillery 1; 11.3: the
    Hussars 4), 0 for the blocks no card deploys (Decoys, Partisans, Customs)."""
    t = blk[b, L.BK_TYPE]
    if t == L.DECOY or t == L.PARTISANS or t == L.CUSTOMS or t == L.NAVAL:
        return 0
    if t == L.FIELD_ART or t == L.MOUNTAIN_ART:
        return 1
    return blk[b, L.BK_DIAMONDS]


@borrowing
def see(blk, card, s, me, counts, v):
    """Fill ``v`` (``layout.V_*``) with ``me``'s expectations over what it cannot see of
    its enemy: the share of Leaders, fighters (blocks a card deploys) and artillery among
    the blocks whose identity it does not know (``hidden_block``), their mean diamonds
    and Impact, the chance two fighters share a Faction; among the cards its enemy's hand
    may hold unseen (``hidden_card``), the share that deploys blocks, the chance such a
    card deploys a fighter of the pool (8.2.2: a card of its Faction; any card for the
    blocks 8.2.2 names; a bugle card for artillery; the Headquarters any block), and the
    shares of Fortified House and «Defensive Battery» cards. An unseen block on the map
    is one of those known to stand somewhere on it (``FORGOTTEN``), or else any block
    never shown: the shares weigh each accordingly. ``counts``: float scratch of
    ``2 * N_FACTIONS`` slots."""
    for k in range(L.N_V):
        v[k] = 0.0
    for f in range(2 * L.N_FACTIONS):
        counts[f] = 0.0
    on_map = forgotten = never = 0  # unseen enemy blocks on the map; the two kinds
    for b in range(blk.shape[0]):
        if hidden_block(blk, s, me, b):
            on_map += s[L.S_B_WHERE + b] == L.W_MAP
            if hidden_on_map(blk, s, b):
                forgotten += 1
            else:
                never += 1
    # an unseen block on the map is one of those known to be there, else any never shown
    rest = (on_map - forgotten) / never if never > 0 else 0.0
    n = leaders = fighters = art = any_card = 0.0
    leader_d = fighter_i = diamonds = 0.0
    for b in range(blk.shape[0]):
        if not hidden_block(blk, s, me, b):
            continue
        x = 1.0 if hidden_on_map(blk, s, b) else rest
        n += x
        t = blk[b, L.BK_TYPE]
        diamonds += x * blk[b, L.BK_DIAMONDS]
        if t == L.LEADER:
            leaders += x
            leader_d += x * blk[b, L.BK_DIAMONDS]
        elif battle_impact(blk, b) > 0:
            fighters += x
            fighter_i += x * battle_impact(blk, b)
            f = blk[b, L.BK_FACTION]
            if t == L.FIELD_ART or t == L.MOUNTAIN_ART:
                art += x
            elif f == L.NO_FACTION or blk[b, L.BK_SPECIAL] != L.SP_NONE \
                    or t == L.GUERRILLA or t == L.DEFECTORS:
                any_card += x
            else:
                counts[f] += x
    cards = deploying = bugles = fh = battery = hq = 0
    for c in range(card.shape[0]):
        if not hidden_card(card, s, me, c):
            continue
        cards += 1
        sp = card[c, L.CD_SPECIAL]
        if sp == L.CS_NONE:
            deploying += 1
            bugles += card[c, L.CD_BUGLE]
            counts[L.N_FACTIONS + card[c, L.CD_FAC1]] += 1
            if card[c, L.CD_FAC2] != L.NO_FACTION:
                counts[L.N_FACTIONS + card[c, L.CD_FAC2]] += 1
        elif sp == L.CS_HQ:
            deploying += 1
            hq += 1
        elif sp == L.CS_FORTIFIED_HOUSE:
            fh += 1
        elif sp == L.EV_BATTERY:
            battery += 1
    v[L.V_POOL] = on_map
    v[L.V_CARDS] = cards
    if n > 0:
        v[L.V_LEADER] = leaders / n
        v[L.V_FIGHTER] = fighters / n
        v[L.V_ART] = art / n
        v[L.V_DIAMONDS] = diamonds / n
    if leaders > 0:
        v[L.V_LEADER_D] = leader_d / leaders
    if fighters > 0:
        v[L.V_FIGHTER_D] = fighter_i / fighters
        same = (any_card / fighters) ** 2 + (art / fighters) ** 2
        match = any_card + art * (bugles + hq) / max(1, deploying)
        for f in range(L.N_FACTIONS):
            same += (counts[f] / fighters) ** 2
            match += counts[f] * (counts[L.N_FACTIONS + f] + hq) / max(1, deploying)
        v[L.V_SAME] = same
        v[L.V_MATCH] = match / fighters
    if cards > 0:
        v[L.V_DEPLOY] = deploying / cards
        v[L.V_FH] = fh / cards
        v[L.V_BATTERY] = battery / cards


# -- a state consistent with what a side sees ----------------------------------------------
@borrowing
def resample(blk, card, s, me, rng, purpose, out, pool):
    """Write into ``out`` a copy of ``s`` in which what ``me`` cannot see of its enemy is
    dealt again at random (stream ``purpose`` of ``rng``): the blocks whose identity it
    does not know (``hidden_block``) are shuffled over the same places (each unseen block
    on the map keeps its Location and this turn's movement, the Recruitment Box and the
    bag keep their counts), the cards it cannot place (``hidden_card``) over the enemy's
    hand, draw pile (in a new order) and discards, each keeping its count. Everything
    ``me`` sees is unchanged. The places are taken in an order that depends only on what
    ``me`` sees (``place_key``), so two states ``me`` cannot tell apart give the same
    deal. ``pool``: scratch of ``3 * MAX_BLOCKS + MAX_CARDS`` slots."""
    for i in range(s.shape[0]):
        out[i] = s[i]
    n = 0
    places = pool[L.MAX_BLOCKS:]
    keys = pool[2 * L.MAX_BLOCKS:]
    for b in range(blk.shape[0]):
        if hidden_block(blk, s, me, b):
            pool[n] = b
            places[n] = b
            keys[n] = place_key(s, b)
            n += 1
    for i in range(1, n):  # the places in key order (equal keys are alike)
        b, key = places[i], keys[i]
        j = i - 1
        while j >= 0 and keys[j] > key:
            places[j + 1], keys[j + 1] = places[j], keys[j]
            j -= 1
        places[j + 1], keys[j + 1] = b, key
    maps = 0  # the map's places are the last ``maps`` (the highest keys)
    for i in range(n):  # the pool was listed by block, the places by what is seen
        maps += s[L.S_B_WHERE + places[i]] == L.W_MAP
        keys[i] = places[i]
    shuffle(rng, purpose, pool[:n])
    shuffle(rng, purpose, keys[n - maps:n])
    k = n - maps  # the blocks known to be on the map take map places first
    for i in range(n):
        if hidden_on_map(blk, s, pool[i]):
            take_place(s, out, keys[k], pool[i])
            keys[k] = -1
            k += 1
    k = 0
    for i in range(n):
        if not hidden_on_map(blk, s, pool[i]):
            while keys[k] < 0:
                k += 1
            take_place(s, out, keys[k], pool[i])
            k += 1
    deal_cards(card, s, 1 - me, me, rng, purpose, out, pool[3 * L.MAX_BLOCKS:])


@borrowing
def place_key(s, b):
    """What the enemy sees of the place block ``b`` holds: in the bag or the box, or its
    Location and where it came from this turn, as one number to order places by."""
    where = s[L.S_B_WHERE + b]
    if where != L.W_MAP:
        return where
    return 100 + (s[L.S_B_LOC + b] * 100 + s[L.S_B_FROM + b] + 2) * 2 + s[L.S_B_MOVED + b]


@borrowing
def take_place(s, out, place, b):
    """Block ``b`` takes the place block ``place`` holds in ``s`` (where it is, its
    Location, this turn's movement), in ``out``."""
    out[L.S_B_WHERE + b] = s[L.S_B_WHERE + place]
    out[L.S_B_LOC + b] = s[L.S_B_LOC + place]
    out[L.S_B_MOVED + b] = s[L.S_B_MOVED + place]
    out[L.S_B_FROM + b] = s[L.S_B_FROM + place]


@borrowing
def deal_cards(card, s, e, me, rng, purpose, out, pool):
    """``resample``'s cards: side ``e``'s cards ``me`` cannot place, dealt again to its
    hand (as many unseen as it holds), its discards and its draw pile."""
    n = hand_n = discard_n = 0
    for c in range(card.shape[0]):
        if hidden_card(card, s, me, c):
            pool[n] = c
            n += 1
            if s[L.S_C_WHERE + c] == L.CW_HAND:
                hand_n += 1
            elif s[L.S_C_WHERE + c] == L.CW_DISCARD:
                discard_n += 1
    shuffle(rng, purpose, pool[:n])
    base = L.S_DRAW + e * L.MAX_DECK
    for k in range(n):
        c = pool[k]
        if k < hand_n:
            out[L.S_C_WHERE + c] = L.CW_HAND
        elif k < hand_n + discard_n:
            out[L.S_C_WHERE + c] = L.CW_DISCARD
        else:
            out[L.S_C_WHERE + c] = L.CW_DRAW
            out[base + k - hand_n - discard_n] = c
        out[L.S_C_SEEN + c] = 0
    out[L.S_DRAW_N + e] = n - hand_n - discard_n
