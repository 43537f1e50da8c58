"""Two people and a bot play a hand in real Chromium through nginx, across restarts.

The pages, their API calls and their WebSockets all go through ``deploy/nginx/odin.conf``.
In the middle of the hand every server process is restarted in turn (SIGTERM, start
again on its port), later the process holding the pages' sockets is killed (SIGKILL) and
started again: each time the pages reconnect through the proxy by themselves and resume
from their version; the hand plays to its end and its record replays.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from prometheus_client.parser import text_string_to_metric_families

from browser.conftest import CHROMIUM, CHROMIUM_ARGS
from odin_cards.odin.rules import GameRecord

from .conftest import Cluster

pytestmark = [
    pytest.mark.nginx,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.multiprocess,
    pytest.mark.browser,
]

WAIT_MS = 20_000
"""How long the pages may take to show what the servers did (a loaded machine)."""


# Module scope: Playwright's sync API keeps an event loop running while it is open.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs it: scripts/ensure-chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


def _context(browser: Browser) -> BrowserContext:
    # No card flights: the proxy is under test, not the animations (a hand takes a minute).
    context = browser.new_context(locale="en-GB", reduced_motion="reduce")
    context.set_default_timeout(WAIT_MS)
    return context


def _state(page: Page) -> dict[str, Any] | None:
    state: dict[str, Any] | None = page.evaluate(
        """() => window.odinTable && window.odinTable.state ? {
            seat: window.odinTable.seat, version: window.odinTable.version,
            to_move: window.odinTable.state.to_move, legal: window.odinTable.state.legal,
            outcome: window.odinTable.state.outcome, busy: window.odinTable.connection.busy,
            open: window.odinTable.connection.socket !== null} : null"""
    )
    return state


def _play_until(pages: dict[int, Page], done: Any, deadline: float) -> int:
    """Whoever is to move plays their first legal action, until ``done(states)``."""
    moves = 0
    while True:
        assert time.monotonic() < deadline, "the hand did not go on in time"
        states = {seat: _state(page) for seat, page in pages.items()}
        if done(states, moves):
            return moves
        mover = next(
            (
                seat
                for seat, s in states.items()
                if s and s["open"] and s["to_move"] == seat and s["legal"] and not s["busy"]
            ),
            None,
        )
        if mover is None:
            time.sleep(0.05)  # the bot moves, or an update is on its way: poll again
            continue
        mine = states[mover]
        assert mine is not None
        pages[mover].evaluate(
            "([a, v]) => window.odinTable.connection.act(a, v)", [mine["legal"][0], mine["version"]]
        )
        pages[mover].wait_for_function("v => window.odinTable.version > v", arg=mine["version"])
        moves += 1


def _connections(cluster: Cluster) -> Callable[[int], float]:
    """Open WebSockets of process ``index``, from its ``/metrics``."""

    def connections(index: int) -> float:
        text = httpx.get(cluster.servers[index].base + "/metrics", timeout=10).text
        for family in text_string_to_metric_families(text):
            if family.name == "odin_connections":
                return family.samples[0].value
        raise AssertionError("no odin_connections in /metrics")

    return connections


@contextmanager
def _reconnected(pages: dict[int, Page], every: bool = True) -> Iterator[None]:
    """Connections drop inside the block (``every`` page's, else at least one); after it
    they come back by themselves and every page resumes where it was."""

    def welcomes() -> dict[int, int]:
        return {
            seat: page.evaluate("window.odinTable.connection.welcomes")
            for seat, page in pages.items()
        }

    before = welcomes()
    versions = {seat: page.evaluate("window.odinTable.version") for seat, page in pages.items()}
    yield
    deadline = time.monotonic() + 40
    while True:
        back = [seat for seat, n in welcomes().items() if n > before[seat]]
        if len(back) == len(pages) or (back and not every):
            break
        assert time.monotonic() < deadline, f"reconnected: {back} of {list(pages)}"
        time.sleep(0.1)
    for seat, page in pages.items():
        expect(page.locator(".conn.conn-open")).to_be_visible(timeout=40_000)
        assert page.evaluate("window.odinTable.version") >= versions[seat]


def test_a_hand_through_nginx_survives_a_rolling_restart(
    browser: Browser, cluster: Cluster
) -> None:
    base = cluster.base
    errors: list[str] = []
    ann_context, bob_context = _context(browser), _context(browser)
    try:
        ann, bob = ann_context.new_page(), bob_context.new_page()
        for page in (ann, bob):
            page.on("pageerror", lambda error: errors.append(str(error)))

        # Ann creates a one-hand table for three (a random bot in seat 2) in the lobby.
        ann.goto(base + "/")
        ann.locator('[data-group="players"][data-value="3"]').click()
        ann.locator("#seat-2").select_option("random")
        ann.locator('[data-group="target"][data-value="one"]').click()
        ann.locator("#create").click()
        invite = ann.get_by_test_id("invite").input_value()
        assert re.fullmatch(re.escape(base) + r"/t/[^/]+", invite), invite
        table_id = invite.rsplit("/", 1)[1]
        ann.locator("#go-to-table").click()
        ann.locator("#name").fill("Ann")
        ann.locator('button[data-seat="0"]').click()
        bob.goto(invite)
        bob.locator("#name").fill("Bob")
        bob.locator('button[data-seat="1"]').click()
        for page in (ann, bob):
            expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(
                9, timeout=WAIT_MS
            )
        pages = {0: ann, 1: bob}
        deadline = time.monotonic() + 180

        # A few moves, then every process is restarted in turn.
        _play_until(pages, lambda states, moves: moves >= 2, deadline)
        with _reconnected(pages):
            for index in range(len(cluster.servers)):
                cluster.restart(index)

        # Two more moves, then the process holding the pages' sockets dies (kill -9) and
        # comes back (systemd's Restart=always); another process takes its tables over.
        _play_until(pages, lambda states, moves: moves >= 2, deadline)
        # (After the rolling restart the pages may sit on different processes: the one
        # with the most sockets dies, and its pages reconnect.)
        with _reconnected(pages, every=False):
            cluster.restart(max(range(len(cluster.servers)), key=_connections(cluster)), crash=True)

        # The hand goes on to its end, both pages see the same outcome.
        moves = _play_until(
            pages,
            lambda states, moves: any(s and s["outcome"] for s in states.values()),
            deadline,
        )
        assert moves > 0
        for page in pages.values():
            expect(page.get_by_test_id("final")).to_be_visible(timeout=WAIT_MS)
        outcome = ann.evaluate("window.odinTable.state.outcome")
        bob.wait_for_function("() => window.odinTable.state.outcome !== null")
        assert bob.evaluate("window.odinTable.state.outcome") == outcome

        # The stored record replays to the same end (each action applied once).
        answer = httpx.get(f"{base}/api/tables/{table_id}/record", timeout=10)
        assert answer.status_code == 200, answer.text
        game = GameRecord.from_dict(answer.json()).replay()
        assert game.is_over
        assert list(game.scores) == outcome["scores"]
        assert errors == []
    except (AssertionError, PlaywrightTimeout) as failure:
        raise AssertionError(f"{failure}\n{_diagnosis(cluster, [ann, bob])}") from failure
    finally:
        ann_context.close()
        bob_context.close()


def _diagnosis(cluster: Cluster, pages: list[Page]) -> str:
    """What a failure needs explained: each page's connection, the proxy's and servers' logs."""
    lines = []
    for page in pages:
        seen = page.evaluate(
            """() => window.odinTable ? JSON.stringify({seat: window.odinTable.seat,
                version: window.odinTable.version, welcomes: window.odinTable.connection.welcomes,
                received: window.odinTable.connection.log.slice(-6)}) : 'no client'"""
        )
        lines.append(f"page {page.url}: {seen}")
    lines += ["nginx:", *cluster.nginx.access_log()[-30:]]
    for server in cluster.servers:
        lines += [f"server {server.port}:", server.output()[-3000:]]
    return "\n".join(lines)
