"""The ``odin`` command: one Typer application, one module per group of commands."""

from __future__ import annotations

import typer

from . import arena, bench, play, replay, serve, simulate, traces

app = typer.Typer(
    name="odin",
    help="Odin, the card game: play in the terminal or the browser, bots, arena, engine tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for module in (simulate, replay, traces, bench, arena, play, serve):
    module.register(app)


def main() -> None:
    app()
