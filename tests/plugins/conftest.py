"""Fixtures of the third game's tests: the server's database and server fixtures, and the
game published as an installed plugin for server processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from odin_cards.games import registered
from server.conftest import database_url, processes, server, settings

from .takeaway.install import install
from .takeaway.plugin import PLUGIN


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Take-away installed as a package that publishes a plugin (:mod:`.takeaway.install`),
    for every process the test starts (servers, their bot workers)."""
    site = tmp_path / "site"
    monkeypatch.setenv("PYTHONPATH", install(site))
    return site


@pytest.fixture
def registered_game() -> Iterator[None]:
    """Take-away in this process's registry (a server run in the test's event loop, with
    its bots in threads, sees it) until the test ends."""
    with registered(PLUGIN):
        yield


__all__ = ["database_url", "installed", "processes", "registered_game", "server", "settings"]
