"""The move pipeline: check -> store (fenced) -> apply -> acknowledge -> broadcast.

The server is authoritative. An action is checked on the table's owner under the table's
lock (turn, version, the rules on a copy of the game), stored in the log under its action
number (with the owner's fencing token when several processes share the database), then
applied, acknowledged to the connection that sent it and broadcast, in that order. A
commit whose outcome is unknown is settled by reading the log back before the table
changes again: stored, it is applied as if the commit had answered; not stored, its sender
was refused. A client id makes an action idempotent: a repeat is answered with the first
``ack``, also after a restart or a takeover (the log keeps the ids).

At a replica (several processes) the owner's stored actions arrive over the bus and are
applied in order (:meth:`MovePipeline.follow`); a gap is filled from the log. An action a
connection sends to a replica goes to the owner (:meth:`.Ownership.execute`); it is
acknowledged before the update it caused, wherever that update is applied first.

This module is the only writer of a table's :class:`~.table.GameLog`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from odin_cards.contract import ActionError, GameState
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.clocks import BOT
from odin_cards.server.core.ports import Clock, EventLog, Fenced, LoggedAction, Metrics
from odin_cards.server.core.protocol.process import Act, Acted, ActionLogged, Answer
from odin_cards.server.core.protocol.server import Ack
from odin_cards.server.core.tables.fanout import FanOut
from odin_cards.server.core.tables.ownership import NotOwner, Ownership
from odin_cards.server.core.tables.sessions import Session
from odin_cards.server.core.tables.table import LiveTable
from odin_cards.server.core.tables.writes import unavailable

log = logging.getLogger(__name__)

REACH_SECONDS = 0.3
"""How long a replica waits for the bus to bring an action its owner answered for, before
it reads the log."""


class Turns(Protocol):
    """The bots' turns (``core/tables/bot_turns.py``), asked after every move."""

    def schedule(self, table: LiveTable) -> None: ...

    def forget(self, table: LiveTable) -> None: ...


class MovePipeline:
    """Every action of every table this process holds goes through here."""

    def __init__(
        self,
        events: EventLog,
        ownership: Ownership,
        fanout: FanOut,
        turns: Turns,
        clock: Clock,
        metrics: Metrics,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        self.events = events
        self.ownership = ownership
        self.fanout = fanout
        self.turns = turns
        self.clock = clock
        self.metrics = metrics
        self.spawn = spawn
        self.awaiting: dict[tuple[str, str], list[Session]] = {}
        """(table, client id) of actions under way -> the sessions to acknowledge: each is
        acknowledged before the update its action caused, here or followed."""
        self.over: list[Callable[[LiveTable], None]] = []
        """Called when a table's game is over here, owner or replica (the directory keeps
        it among its finished tables)."""
        self.finished: list[Callable[[LiveTable], None]] = []
        """Called when a table's last move was applied here (its owner): results and
        ratings hook in; each must return at once (spawn its work)."""
        ownership.commands.on(Act, self._serve)
        ownership.listeners.on(ActionLogged, self._heard)

    # ------------------------------------------------------------ asking

    async def act(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        version: int,
        client_id: str | None,
        reply: Session | None = None,
    ) -> int:
        """One action of ``seat`` at the table's owner; the version after it. ``reply`` is
        acknowledged before the update it caused."""
        key = (table.id, client_id or "")
        waiting = reply if client_id is not None else None
        if waiting is not None:
            self.awaiting.setdefault(key, []).append(waiting)
        try:
            answer = await self.ownership.execute(table, Act(seat, text, version, client_id))
        except DomainError as refusal:
            raise DomainError(refusal.code, refusal.message, refusal.id or client_id) from None
        finally:
            unacknowledged = waiting is not None and self._unawait(key, waiting)
        assert isinstance(answer, Acted)  # (the answer of an Act)
        if unacknowledged and waiting is not None and client_id is not None:
            waiting.send(Ack(client_id, answer.version))  # a repeat, or its update is to come
        if answer.count > table.game.action_count:
            self.spawn(self.reach(table, answer.count))  # a replica shows it soon
        return answer.version

    def _unawait(self, key: tuple[str, str], reply: Session) -> bool:
        """Whether ``reply`` was still waiting for its ack (it stops waiting)."""
        waiting = self.awaiting.get(key)
        if waiting is None or reply not in waiting:
            return False
        waiting.remove(reply)
        if not waiting:
            del self.awaiting[key]
        return True

    async def _serve(self, table: LiveTable, command: Act) -> Answer:
        after = await self.move(table, command.seat, command.action, command.version, command.id)
        return Acted(after, table.game.action_count)

    async def bot_move(
        self, table: LiveTable, seat: int, text: str, version: int, client_id: None
    ) -> int:
        """A bot's move: played only by the table's owner (a replica's bot work is moot).
        A person's seat that a bot took logs its moves ``by`` that bot."""
        by = None if table.seats[seat].bot is not None else BOT
        try:
            return await self.move(table, seat, text, version, client_id, by=by)
        except NotOwner:
            return table.version

    # ------------------------------------------------------------ at the owner

    async def move(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        version: int,
        client_id: str | None,
        by: str | None = None,
    ) -> int:
        """Check, store, apply, acknowledge and broadcast one action (this process owns
        the table, else :class:`NotOwner`); the version after it. ``by`` says who made
        the move for the seat (``LoggedAction.by``)."""
        started = self.clock.monotonic()
        async with table.lock:
            if not self.ownership.owns(table):
                raise NotOwner(table.id)
            await self._settle(table, client_id)
            known = table.log.client_ids.get(client_id) if client_id is not None else None
            if known is not None:
                owner, after = known
                if owner != seat:
                    raise DomainError("malformed", "this id was used by another seat", client_id)
                return after
            trial = self._check(table, seat, text, version, client_id, by)
            game = table.game
            entry = LoggedAction(game.action_count, seat, trial[0], client_id, self.clock.now(), by)
            try:
                await self.events.append(
                    table.id, entry, trial[1].is_over, self.ownership.fence(table)
                )
            except Fenced:
                self.ownership.fenced(table)
                raise NotOwner(table.id) from None
            except Exception as error:
                if isinstance(error, asyncio.CancelledError):
                    raise
                return await self._unknown(table, entry, client_id, error)
            self._apply(table, entry, trial[1])
            self.metrics.action_applied(table.game_key, self.clock.monotonic() - started)
            return table.version

    def _check(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        version: int,
        client_id: str | None,
        by: str | None,
    ) -> tuple[str, GameState]:
        """The action's text and the game after it, or the refusal saying why not."""
        game = table.game
        if table.status == "waiting":
            raise DomainError("not_started", "the game starts when every seat is taken", client_id)
        if game.is_over:
            raise DomainError("game_over", "the game is over", client_id)
        if version != table.version:
            raise DomainError(
                "stale",
                f"the table is at version {table.version}, not {version}: update first",
                client_id,
            )
        mover = game.current_player
        if seat != mover:
            who = (
                table.seats[mover].display(table.game_key) if mover is not None else ""
            ) or f"seat {mover}"
            raise DomainError("not_your_turn", f"it is {who}'s turn", client_id)
        if by is None and table.seats[seat].bot is None and table.bot_at(seat) is not None:
            raise DomainError(
                "not_your_turn", "a bot plays your seat: take it back to play", client_id
            )
        try:
            action = game.parse(text)
        except ActionError as error:
            raise DomainError("malformed", str(error), client_id) from None
        trial = game.clone()
        try:
            trial.apply(action, seat=seat)
        except ActionError as error:
            raise DomainError("illegal", str(error), client_id) from None
        return action.text, trial

    async def _unknown(
        self, table: LiveTable, entry: LoggedAction, client_id: str | None, error: Exception
    ) -> int:
        """The append failed, its outcome unknown (or the store said no): the log decides."""
        log.warning(
            "table %s: storing action %d failed (%s); reading it back",
            table.id,
            entry.number,
            type(error).__name__,
        )
        table.log.pending = entry
        await self._settle(table, client_id)
        if len(table.actions) <= entry.number:
            raise unavailable(client_id) from None
        if client_id is None:
            return table.version
        if client_id not in table.log.client_ids:
            raise DomainError("stale", "the table moved on: update first", client_id) from None
        return table.log.client_ids[client_id][1]

    async def _settle(self, table: LiveTable, client_id: str | None) -> None:
        """Settle an action whose commit's outcome is unknown, by reading the log back.

        Stored: it is applied and broadcast as if the commit had answered (its sender, if
        waiting here, acknowledged). Not stored: it is forgotten (its sender was refused).
        Unreadable now: ``unavailable``, and the table stays as it is until a later try
        settles it.
        """
        entry = table.log.pending
        if entry is None:
            return
        try:
            stored = await self.events.read_back(table.id, entry.number)
        except Exception as error:
            if isinstance(error, asyncio.CancelledError):
                raise
            log.warning("table %s: action %d not settled yet", table.id, entry.number)
            raise unavailable(client_id) from None
        table.log.pending = None
        if stored is None:
            log.info("table %s: action %d was not stored; refused", table.id, entry.number)
            return
        trial = table.game.clone()
        trial.apply(stored.action, seat=stored.seat)
        self._apply(table, stored, trial)
        log.info("table %s: action %d was stored; applied", table.id, entry.number)

    def _apply(self, table: LiveTable, entry: LoggedAction, after: GameState) -> None:
        """Make the stored ``entry`` (already applied to ``after``) the table's move:
        acknowledge it (before its update), tell the replicas, broadcast, go on."""
        since = table.version
        table.log.accept(entry, after)
        self._acknowledge(table, entry)
        self.ownership.applied(table, entry, after.is_over)
        self.fanout.broadcast(table, since)
        if after.is_over:
            table.status = "finished"
            self.fanout.announce(table)
            self.turns.forget(table)
            for hook in self.over + self.finished:
                hook(table)
        self.turns.schedule(table)

    def _acknowledge(self, table: LiveTable, entry: LoggedAction) -> None:
        if entry.client_id is None:
            return
        for reply in self.awaiting.pop((table.id, entry.client_id), ()):
            reply.send(Ack(entry.client_id, table.version))

    def unsettle(self, table: LiveTable) -> None:
        """The table changed hands: an action whose outcome was unknown here is left to
        the log, which its next owner reads."""
        table.log.pending = None

    # ------------------------------------------------------------ at a replica

    async def _heard(self, table: LiveTable, message: ActionLogged) -> None:
        """The owner's next logged action (the bus): a replica applies it in order."""
        if self.ownership.owns(table):
            return
        async with table.lock:
            number = message.entry.number
            if number > table.game.action_count:
                await self.catch_up(table)  # a gap: the log has what was missed
            elif number == table.game.action_count:
                self.follow(table, message.entry)

    def follow(self, table: LiveTable, entry: LoggedAction) -> None:
        """A replica applies its owner's logged ``entry`` (the next one) and shows it to
        its own sessions, each its own view."""
        since = table.version
        table.log.record(entry)
        table.log.followed()
        self._acknowledge(table, entry)
        self.fanout.broadcast(table, since)
        if table.game.is_over and table.status != "finished":
            table.status = "finished"
            self.fanout.announce(table)
            for hook in self.over:
                hook(table)

    async def catch_up(self, table: LiveTable) -> None:
        """Apply the logged actions the replica has not seen (the caller holds its lock;
        raises ``StoreUnavailable``)."""
        missing = await self.events.read_from(table.id, table.game.action_count)
        for entry in missing:
            if entry.number == table.game.action_count:
                self.follow(table, entry)

    async def reach(self, table: LiveTable, count: int) -> None:
        """Make sure the replica shows ``count`` actions soon: the bus normally brings
        them at once; after a short wait the log is read."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REACH_SECONDS
        while table.game.action_count < count:
            left = deadline - loop.time()
            if left <= 0:
                await self.catch_up_quietly(table)
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.log.moved.wait(), left)

    async def catch_up_quietly(self, table: LiveTable) -> None:
        """:meth:`catch_up` under the table's lock; a log that cannot be read is logged."""
        try:
            async with table.lock:
                await self.catch_up(table)
        except Exception as error:
            if isinstance(error, asyncio.CancelledError):
                raise
            log.warning("table %s: could not read the log to catch up; later", table.id)
