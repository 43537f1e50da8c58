"""How ``deploy/nginx/odin.conf`` spreads requests over processes, and routes around a dead one.

Two independent processes (each its own SQLite file: routing needs no shared tables) behind
nginx. The access log names the process (``$upstream_addr``) that answered each request.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from cluster_processes import Nginx, Server, nginx_missing, start_server, wait_ready
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

pytestmark = [pytest.mark.nginx, pytest.mark.multiprocess]


class Pair:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.servers = [self._start(name) for name in ("a", "b")]
        self.nginx = Nginx(directory / "nginx", [f"127.0.0.1:{s.port}" for s in self.servers])

    def _start(self, name: str, port: int | None = None) -> Server:
        data = self.directory / name
        options = ["--data-dir", str(data), "--workers", "0", "--log-level", "warning"]
        return start_server(options, self.directory, port=port, name=name)

    def restart(self, index: int) -> None:
        name = "ab"[index]
        self.servers[index] = self._start(name, port=self.servers[index].port)
        wait_ready(self.servers[index])

    def served(self, marker: str) -> list[str]:
        """The upstream of every logged request whose line contains ``marker``."""
        return [line.rsplit("-> ", 1)[1] for line in self.nginx.access_log() if marker in line]

    def wait_logged(self, marker: str, count: int) -> list[str]:
        deadline = time.monotonic() + 10
        while len(found := self.served(marker)) < count:
            assert time.monotonic() < deadline, self.nginx.access_log()[-20:]
            time.sleep(0.05)
        return found


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    if reason := nginx_missing():
        pytest.skip(reason)
    running = Pair(tmp_path_factory.mktemp("routing"))
    try:
        for server in running.servers:
            wait_ready(server)
        running.nginx.start()
        yield running
    finally:
        running.nginx.stop()
        for server in running.servers:
            server.stop()


def knock(pair: Pair, table: str) -> None:
    """Open a WebSocket for ``table`` through nginx (the process answers not_found)."""
    url = pair.nginx.base.replace("http://", "ws://") + f"/ws/{table}"
    try:
        with connect(url, open_timeout=10) as socket:
            socket.recv(timeout=10)
    except (WebSocketException, TimeoutError):
        pass


def test_every_socket_of_a_table_goes_to_the_same_process(pair: Pair) -> None:
    tables = [f"route{n:03d}" for n in range(24)]
    for _ in range(3):
        for table in tables:
            knock(pair, table)
    by_table = {table: set(pair.wait_logged(f"/ws/{table} ", 3)) for table in tables}
    assert all(len(upstreams) == 1 for upstreams in by_table.values()), by_table
    # ... and the tables are spread over both processes
    used = Counter(next(iter(upstreams)) for upstreams in by_table.values())
    assert len(used) == 2, used
    assert min(used.values()) >= 4, used


def test_a_tables_api_requests_go_where_its_sockets_go(pair: Pair) -> None:
    tables = [f"api{n:03d}" for n in range(12)]
    with httpx.Client(timeout=10) as http:
        for table in tables:
            knock(pair, table)
            for path in (f"/api/tables/{table}", f"/api/tables/{table}/record"):
                assert http.get(pair.nginx.base + path).status_code == 404
            seat = http.post(f"{pair.nginx.base}/api/tables/{table}/seats/0", json={"name": "A"})
            assert seat.status_code == 404
    for table in tables:
        socket = pair.wait_logged(f"/ws/{table} ", 1)
        api = pair.wait_logged(f"/api/tables/{table}", 3)
        assert set(api) == set(socket), (table, socket, api)


def test_http_requests_are_spread_over_the_processes(pair: Pair) -> None:
    with httpx.Client(timeout=10) as http:
        for n in range(40):
            assert http.get(f"{pair.nginx.base}/api/levels?n={n}").status_code == 200
            mine = http.post(f"{pair.nginx.base}/api/tables/mine", json={"tokens": []})
            assert mine.status_code == 200
    used = Counter(pair.wait_logged("/api/levels?n=", 40))
    assert len(used) == 2 and min(used.values()) >= 8, used
    # "mine" is no table id: those requests are spread too
    mine_used = Counter(pair.wait_logged("/api/tables/mine ", 40))
    assert len(mine_used) == 2 and min(mine_used.values()) >= 8, mine_used


def test_a_dead_process_is_routed_around_and_comes_back(pair: Pair) -> None:
    dead = pair.servers[0]
    alive = f"127.0.0.1:{pair.servers[1].port}"
    dead.stop()
    with httpx.Client(timeout=10) as http:
        answers = [http.get(f"{pair.nginx.base}/api/levels?down={n}") for n in range(20)]
    assert [a.status_code for a in answers] == [200] * 20
    # the tables the dead process had go to the living one
    tables = [f"orphan{n:03d}" for n in range(12)]
    for table in tables:
        knock(pair, table)
    refused = []
    for table in tables:
        final = pair.wait_logged(f"/ws/{table} ", 1)[-1]
        assert final.endswith(alive), final  # "dead, alive" when the first try was refused
        if final != alive:
            refused.append(table)
    assert refused, "no table of the dead process"
    # Back again, it gets its tables at once: nginx never marks a process down (max_fails=0),
    # because a mark outlives the restart (its fail_timeout) and even the WebSockets that
    # then connect, so that after a failover no process could count as up (docs/deploy.md).
    pair.restart(0)
    back = f"127.0.0.1:{pair.servers[0].port}"
    for table in refused:
        knock(pair, table)
    for table in refused:
        assert pair.wait_logged(f"/ws/{table} ", 2)[-1] == back, pair.served(f"/ws/{table} ")
