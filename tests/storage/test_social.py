"""The chat and rematch store's contract, on memory, SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from odin_cards.server.core.ports import ChatLine, CommitUnknown, Storage, StoreUnavailable

from .data import NOW, a_table


def a_line(number: int, seat: int | None = 0) -> ChatLine:
    author = f"s{seat}" if seat is not None else "w0123456789"
    text, reaction = (f"line {number}", None) if number % 2 == 0 else (None, "gg")
    return ChatLine(
        number, author, "Ann", seat, text, reaction, number * 2, NOW + timedelta(seconds=number)
    )


async def test_a_tables_chat_comes_back_in_order_the_last_lines_first_cut(
    storage: Storage,
) -> None:
    await storage.store.insert(a_table("t1", "playing"))
    await storage.store.insert(a_table("t2", "playing"))
    for number in (0, 2, 1, 3):  # numbered by the table's owner; stored as they come
        await storage.social.add_chat("t1", a_line(number, seat=None if number == 3 else 0))
    await storage.social.add_chat("t2", a_line(0))
    lines = [a_line(n) for n in range(3)] + [a_line(3, seat=None)]
    assert await storage.social.chat_of("t1", 10) == lines
    assert await storage.social.chat_of("t1", 2) == lines[2:]
    assert await storage.social.chat_of("t1", 0) == []
    assert await storage.social.chat_of("t2", 10) == [a_line(0)]
    for unknown in ("ghost", "a\x00b", "x" * 5000):
        assert await storage.social.chat_of(unknown, 10) == []


async def test_a_taken_number_or_a_missing_table_is_refused(storage: Storage) -> None:
    await storage.store.insert(a_table("t1", "playing"))
    await storage.social.add_chat("t1", a_line(0))
    for table_id, line in (("t1", a_line(0, seat=1)), ("ghost", a_line(0))):
        with pytest.raises(StoreUnavailable) as refused:
            await storage.social.add_chat(table_id, line)
        assert not isinstance(refused.value, CommitUnknown)
    assert await storage.social.chat_of("t1", 10) == [a_line(0)]


async def test_a_rematch_is_stored_replaced_and_copied(storage: Storage) -> None:
    await storage.store.insert(a_table("t1", "finished"))
    assert await storage.social.rematch_of("t1") is None
    answers: dict[str, Any] = {"answers": {"0": "yes"}, "declined": "bot"}
    await storage.social.save_rematch("t1", answers)
    answers["answers"]["1"] = "no"  # changed after storing: not what is stored
    assert await storage.social.rematch_of("t1") == {"answers": {"0": "yes"}, "declined": "bot"}
    await storage.social.save_rematch("t1", {"answers": {"0": "yes", "1": "yes"}})
    stored = await storage.social.rematch_of("t1")
    assert stored == {"answers": {"0": "yes", "1": "yes"}}
    stored["answers"] = {}
    assert await storage.social.rematch_of("t1") == {"answers": {"0": "yes", "1": "yes"}}
    with pytest.raises(StoreUnavailable):
        await storage.social.save_rematch("ghost", {})
    for unknown in ("ghost", "a\x00b", "x" * 5000):
        assert await storage.social.rematch_of(unknown) is None
