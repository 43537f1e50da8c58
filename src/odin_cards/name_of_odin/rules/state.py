"""The state of a game of In the Name of Odin: one value, its pieces, and what follows
from it.

:class:`State` is a dataclass whose fields, listed once, are the whole game: its copy
(:meth:`State.clone`) and ``==`` both go through that list, so a field added there is
copied and compared without another line. A copy copies the containers and the mutable
pieces (:class:`Village`, :class:`Longship`, ...) and shares everything immutable: text,
numbers, tuples, frozen records (the events, the card set), the seeded stream chance is
drawn from (:mod:`.streams`; no live generator is held), and the fields marked as set once
(the set-up and the injected chance, which nothing changes after the set-up).

The queries here (a seat's viking limit, the cost of a material, ...) are shared by the
legal actions (:mod:`.legal`), the moves (:mod:`.moves`) and the views (:mod:`.view`);
:meth:`State.log` and :meth:`State.draw_action` are the two changes that both the set-up
(:mod:`.setup`) and the moves make. The rules themselves are in :mod:`.moves`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final, Self

from odin_cards.name_of_odin.rules import streams
from odin_cards.name_of_odin.rules.cards import Ability, CardSet, Hero
from odin_cards.name_of_odin.rules.space import ActionSpace
from odin_cards.name_of_odin.rules.symbols import BUILDING_KINDS, BUILDING_SYMBOL, VIKINGS

INN_BONUS: Final = 4
"""An inn raises the limit from 10 to 14."""
PLOTS: Final = len(BUILDING_KINDS)
"""Building plots in a village: one per building kind."""


# --- the pieces -----------------------------------------------------------------------------


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


# --- the state ------------------------------------------------------------------------------

_SET_ONCE: Final = {"set_once": True}
"""Field metadata: written by the set-up and never changed, so copies share it."""


@dataclass(slots=True, repr=False)
class State:
    """A whole game, from its set-up to its final scoring (built by :func:`.setup.start`)."""

    players: int
    cards: CardSet
    setup: dict[str, Any] = field(metadata=_SET_ONCE)
    """The checked set-up."""
    seed: int | str
    chance: dict[str, Any] | None = field(metadata=_SET_ONCE)
    """The draws injected at set-up, or ``None``."""
    stream: streams.Stream
    """Where the next random draw comes from (only reshuffles draw during play)."""
    history: list[Event]
    raid_deck: list[str]
    markers: dict[int, str]
    """Ocean zone index -> the viking marker lying there."""
    spare_markers: list[str]
    building_deck: list[str]
    ship_deck: list[str]
    hero_deck: list[str]
    action_deck: list[str]
    """Drawn from its end."""
    action_discard: list[str]
    reserve: dict[str, int]
    ocean: list[str | None]
    building_display: list[str | None]
    ship_display: list[str | None]
    hero_display: list[str | None]
    villages: list[Village]
    action_display: list[str]
    active: int
    """The seat whose turn it is (others may decide during its raid)."""
    first_player: int
    swap: str
    """``open``, ``refreshed`` or ``used`` (R5)."""
    used_symbols: set[str]
    used_abilities: set[str]
    decision_name: str | None
    recruiting: Recruiting | None
    raid: RaidInProgress | None
    pickers: list[int]
    turn_number: int
    actions: list[tuple[int, str]]
    """Every action applied: (seat, canonical text)."""
    final: Outcome | None
    space: ActionSpace = field(compare=False)
    """The id space of this card set's actions (derived from ``cards``, so not compared)."""

    # --- the contract's questions -------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.final is not None

    @property
    def outcome(self) -> Outcome | None:
        return self.final

    @property
    def decision(self) -> str | None:
        return self.decision_name

    @property
    def current_player(self) -> int | None:
        name = self.decision_name
        if name is None:
            return None
        if name == "modify":
            assert self.raid is not None
            return self.raid.asked[0]
        if name == "pick":
            return self.pickers[0]
        return self.active

    @property
    def action_count(self) -> int:
        return len(self.actions)

    @property
    def public_length(self) -> int:
        return len(self.history)

    def clone(self) -> Self:
        """An independent copy (see the module's docstring for what is shared)."""
        copy: Self = _copy(self)
        return copy

    def __repr__(self) -> str:
        where = "over" if self.final is not None else f"turn {self.turn_number}, {self.decision}"
        return f"<{type(self).__name__} {self.players} players, {where}>"

    # --- derived quantities -------------------------------------------------------------

    def abilities(self, seat: int) -> Iterator[tuple[str, Ability]]:
        """(building id, ability) for every building ability of ``seat``."""
        for building_id in self.villages[seat].buildings:
            ability = self.cards.building(building_id).ability
            if ability is not None:
                yield building_id, ability

    def kinds(self, seat: int) -> set[str]:
        return {self.cards.building(b).kind for b in self.villages[seat].buildings}

    def _bonus(self, seat: int, effect: str) -> int:
        return sum(a.amount for _, a in self.abilities(seat) if a.effect == effect)

    def viking_limit(self, seat: int) -> int:
        bonus = INN_BONUS if "inn" in self.kinds(seat) else 0
        return self.cards.board.viking_limit + bonus + self._bonus(seat, "viking-limit")

    def hand_limit(self, seat: int) -> int:
        bonus = 1 if "rune-circle" in self.kinds(seat) else 0
        return self.cards.board.hand_size + bonus + self._bonus(seat, "hand-size")

    def ship_slots(self, seat: int) -> int:
        bonus = 1 if "shipyard" in self.kinds(seat) else 0
        return self.cards.board.coast_slots + bonus + self._bonus(seat, "ship-slots")

    def empty_plots(self, seat: int) -> int:
        return PLOTS - len(self.villages[seat].buildings)

    def ship_range(self, ship: Longship) -> int:
        card = self.cards.ship(ship.id)
        return card.range + card.extra_range - ship.damage

    def hero_card(self, seat: int) -> Hero | None:
        hero = self.villages[seat].hero
        return None if hero is None else self.cards.hero(hero)

    def material_cost(self, seat: int) -> int:
        village = self.villages[seat]
        return len(village.buildings) + village.materials + 1

    def discount(self, seat: int, action: str) -> tuple[int, str | None]:
        """The first unused once-a-turn discount on ``action`` (R8): (amount, building)."""
        for building_id, ability in self.abilities(seat):
            if (
                ability.effect == "discount"
                and ability.action == action
                and building_id not in self.used_abilities
            ):
                return ability.amount, building_id
        return 0, None

    def building_symbol_free(self, seat: int, symbol: str) -> bool:
        """Whether ``seat`` has a building giving ``symbol`` not yet used this turn."""
        if symbol in self.used_symbols:
            return False
        return any(BUILDING_SYMBOL.get(kind) == symbol for kind in self.kinds(seat))

    def anyone_can_build(self, building_id: str) -> bool:
        """Whether some seat has no building of that building's kind yet (R10)."""
        kind = self.cards.building(building_id).kind
        return any(kind not in self.kinds(seat) for seat in range(self.players))

    def marker_at(self, position: int) -> str | None:
        zone = self.cards.board.ocean_slots[position]
        index = self.cards.board.ocean.index(zone)
        return self.markers.get(index)

    def longship(self, seat: int, ship_id: str) -> Longship:
        """The longship ``ship_id`` of ``seat`` (which owns it)."""
        return next(s for s in self.villages[seat].ships if s.id == ship_id)

    def score(self, seat: int) -> dict[str, int]:
        """The final scoring of ``seat``: glory, buildings, ships, vikings."""
        village = self.villages[seat]
        counts = [village.vikings[v] for v in VIKINGS]
        return {
            "glory": village.glory,
            "buildings": sum(self.cards.building(b).glory for b in village.buildings),
            "ships": sum(self.cards.ship(s.id).glory for s in village.ships),
            "same": sum(n // 3 for n in counts),
            "sets": min(counts),
        }

    # --- the two changes the set-up and the moves share ---------------------------------

    def log(
        self, kind: str, public: Mapping[str, Any], secret: Mapping[str, Any] | None = None
    ) -> None:
        """Append an event to the history (``secret``: what only its ``seat`` may see)."""
        self.history.append(Event(kind, dict(public), None if secret is None else dict(secret)))

    def draw_action(self) -> str | None:
        """The top action card; an empty deck is replaced by the shuffled discards."""
        if not self.action_deck:
            if not self.action_discard:
                return None
            self.action_deck, self.stream = streams.shuffled(self.stream, self.action_discard)
            self.action_discard = []
            self.log("reshuffle", {"cards": len(self.action_deck)})
        return self.action_deck.pop()


def top(deck: list[str]) -> str | None:
    """Take the top card of ``deck`` (its first); ``None`` when it is empty."""
    return deck.pop(0) if deck else None


def _copy(value: Any) -> Any:
    """``value`` copied as a part of the state: containers and mutable dataclasses (the
    pieces, the state itself) are copied field by field; anything else is immutable and
    shared. A container of the state holds one kind of thing (events, card ids,
    villages, ...), so its first item says whether its items need copies."""
    kind = type(value)
    if kind is list:
        if value and _mutable(type(value[0])):
            return [_copy(item) for item in value]
        return value[:]
    if kind is dict:
        if value and _mutable(type(next(iter(value.values())))):
            return {key: _copy(item) for key, item in value.items()}
        return value.copy()
    if kind is set:
        return value.copy()
    if _mutable(kind):
        return kind(
            **{
                f.name: getattr(value, f.name)
                if f.metadata.get("set_once")
                else _copy(getattr(value, f.name))
                for f in fields(value)
            }
        )
    return value


def _mutable(kind: type) -> bool:
    """Whether values of ``kind`` are containers or mutable dataclasses (copied, not shared)."""
    if kind is list or kind is dict or kind is set:
        return True
    params = getattr(kind, "__dataclass_params__", None)
    return params is not None and not params.frozen
