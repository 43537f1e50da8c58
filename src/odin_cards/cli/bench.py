"""``odin bench``: the engine's speed figures for 2, 4 and 6 players."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated

import typer

from .app import OdinCommand
from .paths import STDOUT, check_output, write_text


def bench_command(
    players: Annotated[
        list[int] | None, typer.Option("--players", help="Player counts (default 2, 4, 6).")
    ] = None,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.1, help="Wall-clock budget of each figure.")
    ] = 2.0,
    seed: Annotated[int, typer.Option("--seed")] = 1,
    json_file: Annotated[
        Path | None,
        typer.Option("--json", help="Write the figures as JSON here ('-': standard output)."),
    ] = None,
) -> None:
    """Measure applied actions/s, legal-action generations/s and games/s on one core."""
    from rich.console import Console
    from rich.table import Table

    from ..bench import run_bench

    counts = players or [2, 4, 6]
    if any(not 2 <= count <= 6 for count in counts):
        raise typer.BadParameter("player counts are 2 to 6", param_hint="--players")
    check_output(json_file, "--json")
    console = Console(stderr=json_file == STDOUT)
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
    results = []
    for count in counts:
        r = run_bench(count, seconds, seed)
        results.append(r)
        table.add_row(
            str(count),
            f"{r.actions_per_second:,.0f}",
            f"{r.unchecked_actions_per_second:,.0f}",
            f"{r.legal_per_second:,.0f}",
            f"{r.games_per_second:,.1f}",
            f"{r.actions_per_game:,.0f}",
        )
    if json_file != STDOUT:
        console.print(table)
    if json_file is not None:
        data = {
            "format": "odin-cards-bench/1",
            "seconds_per_figure": seconds,
            "seed": seed,
            "results": [dataclasses.asdict(r) for r in results],
        }
        write_text(json_file, json.dumps(data, indent=1) + "\n")


def register(app: typer.Typer) -> None:
    app.command("bench", cls=OdinCommand)(bench_command)
