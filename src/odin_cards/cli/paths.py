"""Files the commands read and write: checked before the work, one-line errors after it."""

from __future__ import annotations

from pathlib import Path

import typer

from odin_cards.cli.app import CommandError

STDOUT = Path("-")
"""``-`` as a file name means standard output (``--json -``, ``traces --write -``)."""


def check_output(path: Path | None, option: str, suffix: str | None = None) -> None:
    """Refuse, before any work is done, a file that could not be written."""
    if path is None or path == STDOUT:
        return
    if suffix is not None and path.suffix.lower() != suffix:
        raise typer.BadParameter(f"{path} should end in {suffix}", param_hint=option)
    if path.is_dir():
        raise typer.BadParameter(f"{path} is a folder, not a file", param_hint=option)
    if not path.parent.is_dir():
        raise typer.BadParameter(f"the folder of {path} does not exist", param_hint=option)


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (``-``: standard output); a failure is one line, exit 1."""
    if path == STDOUT:
        typer.echo(text, nl=not text.endswith("\n"))
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror or error}") from None


def read_text(path: Path) -> str:
    """The text of ``path``; missing, unreadable or not text is one line, exit 1."""
    try:
        return path.read_bytes().decode("utf-8")
    except IsADirectoryError:
        raise CommandError(f"{path} is a folder, not a file") from None
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not a text file (not UTF-8)") from None


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 game``, ``2 games``; ``many`` for an irregular plural."""
    return f"{count} {word if count == 1 else many or word + 's'}"
