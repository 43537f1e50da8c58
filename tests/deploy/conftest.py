"""Fixtures: nginx (``deploy/nginx/odin.conf``) in front of real ``odin serve`` processes.

The processes share a fresh PostgreSQL database (created and dropped here) and, once the
server runs as several processes (``odin serve --redis-url``), the Redis on 127.0.0.1:6379.
A test that needs a service this machine lacks skips with a one-line reason.
"""

from __future__ import annotations

import functools
import os
import secrets
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cluster_processes import (
    REDIS_URL,
    Nginx,
    Server,
    create_database,
    drop_database,
    drop_redis_keys,
    nginx_missing,
    odin_command,
    postgres_reachable,
    redis_reachable,
    start_server,
    wait_ready,
)

REDIS_PREFIX = f"odin-deploy-{secrets.token_hex(6)}:"
"""This test session's Redis namespace (other sessions share the Redis)."""


@functools.cache
def serve_options() -> str:
    """``odin serve --help``: which options this build has."""
    wide = {**os.environ, "COLUMNS": "200"}  # option names never cut short
    command = [*odin_command(), "serve", "--help"]
    return subprocess.run(command, capture_output=True, text=True, check=True, env=wide).stdout


def several_processes() -> bool:
    """Whether ``odin serve`` can run as one of several processes (``--redis-url``)."""
    return "--redis-url" in serve_options()


@dataclass
class Cluster:
    """The processes and the proxy in front of them."""

    servers: list[Server]
    nginx: Nginx
    options: list[str]
    directory: Path

    @property
    def base(self) -> str:
        return self.nginx.base

    def restart(self, index: int, crash: bool = False) -> None:
        """Stop process ``index`` gracefully (SIGTERM; ``crash``: SIGKILL) and start it
        again on its port, as systemd's ``Restart=always`` does."""
        old = self.servers[index]
        if crash:
            old.process.kill()
            old.process.wait()
        old.stop()
        new = start_server(self.options, self.directory, port=old.port)
        self.servers[index] = new
        wait_ready(new)

    def stop(self) -> None:
        self.nginx.stop()
        for server in self.servers:
            server.stop()


@pytest.fixture(scope="package")
def database() -> Iterator[str]:
    """A new PostgreSQL database for this package's processes (dropped at the end)."""
    reason = postgres_reachable()
    if reason:
        pytest.skip(reason)
    name, url = create_database("deploy")
    try:
        yield url
    finally:
        drop_database(name)


def cluster_options(database_url: str, extra: list[str] | None = None) -> list[str]:
    """The options of every process: the shared stores, instant bots in a thread."""
    options = ["--database-url", database_url, "--bot-delay", "0", "--workers", "0"]
    options += ["--log-level", "warning", *(extra or [])]
    if "--waiting-tables-per-ip" in serve_options():
        # these tests are about the proxy's limits: one address's share of the waiting
        # tables (20 by default, the server's own limit) must not answer first
        options += ["--waiting-tables-per-ip", "1000"]
    if several_processes():
        options += ["--redis-url", REDIS_URL]
        if "--redis-prefix" in serve_options():
            options += ["--redis-prefix", REDIS_PREFIX]
    return options


def start_cluster(
    directory: Path, database_url: str, processes: int, extra: list[str] | None = None
) -> Cluster:
    """``processes`` servers and nginx in front of them, all answering."""
    reason = nginx_missing()
    if reason:
        pytest.skip(reason)
    if several_processes():
        reason = redis_reachable()
        if reason:
            pytest.skip(reason)
    options = cluster_options(database_url, extra)
    servers = [start_server(options, directory) for _ in range(processes)]
    nginx = Nginx(directory / "nginx", [f"127.0.0.1:{s.port}" for s in servers])
    cluster = Cluster(servers, nginx, options, directory)
    try:
        for server in servers:
            wait_ready(server)
        nginx.start()
    except BaseException:
        cluster.stop()
        raise
    return cluster


@pytest.fixture(scope="package")
def cluster(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Two processes behind nginx (one, until the server can run as several)."""
    processes = 2 if several_processes() else 1
    running = start_cluster(tmp_path_factory.mktemp("cluster"), database, processes)
    try:
        yield running
    finally:
        running.stop()
        if several_processes():
            drop_redis_keys(REDIS_PREFIX)
