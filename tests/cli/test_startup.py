"""``odin --help`` loads the command line only: the engine, the bots, rich, the server and
matplotlib are imported by the commands that use them, on first use."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("matplotlib", "numpy", "openskill", "rich", "sqlalchemy", "fastapi", "asyncio")
OURS = (
    "odin_cards.odin.rules",
    "odin_cards.odin.bots",
    "odin_cards.tools.arena",
    "odin_cards.server",
)

PROBE = """
import sys
from odin_cards.cli import app
try:
    app(["--help"], prog_name="odin")
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)))
"""


def test_help_imports_no_heavy_module() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = result.stdout.splitlines()[-1].split()
    assert "Usage: odin" in result.stdout
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(OURS)]
    assert heavy == []
