"""What the environments' ``render()`` shows: one seat's screen, as ``odin play`` draws it.

Drawn from that seat's view (:mod:`odin_cards.odin.play.render`), so a rendering shows the
seat's own cards and what is public, never another hand.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Final

from odin_cards.odin.rules import Game

RENDER_MODES: Final = ("ansi", "human")
"""``ansi``: ``render()`` returns the screen as plain text; ``human``: prints it."""


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode is 'ansi', 'human' or None, not {render_mode!r}")


def screen(game: Game, seat: int, names: Sequence[str]) -> str:
    """``seat``'s screen: players, table, last moves, its hand and, on its turn, its choices."""
    from rich.console import Console

    from odin_cards.odin.play.render import sort_choices, turn_view

    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, force_terminal=False)
    legal = game.legal_actions() if game.current_player == seat else []
    console.print(turn_view(game.view(seat), names, "colour", sort_choices(legal)))
    outcome = game.outcome
    if outcome is not None:
        console.print(f"Game over: scores {list(outcome.scores)}, winners {list(outcome.winners)}")
    return buffer.getvalue()


def show(text: str, render_mode: str | None) -> str | None:
    """``render()``'s answer: the text (``ansi``), or ``None`` after printing it (``human``)."""
    if render_mode == "human":
        print(text, end="")
        return None
    return text


__all__ = ["RENDER_MODES", "check_render_mode", "screen", "show"]
