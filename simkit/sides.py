"""Sides, seats and winner categories: what a ``--side`` may name in a game's results,
and the seatings of a seat rotation. Every command that reads a side or plays the
rotations takes these names from here; this module imports no runner or experiment, so
each of those can import it.
"""

from __future__ import annotations

from simkit.errors import UsageError

#: the outcome columns a "side" may name a category of, in this order: the winner (a
#: side, a Verrix tribe), the winning seat (Verrix), the fame winner (Victus competitive)
WINNER_COLUMNS = ("winner", "winner_seat", "fame_winner")
#: categories that are no one's win
NOT_A_SIDE = ("tie", "none", "shared")


def winner_categories(game) -> dict[str, tuple[str, ...]]:
    """Every outcome column a side may be taken from, with its categories that are
    someone's win: ``{"winner": ("blue", ...), "winner_seat": ("seat1", ...)}``."""
    out = {}
    for column in WINNER_COLUMNS:
        col = game.outcome_columns.get(column)
        if col is not None and col.dtype == "category":
            out[column] = tuple(c for c in col.categories if c not in NOT_A_SIDE)
    return out


def allowed_sides(game) -> str:
    """The text naming what a --side may be: each column's categories."""
    return "; ".join(f"{', '.join(cats)} ({column})"
                     for column, cats in winner_categories(game).items())


def default_categories(game, *rules) -> list[str]:
    """The winner categories a command shows when no side is named: the first side that
    can win (a two-sided game, Victus's players), else every category of the winner (the
    Verrix tribes, whose sides are seats); given ``rules``, those in play under any."""
    categories = winner_categories(game).get("winner", ())
    if rules:
        playing = {c for r in rules for c in game.categories_in_play(r, "winner")}
        categories = tuple(c for c in categories if c in playing)
    first = next((s for s in game.sides if s in categories), None)
    return [first] if first is not None else list(categories)


def resolve_side(game, side: str | None) -> tuple[str, str]:
    """``(column, category)`` for a side, a seat or a winner category (the game's first
    side that can win by default); an unknown name is one line naming what is allowed."""
    every = winner_categories(game)
    if side is None:
        return "winner", default_categories(game)[0]
    for column, categories in every.items():
        if side in categories:
            return column, side
    raise UsageError(f"unknown side {side!r} for {game.name}; allowed: {allowed_sides(game)}")


def seatings(game, rules) -> list:
    """The rules of every cyclic rotation of the seats, rotation 0 the stated one."""
    rotate = getattr(game, "rotate_seats", None)
    if rotate is None:
        raise UsageError(f"{game.name} has no seats to rotate: its sides play different "
                         f"roles (rotate_seats is for games whose seats hold tribes)")
    return [rotate(rules, shift) for shift in range(game.seats_in_play(rules))]
