"""The core's ports apart from storage: connections, bots, the analyst, processes and time.

A WebSocket connection is an :class:`Outbox` (who listens to which table is the core's
own, ``core/tables/sessions.py``); worker processes implement :class:`BotRunner` and
:class:`Analyst`; several processes reach each other through a :class:`Router` and a
:class:`Bus`; the clock is injected so tests control it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol


class Outbox(Protocol):
    """Where one connection's messages go (the transport's WebSocket): ``send`` never
    waits, the transport queues and bounds what it holds. Whom the connection speaks for
    and what it was sent are the core's, in its session
    (:class:`~odin_cards.server.core.tables.sessions.Session`), never on this object."""

    def send(self, text: str) -> None: ...

    def close(self, code: int) -> None: ...


@dataclass(frozen=True, slots=True)
class BotRequest:
    """What a bot needs to choose a move: the table's game from its definition and log."""

    table_id: str
    seat: int
    level: str
    game: str
    players: int
    setup: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    """Every accepted action's text, in order."""


class BotRunner(Protocol):
    """Where bots think. Shares thinking time fairly between tables: no table can hold the
    workers. ``move`` returns the chosen action's text; a bot that fails or takes too long
    is replaced by a legal stand-in move (logged), so a table never stalls."""

    async def move(self, request: BotRequest) -> str: ...

    def cancel(self, table_id: str) -> None:
        """Drop the table's queued bot work (its table paused, ended or left memory)."""

    def close(self) -> None: ...


class Analyst(Protocol):
    """Where finished games are analysed (issue #13): a worker process away from the event
    loop and from the bot workers (a whole game takes tens of seconds), one game at a time."""

    async def analyse(self, game: str, record: dict[str, Any], iterations: int) -> dict[str, Any]:
        """The analysis of a finished game of ``game`` (its plugin's ``analysis``) from its
        record's dict."""

    def close(self) -> None: ...


class Router(Protocol):
    """Requests to the process that owns a table, with a correlation id and a timeout."""

    async def request(self, process: str, message: dict[str, Any], timeout: float) -> Any:
        """Send ``message`` to ``process`` and return its answer; ``TimeoutError`` if none
        comes in ``timeout`` seconds (the request may or may not have been handled)."""

    def serve(self, handler: RequestHandler) -> None:
        """Answer requests to this process with ``handler`` (each in a task of its own)."""


class Bus(Protocol):
    """Fan-out between processes: each table's changes, in the order they are published,
    to every process that follows the table. At most once: a follower detects a gap by
    the action numbers and reads the log."""

    async def follow(self, table_id: str) -> None:
        """Receive the table's messages (through :meth:`listen`'s handler) from the
        moment this returns on."""

    def unfollow(self, table_id: str) -> None: ...

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every follower of the table (never waits; in order)."""

    def listen(self, handler: BusHandler) -> None:
        """Deliver each received message as ``handler(table_id, message)``, one at a time;
        ``handler(None, {"kind": "resync"})`` after a lost connection (messages may be lost)."""


RequestHandler = Callable[[dict[str, Any]], Awaitable[Any]]
BusHandler = Callable[[str | None, dict[str, Any]], Awaitable[None]]


class Metrics(Protocol):
    """What the core counts for monitoring (Prometheus in production, nothing in tests)."""

    def action_applied(self, game: str, seconds: float) -> None:
        """An action went check -> store -> apply -> ack in ``seconds``."""

    def lease_changed(self, event: str) -> None:
        """``acquired``, ``renewed-lost``, ``released``, ``taken-over`` or ``fenced``."""

    def table_evicted(self) -> None: ...


class Clock(Protocol):
    """Time, injected: the system clock in production, a fake one in tests."""

    def now(self) -> datetime:
        """Aware UTC wall-clock time (stored timestamps, expiry)."""

    def monotonic(self) -> float:
        """Seconds on a monotonic clock (delays, idle times)."""

    async def sleep(self, seconds: float) -> None: ...
