"""``odin simulate``: random games with a summary, optionally saving one game record."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from odin_cards.cli import options as opt
from odin_cards.cli.app import CommandError, OdinCommand
from odin_cards.cli.paths import STDOUT, check_output, plural, write_text

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from odin_cards.contract import GameRules, GameState
    from odin_cards.odin.rules import Game
    from odin_cards.tools.simulate import GameTotals, Summary


def summary_dict(summary: Summary, seconds: float, complete: bool) -> dict[str, Any]:
    return {
        "format": "odin-cards-simulate/1",
        "game": "odin",
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


def totals_dict(key: str, totals: GameTotals, seconds: float, complete: bool) -> dict[str, Any]:
    """The figures of random games of any game (through the contract)."""
    return {
        "format": "odin-cards-simulate/1",
        "game": key,
        "complete": complete,
        "players": totals.players,
        "games": totals.games,
        "actions": totals.actions,
        "actions_per_game": totals.actions_per_game,
        "mean_score": totals.mean_score,
        "mean_score_by_seat": totals.mean_scores,
        "turns_per_game": totals.turns_per_game,
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
    games = totals.games
    for place, (wins, score) in enumerate(
        zip(totals.place_wins, totals.mean_place_scores, strict=True)
    ):
        low, high = wilson_interval(wins, games)
        rows.append(
            {"place": place, "win_share": wins / games, "ci95": [low, high], "mean_score": score}
        )
        table.add_row(f"{place}", f"{wins / games:.3f} ({low:.3f}-{high:.3f})", f"{score:.2f}")
    return table, rows


def length_line(totals: GameTotals) -> str:
    """How long the games were: actions (and turns, where the game counts them)."""
    lengths = totals.lengths
    line = (
        f"game length: {totals.actions_per_game:.1f} actions on average"
        f" ({min(lengths)}-{max(lengths)})"
    )
    if totals.turns_per_game is not None:
        line += f", {totals.turns_per_game:.1f} turns ({min(totals.turns)}-{max(totals.turns)})"
    return line


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


def simulate_game(
    rules: GameRules,
    players: int,
    games: int,
    seed: int,
    record: Path | None,
    json_file: Path | None,
    level: str | None = None,
) -> None:
    """``odin simulate`` of a game other than Odin, through the contract: random games, or
    games of one bot level in every seat (``--bots``: how balanced the game is for it)."""
    from rich.console import Console
    from rich.table import Table

    from odin_cards.odin.bots.registry import bot_levels
    from odin_cards.tools import simulate as sim

    opt.check_players_of(rules, players)
    if level is not None and level not in bot_levels(rules.key):
        raise typer.BadParameter(
            f"unknown bot level {level!r} of {rules.key};"
            f" levels: {', '.join(bot_levels(rules.key)) or 'none'}",
            param_hint="--bots",
        )
    setup = rules.check_setup(players, {})
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
            sim.simulate_contract(rules, players, setup, games, seed, advance, level)
        except KeyboardInterrupt:
            complete = False
        except (sim.BotError, sim.UnfinishedGameError) as error:
            raise CommandError(str(error)) from None
    elapsed = time.perf_counter() - start
    if not complete:
        console.print(f"interrupted: {totals.games} of {plural(games, 'game')} played")
    if not quiet:
        kind = "random game" if level is None else f"{level} self-play game"
        table = Table(title=f"{plural(totals.games, kind)} of {rules.key}, {players} players")
        table.add_column("figure")
        table.add_column("value", justify="right")
        table.add_row("games", f"{totals.games}")
        table.add_row("actions per game", f"{totals.actions_per_game:.1f}")
        if totals.lengths:
            table.add_row("shortest, longest", f"{min(totals.lengths)}, {max(totals.lengths)}")
        if totals.turns_per_game is not None:
            table.add_row("turns per game", f"{totals.turns_per_game:.1f}")
        table.add_row("mean score per player", f"{totals.mean_score:.2f}")
        table.add_row("mean score by seat", " ".join(f"{s:.2f}" for s in totals.mean_scores) or "-")
        shares = " ".join(f"{w / totals.games:.3f}" for w in totals.wins) or "-"
        table.add_row("win share by seat", shares)
        rate = totals.actions / elapsed if elapsed > 0 else 0.0
        table.add_row("time", f"{elapsed:.2f} s ({rate:,.0f} actions/s)")
        console.print(table)
        if totals.games:
            console.print(places(totals)[0])
    if json_file is not None:
        data = totals_dict(rules.key, totals, elapsed, complete)
        data["bots"] = level
        data["places"] = places(totals)[1] if totals.games else []
        write_text(json_file, json.dumps(data, indent=1) + "\n")
        if not quiet:
            console.print(f"wrote the figures to {json_file}")
    if record is not None and first:
        write_text(record, json.dumps(first[0].record().to_dict(), indent=1) + "\n")
        console.print(f"wrote the first game's record to {record}")
    if not complete:
        raise typer.Exit(130)


def simulate_command(
    players: Annotated[
        int, typer.Option("--players", "-p", help="2 to 6 (Odin), 2 to 5 (name-of-odin).")
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
    target: opt.Target = 15,
    one_hand: opt.OneHand = False,
    next_leader: opt.NextLeader = "rotate",
    first_leader: opt.FirstLeader = None,
    colours: opt.Colours = 6,
    goat: opt.Goat = False,
    game: opt.GameKey = "odin",
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="A game other than Odin: a bot level in every seat instead of random play.",
        ),
    ] = None,
) -> None:
    """Play random games and print a summary (games, hands, rounds, points, time).

    Ctrl-C stops early and prints the summary of the games finished (exit status 130).
    """
    from rich.console import Console
    from rich.table import Table

    from odin_cards.tools.simulate import Summary, simulate

    rules = opt.game_rules(game)
    if rules.key != "odin":
        opt.refuse_odin_flags(rules.key)
        simulate_game(rules, players, games, seed, record, json_file, bots)
        return
    if bots is not None:
        raise typer.BadParameter(
            "odin simulate plays Odin at random; odin arena plays its bots", param_hint="--bots"
        )
    options = opt.make_options(players, target, one_hand, next_leader, first_leader, colours, goat)
    check_output(record, "--record")
    check_output(json_file, "--json")
    quiet = json_file == STDOUT
    console = Console(stderr=quiet)
    summary = Summary(players)
    first: list[Game] = []
    start = time.perf_counter()
    complete = True
    with progress_bar(console) as progress:
        task = progress.add_task("simulating", total=games)

        def advance(played: Game) -> None:
            summary.add(played)
            if not first:
                first.append(played)
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
