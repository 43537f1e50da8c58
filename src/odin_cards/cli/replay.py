"""``odin replay FILE``: a recorded game of any installed game, move by move, in the
game's own words (its plugin's ``replay``; else each public event as JSON)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from odin_cards.cli.app import CommandError, OdinCommand, one_line
from odin_cards.cli.paths import read_text


def seat_names(file: Path, players: int) -> list[str] | None:
    """The players' names that ``odin play`` and ``odin arena`` keep in a record, if any."""
    try:
        seats = json.loads(read_text(file)).get("seats")
        names = [str(seat["name"]) for seat in seats]
    except (AttributeError, TypeError, KeyError, ValueError):
        return None
    return names if len(names) == players else None


def game_of_record(file: Path, text: str, asked: str | None) -> str:
    """The key of the game a record holds (a record without one is Odin's, format 1)."""
    from odin_cards.games import keys

    try:
        data = json.loads(text)
    except ValueError:
        data = None
    key = data.get("game", "odin") if isinstance(data, dict) else "odin"
    if not isinstance(key, str) or key not in keys():
        shown = key[:40] if isinstance(key, str) else type(key).__name__
        raise CommandError(
            f"{file}: a record of an unknown game {shown!r}; games: {', '.join(keys())}"
        )
    if asked is not None and asked != key:
        raise CommandError(f"{file} is a record of {key}, not of {asked}")
    return key


def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record written by --record or the server.")],
    show_deals: Annotated[
        bool,
        typer.Option("--deals", help="Also show the record's secrets: every seat's dealt cards."),
    ] = False,
    game_key: Annotated[
        str | None,
        typer.Option(
            "--game",
            "-g",
            help="The game the record must be of (default: the one it names).",
        ),
    ] = None,
) -> None:
    """Print a recorded game move by move in the game's notation.

    The record's stored outcome must be the one its moves lead to (exit status 1 if not).
    """
    from rich.console import Console

    from odin_cards.cli import options as opt
    from odin_cards.plugin import FlagError

    if game_key is not None:
        opt.game_plugin(game_key)
    text = read_text(file)
    plugin = opt.game_plugin(game_of_record(file, text, game_key))
    try:
        data = json.loads(text)
    except ValueError as error:
        raise CommandError(f"{file}: a game record is JSON: {one_line(str(error))}") from None
    try:
        game = opt.game_rules(plugin).load_record(data).replay()
    except ValueError as error:
        raise CommandError(f"{file}: {one_line(str(error))}") from None
    stored = data.get("outcome")
    replayed = game.record().to_dict().get("outcome")
    if stored != replayed:
        raise CommandError(
            f"{file}: the stored outcome {json.dumps(stored)} is not the one the moves"
            f" lead to ({json.dumps(replayed)})"
        )
    from odin_cards.cli.plain import replay as plain

    replay = plugin.load_replay() or plain
    lines = iter(replay(game, data, seat_names(file, game.players), show_deals))
    console = Console(highlight=False)
    try:
        first = next(lines, None)
    except FlagError as error:
        raise typer.BadParameter(str(error), param_hint=error.flag) from None
    if first is not None:
        console.print(first)
    for line in lines:
        console.print(line)
    if not game.is_over:
        console.print("[dim](the record ends before the game does)[/dim]")


def register(app: typer.Typer) -> None:
    app.command("replay", cls=OdinCommand)(replay_command)
