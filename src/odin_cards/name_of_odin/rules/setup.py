"""A game's set-up: the checked options, the card set they name, and the first state.

The set-up names the card set: ``"starter"`` (the project's set, the default) or a whole
card set inline (the format of ``docs/name-of-odin/cards.md``), so that a stored game
replays with its cards. :func:`start` deals the first state from the seed, or from the
draws injected as ``chance``; every draw comes from the seed's stream (:mod:`.streams`),
in the order the rules make them, so one seed always sets up the same table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeVar

from odin_cards.name_of_odin.rules import streams
from odin_cards.name_of_odin.rules.cards import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    CardsError,
    CardSet,
    parse_cards,
    starter_cards,
)
from odin_cards.name_of_odin.rules.errors import SetupRefusedError, brief
from odin_cards.name_of_odin.rules.space import ActionSpace
from odin_cards.name_of_odin.rules.state import State, Village, top
from odin_cards.name_of_odin.rules.symbols import CARD_CODES, VIKINGS, sort_cards

STARTER: Final = "starter"
SETUP_KEYS: Final = ("cards", "first_player")
MAX_SEED_TEXT: Final = 200
MAX_SEED_BITS: Final = 256
DECKS: Final = ("raid_deck", "building_deck", "ship_deck", "hero_deck", "action_deck")
"""The decks whose order ``chance`` may fix."""

S = TypeVar("S", bound=State)


def check_setup(players: int, setup: Mapping[str, Any]) -> dict[str, Any]:
    """``{"cards": "starter" | {card set}, "first_player": None | seat}`` normalized.

    A card set given inline is validated and written back canonically.
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise SetupRefusedError(f"players is a whole number, not {brief(players)}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupRefusedError(f"In the Name of Odin is for {MIN_PLAYERS}-{MAX_PLAYERS} players")
    if not isinstance(setup, Mapping):
        raise SetupRefusedError("the set-up is an object")
    for key in setup:
        if key not in SETUP_KEYS:
            raise SetupRefusedError(
                f"unknown set-up key {brief(key)}; keys: {', '.join(SETUP_KEYS)}"
            )
    cards = setup.get("cards", STARTER)
    if cards != STARTER:
        try:
            cards = parse_cards(cards, "set-up 'cards'").to_dict()
        except CardsError as error:
            raise SetupRefusedError(str(error)) from None
    first = setup.get("first_player")
    if first is not None and (
        isinstance(first, bool) or not isinstance(first, int) or first not in range(players)
    ):
        raise SetupRefusedError(
            f"first_player is a seat 0..{players - 1} or null, not {brief(first)}"
        )
    return {"cards": cards, "first_player": first}


def card_set(setup: Mapping[str, Any]) -> CardSet:
    """The cards a (checked) set-up names."""
    cards = setup.get("cards", STARTER)
    return starter_cards() if cards == STARTER else parse_cards(cards, "set-up 'cards'")


def start(
    kind: type[S],
    players: int,
    setup: Mapping[str, Any],
    seed: int | str,
    chance: Sequence[Any] | None = None,
) -> S:
    """A new game, as a ``kind`` (:class:`State` or the facade :class:`~.game.Game`).

    ``chance`` is ``[draws]``: a dict of deck orders fixed in advance (``raid_deck``,
    ``building_deck``, ``ship_deck``, ``hero_deck``, ``action_deck``: lists of every card,
    top first; ``action_deck`` is drawn from its end), ``markers`` (the zones' viking
    markers then the spare), ``first_player``.
    """
    checked = check_setup(players, setup)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise SetupRefusedError(f"the seed is a whole number or a text, not {brief(seed)}")
    if (isinstance(seed, str) and len(seed) > MAX_SEED_TEXT) or (
        isinstance(seed, int) and seed.bit_length() > MAX_SEED_BITS
    ):
        raise SetupRefusedError(
            f"a seed is at most {MAX_SEED_TEXT} characters or {MAX_SEED_BITS} bits"
        )
    draws: Mapping[str, Any] = {}
    if chance is not None:
        if len(chance) != 1 or not isinstance(chance[0], Mapping):
            raise SetupRefusedError("chance is [draws]: one object of deck orders")
        draws = chance[0]
    unknown = set(draws) - {*DECKS, "markers", "first_player"}
    if unknown:
        raise SetupRefusedError(f"chance: unknown draws {sorted(map(str, unknown))[:5]}")
    cards = card_set(checked)
    board = cards.board
    stream = streams.seeded(seed)

    def order(key: str, items: list[str]) -> list[str]:
        nonlocal stream
        given = draws.get(key)
        if given is None:
            shuffled, stream = streams.shuffled(stream, items)
            return shuffled
        if not isinstance(given, list) or sorted(given) != sorted(items):
            raise SetupRefusedError(f"chance {key!r}: expected an order of {len(items)} cards")
        return list(given)

    raids = order("raid_deck", [r.id for r in cards.raids])
    markers = draws.get("markers")
    if markers is None:
        markers, stream = streams.shuffled(stream, VIKINGS)
    elif not isinstance(markers, list) or sorted(markers) != sorted(VIKINGS):
        raise SetupRefusedError("chance 'markers': expected an order of W, T, S")
    marked = [z for z, zone in enumerate(board.ocean) if zone.marker]
    building_deck = order("building_deck", [b.id for b in cards.buildings])
    ship_deck = order("ship_deck", [s.id for s in cards.ships])
    hero_deck = order("hero_deck", [h.id for h in cards.heroes])
    action_deck = order(
        "action_deck", [code for code in CARD_CODES for _ in range(cards.actions[code])]
    )
    raid_deck = raids[: board.raids_by_players[players]]
    game = kind(
        players=players,
        cards=cards,
        setup=checked,
        seed=seed,
        chance=None if chance is None else dict(draws),
        stream=stream,
        history=[],
        raid_deck=raid_deck,
        markers={z: markers[n] for n, z in enumerate(marked)},
        spare_markers=list(markers[len(marked) :]),
        building_deck=building_deck,
        ship_deck=ship_deck,
        hero_deck=hero_deck,
        action_deck=action_deck,
        action_discard=[],
        reserve=dict.fromkeys(VIKINGS, board.vikings_per_type),
        ocean=[top(raid_deck) for _ in board.ocean_slots],
        building_display=[top(building_deck) for _ in range(board.building_display)],
        ship_display=[top(ship_deck) for _ in range(board.ship_display)],
        hero_display=[top(hero_deck) for _ in board.hero_slots],
        villages=[Village(hand=[]) for _ in range(players)],
        action_display=[],
        active=0,
        first_player=0,
        swap="open",
        used_symbols=set(),
        used_abilities=set(),
        decision_name="turn",
        recruiting=None,
        raid=None,
        pickers=[],
        turn_number=1,
        actions=[],
        final=None,
        space=ActionSpace(cards),
    )
    for village in game.villages:
        village.hand = sort_cards([game.draw_action() or "" for _ in range(board.hand_size)])
    game.action_display = sort_cards(
        [c for c in (game.draw_action() for _ in range(board.action_display)) if c]
    )
    first = checked["first_player"]
    if first is None:
        first = draws.get("first_player")
    if first is not None and (type(first) is not int or first not in range(players)):
        raise SetupRefusedError(f"chance 'first_player': expected a seat, got {brief(first)}")
    if first is None:
        first, game.stream = streams.randrange(game.stream, players)
    game.active = game.first_player = first
    game.log(
        "setup",
        {
            "players": players,
            "first_player": first,
            "cards": cards.name,
            "raids": len(game.raid_deck) + sum(1 for r in game.ocean if r),
        },
    )
    for seat, village in enumerate(game.villages):
        game.log(
            "deal",
            {"seat": seat, "count": len(village.hand)},
            {"seat": seat, "cards": list(village.hand)},
        )
    return game
