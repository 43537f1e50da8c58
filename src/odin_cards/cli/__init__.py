"""The ``odin`` command: one Typer application, one module per group of commands.

The command modules import the engine, the bots and the server inside their functions,
so ``odin --help`` (and any one command) loads only what it uses.
"""

from __future__ import annotations

from odin_cards.cli import (
    admin,
    analyse,
    arena,
    bench,
    evaluate,
    join,
    play,
    replay,
    serve,
    simulate,
    tables,
    traces,
)
from odin_cards.cli.app import app

for module in (
    simulate,
    replay,
    analyse,
    traces,
    bench,
    arena,
    evaluate,
    play,
    join,
    serve,
    tables,
    admin,
):
    module.register(app)


def main() -> None:
    app()


__all__ = ["app", "main"]
