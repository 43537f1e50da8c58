"""Browser tests: a real ``odin serve`` and the system's headless Chromium via Playwright.

Chromium is Debian's package at /usr/bin/chromium (``make test`` installs it through
``scripts/ensure-chromium``); Playwright's own browser downloads are never used.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("ODIN_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "browser"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _odin_command() -> list[str]:
    script = Path(sys.executable).with_name("odin")
    if script.exists():
        return [str(script)]
    found = shutil.which("odin")
    if found:
        return [found]
    return [sys.executable, "-c", "from odin_cards.cli import main; main()"]


# Package scope, not session: Playwright's sync API keeps an event loop running in the
# main thread while it is open, which would break the asyncio tests that run after these.
@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``odin serve`` on a free loopback port, with a fresh data dir and instant bots."""
    data = tmp_path_factory.mktemp("odin-data")
    port = _free_port()
    log = (data / "serve.log").open("w")
    process = subprocess.Popen(
        [
            *_odin_command(),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data-dir",
            str(data),
            "--bot-delay",
            "0",
            "--workers",
            "0",
            "--log-level",
            "warning",
            # Every page of every test is one client address (127.0.0.1): the per-address
            # quotas that protect a public server would refuse the suite's later tests.
            "--tables-per-hour",
            "100000",
            "--connections-per-ip",
            "1000",
            "--bot-seats-per-ip",
            "1000",
            "--waiting-tables-per-ip",
            "100000",
            "--bot-work-burst",
            "100000",
            "--signups-per-hour",
            "1000",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=data,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            log.close()
            pytest.fail(f"odin serve exited: {(data / 'serve.log').read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/api/levels", timeout=1) as answer:
                if answer.status == 200:
                    break
        except OSError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("odin serve did not answer within 30 s")
        time.sleep(0.1)
    try:
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs it: scripts/ensure-chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="package")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
