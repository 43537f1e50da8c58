"""``odin play`` for Odin (:data:`odin_cards.plugin.Play`): the table the command line
prepared, played by :class:`~odin_cards.odin.play.session.PlaySession`."""

from __future__ import annotations

import contextlib

from rich.text import Text

from odin_cards.contract import GameState
from odin_cards.odin.bots.play import budget_of, odin_game
from odin_cards.odin.play.session import BotSeat, PlaySession
from odin_cards.plugin import Ending, TerminalTable

DELAY = 0.6
"""Seconds after each bot move at a terminal (none for piped input)."""


def play(table: TerminalTable) -> tuple[Ending, GameState]:
    """Play the table to its end, or until the person leaves."""
    game = odin_game(table.game)
    console = table.console
    names = list(table.names)
    options = game.options

    def pause() -> None:
        with contextlib.suppress(EOFError):
            table.read_line("Press Enter for the next hand ")

    console.print(
        Text.assemble(
            ("Odin", "bold"),
            f": {names[0]} against {', '.join(names[1:])}; target {options.target}"
            f"{', one hand' if options.one_hand else ''}"
            f"{'; resumed' if table.resumed else ''}. Type help for help.",
        )
    )
    seats = {
        seat: BotSeat(bot.level, budget_of(bot.level, bot.budget))
        for seat, bot in table.bots.items()
    }
    session = PlaySession(
        game,
        names,
        seats,
        human=0,
        console=console,
        read_line=table.read_line,
        bot_seed=table.bot_seed,
        delay=(DELAY if table.interactive else 0.0) if table.delay is None else table.delay,
        hint_level=table.hint_level,
        echo=table.echo,
        pause=pause if table.interactive else None,
    )
    ending = session.run()
    return ending, session.game


__all__ = ["DELAY", "play"]
