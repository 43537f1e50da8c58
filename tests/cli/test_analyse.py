"""``odin analyse``: text and JSON of a recorded game's analysis, and refusals."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.name_of_odin.rules import NAME_OF_ODIN
from odin_cards.odin.bots import Budget, ask, make_bot
from odin_cards.odin.rules import Game, Options

runner = CliRunner()


def recorded_game(path: Path) -> Game:
    game = Game.new(2, Options(one_hand=True), 11)
    rng = random.Random(3)
    bot = make_bot("random")
    while not game.is_over:
        game.apply(ask(bot, game, Budget(), rng))
    path.write_text(game.record().to_json())
    return game


def test_text_lists_judged_moves_and_a_summary_per_player(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    recorded_game(record)
    result = runner.invoke(
        app, ["analyse", str(record), "-n", "20", "--json", str(tmp_path / "a.json")]
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "a.json").read_text())
    assert data["format"] == "odin-cards-analysis/1" and data["iterations"] == 20
    lines = result.output.splitlines()
    assert lines[0] == "2 players, 20 search iterations a move"
    judged = [m for m in data["moves"] if m["verdict"] != "forced"]
    listed = [line for line in lines if line.startswith("  seat ") and "choices" not in line]
    assert len(listed) == len(judged)
    for line, move in zip(listed, judged, strict=True):
        assert move["played"] in line and move["verdict"] in line
    for summary in data["summary"]:
        assert any(
            line.startswith(f"  seat {summary['seat']}  {summary['decisions']} choice")
            and f"{summary['blunders']} blunder" in line
            for line in lines
        )


def test_json_on_stdout_is_the_only_output(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    game = recorded_game(record)
    result = runner.invoke(app, ["analyse", str(record), "-n", "10", "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    actions = [e for e in game.view(None).history if e["type"] in ("play", "pass", "take")]
    assert [m["played"] for m in data["moves"]] == [e["text"] for e in actions]
    assert [s["seat"] for s in data["summary"]] == [0, 1]


def test_a_broken_record_or_bad_budget_is_refused_in_one_line(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    recorded_game(record)
    data = json.loads(record.read_text())
    data["events"][1]["action"] = "play X9"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    result = runner.invoke(app, ["analyse", str(broken)])
    assert result.exit_code == 1
    assert result.output.startswith("odin analyse: ") and "does not replay" in result.output
    result = runner.invoke(app, ["analyse", str(record), "-n", "5"])
    assert result.exit_code == 2 and "--iterations" in result.output


def test_a_game_that_is_not_analysed_is_refused_in_one_line(tmp_path: Path) -> None:
    """The analysis is the game's (its plugin's ``analysis``): In the Name of Odin has none."""
    game = NAME_OF_ODIN.new_game(2, {}, seed=4)
    record = tmp_path / "noo.json"
    record.write_text(json.dumps(game.record().to_dict()))
    result = runner.invoke(app, ["analyse", str(record)])
    assert result.exit_code == 1
    said = " ".join(result.output.split())  # (a long temporary path may wrap the line)
    assert said == f"odin analyse: {record}: records of In the Name of Odin are not analysed"
