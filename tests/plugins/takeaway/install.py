"""Take-away installed the way a package publishes a game: a distribution's metadata with
its entry point in the group ``odin_cards.games``, in a directory that goes on
``PYTHONPATH`` (with the directory holding this test package) for the processes a test
starts. Nothing of the project is changed."""

from __future__ import annotations

from pathlib import Path

from .plugin import PACKAGE, PLUGIN

TESTS = Path(__file__).resolve().parents[2]
"""The directory holding the ``plugins`` test package (what ``PYTHONPATH`` must name)."""


def install(site: Path) -> str:
    """Write the distribution into ``site``; the ``PYTHONPATH`` that makes it installed."""
    dist = site / "takeaway_test_game-1.0.dist-info"
    dist.mkdir(parents=True, exist_ok=True)
    metadata = "Metadata-Version: 2.1\nName: takeaway-test-game\nVersion: 1.0\n"
    (dist / "METADATA").write_text(metadata)
    (dist / "entry_points.txt").write_text(
        f"[odin_cards.games]\n{PLUGIN.key} = {PACKAGE}.plugin:PLUGIN\n"
    )
    return f"{site}:{TESTS}"
