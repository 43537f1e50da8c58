"""Tables set up by hand for the rulebook's worked examples.

Each example starts from a real game of the starter set and then places exactly what
the example describes (hands, vikings, buildings, ships, the ocean); nothing else of the
state is touched.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

from odin_cards.name_of_odin.rules import NAME_OF_ODIN, Game
from odin_cards.name_of_odin.rules.state import Longship, Village
from odin_cards.name_of_odin.rules.symbols import VIKINGS, sort_cards

SKADI, RAGNAR, SIF, THORSTEN = 0, 1, 2, 3
"""The rulebook's players, clockwise: Ragnar is Skadi's left neighbour (example 6)."""


def cards_with_hero_costs(*costs: int) -> dict[str, Any]:
    """The starter set with the hero display's slots costing ``costs`` (the leftmost +1 glory).

    The tests of how hero slots work (costs, the shift, discounts, building symbols) need
    small, distinct costs whatever the starter set's balanced numbers are.
    """
    raw = resources.files("odin_cards.name_of_odin.rules").joinpath("starter.toml").read_bytes()
    data: dict[str, Any] = tomllib.loads(raw.decode())
    data["board"]["hero_slots"] = [
        {"cost": cost, "glory": 1} if slot == 0 else {"cost": cost}
        for slot, cost in enumerate(costs)
    ]
    return data


SMALL_HEROES = cards_with_hero_costs(3, 2, 2, 1)
"""Hero slots costing 3 (+1 glory), 2, 2 and 1 hero symbols."""


def table(players: int = 4, seed: int = 1, cards: dict[str, Any] | None = None) -> Game:
    """A fresh game (the starter set unless ``cards``), seat 0 to move, villages emptied."""
    setup: dict[str, Any] = {"first_player": 0}
    if cards is not None:
        setup["cards"] = cards
    game = NAME_OF_ODIN.new_game(players, setup, seed)
    for village in game.villages:
        game.action_discard.extend(village.hand)
    game.villages = [Village(hand=[]) for _ in range(players)]
    return game


def village(
    game: Game,
    seat: int,
    *,
    hand: list[str] | None = None,
    vikings: dict[str, int] | None = None,
    buildings: list[str] | None = None,
    materials: int = 0,
    hero: str | None = None,
    ships: list[Longship] | None = None,
    glory: int = 0,
) -> Village:
    """Give ``seat`` what an example says; vikings come out of (and go back to) the reserve."""
    place = game.villages[seat]
    for viking in VIKINGS:
        game.reserve[viking] += place.vikings[viking]
    place.hand = sort_cards(hand or [])
    place.vikings = {v: (vikings or {}).get(v, 0) for v in VIKINGS}
    for viking in VIKINGS:
        game.reserve[viking] -= place.vikings[viking]
    place.buildings = list(buildings or [])
    for building in place.buildings:
        _take(game.building_display, game.building_deck, building)
    place.materials = materials
    place.hero = hero
    if hero is not None:
        _take(game.hero_display, game.hero_deck, hero)
    place.ships = list(ships or [])
    for ship in place.ships:
        _take(game.ship_display, game.ship_deck, ship.id)
    place.glory = glory
    return place


def _take(display: list[str | None], deck: list[str], card: str) -> None:
    """Take a card out of a display (leaving the slot empty) or out of its deck."""
    if card in display:
        display[display.index(card)] = None
    elif card in deck:
        deck.remove(card)


def texts(game: Game, verb: str) -> list[str]:
    return [a.text for a in game.legal_actions() if a.verb == verb]
