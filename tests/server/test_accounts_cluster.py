"""An account's seat on another device with two server processes (PostgreSQL and Redis):
the new token opens the seat on the process that gave it and on the table's owner; a
deleted account's seat shows the neutral name on both."""

from __future__ import annotations

from websockets.asyncio.client import connect

from .harness import Client, Server, new_table, open_client, sit
from .test_accounts import PASSWORD, csrf, log_in, sign_up

TWO_PROCESSES = True


async def test_a_claimed_seat_opens_on_every_process(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 2, {1: "random"})
        old = await sit(http, table["id"], 0, "Uma")
        await sign_up(http, "Uma", seats=[old])
    # The other device asks the process that does not own the table (with two processes
    # the WebSockets' one; the table was made through the other).
    base = server.ws_base or server.base
    async with Server(base, server.settings).http() as laptop:
        assert (await log_in(laptop, "Uma")).status_code == 200
        claimed = await laptop.post(
            f"/api/account/tables/{table['id']}/seats/0/claim", headers=await csrf(laptop)
        )
        assert claimed.status_code == 200, claimed.text
        fresh = claimed.json()["token"]
        deleted = await laptop.post(
            "/api/account/delete", json={"password": PASSWORD}, headers=await csrf(laptop)
        )
        assert deleted.status_code == 200, deleted.text
    for where in {server.base, base}:
        client = await open_client(Server(where, server.settings), table["id"], fresh)
        assert client.seat == 0
        await client.close()
        async with Server(where, server.settings).http() as http:
            seats = (await http.get(f"/api/tables/{table['id']}")).json()["table"]["seats"]
            assert seats[0]["name"] == "Former player"
        async with connect(f"{where.replace('http', 'ws')}/ws/{table['id']}") as connection:
            stale = Client(connection, old)
            await stale.send({"type": "hello", "token": old, "version": None})
            refusal = await stale.receive()
            assert (refusal["type"], refusal["code"]) == ("error", "unauthorized"), refusal


async def test_a_seat_taken_through_another_process_is_the_accounts_on_both(
    server: Server,
) -> None:
    async with server.http() as http:
        table = await new_table(http, 2, {1: "random"})
    base = server.ws_base or server.base  # (two processes: not the table's owner)
    async with Server(base, server.settings).http() as vic:
        await sign_up(vic, "Vic")
        await sit(vic, table["id"], 0, "Victor")
    for where in {server.base, base}:
        async with Server(where, server.settings).http() as http:
            seats = (await http.get(f"/api/tables/{table['id']}")).json()["table"]["seats"]
            assert (seats[0]["name"], seats[0]["account"]) == ("Vic", "Vic"), where
