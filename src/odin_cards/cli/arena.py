"""``odin arena BOT BOT [BOT...]``: bots against each other on seeded deals, every seat rotation."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ..arena import (
    ArenaError,
    BotFailure,
    GameResult,
    bot_stats,
    default_workers,
    lineups,
    make_entrants,
    plot_stats,
    run_arena,
    write_json,
)
from ..bots import LEVELS
from . import options as opt


def arena_command(
    bots: Annotated[
        list[str],
        typer.Argument(
            help="Bot levels, e.g. 'heuristic random'; a budget override: 'search:iterations=200'"
            " or 'search:seconds=0.2'. A level may appear more than once.",
            show_default=False,
            metavar="BOT",
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", help="Games to play (rounded up to whole sets of seat rotations)."
        ),
    ] = 100,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Seats per game (default: one per bot)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deal sets and the bots.")] = 1,
    target: opt.Target = 15,
    one_hand: opt.OneHand = False,
    next_leader: opt.NextLeader = "rotate",
    first_leader: opt.FirstLeader = None,
    colours: opt.Colours = 6,
    goat: opt.Goat = False,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-j", help="Processes to play on (default: every core)."),
    ] = None,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Write the results (per bot, per game) here.")
    ] = None,
    plot_file: Annotated[
        Path | None, typer.Option("--plot", help="Draw win share and rating as a PNG here.")
    ] = None,
    records: Annotated[
        Path | None,
        typer.Option("--records", help="Write every game's record here (for odin replay)."),
    ] = None,
) -> None:
    """Bots against each other: win share (95% CI), points per hand, rating, think time.

    Each deal set is replayed in every seat rotation, so the luck of the deal cancels.
    """
    console = Console(highlight=False)
    try:
        entrants = make_entrants(bots)
    except ArenaError as error:
        raise typer.BadParameter(str(error), param_hint="BOTS") from None
    seats = len(entrants) if players is None else players
    if games < 1:
        raise typer.BadParameter(f"play at least 1 game, not {games}", param_hint="--games")
    if workers is not None and workers < 1:
        raise typer.BadParameter(f"use at least 1 worker, not {workers}", param_hint="--workers")
    try:
        rotations = len(lineups(len(entrants), seats))
    except ArenaError as error:
        raise typer.BadParameter(str(error), param_hint="--players") from None
    options = opt.make_options(seats, target, one_hand, next_leader, first_leader, colours, goat)
    for path in (json_file, plot_file):
        if path is not None and not path.parent.is_dir():
            raise typer.BadParameter(f"the folder of {path} does not exist")
    if records is not None and records.exists() and not records.is_dir():
        raise typer.BadParameter(f"{records} is not a folder", param_hint="--records")
    deals = -(-games // rotations)
    workers = default_workers() if workers is None else workers
    console.print(
        f"[bold]{deals * rotations} games[/bold] = {deals} deal sets x {rotations} seat rotations,"
        f" {seats} players, target {options.target}, seed {seed}, {workers} workers"
    )
    if deals * rotations != games:
        console.print(f"[dim](--games {games} rounded up to whole rotations)[/dim]")
    for entrant in entrants:
        level = LEVELS[entrant.key]
        console.print(f"  {entrant.label}: {level.name}. {level.description}")

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        auto_refresh=False,  # no refresh thread: the workers may then be forked
    ) as progress:
        task = progress.add_task("playing", total=deals * rotations)

        def advance(_: GameResult) -> None:
            progress.advance(task)
            progress.refresh()

        try:
            run = run_arena(
                entrants, games, seats, seed, options, workers, advance, records is not None
            )
        except BotFailure as error:
            console.print(f"[red]bot failure: {error}[/red]")
            raise typer.Exit(1) from None
        except ArenaError as error:
            raise typer.BadParameter(str(error)) from None
        except KeyboardInterrupt:
            console.print("interrupted: no results")
            raise typer.Exit(130) from None

    stats = bot_stats(run)
    table = Table(
        box=box.SIMPLE_HEAD,
        title=f"{len(run.results)} games, {seats} players, target {options.target}"
        f" ({run.seconds:.1f} s)",
    )
    for column in ("bot", "games", "win share (95% CI)", "pts/hand", "rating", "p95 think"):
        if column == "bot":
            table.add_column(column, overflow="fold")
        else:
            table.add_column(column, justify="right", no_wrap=True)
    for s in stats:
        table.add_row(
            s.label,
            f"{s.games}",
            f"{s.win_share:.3f} ({s.ci_low:.3f}-{s.ci_high:.3f})",
            f"{s.points_per_hand:.2f}",
            f"{s.mu:.1f}±{s.sigma:.1f}",
            f"{s.decision_p95 * 1000:.{1 if s.decision_p95 < 0.01 else 0}f} ms",
        )
    console.print(table)
    fair = ", ".join(sorted({f"{s.fair_share:.3f}" for s in stats}))
    console.print(
        f"[dim]fair share {fair}; ties split a victory; CI: Wilson score 95%;"
        " pts/hand: mean points per hand (fewer is better); rating: openskill Plackett-Luce"
        " mu±sigma ranked by final points; think: 95th percentile of decision times"
        " (wall clock, all workers running)[/dim]"
    )
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        for result in run.results:
            name = f"deal{result.deal:04d}-rotation{result.rotation}.json"
            (records / name).write_text(result.record or "")
        console.print(f"wrote {len(run.results)} game records to {records}/")
    if json_file is not None:
        write_json(run, json_file, stats)
        console.print(f"wrote the results to {json_file}")
    if plot_file is not None:
        names = " vs ".join(e.label for e in entrants)
        plot_stats(stats, plot_file, f"{names}: {len(run.results)} games, {seats} players")
        console.print(f"drew the figure to {plot_file}")


def register(app: typer.Typer) -> None:
    app.command("arena")(arena_command)
