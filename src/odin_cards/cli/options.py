"""Command-line flags for the game options, shared by every command that starts games."""

from __future__ import annotations

from typing import Annotated

import typer

from ..rules import Options, OptionsError

Target = Annotated[int, typer.Option("--target", help="Points that end the game (10/15/20/any).")]
OneHand = Annotated[bool, typer.Option("--one-hand", help="The first hand ends the game.")]
NextLeader = Annotated[
    str,
    typer.Option("--next-leader", help="Who leads a new hand: 'rotate' or 'winner'."),
]
FirstLeader = Annotated[
    int | None,
    typer.Option("--first-leader", help="Seat that leads the first hand (default: random)."),
]
Colours = Annotated[
    int, typer.Option("--colours", help="6, or 4 for the two-player variant (36 cards).")
]
Goat = Annotated[bool, typer.Option("--goat", help="Add the Grumpy Goat promo card X0.")]


def make_options(
    players: int,
    target: int = 15,
    one_hand: bool = False,
    next_leader: str = "rotate",
    first_leader: int | None = None,
    colours: int = 6,
    goat: bool = False,
) -> Options:
    """Build and check options; a bad combination exits with the engine's explanation."""
    options = Options(
        target=target,
        one_hand=one_hand,
        next_leader=next_leader,  # type: ignore[arg-type]
        first_leader=first_leader,
        colours=colours,
        goat=goat,
    )
    try:
        options.check(players)
    except OptionsError as error:
        raise typer.BadParameter(str(error)) from None
    return options
