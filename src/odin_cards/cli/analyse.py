"""``odin analyse RECORD``: every move of a recorded game judged by its game's analysis.

For the games whose plugin names an ``analysis`` (Odin's: its strongest search). The text
lists each choice (forced moves only with ``--all``) with its class, the preferred move and
the points the move was expected to give up; then a summary per player. ``--json`` writes
the whole analysis (``docs/analysis.md`` describes it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from odin_cards.cli.app import CommandError, OdinCommand, one_line
from odin_cards.cli.paths import STDOUT, check_output, read_text, write_text
from odin_cards.cli.replay import game_of_record, seat_names

MAX_ITERATIONS = 20_000
"""Most search iterations per decision (about ten seconds a move on one core)."""


def analyse_command(
    file: Annotated[Path, typer.Argument(help="A game record (odin play --record, a server's).")],
    iterations: Annotated[
        int,
        typer.Option(
            "--iterations",
            "-n",
            min=10,
            max=MAX_ITERATIONS,
            help="Search iterations per decision: more is slower and steadier.",
        ),
    ] = 400,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the search's dice.")] = 0,
    json_path: Annotated[
        Path | None,
        typer.Option("--json", help="Also write the analysis as JSON to this file (- for stdout)."),
    ] = None,
    show_all: Annotated[
        bool, typer.Option("--all", help="List forced moves too (they are never judged).")
    ] = False,
) -> None:
    """Judge every move of a recorded game from its player's view, and sum up each player.

    Odin's classes, by points of hand margin given up against the search's preferred move:
    inaccuracy >= 0.75, mistake >= 1.5, blunder >= 3.
    """
    from odin_cards.games import plugin_of, rules_of

    check_output(json_path, "--json", ".json" if json_path not in (None, STDOUT) else None)
    text = read_text(file)
    key = game_of_record(file, text, None)
    analyse = plugin_of(key).load_analysis()
    if analyse is None:
        raise CommandError(f"{file}: records of {plugin_of(key).name} are not analysed")
    try:
        data = json.loads(text)
        players = rules_of(key).load_record(data).replay().players
    except ValueError as error:
        raise CommandError(f"{file}: {one_line(str(error))}") from None
    names = seat_names(file, players) or [f"seat {s}" for s in range(players)]

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\ranalysing move {done}/{total}", end="", file=sys.stderr, flush=True)

    try:
        analysis = analyse(data, iterations, seed, progress)
    except ValueError as error:
        raise CommandError(f"{file}: {one_line(str(error))}") from None
    if sys.stderr.isatty():
        print(file=sys.stderr)
    lines = [] if json_path == STDOUT else text_lines(analysis, names, show_all)
    for line in lines:
        typer.echo(line)
    if json_path is not None:
        write_text(json_path, json.dumps(analysis, indent=1) + "\n")


def text_lines(analysis: dict[str, Any], names: list[str], show_all: bool) -> list[str]:
    """The analysis (its JSON data, ``docs/analysis.md``) for a terminal: one line a move,
    then one line a player; a new heading wherever a move's ``hand`` changes."""
    width = max(len(n) for n in names)
    lines = [f"{analysis['players']} players, {analysis['iterations']} search iterations a move"]
    hand = 0
    for move in analysis["moves"]:
        if move["verdict"] == "forced" and not show_all:
            continue
        if move.get("hand", hand) != hand:
            hand = move["hand"]
            lines.append(f"hand {hand}")
        line = f"  {names[move['seat']]:<{width}}  {move['played']:<22} {move['verdict']:<10}"
        expected, best_expected = move.get("expected"), move.get("best_expected")
        if expected is not None and best_expected is not None:
            line += f" {expected:+6.2f}"
            if move["verdict"] != "best":
                line += f"  (best {move['best']} {best_expected:+.2f}, -{move['loss']:.2f})"
        lines.append(line.rstrip())
    lines.append("summary (loss: points of hand margin given up against the preferred move)")
    for s in analysis["summary"]:
        lines.append(
            f"  {names[s['seat']]:<{width}}  {count(s['decisions'], 'choice')}, {s['best']} best,"
            f" {count(s['inaccuracies'], 'inaccuracy', 'inaccuracies')},"
            f" {count(s['mistakes'], 'mistake')}, {count(s['blunders'], 'blunder')},"
            f" loss {s['total_loss']:.2f} ({s['mean_loss']:.2f} a choice)"
        )
    return lines


def count(n: int, one: str, many: str | None = None) -> str:
    """``1 mistake``, ``2 mistakes``."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def register(app: typer.Typer) -> None:
    app.command("analyse", cls=OdinCommand)(analyse_command)
