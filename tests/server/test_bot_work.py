"""One budget of bot work per person and per address (issue #29): bot seats at new tables,
the bots Play now fills a table with, hints and analyses all draw on it, so no way of
asking for bots escapes it. Through the real server (SQLite file and PostgreSQL) for
tables and Play now; in the domain for hints and analyses (their workers gated)."""

from __future__ import annotations

import asyncio
import dataclasses

import httpx
import pytest

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.analysis import TableAnalyses
from odin_cards.server.core.features.bot_work import BotWork
from odin_cards.server.core.features.hints import TableHints
from odin_cards.server.core.tables.table import LiveTable
from odin_cards.server.settings import Settings

from .harness import running
from .test_analysis_domain import GatedAnalyst
from .test_analysis_domain import table as finished_table
from .test_hints_domain import GatedRunner, playing_table
from .test_people import PASSWORD, queue_clock

SMALL = {"bot_work_burst": 6, "bot_work_per_hour": 36, "bot_work_seat": 2}
"""Three bot seats at once, then one every 200 s."""


def _from(base: str, host: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=host)
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=20.0)


async def _play_now_bots(http: httpx.AsyncClient, name: str | None = None) -> httpx.Response:
    body = {"players": 2, "target": "10", "clock": "fast"}
    if name is not None:
        body["name"] = name
    answer = await http.post("/api/play-now", json=body, headers=http.headers)
    assert answer.status_code == 201, answer.text
    ticket = answer.json()["ticket"]
    return await http.post("/api/play-now/bots", json={"ticket": ticket}, headers=http.headers)


async def test_bot_seats_and_play_now_draw_on_one_budget(settings: Settings) -> None:
    small = dataclasses.replace(settings, playnow_bot_wait=0.0, **SMALL)  # type: ignore[arg-type]
    async with running(small) as server:
        queue_clock(server)
        guest = _from(server.base, "127.0.0.2")
        made = await guest.post("/api/tables", json={"players": 3, "bots": {"1": "random"}})
        assert made.status_code == 201, made.text
        filled = await _play_now_bots(guest, "Eve")  # one more bot seat: 4 of 6 units
        assert filled.status_code == 200 and filled.json()["state"] == "matched", filled.text
        filled = await _play_now_bots(guest, "Eve")  # 6 of 6
        assert filled.status_code == 200, filled.text
        refused = await _play_now_bots(guest, "Eve")
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_bots"
        assert "try again in" in refused.json()["message"]
        refused = await guest.post("/api/tables", json={"players": 2, "bots": {"1": "random"}})
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_bots"
        # Another address has its own budget; an account has one of its own too, which
        # follows it to any address.
        other = _from(server.base, "127.0.0.3")
        signed = await other.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
        assert signed.status_code == 201, signed.text
        other.headers["X-CSRF-Token"] = signed.json()["csrf"]
        for _ in range(3):
            assert (await _play_now_bots(other)).status_code == 200
        moved = _from(server.base, "127.0.0.4")
        moved.cookies = other.cookies
        moved.headers["X-CSRF-Token"] = signed.json()["csrf"]
        refused = await _play_now_bots(moved)
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_bots"
        assert "your account" in refused.json()["message"]
        for http in (guest, other, moved):
            await http.aclose()


def hintable(number: int) -> LiveTable:
    """A playing table with hints, of its own id."""
    record = playing_table(True).to_record()
    record.id = f"hintable{number}"
    return LiveTable(record)


async def test_hints_draw_on_the_budget_asking_again_is_free() -> None:
    clock = [0.0]
    work = BotWork(
        Settings("sqlite://", bot_work_burst=2, bot_work_per_hour=3600), lambda: clock[0]
    )
    runner = GatedRunner()
    runner.gate.set()
    hints = TableHints(runner, work)
    tables = [hintable(n) for n in range(3)]
    asked = []
    for table in tables:
        mover = table.game.current_player
        asked.append(hints.hint(table, f"token-{mover}", "2001:db8::/64"))
    await asked[0]
    await hints.hint(tables[0], f"token-{tables[0].game.current_player}", "2001:db8::/64")
    await asked[1]
    with pytest.raises(DomainError) as refused:
        await asked[2]
    assert refused.value.code == "too_many_bots"
    assert len(runner.asked) == 2
    clock[0] += 1.0  # one unit back a second
    await hints.hint(tables[2], f"token-{tables[2].game.current_player}", "2001:db8::/64")


async def test_one_address_holds_few_analyses_and_pays_for_them() -> None:
    work = BotWork(Settings("sqlite://", bot_work_burst=30, bot_work_analysis=10), lambda: 0.0)
    analyses = TableAnalyses(GatedAnalyst(), bot_work=work, per_address=2)
    assert analyses.status(finished_table(1), "10.0.0.1") is None
    assert analyses.status(finished_table(2), "10.0.0.1") is None
    with pytest.raises(DomainError) as refused:
        analyses.status(finished_table(3), "10.0.0.1")
    assert refused.value.code == "analysis_busy"
    assert analyses.status(finished_table(3), "10.0.0.2") is None  # others still get theirs
    assert analyses.status(finished_table(1), "10.0.0.9") is None  # under way: free to ask
    analyses.close()
    await asyncio.sleep(0)
    analyses = TableAnalyses(GatedAnalyst(), bot_work=work, per_address=8)
    assert analyses.status(finished_table(4), "10.0.0.1") is None  # the 30 units are spent
    with pytest.raises(DomainError) as refused:
        analyses.status(finished_table(5), "10.0.0.1")
    assert refused.value.code == "too_many_bots"
    analyses.close()
