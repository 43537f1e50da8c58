"""The baseline tables of docs/evaluation.md stay true, and results name their players."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from odin_cards import __version__
from odin_cards.cli import app
from odin_cards.tools.evaluation import evaluate, evaluation_dict, load_set
from odin_cards.tools.evaluation.baselines import (
    BASELINES,
    HEADER,
    baseline,
    documented,
    rewritten,
    run_baseline,
    table_rows,
)
from odin_cards.tools.evaluation.versions import bots_sha256, tree_sha256

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "evaluation.md"


def test_every_baseline_has_a_table_in_the_document() -> None:
    tables = documented(DOC.read_text(encoding="utf-8"))
    assert sorted(tables) == sorted(b.name for b in BASELINES)
    for entry in BASELINES:
        assert tables[entry.name] or not entry.cheap, f"the table {entry.name} has no rows"


CHECKED = {"random": "heuristic", "heuristic": "random", "selfplay": "heuristic"}
"""The heads-up row each cheap table is checked by: against the other cheap level (a row of
a level against itself is fair by construction, and random against random costs long
games), so a change of either level, or of the example's network, shows."""


@pytest.mark.slow
@pytest.mark.parametrize("name", [b.name for b in BASELINES if b.cheap])
def test_the_documented_heads_up_row_is_what_the_command_plays(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cheap table's 2-player row, played again exactly as ``odin baselines`` plays it: a
    change that moves a documented figure fails here until ``odin baselines --write
    docs/evaluation.md`` is run."""
    entry = baseline(name)
    if entry.agent.startswith("examples/"):
        if importlib.util.find_spec("torch") is None:
            pytest.skip("the self-play example needs PyTorch (the [train] extra)")
        monkeypatch.chdir(ROOT)
        monkeypatch.delenv("ODIN_SELFPLAY_CHECKPOINT", raising=False)
    opponent = CHECKED[name]
    rows = documented(DOC.read_text(encoding="utf-8"))[name]
    row = [r for r in rows if r.startswith(f"| 2 | {opponent} |")]
    assert len(row) == 1
    evaluation = run_baseline(entry, load_set(), workers=1, players=[2], opponents=[opponent])
    assert table_rows(evaluation) == row


def test_a_table_is_replaced_between_its_markers_only() -> None:
    text = (
        "intro\n<!-- baseline a -->\nold\n<!-- /baseline -->\n"
        "middle\n<!-- baseline b -->\n| 2 | x |\n<!-- /baseline -->\nend\n"
    )
    body = "\n".join(["caption", "", *HEADER, "| 2 | random | 4 |"]) + "\n"
    new = rewritten(text, "a", body)
    assert new.startswith("intro\n<!-- baseline a -->\ncaption\n") and new.endswith(
        "middle\n<!-- baseline b -->\n| 2 | x |\n<!-- /baseline -->\nend\n"
    )
    assert documented(new) == {"a": ["| 2 | random | 4 |"], "b": ["| 2 | x |"]}
    with pytest.raises(KeyError, match="no table"):
        rewritten(text, "c", body)


def test_a_result_names_the_package_and_each_players_version(tmp_path: Path) -> None:
    result = evaluate("random", ["heuristic"], load_set(), [2], 1, {"target": 3}, 1)
    data = evaluation_dict(result)
    assert data["version"] == __version__
    digest = bots_sha256("odin")
    assert digest is not None and len(digest) == 64
    assert data["players"] == {
        "random": {
            "level": "random",
            "name": "Random",
            "seconds": None,
            "game": "odin",
            "bots_sha256": digest,
        },
        "heuristic": {
            "level": "heuristic",
            "name": "Heuristic",
            "seconds": None,
            "game": "odin",
            "bots_sha256": digest,
        },
    }
    agent = ROOT / "tests" / "evaluation" / "agents.py"
    result = evaluate(f"{agent}:lowest", ["random"], load_set(), [2], 1, {"target": 3}, 1)
    named = evaluation_dict(result)["players"][f"{agent}:lowest"]
    assert named["agent"] == f"{agent}:lowest" and len(named["source_sha256"]) == 64


def test_the_bots_digest_changes_with_any_file(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "heuristic.py").write_text("WEIGHT = 1\n")
    (tmp_path / "data" / "net.npz").write_bytes(b"\0\1")
    before = tree_sha256(tmp_path)
    (tmp_path / "heuristic.py").write_text("WEIGHT = 2\n")
    changed = tree_sha256(tmp_path)
    (tmp_path / "heuristic.py").write_text("WEIGHT = 1\n")
    assert tree_sha256(tmp_path) == before != changed
    (tmp_path / "data" / "net.npz").write_bytes(b"\0\2")
    assert tree_sha256(tmp_path) != before


def test_the_command_lists_refuses_and_writes(tmp_path: Path) -> None:
    runner = CliRunner()
    listed = runner.invoke(app, ["baselines", "--list"])
    assert listed.exit_code == 0 and all(b.name in listed.output for b in BASELINES)
    bad = runner.invoke(app, ["baselines", "nonsense"])
    assert bad.exit_code == 2 and "no baseline 'nonsense'" in bad.output
    doc = tmp_path / "doc.md"
    doc.write_text("no tables here\n")
    missing = runner.invoke(app, ["baselines", "random", "--write", str(doc)])
    assert missing.exit_code == 2 and "no table" in missing.output
    assert doc.read_text() == "no tables here\n"  # refused before any game


def test_the_command_writes_a_table_and_its_result_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import odin_cards.tools.evaluation.baselines as module

    monkeypatch.setattr(module, "DEALS", 1)
    monkeypatch.setattr(module, "PLAYERS", (2,))
    monkeypatch.setattr(module, "SETUP", {"target": 3})
    doc = tmp_path / "doc.md"
    doc.write_text("x\n<!-- baseline random -->\nold\n<!-- /baseline -->\n")
    result = CliRunner().invoke(
        app, ["baselines", "random", "--write", str(doc), "--json", str(tmp_path), "-j", "1"]
    )
    assert result.exit_code == 0, result.output
    rows = documented(doc.read_text())["random"]
    assert [r.split(" | ")[:3] for r in rows] == [["| 2", "random", "2"], ["| 2", "heuristic", "2"]]
    data = json.loads((tmp_path / "random.json").read_text())
    assert data["players"]["random"]["bots_sha256"] == bots_sha256("odin")
    assert "odin-cards" in doc.read_text() and "old" not in doc.read_text()
