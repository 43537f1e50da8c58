"""A game the repository does not have (``tiny_game``, registered by the test): every
command plays it through its plugin alone, on the platform's plain terminal, with its own
set-up flag; nothing under ``cli/`` or ``tools/`` knows it."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.cli.plain import PlainScreen
from odin_cards.games import registered

from . import tiny_game
from .test_errors import one_line_error

runner = CliRunner()
TINY = ["--game", "tiny"]


@pytest.fixture(autouse=True)
def tiny() -> Iterator[None]:
    with registered(tiny_game.plugin()):
        yield


def test_play_on_the_plain_terminal_records_a_game_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "tiny.json"
    args = ["play", *TINY, "-p", "2", "--pile", "7", "--bots", "perfect", "--seed", "3"]
    result = runner.invoke(app, [*args, "--record", str(record)], input="help\nx\n1\n" * 10)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Tiny: You against Perfect 1. Type help for help." in out
    assert '"pile": 7' in out and "1. take 1  2. take 2  3. take 3" in out
    assert "Commands: show" in out and "✗ not an action: 'x'" in out
    assert "Game over: You " in out and "won by Perfect 1" in out  # 7 stones: perfect play wins
    data = json.loads(record.read_text())
    assert data["game"] == "tiny" and data["seats"][1] == {"name": "Perfect 1", "bot": "perfect"}
    shown = runner.invoke(app, ["replay", str(record)])
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("tiny, 2 players\nseats: 0 You, 1 Perfect 1\n")
    assert '"type": "end", "winner": 1' in shown.output
    line = one_line_error(runner.invoke(app, ["replay", str(record), "--deals"]), "replay")
    assert "--deals: tiny has no deals to show" in line


def test_a_game_left_is_resumed_with_its_own_set_up(tmp_path: Path) -> None:
    record = tmp_path / "left.json"
    args = ["play", *TINY, "-p", "3", "--pile", "30", "--bots", "random", "--seed", "1"]
    left = runner.invoke(app, [*args, "--record", str(record)], input="quit\n")
    assert left.exit_code == 0, left.output
    assert f"odin play --game tiny --resume {record} plays on" in " ".join(left.output.split())
    again = ["play", *TINY, "--resume", str(record)]
    refused = one_line_error(runner.invoke(app, [*again, "--pile", "3"], input=""), "play")
    assert "--pile: a resumed game plays on with its own set-up" in refused
    resumed = runner.invoke(app, again, input="1\n" * 40)
    assert resumed.exit_code == 0, resumed.output
    assert "resumed" in resumed.output and "Game over" in resumed.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", *TINY, "-p", "2", "--pile", "0"], "--pile: a pile holds at least 1 stone, not 0"),
        (["play", *TINY, "--target", "10"], "--target: --target is an option of Odin, not of Tiny"),
        (["play", "--pile", "3"], "--pile: --pile is an option of Tiny, not of Odin"),
        (["play", *TINY, "-p", "4"], "--players: Tiny is played by 2 to 3 players, not 4"),
        (["arena", "perfect", "nope", *TINY], "unknown bot level 'nope'; levels: random, perfect"),
        (["arena", "perfect", "random:iterations=5", *TINY], "take no iterations budget"),
        (["evaluate", "perfect", *TINY, "-p", "2"], "odin-eval-v1 holds deals of odin, not of"),
        (["bench", *TINY, "--players", "5"], "--players: player counts are 2 to 3"),
    ],
)
def test_its_errors_are_one_line(args: list[str], message: str) -> None:
    assert message in one_line_error(runner.invoke(app, args, input=""), args[0])


def test_the_help_lists_its_flag() -> None:
    result = runner.invoke(app, ["simulate", "-h"], env={"COLUMNS": "200"})
    assert "--pile" in result.output and "Stones in the pile (default 10). (Tiny)" in result.output


def test_simulate_and_the_arena_play_it_with_its_bots() -> None:
    result = runner.invoke(app, ["simulate", *TINY, "-p", "2", "-n", "30", "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "tiny" and data["games"] == 30 and data["setup"] == {"pile": 10}
    assert [p["place"] for p in data["places"]] == [0, 1]
    arena = ["arena", "perfect", "random", *TINY, "--pile", "9", "-n", "20", "-j", "1"]
    result = runner.invoke(app, [*arena, "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "tiny" and data["options"] == {"pile": 9}
    perfect, random_bot = data["bots"]
    assert perfect["win_share"] > random_bot["win_share"]
    ladder = runner.invoke(app, ["arena", "--ladder", "random", "perfect", *TINY, "-n", "30"])
    assert ladder.exit_code == 0, ladder.output
    assert "perfect vs random: stronger" in ladder.output


def test_bench_measures_its_engine_through_the_contract() -> None:
    args = ["bench", *TINY, "--players", "2", "--seconds", "0.1", "--json", "-"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    [figures] = data["results"]
    assert data["game"] == "tiny" and figures["actions_per_second"] > 0
    assert figures["unchecked_actions_per_second"] is None and "research" not in data


def test_the_plain_screen_of_odin_join() -> None:
    out = io.StringIO()
    screen = PlainScreen(Console(file=out, width=120, color_system=None))
    state = {"names": ["Ada", "Bo"], "seat": 0, "pile": 5, "legal": ["take 1", "take 2"]}
    screen.position(state, [])
    assert '"pile": 5' in out.getvalue() and "1. take 1  2. take 2" in out.getvalue()
    assert screen.prompt(state, []) == "Ada, your move > "
    assert screen.read("2", state, []) == "take 2"
    assert screen.read("TAKE 1", state, []) == "take 1"
    assert screen.read("take 9", state, []) == "take 9"  # the server says what is wrong
    assert screen.read("help", state, []) is False and screen.read("quit", state, []) is True
    assert not screen.over(state) and screen.over({"outcome": {"winner": 1}})
