"""``odin play``: one person against bots in the terminal.

The deal's seed comes from the operating system (:mod:`secrets`, 128 bits) and is never
printed: whoever knows it knows every hand. The bots' random choices have a seed of
their own. ``--seed`` fixes the deals (and the bots' choices) for a game played again.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from . import options as opt
from .app import CommandError, OdinCommand
from .paths import check_output, read_text, write_text

if TYPE_CHECKING:
    from rich.console import Console

    from ..play import BotSeat
    from ..rules import Game


def default_level() -> str:
    """The strongest level that answers within half a second a move (a brisk game)."""
    from ..bots import LEVELS

    quick = [k for k, level in LEVELS.items() if (level.budget.seconds or 0.0) <= 0.5]
    return (quick or list(LEVELS))[-1]


def terminal_reader() -> Callable[[str], str]:
    """Read a line from the terminal with line editing and history (readline).

    Keys typed before the prompt (say, while a bot thought) are thrown away first, so
    they never become a move played on a position the person has not seen.
    """
    import readline  # noqa: F401  (gives input() line editing and history)
    import termios

    def read(prompt: str) -> str:
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
        return input(prompt)

    return read


def piped_reader(console: Console) -> Callable[[str], str]:
    """Read plain lines from standard input, printing each prompt first."""
    from rich.text import Text

    def read(prompt: str) -> str:
        console.print(Text(prompt), end="")
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")

    return read


def parse_bots(spec: str, players: int) -> tuple[list[str], dict[int, BotSeat]]:
    from ..arena import ArenaError, parse_entrant
    from ..play import BotSeat

    specs = [s.strip() for s in spec.split(",") if s.strip()]
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise typer.BadParameter(
            f"give one level for all bots or one per bot seat ({players - 1}), not {len(specs)}",
            param_hint="--bots",
        )
    seats: dict[int, BotSeat] = {}
    for seat, text in enumerate(specs, start=1):
        try:
            level, budget = parse_entrant(text)
        except ArenaError as error:
            raise typer.BadParameter(str(error), param_hint="--bots") from None
        seats[seat] = BotSeat(level, budget)
    return specs, seats


def record_json(game: Game, names: list[str], specs: list[str]) -> str:
    """The game record with who sat where: names, and each bot's level as ``--bots`` writes it."""
    data = game.record().to_dict()
    data["seats"] = [
        {"name": name, "bot": None if seat == 0 else specs[seat - 1]}
        for seat, name in enumerate(names)
    ]
    return json.dumps(data, indent=1) + "\n"


def load_saved(path: Path) -> tuple[Game, list[str], list[str]]:
    """A game saved by ``odin play --record`` (names and bots included), to play on."""
    from ..rules import GameRecord, RecordError

    text = read_text(path)
    try:
        data = json.loads(text)
        game = GameRecord.from_dict(data).replay()
        seats = data["seats"]
        names = [str(seat["name"]) for seat in seats]
        specs = [str(seat["bot"]) for seat in seats[1:]]
        if len(names) != game.players or seats[0]["bot"] is not None:
            raise ValueError
    except RecordError as error:
        raise CommandError(f"{path}: {error}") from None
    except (ValueError, KeyError, TypeError):
        raise CommandError(f"{path} is not a game saved by odin play") from None
    if game.is_over:
        raise CommandError(f"{path}: that game is over (odin replay {path} shows it)")
    return game, names, specs


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
        int | None,
        typer.Option("--seed", help="Fix the deals (default: secret, from the system)."),
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
        Path | None,
        typer.Option("--record", help="Write the game record (JSON) here when the game ends."),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help="Play on a game left with --record (and save it there)."),
    ] = None,
    target: opt.Target = 15,
    one_hand: opt.OneHand = False,
    next_leader: opt.NextLeader = "rotate",
    first_leader: opt.FirstLeader = None,
    colours: opt.Colours = 6,
    goat: opt.Goat = False,
) -> None:
    """Play Odin against bots: type cards (b3 b7), pass, a choice's number, hint or help."""
    from rich.console import Console
    from rich.text import Text

    from ..bots import LEVELS
    from ..play import PlaySession
    from ..rules import Game

    if resume is not None:
        game, names, specs = load_saved(resume)
        _, seats = parse_bots(",".join(specs), game.players)
        record = resume if record is None else record
    else:
        options = opt.make_options(
            players, target, one_hand, next_leader, first_leader, colours, goat
        )
        specs, seats = parse_bots(bots or default_level(), players)
        if not name.strip():
            raise typer.BadParameter("your name cannot be empty", param_hint="--name")
        names = [name.strip()] + [f"{LEVELS[b.level].name} {seat}" for seat, b in seats.items()]
        if len(set(names)) != len(names):
            raise typer.BadParameter(
                f"{name!r} is a bot's name: choose another", param_hint="--name"
            )
        game = Game.new(players, options, secrets.token_hex(16) if seed is None else seed)
    if hint_level is not None and hint_level not in LEVELS:
        raise typer.BadParameter(
            f"unknown bot level {hint_level!r}; levels: {', '.join(LEVELS)}",
            param_hint="--hint-level",
        )
    if delay is not None and delay < 0:
        raise typer.BadParameter("the delay cannot be negative", param_hint="--delay")
    check_output(record, "--record")

    console = Console(highlight=False)
    interactive = console.is_terminal and sys.stdin.isatty()
    read_line = terminal_reader() if sys.stdin.isatty() else piped_reader(console)

    def pause() -> None:
        with contextlib.suppress(EOFError):
            read_line("Press Enter for the next hand ")

    options = game.options
    console.print(
        Text.assemble(
            ("Odin", "bold"),
            f": {names[0]} against {', '.join(names[1:])}; target {options.target}"
            f"{', one hand' if options.one_hand else ''}"
            f"{'; resumed' if resume is not None else ''}. Type help for help.",
        )
    )
    session = PlaySession(
        game,
        names,
        seats,
        human=0,
        console=console,
        read_line=read_line,
        bot_seed=secrets.token_hex(16) if seed is None else f"{seed}:bots",
        delay=(0.6 if interactive else 0.0) if delay is None else delay,
        hint_level=hint_level,
        echo=not sys.stdin.isatty(),
        pause=pause if interactive else None,
    )
    ending = session.run()
    if record is not None:
        write_text(record, record_json(session.game, names, specs))
        console.print(
            Text(
                f"wrote the game record to {record}"
                + (f" (odin play --resume {record} plays on)" if ending != "over" else "")
            )
        )
    if ending == "interrupted":
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command("play", cls=OdinCommand)(play_command)
