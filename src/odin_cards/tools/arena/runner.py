"""Playing the scheduled games, one process per core, with results independent of the cores.

Every game is self-contained: its deal comes from its deal set's seed and every bot's
random generator from (seed, rotation, seat), so a game's result does not depend on
which worker plays it or when. Results are put back in schedule order before any
statistic is computed. (A bot thinking against the clock, ``seconds=...``, is the one
exception: how far it searches depends on the machine's load.)
"""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from odin_cards.odin.bots import ask
from odin_cards.odin.rules import Game, Options
from odin_cards.tools.arena.agents import AgentError
from odin_cards.tools.arena.entrants import ArenaError, Entrant
from odin_cards.tools.arena.schedule import Match, schedule


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one arena game, as seen by the statistics and the JSON file."""

    deal: int
    rotation: int
    seed: str
    lineup: tuple[int, ...]
    """Entrant index per seat."""
    scores: tuple[int, ...]
    """Final points per seat (points are bad)."""
    winners: tuple[int, ...]
    """Seats sharing the victory (fewest points)."""
    hands: int
    decision_seconds: tuple[tuple[float, ...], ...]
    """Per seat, the time of each of its bot's decisions."""
    record: str | None = None
    """The game record (JSON), when asked for."""


class BotFailure(RuntimeError):
    """A bot raised or returned an illegal action: a bot bug, reported with its game."""


def play_match(
    match: Match,
    entrants: Sequence[Entrant],
    players: int,
    options: Options,
    keep_record: bool = False,
) -> GameResult:
    """Play one whole game of the schedule."""
    game = Game.new(players, options, match.seed, deals=match.deals or None)
    try:
        bots = [entrants[e].make_bot() for e in match.lineup]
    except AgentError as error:
        raise BotFailure(f"{error} (in a worker process)") from None
    except KeyError as error:
        # A level registered at run time in a process whose workers start fresh.
        raise BotFailure(
            f"{error.args[0]} (in a worker process: levels registered at run time reach"
            " workers only when the caller runs a single thread; else use one worker)"
        ) from None
    for bot in bots:
        bot.prepare()
    budgets = [entrants[e].budget for e in match.lineup]
    rngs = [random.Random(f"odin-arena:{match.seed}:{match.rotation}:{s}") for s in range(players)]
    times: list[list[float]] = [[] for _ in range(players)]
    while not game.is_over:
        seat = game.to_move
        start = time.perf_counter()
        try:
            action = ask(bots[seat], game, budgets[seat], rngs[seat])
        except Exception as error:
            label = entrants[match.lineup[seat]].label
            raise BotFailure(
                f"{label} at seat {seat} failed in deal {match.deal}, rotation {match.rotation}"
                f" ({game!r}): {error}"
            ) from error
        times[seat].append(time.perf_counter() - start)
        game.apply_unchecked(action)
    outcome = game.outcome
    assert outcome is not None
    return GameResult(
        deal=match.deal,
        rotation=match.rotation,
        seed=match.seed,
        lineup=match.lineup,
        scores=outcome.scores,
        winners=outcome.winners,
        hands=outcome.hands_played,
        decision_seconds=tuple(tuple(t) for t in times),
        record=game.record().to_json() if keep_record else None,
    )


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _context() -> multiprocessing.context.BaseContext:
    """Fork when this process runs no other thread, else a fresh interpreter per worker.

    Forked workers inherit the caller's state, so levels registered at run time (a
    tuning script's variants, a test's level) exist in them. A process with other
    threads must not fork (a child could inherit a lock held by one of them); its
    workers start fresh and know only the levels registered on import.
    """
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def play_schedule(
    matches: Sequence[Match],
    entrants: Sequence[Entrant],
    players: int,
    options: Options,
    workers: int,
    on_game: Callable[[GameResult], None] | None = None,
    keep_records: bool = False,
) -> list[GameResult]:
    """Play every match, on ``workers`` processes (1: in this process); schedule order."""
    if workers < 1:
        raise ArenaError(f"the number of workers must be at least 1, not {workers}")
    results: list[GameResult] = []
    if workers == 1 or len(matches) == 1:
        for match in matches:
            result = play_match(match, entrants, players, options, keep_records)
            results.append(result)
            if on_game is not None:
                on_game(result)
        return results
    with ProcessPoolExecutor(max_workers=min(workers, len(matches)), mp_context=_context()) as pool:
        futures: list[Future[GameResult]] = [
            pool.submit(play_match, match, entrants, players, options, keep_records)
            for match in matches
        ]
        try:
            for future in as_completed(futures):
                result = future.result()
                results.append(result)
                if on_game is not None:
                    on_game(result)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    results.sort(key=lambda r: (r.deal, r.rotation))
    return results


@dataclass(frozen=True, slots=True)
class ArenaRun:
    """Everything an arena run played: its set-up and every game's result."""

    entrants: tuple[Entrant, ...]
    players: int
    options: Options
    seed: int
    games_asked: int
    rotations: int
    results: tuple[GameResult, ...]
    seconds: float
    workers: int

    @property
    def deals(self) -> int:
        return len(self.results) // self.rotations


def run_arena(
    entrants: Sequence[Entrant],
    games: int,
    players: int | None = None,
    seed: int = 1,
    options: Options | None = None,
    workers: int | None = None,
    on_game: Callable[[GameResult], None] | None = None,
    keep_records: bool = False,
) -> ArenaRun:
    """Play at least ``games`` games (whole deal sets times every rotation) between entrants.

    ``players`` defaults to the number of entrants; ``workers`` to every core.
    """
    entrants = tuple(entrants)
    players = len(entrants) if players is None else players
    options = options or Options()
    try:
        options.check(players)
    except ValueError as error:
        raise ArenaError(str(error)) from None
    matches = schedule(len(entrants), players, games, seed)
    rotations = len({m.rotation for m in matches})
    workers = default_workers() if workers is None else workers
    start = time.perf_counter()
    results = play_schedule(matches, entrants, players, options, workers, on_game, keep_records)
    return ArenaRun(
        entrants=entrants,
        players=players,
        options=options,
        seed=seed,
        games_asked=games,
        rotations=rotations,
        results=tuple(results),
        seconds=time.perf_counter() - start,
        workers=workers,
    )
