"""Operations endpoints: ``/healthz`` (alive), ``/readyz`` (may serve) and ``/metrics``.

``/healthz`` answers 200 as long as the process's event loop runs: a supervisor restarts a
process whose ``/healthz`` stops answering. ``/readyz`` answers 200 when the database (and
Redis, where one is configured) answer and the process is not draining; otherwise 503 with
the project's error shape and the reason, so a load balancer or monitoring sends players
elsewhere. ``/metrics`` is the text exposition of the server's metrics (:class:`Exposition`:
Prometheus's, ``adapters/metrics.py``, given by the composition root).

A public server meets hostile clients here too: a flood of ``/readyz`` must not become a
flood of database round trips, so concurrent checks share one, and a result is reused for
:data:`CHECK_REUSE` seconds. A probe that hangs counts as down after :data:`CHECK_TIMEOUT`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response

log = logging.getLogger(__name__)

CHECK_TIMEOUT = 2.0
"""Seconds a database or Redis probe may take before it counts as unreachable."""
CHECK_REUSE = 1.0
"""Seconds a readiness result is reused (a burst of probes costs one round trip each)."""
NO_CACHE = {"Cache-Control": "no-store"}


class Probes(Protocol):
    """What the operations endpoints ask the running server (``app.py`` implements it)."""

    async def database_ok(self) -> bool: ...

    async def redis_ok(self) -> bool | None:
        """``None``: no Redis is configured (a single process)."""
        ...

    def leases_held(self) -> int: ...

    def tables_by_state(self) -> dict[str, int]: ...

    def connections(self) -> int: ...

    def bot_queue_length(self) -> int: ...


class Exposition(Protocol):
    """The server's metrics as ``/metrics`` shows them (``adapters/metrics.py``)."""

    content_type: str
    """The exposition's media type."""

    def read_from(self, readings: Probes) -> None:
        """Read the levels (tables, leases, connections, bot queue) from ``readings``."""

    def exposition(self) -> bytes: ...


@dataclass
class Readiness:
    """Whether this process should get new players, checked at most every CHECK_REUSE s."""

    probes: Probes
    clock: Callable[[], float] = time.monotonic
    draining: bool = False
    """Set by :func:`drain`: the process is stopping and hands its tables over."""
    _checked: tuple[float, dict[str, Any]] | None = field(default=None, init=False)
    _running: asyncio.Task[dict[str, Any]] | None = field(default=None, init=False, repr=False)

    async def check(self) -> dict[str, Any]:
        """The checks' results: ``database``, ``redis`` (``None``: not configured), ``leases``."""
        now = self.clock()
        if self._checked is not None and now - self._checked[0] < CHECK_REUSE:
            return self._checked[1]
        if self._running is None:
            self._running = asyncio.create_task(self._probe())
            self._running.add_done_callback(self._forget)
        # shield: one impatient client that goes away must not cancel everybody's check
        return await asyncio.shield(self._running)

    def _forget(self, task: asyncio.Task[dict[str, Any]]) -> None:
        self._running = None
        if not task.cancelled() and task.exception() is None:
            self._checked = (self.clock(), task.result())

    async def _probe(self) -> dict[str, Any]:
        database, redis = await asyncio.gather(
            _within(self.probes.database_ok(), "database"),
            _within(self.probes.redis_ok(), "redis"),
        )
        return {
            "database": database is True,
            "redis": None if redis is None else redis is True,
            "leases": self.probes.leases_held(),
        }


async def _within(probe: Awaitable[bool | None], name: str) -> bool | None:
    """The probe's answer; ``False`` when it fails or takes longer than CHECK_TIMEOUT."""
    try:
        return await asyncio.wait_for(probe, CHECK_TIMEOUT)
    except Exception as error:  # a probe that fails in any way means "not reachable"
        log.warning("readiness: the %s probe failed: %s", name, type(error).__name__)
        return False


def not_ready_reason(checks: dict[str, Any], draining: bool) -> str | None:
    """Why the process should get no new players now; ``None`` when it may."""
    if draining:
        return "the process is stopping and hands its tables over"
    if not checks["database"]:
        return "the database does not answer"
    if checks["redis"] is False:
        return "Redis does not answer"
    return None


def drain(app: FastAPI) -> None:
    """From now on ``/readyz`` answers 503: call when a graceful stop begins (SIGTERM)."""
    readiness: Readiness = app.state.readiness
    readiness.draining = True


def install_ops(app: FastAPI, probes: Probes, metrics: Exposition) -> None:
    """Add ``/healthz``, ``/readyz`` and ``/metrics`` to ``app`` (GET and HEAD, not cached)."""
    readiness = Readiness(probes)
    app.state.readiness = readiness
    metrics.read_from(probes)

    async def healthz() -> Response:
        return JSONResponse({"status": "alive"}, headers=NO_CACHE)

    async def readyz() -> Response:
        checks = await readiness.check()
        reason = not_ready_reason(checks, readiness.draining)
        body = {**checks, "draining": readiness.draining}
        if reason is not None:
            return JSONResponse(
                {"error": "not_ready", "message": reason, **body}, 503, headers=NO_CACHE
            )
        return JSONResponse({"status": "ready", **body}, headers=NO_CACHE)

    async def metrics_text() -> Response:
        return Response(metrics.exposition(), media_type=metrics.content_type, headers=NO_CACHE)

    for path, route in (("/healthz", healthz), ("/readyz", readyz), ("/metrics", metrics_text)):
        app.add_api_route(path, route, methods=["GET", "HEAD"], include_in_schema=False)
