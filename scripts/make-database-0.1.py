"""Write tests/data/odin-0.1.sqlite3: a database written by odin-cards 0.1, games of every kind.

Run it against a checkout of the 0.1 release (commit 78a7cce), not against the current tree:

    git worktree add /tmp/odin-0.1 78a7cce
    PYTHONPATH=/tmp/odin-0.1/src:/tmp/odin-0.1 python scripts/make-database-0.1.py tests/data

The 0.1 server runs in-process; scripted people (WebSocket clients) and bots play. The
sidecar ``odin-0.1.json`` holds what the upgrade test checks against: every table's id,
status, seats, seat tokens, play-again links, wire version, the game's full record (taken
from the 0.1 server's memory at the end, running games included) and acknowledged client
ids with the version each was acknowledged at.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.server.harness import Client, new_table, open_client, running, sit  # 0.1's harness

from odin_cards.server import Settings, sqlite_url  # the 0.1 server

TABLES: list[dict[str, Any]] = []


async def act_randomly(clients: list[Client], rng: random.Random, moves: int) -> list[Any]:
    """People whose turn it is play ``moves`` random legal actions (bots move between)."""
    acks = []
    by_seat = {c.seat: c for c in clients}
    done = 0
    while done < moves:
        state = clients[0].state
        if state["outcome"] is not None:
            break
        mover = by_seat.get(state["to_move"])
        if mover is None:
            await clients[0].next_of("update")
            continue
        while mover.version < clients[0].version:
            await mover.next_of("update")
        action = rng.choice(mover.state["legal"])
        client_id = uuid.uuid4().hex
        answer = await mover.act(action, client_id)
        assert answer["type"] == "ack", answer
        acks.append({"seat": mover.seat, "id": client_id, "version": answer["version"]})
        while clients[0].version < answer["version"]:
            await clients[0].next_of("update")
        done += 1
    return acks


async def main(out: Path) -> None:
    database = out / "odin-0.1.sqlite3"
    database.unlink(missing_ok=True)
    work = out / "work-0.1"
    work.mkdir(exist_ok=True)
    settings = Settings(
        database_url=sqlite_url(work), bot_delay=0, bot_workers=0, rate=1000, burst=1000
    )
    rng = random.Random(2026)
    async with running(settings) as server, server.http() as http:
        app_tables: dict[str, dict[str, Any]] = {}

        async def people(table: dict[str, Any], names: dict[int, str]) -> list[Client]:
            tokens = {
                seat: await sit(http, table["id"], seat, name) for seat, name in names.items()
            }
            app_tables[table["id"]] = {"tokens": {str(s): t for s, t in tokens.items()}, "acks": []}
            return [await open_client(server, table["id"], tokens[s]) for s in sorted(tokens)]

        # 1. Finished: bots only, 4 players, target 15 (several hands).
        bots4 = await new_table(http, 4, {0: "random", 1: "random", 2: "heuristic", 3: "random"})
        app_tables[bots4["id"]] = {"tokens": {}, "acks": []}
        # 2. Finished: two people, one hand, four colours, the Goat.
        heads = await new_table(http, 2, one_hand=True, colours=4, goat=True)
        clients = await people(heads, {0: "Ada", 1: "Bo"})
        app_tables[heads["id"]]["acks"] += await act_randomly(clients, rng, 10_000)
        # 3. Finished, then "play again": the following table runs (people and a bot).
        first = await new_table(http, 3, {2: "heuristic"}, target=5, next_leader="winner")
        clients = await people(first, {0: "Cyd", 1: "Dag"})
        app_tables[first["id"]]["acks"] += await act_randomly(clients, rng, 10_000)
        token = app_tables[first["id"]]["tokens"]["0"]
        again = (await http.post(f"/api/tables/{first['id']}/again", json={"token": token})).json()
        following = again["table"]
        app_tables[following["id"]] = {"tokens": app_tables[first["id"]]["tokens"], "acks": []}
        clients = [
            await open_client(server, following["id"], app_tables[first["id"]]["tokens"][s])
            for s in ("0", "1")
        ]
        app_tables[following["id"]]["acks"] += await act_randomly(clients, rng, 12)
        # 4. Running: 5 people, winner leads, target 8, past the first hand.
        five = await new_table(http, 5, next_leader="winner", target=8, first_leader=2)
        clients = await people(five, {s: f"P{s}" for s in range(5)})
        acks = []
        while clients[0].state["hand_number"] < 2:
            acks += await act_randomly(clients, rng, 1)
        acks += await act_randomly(clients, rng, 3)
        app_tables[five["id"]]["acks"] += acks
        # 5. Running: 6 seats with the Goat, 3 people and 3 bots, a few actions in.
        six = await new_table(http, 6, {1: "random", 3: "heuristic", 5: "random"}, goat=True)
        clients = await people(six, {0: "Eir", 2: "Frey", 4: "Gná"})
        app_tables[six["id"]]["acks"] += await act_randomly(clients, rng, 7)
        # 6. Waiting: one seat taken of three; 7. waiting, nobody seated, two bots.
        waiting = await new_table(http, 3, target=20)
        await people(waiting, {1: "Hel"})
        empty = await new_table(http, 4, {0: "search", 2: "random"})
        app_tables[empty["id"]] = {"tokens": {}, "acks": []}
        # 8. Waiting, abandoned: its creation time is moved two days back below.
        abandoned = await new_table(http, 2)
        app_tables[abandoned["id"]] = {"tokens": {}, "acks": []}

        # Let the bots finish table 1, and every bot whose turn it is move.
        for _ in range(2000):
            if server_tables_settled(http_app(server)):
                break
            await asyncio.sleep(0.01)
        hall = http_app(server).state.hall
        for table_id, extra in app_tables.items():
            live = hall.tables[table_id]
            TABLES.append(
                {
                    "id": table_id,
                    "status": live.status,
                    "players": live.players,
                    "options": live.options.to_dict(),
                    "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot} for s in live.seats],
                    "previous_table": live.previous_table,
                    "next_table": live.next_table,
                    "version": live.version,
                    "actions": len(live.actions),
                    "record": live.game.record().to_dict(),
                    "tokens": extra["tokens"],
                    "acks": extra["acks"],
                }
            )
    source = sqlite3.connect(work / "odin.sqlite3")
    past = (datetime.now(UTC) - timedelta(days=2)).replace(tzinfo=None).isoformat(sep=" ")
    with source:
        source.execute("UPDATE tables SET created = ? WHERE id = ?", (past, abandoned["id"]))
    for row in TABLES:
        if row["id"] == abandoned["id"]:
            row["abandoned"] = True
    target = sqlite3.connect(database)
    source.backup(target)
    target.close()
    source.close()
    for leftover in work.iterdir():
        leftover.unlink()
    work.rmdir()
    sidecar = {
        "written_by": "odin-cards 0.1 (commit 78a7cce)",
        "made": datetime.now(UTC).isoformat(),
        "tables": TABLES,
    }
    (out / "odin-0.1.json").write_text(json.dumps(sidecar, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {database} and odin-0.1.json: {len(TABLES)} tables")


def http_app(server: Any) -> Any:
    """The running 0.1 application (the harness keeps it in uvicorn's config)."""
    return _APP["app"]


def server_tables_settled(app: Any) -> bool:
    """Every table whose turn is a bot's has moved on (bots only wait on people)."""
    hall = app.state.hall
    for table in hall.tables.values():
        game = table.game
        playing = table.status == "playing" and not game.is_over
        if playing and table.seats[game.to_move].bot is not None:
            return False
    return not hall._tasks


_APP: dict[str, Any] = {}


def _capture_app() -> None:
    """Keep the app the harness creates, to read its tables at the end."""
    import tests.server.harness as harness

    original = harness.create_app

    def create(settings: Settings) -> Any:
        app = original(settings)
        _APP["app"] = app
        return app

    harness.create_app = create


if __name__ == "__main__":
    _capture_app()
    asyncio.run(main(Path(sys.argv[1])))
