"""Records: the v2 format (game key and format version), and every 0.1 record still replays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from odin_cards.odin.rules import ODIN, Game, GameRecord, Options, RecordError

RECORDS_01 = sorted((Path(__file__).parents[1] / "data" / "records-0.1").glob("*.json"))


def test_there_are_0_1_records() -> None:
    assert len(RECORDS_01) >= 6


@pytest.mark.parametrize("path", RECORDS_01, ids=lambda p: p.stem)
def test_a_0_1_record_loads_and_replays_to_its_stored_outcome(path: Path) -> None:
    data = json.loads(path.read_text())
    assert data["format"] == "odin-cards-record/1" and "game" not in data
    record = ODIN.load_record(data)
    assert record.game == "odin"
    game = record.replay()
    stored = data["outcome"]
    if stored is None:
        assert not game.is_over
    else:
        assert game.outcome is not None
        assert list(game.outcome.scores) == stored["scores"]
        assert list(game.outcome.winners) == stored["winners"]
        assert game.outcome.hands_played == stored["hands_played"]
    # Written again, it is a v3 record of the same game with the same moves, which
    # names the colour removal rule 0.1 followed (any two colours).
    again = game.record().to_dict()
    assert again["format"] == "odin-cards-record/3" and again["game"] == "odin"
    removal = "any-two" if data["options"]["colours"] == 4 else "red-or-black"
    assert again["options"] == {**data["options"], "removal": removal}
    # A finished game's record now carries its statistics too (none in 0.1 records).
    assert ("statistics" in again) == (stored is not None)
    assert {
        k: v for k, v in again.items() if k not in ("format", "game", "options", "statistics")
    } == {k: v for k, v in data.items() if k not in ("format", "options")}
    assert GameRecord.from_dict(again).replay() == game


def tampered(path: Path, change: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    change(data)
    return data


def test_a_record_whose_outcome_was_edited_does_not_replay() -> None:
    path = next(p for p in RECORDS_01 if json.loads(p.read_text())["outcome"] is not None)

    def edit(data: dict[str, Any]) -> None:
        data["outcome"]["winners"] = [0, 1]

    with pytest.raises(RecordError, match="stored outcome"):
        GameRecord.from_dict(tampered(path, edit)).replay()


def test_a_record_whose_move_was_edited_does_not_replay() -> None:
    path = RECORDS_01[0]

    def edit(data: dict[str, Any]) -> None:
        move = next(e for e in data["events"] if "action" in e)
        move["action"] = "pass"  # the leader cannot pass

    with pytest.raises(RecordError, match="does not replay"):
        GameRecord.from_dict(tampered(path, edit)).replay()


def test_v2_records_carry_the_game_and_round_trip() -> None:
    game = Game.new(3, Options(goat=True, target=8), seed="v2")
    data = json.loads(game.record().to_json())
    assert (data["format"], data["game"]) == ("odin-cards-record/3", "odin")
    assert GameRecord.from_json(json.dumps(data)).replay() == game


@pytest.mark.parametrize(
    "change",
    [
        {"format": "odin-cards-record/4"},
        {"format": None},
        {"game": "chess"},
        {"game": None},
        {"events": "none"},
        {"events": [1, 2]},
        {"outcome": [1]},
        {"options": {"colours": 4.0}},
        {"options": []},
    ],
)
def test_broken_records_are_refused_with_a_record_error(change: dict[str, Any]) -> None:
    data = {**Game.new(2, seed=1).record().to_dict(), **change}
    with pytest.raises(RecordError):
        GameRecord.from_dict(data).replay()


def test_a_v1_record_without_the_game_key_is_still_odin() -> None:
    data = Game.new(2, seed=1).record().to_dict()
    del data["game"]
    del data["options"]["removal"]  # an option 0.1 did not have
    with pytest.raises(RecordError):
        GameRecord.from_dict(data)  # a v3 record must name its game
    data["format"] = "odin-cards-record/1"
    assert GameRecord.from_dict(data).replay() == Game.new(2, seed=1)
