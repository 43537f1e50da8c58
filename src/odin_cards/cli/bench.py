"""``odin bench``: the engine's speed figures, then the environments' and the simulator's."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from odin_cards.cli.app import OdinCommand
from odin_cards.cli.paths import STDOUT, check_output, write_text

RESEARCH_HINT = 'pip install "odin-cards[research]"'


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def bench_command(
    players: Annotated[
        list[int] | None, typer.Option("--players", help="Player counts (default 2, 4, 6).")
    ] = None,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.1, help="Wall-clock budget of each figure.")
    ] = 2.0,
    seed: Annotated[int, typer.Option("--seed")] = 1,
    research: Annotated[
        bool,
        typer.Option(
            "--research/--engine-only",
            help="Also measure the environments and the batch simulator (the research extra).",
        ),
    ] = True,
    json_file: Annotated[
        Path | None,
        typer.Option("--json", help="Write the figures as JSON here ('-': standard output)."),
    ] = None,
) -> None:
    """Measure the engine, the environments and the batch simulator on one core, side by side.

    Random play everywhere: a uniform choice among the legal actions at every step.
    """
    from rich.console import Console
    from rich.table import Table

    from odin_cards.tools.bench import (
        SIM_GAMES,
        research_missing,
        run_bench,
        run_research,
        sim_first_call,
    )

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
    data: dict[str, Any] = {
        "format": "odin-cards-bench/1",
        "seconds_per_figure": seconds,
        "seed": seed,
        "results": [dataclasses.asdict(r) for r in results],
    }
    if research:
        missing = research_missing()
        if not any("numba" in note for note in missing):
            first = sim_first_call()
            data["sim_first_call_seconds"] = first
            console.print(
                f"batch simulator: first call {first:.1f} s (numba compiles its kernels once,"
                " then loads them from its cache)"
            )
        extra = Table(
            title="actions per second, random play, one core: engine, environments, simulator",
            caption=(
                "engine: validated, as above; AEC env: PettingZoo odin_v0 steps; vector env:"
                f" OdinVectorEnv steps, {SIM_GAMES} games; simulator: compiled random play,"
                f" {SIM_GAMES} games; sim step(): sample_legal() + step() from Python"
            ),
        )
        for column in (
            "players",
            "engine",
            "AEC env",
            "vector env",
            "simulator",
            "sim step()",
            "sim/engine",
        ):
            extra.add_column(column, justify="right")
        research_results = []
        for count, engine in zip(counts, results, strict=True):
            figures = run_research(count, seconds, seed)
            research_results.append(figures)
            sim = figures.sim_actions_per_second
            ratio = "-" if sim is None else f"{sim / engine.actions_per_second:,.1f}x"
            extra.add_row(
                str(count),
                f"{engine.actions_per_second:,.0f}",
                _figure(figures.env_steps_per_second),
                _figure(figures.vector_steps_per_second),
                _figure(sim),
                _figure(figures.sim_step_actions_per_second),
                ratio,
            )
        if json_file != STDOUT:
            console.print(extra)
        for note in missing:
            console.print(f"not measured: {note} ({RESEARCH_HINT})", markup=False)
        data["research"] = [dataclasses.asdict(r) for r in research_results]
        data["research_missing"] = missing
    if json_file is not None:
        write_text(json_file, json.dumps(data, indent=1) + "\n")


def register(app: typer.Typer) -> None:
    app.command("bench", cls=OdinCommand)(bench_command)
