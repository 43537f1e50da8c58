"""``odin traces``: check a conformance file against the engine, or write new ones."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..traces import check_trace, read_traces, write_traces


def traces_command(
    check: Annotated[
        Path | None, typer.Option("--check", help="Replay every hand of this trace file.")
    ] = None,
    write: Annotated[
        Path | None, typer.Option("--write", help="Write new traces to this file ('-': stdout).")
    ] = None,
    hands: Annotated[int, typer.Option("--hands", min=1, help="Hands to write.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the written traces.")] = 1,
    players: Annotated[
        list[int] | None,
        typer.Option("--players", help="Player counts to cycle through (default 2 to 6)."),
    ] = None,
    show: Annotated[int, typer.Option("--show", help="Mismatches to print in detail.")] = 5,
) -> None:
    """Check (--check FILE) or write (--write FILE --hands N --seed S) conformance traces."""
    console = Console(highlight=False)
    if (check is None) == (write is None):
        raise typer.BadParameter("give exactly one of --check FILE or --write FILE")
    if write is not None:
        counts = players or [2, 3, 4, 5, 6]
        if any(not 2 <= p <= 6 for p in counts):
            raise typer.BadParameter("player counts are 2 to 6")
        lines = write_traces(hands, seed, counts)
        if str(write) == "-":
            for line in lines:
                sys.stdout.write(line + "\n")
        else:
            with write.open("w") as out:
                for line in lines:
                    out.write(line + "\n")
            console.print(f"wrote {hands} hands to {write}")
        return
    assert check is not None
    try:
        text = check.read_text()
    except OSError as error:
        raise typer.BadParameter(f"cannot read {check}: {error.strerror}") from None
    total = 0
    mismatches = []
    try:
        for number, trace in enumerate(read_traces(text.splitlines())):
            total += 1
            mismatch = check_trace(number, trace)
            if mismatch is not None:
                mismatches.append(mismatch)
    except ValueError as error:
        console.print(f"[red]{check}: line {total + 1} is not JSON: {error}[/red]")
        raise typer.Exit(1) from None
    console.print(f"{total - len(mismatches)} of {total} hands match")
    for mismatch in mismatches[:show]:
        console.print(f"[red]mismatch[/red] {mismatch}")
    if mismatches:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("traces")(traces_command)
