"""The server's analyses in the domain (issue #13): refusals, one computation a table, the
queue's limit, failures forgotten, the bounded cache."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest

from odin_cards.games import rules_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.analysis import CACHED, WAITING, TableAnalyses
from odin_cards.server.core.tables.table import LiveTable, new_record


class GatedAnalyst:
    """Answers once its gate opens (or fails when told to), counting the games it got."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.asked: list[dict[str, Any]] = []
        self.fail = False

    async def analyse(self, game: str, record: dict[str, Any], iterations: int) -> dict[str, Any]:
        assert game == "odin"
        self.asked.append(record)
        await self.gate.wait()
        if self.fail:
            raise RuntimeError("the worker died")
        return {"moves": [], "iterations": iterations, "number": len(self.asked)}

    def close(self) -> None:
        pass


def table(number: int, status: str = "finished", game: str = "odin") -> LiveTable:
    setup = rules_of(game).check_setup(2, {})
    record = new_record(f"t{number:07d}", game, 2, setup, number, {}, datetime.now(UTC))
    record.status = status
    return LiveTable(record)


async def test_running_tables_and_other_games_are_refused() -> None:
    analyses = TableAnalyses(GatedAnalyst())
    for status in ("waiting", "playing"):
        with pytest.raises(DomainError) as refused:
            analyses.status(table(1, status))
        assert refused.value.code == "running"
    with pytest.raises(DomainError) as refused:
        analyses.status(table(2, game="name-of-odin"))
    assert refused.value.code == "bad_game"


async def test_one_computation_a_table_then_the_cached_answer() -> None:
    analyst = GatedAnalyst()
    analyses = TableAnalyses(analyst, iterations=7)
    finished = table(1)
    assert analyses.status(finished) is None
    assert analyses.status(finished) is None
    waiting = asyncio.ensure_future(analyses.result(finished))
    await asyncio.sleep(0)
    analyst.gate.set()
    done = await waiting
    assert done == {"moves": [], "iterations": 7, "number": 1}
    assert analyses.status(finished) == done
    assert len(analyst.asked) == 1
    assert analyst.asked[0] == finished.game.record().to_dict()


async def test_the_queue_is_bounded() -> None:
    analyses = TableAnalyses(GatedAnalyst())
    for number in range(WAITING):
        assert analyses.status(table(number)) is None
    with pytest.raises(DomainError) as refused:
        analyses.status(table(WAITING))
    assert refused.value.code == "analysis_busy"
    analyses.close()


async def test_a_failed_analysis_is_forgotten_and_tried_again() -> None:
    analyst = GatedAnalyst()
    analyst.fail = True
    analyst.gate.set()
    analyses = TableAnalyses(analyst)
    finished = table(1)
    with pytest.raises(DomainError) as refused:
        await analyses.result(finished)
    assert refused.value.code == "unavailable"
    analyst.fail = False
    assert (await analyses.result(finished))["number"] == 2


async def test_the_cache_keeps_the_last_analyses_asked() -> None:
    analyst = GatedAnalyst()
    analyst.gate.set()
    analyses = TableAnalyses(analyst)
    tables = [table(number) for number in range(CACHED + 1)]
    for finished in tables:
        await analyses.result(finished)
    assert analyses.status(tables[-1]) is not None
    assert analyses.status(tables[0]) is None  # dropped: computed again on request
    assert (await analyses.result(tables[0]))["number"] == CACHED + 2
