"""The game of a command (``--game``) and the set-up flags of every installed game.

The commands that start games (:class:`GameCommand`: ``odin play``, ``simulate``,
``arena``, ``evaluate``) take ``--game KEY`` (default: the registry's first game) and
every installed game's set-up flags, read from the plugins' data
(:attr:`odin_cards.plugin.GamePlugin.flags`) without importing a game. The flags given
are handed to the played game's reader (:func:`game_setup`); one of another game is
refused, naming its game. So a game installed beside odin-cards brings its own flags,
and nothing here names a game.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer._click.core import ParameterSource
from typer._click.globals import get_current_context

from odin_cards.cli.app import OdinCommand

if TYPE_CHECKING:
    from odin_cards.contract import GameRules
    from odin_cards.plugin import Flag, GamePlugin

GameKey = Annotated[
    str | None,
    typer.Option(
        "--game",
        "-g",
        help="The game, by key (default: the first installed game).",
        show_default=False,
    ),
]

FLAGS = "odin_game_flags"
"""Where :class:`GameCommand` keeps the game flags given (in the context's ``meta``)."""
PREFIX = "game_flag_"


def installed_flags() -> dict[str, tuple[Flag, list[GamePlugin]]]:
    """Every installed game's flags by name, with the games that have each."""
    from odin_cards.games import plugins

    found: dict[str, tuple[Flag, list[GamePlugin]]] = {}
    for plugin in plugins().values():
        for flag in plugin.flags:
            found.setdefault(flag.name, (flag, []))[1].append(plugin)
    return found


def flag_params(found: Mapping[str, tuple[Flag, list[GamePlugin]]]) -> list[Any]:
    """Click options for the flags, made by Typer from a signature of their own."""
    parameters = []
    annotations: dict[str, Any] = {}
    for name, (flag, games) in found.items():
        dest = PREFIX + name.lstrip("-").replace("-", "_")
        help_text = f"{flag.help} ({', '.join(g.name for g in games)})"
        option: Any
        if flag.kind == "switch":
            option = Annotated[bool, typer.Option(name, help=help_text, show_default=False)]
            default: Any = False
        else:
            kind: Any = int if flag.kind == "int" else str
            option = Annotated[
                kind | None,
                typer.Option(name, help=help_text, metavar=flag.metavar, show_default=False),
            ]
            default = None
        parameters.append(inspect.Parameter(dest, inspect.Parameter.KEYWORD_ONLY, default=default))
        annotations[dest] = option

    def flags(**values: Any) -> None:  # a signature for Typer to read, never called
        return None

    flags.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [p.replace(annotation=annotations[p.name]) for p in parameters]
    )
    flags.__annotations__ = annotations
    holder = typer.Typer()
    holder.command()(flags)
    holder.command("unused")(flags)  # two commands: Typer then keeps them by name
    group: Any = typer.main.get_command(holder)
    params: list[Any] = group.commands["flags"].params
    return params


class GameCommand(OdinCommand):
    """A command that starts games: with every installed game's set-up flags, whose values
    (the ones given on the command line) it keeps apart for :func:`game_flags`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game_flags = installed_flags()
        self.params.extend(flag_params(self.game_flags))

    def invoke(self, ctx: Any) -> Any:
        given: dict[str, Any] = {}
        for name in self.game_flags:
            dest = PREFIX + name.lstrip("-").replace("-", "_")
            value = ctx.params.pop(dest, None)
            if ctx.get_parameter_source(dest) == ParameterSource.COMMANDLINE:
                given[name] = value
        ctx.meta[FLAGS] = given
        return super().invoke(ctx)


def game_flags() -> dict[str, Any]:
    """The game flags given on the command line of the running command, by name."""
    flags: dict[str, Any] = get_current_context().meta.get(FLAGS, {})
    return flags


def game_plugin(key: str | None) -> GamePlugin:
    """The game called ``key`` (``None``: the default game), or a one-line error."""
    from odin_cards.contract import SetupError
    from odin_cards.games import default_key, plugin_of

    try:
        return plugin_of(default_key() if key is None else key)
    except SetupError as error:
        raise typer.BadParameter(str(error), param_hint="--game") from None


def game_rules(plugin: GamePlugin) -> GameRules:
    """The game's rules (loaded now)."""
    from odin_cards.games import rules_of

    return rules_of(plugin.key)


def check_players(plugin: GamePlugin, rules: GameRules, players: int) -> None:
    """A player count the game's rules allow, or a one-line error naming ``--players``."""
    if not rules.min_players <= players <= rules.max_players:
        raise typer.BadParameter(
            f"{plugin.name} is played by {rules.min_players} to {rules.max_players} players,"
            f" not {players}",
            param_hint="--players",
        )


def refuse_flags(plugin: GamePlugin, flags: Mapping[str, Any]) -> None:
    """Refuse every flag given that is not one of ``plugin``'s, naming the game it is of."""
    own = {flag.name for flag in plugin.flags}
    for name in flags:
        if name in own:
            continue
        owners = [p.name for p in installed_flags().get(name, (None, []))[1]]
        raise typer.BadParameter(
            f"{name} is an option of {' and '.join(owners) or 'another game'},"
            f" not of {plugin.name}",
            param_hint=name,
        )


def game_setup(
    plugin: GamePlugin, players: int, flags: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The set-up of ``players`` the game flags given say, checked by the game's rules.

    A flag of another game, or a value the game refuses, is a one-line error naming the
    flag; a set-up the rules refuse, one naming none."""
    from odin_cards.contract import SetupError
    from odin_cards.plugin import FlagError

    flags = game_flags() if flags is None else flags
    refuse_flags(plugin, flags)
    rules = game_rules(plugin)
    check_players(plugin, rules, players)
    reader = plugin.load_read_flags()
    try:
        setup = reader(players, flags) if reader is not None else {}
        return rules.check_setup(players, setup)
    except FlagError as error:
        raise typer.BadParameter(str(error), param_hint=error.flag) from None
    except SetupError as error:
        raise typer.BadParameter(" ".join(str(error).split())) from None


def flags_text(flags: Mapping[str, Any] | None = None) -> str:
    """The game flags given, as typed (``--target 10 --one-hand``), for a report's heading."""
    flags = game_flags() if flags is None else flags
    return " ".join(name if value is True else f"{name} {value}" for name, value in flags.items())
