"""The typed messages of every wire (``core/protocol/``): strict parsing of what clients
send, byte-exact encoding of what they are sent, and process messages that survive the
trip through a dict (and are refused when they do not decode)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import ChatLine, LoggedAction, SeatHolder
from odin_cards.server.core.protocol import client, process, server

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)

# ---------------------------------------------------------------- client -> server


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"type":"hello"}', client.Hello()),
        ('{"type":"hello","token":"t","version":3}', client.Hello("t", 3)),
        ('{"type":"hello","token":null,"version":null}', client.Hello()),
        ('{"type":"act","action":"pass","version":0,"id":"a"}', client.Act("pass", 0, "a")),
        ('{"type":"ping"}', client.Ping()),
        ('{"type":"chat","text":"hi"}', client.Chat(text="hi")),
        ('{"type":"chat","reaction":"gg","name":"Eve"}', client.Chat(None, "gg", "Eve")),
        ('{"type":"mute","author":"s0"}', client.Mute("s0")),
        ('{"type":"mute","author":"s0","muted":false}', client.Mute("s0", False)),
        ('{"type":"visibility","visible":false}', client.Visibility(False)),
    ],
)
def test_client_messages_parse_to_their_types(text: str, expected: client.ClientMessage) -> None:
    assert client.parse(text) == expected


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"type": "shout"}, "unknown message type"),
        ({"action": "pass"}, "unknown message type"),
        ({"type": ["act"]}, "unknown message type"),
        ({"type": "act", "action": "pass", "version": "1", "id": "a"}, "version"),
        ({"type": "act", "action": "pass", "version": 1.0, "id": "a"}, "version"),
        ({"type": "act", "action": "pass", "version": True, "id": "a"}, "version"),
        ({"type": "act", "action": "pass", "version": -1, "id": "a"}, "version"),
        ({"type": "act", "action": "pass", "version": 1}, "id: missing"),
        ({"type": "act", "action": "pass", "version": 1, "id": ""}, "id"),
        ({"type": "act", "action": "pass", "version": 1, "id": "z" * 65}, "id"),
        ({"type": "act", "action": "p" * 201, "version": 1, "id": "a"}, "action"),
        ({"type": "act", "action": "pass", "version": 1, "id": "a", "x": 1}, "x"),
        ({"type": "hello", "token": 5}, "token"),
        ({"type": "hello", "token": "t" * 129}, "token"),
        ({"type": "mute", "author": "s0", "muted": 1}, "muted"),
        ({"type": "visibility"}, "visible: missing"),
        ({"type": "chat", "text": ["a"]}, "text"),
        ({"type": "ping", "now": 1}, "now"),
    ],
)
def test_anything_else_is_malformed_saying_why(data: dict[str, Any], says: str) -> None:
    with pytest.raises(DomainError) as refused:
        client.parse(json.dumps(data))
    assert refused.value.code == "malformed" and says in refused.value.message


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '"hello"', "[" * 5000, "null"])
def test_what_is_no_object_is_malformed(text: str) -> None:
    with pytest.raises(DomainError) as refused:
        client.parse(text)
    assert refused.value.code == "malformed"


def test_table_ids_are_short_and_url_safe() -> None:
    assert client.valid_table_id("abc_-123")
    assert not client.valid_table_id("")
    assert not client.valid_table_id("a" * 33)
    assert not client.valid_table_id("a\x00b")


# ---------------------------------------------------------------- server -> client


@pytest.mark.parametrize(
    ("message", "text"),
    [
        (server.Welcome(1, {"id": "t"}), '{"type":"welcome","seat":1,"table":{"id":"t"}}'),
        (
            server.Update(3, "[]", '{"a":1}'),
            '{"type":"update","version":3,"events":[],"state":{"a":1}}',
        ),
        (
            server.Update(3, "[1]", "{}", resync=True),
            '{"type":"update","version":3,"resync":true,"events":[1],"state":{}}',
        ),
        (server.Ack("x", 4), '{"type":"ack","id":"x","version":4}'),
        (
            server.Error("stale", "update first", None),
            '{"type":"error","code":"stale","message":"update first","id":null}',
        ),
        (server.TableShown({"id": "t"}), '{"type":"table","table":{"id":"t"}}'),
        (server.PresenceShown(["online", None]), '{"type":"presence","seats":["online",null]}'),
        (server.ChatLines([{"n": 1}]), '{"type":"chat","lines":[{"n":1}]}'),
        (server.ChatLines([], history=True), '{"type":"chat","lines":[],"history":true}'),
        (server.RematchShown({"a": 1}), '{"type":"rematch","rematch":{"a":1}}'),
        (server.ClockShown({"kind": "none"}), '{"type":"clock","clock":{"kind":"none"}}'),
        (server.Pong(), '{"type":"pong"}'),
    ],
)
def test_server_messages_are_the_protocols_bytes(message: server.ServerMessage, text: str) -> None:
    assert server.encode(message) == text


def test_an_error_message_echoes_the_refusal() -> None:
    refusal = DomainError("illegal", "you do not hold B7", "a1")
    assert json.loads(server.error(refusal)) == {
        "type": "error",
        "code": "illegal",
        "message": "you do not hold B7",
        "id": "a1",
    }


# ---------------------------------------------------------------- process -> process

LINE = ChatLine(3, "s0", "Ann", 0, "hi", None, 7, NOW)
BUS: list[process.BusMessage] = [
    process.ActionLogged("p1", LoggedAction(4, 1, "pass", "c1", NOW, "bot"), True),
    process.TableFacts(
        "playing",
        (process.SeatFacts(0, "Ann", None, "h", True, "acc", "ann"),),
        "next",
        {"started": "x"},
        {1: frozenset({0, 2})},
    ),
    process.TableFacts("expired"),
    process.ChatSaid(LINE),
    process.RematchState({"answers": {"0": "accept"}}),
    process.NewOwner("p2"),
    process.Released("p1", "p2"),
    process.Released("p1"),
    process.Connections("p2", 1, 2, {0: "away"}),
    process.Seen(("online", None, "offline")),
    process.Resync(),
]


@pytest.mark.parametrize("message", BUS)
def test_bus_messages_survive_the_trip_through_json(message: process.BusMessage) -> None:
    data = json.loads(json.dumps(process.encode_bus(message)))
    assert process.decode_bus(data, NOW) == message


def test_the_bus_keeps_the_dicts_of_before() -> None:
    """A rolling restart mixes versions: the dicts are those the processes sent before."""
    entry = LoggedAction(4, 1, "pass", None, NOW)
    assert process.encode_bus(process.ActionLogged("p1", entry, False)) == {
        "kind": "action",
        "owner": "p1",
        "number": 4,
        "seat": 1,
        "action": "pass",
        "client_id": None,
        "created": NOW.isoformat(),
        "finished": False,
        "by": None,
    }
    assert process.encode_bus(process.TableFacts("expired")) == {
        "kind": "table",
        "status": "expired",
    }
    assert process.encode_lobby(process.LobbySeen("t", ("online", None))) == {
        "table": "t",
        "seats": ["online", None],
    }


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "shout"},
        {},
        {"kind": "action", "owner": "p", "number": "4", "seat": 0, "action": "pass"},
        {"kind": "chat", "line": "hi"},
        {"kind": "seen", "seats": "online"},
        {"kind": "owner"},
    ],
)
def test_a_bus_message_that_does_not_decode_is_refused(data: dict[str, Any]) -> None:
    with pytest.raises(process.Malformed):
        process.decode_bus(data, NOW)


def test_unknown_presence_words_count_as_unknown() -> None:
    heard = process.decode_bus({"kind": "seen", "seats": ["online", "<b>", None]}, NOW)
    assert heard == process.Seen(("online", None, None))


COMMANDS: list[process.Command] = [
    process.Act(0, "pass", 3, "c1"),
    process.Act(0, "pass", 3, None),
    process.TakeSeat(1, "Ann", "h"),
    process.TakeSeat(1, "ann", "h", SeatHolder("acc", "ann")),
    process.Cancel("h"),
    process.Lock(2, True, "h"),
    process.Refresh(),
    process.Leave(1),
    process.TakeBack(1),
    process.Vote(2, 0),
    process.AnswerRematch(0, "accept", "open", True),
    process.Say("w1", None, None, "hi", None),
]


@pytest.mark.parametrize("command", COMMANDS)
def test_commands_survive_the_trip_through_json(command: process.Command) -> None:
    data = json.loads(json.dumps(process.encode_request("t1", command)))
    assert process.decode_request(data) == ("t1", command)


@pytest.mark.parametrize(
    "data",
    [
        {"op": "act", "seat": 0},
        {"op": "dance", "table": "t"},
        {"op": "act", "table": "t", "seat": "0", "action": "pass", "version": 1},
        {"op": "lock", "table": "t", "seat": 0, "locked": "yes", "hash": "h"},
    ],
)
def test_a_command_that_does_not_decode_is_refused(data: dict[str, Any]) -> None:
    with pytest.raises(process.Malformed):
        process.decode_request(data)


@pytest.mark.parametrize(
    ("command", "answer"),
    [
        (process.Act(0, "pass", 3), process.Acted(4, 2)),
        (process.Cancel("h"), process.Done()),
        (process.AnswerRematch(0, "accept"), process.Rematch({"answers": {}})),
        (process.Leave(0), process.Refused("not_started", "not yet")),
        (process.Leave(0), process.Moved()),
    ],
)
def test_answers_survive_the_trip_through_json(
    command: process.Command, answer: process.Answer
) -> None:
    data = json.loads(json.dumps(process.encode_answer(answer)))
    assert process.decode_answer(command, data) == answer
