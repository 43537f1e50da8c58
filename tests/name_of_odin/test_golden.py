"""Golden games: the same seed gives the very same game, draw for draw, forever.

A stored table or record holds only its set-up, seed, injected chance and actions, so a
change to how the engine draws (the order of its shuffles, what it draws from) would
silently turn every stored game into another one. Each game below is played by a seeded
driver (a random legal action each step) and compared with what the engine produced when
the file was written: the full history, secrets included (every deal, draw and
reshuffle), and digests of every seat's view at checkpoints (which show the deck sizes
and displays the history does not spell out). The 2-player game's history is stored
event by event so that a difference points at the first event that changed.

After an intended change of the rules (which needs a new ``rules_version``), regenerate
with ``ODIN_UPDATE_GOLDEN=1 pytest tests/name_of_odin/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from odin_cards.name_of_odin.rules import NAME_OF_ODIN, Game

GOLDEN = Path(__file__).parent / "golden"
SUMMARY = GOLDEN / "games.json"
CHECKPOINT = 250
"""Every this many actions, every seat's view (and the spectator's) is digested."""

GAMES: dict[str, dict[str, Any]] = {
    "2p-seed-1": {"players": 2, "setup": {}, "seed": 1, "chance": None},
    "3p-text-seed": {"players": 3, "setup": {}, "seed": "golden", "chance": None},
    "4p-first-player-raids-injected": {
        "players": 4,
        "setup": {"first_player": 2},
        "seed": 7,
        "chance": {"raid_deck": "reversed", "markers": ["T", "S", "W"]},
    },
    "5p-seed-12345": {"players": 5, "setup": {}, "seed": 12345, "chance": None},
}
FULL = "2p-seed-1"
"""The game whose history is stored event by event (``golden/2p-seed-1.jsonl``)."""


def _digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _event(event: Any) -> list[Any]:
    return [event.kind, event.public, event.secret]


def _new(spec: dict[str, Any]) -> Game:
    chance = spec["chance"]
    if chance is not None and chance.get("raid_deck") == "reversed":
        checked = NAME_OF_ODIN.check_setup(spec["players"], spec["setup"])
        raids = [r.id for r in NAME_OF_ODIN.card_set(checked).raids]
        chance = {**chance, "raid_deck": raids[::-1]}
    return NAME_OF_ODIN.new_game(
        spec["players"], spec["setup"], spec["seed"], None if chance is None else [chance]
    )


def play(spec: dict[str, Any]) -> tuple[dict[str, Any], list[list[Any]]]:
    """The game played to its end: its summary and its full history."""
    game = _new(spec)
    driver = random.Random(f"driver:{spec['seed']}")
    views: list[str] = []
    while True:
        if game.action_count % CHECKPOINT == 0 or game.is_over:
            seats: list[int | None] = [*range(game.players), None]
            views.append(_digest([game.view(seat) for seat in seats]))
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[driver.randrange(len(legal))])
    history = [_event(e) for e in game.history]
    outcome = game.outcome
    assert outcome is not None
    summary = {
        "actions": game.action_count,
        "events": len(history),
        "reshuffles": sum(1 for kind, _, _ in history if kind == "reshuffle"),
        "history_sha256": _digest(history),
        "views_sha256": views,
        "outcome": outcome.to_dict(),
    }
    return summary, history


def _write(name: str, summary: dict[str, Any], history: list[list[Any]]) -> None:
    stored = json.loads(SUMMARY.read_text()) if SUMMARY.exists() else {}
    stored[name] = summary
    SUMMARY.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    if name == FULL:
        lines = (json.dumps(e, sort_keys=True, separators=(",", ":")) for e in history)
        (GOLDEN / f"{FULL}.jsonl").write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_seed_gives_the_very_same_game(name: str) -> None:
    summary, history = play(GAMES[name])
    if os.environ.get("ODIN_UPDATE_GOLDEN"):
        _write(name, summary, history)
    if name == FULL:
        lines = (GOLDEN / f"{FULL}.jsonl").read_text().splitlines()
        expected = [json.loads(line) for line in lines]
        for index, (old, new) in enumerate(zip(expected, history, strict=False)):
            assert new == old, f"event {index} differs"
        assert len(history) == len(expected)
    assert summary == json.loads(SUMMARY.read_text())[name]


def test_the_golden_games_draw_mid_game() -> None:
    """The games reach the draws made during play (reshuffles), not only the set-up's."""
    stored = json.loads(SUMMARY.read_text())
    assert set(stored) == set(GAMES)
    assert all(game["reshuffles"] >= 5 for game in stored.values())
