"""Presence and the creator's powers with two processes (in memory, the fake clock): what
is asked at a replica is done by the table's owner, and both processes show the result.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.features.access import new_creator_token
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.core.tables.table import LiveTable

from .fake_clock import FakeClock
from .test_cluster_domain import Processes, cluster_of
from .test_domain import until


def shown(hall: Hall, table: LiveTable) -> str | None:
    """What seat 0 of ``table`` is shown as at ``hall`` (``None``: not known there yet)."""
    states = hall.presence.shown_at(table.id)
    return states[0] if states else None


class Stepped(Processes):
    """The two halls of ``test_cluster_domain`` on a clock that wakes each timer at its
    own time (heartbeats keep beating while the presence grace runs out)."""

    def __init__(self) -> None:
        super().__init__()
        self.clock = FakeClock()
        self.halls = {name: self._hall(name) for name in "ab"}


@pytest.fixture
async def processes() -> AsyncIterator[Processes]:
    processes = Stepped()
    for hall in processes.halls.values():
        await hall.start()
    yield processes
    for name, hall in processes.halls.items():
        processes.hub.kill(name)
        await hall.stop()


async def test_lock_and_cancel_asked_at_a_replica_are_done_by_the_owner(
    processes: Processes,
) -> None:
    creator, digest = new_creator_token()
    owned = await processes.a.create(3, {}, {}, creator_hash=digest)
    replica = await processes.b.get(owned.id)
    assert processes.a.owns(owned) and not processes.b.owns(replica)
    with pytest.raises(DomainError) as refused:
        await processes.b.access.lock(replica, 2, True, "not the creator")
    assert refused.value.code == "unauthorized"
    await processes.b.access.lock(replica, 2, True, creator)
    assert owned.seats[2].locked and processes.db.tables[owned.id].seats[2].locked
    await until(lambda: replica.seats[2].locked)
    with pytest.raises(DomainError) as locked:
        await processes.b.take_seat(replica, 2, "Eve")
    assert locked.value.code == "locked"
    await processes.b.access.cancel(replica, creator)
    assert processes.db.tables[owned.id].status == "cancelled"
    assert owned.id not in processes.a.tables  # a closed table leaves the owner's memory
    with pytest.raises(DomainError) as closed:
        await processes.b.take_seat(await processes.b.get(owned.id), 0, "Ann")
    assert closed.value.code == "cancelled"


async def test_presence_at_a_replica_is_merged_by_the_owner_and_shown_by_both(
    processes: Processes,
) -> None:
    owned = await processes.a.create(3, {}, {})
    replica = await processes.b.get(owned.id)
    token = await processes.b.take_seat(replica, 0, "Ann")
    at_a = await processes.watch(processes.a, owned.id)  # the owner keeps a connection
    at_b = await processes.watch(processes.b, owned.id)  # and the replica one (it follows)
    ann = await processes.watch(processes.b, owned.id, token)
    await until(lambda: shown(processes.a, owned) == "online")
    await until(
        lambda: at_a.of("presence")[-1:] == [{"type": "presence", "seats": ["online", None, None]}]
    )
    processes.b.presence.visibility(replica, ann, visible=False)
    await until(
        lambda: shown(processes.a, owned) == "away" and shown(processes.b, replica) == "away"
    )
    assert processes.a.presence.seat_presence(owned, 0) == "away"
    assert at_a.of("presence")[-1]["seats"] == ["away", None, None]
    processes.b.leave(replica, ann)
    await processes.clock.advance(1)
    assert processes.a.presence.seat_presence(owned, 0) == "away"  # within the grace
    await processes.clock.advance(processes.settings.presence_grace)
    await until(
        lambda: shown(processes.a, owned) == "offline" and shown(processes.b, replica) == "offline"
    )
    assert at_a.of("presence")[-1]["seats"] == ["offline", None, None]
    assert at_b.of("presence")[-1]["seats"] == ["offline", None, None]


async def test_a_replica_learns_what_the_owner_shows_when_it_loads_the_table(
    processes: Processes,
) -> None:
    owned = await processes.a.create(3, {}, {})
    token = await processes.a.take_seat(owned, 0, "Ann")
    assert [s.get("presence") for s in processes.a.view(owned)["seats"]] == [
        "offline",
        None,
        None,
    ]
    await processes.watch(processes.a, owned.id, token)
    replica = await processes.b.get(owned.id)  # e.g. for the lobby or "my tables"
    await until(lambda: shown(processes.b, replica) == "online")
    assert [s.get("presence") for s in processes.b.view(replica)["seats"]] == [
        "online",
        None,
        None,
    ]


async def test_every_processs_lobby_shows_who_waits_at_a_table_it_does_not_hold(
    processes: Processes,
) -> None:
    owned = await processes.a.create(3, {}, {})
    token = await processes.a.take_seat(owned, 0, "Ann")
    ann = await processes.watch(processes.a, owned.id, token)
    processes.a.presence.visibility(owned, ann, visible=False)
    await until(lambda: owned.id in cluster_of(processes.b).replicas.lobby)
    [listed] = await processes.b.lobby()
    assert owned.id not in processes.b.tables  # read from the database, not held there
    assert [s.get("presence") for s in listed["seats"]] == ["away", None, None]
