"""The browser client's pages and the games' board files (``transport/pages.py``): every
page's head comes from the one template under the strict CSP; a game's board files and
its own pages (rules, tutorial) are served from its plugin's ``web`` package, wherever
that package is installed, and nothing else is: no other game, no Python, no path out of
the package; the old addresses of Odin's two pages redirect to the default game's."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Iterator
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from fastapi import Request

from odin_cards import games
from odin_cards.plugin import GamePlugin
from odin_cards.server.app import create_app
from odin_cards.server.settings import Settings
from odin_cards.server.transport.errors import ApiError
from odin_cards.server.transport.headers import CSP
from odin_cards.server.transport.pages import PAGES, asset_path, board_of, boards, render

LANGUAGES = ["ca", "de", "en", "fr", "sv"]
ODIN = {"css": True, "words": LANGUAGES, "pages": ["rules", "tutorial"]}
"""What the pages say of Odin's board: a stylesheet, its words, its two pages."""
GAME_PAGES = ("/games/odin/rules", "/games/odin/tutorial")


@pytest.fixture
async def http(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    """The server's HTTP side in this process (pages and files need no lifespan)."""
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'odin.db'}")
    transport = httpx.ASGITransport(app=create_app(settings))
    async with httpx.AsyncClient(transport=transport, base_url="http://odin.test") as client:
        yield client


class _Head(HTMLParser):
    """What a page's head and header hold: its tags with their attributes, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inline: list[str] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        self.tags.append((tag, named))
        if (tag == "script" and "src" not in named) or tag == "style" or "style" in named:
            self.inline.append(tag)
        self.inline += [f"{tag} {name}" for name in named if name.startswith("on")]

    def of(self, tag: str, **attrs: str) -> list[dict[str, str | None]]:
        wanted = attrs.items()
        return [a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in wanted)]


def _parsed(html: str) -> _Head:
    head = _Head()
    head.feed(html)
    return head


def _address(path: str) -> str:
    return path.replace("{table_id}", "abc123").replace("{name}", "ada")


async def test_every_page_has_the_templates_head_under_the_csp(http: httpx.AsyncClient) -> None:
    shared: list[tuple[str, dict[str, str | None]]] | None = None
    for path in [*PAGES, *GAME_PAGES]:
        answer = await http.get(_address(path))
        assert answer.status_code == 200, path
        assert answer.headers["content-type"] == "text/html; charset=utf-8", path
        assert answer.headers["content-security-policy"] == CSP, path
        page = _parsed(answer.text)
        assert page.inline == [], (path, page.inline)
        assert page.of("meta", charset="utf-8") and page.of("meta", name="viewport"), path
        assert page.of("link", rel="icon", href="/static/favicon.svg"), path
        sheets = [a["href"] for a in page.of("link", rel="stylesheet")]
        assert sheets[0] == "/static/css/odin.css" and sheets[-1] == "/static/css/theme.css"
        scripts = page.of("script", type="module")  # and no other script (inline: above)
        sources = [str(script["src"]) for script in scripts]
        assert sources and all(s.startswith(("/static/js/", "/games/")) for s in sources), path
        assert page.of("header", **{"class": "top"}) and page.of("div", **{"class": "header-lang"})
        assert page.of("main", id="main") and page.of("noscript"), path
        # The rest of the head is the template's, the same on every page.
        common = [
            (tag, attrs)
            for tag, attrs in page.tags
            if tag in ("meta", "link") and attrs.get("rel") != "stylesheet"
            if attrs.get("name") not in ("odin-boards", "odin-game", "odin-game-page")
        ]
        shared = common if shared is None else shared
        assert common == shared, path
        head = await http.head(_address(path))
        assert head.status_code == 200 and head.content == b"", path


async def test_every_page_names_the_games_with_a_board(http: httpx.AsyncClient) -> None:
    for path in [*PAGES, *GAME_PAGES]:
        page = _parsed((await http.get(_address(path))).text)
        [meta] = page.of("meta", name="odin-boards")
        listed = json.loads(str(meta["content"]))
        # In the Name of Odin has no board of its own: it is played on the plain board.
        assert listed == {"odin": ODIN}, path


async def test_a_games_own_pages(http: httpx.AsyncClient) -> None:
    """Odin's rules and tutorial: the game's stylesheet and the shell's page script, which
    hands the page to the game's module (served as a board file)."""
    for page in ("rules", "tutorial"):
        answer = await http.get(f"/games/odin/{page}")
        assert answer.status_code == 200, page
        head = _parsed(answer.text)
        sheets = [a["href"] for a in head.of("link", rel="stylesheet")]
        assert sheets == ["/static/css/odin.css", "/games/odin/board.css", "/static/css/theme.css"]
        scripts = [a["src"] for a in head.of("script", type="module")]
        assert scripts == ["/static/js/game-page.js"], page
        assert head.of("meta", name="odin-game", content="odin"), page
        assert head.of("meta", name="odin-game-page", content=page), page
        assert head.of("body", **{"class": f"page-{page}"}), page
        assert not head.of("nav", id="account-bar"), page  # no accounts on these pages
        module = await http.get(f"/games/odin/{page}.js")
        assert module.status_code == 200 and "export function start" in module.text, page
    for path in ("/games/name-of-odin/rules", "/games/chess/rules", "/games/odin/help"):
        answer = await http.get(path)
        assert answer.status_code == 404, path
        assert answer.json()["error"] == "not_found", path


async def test_the_old_addresses_of_odins_pages_redirect(http: httpx.AsyncClient) -> None:
    for old, new in (
        ("/static/help.html", "/games/odin/rules"),
        ("/static/tutorial.html", "/games/odin/tutorial"),
    ):
        for method in ("GET", "HEAD"):
            answer = await http.request(method, old)
            assert answer.status_code == 301, (method, old)
            assert answer.headers["location"] == new, (method, old)
            assert answer.headers["content-security-policy"] == CSP, (method, old)
        assert (await http.get(old, follow_redirects=True)).status_code == 200, old


def test_a_page_whose_template_is_missing_is_no_client() -> None:
    request = Request({"type": "http", "method": "GET", "path": "/", "headers": []})
    with pytest.raises(ApiError) as refused:
        render("nothing.html", request)
    assert (refused.value.status, refused.value.code) == (404, "no_client")


async def test_a_games_board_files_are_served_with_their_types(http: httpx.AsyncClient) -> None:
    expected = {
        "/games/odin/board.js": "text/javascript; charset=utf-8",
        "/games/odin/table-state.js": "text/javascript; charset=utf-8",
        "/games/odin/board.css": "text/css; charset=utf-8",
        "/games/odin/i18n/de.json": "application/json",
    }
    for path, kind in expected.items():
        answer = await http.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["content-type"] == kind, path
        assert answer.headers["content-security-policy"] == CSP, path
        assert answer.headers["x-content-type-options"] == "nosniff", path
    words = (await http.get("/games/odin/i18n/en.json")).json()
    assert words["turn_you_lead"] == "Your turn: lead one card"


async def test_nothing_else_is_served_under_games(http: httpx.AsyncClient) -> None:
    for path in (
        "/games/chess/board.js",  # no such game
        "/games/name-of-odin/board.js",  # a game without a board: the shell's plain board
        "/games/odin/presenter.py",  # the package's Python
        "/games/odin/__init__.py",
        "/games/odin/nothing.js",
        "/games/odin/i18n",  # a folder
        "/games/odin/i18n/",
        "/games/odin/",
        "/games/odin/%2e%2e/plugin.py",
        "/games/odin/..%2fplugin.py",
        "/games/odin/i18n/%2e%2e/presenter.py",
        "/games/odin/.board.js",
    ):
        answer = await http.get(path)
        assert answer.status_code == 404, path
        assert answer.json()["error"] == "not_found", path
        assert answer.headers["content-security-policy"] == CSP, path
    # A control character in the path is refused before routing (transport/bodies.py).
    answer = await http.get("/games/odin/board.js%00.css")
    assert answer.status_code == 422 and answer.json()["error"] == "bad_text"
    assert answer.headers["content-security-policy"] == CSP


def test_paths_out_of_the_package_are_refused() -> None:
    assert asset_path("odin", "board.js") is not None
    for path in ("../plugin.py", "../web/board.js", "i18n/../board.js", "/etc/passwd", "", "a//b"):
        assert asset_path("odin", path) is None, path


@pytest.fixture
def outside(tmp_path: Path) -> Iterator[GamePlugin]:
    """A game whose board is a package outside this repository, found on ``sys.path``,
    with a link in it that leads out of the package."""
    package = tmp_path / "site" / "tiny_board_web"
    (package / "i18n").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "board.js").write_text("export function mount() {}\n")
    (package / "i18n" / "en.json").write_text('{"tiny_word": "Tiny"}\n')
    (tmp_path / "secret.js").write_text("secret\n")
    (package / "leak.js").symlink_to(tmp_path / "secret.js")
    plugin = GamePlugin(
        key="tiny", name="Tiny", rules="odin_cards.odin.rules.odin:ODIN", web="tiny_board_web"
    )
    sys.path.insert(0, str(tmp_path / "site"))
    try:
        with games.registered(plugin):
            yield plugin
    finally:
        sys.path.remove(str(tmp_path / "site"))
        sys.modules.pop("tiny_board_web", None)


async def test_a_board_from_a_package_outside_the_repository(
    http: httpx.AsyncClient, outside: GamePlugin
) -> None:
    assert boards()[outside.key] == {"css": False, "words": ["en"], "pages": []}
    board = await http.get("/games/tiny/board.js")
    assert board.status_code == 200 and board.text == "export function mount() {}\n"
    assert (await http.get("/games/tiny/i18n/en.json")).json() == {"tiny_word": "Tiny"}
    for path in (
        "/games/tiny/board.css",
        "/games/tiny/leak.js",
        "/games/tiny/__init__.py",
        "/games/tiny/rules",  # a board without pages of its own
    ):
        assert (await http.get(path)).status_code == 404, path
    page = _parsed((await http.get("/t/abc123")).text)
    [meta] = page.of("meta", name="odin-boards")
    assert json.loads(str(meta["content"]))["tiny"] == {"css": False, "words": ["en"], "pages": []}
    own = board_of(outside.key)
    assert own is not None
    (own.directory / "rules.js").write_text("export function start() {}\n")
    answer = await http.get("/games/tiny/rules")  # now it has one, and no stylesheet
    assert answer.status_code == 200
    sheets = [a["href"] for a in _parsed(answer.text).of("link", rel="stylesheet")]
    assert sheets == ["/static/css/odin.css", "/static/css/theme.css"]
    assert boards()[outside.key]["pages"] == ["rules"]


async def test_a_broken_web_package_leaves_its_game_on_the_plain_board(
    http: httpx.AsyncClient, tmp_path: Path
) -> None:
    """A package that cannot be imported takes no page down: its game is listed with no
    board (the plain board stands in) and its files are 404."""
    site = tmp_path / "site"
    (site / "broken_board_web").mkdir(parents=True)
    (site / "broken_board_web" / "__init__.py").write_text("raise RuntimeError('broken')\n")
    (site / "broken_board_web" / "board.js").write_text("export function mount() {}\n")
    plugins = [
        GamePlugin(key=key, name=key, rules="odin_cards.odin.rules.odin:ODIN", web=web)
        for key, web in (("gone", "no_such_board_package"), ("broken", "broken_board_web"))
    ]
    sys.path.insert(0, str(site))
    try:
        with games.registered(*plugins):
            assert "gone" not in boards() and "broken" not in boards()
            assert (await http.get("/t/abc123")).status_code == 200
            for path in ("/games/gone/board.js", "/games/broken/board.js"):
                assert (await http.get(path)).status_code == 404, path
    finally:
        sys.path.remove(str(site))
        sys.modules.pop("broken_board_web", None)
