"""``odin replay FILE``: a recorded game, move by move, with the scores after each hand
and, for a finished game of Odin, its statistics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

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


def replay_game(file: Path, key: str, text: str) -> None:
    """Replay a record of a game other than Odin, through the contract."""
    from rich.console import Console
    from rich.text import Text

    from odin_cards.games import rules_of

    rules = rules_of(key)
    console = Console(highlight=False)
    try:
        data = json.loads(text)
        record = rules.load_record(data)
        game = record.replay()
    except ValueError as error:
        raise CommandError(f"{file}: {one_line(str(error))}") from None
    stored = data.get("outcome")
    replayed = game.record().to_dict().get("outcome")
    if stored != replayed:
        raise CommandError(
            f"{file}: the stored outcome {json.dumps(stored)} is not the one the moves"
            f" lead to ({json.dumps(replayed)})"
        )
    names = seat_names(file, game.players)
    labels = names or [f"seat {seat}" for seat in range(game.players)]
    console.print(Text(f"{key}, {game.players} players", style="bold"))
    if names is not None:
        console.print(Text("seats: " + ", ".join(f"{s} {n}" for s, n in enumerate(names))))
    for line in event_lines(key, game.public_events(), labels):
        console.print(Text(line))
    if not game.is_over:
        console.print("[dim](the record ends before the game does)[/dim]")


def event_lines(key: str, events: list[dict[str, Any]], names: list[str]) -> list[str]:
    """The public events of a game, one line each, in the game's own words where it has them."""
    if key == "name-of-odin":
        from odin_cards.name_of_odin.play.words import event_lines as words

        return words(events, names)
    return [json.dumps(event, separators=(", ", ": ")) for event in events]


def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record written by --record or the server.")],
    show_deals: Annotated[
        bool, typer.Option("--deals", help="Also show every seat's dealt cards (Odin).")
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
    """Print a recorded game move by move in the canonical notation.

    The record's stored outcome must be the one its moves lead to (exit status 1 if not).
    """
    from rich.console import Console
    from rich.text import Text

    from odin_cards.cli import options as opt
    from odin_cards.cli.statistics import seats_table, summary_line
    from odin_cards.odin.play.words import event_line
    from odin_cards.odin.rules import GameRecord, RecordError
    from odin_cards.odin.rules.statistics import game_statistics

    if game_key is not None:
        opt.game_rules(game_key)
    text = read_text(file)
    key = game_of_record(file, text, game_key)
    if key != "odin":
        if show_deals:
            raise typer.BadParameter(f"{key} has no deals to show", param_hint="--deals")
        replay_game(file, key, text)
        return
    console = Console(highlight=False)
    try:
        record = GameRecord.from_json(text)
        game = record.replay()
    except RecordError as error:
        raise CommandError(f"{file}: {error}") from None
    replayed = game.record().outcome
    if record.outcome != replayed:
        raise CommandError(
            f"{file}: the stored outcome {json.dumps(record.outcome)} is not the one the moves"
            f" lead to ({json.dumps(replayed)})"
        )
    options = game.options
    names = seat_names(file, game.players)
    console.print(
        Text(
            f"{game.players} players, target {options.target}"
            f"{', one hand' if options.one_hand else ''}{', Goat' if options.goat else ''}"
            f", seed {game.seed!r}",
            style="bold",
        )
    )
    if names is not None:
        console.print(Text("seats: " + ", ".join(f"{s} {n}" for s, n in enumerate(names))))
    labels = names or [f"seat {seat}" for seat in range(game.players)]
    scores = [0] * game.players
    deals = iter([e["deal"] for e in record.events if "deal" in e])
    for event in game.view(None).history:
        line = event_line(event, labels)
        if line is None:
            continue
        if event["type"] == "deal":
            console.print()
            console.print(Text(line, style="bold"))
            hands = next(deals)
            if show_deals:
                for seat, cards in enumerate(hands):
                    console.print(f"  seat {seat} holds {' '.join(cards)}")
        elif event["type"] == "hand_end":
            scores = [s + p for s, p in zip(scores, event["points"], strict=True)]
            console.print(Text(f"{line}; scores {' '.join(map(str, scores))}", style="yellow"))
        elif event["type"] == "game_end":
            console.print(Text(line, style="bold green"))
        else:
            console.print(Text(f"  {line}"))
    if not game.is_over:
        console.print("[dim](the record ends before the game does)[/dim]")
        return
    figures = game_statistics(game.history, game.players)
    console.print()
    console.print(Text(summary_line(figures, labels), style="bold"))
    console.print(seats_table(figures, labels))


def register(app: typer.Typer) -> None:
    app.command("replay", cls=OdinCommand)(replay_command)
