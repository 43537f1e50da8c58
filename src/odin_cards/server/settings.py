"""Server settings: everything ``odin serve`` can be told, with the defaults it uses."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


def sqlite_url(data_dir: Path) -> str:
    """The embedded database: one SQLite file in the data directory."""
    return f"sqlite+aiosqlite:///{(data_dir / 'odin.sqlite3').resolve()}"


@dataclass(frozen=True, slots=True)
class Settings:
    """How one server runs. One server process owns a database (tables live in memory)."""

    database_url: str
    bot_delay: float = 0.9
    """Mean seconds a bot waits before it moves (jittered by a third either way; 0: none)."""
    bot_workers: int = 1
    """Processes that run bots (0: a thread of the server process, for tests and tiny hosts)."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own that may open WebSockets (e.g. behind a proxy)."""
    max_message: int = 4096
    """Largest client message in bytes; bigger ones are refused with ``too_large``."""
    rate: float = 20.0
    """Client messages per second a connection may send (token bucket refill)."""
    burst: int = 20
    """Messages a connection may send at once (token bucket size)."""
    flood: int = 20
    """Refused messages in a row after which a flooding connection is closed (1008)."""
