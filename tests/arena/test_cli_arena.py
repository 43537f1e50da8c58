"""``odin arena`` end to end: the table, the files, and clear errors (exit 2) for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.odin.bots import Level, added_level
from odin_cards.odin.rules import GameRecord

from .test_arena import BrokenBot

runner = CliRunner()


def test_arena_command_prints_figures_and_writes_json_and_png(tmp_path: Path) -> None:
    json_file, png_file = tmp_path / "out.json", tmp_path / "out.png"
    result = runner.invoke(
        app,
        [
            "arena",
            "random",
            "random",
            "--games",
            "3",
            "--target",
            "6",
            "--seed",
            "4",
            "--workers",
            "2",
            "--json",
            str(json_file),
            "--plot",
            str(png_file),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "4 games of odin = 2 deal sets x 2 seat rotations" in result.output
    assert "rounded up" in result.output
    assert "random#2" in result.output and "win share (95% CI)" in result.output
    data = json.loads(json_file.read_text())
    assert data["games"] == 4 and data["workers"] == 2 and data["options"]["target"] == 6
    shares = [b["win_share"] for b in data["bots"]]
    assert sum(shares) == pytest.approx(1.0)
    for bot in data["bots"]:
        assert f"{bot['win_share']:.3f}" in result.output
        low, high = bot["win_share_ci95"]
        assert low <= bot["win_share"] <= high
    assert png_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_records_and_bot_failures(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["arena", "random", "random", "-n", "2", "--target", "5", "--records", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["deal0000-rotation0.json", "deal0000-rotation1.json"]
    game = GameRecord.from_json((tmp_path / files[1]).read_text()).replay()
    assert game.is_over and game.seed == "arena:1:0"

    with added_level(Level("broken", BrokenBot), "Broken"):
        failed = runner.invoke(app, ["arena", "broken", "random", "-n", "2", "-j", "1"])
    assert failed.exit_code == 1
    assert "bot failure: broken at seat" in failed.output and "out of ideas" in failed.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random", "nonsense"], "unknown bot level 'nonsense'"),
        (["random"], "at least two bots"),
        (["random", "random", "--games", "0"], "play at least 1 game"),
        (["random", "random", "--workers", "0"], "use at least 1 worker"),
        (["random", "random", "random", "--players", "2"], "3 bots do not fit at 2 seats"),
        (["random", "random", "--players", "7"], "2 to 6 players"),
        (["random", "random", "--colours", "4", "--players", "3"], "two players only"),
        (["random", "random:iterations=many"], "iterations must be a positive whole number"),
        (["random", "random", "--json", "/no/such/dir/x.json"], "does not exist"),
    ],
)
def test_bad_arena_input_is_a_clear_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["arena", *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.replace("│", " ").split())
    assert "Traceback" not in result.output
