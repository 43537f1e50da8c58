"""Names that look alike are one name (issue #29): a guest, a Play now guest, a spectator's
chat name and a new account are compared with the accounts and the bots' names by
Unicode's confusables skeleton (``core/people/look_alikes.py``)."""

from __future__ import annotations

from typing import Any

from odin_cards.server.core.people.look_alikes import look_alike_key, unicode_version, words

from .harness import Client, Server, new_table, open_client

PASSWORD = "a long enough secret"
CYRILLIC_A = "\u0410"
GREEK_ALPHA = "\u0391"


def test_the_key_is_unicodes_skeleton_casefolded() -> None:
    assert unicode_version() == "13.0.0"
    same = ["Ann", "ANN", f"{CYRILLIC_A}nn", f"{GREEK_ALPHA}nn", "  Ann  ", "\u0430nn"]
    assert {look_alike_key(name) for name in same} == {"ann"}
    assert look_alike_key("mary") == look_alike_key("rnary")
    assert look_alike_key("Bob1") == look_alike_key("Bobl") == look_alike_key("BobI")
    assert look_alike_key("B0b") == look_alike_key("Bob")
    assert look_alike_key("Ann") != look_alike_key("Anna")
    assert words(look_alike_key("Expert b0t")) == ["expert", "bot"]
    assert words(look_alike_key("bot_for-Ann")) == ["bot", "for", "ann"]
    assert words(look_alike_key("b\u0313ot")) == ["bot"]
    assert words(look_alike_key("Robotnik")) == ["robotnik"]


async def _sign_up(http: Any, name: str) -> Any:
    return await http.post("/api/account/signup", json={"name": name, "password": PASSWORD})


async def _said(client: Client, text: str) -> None:
    await client.until(
        lambda m: m["type"] == "chat" and any(line["text"] == text for line in m["lines"])
    )


async def test_nobody_passes_for_an_account_or_a_bot(server: Server) -> None:
    async with server.http() as ann, server.http() as guest:
        assert (await _sign_up(ann, "Ann")).status_code == 201
        table = await new_table(guest, 3)
        seat = f"/api/tables/{table['id']}/seats/0"
        for name, code in (
            (f"{CYRILLIC_A}nn", "account_name"),
            (f"{GREEK_ALPHA}NN", "account_name"),
            ("ann", "account_name"),
            ("Expert bot", "bad_name"),
            ("bot for Ann", "bad_name"),
            ("Exp3rt b0t", "bad_name"),
            ("Expert", "bad_name"),
            ("Former player", "bad_name"),
            ("BOTS", "bad_name"),
        ):
            answer = await guest.post(seat, json={"name": name})
            assert answer.status_code in (409, 422), (name, answer.text)
            assert answer.json()["error"] == code, (name, answer.json())
            playnow = {"players": 2, "target": "15", "clock": "normal", "name": name}
            answer = await guest.post("/api/play-now", json=playnow)
            assert answer.json().get("error") == code, (name, answer.text)
        view = (await guest.get(f"/api/tables/{table['id']}")).json()["table"]
        assert all(s["name"] is None for s in view["seats"])
        # Real names that only share letters are fine.
        assert (await guest.post(seat, json={"name": "Anna"})).status_code == 200
        assert (
            await guest.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Robotnik"})
        ).status_code == 200

        # New accounts: a look-alike of an account or of a reserved name is taken.
        assert (await _sign_up(guest, "mary")).status_code == 201
        async with server.http() as other:
            for name in ("rnary", "RNARY", "B0t", "Rand0m", "Adrnin", "Ann_bot", "bot-for-Ann"):
                answer = await _sign_up(other, name)
                assert answer.status_code == 409, (name, answer.text)
                assert answer.json()["error"] == "name_taken", (name, answer.json())
            assert (await _sign_up(other, "Marty")).status_code == 201


async def test_a_spectator_cannot_chat_under_an_accounts_name(server: Server) -> None:
    async with server.http() as ann, server.http() as guest:
        assert (await _sign_up(ann, "Ann")).status_code == 201
        table = await new_table(guest, 2)
    spectator = await open_client(server, table["id"])
    try:
        for name, code in (
            ("Ann", "account_name"),
            (f"{CYRILLIC_A}nn", "account_name"),
            ("Expert bot", "bad_name"),
        ):
            await spectator.send({"type": "chat", "text": "hello", "name": name})
            error = await spectator.next_of("error")
            assert error["code"] == code, (name, error)
        await spectator.send({"type": "chat", "text": "as myself", "name": "Eve"})
        await _said(spectator, "as myself")
    finally:
        await spectator.close()
