"""No secret in the server's logs at any level: no seat token, no hand.

At debug level uvicorn's WebSocket protocol would log every frame (hellos carry tokens,
updates carry hands); the server keeps those loggers at INFO and masks what slips through.
"""

from __future__ import annotations

import json
import logging
import random

import pytest

from odin_cards.server.settings import Settings
from odin_cards.server.transport.logs import Redact, redact

from .harness import new_table, open_client, running, sit
from .test_play import play_out


async def test_debug_logs_hold_no_token_and_no_hand(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    uvicorn_logger = logging.getLogger("uvicorn")
    caplog.set_level(logging.DEBUG)
    async with running(settings, log_level="debug") as server:
        uvicorn_logger.addHandler(caplog.handler)  # uvicorn's loggers do not propagate
        try:
            async with server.http() as http:
                table = await new_table(http, 3, {2: "random"}, one_hand=True)
                tokens = [await sit(http, table["id"], s, f"P{s}") for s in range(2)]
            clients = [await open_client(server, table["id"], t) for t in tokens]
            hands = [json.dumps(c.state["hand"], separators=(",", ":")) for c in clients]
            await play_out(clients, random.Random(5))
            async with server.http() as http:
                record = (await http.get(f"/api/tables/{table['id']}/record")).json()
        finally:
            uvicorn_logger.removeHandler(caplog.handler)
    # What the test's own WebSocket client logs is the client's business, not the server's.
    server_records = [r for r in caplog.records if not r.name.startswith("websockets.client")]
    assert any(r.name.startswith("uvicorn") for r in server_records)  # the capture works
    text = "\n".join(r.getMessage() for r in server_records)
    for secret in tokens:
        assert secret not in text
    assert '"hand"' not in text and '"token"' not in text
    assert all(hand not in text for hand in hands)
    assert str(record["seed"]) not in text  # SQL statements and their parameters


def test_what_slips_through_is_masked() -> None:
    token = "Ab3_-" * 8 + "xyz"  # 43 URL-safe characters, like a seat token
    assert len(token) == 43
    line = f'< TEXT \'{{"type":"hello","token":"{token}","version":null}}\' [60 bytes]'
    assert token not in redact(line) and '"token":"[token]"' in redact(line)
    assert token not in redact(f"seat token {token} refused")
    state = '{"type":"update","state":{"hand":["B1","R7","X0"],"seed":123}}'
    assert "B1" not in redact(state) and "123" not in redact(state)
    sql = "IntegrityError: duplicate key\n[SQL: INSERT ...]\n[parameters: ('t1', 'Ann', 42)]"
    assert "Ann" not in redact(sql)
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "got %s", (token,), None)
    assert Redact().filter(record) and token not in record.getMessage()
