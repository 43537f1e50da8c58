"""Issue #13 on the server: a finished game's analysis, and hints at tables that allow them."""

from __future__ import annotations

from typing import Any

import httpx

from odin_cards.server.core.features.analysis import TableAnalyses
from odin_cards.server.core.tables.hall import Hall

from .harness import Server, new_table, open_client, sit

TWO_PROCESSES = True
"""These tests run against one process and against two (``conftest.py``)."""


async def _create(http: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    answer = await http.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()["table"]
    return table


async def test_a_finished_game_is_analysed_once_and_a_running_one_is_refused(
    server: Server,
) -> None:
    assert server.app is not None
    analyses: TableAnalyses = server.app.state.analyses
    analyses.iterations = 10  # the figures do not matter here, only the flow
    hall: Hall = server.app.state.hall
    async with server.http() as http:
        waiting = await new_table(http, 2, {1: "heuristic"})
        refused = await http.get(f"/api/tables/{waiting['id']}/analysis")
        assert refused.status_code == 403 and refused.json()["error"] == "running"
        table = await new_table(http, 2, {0: "heuristic", 1: "heuristic"}, one_hand=True)
        watcher = await open_client(server, table["id"])
        while watcher.table.get("status") != "finished":
            await watcher.receive()
        await watcher.close()
        first = await http.get(f"/api/tables/{table['id']}/analysis")
        assert first.status_code == 202 and first.json() == {"status": "pending"}
        assert first.headers["retry-after"] == "2"
        computed = await analyses.result(await hall.get(table["id"]))
        done = await http.get(f"/api/tables/{table['id']}/analysis")
        record = (await http.get(f"/api/tables/{table['id']}/record")).json()
        unknown = await http.get("/api/tables/nosuchtable/analysis")
    assert done.status_code == 200
    analysis = done.json()["analysis"]
    assert analysis == computed and analysis["iterations"] == 10
    played = [e["action"] for e in record["events"] if "action" in e]
    assert [m["played"] for m in analysis["moves"]] == played
    assert {s["seat"] for s in analysis["summary"]} == {0, 1}
    assert unknown.status_code == 404


async def test_hints_only_where_allowed_for_the_seat_to_move(server: Server) -> None:
    async with server.http() as http:
        off = await _create(
            http, {"players": 2, "bots": {"1": "heuristic"}, "options": {"first_leader": 0}}
        )
        assert off["hints"] is False
        token_off = await sit(http, off["id"], 0, "Ada")
        refused = await http.post(f"/api/tables/{off['id']}/hint", json={"token": token_off})
        assert refused.status_code == 403 and refused.json()["error"] == "hints_off"

        bad = await http.post("/api/tables", json={"players": 2, "hints": "yes"})
        assert bad.status_code == 422

        # Seat 1 is a person who never moves: after Ada's move it is certainly not her
        # turn (a bot there could answer before her next request, and it would be).
        on = await _create(http, {"players": 2, "options": {"first_leader": 0}, "hints": True})
        assert on["hints"] is True
        token = await sit(http, on["id"], 0, "Ada")
        await sit(http, on["id"], 1, "Bob")
        stranger = await http.post(f"/api/tables/{on['id']}/hint", json={"token": "x" * 20})
        assert stranger.status_code == 403 and stranger.json()["error"] == "unauthorized"
        me = await open_client(server, on["id"], token)
        hinted = await http.post(f"/api/tables/{on['id']}/hint", json={"token": token})
        assert hinted.status_code == 200, hinted.text
        hint = hinted.json()
        assert set(hint) == {"seat", "version", "level", "action"}
        assert hint["seat"] == 0 and hint["version"] == me.version and hint["level"] == "expert"
        assert hint["action"] in me.state["legal"]
        hand = set(me.state["hand"])
        assert set(hint["action"].split()[1:]) <= hand  # only the seat's own cards
        again = await http.post(f"/api/tables/{on['id']}/hint", json={"token": token})
        assert again.json() == hint  # one hint a position
        answer = await me.act(hint["action"])
        assert answer["type"] == "ack"
        while me.state.get("to_move") != 1:
            await me.receive()
        later = await http.post(f"/api/tables/{on['id']}/hint", json={"token": token})
        assert later.status_code == 400 and later.json()["error"] == "not_your_turn"
        await me.close()
