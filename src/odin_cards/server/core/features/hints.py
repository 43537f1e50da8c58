"""Hints on request (issue #13): the strongest bot's move for the seat to move, if the table
allows hints (``settings["hints"]``, off unless its creator turned them on).

A hint is thought by the bot workers (:class:`~.ports.BotRunner`) exactly like a bot's move
in that seat: the worker rebuilds the game and shows the bot only that seat's view, so a
hint can never reveal another hand. Only the seat's player (by token) may ask, only on its
turn. One hint is thought per position of a table (asking again, or twice at once, gets
the same answer), so a player cannot make the workers think more than a bot seat would.
A hint changes nothing at the table, so any process that holds the table answers it.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from odin_cards.games import plugin_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.bot_work import BotWork
from odin_cards.server.core.people.ratings import is_rated
from odin_cards.server.core.ports import BotRequest, BotRunner
from odin_cards.server.core.tables.table import LiveTable

KEPT = 1_000
"""Most tables whose last hint is remembered (the oldest is forgotten first)."""

QUEUE_SUFFIX = "~hint"
"""The bot runner queues work by table id: a hint gets its own place, apart from the
table's bot moves (a hint must not cancel a bot's move, nor a bot's move a hint)."""


def hints_setting(value: Any, rated: bool = False) -> bool:
    """The normalized ``settings["hints"]`` of a new table (absent: off), or
    ``bad_options``. A rated table never gives hints: a rating must measure the player,
    not the strongest bot whispering to them."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise DomainError("bad_options", "hints is true or false")
    if value and rated:
        raise DomainError("bad_options", "a rated table gives no hints")
    return value


class TableHints:
    """Asks the bot workers for hints; remembers each table's last one."""

    def __init__(self, bots: BotRunner, bot_work: BotWork | None = None) -> None:
        self.bots = bots
        self.bot_work = bot_work
        """Each hint thought draws on the player's and the address's bot work."""
        self._hints: OrderedDict[str, tuple[int, asyncio.Future[str]]] = OrderedDict()
        """Table id -> (action count, the hint for that position, thought or being thought)."""

    async def hint(
        self, table: LiveTable, token: str, address: str | None = None
    ) -> dict[str, Any]:
        """``{"seat", "version", "level", "action"}``: the move the strongest level would
        make for the token's seat, which must be the seat to move at a table with hints.
        A new search draws on the bot work of ``address`` and of the seat's account."""
        if not table.settings.get("hints") or is_rated(table.settings):
            raise DomainError("hints_off", "this table was created without hints")
        seat = table.seat_of(token)
        if seat is None:
            raise DomainError("unauthorized", "only a player of this table gets hints")
        if table.status != "playing":
            code = "game_over" if table.status == "finished" else "not_started"
            raise DomainError(code, "hints are given while the game is played")
        if table.game.current_player != seat:
            raise DomainError("not_your_turn", "a hint is for the seat to move")
        level = plugin_of(table.game_key).hint()
        if level is None:
            raise DomainError("hints_off", "this game has no bot to give hints")
        count = len(table.actions)
        version = table.version
        known = self._hints.get(table.id)
        if known is None or known[0] != count:
            if self.bot_work is not None:
                self.bot_work.hint(address, table.seats[seat].account_id)
            request = BotRequest(
                table.id + QUEUE_SUFFIX,
                seat,
                level,
                table.game_key,
                table.players,
                table.setup,
                table.seed,
                tuple(table.actions),
            )
            known = (count, asyncio.ensure_future(self.bots.move(request)))
            self._hints[table.id] = known
            while len(self._hints) > KEPT:
                self._hints.popitem(last=False)
        self._hints.move_to_end(table.id)
        try:
            action = await asyncio.shield(known[1])
        except asyncio.CancelledError:
            if not known[1].cancelled():
                raise  # this request itself was cancelled
            raise DomainError("stale", "the game moved on before the hint was ready") from None
        return {"seat": seat, "version": version, "level": level, "action": action}

    def forget(self, table_id: str) -> None:
        """Drop the table's hint (its table left memory)."""
        known = self._hints.pop(table_id, None)
        if known is not None and not known[1].done():
            known[1].cancel()
            self.bots.cancel(table_id + QUEUE_SUFFIX)


__all__ = ["KEPT", "QUEUE_SUFFIX", "TableHints", "hints_setting"]
