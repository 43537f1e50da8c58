"""``odin bench``: a game's engine speed figures, then its research figures (Odin's: the
environments and the simulator), where its plugin has them."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from odin_cards.cli import options as opt
from odin_cards.cli.app import OdinCommand
from odin_cards.cli.paths import STDOUT, check_output, write_text

RESEARCH_COLUMNS = (
    ("env_steps_per_second", "AEC env"),
    ("vector_steps_per_second", "vector env"),
    ("sim_actions_per_second", "simulator"),
    ("sim_step_actions_per_second", "sim step()"),
    ("jax_actions_per_second", "JAX"),
)
"""The research figures shown, in order (what a game's ``measure`` may return)."""


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
            help="Also measure the game's research environments and simulator, where it has"
            " them (Odin, with the research extra).",
        ),
    ] = True,
    json_file: Annotated[
        Path | None,
        typer.Option("--json", help="Write the figures as JSON here ('-': standard output)."),
    ] = None,
    game_key: opt.GameKey = None,
) -> None:
    """Measure a game's engine (and its research environments and simulator) on one core.

    Random play everywhere: a uniform choice among the legal actions at every step.
    """
    from rich.console import Console
    from rich.table import Table

    from odin_cards.plugin import resolve
    from odin_cards.tools.bench import run_bench

    plugin = opt.game_plugin(game_key)
    rules = opt.game_rules(plugin)
    counts = players or [2, 4, 6]
    low, high = rules.min_players, rules.max_players
    if any(not low <= count <= high for count in counts):
        raise typer.BadParameter(f"player counts are {low} to {high}", param_hint="--players")
    check_output(json_file, "--json")
    console = Console(stderr=json_file == STDOUT)
    table = Table(title=f"odin-cards engine, {plugin.key}, random play, one core")
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
        r = run_bench(rules, count, seconds, seed)
        results.append(r)
        table.add_row(
            str(count),
            f"{r.actions_per_second:,.0f}",
            _figure(r.unchecked_actions_per_second),
            f"{r.legal_per_second:,.0f}",
            f"{r.games_per_second:,.1f}",
            f"{r.actions_per_game:,.0f}",
        )
    if json_file != STDOUT:
        console.print(table)
    data: dict[str, Any] = {
        "format": "odin-cards-bench/1",
        "game": plugin.key,
        "seconds_per_figure": seconds,
        "seed": seed,
        "results": [dataclasses.asdict(r) for r in results],
    }
    bench = plugin.environments.get("bench")
    if research and bench is not None:
        figures = resolve(bench)
        missing = figures.missing()
        first = figures.first_call()
        if first is not None:
            data["sim_first_call_seconds"] = first
            console.print(
                f"batch simulator: first call {first:.1f} s (numba compiles its kernels once,"
                " then loads them from its cache)"
            )
        extra = Table(
            title="actions per second, random play: engine, environments, simulator (one core),"
            " JAX (its device)",
            caption=figures.caption,
        )
        for column in ("players", "engine", *(name for _, name in RESEARCH_COLUMNS), "sim/engine"):
            extra.add_column(column, justify="right")
        research_results = []
        for count, engine in zip(counts, results, strict=True):
            measured = figures.measure(count, seconds, seed)
            research_results.append(measured)
            sim = measured.get("sim_actions_per_second")
            ratio = "-" if sim is None else f"{sim / engine.actions_per_second:,.1f}x"
            extra.add_row(
                str(count),
                f"{engine.actions_per_second:,.0f}",
                *(_figure(measured.get(key)) for key, _ in RESEARCH_COLUMNS),
                ratio,
            )
        if json_file != STDOUT:
            console.print(extra)
        compiled = [r for r in research_results if r.get("jax_compile_seconds") is not None]
        if compiled:
            times = ", ".join(
                f"{r['jax_compile_seconds']:.1f} s ({r['players']} players)" for r in compiled
            )
            console.print(f"JAX on {compiled[0]['jax_backend']}: first call (compilation) {times}")
        for note in missing:
            console.print(f"not measured: {note}", markup=False)
        data["research"] = research_results
        data["research_missing"] = missing
    if json_file is not None:
        write_text(json_file, json.dumps(data, indent=1) + "\n")


def register(app: typer.Typer) -> None:
    app.command("bench", cls=OdinCommand)(bench_command)
