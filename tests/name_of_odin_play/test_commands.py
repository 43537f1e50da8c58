"""``odin simulate``, ``odin arena`` and ``odin replay`` with ``--game name-of-odin``, end to
end through the real command: figures, records that replay, one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from odin_cards.cli import app
from odin_cards.name_of_odin.rules import NAME_OF_ODIN

runner = CliRunner()
GAME = ["--game", "name-of-odin"]


def one_line_error(result: Result, command: str, status: int = 2) -> str:
    """The single line of a refused command: ``odin COMMAND: ...``, no traceback."""
    lines = result.output.splitlines()
    assert result.exit_code == status, result.output
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"odin {command}: "), lines[0]
    assert "Traceback" not in result.output
    return lines[0]


def test_simulate_plays_random_games_and_records_the_first(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app, ["simulate", *GAME, "-p", "3", "-n", "4", "--seed", "2", "--record", str(record)]
    )
    assert result.exit_code == 0, result.output
    assert "4 random games of name-of-odin, 3 players" in result.output
    assert re.search(r"games\s+│\s+4\b", result.output)
    for label in ("actions per game", "mean score by seat", "win share by seat"):
        assert label in result.output
    game = NAME_OF_ODIN.load_record(json.loads(record.read_text())).replay()
    assert game.is_over and game.players == 3


def test_simulate_with_a_bot_in_every_seat_reports_the_places_in_the_order_of_play() -> None:
    result = runner.invoke(
        app, ["simulate", *GAME, "--bots", "heuristic", "-p", "3", "-n", "6", "--json", "-"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["bots"] == "heuristic" and data["games"] == 6
    assert [p["place"] for p in data["places"]] == [0, 1, 2]
    assert abs(sum(p["win_share"] for p in data["places"]) - 1) < 1e-9
    assert all(p["ci95"][0] <= p["win_share"] <= p["ci95"][1] for p in data["places"])
    assert data["turns_per_game"] > 3
    shown = runner.invoke(app, ["simulate", *GAME, "--bots", "heuristic", "-p", "2", "-n", "2"])
    assert "2 heuristic self-play games of name-of-odin" in " ".join(shown.output.split())
    assert "by place in the order of play (0 began)" in shown.output


def test_simulate_figures_are_json_and_seeded() -> None:
    def figures(seed: int) -> dict[str, object]:
        result = runner.invoke(
            app, ["simulate", *GAME, "-p", "2", "-n", "3", "--seed", str(seed), "--json", "-"]
        )
        assert result.exit_code == 0, result.output
        data: dict[str, object] = json.loads(result.stdout)
        assert data["game"] == "name-of-odin" and data["games"] == 3 and data["complete"]
        del data["seconds"]
        return data

    assert figures(1) == figures(1)
    assert figures(1) != figures(2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", *GAME, "-p", "6"], "--players: In the Name of Odin is played by 2 to 5"),
        (["simulate", *GAME, "--target", "10"], "--target: --target is an option of Odin, not"),
        (["simulate", *GAME, "--goat"], "--goat: --goat is an option of Odin"),
        (["arena", "heuristic", "chess", *GAME], "unknown bot level 'chess'; levels: random, h"),
        (["arena", "heuristic", *GAME], "name at least two bots"),
        (["arena", "random", "random", "random", *GAME, "-p", "2"], "3 bots do not fit"),
        (["arena", "random", "random:iterations=9", *GAME], "take no iterations budget"),
        (["play", *GAME, "-p", "1"], "--players: In the Name of Odin is played by 2 to 5"),
        (["play", *GAME, "--bots", "expert"], "--bots: unknown bot level 'expert'"),
        (["play", *GAME, "--bots", "random,random", "-p", "4"], "one per bot seat (3), not 2"),
        (["play", *GAME, "--colours", "4"], "--colours: --colours is an option of Odin"),
        (["play", "--cards", "x.toml"], "--cards: --cards is an option of In the Name of Odin"),
        (["simulate", *GAME, "--bots", "expert"], "--bots: unknown bot level 'expert'"),
        (["simulate", "--bots", "grandmaster"], "--bots: unknown bot level 'grandmaster'"),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    line = one_line_error(runner.invoke(app, args, input=""), args[0])
    assert message in line


def test_arena_reports_bots_and_seats_and_writes_records(tmp_path: Path) -> None:
    records = tmp_path / "records"
    result = runner.invoke(
        app,
        [
            *("arena", "heuristic", "random", *GAME, "-p", "3", "--games", "4"),
            *("--workers", "1", "--json", str(tmp_path / "run.json"), "--records", str(records)),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "4 games of name-of-odin = 2 deal sets x 2 seat rotations, 3 players" in result.output
    assert "by place in the order of play (0 began)" in result.output
    assert "score/game" in result.output  # no hands: the mean final score
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["game"] == "name-of-odin" and data["games"] == 4 and data["complete"]
    assert [b["label"] for b in data["bots"]] == ["heuristic", "random"]
    assert abs(sum(b["wins"] for b in data["bots"]) - 4) < 1e-9
    assert abs(sum(p["win_share"] for p in data["places"]) - 1) < 1e-9
    for game in data["game_results"]:
        assert len(game["scores"]) == 3 and game["winners"]
    files = sorted(records.iterdir())
    assert len(files) == 4
    for path in files:
        replayed = runner.invoke(app, ["replay", str(path)])
        assert replayed.exit_code == 0, replayed.output
        assert "seats: 0 " in replayed.output and "game over:" in replayed.output


def test_arena_rotations_play_each_deal_with_the_bots_moved(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["arena", "heuristic", "random", *GAME, "-p", "2", "-n", "2", "-j", "1", "--json", "-"],
    )
    assert result.exit_code == 0, result.output
    games = json.loads(result.stdout)["game_results"]
    assert [g["seats"] for g in games] == [["heuristic", "random"], ["random", "heuristic"]]
    assert games[0]["seed"] == games[1]["seed"]


def test_arena_draws_the_figure_for_any_game(tmp_path: Path) -> None:
    png = tmp_path / "run.png"
    result = runner.invoke(
        app, ["arena", "heuristic", "random", *GAME, "-n", "2", "-j", "1", "--plot", str(png)]
    )
    assert result.exit_code == 0, result.output
    assert png.read_bytes().startswith(b"\x89PNG")


def test_replay_shows_the_game_move_by_move(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(app, ["simulate", *GAME, "-p", "2", "-n", "1", "--record", str(record)])
    assert result.exit_code == 0, result.output
    data = json.loads(record.read_text())
    shown = runner.invoke(app, ["replay", str(record)])
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("name-of-odin, 2 players")
    assert "game over:" in shown.output
    raids = [text for _, text in data["actions"] if text.startswith("raid ")]
    lines = [line for line in shown.output.splitlines() if " raids " in line]
    assert len(lines) == len(raids)
    assert runner.invoke(app, ["replay", str(record), *GAME]).exit_code == 0


def test_replay_checks_the_stored_outcome_and_the_moves(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    runner.invoke(app, ["simulate", *GAME, "-p", "2", "-n", "1", "--record", str(record)])
    data = json.loads(record.read_text())
    data["outcome"]["scores"] = [s + 1 for s in data["outcome"]["scores"]]
    record.write_text(json.dumps(data))
    line = one_line_error(runner.invoke(app, ["replay", str(record)]), "replay", status=1)
    assert "the stored outcome" in line and "lead to" in line
    data = json.loads(record.read_text())
    data["actions"][3][1] = "raid nowhere noship W"
    record.write_text(json.dumps(data))
    line = one_line_error(runner.invoke(app, ["replay", str(record)]), "replay", status=1)
    assert str(record) in line
    runner.invoke(app, ["simulate", *GAME, "-p", "2", "-n", "1", "--record", str(record)])
    result = runner.invoke(app, ["replay", str(record), "--deals"])
    assert "--deals: name-of-odin has no deals to show" in one_line_error(result, "replay")


def test_ctrl_c_keeps_the_finished_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Simulate reports the games finished; the arena the deal sets played in every rotation."""
    import odin_cards.tools.arena.runner as runner_module
    import odin_cards.tools.simulate as sim

    real_simulate, real_play_match = sim.simulate, runner_module.play_match

    def three_then_ctrl_c(*args: object, **kwargs: object) -> sim.GameTotals:
        rules, players, setup, _, seed, progress, level = args
        real_simulate(rules, players, setup, 3, seed, progress, level)  # type: ignore[arg-type]
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "simulate", three_then_ctrl_c)
    result = runner.invoke(app, ["simulate", *GAME, "-p", "2", "-n", "50", "--json", "-"])
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert data["complete"] is False and data["games"] == 3

    calls: list[int] = []

    def ctrl_c_in_the_fourth_game(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real_play_match(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(runner_module, "play_match", ctrl_c_in_the_fourth_game)
    result = runner.invoke(
        app,
        ["arena", "heuristic", "random", *GAME, "-p", "2", "-n", "10", "-j", "1", "--json", "-"],
    )
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert data["complete"] is False and data["games"] == 2 and data["deals"] == 1
    assert "interrupted: results of the 1 deal set played in every rotation (2 games)" in (
        " ".join(result.output.split())
    )
