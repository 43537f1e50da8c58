"""The engine's commands end to end: simulate, replay, traces, bench."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.odin.rules import GameRecord

DATA = Path(__file__).parent.parent / "data"
runner = CliRunner()


def test_simulate_prints_a_summary_and_records_a_game(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app, ["simulate", "--players", "3", "--games", "20", "--seed", "4", "--record", str(record)]
    )
    assert result.exit_code == 0, result.output
    for label in ("games", "hands per game", "actions per game", "mean score per player", "time"):
        assert label in result.output
    assert re.search(r"games\s+│\s+20\b", result.output)
    game = GameRecord.from_json(record.read_text()).replay()
    assert game.is_over and game.players == 3


def test_simulate_is_deterministic_for_a_seed_and_writes_json() -> None:
    def figures(seed: int) -> dict[str, object]:
        result = runner.invoke(
            app, ["simulate", "--games", "5", "--seed", str(seed), "--json", "-"]
        )
        assert result.exit_code == 0, result.output
        data: dict[str, object] = json.loads(result.stdout)
        assert data["format"] == "odin-cards-simulate/2" and data["complete"] is True
        assert data["games"] == 5
        del data["seconds"]
        return data

    assert figures(7) == figures(7)
    assert figures(7) != figures(8)


def test_simulate_refuses_bad_options() -> None:
    result = runner.invoke(app, ["simulate", "--players", "7", "--games", "1"])
    assert result.exit_code == 2
    assert "2 to 6 players" in result.output
    result = runner.invoke(app, ["simulate", "--players", "4", "--colours", "4"])
    assert result.exit_code == 2 and "two players only" in result.output


def test_replay_prints_moves_and_scores(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    runner.invoke(app, ["simulate", "--players", "2", "--games", "1", "--record", str(record)])
    data = json.loads(record.read_text())
    result = runner.invoke(app, ["replay", str(record), "--deals"])
    assert result.exit_code == 0, result.output
    actions = [e["action"] for e in data["events"] if "action" in e]
    lines = [line.strip() for line in result.output.splitlines()]
    moves = [
        line.split(": ", 1)[1] for line in lines if re.match(r"seat \d: (play|pass|take)", line)
    ]
    assert moves == actions
    assert (
        sum(1 for line in lines if line.startswith("hand over")) == data["outcome"]["hands_played"]
    )
    assert "scores" in result.output and "game over" in result.output
    assert "holds" in result.output  # --deals


def test_replay_refuses_a_broken_record(tmp_path: Path) -> None:
    record = tmp_path / "bad.json"
    record.write_text('{"format": "odin-cards-record/1", "players": 2}')
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 1
    assert "broken game record: no 'options' field" in " ".join(result.output.split())
    result = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert result.exit_code == 1
    assert "cannot read" in result.output and "No such file or directory" in result.output


def test_traces_check_the_reference_file() -> None:
    result = runner.invoke(app, ["traces", "--check", str(DATA / "odin-hands.jsonl")])
    assert result.exit_code == 0, result.output
    assert "250 of 250 hands match" in result.output


def test_traces_report_mismatches(tmp_path: Path) -> None:
    lines = (DATA / "odin-hands.jsonl").read_text().splitlines()[:3]
    broken = json.loads(lines[1])
    broken["steps"][2]["legal"] = broken["steps"][2]["legal"][:-1]
    lines[1] = json.dumps(broken)
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["traces", "--check", str(path)])
    assert result.exit_code == 1
    assert "2 of 3 hands match" in result.output
    assert "hand 1, step 2: legal actions differ; engine only:" in result.output


def test_traces_write_then_check(tmp_path: Path) -> None:
    path = tmp_path / "new.jsonl"
    result = runner.invoke(app, ["traces", "--write", str(path), "--hands", "12", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert len(path.read_text().splitlines()) == 12
    result = runner.invoke(app, ["traces", "--check", str(path)])
    assert result.exit_code == 0 and "12 of 12 hands match" in result.output


def test_traces_are_the_games_and_a_game_without_them_is_refused(tmp_path: Path) -> None:
    """``odin traces`` reaches a game's traces through its plugin: In the Name of Odin
    offers none, and its player counts are not Odin's."""
    result = runner.invoke(app, ["traces", "--game", "name-of-odin", "--check", "x.jsonl"])
    assert result.exit_code == 1
    assert result.output.strip() == "odin traces: In the Name of Odin has no conformance traces"
    path = tmp_path / "seven.jsonl"
    result = runner.invoke(app, ["traces", "--write", str(path), "--players", "7"])
    assert result.exit_code == 2 and "player counts are 2 to 6" in result.output


def test_bench_prints_its_figures() -> None:
    result = runner.invoke(app, ["bench", "--players", "2", "--seconds", "0.2"])
    assert result.exit_code == 0, result.output
    assert "games/s" in result.output
    row = next(line for line in result.output.splitlines() if line.strip("│ ").startswith("2 "))
    numbers = [float(n.replace(",", "")) for n in re.findall(r"[\d,]+\.?\d*", row)]
    assert all(n > 0 for n in numbers)


def test_bench_writes_json() -> None:
    result = runner.invoke(app, ["bench", "--players", "3", "--seconds", "0.1", "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["format"] == "odin-cards-bench/1"
    [figures] = data["results"]
    assert figures["players"] == 3 and figures["games_per_second"] > 0
