"""The evaluation set: a versioned, checksummed file of seeded deals for 2 to 6 players.

Every agent is scored on the same deals, so two scores differ by the agents and not by
the luck of the cards. The sets are Odin's (format ``odin-cards-evaluation/1``; the
packaged one is ``odin-eval-v1``): a *deal* is one game seed plus the first hand it deals
(every seat's nine cards, stored in the file) and its first leader. A game is started
from it through the game contract, ``rules_of(set.game).new_game(players, setup, seed,
chance=[hand])``: the first hand is the file's, later hands are dealt by the engine from
the seed. Each deal is then played once per seat rotation (see :mod:`.evaluate`).

The file is ``odin_cards/tools/evaluation/data/<name>.json`` (format
``odin-cards-evaluation/1``) beside ``<name>.json.sha256`` (``sha256sum`` format); the
checksum is verified whenever the set is loaded. :mod:`.generate` writes the file, byte
for byte, from the set's name; ``docs/evaluation.md`` documents the format.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

FORMAT = "odin-cards-evaluation/1"
DEFAULT_SET = "odin-eval-v1"
"""The set ``odin evaluate`` uses unless told otherwise."""
MAX_FILE_BYTES = 8 * 1024 * 1024
"""A set file larger than this is refused unread (a set of 1,000 deals is about 150 kB)."""
GAME = "odin"
"""The game of a set of this format (a set says so in its ``"game"``; the first ones don't)."""
FIXED = {"colours": 6, "goat": False, "first_leader": None}
"""What a set's deals fix of the game's set-up: the deck they are dealt from (6 colours,
no Goat) and the first leader (the seed's). A set-up that says otherwise is refused."""


class EvaluationSetError(ValueError):
    """An evaluation set that cannot be used: missing, altered, or not of this format."""


@dataclass(frozen=True, slots=True)
class Deal:
    """One seeded deal: the game seed and the first hand it deals."""

    id: str
    """``<players>p-<index>``, e.g. ``4p-017``: stable names for results and records."""
    seed: str
    first_leader: int
    hand: tuple[tuple[str, ...], ...]
    """Seat -> card codes of the first hand (canonical order)."""

    @property
    def chance(self) -> list[list[list[str]]]:
        """The deal as the contract's ``chance`` argument (the first hand injected)."""
        return [[list(cards) for cards in self.hand]]


@dataclass(frozen=True, slots=True)
class EvaluationSet:
    """A loaded evaluation set: its name, checksum and deals by number of players."""

    name: str
    sha256: str
    rules_version: int
    deals: dict[int, tuple[Deal, ...]]
    game: str = GAME
    """The key of the game its deals are of."""

    def for_players(self, players: int, count: int | None = None) -> tuple[Deal, ...]:
        """The first ``count`` deals (all by default) for ``players`` players."""
        if players not in self.deals:
            raise EvaluationSetError(
                f"{self.name} has no deals for {players} players (it has"
                f" {', '.join(str(p) for p in sorted(self.deals))})"
            )
        deals = self.deals[players]
        if count is not None and not 1 <= count <= len(deals):
            raise EvaluationSetError(
                f"{self.name} holds {len(deals)} deals for {players} players; ask 1 to"
                f" {len(deals)}, not {count}"
            )
        return deals if count is None else deals[:count]


def packaged_path(name: str = DEFAULT_SET) -> Path:
    """Where the packaged set ``name`` lives (it may not exist)."""
    return Path(str(resources.files("odin_cards.tools.evaluation"))) / "data" / f"{name}.json"


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def checksum_line(data: bytes, file_name: str) -> str:
    """The ``sha256sum`` line of a set file (what ``<name>.json.sha256`` holds)."""
    return f"{sha256_of(data)}  {file_name}\n"


def load_set(path: Path | None = None) -> EvaluationSet:
    """Load and verify a set (default: the packaged :data:`DEFAULT_SET`).

    The file must match the checksum beside it; any fault is an
    :class:`EvaluationSetError` with one line of explanation.
    """
    path = packaged_path() if path is None else path
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise EvaluationSetError(f"{path} is larger than {MAX_FILE_BYTES} bytes")
        data = path.read_bytes()
    except OSError as error:
        raise EvaluationSetError(f"cannot read {path}: {error.strerror or error}") from None
    checksum_file = path.with_name(path.name + ".sha256")
    try:
        expected = checksum_file.read_text().split()[0]
    except (OSError, IndexError, UnicodeDecodeError):
        raise EvaluationSetError(f"{path} has no checksum file {checksum_file.name}") from None
    actual = sha256_of(data)
    if actual != expected:
        raise EvaluationSetError(
            f"{path} does not match its checksum ({actual[:12]}... != {expected[:12]}...):"
            " it was altered; regenerate it with python -m odin_cards.tools.evaluation.generate"
        )
    try:
        document = json.loads(data)
        return parse_set(document, actual)
    except (ValueError, KeyError, TypeError) as error:
        raise EvaluationSetError(f"{path} is not an evaluation set: {error}") from None


def parse_set(document: Any, sha256: str) -> EvaluationSet:
    """An :class:`EvaluationSet` from the file's JSON document."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise EvaluationSetError(f"not of format {FORMAT}")
    deals: dict[int, tuple[Deal, ...]] = {}
    for players_text, entries in document["deals"].items():
        players = int(players_text)
        deals[players] = tuple(
            Deal(
                id=str(entry["id"]),
                seed=str(entry["seed"]),
                first_leader=int(entry["first_leader"]),
                hand=tuple(tuple(str(c) for c in seat.split()) for seat in entry["hand"]),
            )
            for entry in entries
        )
        for deal in deals[players]:
            if len(deal.hand) != players or not 0 <= deal.first_leader < players:
                raise EvaluationSetError(f"deal {deal.id} is not a {players}-player deal")
    return EvaluationSet(
        name=str(document["name"]),
        sha256=sha256,
        rules_version=int(document["rules_version"]),
        deals=deals,
        game=str(document.get("game", GAME)),
    )


def set_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """``setup`` on a set's deals (:data:`FIXED`); :class:`EvaluationSetError` if it says
    otherwise."""
    for key, value in FIXED.items():
        if key in setup and setup[key] != value:
            raise EvaluationSetError(
                f"the deals of an evaluation set fix {key.replace('_', ' ')}"
                f" ({value if value is not None else 'from the seed'})"
            )
    return {key: value for key, value in setup.items() if key not in FIXED}
