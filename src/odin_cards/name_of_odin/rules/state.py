"""The pieces of a game's state: villages, longships, a raid or recruitment in progress,
history events and the outcome. Plain data; the rules are in :mod:`.game` and :mod:`.legal`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from odin_cards.name_of_odin.rules.symbols import VIKINGS


@dataclass(slots=True)
class Longship:
    """A longship a player owns: its card, damage markers, and whether it is away raiding."""

    id: str
    damage: int = 0
    away: bool = False


@dataclass(slots=True)
class Village:
    """One player's board and everything beside it."""

    hand: list[str]
    vikings: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VIKINGS, 0))
    buildings: list[str] = field(default_factory=list)
    materials: int = 0
    hero: str | None = None
    ships: list[Longship] = field(default_factory=list)
    raids: list[str] = field(default_factory=list)
    glory: int = 0

    @property
    def viking_count(self) -> int:
        return sum(self.vikings.values())


@dataclass(slots=True)
class Recruiting:
    """A recruitment still deciding: vikings to take from others, or to send back."""

    viking: str
    missing: int
    took_from_others: bool = False


@dataclass(slots=True)
class RaidInProgress:
    raid: str
    position: int
    ship: str
    sent: tuple[str, ...]
    asked: list[int]
    """Seats still to be asked to modify, in order (clockwise from the raider's left)."""
    modifiers: list[int] = field(default_factory=list)
    requirements: list[str] = field(default_factory=list)
    matched: int = 0


@dataclass(frozen=True, slots=True)
class Event:
    """One history entry: its public part and, for draws, the cards only ``seat`` sees."""

    kind: str
    public: Mapping[str, Any]
    secret: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    raids: tuple[int, ...]
    """Raids each seat made (the tie-break: fewer wins)."""
    breakdown: tuple[Mapping[str, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "raids": list(self.raids),
            "breakdown": [dict(b) for b in self.breakdown],
        }
