"""Which version of each player a result was measured with.

A figure measured against "the heuristic" goes stale when the heuristic changes, and the
package version alone does not say so (a checkout between releases keeps its version).
So every result names, beside the package version, each level as the game's registry
describes it (key, name, seconds a move) and a digest of the code and data its bots are
made of; an agent by import path is named by a digest of its source file. Two results
with the same digests were played by the same players.
"""

from __future__ import annotations

import hashlib
import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

from odin_cards.games import plugin_of
from odin_cards.tools.arena import Entrant


@cache
def bots_sha256(game: str) -> str | None:
    """A digest of every file of the package holding ``game``'s bots (its plugin's ``bots``
    reference): their code and their weights. ``None`` for a game without bots."""
    ref = plugin_of(game).bots
    if ref is None:
        return None
    module = ref.partition(":")[0]
    spec = importlib.util.find_spec(module.rpartition(".")[0] or module)
    if spec is None or spec.origin is None:
        return None
    return tree_sha256(Path(spec.origin).parent)


def tree_sha256(folder: Path) -> str:
    """A digest of the files under ``folder`` (names and bytes, caches left out)."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def file_sha256(path: str) -> str | None:
    """A digest of the source file of an agent's import path (``None`` if it has none)."""
    module = path.rpartition(":")[0]
    if module.endswith(".py"):
        file = Path(module)
    else:
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            return None
        if spec is None or spec.origin is None:
            return None
        file = Path(spec.origin)
    return hashlib.sha256(file.read_bytes()).hexdigest() if file.is_file() else None


def player_version(entrant: Entrant) -> dict[str, Any]:
    """What a result records of one player: a level as the registry names it and its
    bots' digest, or an agent's path and its source's digest."""
    if entrant.agent is not None:
        return {"agent": entrant.agent, "source_sha256": file_sha256(entrant.agent)}
    level = plugin_of(entrant.game).level(entrant.key)
    return {
        "level": entrant.key,
        "name": None if level is None else level.name,
        "seconds": None if level is None else level.seconds,
        "game": entrant.game,
        "bots_sha256": bots_sha256(entrant.game),
    }


__all__ = ["bots_sha256", "file_sha256", "player_version", "tree_sha256"]
