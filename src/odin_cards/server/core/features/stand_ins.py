"""Games that never stall: the clock's timers, stand-in moves, bots taking people's seats.

Runs on the table's owner (the only process that writes a table). After every change of a
timed table (:mod:`.clocks`) it sets one timer, for the deadline of the seat to move; when
the timer fires and the seat has still not moved, a *stand-in* (the game's ``heuristic``
bot, through the bot runner) makes the move, logged with ``by = "stand-in"`` and the
client id ``stand-in:<action number>``: the log stores one action under a number and one
under a client id, so a stand-in can never move twice, whichever process or restart fires
the timer again. The deadline follows from stored rows only, so a new owner sets the same
timer after a restart or a takeover.

After :data:`~.clocks.MISSED_LIMIT` missed moves in a row, or when the person leaves
(:meth:`StandIns.leave`), a bot takes the seat for the rest of the game (stored in
``TableRecord.clock["bots"]``; its moves are logged ``by = "bot"``), shown as "bot for
<name>". The person takes the seat back with their seat's token (:meth:`StandIns.take_back`).
Without a clock, the other players vote to hand an absent player's seat to a bot
(:meth:`StandIns.vote`): absent means offline in :mod:`.presence`; a vote passes with more
than half of the other people at the table, and is forgotten when the seat comes back.

Every change is announced to the table's connections as a ``clock`` message (the seat to
move, its deadline and the server's time, so a page corrects its own clock's skew).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any, Protocol

from odin_cards.games import plugin_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features import clocks
from odin_cards.server.core.ports import (
    BotRequest,
    BotRunner,
    Clock,
    StoredTable,
    StoreUnavailable,
    TableStore,
)
from odin_cards.server.core.protocol.process import (
    Answer,
    Command,
    Done,
    Leave,
    State,
    TakeBack,
    Vote,
)
from odin_cards.server.core.protocol.server import ClockShown, encode
from odin_cards.server.core.tables.ownership import Commands, NotOwner
from odin_cards.server.core.tables.sessions import Session
from odin_cards.server.core.tables.table import LiveTable

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""Pause before a stand-in tries again when its move could not be stored."""

WHY = ("missed", "left", "vote")
"""Why a bot took a person's seat."""


def stand_in_level(game: str) -> str:
    """The bot level that stands in (``GamePlugin.stand_in_level``); a game without bots
    names none, and the bot runner answers with a random legal move."""
    return plugin_of(game).stand_in_level() or ""


def clock_view(table: LiveTable, now: datetime) -> dict[str, Any]:
    """The ``clock`` message's body: the setting, the turn's deadline, the seats' state."""
    control = clocks.control_of(table.settings)
    mover = table.game.current_player if table.status == "playing" else None
    if mover is not None and table.bot_at(mover) is not None:
        mover = None
    started = _started(table)
    turn = clocks.turn(control, table.players, started, table.stamps, mover)
    last = table.stamps[-1] if table.stamps else None
    return {
        **control,
        "now": now.isoformat(),
        "seat": None if turn is None else turn.seat,
        "deadline": None if turn is None else turn.deadline.isoformat(),
        "reserves": None if turn is None or control["kind"] != "realtime" else turn.reserves,
        "bots": table.clock.get("bots", {}),
        "stand_ins": clocks.stand_ins(table.stamps, table.players),
        "last": None if last is None else {"seat": last.seat, "by": last.by},
        "votes": {str(seat): sorted(voters) for seat, voters in table.votes.items()},
    }


def moves_by(table: LiveTable) -> list[dict[str, Any]]:
    """The record's list of moves not made by their seat's person: each action's number,
    seat and ``by`` (``stand-in`` or ``bot``). Older tables have none."""
    return [
        {"number": number, "seat": stamp.seat, "by": stamp.by}
        for number, stamp in enumerate(table.stamps)
        if stamp.by is not None
    ]


def _started(table: LiveTable) -> datetime | None:
    text = table.clock.get("started")
    return datetime.fromisoformat(text) if isinstance(text, str) else None


class StandInsContext(Protocol):
    """What clocks and stand-ins need of the core: time, spawning, the bot runner, the
    table store (settled writes), the owner, the move pipeline, the bots' turns, the
    sessions and the presence of a table's seats."""

    clock: Clock
    bots: BotRunner
    store: TableStore

    @property
    def commands(self) -> Commands: ...

    def spawn(self, work: Coroutine[Any, Any, None]) -> None: ...

    def owns(self, table: LiveTable) -> bool: ...

    def held(self, table: LiveTable) -> bool: ...

    async def execute(self, table: LiveTable, command: Command) -> Answer: ...

    async def write(
        self,
        write: Coroutine[Any, Any, None],
        table_id: str,
        holds: Callable[[StoredTable], bool],
    ) -> None: ...

    def announce(self, table: LiveTable) -> None: ...

    def sessions_at(self, table: LiveTable) -> tuple[Session, ...]: ...

    async def move(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        version: int,
        client_id: str | None,
        by: str | None = None,
    ) -> int: ...

    def schedule(self, table: LiveTable) -> None: ...

    def again(self, table: LiveTable) -> None: ...

    def seat_presence(self, table: LiveTable, seat: int) -> State: ...


class StandIns:
    """Clocks, stand-ins and seats handed to bots (commands ``Leave``, ``TakeBack`` and
    ``Vote``)."""

    def __init__(self, context: StandInsContext, bot_deadline: float) -> None:
        self.context = context
        self.bot_deadline = bot_deadline
        context.commands.on(Leave, self._leave)
        context.commands.on(TakeBack, self._take_back)
        context.commands.on(Vote, self._vote)
        self.timers: dict[str, tuple[int, asyncio.Task[None]]] = {}
        """Table id -> (action number the timer is for, its task)."""
        self._random = random.Random()

    # ------------------------------------------------------------ timers

    def schedule(self, table: LiveTable) -> None:
        """Set the timer of the seat to move (the owner only); drop one that is moot."""
        control = clocks.control_of(table.settings)
        if table.status != "playing" or not clocks.timed(control) or not self.context.owns(table):
            self.forget(table.id)
            return
        if _started(table) is None:
            self._store_start(table)
            return
        mover = table.game.current_player
        if mover is None or table.bot_at(mover) is not None:
            self.forget(table.id)
            return
        number = table.game.action_count
        back = int(table.clock.get("back", {}).get(str(mover), 0))  # (misses before count not)
        if clocks.missed_in_a_row(table.stamps[back:], mover) >= clocks.MISSED_LIMIT:
            self.forget(table.id)
            self.context.spawn(self._hand_quietly(table, mover, "missed"))
            return
        held = self.timers.get(table.id)
        if held is not None and held[0] == number and not held[1].done():
            return
        self.forget(table.id)
        task = asyncio.ensure_future(self._timer(table, number))
        self.timers[table.id] = (number, task)

    def forget(self, table_id: str) -> None:
        """Drop the table's timer (it left memory, or its clock has nothing to wait for)."""
        held = self.timers.pop(table_id, None)
        if held is not None:
            held[1].cancel()

    def stop(self) -> None:
        for _, task in self.timers.values():
            task.cancel()
        self.timers.clear()

    def _store_start(self, table: LiveTable) -> None:
        """The game of a timed table started (now): store it, then set the first timer."""
        table.clock = {**table.clock, "started": self.context.clock.now().isoformat()}
        self.context.spawn(self._save_then_schedule(table))

    async def _save_then_schedule(self, table: LiveTable) -> None:
        try:
            await self.context.store.save_clock(table.id, table.clock)
        except StoreUnavailable:
            # The timer runs from the time in memory; a restart before it is stored
            # starts the first turn again (nothing was played yet).
            log.warning("table %s: the clock's start was not stored", table.id)
        self.context.announce(table)  # (replicas learn the start with the table's record)
        self.schedule(table)

    async def _timer(self, table: LiveTable, number: int) -> None:
        clock = self.context.clock
        while True:
            mover = table.game.current_player
            if table.game.action_count != number or mover is None:
                return
            started = _started(table)
            control = clocks.control_of(table.settings)
            turn = clocks.turn(control, table.players, started, table.stamps, mover)
            if turn is None:
                return
            left = (turn.deadline - clock.now()).total_seconds()
            if left <= 0:
                break
            await clock.sleep(left)
        if not self.context.held(table) or not self.context.owns(table):
            return
        await self._stand_in(table, turn.seat, number)

    async def _stand_in(self, table: LiveTable, seat: int, number: int) -> None:
        """The seat's clock ran out: a stand-in moves for it (once: see the module doc)."""
        text = await self._choice(table, seat)
        if text is None or table.game.action_count != number:
            return
        try:
            await self.context.move(
                table, seat, text, table.version, f"stand-in:{number}", by=clocks.STAND_IN
            )
        except DomainError as refusal:
            if refusal.code != "unavailable":
                log.info("table %s: stand-in move refused (%s)", table.id, refusal.code)
                return
            log.warning("table %s: stand-in move not stored; trying again", table.id)
            await self.context.clock.sleep(RETRY_SECONDS)
            self.timers.pop(table.id, None)
            self.schedule(table)
        except NotOwner:
            log.info("table %s: stand-in not played here: another process owns it", table.id)

    async def _choice(self, table: LiveTable, seat: int) -> str | None:
        """The stand-in's move: the bot runner's, or a random legal one if it fails,
        takes longer than ``bot_deadline`` or is dropped."""
        request = BotRequest(
            table.id,
            seat,
            stand_in_level(table.game_key),
            table.game_key,
            table.players,
            table.setup,
            table.seed,
            tuple(table.actions),
        )
        move = asyncio.ensure_future(self.context.bots.move(request))
        deadline = asyncio.ensure_future(self.context.clock.sleep(self.bot_deadline))
        try:
            await asyncio.wait({move, deadline}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            deadline.cancel()
        if move.done() and not move.cancelled() and move.exception() is None:
            return move.result()
        if not move.done():
            move.cancel()
        # Failed, too slow, or dropped (the table paused its bots): the turn still ends.
        legal = list(table.game.legal_actions())
        return self._random.choice(legal).text if legal else None

    # ------------------------------------------------------------ requests

    async def leave(self, table: LiveTable, token: str) -> None:
        """The token's person leaves the game: a bot takes the seat (they may take it back)."""
        await self.context.execute(table, Leave(_seat_of(table, token)))

    async def take_back(self, table: LiveTable, token: str) -> None:
        """The token's person takes their seat back from the bot playing it."""
        await self.context.execute(table, TakeBack(_seat_of(table, token)))

    async def vote(self, table: LiveTable, token: str, seat: int) -> None:
        """The token's person votes to hand the absent ``seat`` to a bot."""
        voter = _seat_of(table, token)
        if not 0 <= seat < table.players:
            raise DomainError("no_seat", f"this table has seats 0 to {table.players - 1}")
        await self.context.execute(table, Vote(seat, voter))

    async def _leave(self, table: LiveTable, command: Leave) -> Answer:
        await self.hand_here(table, command.seat, "left")
        return Done()

    async def _take_back(self, table: LiveTable, command: TakeBack) -> Answer:
        await self.take_back_here(table, command.seat)
        return Done()

    async def _vote(self, table: LiveTable, command: Vote) -> Answer:
        await self.vote_here(table, command.voter, command.seat)
        return Done()

    # ------------------------------------------------------------ seats to bots

    async def _hand_quietly(self, table: LiveTable, seat: int, why: str) -> None:
        try:
            await self.hand_here(table, seat, why)
        except DomainError as refusal:
            log.info("table %s: seat %d not handed to a bot (%s)", table.id, seat, refusal.code)
        except NotOwner:
            log.info("table %s: seat %d not handed here: another process owns it", table.id, seat)

    async def hand_here(self, table: LiveTable, seat: int, why: str) -> None:
        """A bot takes ``seat`` for the rest of the game (this process owns the table)."""
        async with table.lock:
            if not self.context.owns(table):
                raise NotOwner(table.id)
            self._check_playing(table)
            if table.bot_at(seat) is not None:
                return  # a bot plays it already
            bots = {**table.clock.get("bots", {})}
            bots[str(seat)] = {"level": stand_in_level(table.game_key), "why": why}
            await self._save(table, {**table.clock, "bots": bots})
            table.votes.pop(seat, None)
        log.info("table %s: a bot took seat %d (%s)", table.id, seat, why)
        self._changed(table)

    async def take_back_here(self, table: LiveTable, seat: int) -> None:
        """The person takes their seat back from its bot (this process owns the table)."""
        async with table.lock:
            if not self.context.owns(table):
                raise NotOwner(table.id)
            self._check_playing(table)
            bots = {**table.clock.get("bots", {})}
            if bots.pop(str(seat), None) is None:
                raise DomainError("not_handed", "no bot plays this seat: it is yours already")
            back = {**table.clock.get("back", {}), str(seat): len(table.stamps)}
            await self._save(table, {**table.clock, "bots": bots, "back": back})
        self._changed(table)

    async def vote_here(self, table: LiveTable, voter: int, seat: int) -> None:
        """``voter`` votes to hand the absent ``seat`` to a bot (a table without a clock)."""
        async with table.lock:
            if not self.context.owns(table):
                raise NotOwner(table.id)
            self._check_playing(table)
            if clocks.timed(clocks.control_of(table.settings)):
                raise DomainError(
                    "bad_vote", "this table has a clock: a stand-in moves for an absent player"
                )
            if not 0 <= seat < table.players or table.seats[seat].name is None:
                raise DomainError("bad_vote", "only a person's seat can be handed to a bot")
            if seat == voter:
                raise DomainError("bad_vote", "to give your own seat to a bot, leave the table")
            if table.bot_at(seat) is not None:
                raise DomainError("bad_vote", "a bot plays this seat already")
            if self.context.seat_presence(table, seat) != "offline":
                raise DomainError("bad_vote", "this player is here: a vote is for absent ones")
            if seat not in table.votes:  # (votes cast before the seat came back are void)
                table.votes = {
                    s: v
                    for s, v in table.votes.items()
                    if s == seat or self.context.seat_presence(table, s) == "offline"
                }
            voters = table.votes.setdefault(seat, set())
            voters.add(voter)
            others = [p for p in table.people if p != seat and table.bot_at(p) is None]
            passed = 2 * len(voters & set(others)) > len(others)
        if passed:
            await self.hand_here(table, seat, "vote")
        else:
            self.context.announce(table)

    def _check_playing(self, table: LiveTable) -> None:
        if table.status == "waiting":
            raise DomainError("not_started", "the game starts when every seat is taken")
        if table.status != "playing" or table.game.is_over:
            raise DomainError("game_over", "the game is over")

    async def _save(self, table: LiveTable, clock: dict[str, Any]) -> None:
        """Store the table's new clock facts, then hold them (``unavailable`` if not)."""
        await self.context.write(
            self.context.store.save_clock(table.id, clock),
            table.id,
            lambda stored: stored.table.clock == clock,
        )
        table.clock = clock

    def _changed(self, table: LiveTable) -> None:
        """The seats' players changed: tell everyone (``table`` and ``clock`` messages,
        replicas through the bus), and let the right one move."""
        self.context.announce(table)
        self.context.again(table)
        self.context.schedule(table)

    # ------------------------------------------------------------ telling

    def message(self, table: LiveTable) -> str:
        return encode(ClockShown(clock_view(table, self.context.clock.now())))

    def announce(self, table: LiveTable) -> None:
        """Send every connection of the table its clock (after each change)."""
        listeners = self.context.sessions_at(table)
        if not listeners or not _shown(table):
            return
        text = self.message(table)
        for session in listeners:
            session.send_text(text)

    def greet(self, session: Session, table: LiveTable) -> None:
        if _shown(table):
            session.send_text(self.message(table))


def _shown(table: LiveTable) -> bool:
    """Whether the table has anything for a ``clock`` message: a clock, a seat a bot
    took, a vote (a table without any of them is never sent one)."""
    control = clocks.control_of(table.settings)
    return clocks.timed(control) or bool(table.clock.get("bots")) or bool(table.votes)


def _seat_of(table: LiveTable, token: str) -> int:
    seat = table.seat_of(token)
    if seat is None:
        raise DomainError("unauthorized", "this token holds no seat at this table")
    return seat
