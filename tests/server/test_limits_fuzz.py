"""A fuzz of the HTTP API: whatever a client sends, the answer is JSON and never a 500.

Hypothesis writes request bodies (shaped like the real ones, and any JSON at all, and
bytes that are no JSON) and table ids; the real application answers them (through
Starlette's test client, with its start-up: the database is a SQLite file).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from odin_cards.server.app import create_app
from odin_cards.server.settings import Settings, sqlite_url

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats()
    | st.text(max_size=30)
)
ANY_JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
OPTION_KEYS = st.sampled_from(
    ["target", "one_hand", "next_leader", "first_leader", "colours", "goat", "x"]
)
NEW_TABLES = st.fixed_dictionaries(
    {"players": SCALARS | st.integers(0, 8)},
    optional={
        "bots": st.dictionaries(
            st.text(max_size=4) | st.sampled_from(["0", "1", "5", "²", "٣", "01"]),
            st.sampled_from(["random", "heuristic", "x"]) | SCALARS,
            max_size=7,
        ),
        "options": st.dictionaries(OPTION_KEYS, SCALARS | st.integers(0, 7), max_size=6),
        "extra": SCALARS,
    },
)
NAMES = st.fixed_dictionaries({"name": SCALARS | st.text(max_size=300)})
TOKENS = st.fixed_dictionaries(
    {"tokens": st.lists(st.text(max_size=150) | SCALARS, max_size=5) | SCALARS}
)
BODIES = NEW_TABLES | NAMES | TOKENS | ANY_JSON
TABLE_IDS = st.text(max_size=40)


def _check(answer: Any, what: object) -> None:
    assert answer.status_code != 500, (what, answer.text)
    assert answer.headers["content-type"] == "application/json", (what, answer.headers)
    if answer.status_code >= 400:
        error = answer.json()
        assert isinstance(error["error"], str) and error["message"], (what, error)
        if answer.status_code >= 500:  # a limit of the server, not a failure
            assert error["error"] in ("too_many_tables", "unavailable"), (what, error)


def test_the_api_answers_any_input_with_json(tmp_path: Path) -> None:
    roomy = Settings(
        sqlite_url(tmp_path), bot_delay=0, bot_workers=0, tables_per_hour=10**6, max_bot_seats=10**6
    )
    with TestClient(create_app(roomy), raise_server_exceptions=False) as client:
        table = client.post("/api/tables", json={"players": 3}).json()["table"]
        paths = [
            "/api/tables",
            "/api/tables/mine",
            f"/api/tables/{table['id']}/seats/0",
            f"/api/tables/{table['id']}/seats/-1",
            f"/api/tables/{table['id']}/seats/99999999999999999999999",
            f"/api/tables/{table['id']}/rematch",
        ]

        @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
        @given(path=st.sampled_from(paths), body=BODIES, raw=st.none() | st.binary(max_size=64))
        def post(path: str, body: Any, raw: bytes | None) -> None:
            content = raw if raw is not None else json.dumps(body).encode()
            answer = client.post(
                path, content=content, headers={"content-type": "application/json"}
            )
            _check(answer, (path, body, raw))

        @settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
        @given(table_id=TABLE_IDS, tail=st.sampled_from(["", "/record", "/seats/1", "/rematch"]))
        def get(table_id: str, tail: str) -> None:
            path = f"/api/tables/{quote(table_id, safe='')}{tail}"
            answer = client.post(path, json={}) if tail.startswith("/seats") else client.get(path)
            _check(answer, path)

        post()
        get()
