"""Authorization: a seat's token works at its own table only, for its own seat only; a
spectator or a stranger changes nothing; a table's creator token is the only key to its
creator's actions; there is no administration over HTTP (``odin admin`` is local only)."""

from __future__ import annotations

import json

import pytest

from .site import Site, new_table, sit


async def test_a_spectator_and_the_seat_not_to_move_cannot_act(site: Site) -> None:
    ann, bo, stranger = site.visitor(), site.visitor(), site.visitor()
    table = await new_table(ann, 2)
    tokens = [await sit(ann, table["id"], 0, "Ann"), await sit(bo, table["id"], 1, "Bo")]
    seats = [await ann.socket(table["id"], tokens[0]), await bo.socket(table["id"], tokens[1])]
    watcher = await stranger.socket(table["id"])
    mover = seats[0].state["to_move"]
    waiting = seats[1 - mover]
    action = seats[mover].state["legal"][0]
    refused = await watcher.act(action)
    assert refused["type"] == "error" and refused["code"] == "not_seated"
    refused = await waiting.act(action)
    assert refused["type"] == "error" and refused["code"] == "not_your_turn"
    assert (await seats[mover].act(action))["type"] == "ack"  # the version was unchanged


async def test_a_seat_token_holds_no_seat_at_another_table(site: Site) -> None:
    ann, bo = site.visitor(), site.visitor()
    mine = await new_table(ann, 2, {1: "random"})
    token = await sit(ann, mine["id"], 0, "Ann")
    other = await new_table(bo, 2)
    await sit(bo, other["id"], 0, "Bo")
    async with ann.http() as http:
        for path, body in (
            ("leave", {"token": token}),
            ("take-back", {"token": token}),
            ("vote", {"token": token, "seat": 0}),
        ):
            answer = await http.post(f"/api/tables/{other['id']}/{path}", json=body)
            assert answer.status_code in (403, 409), (path, answer.text)
    socket = await ann.socket(other["id"])  # a spectator there...
    await socket.send({"type": "hello", "token": token, "version": None})
    said = await socket.until(lambda m: m["type"] in ("welcome", "error"))
    assert said["type"] == "error" and said["code"] == "unauthorized"  # ...never a seat


async def test_only_the_creator_token_cancels_a_table_or_locks_its_seats(site: Site) -> None:
    ann, stranger = site.visitor(), site.visitor()
    async with ann.http() as http:
        made = await http.post("/api/tables", json={"players": 3, "bots": {}, "options": {}})
    table, creator = made.json()["table"], made.json()["creator"]
    async with stranger.http() as http:
        for forged in ("", "x" * 43, creator[:-1] + ("A" if creator[-1] != "A" else "B")):
            lock = {"creator": forged, "locked": True}
            answer = await http.post(f"/api/tables/{table['id']}/seats/1/lock", json=lock)
            assert answer.status_code in (403, 422), answer.text
            answer = await http.post(f"/api/tables/{table['id']}/cancel", json={"creator": forged})
            assert answer.status_code in (403, 422), answer.text
        assert (await http.get(f"/api/tables/{table['id']}")).json()["table"]["status"] == (
            "waiting"
        )
    await sit(ann, table["id"], 0, "Ann")
    async with stranger.http() as http:  # a taken seat is nobody else's
        taken = await http.post(f"/api/tables/{table['id']}/seats/0", json={"name": "Eve"})
        assert taken.status_code == 409, taken.text


async def test_a_seat_is_written_with_digits_alone(site: Site) -> None:
    ann, eve = site.visitor(), site.visitor()
    table = await new_table(ann, 3)
    async with eve.http() as http:
        for seat in ("1.0", "+1", "01"):  # once, "1.0" took seat 1
            answer = await http.post(
                f"/api/tables/{table['id']}/seats/{seat}", json={"name": "Eve"}
            )
            assert answer.status_code == 422 and answer.json()["error"] == "invalid", answer.text
        view = (await http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert all(seat["name"] is None for seat in view["seats"])


@pytest.mark.parametrize(
    "path", ["/admin", "/api/admin", "/api/admin/accounts", "/api/admin/ban", "/api/reports/all"]
)
async def test_there_is_no_administration_over_http(site: Site, path: str) -> None:
    visitor = site.visitor()
    async with visitor.http() as http:
        for method in ("GET", "POST"):
            answer = await http.request(method, path, content=json.dumps({}))
            assert answer.status_code in (404, 405), (method, path, answer.status_code)
            assert answer.headers["content-type"].startswith("application/json"), path
