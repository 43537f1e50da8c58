"""When bot seats move: one move per version, paused while nobody cares, never stalled.

Bots think in the :class:`~.ports.BotRunner`; this module decides when to ask it, and
what happens when it fails. A table of bots only that nobody watches does not ask; a
table whose people have all been gone for ``bot_idle`` seconds does not ask either; both
ask again when someone comes (:meth:`BotTurns.schedule` from ``hello``). A bot that
fails, or does not answer within ``bot_deadline``, is replaced by a random legal move.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import BotRequest, BotRunner, Clock
from odin_cards.server.core.tables.ownership import Ownership
from odin_cards.server.core.tables.sessions import Sessions
from odin_cards.server.core.tables.table import LiveTable
from odin_cards.server.settings import Settings

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""How long a bot waits before it tries again when its move could not be stored."""

DROPPED = "\x00dropped"
"""What :meth:`BotTurns._choice` answers for a move the runner dropped (no action text)."""

Act = Callable[[LiveTable, int, str, int, None], Awaitable[int]]
"""The move pipeline's ``bot_move``: table, seat, action, version, no client id."""


class BotTurns:
    """Asks the bot runner for the moves of bot seats and plays them through ``act``."""

    def __init__(
        self,
        runner: BotRunner,
        sessions: Sessions,
        ownership: Ownership,
        clock: Clock,
        settings: Settings,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        self.runner = runner
        self.sessions = sessions
        self.ownership = ownership
        self.clock = clock
        self.settings = settings
        self.spawn = spawn
        self.act: Act | None = None
        """How a bot's move is played (the move pipeline's ``bot_move``)."""
        self._random = random.Random()
        self.clocks: Callable[[LiveTable], None] | None = None
        """The clock's own scheduling (:mod:`.stand_ins`), asked first on every change."""
        self._asked: dict[str, int] = {}
        """Table -> the version a bot move was scheduled for (one bot move per version)."""
        self._seen: dict[str, float] = {}
        """Table -> monotonic time a person was last connected (or it was made or loaded)."""

    def saw_person(self, table: LiveTable) -> None:
        """A person is (or was just) connected to the table, here or at another process."""
        self._seen[table.id] = self.clock.monotonic()

    def paused(self, table: LiveTable) -> bool:
        """Bots wait while nobody watches a table of bots only, or while no person has
        been connected to a table of people for longer than ``bot_idle``."""
        listeners = self.sessions.at(table.id)
        people_elsewhere, watchers_elsewhere = self.ownership.elsewhere(table)
        if not table.people:
            return not listeners and not watchers_elsewhere
        if people_elsewhere or any(s.seat is not None for s in listeners):
            return False
        seen = self._seen.get(table.id, 0.0)
        return self.clock.monotonic() - seen > self.settings.bot_idle

    def schedule(self, table: LiveTable) -> None:
        """If a bot is to move at ``table`` and the table is not paused, let it move once."""
        if self.clocks is not None:
            self.clocks(table)
        game = table.game
        if table.status != "playing" or game.is_over or not self.ownership.owns(table):
            return  # (an unsettled action is settled by the bot's own act, first thing)
        seat = game.current_player
        if seat is None:
            return
        level = table.bot_at(seat)
        if level is None or self._asked.get(table.id) == table.version or self.paused(table):
            return
        self._asked[table.id] = table.version
        self.spawn(self._turn(table, seat, level, table.version))

    def again(self, table: LiveTable) -> None:
        """The table's seats or owner changed: the bot to move is asked again."""
        self._asked.pop(table.id, None)

    def forget(self, table: LiveTable) -> None:
        """Drop the table's queued bot work (paused, over, or leaving memory)."""
        self.runner.cancel(table.id)

    def drop(self, table_id: str) -> None:
        """The table left memory."""
        self.runner.cancel(table_id)
        self._asked.pop(table_id, None)
        self._seen.pop(table_id, None)

    async def _turn(self, table: LiveTable, seat: int, level: str, version: int) -> None:
        delay = self.settings.bot_delay
        pause = self._random.uniform(delay * 2 / 3, delay * 4 / 3) if delay > 0 else 0.0
        request = BotRequest(
            table.id,
            seat,
            level,
            table.game_key,
            table.players,
            table.setup,
            table.seed,
            tuple(table.actions),
        )
        action, _ = await asyncio.gather(self._choice(request), self.clock.sleep(pause))
        if action == DROPPED:
            if self._asked.get(table.id) == version:
                del self._asked[table.id]  # asked again when the table resumes
            return
        for attempt in (action, None):
            if table.version != version:
                return  # the table moved on
            text = attempt or self._stand_in(table)
            try:
                assert self.act is not None
                await self.act(table, seat, text, version, None)
                return
            except DomainError as refusal:
                if refusal.code == "unavailable":
                    break
                log.error(
                    "bot move at table %s refused (%s); a random move stands in",
                    table.id,
                    refusal.code,
                )
        else:
            return
        log.error("bot move at table %s not stored; trying again", table.id)
        await self.clock.sleep(RETRY_SECONDS)
        if self._asked.get(table.id) == version:
            del self._asked[table.id]
            self.schedule(table)

    async def _choice(self, request: BotRequest) -> str | None:
        """The bot runner's move, or ``None`` if it failed or passed the deadline, or
        :data:`DROPPED` if the runner dropped it (:meth:`forget`)."""
        move = asyncio.ensure_future(self.runner.move(request))
        deadline = asyncio.ensure_future(self.clock.sleep(self.settings.bot_deadline))
        try:
            await asyncio.wait({move, deadline}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            deadline.cancel()
        if not move.done():
            move.cancel()
            log.error(
                "the %s bot at table %s took over %s s; a random move stands in",
                request.level,
                request.table_id,
                self.settings.bot_deadline,
            )
            return None
        if move.cancelled():
            return DROPPED
        try:
            return move.result()
        except Exception as error:
            log.error(
                "the %s bot at table %s failed (%s); a random move stands in",
                request.level,
                request.table_id,
                type(error).__name__,
            )
            return None

    def _stand_in(self, table: LiveTable) -> str:
        return self._random.choice(list(table.game.legal_actions())).text
