"""A game whose ``view(seat)`` is a JSON-safe dict is presented as it is, seat by seat."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from odin_cards.contract import SetupError
from odin_cards.server.core.tables.presenters import GENERIC, presenter_of, view_states


@dataclass(frozen=True)
class _Action:
    text: str


class _Secrets:
    """Two seats, each holding a secret number; seat 0 moves."""

    current_player = 0
    outcome = None

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"mine": None if seat is None else seat * 10, "turn": 0}

    def legal_actions(self) -> Sequence[_Action]:
        return (_Action("go"), _Action("stop"))


def test_a_game_without_a_presenter_sends_each_seat_its_view() -> None:
    assert presenter_of("name-of-odin") == GENERIC  # its plugin names no presenter
    state = view_states(_Secrets(), {"size": 3}, ["Ann", "Bo"], playing=True)
    mover, other, spectator = (json.loads(state(seat)) for seat in (0, 1, None))
    assert mover == {
        "mine": 0,
        "turn": 0,
        "to_move": 0,
        "outcome": None,
        "seat": 0,
        "names": ["Ann", "Bo"],
        "options": {"size": 3},
        "legal": ["go", "stop"],
    }
    assert other["mine"] == 10 and other["legal"] == [] and other["seat"] == 1
    assert spectator["mine"] is None and spectator["legal"] == [] and spectator["seat"] is None


def test_a_finished_game_offers_nobody_a_move() -> None:
    state = view_states(_Secrets(), {}, ["Ann", "Bo"], playing=False)
    assert json.loads(state(0))["legal"] == []


def test_an_unknown_game_has_no_presenter() -> None:
    with pytest.raises(SetupError, match="unknown game 'no-such-game'"):
        presenter_of("no-such-game")


def test_odin_caps_the_target_on_a_public_server() -> None:
    limits = presenter_of("odin").limits
    assert limits({"target": 100}) is None
    assert "at most 100" in (limits({"target": 101}) or "")
