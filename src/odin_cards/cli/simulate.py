"""``odin simulate``: random games with a summary, optionally saving one game record."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from ..rules import Game
from ..simulate import simulate
from . import options as opt


def simulate_command(
    players: Annotated[int, typer.Option("--players", "-p", help="2 to 6.")] = 4,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of deals and choices.")] = 1,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write the first game's record (JSON) here.")
    ] = None,
    target: opt.Target = 15,
    one_hand: opt.OneHand = False,
    next_leader: opt.NextLeader = "rotate",
    first_leader: opt.FirstLeader = None,
    colours: opt.Colours = 6,
    goat: opt.Goat = False,
) -> None:
    """Play random games and print a summary (games, hands, rounds, points, time)."""
    options = opt.make_options(players, target, one_hand, next_leader, first_leader, colours, goat)
    console = Console()
    start = time.perf_counter()
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("simulating", total=games)

        def advance(_: Game) -> None:
            progress.advance(task)

        summary, first = simulate(players, games, seed, options, advance)
    elapsed = time.perf_counter() - start

    table = Table(title=f"{games} random games, {players} players, target {options.target}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("games", f"{summary.games}")
    table.add_row("hands per game", f"{summary.hands_per_game:.2f}")
    table.add_row("rounds per hand", f"{summary.rounds_per_hand:.2f}")
    table.add_row("actions", f"{summary.actions}")
    table.add_row("mean points per player", f"{summary.mean_points:.2f}")
    table.add_row("win share by seat", " ".join(f"{w / summary.games:.3f}" for w in summary.wins))
    table.add_row("time", f"{elapsed:.2f} s ({summary.actions / elapsed:,.0f} actions/s)")
    console.print(table)
    if record is not None and first is not None:
        record.write_text(first.record().to_json(indent=1) + "\n")
        console.print(f"wrote the first game's record to {record}")


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)
