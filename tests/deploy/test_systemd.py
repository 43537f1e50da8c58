"""``deploy/systemd/odin@.service``: valid for systemd, hardened, and its command runs.

No systemd runs the unit here (tests have no init system to spare): ``systemd-analyze``
checks the file, and the test expands ``ExecStart`` as systemd would (``%i``, ``${VAR}``,
``$VAR``, from ``deploy/systemd/odin.env``) and runs that command against the test
database.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cluster_processes import (
    REDIS_URL,
    Server,
    create_database,
    drop_database,
    drop_redis_keys,
    free_port,
    odin_command,
    postgres_reachable,
    redis_reachable,
    wait_ready,
)

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
    """The file's settings as systemd reads them (a value's enclosing quotes removed)."""
    values = {}
    for line in ENV.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            values[key.strip()] = value
    return values


def test_a_shell_reads_the_environment_file_as_systemd_does() -> None:
    """An operator sources it (``set -a; . /etc/odin/odin.env``) to run ``odin`` by hand
    with the servers' settings: every value must come out as systemd reads it."""
    shell = subprocess.run(
        ["sh", "-c", 'set -a; . "$0"; env -0', str(ENV)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
    )
    assert shell.returncode == 0 and shell.stderr == "", shell.stderr
    sourced = dict(item.partition("=")[::2] for item in shell.stdout.split("\0") if item)
    expected = environment_file()
    assert {key: sourced.get(key) for key in expected} == expected


def test_numba_caches_its_kernels_in_the_state_directory() -> None:
    """The package directory is read-only under the hardening and there is no home: without
    a cache directory numba could not keep the bots' compiled kernels."""
    settings = unit_settings()
    assert "NUMBA_CACHE_DIR=/var/lib/odin/numba" in settings["Environment"]
    assert settings["ReadWritePaths"] == ["/var/lib/odin"]


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
    env = environment_file()
    env.update(ODIN_DATABASE_URL=database, ODIN_REDIS_URL=REDIS_URL)
    del env["PGPASSWORD"]  # the test database trusts loopback
    # Its own Redis namespace: under the default one, processes of other tests or of a
    # server on this machine would count as its cluster (and could get its tables).
    prefix = f"odin-deploy-unit-{secrets.token_hex(6)}:"
    env["ODIN_OPTIONS"] += f" --redis-prefix {prefix}"
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
        drop_redis_keys(prefix)


DEPLOY_DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"

FAKE_SYSTEMCTL = """\
# systemctl as docs/deploy.md uses it, for the unit's command (ExecStart) on this machine.
# Type=exec: starting returns once the process runs, before it listens. `restart` is a
# stop (SIGTERM, then wait for the exit, as systemd does) and a start.
systemctl() {
    local verb=$1
    shift
    [ "$verb" = enable ] && [ "$1" = --now ] && shift && verb=start
    local unit
    for unit in "$@"; do
        case $verb in
        start) odin_start "${unit#odin@}" ;;
        stop) odin_stop "${unit#odin@}" ;;
        restart) odin_stop "${unit#odin@}" && odin_start "${unit#odin@}" ;;
        *) echo "fake systemctl: $verb?" >&2; return 1 ;;
        esac
    done
}
odin_start() {
    (cd "$WORK" && exec $(printf "$COMMAND" "$1")) >>"$WORK/odin@$1.log" 2>&1 &
    echo $! >"$WORK/odin@$1.pid"
}
odin_stop() {
    local pid
    pid=$(cat "$WORK/odin@$1.pid")
    kill -TERM "$pid" && wait "$pid"
    echo "odin@$1 stopped: $?"
}
"""


def shell_block(containing: str) -> list[str]:
    """The lines of docs/deploy.md's shell block that holds ``containing`` (dedented)."""
    lines = DEPLOY_DOC.read_text().splitlines()
    start: int | None = None
    for number, line in enumerate(lines):
        stripped = line.strip()
        if start is None and stripped == "```sh":
            start, indent = number + 1, len(line) - len(line.lstrip())
        elif start is not None and stripped == "```":
            block = [text[indent:] for text in lines[start:number]]
            if any(containing in text for text in block):
                return block
            start = None
    raise AssertionError(f"docs/deploy.md: no shell block with {containing!r}")


def from_line(block: list[str], prefix: str) -> str:
    """The block from its line that starts with ``prefix`` to its end."""
    starts = [number for number, line in enumerate(block) if line.startswith(prefix)]
    assert starts, f"docs/deploy.md: no line {prefix!r} in {block}"
    return "\n".join(block[starts[0] :]) + "\n"


@pytest.mark.postgres
@pytest.mark.redis
def test_the_docs_commands_start_and_restart_the_processes(tmp_path: Path) -> None:
    """docs/deploy.md's commands, on the unit's command: step 4 starts two processes and
    checks that both are ready; the rolling restart restarts each in turn and waits for it.
    systemd's start (Type=exec) returns before the process listens: a check must wait."""
    for reason in (postgres_reachable(), redis_reachable()):
        if reason:
            pytest.skip(reason)
    ports = {"8001": str(free_port()), "8002": str(free_port())}
    start = from_line(shell_block("systemctl enable --now"), "systemctl enable --now")
    restart = from_line(shell_block("systemctl restart odin@$port"), "host=")
    for documented, port in ports.items():
        start, restart = start.replace(documented, port), restart.replace(documented, port)
    name, database = create_database("deploydoc")
    prefix = f"odin-deploy-doc-{secrets.token_hex(6)}:"
    env = environment_file()
    env.update(ODIN_DATABASE_URL=database, ODIN_REDIS_URL=REDIS_URL)
    env["ODIN_OPTIONS"] = f"--workers 0 --log-level info --redis-prefix {prefix}"
    del env["PGPASSWORD"]  # the test database trusts loopback
    [exec_start] = unit_settings()["ExecStart"]
    command = expand(exec_start, "%s", env)
    command = [*odin_command(), *command[1:]]
    script = (
        FAKE_SYSTEMCTL
        + start
        + 'status=$?; echo; echo "started: $status"\n'
        + "".join(f"cat $WORK/odin@{port}.pid\n" for port in ports.values())
        + restart
        + 'status=$?; echo; echo "restarted: $status"\n'
        + "".join(f"cat $WORK/odin@{port}.pid\n" for port in ports.values())
        + "".join(f"curl -fsS http://127.0.0.1:{port}/readyz\n" for port in ports.values())
        + 'status=$?; echo; echo "ready: $status"\n'
        + "systemctl stop "
        + " ".join(f"odin@{port}" for port in ports.values())
        + "\n"
    )
    shell_env = {**os.environ, **env, "WORK": str(tmp_path), "COMMAND": " ".join(command)}
    try:
        done = subprocess.run(
            ["bash", "-c", script], env=shell_env, capture_output=True, text=True, timeout=180
        )
    finally:
        for pid_file in tmp_path.glob("odin@*.pid"):  # whatever the script left running
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
        drop_database(name)
        drop_redis_keys(prefix)
    logs = "\n".join(log.read_text(errors="replace")[-2000:] for log in tmp_path.glob("*.log"))
    out = done.stdout.splitlines()
    assert "started: 0" in out, done.stdout + done.stderr + logs
    assert "restarted: 0" in out, done.stdout + done.stderr + logs
    assert "ready: 0" in out, done.stdout + done.stderr + logs
    pids = [line for line in out if line.isdigit()]
    assert len(pids) == 4 and not set(pids[:2]) & set(pids[2:]), out  # each one restarted
    ready = '{"status":"ready","database":true,"redis":true,"leases":0,"draining":false}'
    assert done.stdout.count(ready) == 4, done.stdout  # step 4 prints 2, the end 2
    for port in ports.values():  # SIGTERM: a graceful stop (uvicorn re-raises the signal)
        assert f"odin@{port} stopped: 0" in out or f"odin@{port} stopped: 143" in out, out
