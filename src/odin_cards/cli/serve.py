"""``odin serve``: the web server for playing Odin in the browser."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer

from odin_cards.cli.app import CommandError, OdinCommand
from odin_cards.cli.database import DatabaseUrl, DataDir, check_database_url

LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


def serve_command(
    host: Annotated[str, typer.Option("--host", help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8000,
    data_dir: DataDir = Path("data"),
    database_url: DatabaseUrl = None,
    bot_delay: Annotated[
        float,
        typer.Option("--bot-delay", min=0, help="Mean seconds a bot waits before moving."),
    ] = 0.9,
    workers: Annotated[
        int,
        typer.Option("--workers", min=0, help="Bot processes (0: a thread of the server)."),
    ] = max(1, min(4, (os.cpu_count() or 2) - 1)),
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            help="Another origin whose pages may connect (repeatable), e.g. behind a proxy.",
        ),
    ] = None,
    rate_limit: Annotated[
        float,
        typer.Option("--rate-limit", min=1, help="Messages a second per WebSocket connection."),
    ] = 20.0,
    tables_per_hour: Annotated[
        int,
        typer.Option("--tables-per-hour", min=1, help="Tables one client address may create."),
    ] = 60,
    signups_per_hour: Annotated[
        int,
        typer.Option("--signups-per-hour", min=1, help="Accounts one client address may create."),
    ] = 10,
    secure_cookies: Annotated[
        bool,
        typer.Option(
            "--secure-cookies",
            help="Mark the session cookie Secure always (it is whenever the request came "
            "over HTTPS, as a trusted proxy's X-Forwarded-Proto tells).",
        ),
    ] = False,
    connections_per_ip: Annotated[
        int,
        typer.Option(
            "--connections-per-ip", min=1, help="Open WebSockets one client address may hold."
        ),
    ] = 32,
    max_connections: Annotated[
        int,
        typer.Option("--max-connections", min=1, help="Open WebSockets in all."),
    ] = 4000,
    unfinished_per_ip: Annotated[
        int,
        typer.Option(
            "--unfinished-per-ip",
            min=1,
            help="HTTP connections one client address may hold before their request has "
            "fully arrived.",
        ),
    ] = 64,
    hello_timeout: Annotated[
        float,
        typer.Option(
            "--hello-timeout",
            min=0.1,
            help="Seconds a new WebSocket has to say hello (a connection: to send a request).",
        ),
    ] = 5.0,
    send_queue: Annotated[
        int,
        typer.Option(
            "--send-queue",
            min=16,
            help="KiB queued for one WebSocket before a client that does not read is dropped.",
        ),
    ] = 1024,
    max_body: Annotated[
        int,
        typer.Option("--max-body", min=1, help="Largest HTTP request body in KiB."),
    ] = 64,
    max_waiting_tables: Annotated[
        int,
        typer.Option("--max-waiting-tables", min=1, help="Tables waiting for players, in all."),
    ] = 1000,
    bot_seats_per_ip: Annotated[
        int,
        typer.Option(
            "--bot-seats-per-ip",
            min=0,
            help="Bot seats one client address may have at unfinished tables.",
        ),
    ] = 12,
    waiting_tables_per_ip: Annotated[
        int,
        typer.Option(
            "--waiting-tables-per-ip",
            min=1,
            help="Tables of one client address (an IPv6 /64) waiting for players at once.",
        ),
    ] = 20,
    bot_work_burst: Annotated[
        int,
        typer.Option(
            "--bot-work-burst",
            min=1,
            help="Units of bot work (a bot seat 2, a hint 1, an analysis 10) one client "
            "address, and one account, may start at once.",
        ),
    ] = 120,
    bot_work_per_hour: Annotated[
        int,
        typer.Option(
            "--bot-work-per-hour",
            min=1,
            help="Units of bot work that budget refills an hour.",
        ),
    ] = 360,
    playnow_bot_wait: Annotated[
        float,
        typer.Option(
            "--playnow-bot-wait",
            min=0,
            help="Seconds a person waits in Play now before bots may fill the table.",
        ),
    ] = 20.0,
    finished_in_memory: Annotated[
        int,
        typer.Option(
            "--finished-in-memory",
            min=0,
            help="Finished tables kept in memory (least recent leave).",
        ),
    ] = 200,
    bot_latency: Annotated[
        float,
        typer.Option(
            "--bot-latency",
            min=0.1,
            help="Seconds a bot move should take at most under load (search thinks less).",
        ),
    ] = 2.0,
    bot_memory: Annotated[
        int,
        typer.Option(
            "--bot-memory",
            min=0,
            help="MiB of memory one bot worker process may use (0: no cap); a move that "
            "needs more gets a random stand-in and the worker is replaced.",
        ),
    ] = 2048,
    api_docs: Annotated[
        bool,
        typer.Option("--api-docs", help="Serve the OpenAPI description at /api/openapi.json."),
    ] = False,
    redis_url: Annotated[
        str | None,
        typer.Option(
            "--redis-url",
            envvar="ODIN_REDIS_URL",
            show_envvar=True,
            help="Run as one of several processes sharing the PostgreSQL database through "
            "this Redis (redis://host:6379/0).",
        ),
    ] = None,
    redis_prefix: Annotated[
        str,
        typer.Option("--redis-prefix", help="Prefix of the Redis channels (one per cluster)."),
    ] = "odin:",
    lease_seconds: Annotated[
        float,
        typer.Option(
            "--lease-seconds",
            min=0.5,
            max=60,
            help="Seconds after a process stops renewing its leases that others take its "
            "tables over.",
        ),
    ] = 3.0,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn log level.")] = "info",
) -> None:
    """Serve the lobby, the tables and the browser client (http://HOST:PORT/)."""
    from odin_cards.extras import require

    require("server", "odin serve")
    from odin_cards.server.app import create_app
    from odin_cards.server.settings import Settings, sqlite_url
    from odin_cards.server.transport.uvicorn_config import server_config

    if log_level not in LOG_LEVELS:
        raise typer.BadParameter(f"--log-level is one of {', '.join(LOG_LEVELS)}")

    if redis_url is not None:
        if database_url is None or not database_url.startswith("postgresql"):
            raise CommandError("--redis-url needs a PostgreSQL --database-url (several processes)")
        from odin_cards.server.adapters.redis_url import RedisUrlError, check_redis_url

        try:
            check_redis_url(redis_url)
        except RedisUrlError as error:
            raise CommandError(str(error)) from None
    if database_url is None:
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(f"cannot make {data_dir}: {error.strerror or error}") from None
        database_url = sqlite_url(data_dir)
    else:
        check_database_url(database_url)
    from odin_cards.server.adapters import check_database
    from odin_cards.server.core.ports import DatabaseInUse, StoreUnavailable

    try:  # a second server on this database, or none to reach: one line, before starting
        check_database(database_url, shared=redis_url is not None)
    except (DatabaseInUse, StoreUnavailable) as error:
        raise CommandError(str(error)) from None
    if redis_url is not None:
        _check_redis(redis_url)
    settings = Settings(
        database_url=database_url,
        redis_url=redis_url,
        redis_prefix=redis_prefix,
        lease_seconds=lease_seconds,
        bot_delay=bot_delay,
        bot_workers=workers,
        allowed_origins=tuple(allow_origin or ()),
        rate=rate_limit,
        burst=max(1, round(rate_limit)),
        tables_per_hour=tables_per_hour,
        signups_per_hour=signups_per_hour,
        secure_cookies=secure_cookies,
        sockets_per_ip=connections_per_ip,
        sockets=max_connections,
        hello_timeout=hello_timeout,
        unfinished_per_ip=unfinished_per_ip,
        send_queue_bytes=send_queue * 1024,
        max_body=max_body * 1024,
        api_docs=api_docs,
        max_waiting_tables=max_waiting_tables,
        max_bot_seats=bot_seats_per_ip,
        waiting_tables_per_address=waiting_tables_per_ip,
        bot_work_burst=bot_work_burst,
        bot_work_per_hour=bot_work_per_hour,
        playnow_bot_wait=playnow_bot_wait,
        finished_in_memory=finished_in_memory,
        bot_target_latency=bot_latency,
        bot_memory=bot_memory * 1024 * 1024,
    )
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s: %(name)s: %(message)s")
    app = create_app(settings)
    config = server_config(
        app,
        settings,
        host=host,
        port=port,
        log_level=log_level,
        timeout_graceful_shutdown=5,
    )
    _draining_server()(config, app).run()


def _check_redis(url: str) -> None:
    """One line, before starting, if Redis cannot be reached or refuses the URL's user and
    password (the line never shows the password)."""
    from redis import Redis
    from redis.exceptions import RedisError

    from odin_cards.server.adapters.redis_url import explain

    try:
        with Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3) as redis:
            redis.ping()
    except (RedisError, OSError, ValueError) as error:
        raise CommandError(explain(error, url)) from None


def _draining_server() -> type:
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn that, on SIGTERM or Ctrl-C, starts handing tables over at once."""

        def __init__(self, config: uvicorn.Config, app: Any) -> None:
            super().__init__(config)
            self.odin_app = app

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            from odin_cards.server.app import begin_drain

            if not self.should_exit:
                begin_drain(self.odin_app)
            super().handle_exit(sig, frame)

    return Server


def register(app: typer.Typer) -> None:
    app.command("serve", cls=OdinCommand)(serve_command)
