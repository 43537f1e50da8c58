"""``deploy/nginx/odin.conf`` for real: Debian's nginx in front of real ``odin serve``.

What the proxy must keep (security headers, the client's address, the body limit, JSON
errors) and what it adds (WebSocket upgrades, static caching, a JSON answer when no
process does, ``/metrics`` only from the machine itself).
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from cluster_processes import (
    NGINX,
    SITE,
    create_database,
    drop_database,
    nginx_missing,
    postgres_reachable,
)
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from odin_cards.server.transport.headers import HEADERS
from odin_cards.server.transport.uvicorn_config import KEEP_ALIVE_SECONDS

from .conftest import Cluster, start_cluster

pytestmark = [pytest.mark.nginx, pytest.mark.postgres, pytest.mark.redis, pytest.mark.multiprocess]

SECURITY_HEADERS = [name.decode() for name, _ in HEADERS]


def client(source: str = "127.0.0.1") -> httpx.Client:
    """An HTTP client whose connections come from ``source`` (any 127.x.y.z is loopback)."""
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(transport=transport, timeout=10)


def new_table(http: httpx.Client, base: str, bots: int = 0) -> httpx.Response:
    body = {"players": 2, "bots": {str(seat): "random" for seat in range(bots)}}
    return http.post(f"{base}/api/tables", json=body)


def test_the_deployed_configuration_passes_nginx_t(cluster: Cluster) -> None:
    checked = cluster.nginx.check()
    assert checked.returncode == 0, checked.stderr


def test_pages_api_and_files_keep_the_security_headers(cluster: Cluster) -> None:
    with client() as http:
        for path in ("/", "/api/levels", "/static/js/connection.js", "/api/tables/nope"):
            answer = http.get(cluster.base + path)
            assert answer.status_code in (200, 404), (path, answer.status_code)
            for name in SECURITY_HEADERS:
                assert name in answer.headers, (path, name)
            # nginx does not announce its version
            assert answer.headers.get("server", "") in ("", "nginx"), answer.headers["server"]


@pytest.mark.parametrize(
    "path",
    [
        "/static/js/api.js",  # the shell's
        "/games/odin/board.js",  # a game's board files
        "/games/odin/rules",  # and its own pages
    ],
)
def test_the_client_files_are_cached_by_the_proxy(cluster: Cluster, path: str) -> None:
    with client() as http:
        first, second = (http.get(cluster.base + path) for _ in range(2))
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert "content-security-policy" in second.headers  # the cached answer keeps them

    def served() -> list[str]:
        return [line for line in cluster.nginx.access_log() if f"GET {path} " in line]

    deadline = time.monotonic() + 5
    while len(served()) < 2:
        assert time.monotonic() < deadline, cluster.nginx.access_log()
        time.sleep(0.05)
    upstreams = [line.rsplit("-> ", 1)[1] for line in served()]
    assert upstreams[0].startswith("127.0.0.1:")  # the first from a process
    assert upstreams[1] == "-"  # the second from nginx's cache


def test_a_body_over_the_limit_is_refused_by_the_proxy_as_the_server_would(
    cluster: Cluster,
) -> None:
    body = json.dumps({"players": 2, "padding": "x" * (65 * 1024)})
    with client() as http:
        answer = http.post(
            cluster.base + "/api/tables",
            content=body,
            headers={"content-type": "application/json"},
        )
    assert answer.status_code == 413
    assert answer.json()["error"] == "too_large"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_a_body_under_the_limit_reaches_the_server(cluster: Cluster) -> None:
    body = json.dumps({"players": 2, "padding": "x" * (60 * 1024)})
    with client() as http:
        answer = http.post(
            cluster.base + "/api/tables",
            content=body,
            headers={"content-type": "application/json"},
        )
    assert answer.status_code == 422  # the server's own answer: no such field
    assert answer.json()["error"] == "invalid"


def test_metrics_through_the_proxy_only_from_this_machine(cluster: Cluster) -> None:
    with client("127.0.0.1") as local, client("127.0.0.2") as remote:
        assert remote.get(cluster.base + "/metrics").status_code == 403
        answer = local.get(cluster.base + "/metrics")
    assert answer.status_code == 200
    assert "odin_actions_total" in answer.text


def test_health_and_readiness_through_the_proxy(cluster: Cluster) -> None:
    with client("127.0.0.2") as http:
        assert http.get(cluster.base + "/healthz").json() == {"status": "alive"}
        ready = http.get(cluster.base + "/readyz")
    assert ready.status_code == 200
    assert ready.json()["database"] is True


def connections(cluster: Cluster, index: int) -> float:
    """Open WebSockets of process ``index`` (``odin_connections``, asked directly)."""
    with client() as http:
        text = http.get(cluster.servers[index].base + "/metrics").text
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        if family.name == "odin_connections"
        for sample in family.samples
    )


def applied(cluster: Cluster) -> float:
    """``odin_actions_total`` summed over the processes (each asked directly)."""
    total = 0.0
    with client() as http:
        for server in cluster.servers:
            text = http.get(server.base + "/metrics").text
            for family in text_string_to_metric_families(text):
                if family.name == "odin_actions":
                    total += sum(s.value for s in family.samples if s.name.endswith("_total"))
    return total


def test_a_websocket_is_upgraded_and_plays(cluster: Cluster) -> None:
    before = applied(cluster)
    with client() as http:
        table = new_table(http, cluster.base, bots=1).json()["table"]["id"]
        seat = http.post(f"{cluster.base}/api/tables/{table}/seats/1", json={"name": "Ws"})
        token = seat.json()["token"]
    url = cluster.base.replace("http://", "ws://") + f"/ws/{table}"
    with connect(url, open_timeout=10) as socket:
        socket.send(json.dumps({"type": "hello", "token": token}))
        kinds: list[str] = []
        deadline = time.monotonic() + 10
        state = None
        while state is None or not state.get("legal"):
            assert time.monotonic() < deadline, kinds
            message = json.loads(socket.recv(timeout=10))
            kinds.append(message["type"])
            state = message.get("state", state)
        assert "welcome" in kinds
        version = message["version"]
        socket.send(
            json.dumps({"type": "act", "action": state["legal"][0], "version": version, "id": "a1"})
        )
        while True:
            message = json.loads(socket.recv(timeout=10))
            if message["type"] == "ack":
                break
            assert message["type"] != "error", message
    # the owner counted it (the bot's moves too)
    assert applied(cluster) >= before + 1


# ---------------------------------------------------------------- one address's share


def test_one_address_holds_32_websockets_over_all_the_processes(cluster: Cluster) -> None:
    """Each process counts its own clients' sockets, but behind the proxy one address's
    sockets are spread over the processes: the proxy counts them all."""
    source = "127.0.0.9"
    with client(source) as http:
        tables = [new_table(http, cluster.base).json()["table"]["id"] for _ in range(33)]
    ws = cluster.base.replace("http://", "ws://")
    with contextlib.ExitStack() as stack:
        for table in tables[:32]:
            socket = stack.enter_context(
                connect(f"{ws}/ws/{table}", open_timeout=10, source_address=(source, 0))
            )
            socket.send(json.dumps({"type": "hello"}))  # a spectator: it stays
            assert json.loads(socket.recv(timeout=10))["type"] == "welcome"
        assert all(connections(cluster, index) > 0 for index in range(len(cluster.servers)))
        with pytest.raises(InvalidStatus) as refused:
            connect(f"{ws}/ws/{tables[32]}", open_timeout=10, source_address=(source, 0))
        assert refused.value.response.status_code == 429
        assert json.loads(refused.value.response.body or b"{}")["error"] == "rate_limited"
        # another address is not affected
        with connect(f"{ws}/ws/{tables[32]}", open_timeout=10, source_address=("127.0.0.10", 0)):
            pass


def test_one_address_creates_60_tables_at_once_over_all_the_processes(cluster: Cluster) -> None:
    with client("127.0.0.11") as http:
        made = [new_table(http, cluster.base).status_code for _ in range(60)]
        assert made == [201] * 60
        refused = new_table(http, cluster.base)
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        assert refused.headers["retry-after"] == "60"
        assert http.get(f"{cluster.base}/api/tables").status_code == 200  # reading is free


def test_one_address_joins_play_now_10_times_at_once_over_all_the_processes(
    cluster: Cluster,
) -> None:
    """Each process allows one address 10 joins a minute; behind the proxy they would be
    spread over the processes, so the proxy counts them all."""
    url = f"{cluster.base}/api/play-now"

    def join(http: httpx.Client, n: int) -> httpx.Response:
        """Join and leave again (an address has only a few people waiting at once)."""
        body = {"players": 6, "target": "15", "clock": "fast", "name": f"P{n}"}
        answer = http.post(url, json=body)
        if answer.status_code == 201:
            left = http.post(f"{url}/cancel", json={"ticket": answer.json()["ticket"]})
            assert left.status_code == 200, left.text
        return answer

    with client("127.0.0.12") as http:
        assert [join(http, n).status_code for n in range(10)] == [201] * 10
        refused = join(http, 10)
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
    with client("127.0.0.13") as other:  # another address is not affected
        assert join(other, 11).status_code == 201


def test_the_proxy_refuses_a_flood_of_sign_ups_before_a_process_hashes_them(
    cluster: Cluster,
) -> None:
    """The processes count sign-ups in the database (``locked``), but each one costs a
    password hash: the proxy refuses the 11th at once (``rate_limited``)."""
    url = f"{cluster.base}/api/account/signup"
    password = "correct horse battery"
    with client("127.0.0.14") as http:
        names = [f"Proxy{n}{time.monotonic_ns() % 10**6}" for n in range(11)]
        made = [http.post(url, json={"name": name, "password": password}) for name in names]
        assert [answer.status_code for answer in made[:10]] == [201] * 10
        assert made[10].status_code == 429
        assert made[10].json()["error"] == "rate_limited"


# ---------------------------------------------------------------- the client's address


@pytest.fixture(scope="module")
def one_table_an_hour(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """One process, its own database, and a quota of one table an hour per address."""
    reason = postgres_reachable()
    if reason:
        pytest.skip(reason)
    name, url = create_database("deploy_quota")
    directory = tmp_path_factory.mktemp("quota")
    try:
        running = start_cluster(directory, url, 1, ["--tables-per-hour", "1"])
        try:
            yield running
        finally:
            running.stop()
    finally:
        drop_database(name)


def test_the_server_counts_quotas_by_the_client_address_not_the_proxys(
    one_table_an_hour: Cluster,
) -> None:
    base = one_table_an_hour.base
    with client("127.0.0.2") as ann, client("127.0.0.3") as bob:
        assert new_table(ann, base).status_code == 201
        refused = new_table(ann, base)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"] == "rate_limited"
        # Another address has its own quota (behind one proxy address, it would be spent).
        assert new_table(bob, base).status_code == 201
        assert new_table(bob, base).status_code == 429


def test_a_forged_forwarded_for_does_not_change_the_address(one_table_an_hour: Cluster) -> None:
    base = one_table_an_hour.base
    with client("127.0.0.4") as mallory:
        # claims to be 127.0.0.5: nginx appends the real peer, the server takes that one
        forged = {"x-forwarded-for": "127.0.0.5"}
        body = {"players": 2}
        assert mallory.post(f"{base}/api/tables", json=body, headers=forged).status_code == 201
        assert mallory.post(f"{base}/api/tables", json=body, headers=forged).status_code == 429
    with client("127.0.0.5") as honest:
        assert new_table(honest, base).status_code == 201


def test_no_process_answers_gives_json_and_headers(one_table_an_hour: Cluster) -> None:
    one_table_an_hour.servers[0].stop()
    with client() as http:
        answer = http.get(one_table_an_hour.base + "/api/levels")
    assert answer.status_code == 503
    assert answer.json()["error"] == "unavailable"
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["retry-after"] == "5"
    one_table_an_hour.restart(0)
    with client() as http:
        assert http.get(one_table_an_hour.base + "/api/levels").status_code == 200


def test_nginx_logs_no_error_for_all_this(one_table_an_hour: Cluster) -> None:
    errors = [
        line
        for line in one_table_an_hour.nginx.error_log().splitlines()
        if "[emerg]" in line or "[crit]" in line or "[alert]" in line
    ]
    assert errors == []


def test_the_rendered_site_differs_from_the_deployed_one_only_in_addresses(
    cluster: Cluster,
) -> None:
    rendered = (cluster.nginx.prefix / "odin.conf").read_text().splitlines()
    deployed = (Path(__file__).parents[2] / "deploy/nginx/odin.conf").read_text().splitlines()
    changed = {line.strip() for line in set(deployed) ^ set(rendered)}
    assert all(
        line.startswith(("server 127.0.0.1:", "listen ", "proxy_cache_path ")) for line in changed
    ), changed


def test_the_proxy_drops_idle_connections_before_the_server_does() -> None:
    """Else nginx may reuse a kept-alive connection the process is closing: the request
    fails, and a POST (take a seat, an action) is not retried (seen as 503s in bench/load.py
    at 400 tables, with nginx's default of 60 s against the server's 5 s)."""
    deployed = (Path(__file__).parents[2] / "deploy/nginx/odin.conf").read_text()
    upstream = re.search(r"^upstream odin \{(.*?)^\}", deployed, re.MULTILINE | re.DOTALL)
    assert upstream is not None
    timeout = re.search(r"^\s*keepalive_timeout (\d+)s;", upstream.group(1), re.MULTILINE)
    assert timeout is not None, "no keepalive_timeout in the upstream: nginx keeps 60 s"
    assert int(timeout.group(1)) < KEEP_ALIVE_SECONDS


DEBIAN_NGINX = Path("/etc/nginx/nginx.conf")


@pytest.mark.skipif(not DEBIAN_NGINX.exists(), reason="no Debian nginx.conf at /etc/nginx")
def test_the_site_fits_debians_nginx_conf_as_installed(tmp_path: Path) -> None:
    """docs/deploy.md's steps on a copy of /etc/nginx: conf.d/odin.conf in, the default
    site out, ``nginx -t`` (only the cache directory moved into the test's directory)."""
    etc = tmp_path / "nginx"
    shutil.copytree(DEBIAN_NGINX.parent, etc, symlinks=True)
    if reason := nginx_missing():
        pytest.skip(reason)
    site = SITE.read_text().replace("/var/lib/nginx/odin-static", str(tmp_path / "cache"))
    (etc / "conf.d" / "odin.conf").write_text(site)
    (etc / "sites-enabled" / "default").unlink(missing_ok=True)
    main = etc / "nginx.conf"
    main.write_text(main.read_text().replace("/etc/nginx/", f"{etc}/"))
    checked = subprocess.run(
        [str(NGINX), "-t", "-c", str(main)], capture_output=True, text=True, timeout=30, check=False
    )
    assert checked.returncode == 0, checked.stderr
