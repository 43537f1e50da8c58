"""Which games an arena run plays: seeded deal sets, each replayed in every seat rotation.

A *deal set* is one game seed: it fixes every draw of chance of a whole game (in Odin,
every hand's cards and the first leader), whoever sits where. Each deal set is played
once per rotation, with the entrants moved one seat further each time, so every entrant
plays every seat's cards of every deal exactly as often as the others and the luck of
the deal cancels.

With ``k`` entrants at ``P >= k`` seats, seat ``s`` of rotation ``r`` is taken by entrant
``(s + r) % k``: for two bots heads-up, both orders; for ``k == P``, the ``k`` cyclic
rotations (the order around the table stays the same); for ``k < P``, entrants hold
several seats, and over the ``k`` rotations each seat is held by each entrant once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from odin_cards.tools.arena.entrants import ArenaError


@dataclass(frozen=True, slots=True)
class Match:
    """One game of the schedule."""

    deal: int
    """Index of the deal set (0-based)."""
    rotation: int
    seed: str
    """The game seed shared by every rotation of this deal set."""
    lineup: tuple[int, ...]
    """Entrant index per seat."""
    chance: tuple[Any, ...] = ()
    """Draws of chance injected into the game (the contract's ``chance``; Odin: hands, seat
    -> card codes), as an evaluation set fixes them; later draws come from ``seed``."""


def lineups(entrants: int, players: int) -> list[tuple[int, ...]]:
    """The seat assignments of one deal set, one per rotation."""
    if entrants < 2:
        raise ArenaError("an arena needs at least two bots")
    if entrants > players:
        raise ArenaError(f"{entrants} bots do not fit at {players} seats: use --players {entrants}")
    return [tuple((seat + r) % entrants for seat in range(players)) for r in range(entrants)]


def deal_seed(seed: int, deal: int) -> str:
    return f"arena:{seed}:{deal}"


def schedule(entrants: int, players: int, games: int, seed: int) -> list[Match]:
    """Matches for at least ``games`` games: whole deal sets, in (deal, rotation) order."""
    if games < 1:
        raise ArenaError(f"the number of games must be at least 1, not {games}")
    rotations = lineups(entrants, players)
    deals = -(-games // len(rotations))
    return [
        Match(deal, rotation, deal_seed(seed, deal), lineup)
        for deal in range(deals)
        for rotation, lineup in enumerate(rotations)
    ]
