"""The ASGI application: lobby API, WebSocket play, the browser client's pages and files."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from .adapters import open_database
from .adapters.bot_runner import ProcessBotRunner
from .domain.broadcast import MemoryBroadcaster
from .domain.clock import SystemClock
from .domain.hall import Hall
from .settings import Settings
from .transport import errors
from .transport.api import router
from .transport.connection import EdgeStats
from .transport.errors import ApiError
from .transport.headers import SecurityHeaders
from .transport.http_limits import BodyLimit
from .transport.quotas import Quotas
from .transport.ws import endpoint

STATIC = Path(__file__).parent / "static"
PAGES = {
    "/": "index.html",
    "/t/{table_id}": "table.html",
    "/t/{table_id}/watch": "table.html",
    "/t/{table_id}/replay": "replay.html",
}

log = logging.getLogger(__name__)


def create_app(settings: Settings) -> FastAPI:
    """The server for ``settings``; the database is migrated and tables resumed on start."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with open_database(settings.database_url) as database:
            bots = ProcessBotRunner.from_settings(settings)
            clock = SystemClock()
            hall = Hall(database.store, database.log, bots, MemoryBroadcaster(), clock, settings)
            app.state.hall = hall
            app.state.settings = settings
            await hall.start()
            # Everything loaded so far (modules, resumed tables) lives as long as the server:
            # keep it out of the garbage collector's scans. With thousands of connections a
            # full collection stalls every table for tens of milliseconds (hundreds on a
            # busy machine), so collect young objects in larger steps and fully more rarely.
            gc.freeze()
            gc.set_threshold(50_000, 20, 20)
            try:
                yield
            finally:
                await hall.stop()
                bots.close()

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
    # The last added runs first: headers on every answer, then the body cap, then JSON
    # for any failure nobody handled.
    app.add_middleware(errors.CatchAll)
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(SecurityHeaders)
    app.include_router(router)
    app.add_api_websocket_route("/ws/{table_id}", endpoint)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    for path, page in PAGES.items():
        app.add_api_route(path, _page(page), methods=["GET", "HEAD"], include_in_schema=False)

    errors.install(app)
    return app


def _page(name: str) -> Callable[[], Awaitable[Response]]:
    async def page() -> Response:
        path = STATIC / name
        if not path.is_file():
            raise ApiError(404, "no_client", f"the browser client page {name} is not installed")
        return FileResponse(path, media_type="text/html")

    page.__name__ = f"page_{name.removesuffix('.html')}"
    return page
