"""The third game (take-away, defined under ``tests/plugins`` alone, with a set-up flag
added here): every command plays it through its plugin, on the platform's plain terminal;
nothing under ``cli/`` or ``tools/`` knows it."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.cli.plain import PlainScreen
from odin_cards.games import registered
from odin_cards.plugin import Flag, FlagError
from plugins.takeaway.plugin import PLUGIN

from .test_errors import one_line_error

runner = CliRunner()
GAME = ["--game", "take-away"]


def read_flags(players: int, flags: Mapping[str, Any]) -> dict[str, Any]:
    """Take-away's ``--pile N`` (what a game's reader does: its own words for a bad value)."""
    pile = flags.get("--pile")
    if pile is not None and pile < 1:
        raise FlagError("--pile", f"a pile holds at least 1 token, not {pile}")
    return {} if pile is None else {"pile": pile}


@pytest.fixture(autouse=True)
def take_away() -> Iterator[None]:
    flags = (Flag("--pile", "Tokens in the pile (5 to 50; default 15).", "int"),)
    with registered(replace(PLUGIN, flags=flags, read_flags=f"{__name__}:read_flags")):
        yield


def test_play_on_the_plain_terminal_records_a_game_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "take-away.json"
    args = ["play", *GAME, "-p", "2", "--pile", "9", "--bots", "greedy", "--seed", "3"]
    result = runner.invoke(app, [*args, "--record", str(record)], input="help\nx\n1\n" * 12)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Take-away: You against Greedy 1. Type help for help." in out
    assert '"pile": 9' in out and "1. take 1" in out and '"hand": [' in out
    assert "Commands: show" in out and "✗ an action is 'take N'" in out
    assert "Game over: You " in out and "won by " in out
    data = json.loads(record.read_text())
    assert data["game"] == "take-away" and data["setup"] == {"pile": 9}
    assert data["seats"][1] == {"name": "Greedy 1", "bot": "greedy"}
    shown = runner.invoke(app, ["replay", str(record)])
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("take-away, 2 players\nseats: 0 You, 1 Greedy 1\n")
    assert '"kind": "win"' in shown.output
    line = one_line_error(runner.invoke(app, ["replay", str(record), "--deals"]), "replay")
    assert "--deals: take-away has no deals to show" in line


def test_a_game_left_is_resumed_with_its_own_set_up(tmp_path: Path) -> None:
    record = tmp_path / "left.json"
    args = ["play", *GAME, "-p", "2", "--pile", "30", "--bots", "random", "--seed", "1"]
    wide = {"COLUMNS": "300"}  # the long path on one line
    left = runner.invoke(app, [*args, "--record", str(record)], input="quit\n", env=wide)
    assert left.exit_code == 0, left.output
    said = " ".join(left.output.split())
    assert f"odin play --game take-away --resume {record} plays on" in said
    again = ["play", *GAME, "--resume", str(record)]
    refused = one_line_error(runner.invoke(app, [*again, "--pile", "8"], input=""), "play")
    assert "--pile: a resumed game plays on with its own set-up" in refused
    resumed = runner.invoke(app, again, input="1\n" * 40)
    assert resumed.exit_code == 0, resumed.output
    assert "resumed" in resumed.output and "Game over" in resumed.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", *GAME, "-p", "2", "--pile", "0"], "--pile: a pile holds at least 1 token"),
        (["play", *GAME, "-p", "2", "--pile", "99"], "the pile has 5 to 50 tokens"),
        (["play", *GAME, "--target", "10"], "--target: --target is an option of Odin, not of"),
        (["play", "--pile", "9"], "--pile: --pile is an option of Take-away, not of Odin"),
        (["play", *GAME, "-p", "3"], "--players: Take-away is played by 2 to 2 players, not 3"),
        (["arena", "greedy", "nope", *GAME], "unknown bot level 'nope'; levels: random, greedy"),
        (["arena", "greedy", "random:iterations=5", *GAME], "take no iterations budget"),
        (["evaluate", "greedy", *GAME, "-p", "2"], "odin-eval-v1 holds deals of odin, not of"),
        (["bench", *GAME, "--players", "4"], "--players: player counts are 2 to 2"),
    ],
)
def test_its_errors_are_one_line(args: list[str], message: str) -> None:
    assert message in one_line_error(runner.invoke(app, args, input=""), args[0])


def test_the_help_lists_its_flag() -> None:
    result = runner.invoke(app, ["simulate", "-h"], env={"COLUMNS": "200"})
    assert "Tokens in the pile (5 to 50; default 15). (Take-away)" in result.output


def test_simulate_and_the_arena_play_it_with_its_bots() -> None:
    result = runner.invoke(app, ["simulate", *GAME, "-p", "2", "-n", "30", "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "take-away" and data["games"] == 30 and data["setup"] == {"pile": 15}
    assert abs(sum(data["win_share_by_seat"]) - 1) < 1e-9
    arena = ["arena", "greedy", "random", *GAME, "--pile", "20", "-n", "20", "-j", "1"]
    result = runner.invoke(app, [*arena, "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "take-away" and data["options"] == {"pile": 20}
    assert [b["label"] for b in data["bots"]] == ["greedy", "random"]
    assert abs(sum(b["win_share"] for b in data["bots"]) - 1) < 1e-9
    ladder = runner.invoke(app, ["arena", "--ladder", "random", "greedy", *GAME, "-n", "8"])
    assert ladder.exit_code == 0, ladder.output
    assert "ladder of 2 levels of take-away" in ladder.output and "greedy vs random" in (
        ladder.output
    )


def test_bench_measures_its_engine_through_the_contract() -> None:
    args = ["bench", *GAME, "--players", "2", "--seconds", "0.1", "--json", "-"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    [figures] = data["results"]
    assert data["game"] == "take-away" and figures["actions_per_second"] > 0
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
