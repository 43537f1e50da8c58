"""No client takes more than its share (issue #29): quotas key on an IPv6 /64 (a whole IPv4
address), and the cap on waiting tables cannot lock a new address out — one address
holds at most its share, and at the cap an abandoned table of the biggest holder is
given up (never one with a connection). Real server on a SQLite file, clients on several
loopback addresses (Linux routes all of 127.0.0.0/8 to the loopback)."""

from __future__ import annotations

import dataclasses

import httpx
import pytest

from odin_cards.server.settings import Settings
from odin_cards.server.transport.quotas import Quotas, address_key, client_address

from .harness import open_client, running


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:1:2:3", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("fe80::1%eth0", "fe80::/64"),
        ("unknown", "unknown"),
    ],
)
def test_an_address_is_counted_by_its_key(address: str, key: str) -> None:
    assert address_key(address) == key


def test_one_ipv6_64_shares_one_quota_and_mapped_ipv4_is_ipv4() -> None:
    quotas = Quotas(Settings("sqlite://", tables_per_hour=2), clock=lambda: 0.0)
    for host in ("2001:db8::1", "2001:db8::2:3"):
        assert quotas.create_table(client_address({"client": (host, 1)})) is None
    refused = quotas.create_table(client_address({"client": ("2001:db8::ffff", 1)}))
    assert refused is not None and refused.code == "rate_limited"
    assert quotas.create_table(client_address({"client": ("2001:db8:0:1::1", 1)})) is None
    assert quotas.create_table(client_address({"client": ("198.51.100.1", 1)})) is None
    assert quotas.create_table(client_address({"client": ("::ffff:198.51.100.1", 1)})) is None
    refused = quotas.create_table(client_address({"client": ("198.51.100.1", 1)}))
    assert refused is not None


def _from(base: str, host: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=host)
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=20.0)


async def _create(http: httpx.AsyncClient) -> httpx.Response:
    return await http.post("/api/tables", json={"players": 3})


async def test_a_new_address_can_always_create_a_table(settings: Settings) -> None:
    capped = dataclasses.replace(settings, max_waiting_tables=4, waiting_tables_per_address=2)
    async with running(capped) as server:
        ann, bob, cid = (_from(server.base, f"127.0.0.{n}") for n in (2, 3, 4))
        made = []
        for http in (ann, ann, bob, bob):
            answer = await _create(http)
            assert answer.status_code == 201, answer.text
            made.append(answer.json()["table"]["id"])
        over = await _create(ann)  # Ann's share is spent
        assert over.status_code == 429 and over.json()["error"] == "rate_limited"
        assert "cancel one" in over.json()["message"]
        watched = await open_client(server, made[0])  # someone is at Ann's oldest table
        # The server is full: Cid, new, still gets a table; the oldest abandoned one of
        # the biggest holders (Ann's second: her first has a connection) is given up.
        answer = await _create(cid)
        assert answer.status_code == 201, answer.text
        statuses = [(await cid.get(f"/api/tables/{t}")).json()["table"]["status"] for t in made]
        assert statuses == ["waiting", "expired", "waiting", "waiting"]
        lobby = [t["id"] for t in (await cid.get("/api/tables")).json()["tables"]]
        assert made[1] not in lobby and made[0] in lobby
        await watched.close()
        for http in (ann, bob, cid):
            await http.aclose()


async def test_with_nothing_to_give_up_the_cap_holds(settings: Settings) -> None:
    capped = dataclasses.replace(settings, max_waiting_tables=2, waiting_tables_per_address=2)
    async with running(capped) as server:
        ann, cid = _from(server.base, "127.0.0.2"), _from(server.base, "127.0.0.4")
        made = [(await _create(ann)).json()["table"]["id"] for _ in range(2)]
        watching = [await open_client(server, t) for t in made]
        refused = await _create(cid)
        assert refused.status_code == 503 and refused.json()["error"] == "too_many_tables"
        for client in watching:
            await client.close()
        await ann.aclose()
        await cid.aclose()
