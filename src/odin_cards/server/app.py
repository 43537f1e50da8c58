"""The ASGI application: lobby API, WebSocket play, the browser client's pages and files."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from .api import router
from .bots import BotPool
from .db import make_engine, migrate
from .hall import Hall
from .journal import Journal
from .settings import Settings
from .table import ApiError
from .ws import endpoint

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
        engine = make_engine(settings.database_url)
        await migrate(engine)
        journal = Journal(engine)
        journal.start()
        bots = BotPool(settings.bot_workers)
        hall = Hall(engine, journal, bots, settings)
        app.state.hall = hall
        app.state.settings = settings
        await hall.start()
        # Everything loaded so far (modules, resumed tables) lives as long as the server:
        # keep it out of the garbage collector's scans. With thousands of connections a
        # full collection stalls every table for tens of milliseconds (hundreds on a busy
        # machine), so collect young objects in larger steps and fully much more rarely.
        gc.freeze()
        gc.set_threshold(50_000, 20, 20)
        try:
            yield
        finally:
            await hall.stop()
            await journal.stop()
            bots.close()
            await engine.dispose()

    app = FastAPI(title="odin-cards", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.include_router(router)
    app.add_api_websocket_route("/ws/{table_id}", endpoint)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    for path, page in PAGES.items():
        app.add_api_route(path, _page(page), methods=["GET"], include_in_schema=False)

    @app.exception_handler(ApiError)
    async def api_error(_: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"error": error.code, "message": error.message}, error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        problem = error.errors()[0]
        where = ".".join(str(p) for p in problem["loc"] if p != "body") or "body"
        message = f"{where}: {problem['msg']}"
        return JSONResponse({"error": "invalid", "message": message}, 422)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, error: HTTPException) -> JSONResponse:
        code = "not_found" if error.status_code == 404 else "http_error"
        return JSONResponse({"error": code, "message": str(error.detail)}, error.status_code)

    return app


def _page(name: str) -> Callable[[], Awaitable[Response]]:
    async def page() -> Response:
        path = STATIC / name
        if not path.is_file():
            raise ApiError(404, "no_client", f"the browser client page {name} is not installed")
        return FileResponse(path, media_type="text/html")

    page.__name__ = f"page_{name.removesuffix('.html')}"
    return page
