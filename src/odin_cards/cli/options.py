"""Command-line flags for the game options, shared by every command that starts games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from odin_cards.contract import GameRules
    from odin_cards.odin.rules import Options

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


def check_players(players: int) -> None:
    if not 2 <= players <= 6:
        raise typer.BadParameter(
            f"Odin is played by 2 to 6 players, not {players}", param_hint="--players"
        )


def make_options(
    players: int,
    target: int = 15,
    one_hand: bool = False,
    next_leader: str = "rotate",
    first_leader: int | None = None,
    colours: int = 6,
    goat: bool = False,
) -> Options:
    """Build and check options; a bad one exits with a one-line error naming its flag."""
    from odin_cards.odin.rules import Options, OptionsError

    check_players(players)
    if target < 1:
        raise typer.BadParameter(
            f"the target is a positive whole number, not {target}", param_hint="--target"
        )
    if next_leader not in ("rotate", "winner"):
        raise typer.BadParameter(
            f"'rotate' or 'winner', not {next_leader!r}", param_hint="--next-leader"
        )
    if first_leader is not None and not 0 <= first_leader < players:
        raise typer.BadParameter(
            f"a seat from 0 to {players - 1}, not {first_leader}", param_hint="--first-leader"
        )
    if colours not in (4, 6):
        raise typer.BadParameter(
            f"6, or 4 in a two-player game, not {colours}", param_hint="--colours"
        )
    if colours == 4 and players != 2:
        raise typer.BadParameter(
            "the 4-colour deck is for two players only", param_hint="--colours"
        )
    options = Options(
        target=target,
        one_hand=one_hand,
        next_leader="winner" if next_leader == "winner" else "rotate",
        first_leader=first_leader,
        colours=colours,
        goat=goat,
    )
    try:
        options.check(players)
    except OptionsError as error:
        raise typer.BadParameter(str(error)) from None
    return options


GameKey = Annotated[
    str,
    typer.Option(
        "--game",
        "-g",
        help="The game: 'odin' (the card game), or 'name-of-odin' (In the Name of Odin).",
    ),
]

ODIN_FLAGS = {
    "target": "--target",
    "one_hand": "--one-hand",
    "next_leader": "--next-leader",
    "first_leader": "--first-leader",
    "colours": "--colours",
    "goat": "--goat",
}
"""Odin's option flags: refused, by name, when another game is played."""


def game_rules(key: str) -> GameRules:
    """The rules registered as ``key`` (:data:`odin_cards.games.GAMES`), or a one-line error."""
    from odin_cards.contract import SetupError
    from odin_cards.games import rules_of

    try:
        return rules_of(key)
    except SetupError as error:
        raise typer.BadParameter(str(error), param_hint="--game") from None


def refuse_odin_flags(key: str) -> None:
    """Refuse Odin's option flags given on the command line of a game other than Odin."""
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    context = get_current_context()
    for name, flag in ODIN_FLAGS.items():
        if context.get_parameter_source(name) == ParameterSource.COMMANDLINE:
            raise typer.BadParameter(f"{flag} is an option of Odin, not of {key}", param_hint=flag)


def check_players_of(rules: GameRules, players: int) -> None:
    """A player count the game's rules allow, or a one-line error naming ``--players``."""
    if not rules.min_players <= players <= rules.max_players:
        raise typer.BadParameter(
            f"{rules.key} is played by {rules.min_players} to {rules.max_players} players,"
            f" not {players}",
            param_hint="--players",
        )
