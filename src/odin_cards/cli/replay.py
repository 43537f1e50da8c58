"""``odin replay FILE``: a recorded game, move by move, with the scores after each hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .app import CommandError, OdinCommand
from .paths import read_text


def seat_names(file: Path, players: int) -> list[str] | None:
    """The players' names that ``odin play`` and ``odin arena`` keep in a record, if any."""
    try:
        seats = json.loads(read_text(file)).get("seats")
        names = [str(seat["name"]) for seat in seats]
    except (AttributeError, TypeError, KeyError, ValueError):
        return None
    return names if len(names) == players else None


def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record written by --record or the server.")],
    show_deals: Annotated[
        bool, typer.Option("--deals", help="Also show every seat's dealt cards.")
    ] = False,
) -> None:
    """Print a recorded game move by move in the canonical notation.

    The record's stored outcome must be the one its moves lead to (exit status 1 if not).
    """
    from rich.console import Console
    from rich.text import Text

    from ..play.words import event_line
    from ..rules import GameRecord, RecordError

    console = Console(highlight=False)
    try:
        record = GameRecord.from_json(read_text(file))
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


def register(app: typer.Typer) -> None:
    app.command("replay", cls=OdinCommand)(replay_command)
