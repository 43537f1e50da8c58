"""``--game`` of play, simulate, arena and replay: Odin by default, a registered game by key,
an unknown one refused in one line, and a game's set-up flags refused for any other game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.games import keys, rules_of
from odin_cards.tools.simulate import GameTotals, bot_game, simulate

from .test_errors import one_line_error

runner = CliRunner()

OTHER_GAMES = [key for key in keys() if key != "odin"]


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--game", "chess"],
        ["simulate", "--game", "chess", "-n", "1"],
        ["arena", "random", "random", "--game", "chess"],
    ],
)
def test_an_unknown_game_is_one_line_listing_the_games(args: list[str]) -> None:
    line = one_line_error(runner.invoke(app, args, input=""), args[0])
    assert "--game: unknown game 'chess'; games: " + ", ".join(keys()) in line


def test_replay_refuses_an_unknown_game_asked_for(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_text("{}")
    line = one_line_error(runner.invoke(app, ["replay", str(record), "--game", "chess"]), "replay")
    assert "--game: unknown game 'chess'" in line


def test_replay_refuses_a_record_of_an_unknown_game(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"format": "x", "game": "chess"}))
    line = one_line_error(runner.invoke(app, ["replay", str(record)]), "replay", status=1)
    assert "a record of an unknown game 'chess'" in line


def test_replay_refuses_a_record_of_another_game_than_asked(tmp_path: Path) -> None:
    if not OTHER_GAMES:
        pytest.skip("only Odin is registered")
    record = tmp_path / "game.json"
    result = runner.invoke(app, ["simulate", "-p", "2", "-n", "1", "--record", str(record)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["replay", str(record), "--game", OTHER_GAMES[0]])
    line = one_line_error(result, "replay", status=1)
    assert f"is a record of odin, not of {OTHER_GAMES[0]}" in line


def test_odin_is_the_default_and_can_be_named(tmp_path: Path) -> None:
    named = runner.invoke(app, ["simulate", "-p", "2", "-n", "3", "--game", "odin", "--json", "-"])
    default = runner.invoke(app, ["simulate", "-p", "2", "-n", "3", "--json", "-"])
    assert named.exit_code == 0 and default.exit_code == 0, named.output + default.output
    first, second = json.loads(named.stdout), json.loads(default.stdout)
    assert first["game"] == "odin"
    del first["seconds"], second["seconds"]
    assert first == second


def test_the_contract_simulation_plays_any_registered_game_to_its_end() -> None:
    for key in keys():
        rules = rules_of(key)
        totals = simulate(rules, 2, {}, 3, seed=5)
        assert totals.games == 3 and len(totals.lengths) == 3, key
        assert abs(sum(totals.wins) - 3) < 1e-9
        again = simulate(rules, 2, {}, 3, seed=5)
        assert (again.scores, again.lengths) == (totals.scores, totals.lengths)


def test_game_totals_count_shared_victories_as_shares_by_seat_and_place() -> None:
    totals = GameTotals(3)
    totals.add_result([5, 5, 1], [0, 1], actions=10, first=1, turns=6)
    totals.add_result([0, 2, 9], [2], actions=20)
    assert totals.wins == [0.5, 0.5, 1.0]
    assert totals.mean_scores == [2.5, 3.5, 5.0]
    assert totals.place_wins == [0.5, 0.0, 1.5]  # seat 1 began the first game
    assert totals.mean_place_scores == [2.5, 1.5, 7.0]
    assert totals.actions_per_game == 15.0 and totals.turns_per_game == 6.0


def test_a_bot_game_is_seeded_and_keeps_its_record() -> None:
    first = bot_game("odin", 3, {}, "s1", ["heuristic", "random", "random"], keep_record=True)
    again = bot_game("odin", 3, {}, "s1", ["heuristic", "random", "random"])
    assert (first.scores, first.actions) == (again.scores, again.actions)
    assert first.record is not None and again.record is None
    assert [len(t) > 0 for t in first.think_seconds] == [True, True, True]
    assert sum(len(t) for t in first.think_seconds) == first.actions


def test_a_bot_game_refuses_an_unknown_level() -> None:
    with pytest.raises(KeyError, match="unknown bot level 'grandmaster'"):
        bot_game("odin", 2, {}, "s", ["grandmaster", "random"])


def test_odin_arena_describes_a_python_agent_entrant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "first_legal.py").write_text("def agent(view, legal):\n    return legal[0]\n")
    result = runner.invoke(
        app, ["arena", "first_legal.py:agent", "random", "--games", "2", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "first_legal.py:agent: Python agent (first_legal.py:agent)" in result.output
