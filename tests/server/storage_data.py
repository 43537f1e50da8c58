"""Records to store in tests of the table store and the event log (SQL and in-memory)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from odin_cards.server.core.ports import LoggedAction, SeatRecord, TableRecord

NOW = datetime(2026, 11, 22, 12, 0, 0, 123456, tzinfo=UTC)


def a_table(
    table_id: str,
    status: str = "waiting",
    age: timedelta = timedelta(0),
    players: int = 2,
    bots: dict[int, str] | None = None,
) -> TableRecord:
    bots = bots or {}
    return TableRecord(
        id=table_id,
        game="odin",
        rules_version=1,
        players=players,
        setup={"colours": 6, "target": 15},
        seed=2**62 + 12345,
        status=status,
        created=NOW - age,
        seats=[SeatRecord(seat, bot=bots.get(seat)) for seat in range(players)],
    )


def an_action(number: int, seat: int = 0, client_id: str | None = None) -> LoggedAction:
    return LoggedAction(number, seat, f"play {number}", client_id, NOW + timedelta(seconds=number))
