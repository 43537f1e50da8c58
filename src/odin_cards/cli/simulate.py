"""``odin simulate``: many games of any game, random or by one bot level in every seat, with
a summary; optionally saving the first game's record."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from odin_cards.cli import options as opt
from odin_cards.cli.app import CommandError
from odin_cards.cli.paths import STDOUT, check_output, plural, write_text

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from odin_cards.contract import GameState
    from odin_cards.tools.simulate import GameTotals


def totals_dict(key: str, totals: GameTotals, seconds: float, complete: bool) -> dict[str, Any]:
    """The figures of the games played (format ``odin-cards-simulate/2``)."""
    return {
        "format": "odin-cards-simulate/2",
        "game": key,
        "complete": complete,
        "players": totals.players,
        "games": totals.games,
        "actions": totals.actions,
        "actions_per_game": totals.actions_per_game,
        "hands_per_game": totals.hands_per_game,
        "turns_per_game": totals.turns_per_game,
        "mean_score": totals.mean_score,
        "mean_score_by_seat": totals.mean_scores,
        "win_share_by_seat": [w / totals.games for w in totals.wins] if totals.games else [],
        "seconds": seconds,
    }


def places(totals: GameTotals) -> tuple[Table, list[dict[str, Any]]]:
    """Win share (95% interval) and mean score by place in the order of play."""
    from rich import box
    from rich.table import Table

    from odin_cards.tools.arena import wilson_interval

    table = Table(box=box.SIMPLE_HEAD, title="by place in the order of play (0 began)")
    for column in ("place", "win share (95% CI)", "mean score"):
        table.add_column(column, justify="right", no_wrap=True)
    rows: list[dict[str, Any]] = []
    games = totals.ordered
    for place, (wins, score) in enumerate(
        zip(totals.place_wins, totals.mean_place_scores, strict=True)
    ):
        low, high = wilson_interval(wins, games)
        rows.append(
            {"place": place, "win_share": wins / games, "ci95": [low, high], "mean_score": score}
        )
        table.add_row(f"{place}", f"{wins / games:.3f} ({low:.3f}-{high:.3f})", f"{score:.2f}")
    return table, rows


def progress_bar(console: Console) -> Progress:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )


def simulate_command(
    players: Annotated[
        int, typer.Option("--players", "-p", help="Players (as many as the game allows).")
    ] = 4,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of deals and choices.")] = 1,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write the first game's record (JSON) here.")
    ] = None,
    json_file: Annotated[
        Path | None,
        typer.Option("--json", help="Write the figures as JSON here ('-': standard output)."),
    ] = None,
    game_key: opt.GameKey = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="A bot level in every seat instead of random play ('level:seconds=S' sets a"
            " budget): how balanced the game is for it.",
        ),
    ] = None,
) -> None:
    """Play many games and print a summary: lengths, scores and victories by seat and by
    place in the order of play, time.

    Random play (a uniform choice among the legal actions) unless --bots names a level.
    Ctrl-C stops early and prints the summary of the games finished (exit status 130).
    """
    from rich.console import Console
    from rich.table import Table

    from odin_cards.tools import simulate as sim
    from odin_cards.tools.arena import ArenaError, parse_entrant

    plugin = opt.game_plugin(game_key)
    setup = opt.game_setup(plugin, players)
    rules = opt.game_rules(plugin)
    if bots is not None:
        try:
            parse_entrant(bots, plugin.key)
        except ArenaError as error:
            raise typer.BadParameter(str(error), param_hint="--bots") from None
    check_output(record, "--record")
    check_output(json_file, "--json")
    quiet = json_file == STDOUT
    console = Console(stderr=quiet)
    totals = sim.GameTotals(players)
    first: list[GameState] = []
    start = time.perf_counter()
    complete = True
    with progress_bar(console) as progress:
        task = progress.add_task("simulating", total=games)

        def advance(game: GameState) -> None:
            totals.add(game)
            if not first:
                first.append(game)
            progress.advance(task)

        try:
            sim.simulate(rules, players, setup, games, seed, advance, bots)
        except KeyboardInterrupt:
            complete = False
        except (sim.BotError, sim.UnfinishedGameError) as error:
            raise CommandError(str(error)) from None
    elapsed = time.perf_counter() - start
    if not complete:
        console.print(f"interrupted: {totals.games} of {plural(games, 'game')} played")
    if not quiet:
        kind = "random game" if bots is None else f"{bots} self-play game"
        table = Table(title=f"{plural(totals.games, kind)} of {plugin.key}, {players} players")
        table.add_column("figure")
        table.add_column("value", justify="right")
        table.add_row("games", f"{totals.games}")
        table.add_row("actions per game", f"{totals.actions_per_game:.1f}")
        if totals.lengths:
            table.add_row("shortest, longest", f"{min(totals.lengths)}, {max(totals.lengths)}")
        if totals.hands_per_game is not None:
            table.add_row("hands per game", f"{totals.hands_per_game:.2f}")
        if totals.turns_per_game is not None:
            table.add_row("turns per game", f"{totals.turns_per_game:.1f}")
        table.add_row("mean score per player", f"{totals.mean_score:.2f}")
        table.add_row("mean score by seat", " ".join(f"{s:.2f}" for s in totals.mean_scores) or "-")
        shares = " ".join(f"{w / totals.games:.3f}" for w in totals.wins) or "-"
        table.add_row("win share by seat", shares)
        rate = totals.actions / elapsed if elapsed > 0 else 0.0
        table.add_row("time", f"{elapsed:.2f} s ({rate:,.0f} actions/s)")
        console.print(table)
        if totals.ordered:
            console.print(places(totals)[0])
    if json_file is not None:
        data = totals_dict(plugin.key, totals, elapsed, complete)
        data["setup"] = setup
        data["bots"] = bots
        data["places"] = places(totals)[1] if totals.ordered else []
        write_text(json_file, json.dumps(data, indent=1) + "\n")
        if not quiet:
            console.print(f"wrote the figures to {json_file}")
    if record is not None and first:
        write_text(record, json.dumps(first[0].record().to_dict(), indent=1) + "\n")
        console.print(f"wrote the first game's record to {record}")
    if not complete:
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command("simulate", cls=opt.GameCommand)(simulate_command)
