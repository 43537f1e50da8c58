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

from odin_cards.cli import options as opt
from odin_cards.cli.app import CommandError, OdinCommand
from odin_cards.cli.paths import check_output, read_text, write_text

if TYPE_CHECKING:
    from rich.console import Console

    from odin_cards.contract import GameRules, GameState
    from odin_cards.odin.play import BotSeat
    from odin_cards.odin.rules import Game


def default_level() -> str:
    """The strongest level that answers within half a second a move (a brisk game)."""
    from odin_cards.odin.bots import LEVELS

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
    from odin_cards.odin.play import BotSeat
    from odin_cards.tools.arena import ArenaError, parse_entrant

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
    from odin_cards.odin.rules import GameRecord, RecordError

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


def noo_bots(spec: str, players: int) -> tuple[list[str], dict[int, str]]:
    """The bot level of each bot seat of In the Name of Odin (``--bots``)."""
    from odin_cards.odin.bots.registry import bot_levels

    levels = bot_levels("name-of-odin")
    specs = [s.strip().lower() for s in spec.split(",") if s.strip()]
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise typer.BadParameter(
            f"give one level for all bots or one per bot seat ({players - 1}), not {len(specs)}",
            param_hint="--bots",
        )
    for level in specs:
        if level not in levels:
            raise typer.BadParameter(
                f"unknown bot level {level!r}; levels: {', '.join(levels)}", param_hint="--bots"
            )
    return specs, dict(enumerate(specs, start=1))


def load_saved_game(path: Path, key: str) -> tuple[GameState, list[str], list[str]]:
    """A game of ``key`` saved by ``odin play --record`` (names and bots included)."""
    from odin_cards.games import rules_of

    text = read_text(path)
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("game") != key:
            raise CommandError(f"{path} is not a game of {key} saved by odin play")
        game = rules_of(key).load_record(data).replay()
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


def play_name_of_odin(
    rules: GameRules,
    players: int,
    bots: str | None,
    name: str,
    seed: int | None,
    delay: float | None,
    hint_level: str | None,
    record: Path | None,
    resume: Path | None,
    cards: Path | None,
) -> None:
    """``odin play --game name-of-odin``: In the Name of Odin against bots."""
    from rich.console import Console
    from rich.text import Text

    from odin_cards.name_of_odin.play import NooSession
    from odin_cards.name_of_odin.rules import CardsError, load_cards
    from odin_cards.odin.bots.registry import bot_levels

    if resume is not None:
        if cards is not None:
            raise typer.BadParameter(
                "a resumed game plays on with its own cards", param_hint="--cards"
            )
        game, names, specs = load_saved_game(resume, rules.key)
        _, seats = noo_bots(",".join(specs), game.players)
        record = resume if record is None else record
    else:
        opt.check_players_of(rules, players)
        specs, seats = noo_bots(bots or "heuristic", players)
        if not name.strip():
            raise typer.BadParameter("your name cannot be empty", param_hint="--name")
        names = [name.strip()] + [f"{level.capitalize()} {seat}" for seat, level in seats.items()]
        if len(set(names)) != len(names):
            raise typer.BadParameter(
                f"{name!r} is a bot's name: choose another", param_hint="--name"
            )
        setup: dict[str, object] = {}
        if cards is not None:
            try:
                setup["cards"] = load_cards(cards).to_dict()
            except CardsError as error:
                raise CommandError(" ".join(str(error).split())) from None
        game = rules.new_game(players, setup, secrets.token_hex(16) if seed is None else seed)
    levels = bot_levels(rules.key)
    if hint_level is not None and hint_level not in levels:
        raise typer.BadParameter(
            f"unknown bot level {hint_level!r}; levels: {', '.join(levels)}",
            param_hint="--hint-level",
        )
    if delay is not None and delay < 0:
        raise typer.BadParameter("the delay cannot be negative", param_hint="--delay")
    check_output(record, "--record")

    console = Console(highlight=False)
    interactive = console.is_terminal and sys.stdin.isatty()
    read_line = terminal_reader() if sys.stdin.isatty() else piped_reader(console)
    view = game.view(0)
    console.print(
        Text.assemble(
            ("In the Name of Odin", "bold"),
            f": {names[0]} against {', '.join(names[1:])}; cards: {view['cards']}"
            f"{'; resumed' if resume is not None else ''}. Type help for help.",
        )
    )
    session = NooSession(
        game,
        names,
        seats,
        human=0,
        console=console,
        read_line=read_line,
        bot_seed=secrets.token_hex(16) if seed is None else f"{seed}:bots",
        delay=(0.4 if interactive else 0.0) if delay is None else delay,
        hint_level=hint_level or levels[-1],
        echo=not sys.stdin.isatty(),
    )
    ending = session.run()
    if record is not None:
        data = session.game.record().to_dict()
        data["seats"] = [
            {"name": who, "bot": None if seat == 0 else specs[seat - 1]}
            for seat, who in enumerate(names)
        ]
        write_text(record, json.dumps(data, indent=1) + "\n")
        console.print(
            Text(
                f"wrote the game record to {record}"
                + (
                    f" (odin play --game {rules.key} --resume {record} plays on)"
                    if ending != "over"
                    else ""
                )
            )
        )
    if ending == "interrupted":
        raise typer.Exit(130)


def play_command(
    players: Annotated[
        int,
        typer.Option("--players", "-p", help="You included: 2 to 6 (Odin), 2 to 5 (name-of-odin)."),
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
    game_key: opt.GameKey = "odin",
    cards: Annotated[
        Path | None,
        typer.Option(
            "--cards",
            help="Play with the cards of this file (name-of-odin: your copy's cards, TOML).",
        ),
    ] = None,
) -> None:
    """Play Odin against bots: type cards (b3 b7), pass, a choice's number, hint or help.

    With --game name-of-odin, In the Name of Odin: a choice's number or an action's text.
    """
    from rich.console import Console
    from rich.text import Text

    from odin_cards.odin.bots import LEVELS
    from odin_cards.odin.play import PlaySession
    from odin_cards.odin.rules import Game

    rules = opt.game_rules(game_key)
    if rules.key != "odin":
        opt.refuse_odin_flags(rules.key)
        play_name_of_odin(
            rules, players, bots, name, seed, delay, hint_level, record, resume, cards
        )
        return
    if cards is not None:
        raise typer.BadParameter("Odin has no card files: its deck is fixed", param_hint="--cards")
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
