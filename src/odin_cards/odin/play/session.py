"""The terminal game loop: one person against bots, move by move.

The session is the referee: it holds the :class:`Game`, asks each bot for its move
through :func:`odin_cards.odin.bots.ask` (bots see only their seat's view), shows the
person only their own seat's view, and prints every public event as it happens.
Input comes from a ``read_line(prompt)`` function so the same loop serves a terminal
and piped input (tests, scripts); end of input leaves the game cleanly.

Leaving is one thing whatever the moment: ``quit``, end of input and Ctrl-C (at the
prompt or while a bot thinks) all stop the game and print the scores so far; the caller
then writes the record. :meth:`PlaySession.run` says which it was.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rich.console import Console
from rich.text import Text

from odin_cards.odin.bots import LEVELS, Bot, Budget, ask, make_bot
from odin_cards.odin.play.cards import SORTS
from odin_cards.odin.play.commands import HELP, parse_command
from odin_cards.odin.play.hint import give_hint, strongest_level
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
from odin_cards.odin.rules import Action, Game, OdinError, public_events

Ending = Literal["over", "left", "interrupted"]
"""How :meth:`PlaySession.run` ended: the game is over, the person left, or Ctrl-C."""


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A bot's seat: its level and the budget it thinks with."""

    level: str
    budget: Budget


class PlaySession:
    """A whole game of one person (``human`` seat) against bots in every other seat.

    ``bot_seed`` seeds the bots' random choices (and the hint's); it must not be the
    deal's seed, which would tell anyone who knows it every hand.
    """

    def __init__(
        self,
        game: Game,
        names: Sequence[str],
        bots: dict[int, BotSeat],
        human: int,
        console: Console,
        read_line: Callable[[str], str],
        bot_seed: int | str = 0,
        delay: float = 0.0,
        hint_level: str | None = None,
        echo: bool = False,
        pause: Callable[[], None] | None = None,
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
        self.pause = pause
        self.sort = SORTS[0]
        self.bots: dict[int, Bot] = {seat: make_bot(b.level) for seat, b in bots.items()}
        self.rngs = {seat: random.Random(f"odin-play:{bot_seed}:{seat}") for seat in bots}
        self.hint_rng = random.Random(f"odin-play:{bot_seed}:hint")
        self.cursor = 0
        self.hands_ended = 0
        self.turns: list[tuple[Game, int]] = []
        """The game at the start of each of the person's decisions (for ``undo``)."""

    # ------------------------------------------------------------------ loop

    def run(self) -> Ending:
        """Play to the end of the game, or until the person leaves or presses Ctrl-C."""
        try:
            self._flush()
            while not self.game.is_over:
                seat = self.game.to_move
                if seat == self.human:
                    if self._human_turn() == "left":
                        self._left()
                        return "left"
                else:
                    self._bot_turn(seat)
                self._flush()
        except KeyboardInterrupt:
            self.console.print()
            self.console.print("Interrupted (Ctrl-C): leaving the game.")
            self._left()
            return "interrupted"
        return "over"

    def _apply(self, action: Action, seat: int) -> None:
        self.game.apply(action, seat=seat)

    def _bot_turn(self, seat: int) -> None:
        bot_seat = self.seats[seat]
        if self.console.is_terminal:
            with self.console.status(Text(f"{self.names[seat]} is thinking…")):
                action = ask(self.bots[seat], self.game, bot_seat.budget, self.rngs[seat])
        else:
            action = ask(self.bots[seat], self.game, bot_seat.budget, self.rngs[seat])
        self._apply(action, seat)
        if self.delay > 0:
            time.sleep(self.delay)

    def _undo(self) -> bool:
        """Go back to the person's previous decision; ``False`` if there is none."""
        if len(self.turns) < 2:
            return False
        self.turns.pop()
        game, hands_ended = self.turns.pop()
        self.game = game.clone()
        self.cursor = len(self.game.history)
        self.hands_ended = hands_ended
        self.console.print(Text("Taken back: your last move and the bots' moves since.", "bold"))
        return True

    def _human_turn(self) -> Literal["moved", "left", "undone"]:
        game = self.game
        legal = game.legal_actions()
        if len(legal) == 1:
            self.console.print(Text(f"(only one move: {legal[0].text})", style="dim"))
            self._apply(legal[0], self.human)
            return "moved"
        self.turns.append((game.clone(), self.hands_ended))
        view = game.view(self.human)
        choices = sort_choices(legal)
        self.console.print(turn_view(view, self.names, self.sort, choices))
        prompt = f"{self.names[self.human]}, {what_to_do(view, legal)} > "
        while True:
            try:
                line = self.read_line(prompt)
            except EOFError:
                self.console.print()
                self.console.print("Input ended: leaving the game.")
                return "left"
            if self.echo:
                self.console.print(Text(line))
            command = parse_command(line, view.decision, choices)
            if command.kind == "act":
                assert command.action is not None
                try:
                    self._apply(command.action, self.human)
                except OdinError as error:
                    self._refuse(str(error))
                    continue
                return "moved"
            if command.kind == "quit":
                self.console.print("You leave the game.")
                return "left"
            if command.kind == "undo":
                if self._undo():
                    return "undone"
                self._refuse("nothing to take back: this is your first move")
            if command.kind == "error":
                self._refuse(command.message)
            elif command.kind == "help":
                self.console.print(HELP, highlight=False, markup=False)
            elif command.kind == "sort":
                self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
                self.console.print(hand_line(view, self.sort))
            elif command.kind == "show":
                self.console.print(turn_view(view, self.names, self.sort, choices))
            elif command.kind in ("log", "log_all"):
                events = view.history if command.kind == "log_all" else hand_events(view)
                for event in events:
                    text = event_line(event, self.names)
                    if text is not None:
                        self.console.print(Text(f"  {text.strip()}"))
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
            if event["hand"] > 1 and self.pause is not None:
                self.pause()
            self.console.rule(
                Text(f"Hand {event['hand']} · lead: {names[event['leader']]}"), style="bold blue"
            )
            if self.game.to_move != self.human:
                self.console.print(hand_line(self.game.view(self.human), self.sort))
        elif kind == "hand_end":
            self.hands_ended += 1
            totals = self._totals_after(self.hands_ended)
            self.console.print(hand_summary(event, self.hands_ended, names, totals))
        elif kind == "game_end":
            outcome = self.game.outcome
            assert outcome is not None
            cheer = " Well played." if self.human in event["winners"] else ""
            self.console.print(
                standings(outcome.scores, event["winners"], names, outcome.hands_played, cheer)
            )
        else:
            text = event_text(event, names)
            if text is not None:
                self.console.print(text)

    def _totals_after(self, hand: int) -> list[int]:
        """Every seat's points after ``hand`` hands (from the public history)."""
        totals = [0] * self.game.players
        ended = 0
        for event in public_events(self.game.history):
            if event["type"] == "hand_end" and ended < hand:
                ended += 1
                totals = [t + p for t, p in zip(totals, event["points"], strict=True)]
        return totals

    def _left(self) -> None:
        scores = " · ".join(
            f"{name} {points}" for name, points in zip(self.names, self.game.scores, strict=True)
        )
        self.console.print(
            Text(f"Game left in hand {self.game.hand_number + 1}; scores so far: {scores}")
        )
