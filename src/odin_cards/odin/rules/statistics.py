"""A finished game in numbers: what a table's final screen, the replay and ``odin replay`` show.

Computed from a game's typed history in one pass, so the same figures come out of a live
game, a replayed record and a record file. They are derived data: a record carries them
(:mod:`.record`), and a record whose stored figures differ from its moves does not replay.

Words, as the rules use them:

* a **round** is won by the seat whose set ends it: the one everybody else passed on
  (:class:`.events.RoundEnd`), or the one who emptied their hand, which ends the hand's
  last round too (:class:`.events.HandEnd`). So ``rounds`` is the sum of rounds won.
* the **highest set** is the play of the highest value (more cards always beat fewer);
  on a tie, the first one played.
* ``points`` are a seat's points of each hand; ``scores`` its total after each hand
  (the chart of the final screen). The last total is the game's final score.

The figures hold only public facts (plays, passes, takes, hand ends): they reveal
nothing of a running game; still, they are made for finished games only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from odin_cards.odin.rules.events import Event, HandEnd, Pass, Play, RoundEnd, Take


@dataclass(frozen=True, slots=True)
class HighestSet:
    """The play of the highest value: who played it, in which hand (0-based), its cards."""

    seat: int
    hand: int
    cards: tuple[str, ...]
    value: int

    @property
    def size(self) -> int:
        return len(self.cards)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand": self.hand,
            "cards": list(self.cards),
            "value": self.value,
            "size": self.size,
        }


@dataclass(frozen=True, slots=True)
class SeatStatistics:
    """One seat's part of a game."""

    rounds_won: int
    hands_ended: int
    """Hands this seat ended by emptying its hand."""
    passes: int
    cards_played: int
    cards_taken: int
    highest_set: HighestSet | None
    points: tuple[int, ...]
    """Points of each hand."""
    scores: tuple[int, ...]
    """Total points after each hand."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds_won": self.rounds_won,
            "hands_ended": self.hands_ended,
            "passes": self.passes,
            "cards_played": self.cards_played,
            "cards_taken": self.cards_taken,
            "highest_set": None if self.highest_set is None else self.highest_set.to_dict(),
            "points": list(self.points),
            "scores": list(self.scores),
        }


@dataclass(frozen=True, slots=True)
class GameStatistics:
    """The whole table's figures and every seat's."""

    hands: int
    """Hands finished."""
    rounds: int
    passes: int
    cards_played: int
    highest_set: HighestSet | None
    seats: tuple[SeatStatistics, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "rounds": self.rounds,
            "passes": self.passes,
            "cards_played": self.cards_played,
            "highest_set": None if self.highest_set is None else self.highest_set.to_dict(),
            "seats": [seat.to_dict() for seat in self.seats],
        }


@dataclass(slots=True)
class _Tally:
    """One seat's counts while the history is read."""

    rounds_won: int = 0
    hands_ended: int = 0
    passes: int = 0
    cards_played: int = 0
    cards_taken: int = 0
    highest_set: HighestSet | None = None

    def freeze(self, points: list[int]) -> SeatStatistics:
        scores, total = [], 0
        for hand_points in points:
            total += hand_points
            scores.append(total)
        return SeatStatistics(
            rounds_won=self.rounds_won,
            hands_ended=self.hands_ended,
            passes=self.passes,
            cards_played=self.cards_played,
            cards_taken=self.cards_taken,
            highest_set=self.highest_set,
            points=tuple(points),
            scores=tuple(scores),
        )


def game_statistics(history: Sequence[Event], players: int) -> GameStatistics:
    """The figures of the game whose history (``Game.history``) this is."""
    tallies = [_Tally() for _ in range(players)]
    points: list[list[int]] = [[] for _ in range(players)]
    hand = 0
    highest: HighestSet | None = None
    for event in history:
        match event:
            case Play(seat, action):
                tally = tallies[seat]
                tally.cards_played += action.size
                if tally.highest_set is None or action.value > tally.highest_set.value:
                    tally.highest_set = HighestSet(seat, hand, action.cards, action.value)
                    if highest is None or action.value > highest.value:
                        highest = tally.highest_set
            case Pass(seat):
                tallies[seat].passes += 1
            case Take(seat):
                tallies[seat].cards_taken += 1
            case RoundEnd(leader):
                tallies[leader].rounds_won += 1
            case HandEnd(seat, hand_points):
                tallies[seat].rounds_won += 1
                tallies[seat].hands_ended += 1
                for each, scored in enumerate(hand_points):
                    points[each].append(scored)
                hand += 1
    seats = tuple(t.freeze(p) for t, p in zip(tallies, points, strict=True))
    return GameStatistics(
        hands=hand,
        rounds=sum(s.rounds_won for s in seats),
        passes=sum(s.passes for s in seats),
        cards_played=sum(s.cards_played for s in seats),
        highest_set=highest,
        seats=seats,
    )
