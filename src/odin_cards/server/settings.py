"""Server settings: everything ``odin serve`` can be told, with the defaults it uses."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


def sqlite_url(data_dir: Path) -> str:
    """The embedded database: one SQLite file in the data directory."""
    return f"sqlite+aiosqlite:///{(data_dir / 'odin.sqlite3').resolve()}"


@dataclass(frozen=True, slots=True)
class Settings:
    """How one server runs: alone on its database, or one of several (``redis_url``)."""

    database_url: str
    redis_url: str | None = None
    """Several processes share the (PostgreSQL) database through this Redis; ``None``: one
    process owns the database (a lock refuses a second one)."""
    redis_prefix: str = "odin:"
    """Prefix of every Redis channel (servers or tests sharing one Redis keep apart)."""
    lease_seconds: float = 3.0
    """Seconds after its last heartbeat a process's tables may be taken over."""
    bot_delay: float = 0.9
    """Mean seconds a bot waits before it moves (jittered by a third either way; 0: none)."""
    bot_workers: int = 1
    """Processes that run bots (0: a thread of the server process, for tests and tiny hosts)."""
    bot_target_latency: float = 2.0
    """Seconds in which every table waiting for a searching bot should get its move: under
    load a search thinks ``target * bot_workers / waiting tables`` (at most its level's time)."""
    bot_min_think: float = 0.05
    """Least seconds a search thinks however long the queue (past that, latency grows)."""
    bot_hang_slack: float = 2.0
    """A bot still thinking 3 x its think time + this many seconds is hung: a random move
    stands in and its worker is replaced."""
    bot_memory: int = 2048 * 1024 * 1024
    """Bytes of data (heap and private mappings: ``RLIMIT_DATA``) one bot worker process may
    use; a move that needs more gets a random stand-in and the worker is replaced (0: no
    cap; a thread worker, ``bot_workers=0``, has none)."""
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

    # ------------------------------------------------------------ limits at the edge
    max_body: int = 64 * 1024
    """Largest HTTP request body in bytes (checked before parsing; bigger: 413 ``too_large``)."""
    max_frame: int = 64 * 1024
    """Largest WebSocket frame in bytes (the WebSocket layer closes the connection, 1009)."""
    send_queue_bytes: int = 1024 * 1024
    """Bytes a connection may have queued for sending; a reader that falls further behind
    is disconnected (1013) and resyncs when it comes back."""
    hellos_per_minute: int = 10
    """``hello`` messages (each a full state, maybe every event) a connection may send a
    minute; more are refused with ``rate_limited``. One address may send this many times
    ``sockets_per_ip`` a minute over all its connections (reconnecting buys no more)."""
    hello_timeout: float = 5.0
    """Seconds a new WebSocket connection has to say ``hello`` before it is closed (1008)."""
    sockets_per_ip: int = 32
    """Open WebSocket connections one client address may hold; more are refused (429)."""
    unfinished_per_ip: int = 64
    """HTTP connections one client address may hold before their request has fully arrived
    (opened and silent, headers or body half sent); one more is closed at once."""
    sockets: int = 4000
    """Open WebSocket connections in all; more are refused (503)."""
    tables_per_hour: int = 60
    """Tables one client address may create an hour; more: 429 ``rate_limited``."""
    api_docs: bool = False
    """Serve the OpenAPI description at ``/api/openapi.json`` (no documentation pages)."""

    # ------------------------------------------------------------ limits of the domain
    max_waiting_tables: int = 1000
    """Tables waiting for players, in all. Once reached, an abandoned one (nobody connected
    to it) is given up for each new one, of the address holding the most, its oldest
    first; with none to give up, ``too_many_tables``."""
    waiting_tables_per_address: int = 20
    """Tables of one client address (an IPv6 /64) waiting for players at once; more: 429
    ``rate_limited`` (cancel one, or wait until people join)."""
    max_bot_seats: int = 12
    """Bot seats one client address may have at unfinished tables at once (``too_many_bots``)."""
    bot_work_burst: int = 120
    """Units of bot work one client address (an IPv6 /64), and one account, may start at
    once: bot seats (at new tables and Play now's), hints and analyses all draw on it;
    more: 429 ``too_many_bots`` saying how long to wait."""
    bot_work_per_hour: int = 360
    """Units of bot work that budget refills an hour."""
    bot_work_seat: int = 2
    """Units one bot seat costs (a new table's, or one Play now fills)."""
    bot_work_hint: int = 1
    """Units one hint costs (a search of the strongest bot; asking again is free)."""
    bot_work_analysis: int = 10
    """Units the analysis of a finished game costs (a search at every decision)."""
    analyses_per_address: int = 2
    """Analyses one client address may have under way or waiting at once (of the 8 a
    process runs); more: 503 ``analysis_busy``, so one client cannot hold the queue."""
    finished_in_memory: int = 200
    """Finished tables kept in memory (least recently used leave first; loaded on demand)."""
    waiting_expiry: float = 24 * 3600.0
    """Seconds after which a table still waiting for players expires (never reloaded)."""
    expiry_interval: float = 600.0
    """Seconds between two checks for expired waiting tables."""
    presence_grace: float = 10.0
    """Seconds a seat whose last connection went still shows its last presence (a reload
    or a short loss of network is not "offline"); then it is offline."""
    bot_idle: float = 600.0
    """Seconds without a person connected after which a table's bots stop (until one returns)."""
    bot_deadline: float = 60.0
    """Seconds a bot move may take before a random legal move stands in."""

    chat_spectator_lines: int = 500
    """Lines a table's spectators may write in all (the players' 2,000 are theirs alone);
    more: ``chat_full`` for spectators only."""
    chat_spectator_burst: int = 8
    """Lines spectators at one client address (an IPv6 /64) may write at once, over all
    their connections and tables (per server process)."""
    chat_spectator_rate: float = 0.2
    """Lines a second after that burst (one every 5 s); more: ``rate_limited``."""

    # ------------------------------------------------------------ accounts (issue #10)
    session_idle: float = 14 * 24 * 3600.0
    """Seconds a logged-in session lives without being used."""
    session_max: float = 60 * 24 * 3600.0
    """Seconds a logged-in session lives at most, however often it is used."""
    secure_cookies: bool = False
    """Mark the session cookie ``Secure`` on every answer (it is whenever the request came
    over HTTPS, as the proxy headers tell when ``--forwarded-allow-ips`` trusts the proxy)."""
    login_window: float = 15 * 60.0
    """Seconds over which failed logins are counted (per name and per address)."""
    login_failures_per_name: int = 5
    """Failed logins for one name in the window after which it is locked out."""
    login_failures_per_address: int = 30
    """Failed logins from one address in the window after which it is locked out."""
    lockout_seconds: float = 15 * 60.0
    """Seconds a locked-out name or address waits."""
    signups_per_hour: int = 10
    """Accounts one client address may create an hour."""
    seat_writes_per_account: int = 60
    """Seat links and seat claims (``/api/account/seats``, ``.../claim``) one account may
    make an hour; more: 429 ``rate_limited`` with ``Retry-After``."""
    seat_writes_per_address: int = 180
    """Seat links and seat claims one client address may make an hour (all its accounts)."""

    # ------------------------------------------------------------ people (issue #10)
    playnow_bot_wait: float = 20.0
    """Seconds a Play now ticket waits before its person may fill the table with bots."""
    playnow_ticket_ttl: float = 20.0
    """Seconds without a poll after which a Play now ticket expires (its page went away)."""
    playnow_max_waiting: int = 1000
    """Play now tickets waiting in all; more are refused (``queue_full``)."""
