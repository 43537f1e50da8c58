"""The package's optional parts (its extras) and the one line that names a missing one.

``pip install odin-cards`` installs the core: both games' rules engines, records, traces
and the terminal game, with Typer and Rich for the ``odin`` command and nothing else.
Everything else is an extra (``pyproject.toml``'s optional dependencies), and what needs
one asks for it with :func:`require` (or, in the ``odin`` command, simply imports it: a
module of an extra that is not installed becomes the same one line, see
``odin_cards.cli.app``), so a person reads ``odin serve needs the server extra: pip
install 'odin-cards[server]'`` instead of a traceback.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.util import find_spec
from typing import Final

EXTRAS: Final[Mapping[str, tuple[str, ...]]] = {
    "bots": ("numpy",),
    "arena": ("numpy", "openskill"),
    "join": ("websockets",),
    "plot": ("matplotlib",),
    "server": (
        "fastapi",
        "jinja2",
        "uvicorn",
        "websockets",
        "sqlalchemy",
        "alembic",
        "aiosqlite",
        "asyncpg",
        "argon2",
        "redis",
        "prometheus_client",
        "openskill",
        "numpy",
    ),
    "research": ("pettingzoo", "gymnasium", "pyspiel", "numba", "numpy", "openskill"),
    "train": ("torch", "numpy"),
    "jax": ("jax",),
}
"""The top-level modules each extra installs, smallest extras first (the first extra that
has a module is the one a missing module is reported under)."""


class MissingExtra(ImportError):
    """Something needs an extra that is not installed; its message is the one line to show."""

    def __init__(self, what: str, extra: str) -> None:
        super().__init__(f"{what} needs the {extra} extra: pip install 'odin-cards[{extra}]'")
        self.what = what
        self.extra = extra


def missing(extra: str) -> tuple[str, ...]:
    """The modules of ``extra`` this environment lacks (looked up, not imported)."""
    return tuple(module for module in EXTRAS[extra] if find_spec(module) is None)


def installed(extra: str) -> bool:
    """Whether every module of ``extra`` can be imported."""
    return not missing(extra)


def require(extra: str, what: str) -> None:
    """Raise :class:`MissingExtra` (``what`` needs ``extra``) unless ``extra`` is installed."""
    if not installed(extra):
        raise MissingExtra(what, extra)


def extra_of(module: str | None) -> str | None:
    """The smallest extra that installs ``module`` (a dotted name: its top level counts),
    ``None`` for a module of no extra."""
    if not module:
        return None
    top = module.partition(".")[0]
    return next((extra for extra, modules in EXTRAS.items() if top in modules), None)


__all__ = ["EXTRAS", "MissingExtra", "extra_of", "installed", "missing", "require"]
