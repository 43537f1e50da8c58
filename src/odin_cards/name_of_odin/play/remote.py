"""``odin join``'s screen for a table of In the Name of Odin (:class:`odin_cards.plugin.Screen`):
the same screen and input as ``odin play --game name-of-odin``, drawn from what the server
sends the seat (its ``State`` is the seat's view, with the players' names).

The connection, the seat and the sending of actions are the platform's
(:mod:`odin_cards.cli.remote`). A line that names no legal action by number or by a
unique beginning is sent as typed: the server reads it in the game's notation and says
what is wrong with it, if anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from odin_cards.name_of_odin.play.choices import show_many, starting_with
from odin_cards.name_of_odin.play.render import screen as table_screen
from odin_cards.name_of_odin.play.render import what_to_do
from odin_cards.name_of_odin.play.session import HELP
from odin_cards.name_of_odin.play.words import event_line


def names_of(state: Mapping[str, Any]) -> list[str]:
    return [name or f"seat {seat}" for seat, name in enumerate(state.get("names") or [])]


class NooScreen:
    """A table of In the Name of Odin in the terminal."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def show(
        self, event: Mapping[str, Any], state: Mapping[str, Any], events: Sequence[Any]
    ) -> None:
        line = event_line(event, names_of(state))
        if line is None:
            return
        kind = event["type"]
        if kind == "turn":
            self.console.rule(Text(line), style="bold blue")
        elif kind == "glory":
            self.console.print(Text(line, style="yellow"))
        elif kind == "end":
            self.console.print(Text(line, style="bold green"))
        else:
            self.console.print(Text(line))

    def position(self, state: Mapping[str, Any], events: Sequence[Any]) -> None:
        self.console.print(table_screen(state, names_of(state), list(state.get("legal") or [])))

    def prompt(self, state: Mapping[str, Any], events: Sequence[Any]) -> str:
        return f"{names_of(state)[state['seat']]}, {what_to_do(state)} > "

    def read(self, line: str, state: Mapping[str, Any], events: Sequence[Any]) -> str | bool:
        words = line.strip()
        command = words.lower()
        legal = [str(text) for text in state.get("legal") or []]
        if not words:
            return False
        if command in ("quit", "exit"):
            return True
        if command in ("help", "?"):
            self.console.print(HELP, highlight=False, markup=False)
            self.console.print("  (at a server table, hint is not available)")
        elif command == "show":
            self.console.print(table_screen(state, names_of(state), legal, whole=True))
        elif command == "log":
            lines = [event_line(e, names_of(state)) for e in events]
            for text in [text for text in lines if text is not None][-20:]:
                self.console.print(Text(f"  {text.strip()}"))
        elif command == "hint":
            self._refuse("hint is for games against bots in odin play")
        elif words.isdigit():
            number = int(words)
            if 1 <= number <= len(legal):
                return str(legal[number - 1])
            self._refuse(
                f"choose a number from 1 to {len(legal)}" if legal else "it is not your turn"
            )
        else:
            exact = [text for text in legal if text.lower() == command]
            starting = exact or starting_with(words, legal)
            if len(starting) == 1:
                return str(starting[0])
            if len(starting) > 1:
                show_many(self.console, starting)
                return False
            return words
        return False

    def over(self, state: Mapping[str, Any]) -> bool:
        return state.get("outcome") is not None

    def _refuse(self, message: str) -> None:
        self.console.print(Text(f"✗ {message}", style="bold red"))


def screen(console: Any) -> NooScreen:
    """The screen of a table of In the Name of Odin (:data:`odin_cards.plugin.Remote`)."""
    return NooScreen(console)


__all__ = ["NooScreen", "screen"]
