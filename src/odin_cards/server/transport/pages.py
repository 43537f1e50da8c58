"""The browser client's pages and files: the shell's pages from one template, its static
files, and each game's board files.

Every page is a child of ``templates/base.html``, which writes the head they share (meta,
icon, stylesheets, module scripts), the header, the language menu's slot and the no-script
message; a page fills its blocks (title, its stylesheets and scripts, the body's class).
Nothing is inline: under the strict CSP (:mod:`.headers`) a page is markup, and all it does
comes from module scripts served here. There is no build step: templates and files are
served as they are in the package.

A game's board (``docs/ui.md``, Boards) is served under ``/games/{key}/``, from the package
its plugin names in ``web`` (any importable package, inside this repository or not): its
``board.js``, ``board.css``, ``i18n/<language>.json`` and the modules they import. Only
files that exist there, with a name of plain characters and one of :data:`ASSET_TYPES`'
suffixes, are served: never a package's Python, never a path outside it. A game without a
``web`` package is played on the shell's plain board; the pages learn which games bring a
board from :func:`boards`, written into every page.

A game's package may also bring pages of its own (:data:`GAME_PAGES`: its rules, a
tutorial), served at ``/games/{key}/{page}`` from one template (``game-page.html``) that
loads the game's stylesheet and the shell's ``game-page.js``, which hands ``<main>`` to the
page's module. The addresses Odin's two pages had before games had pages redirect to the
default game's.
"""

from __future__ import annotations

import importlib.resources
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import TemplateNotFound

from odin_cards import games
from odin_cards.server.transport.errors import ApiError

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parents[1]
STATIC = HERE / "static"
"""The shell's files (``/static/...``): scripts, stylesheets, its words, the icon."""
TEMPLATES = HERE / "templates"
"""The pages' templates: ``base.html`` and one child per page."""

PAGES: dict[str, str] = {
    "/": "index.html",
    "/t/{table_id}": "table.html",
    "/t/{table_id}/watch": "table.html",
    "/t/{table_id}/replay": "replay.html",
    "/u/{name}": "profile.html",
    "/leaderboard": "leaderboard.html",
    "/account": "account.html",
}
"""Each page's address and its template (a game's own pages: :data:`GAME_PAGES`)."""

GAME_PAGES = ("rules", "tutorial")
"""The pages a game may bring: ``/games/{key}/{page}``, drawn by ``{page}.js`` of its
``web`` package (``docs/ui.md``, A game's pages)."""

GAME_PAGE_TEMPLATE = "game-page.html"
"""The template of every game's page."""

MOVED: dict[str, str] = {"/static/help.html": "rules", "/static/tutorial.html": "tutorial"}
"""The addresses of Odin's rules and tutorial before games had pages (linked from pages and
bookmarks since the first release): redirected to the default game's page."""

ASSET_TYPES: dict[str, str] = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webp": "image/webp",
    ".woff2": "font/woff2",
}
"""The files a game's ``web`` package may serve, by suffix, with their content types."""

_PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")
"""One part of an asset's path: plain characters, never a leading dot (``..``, hidden)."""

_templates = Jinja2Templates(directory=TEMPLATES)
_broken: set[str] = set()
"""``web`` packages that failed to import (logged once each)."""


@dataclass(frozen=True, slots=True)
class Board:
    """What a game brings to the browser, as the pages need to know it."""

    directory: Path
    """The game's ``web`` package on disk."""
    css: bool
    """Whether it has ``board.css``."""
    words: tuple[str, ...]
    """The languages of its words (``i18n/<language>.json``)."""
    pages: tuple[str, ...] = ()
    """Its own pages (those of :data:`GAME_PAGES` whose module it has), in that order."""


def web_directory(package: str) -> Path | None:
    """The directory of a game's ``web`` package (``None``: it cannot be imported, or is
    not on a file system, e.g. in a zip file). A broken package takes only its own game's
    board down (the plain board stands in), never the pages."""
    try:
        found = importlib.resources.files(package)
    except Exception as error:
        if package not in _broken:
            _broken.add(package)
            log.error("the web package %r cannot be imported: %s: %s", package, type(error), error)
        return None
    path = Path(str(found))
    return path if path.is_dir() else None


def board_of(key: str) -> Board | None:
    """The board of the game ``key``: ``None`` for an unknown game, one without a ``web``
    package, or one whose package has no ``board.js`` (the plain board then)."""
    if key not in games.plugins():
        return None
    package = games.plugin_of(key).web
    directory = None if package is None else web_directory(package)
    if directory is None or not (directory / "board.js").is_file():
        return None
    words = tuple(sorted(p.stem for p in (directory / "i18n").glob("*.json") if p.is_file()))
    own = tuple(page for page in GAME_PAGES if (directory / f"{page}.js").is_file())
    return Board(directory, (directory / "board.css").is_file(), words, own)


def boards() -> dict[str, dict[str, Any]]:
    """Every installed game that brings its own board, in the registry's order: ``{key:
    {"css": bool, "words": [language], "pages": [page]}}``. Every page reads it to load the
    right files (and to link a game's pages); any other game is played on the plain
    board."""
    found: dict[str, dict[str, Any]] = {}
    for key in games.plugins():
        board = board_of(key)
        if board is not None:
            found[key] = {"css": board.css, "words": list(board.words), "pages": list(board.pages)}
    return found


def asset_path(key: str, path: str) -> tuple[Path, str] | None:
    """The file ``path`` of the game ``key``'s ``web`` package and its content type, or
    ``None`` when there is none to serve (unknown game, no package, a name that is not
    plain, a suffix not in :data:`ASSET_TYPES`, a file that does not exist, or a link that
    leads outside the package)."""
    board = board_of(key)
    parts = path.split("/")
    if board is None or not all(_PART.fullmatch(part) for part in parts):
        return None
    kind = ASSET_TYPES.get(Path(parts[-1]).suffix.lower())
    if kind is None:
        return None
    root = board.directory.resolve()
    file = root.joinpath(*parts).resolve()
    if not file.is_relative_to(root) or not file.is_file():
        return None
    return file, kind


def _context(**more: Any) -> dict[str, Any]:
    return {"boards": json.dumps(boards(), separators=(",", ":")), **more}


def game_page_context(key: str, page: str) -> dict[str, Any] | None:
    """What ``game-page.html`` needs to draw the page ``page`` of the game ``key``
    (``None``: the game has no such page)."""
    board = board_of(key)
    if board is None or page not in board.pages:
        return None
    return {"game": key, "page": page, "css": board.css}


def page_html(template: str, **more: Any) -> str:
    """A page's HTML as it is served (for checks that need no request)."""
    return _templates.env.get_template(template).render(_context(**more))


def render(template: str, request: Request, **more: Any) -> Response:
    """A page: its template rendered for ``request`` (``404 no_client`` if the client is
    not installed)."""
    try:
        context = _context(**more)
        return _templates.TemplateResponse(request, template, context, media_type="text/html")
    except TemplateNotFound:
        message = f"the browser client page {template} is not installed"
        raise ApiError(404, "no_client", message) from None


def _page(template: str) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        return render(template, request)

    page.__name__ = f"page_{template.removesuffix('.html')}"
    return page


def _game_page(page: str) -> Callable[[Request, str], Awaitable[Response]]:
    async def game_page(request: Request, key: str) -> Response:
        """``GET /games/{key}/{page}``: a page of a game's own (its rules, its tutorial),
        or ``404 not_found`` for a game without it."""
        more = game_page_context(key, page)
        if more is None:
            raise ApiError(404, "not_found", "no such page")
        return render(GAME_PAGE_TEMPLATE, request, **more)

    game_page.__name__ = f"game_page_{page}"
    return game_page


def _moved(page: str) -> Callable[[], Awaitable[Response]]:
    async def moved() -> Response:
        return RedirectResponse(f"/games/{games.default_key()}/{page}", status_code=301)

    moved.__name__ = f"moved_{page}"
    return moved


async def game_asset(key: str, path: str) -> Response:
    """``GET /games/{key}/{path}``: a file of a game's board, or ``404 not_found``."""
    found = asset_path(key, path)
    if found is None:
        raise ApiError(404, "not_found", "no such file")
    file, kind = found
    return FileResponse(file, media_type=kind)


def install_pages(app: FastAPI) -> None:
    """Serve the pages, the games' pages and board files, and the shell's static files."""
    both = ["GET", "HEAD"]
    for path, template in PAGES.items():
        app.add_api_route(path, _page(template), methods=both, include_in_schema=False)
    # Before /static, which would answer them with 404.
    for path, page in MOVED.items():
        app.add_api_route(path, _moved(page), methods=both, include_in_schema=False)
    for page in GAME_PAGES:  # before the board files' route, which would answer 404
        app.add_api_route(
            f"/games/{{key}}/{page}", _game_page(page), methods=both, include_in_schema=False
        )
    app.add_api_route("/games/{key}/{path:path}", game_asset, methods=both, include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")


__all__ = [
    "ASSET_TYPES",
    "GAME_PAGES",
    "GAME_PAGE_TEMPLATE",
    "MOVED",
    "PAGES",
    "STATIC",
    "TEMPLATES",
    "Board",
    "asset_path",
    "board_of",
    "boards",
    "game_page_context",
    "install_pages",
    "page_html",
    "render",
    "web_directory",
]
