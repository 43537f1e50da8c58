"""Turn-based play on the server (#9): "My games" puts the tables where it is my turn
first and says whose turn it is; a finished table's record carries its statistics."""

from __future__ import annotations

import random

from odin_cards.odin.rules import GameRecord
from odin_cards.odin.rules.statistics import game_statistics

from .harness import Server, new_table, open_client, sit
from .test_play import play_out

TWO_PROCESSES = True
"""These tests run against one process and against two (``conftest.py``)."""


async def test_my_games_list_the_tables_waiting_on_me_first(server: Server) -> None:
    async with server.http() as http:
        # Created first (so listed last by age): it is my turn there (I lead).
        mine_to_lead = await new_table(http, 2, first_leader=0)
        ann_first = await sit(http, mine_to_lead["id"], 0, "Ann")
        await sit(http, mine_to_lead["id"], 1, "Bo")
        # Created next: Bo leads.
        bo_to_lead = await new_table(http, 2, first_leader=1)
        ann_next = await sit(http, bo_to_lead["id"], 0, "Ann")
        await sit(http, bo_to_lead["id"], 1, "Bo")
        # Created last: still waiting for a second player.
        waiting = await new_table(http, 2)
        ann_waiting = await sit(http, waiting["id"], 0, "Ann")
        answer = await http.post(
            "/api/tables/mine", json={"tokens": [ann_first, ann_next, ann_waiting]}
        )
        assert answer.status_code == 200, answer.text
        tables = answer.json()["tables"]
    listed = [(t["id"], t["my_turn"], t["to_move"], t["my_seats"]) for t in tables]
    assert listed == [
        (mine_to_lead["id"], True, 0, [0]),
        (waiting["id"], False, None, [0]),
        (bo_to_lead["id"], False, 1, [0]),
    ]


async def test_whose_turn_follows_the_moves(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2, first_leader=0)
        ann = await sit(http, table["id"], 0, "Ann")
        bo = await sit(http, table["id"], 1, "Bo")
        client = await open_client(server, table["id"], ann)
        answer = await client.act(client.state["legal"][0])
        assert answer["type"] == "ack", answer
        await client.close()
        both = (await http.post("/api/tables/mine", json={"tokens": [ann, bo]})).json()
        only_ann = (await http.post("/api/tables/mine", json={"tokens": [ann]})).json()
    assert [(t["to_move"], t["my_seats"], t["my_turn"]) for t in both["tables"]] == [
        (1, [0, 1], True)
    ]
    assert [(t["to_move"], t["my_seats"], t["my_turn"]) for t in only_ann["tables"]] == [
        (1, [0], False)
    ]


async def test_a_finished_table_s_record_carries_its_statistics(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2, target=2)
        tokens = [await sit(http, table["id"], s, name) for s, name in enumerate(["Ann", "Bo"])]
        clients = [await open_client(server, table["id"], token) for token in tokens]
        running = await http.get(f"/api/tables/{table['id']}/record")
        assert running.status_code == 403
        await play_out(clients, random.Random(3))
        record = (await http.get(f"/api/tables/{table['id']}/record")).json()
        mine = (await http.post("/api/tables/mine", json={"tokens": tokens})).json()
    game = GameRecord.from_dict(record).replay()
    assert record["statistics"] == game_statistics(game.history, 2).to_dict()
    assert [seat["scores"][-1] for seat in record["statistics"]["seats"]] == (
        record["outcome"]["scores"]
    )
    # A finished table is nobody's turn.
    assert [(t["to_move"], t["my_turn"]) for t in mine["tables"]] == [(None, False)]
