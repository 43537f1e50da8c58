"""Fixtures of the third game's tests: the server's database and server fixtures, and the
game published as an installed plugin for server processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from odin_cards.games import registered
from server.conftest import database_url, processes, server, settings

from .takeaway.plugin import PLUGIN

TESTS = Path(__file__).resolve().parents[1]
"""The directory that holds this package (``plugins``) on ``sys.path``."""


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Take-away installed as a package that publishes a plugin: a distribution's metadata
    with its entry point, on ``PYTHONPATH`` for every process the test starts (servers,
    their bot workers). Nothing of the project is changed."""
    site = tmp_path / "site"
    dist = site / "takeaway_test_game-1.0.dist-info"
    dist.mkdir(parents=True)
    metadata = "Metadata-Version: 2.1\nName: takeaway-test-game\nVersion: 1.0\n"
    (dist / "METADATA").write_text(metadata)
    module = PLUGIN.rules.partition(":")[0].rpartition(".")[0]
    (dist / "entry_points.txt").write_text(
        f"[odin_cards.games]\n{PLUGIN.key} = {module}.plugin:PLUGIN\n"
    )
    monkeypatch.setenv("PYTHONPATH", f"{site}:{TESTS}")
    yield site


@pytest.fixture
def registered_game() -> Iterator[None]:
    """Take-away in this process's registry (a server run in the test's event loop, with
    its bots in threads, sees it) until the test ends."""
    with registered(PLUGIN):
        yield


__all__ = ["database_url", "installed", "processes", "registered_game", "server", "settings"]
