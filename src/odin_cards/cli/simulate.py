"""``odin simulate``: random games with a summary, optionally saving one game record."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import options as opt
from .app import OdinCommand
from .paths import STDOUT, check_output, plural, write_text

if TYPE_CHECKING:
    from ..rules import Game
    from ..simulate import Summary


def summary_dict(summary: Summary, seconds: float, complete: bool) -> dict[str, Any]:
    return {
        "format": "odin-cards-simulate/1",
        "complete": complete,
        "players": summary.players,
        "games": summary.games,
        "hands": summary.hands,
        "rounds": summary.rounds,
        "actions": summary.actions,
        "hands_per_game": summary.hands_per_game,
        "rounds_per_hand": summary.rounds_per_hand,
        "mean_points": summary.mean_points,
        "win_share_by_seat": [w / summary.games for w in summary.wins] if summary.games else [],
        "seconds": seconds,
    }


def simulate_command(
    players: Annotated[int, typer.Option("--players", "-p", help="2 to 6.")] = 4,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of deals and choices.")] = 1,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write the first game's record (JSON) here.")
    ] = None,
    json_file: Annotated[
        Path | None,
        typer.Option("--json", help="Write the figures as JSON here ('-': standard output)."),
    ] = None,
    target: opt.Target = 15,
    one_hand: opt.OneHand = False,
    next_leader: opt.NextLeader = "rotate",
    first_leader: opt.FirstLeader = None,
    colours: opt.Colours = 6,
    goat: opt.Goat = False,
) -> None:
    """Play random games and print a summary (games, hands, rounds, points, time).

    Ctrl-C stops early and prints the summary of the games finished (exit status 130).
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    from rich.table import Table

    from ..simulate import Summary, simulate

    options = opt.make_options(players, target, one_hand, next_leader, first_leader, colours, goat)
    check_output(record, "--record")
    check_output(json_file, "--json")
    quiet = json_file == STDOUT
    console = Console(stderr=quiet)
    summary = Summary(players)
    first: list[Game] = []
    start = time.perf_counter()
    complete = True
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("simulating", total=games)

        def advance(game: Game) -> None:
            summary.add(game)
            if not first:
                first.append(game)
            progress.advance(task)

        try:
            simulate(players, games, seed, options, advance)
        except KeyboardInterrupt:
            complete = False
    elapsed = time.perf_counter() - start

    title = f"{plural(summary.games, 'random game')}, {players} players, target {options.target}"
    if not complete:
        console.print(f"interrupted: {summary.games} of {plural(games, 'game')} played")
    if not quiet:
        table = Table(title=title)
        table.add_column("figure")
        table.add_column("value", justify="right")
        table.add_row("games", f"{summary.games}")
        table.add_row("hands per game", f"{summary.hands_per_game:.2f}")
        table.add_row("rounds per hand", f"{summary.rounds_per_hand:.2f}")
        table.add_row("actions", f"{summary.actions}")
        table.add_row("mean points per player", f"{summary.mean_points:.2f}")
        shares = " ".join(f"{w / summary.games:.3f}" for w in summary.wins) or "-"
        table.add_row("win share by seat", shares)
        rate = summary.actions / elapsed if elapsed > 0 else 0.0
        table.add_row("time", f"{elapsed:.2f} s ({rate:,.0f} actions/s)")
        console.print(table)
    if json_file is not None:
        write_text(json_file, json.dumps(summary_dict(summary, elapsed, complete), indent=1) + "\n")
        if not quiet:
            console.print(f"wrote the figures to {json_file}")
    if record is not None and first:
        write_text(record, first[0].record().to_json(indent=1) + "\n")
        console.print(f"wrote the first game's record to {record}")
    if not complete:
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command("simulate", cls=OdinCommand)(simulate_command)
