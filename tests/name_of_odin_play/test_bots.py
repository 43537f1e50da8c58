"""The bots of In the Name of Odin: always a legal action, asked with their seat's view only,
and blind to what that view hides (a peeking bot is caught by the same check)."""

from __future__ import annotations

import inspect
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from odin_cards.games import plugin_of
from odin_cards.name_of_odin import bots
from odin_cards.name_of_odin.rules import NAME_OF_ODIN, Game, starter_cards
from odin_cards.tools.simulate import bot_game

GAME = "name-of-odin"
LEVELS = tuple(bots.LEVELS)


def choose_move(level: str, state: Any, rng: random.Random) -> str:
    """The move of ``level``, asked as the platform asks: through the game's plugin."""
    return plugin_of(GAME).load_bots()(state, level, None, rng)


def test_the_plugin_offers_the_levels_weakest_first() -> None:
    plugin = plugin_of(GAME)
    assert plugin.level_keys == ("random", "heuristic")
    level = plugin.level("heuristic")
    assert level is not None and level.seconds is None  # it answers at once


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("level", LEVELS)
def test_bots_play_whole_games_with_legal_actions_only(players: int, level: str) -> None:
    """Every move is checked against the legal actions (``ask`` refuses others)."""
    for index in range(2):
        game = bot_game(GAME, players, {}, f"legal:{players}:{index}", [level] * players)
        assert len(game.scores) == players and game.winners
        assert all(len(times) > 0 for times in game.think_seconds)


def test_a_heuristic_bot_moves_as_the_plugin_says_from_the_view() -> None:
    game = NAME_OF_ODIN.new_game(3, {}, "same")
    rng_a, rng_b = random.Random(5), random.Random(5)
    while not game.is_over and game.action_count < 200:
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        direct = bots.ask(bots.make_bot("heuristic"), view, rng_a)
        through = choose_move("heuristic", game, rng_b)
        assert direct == through
        assert direct in [a.text for a in game.legal_actions()]
        game.apply(direct, seat=seat)


class SpyBot:
    """Records what it is given and plays the first legal action."""

    def __init__(self) -> None:
        self.given: list[tuple[Any, ...]] = []

    def choose(self, view: bots.View, legal: Sequence[str], rng: random.Random) -> str:
        self.given.append((view, legal, rng))
        return legal[0]


def test_a_bot_is_given_its_seats_view_and_its_legal_actions_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spy = SpyBot()
    monkeypatch.setattr(bots, "make_bot", lambda level: spy)
    game = NAME_OF_ODIN.new_game(4, {}, "spy")
    for _ in range(150):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        text = choose_move("heuristic", game, random.Random(1))
        view, legal, _ = spy.given[-1]
        assert view == game.view(seat)
        assert list(legal) == [a.text for a in game.legal_actions()] == view["legal"]
        for village in view["villages"]:
            assert "hand" not in village  # only sizes of the hands
        assert isinstance(view["action_deck"], int)
        game.apply(text, seat=seat)


class PeekingBot:
    """Cheats: finds the game in its caller's frames and reads the next seat's hand."""

    def choose(self, view: bots.View, legal: Sequence[str], rng: random.Random) -> str:
        frame = inspect.currentframe()
        while frame is not None and "state" not in frame.f_locals:
            frame = frame.f_back
        assert frame is not None
        state: Game = frame.f_locals["state"]
        seen = state.view((view["seat"] + 1) % view["players"])["hand"]
        return legal[sum(map(ord, "".join(seen))) % len(legal)]


def twin_starts(players: int, count: int) -> Iterator[tuple[Game, Game]]:
    """Pairs of new games alike for seat 0 (its hand, the table, the first player: seat 0)
    whose other seats hold other cards (swapped with cards left in the deck)."""
    cards = starter_cards()
    board = cards.board
    rng = random.Random(players)
    for _ in range(count):
        decks: dict[str, Any] = {
            "raid_deck": rng.sample([r.id for r in cards.raids], len(cards.raids)),
            "building_deck": rng.sample([b.id for b in cards.buildings], len(cards.buildings)),
            "ship_deck": rng.sample([s.id for s in cards.ships], len(cards.ships)),
            "hero_deck": rng.sample([h.id for h in cards.heroes], len(cards.heroes)),
            "markers": rng.sample(["W", "T", "S"], 3),
            "first_player": 0,
        }
        deck = [code for code, n in cards.actions.items() for _ in range(n)]
        rng.shuffle(deck)
        # drawn from the end: seat 0's hand, the other hands, then the action display
        hands = board.hand_size * players
        others = range(len(deck) - hands, len(deck) - board.hand_size)
        undealt = rng.sample(range(len(deck) - hands - board.action_display), len(others))
        swapped = list(deck)
        for mine, theirs in zip(others, undealt, strict=True):
            swapped[mine], swapped[theirs] = swapped[theirs], swapped[mine]
        one = NAME_OF_ODIN.new_game(players, {}, "twin", [{**decks, "action_deck": deck}])
        two = NAME_OF_ODIN.new_game(players, {}, "twin", [{**decks, "action_deck": swapped}])
        yield one, two


def choices_differ(level: str, monkeypatch: pytest.MonkeyPatch | None = None) -> int:
    """In how many twin starts seat 0's bot chooses differently (it must never)."""
    differ = 0
    for players in (2, 3, 4, 5):
        for index, (one, two) in enumerate(twin_starts(players, 15)):
            assert one.view(0) == two.view(0)
            hidden: Mapping[str, Any] = {"one": one.view(1)["hand"], "two": two.view(1)["hand"]}
            if hidden["one"] == hidden["two"]:
                continue
            first = choose_move(level, one, random.Random(index))
            second = choose_move(level, two, random.Random(index))
            differ += first != second
    return differ


@pytest.mark.parametrize("level", LEVELS)
def test_bots_choose_alike_whatever_the_hidden_cards(level: str) -> None:
    assert choices_differ(level) == 0


def test_the_check_catches_a_peeking_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "make_bot", lambda level: PeekingBot())
    assert choices_differ("heuristic") > 0


def test_a_bot_answering_an_illegal_action_is_refused() -> None:
    class Wrong:
        def choose(self, view: bots.View, legal: Sequence[str], rng: random.Random) -> str:
            return "raid nowhere noship W"

    game = NAME_OF_ODIN.new_game(2, {}, "wrong")
    seat = game.current_player
    assert seat is not None
    with pytest.raises(ValueError, match="not legal here"):
        bots.ask(Wrong(), game.view(seat), random.Random(0))
    with pytest.raises(ValueError, match="only for the seat to move"):
        bots.ask(bots.make_bot("random"), game.view(1 - seat), random.Random(0))


def test_an_unknown_level_names_the_levels() -> None:
    with pytest.raises(KeyError, match="levels: random, heuristic"):
        bots.make_bot("grandmaster")


def test_heuristic_bots_finish_games_of_poor_raids() -> None:
    """Only raids end the game: bots must take a poor raid rather than wait for ever."""
    cards = starter_cards().to_dict()
    for raid in cards["raid"]:
        raid["glory"] = 0
        raid["vikings"] = (raid["vikings"] * 2)[:8]
    setup = NAME_OF_ODIN.check_setup(2, {"cards": cards})
    for index in range(2):
        game = bot_game(GAME, 2, setup, f"poor:{index}", ["heuristic", "heuristic"])
        assert sum(game.scores) >= 0 and game.actions < 5_000
