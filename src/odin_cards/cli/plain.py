"""The platform's plain terminal, for a game whose plugin brings none of its own.

Built on the game contract alone: the seat's view as JSON, the legal actions numbered,
each public event as a line of JSON. Plain, but every installed game can be played
(``odin play``), joined at a server (``odin join``) and replayed (``odin replay``) in the
terminal with no code of its own; a game's terminal, screen and replay lines (its
plugin's ``terminal``, ``remote`` and ``replay``) say the same in its own words.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from odin_cards.contract import ActionError, GameState
from odin_cards.games import plugin_of
from odin_cards.plugin import Ending, TerminalTable

HELP = """\
Answer with a choice's number, or write the action in the game's notation.
Commands: show (the position again), help, quit."""


def json_line(data: Any) -> str:
    return json.dumps(data, separators=(", ", ": "), default=str)


def choices_line(legal: Sequence[str]) -> str:
    return "  ".join(f"{number}. {text}" for number, text in enumerate(legal, start=1))


def chosen(line: str, legal: Sequence[str]) -> str | None:
    """The legal action a typed line names: its number, or its text (case aside)."""
    words = line.strip()
    if words.isdigit():
        number = int(words)
        return legal[number - 1] if 1 <= number <= len(legal) else None
    return next((text for text in legal if text.lower() == words.lower()), None)


def play(table: TerminalTable) -> tuple[Ending, GameState]:
    """``odin play`` on the plain terminal: the person at seat 0, bots at the others."""
    plugin = plugin_of(table.key)
    choose = plugin.load_bots() if table.bots else None
    game, console, names = table.game, table.console, list(table.names)
    rngs = {seat: random.Random(f"plain-play:{table.bot_seed}:{seat}") for seat in table.bots}
    console.print(
        Text.assemble(
            (plugin.name, "bold"),
            f": {names[0]} against {', '.join(names[1:])}"
            f"{'; resumed' if table.resumed else ''}. Type help for help.",
        )
    )
    cursor = game.public_length
    try:
        while True:
            for event in game.public_events(cursor):
                console.print(Text(json_line(event)))
            cursor = game.public_length
            if game.is_over:
                break
            seat = game.current_player
            assert seat is not None
            if seat != 0:
                assert choose is not None
                bot = table.bots[seat]
                text = choose(game, bot.level, bot.budget.get("seconds"), rngs[seat])
                game.apply(text, seat=seat)
                if table.delay:
                    time.sleep(table.delay)
                continue
            if not turn(table, game, names):
                console.print(Text("Game left."))
                return "left", game
    except KeyboardInterrupt:
        console.print()
        console.print("Interrupted (Ctrl-C): leaving the game.")
        return "interrupted", game
    outcome = game.outcome
    assert outcome is not None
    scores = " · ".join(f"{n} {s}" for n, s in zip(names, outcome.scores, strict=True))
    winners = ", ".join(names[w] for w in outcome.winners)
    console.print(Text(f"Game over: {scores}; won by {winners}", style="bold green"))
    return "over", game


def turn(table: TerminalTable, game: GameState, names: Sequence[str]) -> bool:
    """One decision of the person; ``False`` if they leave instead."""
    console = table.console
    legal = [action.text for action in game.legal_actions()]
    console.print(Text(json_line(game.view(0))))
    console.print(Text(choices_line(legal)))
    while True:
        try:
            line = table.read_line(f"{names[0]}, your move > ")
        except EOFError:
            console.print()
            return False
        if table.echo:
            console.print(Text(line))
        command = line.strip().lower()
        if command in ("quit", "exit"):
            return False
        if command in ("help", "?"):
            console.print(HELP, highlight=False, markup=False)
        elif command == "show":
            console.print(Text(json_line(game.view(0))))
            console.print(Text(choices_line(legal)))
        elif command:
            text = chosen(line, legal) or line.strip()
            try:
                game.apply(text, seat=0)
                return True
            except ActionError as error:
                console.print(Text(f"✗ {error}", style="bold red"))


class PlainScreen:
    """``odin join``'s plain screen (:class:`odin_cards.plugin.Screen`): the table's state
    and its events as JSON, the legal actions numbered."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def show(
        self, event: Mapping[str, Any], state: Mapping[str, Any], events: Sequence[Any]
    ) -> None:
        self.console.print(Text(json_line(event)))

    def position(self, state: Mapping[str, Any], events: Sequence[Any]) -> None:
        shown = {k: v for k, v in state.items() if k != "legal"}
        self.console.print(Text(json_line(shown)))
        self.console.print(Text(choices_line(state.get("legal") or [])))

    def prompt(self, state: Mapping[str, Any], events: Sequence[Any]) -> str:
        names = state.get("names") or []
        seat = state.get("seat")
        who = names[seat] if isinstance(seat, int) and seat < len(names) else "You"
        return f"{who}, your move > "

    def read(self, line: str, state: Mapping[str, Any], events: Sequence[Any]) -> str | bool:
        command = line.strip().lower()
        if command in ("quit", "exit"):
            return True
        if command in ("help", "?"):
            self.console.print(HELP, highlight=False, markup=False)
            return False
        if command == "show":
            self.position(state, events)
            return False
        if not command:
            return False
        return chosen(line, state.get("legal") or []) or line.strip()

    def over(self, state: Mapping[str, Any]) -> bool:
        return state.get("outcome") is not None


def screen(console: Any) -> PlainScreen:
    return PlainScreen(console)


def replay(
    game: GameState, record: Mapping[str, Any], names: Sequence[str] | None, secrets: bool
) -> Iterator[Any]:
    """``odin replay``'s plain lines: the game and its seats, then each public event."""
    from odin_cards.plugin import FlagError

    if secrets:
        raise FlagError("--deals", f"{record.get('game')} has no deals to show")
    yield Text(f"{record.get('game')}, {game.players} players", style="bold")
    if names is not None:
        yield Text("seats: " + ", ".join(f"{s} {n}" for s, n in enumerate(names)))
    for event in game.public_events():
        yield Text(json_line(event))
