"""What every multi-process test checks at the end: the log holds exactly the acknowledged
actions (none lost, none twice) and the game's record replays to the same outcome."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import httpx
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from odin_cards.games import rules_of

from .harness import Node, Player


async def logged(database_url: str, table_id: str) -> list[Any]:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            rows = await connection.execute(
                sa.text(
                    "SELECT number, seat, action, client_id FROM events "
                    "WHERE table_id = :t ORDER BY number"
                ),
                {"t": table_id},
            )
            return list(rows)
    finally:
        await engine.dispose()


async def check_game(
    database_url: str, node: Node, table_id: str, players: Iterable[Player]
) -> dict[str, Any]:
    """Every acknowledged action is in the log once, with its seat and text; every
    person's action in the log was acknowledged; the record replays."""
    rows = await logged(database_url, table_id)
    assert [row.number for row in rows] == list(range(len(rows)))
    by_id = {row.client_id: row for row in rows if row.client_id is not None}
    acked = {a.id: a for p in players for a in p.acked.values()}
    assert set(by_id) == set(acked), "acknowledged actions and logged actions differ"
    for id, action in acked.items():
        assert (by_id[id].seat, by_id[id].action) == (action.seat, action.action)
    async with httpx.AsyncClient(base_url=node.base, timeout=20) as http:
        answer = await http.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200, answer.text
    record: dict[str, Any] = answer.json()
    replayed = rules_of("odin").load_record(record).replay()
    assert replayed.is_over
    assert replayed.action_count == len(rows)
    return record


async def owner_pid(database_url: str, table_id: str) -> int | None:
    """The process id of the table's lease holder (ids are ``host-pid-random``)."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            owner = await connection.scalar(
                sa.text(
                    "SELECT l.owner FROM table_leases l JOIN processes p ON p.id = l.owner "
                    "WHERE l.table_id = :t AND p.expires_at > now()"
                ),
                {"t": table_id},
            )
    finally:
        await engine.dispose()
    return None if owner is None else int(str(owner).rsplit("-", 2)[1])
