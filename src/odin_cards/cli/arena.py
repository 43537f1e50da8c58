"""``odin arena BOT BOT [BOT...]``: bots against each other on seeded deals, every seat rotation."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import multiprocessing.context
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from odin_cards.cli import options as opt
from odin_cards.cli.app import CommandError, OdinCommand
from odin_cards.cli.paths import STDOUT, check_output, plural, write_text

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from odin_cards.contract import GameRules
    from odin_cards.odin.rules import Options
    from odin_cards.tools.arena import ArenaRun, Entrant, GameResult
    from odin_cards.tools.simulate import BotGame


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


def partial_run(
    entrants: Sequence[Entrant],
    seats: int,
    options: Options,
    seed: int,
    games: int,
    rotations: int,
    workers: int,
    results: Sequence[GameResult],
    seconds: float,
) -> ArenaRun:
    from odin_cards.tools.arena import ArenaRun

    return ArenaRun(
        entrants=tuple(entrants),
        players=seats,
        options=options,
        seed=seed,
        games_asked=games,
        rotations=rotations,
        results=tuple(whole_deal_sets(results, rotations)),
        seconds=seconds,
        workers=workers,
    )


def record_with_seats(result: GameResult, entrants: Sequence[Entrant]) -> str:
    """A game's record with who sat where (each seat's bot, as its arena label)."""
    data = json.loads(result.record or "{}")
    data["seats"] = [
        {"name": entrants[e].label, "bot": entrants[e].label.split("#")[0]} for e in result.lineup
    ]
    return json.dumps(data) + "\n"


def game_entrants(key: str, bots: Sequence[str]) -> list[tuple[str, str]]:
    """(label, level) per entrant of a game other than Odin: ``heuristic``, ``heuristic#2``."""
    from odin_cards.odin.bots.registry import bot_levels

    levels = bot_levels(key)
    entrants: list[tuple[str, str]] = []
    for text in bots:
        level = text.strip().lower()
        if level not in levels:
            raise typer.BadParameter(
                f"unknown bot level {text!r} of {key}; levels: {', '.join(levels) or 'none'}",
                param_hint="BOTS",
            )
        count = sum(1 for _, known in entrants if known == level)
        entrants.append((level if count == 0 else f"{level}#{count + 1}", level))
    if len(entrants) < 2:
        raise typer.BadParameter("an arena needs at least two bots", param_hint="BOTS")
    return entrants


def whole_deals(played: dict[tuple[int, int], BotGame], rotations: int) -> list[tuple[int, int]]:
    """The (deal, rotation) keys of the deal sets played in every rotation, in order."""
    deals = sorted({deal for deal, _ in played})
    return [
        (deal, rotation)
        for deal in deals
        if all((deal, r) in played for r in range(rotations))
        for rotation in range(rotations)
    ]


def arena_game(
    rules: GameRules,
    bots: Sequence[str],
    games: int,
    players: int | None,
    seed: int,
    workers: int | None,
    json_file: Path | None,
    records: Path | None,
) -> None:
    """``odin arena`` of a game other than Odin: bots of the registry, every seat rotation.

    Besides each bot's figures, it reports each seat's (whoever sat there): with one
    level in every seat that is the balance of the game itself.
    """
    from concurrent.futures import Future, ProcessPoolExecutor

    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from odin_cards.cli.simulate import length_line, places
    from odin_cards.tools.arena import default_workers, lineups, schedule, wilson_interval
    from odin_cards.tools.simulate import BotError, GameTotals, UnfinishedGameError, bot_game

    console = Console(highlight=False, stderr=json_file == STDOUT)
    entrants = game_entrants(rules.key, bots)
    seats = len(entrants) if players is None else players
    opt.check_players_of(rules, seats)
    if games < 1:
        raise typer.BadParameter(f"play at least 1 game, not {games}", param_hint="--games")
    if workers is not None and workers < 1:
        raise typer.BadParameter(f"use at least 1 worker, not {workers}", param_hint="--workers")
    if len(entrants) > seats:
        raise typer.BadParameter(
            f"{len(entrants)} bots do not fit at {seats} seats: use --players {len(entrants)}",
            param_hint="--players",
        )
    setup = rules.check_setup(seats, {})
    check_output(json_file, "--json")
    check_records_folder(records)
    rotations = len(lineups(len(entrants), seats))
    matches = schedule(len(entrants), seats, games, seed)
    workers = min(default_workers() if workers is None else workers, len(matches))
    console.print(
        Text.assemble(
            (plural(len(matches), "game"), "bold"),
            f" of {rules.key} = {plural(len(matches) // rotations, 'deal set')} x"
            f" {plural(rotations, 'seat rotation')}, {seats} players, seed {seed},"
            f" {plural(workers, 'worker')}",
        )
    )
    if len({level for _, level in entrants}) == 1:
        console.print(
            f"[dim](one level in every seat plays each rotation of a deal alike; for the game's"
            f" balance: odin simulate --game {rules.key} --bots {entrants[0][1]})[/dim]"
        )
    played: dict[tuple[int, int], BotGame] = {}
    start = time.perf_counter()
    interrupted = False

    def levels_of(lineup: tuple[int, ...]) -> list[str]:
        return [entrants[e][1] for e in lineup]

    keep = records is not None
    try:
        with progress_bar(console, len(matches)) as (progress, task):
            if workers == 1:
                for m in matches:
                    played[m.deal, m.rotation] = bot_game(
                        rules.key, seats, setup, m.seed, levels_of(m.lineup), keep
                    )
                    progress.advance(task)
                    progress.refresh()
            else:
                with ProcessPoolExecutor(workers, mp_context=worker_context()) as pool:
                    futures: dict[Future[BotGame], tuple[int, int]] = {
                        pool.submit(
                            bot_game, rules.key, seats, setup, m.seed, levels_of(m.lineup), keep
                        ): (m.deal, m.rotation)
                        for m in matches
                    }
                    for future, key in futures.items():
                        played[key] = future.result()
                        progress.advance(task)
                        progress.refresh()
    except (BotError, UnfinishedGameError) as error:
        raise CommandError(f"bot failure: {error}") from None
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - start
    lineup_of = {(m.deal, m.rotation): m.lineup for m in matches}
    keys = whole_deals(played, rotations)
    if interrupted:
        console.print(
            f"interrupted: results of the {plural(len(keys) // rotations, 'deal set')} played in"
            f" every rotation ({plural(len(keys), 'game')})"
        )
        if not keys:
            raise typer.Exit(130)
    results = [(lineup_of[k], played[k]) for k in keys]

    table = Table(
        box=box.SIMPLE_HEAD,
        title=f"{plural(len(results), 'game')} of {rules.key}, {seats} players ({seconds:.1f} s)",
    )
    for column in ("bot", "games", "win share (95% CI)", "mean score", "p95 think"):
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=True)
    bot_rows = []
    for index, (label, _) in enumerate(entrants):
        wins = 0.0
        scores: list[int] = []
        think: list[float] = []
        for lineup, game in results:
            mine = [s for s, e in enumerate(lineup) if e == index]
            wins += sum(1 / len(game.winners) for s in mine if s in game.winners)
            scores.extend(game.scores[s] for s in mine)
            think.extend(t for s in mine for t in game.think_seconds[s])
        low, high = wilson_interval(wins, len(results))
        think.sort()
        p95 = think[max(0, -(-len(think) * 95 // 100) - 1)] if think else 0.0
        mean = sum(scores) / len(scores) if scores else 0.0
        bot_rows.append(
            {
                "bot": label,
                "games": len(results),
                "wins": wins,
                "win_share": wins / len(results),
                "ci95": [low, high],
                "mean_score": mean,
                "think_p95_seconds": p95,
            }
        )
        table.add_row(
            label,
            f"{len(results)}",
            f"{wins / len(results):.3f} ({low:.3f}-{high:.3f})",
            f"{mean:.2f}",
            f"{p95 * 1000:.1f} ms",
        )
    console.print(table)
    totals = GameTotals(seats)
    for _, game in results:
        totals.add_result(game.scores, game.winners, game.actions, game.first_player, game.turns)
    place_table, place_rows = places(totals)
    console.print(place_table)
    console.print(
        f"{length_line(totals)}; fair share {1 / len(entrants):.3f} per bot holding equal"
        " seats; ties split a victory; CI: Wilson score 95%"
    )
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        for (deal, rotation), (lineup, game) in zip(keys, results, strict=True):
            data = dict(game.record or {})
            data["seats"] = [{"name": entrants[e][0], "bot": entrants[e][1]} for e in lineup]
            name = f"deal{deal:04d}-rotation{rotation}.json"
            write_text(records / name, json.dumps(data) + "\n")
        console.print(Text(f"wrote {plural(len(results), 'game record')} to {records}/"))
    if json_file is not None:
        data = {
            "format": "odin-cards-arena/1",
            "game": rules.key,
            "complete": not interrupted,
            "players": seats,
            "seed": seed,
            "games": len(results),
            "deals": len(results) // rotations,
            "seconds": seconds,
            "bots": bot_rows,
            "places": place_rows,
            "actions_per_game": totals.actions_per_game,
            "turns_per_game": totals.turns_per_game,
            "game_results": [
                {
                    "deal": deal,
                    "rotation": rotation,
                    "seed": game.seed,
                    "lineup": list(lineup),
                    "scores": list(game.scores),
                    "winners": list(game.winners),
                    "actions": game.actions,
                }
                for (deal, rotation), (lineup, game) in zip(keys, results, strict=True)
            ],
        }
        write_text(json_file, json.dumps(data, indent=1) + "\n")
        if json_file != STDOUT:
            console.print(Text(f"wrote the results to {json_file}"))
    if interrupted:
        raise typer.Exit(130)


def worker_context() -> multiprocessing.context.BaseContext:
    """Fork when no other thread runs (fast, and registered levels come along), else spawn."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


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
    game: opt.GameKey = "odin",
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
    """Bots against each other: win share (95% CI), points per hand, rating, think time.

    Each deal set is replayed in every seat rotation, so the luck of the deal cancels.
    Ctrl-C stops early and reports the deal sets played in every rotation (exit 130).
    With --ladder: the levels' ratings, heads-up rung by rung (docs/bots.md).
    """
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
    from rich.text import Text

    from odin_cards.odin.bots import LEVELS
    from odin_cards.tools.arena import (
        ArenaError,
        BotFailure,
        bot_stats,
        default_workers,
        lineups,
        make_entrants,
        plot_stats,
        run_arena,
        run_dict,
    )

    rules = opt.game_rules(game)
    if rules.key != "odin":
        opt.refuse_odin_flags(rules.key)
        if plot_file is not None:
            raise typer.BadParameter(
                f"the figure is drawn for Odin's arena only, not {rules.key}'s",
                param_hint="--plot",
            )
        arena_game(rules, bots, games, players, seed, workers, json_file, records)
        return
    if ladder:
        from odin_cards.cli.ladder import ladder_command

        if players not in (None, 2) or plot_file is not None or records is not None:
            raise typer.BadParameter(
                "a ladder is heads-up, without --players, --plot or --records",
                param_hint="--ladder",
            )
        options = opt.make_options(2, target, one_hand, next_leader, first_leader, colours, goat)
        ladder_command(bots, games, seed, options, workers, json_file, delta)
        return
    console = Console(highlight=False, stderr=json_file == STDOUT)
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
    check_output(json_file, "--json")
    if plot_file == STDOUT:
        raise typer.BadParameter(
            "the figure is a PNG file, not standard output", param_hint="--plot"
        )
    check_output(plot_file, "--plot", suffix=".png")
    check_records_folder(records)
    deals = -(-games // rotations)
    workers = default_workers() if workers is None else workers
    console.print(
        Text.assemble(
            (plural(deals * rotations, "game"), "bold"),
            f" = {plural(deals, 'deal set')} x {plural(rotations, 'seat rotation')},"
            f" {seats} players, target {options.target}, seed {seed},"
            f" {plural(workers, 'worker')}",
        )
    )
    if deals * rotations != games:
        console.print(f"[dim](--games {games} rounded up to whole rotations)[/dim]")
    for entrant in entrants:
        if entrant.agent is not None:
            console.print(Text(f"  {entrant.label}: Python agent ({entrant.agent})"))
            continue
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
        played: list[GameResult] = []
        start = time.perf_counter()

        def advance(result: GameResult) -> None:
            played.append(result)
            progress.advance(task)
            progress.refresh()

        interrupted = False
        try:
            run = run_arena(
                entrants, games, seats, seed, options, workers, advance, records is not None
            )
        except BotFailure as error:
            raise CommandError(f"bot failure: {error}") from None
        except ArenaError as error:
            raise typer.BadParameter(str(error)) from None
        except KeyboardInterrupt:
            interrupted = True
            run = partial_run(
                entrants,
                seats,
                options,
                seed,
                games,
                rotations,
                workers,
                played,
                time.perf_counter() - start,
            )
    if interrupted:
        console.print(
            f"interrupted: results of the {plural(run.deals, 'deal set')} played in every"
            f" rotation ({plural(len(run.results), 'game')})"
        )
        if not run.results:
            raise typer.Exit(130)

    stats = bot_stats(run)
    table = Table(
        box=box.SIMPLE_HEAD,
        title=f"{plural(len(run.results), 'game')}, {seats} players, target {options.target}"
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
            write_text(records / name, record_with_seats(result, entrants))
        console.print(Text(f"wrote {plural(len(run.results), 'game record')} to {records}/"))
    if json_file is not None:
        data = run_dict(run, stats)
        data["complete"] = not interrupted
        write_text(json_file, json.dumps(data, indent=1) + "\n")
        if json_file != STDOUT:
            console.print(Text(f"wrote the results to {json_file}"))
    if plot_file is not None:
        names = " vs ".join(e.label for e in entrants)
        title = f"{names}: {plural(len(run.results), 'game')}, {seats} players"
        try:
            plot_stats(stats, plot_file, title)
        except OSError as error:
            raise CommandError(f"cannot write {plot_file}: {error.strerror or error}") from None
        console.print(Text(f"drew the figure to {plot_file}"))
    if interrupted:
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command("arena", cls=OdinCommand)(arena_command)
