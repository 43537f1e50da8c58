"""``deploy/systemd/odin@.service``: valid for systemd, hardened, and its command runs.

No systemd runs the unit here (tests have no init system to spare): ``systemd-analyze``
checks the file, and the test expands ``ExecStart`` as systemd would (``%i``, ``${VAR}``,
``$VAR``, from ``deploy/systemd/odin.env``) and runs that command against the test
database.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cluster_processes import REDIS_URL, Server, free_port, odin_command, wait_ready

from .conftest import several_processes

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "systemd"
UNIT = DEPLOY / "odin@.service"
ENV = DEPLOY / "odin.env"
INSTALLED_ODIN = "/opt/odin-cards/.venv/bin/odin"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")


def unit_settings() -> dict[str, list[str]]:
    """Every ``Key=value`` of the unit (continuation lines joined), by key."""
    text = UNIT.read_text().replace("\\\n", " ")
    settings: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value.strip())
    return settings


def environment_file() -> dict[str, str]:
    values = {}
    for line in ENV.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    return values


def expand(command: str, instance: str, env: dict[str, str]) -> list[str]:
    """``ExecStart`` as systemd runs it: ``%i``; ``${VAR}`` one word; ``$VAR`` split."""
    words: list[str] = []
    for word in command.replace("%i", instance).split():
        if re.fullmatch(r"\$[A-Z_]+", word):
            words += env.get(word[1:], "").split()
        else:
            words.append(re.sub(r"\$\{([A-Z_]+)\}", lambda m: env.get(m.group(1), ""), word))
    return words


@pytest.fixture
def unit_copy(tmp_path: Path) -> Path:
    """The unit with ExecStart's binary pointing at this checkout's odin (verify wants it)."""
    copy = tmp_path / "odin@8001.service"
    copy.write_text(UNIT.read_text().replace(INSTALLED_ODIN, odin_command()[0]))
    return copy


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="no systemd-analyze on this machine")
def test_systemd_accepts_the_unit(unit_copy: Path) -> None:
    assert SYSTEMD_ANALYZE is not None
    checked = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", str(unit_copy)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr.strip() == ""


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="no systemd-analyze on this machine")
def test_the_unit_is_hardened(unit_copy: Path) -> None:
    """systemd's own exposure score: at most 2.0 of 10 ("OK"; an unhardened unit is 9.6)."""
    assert SYSTEMD_ANALYZE is not None
    checked = subprocess.run(
        [SYSTEMD_ANALYZE, "security", "--offline=true", "--threshold=20", str(unit_copy)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr


def test_the_unit_stops_gracefully_and_restarts() -> None:
    settings = unit_settings()
    assert settings["KillSignal"] == ["SIGTERM"]
    assert settings["Restart"] == ["always"]
    assert settings["NoNewPrivileges"] == ["yes"]
    assert settings["ProtectSystem"] == ["strict"]
    assert settings["EnvironmentFile"] == ["/etc/odin/odin.env"]
    assert settings["ReadWritePaths"] == settings["WorkingDirectory"] == ["/var/lib/odin"]


@pytest.mark.postgres
@pytest.mark.redis
def test_the_units_command_serves_and_stops_on_sigterm(database: str, tmp_path: Path) -> None:
    if not several_processes():
        pytest.skip("odin serve has no --redis-url yet (the unit runs one of several processes)")
    env = environment_file()
    env.update(ODIN_DATABASE_URL=database, ODIN_REDIS_URL=REDIS_URL)
    del env["PGPASSWORD"]  # the test database trusts loopback
    port = free_port()
    [exec_start] = unit_settings()["ExecStart"]
    command = expand(exec_start, str(port), env)
    assert command[0] == INSTALLED_ODIN
    command = [*odin_command(), *command[1:]]
    log = tmp_path / "unit.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path
        )
    server = Server(port, process, log)
    try:
        wait_ready(server)
        timeout = float(unit_settings()["TimeoutStopSec"][0])
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        # uvicorn shuts down, then dies of the signal it got (systemd counts death by
        # SIGTERM as a clean exit, like 0); the lifespan's shutdown must have run.
        assert process.wait(timeout) in (0, -signal.SIGTERM), server.output()
        assert time.monotonic() - started < timeout
        assert "Application shutdown complete." in server.output()
    finally:
        server.stop()
