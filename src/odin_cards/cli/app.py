"""The ``odin`` application object: one-line errors, ``-h``, ``--version``, tidy help.

Click and Typer show a usage error as a boxed panel of five or six lines; a command-line
tool's error is one line on standard error, so scripts and people read it alike:
``odin play: --players: Odin is played by 2 to 6 players, not 9 (see odin play -h)``.
Errors of the commands themselves (a file that cannot be read, a broken record) use
:class:`CommandError`: the same one line, exit status 1. A command that needs an extra
the install lacks (:mod:`odin_cards.extras`) says which in one line too, exit status 1:
``odin serve needs the server extra: pip install 'odin-cards[server]'``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer._click import exceptions as click  # Typer's own copy of Click's errors
from typer._click.globals import get_current_context
from typer.core import TyperCommand, TyperGroup

from odin_cards.extras import MissingExtra, extra_of


class CommandError(click.ClickException):
    """A command that cannot do its work: one line on standard error, exit status 1."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.ctx = get_current_context(silent=True)


def one_line(text: str) -> str:
    return " ".join(text.split())


def error_line(error: click.ClickException) -> str:
    """``odin COMMAND: [--option: ]message`` for any Click error."""
    context = getattr(error, "ctx", None)
    path = context.command_path if context is not None else "odin"
    message = error.format_message()
    if isinstance(error, click.BadParameter) and error.param_hint is None and error.param:
        names = [o for o in error.param.opts if o.startswith("--")] or error.param.opts
        message = message.replace("Invalid value: ", f"Invalid value for {names[0]}: ")
    line = f"{path}: {one_line(message)}"
    if isinstance(error, click.UsageError):
        line += f" (see {path} -h)"
    return line


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("odin-cards")
    except PackageNotFoundError:  # a source tree that was never installed
        return "unknown"


def without_switch_types(params: list[Any]) -> list[Any]:
    """Parameters for the help: a plain switch (``--goat``, ``-h``) shows no ``<bool>`` type."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class OdinCommand(TyperCommand):
    """A command whose help shows no ``<bool>`` after a plain switch."""

    def get_params(self, ctx: Any) -> list[Any]:
        return without_switch_types(super().get_params(ctx))

    def invoke(self, ctx: Any) -> Any:
        """The command, with a module of a missing extra named as that extra."""
        try:
            return super().invoke(ctx)
        except MissingExtra as error:  # a module's own check: named as the command
            if error.what.startswith("odin "):  # already names what on the command line
                raise
            raise MissingExtra(ctx.command_path, error.extra) from None
        except ModuleNotFoundError as error:
            extra = extra_of(error.name)
            if extra is None:
                raise
            raise MissingExtra(ctx.command_path, extra) from None


class OdinGroup(TyperGroup):
    """Typer's group with one-line errors and no ``<bool>`` type shown after a plain switch."""

    def get_params(self, ctx: Any) -> list[Any]:
        return without_switch_types(super().get_params(ctx))

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            status = super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as error:
            typer.echo(error_line(error), err=True)
            sys.exit(error.exit_code)
        except MissingExtra as error:
            typer.echo(str(error), err=True)
            sys.exit(1)
        except typer.Abort:
            typer.echo("odin: aborted", err=True)
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)


def show_version(value: bool) -> None:
    if value:
        typer.echo(f"odin {package_version()}")
        raise typer.Exit()


app = typer.Typer(
    name="odin",
    cls=OdinGroup,
    help="Odin, the card game: play in the terminal or the browser, bots, arena, engine tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: the rich one imports a Markdown parser (0.2 s)
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def odin(
    _version: bool = typer.Option(
        False,
        "--version",
        "-V",
        callback=show_version,
        is_eager=True,
        help="Print the version and exit.",
    ),
) -> None:
    """Odin, the card game: play in the terminal or the browser, bots, arena, engine tools."""
