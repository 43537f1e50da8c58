"""Hidden information: no answer of a running game, over HTTP or WebSocket, to a seat, a
spectator or a visitor who only looks, shows a card that party has not seen or the seed
that deals them; in both games; and no listing names a private table to an outsider.
(Whole games, version by version, are checked in process by tests/server/test_privacy.py
and every listing by tests/server/test_visibility.py; this is the outside view of a real
server.)"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from server.harness import Client

from .site import Site, Visitor, new_table, signed_up, sit

CARD = re.compile(r"\b(?:[BRPGKO][1-9]|X0)\b")
"""An Odin card's text (colour and value, or the goat)."""

SECRET_KEYS = {"seed", "seeds", "deals", "rng", "shuffle", "order"}
"""Keys that would carry what deals the cards."""


def secrets_in(value: Any, seat: int | None, path: str = "") -> list[str]:
    """Where ``value`` (one answer) shows what ``seat`` (``None``: nobody's) may not see: a
    key of :data:`SECRET_KEYS`, a deck as anything but its size, or a hand's cards
    anywhere but the seat's own state."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}"
            own = where == ".state.hand" and value.get("seat") == seat is not None
            secret = key in SECRET_KEYS
            secret |= key.endswith("deck") and not isinstance(item, int)
            secret |= key == "hand" and isinstance(item, list) and not own
            if secret:
                found.append(where)
            found += secrets_in(item, seat, where)
    elif isinstance(value, list):
        for n, item in enumerate(value):
            found += secrets_in(item, seat, f"{path}[{n}]")
    return found


async def looks(visitor: Visitor, table_id: str) -> None:
    """What anybody may ask of a running table over HTTP (the answers are kept)."""
    async with visitor.http() as http:
        for path in (f"/api/tables/{table_id}", "/api/tables", f"/t/{table_id}"):
            assert (await http.get(path)).status_code == 200, path
        for path in (f"/t/{table_id}/watch", f"/t/{table_id}/replay"):
            await http.get(path)
        record = await http.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 403 and record.json()["error"] == "running"


async def running_table(site: Site, game: str) -> tuple[list[Visitor], list[Client], Visitor]:
    """Two people seated at a running table of ``game``, a spectator connected, and a
    visitor who only asks over HTTP: their visitors and sockets (seat 0, 1, spectator)."""
    ann, bo, watcher, passer = (site.visitor() for _ in range(4))
    table = await new_table(ann, 2, game=game)
    tokens = [await sit(ann, table["id"], 0, "Ann"), await sit(bo, table["id"], 1, "Bo")]
    sockets = [
        await ann.socket(table["id"], tokens[0]),
        await bo.socket(table["id"], tokens[1]),
        await watcher.socket(table["id"]),
    ]
    for visitor in (ann, bo, watcher, passer):
        await looks(visitor, table["id"])
    return [ann, bo, watcher, passer], sockets, passer


def answers_of(visitor: Visitor, *sockets: Client) -> list[Any]:
    """The JSON answers a visitor got (pages are text: checked as text)."""
    parsed = []
    for text in visitor.heard(*sockets):
        try:
            parsed.append(json.loads(text))
        except ValueError:
            parsed.append(text)
    return parsed


async def test_an_odin_table_shows_each_party_only_its_own_cards(site: Site) -> None:
    (ann, bo, watcher, passer), (s0, s1, spectator), _ = await running_table(site, "odin")
    hands = [set(s0.state["hand"]), set(s1.state["hand"])]
    assert hands[0] and hands[1] and not hands[0] & hands[1]
    assert spectator.state["hand"] is None
    # At the deal no card is public: each seat may see its own hand, nobody else any.
    parties = [(ann, [s0], 0), (bo, [s1], 1), (watcher, [spectator], None), (passer, [], None)]
    for visitor, sockets, seat in parties:
        seen = set(CARD.findall("\n".join(visitor.heard(*sockets))))
        mine = hands[seat] if seat is not None else set()
        assert seen & (hands[0] | hands[1]) <= mine, f"seat {seat} saw {seen - mine}"
        for answer in answers_of(visitor, *sockets):
            assert secrets_in(answer, seat) == [], answer


async def test_a_name_of_odin_table_shows_each_party_only_its_own_hand(site: Site) -> None:
    (ann, bo, watcher, passer), (s0, s1, spectator), _ = await running_table(site, "name-of-odin")
    assert isinstance(s0.state["hand"], list) and isinstance(s1.state["hand"], list)
    assert spectator.state["hand"] is None
    parties = [(ann, [s0], 0), (bo, [s1], 1), (watcher, [spectator], None), (passer, [], None)]
    for visitor, sockets, seat in parties:
        for answer in answers_of(visitor, *sockets):
            assert secrets_in(answer, seat) == [], answer


async def listings(http: httpx.AsyncClient, person: str, signed_in: bool) -> str:
    """Every listing an outsider may read that could name a table of ``person``, as text."""
    paths = [f"/api/people/{person}", "/api/leaderboard", "/api/tables"]
    if signed_in:
        paths += ["/api/friends", "/api/account/tables"]
    texts = []
    for path in paths:
        answer = await http.get(path)
        assert answer.status_code == 200, (path, answer.text)
        texts.append(answer.text)
    return "\n".join(texts)


async def test_no_listing_names_a_private_table_to_an_outsider(site: Site) -> None:
    bob, eve, passer = site.visitor(), site.visitor(), site.visitor()
    async with bob.http() as mine, eve.http() as theirs, passer.http() as anonymous:
        name, csrf = await signed_up(bob, mine)
        _, eve_csrf = await signed_up(eve, theirs)
        asked = await theirs.post(
            "/api/friends", json={"name": name}, headers={"X-CSRF-Token": eve_csrf}
        )
        assert asked.status_code == 201, asked.text
        made = {}
        for kind, body in (
            ("waiting", {"players": 3, "visibility": "private"}),
            ("running", {"players": 2, "bots": {"1": "random"}, "visibility": "private"}),
            ("public", {"players": 3}),
        ):
            answer = await mine.post("/api/tables", json=body, headers={"X-CSRF-Token": csrf})
            assert answer.status_code == 201, answer.text
            made[kind] = table_id = answer.json()["table"]["id"]
            sat = await mine.post(
                f"/api/tables/{table_id}/seats/0",
                json={"name": name},
                headers={"X-CSRF-Token": csrf},
            )
            assert sat.status_code == 200, sat.text
        running = (await mine.get(f"/api/tables/{made['running']}")).json()["table"]
        assert running["status"] == "playing"
        for http, signed_in in ((anonymous, False), (theirs, True)):
            seen = await listings(http, name, signed_in)
            assert made["public"] in seen  # the listings read do name tables
            assert made["waiting"] not in seen and made["running"] not in seen
        own = (await mine.get("/api/account/tables")).text
        assert made["waiting"] in own and made["running"] in own


def test_the_check_finds_what_it_looks_for() -> None:
    """(The checks above could not pass by looking at nothing.)"""
    mine = {"type": "update", "state": {"seat": 1, "hand": ["B3"], "action_deck": 4}}
    assert secrets_in(mine, 1) == []
    assert secrets_in(mine, 0) == [".state.hand"]
    assert secrets_in(mine, None) == [".state.hand"]
    assert secrets_in({"table": {"seed": 7, "ship_deck": ["S1"]}}, 0) == [
        ".table.seed",
        ".table.ship_deck",
    ]
    assert secrets_in({"events": [{"villages": [{"hand": ["A"]}]}]}, 0) == [
        ".events[0].villages[0].hand"
    ]
