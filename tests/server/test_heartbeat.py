"""The heartbeat thread (``adapters/heartbeat.py``) says when it last renewed, so that a
thread whose renewals fail is never taken for a live heartbeat."""

from __future__ import annotations

import threading

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from odin_cards.server.adapters.heartbeat import HeartbeatThread

# The thread makes its own engine from this URL; the fake beats below never connect.
URL = sa.make_url("postgresql+asyncpg://nobody@127.0.0.1:1/none")


def test_failing_renewals_leave_the_last_renewal_behind() -> None:
    now = [100.0]
    beats: list[float] = []
    failed = threading.Event()

    async def beat(engine: AsyncEngine) -> bool:
        beats.append(now[0])
        if len(beats) == 1:
            now[0] = 101.0  # the first renewal reached the database; time goes on
            return True
        failed.set()
        raise OSError("the database is away")

    thread = HeartbeatThread(
        URL, beat, period=0.001, watchdog=1e9, renewed=90.0, clock=lambda: now[0]
    )
    assert thread.renewed_ago() == 10.0  # the renewal before the thread started
    thread.start()
    try:
        assert failed.wait(30), "the thread did not try a second renewal"
        now[0] = 104.0
        # Counted from the start of the one renewal that worked, not of the failing ones.
        assert thread.renewed_ago() == 4.0
        assert thread.take_lost() is False  # nothing seen expire: the caller must look at the age
    finally:
        thread.stop()
        thread.join(30)
    assert not thread.is_alive()


def test_a_silent_loop_stops_the_thread() -> None:
    now = [0.0]
    beats: list[float] = []

    async def beat(engine: AsyncEngine) -> bool:
        beats.append(now[0])
        now[0] += 1.0  # each renewal comes a second later; the loop never ticks
        return True

    thread = HeartbeatThread(
        URL, beat, period=0.001, watchdog=2.5, renewed=0.0, clock=lambda: now[0]
    )
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    # Renewed at 0, 1 and 2; at 3 the loop had been silent for more than 2.5 s.
    assert beats == [0.0, 1.0, 2.0]
    assert thread.renewed_ago() == 1.0
