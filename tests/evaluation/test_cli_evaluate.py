"""``odin evaluate`` end to end: the table, the JSON, one-line errors for bad input and agents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from odin_cards.cli import app
from odin_cards.tools.evaluation import load_set

from . import agents

runner = CliRunner()
AGENTS = Path(agents.__file__)


def test_evaluate_prints_win_share_and_points_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    result = runner.invoke(
        app,
        [
            "evaluate",
            f"{AGENTS}:lowest",
            "--against",
            "random,heuristic:iterations=3,seconds=9",
            "-p",
            "2",
            "-p",
            "3",
            "--deals",
            "2",
            "--target",
            "5",
            "-j",
            "1",
            "--json",
            str(out),
        ],
        env={"COLUMNS": "160"},  # a table row on one line
    )
    assert result.exit_code == 0, result.output
    # The first line names the agent by its path, so it wraps where the checkout's path is long.
    output = " ".join(result.output.split())
    assert "odin-eval-v1" in output and "= 20 games" in output
    data = json.loads(out.read_text())
    assert data["agent"] == f"{AGENTS}:lowest" and data["options"]["target"] == 5
    assert data["evaluation_set"]["sha256"] == load_set().sha256
    heuristic = "heuristic:seconds=9,iterations=3"  # a budget's comma is not a list's
    assert [(p["players"], p["opponent"], p["games"]) for p in data["pairings"]] == [
        (2, "random", 4),
        (2, heuristic, 4),
        (3, "random", 6),
        (3, heuristic, 6),
    ]
    for pairing in data["pairings"]:
        figures = pairing["agent"]
        low, high = figures["win_share_ci95"]
        assert f"{figures['win_share']:.3f} ({low:.3f}-{high:.3f})" in output
        assert f"{figures['points_per_hand']:.2f} vs" in output


def test_json_on_standard_output_is_the_only_thing_there() -> None:
    args = ["heuristic", "-a", "random", "-p", "2", "-n", "1", "--target", "5", "-j", "1"]
    result = runner.invoke(app, ["evaluate", *args, "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["agent"] == "heuristic" and data["pairings"][0]["games"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no_such_module_xyz:agent"], "Invalid value for AGENT: cannot import no_such_module_xyz"),
        (["/no/such/agent.py:play"], "Invalid value for AGENT: /no/such/agent.py: no such file"),
        (
            ["odin_cards.odin.rules:nothing"],
            "Invalid value for AGENT: odin_cards.odin.rules has no",
        ),
        (["random", "-a", "heuristic,nope"], "--against: unknown bot level 'nope'"),
        (["random", "-a", f"{AGENTS}:lowest"], "the opponents are bot levels, not agents"),
        (["random", "-p", "7"], "--players: Odin is played by 2 to 6 players, not '7'"),
        (["random", "-n", "0"], "--deals: play at least 1 deal, not 0"),
        (["random", "-n", "201"], "holds 200 deals for 2 players; ask 1 to 200, not 201"),
        (["random", "-j", "0"], "--workers: use at least 1 worker, not 0"),
        (["random", "--set", "/no/such/set.json"], "cannot read /no/such/set.json"),
    ],
)
def test_bad_input_is_one_line_with_exit_status_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["evaluate", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("odin evaluate: ")


def test_an_agent_playing_an_illegal_action_is_an_error_not_a_substitute() -> None:
    result = runner.invoke(
        app, ["evaluate", f"{AGENTS}:illegal", "-a", "random", "-p", "2", "-n", "1", "-j", "1"]
    )
    assert result.exit_code == 1
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("odin evaluate: agent failure: ")
    assert "chose 'play B0', which is not legal here" in line
