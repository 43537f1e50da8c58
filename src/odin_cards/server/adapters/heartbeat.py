"""A process's heartbeat, renewed from a thread of its own.

A server under load can hold its event loop for a second or more at a time, and its
database pool can be busy with the writes of a thousand tables. Renewed from the event
loop, through that pool, a heartbeat of a few seconds then expires while the process is
perfectly alive: another process takes its tables over, its connections are still here,
the tables are handed back, and both processes spend their time passing tables to and
fro. So the heartbeat is renewed from this thread, on its own connection and its own
event loop, on time whatever the server's loop is doing.

A thread that renews on its own must not keep a wedged process alive for ever: the server's
loop *ticks* the thread (:meth:`HeartbeatThread.tick`) every time it would have renewed,
and the thread stops renewing, and ends, once no tick came for ``watchdog`` seconds. The
leases then expire as if the process had died. Safety never depends on this thread: a
process that lost its lease cannot write (the fencing token), whatever its heartbeat says.

The thread also says when it last renewed (:meth:`HeartbeatThread.renewed_ago`): while its
renewals fail or hang it has not yet *seen* the heartbeat expire, so the caller must not take
"nothing lost yet" for "still alive" once a whole lease has passed without a renewal.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

log = logging.getLogger(__name__)

Beat = Callable[[AsyncEngine], Awaitable[bool]]
"""One renewal on the given engine: ``True`` if the heartbeat was extended, ``False`` if it
had expired and was registered again (the process's tables may have been taken over)."""


class HeartbeatThread(threading.Thread):
    """Calls ``beat`` every ``period`` seconds while the server's loop keeps ticking."""

    def __init__(
        self,
        url: sa.URL,
        beat: Beat,
        period: float,
        watchdog: float,
        renewed: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``renewed``: when (by ``clock``) the last renewal before this thread started."""
        super().__init__(name="odin-heartbeat", daemon=True)
        self.url = url
        self.beat = beat
        self.period = period
        self.watchdog = watchdog
        self._clock = clock
        self._ticked = clock()
        self._renewed = renewed
        self._lost = False
        self._lock = threading.Lock()
        self._stopping = threading.Event()

    def tick(self) -> None:
        """The server's loop is alive: keep renewing."""
        self._ticked = self._clock()

    def renewed_ago(self) -> float:
        """Seconds since the start of the last renewal that reached the database (the
        heartbeat then ran until at least ``lease`` seconds after it)."""
        return self._clock() - self._renewed

    def take_lost(self) -> bool:
        """Whether a renewal found the heartbeat expired since the last call."""
        with self._lock:
            lost, self._lost = self._lost, False
        return lost

    def stop(self) -> None:
        self._stopping.set()

    def run(self) -> None:
        loop = asyncio.new_event_loop()
        # One connection, its statements cut short well before the lease could expire.
        engine = create_async_engine(
            self.url,
            pool_size=1,
            max_overflow=0,
            connect_args={"timeout": 5, "command_timeout": max(1.0, 3 * self.period)},
        )
        try:
            while not self._stopping.wait(self.period):
                quiet = self._clock() - self._ticked
                if quiet > self.watchdog:
                    log.warning(
                        "the event loop has not ticked for %.0f s: the heartbeat stops "
                        "and this process's leases expire",
                        quiet,
                    )
                    return
                started = self._clock()
                try:
                    extended = loop.run_until_complete(self.beat(engine))
                except Exception as error:  # the next period tries again
                    log.warning("heartbeat not renewed now (%s); trying again", error)
                    continue
                self._renewed = started
                if not extended:
                    with self._lock:
                        self._lost = True
        finally:
            loop.run_until_complete(engine.dispose())
            loop.close()
