"""``odin play`` in a real terminal (a pseudo-terminal): keys typed before a prompt are
thrown away, the line can be edited with the arrow keys, and Ctrl-C leaves like ``quit``."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ODIN = [sys.executable, "-c", "from odin_cards.cli import main; main()"]


class Terminal:
    """``odin`` running on a pseudo-terminal; ``expect`` waits for text on the screen."""

    def __init__(self, args: list[str]) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "COLUMNS": "120", "LINES": "50"}
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen(
            [*ODIN, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.screen = ""
        self.seen = 0

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def expect(self, text: str, timeout: float = 120.0) -> None:
        """Wait for ``text`` after what the last ``expect`` found (a prompt shown again is
        a new one)."""
        deadline = time.monotonic() + timeout
        while text not in self.screen[self.seen :]:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} never appeared; screen:\n{self.screen[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the program ended
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"{text!r} never appeared; screen:\n{self.screen[-3000:]}")
                self.screen += chunk.decode(errors="replace")
        self.seen = self.screen.index(text, self.seen) + len(text)

    def wait(self, timeout: float = 60.0) -> int:
        """The program's exit status, once it ended and its last output is read.

        The end of output is not awaited by a blocking read: another process of the test
        run that forked while this terminal's other end was open holds it too, and then
        the read would never see the end."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the program ended and nobody holds the other end
                    break
                if not chunk:
                    break
                self.screen += chunk.decode(errors="replace")
            elif self.process.poll() is not None:
                break
        return self.process.wait(timeout=max(deadline - time.monotonic(), 1.0))

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


@pytest.fixture
def terminal() -> Iterator[type[Terminal]]:
    opened: list[Terminal] = []

    class Opened(Terminal):
        def __init__(self, args: list[str]) -> None:
            super().__init__(args)
            opened.append(self)

    yield Opened
    for each in opened:
        each.close()


def test_keys_typed_before_the_prompt_are_not_played(
    terminal: type[Terminal], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    screen = terminal(
        ["play", "-p", "2", "--bots", "random", "--first-leader", "0", "--record", str(record)]
    )
    screen.type("1\r")  # typed while the program starts: before any position was shown
    screen.expect("You, lead one card")
    screen.type("quit\r")
    screen.expect("You leave the game.")
    assert screen.wait() == 0
    events = json.loads(record.read_text())["events"]
    assert [e for e in events if "action" in e] == []  # the early "1" was not played


def test_the_line_can_be_edited_with_the_arrow_keys(terminal: type[Terminal]) -> None:
    screen = terminal(["play", "-p", "2", "--bots", "random", "--first-leader", "0"])
    screen.expect("You, lead one card")
    screen.type("hlp\x1b[D\x1b[De\r")  # "hlp", two steps left, "e": "help"
    screen.expect("Type what you do:")
    # Keys typed before a prompt are thrown away (on purpose): wait for the next one.
    screen.expect("lead one card > ")
    screen.type("quit\r")
    assert screen.wait() == 0
    assert "unknown command" not in screen.screen


def test_ctrl_c_while_a_bot_thinks_writes_the_scores_and_the_record(
    terminal: type[Terminal], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    screen = terminal(
        [
            *("play", "-p", "2", "--bots", "search:seconds=30", "--first-leader", "1"),
            *("--record", str(record)),
        ]
    )
    screen.expect("is thinking")
    screen.process.send_signal(signal.SIGINT)
    screen.expect("scores so far")
    assert screen.wait() == 130
    assert "Interrupted (Ctrl-C): leaving the game." in screen.screen
    assert "Traceback" not in screen.screen
    assert json.loads(record.read_text())["events"][0]["leader"] == 1
