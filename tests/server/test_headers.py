"""Security headers on every answer, pages that run under them, API docs off by default."""

from __future__ import annotations

import dataclasses
from html.parser import HTMLParser

from odin_cards.server.settings import Settings
from odin_cards.server.transport.pages import PAGES, page_html

from .harness import Server, new_table, running

EXPECTED = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}


def _directives(csp: str) -> dict[str, list[str]]:
    parts = (d.split() for d in csp.split(";") if d.strip())
    return {words[0]: words[1:] for words in parts}


async def test_every_answer_has_the_security_headers(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2)
        answers = {
            "page": await http.get("/"),
            "table page": await http.get(f"/t/{table['id']}"),
            "script": await http.get("/static/js/home.js"),
            "style": await http.get("/static/css/odin.css"),
            "missing file": await http.get("/static/js/nothing.js"),
            "json": await http.get("/api/levels"),
            "json error": await http.get("/api/tables/nosuchtable"),
            "validation": await http.post("/api/tables", json={"players": "x"}),
            "wrong method": await http.delete("/api/levels"),
            "too large": await http.post("/api/tables", content=b"x" * 100_000),
        }
    for what, answer in answers.items():
        for name, value in EXPECTED.items():
            assert answer.headers.get(name) == value, (what, name, answer.headers)
        csp = _directives(answer.headers["content-security-policy"])
        assert csp["script-src"] == ["'self'"], what
        assert csp["frame-ancestors"] == ["'none'"], what
        assert csp["object-src"] == ["'none'"], what
        assert "'unsafe-inline'" not in str(csp), what
        if answer.status_code >= 400:
            assert answer.headers["content-type"] == "application/json", what
            assert answer.json()["error"], what


class _InlineFinder(HTMLParser):
    """Everything in a page that a strict CSP blocks: inline scripts, handlers, styles."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._tag = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag = tag
        names = {name for name, _ in attrs}
        if tag == "script" and "src" not in names:
            self.problems.append("inline <script>")
        if tag == "style":
            self.problems.append("<style> element")
        self.problems += [f"{tag} {name}=" for name in names if name.startswith("on")]
        if "style" in names:
            self.problems.append(f"{tag} style=")
        for name, value in attrs:
            if name in ("href", "src") and value and value.strip().startswith(("http", "//")):
                self.problems.append(f"third-party {value}")


def test_the_pages_have_nothing_inline() -> None:
    pages = sorted(set(PAGES.values()))
    assert pages
    for page in pages:
        finder = _InlineFinder()
        finder.feed(page_html(page))
        assert finder.problems == [], (page, finder.problems)


async def test_api_docs_are_off_by_default(settings: Settings) -> None:
    async with running(settings) as server, server.http() as http:
        for path in ("/api/docs", "/docs", "/redoc", "/api/openapi.json", "/openapi.json"):
            answer = await http.get(path)
            assert answer.status_code == 404, path
    on = dataclasses.replace(settings, api_docs=True)
    async with running(on) as documented, documented.http() as http:
        schema = await http.get("/api/openapi.json")
        assert schema.status_code == 200 and "/api/tables" in schema.json()["paths"]
        assert (await http.get("/api/docs")).status_code == 404  # no page, no third party
