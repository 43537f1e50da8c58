"""``odin replay`` of a record of In the Name of Odin (:data:`odin_cards.plugin.Replay`):
every public event in the game's words (:mod:`.words`), one a line."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rich.text import Text

from odin_cards.contract import GameState
from odin_cards.name_of_odin.play.words import event_lines
from odin_cards.plugin import FlagError


def replay(
    game: GameState, record: Mapping[str, Any], names: Sequence[str] | None, deals: bool
) -> Iterator[Any]:
    """What ``odin replay`` prints, line by line (its decks are drawn as the game goes:
    there are no deals to show)."""
    if deals:
        raise FlagError("--deals", "name-of-odin has no deals to show")
    yield Text(f"name-of-odin, {game.players} players", style="bold")
    if names is not None:
        yield Text("seats: " + ", ".join(f"{s} {n}" for s, n in enumerate(names)))
    labels = list(names) if names is not None else [f"seat {s}" for s in range(game.players)]
    for line in event_lines(game.public_events(), labels):
        yield Text(line)


__all__ = ["replay"]
