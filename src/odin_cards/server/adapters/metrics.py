"""The domain's :class:`Metrics` port in Prometheus terms (``prometheus-client``).

Counters and a histogram are updated where things happen (an action applied, a lease
changed, a table evicted); what is a level rather than an event (tables by state,
connections, the bot queue, leases held) is read from :class:`Readings` when Prometheus
scrapes, so nothing has to remember to keep a gauge up to date. Rates (actions per
second) are Prometheus's job: ``rate(odin_actions_total[1m])``.

Each instance has its own :class:`~prometheus_client.CollectorRegistry` (never the global
one), so one process may build many applications (the tests do) without name clashes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector

from odin_cards.games import keys

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of :meth:`PrometheusMetrics.exposition` (the Prometheus text format)."""

LEASE_EVENTS = ("acquired", "renewed-lost", "released", "taken-over", "fenced")
"""The lease changes the domain reports; each is a series from the start (at 0)."""

LATENCY_BUCKETS = (
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.075,
    0.1,
    0.15,
    0.25,
    0.5,
    1.0,
    2.0,
)
"""Seconds from an action's check to its acknowledgement: 1 ms (an idle process on a
local database) to 2 s (far past the 150 ms a player notices), with 150 ms a bucket edge."""


class Readings(Protocol):
    """The levels read at scrape time (the synchronous half of the ops probes)."""

    def leases_held(self) -> int: ...

    def tables_by_state(self) -> dict[str, int]: ...

    def connections(self) -> int: ...

    def bot_queue_length(self) -> int: ...


class _LevelsCollector(Collector):
    """Gauges whose values come from :class:`Readings` at each scrape."""

    def __init__(self, readings: Readings) -> None:
        self._readings = readings

    def collect(self) -> Iterator[Metric]:
        readings = self._readings
        tables = GaugeMetricFamily(
            "odin_tables", "Tables in this process's memory, by state.", labels=["state"]
        )
        for state, count in sorted(readings.tables_by_state().items()):
            tables.add_metric([state], count)
        yield tables
        yield GaugeMetricFamily(
            "odin_connections",
            "Open WebSocket connections of this process.",
            value=readings.connections(),
        )
        yield GaugeMetricFamily(
            "odin_bot_queue_length",
            "Bot moves waiting for a worker in this process.",
            value=readings.bot_queue_length(),
        )
        yield GaugeMetricFamily(
            "odin_leases_held",
            "Table leases this process holds (tables it alone may write).",
            value=readings.leases_held(),
        )

    def describe(self) -> Iterator[Metric]:
        # Names only, so that registering never calls the readings (the server may not
        # have started yet).
        yield GaugeMetricFamily("odin_tables", "", labels=["state"])
        yield GaugeMetricFamily("odin_connections", "")
        yield GaugeMetricFamily("odin_bot_queue_length", "")
        yield GaugeMetricFamily("odin_leases_held", "")


class PrometheusMetrics:
    """The :class:`~odin_cards.server.core.ports.Metrics` port, with its own registry."""

    content_type = CONTENT_TYPE
    """The media type of :meth:`exposition`."""

    def __init__(self, process: bool = True) -> None:
        """``process``: also export this process's CPU seconds, memory and open files
        (``process_*``, read from ``/proc`` at scrape time; Linux only)."""
        self.registry = CollectorRegistry()
        self._actions = Counter(
            "odin_actions",
            "Actions applied (checked, stored, applied and acknowledged), by game.",
            ["game"],
            registry=self.registry,
        )
        self._latency = Histogram(
            "odin_action_seconds",
            "Seconds from an action's check to its acknowledgement, by game.",
            ["game"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self._leases = Counter(
            "odin_lease_changes",
            "Table lease changes of this process, by event.",
            ["event"],
            registry=self.registry,
        )
        self._evictions = Counter(
            "odin_table_evictions",
            "Tables dropped from this process's memory (finished, idle or handed over).",
            registry=self.registry,
        )
        for game in keys():
            self._actions.labels(game)
            self._latency.labels(game)
        for event in LEASE_EVENTS:
            self._leases.labels(event)
        if process:
            ProcessCollector(registry=self.registry)
        self._levels: _LevelsCollector | None = None

    # ------------------------------------------------------------ the Metrics port

    def action_applied(self, game: str, seconds: float) -> None:
        self._actions.labels(game).inc()
        self._latency.labels(game).observe(seconds)

    def lease_changed(self, event: str) -> None:
        self._leases.labels(event).inc()

    def table_evicted(self) -> None:
        self._evictions.inc()

    # ------------------------------------------------------------ scraping

    def read_from(self, readings: Readings) -> None:
        """Export the levels of ``readings`` (once; a second call replaces the first)."""
        if self._levels is not None:
            self.registry.unregister(self._levels)
        self._levels = _LevelsCollector(readings)
        self.registry.register(self._levels)

    def exposition(self) -> bytes:
        """Every metric in Prometheus text format (:data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)
