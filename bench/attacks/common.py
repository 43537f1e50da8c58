"""What every attack needs: a real ``odin serve`` subprocess, its memory, a polite client.

The server runs as a subprocess of one version's source tree (``PYTHONPATH``), on a
fresh SQLite file and a free loopback port, with a file limit like a small host's
(``--nofile``). Its memory is sampled from ``/proc`` in a thread; a well-behaved client
in a process of its own (so the attacker's work never delays it) asks ``GET /api/levels``
every 50 ms from an address of its own. Raw WebSocket helpers let attackers do what a
library would not: never read, never finish a handshake.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import multiprocessing
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

GOOD = "127.0.0.250"
"""The well-behaved client's address: another person, not the attacker."""
ATTACKER = "127.0.0.1"

_LAUNCH = (
    "import resource, sys\n"
    "n = int(sys.argv[1])\n"
    "hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]\n"
    "resource.setrlimit(resource.RLIMIT_NOFILE, (n, hard))\n"
    "sys.argv = ['odin', *sys.argv[2:]]\n"
    "from odin_cards.cli import main\n"
    "main()\n"
)
"""``odin serve`` of whatever ``odin_cards`` is first on ``PYTHONPATH``, under a file limit."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def latency_summary(values: list[float]) -> dict[str, Any]:
    """p50, p95, p99 and max in milliseconds (None when nothing was measured)."""
    if not values:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}
    return {
        "n": len(values),
        "p50": percentile(values, 0.5) * 1000,
        "p95": percentile(values, 0.95) * 1000,
        "p99": percentile(values, 0.99) * 1000,
        "max": max(values) * 1000,
    }


def _descendants(pid: int) -> list[int]:
    """``pid``'s children, grandchildren...: the bot worker processes."""
    found: list[int] = []
    stack = [pid]
    while stack:
        parent = stack.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                text = Path(f"/proc/{parent}/task/{task}/children").read_text()
            except OSError:
                continue
            for child in text.split():
                found.append(int(child))
                stack.append(int(child))
    return found


def rss_kib(pid: int) -> int:
    """VmRSS of ``pid`` in KiB (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


@dataclass
class Sample:
    at: float
    server: int
    """KiB of the server process."""
    total: int
    """KiB of the server and its bot workers."""
    files: int


class Sampler:
    """Samples the server's memory and open files every ``interval`` seconds, in a thread."""

    def __init__(self, pid: int, interval: float = 0.1) -> None:
        self.pid = pid
        self.interval = interval
        self.samples: list[Sample] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.started = time.monotonic()

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def take(self) -> Sample:
        server = rss_kib(self.pid)
        workers = sum(rss_kib(child) for child in _descendants(self.pid))
        sample = Sample(time.monotonic() - self.started, server, server + workers, 0)
        sample.files = open_files(self.pid)
        return sample

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append(self.take())
            self._stop.wait(self.interval)

    def summary(self, since: float = 0.0, until: float = float("inf")) -> dict[str, Any]:
        """RSS (MiB) at the start, peak and end of the samples from ``since`` to ``until``."""
        window = [s for s in self.samples if since <= s.at <= until] or self.samples[-1:]
        if not window:
            return {}
        peak = max(window, key=lambda s: s.server)
        return {
            "rss_start_mib": window[0].server / 1024,
            "rss_peak_mib": peak.server / 1024,
            "rss_peak_at_s": peak.at - window[0].at,
            "rss_end_mib": window[-1].server / 1024,
            "rss_total_peak_mib": max(s.total for s in window) / 1024,
            "rss_total_end_mib": window[-1].total / 1024,
            "files_peak": max(s.files for s in window),
            "files_end": window[-1].files,
        }

    def timeline(self, since: float, until: float, step: float) -> list[tuple[float, float]]:
        """(seconds, MiB) every ``step`` seconds from ``since`` to ``until``: RSS over time."""
        points: list[tuple[float, float]] = []
        due = since
        for sample in self.samples:
            if due <= sample.at <= until:
                points.append((round(sample.at - since, 1), round(sample.server / 1024, 1)))
                due += step
        return points


@dataclass
class Version:
    """One server under test: a label and the ``src`` directory holding ``odin_cards``."""

    label: str
    src: Path
    commit: str = ""
    exported: Path | None = None
    """A temporary directory this benchmark made (``git archive``), removed at the end."""


class Server:
    """``odin serve`` of one version on a fresh data directory; stopped by ``stop()``."""

    def __init__(self, version: Version, nofile: int, args: list[str] | None = None) -> None:
        self.version = version
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.data = Path(tempfile.mkdtemp(prefix="odin-limits-"))
        command = [sys.executable, "-c", _LAUNCH, str(nofile), "serve", "--port", str(self.port)]
        command += ["--data-dir", str(self.data), "--bot-delay", "0", "--log-level", "warning"]
        command += args or []
        environment = {**os.environ, "PYTHONPATH": str(version.src)}
        self.log = (self.data / "serve.log").open("wb")
        self.process = subprocess.Popen(
            command, stdout=self.log, stderr=subprocess.STDOUT, env=environment
        )
        self.pid = self.process.pid
        self._workers: set[int] = set()
        self.stopped = False

    async def ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base) as http:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"odin serve exited during start-up: {self.tail()}")
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get("/api/levels")).status_code == 200:
                        return
                await asyncio.sleep(0.2)
        raise RuntimeError("odin serve did not start")

    def remember_workers(self) -> None:
        self._workers.update(_descendants(self.pid))

    def tail(self, lines: int = 8) -> str:
        text = (self.data / "serve.log").read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def stop(self, keep: bool = False) -> None:
        """SIGTERM, then SIGKILL; bot workers it left behind are killed by their ids.

        The data directory is removed unless ``keep`` (its ``serve.log`` tells what failed).
        """
        if self.stopped:
            return
        self.stopped = True
        self.remember_workers()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        for pid in self._workers:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        self.log.close()
        if not keep:
            shutil.rmtree(self.data, ignore_errors=True)


def http_client(base: str, address: str, timeout: float = 30.0, **kw: Any) -> httpx.AsyncClient:
    """An HTTP client whose connections come from ``address`` (a loopback address)."""
    transport = httpx.AsyncHTTPTransport(local_address=address, **kw)
    return httpx.AsyncClient(base_url=base, timeout=timeout, transport=transport)


# --- the well-behaved client: GET /api/levels every interval, in its own process ----------


def _ping(base: str, interval: float, stop: Any, results: Any) -> None:
    transport = httpx.HTTPTransport(local_address=GOOD)
    samples: list[tuple[float, float | None, str]] = []
    started = time.monotonic()
    with httpx.Client(base_url=base, transport=transport, timeout=10.0) as http:
        while not stop.is_set():
            begin = time.perf_counter()
            try:
                status = str(http.get("/api/levels").status_code)
                latency: float | None = time.perf_counter() - begin
            except httpx.HTTPError as error:
                status, latency = type(error).__name__, None
            samples.append((time.monotonic() - started, latency, status))
            stop.wait(max(0.0, interval - (time.perf_counter() - begin)))
    results.put(samples)


class Pinger:
    """A well-behaved client asking ``GET /api/levels`` every ``interval`` seconds."""

    def __init__(self, base: str, interval: float = 0.05) -> None:
        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        self._results: Any = context.Queue()
        self._process = context.Process(
            target=_ping, args=(base, interval, self._stop, self._results), daemon=True
        )
        self.samples: list[tuple[float, float | None, str]] = []

    def __enter__(self) -> Pinger:
        self._process.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        with contextlib.suppress(Exception):
            self.samples = self._results.get(timeout=30)
        self._process.join(10)
        if self._process.is_alive():
            self._process.kill()

    def summary(self) -> dict[str, Any]:
        latencies = [s[1] for s in self.samples if s[1] is not None and s[2] == "200"]
        failed = [s for s in self.samples if s[2] != "200"]
        summary = latency_summary(latencies)
        summary["failed"] = len(failed)
        summary["asked"] = len(self.samples)
        return summary


# --- raw WebSocket: what a library would not do -------------------------------------------


def ws_frame(text: str, opcode: int = 1) -> bytes:
    """One masked client frame (RFC 6455)."""
    payload = text.encode()
    mask = os.urandom(4)
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return header + mask + masked


def handshake(path: str, port: int) -> bytes:
    key = base64.b64encode(random.randbytes(16)).decode()
    return (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


async def raw_connect(
    port: int, address: str, rcvbuf: int | None = None, timeout: float = 10.0
) -> socket.socket:
    """A non-blocking TCP connection to the server from ``address``."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    if rcvbuf is not None:  # before connecting: the window is agreed in the handshake
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    try:
        sock.bind((address, 0))
        await asyncio.wait_for(
            asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port)), timeout
        )
    except BaseException:
        sock.close()
        raise
    return sock


async def raw_websocket(
    port: int, path: str, address: str, rcvbuf: int | None = None, timeout: float = 10.0
) -> socket.socket:
    """A WebSocket whose handshake is done by hand; raises if the server does not upgrade."""
    loop = asyncio.get_running_loop()
    sock = await raw_connect(port, address, rcvbuf, timeout)
    try:
        await asyncio.wait_for(loop.sock_sendall(sock, handshake(path, port)), timeout)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = await asyncio.wait_for(loop.sock_recv(sock, 4096), timeout)
            if not chunk:
                raise ConnectionError(f"closed during the handshake: {answer[:40]!r}")
            answer += chunk
        status = answer.split(b"\r\n", 1)[0]
        if b" 101 " not in status + b" ":
            raise ConnectionError(status.decode(errors="replace"))
    except BaseException:
        sock.close()
        raise
    return sock


def peer_closed(sock: socket.socket, silent: bool = False) -> bool:
    """Whether the server has closed ``sock`` (end of stream or reset), reading what waits.

    ``silent``: the server has nothing to say on this WebSocket but pings, an error and a
    close frame, so a close frame means it is done with it (it may wait a while for ours
    before it closes the TCP connection).
    """
    try:
        while True:
            data = sock.recv(65536, socket.MSG_DONTWAIT)
            if not data or (silent and _has_close_frame(data)):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def _has_close_frame(data: bytes) -> bool:
    """Whether the server's frames in ``data`` (unmasked, whole) include a close frame."""
    at = 0
    while at + 2 <= len(data):
        if data[at] & 0x0F == 8:
            return True
        size = data[at + 1] & 0x7F
        at += 2
        if size == 126:
            size = int.from_bytes(data[at : at + 2], "big")
            at += 2
        elif size == 127:
            size = int.from_bytes(data[at : at + 8], "big")
            at += 8
        at += size
    return False


@dataclass
class Outcome:
    """What one attack measured on one version."""

    attack: str
    version: str
    figures: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
