"""A whole number in a path or query is written with digits alone (issue #29): before,
``POST /api/tables/{id}/seats/1.0`` took seat 1."""

from __future__ import annotations

from .harness import Server, new_table


async def test_a_seat_is_written_with_digits_alone(server: Server) -> None:
    async with server.http() as http:
        table = await new_table(http, 3)
        seats = f"/api/tables/{table['id']}/seats"
        for seat in ("1.0", "+1", "%201", "1%20", "01", "1_0", "1e0", "-0", "１", "0x1", ""):
            answer = await http.post(f"{seats}/{seat}", json={"name": "Ann"})
            assert answer.status_code in (404, 405, 422), (seat, answer.text)
            if answer.status_code == 422:
                assert answer.json()["error"] == "invalid", (seat, answer.json())
                assert answer.json()["message"].startswith("seat: a whole number"), seat
            answer = await http.post(f"{seats}/{seat}/lock", json={"creator": "x", "locked": True})
            assert answer.status_code in (404, 405, 422), (seat, answer.text)
        view = (await http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert all(seat["name"] is None for seat in view["seats"])
        for bad in ("offset=1.0", "offset=+1", "limit=01", "limit=%2010"):
            answer = await http.get(f"/api/leaderboard?{bad}")
            assert answer.status_code == 422 and answer.json()["error"] == "invalid", bad
        taken = await http.post(f"{seats}/1", json={"name": "Ann"})
        assert taken.status_code == 200, taken.text
        assert (await http.get("/api/leaderboard?offset=0&limit=10")).status_code == 200
