"""Cards and board as data: the card-set format, its validation, and the effect catalogue.

The rulebook gives no card texts or numbers (see ``docs/name-of-odin/cards.md``), so every
building, hero, longship and raid, the action-card mix and the board's numbers are data: a
:class:`CardSet`. :func:`parse_cards` validates a mapping (as read from TOML or JSON) and
names the file, the card, the field and what was expected in every error;
:func:`load_cards` reads a user's file; :func:`starter_cards` is the project's own set
(NOT the published cards). Reading files happens only in those two explicit functions.

A card's special ability is one :class:`Ability` from a small catalogue (:data:`EFFECTS`),
covering the effects the rulebook describes; the building kinds' own abilities (a forge's
craft symbol, an inn's limit of 14, ...) are the rulebook's and live in the engine.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

from odin_cards.name_of_odin.rules.symbols import (
    ACTION_CODES,
    BUILDING_KINDS,
    CARD_CODES,
    VIKING_CODES,
    VIKING_NAMES,
)

FORMAT: Final = "name-of-odin-cards/1"
"""The card-set format this module reads and writes."""
MAX_FILE_BYTES: Final = 1_000_000
MAX_CARDS: Final = 200
"""Per card type."""
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
"""The player counts a card set serves: its board says how many raids each of them plays."""
PLAYER_COUNTS: Final = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")

DISCOUNTABLE: Final = ("recruit-hero", "build", "material", "ship", "return", "repair")
"""The actions a building's ``discount`` can make cheaper (by symbols)."""

EFFECTS: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    # effect: (the card type that may carry it, its parameters besides "effect")
    "discount": ("building", ("action", "amount")),
    "extra-vikings": ("building", ("amount",)),
    "viking-limit": ("building", ("amount",)),
    "hand-size": ("building", ("amount",)),
    "ship-slots": ("building", ("amount",)),
    "extra-range": ("ship", ("amount",)),
    "raid-discount": ("ship hero", ("viking",)),
    "raid-glory": ("hero", ("amount",)),
    "gain-material": ("hero", ("amount",)),
    "recruit-vikings": ("hero", ("viking", "amount")),
    "repair": ("hero", ("amount",)),
    "return-ship": ("hero", ()),
}
"""The effect catalogue. Buildings: ``discount`` (once a turn, that action costs ``amount``
symbols fewer), ``extra-vikings`` (once a turn, recruiting vikings brings ``amount`` more),
``viking-limit``/``hand-size``/``ship-slots`` (permanent, + ``amount``). Longships (while
raiding with them): ``extra-range``, ``raid-discount`` (one viking of that type fewer).
Heroes, raid abilities: ``raid-discount``, ``raid-glory`` (+``amount`` glory for the raid);
action abilities (one use, then the hero goes under its deck): ``gain-material``,
``recruit-vikings``, ``repair`` (``amount`` damage off one longship), ``return-ship``."""

HERO_ACTIONS: Final = ("gain-material", "recruit-vikings", "repair", "return-ship")
"""Hero effects used as an action of their own (the others work during a raid)."""


class CardsError(ValueError):
    """A card set that is not valid; the message names file, card, field and expectation."""


@dataclass(frozen=True, slots=True)
class Ability:
    effect: str
    amount: int = 1
    action: str | None = None
    """For ``discount``: the action made cheaper (:data:`DISCOUNTABLE`)."""
    viking: str | None = None
    """For ``raid-discount``/``recruit-vikings``: a viking code (``W``, ``T``, ``S``)."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"effect": self.effect}
        params = EFFECTS[self.effect][1]
        if "amount" in params:
            data["amount"] = self.amount
        if "action" in params:
            data["action"] = self.action
        if "viking" in params and self.viking is not None:
            data["viking"] = VIKING_NAMES[self.viking]
        return data

    @property
    def is_hero_action(self) -> bool:
        return self.effect in HERO_ACTIONS


@dataclass(frozen=True, slots=True)
class Building:
    id: str
    name: str
    kind: str
    glory: int
    ability: Ability | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "glory": self.glory,
        }
        if self.ability is not None:
            data["ability"] = self.ability.to_dict()
        return data


@dataclass(frozen=True, slots=True)
class Hero:
    id: str
    name: str
    viking: str
    ability: Ability | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "viking": VIKING_NAMES[self.viking],
        }
        if self.ability is not None:
            data["ability"] = self.ability.to_dict()
        return data


@dataclass(frozen=True, slots=True)
class Ship:
    id: str
    name: str
    range: int
    glory: int
    ability: Ability | None = None

    @property
    def extra_range(self) -> int:
        ability = self.ability
        return ability.amount if ability is not None and ability.effect == "extra-range" else 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "range": self.range,
            "glory": self.glory,
        }
        if self.ability is not None:
            data["ability"] = self.ability.to_dict()
        return data


@dataclass(frozen=True, slots=True)
class Raid:
    id: str
    name: str
    glory: int
    vikings: tuple[str, ...]
    """Viking codes the raid card shows (the zone's marker adds one more)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "glory": self.glory,
            "vikings": [VIKING_NAMES[v] for v in self.vikings],
        }


@dataclass(frozen=True, slots=True)
class Zone:
    """One ocean zone: the range a raid there needs, its slots, glory and viking marker."""

    name: str
    range: int
    slots: int
    glory: int
    marker: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "range": self.range,
            "slots": self.slots,
            "glory": self.glory,
            "marker": self.marker,
        }


@dataclass(frozen=True, slots=True)
class HeroSlot:
    cost: int
    glory: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"cost": self.cost, "glory": self.glory}


@dataclass(frozen=True, slots=True)
class Board:
    hand_size: int
    viking_limit: int
    vikings_per_type: int
    action_display: int
    building_display: int
    ship_display: int
    coast_slots: int
    raids_by_players: Mapping[int, int]
    hero_slots: tuple[HeroSlot, ...]
    ocean: tuple[Zone, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_size": self.hand_size,
            "viking_limit": self.viking_limit,
            "vikings_per_type": self.vikings_per_type,
            "action_display": self.action_display,
            "building_display": self.building_display,
            "ship_display": self.ship_display,
            "coast_slots": self.coast_slots,
            "raids_by_players": {str(k): v for k, v in sorted(self.raids_by_players.items())},
            "hero_slots": [slot.to_dict() for slot in self.hero_slots],
            "ocean": [zone.to_dict() for zone in self.ocean],
        }

    @property
    def ocean_slots(self) -> tuple[Zone, ...]:
        """The zone of every ocean position, top zone first, left to right in a zone."""
        return tuple(zone for zone in self.ocean for _ in range(zone.slots))


@dataclass(frozen=True, slots=True)
class CardSet:
    name: str
    note: str
    board: Board
    actions: Mapping[str, int]
    """Action card code -> how many copies."""
    buildings: tuple[Building, ...]
    heroes: tuple[Hero, ...]
    ships: tuple[Ship, ...]
    raids: tuple[Raid, ...]
    by_id: Mapping[str, Building | Hero | Ship | Raid] = field(compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "name": self.name,
            "note": self.note,
            "board": self.board.to_dict(),
            "actions": {code: self.actions[code] for code in CARD_CODES},
            "building": [b.to_dict() for b in self.buildings],
            "hero": [h.to_dict() for h in self.heroes],
            "ship": [s.to_dict() for s in self.ships],
            "raid": [r.to_dict() for r in self.raids],
        }

    def building(self, card_id: str) -> Building:
        card = self.by_id[card_id]
        assert isinstance(card, Building)
        return card

    def hero(self, card_id: str) -> Hero:
        card = self.by_id[card_id]
        assert isinstance(card, Hero)
        return card

    def ship(self, card_id: str) -> Ship:
        card = self.by_id[card_id]
        assert isinstance(card, Ship)
        return card

    def raid(self, card_id: str) -> Raid:
        card = self.by_id[card_id]
        assert isinstance(card, Raid)
        return card


# --- reading -------------------------------------------------------------------------------


class _Reader:
    """Validation with the place of every error: source file, card, field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, expected: str, got: object = None) -> CardsError:
        shown = repr(got)
        if len(shown) > 40:
            shown = shown[:37] + "..."
        return CardsError(f"{self.source}: {where}: expected {expected}, got {shown}")

    def table(self, data: object, where: str) -> Mapping[str, Any]:
        if not isinstance(data, Mapping):
            raise self.fail(where, "a table", data)
        return data

    def keys(
        self, data: Mapping[str, Any], where: str, required: set[str], optional: set[str]
    ) -> None:
        for key in data:
            if key not in required | optional:
                known = ", ".join(sorted(required | optional))
                raise self.fail(f"{where}: field {key!r}", f"only the fields {known}", key)
        for key in sorted(required):
            if key not in data:
                raise self.fail(f"{where}: field {key!r}", "the field to be present", None)

    def integer(self, data: Mapping[str, Any], key: str, where: str, low: int, high: int) -> int:
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(f"{where}: field {key!r}", f"a whole number {low}..{high}", value)
        return value

    def text(self, data: Mapping[str, Any], key: str, where: str, limit: int = 60) -> str:
        value = data[key]
        if not isinstance(value, str) or not 0 < len(value) <= limit:
            raise self.fail(f"{where}: field {key!r}", f"a text of 1..{limit} characters", value)
        return value

    def flag(self, data: Mapping[str, Any], key: str, where: str) -> bool:
        value = data[key]
        if not isinstance(value, bool):
            raise self.fail(f"{where}: field {key!r}", "true or false", value)
        return value

    def viking(self, value: object, where: str) -> str:
        if not isinstance(value, str) or value not in VIKING_CODES:
            raise self.fail(where, "one of warrior, trader, sailor", value)
        return VIKING_CODES[value]

    def cards(self, data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
        value = data.get(key, [])
        if not isinstance(value, list) or not 0 < len(value) <= MAX_CARDS:
            raise self.fail(f"[[{key}]]", f"a list of 1..{MAX_CARDS} cards", value)
        return [self.table(item, f"{key} #{n + 1}") for n, item in enumerate(value)]

    def ability(self, data: Mapping[str, Any], where: str, card_type: str) -> Ability | None:
        if "ability" not in data:
            return None
        where = f"{where}: field 'ability'"
        raw = self.table(data["ability"], where)
        effect = raw.get("effect")
        if (
            not isinstance(effect, str)
            or effect not in EFFECTS
            or card_type not in EFFECTS[effect][0].split()
        ):
            allowed = ", ".join(
                e for e, (types, _) in EFFECTS.items() if card_type in types.split()
            )
            raise self.fail(f"{where}: field 'effect'", f"one of {allowed}", effect)
        params = EFFECTS[effect][1]
        self.keys(raw, where, {"effect", *params}, set())
        amount = self.integer(raw, "amount", where, 1, 5) if "amount" in params else 1
        action = None
        if "action" in params:
            action = raw["action"]
            if action not in DISCOUNTABLE:
                raise self.fail(
                    f"{where}: field 'action'", f"one of {', '.join(DISCOUNTABLE)}", action
                )
        viking = (
            self.viking(raw["viking"], f"{where}: field 'viking'") if "viking" in params else None
        )
        return Ability(effect, amount, action, viking)


def parse_cards(data: object, source: str = "<card set>") -> CardSet:
    """A validated :class:`CardSet` from a mapping; :class:`CardsError` names what is wrong."""
    read = _Reader(source)
    top = read.table(data, "the file")
    read.keys(
        top,
        "the file",
        {"format", "name", "board", "actions", "building", "hero", "ship", "raid"},
        {"note"},
    )
    if top["format"] != FORMAT:
        raise read.fail("field 'format'", repr(FORMAT), top["format"])
    name = read.text(top, "name", "the file")
    note = read.text(top, "note", "the file", 2000) if "note" in top else ""
    board = _board(read, read.table(top["board"], "[board]"))
    actions = _actions(read, read.table(top["actions"], "[actions]"), board)
    seen: dict[str, Building | Hero | Ship | Raid] = {}

    def identify(raw: Mapping[str, Any], where: str) -> tuple[str, str]:
        card_id = raw.get("id")
        if not isinstance(card_id, str) or not _ID.fullmatch(card_id):
            raise read.fail(
                f"{where}: field 'id'", "1..40 of a-z, 0-9 and '-' (not first)", card_id
            )
        if card_id in seen:
            raise read.fail(f"{where}: field 'id'", "an id no other card has", card_id)
        return card_id, f"{where.split(' #')[0]} {card_id!r}"

    buildings: list[Building] = []
    for n, raw in enumerate(read.cards(top, "building")):
        card_id, where = identify(raw, f"building #{n + 1}")
        read.keys(raw, where, {"id", "name", "kind", "glory"}, {"ability"})
        kind = raw["kind"]
        if kind not in BUILDING_KINDS:
            raise read.fail(f"{where}: field 'kind'", f"one of {', '.join(BUILDING_KINDS)}", kind)
        card = Building(
            card_id,
            read.text(raw, "name", where),
            kind,
            read.integer(raw, "glory", where, 0, 20),
            read.ability(raw, where, "building"),
        )
        buildings.append(card)
        seen[card_id] = card
    heroes: list[Hero] = []
    for n, raw in enumerate(read.cards(top, "hero")):
        card_id, where = identify(raw, f"hero #{n + 1}")
        read.keys(raw, where, {"id", "name", "viking"}, {"ability"})
        hero = Hero(
            card_id,
            read.text(raw, "name", where),
            read.viking(raw["viking"], f"{where}: field 'viking'"),
            read.ability(raw, where, "hero"),
        )
        heroes.append(hero)
        seen[card_id] = hero
    ships: list[Ship] = []
    for n, raw in enumerate(read.cards(top, "ship")):
        card_id, where = identify(raw, f"ship #{n + 1}")
        read.keys(raw, where, {"id", "name", "range", "glory"}, {"ability"})
        ship = Ship(
            card_id,
            read.text(raw, "name", where),
            read.integer(raw, "range", where, 1, 9),
            read.integer(raw, "glory", where, 0, 20),
            read.ability(raw, where, "ship"),
        )
        ships.append(ship)
        seen[card_id] = ship
    raids: list[Raid] = []
    for n, raw in enumerate(read.cards(top, "raid")):
        card_id, where = identify(raw, f"raid #{n + 1}")
        read.keys(raw, where, {"id", "name", "glory", "vikings"}, set())
        vikings = raw["vikings"]
        if not isinstance(vikings, list) or not 1 <= len(vikings) <= 9:
            raise read.fail(f"{where}: field 'vikings'", "a list of 1..9 viking types", vikings)
        raid = Raid(
            card_id,
            read.text(raw, "name", where),
            read.integer(raw, "glory", where, 0, 20),
            tuple(read.viking(v, f"{where}: field 'vikings'") for v in vikings),
        )
        raids.append(raid)
        seen[card_id] = raid
    _check_counts(read, board, buildings, heroes, ships, raids)
    return CardSet(
        name,
        note,
        board,
        actions,
        tuple(buildings),
        tuple(heroes),
        tuple(ships),
        tuple(raids),
        seen,
    )


def _board(read: _Reader, raw: Mapping[str, Any]) -> Board:
    where = "[board]"
    fields = {
        "hand_size",
        "viking_limit",
        "vikings_per_type",
        "action_display",
        "building_display",
        "ship_display",
        "coast_slots",
        "raids_by_players",
        "hero_slots",
        "ocean",
    }
    read.keys(raw, where, fields, set())
    by_players_raw = read.table(raw["raids_by_players"], f"{where}: field 'raids_by_players'")
    keys = [str(n) for n in PLAYER_COUNTS]
    if sorted(map(str, by_players_raw)) != keys or not all(
        isinstance(key, str) for key in by_players_raw
    ):
        raise read.fail(
            f"{where}: field 'raids_by_players'",
            "the keys " + ", ".join(f'"{key}"' for key in keys),
            list(by_players_raw),
        )
    by_players = {
        int(key): read.integer(by_players_raw, key, f"{where}: raids_by_players", 1, MAX_CARDS)
        for key in keys
    }
    slots_raw = raw["hero_slots"]
    if not isinstance(slots_raw, list) or not 1 <= len(slots_raw) <= 8:
        raise read.fail(f"{where}: field 'hero_slots'", "a list of 1..8 slots", slots_raw)
    hero_slots = []
    for n, slot in enumerate(slots_raw):
        at = f"{where}: hero slot {n + 1}"
        table = read.table(slot, at)
        read.keys(table, at, {"cost"}, {"glory"})
        glory = read.integer(table, "glory", at, 0, 10) if "glory" in table else 0
        hero_slots.append(HeroSlot(read.integer(table, "cost", at, 1, 9), glory))
    ocean_raw = raw["ocean"]
    if not isinstance(ocean_raw, list) or not 1 <= len(ocean_raw) <= 5:
        raise read.fail(f"{where}: field 'ocean'", "a list of 1..5 zones", ocean_raw)
    ocean = []
    for n, zone in enumerate(ocean_raw):
        at = f"{where}: ocean zone {n + 1}"
        table = read.table(zone, at)
        read.keys(table, at, {"name", "range", "slots", "glory", "marker"}, set())
        ocean.append(
            Zone(
                read.text(table, "name", at, 20),
                read.integer(table, "range", at, 1, 9),
                read.integer(table, "slots", at, 1, 6),
                read.integer(table, "glory", at, 0, 10),
                read.flag(table, "marker", at),
            )
        )
    if sum(zone.marker for zone in ocean) > len(VIKING_NAMES) - 1:
        raise read.fail(
            f"{where}: field 'ocean'",
            "at most 2 zones with a marker (3 markers, 1 spare)",
            ocean_raw,
        )
    return Board(
        hand_size=read.integer(raw, "hand_size", where, 1, 12),
        viking_limit=read.integer(raw, "viking_limit", where, 1, 40),
        vikings_per_type=read.integer(raw, "vikings_per_type", where, 1, 99),
        action_display=read.integer(raw, "action_display", where, 1, 8),
        building_display=read.integer(raw, "building_display", where, 1, 8),
        ship_display=read.integer(raw, "ship_display", where, 1, 8),
        coast_slots=read.integer(raw, "coast_slots", where, 1, 4),
        raids_by_players=by_players,
        hero_slots=tuple(hero_slots),
        ocean=tuple(ocean),
    )


def _actions(read: _Reader, raw: Mapping[str, Any], board: Board) -> dict[str, int]:
    read.keys(raw, "[actions]", set(CARD_CODES), set())
    counts = {code: read.integer(raw, code, "[actions]", 0, 99) for code in CARD_CODES}
    needed = 5 * (board.hand_size + 3) + board.action_display + 3
    if sum(counts.values()) < needed:
        raise read.fail("[actions]", f"at least {needed} action cards in all", sum(counts.values()))
    for symbol in (*VIKING_NAMES, *ACTION_CODES.values()):
        if not any(counts[code] for code in CARD_CODES if symbol in code):
            raise read.fail("[actions]", f"some card with the symbol {symbol}", counts)
    return counts


def _check_counts(
    read: _Reader,
    board: Board,
    buildings: list[Building],
    heroes: list[Hero],
    ships: list[Ship],
    raids: list[Raid],
) -> None:
    if len(buildings) < board.building_display:
        raise read.fail(
            "[[building]]", f"at least {board.building_display} buildings", len(buildings)
        )
    if len(heroes) < len(board.hero_slots) + 5:
        raise read.fail("[[hero]]", f"at least {len(board.hero_slots) + 5} heroes", len(heroes))
    if len(ships) < board.ship_display:
        raise read.fail("[[ship]]", f"at least {board.ship_display} longships", len(ships))
    most = max(board.raids_by_players.values())
    if len(raids) < most:
        raise read.fail("[[raid]]", f"at least {most} raids (raids_by_players)", len(raids))


def load_cards(path: str | Path) -> CardSet:
    """Read and validate a card-set file (``.toml`` or ``.json``); :class:`CardsError` if bad."""
    path = Path(path)
    source = path.name
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise CardsError(f"{source}: cannot be read: {error.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise CardsError(f"{source}: larger than {MAX_FILE_BYTES} bytes")
    return parse_cards(_decode(raw, source, json_file=path.suffix.lower() == ".json"), source)


def _decode(raw: bytes, source: str, json_file: bool) -> object:
    try:
        text = raw.decode("utf-8")
        return json.loads(text) if json_file else tomllib.loads(text)
    except UnicodeDecodeError:
        raise CardsError(f"{source}: not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise CardsError(f"{source}: not JSON: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise CardsError(f"{source}: not TOML: {error}") from None


_STARTER: list[CardSet] = []


def starter_cards() -> CardSet:
    """The project's starter set (``starter.toml`` in this package): NOT the published cards."""
    if not _STARTER:
        raw = resources.files(__package__).joinpath("starter.toml").read_bytes()
        _STARTER.append(parse_cards(_decode(raw, "starter.toml", json_file=False), "starter.toml"))
    return _STARTER[0]
