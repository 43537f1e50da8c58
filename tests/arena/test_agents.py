"""Python agents as arena entrants: named by import path, played like levels, never repaired."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from odin_cards.odin.rules import Game, Options, parse_action
from odin_cards.tools.arena import (
    ArenaError,
    BotFailure,
    is_agent_path,
    load_agent,
    make_entrants,
    run_arena,
)
from odin_cards.tools.arena.agents import action_of

AGENT_FILE = """
def lowest(view, legal):
    return min(legal, key=lambda a: a.id)

def illegal(view, legal):
    return "take B1"
"""


@pytest.fixture
def agent_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_agent.py"
    path.write_text(AGENT_FILE, encoding="utf-8")
    return path


def test_import_paths_are_told_from_levels_and_budgets() -> None:
    assert is_agent_path("mypackage.agents:policy")
    assert is_agent_path("agents/policy.py:play")
    assert not is_agent_path("heuristic")
    assert not is_agent_path("search:iterations=200")
    assert not is_agent_path("package.module:")


def test_an_agent_enters_the_arena_by_import_path(agent_file: Path) -> None:
    spec = f"{agent_file}:lowest"
    entrants = make_entrants([spec, "random", spec])
    assert [e.label for e in entrants] == [spec, "random", f"{spec}#2"]
    assert entrants[0].agent == spec and entrants[0].key == "agent"
    assert entrants[1].agent is None
    run = run_arena(entrants[:2], games=2, seed=3, setup={"target": 5}, workers=1)
    assert len(run.results) == 2 and {r.lineup for r in run.results} == {(0, 1), (1, 0)}


def test_an_agent_with_an_illegal_move_fails_its_game(agent_file: Path) -> None:
    entrants = make_entrants([f"{agent_file}:illegal", "random"])
    with pytest.raises(BotFailure, match="chose 'take B1', which is not legal here"):
        run_arena(entrants, games=2, seed=1, setup={"target": 5}, workers=1)


def test_a_bad_path_is_an_arena_error() -> None:
    with pytest.raises(ArenaError, match="cannot import no_such_pkg_xyz"):
        make_entrants(["no_such_pkg_xyz.mod:agent", "random"])


def test_answers_are_matched_to_the_legal_actions(agent_file: Path) -> None:
    game = Game.new(2, Options(), seed=5)
    legal = game.legal_actions()
    first = legal[0]
    assert action_of(first, legal, "a") is first
    assert action_of(first.id, legal, "a") is first
    assert action_of(f" {first.text} ", legal, "a") is first
    for wrong in (True, 1.0, None):
        with pytest.raises(ValueError, match="not an action"):
            action_of(wrong, legal, "a")
    with pytest.raises(ValueError, match="which is not legal here"):
        action_of(parse_action("pass"), legal, "a")  # a leader cannot pass
    with pytest.raises(ValueError, match="which is not legal here"):
        action_of(-1, legal, "a")
    player = load_agent(f"{agent_file}:lowest")
    chosen = player.move(game, random.Random(1))
    assert chosen is min(legal, key=lambda a: a.id)


def test_odin_arena_plays_an_agent_beside_a_level(agent_file: Path) -> None:
    from typer.testing import CliRunner

    from odin_cards.cli import app

    spec = f"{agent_file}:lowest"
    result = CliRunner().invoke(
        app,
        ["arena", spec, "random", "-n", "2", "--target", "5", "-j", "1", "--json", "-"],
        env={"COLUMNS": "300"},  # the long path on one line
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [bot["label"] for bot in data["bots"]] == [spec, "random"]
    assert data["bots"][0]["level"] == "agent" and data["games"] == 2
    assert f"{spec}: Python agent ({spec})" in result.stderr
