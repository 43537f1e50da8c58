"""Whose turn it is at a person's tables: "My games" lists first those waiting on them.

``Directory.mine`` answers with the tables a person's seat tokens hold; each entry gets the
seat to move, the seats those tokens hold, and whether one of them is to move. Whose turn
it is is public (every spectator sees it); the seats held are the asker's own.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from odin_cards.server.core.tables.table import LiveTable


def turn_entry(
    table: LiveTable, view: dict[str, Any], token_hashes: Collection[str]
) -> dict[str, Any]:
    """``table`` as the lobby shows it (``view``), with ``to_move``, ``my_seats`` and
    ``my_turn``."""
    entry = view
    held = [
        s.seat for s in table.seats if s.token_hash is not None and s.token_hash in token_hashes
    ]
    playing = entry["status"] == "playing" and not table.game.is_over
    to_move = table.game.current_player if playing else None
    entry["to_move"] = to_move
    entry["my_seats"] = held
    entry["my_turn"] = to_move is not None and to_move in held
    return entry


def my_turns_first(entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tables where it is my turn first; otherwise the order is kept (newest first)."""
    return sorted(entries, key=lambda entry: not entry["my_turn"])
