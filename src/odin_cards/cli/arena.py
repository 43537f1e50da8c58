"""``odin arena BOT BOT [BOT...]``: bots of any game against each other on seeded deals,
every seat rotation; a thin shell over :mod:`odin_cards.tools.arena`."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from odin_cards.cli import options as opt
from odin_cards.cli.app import CommandError
from odin_cards.cli.paths import STDOUT, check_output, plural, write_text

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from odin_cards.plugin import GamePlugin
    from odin_cards.tools.arena import ArenaRun, BotStats, Entrant, GameResult
    from odin_cards.tools.simulate import GameTotals


def whole_deal_sets(results: Sequence[GameResult], rotations: int) -> list[GameResult]:
    """The games of the deal sets played in every rotation, in schedule order.

    An interrupted run keeps only these: a deal set played in some rotations only would
    let the luck of its deal count.
    """
    by_deal: dict[int, list[GameResult]] = {}
    for result in results:
        by_deal.setdefault(result.deal, []).append(result)
    whole = [games for games in by_deal.values() if len(games) == rotations]
    return sorted((r for games in whole for r in games), key=lambda r: (r.deal, r.rotation))


def record_with_seats(result: GameResult, entrants: Sequence[Entrant]) -> str:
    """A game's record with who sat where (each seat's bot, as its arena label)."""
    data = dict(result.record or {})
    data["seats"] = [
        {"name": entrants[e].label, "bot": entrants[e].label.split("#")[0]} for e in result.lineup
    ]
    return json.dumps(data) + "\n"


def check_records_folder(records: Path | None) -> None:
    if records is not None and records.exists() and not records.is_dir():
        raise typer.BadParameter(f"{records} is not a folder", param_hint="--records")
    if records is not None and not records.parent.is_dir():
        raise typer.BadParameter(f"the folder of {records} does not exist", param_hint="--records")


@contextlib.contextmanager
def progress_bar(console: Console, total: int) -> Iterator[tuple[Progress, TaskID]]:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

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
        yield progress, progress.add_task("playing", total=total)


def describe(plugin: GamePlugin, entrant: Entrant) -> str:
    """One line on an entrant: its level as the plugin describes it, or its agent."""
    if entrant.agent is not None:
        return f"  {entrant.label}: Python agent ({entrant.agent})"
    level = plugin.level(entrant.key)
    if level is None:
        return f"  {entrant.label}"
    return f"  {entrant.label}: {level.name}. {level.description}"


def order_totals(run: ArenaRun) -> GameTotals | None:
    """Scores and victories by place in the order of play, where the game says who began."""
    from odin_cards.tools.simulate import GameTotals

    if not run.results or any(r.first_player is None for r in run.results):
        return None
    totals = GameTotals(run.players)
    for r in run.results:
        totals.add_result(r.scores, r.winners, r.actions, r.first_player, r.turns, r.hands)
    return totals


def print_stats(console: Console, run: ArenaRun, stats: Sequence[BotStats], key: str) -> None:
    """The figures per bot (and by place in the order of play, where known)."""
    from rich import box
    from rich.table import Table

    from odin_cards.cli.simulate import places

    per_hand = all(r.hands is not None for r in run.results)
    mean = "pts/hand" if per_hand else "score/game"
    table = Table(
        box=box.SIMPLE_HEAD,
        title=f"{plural(len(run.results), 'game')} of {key}, {run.players} players"
        f" ({run.seconds:.1f} s)",
    )
    for column in ("bot", "games", "win share (95% CI)", mean, "rating", "p95 think"):
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
    totals = order_totals(run)
    if totals is not None:
        console.print(places(totals)[0])
    fair = ", ".join(sorted({f"{s.fair_share:.3f}" for s in stats}))
    explained = "pts/hand: mean points per hand" if per_hand else "score/game: mean final score"
    console.print(
        f"[dim]fair share {fair}; ties split a victory; CI: Wilson score 95%; {explained};"
        " rating: openskill Plackett-Luce mu±sigma ranked by final score, better as the"
        " winners' is; think: 95th percentile of decision times (wall clock, all workers"
        " running)[/dim]"
    )


def arena_command(
    bots: Annotated[
        list[str],
        typer.Argument(
            help="Bot levels of the game, e.g. 'heuristic random'; a budget override:"
            " 'search:iterations=200' or 'search:seconds=0.2'; or a Python agent by import"
            " path ('package.module:function', 'path/to/file.py:function'). A level may appear"
            " more than once.",
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
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-j", help="Processes to play on (default: every core)."),
    ] = None,
    json_file: Annotated[
        Path | None,
        typer.Option(
            "--json", help="Write the results (per bot, per game) here ('-': standard output)."
        ),
    ] = None,
    plot_file: Annotated[
        Path | None,
        typer.Option("--plot", help="Draw win share and rating as a PNG here (FILE.png)."),
    ] = None,
    records: Annotated[
        Path | None,
        typer.Option("--records", help="Write every game's record here (for odin replay)."),
    ] = None,
    game_key: opt.GameKey = None,
    ladder: Annotated[
        bool,
        typer.Option(
            "--ladder",
            help="Rate the levels (weakest first) on a ladder: each heads-up against the one"
            " before, a rung stopping when a sequential test (SPRT) decides or after --games.",
        ),
    ] = False,
    delta: Annotated[
        float,
        typer.Option("--delta", help="Ladder: the SPRT tells win shares 0.5±delta apart."),
    ] = 0.1,
) -> None:
    """Bots against each other: win share (95% CI), points, rating, think time.

    Each deal set is replayed in every seat rotation, so the luck of the deal cancels.
    Ctrl-C stops early and reports the deal sets played in every rotation (exit 130).
    With --ladder: the levels' ratings, heads-up rung by rung (docs/bots.md).
    """
    from rich.console import Console
    from rich.text import Text

    from odin_cards.extras import require
    from odin_cards.tools import arena

    if not ladder:  # its ratings are openskill's (a ladder's are Elo's, the core's)
        require("arena", "odin arena")
    if plot_file is not None:
        require("plot", "odin arena --plot")
    plugin = opt.game_plugin(game_key)
    if ladder:
        from odin_cards.cli.ladder import ladder_command

        if players not in (None, 2) or plot_file is not None or records is not None:
            raise typer.BadParameter(
                "a ladder is heads-up, without --players, --plot or --records",
                param_hint="--ladder",
            )
        setup = opt.game_setup(plugin, 2)
        ladder_command(plugin, bots, games, seed, setup, workers, json_file, delta)
        return
    console = Console(highlight=False, stderr=json_file == STDOUT)
    try:
        entrants = arena.make_entrants(bots, plugin.key)
    except arena.ArenaError as error:
        raise typer.BadParameter(str(error), param_hint="BOTS") from None
    seats = len(entrants) if players is None else players
    if games < 1:
        raise typer.BadParameter(f"play at least 1 game, not {games}", param_hint="--games")
    if workers is not None and workers < 1:
        raise typer.BadParameter(f"use at least 1 worker, not {workers}", param_hint="--workers")
    try:
        rotations = len(arena.lineups(len(entrants), seats))
    except arena.ArenaError as error:
        raise typer.BadParameter(str(error), param_hint="--players") from None
    setup = opt.game_setup(plugin, seats)
    check_output(json_file, "--json")
    if plot_file == STDOUT:
        raise typer.BadParameter(
            "the figure is a PNG file, not standard output", param_hint="--plot"
        )
    check_output(plot_file, "--plot", suffix=".png")
    check_records_folder(records)
    deals = -(-games // rotations)
    workers = arena.default_workers() if workers is None else workers
    given = opt.flags_text()
    console.print(
        Text.assemble(
            (plural(deals * rotations, "game"), "bold"),
            f" of {plugin.key} = {plural(deals, 'deal set')} x"
            f" {plural(rotations, 'seat rotation')}, {seats} players"
            f"{', ' + given if given else ''}, seed {seed}, {plural(workers, 'worker')}",
        )
    )
    if deals * rotations != games:
        console.print(f"[dim](--games {games} rounded up to whole rotations)[/dim]")
    for entrant in entrants:
        console.print(Text(describe(plugin, entrant)))

    played: list[GameResult] = []
    start = time.perf_counter()
    interrupted = False
    with progress_bar(console, deals * rotations) as (progress, task):

        def advance(result: GameResult) -> None:
            played.append(result)
            progress.advance(task)
            progress.refresh()

        try:
            run = arena.run_arena(
                entrants, games, seats, seed, setup, workers, advance, records is not None
            )
        except arena.BotFailure as error:
            raise CommandError(f"bot failure: {error}") from None
        except arena.ArenaError as error:
            raise typer.BadParameter(str(error)) from None
        except KeyboardInterrupt:
            interrupted = True
            run = arena.ArenaRun(
                entrants=tuple(entrants),
                players=seats,
                setup=setup,
                seed=seed,
                games_asked=games,
                rotations=rotations,
                results=tuple(whole_deal_sets(played, rotations)),
                seconds=time.perf_counter() - start,
                workers=workers,
            )
    if interrupted:
        console.print(
            f"interrupted: results of the {plural(run.deals, 'deal set')} played in every"
            f" rotation ({plural(len(run.results), 'game')})"
        )
        if not run.results:
            raise typer.Exit(130)

    stats = arena.bot_stats(run)
    print_stats(console, run, stats, plugin.key)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        for result in run.results:
            name = f"deal{result.deal:04d}-rotation{result.rotation}.json"
            write_text(records / name, record_with_seats(result, entrants))
        console.print(Text(f"wrote {plural(len(run.results), 'game record')} to {records}/"))
    if json_file is not None:
        data: dict[str, Any] = arena.run_dict(run, stats)
        data["complete"] = not interrupted
        totals = order_totals(run)
        if totals is not None:
            from odin_cards.cli.simulate import places

            data["places"] = places(totals)[1]
        write_text(json_file, json.dumps(data, indent=1) + "\n")
        if json_file != STDOUT:
            console.print(Text(f"wrote the results to {json_file}"))
    if plot_file is not None:
        names = " vs ".join(e.label for e in entrants)
        title = f"{names}: {plural(len(run.results), 'game')}, {seats} players"
        try:
            arena.plot_stats(stats, plot_file, title)
        except OSError as error:
            raise CommandError(f"cannot write {plot_file}: {error.strerror or error}") from None
        console.print(Text(f"drew the figure to {plot_file}"))
    if interrupted:
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command("arena", cls=opt.GameCommand)(arena_command)
