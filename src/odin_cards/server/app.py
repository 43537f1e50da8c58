"""The ASGI application: lobby API, WebSocket play, the browser client's pages and files."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

from fastapi import FastAPI
from redis.exceptions import RedisError

from odin_cards.server.adapters import open_database
from odin_cards.server.adapters.analyst import WorkerAnalyst
from odin_cards.server.adapters.bot_runner import ProcessBotRunner
from odin_cards.server.adapters.metrics import PrometheusMetrics
from odin_cards.server.adapters.redis_bus import RedisMessaging
from odin_cards.server.adapters.redis_url import explain
from odin_cards.server.core.clock import SystemClock
from odin_cards.server.core.features.analysis import TableAnalyses
from odin_cards.server.core.features.hints import TableHints
from odin_cards.server.core.people.accounts import Accounts
from odin_cards.server.core.people.ratings import Results
from odin_cards.server.core.ports import Storage, StoreUnavailable
from odin_cards.server.core.tables.cluster import ClusterPorts
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.settings import Settings
from odin_cards.server.transport import auth, errors
from odin_cards.server.transport.accounts_api import router as accounts_router
from odin_cards.server.transport.analysis_api import router as analysis_router
from odin_cards.server.transport.api import router
from odin_cards.server.transport.bodies import ControlledUrls
from odin_cards.server.transport.connection import EdgeStats
from odin_cards.server.transport.headers import SecurityHeaders
from odin_cards.server.transport.http_limits import BodyLimit
from odin_cards.server.transport.ops import drain, install_ops
from odin_cards.server.transport.pages import install_pages
from odin_cards.server.transport.people_api import router as people_router
from odin_cards.server.transport.people_routes import router as people_routes
from odin_cards.server.transport.people_routes import start_people
from odin_cards.server.transport.quotas import Quotas
from odin_cards.server.transport.ws import endpoint

log = logging.getLogger(__name__)


def process_id() -> str:
    """A name for this server process, unique for its life (host, pid, random)."""
    return f"{socket.gethostname()[:20]}-{os.getpid()}-{secrets.token_hex(3)}"


class ServerProbes:
    """What ``/readyz`` and ``/metrics`` read of the running server (ops's ``Probes``)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    async def database_ok(self) -> bool:
        storage: Storage | None = getattr(self.app.state, "database", None)
        return storage is not None and await storage.healthy()

    async def redis_ok(self) -> bool | None:
        messaging: RedisMessaging | None = getattr(self.app.state, "messaging", None)
        if messaging is None:
            return None
        return await messaging.ping()

    def _hall(self) -> Hall | None:
        return getattr(self.app.state, "hall", None)

    def leases_held(self) -> int:
        hall = self._hall()
        return 0 if hall is None else hall.leases_held()

    def tables_by_state(self) -> dict[str, int]:
        hall = self._hall()
        counts: dict[str, int] = {}
        for table in hall.tables.values() if hall is not None else ():
            counts[table.status] = counts.get(table.status, 0) + 1
        return counts

    def connections(self) -> int:
        quotas: Quotas = self.app.state.quotas
        return quotas.sockets

    def bot_queue_length(self) -> int:
        bots: ProcessBotRunner | None = getattr(self.app.state, "bots", None)
        return 0 if bots is None else bots.queued()


def create_app(settings: Settings) -> FastAPI:
    """The server for ``settings``; the database is migrated and tables resumed on start.

    With ``settings.redis_url`` the server is one of several processes sharing a
    PostgreSQL database: tables are owned through leases and followed through Redis
    (``docs/server.md``, Several processes)."""
    metrics = PrometheusMetrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        clustered = settings.redis_url is not None
        me = process_id()
        async with AsyncExitStack() as stack:
            database = await stack.enter_async_context(
                open_database(
                    settings.database_url, me if clustered else None, settings.lease_seconds
                )
            )
            app.state.database = database
            ports = None
            if settings.redis_url is not None:
                messaging = RedisMessaging(settings.redis_url, settings.redis_prefix, me)
                try:
                    await messaging.start()
                except (RedisError, OSError) as error:
                    await messaging.stop()
                    raise StoreUnavailable(explain(error, settings.redis_url)) from None
                stack.push_async_callback(messaging.stop)
                app.state.messaging = messaging
                assert database.leases is not None  # opened as one of several processes
                ports = ClusterPorts(database.leases, messaging, messaging, settings.lease_seconds)
            bots = ProcessBotRunner.from_settings(settings)
            stack.callback(bots.close)
            app.state.bots = bots
            clock = SystemClock()
            hall = Hall(
                database.store,
                database.log,
                bots,
                clock,
                settings,
                cluster=ports,
                metrics=metrics,
                social=database.social,
            )
            app.state.hall = hall
            app.state.accounts = Accounts(database.accounts, clock, settings)
            results = Results(database.ratings, hall.get, clock, hall.spawn)
            hall.on_finished.append(results.finished)  # ratings and profiles' results
            app.state.results = results
            app.state.profiles = database.profiles
            start_people(app, database, hall, clock, settings)  # Play now, friends
            analyst = WorkerAnalyst()
            stack.callback(analyst.close)
            analyses = TableAnalyses(
                analyst, bot_work=hall.bot_work, per_address=settings.analyses_per_address
            )
            stack.callback(analyses.close)
            app.state.analyses = analyses
            app.state.hints = TableHints(bots, hall.bot_work)
            app.state.settings = settings
            stack.push_async_callback(hall.stop)
            stack.push_async_callback(hall.hand_over)  # runs first: leases go at once
            stack.callback(drain, app)
            await hall.start()
            hall.spawn(results.run())  # finished tables left unsettled, then every 5 min
            # Everything loaded so far (modules, resumed tables) lives as long as the server:
            # keep it out of the garbage collector's scans. A collection stalls every table,
            # for as long as it scans: young objects are collected in steps of 5,000 (a few
            # milliseconds) and the middle generation every 10 of them, the oldest more
            # rarely than Python's default. Larger steps (50,000 and 20) made a middle
            # collection under 1,000 tables take half a second: a p99 of 590 ms instead of
            # 51 (bench/load.py --setups one --tables 1000).
            gc.freeze()
            gc.set_threshold(5_000, 10, 20)
            yield

    app = FastAPI(
        title="odin-cards",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json" if settings.api_docs else None,
    )
    app.state.settings = settings
    app.state.quotas = Quotas(settings)
    app.state.edge = EdgeStats()
    # The last added runs first: headers on every answer, then the body cap, then no
    # control character in the path or query, then JSON for any failure nobody handled.
    app.add_middleware(errors.CatchAll)
    app.add_middleware(ControlledUrls)
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(SecurityHeaders)
    app.include_router(router)
    app.include_router(analysis_router)
    app.include_router(people_router)
    app.include_router(people_routes)
    app.include_router(accounts_router)
    app.add_api_websocket_route("/ws/{table_id}", endpoint)
    install_ops(app, ServerProbes(app), metrics)
    install_pages(app)

    errors.install(app)
    auth.install(app)
    return app


def begin_drain(app: FastAPI) -> None:
    """A graceful stop begins (SIGTERM): ``/readyz`` answers 503 and, with several
    processes, every table is handed over now, while connections are being closed."""
    drain(app)
    hall: Hall | None = getattr(app.state, "hall", None)
    if hall is not None:
        # Called from a signal handler: start the hand-over from the event loop itself.
        loop = asyncio.get_running_loop()
        loop.call_soon_threadsafe(lambda: hall.spawn(hall.hand_over()))
