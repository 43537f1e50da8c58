"""``/healthz``, ``/readyz`` and ``/metrics`` on a minimal app with scripted probes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx
import pytest
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families

from odin_cards.server.adapters.metrics import LEASE_EVENTS, PrometheusMetrics
from odin_cards.server.transport import ops
from odin_cards.server.transport.ops import Readiness, drain, install_ops


@dataclass
class FakeProbes:
    """Probes whose answers a test sets; counts how often the database is asked."""

    database: bool | Exception = True
    redis: bool | None = None
    hang: asyncio.Event | None = None
    leases: int = 0
    tables: dict[str, int] = field(default_factory=dict)
    open_connections: int = 0
    queue: int = 0
    database_calls: int = 0

    async def database_ok(self) -> bool:
        self.database_calls += 1
        if self.hang is not None:
            await self.hang.wait()
        if isinstance(self.database, Exception):
            raise self.database
        return self.database

    async def redis_ok(self) -> bool | None:
        return self.redis

    def leases_held(self) -> int:
        return self.leases

    def tables_by_state(self) -> dict[str, int]:
        return dict(self.tables)

    def connections(self) -> int:
        return self.open_connections

    def bot_queue_length(self) -> int:
        return self.queue


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Ops:
    app: FastAPI
    http: httpx.AsyncClient
    probes: FakeProbes
    metrics: PrometheusMetrics
    clock: Clock


@pytest.fixture
async def ops_app() -> AsyncIterator[Ops]:
    app = FastAPI()
    probes = FakeProbes()
    metrics = PrometheusMetrics()
    install_ops(app, probes, metrics)
    clock = Clock()
    readiness: Readiness = app.state.readiness
    readiness.clock = clock
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        yield Ops(app, http, probes, metrics, clock)


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition by (name, sorted labels)."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


# ---------------------------------------------------------------- /healthz


async def test_healthz_answers_alive_and_is_not_cached(ops_app: Ops) -> None:
    ops_app.probes.database = False  # alive says nothing about the database
    answer = await ops_app.http.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "alive"}
    assert answer.headers["cache-control"] == "no-store"
    assert ops_app.probes.database_calls == 0
    assert (await ops_app.http.head("/healthz")).status_code == 200


# ---------------------------------------------------------------- /readyz


async def test_readyz_ready_with_database_and_no_redis(ops_app: Ops) -> None:
    ops_app.probes.leases = 3
    answer = await ops_app.http.get("/readyz")
    assert answer.status_code == 200
    assert answer.json() == {
        "status": "ready",
        "database": True,
        "redis": None,
        "leases": 3,
        "draining": False,
    }


async def test_readyz_ready_with_redis(ops_app: Ops) -> None:
    ops_app.probes.redis = True
    answer = await ops_app.http.get("/readyz")
    assert answer.status_code == 200
    assert answer.json()["redis"] is True


@pytest.mark.parametrize(
    ("database", "redis", "message"),
    [
        (False, None, "the database does not answer"),
        (ConnectionRefusedError(111, "refused"), True, "the database does not answer"),
        (True, False, "Redis does not answer"),
    ],
)
async def test_readyz_refuses_when_a_store_does_not_answer(
    ops_app: Ops, database: bool | Exception, redis: bool | None, message: str
) -> None:
    ops_app.probes.database = database
    ops_app.probes.redis = redis
    answer = await ops_app.http.get("/readyz")
    assert answer.status_code == 503
    body = answer.json()
    assert body["error"] == "not_ready"
    assert body["message"] == message
    assert body["database"] is (database is True)
    assert answer.headers["cache-control"] == "no-store"


async def test_readyz_a_hanging_database_counts_as_down(
    ops_app: Ops, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ops, "CHECK_TIMEOUT", 0.05)
    ops_app.probes.hang = asyncio.Event()  # never set: the probe never answers
    answer = await ops_app.http.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["message"] == "the database does not answer"


async def test_readyz_refuses_while_draining(ops_app: Ops) -> None:
    assert (await ops_app.http.get("/readyz")).status_code == 200
    drain(ops_app.app)
    answer = await ops_app.http.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["draining"] is True
    assert "stopping" in answer.json()["message"]
    assert (await ops_app.http.get("/healthz")).status_code == 200  # still alive


async def test_readyz_a_burst_of_probes_costs_one_database_check(ops_app: Ops) -> None:
    gate = asyncio.Event()
    ops_app.probes.hang = gate
    requests = [asyncio.create_task(ops_app.http.get("/readyz")) for _ in range(20)]
    deadline = asyncio.get_running_loop().time() + 5
    while ops_app.probes.database_calls == 0:  # the first check has started
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.001)
    gate.set()
    answers = await asyncio.gather(*requests)
    assert [a.status_code for a in answers] == [200] * 20
    assert ops_app.probes.database_calls == 1


async def test_readyz_result_is_reused_for_a_second_then_checked_again(ops_app: Ops) -> None:
    await ops_app.http.get("/readyz")
    ops_app.probes.database = False
    ops_app.clock.now += ops.CHECK_REUSE / 2
    assert (await ops_app.http.get("/readyz")).status_code == 200
    assert ops_app.probes.database_calls == 1
    ops_app.clock.now += ops.CHECK_REUSE
    assert (await ops_app.http.get("/readyz")).status_code == 503
    assert ops_app.probes.database_calls == 2


# ---------------------------------------------------------------- /metrics


async def test_metrics_counts_actions_with_latency_buckets(ops_app: Ops) -> None:
    metrics = ops_app.metrics
    metrics.action_applied("odin", 0.003)
    metrics.action_applied("odin", 0.120)
    metrics.action_applied("odin", 3.0)
    answer = await ops_app.http.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    found = samples(answer.text)
    odin = (("game", "odin"),)
    assert found[("odin_actions_total", odin)] == 3

    def bucket(le: str) -> float:
        return found[("odin_action_seconds_bucket", (("game", "odin"), ("le", le)))]

    assert bucket("0.001") == 0
    assert bucket("0.0025") == 0
    assert bucket("0.005") == 1
    assert bucket("0.1") == 1
    assert bucket("0.15") == 2
    assert bucket("2.0") == 2
    assert bucket("+Inf") == 3
    assert found[("odin_action_seconds_sum", odin)] == pytest.approx(3.123)


async def test_metrics_lease_changes_by_event_and_evictions(ops_app: Ops) -> None:
    before = samples((await ops_app.http.get("/metrics")).text)
    for event in LEASE_EVENTS:  # every event is a series from the start
        assert before[("odin_lease_changes_total", (("event", event),))] == 0
    assert before[("odin_table_evictions_total", ())] == 0
    ops_app.metrics.lease_changed("acquired")
    ops_app.metrics.lease_changed("acquired")
    ops_app.metrics.lease_changed("fenced")
    ops_app.metrics.table_evicted()
    after = samples((await ops_app.http.get("/metrics")).text)
    assert after[("odin_lease_changes_total", (("event", "acquired"),))] == 2
    assert after[("odin_lease_changes_total", (("event", "fenced"),))] == 1
    assert after[("odin_lease_changes_total", (("event", "released"),))] == 0
    assert after[("odin_table_evictions_total", ())] == 1


async def test_metrics_levels_are_read_from_the_probes_at_each_scrape(ops_app: Ops) -> None:
    probes = ops_app.probes
    probes.tables = {"waiting": 2, "playing": 5}
    probes.open_connections = 17
    probes.queue = 4
    probes.leases = 5
    first = samples((await ops_app.http.get("/metrics")).text)
    assert first[("odin_tables", (("state", "playing"),))] == 5
    assert first[("odin_tables", (("state", "waiting"),))] == 2
    assert first[("odin_connections", ())] == 17
    assert first[("odin_bot_queue_length", ())] == 4
    assert first[("odin_leases_held", ())] == 5
    probes.tables = {"playing": 6, "finished": 1}
    probes.open_connections = 0
    second = samples((await ops_app.http.get("/metrics")).text)
    assert second[("odin_tables", (("state", "playing"),))] == 6
    assert second[("odin_tables", (("state", "finished"),))] == 1
    assert ("odin_tables", (("state", "waiting"),)) not in second
    assert second[("odin_connections", ())] == 0


async def test_metrics_include_this_process_cpu_and_memory(ops_app: Ops) -> None:
    found = samples((await ops_app.http.get("/metrics")).text)
    assert found[("process_cpu_seconds_total", ())] > 0
    assert found[("process_resident_memory_bytes", ())] > 0


def test_many_apps_in_one_process_keep_their_own_figures() -> None:
    first, second = PrometheusMetrics(process=False), PrometheusMetrics(process=False)
    for metrics in (first, second):
        install_ops(FastAPI(), FakeProbes(), metrics)
    first.action_applied("odin", 0.01)
    one = samples(first.exposition().decode())
    other = samples(second.exposition().decode())
    assert one[("odin_actions_total", (("game", "odin"),))] == 1
    assert other[("odin_actions_total", (("game", "odin"),))] == 0
    assert ("process_cpu_seconds_total", ()) not in one
