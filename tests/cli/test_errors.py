"""Every bad input of the ``odin`` commands: one line naming the command, a non-zero exit
status, no traceback, no Python name, and nothing done (issue 14's list, case by case)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from odin_cards.cli import app

runner = CliRunner()


def one_line_error(result: Result, command: str, status: int = 2) -> str:
    """The single line of a refused command (asserted), whitespace-normalised."""
    lines = result.output.splitlines()
    assert result.exit_code == status, result.output
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"odin {command}: "), lines[0]
    assert "Traceback" not in result.output and "│" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), repr(result.exception)
    return lines[0]


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_record_naming_a_folder_is_refused_before_playing(command: str, tmp_path: Path) -> None:
    result = runner.invoke(app, [command, "--record", str(tmp_path)], input="")
    line = one_line_error(result, command)
    assert f"--record: {tmp_path} is a folder, not a file" in line
    assert "Hand 1" not in result.output


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_record_in_a_missing_folder_is_refused(command: str, tmp_path: Path) -> None:
    path = tmp_path / "missing" / "game.json"
    line = one_line_error(runner.invoke(app, [command, "--record", str(path)], input=""), command)
    assert f"the folder of {path} does not exist" in line


def test_traces_write_into_a_missing_folder_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "x.jsonl"
    line = one_line_error(runner.invoke(app, ["traces", "--write", str(path)]), "traces")
    assert f"--write: the folder of {path} does not exist" in line


@pytest.mark.parametrize("args", [["replay"], ["traces", "--check"]])
def test_a_binary_file_is_refused(args: list[str], tmp_path: Path) -> None:
    binary = tmp_path / "data.bin"
    binary.write_bytes(bytes(range(256)))
    result = runner.invoke(app, [*args, str(binary)])
    assert f"{binary} is not a text file" in one_line_error(result, args[0], status=1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--players", "9"], "--players: Odin is played by 2 to 6 players, not 9"),
        (["play", "--next-leader", "x"], "--next-leader: 'rotate' or 'winner', not 'x'"),
        (["simulate", "--first-leader", "5"], "--first-leader: a seat from 0 to 3, not 5"),
        (["arena", "random", "random", "--colours", "5"], "--colours: 6, or 4"),
        (["simulate", "--target", "0"], "--target: the target is a positive whole number"),
        (["play", "--players", "x"], "'--players' / '-p'"),
        (["play", "--no-such-flag"], "No such option: --no-such-flag"),
        (["bench", "--players", "7"], "--players: player counts are 2 to 6"),
    ],
)
def test_option_errors_are_one_line_without_python_names(args: list[str], message: str) -> None:
    line = one_line_error(runner.invoke(app, args, input=""), args[0])
    assert message in line
    assert f"(see odin {args[0]} -h)" in line
    assert not re.search(r"\b(next_leader|first_leader|one_hand|int|str|bool)\b", line)


def test_an_unknown_command_is_one_line() -> None:
    result = runner.invoke(app, ["dance"])
    assert result.exit_code == 2
    assert result.output.splitlines() == ["odin: No such command 'dance'. (see odin -h)"]


def test_help_shows_no_type_after_a_plain_switch_and_answers_to_h() -> None:
    result = runner.invoke(app, ["play", "-h"])
    assert result.exit_code == 0
    assert "--one-hand" in result.output and "--goat" in result.output
    assert "<bool>" not in result.output
    assert "<int>" in result.output  # options with a value still show its type


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert re.fullmatch(r"odin \d+\.\d+\.\d+\n", result.output)


def test_arena_json_dash_is_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(
        app, ["arena", "random", "random", "--games", "2", "--workers", "1", "--json", "-"]
    )
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "-").exists()
    data = json.loads(result.stdout)
    assert data["format"] == "odin-cards-arena/1" and data["games"] == 2
    assert data["complete"] is True


def test_arena_plot_must_be_a_png(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    result = runner.invoke(app, ["arena", "random", "random", "--plot", str(path)])
    assert f"--plot: {path} should end in .png" in one_line_error(result, "arena")
    assert not path.exists()


def test_replay_checks_the_stored_outcome(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(app, ["simulate", "-p", "2", "-n", "1", "--record", str(record)])
    assert result.exit_code == 0, result.output
    data = json.loads(record.read_text())
    assert runner.invoke(app, ["replay", str(record)]).exit_code == 0
    data["outcome"]["winners"] = [1 - data["outcome"]["winners"][0]]
    data["outcome"]["scores"] = data["outcome"]["scores"][::-1]
    record.write_text(json.dumps(data))
    line = one_line_error(runner.invoke(app, ["replay", str(record)]), "replay", status=1)
    assert "the stored outcome" in line and "is not the one the moves lead to" in line


def test_traces_check_of_an_empty_file_fails(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = runner.invoke(app, ["traces", "--check", str(empty)])
    assert f"{empty} holds no trace" in one_line_error(result, "traces", status=1)


def test_traces_show_cannot_be_negative(tmp_path: Path) -> None:
    result = runner.invoke(app, ["traces", "--check", str(tmp_path / "x"), "--show", "-1"])
    assert "'--show'" in one_line_error(result, "traces")


def test_a_record_that_is_not_one_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    result = runner.invoke(app, ["replay", str(bad)])
    assert "not an Odin game record" in one_line_error(result, "replay", status=1)
    result = runner.invoke(app, ["play", "--resume", str(bad)], input="")
    assert "not an Odin game record" in one_line_error(result, "play", status=1)
