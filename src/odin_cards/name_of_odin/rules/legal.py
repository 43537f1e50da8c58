"""What the seat to move may do: every legal action, and why another one is refused.

Pure functions of a :class:`~.state.State`; the game calls :func:`legal` to list and to
validate actions, so both always agree. Payments list every
multiset of hand cards (in canonical order) that pays a cost, with the building symbol
``+X`` where it may join (rulings R7, R8 of ``docs/name-of-odin/RULES.md``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Final

from odin_cards.name_of_odin.rules.actions import Action
from odin_cards.name_of_odin.rules.state import Longship, State
from odin_cards.name_of_odin.rules.symbols import (
    ACTIONS,
    CARD_CODES,
    COSTS,
    VIKINGS,
    action_of,
    viking_of,
)

Move = tuple[str, tuple[str, ...]]
"""An action as (verb, arguments): what the generators below find, before it is numbered."""

REQUIREMENTS: Final = 3
"""Cards a raid's modification round ends with (played, then revealed)."""


def legal(game: State, only: str | None = None) -> list[Action]:
    """The legal actions now (of verb ``only``, when given), sorted by verb then arguments,
    each once, numbered by the game's id space."""
    name = game.decision
    if name is None:
        return []
    found = _legal_turn(game, only) if name == "turn" else _DECISIONS[name](game)
    space = game.space
    return [Action(verb, args, space) for verb, args in sorted(set(found))]


def payments(game: State, seat: int, symbol: str, cost: int, action: str) -> list[tuple[str, ...]]:
    """Every way to pay ``cost`` ``symbol`` symbols: card codes, maybe ``+X`` (R7, R8)."""
    discount, _ = game.discount(seat, action)
    need = max(cost - discount, 1)
    hand = Counter(game.villages[seat].hand)
    kinds = [code for code in CARD_CODES if action_of(code) == symbol and hand[code]]
    options: list[tuple[str, ...]] = []
    sizes = [(need, False)]
    if need >= 2 and game.building_symbol_free(seat, symbol):
        sizes.append((need - 1, True))
    for size, bonus in sizes:
        for combo in itertools.combinations_with_replacement(kinds, size):
            counts = Counter(combo)
            if all(counts[c] <= hand[c] for c in counts):
                options.append((*combo, "+" + symbol) if bonus else combo)
    return options


def raid_sends(
    game: State, seat: int, raid_id: str, position: int, ship: Longship
) -> list[tuple[str, ...]]:
    """The viking sets ``seat`` may send on this raid with this ship (R11)."""
    raid = game.cards.raid(raid_id)
    need = Counter(raid.vikings)
    marker = game.marker_at(position)
    if marker is not None:
        need[marker] += 1
    required = +need
    for discount in raid_discounts(game, seat, ship):
        if need[discount] > 0:
            need[discount] -= 1
    have = game.villages[seat].vikings
    if sum(need.values()) == 0:
        return [(v,) for v in VIKINGS if required[v] and have[v] >= 1]
    if all(have[v] >= need[v] for v in VIKINGS):
        return [tuple(v for v in VIKINGS for _ in range(need[v]))]
    return []


def raid_discounts(game: State, seat: int, ship: Longship) -> list[str]:
    """Viking discounts on a raid: the hero's symbol and raid ability, the ship's."""
    found: list[str] = []
    hero = game.hero_card(seat)
    if hero is not None:
        found.append(hero.viking)
        if hero.ability is not None and hero.ability.effect == "raid-discount":
            assert hero.ability.viking is not None
            found.append(hero.ability.viking)
    ability = game.cards.ship(ship.id).ability
    if ability is not None and ability.effect == "raid-discount":
        assert ability.viking is not None
        found.append(ability.viking)
    return found


# --- legal actions ------------------------------------------------------------------


def _legal_turn(game: State, only: str | None = None) -> Iterator[Move]:
    """The action phase's actions (only those of verb ``only``, when given)."""
    seat = game.active
    sections: dict[str, Callable[[State, int], Iterator[Move]]] = {
        "end": lambda _game, _seat: iter((("end", ()),)),
        "refresh": _legal_refresh,
        "swap": _legal_swap,
        "recruit": _legal_recruit,
        "hero": _legal_hero,
        "ability": _legal_ability,
        "build": _legal_build,
        "material": _legal_material,
        "ship": _legal_ship,
        "return": _legal_return,
        "repair": _legal_repair,
        "raid": _legal_raid,
    }
    for verb, section in sections.items():
        if only is None or verb == only:
            yield from section(game, seat)


def _legal_refresh(game: State, seat: int) -> Iterator[Move]:
    if game.swap == "open":
        for card in sorted(set(game.villages[seat].hand)):
            yield ("refresh", (card,))


def _legal_swap(game: State, seat: int) -> Iterator[Move]:
    if game.swap in ("open", "refreshed"):
        for mine in set(game.villages[seat].hand):
            for theirs in set(game.action_display):
                if mine != theirs:
                    yield ("swap", (mine, theirs))


def _legal_recruit(game: State, seat: int) -> Iterator[Move]:
    hand = Counter(game.villages[seat].hand)
    for viking in VIKINGS:
        cards = [c for c in CARD_CODES if viking_of(c) == viking and hand[c]]
        for size in (1, 2, 3):
            for combo in itertools.combinations_with_replacement(cards, size):
                if all(hand[c] >= n for c, n in Counter(combo).items()):
                    yield ("recruit", combo)


def _legal_hero(game: State, seat: int) -> Iterator[Move]:
    for slot, hero_id in enumerate(game.hero_display):
        if hero_id is not None:
            cost = game.cards.board.hero_slots[slot].cost
            for pay in payments(game, seat, "H", cost, "recruit-hero"):
                yield ("hero", (hero_id, *pay))


def _legal_build(game: State, seat: int) -> Iterator[Move]:
    if game.villages[seat].materials >= 1:
        kinds = game.kinds(seat)
        for building_id in {b for b in game.building_display if b}:
            if game.cards.building(building_id).kind not in kinds:
                for pay in payments(game, seat, "C", COSTS["build"], "build"):
                    yield ("build", (building_id, *pay))


def _legal_material(game: State, seat: int) -> Iterator[Move]:
    if game.villages[seat].materials < game.empty_plots(seat):
        for pay in payments(game, seat, "C", game.material_cost(seat), "material"):
            yield ("material", pay)


def _legal_ship(game: State, seat: int) -> Iterator[Move]:
    if len(game.villages[seat].ships) < game.ship_slots(seat):
        for ship_id in {s for s in game.ship_display if s}:
            for pay in payments(game, seat, "N", COSTS["ship"], "ship"):
                yield ("ship", (ship_id, *pay))


def _legal_return(game: State, seat: int) -> Iterator[Move]:
    for ship in game.villages[seat].ships:
        if ship.away:
            for pay in payments(game, seat, "N", COSTS["return"], "return"):
                yield ("return", (ship.id, *pay))


def _legal_repair(game: State, seat: int) -> Iterator[Move]:
    for ship in game.villages[seat].ships:
        if ship.damage:
            for pay in payments(game, seat, "N", COSTS["repair"], "repair"):
                yield ("repair", (ship.id, *pay))


def _legal_raid(game: State, seat: int) -> Iterator[Move]:
    village = game.villages[seat]
    if village.hero is None:
        return
    zones = game.cards.board.ocean_slots
    for ship in village.ships:
        if ship.away:
            continue
        reach = game.ship_range(ship)
        for position, raid_id in enumerate(game.ocean):
            if raid_id is not None and zones[position].range <= reach:
                for sent in raid_sends(game, seat, raid_id, position, ship):
                    yield ("raid", (raid_id, ship.id, *sent))


def _legal_ability(game: State, seat: int) -> Iterator[Move]:
    hero = game.hero_card(seat)
    if hero is None or hero.ability is None or not hero.ability.is_hero_action:
        return
    village = game.villages[seat]
    effect = hero.ability.effect
    if effect == "gain-material" and village.materials < game.empty_plots(seat):
        yield ("ability", ())
    elif effect == "recruit-vikings":
        viking = hero.ability.viking
        assert viking is not None
        if game.reserve[viking] or any(v.vikings[viking] for v in game.villages):
            yield ("ability", ())
    elif effect == "repair":
        for ship in village.ships:
            if ship.damage:
                yield ("ability", (ship.id,))
    elif effect == "return-ship":
        for ship in village.ships:
            if ship.away:
                yield ("ability", (ship.id,))


def _legal_take_viking(game: State) -> Iterator[Move]:
    yield ("stop", ())
    yield from (("take", (str(s),)) for s in takeable(game))


def takeable(game: State) -> list[int]:
    """Seats with the most vikings of the recruited type, if a take keeps R15."""
    recruiting = game.recruiting
    assert recruiting is not None
    viking = recruiting.viking
    others = [s for s in range(game.players) if s != game.active]
    most = max(game.villages[s].vikings[viking] for s in others)
    if most == 0:
        return []
    village = game.villages[game.active]
    excess = village.viking_count + 1 - game.viking_limit(game.active)
    if excess > village.viking_count + 1 - (village.vikings[viking] + 1):
        return []
    return [s for s in others if game.villages[s].vikings[viking] == most]


def _legal_release_viking(game: State) -> Iterator[Move]:
    recruiting = game.recruiting
    assert recruiting is not None
    village = game.villages[game.active]
    for viking in VIKINGS:
        if village.vikings[viking] and not (
            recruiting.took_from_others and viking == recruiting.viking
        ):
            yield ("release", (viking,))


def _legal_modify(game: State) -> Iterator[Move]:
    raid = game.raid
    assert raid is not None
    yield ("pass", ())
    if len(raid.requirements) < REQUIREMENTS:
        for card in set(game.villages[raid.asked[0]].hand):
            yield ("modify", (card,))


def _legal_match(game: State) -> Iterator[Move]:
    raid = game.raid
    assert raid is not None
    yield ("done", ())
    open_symbols = {action_of(c) for c in raid.requirements}
    for card in set(game.villages[game.active].hand):
        if action_of(card) in open_symbols:
            yield ("match", (card,))


def _legal_pick(game: State) -> Iterator[Move]:
    for card in set(game.action_display):
        yield ("pick", (card,))


# --- why an action is refused -------------------------------------------------------


def why_refused(game: State, action: Action) -> str:
    name = game.decision_name
    verbs = {a.verb for a in legal(game)}
    shown = f"{action.text!r}"
    if action.verb not in verbs:
        expected = ", ".join(sorted(verbs))
        return f"{shown}: not possible now (decision {name}; possible: {expected})"
    reasons = _reasons(game, action)
    detail = reasons or "not one of the legal choices now"
    return f"{shown}: {detail}"


def _reasons(game: State, action: Action) -> str | None:
    """The most specific reason found why ``action`` (whose verb is possible now) is not."""
    seat = game.current_player
    assert seat is not None
    verb, args = action.verb, action.args
    village = game.villages[seat]
    hand = Counter(village.hand)
    cards = Counter(a for a in args if len(a) == 2 and a[0] in VIKINGS and a[1] in ACTIONS)
    missing = [c for c in cards if cards[c] > hand[c]]
    if verb == "swap":
        missing = [c for c in missing if c == args[0]]
    if verb != "pick" and missing:
        return f"you do not hold {', '.join(missing)} (enough times)"
    displays = {
        "hero": game.hero_display,
        "build": game.building_display,
        "ship": game.ship_display,
    }
    owned = {s.id: s for s in village.ships}
    if verb in ("swap", "pick") and args[-1] not in game.action_display:
        return f"{args[-1]} is not in the action display"
    if verb == "recruit" and len({viking_of(c) for c in args}) > 1:
        return "recruiting spends viking symbols of one type only"
    if verb in displays and args[0] not in displays[verb]:
        return f"{args[0]} is not in the {'building' if verb == 'build' else verb} display"
    ship = args[1] if verb == "raid" else None
    if verb in ("return", "repair", "ability") and args:
        ship = args[0]
    if ship is not None:
        if ship not in owned:
            return f"you have no longship {ship}"
        if verb == "return" and not owned[ship].away:
            return f"{ship} is at home"
        if verb == "repair" and not owned[ship].damage:
            return f"{ship} has no damage"
        if verb == "raid" and owned[ship].away:
            return f"{ship} is away: it must return first"
    if verb == "build" and village.materials < 1:
        return "building needs a building material marker"
    if verb == "build" and game.cards.building(args[0]).kind in game.kinds(seat):
        return "you already have a building of that kind"
    if verb == "material" and village.materials >= game.empty_plots(seat):
        return "you hold as many materials as you have empty plots"
    if verb == "ship" and len(village.ships) >= game.ship_slots(seat):
        return "your coast has no free slot"
    if verb == "raid" and village.hero is None:
        return "a raid needs a hero"
    if verb == "raid" and args[0] not in game.ocean:
        return f"{args[0]} is not in the ocean"
    if verb == "match" and game.raid is not None:
        return f"no open requirement card shows the symbol {action_of(args[0])}"
    if verb == "take":
        return f"seat {args[0]} is not a player with the most of that type you may take from"
    if verb == "release":
        return f"you may not send back a {args[0]} now (none, or you took that type from others)"
    if any(a.startswith("+") for a in args):
        return "that building symbol is not available (once a turn, never alone, not in raids)"
    if verb in ("hero", "build", "material", "ship", "return", "repair"):
        return "these cards do not pay the cost (count the symbols)"
    if verb == "raid":
        return "out of this longship's range, or not the vikings this raid needs"
    return None


_DECISIONS: dict[str, Callable[[State], Iterator[Move]]] = {
    "take-viking": _legal_take_viking,
    "release-viking": _legal_release_viking,
    "modify": _legal_modify,
    "match": _legal_match,
    "pick": _legal_pick,
}
