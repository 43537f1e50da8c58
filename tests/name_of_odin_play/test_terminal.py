"""``odin play --game name-of-odin``: a person against bots in the terminal, through the real
command with scripted input (piped, and on a pseudo-terminal), and the session in-process."""

from __future__ import annotations

import io
import json
import os
import pty
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.name_of_odin.play.session import NooSession
from odin_cards.name_of_odin.rules import NAME_OF_ODIN, Game, starter_cards

runner = CliRunner()
GAME = ["--game", "name-of-odin"]


def seed_where_seat_0_begins(players: int) -> int:
    return next(s for s in range(100) if NAME_OF_ODIN.new_game(players, {}, s).active == 0)


def test_a_whole_game_by_numbers_is_recorded_and_replays(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", *GAME, "-p", "3", "--seed", "5", "--name", "Ada", "--record", str(record)],
        input="1\n" * 5000,
    )
    assert result.exit_code == 0, result.output[-3000:]
    text = result.output
    assert "In the Name of Odin: Ada against Heuristic 1, Heuristic 2" in text
    for part in ("Ocean", "Action display:", "Buildings", "Heroes", "Longships", "Villages"):
        assert part in text
    assert "Your hand:" in text and "game over:" in text and "Final scoring" in text
    data = json.loads(record.read_text())
    assert data["game"] == "name-of-odin"
    assert [s["name"] for s in data["seats"]] == ["Ada", "Heuristic 1", "Heuristic 2"]
    assert [s["bot"] for s in data["seats"]] == [None, "heuristic", "heuristic"]
    game = NAME_OF_ODIN.load_record(data).replay()
    assert game.is_over
    assert any(seat == 0 for seat, _ in data["actions"])
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0 and "seats: 0 Ada, 1 Heuristic 1" in replayed.output


def test_actions_are_read_in_the_notation_in_any_case_and_by_a_unique_beginning(
    tmp_path: Path,
) -> None:
    seed = seed_where_seat_0_begins(2)
    game = NAME_OF_ODIN.new_game(2, {}, seed)
    legal = [a.text for a in game.legal_actions()]
    recruit = next(t for t in legal if t.startswith("recruit "))
    shouted = "  " + recruit.upper().replace(" ", "   ") + " "
    record = tmp_path / "game.json"
    lines = [
        "swap",  # many legal actions start that way: listed, nothing played
        "recruit WH TH",  # two viking types: the engine says why not
        "build nowhere WC WC WC",
        "999",
        shouted,
        "quit",
    ]
    result = runner.invoke(
        app,
        ["play", *GAME, "-p", "2", "--seed", str(seed), "--record", str(record)],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "actions start that way:" in text
    assert "✗ 'recruit WH TH': recruiting spends viking symbols of one type only" in text
    assert "✗ 'build nowhere" in text
    assert f"✗ choose a number from 1 to {len(legal)}" in text
    assert "You leave the game." in text and "glory so far" in text
    assert "--resume" in text
    actions = json.loads(record.read_text())["actions"]
    assert actions[0] == [0, recruit]


def test_play_on_a_saved_game_to_its_end(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    first = runner.invoke(
        app,
        ["play", *GAME, "-p", "2", "--bots", "random", "--seed", "8", "--record", str(record)],
        input="1\n" * 5,
    )
    assert first.exit_code == 0, first.output
    assert "Input ended: leaving the game." in first.output
    before = json.loads(record.read_text())["actions"]
    second = runner.invoke(app, ["play", *GAME, "--resume", str(record)], input="1\n" * 5000)
    assert second.exit_code == 0, second.output[-2000:]
    assert "You against Random 1" in second.output and "resumed" in second.output
    after = json.loads(record.read_text())
    assert after["actions"][: len(before)] == before
    assert NAME_OF_ODIN.load_record(after).replay().is_over
    again = runner.invoke(app, ["play", *GAME, "--resume", str(record)], input="")
    assert again.exit_code == 1 and "that game is over" in again.output
    odin = runner.invoke(app, ["play", "--resume", str(record)], input="")
    assert odin.exit_code == 1 and "is not a game of odin saved by odin play" in odin.output


def test_a_saved_game_of_another_kind_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "odin.json"
    result = runner.invoke(app, ["simulate", "-p", "2", "-n", "1", "--record", str(record)])
    assert result.exit_code == 0
    refused = runner.invoke(app, ["play", *GAME, "--resume", str(record)], input="")
    assert refused.exit_code == 1
    assert f"{record} is not a game of name-of-odin saved by odin play" in refused.output


def test_play_with_ones_own_card_file(tmp_path: Path) -> None:
    cards = starter_cards().to_dict()
    cards["name"] = "my copy"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(cards))
    record = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", *GAME, "--cards", str(path), "--record", str(record)], input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "cards: my copy" in " ".join(result.output.split())
    assert json.loads(record.read_text())["setup"]["cards"]["name"] == "my copy"

    del cards["board"]
    path.write_text(json.dumps(cards))
    broken = runner.invoke(app, ["play", *GAME, "--cards", str(path)], input="")
    assert broken.exit_code == 2  # a bad flag's file, as docs/play.md says
    lines = broken.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("odin play: Invalid value for --cards: mine")
    assert "board" in lines[0]
    missing = runner.invoke(app, ["play", *GAME, "--cards", str(tmp_path / "no.toml")])
    assert missing.exit_code == 2 and "cannot be read" in missing.output


class ScriptedPerson:
    """Types like a person: actions in odd case and spacing, numbers, now and then a mistake."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.mistakes = 0
        self.prompts = 0

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        legal = [a.text for a in self.game.legal_actions()]
        if self.rng.random() < 0.1:
            self.mistakes += 1
            return self.rng.choice(["raid nowhere", "swop WC SH", "12345", "recruit XX"])
        preferred = [t for t in legal if t.split()[0] in ("raid", "match", "hero", "ship")]
        text = self.rng.choice(preferred or legal)
        if self.rng.random() < 0.3:
            return str(legal.index(text) + 1)
        return " ".join(w.lower() if self.rng.random() < 0.5 else w for w in text.split())


def test_a_scripted_person_plays_a_whole_game_in_process() -> None:
    game = NAME_OF_ODIN.new_game(3, {}, "scripted")
    person = ScriptedPerson(game, seed=3)
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False, color_system=None)
    session = NooSession(
        game, ["Ada", "Bot 1", "Bot 2"], {1: "heuristic", 2: "random"}, 0, console, person
    )
    assert session.run() == "over"
    text = out.getvalue()
    assert person.mistakes > 0 and text.count("✗ ") >= person.mistakes
    assert "Final scoring" in text
    outcome = game.outcome
    assert outcome is not None
    for seat in outcome.winners:
        assert f"{session.names[seat]} ★" in text


ODIN = [sys.executable, "-c", "from odin_cards.cli import main; main()"]


class Pty:
    """``odin`` on a pseudo-terminal; ``expect`` waits for text on the screen."""

    def __init__(self, args: list[str]) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "COLUMNS": "120", "LINES": "50"}
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
        """Where the next ``expect`` starts looking: text once expected is not found twice."""

    def expect(self, text: str, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.screen[self.seen :]:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never appeared:\n{self.screen[-2000:]}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                assert chunk, f"{text!r} never appeared:\n{self.screen[-2000:]}"
                self.screen += chunk.decode(errors="replace")
        self.seen = self.screen.index(text, self.seen) + len(text)

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


def test_on_a_terminal_help_is_shown_and_quit_leaves() -> None:
    seed = seed_where_seat_0_begins(2)
    screen = Pty(["play", *GAME, "-p", "2", "--bots", "random", "--seed", str(seed)])
    try:
        screen.expect("your turn: act, or end >")
        screen.type("help\r")
        screen.expect("Commands: show")
        # Keys typed before a prompt are thrown away (on purpose): wait for the next one.
        screen.expect("your turn: act, or end >")
        screen.type("quit\r")
        screen.expect("You leave the game.")
        assert screen.process.wait(timeout=60) == 0
    finally:
        screen.close()
    assert "Traceback" not in screen.screen


def test_on_a_terminal_ctrl_c_leaves_and_keeps_the_record(tmp_path: Path) -> None:
    seed = seed_where_seat_0_begins(3)
    record = tmp_path / "game.json"
    screen = Pty(["play", *GAME, "-p", "3", "--seed", str(seed), "--record", str(record)])
    try:
        screen.expect("your turn: act, or end >")
        screen.type("end\r")
        screen.expect("turn 2:")
        screen.expect(" > ")  # asked again: to add a card to a raid, or on its turn
        screen.process.send_signal(signal.SIGINT)
        try:
            screen.expect("glory so far", timeout=10)
        except AssertionError:
            # Sent while input() was still writing its prompt, the signal waits for the
            # next key (CPython's readline loop starts waiting afterwards): press again.
            screen.process.send_signal(signal.SIGINT)
            screen.expect("glory so far")
        assert screen.process.wait(timeout=60) == 130
    finally:
        screen.close()
    assert "Interrupted (Ctrl-C): leaving the game." in screen.screen
    assert "Traceback" not in screen.screen
    actions = json.loads(record.read_text())["actions"]
    assert actions[0] == [0, "end"] and len({seat for seat, _ in actions}) == 3
