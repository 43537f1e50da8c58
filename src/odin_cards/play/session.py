"""The terminal game loop: one person against bots, move by move.

The session is the referee: it holds the :class:`Game`, asks each bot for its move
through :func:`odin_cards.bots.ask` (bots see only their seat's view), shows the
person only their own seat's view, and prints every public event as it happens.
Input comes from a ``read_line(prompt)`` function so the same loop serves a terminal
and piped input (tests, scripts); end of input leaves the game cleanly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..bots import LEVELS, Bot, Budget, ask, make_bot
from ..movelog import event_line
from ..rules import Game, OdinError, public_events
from .cards import SORTS, cards_text
from .commands import HELP, parse_command
from .hint import give_hint, strongest_level
from .render import hand_events, hand_line, sort_choices, turn_view, what_to_do


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A bot's seat: its level and the budget it thinks with."""

    level: str
    budget: Budget


class PlaySession:
    """A whole game of one person (``human`` seat) against bots in every other seat."""

    def __init__(
        self,
        game: Game,
        names: Sequence[str],
        bots: dict[int, BotSeat],
        human: int,
        console: Console,
        read_line: Callable[[str], str],
        seed: int | str = 0,
        delay: float = 0.0,
        hint_level: str | None = None,
        echo: bool = False,
    ) -> None:
        self.game = game
        self.names = list(names)
        self.seats = bots
        self.human = human
        self.console = console
        self.read_line = read_line
        self.delay = delay
        self.hint_level = hint_level
        self.echo = echo
        self.sort = SORTS[0]
        self.bots: dict[int, Bot] = {seat: make_bot(b.level) for seat, b in bots.items()}
        self.rngs = {seat: random.Random(f"odin-play:{seed}:{seat}") for seat in bots}
        self.hint_rng = random.Random(f"odin-play:{seed}:hint")
        self.cursor = 0
        self.hand_scores: list[tuple[int, ...]] = []

    # ------------------------------------------------------------------ loop

    def run(self) -> bool:
        """Play to the end of the game; ``False`` if the person left (quit or end of input)."""
        self._flush()
        while not self.game.is_over:
            seat = self.game.to_move
            if seat == self.human:
                if not self._human_turn():
                    self._left()
                    return False
            else:
                self._bot_turn(seat)
            self._flush()
        return True

    def _bot_turn(self, seat: int) -> None:
        bot_seat = self.seats[seat]
        if self.console.is_terminal:
            with self.console.status(f"{self.names[seat]} is thinking…"):
                action = ask(self.bots[seat], self.game, bot_seat.budget, self.rngs[seat])
        else:
            action = ask(self.bots[seat], self.game, bot_seat.budget, self.rngs[seat])
        self.game.apply(action, seat=seat)
        if self.delay > 0:
            time.sleep(self.delay)

    def _human_turn(self) -> bool:
        game = self.game
        legal = game.legal_actions()
        if len(legal) == 1:
            self.console.print(Text(f"(only one move: {legal[0].text})", style="dim"))
            game.apply(legal[0], seat=self.human)
            return True
        view = game.view(self.human)
        choices = sort_choices(legal)
        self.console.print(turn_view(view, self.names, self.sort, choices))
        prompt = f"{self.names[self.human]}, {what_to_do(view, self.names)} > "
        while True:
            try:
                line = self.read_line(prompt)
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                self.console.print("Input ended: leaving the game.")
                return False
            if self.echo:
                self.console.print(line, highlight=False)
            command = parse_command(line, view.decision, choices)
            if command.kind == "act":
                assert command.action is not None
                try:
                    game.apply(command.action, seat=self.human)
                except OdinError as error:
                    self._refuse(str(error))
                    continue
                return True
            if command.kind == "quit":
                self.console.print("You leave the game.")
                return False
            if command.kind == "error":
                self._refuse(command.message)
            elif command.kind == "help":
                self.console.print(HELP, highlight=False, markup=False)
            elif command.kind == "sort":
                self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
                self.console.print(hand_line(view, self.sort))
            elif command.kind == "show":
                self.console.print(turn_view(view, self.names, self.sort, choices))
            elif command.kind == "log":
                for event in hand_events(view):
                    text = event_line(event, self.names)
                    if text is not None:
                        self.console.print(f"  {text.strip()}", highlight=False)
            elif command.kind == "hint":
                self._hint()

    def _refuse(self, message: str) -> None:
        self.console.print(Text(f"✗ {message}", style="bold red"))

    def _hint(self) -> None:
        level = self.hint_level or strongest_level()
        if self.console.is_terminal:
            with self.console.status(f"{LEVELS[level].name} is thinking…"):
                hint = give_hint(level, self.game, self.hint_rng)
        else:
            hint = give_hint(level, self.game, self.hint_rng)
        self.console.print(Text(f"hint: {hint.line()}", style="yellow"))

    # ---------------------------------------------------------------- events

    def _flush(self) -> None:
        """Print every public event since the last call."""
        for event in public_events(self.game.history, self.cursor):
            self._show_event(event)
        self.cursor = len(self.game.history)

    def _show_event(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        names = self.names
        if kind == "deal":
            self.console.rule(
                f"Hand {event['hand']} · lead: {names[event['leader']]}", style="bold blue"
            )
            if self.game.to_move != self.human:
                self.console.print(hand_line(self.game.view(self.human), self.sort))
        elif kind == "play":
            text = Text(f"{names[event['seat']]}: play ")
            text.append_text(cards_text(event["cards"]))
            if len(event["cards"]) > 1:
                text.append(f" ({event['value']})", style="dim")
            self.console.print(text)
        elif kind == "take":
            text = Text(f"{names[event['seat']]}: take ")
            text.append_text(cards_text([event["card"]]))
            self.console.print(text)
        elif kind == "hand_end":
            self.hand_scores.append(tuple(event["points"]))
            self._hand_summary(event)
        elif kind == "game_end":
            self._game_summary(event["winners"])
        else:
            line = event_line(event, names)
            if line is not None:
                self.console.print(Text(line, style="dim"))

    def _totals(self) -> list[int]:
        return [sum(points) for points in zip(*self.hand_scores, strict=True)]

    def _hand_summary(self, event: dict[str, Any]) -> None:
        ender = self.names[event["seat"]]
        self.console.print(
            Text(f"Hand {len(self.hand_scores)} is over: {ender} emptied their hand.", style="bold")
        )
        table = Table()
        table.add_column("player")
        table.add_column("this hand", justify="right")
        table.add_column("total", justify="right")
        for name, points, total in zip(self.names, event["points"], self._totals(), strict=True):
            table.add_row(name, str(points), str(total))
        self.console.print(table)

    def _game_summary(self, winners: Sequence[int]) -> None:
        totals = self._totals()
        hands = len(self.hand_scores)
        self.console.print(
            Text(
                f"Game over after {hands} hand{'s' if hands != 1 else ''}. Final standings:",
                style="bold",
            )
        )
        table = Table()
        table.add_column("place", justify="right")
        table.add_column("player")
        table.add_column("points", justify="right")
        order = sorted(range(len(totals)), key=lambda s: (totals[s], s))
        for seat in order:
            place = 1 + sum(1 for p in totals if p < totals[seat])
            mark = " (winner)" if seat in winners else ""
            table.add_row(str(place), self.names[seat] + mark, str(totals[seat]))
        self.console.print(table)
        names = [self.names[s] for s in winners]
        if len(names) == 1:
            verdict = f"{names[0]} wins!"
        else:
            verdict = f"{', '.join(names[:-1])} and {names[-1]} share the victory!"
        if self.human in winners:
            verdict += " Well played."
        self.console.print(Text(verdict, style="bold green"))

    def _left(self) -> None:
        scores = " · ".join(
            f"{name} {points}" for name, points in zip(self.names, self.game.scores, strict=True)
        )
        self.console.print(f"Game left in hand {self.game.hand_number + 1}; scores: {scores}")
