"""The State sent to a seat is exactly its engine view without the history, plus extras."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

from odin_cards.odin.rules import Game, Options
from odin_cards.odin.rules.view import make_view
from odin_cards.server.core.tables.table import LiveTable, new_record


def test_state_is_the_view_without_history_plus_legal_and_names() -> None:
    setup = Options(target=5, goat=True).to_dict()
    record = new_record("t", "odin", 3, setup, 7, {1: "random"}, datetime.now(UTC))
    record.seats[0].name, record.seats[2].name = "Ann", "Cy"
    record.status = "playing"
    table = LiveTable(record)
    rng = random.Random(7)
    game = table.game
    assert isinstance(game, Game)  # an Odin table's game is the Odin engine's
    while not game.is_over:
        for seat in (None, 0, 1, 2):
            state = json.loads(table.state(seat))
            view = game.view(seat).to_dict()
            assert view.pop("history")
            assert make_view(game, seat, history=False).history == ()
            legal = state.pop("legal")
            assert state.pop("names") == ["Ann", "Random bot", "Cy"]
            assert state == json.loads(json.dumps(view))
            mine = seat is not None and seat == game.current_player
            assert legal == ([a.text for a in game.legal_actions()] if mine else [])
        game.apply(rng.choice(game.legal_actions()))
    assert json.loads(table.state(0))["outcome"]["winners"]
