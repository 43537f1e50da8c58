"""Finished games analysed for their replay page (issue #13), cached per table.

``GET /api/tables/{id}/analysis`` asks :meth:`TableAnalyses.status`: the analysis if it is
ready, else it is started (or left running) and the client asks again later. Only finished
tables are analysed (a running game's record holds every hand). The work runs in the
:class:`~.ports.Analyst` (one worker, one game at a time); at most :data:`WAITING` games
wait for it (more is ``analysis_busy``), and the last :data:`CACHED` analyses are kept in
this process's memory (least recently asked dropped first; each is tens of KiB). A failed
analysis is not kept: asking again tries again.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any, Final

from odin_cards.games import plugin_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.bot_work import BotWork
from odin_cards.server.core.ports import Analyst
from odin_cards.server.core.tables.table import LiveTable

log = logging.getLogger(__name__)

ITERATIONS: Final = 100
"""Search iterations per decision: a 4-player game to 15 points takes about half a minute."""
CACHED: Final = 64
"""Analyses kept in memory."""
WAITING: Final = 8
"""Most games being analysed or waiting to be."""


class TableAnalyses:
    """The analyses of finished tables: computed once, kept in a bounded cache."""

    def __init__(
        self,
        analyst: Analyst,
        iterations: int = ITERATIONS,
        bot_work: BotWork | None = None,
        per_address: int = WAITING,
    ) -> None:
        self.analyst = analyst
        self.iterations = iterations
        self.bot_work = bot_work
        """Each analysis started draws on the address's bot work."""
        self.per_address = per_address
        """Analyses one address may have under way or waiting at once."""
        self._done: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._pending: dict[str, asyncio.Task[None]] = {}
        self._asked_by: dict[str, str | None] = {}
        """Table id -> the address that started its pending analysis."""

    def status(self, table: LiveTable, address: str | None = None) -> dict[str, Any] | None:
        """The table's analysis, or ``None`` while it is being computed (started now if
        it was not, for ``address``: at most ``per_address`` of its analyses at once, each
        drawing on its bot work). Refuses a table that is not finished, or of a game that
        is not analysed (its plugin names no ``analysis``)."""
        if table.status != "finished":
            raise DomainError("running", "a game is analysed once it is over")
        if plugin_of(table.game_key).analysis is None:
            raise DomainError("bad_game", "games of this kind are not analysed")
        done = self._done.get(table.id)
        if done is not None:
            self._done.move_to_end(table.id)
            return done
        if table.id not in self._pending:
            if len(self._pending) >= WAITING:
                raise DomainError("analysis_busy", "many games are being analysed; try later")
            if address is not None:
                mine = sum(1 for asker in self._asked_by.values() if asker == address)
                if mine >= self.per_address:
                    raise DomainError(
                        "analysis_busy",
                        f"{mine} analyses you asked for are under way; wait until they are done",
                    )
                if self.bot_work is not None:
                    self.bot_work.analysis(address, None)
            record = table.game.record().to_dict()
            self._asked_by[table.id] = address
            self._pending[table.id] = asyncio.ensure_future(
                self._run(table.id, table.game_key, record)
            )
        return None

    async def result(self, table: LiveTable) -> dict[str, Any]:
        """The table's analysis, waiting for it (tests, tools)."""
        done = self.status(table)
        if done is not None:
            return done
        await asyncio.shield(self._pending[table.id])
        done = self._done.get(table.id)
        if done is None:
            raise DomainError("unavailable", "the analysis failed; try again later")
        return done

    async def _run(self, table_id: str, game: str, record: dict[str, Any]) -> None:
        try:
            analysis = await self.analyst.analyse(game, record, self.iterations)
        except Exception as error:  # logged and forgotten: the next request tries again
            log.error("the analysis of table %s failed (%s)", table_id, type(error).__name__)
        else:
            self._done[table_id] = analysis
            while len(self._done) > CACHED:
                self._done.popitem(last=False)
        finally:
            del self._pending[table_id]
            self._asked_by.pop(table_id, None)

    def close(self) -> None:
        """Stop: analyses under way are abandoned."""
        for task in self._pending.values():
            task.cancel()


__all__ = ["CACHED", "ITERATIONS", "WAITING", "TableAnalyses"]
