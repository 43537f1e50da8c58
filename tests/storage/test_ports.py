"""The storage seam itself: the ports load nothing heavy, and every bundle answers its
health check."""

from __future__ import annotations

import json
import subprocess
import sys

from odin_cards.server.core.ports import Storage

HEAVY = ("sqlalchemy", "fastapi", "starlette", "redis", "pydantic", "numpy", "asyncpg")
GAMES = ("odin_cards.odin", "odin_cards.name_of_odin")


def test_importing_the_ports_loads_no_database_web_framework_numpy_or_game() -> None:
    # In a process of its own: this one has loaded everything already.
    code = "import json, sys, odin_cards.server.core.ports; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(done.stdout)
    assert "odin_cards.server.core.ports.storage" in loaded
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(GAMES)]
    assert heavy == []


async def test_an_open_storage_is_healthy(storage: Storage) -> None:
    assert await storage.healthy()
