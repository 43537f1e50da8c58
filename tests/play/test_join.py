"""``odin join`` against a real ``odin serve``: whole games from an invite link, through the
command and in-process with a dropped connection, of Odin and of In the Name of Odin;
watching; bad links."""

from __future__ import annotations

import asyncio
import io
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.cli.remote import RemoteSession, http_json, parse_link, take_seat
from odin_cards.games import rules_of
from odin_cards.odin.rules import GameRecord

ODIN = [sys.executable, "-c", "from odin_cards.cli import main; main()"]
runner = CliRunner()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``odin serve`` on a free loopback port, with instant bots."""
    data = tmp_path_factory.mktemp("odin-join")
    port = free_port()
    with (data / "serve.log").open("w") as log:
        process = subprocess.Popen(
            [
                *ODIN,
                *("serve", "--port", str(port), "--data-dir", str(data)),
                *("--bot-delay", "0", "--workers", "0", "--log-level", "warning"),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:  # until the server answers (or has died)
            assert process.poll() is None, (data / "serve.log").read_text()
            try:
                with urllib.request.urlopen(f"{base}/api/levels", timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline, "odin serve did not answer within 60 s"
                time.sleep(0.1)
        try:
            yield base
        finally:
            process.terminate()
            process.wait(timeout=20)


def new_table(
    base: str, players: int, bots: dict[int, str], game: str = "odin", **options: Any
) -> dict[str, Any]:
    body = {
        "game": game,
        "players": players,
        "bots": {str(s): b for s, b in bots.items()},
        "options": options,
    }
    table: dict[str, Any] = http_json("POST", f"{base}/api/tables", body)["table"]
    return table


def record_of(base: str, table: dict[str, Any]) -> GameRecord:
    return GameRecord.from_dict(http_json("GET", f"{base}/api/tables/{table['id']}/record"))


def test_join_plays_a_whole_game_through_the_command(server: str) -> None:
    table = new_table(server, 2, {1: "random"}, target=10)
    invite = server + table["invite_url"]
    result = subprocess.run(
        [*ODIN, "join", invite, "--name", "Ada"],
        input="1\n" * 2000,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "120"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert f"You sit at table {table['id']}." in out
    assert f"{server}/t/{table['id']}#seat=" in out
    assert "Ada, lead one card" in out or "Ada, beat" in out
    assert "Final standings" in out and "Traceback" not in out + result.stderr
    game = record_of(server, table).replay()
    assert game.is_over and max(game.outcome.scores) >= 10  # type: ignore[union-attr]
    assert f"Game over after {game.outcome.hands_played} hand" in out  # type: ignore[union-attr]


def test_join_comes_back_after_a_dropped_connection(server: str) -> None:
    table = new_table(server, 2, {1: "heuristic"}, one_hand=True)
    link = take_seat(parse_link(server + table["invite_url"]), "Bo")
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    prompts: list[str] = []
    dropped = threading.Event()
    session: RemoteSession

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) == 3:  # the connection drops while the person decides
            future = asyncio.run_coroutine_threadsafe(session.socket.close(), loop)
            future.result(timeout=20)
            dropped.set()
        return "1"

    session = RemoteSession(link, console, read)
    loop = asyncio.new_event_loop()
    try:
        ending = loop.run_until_complete(asyncio.wait_for(session.run(), 120))
    finally:
        loop.close()
    assert ending == "over" and dropped.is_set()
    assert session.welcomes >= 2
    text = out.getvalue()
    assert "connection lost: reconnecting…" in text and "reconnected" in text
    assert "Final standings" in text
    record = record_of(server, table)
    mine = [e["action"] for e in record.events if e.get("seat") == 0]
    assert len(mine) >= 3  # every prompt answered, the one across the drop included, once
    assert record.replay().is_over


def test_a_full_table_and_bad_links_are_one_line(server: str) -> None:
    table = new_table(server, 2, {1: "random"})
    take_seat(parse_link(server + table["invite_url"]), "Cy")
    for url, message in [
        (server + table["invite_url"], "every seat of table"),
        (f"{server}/t/{table['id']}#seat=not-a-token", "token"),
        (f"{server}/t/nosuchtable", "table"),
        ("ftp://example.com/t/x", "not a table link"),
    ]:
        result = runner.invoke(app, ["join", url], input="")
        lines = result.output.splitlines()
        assert result.exit_code == 1, (url, result.output)
        assert len(lines) == 1 and lines[0].startswith("odin join: "), result.output
        assert message in lines[0].lower() or message in lines[0], (url, lines)


def test_watching_shows_the_game_to_its_end(server: str, tmp_path: Path) -> None:
    table = new_table(server, 2, {0: "random", 1: "random"}, one_hand=True)
    result = runner.invoke(
        app, ["join", f"{server}/t/{table['id']}/watch"], input="", env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert "watching" in result.output and "Final standings" in result.output
    # At the hand's end every player's cards left are shown, as `odin play` shows them.
    game = record_of(server, table).replay()
    end = next(e for e in game.public_events() if e["type"] == "hand_end")
    summary = result.output.split("Hand 1 is over")[1].split("Final standings")[0]
    assert "cards left" in summary and any(end["cards"])
    for cards in end["cards"]:
        assert " ".join(cards) in summary


def test_join_plays_a_whole_game_of_in_the_name_of_odin(server: str) -> None:
    """A table of the second game: its screen, its notation, to the end (before, the client
    took the seat and crashed on Odin's ``hand``)."""
    table = new_table(server, 2, {1: "heuristic"}, game="name-of-odin")
    assert table["game"] == "name-of-odin"
    invite = server + table["invite_url"]
    lines = ["help", "show", "9999", "raid nowhere"] + ["1"] * 3000
    result = subprocess.run(
        [*ODIN, "join", invite, "--name", "Ada"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "120"},
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert f"In the Name of Odin: table {table['id']} on {server}, seat 0." in out
    assert "Ada, your turn: act, or end" in out  # the game's own prompt
    assert "Your hand:" in out and "Turn " in out  # its screen, drawn from the seat's state
    assert "swap WC SH" in out  # help: the game's notation
    assert "choose a number from 1 to" in out  # refused here, nothing sent
    assert "✗ " in out  # 'raid nowhere' is sent and refused by the server, in its words
    record = http_json("GET", f"{server}/api/tables/{table['id']}/record")
    game = rules_of("name-of-odin").load_record(record).replay()
    assert game.is_over
    assert "game over:" in out
