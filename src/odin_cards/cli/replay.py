"""``odin replay FILE``: a recorded game, move by move, with the scores after each hand."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..movelog import event_line
from ..rules import RecordError, mask_text
from ..rules.record import GameRecord


def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record written by --record or the server.")],
    deals: Annotated[
        bool, typer.Option("--deals", help="Also show every seat's dealt cards.")
    ] = False,
) -> None:
    """Print a recorded game move by move in the canonical notation."""
    console = Console(highlight=False)
    try:
        game = GameRecord.from_json(file.read_text()).replay()
    except OSError as error:
        raise typer.BadParameter(f"cannot read {file}: {error.strerror}") from None
    except RecordError as error:
        console.print(f"[red]{file}: {error}[/red]")
        raise typer.Exit(1) from None
    options = game.options
    console.print(
        f"[bold]{game.players} players, target {options.target}"
        f"{', one hand' if options.one_hand else ''}{', Goat' if options.goat else ''}"
        f", seed {game.seed!r}[/bold]"
    )
    scores = [0] * game.players
    view = game.view(None)
    for event, (_, _, data) in zip(view.history, game.history, strict=True):
        line = event_line(event)
        if line is None:
            continue
        if event["type"] == "deal":
            console.print(f"\n[bold]{line}[/bold]")
            if deals and isinstance(data, tuple):
                for seat, mask in enumerate(data):
                    console.print(f"  seat {seat} holds {mask_text(mask)}")
        elif event["type"] == "hand_end":
            scores = [s + p for s, p in zip(scores, event["points"], strict=True)]
            console.print(f"[yellow]{line}; scores {' '.join(map(str, scores))}[/yellow]")
        elif event["type"] == "game_end":
            console.print(f"[bold green]{line}[/bold green]")
        else:
            console.print(f"  {line}")
    if not game.is_over:
        console.print("[dim](the record ends before the game does)[/dim]")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
