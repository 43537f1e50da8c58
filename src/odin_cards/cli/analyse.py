"""``odin analyse RECORD``: every move of a recorded game judged by the strongest search.

The text lists each choice (forced moves only with ``--all``) with its class, the search's
preferred move and the points the move was expected to give up; then a summary per player.
``--json`` writes the whole analysis (``docs/analysis.md`` describes it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from odin_cards.cli.app import CommandError, OdinCommand
from odin_cards.cli.paths import STDOUT, check_output, read_text, write_text
from odin_cards.cli.replay import game_of_record, seat_names

MAX_ITERATIONS = 20_000
"""Most search iterations per decision (about ten seconds a move on one core)."""


def analyse_command(
    file: Annotated[
        Path, typer.Argument(help="An Odin game record (odin play --record, a server).")
    ],
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
    """Judge every move of a recorded Odin game from its player's view, and sum up each player.

    Classes by points of hand margin given up against the search's preferred move:
    inaccuracy >= 0.75, mistake >= 1.5, blunder >= 3.
    """
    from odin_cards.odin.analysis import analyse_game
    from odin_cards.odin.bots.compiled import prepare
    from odin_cards.odin.rules import GameRecord, RecordError

    check_output(json_path, "--json", ".json" if json_path not in (None, STDOUT) else None)
    text = read_text(file)
    if game_of_record(file, text, None) != "odin":
        raise CommandError(f"{file}: only records of Odin can be analysed")
    try:
        record = GameRecord.from_json(text)
        record.replay()
    except RecordError as error:
        raise CommandError(f"{file}: {error}") from None
    names = seat_names(file, record.players) or [f"seat {s}" for s in range(record.players)]

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\ranalysing move {done}/{total}", end="", file=sys.stderr, flush=True)

    prepare()  # with numba, wait for the compiled play-outs: the same verdicts, sooner
    analysis = analyse_game(record, iterations, seed, progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    lines = [] if json_path == STDOUT else text_lines(analysis, names, show_all)
    for line in lines:
        typer.echo(line)
    if json_path is not None:
        write_text(json_path, json.dumps(analysis.to_dict(), indent=1) + "\n")


def text_lines(analysis: object, names: list[str], show_all: bool) -> list[str]:
    """The analysis for a terminal: one line a move, then one line a player."""
    from odin_cards.odin.analysis import Analysis

    assert isinstance(analysis, Analysis)
    width = max(len(n) for n in names)
    lines = [f"{analysis.players} players, {analysis.iterations} search iterations a move"]
    hand = 0
    for move in analysis.moves:
        if move.verdict == "forced" and not show_all:
            continue
        if move.hand != hand:
            hand = move.hand
            lines.append(f"hand {hand}")
        line = f"  {names[move.seat]:<{width}}  {move.played:<22} {move.verdict:<10}"
        if move.expected is not None and move.best_expected is not None:
            line += f" {move.expected:+6.2f}"
            if move.verdict != "best":
                line += f"  (best {move.best} {move.best_expected:+.2f}, -{move.loss:.2f})"
        lines.append(line.rstrip())
    lines.append("summary (loss: points of hand margin given up against the preferred move)")
    for s in analysis.summary:
        lines.append(
            f"  {names[s.seat]:<{width}}  {count(s.decisions, 'choice')}, {s.best} best,"
            f" {count(s.inaccuracies, 'inaccuracy', 'inaccuracies')},"
            f" {count(s.mistakes, 'mistake')}, {count(s.blunders, 'blunder')},"
            f" loss {s.total_loss:.2f} ({s.mean_loss:.2f} a choice)"
        )
    return lines


def count(n: int, one: str, many: str | None = None) -> str:
    """``1 mistake``, ``2 mistakes``."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def register(app: typer.Typer) -> None:
    app.command("analyse", cls=OdinCommand)(analyse_command)
