"""Where browser tests save their screenshots of each state they reach.

By default under ``artifacts/screenshots/`` (ignored by git), so that running the tests
never changes the checkout; ``ODIN_SCREENSHOTS=docs`` writes them to ``docs/screenshots/``
instead, to refresh the pictures the docs and notes show.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def shots_dir(group: str) -> Path:
    """The directory for ``group``'s screenshots (``never-stall``, ``analysis``), created."""
    base = ROOT / "docs" if os.environ.get("ODIN_SCREENSHOTS") == "docs" else ROOT / "artifacts"
    directory = base / "screenshots" / group
    directory.mkdir(parents=True, exist_ok=True)
    return directory
