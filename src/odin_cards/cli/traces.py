"""``odin traces``: check a conformance file against a game's engine, or write new ones (for
the games whose plugin offers ``traces``: Odin's are ``docs/RULES.md``'s)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from odin_cards.cli import options as opt
from odin_cards.cli.app import CommandError, OdinCommand
from odin_cards.cli.paths import STDOUT, check_output, plural, read_text, write_text


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
        typer.Option("--players", help="Player counts to cycle through (default: every count)."),
    ] = None,
    show: Annotated[int, typer.Option("--show", min=0, help="Mismatches to print in detail.")] = 5,
    game: opt.GameKey = None,
) -> None:
    """Check (--check FILE) or write (--write FILE --hands N --seed S) conformance traces."""
    from rich.console import Console
    from rich.text import Text

    plugin = opt.game_plugin(game)
    traces = plugin.load_traces()
    if traces is None:
        raise CommandError(f"{plugin.name} has no conformance traces")
    rules = opt.game_rules(plugin)
    console = Console(highlight=False, markup=False)
    if (check is None) == (write is None):
        raise typer.BadParameter("give exactly one of --check FILE or --write FILE")
    if write is not None:
        fewest, most = rules.min_players, rules.max_players
        counts = players or list(range(fewest, most + 1))
        if any(not fewest <= p <= most for p in counts):
            raise typer.BadParameter(
                f"player counts are {fewest} to {most}", param_hint="--players"
            )
        check_output(write, "--write")
        lines = traces.write(hands, seed, counts)
        write_text(write, "".join(line + "\n" for line in lines))
        if write != STDOUT:
            console.print(f"wrote {plural(hands, 'hand')} to {write}")
        return
    assert check is not None
    text = read_text(check)
    total = 0
    mismatches = []
    try:
        for number, trace in enumerate(traces.read(text.splitlines())):
            total += 1
            mismatch = traces.check(number, trace)
            if mismatch is not None:
                mismatches.append(mismatch)
    except ValueError as error:
        raise CommandError(f"{check}: line {total + 1} is not JSON: {error}") from None
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        raise CommandError(
            f"{check}: trace {total} is not a trace (a field is missing or wrong: {error})"
        ) from None
    if total == 0:
        raise CommandError(f"{check} holds no trace")
    console.print(f"{total - len(mismatches)} of {plural(total, 'hand')} match")
    for mismatch in mismatches[:show]:
        console.print(Text.assemble(("mismatch", "red"), f" {mismatch}"))
    if mismatches:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("traces", cls=OdinCommand)(traces_command)
