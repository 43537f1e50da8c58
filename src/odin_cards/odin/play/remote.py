"""``odin join``'s screen for an Odin table (:class:`odin_cards.plugin.Screen`): the same
screen and input as ``odin play``, drawn from what the server sends the seat.

The connection, the seat and the sending of actions are the platform's
(:mod:`odin_cards.cli.remote`); this module turns the seat's ``State`` (the server's
presenter, :mod:`odin_cards.odin.web.presenter`) back into a :class:`View` and shows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from rich.console import Console
from rich.text import Text

from odin_cards.odin.play.cards import SORTS
from odin_cards.odin.play.commands import HELP, parse_command
from odin_cards.odin.play.render import (
    event_text,
    hand_events,
    hand_line,
    hand_summary,
    sort_choices,
    standings,
    turn_view,
    what_to_do,
)
from odin_cards.odin.play.words import event_line
from odin_cards.odin.rules import Action, Options, Outcome, View, parse_action


def outcome_from_dict(data: Mapping[str, Any]) -> Outcome:
    return Outcome(
        scores=tuple(data["scores"]),
        winners=tuple(data["winners"]),
        hands_played=int(data["hands_played"]),
    )


def view_from_state(state: Mapping[str, Any], events: Sequence[Any]) -> View:
    """The seat's :class:`View` from the server's ``State`` and the public events so far."""
    values: dict[str, Any] = {}
    for field in fields(View):
        value: Any = state.get(field.name)
        if field.name == "options":
            value = Options.from_dict(value)
        elif field.name == "history":
            value = tuple(events)
        elif field.name == "outcome":
            value = None if value is None else outcome_from_dict(value)
        elif field.name == "known":
            value = tuple(tuple(cards) for cards in value)
        elif isinstance(value, list):
            value = tuple(value)
        values[field.name] = value
    return View(**values)


def names_of(state: Mapping[str, Any]) -> list[str]:
    return [name or f"seat {seat}" for seat, name in enumerate(state.get("names") or [])]


class OdinScreen:
    """An Odin table in the terminal: each event as ``odin play`` prints it, the seat's
    turn as ``odin play`` shows it, and its commands (but ``hint`` and ``undo``)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.sort = SORTS[0]

    def show(
        self, event: Mapping[str, Any], state: Mapping[str, Any], events: Sequence[Any]
    ) -> None:
        kind = event["type"]
        names = names_of(state)
        if kind == "deal":
            self.console.rule(
                Text(f"Hand {event['hand']} · lead: {names[event['leader']]}"), style="bold blue"
            )
        elif kind == "hand_end":
            number = sum(
                1 for e in events if e["type"] == "hand_end" and e["index"] <= event["index"]
            )
            totals = self._totals(events, event["index"], len(names))
            self.console.print(hand_summary(dict(event), number, names, totals))
        elif kind == "game_end":
            totals = self._totals(events, len(events) + 1, len(names))
            hands = sum(1 for e in events if e["type"] == "hand_end")
            self.console.print(standings(totals, event["winners"], names, hands))
        else:
            text = event_text(dict(event), names)
            if text is not None:
                self.console.print(text)

    @staticmethod
    def _totals(events: Sequence[Any], upto: int, players: int) -> list[int]:
        totals = [0] * players
        for event in events:
            if event["type"] == "hand_end" and event["index"] <= upto:
                totals = [t + p for t, p in zip(totals, event["points"], strict=True)]
        return totals

    @staticmethod
    def _legal(state: Mapping[str, Any]) -> list[Action]:
        return [parse_action(text) for text in state.get("legal") or []]

    def position(self, state: Mapping[str, Any], events: Sequence[Any]) -> None:
        view = view_from_state(state, events)
        choices = sort_choices(self._legal(state))
        self.console.print(turn_view(view, names_of(state), self.sort, choices))

    def prompt(self, state: Mapping[str, Any], events: Sequence[Any]) -> str:
        view = view_from_state(state, events)
        return f"{names_of(state)[state['seat']]}, {what_to_do(view, self._legal(state))} > "

    def read(self, line: str, state: Mapping[str, Any], events: Sequence[Any]) -> str | bool:
        legal = self._legal(state)
        view = view_from_state(state, events)
        choices = sort_choices(legal)
        command = parse_command(line, view.decision, choices)
        if command.kind == "act" and command.action is not None:
            return command.action.text
        if command.kind == "quit":
            return True
        if command.kind == "error":
            self._refuse(command.message)
        elif command.kind == "help":
            self.console.print(HELP, highlight=False, markup=False)
            self.console.print("  (at a server table, hint and undo are not available)")
        elif command.kind == "sort":
            self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
            self.console.print(hand_line(view, self.sort))
        elif command.kind == "show":
            self.console.print(turn_view(view, names_of(state), self.sort, choices))
        elif command.kind in ("log", "log_all"):
            shown = view.history if command.kind == "log_all" else hand_events(view)
            for event in shown:
                text = event_line(event, names_of(state))
                if text is not None:
                    self.console.print(Text(f"  {text.strip()}"))
        elif command.kind in ("hint", "undo"):
            self._refuse(f"{command.kind} is for games against bots in odin play")
        return False

    def over(self, state: Mapping[str, Any]) -> bool:
        return state.get("outcome") is not None

    def _refuse(self, message: str) -> None:
        self.console.print(Text(f"✗ {message}", style="bold red"))


def screen(console: Any) -> OdinScreen:
    """The screen of an Odin table (:data:`odin_cards.plugin.Remote`)."""
    return OdinScreen(console)


__all__ = ["OdinScreen", "outcome_from_dict", "screen", "view_from_state"]
