"""Several real ``odin serve`` processes behind a real nginx, for tests and benchmarks.

``tests/deploy`` and ``bench/load.py`` start the same thing a deployment runs: the
processes (``odin serve`` on free loopback ports, sharing one PostgreSQL database and
one Redis), and nginx with ``deploy/nginx/odin.conf`` rendered for those ports
(:func:`render_site`), as a foreground process with its own prefix directory. Everything
is synchronous (subprocesses, ``urllib``) so that pytest fixtures and an asyncio
benchmark can both use it; the one asynchronous driver, asyncpg, runs in a thread.
"""

from __future__ import annotations

import asyncio
import os
import re
import resource
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "deploy" / "nginx" / "odin.conf"
NGINX = Path(os.environ.get("ODIN_NGINX", "/usr/sbin/nginx"))
POSTGRES_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
"""Where test databases are created (the PostgreSQL of the test suite)."""
POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
REDIS_URL = "redis://127.0.0.1:6379/0"

T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def odin_command() -> list[str]:
    """The ``odin`` command of this interpreter's environment."""
    script = Path(sys.executable).with_name("odin")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from odin_cards.cli import main; main()"]


def in_thread(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to its end in a thread of its own (callers may have a loop running)."""
    result: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(asyncio.run(coroutine))
        except BaseException as error:  # handed to the caller
            failure.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


# ---------------------------------------------------------------- PostgreSQL and Redis


def postgres_reachable() -> str | None:
    """``None`` when the test PostgreSQL answers, else why not (one line)."""

    async def probe() -> None:
        import asyncpg

        connection = await asyncpg.connect(POSTGRES_ADMIN, timeout=3)
        await connection.close()

    try:
        in_thread(probe())
    except Exception as error:
        return f"PostgreSQL on 127.0.0.1:5432 is not reachable ({type(error).__name__}: {error})"
    return None


def redis_reachable() -> str | None:
    """``None`` when the Redis on 127.0.0.1:6379 answers, else why not (one line)."""
    import redis

    try:
        client = redis.Redis.from_url(REDIS_URL, socket_timeout=3)
        client.ping()
        client.close()
    except Exception as error:
        return f"Redis on 127.0.0.1:6379 is not reachable ({type(error).__name__}: {error})"
    return None


def create_database(purpose: str) -> tuple[str, str]:
    """A new, empty PostgreSQL database: its name and its URL for ``--database-url``."""
    name = f"odin_{purpose}_{secrets.token_hex(6)}"

    async def create() -> None:
        import asyncpg

        admin = await asyncpg.connect(POSTGRES_ADMIN, timeout=5)
        try:
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()

    in_thread(create())
    return name, POSTGRES_URL.format(name=name)


def drop_database(name: str) -> None:
    async def drop() -> None:
        import asyncpg

        admin = await asyncpg.connect(POSTGRES_ADMIN, timeout=5)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    in_thread(drop())


def drop_redis_keys(prefix: str) -> int:
    """Delete the keys under ``prefix`` (a test's own namespace; never FLUSHDB)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_timeout=5)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for start in range(0, len(keys), 500):
            client.delete(*keys[start : start + 500])
        return len(keys)
    finally:
        client.close()


# ---------------------------------------------------------------- odin serve


@dataclass
class Server:
    """One ``odin serve`` process on a loopback port."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self, timeout: float = 20.0) -> int:
        """SIGTERM (a graceful stop), then SIGKILL after ``timeout``; the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def start_server(
    options: Sequence[str], directory: Path, port: int | None = None, name: str = "odin"
) -> Server:
    """``odin serve --host 127.0.0.1 --port PORT OPTIONS`` with its log in ``directory``."""
    port = port or free_port()
    directory.mkdir(parents=True, exist_ok=True)
    log = directory / f"{name}-{port}.log"
    command = [*odin_command(), "serve", "--host", "127.0.0.1", "--port", str(port), *options]
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=directory)
    return Server(port, process, log)


def wait_ready(server: Server, timeout: float = 60.0) -> None:
    """Until the server's ``/readyz`` answers 200 (``/api/levels`` where it has none)."""
    deadline = time.monotonic() + timeout
    paths = ["/readyz", "/api/levels"]
    while True:
        if server.process.poll() is not None:
            raise RuntimeError(f"odin serve on port {server.port} exited:\n{server.output()}")
        for path in list(paths):
            try:
                with urllib.request.urlopen(server.base + path, timeout=2) as answer:
                    if answer.status == 200:
                        return
            except urllib.error.HTTPError as error:
                if error.code == 404:  # no ops routes in this build: ask the lobby
                    paths.remove(path)
            except OSError:
                pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"odin serve on port {server.port} not ready in {timeout:g} s")
        time.sleep(0.1)


# ---------------------------------------------------------------- nginx


def nginx_missing() -> str | None:
    """``None`` when nginx can run here, else why not (one line)."""
    if not NGINX.exists():
        return f"no nginx at {NGINX} (make test installs it: scripts/ensure-nginx)"
    return None


def _replace(
    pattern: str,
    replacement: str | Callable[[re.Match[str]], str],
    text: str,
    expected: int | None = None,
) -> str:
    """``re.sub`` that insists the deployment file still has the shape it renders."""
    result, count = re.subn(pattern, replacement, text, flags=re.MULTILINE)
    if count == 0 or (expected is not None and count != expected):
        raise ValueError(f"deploy/nginx/odin.conf: {pattern!r} matched {count} times")
    return result


@dataclass(frozen=True, slots=True)
class AddressQuotas:
    """One client address's share at the proxy: open WebSockets and new tables at once
    (a benchmark's load generator is one address with thousands of sockets)."""

    sockets: int
    tables: int


def render_site(
    text: str,
    listen: int,
    upstreams: Sequence[str],
    cache: Path,
    quotas: AddressQuotas | None = None,
) -> str:
    """``deploy/nginx/odin.conf`` for this machine's test: its listen port, the processes'
    ``host:port`` addresses (with the parameters of the file's own server lines), a cache
    directory and, if given, other ``quotas``; everything else as deployed."""
    if quotas is not None:
        sockets = f"limit_conn odin_sockets {quotas.sockets};"
        text = _replace(r"limit_conn odin_sockets \d+;", sockets, text, 1)
        tables = f"zone=odin_tables burst={quotas.tables - 1} nodelay;"
        text = _replace(r"zone=odin_tables burst=\d+ nodelay;", tables, text, 1)
    match = re.search(r"^(\s*)server \S+:\d+( [^;\n]*);$", text, flags=re.MULTILINE)
    if match is None:
        raise ValueError("deploy/nginx/odin.conf: no upstream server line")
    indent, parameters = match.group(1), match.group(2)
    servers = "".join(f"{indent}server {address}{parameters};\n" for address in upstreams)
    text = _replace(r"^\s*server \S+:\d+ [^;\n]*;\n", "", text)
    text = _replace(r"^(\s*hash [^;\n]*;\n)", lambda m: m.group(1) + servers, text, 1)
    text = _replace(r"^\s*listen \[::\]:80;\n", "", text, 1)
    text = _replace(r"^(\s*)listen 80;$", rf"\g<1>listen 127.0.0.1:{listen};", text, 1)
    return _replace(r"/var/lib/nginx/odin-static", str(cache), text, 1)


MAIN_CONF = """\
daemon off;
{user}worker_processes {workers};
worker_rlimit_nofile {files};
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;

events {{
    worker_connections {connections};
}}

http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format upstream '$remote_addr "$request" $status -> $upstream_addr';
    access_log {prefix}/access.log upstream;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {prefix}/odin.conf;
}}
"""


@dataclass
class Nginx:
    """nginx in the foreground with ``deploy/nginx/odin.conf`` in front of ``upstreams``."""

    prefix: Path
    upstreams: list[str]
    port: int = 0
    workers: int = 1
    connections: int = 1024
    quotas: AddressQuotas | None = None
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def config(self) -> Path:
        return self.prefix / "nginx.conf"

    def write(self) -> None:
        self.port = self.port or free_port()
        self.prefix.mkdir(parents=True, exist_ok=True)
        site = render_site(
            SITE.read_text(), self.port, self.upstreams, self.prefix / "cache", self.quotas
        )
        (self.prefix / "odin.conf").write_text(site)
        # As root nginx hands its workers to `nobody`, who cannot enter a private temp dir.
        user = "user root;\n" if os.geteuid() == 0 else ""
        self.config.write_text(
            MAIN_CONF.format(
                prefix=self.prefix,
                user=user,
                workers=self.workers,
                connections=self.connections,
                # no more than this machine lets a process have (nginx only warns)
                files=min(2 * self.connections + 64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]),
            )
        )

    def check(self) -> subprocess.CompletedProcess[str]:
        """``nginx -t`` on the written configuration."""
        return subprocess.run(
            self._command("-t"), capture_output=True, text=True, timeout=30, check=False
        )

    def _command(self, *extra: str) -> list[str]:
        error_log = str(self.prefix / "error.log")
        return [str(NGINX), "-p", str(self.prefix), "-e", error_log, "-c", str(self.config), *extra]

    def start(self, timeout: float = 15.0) -> None:
        self.write()
        self.process = subprocess.Popen(
            self._command(), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited:\n{self.error_log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"nginx did not listen in {timeout:g} s") from None
                time.sleep(0.05)

    def error_log(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def access_log(self) -> list[str]:
        path = self.prefix / "access.log"
        return path.read_text(errors="replace").splitlines() if path.exists() else []

    def worker_pids(self) -> list[int]:
        """The worker processes (children of the master), for CPU accounting."""
        if self.process is None:
            return []
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in children.read_text().split()]
        except OSError:
            return []

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGQUIT)  # graceful: finish what is in flight
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid`` (Linux /proc; 0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its living children (a server and its bot workers)."""
    total = cpu_seconds(pid)
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return total + sum(process_tree_cpu(int(child)) for child in children)
