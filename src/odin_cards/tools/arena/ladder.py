"""The ladder: levels weakest first, each heads-up against the one below, stopped when clear.

Each *rung* is a heads-up match between two neighbouring levels on seeded deal sets,
every deal set played in both seat orders. After every batch of deal sets a
sequential probability ratio test (:class:`Sprt`, Wald's SPRT) compares the upper
level's win share against two hypotheses, ``0.5 + delta`` (the upper level is
stronger) and ``0.5 - delta`` (it is weaker), and the rung stops as soon as one is
accepted at the chosen error rates; a rung that reaches its game limit first is
*undecided* (the two are within about ``delta`` of each other, or more games are
needed). A clear difference is settled in a few deal sets, so the ladder's time goes
to the close rungs.

A game's victory share (1, 0, or 1/2 for a tie) enters the likelihood as a
Bernoulli outcome weighted by the share, the usual quasi-likelihood for drawn games.
Checking only after whole batches, and the negative correlation of a deal set's two
seat orders, make the test a little conservative, never less.

Ratings are Elo-style: a rung's win share ``p`` is ``400 log10(p / (1 - p))`` points
between its two levels, the weakest level is 0, and each level adds the rungs below
it. Its 95% interval comes from each rung's Wilson interval turned into points, the
half-widths of the rungs below added in quadrature (rungs are independent matches).
A rung won or lost in every game is counted half a game from the edge (Elo has no
finite value for a share of 1): its rating is then a floor rather than an estimate.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from odin_cards.tools.arena.entrants import ArenaError, Entrant
from odin_cards.tools.arena.runner import GameResult, check_table, play_schedule
from odin_cards.tools.arena.schedule import Match, deal_seed
from odin_cards.tools.arena.stats import victory_shares, wilson_interval

Verdict = Literal["stronger", "weaker", "undecided"]


@dataclass(frozen=True, slots=True)
class Sprt:
    """Wald's sequential test between win shares ``0.5 + delta`` and ``0.5 - delta``."""

    delta: float = 0.1
    alpha: float = 0.05
    """Chance of calling the upper level stronger when its share is ``0.5 - delta``."""
    beta: float = 0.05
    """Chance of calling it weaker when its share is ``0.5 + delta``."""

    def __post_init__(self) -> None:
        if not 0 < self.delta < 0.5:
            raise ArenaError(f"delta must lie between 0 and 0.5, not {self.delta}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ArenaError("the error rates alpha and beta must lie between 0 and 0.5")

    def llr(self, wins: float, games: int) -> float:
        """Log-likelihood ratio of 'stronger' over 'weaker' after ``wins`` in ``games``."""
        return (2 * wins - games) * math.log((0.5 + self.delta) / (0.5 - self.delta))

    def verdict(self, wins: float, games: int) -> Verdict:
        """'stronger' or 'weaker' once a bound is crossed; 'undecided' before."""
        llr = self.llr(wins, games)
        if llr >= math.log((1 - self.beta) / self.alpha):
            return "stronger"
        if llr <= math.log(self.beta / (1 - self.alpha)):
            return "weaker"
        return "undecided"


@dataclass(frozen=True, slots=True)
class Rung:
    """One heads-up match of the ladder: ``upper`` (listed later) against ``lower``."""

    upper: str
    lower: str
    games: int
    wins: float
    """The upper level's victory shares summed."""
    verdict: Verdict
    llr: float
    decision_seconds: tuple[tuple[float, ...], tuple[float, ...]]
    """Decision times of the upper and of the lower level."""

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


@dataclass(frozen=True, slots=True)
class Rating:
    """A level's place on the ladder, in Elo-style points above the weakest level."""

    label: str
    rating: float
    low: float
    high: float


def elo(share: float, games: int) -> float:
    """Points between two players for a win share over ``games``.

    A share of 0 or 1 has no finite Elo: it is taken half a game from the edge.
    """
    edge = 0.5 / max(games, 1)
    share = min(max(share, edge), 1 - edge)
    return 400 * math.log10(share / (1 - share))


def play_rung(
    upper: Entrant,
    lower: Entrant,
    setup: Mapping[str, Any],
    test: Sprt,
    max_games: int,
    seed: int = 1,
    workers: int = 1,
    on_game: Callable[[GameResult], None] | None = None,
) -> Rung:
    """Play deal sets (both seat orders) until the test decides or ``max_games`` are played.

    ``workers`` deal sets are played per batch, on as many processes; the test is
    checked after each batch.
    """
    if max_games < 2:
        raise ArenaError(f"a rung needs at least 2 games (one deal set), not {max_games}")
    entrants = (upper, lower)
    wins = 0.0
    results: list[GameResult] = []
    deal = 0
    verdict: Verdict = "undecided"
    while len(results) < max_games and verdict == "undecided":
        batch = min(workers, -(-(max_games - len(results)) // 2))
        matches = [
            Match(d, rotation, deal_seed(seed, d), lineup)
            for d in range(deal, deal + batch)
            for rotation, lineup in enumerate(((0, 1), (1, 0)))
        ]
        deal += batch
        played = play_schedule(matches, entrants, 2, setup, workers, on_game)
        for result in played:
            shares = victory_shares(result)
            wins += sum(shares[s] for s, who in enumerate(result.lineup) if who == 0)
        results.extend(played)
        verdict = test.verdict(wins, len(results))
    times: tuple[list[float], list[float]] = ([], [])
    for result in results:
        for seat, who in enumerate(result.lineup):
            times[who].extend(result.decision_seconds[seat])
    return Rung(
        upper=upper.label,
        lower=lower.label,
        games=len(results),
        wins=wins,
        verdict=verdict,
        llr=test.llr(wins, len(results)),
        decision_seconds=(tuple(times[0]), tuple(times[1])),
    )


def run_ladder(
    entrants: Sequence[Entrant],
    setup: Mapping[str, Any] | None = None,
    test: Sprt | None = None,
    max_games: int = 200,
    seed: int = 1,
    workers: int = 1,
    on_game: Callable[[GameResult], None] | None = None,
    on_rung: Callable[[Rung], None] | None = None,
) -> list[Rung]:
    """Every rung, weakest pair first: each entrant against the one listed before it, all
    of one game, heads-up with its ``setup`` (default: the rules' own)."""
    if len(entrants) < 2:
        raise ArenaError("a ladder needs at least two levels, weakest first")
    table = check_table(entrants, 2, setup or {})
    test = test or Sprt()
    rungs = []
    for lower, upper in itertools.pairwise(entrants):
        rung = play_rung(upper, lower, table, test, max_games, seed, workers, on_game)
        rungs.append(rung)
        if on_rung is not None:
            on_rung(rung)
    return rungs


def ladder_ratings(rungs: Sequence[Rung]) -> list[Rating]:
    """Each level's rating with its 95% interval; the weakest level is 0."""
    if not rungs:
        return []
    ratings = [Rating(rungs[0].lower, 0.0, 0.0, 0.0)]
    total = 0.0
    spread = 0.0
    for rung in rungs:
        low, high = rung.interval
        total += elo(rung.share, rung.games)
        half = (elo(high, rung.games) - elo(low, rung.games)) / 2
        spread = math.hypot(spread, half)
        ratings.append(Rating(rung.upper, total, total - spread, total + spread))
    return ratings


__all__ = [
    "Rating",
    "Rung",
    "Sprt",
    "Verdict",
    "elo",
    "ladder_ratings",
    "play_rung",
    "run_ladder",
]
