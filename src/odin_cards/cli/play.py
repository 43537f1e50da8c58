"""``odin play``: one person against bots in the terminal (being built)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Nothing registered yet."""
