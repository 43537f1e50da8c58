"""Several processes in one event loop: two halls share an in-memory database, leases,
bus and router (``adapters/memory_cluster.py``), so ownership, routing, replicas,
takeover and fencing are tested without PostgreSQL or Redis (``tests/cluster`` runs the
same on the real ones)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from odin_cards.server.adapters.memory import MemoryDatabase, MemoryEventLog
from odin_cards.server.adapters.memory_cluster import MemoryHub, MemoryLeaseStore
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.tables.cluster import HANDOVER_AFTER, ClusteredOwnership, ClusterPorts
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.core.tables.replicas import REPLICA_IDLE
from odin_cards.server.core.tables.table import LiveTable
from odin_cards.server.settings import Settings

from .listeners import Listener
from .test_domain import FakeBots, FakeClock, Store, settle, until

LEASE = 3.0


class Metrics:
    def __init__(self) -> None:
        self.leases: list[str] = []
        self.actions = 0

    def action_applied(self, game: str, seconds: float) -> None:
        self.actions += 1

    def lease_changed(self, event: str) -> None:
        self.leases.append(event)

    def table_evicted(self) -> None:
        pass


class Processes:
    """Halls ``a`` and ``b`` on one database, hub and clock."""

    def __init__(self) -> None:
        self.clock = FakeClock()
        self.db = MemoryDatabase()
        self.hub = MemoryHub()
        self.settings = Settings(database_url="memory:", bot_delay=0, lease_seconds=LEASE)
        self.metrics = {name: Metrics() for name in "ab"}
        self.halls = {name: self._hall(name) for name in "ab"}

    def _hall(self, name: str) -> Hall:
        bus, router = self.hub.join(name)
        leases = MemoryLeaseStore(self.db, name, LEASE, self.clock.monotonic)
        return Hall(
            Store(self.db),
            MemoryEventLog(self.db, name),
            FakeBots(),
            self.clock,
            self.settings,
            cluster=ClusterPorts(leases, bus, router, LEASE),
            metrics=self.metrics[name],
        )

    @property
    def a(self) -> Hall:
        return self.halls["a"]

    @property
    def b(self) -> Hall:
        return self.halls["b"]

    async def watch(self, hall: Hall, table_id: str, token: str | None = None) -> Listener:
        listener = Listener()
        await hall.hello(listener, await hall.get(table_id), token, None)
        return listener


@pytest.fixture
async def processes() -> AsyncIterator[Processes]:
    processes = Processes()
    for hall in processes.halls.values():
        await hall.start()
    yield processes
    for name, hall in processes.halls.items():
        processes.hub.kill(name)
        await hall.stop()


def cluster_of(hall: Hall) -> ClusteredOwnership:
    """The clustered ownership of a process of these tests."""
    assert isinstance(hall.ownership, ClusteredOwnership)
    return hall.ownership


def first_legal(table: LiveTable) -> str:
    return table.game.legal_actions()[0].text


async def two_people(processes: Processes) -> tuple[LiveTable, LiveTable, list[str]]:
    """A 2-player table created at ``a``, seats taken through ``b``; both halls' copies."""
    mine = await processes.a.create(2, {}, {"first_leader": 0})
    replica = await processes.b.get(mine.id)
    tokens = [await processes.b.take_seat(replica, seat, f"P{seat}") for seat in (0, 1)]
    await until(lambda: replica.status == "playing")
    return mine, replica, tokens


async def test_an_action_at_a_replica_is_applied_once_by_the_owner(processes: Processes) -> None:
    owned, replica, tokens = await two_people(processes)
    assert processes.a.owns(owned) and not processes.b.owns(replica)
    assert mine_count(processes, owned.id) == 0
    at_a = await processes.watch(processes.a, owned.id, tokens[1])
    at_b = await processes.watch(processes.b, owned.id, tokens[0])
    action = first_legal(replica)
    after = await processes.b.act(replica, 0, action, replica.version, "id-1", at_b)
    assert at_b.of("ack") == [{"type": "ack", "id": "id-1", "version": after}]
    await until(lambda: replica.version == after and at_b.of("update")[-1]["version"] == after)
    assert owned.version == after and at_a.of("update")[-1]["version"] == after
    # The replica's connection got its own seat's view, computed at the replica.
    assert at_b.of("update")[-1]["state"]["seat"] == 0
    # The same id again, through either process: the first answer, nothing applied twice.
    assert await processes.b.act(replica, 0, action, 0, "id-1", at_b) == after
    assert await processes.a.act(owned, 0, action, 0, "id-1") == after
    assert [a.client_id for a in processes.db.logs[owned.id]] == ["id-1"]
    assert processes.metrics["a"].actions == 1 and processes.metrics["b"].actions == 0


def mine_count(processes: Processes, table_id: str) -> int:
    return len(processes.db.logs.get(table_id, []))


async def test_a_seat_the_replica_has_not_heard_of_opens_there(processes: Processes) -> None:
    """The owner's word of a new seat (its facts, on the bus) may come after the player's
    ``hello`` at a replica: the replica reads the stored seats before it refuses the token
    (a two-process test once failed so, about one run in fifteen under load)."""
    owned = await processes.a.create(3, {}, {})
    replica = await processes.b.get(owned.id)
    processes.hub.buses["b"].unfollow(owned.id)  # b hears nothing of the seat
    token = await processes.a.take_seat(owned, 1, "Ben")
    await settle()
    assert replica.seats[1].token_hash is None
    ben = await processes.watch(processes.b, owned.id, token)
    assert ben.of("welcome")[0]["seat"] == 1 and replica.seats[1].name == "Ben"
    with pytest.raises(DomainError) as refused:
        await processes.watch(processes.b, owned.id, "no-such-token")
    assert refused.value.code == "unauthorized"


async def test_a_replica_that_missed_updates_reads_them_from_the_log(
    processes: Processes,
) -> None:
    owned, replica, tokens = await two_people(processes)
    listener = await processes.watch(processes.b, owned.id, tokens[1])
    processes.hub.buses["b"].unfollow(owned.id)  # b hears nothing of the next two actions
    for _ in range(2):
        await processes.a.act(
            owned, owned.game.current_player or 0, first_legal(owned), owned.version, None
        )
    await processes.hub.buses["b"].follow(owned.id)
    await processes.a.act(
        owned, owned.game.current_player or 0, first_legal(owned), owned.version, None
    )
    await until(lambda: replica.game.action_count == 3)
    assert replica.version == owned.version
    assert listener.of("update")[-1]["version"] == owned.version


async def test_a_dead_owners_tables_are_taken_over_within_the_lease(
    processes: Processes,
) -> None:
    owned, replica, tokens = await two_people(processes)
    processes.hub.kill("a")  # kill -9: no more heartbeats, messages or answers
    await processes.a.stop()
    await processes.clock.advance(LEASE / 3)
    assert not processes.b.owns(replica)  # a's heartbeat is still valid
    for _ in range(4):
        await processes.clock.advance(LEASE / 3)
    await until(lambda: processes.b.owns(replica))
    assert "taken-over" in processes.metrics["b"].leases
    action = first_legal(replica)
    listener = await processes.watch(processes.b, owned.id, tokens[0])
    after = await processes.b.act(replica, 0, action, replica.version, "x", listener)
    assert listener.of("ack")[-1]["version"] == after


async def test_an_owner_whose_lease_moved_on_is_refused_and_steps_down(
    processes: Processes,
) -> None:
    owned, replica, tokens = await two_people(processes)
    # a is paused past its lease (its heartbeat expires) and b takes the table over;
    # a has not noticed yet.
    processes.db.heartbeats["a"] = -1.0
    processes.hub.buses["a"].unfollow(owned.id)  # (paused: a hears nothing meanwhile)
    assert await cluster_of(processes.b).claim(owned.id)
    await processes.hub.buses["a"].follow(owned.id)
    assert processes.a.owns(owned) and processes.b.owns(replica)
    listener = await processes.watch(processes.a, owned.id, tokens[0])
    after = await processes.a.act(owned, 0, first_legal(owned), owned.version, "late", listener)
    # a's write was refused (fenced): it stepped down and sent the action to b instead.
    assert not processes.a.owns(owned)
    assert "fenced" in processes.metrics["a"].leases
    assert listener.of("ack")[-1] == {"type": "ack", "id": "late", "version": after}
    assert [a.client_id for a in processes.db.logs[owned.id]] == ["late"]
    assert processes.metrics["b"].actions == 1 and processes.metrics["a"].actions == 0
    await settle()


async def test_a_seat_whose_answer_was_lost_is_still_the_askers(processes: Processes) -> None:
    owned = await processes.a.create(2, {}, {"first_leader": 0})
    replica = await processes.b.get(owned.id)
    router = processes.hub.routers["b"]
    ask = router.request
    lost: list[object] = []

    async def answer_lost_once(process: str, message: dict[str, object], timeout: float) -> object:
        answer = await ask(process, message, timeout)
        if not lost:
            lost.append(answer)
            raise TimeoutError("the answer was lost")
        return answer

    router.request = answer_lost_once  # type: ignore[method-assign]
    token = await processes.b.take_seat(replica, 0, "Ann")
    assert lost == [{"ok": True}]  # the first try took the seat; the second heard "taken"
    await until(lambda: replica.seats[0].name == "Ann")
    listener = await processes.watch(processes.b, owned.id, token)
    assert listener.of("welcome")[0]["seat"] == 0


async def test_a_seat_whose_answer_was_lost_while_the_table_moved_here_is_the_askers(
    processes: Processes,
) -> None:
    """The owner seats the person but its answer is lost, and the table then moves to the
    asking process: taking the seat there must find it the asker's, not "taken" (seen as
    409s in bench/load.py under load)."""
    owned = await processes.a.create(2, {}, {"first_leader": 0})
    replica = await processes.b.get(owned.id)
    router = processes.hub.routers["b"]
    ask = router.request
    owner = cluster_of(processes.a)

    async def answered_then_moved(
        process: str, message: dict[str, object], timeout: float
    ) -> object:
        await ask(process, message, timeout)
        await owner.hand_over()  # e.g. a SIGTERM right after the seat
        raise TimeoutError("the answer was lost")

    router.request = answered_then_moved  # type: ignore[method-assign]
    token = await processes.b.take_seat(replica, 0, "Ann")
    assert processes.b.owns(replica) and replica.seats[0].name == "Ann"
    listener = await processes.watch(processes.b, owned.id, token)
    assert listener.of("welcome")[0]["seat"] == 0


async def test_a_replica_that_missed_the_last_action_reads_it_when_the_game_ends(
    processes: Processes,
) -> None:
    owned = await processes.a.create(2, {}, {"first_leader": 0, "one_hand": True})
    replica = await processes.b.get(owned.id)
    tokens = [await processes.b.take_seat(replica, seat, f"P{seat}") for seat in (0, 1)]
    listener = await processes.watch(processes.b, owned.id, tokens[0])
    inbox = processes.hub.buses["b"].inbox
    deliver = inbox.put_nowait

    def lose_actions_when_over(item: tuple[str, dict[str, object]]) -> None:
        if not (item[1].get("kind") == "action" and item[1].get("finished")):
            deliver(item)

    inbox.put_nowait = lose_actions_when_over  # type: ignore[method-assign]
    while not owned.game.is_over:
        seat = owned.game.current_player
        assert seat is not None
        await processes.a.act(owned, seat, first_legal(owned), owned.version, None)
    await until(lambda: replica.game.is_over)
    assert replica.version == owned.version and replica.status == "finished"
    assert listener.of("update")[-1]["version"] == owned.version


async def test_a_watched_replica_that_hears_nothing_reads_its_log(processes: Processes) -> None:
    owned, replica, tokens = await two_people(processes)
    listener = await processes.watch(processes.b, owned.id, tokens[1])
    processes.hub.buses["b"].unfollow(owned.id)  # the next action's message is lost
    seat = owned.game.current_player
    assert seat is not None
    await processes.a.act(owned, seat, first_legal(owned), owned.version, None)
    await processes.hub.buses["b"].follow(owned.id)
    await settle()
    assert replica.version < owned.version  # nothing else happens at the table
    await processes.clock.advance(11.0)
    await until(lambda: replica.version == owned.version)
    assert listener.of("update")[-1]["version"] == owned.version


# ------------------------------------------------------------ ownership follows connections


async def tick(processes: Processes, seconds: float) -> None:
    """Let ``seconds`` pass in heartbeat steps (each process's keeper runs at every one)."""
    for _ in range(round(seconds / (LEASE / 3))):
        await processes.clock.advance(LEASE / 3)


async def soon(check: Any, seconds: float = 5.0) -> None:
    """Poll ``check()`` in real time (a routed request retries after real pauses)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "the condition never held"
        await asyncio.sleep(0.01)


async def test_a_table_whose_connections_are_all_elsewhere_moves_there(
    processes: Processes,
) -> None:
    owned, replica, tokens = await two_people(processes)
    listeners = [await processes.watch(processes.b, owned.id, token) for token in tokens]
    _, token_before = processes.db.leases[owned.id]
    await tick(processes, 1.0)
    assert processes.a.owns(owned)  # not at once: it must have held for a while
    await tick(processes, HANDOVER_AFTER + 2.0)
    await until(lambda: processes.b.owns(replica) and not processes.a.owns(owned))
    assert processes.db.leases[owned.id] == ("b", token_before + 1)  # the fence moved on
    assert "released" in processes.metrics["a"].leases
    # a no longer spends anything on the table: no replica, no subscription.
    await tick(processes, REPLICA_IDLE + 1.0)
    assert owned.id not in processes.a.tables
    assert owned.id not in processes.hub.buses["a"].following
    # Play goes on at b, applied there.
    seat = replica.game.current_player
    assert seat is not None
    after = await processes.b.act(
        replica, seat, first_legal(replica), replica.version, "here", listeners[seat]
    )
    assert listeners[seat].of("ack") == [{"type": "ack", "id": "here", "version": after}]
    assert processes.metrics["b"].actions == 1 and processes.metrics["a"].actions == 0
    assert [a.client_id for a in processes.db.logs[owned.id]] == ["here"]


async def test_a_table_with_connections_at_both_processes_stays(processes: Processes) -> None:
    owned, replica, tokens = await two_people(processes)
    at_a = await processes.watch(processes.a, owned.id, tokens[0])
    await processes.watch(processes.b, owned.id, tokens[1])
    await tick(processes, 10.0)
    assert processes.a.owns(owned) and not processes.b.owns(replica)
    # Its one connection at a drops for a moment and comes back: still nothing moves.
    processes.a.leave(owned, at_a)
    await tick(processes, 1.0)
    await processes.watch(processes.a, owned.id, tokens[0])
    await tick(processes, 10.0)
    assert processes.a.owns(owned) and not processes.b.owns(replica)
    assert processes.metrics["a"].leases == ["acquired"]
    assert processes.metrics["b"].leases == []


async def test_an_action_during_a_hand_over_is_applied_once(processes: Processes) -> None:
    owned, replica, tokens = await two_people(processes)
    listeners = [await processes.watch(processes.b, owned.id, token) for token in tokens]
    # The first action is being stored at a (the owner) when a decides to hand over.
    stored, release_store = asyncio.Event(), asyncio.Event()
    append = processes.a.pipeline.events.append

    async def slow_append(*args: Any) -> None:
        stored.set()
        await release_store.wait()
        await append(*args)

    processes.a.pipeline.events.append = slow_append  # type: ignore[method-assign,assignment]
    seat = replica.game.current_player
    assert seat is not None
    first = asyncio.ensure_future(
        processes.b.act(
            replica, seat, first_legal(replica), replica.version, "first", listeners[seat]
        )
    )
    await asyncio.wait_for(stored.wait(), 5)
    await tick(processes, HANDOVER_AFTER + 2.0)  # the hand-over waits for the action
    assert processes.a.owns(owned)
    # a second action comes while the lease is being released.
    leases = cluster_of(processes.a).leases
    release = leases.release
    releasing, release_lease = asyncio.Event(), asyncio.Event()

    async def slow_release(table_id: str, token: int) -> None:
        releasing.set()
        await release_lease.wait()
        await release(table_id, token)

    leases.release = slow_release  # type: ignore[method-assign]
    release_store.set()
    after_first = await asyncio.wait_for(first, 5)
    await asyncio.wait_for(releasing.wait(), 5)
    await soon(lambda: replica.version == after_first)
    seat = replica.game.current_player
    assert seat is not None
    second = asyncio.ensure_future(
        processes.b.act(replica, seat, first_legal(replica), after_first, "second", listeners[seat])
    )
    await settle()
    release_lease.set()
    after_second = await asyncio.wait_for(second, 5)
    assert processes.b.owns(replica) and not processes.a.owns(owned)
    assert [a.client_id for a in processes.db.logs[owned.id]] == ["first", "second"]
    assert processes.metrics["a"].actions == 1 and processes.metrics["b"].actions == 1
    acks = [m for listener in listeners for m in listener.of("ack")]
    assert sorted(acks, key=lambda m: m["version"]) == [
        {"type": "ack", "id": "first", "version": after_first},
        {"type": "ack", "id": "second", "version": after_second},
    ]
    await soon(lambda: listeners[0].of("update")[-1]["version"] == after_second)


async def test_a_seat_given_through_a_replica_lets_its_hello_in_at_once(
    processes: Processes,
) -> None:
    owned = await processes.a.create(2, {}, {"first_leader": 0})
    replica = await processes.b.get(owned.id)
    inbox = processes.hub.buses["b"].inbox
    held: list[tuple[str, dict[str, object]]] = []
    inbox.put_nowait = held.append  # type: ignore[method-assign,assignment]
    token = await processes.b.take_seat(replica, 0, "Ann")
    # The owner's fan-out of the seat has not reached b yet; the player says hello at b.
    assert any(message.get("kind") == "table" for _, message in held)
    listener = await processes.watch(processes.b, owned.id, token)
    assert listener.of("welcome")[0]["seat"] == 0


async def test_a_graceful_stop_does_not_bring_the_heartbeat_back(processes: Processes) -> None:
    """The keeper waking while a SIGTERM's hand-over ends the heartbeat (PostgreSQL: the
    heartbeat thread is joined, then the process's row deleted) must not renew it: that
    registered the stopping process again, warned "heartbeat had expired" and counted a
    lost lease (seen in a rolling restart of docs/deploy.md's commands)."""
    leases = cluster_of(processes.a).leases
    stop = leases.stop
    ended, go_on = asyncio.Event(), asyncio.Event()

    async def stop_then_wait() -> None:
        await stop()
        ended.set()
        await go_on.wait()  # the rest of the hand-over (the thread's join, the database)

    leases.stop = stop_then_wait  # type: ignore[method-assign]
    handing = asyncio.ensure_future(processes.a.hand_over())
    await asyncio.wait_for(ended.wait(), 5)
    assert "a" not in processes.db.heartbeats
    await tick(processes, LEASE)  # the keeper's sleeps end meanwhile
    go_on.set()
    await asyncio.wait_for(handing, 5)
    assert "a" not in processes.db.heartbeats
    assert "renewed-lost" not in processes.metrics["a"].leases
