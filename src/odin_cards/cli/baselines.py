"""``odin baselines``: regenerate the baseline tables of ``docs/evaluation.md``.

Registered with ``odin evaluate`` (:func:`odin_cards.cli.evaluate.register`): the tables
are that command's, run for every level and the self-play example
(:mod:`odin_cards.tools.evaluation.baselines`)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Annotated

import typer

from odin_cards.cli.app import CommandError


def baselines_command(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            help="Baselines to play (default: the cheap ones; 'all' for every one).",
            show_default=False,
            metavar="[NAME]...",
        ),
    ] = None,
    write: Annotated[
        Path | None,
        typer.Option("--write", help="Replace the tables in this document (docs/evaluation.md)."),
    ] = None,
    json_dir: Annotated[
        Path | None,
        typer.Option("--json", help="Write each result file here as NAME.json."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-j", help="Processes to play on (default: every core)."),
    ] = None,
    show: Annotated[bool, typer.Option("--list", help="List the baselines and stop.")] = False,
) -> None:
    """Score every level and the self-play example on odin-eval-v1 (see docs/evaluation.md).

    Without names, the cheap baselines (minutes of one core); the others take hours
    and are run by hand: 'odin baselines network search expert --write docs/evaluation.md'.
    """
    from odin_cards.tools.arena import ArenaError, BotFailure, default_workers
    from odin_cards.tools.evaluation import evaluation_dict, load_set
    from odin_cards.tools.evaluation.baselines import (
        BASELINES,
        baseline,
        rewritten,
        table_text,
    )

    if show:
        for entry in BASELINES:
            typer.echo(f"{entry.name:10} {entry.agent:36} {entry.about}")
        return
    try:
        if not names:
            chosen = [b for b in BASELINES if b.cheap]
        elif names == ["all"]:
            chosen = list(BASELINES)
        else:
            chosen = [baseline(name) for name in names]
    except KeyError as error:
        raise typer.BadParameter(str(error.args[0]), param_hint="NAME") from None
    if workers is not None and workers < 1:
        raise typer.BadParameter(f"use at least 1 worker, not {workers}", param_hint="--workers")
    text = None
    if write is not None:
        if not write.is_file():
            raise typer.BadParameter(f"{write}: no such file", param_hint="--write")
        text = write.read_text(encoding="utf-8")
        for entry in chosen:
            try:
                rewritten(text, entry.name, "")
            except KeyError as error:
                raise typer.BadParameter(str(error.args[0]), param_hint="--write") from None
    if json_dir is not None:
        json_dir.mkdir(parents=True, exist_ok=True)
    from odin_cards.tools.evaluation.baselines import run_baseline

    evaluation_set = load_set()
    for entry in chosen:
        typer.echo(f"{entry.name}: odin evaluate {entry.agent} ({entry.about}) ...")
        try:
            evaluation = run_baseline(
                entry, evaluation_set, default_workers() if workers is None else workers
            )
        except (ArenaError, BotFailure) as error:
            raise CommandError(f"{entry.name}: {error}") from None
        body = table_text(entry, evaluation, datetime.date.today())
        typer.echo(body)
        if json_dir is not None:
            data = json.dumps(evaluation_dict(evaluation), indent=1) + "\n"
            (json_dir / f"{entry.name}.json").write_text(data, encoding="utf-8")
        if write is not None and text is not None:
            text = rewritten(text, entry.name, body)
            write.write_text(text, encoding="utf-8")  # each table as soon as it is played


def register(app: typer.Typer) -> None:
    app.command("baselines")(baselines_command)
