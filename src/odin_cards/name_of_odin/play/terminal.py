"""``odin play`` for In the Name of Odin (:data:`odin_cards.plugin.Play`): the table the
command line prepared, played by :class:`~odin_cards.name_of_odin.play.session.NooSession`."""

from __future__ import annotations

from rich.text import Text

from odin_cards.contract import GameState
from odin_cards.name_of_odin.play.session import NooSession
from odin_cards.name_of_odin.plugin import LEVELS
from odin_cards.plugin import Ending, TerminalTable

DELAY = 0.4
"""Seconds after each bot move at a terminal (none for piped input)."""


def play(table: TerminalTable) -> tuple[Ending, GameState]:
    """Play the table to its end, or until the person leaves (the bots take no budget:
    they answer at once)."""
    names = list(table.names)
    view = table.game.view(0)
    table.console.print(
        Text.assemble(
            ("In the Name of Odin", "bold"),
            f": {names[0]} against {', '.join(names[1:])}; cards: {view['cards']}"
            f"{'; resumed' if table.resumed else ''}. Type help for help.",
        )
    )
    session = NooSession(
        table.game,
        names,
        {seat: bot.level for seat, bot in table.bots.items()},
        human=0,
        console=table.console,
        read_line=table.read_line,
        bot_seed=table.bot_seed,
        delay=(DELAY if table.interactive else 0.0) if table.delay is None else table.delay,
        hint_level=table.hint_level or LEVELS[-1].key,
        echo=table.echo,
    )
    ending = session.run()
    return ending, session.game


__all__ = ["DELAY", "play"]
