"""A private table is never listed to an outsider (issue #29): every listing endpoint, read
anonymously and by another account, through the real server (SQLite file and PostgreSQL,
one process and two), never names the id of a private table someone sits at; a public
one it does name, so the walk reads what it should."""

from __future__ import annotations

from typing import Any

import httpx

from .harness import Server
from .test_people import Person, close, person, queue_clock

TWO_PROCESSES = True
"""These tests run against one process and against two (``conftest.py``)."""


async def _created(bob: Person, **body: Any) -> str:
    answer = await bob.post("/api/tables", body)
    assert answer.status_code == 201, answer.text
    table_id: str = answer.json()["table"]["id"]
    sat = await bob.post(f"/api/tables/{table_id}/seats/0", {"name": "Bob"})
    assert sat.status_code == 200, sat.text
    return table_id


async def _walk(http: httpx.AsyncClient, signed_in: bool) -> str:
    """Every listing an outsider can read, as one text."""
    read = [
        "/api/people/Bob",
        "/api/people/bob",
        "/api/leaderboard",
        "/api/leaderboard?class=multi&provisional=true",
        "/api/tables",
        "/api/ratings/bots",
        "/api/games",
        "/metrics",
        "/readyz",
    ]
    if signed_in:
        read += ["/api/friends", "/api/account", "/api/account/tables"]
    texts = []
    for path in read:
        answer = await http.get(path)
        assert answer.status_code in (200, 503), (path, answer.status_code)
        texts.append(answer.text)
    mine = await http.post("/api/tables/mine", json={"tokens": []})
    texts.append(mine.text)
    return "\n".join(texts)


async def test_no_listing_names_a_private_table_to_an_outsider(server: Server) -> None:
    queue_clock(server)
    bob, eve = await person(server, "Bob"), await person(server, "Eve")
    assert (await eve.post("/api/friends", {"name": "Bob"})).status_code == 201
    waiting = await _created(bob, players=3, options={}, visibility="private")
    running = await _created(bob, players=2, bots={"1": "random"}, options={}, visibility="private")
    public = await _created(bob, players=3, options={})
    assert (await bob.http.get(f"/api/tables/{running}")).json()["table"]["status"] == "playing"
    async with httpx.AsyncClient(base_url=server.base, timeout=20.0) as anonymous:
        for http, signed_in in ((anonymous, False), (eve.http, True)):
            seen = await _walk(http, signed_in)
            assert public in seen  # the walk reads the listings that name tables
            assert waiting not in seen and running not in seen
    # Bob himself still finds his private tables among his own.
    own = (await bob.http.get("/api/account/tables")).text
    assert waiting in own and running in own
    await close(bob, eve)
