"""``odin bench``: the engine's speed figures for 2, 4 and 6 players."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..bench import run_bench


def bench_command(
    players: Annotated[
        list[int] | None, typer.Option("--players", help="Player counts (default 2, 4, 6).")
    ] = None,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.1, help="Wall-clock budget of each figure.")
    ] = 2.0,
    seed: Annotated[int, typer.Option("--seed")] = 1,
) -> None:
    """Measure applied actions/s, legal-action generations/s and games/s on one core."""
    console = Console()
    table = Table(title="odin-cards engine, random play, one core")
    for column in (
        "players",
        "actions/s (validated)",
        "actions/s (unchecked)",
        "legal-action sets/s",
        "games/s",
        "actions/game",
    ):
        table.add_column(column, justify="right")
    for count in players or [2, 4, 6]:
        if not 2 <= count <= 6:
            raise typer.BadParameter("player counts are 2 to 6")
        r = run_bench(count, seconds, seed)
        table.add_row(
            str(count),
            f"{r.actions_per_second:,.0f}",
            f"{r.unchecked_actions_per_second:,.0f}",
            f"{r.legal_per_second:,.0f}",
            f"{r.games_per_second:,.1f}",
            f"{r.actions_per_game:,.0f}",
        )
    console.print(table)


def register(app: typer.Typer) -> None:
    app.command("bench")(bench_command)
