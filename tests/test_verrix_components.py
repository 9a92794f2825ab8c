"""Verrix's reconstructed components agree with every fact the rulebook prints (its
Components list and the numbers of its examples)."""

import shutil

import pytest

from simkit.errors import ComponentError
from simkit.games.verrix import components as C
from simkit.games.verrix import layout as L


@pytest.fixture(scope="module")
def comp():
    return C.load_components()


def cost(comp, a, b, territory=1, sea=2):
    n = comp.node_names.index
    dist, _ = C.shortest_paths(comp.nodes[:, 0], comp.adjacency, territory, sea)
    return dist[n(a), n(b)]


def test_example_distances(comp):
    # Celebration: Iceni -> Atrebates 2; Clan Pact: Atrebates -> Cantiaci 1 (adjacent);
    # Pillage: Caledonii -> Brigantes 3; Sack: Brigantes -> Portum Itium 5
    assert cost(comp, "Iceni", "Atrebates") == 2
    assert cost(comp, "Atrebates", "Cantiaci") == 1
    assert cost(comp, "Caledonii", "Brigantes") == 3
    assert cost(comp, "Brigantes", "Portum Itium") == 5


def test_named_setup_territories(comp):
    terr = comp.tribes[:, L.TR_TERRITORIES:L.TR_TERRITORIES + 3]
    names = {t: {comp.node_names[v] for v in terr[i]} for i, t in enumerate(L.TRIBES)}
    assert "Caledonii" in names["blue"] and "Brigantes" in names["purple"]
    assert "Brigantes" in names["orange"] and "Iceni" in names["green"]
    assert "Atrebates" in names["yellow"]


def test_counts_and_values(comp):
    assert comp.goods[:, L.GD_COUNT].sum() == 67
    v = comp.goods[:, L.GD_VALUE]
    assert v[L.SWORD] == 5 and v[L.CART] == 5 and v[L.HAMMER] + v[L.BELLADONNA] == 6
    assert v[L.HORSE] >= 2 * v[L.BELLADONNA]  # the Celebration example
    assert comp.goods[L.HORSE, L.GD_BONUS] == L.BONUS_MOVE  # the Sack example
    assert comp.goods[L.HAMMER, L.GD_BONUS] == L.BONUS_STR  # the Clan Pact example
    assert comp.goods[L.FIBULA, L.GD_BONUS] == L.BONUS_VP
    copies = sum(bin(int(o)).count("1") for o in comp.cards[:, L.CD_OWNERS])
    assert copies == 70
    assert len(comp.event_titles) == 20 and len(comp.festival_names) == 4
    assert comp.festival_names[-1] == "Lughnasadh"
    assert (comp.leaders[:, L.LD_TRIBE] == -1).sum() == 7


def test_named_cards(comp):
    card = {t: comp.cards[i] for i, t in enumerate(comp.card_titles)}
    assert card["Cooking"][L.CD_COST] == 2
    assert card["Celebration"][L.CD_COST] == 3
    assert card["Clan Pact"][L.CD_COST] == 4
    assert card["Pillage"][L.CD_COST] < 6 and card["Sack"][L.CD_COST] < 5
    assert card["Consecrated Ground"][L.CD_COST] < 3
    assert card["Sack"][L.CD_LOCATION] == L.LOC_PORTUM
    tribesmen = 1 << L.TRIBESMAN
    assert card["Supremacy"][L.CD_UNITS] == tribesmen
    assert card["Agonizing Wail"][L.CD_UNITS] == tribesmen | (1 << L.MYSTIC)
    assert card["Onslaught"][L.CD_UNITS] == tribesmen | (1 << L.WARRIOR)
    assert card["Clan Pact"][L.CD_OWNERS] == 0b11111
    leaders = {n: comp.leaders[i] for i, n in enumerate(comp.leader_names)}
    assert leaders["Lindsay"][L.LD_STR] == 3 and leaders["Niamh"][L.LD_STR] == 2
    assert leaders["Murchad"][L.LD_STR] == 2 and leaders["Ygerna"][L.LD_STR] == 2
    assert leaders["Sive"][L.LD_STR] == 1 and leaders["Ambigath"][L.LD_TRIBE] == -1


def _broken(tmp_path, name, old, new):
    data = tmp_path / "data"
    shutil.copytree(C.DATA, data)
    path = data / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return data


def test_bad_rarity_names_file_and_card(tmp_path):
    data = _broken(tmp_path, "cards.toml", 'owners = ["orange"]\nrarity = 3',
                   'owners = ["orange"]\nrarity = 2')
    with pytest.raises(ComponentError, match=r"cards.toml: \[\[card\]\] 'Foray'.*rarity"):
        C.load_components(data)


def test_bad_goods_count(tmp_path):
    data = _broken(tmp_path, "goods.toml", "count = 25", "count = 24")
    with pytest.raises(ComponentError, match=r"goods.toml.*67"):
        C.load_components(data)


def test_one_sided_adjacency(tmp_path):
    data = _broken(tmp_path, "map.toml", 'adjacent = ["Venicones", "Oceanus Germanicus"]',
                   'adjacent = ["Venicones", "Oceanus Germanicus", "Iceni"]')
    with pytest.raises(ComponentError, match=r"map.toml.*Caledonii.*both"):
        C.load_components(data)


def test_an_effect_without_its_required_number_is_one_clear_error(tmp_path):
    data = _broken(tmp_path, "cards.toml", '{ op = "vp", n = 3 }', '{ op = "vp" }')
    with pytest.raises(ComponentError, match=r"cards.toml: \[\[card\]\] .*missing key 'n'"):
        C.load_components(data)


@pytest.mark.parametrize("old, new, words", [
    ("Provisions = 4, Sword = 1", "Provisions = 4000000000, Sword = 1",
     r"Provisions = 4000000000 must be a whole number of tiles, 0\.\.67"),
    ("Provisions = 4, Sword = 1", "Provisions = 4, Sword = true",
     r"Sword = True must be a whole number"),
    ("Provisions = 4, Sword = 1", "Provisions = 4, Sword = 6",
     r"the tribes start with 6 Sword together, but goods.toml has \d+ Sword tiles"),
    ("Provisions = 4, Sword = 1", "Provisions = 4, Swords = 1", r"unknown good 'Swords'"),
])
def test_setup_goods_are_whole_tiles_the_common_pool_holds(tmp_path, old, new, words):
    """Player Area Setup: each player "takes all the depicted resources from the Common
    Pool" (a bool is not a count, and the pool's tiles are finite)."""
    data = _broken(tmp_path, "tribes.toml", old, new)
    with pytest.raises(ComponentError, match=r"tribes.toml: \[\[tribe\]\].*" + words):
        C.load_components(data)
