"""Playing the scheduled games, one process per core, with results independent of the cores.

Every game is self-contained: its deal comes from its deal set's seed and every bot's
random generator from (seed, rotation, seat), so a game's result does not depend on
which worker plays it or when. Results are put back in schedule order before any
statistic is computed. (A bot thinking against the clock, ``seconds=...``, is the one
exception: how far it searches depends on the machine's load.)

Any game of the registry is played through its rules (:func:`odin_cards.games.rules_of`)
and its players (:meth:`.Entrant.player`): nothing here knows one game from another.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from odin_cards.contract import GameState, Outcome, SetupError
from odin_cards.games import plugin_of, rules_of
from odin_cards.tools.arena.agents import AgentError
from odin_cards.tools.arena.entrants import ArenaError, Entrant
from odin_cards.tools.arena.schedule import Match, schedule

MAX_ACTIONS = 100_000
"""Actions after which a game that has not ended is a failure (a rules or bot bug)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one arena game, as seen by the statistics and the JSON file."""

    deal: int
    rotation: int
    seed: str
    lineup: tuple[int, ...]
    """Entrant index per seat."""
    scores: tuple[int, ...]
    """Final points per seat (what they mean, more or fewer is better, is the game's)."""
    winners: tuple[int, ...]
    """Seats sharing the victory."""
    hands: int | None
    """Hands the game had, where its outcome counts them (Odin's ``hands_played``)."""
    decision_seconds: tuple[tuple[float, ...], ...]
    """Per seat, the time of each of its bot's decisions."""
    record: dict[str, Any] | None = None
    """The game record, when asked for."""
    actions: int = 0
    first_player: int | None = None
    """The seat that moved first, where the game's public view says (see
    :func:`order_facts`); ``None``: not known."""
    turns: int | None = None
    """Turns played, where the game's public view counts them."""


class BotFailure(RuntimeError):
    """A bot raised or returned an illegal action: a bot bug, reported with its game."""


def hands_played(outcome: Outcome) -> int | None:
    """The hands a finished game had, where its outcome counts them (``hands_played``)."""
    hands = getattr(outcome, "hands_played", None)
    return hands if isinstance(hands, int) and not isinstance(hands, bool) else None


def order_facts(game: GameState) -> tuple[int | None, int | None]:
    """The seat that moved first and the turns played, where the game's public view says
    (a view that is a dict with ``first_player`` and ``turn``); else ``None``."""
    view = game.view(None)
    if isinstance(view, Mapping):
        first, turns = view.get("first_player"), view.get("turn")
        if isinstance(first, int) and 0 <= first < game.players:
            return first, turns if isinstance(turns, int) else None
    return None, None


def play_match(
    match: Match,
    entrants: Sequence[Entrant],
    players: int,
    setup: Mapping[str, Any],
    keep_record: bool = False,
) -> GameResult:
    """Play one whole game of the schedule."""
    game = rules_of(entrants[0].game).new_game(
        players, setup, match.seed, chance=list(match.chance) or None
    )
    try:
        seats = [entrants[e].player() for e in match.lineup]
    except AgentError as error:
        raise BotFailure(f"{error} (in a worker process)") from None
    except KeyError as error:
        # A level registered at run time in a process whose workers start fresh.
        raise BotFailure(
            f"{error.args[0]} (in a worker process: levels registered at run time reach"
            " workers only when the caller runs a single thread; else use one worker)"
        ) from None
    for seat in seats:
        seat.prepare()
    rngs = [random.Random(f"odin-arena:{match.seed}:{match.rotation}:{s}") for s in range(players)]
    times: list[list[float]] = [[] for _ in range(players)]
    while not game.is_over:
        mover = game.current_player
        assert mover is not None
        label = entrants[match.lineup[mover]].label
        if game.action_count >= MAX_ACTIONS:
            raise BotFailure(
                f"deal {match.deal}, rotation {match.rotation} not over after"
                f" {MAX_ACTIONS} actions ({game!r})"
            )
        start = time.perf_counter()
        try:
            action = seats[mover].move(game, rngs[mover])
            times[mover].append(time.perf_counter() - start)
            game.apply(action, seat=mover)
        except Exception as error:
            raise BotFailure(
                f"{label} at seat {mover} failed in deal {match.deal}, rotation {match.rotation}"
                f" ({game!r}): {error}"
            ) from error
    outcome = game.outcome
    assert outcome is not None
    first, turns = order_facts(game)
    return GameResult(
        deal=match.deal,
        rotation=match.rotation,
        seed=match.seed,
        lineup=match.lineup,
        scores=tuple(outcome.scores),
        winners=tuple(outcome.winners),
        hands=hands_played(outcome),
        decision_seconds=tuple(tuple(t) for t in times),
        record=game.record().to_dict() if keep_record else None,
        actions=game.action_count,
        first_player=first,
        turns=turns,
    )


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_context() -> multiprocessing.context.BaseContext:
    """Fork when this process runs no other thread, else a fresh interpreter per worker.

    Forked workers inherit the caller's state, so levels and games registered at run time
    (a tuning script's variants, a test's level) exist in them. A process with other
    threads must not fork (a child could inherit a lock held by one of them); its
    workers start fresh and know only what is registered on import.
    """
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def play_schedule(
    matches: Sequence[Match],
    entrants: Sequence[Entrant],
    players: int,
    setup: Mapping[str, Any],
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
            result = play_match(match, entrants, players, setup, keep_records)
            results.append(result)
            if on_game is not None:
                on_game(result)
        return results
    with ProcessPoolExecutor(
        max_workers=min(workers, len(matches)), mp_context=worker_context()
    ) as pool:
        futures: list[Future[GameResult]] = [
            pool.submit(play_match, match, entrants, players, setup, keep_records)
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
    setup: Mapping[str, Any]
    """The game's set-up, as its rules normalised it."""
    seed: int
    games_asked: int
    rotations: int
    results: tuple[GameResult, ...]
    seconds: float
    workers: int

    @property
    def game(self) -> str:
        return self.entrants[0].game

    @property
    def deals(self) -> int:
        return len(self.results) // self.rotations


def check_table(
    entrants: Sequence[Entrant], players: int, setup: Mapping[str, Any]
) -> dict[str, Any]:
    """The set-up of the entrants' game for ``players``, normalised; :class:`ArenaError` if
    the entrants play different games or the game refuses the table."""
    games = {entrant.game for entrant in entrants}
    if len(games) != 1:
        raise ArenaError(f"the entrants play different games: {', '.join(sorted(games))}")
    key = games.pop()
    rules = rules_of(key)
    if not rules.min_players <= players <= rules.max_players:
        raise ArenaError(
            f"{plugin_of(key).name} is played by {rules.min_players} to {rules.max_players}"
            f" players, not {players}"
        )
    try:
        return rules.check_setup(players, setup)
    except SetupError as error:
        raise ArenaError(str(error)) from None


def run_arena(
    entrants: Sequence[Entrant],
    games: int,
    players: int | None = None,
    seed: int = 1,
    setup: Mapping[str, Any] | None = None,
    workers: int | None = None,
    on_game: Callable[[GameResult], None] | None = None,
    keep_records: bool = False,
) -> ArenaRun:
    """Play at least ``games`` games (whole deal sets times every rotation) between entrants
    of one game, with its ``setup`` (default: the rules' own).

    ``players`` defaults to the number of entrants; ``workers`` to every core.
    """
    entrants = tuple(entrants)
    players = len(entrants) if players is None else players
    matches = schedule(len(entrants), players, games, seed)
    table = check_table(entrants, players, setup or {})
    rotations = len({m.rotation for m in matches})
    workers = default_workers() if workers is None else workers
    start = time.perf_counter()
    results = play_schedule(matches, entrants, players, table, workers, on_game, keep_records)
    return ArenaRun(
        entrants=entrants,
        players=players,
        setup=table,
        seed=seed,
        games_asked=games,
        rotations=rotations,
        results=tuple(results),
        seconds=time.perf_counter() - start,
        workers=workers,
    )
