"""Statistics of an arena run: win shares with 95% intervals, points, ratings, think times.

* **Win share**: per game, a winner gets 1 divided by the number of winners (tied players
  share the victory); an entrant's share is the mean over the games it played. The shares
  of all entrants sum to 1.
* **95% interval**: the Wilson score interval with the game as the trial and the
  (possibly fractional) share as the success count. Wilson stays inside [0, 1] and is
  sensible near 0 and 1, where the strength targets live. Rotations of one deal set are
  negatively correlated (a lucky deal helps each entrant in turn), so treating games as
  independent overstates the variance: the interval is conservative.
* **Points per hand**: an entrant's final points over all its seats, divided by the hands
  those seats played, for a game whose outcome counts hands (Odin: points are bad, fewer
  is better); for any other game, per game played: its mean final score.
* **Rating**: openskill's Plackett-Luce model, one rating per entrant, updated game by game
  in schedule order with every seat ranked by its final score, in the direction the game's
  winners show (:func:`ranks`: in Odin fewer points are better), equal scores tying. An
  entrant holding several seats of one game gets the mean of its seats' updates. Shown as
  mu and sigma; the plot's error bars are mu +- 1.96 sigma.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from odin_cards.tools.arena.entrants import Entrant
from odin_cards.tools.arena.runner import ArenaRun, GameResult

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be fractional)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def victory_shares(result: GameResult) -> list[float]:
    """Per seat, its share of the victory in this game."""
    shares = [0.0] * len(result.scores)
    for seat in result.winners:
        shares[seat] = 1 / len(result.winners)
    return shares


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of already sorted values (0.0 when there are none)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


@dataclass(frozen=True, slots=True)
class BotStats:
    """One entrant's figures over a run."""

    label: str
    key: str
    games: int
    seats: int
    """Seat-games: equals ``games`` unless the entrant held several seats per game."""
    wins: float
    """Sum of its victory shares."""
    win_share: float
    ci_low: float
    ci_high: float
    fair_share: float
    """The share of an entrant exactly as strong as the others (its seats / all seats)."""
    points: int
    hands: int
    """Hands played by its seats (seat-hands); for a game without hands, its seat-games."""
    mu: float
    sigma: float
    decisions: int
    decision_mean: float
    decision_p95: float
    decision_max: float

    @property
    def points_per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    @property
    def ordinal(self) -> float:
        """The conservative rating mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def ranks(scores: Sequence[int], winners: Sequence[int]) -> list[float]:
    """Each seat's rank (lower is better) by its final score, in the direction the winners
    show: their scores are the lowest (Odin's points) or the highest (glory). Where the
    winners are neither, they come first and the others tie after them."""
    if all(scores[w] == min(scores) for w in winners):
        return [float(score) for score in scores]
    if all(scores[w] == max(scores) for w in winners):
        return [float(-score) for score in scores]
    return [0.0 if seat in winners else 1.0 for seat in range(len(scores))]


def ratings(entrants: int, results: Sequence[GameResult]) -> list[tuple[float, float]]:
    """(mu, sigma) per entrant after rating every game in order (openskill: the arena
    extra; the rest of this module is the core's)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [model.rating() for _ in range(entrants)]
    for result in results:
        teams = [[current[e]] for e in result.lineup]
        rated = model.rate(teams, ranks=ranks(result.scores, result.winners))
        for entrant in set(result.lineup):
            seats = [s for s, e in enumerate(result.lineup) if e == entrant]
            mu = sum(rated[s][0].mu for s in seats) / len(seats)
            sigma = sum(rated[s][0].sigma for s in seats) / len(seats)
            current[entrant] = model.rating(mu=mu, sigma=sigma)
    return [(r.mu, r.sigma) for r in current]


def bot_stats(run: ArenaRun) -> list[BotStats]:
    """Figures per entrant, in the order the entrants were named."""
    return summarise(run.entrants, run.players, run.results)


def summarise(
    entrants: Sequence[Entrant], players: int, results: Sequence[GameResult]
) -> list[BotStats]:
    count = len(entrants)
    games = [0] * count
    seats = [0] * count
    wins = [0.0] * count
    points = [0] * count
    hands = [0] * count
    times: list[list[float]] = [[] for _ in range(count)]
    for result in results:
        shares = victory_shares(result)
        for who in set(result.lineup):
            games[who] += 1
        for seat, who in enumerate(result.lineup):
            seats[who] += 1
            wins[who] += shares[seat]
            points[who] += result.scores[seat]
            hands[who] += 1 if result.hands is None else result.hands
            times[who].extend(result.decision_seconds[seat])
    rated = ratings(count, results)
    stats = []
    for index, entrant in enumerate(entrants):
        n = games[index]
        low, high = wilson_interval(wins[index], n)
        decisions = sorted(times[index])
        total_seats = sum(seats)
        stats.append(
            BotStats(
                label=entrant.label,
                key=entrant.key,
                games=n,
                seats=seats[index],
                wins=wins[index],
                win_share=wins[index] / n if n else 0.0,
                ci_low=low,
                ci_high=high,
                fair_share=seats[index] / total_seats if total_seats else 0.0,
                points=points[index],
                hands=hands[index],
                mu=rated[index][0],
                sigma=rated[index][1],
                decisions=len(decisions),
                decision_mean=sum(decisions) / len(decisions) if decisions else 0.0,
                decision_p95=percentile(decisions, 0.95),
                decision_max=decisions[-1] if decisions else 0.0,
            )
        )
    return stats
