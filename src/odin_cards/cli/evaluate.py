"""``odin evaluate AGENT``: an agent against the built-in levels over an evaluation set.

The sets are Odin's (the packaged ``odin-eval-v1``); the command plays the set's game
through the arena (:mod:`odin_cards.tools.evaluation`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from odin_cards.cli import options as opt
from odin_cards.cli.app import CommandError
from odin_cards.cli.paths import STDOUT, check_output, plural, write_text

if TYPE_CHECKING:
    from rich.console import Console

    from odin_cards.tools.evaluation import Evaluation, Pairing

DEFAULT_OPPONENTS = ("random", "heuristic")
DEFAULT_PLAYERS = (2, 3, 4)


def split_list(values: list[str] | None, default: tuple[str, ...]) -> list[str]:
    """Repeated options and comma-separated lists alike: ``--against random,heuristic``.

    A budget's own commas stay: ``search:seconds=1,iterations=50,random`` is two levels.
    """
    items: list[str] = []
    for value in values or ():
        for item in value.split(","):
            item = item.strip()
            if items and "=" in item and ":" not in item and ":" in items[-1]:
                items[-1] += f",{item}"
            elif item:
                items.append(item)
    return items or list(default)


def players_list(values: list[str] | None, name: str, low: int, high: int) -> list[int]:
    counts = []
    for text in split_list(values, tuple(str(p) for p in DEFAULT_PLAYERS)):
        if not text.isdigit() or not low <= int(text) <= high:
            raise typer.BadParameter(
                f"{name} is played by {low} to {high} players, not {text!r}",
                param_hint="--players",
            )
        if int(text) not in counts:
            counts.append(int(text))
    return counts


def evaluate_command(
    agent: Annotated[
        str,
        typer.Argument(
            help="The agent: a bot level ('heuristic', 'search:iterations=200') or a Python"
            " callable or Bot class by import path ('package.module:function',"
            " 'path/to/file.py:function'), called as function(view, legal) -> action.",
            show_default=False,
            metavar="AGENT",
        ),
    ],
    against: Annotated[
        list[str] | None,
        typer.Option(
            "--against",
            "-a",
            help="Opponent levels (repeat or comma-separate; default: random, heuristic).",
            show_default=False,
        ),
    ] = None,
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            "-p",
            help="Table sizes (repeat or comma-separate; default: 2, 3, 4).",
            show_default=False,
        ),
    ] = None,
    deals: Annotated[
        int,
        typer.Option(
            "--deals", "-n", help="Deals of the set per table size (each played once per seat)."
        ),
    ] = 100,
    set_file: Annotated[
        Path | None,
        typer.Option("--set", help="An evaluation set file (default: the packaged odin-eval-v1)."),
    ] = None,
    game_key: opt.GameKey = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-j", help="Processes to play on (default: every core)."),
    ] = None,
    json_file: Annotated[
        Path | None,
        typer.Option("--json", help="Write the results here ('-': standard output)."),
    ] = None,
) -> None:
    """Score an agent against the built-in levels: win share (95% CI) and points per hand.

    Each deal of the evaluation set is played once per seat, the agent at that seat and the
    opponent level at every other one, so the luck of the deal cancels. An agent that fails
    or returns an illegal action stops the run with an error (exit 1). The sets are Odin's:
    another game has none.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    from rich.text import Text

    from odin_cards.extras import require

    require("arena", "odin evaluate")  # the summary's ratings are openskill's
    from odin_cards.tools.arena import ArenaError, BotFailure, default_workers, make_entrant
    from odin_cards.tools.evaluation import (
        Evaluation,
        EvaluationSetError,
        evaluate,
        evaluation_dict,
        load_set,
        set_setup,
    )

    console = Console(highlight=False, stderr=json_file == STDOUT)
    plugin = opt.game_plugin(game_key)
    rules = opt.game_rules(plugin)
    counts = players_list(players, plugin.name, rules.min_players, rules.max_players)
    opponents = split_list(against, DEFAULT_OPPONENTS)
    if deals < 1:
        raise typer.BadParameter(f"play at least 1 deal, not {deals}", param_hint="--deals")
    if workers is not None and workers < 1:
        raise typer.BadParameter(f"use at least 1 worker, not {workers}", param_hint="--workers")
    setup = opt.game_setup(plugin, min(counts))
    try:
        evaluation_set = load_set(set_file)
    except EvaluationSetError as error:
        raise typer.BadParameter(str(error), param_hint="--set/--deals") from None
    if evaluation_set.game != plugin.key:
        raise typer.BadParameter(
            f"{evaluation_set.name} holds deals of {evaluation_set.game}, not of {plugin.key}"
            " (the evaluation sets are Odin's)",
            param_hint="--game" if set_file is None else "--set",
        )
    try:
        set_setup(setup)
    except EvaluationSetError as error:
        raise typer.BadParameter(str(error)) from None
    check_output(json_file, "--json")
    try:
        make_entrant(agent, plugin.key)
    except ArenaError as error:
        raise typer.BadParameter(str(error), param_hint="AGENT") from None
    for opponent in opponents:
        try:
            if make_entrant(opponent, plugin.key).agent is not None:
                raise ArenaError(f"{opponent}: the opponents are bot levels, not agents")
        except ArenaError as error:
            raise typer.BadParameter(str(error), param_hint="--against") from None
    try:
        for count in counts:
            evaluation_set.for_players(count, deals)
    except EvaluationSetError as error:
        raise typer.BadParameter(str(error), param_hint="--set/--deals") from None
    workers = default_workers() if workers is None else workers
    total = sum(deals * count for count in counts) * len(opponents)
    given = opt.flags_text()
    console.print(
        Text.assemble(
            (f"{agent}", "bold"),
            f" against {', '.join(opponents)} on {evaluation_set.name}:"
            f" {plural(deals, 'deal')} x every seat at {', '.join(map(str, counts))} players"
            f" = {plural(total, 'game')}{', ' + given if given else ''},"
            f" {plural(workers, 'worker')}",
        )
    )

    done: list[Pairing] = []
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        auto_refresh=False,  # no refresh thread: the workers may then be forked
    ) as progress:
        task = progress.add_task("playing", total=total)

        def advance(_: object) -> None:
            progress.advance(task)
            progress.refresh()

        try:
            evaluation = evaluate(
                agent,
                opponents,
                evaluation_set,
                counts,
                deals,
                setup,
                workers,
                on_game=advance,
                on_pairing=done.append,
            )
            complete = True
        except BotFailure as error:
            raise CommandError(f"agent failure: {error}") from None
        except (ArenaError, EvaluationSetError) as error:
            raise typer.BadParameter(str(error)) from None
        except KeyboardInterrupt:
            complete = False
            evaluation = Evaluation(
                agent=make_entrant(agent, plugin.key).label,
                opponents=tuple(opponents),
                set_name=evaluation_set.name,
                set_sha256=evaluation_set.sha256,
                deals=deals,
                setup=set_setup(setup),
                workers=workers,
                pairings=tuple(done),
            )
    if not complete:
        console.print(f"interrupted: the {plural(len(done), 'pairing')} played to the end")
    print_table(console, evaluation)
    if json_file is not None:
        write_text(json_file, json.dumps(evaluation_dict(evaluation, complete), indent=1) + "\n")
        if json_file != STDOUT:
            console.print(Text(f"wrote the results to {json_file}"))
    if not complete:
        raise typer.Exit(130)


def print_table(console: Console, evaluation: Evaluation) -> None:
    from rich import box
    from rich.table import Table

    table = Table(
        box=box.SIMPLE_HEAD,
        title=f"{evaluation.agent} on {evaluation.set_name} ({evaluation.seconds:.1f} s)",
    )
    for column in ("players", "against", "games", "win share (95% CI)", "fair", "pts/hand"):
        table.add_column(column, justify="left" if column == "against" else "right")
    for p in evaluation.pairings:
        table.add_row(
            f"{p.players}",
            p.opponent.label,
            f"{p.games}",
            f"{p.agent.win_share:.3f} ({p.agent.ci_low:.3f}-{p.agent.ci_high:.3f})",
            f"{p.agent.fair_share:.3f}",
            f"{p.agent.points_per_hand:.2f} vs {p.opponent.points_per_hand:.2f}",
        )
    console.print(table)
    console.print(
        "[dim]win share: the agent's, ties split; CI: Wilson score 95%; fair: an equally strong"
        " agent's share (1/players); pts/hand: mean points per hand of the agent's seat vs the"
        " opponent's seats (fewer is better)[/dim]"
    )


def register(app: typer.Typer) -> None:
    from odin_cards.cli import baselines

    app.command("evaluate", cls=opt.GameCommand)(evaluate_command)
    baselines.register(app)
