"""Bot seats: bots think in worker processes, and tables share the workers fairly.

A worker runs :mod:`odin_cards.workers.bot_worker` (it rebuilds the game from the table's
definition and log and asks the game's bots, which see only the seat's view). A level's
think time comes from its game's plugin (``BotLevel.seconds``), so a game's new levels need
no server change.

:class:`ProcessBotRunner` is the server's :class:`~odin_cards.server.core.ports.BotRunner`.
Why it is more than a process pool: with a plain first-come-first-served pool, twenty
six-seat tables of expert bots (two seconds a move) kept every other table's bot waiting
34-38 s a move. So:

- **Two lanes.** Levels that play at once (no time budget: random, heuristic) have a worker
  of their own and never wait behind a search. Levels with a time budget (search, expert)
  share ``workers`` processes.
- **Round robin.** A table has at most one queued move; tables are served in the order they
  asked, and a table asks for its next move only after its last one, so every table waiting
  gets a turn before any table gets a second one.
- **Think time shrinks under load.** A search started while ``waiting`` tables want the
  shared workers thinks ``min(level budget, max(min_think, target_latency * workers /
  waiting))`` seconds: the whole queue then turns over in about ``target_latency``. A table
  wants them while it is queued or thinking, and for ``2 * target_latency`` seconds after it
  last asked (it asks again as soon as its move is played: counting it only while queued
  would let the first of a burst think its full budget while the others wait). The share
  leaves room for the time a move takes beyond thinking (replay, hand-over: a moving
  average). Alone, a level keeps its full budget.
- **No stall.** A bot that raises is answered by a random legal move (logged). A worker that
  is still busy at the hard deadline (three times the think time, plus ``hang_slack``) is
  killed, or one that dies is noticed; either way the move is a random stand-in computed in
  this process and the worker is replaced. Workers exit when the server process is gone.
- **Bounded memory.** Each worker process's data is capped (``bot_memory``); a move that
  needs more fails with ``MemoryError``, a random move stands in and the worker is
  replaced. The quick lane's worker never loads the compiled kernels (numba): its levels
  do not use them, and numba's first compilation on a machine grows a process to about
  1.1 GiB.

Logs name the table and the level, never a move, a hand or a seed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import secrets
import signal
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from odin_cards.games import plugins
from odin_cards.server.core.ports import BotRequest
from odin_cards.server.settings import Settings
from odin_cards.workers.bot_worker import Move, Turn, choose, replay, stand_in, start, warm

log = logging.getLogger(__name__)

OVERHEAD_WEIGHT = 0.1
"""Weight of the latest move in the moving average of the time moves take beyond thinking."""

START_TIMEOUT = 60.0
"""Seconds a new worker may take to start (spawn and import) before it is tried again."""


Think = Callable[[Turn, float | None, int], Move]
"""What a worker runs: the turn, the seconds to think (``None``: a level that answers at
once), a seed for the bot's dice.
A module-level function, so that spawned workers can import it."""


def turn_of(request: BotRequest) -> Turn:
    """What a worker needs of a request (a worker never imports the server)."""
    return Turn(
        request.table_id,
        request.level,
        request.game,
        request.players,
        request.setup,
        request.seed,
        request.actions,
    )


def think_time(
    level_seconds: float,
    target: float,
    workers: int,
    waiting: int,
    floor: float,
    overhead: float = 0.0,
) -> float:
    """Seconds a search may think while ``waiting`` tables share ``workers`` processes.

    Each worker serves ``waiting / workers`` tables in turn, so taking ``target * workers /
    waiting`` each, ``overhead`` (replay, hand-over) included, lets every waiting table move
    within ``target``. Never more than the level's budget, never less than ``floor`` (a
    search needs a few iterations to be better than random; past that load, latency grows
    instead).
    """
    share = target * workers / max(1, waiting) - overhead
    return min(level_seconds, max(floor, share))


@dataclass(eq=False, slots=True)
class _Job:
    """One table's request for a bot move, and the answer its caller awaits."""

    request: BotRequest
    answer: asyncio.Future[str]
    lane: _Lane


@dataclass(eq=False, slots=True)
class _Slot:
    """One worker (a process, or a thread of this process) that thinks one move at a time."""

    executor: Executor
    pid: int | None = None
    ready: bool = False
    job: _Job | None = None


@dataclass(eq=False, slots=True)
class _Lane:
    """Tables waiting for a move, in the order they asked, and the workers serving them."""

    name: str
    timed: bool
    """Whether its levels think for a time budget (which shrinks under load)."""
    size: int
    queue: dict[str, _Job] = field(default_factory=dict)
    """Table id -> its queued job; insertion order is the order of service."""
    slots: list[_Slot] = field(default_factory=list)

    def busy(self) -> int:
        return sum(1 for slot in self.slots if slot.job is not None)


class ProcessBotRunner:
    """The :class:`~.domain.ports.BotRunner` of the server; see the module docstring.

    ``workers`` processes think for the levels with a time budget and one more for the
    levels without; with ``workers=0`` both lanes are threads of this process (tests, tiny
    hosts; a hung thread cannot be stopped, only abandoned). ``think`` is what the workers
    run (a module-level function, so that spawned workers can import it); ``clock`` tells
    monotonic seconds (tests control it).
    """

    def __init__(
        self,
        workers: int,
        *,
        target_latency: float = 2.0,
        min_think: float = 0.05,
        hang_slack: float = 2.0,
        think: Think = choose,
        clock: Callable[[], float] = time.monotonic,
        executors: Callable[[str], Executor] | None = None,
        memory: int = 0,
    ) -> None:
        """``executors`` makes each lane's worker (given the lane's name, ``"quick"`` or
        ``"timed"``): by default :func:`worker_executor`, a process (a thread with no
        ``workers``) whose data is capped at ``memory`` bytes (0: no cap; a thread has
        none); tests put failing ones in its place."""
        if workers < 0:
            raise ValueError(f"workers must be 0 or more, not {workers}")
        self.processes = workers > 0
        self.target_latency = target_latency
        self.min_think = min_think
        self.hang_slack = hang_slack
        self.think = think
        self.clock = clock
        self.memory = memory
        self.executors = executors or (lambda lane: worker_executor(self.processes, lane, memory))
        self._quick = _Lane("quick", timed=False, size=1)
        self._timed = _Lane("timed", timed=True, size=max(1, workers))
        self._overhead = 0.0
        """Mean seconds a timed move takes beyond its think time (moving average)."""
        self._asked: dict[str, float] = {}
        """Table id -> when it last asked for a timed move (monotonic), oldest first."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._warming: set[asyncio.Task[None]] = set()
        self._started = False
        self._closed = False

    @classmethod
    def from_settings(cls, settings: Settings) -> ProcessBotRunner:
        """The runner of a server with these settings."""
        return cls(
            settings.bot_workers,
            target_latency=settings.bot_target_latency,
            min_think=settings.bot_min_think,
            hang_slack=settings.bot_hang_slack,
            memory=settings.bot_memory,
        )

    @property
    def pids(self) -> list[int]:
        """Process ids of the started workers (quick lane first), for monitoring."""
        lanes = (self._quick, self._timed)
        return [slot.pid for lane in lanes for slot in lane.slots if slot.pid is not None]

    def queued(self) -> int:
        """Bot moves waiting for a worker (both lanes), for monitoring."""
        return len(self._quick.queue) + len(self._timed.queue)

    async def started(self) -> None:
        """Start the workers and return once every one is ready (moves start them anyway;
        this keeps the start-up out of the first moves' time)."""
        self._start()
        while self._warming:
            await asyncio.gather(*self._warming)

    # ------------------------------------------------------------------ the port

    async def move(self, request: BotRequest) -> str:
        """The bot's move; raises ``CancelledError`` if :meth:`cancel` drops it first."""
        if self._closed:
            raise RuntimeError("the bot runner is closed")
        self._start()
        lane = self._lane_of(request.game, request.level)
        job = _Job(request, asyncio.get_running_loop().create_future(), lane)
        for other in (self._quick, self._timed):
            previous = other.queue.get(request.table_id)
            if previous is None:
                continue
            if other is lane:  # a newer request keeps the table's place in the queue
                lane.queue[request.table_id] = job
            else:
                del other.queue[request.table_id]
            previous.answer.cancel()
        lane.queue.setdefault(request.table_id, job)
        if lane is self._timed:
            self._asked.pop(request.table_id, None)
            self._asked[request.table_id] = self.clock()
        job.answer.add_done_callback(lambda _: self._forget(job))
        self._pump(lane)
        return await job.answer

    def cancel(self, table_id: str) -> None:
        """Drop the table's queued move; a move being thought is finished and ignored."""
        self._asked.pop(table_id, None)
        for lane in (self._quick, self._timed):
            job = lane.queue.pop(table_id, None)
            if job is not None:
                job.answer.cancel()
            for slot in lane.slots:
                if slot.job is not None and slot.job.request.table_id == table_id:
                    slot.job.answer.cancel()

    def close(self) -> None:
        """Stop: every waiting caller is cancelled, busy workers are killed."""
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        for lane in (self._quick, self._timed):
            for job in lane.queue.values():
                job.answer.cancel()
            lane.queue.clear()
            for slot in lane.slots:
                if slot.job is not None:
                    slot.job.answer.cancel()
                    self._kill(slot)
                # A worker process is idle or killed by now, so waiting for it is short;
                # without the wait its queues' semaphores outlive the server and
                # multiprocessing warns of leaked semaphores at exit. A thread cannot be
                # stopped: it is not waited for.
                slot.executor.shutdown(wait=self.processes, cancel_futures=True)

    # ------------------------------------------------------------------ scheduling

    def budget_for(self, level: str, waiting: int, game: str) -> float | None:
        """The seconds a move of ``game``'s ``level`` may think when started while
        ``waiting`` tables share the timed workers (this one included); ``None`` for a level
        that answers at once."""
        full = _seconds_of(game, level)
        if full is None:
            return None
        return think_time(
            full, self.target_latency, self._timed.size, waiting, self.min_think, self._overhead
        )

    def deadline(self, seconds: float | None) -> float:
        """Seconds after which a worker still thinking for ``seconds`` is deemed hung."""
        return 3 * (seconds or 0.0) + self.hang_slack

    def _wanting(self) -> int:
        """Tables that asked for a timed move in the last ``2 * target_latency`` seconds."""
        since = self.clock() - 2 * self.target_latency
        while self._asked:
            table_id, asked = next(iter(self._asked.items()))
            if asked >= since:
                break
            del self._asked[table_id]
        return len(self._asked)

    def _lane_of(self, game: str, level: str) -> _Lane:
        if _seconds_of(game, level) is None:
            return self._quick  # an unknown level gets a stand-in at once, in the quick lane
        return self._timed

    def _forget(self, job: _Job) -> None:
        """A caller gave up (cancelled): its job leaves the queue if it is still there."""
        if job.answer.cancelled() and job.lane.queue.get(job.request.table_id) is job:
            del job.lane.queue[job.request.table_id]

    def _pump(self, lane: _Lane) -> None:
        """Give queued jobs to idle workers, first come first served."""
        if self._closed:
            return
        for slot in lane.slots:
            if not lane.queue:
                return
            if not slot.ready or slot.job is not None:
                continue
            table_id = next(iter(lane.queue))
            job = lane.queue.pop(table_id)
            slot.job = job
            waiting = len(lane.queue) + lane.busy()
            if lane.timed:
                waiting = max(waiting, self._wanting())
            self._spawn(
                self._run(
                    lane, slot, job, self.budget_for(job.request.level, waiting, job.request.game)
                )
            )

    async def _run(self, lane: _Lane, slot: _Slot, job: _Job, budget: float | None) -> None:
        request = job.request
        loop = asyncio.get_running_loop()
        seconds = self.deadline(budget)
        deadline = asyncio.timeout(seconds)
        replaced = False
        started = self.clock()
        submitted = False
        try:
            async with deadline:
                thinking = loop.run_in_executor(
                    slot.executor, self.think, turn_of(request), budget, secrets.randbits(64)
                )
                submitted = True
                move = await thinking
        except Exception as error:
            if deadline.expired():
                problem = f"still thought after {seconds:.1f} s; its worker is replaced"
            elif isinstance(error, MemoryError):
                problem = (
                    f"ran out of memory (a bot worker may use {self.memory >> 20} MiB: "
                    "--bot-memory); its worker is replaced"
                )
            elif isinstance(error, BrokenProcessPool):
                problem = "lost its worker, which died; the worker is replaced"
            elif not submitted:  # the executor itself failed (e.g. no file descriptor left)
                problem = f"could not reach its worker ({type(error).__name__}); it is replaced"
            else:
                problem = f"failed ({type(error).__name__})"
            log.error(
                "the %s bot at table %s %s; a random move stood in",
                request.level,
                request.table_id,
                problem,
            )
            if (
                deadline.expired()
                or isinstance(error, BrokenProcessPool | MemoryError)
                or not submitted
            ):
                replaced = True
                self._replace(lane, slot)
            self._stand_in(job)
        else:
            if budget is not None:
                beyond = max(0.0, self.clock() - started - budget)
                self._overhead += OVERHEAD_WEIGHT * (beyond - self._overhead)
            if move.error is not None:
                log.error(
                    "the %s bot at table %s failed (%s); a random move stood in",
                    request.level,
                    request.table_id,
                    move.error,
                )
            if not job.answer.done():
                job.answer.set_result(move.action)
        finally:
            if not replaced:
                slot.job = None
            self._pump(lane)

    def _stand_in(self, job: _Job) -> None:
        """Answer ``job`` with a random legal move computed here (cheap: a replay)."""
        if job.answer.done():
            return
        try:
            action = stand_in(replay(turn_of(job.request)), random.Random(secrets.randbits(64)))
        except Exception as error:  # the log does not replay: the caller must know
            job.answer.set_exception(error)
        else:
            job.answer.set_result(action)

    # ------------------------------------------------------------------ workers

    def _start(self) -> None:
        if self._started:
            return
        self._started = True
        for lane in (self._quick, self._timed):
            for _ in range(lane.size):
                slot = _Slot(self._executor(lane), ready=not self.processes)
                lane.slots.append(slot)
                if self.processes:
                    self._warming.add(self._spawn(self._warm(lane, slot)))

    def _executor(self, lane: _Lane) -> Executor:
        return self.executors(lane.name)

    async def _warm(self, lane: _Lane, slot: _Slot, fresh: bool = False) -> None:
        """Start the slot's worker (outside any move's deadline) and learn its process id.

        With ``fresh`` the slot's executor is a dead one, made anew here. Whatever fails
        (no file descriptor left, a worker that cannot start) is tried again a second
        later: a lane must never stay without its worker.
        """
        while not self._closed:
            try:
                if fresh:
                    slot.executor = self._executor(lane)
                    fresh = False
                async with asyncio.timeout(START_TIMEOUT):
                    pid = await asyncio.get_running_loop().run_in_executor(
                        slot.executor, warm, lane.timed
                    )
            except Exception as error:
                log.error("a bot worker did not start (%s); trying again", type(error).__name__)
                with contextlib.suppress(Exception):
                    slot.executor.shutdown(wait=False, cancel_futures=True)
                fresh = True
                await asyncio.sleep(1.0)
                continue
            slot.pid = pid
            slot.ready = True
            self._pump(lane)
            return

    def _replace(self, lane: _Lane, slot: _Slot) -> None:
        """Kill the slot's worker and put a fresh one in its place."""
        self._kill(slot)
        with contextlib.suppress(Exception):
            slot.executor.shutdown(wait=False, cancel_futures=True)
        if self._closed:
            return
        if not self.processes:
            lane.slots[lane.slots.index(slot)] = _Slot(self._executor(lane), ready=True)
            return
        fresh = _Slot(slot.executor, ready=False)  # its executor is made by _warm
        lane.slots[lane.slots.index(slot)] = fresh
        self._warming.add(self._spawn(self._warm(lane, fresh, fresh=True)))

    @staticmethod
    def _kill(slot: _Slot) -> None:
        if slot.pid is None:
            return  # a thread cannot be killed: it is abandoned
        with contextlib.suppress(OSError):  # already gone
            os.kill(slot.pid, getattr(signal, "SIGKILL", signal.SIGTERM))
        slot.pid = None

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(self._warming.discard)
        return task


def worker_executor(processes: bool, lane: str, memory: int = 0) -> Executor:
    """A lane's worker: a spawned process that exits when this one is gone, whose data is
    capped at ``memory`` bytes (0: no cap) and which loads the compiled kernels only for
    the timed lane; or, without processes, a thread (no cap: it is the server's memory)."""
    if not processes:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"bot-{lane}")
    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start,
        initargs=(os.getpid(), lane != "quick", memory),
    )


def _seconds_of(game: str, level: str) -> float | None:
    """The full think time of ``game``'s ``level`` (``None``: it answers at once, or the
    game or level is unknown)."""
    plugin = plugins().get(game)
    known = plugin.level(level) if plugin is not None else None
    return known.seconds if known is not None else None
