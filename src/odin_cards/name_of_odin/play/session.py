"""The terminal game loop of In the Name of Odin: one person against bots.

The session is the referee: it holds the game, asks each bot through the game's chooser
(:func:`odin_cards.name_of_odin.bots.choose`, which shows a bot only its seat's view),
shows the person only their seat's view, and prints every public event as it happens.
The person answers with a choice's number or an action in the game's notation
(``recruit WH WC``, ``raid iona langskip T T W``); a unique beginning of a legal action
is enough (``raid iona``). Whoever is asked moves: during a
raid the person may be asked out of turn (add a card, take one from the display).

Input comes from ``read_line(prompt)``, so a terminal and piped input (tests, scripts)
are served alike. ``quit``, end of input and Ctrl-C all leave the game cleanly;
:meth:`NooSession.run` says which way it ended, and the caller writes the record.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from odin_cards.contract import ActionError, GameState
from odin_cards.name_of_odin.bots import choose
from odin_cards.name_of_odin.play.choices import show_many, starting_with
from odin_cards.name_of_odin.play.render import screen, what_to_do
from odin_cards.name_of_odin.play.words import event_line

Ending = Literal["over", "left", "interrupted"]

HELP = """\
Answer with a choice's number, or write the action (its beginning is enough when only
one legal action starts that way):
  end                          end your action phase and draw
  swap WC SH                   your WC for the display's SH (once a turn)
  refresh WC                   discard WC and replace the action display (then you may swap)
  recruit WH WC                2 warrior symbols: 3 warriors (1/2/3 cards: 1/3/6 vikings)
  hero <id> <cards> [+H]       recruit a hero from the display (its slot's cost)
  ability [<ship id>]          use your hero's action ability (the hero leaves)
  build <id> <cards> [+C]      3 craft and a building material
  material <cards> [+C]        a building material (craft = buildings + materials + 1)
  ship / return / repair <id> <cards> [+N]    buy, bring home, repair a longship
  raid <raid id> <ship id> <vikings>          e.g. raid iona langskip T T W
  modify WC / pass             add a card to another player's raid, or not
  match WC / done              match a card the raid asks, or stop
  pick SH                      take a card from the display after adding one to a raid
  take <seat> / stop / release W|T|S          when recruiting runs short or over the limit
  +C +H +N                     your forge / Jarl's house / shipyard symbol (once a turn)
Commands: show (the table again), log (the last events), hint, help, quit."""


class NooSession:
    """A whole game of one person (seat ``human``) against bots in every other seat.

    ``bots`` maps a seat to its level key (:data:`odin_cards.name_of_odin.plugin.LEVELS`);
    ``bot_seed`` seeds their dice (never the game's seed, which would reveal the decks).
    """

    def __init__(
        self,
        game: GameState,
        names: Sequence[str],
        bots: dict[int, str],
        human: int,
        console: Console,
        read_line: Callable[[str], str],
        bot_seed: int | str = 0,
        delay: float = 0.0,
        hint_level: str = "heuristic",
        echo: bool = False,
    ) -> None:
        self.game = game
        self.names = list(names)
        self.bots = dict(bots)
        self.human = human
        self.console = console
        self.read_line = read_line
        self.delay = delay
        self.hint_level = hint_level
        self.echo = echo
        self.rngs = {seat: random.Random(f"noo-play:{bot_seed}:{seat}") for seat in bots}
        self.hint_rng = random.Random(f"noo-play:{bot_seed}:hint")
        self.cursor = game.public_length

    # ------------------------------------------------------------------ the loop

    def run(self) -> Ending:
        """Play to the end, or until the person leaves or presses Ctrl-C."""
        try:
            self._flush()
            while not self.game.is_over:
                seat = self.game.current_player
                assert seat is not None
                if seat == self.human:
                    if not self._human_turn():
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
        self._standings()
        return "over"

    def _bot_turn(self, seat: int) -> None:
        level = self.bots[seat]
        if self.console.is_terminal:
            with self.console.status(Text(f"{self.names[seat]} is thinking…")):
                text = choose(self.game, level, None, self.rngs[seat])
        else:
            text = choose(self.game, level, None, self.rngs[seat])
        self.game.apply(text, seat=seat)
        if self.delay > 0:
            time.sleep(self.delay)

    def _human_turn(self) -> bool:
        """One decision of the person; ``False`` if they leave instead."""
        legal = [a.text for a in self.game.legal_actions()]
        if len(legal) == 1:
            self.console.print(Text(f"(only one choice: {legal[0]})", style="dim"))
            self.game.apply(legal[0], seat=self.human)
            return True
        view = self.game.view(self.human)
        self.console.print(screen(view, self.names, legal))
        prompt = f"{self.names[self.human]}, {what_to_do(view)} > "
        while True:
            try:
                line = self.read_line(prompt)
            except EOFError:
                self.console.print()
                self.console.print("Input ended: leaving the game.")
                return False
            if self.echo:
                self.console.print(Text(line))
            words = line.strip()
            command = words.lower()
            if not words:
                continue
            if command in ("quit", "exit"):
                self.console.print("You leave the game.")
                return False
            if command in ("help", "?"):
                self.console.print(HELP, highlight=False, markup=False)
            elif command == "show":
                self.console.print(screen(view, self.names, legal, whole=True))
            elif command == "log":
                self._log()
            elif command == "hint":
                self._hint()
            else:
                chosen = self._read_action(words, legal)
                if chosen is not None:
                    self.game.apply(chosen, seat=self.human)
                    return True

    def _read_action(self, words: str, legal: Sequence[str]) -> str | None:
        """The legal action ``words`` names (a number, an action, a unique beginning)."""
        if words.isdigit():
            number = int(words)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self._refuse(f"choose a number from 1 to {len(legal)}")
            return None
        try:
            action = self.game.parse(words)
        except ActionError as error:
            action = None
            problem = str(error)
        if action is not None:
            if action.text in legal:
                return action.text
            try:
                self.game.clone().apply(action, seat=self.human)
                problem = f"{action.text!r} is not possible now"
            except ActionError as error:
                problem = str(error)
        starting = starting_with(words, legal)
        if len(starting) == 1:
            return starting[0]
        if len(starting) > 1:
            show_many(self.console, starting)
            return None
        self._refuse(problem)
        return None

    def _refuse(self, message: str) -> None:
        self.console.print(Text(f"✗ {message}", style="bold red"))

    def _hint(self) -> None:
        text = choose(self.game, self.hint_level, None, self.hint_rng)
        self.console.print(Text(f"hint: {text}", style="yellow"))

    def _log(self, count: int = 20) -> None:
        events = self.game.public_events()
        lines = [event_line(e, self.names) for e in events]
        for line in [line for line in lines if line is not None][-count:]:
            self.console.print(Text(f"  {line.strip()}"))

    # ------------------------------------------------------------------ events

    def _flush(self) -> None:
        """Print every public event since the last call."""
        for event in self.game.public_events(self.cursor):
            self._show(event)
        self.cursor = self.game.public_length

    def _show(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        line = event_line(event, self.names)
        if line is None:
            return
        if kind == "turn":
            self.console.rule(Text(line), style="bold blue")
        elif kind == "glory":
            self.console.print(Text(line, style="yellow"))
        elif kind == "end":
            self.console.print(Text(line, style="bold green"))
        else:
            self.console.print(Text(line))

    def _standings(self) -> None:
        outcome = self.game.view(self.human)["outcome"]
        table = Table(title="Final scoring", box=box.SIMPLE_HEAD, title_justify="left")
        for column in ("player", "raids", "buildings", "ships", "3 alike", "sets", "total"):
            table.add_column(column, justify="left" if column == "player" else "right")
        for seat, parts in enumerate(outcome["breakdown"]):
            name = self.names[seat] + (" ★" if seat in outcome["winners"] else "")
            table.add_row(
                name,
                f"{parts['glory']} ({outcome['raids'][seat]})",
                str(parts["buildings"]),
                str(parts["ships"]),
                str(parts["same"]),
                str(parts["sets"]),
                str(outcome["scores"][seat]),
            )
        self.console.print(table)
        if self.human in outcome["winners"]:
            self.console.print(Text("Odin has chosen you: you are the new Jarl.", style="bold"))

    def _left(self) -> None:
        villages = self.game.view(self.human)["villages"]
        glory = " · ".join(f"{self.names[v['seat']]} {v['glory']}" for v in villages)
        self.console.print(Text(f"Game left; glory so far (before the final scoring): {glory}"))


__all__ = ["HELP", "NooSession"]
