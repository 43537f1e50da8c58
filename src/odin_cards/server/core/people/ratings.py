"""Ratings (issue #10): OpenSkill (Plackett-Luce) for rated tables, and every finished
table's results per seat (place, win, statistics) that profiles add up.

A table is *rated* when its creator asked for it (``settings["rated"]``, an account only)
and, at its end, every person's seat is an account's, no move was made for a person by a
stand-in or a bot (the log's ``by``), and the game finished normally: a cancelled or
expired table never finishes. Heads-up (2 players) and 3-6 players are rated apart (two
*classes*). Only games whose plugin says ``rated`` are rated. Their bot levels carry fixed
reference ratings (the plugin's ``ratings``; Odin's measured by the arena's ladder,
``odin/bot_ratings.json``): they take part in the update with that rating, and it never
changes. Places come from the final scores (fewest points first; equal scores share a
place).

Every finished table is *settled* once: its results stored and, if it is rated, its
people's ratings updated, in one transaction keyed by the table (a second settling, by
this process or another, changes nothing). The table's owner settles it when the last move
is applied; a sweep at start and every few minutes settles what a stopped process left.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

from odin_cards.games import plugins
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import Clock, RatingStore, StoreUnavailable
from odin_cards.server.core.ports.people import (
    ANCHOR_POINTS,
    BETA,
    CLASSES,
    MU,
    PROVISIONAL_GAMES,
    PROVISIONAL_SIGMA,
    SCALE,
    SIGMA,
    Rater,
    Rating,
    RatingChange,
    SeatResult,
    Settled,
    TableResult,
    class_of,
    points,
)
from odin_cards.server.core.tables.table import LiveTable

log = logging.getLogger(__name__)

# ---------------------------------------------------------------- the model

TAU = 25.0 / 300.0
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)
"""OpenSkill's Plackett-Luce with its usual constants (``MU``, ``SIGMA`` and ``BETA``, the
scale, are stated with :class:`Rating` in the ports)."""


@functools.cache
def bot_ratings(game: str) -> Mapping[str, Rating]:
    """Each bot level's fixed rating in ``game`` (its plugin's reference ratings: for Odin,
    ``odin/bot_ratings.json`` says how they were measured); none for an unknown game."""
    plugin = plugins().get(game)
    if plugin is None:
        return {}
    return {
        level: Rating(mu, sigma, PROVISIONAL_GAMES)
        for level, (mu, sigma) in plugin.load_ratings().items()
    }


# ---------------------------------------------------------------- rated tables


def rated_setting(value: Any, game: str, people: int = 1) -> bool:
    """The normalized ``settings["rated"]`` of a new table with ``people`` seats for
    people (absent: not rated), or ``bad_options``."""
    if value is None or value is False:
        return False
    if value is not True:
        raise DomainError("bad_options", "rated is true or false")
    plugin = plugins().get(game)
    if plugin is None or not plugin.rated:
        raise DomainError("bad_options", "tables of this game cannot be rated")
    if people < 1:
        raise DomainError("bad_options", "a rated table needs a seat for a person")
    return True


def is_rated(settings: Mapping[str, Any]) -> bool:
    """Whether a table with these settings was created rated (its end decides the rest)."""
    return settings.get("rated") is True


def rated(settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``settings`` (a new table's, for :meth:`Hall.create`) with ``rated`` on: how
    matchmaking creates its rated tables."""
    return {**(settings or {}), "rated": True}


def places(scores: Sequence[int]) -> tuple[int, ...]:
    """Each seat's place from the final scores (Odin: fewest points first), 1-based;
    equal scores share the better place (1, 1, 3)."""
    return tuple(1 + sum(1 for other in scores if other < mine) for mine in scores)


def result_of(table: LiveTable, finished: datetime) -> TableResult | None:
    """The results of a finished ``table``; ``None`` if it did not finish (cancelled,
    expired, broken or still running: nothing to settle)."""
    outcome = table.game.outcome
    if table.status != "finished" or outcome is None:
        return None
    scores = tuple(int(score) for score in outcome.scores)
    place = places(scores)
    figures = _statistics(table)
    seats = tuple(
        SeatResult(
            seat.seat,
            seat.name is not None and seat.bot is None,
            seat.bot,
            place[seat.seat],
            seat.seat in outcome.winners,
            scores[seat.seat],
            figures[seat.seat] if seat.seat < len(figures) else {},
        )
        for seat in table.seats
    )
    rated = is_rated(table.settings)
    return TableResult(
        table.id,
        table.game_key,
        table.players,
        finished,
        seats,
        rated,
        _unrated(table) if rated else None,
    )


def _statistics(table: LiveTable) -> list[dict[str, Any]]:
    data = table.game.record().to_dict().get("statistics")
    if not isinstance(data, dict):
        return []
    seats = data.get("seats")
    return [dict(seat) for seat in seats] if isinstance(seats, list) else []


def _unrated(table: LiveTable) -> str | None:
    """Why a rated table's end is not rated, from the table alone."""
    plugin = plugins().get(table.game_key)
    if plugin is None or not plugin.rated:
        return "not a rated game"
    references = bot_ratings(table.game_key)
    if any(stamp.by is not None for stamp in table.stamps):
        return "a move was made for a person (stand-in or bot)"
    for seat in table.seats:
        if seat.bot is not None and seat.bot not in references:
            return f"the bot level {seat.bot} has no reference rating"
    if not any(seat.name is not None for seat in table.seats):
        return "no person played"
    return None


def rate_table(
    result: TableResult,
    accounts: Mapping[int, str | None],
    current: Mapping[str, Rating],
) -> list[RatingChange] | str:
    """The rating changes of a rated table's people, or why it is not rated after all.

    ``accounts``: the account holding each seat (``None``: a guest); ``current``: those
    accounts' ratings in the table's class (absent: new). Bots take part with their fixed
    rating, which does not change.
    """
    if not result.rated:
        return "not rated"
    if result.unrated is not None:
        return result.unrated
    people = [seat for seat in result.seats if seat.person]
    owners = [accounts.get(seat.seat) for seat in people]
    if any(owner is None for owner in owners):
        return "a seat was a guest's"
    if len(set(owners)) != len(owners):
        return "one account held two seats"
    teams = []
    for seat in result.seats:
        if seat.person:
            own = current.get(accounts[seat.seat] or "", Rating())
        else:
            own = bot_ratings(result.game)[seat.bot or ""]
        teams.append([MODEL.rating(mu=own.mu, sigma=own.sigma)])
    new = MODEL.rate(teams, ranks=[float(seat.place) for seat in result.seats])
    changes = []
    for seat, team in zip(result.seats, new, strict=True):
        if not seat.person:
            continue
        account = accounts[seat.seat] or ""
        before = current.get(account, Rating())
        after = Rating(float(team[0].mu), float(team[0].sigma), before.games + 1)
        changes.append(RatingChange(account, seat.seat, seat.place, before, after))
    return changes


# ---------------------------------------------------------------- the service

SWEEP_SECONDS = 300.0
"""How often finished tables left unsettled (a process stopped in between) are looked for."""

SWEEP_BATCH = 50


class Results:
    """Settles every finished table: at its end (hall hook) and by a sweep."""

    def __init__(
        self,
        store: RatingStore,
        load: Callable[[str], Awaitable[LiveTable]],
        clock: Clock,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        self.store = store
        self.load = load
        self.clock = clock
        self.spawn = spawn
        self._lock = asyncio.Lock()
        """One settling at a time in this process (ratings are read, then written)."""

    def finished(self, table: LiveTable) -> None:
        """The hall's hook: ``table``'s last move was applied here (its owner)."""
        self.spawn(self._settle_soon(table))

    async def _settle_soon(self, table: LiveTable) -> None:
        try:
            await self.settle(table)
        except StoreUnavailable:
            log.warning("table %s: results not stored now; the sweep will", table.id)

    async def settle(self, table: LiveTable) -> Settled | None:
        result = result_of(table, self.clock.now())
        if result is None:
            return None
        async with self._lock:
            for attempt in range(3):  # two processes rating one account at once: again
                try:
                    settled = await self.store.settle(
                        result, lambda accounts, current: rate_table(result, accounts, current)
                    )
                    break
                except StoreUnavailable:
                    if attempt == 2:
                        raise
        if settled.new and result.rated:
            log.info("table %s settled: %s", table.id, settled.note or "rated")
        return settled

    async def sweep(self, limit: int = SWEEP_BATCH) -> int:
        """Settle finished tables nobody settled (their process stopped); how many."""
        done = 0
        for table_id in await self.store.unsettled(limit):
            try:
                table = await self.load(table_id)
            except DomainError as error:
                log.warning("table %s not settled: %s", table_id, error.message)
                continue
            if await self.settle(table) is not None:
                done += 1
        return done

    async def run(self) -> None:
        """Sweep at start, then every :data:`SWEEP_SECONDS`."""
        while True:
            try:
                while await self.sweep() == SWEEP_BATCH:
                    pass
            except StoreUnavailable:
                log.warning("unsettled tables not swept now (store unavailable); later")
            await self.clock.sleep(SWEEP_SECONDS)


__all__ = [
    "ANCHOR_POINTS",
    "CLASSES",
    "MODEL",
    "MU",
    "PROVISIONAL_GAMES",
    "PROVISIONAL_SIGMA",
    "SCALE",
    "SIGMA",
    "Rater",
    "Rating",
    "RatingChange",
    "RatingStore",
    "Results",
    "SeatResult",
    "Settled",
    "TableResult",
    "bot_ratings",
    "class_of",
    "is_rated",
    "places",
    "points",
    "rate_table",
    "rated",
    "rated_setting",
    "result_of",
]
