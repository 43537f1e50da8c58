"""Hints in the domain (issue #13): who may ask, one thought per position, a stale hint."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from odin_cards.games import rules_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.hints import QUEUE_SUFFIX, TableHints, hints_setting
from odin_cards.server.core.ports import BotRequest
from odin_cards.server.core.tables.table import LiveTable, hash_token, new_record


class GatedRunner:
    """A bot runner that answers only once its gate opens, and records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[BotRequest] = []
        self.cancelled: list[str] = []
        self.gate = asyncio.Event()

    async def move(self, request: BotRequest) -> str:
        self.asked.append(request)
        await self.gate.wait()
        return "pass"

    def cancel(self, table_id: str) -> None:
        self.cancelled.append(table_id)

    def close(self) -> None:
        pass


def playing_table(hints: bool, rated: bool = False) -> LiveTable:
    setup = rules_of("odin").check_setup(2, {})
    record = new_record("hintable", "odin", 2, setup, 7, {}, datetime.now(UTC))
    for seat in record.seats:
        seat.name = f"P{seat.seat}"
        seat.token_hash = hash_token(f"token-{seat.seat}")
    record.status = "playing"
    record.settings = {"hints": hints, "rated": rated}
    return LiveTable(record)


async def test_one_request_a_position_for_the_seat_to_move_only() -> None:
    runner = GatedRunner()
    hints = TableHints(runner)
    table = playing_table(True)
    mover = table.game.current_player
    assert mover is not None
    token = f"token-{mover}"
    first = asyncio.ensure_future(hints.hint(table, token))
    second = asyncio.ensure_future(hints.hint(table, token))
    await asyncio.sleep(0)  # both requests reach the runner's queue (no timing involved)
    runner.gate.set()
    answers = await asyncio.gather(first, second)
    assert (
        answers[0]
        == answers[1]
        == {
            "seat": mover,
            "version": table.version,
            "level": "expert",
            "action": "pass",
        }
    )
    assert len(runner.asked) == 1
    request = runner.asked[0]
    assert request.table_id == table.id + QUEUE_SUFFIX and request.seat == mover
    with pytest.raises(DomainError) as refused:
        await hints.hint(table, f"token-{1 - mover}")
    assert refused.value.code == "not_your_turn"
    with pytest.raises(DomainError) as refused:
        await hints.hint(table, "nobody")
    assert refused.value.code == "unauthorized"


async def test_no_hint_at_a_table_without_hints_and_a_forgotten_one_is_stale() -> None:
    runner = GatedRunner()
    hints = TableHints(runner)
    off = playing_table(False)
    with pytest.raises(DomainError) as refused:
        await hints.hint(off, f"token-{off.game.current_player}")
    assert refused.value.code == "hints_off" and not runner.asked
    table = playing_table(True)
    asking = asyncio.ensure_future(hints.hint(table, f"token-{table.game.current_player}"))
    await asyncio.sleep(0)
    hints.forget(table.id)
    with pytest.raises(DomainError) as refused:
        await asking
    assert refused.value.code == "stale"
    assert runner.cancelled == [table.id + QUEUE_SUFFIX]


@pytest.mark.parametrize(("value", "normal"), [(None, False), (False, False), (True, True)])
def test_the_setting_is_a_bool_off_by_default(value: object, normal: bool) -> None:
    assert hints_setting(value) is normal


@pytest.mark.parametrize("value", ["yes", 1, {"on": True}])
def test_anything_else_is_refused(value: object) -> None:
    with pytest.raises(DomainError) as refused:
        hints_setting(value)
    assert refused.value.code == "bad_options"


def test_a_rated_table_is_refused_hints_and_an_unrated_one_may_have_them() -> None:
    with pytest.raises(DomainError) as refused:
        hints_setting(True, rated=True)
    assert refused.value.code == "bad_options"
    assert hints_setting(False, rated=True) is False
    assert hints_setting(None, rated=True) is False
    assert hints_setting(True, rated=False) is True


async def test_no_hint_at_a_rated_table_whatever_its_settings_say() -> None:
    """A stored table that somehow says both (written before the rule) still gives none."""
    runner = GatedRunner()
    table = playing_table(True, rated=True)
    with pytest.raises(DomainError) as refused:
        await TableHints(runner).hint(table, f"token-{table.game.current_player}")
    assert refused.value.code == "hints_off" and not runner.asked
