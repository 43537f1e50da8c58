"""A fake :class:`~odin_cards.server.core.ports.Clock` for tests of timers (clocks,
presence grace, expiry): time moves only when the test says so, and every sleeper whose
time has come wakes, in the order of its wake-up time, before :meth:`FakeClock.advance`
returns. Shared by the tests of several modules: no test sleeps to wait for a timer.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta


async def settle(rounds: int = 50) -> None:
    """Let every task that can run, run (no time passes)."""
    for _ in range(rounds):
        await asyncio.sleep(0)


class FakeClock:
    """Wall-clock and monotonic time that move together, only in :meth:`advance`."""

    def __init__(self, start: datetime | None = None) -> None:
        self.start = start or datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
        self.seconds = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._count = 0

    def now(self) -> datetime:
        return self.start + timedelta(seconds=self.seconds)

    def monotonic(self) -> float:
        return self.seconds

    @property
    def sleepers(self) -> int:
        """How many sleeps are waiting (a test can see a timer was set)."""
        return sum(1 for _, _, wake in self._sleepers if not wake.done())

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        wake = asyncio.get_running_loop().create_future()
        self._count += 1
        self._sleepers.append((self.seconds + seconds, self._count, wake))
        await wake

    async def advance(self, seconds: float) -> None:
        """Move time on by ``seconds`` in steps, waking each sleeper at its own time and
        letting what it starts run before the next one wakes (a timer set by a woken task
        within the span wakes too)."""
        target = self.seconds + seconds
        while True:
            due = sorted(s for s in self._sleepers if s[0] <= target)
            if not due:
                break
            when, count, wake = due[0]
            self._sleepers.remove((when, count, wake))
            self.seconds = max(self.seconds, when)
            if not wake.done():
                wake.set_result(None)
            await settle()
        self.seconds = target
        await settle()
