"""The bot runner: tables share the workers fairly, and a broken worker never stalls a table.

Scheduling is tested with thread workers whose searches wait for the test to let them go
(deterministic order, recorded budgets); crashes, hangs and the quick lane with real
spawned worker processes.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import pytest

from odin_cards.odin.rules import Options, parse_action
from odin_cards.server.adapters.bot_runner import (
    ProcessBotRunner,
    think_time,
    turn_of,
    worker_executor,
)
from odin_cards.server.core.ports import BotRequest
from odin_cards.workers.bot_worker import Move, Turn, choose, replay, stand_in

from .misbehaving_bots import misbehaving

SEARCH_SECONDS = 0.5  # LEVELS["search"].budget.seconds


def request(table_id: str, level: str, moves: int = 0, players: int = 6) -> BotRequest:
    """A request at a fresh table after ``moves`` random moves."""
    game = replay(Turn(table_id, level, "odin", players, Options().to_dict(), 11, ()))
    rng = random.Random(table_id)
    actions = []
    for _ in range(moves):
        actions.append(stand_in(game, rng))
        game.apply(parse_action(actions[-1]))
    seat = game.current_player
    assert seat is not None
    return BotRequest(
        table_id, seat, level, "odin", players, Options().to_dict(), 11, tuple(actions)
    )


def frozen_clock() -> float:
    """A clock that stands still: a move then takes no time beyond its think time however
    long the test holds it, so the budgets depend only on the queue."""
    return 0.0


def legal(req: BotRequest, action: str) -> bool:
    return parse_action(action) in replay(turn_of(req)).legal_actions()


class Gate:
    """Thread-worker ``think``: records each request and its budget; searches wait for
    :meth:`open`, so the test decides when the timed lane moves on."""

    def __init__(self) -> None:
        self.opened = threading.Event()
        self.seen: list[tuple[Turn, float | None]] = []

    def open(self) -> None:
        self.opened.set()

    def __call__(self, turn: Turn, seconds: float | None, rng_seed: int) -> Move:
        self.seen.append((turn, seconds))
        if seconds is not None and not self.opened.wait(10):
            raise TimeoutError("the test never opened the gate")
        return Move(stand_in(replay(turn), random.Random(rng_seed)))

    def tables(self) -> list[str]:
        return [turn.table_id for turn, _ in self.seen]


async def submit(runner: ProcessBotRunner, req: BotRequest) -> asyncio.Task[str]:
    """Ask for a move; return once the request is queued (move() runs to its first wait)."""
    task = asyncio.create_task(runner.move(req))
    await asyncio.sleep(0)
    return task


# ---------------------------------------------------------------- the think time


def test_think_time_shares_the_target_between_waiting_tables() -> None:
    assert think_time(2.0, 2.0, 4, 2, 0.05) == 2.0  # light load: the level's full budget
    assert think_time(2.0, 2.0, 4, 20, 0.05) == pytest.approx(0.4)
    assert think_time(2.0, 2.0, 1, 200, 0.05) == 0.05  # never below the floor
    assert think_time(0.5, 2.0, 1, 0, 0.05) == 0.5
    assert think_time(2.0, 2.0, 4, 20, 0.05, overhead=0.1) == pytest.approx(0.3)


async def test_search_thinks_less_while_more_tables_wait() -> None:
    gate = Gate()
    runner = ProcessBotRunner(0, target_latency=1.0, min_think=0.05, think=gate, clock=frozen_clock)
    try:
        asks = [request(f"t{n}", "search") for n in range(10)]
        tasks = [await submit(runner, req) for req in asks]
        gate.open()
        moves = await asyncio.wait_for(asyncio.gather(*tasks), 10)
    finally:
        runner.close()
    assert gate.tables() == [f"t{n}" for n in range(10)]  # first come, first served
    # t0 started alone (full budget); the others while ten tables want the worker, even
    # the last ones, whose queue is short: the tables served just before ask again soon
    expected = [SEARCH_SECONDS] + [1.0 / 10] * 9
    assert [seconds for _, seconds in gate.seen] == pytest.approx(expected)
    assert all(legal(req, move) for req, move in zip(asks, moves, strict=True))


async def test_think_time_leaves_room_for_what_a_move_costs_beyond_thinking() -> None:
    now = [0.0]

    def slow(turn: Turn, seconds: float | None, rng_seed: int) -> Move:
        assert seconds is not None
        now[0] += seconds + 0.2  # replay, hand-over: 0.2 s beyond thinking
        return Move(stand_in(replay(turn), random.Random(rng_seed)))

    runner = ProcessBotRunner(0, target_latency=10.0, think=slow, clock=lambda: now[0])
    try:
        assert runner.budget_for("search", 40, "odin") == pytest.approx(10.0 / 40)
        for n in range(3):
            await asyncio.wait_for(runner.move(request(f"t{n}", "search")), 10)
    finally:
        runner.close()
    seconds = runner.budget_for("search", 40, "odin")
    assert seconds is not None and 10.0 / 40 - 0.2 < seconds < 10.0 / 40 - 0.02


async def test_tables_that_stopped_asking_stop_counting() -> None:
    """A table counts for 2 x target seconds after it asked, or until it is cancelled."""
    gate = Gate()
    gate.open()
    now = [0.0]
    runner = ProcessBotRunner(
        0, target_latency=0.4, min_think=0.01, think=gate, clock=lambda: now[0]
    )

    async def think_time_of(req: BotRequest) -> float | None:
        await asyncio.wait_for(runner.move(req), 10)
        return gate.seen[-1][1]

    try:
        for n in range(10):
            seconds = await think_time_of(request(f"t{n}", "search"))
        assert seconds == pytest.approx(0.4 / 10)  # ten tables asked just now
        now[0] = 0.7
        for n in range(5):
            runner.cancel(f"t{n}")  # e.g. paused
        assert await think_time_of(request("t9", "search", moves=1)) == pytest.approx(0.4 / 5)
        now[0] = 1.45  # t5-t8 asked 1.45 s ago, more than 2 x 0.4 s: they no longer count
        assert await think_time_of(request("u", "search")) == pytest.approx(0.4 / 2)
        now[0] = 1.6  # nor does t9
        assert await think_time_of(request("v", "search")) == pytest.approx(0.4 / 2)
    finally:
        runner.close()


async def test_think_time_has_a_floor() -> None:
    gate = Gate()
    runner = ProcessBotRunner(0, target_latency=0.2, min_think=0.05, think=gate, clock=frozen_clock)
    try:
        tasks = [await submit(runner, request(f"t{n}", "expert")) for n in range(10)]
        gate.open()
        await asyncio.wait_for(asyncio.gather(*tasks), 10)
    finally:
        runner.close()
    assert gate.seen[0][1] == pytest.approx(0.2)
    assert gate.seen[1][1] == pytest.approx(0.05)  # 0.2 / 9 would be too little to search


# ---------------------------------------------------------------- fairness


async def test_a_table_moves_again_only_after_every_waiting_table() -> None:
    gate = Gate()
    runner = ProcessBotRunner(0, think=gate)
    try:
        a = await submit(runner, request("A", "search"))
        b = await submit(runner, request("B", "search"))
        c = await submit(runner, request("C", "search"))
        gate.open()
        await asyncio.wait_for(a, 10)
        again = await submit(runner, request("A", "search", moves=1))
        await asyncio.wait_for(asyncio.gather(b, c, again), 10)
    finally:
        runner.close()
    assert gate.tables() == ["A", "B", "C", "A"]


async def test_cheap_bots_never_wait_behind_searches() -> None:
    gate = Gate()
    runner = ProcessBotRunner(0, think=gate)
    try:
        searches = [await submit(runner, request(f"s{n}", "expert")) for n in range(4)]
        quick = request("h", "heuristic")
        move = await asyncio.wait_for(runner.move(quick), 10)
        assert legal(quick, move)
        assert not any(task.done() for task in searches)  # all still waiting for the gate
        gate.open()
        await asyncio.wait_for(asyncio.gather(*searches), 10)
    finally:
        runner.close()


async def test_a_newer_request_replaces_the_queued_one_in_its_place() -> None:
    gate = Gate()
    runner = ProcessBotRunner(0, think=gate)
    try:
        a = await submit(runner, request("A", "search"))
        stale = await submit(runner, request("B", "search"))
        c = await submit(runner, request("C", "search"))
        newer = await submit(runner, request("B", "search", moves=1))
        with pytest.raises(asyncio.CancelledError):
            await stale
        gate.open()
        await asyncio.wait_for(asyncio.gather(a, c, newer), 10)
    finally:
        runner.close()
    assert gate.tables() == ["A", "B", "C"]  # one job per table, B kept its turn
    assert len(gate.seen[1][0].actions) == 1  # and it was the newer one


async def test_cancel_drops_a_tables_work() -> None:
    gate = Gate()
    runner = ProcessBotRunner(0, think=gate)
    try:
        a = await submit(runner, request("A", "search"))
        b = await submit(runner, request("B", "search"))
        runner.cancel("B")  # queued: dropped
        runner.cancel("A")  # thinking: its answer is no longer awaited
        for task in (a, b):
            with pytest.raises(asyncio.CancelledError):
                await task
        gate.open()
        c = request("C", "search")
        assert legal(c, await asyncio.wait_for(runner.move(c), 10))
    finally:
        runner.close()
    assert gate.tables() == ["A", "C"]


async def test_every_move_asked_is_answered_or_cancelled() -> None:
    """Twenty callers on seven tables asking, asking again, cancelling, switching levels
    (so newer requests replace queued ones): every call ends, with a legal move or
    cancelled, and none waits for ever."""
    gate = Gate()
    gate.open()
    runner = ProcessBotRunner(0, target_latency=0.5, think=gate)
    rng = random.Random(5)
    levels = ("random", "heuristic", "search", "expert")
    outcomes: list[str] = []

    async def caller(n: int) -> None:
        for moves in range(4):
            req = request(f"t{n % 7}", rng.choice(levels), moves=moves)
            task = asyncio.create_task(runner.move(req))
            if rng.random() < 0.2:
                runner.cancel(req.table_id)
            try:
                assert legal(req, await task)
                outcomes.append("answered")
            except asyncio.CancelledError:
                if not task.cancelled():
                    raise
                outcomes.append("cancelled")

    try:
        await asyncio.wait_for(asyncio.gather(*(caller(n) for n in range(20))), 30)
    finally:
        runner.close()
    assert len(outcomes) == 80
    assert outcomes.count("answered") >= 7


async def test_close_cancels_the_waiting_callers() -> None:
    gate = Gate()
    runner = ProcessBotRunner(0, think=gate)
    a = await submit(runner, request("A", "search"))
    b = await submit(runner, request("B", "search"))
    runner.close()
    gate.open()
    for task in (a, b):
        with pytest.raises(asyncio.CancelledError):
            await task
    with pytest.raises(RuntimeError, match="closed"):
        await runner.move(request("C", "search"))


# ---------------------------------------------------------------- real worker processes


async def test_worker_processes_share_time_fairly() -> None:
    """One search process, five expert tables at once and a heuristic table: the heuristic
    move comes before the second search ends, and the five turn over in about the 2 s
    target (0.4 s each; at full budget they would take 5 x 2 s)."""
    runner = ProcessBotRunner(1, target_latency=2.0)
    try:
        await asyncio.wait_for(runner.started(), 60)
        started = time.perf_counter()
        asks = [request(f"s{n}", "expert") for n in range(5)]  # many legal moves each
        searches = [await submit(runner, req) for req in asks]
        quick = request("h", "heuristic", moves=3)
        assert legal(quick, await asyncio.wait_for(runner.move(quick), 10))
        assert sum(task.done() for task in searches) <= 1
        moves = await asyncio.wait_for(asyncio.gather(*searches), 30)
        elapsed = time.perf_counter() - started
    finally:
        runner.close()
    assert all(legal(req, move) for req, move in zip(asks, moves, strict=True))
    assert elapsed < 5.0


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has exited (gone, or a zombie its parent has not reaped)."""
    stat = Path(f"/proc/{pid}/stat")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            if stat.read_text().split(") ")[-1].startswith("Z"):
                return True
        except (FileNotFoundError, ProcessLookupError):  # reaped, before or while reading
            return True
        time.sleep(0.05)
    return False


async def test_a_failing_dying_or_hanging_worker_gets_a_stand_in(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR, "odin_cards.server.adapters.bot_runner")
    runner = ProcessBotRunner(1, hang_slack=0.5, think=misbehaving)
    try:
        await asyncio.wait_for(runner.started(), 60)
        quick_pid, search_pid = runner.pids
        first = request("fine-1", "heuristic")
        assert legal(first, await asyncio.wait_for(runner.move(first), 10))

        failing = request("raise-1", "heuristic", moves=2)
        assert legal(failing, await asyncio.wait_for(runner.move(failing), 10))
        assert "failed (RuntimeError)" in caplog.text
        assert runner.pids == [quick_pid, search_pid]  # a worker that raises is kept

        dying = request("die-1", "heuristic", moves=4)
        assert legal(dying, await asyncio.wait_for(runner.move(dying), 10))
        assert "worker, which died" in caplog.text
        await asyncio.wait_for(runner.started(), 60)  # its replacement

        hanging = request("hang-1", "heuristic", moves=6)
        started = time.perf_counter()
        assert legal(hanging, await asyncio.wait_for(runner.move(hanging), 10))
        assert time.perf_counter() - started < runner.deadline(None) + 1.0
        assert "still thought after 0.5 s" in caplog.text

        caplog.clear()
        after = request("fine-2", "heuristic", moves=8)
        assert legal(after, await asyncio.wait_for(runner.move(after), 60))  # once started
        assert caplog.text == ""  # a fresh worker answered, no stand-in
        new_quick, new_search = runner.pids
        assert new_search == search_pid  # the other lane never noticed
        assert new_quick != quick_pid and _gone(quick_pid)

        stuck = await submit(runner, request("hang-2", "heuristic"))
        hung_pid = runner.pids[0]
    finally:
        runner.close()
    with pytest.raises(asyncio.CancelledError):
        await stuck
    assert _gone(hung_pid)  # close() kills a busy worker


async def test_close_waits_for_the_idle_workers_to_exit() -> None:
    """A stopping server leaves no worker behind: else the workers' queues outlive it and
    multiprocessing warns of leaked semaphores at its exit."""
    runner = ProcessBotRunner(1)
    try:
        await asyncio.wait_for(runner.started(), 60)
        pids = runner.pids
        quick = request("h", "heuristic")
        assert legal(quick, await asyncio.wait_for(runner.move(quick), 10))
    finally:
        runner.close()
    assert [pid for pid in pids if Path(f"/proc/{pid}").exists()] == []


def test_a_bot_that_raises_is_answered_by_a_random_move() -> None:
    req = request("t", "no such level", moves=3)
    move = choose(turn_of(req), None, 5)
    assert move.error == "KeyError"
    assert legal(req, move.action)


class _AtTheLimit:
    """Makes the lanes' workers (``ProcessBotRunner(executors=...)``); once ``limit`` is
    reached, a worker made earlier fails every submission as a process pool does when no
    file descriptor is left, and the next ``refused`` workers cannot be made at all."""

    def __init__(self) -> None:
        self.reached = False
        self.refused = 0
        self.made: list[Executor] = []

    def __call__(self, lane: str) -> Executor:
        if self.refused:
            self.refused -= 1
            raise OSError(24, "Too many open files")
        executor = _Failing(worker_executor(True, lane), self)
        self.made.append(executor)
        return executor


class _Failing(Executor):
    def __init__(self, real: Executor, limit: _AtTheLimit) -> None:
        self.real = real
        self.limit = limit
        self.old = False
        """Made before the limit was reached: then every submission fails."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if self.old:
            raise OSError(24, "Too many open files")
        return self.real.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.real.shutdown(wait=wait, cancel_futures=cancel_futures)


async def test_a_worker_that_cannot_be_reached_is_replaced_and_the_lane_recovers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """At the file limit a submission fails and so may a new worker's start: the move gets
    a stand-in at once, and the lane gets a working worker back as soon as it can."""
    caplog.set_level(logging.ERROR, "odin_cards.server.adapters.bot_runner")
    limit = _AtTheLimit()
    runner = ProcessBotRunner(1, executors=limit)
    try:
        await asyncio.wait_for(runner.started(), 60)
        quick_pid = runner.pids[0]
        for executor in limit.made:
            assert isinstance(executor, _Failing)
            executor.old = True  # the limit is reached: the running workers fail...
        limit.refused = 1  # ...and so does the first new one
        blocked = request("emfile-1", "heuristic")
        assert legal(blocked, await asyncio.wait_for(runner.move(blocked), 10))
        assert "could not reach its worker (OSError)" in caplog.text
        after = request("emfile-2", "heuristic", moves=2)
        assert legal(after, await asyncio.wait_for(runner.move(after), 60))
        # The first new worker could not be made either; the next one was, and answered.
        assert "a bot worker did not start (OSError); trying again" in caplog.text
        assert caplog.text.count("stood in") == 1  # only the blocked move
        assert runner.pids[0] != quick_pid
    finally:
        runner.close()
