"""Raw sockets against a real ``odin serve``: half-sent requests are capped per address,
and what uvicorn cannot parse is answered with the server's JSON error (issue #29).

Before, one address could hold as many half-sent requests as the file limit allowed (with
a 1,024 limit, 1,000 of them made another person's requests fail 6 times in 9); and a
malformed ``Content-Length`` got uvicorn's plain-text 400.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ODIN = Path(sys.executable).with_name("odin")
CAP = 6
GET = b"GET /healthz HTTP/1.1\r\nHost: odin\r\n\r\n"
HALF_BODY = (
    b"POST /api/tables HTTP/1.1\r\nHost: odin\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100\r\n\r\n{"
)
HALF_HEADERS = b"GET /healthz HTTP/1.1\r\nHost: od"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    data = tmp_path_factory.mktemp("unfinished")
    port = _free_port()
    command = [str(ODIN), "serve", "--port", str(port), "--data-dir", str(data)]
    command += ["--workers", "0", "--log-level", "warning", "--hello-timeout", "60"]
    command += ["--unfinished-per-ip", str(CAP)]
    log = (data / "serve.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while _answer(port) is None:
            assert process.poll() is None, (data / "serve.log").read_text()
            assert time.monotonic() < deadline, "odin serve did not start in 30 s"
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(10)
        log.close()


def _open(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(5)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def _read(sock: socket.socket) -> bytes | None:
    """One whole answer, or ``None`` when the server closed the connection without one
    (a server that does neither makes ``recv`` time out: the test fails)."""
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return data or None
        data += chunk
        head, found, body = data.partition(b"\r\n\r\n")
        length = re.search(rb"content-length: *(\d+)", head, re.IGNORECASE)
        if found and length is not None and len(body) >= int(length.group(1)):
            return data


def _answer(port: int, source: str = "127.0.0.1", request: bytes = GET) -> bytes | None:
    try:
        with _open(port, source) as sock:
            sock.sendall(request)
            return _read(sock)
    except ConnectionError:  # refused, reset: not a time-out, which fails the test
        return None


def _until_answered(port: int) -> bytes:
    """The server forgets a closed connection when it reads the close: ask until then."""
    deadline = time.monotonic() + 5
    while (answer := _answer(port)) is None:
        assert time.monotonic() < deadline, "a freed place was never given back"
    return answer


def test_one_address_holds_at_most_its_share_of_half_sent_requests(port: int) -> None:
    held = []
    try:
        for i in range(CAP):
            sock = _open(port)
            sock.sendall(HALF_BODY if i % 2 else HALF_HEADERS)
            held.append(sock)
        assert _answer(port) is None  # one more from that address: closed unanswered
        other = _answer(port, "127.0.0.2")  # another address is served
        assert other is not None and other.startswith(b"HTTP/1.1 200")

        # A place given back is free again.
        held.pop().close()
        assert _until_answered(port).startswith(b"HTTP/1.1 200")

        # A kept-alive connection whose next request would be one too many is closed.
        kept = _open(port)
        kept.sendall(GET)
        assert (_read(kept) or b"").startswith(b"HTTP/1.1 200")
        filler = _open(port)
        filler.sendall(HALF_HEADERS)
        held.append(filler)
        assert _answer(port) is None  # the server counted the filler (it accepts in order)
        kept.sendall(b"GET /healthz HTTP/1.1\r\n")
        assert _read(kept) is None
        kept.close()
    finally:
        for sock in held:
            sock.close()
    assert _until_answered(port).startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"POST /api/tables HTTP/1.1\r\nHost: odin\r\nContent-Length: abc\r\n\r\n{}",
        b"POST /api/tables HTTP/1.1\r\nHost: odin\r\nContent-Length: 1, 2\r\n\r\n{}",
        b"NOT HTTP AT ALL\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nHost odin\r\n\r\n",
    ],
)
def test_what_uvicorn_cannot_parse_gets_a_json_error(port: int, request_bytes: bytes) -> None:
    answer = _answer(port, request=request_bytes)
    assert answer is not None
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), answer
    assert b"content-type: application/json" in head.lower()
    assert json.loads(body) == {"error": "invalid", "message": "the request is not valid HTTP"}


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /ws/abc HTTP/1.1\r\nHost: odin\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        b"GET /ws/abc HTTP/1.1\r\nHost: odin\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n\r\n",
    ],
)
def test_a_malformed_websocket_handshake_gets_a_json_error(port: int, request_bytes: bytes) -> None:
    answer = _answer(port, request=request_bytes)
    assert answer is not None
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 4"), answer
    assert b"content-type: application/json" in head.lower()
    error = json.loads(body)
    assert error["error"] in ("invalid", "upgrade_required") and error["message"], error
