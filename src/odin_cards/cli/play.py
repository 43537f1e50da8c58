"""``odin play``: one person against bots in the terminal."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..arena import ArenaError, parse_entrant
from ..bots import LEVELS
from ..play import BotSeat, PlaySession
from ..rules import Game
from . import options as opt


def default_level() -> str:
    """The strongest level that answers within half a second a move (a brisk game)."""
    quick = [k for k, level in LEVELS.items() if (level.budget.seconds or 0.0) <= 0.5]
    return (quick or list(LEVELS))[-1]


def play_command(
    players: Annotated[int, typer.Option("--players", "-p", help="2 to 6, you included.")] = 4,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="Bot level for every bot seat, or one per bot seat comma-separated"
            " (e.g. heuristic,search,random); 'level:seconds=1' sets a budget."
            " Default: the strongest level that moves within half a second.",
        ),
    ] = None,
    name: Annotated[str, typer.Option("--name", help="Your name at the table.")] = "You",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the deals (default: a random one).")
    ] = None,
    delay: Annotated[
        float | None,
        typer.Option(
            "--delay", help="Seconds to pause after each bot move (default 0.6 in a terminal)."
        ),
    ] = None,
    hint_level: Annotated[
        str | None,
        typer.Option("--hint-level", help="Bot level that answers 'hint' (default: strongest)."),
    ] = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write the game record (JSON) here at the end.")
    ] = None,
    target: opt.Target = 15,
    one_hand: opt.OneHand = False,
    next_leader: opt.NextLeader = "rotate",
    first_leader: opt.FirstLeader = None,
    colours: opt.Colours = 6,
    goat: opt.Goat = False,
) -> None:
    """Play Odin against bots: type cards (b3 b7), pass, a choice's number, hint or help."""
    options = opt.make_options(players, target, one_hand, next_leader, first_leader, colours, goat)
    specs = [s for s in (bots or default_level()).split(",") if s.strip()]
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise typer.BadParameter(
            f"give one level for all bots or one per bot seat ({players - 1}), not {len(specs)}",
            param_hint="--bots",
        )
    seats: dict[int, BotSeat] = {}
    for seat, spec in enumerate(specs, start=1):
        try:
            level, budget = parse_entrant(spec)
        except ArenaError as error:
            raise typer.BadParameter(str(error), param_hint="--bots") from None
        seats[seat] = BotSeat(level, budget)
    if hint_level is not None and hint_level not in LEVELS:
        raise typer.BadParameter(
            f"unknown bot level {hint_level!r}; levels: {', '.join(LEVELS)}",
            param_hint="--hint-level",
        )
    if delay is not None and delay < 0:
        raise typer.BadParameter("the delay cannot be negative", param_hint="--delay")
    if not name.strip():
        raise typer.BadParameter("your name cannot be empty", param_hint="--name")
    if record is not None and not record.parent.is_dir():
        raise typer.BadParameter(f"the folder of {record} does not exist", param_hint="--record")

    console = Console(highlight=False)
    interactive = console.is_terminal and sys.stdin.isatty()
    seed = secrets.randbelow(1_000_000) if seed is None else seed
    game = Game.new(players, options, seed)
    names = [name.strip()] + [f"{LEVELS[b.level].name} {seat}" for seat, b in seats.items()]
    if len(set(names)) != len(names):
        raise typer.BadParameter(f"{name!r} is a bot's name: choose another", param_hint="--name")
    console.print(
        f"[bold]Odin[/bold]: {names[0]} against {', '.join(names[1:])}; target {options.target}"
        f"{', one hand' if options.one_hand else ''}; seed {seed}. Type help for help."
    )
    session = PlaySession(
        game,
        names,
        seats,
        human=0,
        console=console,
        read_line=lambda prompt: console.input(prompt),
        seed=seed,
        delay=(0.6 if interactive else 0.0) if delay is None else delay,
        hint_level=hint_level,
        echo=not sys.stdin.isatty(),
    )
    try:
        session.run()
    except KeyboardInterrupt:
        console.print("\nInterrupted: leaving the game.")
        raise typer.Exit(130) from None
    if record is not None:
        record.write_text(game.record().to_json(indent=1) + "\n")
        console.print(f"wrote the game record to {record} (odin replay {record})")


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
