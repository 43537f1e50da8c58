"""What server processes tell each other (``docs/server.md``, Several processes): the bus's
messages about a table, the lobby channel's, and the router's commands to a table's owner
with their answers; each a closed set of typed messages, encoded to and decoded from the
ports' JSON-safe dicts here and nowhere else.

The dicts are the wire format of a cluster (Redis carries them as JSON): a process of this
version understands one of the last, so a rolling restart may mix them. A message that
does not decode is :class:`Malformed`, refused in one place: the bus's receiver drops it
(logged), the router's answers it ``malformed``. Each message is what one replica or owner
needs and nothing more; no view, hand or seed ever crosses (only what the log holds, seats'
token hashes, presence and the chat's lines).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Literal

from odin_cards.server.core.ports import ChatLine, LoggedAction, SeatHolder

State = Literal["online", "away", "offline"]
STATES: tuple[State, ...] = ("online", "away", "offline")
"""What a seat is shown as (``core/features/presence.py``)."""


class Malformed(ValueError):
    """A process message that does not decode (a bug, or another version's)."""


# ---------------------------------------------------------------- reading a dict


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Malformed(f"{key}: not a whole number")
    return value


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise Malformed(f"{key}: not a string")
    return value


def _opt_str(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise Malformed(f"{key}: not a string")
    return value


def _opt_int(data: Mapping[str, Any], key: str) -> int | None:
    return None if data.get(key) is None else _int(data, key)


def _bool(data: Mapping[str, Any], key: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise Malformed(f"{key}: not true or false")
    return value


def _states(values: Any) -> tuple[State | None, ...]:
    """Seats' presence as shown; an unknown word counts as not known (``None``)."""
    if not isinstance(values, list):
        raise Malformed("seats: not a list")
    return tuple(state_of(value) for value in values)


def state_of(value: Any) -> State | None:
    """The presence word ``value`` names, or ``None`` (not a word of :data:`STATES`)."""
    for state in STATES:
        if value == state:
            return state
    return None


# ---------------------------------------------------------------- the bus: a table's channel


@dataclass(frozen=True, slots=True)
class ActionLogged:
    """(Owner to replicas) the log's next entry, to apply in order."""

    owner: str
    entry: LoggedAction
    finished: bool


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """One seat as replicas hold it (token hashes too: replicas check ``hello`` tokens)."""

    seat: int
    name: str | None
    bot: str | None
    token_hash: str | None
    locked: bool = False
    account_id: str | None = None
    account: str | None = None


@dataclass(frozen=True, slots=True)
class TableFacts:
    """(Owner to replicas) the table's seats, status, next game and clock facts; an
    expiry says only the status (the rest is ``None``: unchanged)."""

    status: str | None = None
    seats: tuple[SeatFacts, ...] | None = None
    next_table: str | None = None
    clock: dict[str, Any] | None = None
    votes: dict[int, frozenset[int]] | None = None


@dataclass(frozen=True, slots=True)
class ChatSaid:
    """(Owner to replicas) a chat line the owner numbered and stored."""

    line: ChatLine


@dataclass(frozen=True, slots=True)
class RematchState:
    """(Owner to replicas) the rematch's stored answers."""

    state: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NewOwner:
    """A process took the table's lease."""

    owner: str


@dataclass(frozen=True, slots=True)
class Released:
    """The owner gave the lease up: to ``to`` first if named, else to any follower."""

    owner: str
    to: str | None = None


@dataclass(frozen=True, slots=True)
class Connections:
    """(Replica to owner) who is connected to the table at ``process``: seated people,
    connections, and each seat's presence there."""

    process: str
    people: int
    watchers: int
    seats: dict[int, State] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Seen:
    """(Owner to replicas) each seat's presence as everyone is shown it."""

    seats: tuple[State | None, ...]


@dataclass(frozen=True, slots=True)
class Resync:
    """(The bus itself) messages may have been lost: every replica reads its log again."""


BusMessage = (
    ActionLogged
    | TableFacts
    | ChatSaid
    | RematchState
    | NewOwner
    | Released
    | Connections
    | Seen
    | Resync
)


@dataclass(frozen=True, slots=True)
class LobbySeen:
    """(Owner to every process, on the lobby channel) presence at a waiting table."""

    table: str
    seats: tuple[State | None, ...]


def chat_line_json(line: ChatLine) -> dict[str, Any]:
    """A chat line as the protocol, the record and the bus show it."""
    return {
        "number": line.number,
        "author": line.author,
        "name": line.name,
        "seat": line.seat,
        "text": line.text,
        "reaction": line.reaction,
        "action": line.action,
        "created": line.created.isoformat(),
    }


def encode_bus(message: BusMessage) -> dict[str, Any]:
    """The bus's dict of ``message``."""
    match message:
        case ActionLogged(owner, entry, finished):
            return {
                "kind": "action",
                "owner": owner,
                "number": entry.number,
                "seat": entry.seat,
                "action": entry.action,
                "client_id": entry.client_id,
                "created": entry.created.isoformat(),
                "finished": finished,
                "by": entry.by,
            }
        case TableFacts(status, seats, next_table, clock, votes):
            data: dict[str, Any] = {"kind": "table"}
            if seats is not None:
                data["seats"] = [asdict(seat) for seat in seats]  # (its fields in their order)
            if status is not None:
                data["status"] = status
            if seats is not None or next_table is not None:
                data["next_table"] = next_table
            if clock is not None:
                data["clock"] = clock
            if votes is not None:
                data["votes"] = {str(seat): sorted(voters) for seat, voters in votes.items()}
            return data
        case ChatSaid(line):
            return {"kind": "chat", "line": chat_line_json(line)}
        case RematchState(state):
            return {"kind": "rematch", "state": state}
        case NewOwner(owner):
            return {"kind": "owner", "owner": owner}
        case Released(owner, to):
            return {"kind": "released", "owner": owner, "to": to}
        case Connections(process, people, watchers, seats):
            return {
                "kind": "presence",
                "process": process,
                "people": people,
                "watchers": watchers,
                "seats": {str(seat): state for seat, state in seats.items()},
            }
        case Seen(seats):
            return {"kind": "seen", "seats": list(seats)}
        case Resync():
            return {"kind": "resync"}
    raise TypeError(f"not a bus message: {message!r}")  # pragma: no cover (closed set)


def _created(text: Any, otherwise: datetime) -> datetime:
    """When the owner logged a followed action (the clock's deadlines follow from it)."""
    try:
        return datetime.fromisoformat(str(text))
    except ValueError:
        return otherwise


def _seat_facts(data: Any) -> SeatFacts:
    if not isinstance(data, dict):
        raise Malformed("seats: not objects")
    return SeatFacts(
        _int(data, "seat"),
        _opt_str(data, "name"),
        _opt_str(data, "bot"),
        _opt_str(data, "token_hash"),
        bool(data.get("locked", False)),
        _opt_str(data, "account_id"),
        _opt_str(data, "account"),
    )


def _votes(data: Any) -> dict[int, frozenset[int]]:
    if not isinstance(data, dict):
        raise Malformed("votes: not an object")
    try:
        return {int(seat): frozenset(int(v) for v in voters) for seat, voters in data.items()}
    except (TypeError, ValueError):
        raise Malformed("votes: not seats") from None


def _chat_line(data: Any, now: datetime) -> ChatLine:
    if not isinstance(data, dict):
        raise Malformed("line: not an object")
    return ChatLine(
        _int(data, "number"),
        _str(data, "author"),
        _opt_str(data, "name"),
        _opt_int(data, "seat"),
        _opt_str(data, "text"),
        _opt_str(data, "reaction"),
        _int(data, "action"),
        now,
    )


def decode_bus(data: Mapping[str, Any], now: datetime) -> BusMessage:
    """The message of the bus's dict ``data`` (``now``: when it is heard, for what the
    sender's clock does not say); :class:`Malformed` if it is none."""
    kind = data.get("kind")
    if kind == "action":
        entry = LoggedAction(
            _int(data, "number"),
            _int(data, "seat"),
            _str(data, "action"),
            _opt_str(data, "client_id"),
            _created(data.get("created"), now),
            _opt_str(data, "by"),
        )
        return ActionLogged(_str(data, "owner"), entry, _bool(data, "finished"))
    if kind == "table":
        seats = data.get("seats")
        clock = data.get("clock")
        return TableFacts(
            status=_opt_str(data, "status"),
            seats=None if seats is None else tuple(_seat_facts(s) for s in _list(seats)),
            next_table=_opt_str(data, "next_table"),
            clock=dict(clock) if isinstance(clock, dict) else None,
            votes=None if data.get("votes") is None else _votes(data["votes"]),
        )
    if kind == "chat":
        return ChatSaid(_chat_line(data.get("line"), now))
    if kind == "rematch":
        state = data.get("state")
        if not isinstance(state, dict):
            raise Malformed("state: not an object")
        return RematchState(state)
    if kind == "owner":
        return NewOwner(_str(data, "owner"))
    if kind == "released":
        return Released(_str(data, "owner"), _opt_str(data, "to"))
    if kind == "presence":
        seats = data.get("seats")
        found: dict[int, State] = {}
        if isinstance(seats, dict):
            for seat, word in seats.items():
                state = state_of(word)
                if str(seat).isdigit() and state is not None:
                    found[int(seat)] = state
        people, watchers = _int(data, "people"), _int(data, "watchers")
        return Connections(_str(data, "process"), people, watchers, found)
    if kind == "seen":
        return Seen(_states(data.get("seats")))
    if kind == "resync":
        return Resync()
    raise Malformed(f"unknown bus message {str(kind)[:32]!r}")


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise Malformed("not a list")
    return value


def encode_lobby(message: LobbySeen) -> dict[str, Any]:
    return {"table": message.table, "seats": list(message.seats)}


def decode_lobby(data: Mapping[str, Any]) -> LobbySeen:
    return LobbySeen(_str(data, "table"), _states(data.get("seats")))


# ---------------------------------------------------------------- the router: commands


@dataclass(frozen=True, slots=True)
class Act:
    """Check, store, apply and broadcast an action (``core/tables/moves.py``)."""

    seat: int
    action: str
    version: int
    id: str | None = None


@dataclass(frozen=True, slots=True)
class TakeSeat:
    """Give a free seat to ``name`` with the token hash ``hash`` (the token stays where it
    was made), held by ``holder``'s account if any (``core/features/seats.py``)."""

    seat: int
    name: str
    hash: str
    holder: SeatHolder | None = None


@dataclass(frozen=True, slots=True)
class Cancel:
    """The creator (``hash`` of their token) cancels the waiting table (``access.py``)."""

    hash: str


@dataclass(frozen=True, slots=True)
class Lock:
    """The creator locks or frees a free seat (``access.py``)."""

    seat: int
    locked: bool
    hash: str


@dataclass(frozen=True, slots=True)
class Refresh:
    """Read the seats again from the store and show them (an account's seats changed:
    ``core/people/accounts.py``); the chat's names are read again too."""


@dataclass(frozen=True, slots=True)
class Leave:
    """The seat's person leaves the game; a bot takes the seat (``stand_ins.py``)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TakeBack:
    """The seat's person takes it back from its bot (``stand_ins.py``)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Vote:
    """``voter`` votes to hand the absent ``seat`` to a bot (``stand_ins.py``)."""

    seat: int
    voter: int


@dataclass(frozen=True, slots=True)
class AnswerRematch:
    """A player's answer to a rematch (``rematch.py``)."""

    seat: int
    answer: str
    declined: str | None = None
    now: bool = False


@dataclass(frozen=True, slots=True)
class Say:
    """A checked chat line to number, store and send (``chat.py``)."""

    author: str
    name: str | None
    seat: int | None
    text: str | None
    reaction: str | None


Command = Act | TakeSeat | Cancel | Lock | Refresh | Leave | TakeBack | Vote | AnswerRematch | Say


@dataclass(frozen=True, slots=True)
class Done:
    """The command was carried out."""


@dataclass(frozen=True, slots=True)
class Acted:
    """An action was applied: the version after it and the log's action count (a replica
    waits to show that many)."""

    version: int
    count: int


@dataclass(frozen=True, slots=True)
class Rematch:
    """The rematch after an answer (``docs/protocol.md``'s ``Rematch``)."""

    rematch: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Refused:
    """The owner refused the command (a :class:`~..errors.DomainError`'s code, message)."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Moved:
    """The process asked does not own the table (any more): ask its owner."""


Answer = Done | Acted | Rematch | Refused | Moved


def encode_request(table_id: str, command: Command) -> dict[str, Any]:
    """The router's dict of ``command`` for table ``table_id``."""
    data: dict[str, Any]
    match command:
        case Act(seat, action, version, id):
            data = {"op": "act", "seat": seat, "action": action, "version": version, "id": id}
        case TakeSeat(seat, name, digest, holder):
            data = {"op": "seat", "seat": seat, "name": name, "hash": digest}
            if holder is not None:
                data["account_id"], data["account"] = holder.account_id, holder.name
        case Cancel(digest):
            data = {"op": "cancel", "hash": digest}
        case Lock(seat, locked, digest):
            data = {"op": "lock", "seat": seat, "locked": locked, "hash": digest}
        case Refresh():
            data = {"op": "refresh"}
        case Leave(seat):
            data = {"op": "leave", "seat": seat}
        case TakeBack(seat):
            data = {"op": "take_back", "seat": seat}
        case Vote(seat, voter):
            data = {"op": "vote", "seat": seat, "voter": voter}
        case AnswerRematch(seat, answer, declined, now):
            data = {"op": "rematch", "seat": seat, "answer": answer, "declined": declined}
            data["now"] = now
        case Say(author, name, seat, text, reaction):
            data = {"op": "chat", "author": author, "name": name, "seat": seat}
            data.update(text=text, reaction=reaction)
    data["table"] = table_id
    return data


_COMMANDS: dict[str, Callable[[Mapping[str, Any]], Command]] = {
    "act": lambda d: Act(_int(d, "seat"), _str(d, "action"), _int(d, "version"), _opt_str(d, "id")),
    "seat": lambda d: TakeSeat(
        _int(d, "seat"),
        _str(d, "name"),
        _str(d, "hash"),
        None
        if d.get("account_id") is None
        else SeatHolder(_str(d, "account_id"), _str(d, "account")),
    ),
    "cancel": lambda d: Cancel(_str(d, "hash")),
    "lock": lambda d: Lock(_int(d, "seat"), _bool(d, "locked"), _str(d, "hash")),
    "refresh": lambda d: Refresh(),
    "leave": lambda d: Leave(_int(d, "seat")),
    "take_back": lambda d: TakeBack(_int(d, "seat")),
    "vote": lambda d: Vote(_int(d, "seat"), _int(d, "voter")),
    "rematch": lambda d: AnswerRematch(
        _int(d, "seat"), _str(d, "answer"), _opt_str(d, "declined"), _bool(d, "now")
    ),
    "chat": lambda d: Say(
        _str(d, "author"),
        _opt_str(d, "name"),
        _opt_int(d, "seat"),
        _opt_str(d, "text"),
        _opt_str(d, "reaction"),
    ),
}


def decode_request(data: Mapping[str, Any]) -> tuple[str, Command]:
    """The table id and the command of the router's dict ``data``; :class:`Malformed`."""
    table_id = _str(data, "table")
    op = data.get("op")
    decode = _COMMANDS.get(op) if isinstance(op, str) else None
    if decode is None:
        raise Malformed(f"unknown request {str(op)[:32]!r}")
    return table_id, decode(data)


def encode_answer(answer: Answer) -> dict[str, Any]:
    """The router's dict of an owner's ``answer``."""
    match answer:
        case Done():
            return {"ok": True}
        case Acted(version, count):
            return {"version": version, "count": count}
        case Rematch(rematch):
            return dict(rematch)
        case Refused(code, message):
            return {"error": code, "message": message}
        case Moved():
            return {"moved": True}
    raise TypeError(f"not an answer: {answer!r}")  # pragma: no cover (closed set)


def decode_answer(command: Command, data: Any) -> Answer:
    """The owner's answer to ``command`` from the router's ``data``; :class:`Malformed`."""
    if not isinstance(data, dict):
        raise Malformed("an answer is an object")
    if "moved" in data:
        return Moved()
    if "error" in data:
        return Refused(_str(data, "error"), str(data.get("message", "")))
    if isinstance(command, Act):
        return Acted(_int(data, "version"), _int(data, "count"))
    if isinstance(command, AnswerRematch):
        return Rematch(dict(data))
    return Done()
