"""``odin play``: one person against bots in the terminal, any game of the registry.

This command prepares the table (the game's set-up from its flags, or a saved game; the
bots' levels; the names) and writes the record; the game's own terminal, named by its
plugin (:attr:`odin_cards.plugin.GamePlugin.terminal`), plays it. A game without one is
played on the plain terminal (:mod:`odin_cards.cli.plain`).

The deal's seed comes from the operating system (:mod:`secrets`, 128 bits) and is never
printed: whoever knows it knows every hand. The bots' random choices have a seed of
their own. ``--seed`` fixes the deals (and the bots' choices) for a game played again.
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from odin_cards.cli import options as opt
from odin_cards.cli.app import CommandError
from odin_cards.cli.paths import check_output, read_text, write_text

if TYPE_CHECKING:
    from rich.console import Console

    from odin_cards.contract import GameState
    from odin_cards.plugin import GamePlugin, TerminalBot


def default_level(plugin: GamePlugin) -> str:
    """The strongest level that answers within half a second a move (a brisk game), of
    those this install plays (a level may need an extra: the core plays Odin's heuristic)."""
    if not plugin.bot_levels:
        raise typer.BadParameter(f"{plugin.name} has no bots to play against", param_hint="--game")
    here = [level for level in plugin.bot_levels if level.installed] or list(plugin.bot_levels)
    quick = [level.key for level in here if (level.seconds or 0.0) <= 0.5]
    return (quick or [level.key for level in here])[-1]


def level_name(plugin: GamePlugin, key: str) -> str:
    """How pages name a level (its key for a level the plugin does not describe)."""
    level = plugin.level(key)
    return key if level is None else level.name


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


def parse_bots(
    spec: str, players: int, plugin: GamePlugin
) -> tuple[list[str], dict[int, TerminalBot]]:
    """Each bot seat's level and budget, as ``--bots`` writes them (one for all, or one a
    seat): ``heuristic``, ``search:seconds=1``."""
    from odin_cards.extras import MissingExtra
    from odin_cards.plugin import TerminalBot
    from odin_cards.tools.arena import ArenaError, parse_entrant
    from odin_cards.tools.arena.entrants import own_budget

    specs = [s.strip() for s in spec.split(",") if s.strip()]
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise typer.BadParameter(
            f"give one level for all bots or one per bot seat ({players - 1}), not {len(specs)}",
            param_hint="--bots",
        )
    seats: dict[int, TerminalBot] = {}
    for seat, text in enumerate(specs, start=1):
        try:
            level, budget = parse_entrant(text, plugin.key)
        except ArenaError as error:
            raise typer.BadParameter(str(error), param_hint="--bots") from None
        facts = plugin.level(level)
        if facts is not None and facts.extra is not None and not facts.installed:
            raise MissingExtra(f"odin play --bots {level}", facts.extra)
        written = {} if budget == own_budget(plugin, level) else budget.as_dict()
        seats[seat] = TerminalBot(level, written)
    return specs, seats


def load_saved(path: Path, plugin: GamePlugin) -> tuple[GameState, list[str], list[str]]:
    """A game of ``plugin``'s saved by ``odin play --record`` (names and bots included)."""
    text = read_text(path)
    try:
        data = json.loads(text)
        if isinstance(data, dict) and data.get("game", plugin.key) != plugin.key:
            raise CommandError(f"{path} is not a game of {plugin.key} saved by odin play")
        game = opt.game_rules(plugin).load_record(data).replay()
        seats = data["seats"]
        names = [str(seat["name"]) for seat in seats]
        specs = [str(seat["bot"]) for seat in seats[1:]]
        if len(names) != game.players or seats[0]["bot"] is not None:
            raise KeyError("seats")
    except CommandError:
        raise
    except (KeyError, TypeError):
        raise CommandError(f"{path} is not a game saved by odin play") from None
    except ValueError as error:
        raise CommandError(f"{path}: {' '.join(str(error).split())}") from None
    if game.is_over:
        raise CommandError(f"{path}: that game is over (odin replay {path} shows it)")
    return game, names, specs


def record_json(game: GameState, names: list[str], specs: list[str]) -> str:
    """The game record with who sat where: names, and each bot's level as ``--bots`` writes it."""
    data = game.record().to_dict()
    data["seats"] = [
        {"name": name, "bot": None if seat == 0 else specs[seat - 1]}
        for seat, name in enumerate(names)
    ]
    return json.dumps(data, indent=1) + "\n"


def play_command(
    players: Annotated[
        int,
        typer.Option("--players", "-p", help="Players, you included (as many as the game allows)."),
    ] = 4,
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
            "--delay",
            help="Seconds to pause after each bot move (default: the game's, in a terminal;"
            " 0 when input is piped).",
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
    game_key: opt.GameKey = None,
) -> None:
    """Play against bots in the terminal; 'help' at your prompt says what to type.

    Odin (the default game): type cards (b3 b7), pass, a choice's number, hint or help.
    Another game (--game KEY): a choice's number or an action's text, in its own notation.
    """
    from rich.console import Console
    from rich.text import Text

    from odin_cards.games import default_key
    from odin_cards.plugin import TerminalTable

    plugin = opt.game_plugin(game_key)
    flags = opt.game_flags()
    if resume is not None:
        if flags:
            raise typer.BadParameter(
                "a resumed game plays on with its own set-up", param_hint=next(iter(flags))
            )
        game, names, specs = load_saved(resume, plugin)
        _, seats = parse_bots(",".join(specs), game.players, plugin)
        record = resume if record is None else record
    else:
        setup = opt.game_setup(plugin, players, flags)
        specs, seats = parse_bots(bots or default_level(plugin), players, plugin)
        if not name.strip():
            raise typer.BadParameter("your name cannot be empty", param_hint="--name")
        names = [name.strip()] + [
            f"{level_name(plugin, bot.level)} {seat}" for seat, bot in seats.items()
        ]
        if len(set(names)) != len(names):
            raise typer.BadParameter(
                f"{name!r} is a bot's name: choose another", param_hint="--name"
            )
        rules = opt.game_rules(plugin)
        game = rules.new_game(players, setup, secrets.token_hex(16) if seed is None else seed)
    if hint_level is not None and plugin.level(hint_level) is None:
        raise typer.BadParameter(
            f"unknown bot level {hint_level!r}; levels: {', '.join(plugin.level_keys)}",
            param_hint="--hint-level",
        )
    if delay is not None and delay < 0:
        raise typer.BadParameter("the delay cannot be negative", param_hint="--delay")
    check_output(record, "--record")

    console = Console(highlight=False)
    table = TerminalTable(
        key=plugin.key,
        game=game,
        names=tuple(names),
        bots=seats,
        hint_level=hint_level,
        bot_seed=secrets.token_hex(16) if seed is None else f"{seed}:bots",
        delay=delay,
        resumed=resume is not None,
        console=console,
        read_line=terminal_reader() if sys.stdin.isatty() else piped_reader(console),
        interactive=console.is_terminal and sys.stdin.isatty(),
        echo=not sys.stdin.isatty(),
    )
    from odin_cards.cli.plain import play as plain

    terminal = plugin.load_terminal() or plain
    ending, final = terminal(table)
    if record is not None:
        write_text(record, record_json(final, names, specs))
        again = "" if plugin.key == default_key() else f" --game {plugin.key}"
        console.print(
            Text(
                f"wrote the game record to {record}"
                + (f" (odin play{again} --resume {record} plays on)" if ending != "over" else "")
            )
        )
    if ending == "interrupted":
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command("play", cls=opt.GameCommand)(play_command)
