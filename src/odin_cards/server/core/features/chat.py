"""A table's chat: players and spectators write lines or quick reactions, everyone present
sees them live, and they are stored with the table (the replay shows them among the moves).

Public means hostile, so every line passes limits before it costs anything: its length
(:data:`MAX_TEXT`), no control characters, a rate per connection (checked where the
connection is) and per person (checked by the table's owner, which numbers and stores every
line), and a cap on a table's lines (:data:`MAX_LINES`). Lines are stored and sent as raw
text: every page shows them with ``textContent`` only.

Spectators are many and cost nothing to be, so their lines draw on budgets of their own:
a cap of their lines at a table (``Settings.chat_spectator_lines``; the players'
:data:`MAX_LINES` are theirs alone, so spectators can never fill the chat the players
use) and a rate per client address over all its connections and tables
(``chat_spectator_burst``, ``chat_spectator_rate``, kept by the process the connections
are at).

Who hears whom: a player's line reaches everyone; a spectator's reaches the other
spectators, and the players only when the table allows it (``settings["chat"] =
{"spectators": true}``), so that nobody watching can coach a player by default. A viewer
may mute a person: that connection is sent nothing more of theirs (the page remembers the
mute and asks again after each connect).

With several processes a line said at a replica goes to the table's owner (``op:
"chat"``), which stores it and fans it out on the bus like the log's entries; each process
sends it to its own connections.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import unicodedata
import weakref
from collections.abc import Mapping
from typing import Any, Protocol

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import (
    BlockList,
    ChatLine,
    Clock,
    SocialStore,
    StoreUnavailable,
)
from odin_cards.server.core.protocol.process import (
    Answer,
    BusMessage,
    ChatSaid,
    Command,
    Done,
    Say,
    chat_line_json,
)
from odin_cards.server.core.protocol.server import ChatLines, encode
from odin_cards.server.core.rate import Bucket
from odin_cards.server.core.tables.ownership import Commands, Listeners, NotOwner
from odin_cards.server.core.tables.sessions import Session
from odin_cards.server.core.tables.table import LiveTable, clean_name
from odin_cards.server.settings import Settings

MAX_TEXT = 200
"""Characters a line may have (after white space is collapsed)."""

MAX_LINES = 2000
"""Lines a table's players may write; then their chat is full (a flood cannot fill the
database). Spectators' lines are counted apart (``Settings.chat_spectator_lines``)."""

MAX_ADDRESSES = 4096
"""Spectators' addresses whose allowance is kept before those refilled are forgotten."""

HISTORY = 100
"""Latest lines kept in memory per table and sent to whoever connects."""

REACTIONS = ("thumbs_up", "laugh", "wow", "clap", "gg", "well_played", "thanks", "oops")
"""The quick reactions: keys the pages show as an emoji or a phrase in the viewer's language."""

CONNECTION_BURST, CONNECTION_RATE = 5, 1 / 3
"""Lines a connection may send at once, and how many a second after that."""

PERSON_BURST, PERSON_RATE = 8, 1 / 2
"""Lines one person (a seat, or a spectator's address) may send at once at a table, and a
second after that, however many connections they open."""

MAX_MUTED = 64
"""People one connection may mute."""


def chat_settings(value: Any) -> dict[str, Any]:
    """The normalized ``settings["chat"]`` of a new table, or ``bad_options`` saying why."""
    if value is None:
        return {"spectators": False}
    if not isinstance(value, Mapping) or set(value) - {"spectators"}:
        raise DomainError("bad_options", 'chat is {"spectators": true or false}')
    spectators = value.get("spectators", False)
    if not isinstance(spectators, bool):
        raise DomainError("bad_options", "chat.spectators is true or false")
    return {"spectators": spectators}


def spectators_heard(table: LiveTable) -> bool:
    """Whether the table's players see what spectators write."""
    setting = table.settings.get("chat")
    return isinstance(setting, Mapping) and setting.get("spectators") is True


def clean_text(text: str) -> str:
    """A line as stored, or ``bad_chat`` saying what is wrong."""
    text = " ".join(text.split())
    if not text:
        raise DomainError("bad_chat", "write something first")
    if len(text) > MAX_TEXT:
        raise DomainError("bad_chat", f"a line has at most {MAX_TEXT} characters")
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise DomainError("bad_chat", "a line cannot contain control characters")
    return text


def spectator_key(table: LiveTable, address: str | None) -> str:
    """A spectator's author key at ``table``: keyed by the table's secret seed, so it is
    the same on every process and after a restart, and says nothing of the address."""
    digest = hmac.new(
        table.seed.to_bytes(8, "big"), (address or "unknown").encode(), hashlib.sha256
    ).hexdigest()
    return "w" + digest[:10]


class ChatContext(Protocol):
    """What the chat needs of the core: time, the owner, telling the other processes,
    and the sessions at a table."""

    clock: Clock
    settings: Settings

    @property
    def commands(self) -> Commands: ...

    @property
    def listeners(self) -> Listeners: ...

    def owns(self, table: LiveTable) -> bool: ...

    async def execute(self, table: LiveTable, command: Command) -> Answer: ...

    def publish(self, table: LiveTable, message: BusMessage) -> None: ...

    def sessions_at(self, table: LiveTable) -> tuple[Session, ...]: ...


class TableChat:
    """The chat of every table this process holds (the command ``Say``)."""

    def __init__(self, context: ChatContext, store: SocialStore | None) -> None:
        self.context = context
        self.store = store
        context.commands.on(Say, self._say)
        context.listeners.on(ChatSaid, self._heard)
        self._lines: dict[str, list[ChatLine]] = {}
        """The latest lines of each table, as this process knows them (up to HISTORY)."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._connections: weakref.WeakKeyDictionary[Session, Bucket] = weakref.WeakKeyDictionary()
        self._people: dict[tuple[str, str], Bucket] = {}
        self._addresses: dict[str, Bucket] = {}
        """Each spectator address's allowance over all its connections and tables."""
        self._counts: dict[str, tuple[int, int]] = {}
        """Each table's stored lines: (the players', the spectators'), at the owner."""
        self._muted: weakref.WeakKeyDictionary[Session, set[str]] = weakref.WeakKeyDictionary()
        self.blocks: BlockList | None = None
        """Blocks between accounts (issue #10): a seat whose account blocked a person hears
        nothing of the seats that person holds, live or in the history."""
        self._blocking: weakref.WeakKeyDictionary[Session, tuple[str, set[str]]] = (
            weakref.WeakKeyDictionary()
        )
        """A seat's connection -> (its account, the accounts it blocked)."""
        self._accounts: dict[str, dict[int, str]] = {}
        """Each table's seats held by accounts (read when someone connects)."""

    def _store(self) -> SocialStore:
        if self.store is None:
            raise DomainError("unavailable", "this server keeps no chat")
        return self.store

    # ------------------------------------------------------------ saying

    async def say(
        self,
        table: LiveTable,
        session: Session,
        text: str | None,
        reaction: str | None,
        name: str | None,
        address: str | None,
    ) -> None:
        """A line from a connection to ``table`` (its seat, or a spectator who may give a
        name): checked here, then numbered, stored and sent by the table's owner."""
        self._store()
        if (text is None) == (reaction is None):
            raise DomainError("bad_chat", "a line is a text or a reaction")
        if text is not None:
            text = clean_text(text)
        elif reaction not in REACTIONS:
            raise DomainError("bad_chat", f"reactions: {', '.join(REACTIONS)}")
        if table.status not in ("waiting", "playing", "finished"):
            raise DomainError("expired", "this table is closed")
        seat = session.seat
        if seat is None:
            author, shown = spectator_key(table, address), clean_name(name) if name else None
        else:
            author, shown = (
                f"s{seat}",
                table.seats[seat].name or table.seats[seat].display(table.game_key),
            )
        allowance = self._connections.get(session)
        if allowance is None:
            allowance = self._connections[session] = Bucket(
                CONNECTION_RATE, CONNECTION_BURST, self.context.clock.monotonic
            )
        if not allowance.take():
            raise DomainError("rate_limited", "you write too fast: wait a few seconds")
        if seat is None and not self._address_allowance(address or "unknown").take():
            raise DomainError(
                "rate_limited", "spectators at your address write too fast: wait a minute"
            )
        await self.context.execute(table, Say(author, shown, seat, text, reaction))

    def _address_allowance(self, address: str) -> Bucket:
        settings = self.context.settings
        allowance = self._addresses.get(address)
        if allowance is None:
            if len(self._addresses) >= MAX_ADDRESSES:
                for known in [a for a, b in self._addresses.items() if b.full()]:
                    del self._addresses[known]
            allowance = self._addresses[address] = Bucket(
                settings.chat_spectator_rate,
                settings.chat_spectator_burst,
                self.context.clock.monotonic,
            )
        return allowance

    async def _say(self, table: LiveTable, command: Say) -> Answer:
        await self.say_here(
            table, command.author, command.name, command.seat, command.text, command.reaction
        )
        return Done()

    async def say_here(
        self,
        table: LiveTable,
        author: str,
        name: str | None,
        seat: int | None,
        text: str | None,
        reaction: str | None,
    ) -> ChatLine:
        """Number, store and send a checked line (this process owns the table)."""
        store = self._store()
        lock = self._locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            if not self.context.owns(table):
                raise NotOwner(table.id)
            key = (table.id, author)
            allowance = self._people.get(key)
            if allowance is None:
                allowance = self._people[key] = Bucket(
                    PERSON_RATE, PERSON_BURST, self.context.clock.monotonic
                )
            if not allowance.take():
                raise DomainError("rate_limited", "you write too fast: wait a few seconds")
            lines = await self.lines(table)
            number = lines[-1].number + 1 if lines else 0
            players, spectators = await self._counted(table)
            if seat is not None and players >= MAX_LINES:
                raise DomainError("chat_full", f"this table's chat is full ({MAX_LINES} lines)")
            spectator_lines = self.context.settings.chat_spectator_lines
            if seat is None and spectators >= spectator_lines:
                raise DomainError(
                    "chat_full",
                    f"the spectators' chat of this table is full ({spectator_lines} lines)",
                )
            line = ChatLine(
                number,
                author,
                name,
                seat,
                text,
                reaction,
                table.game.action_count,
                self.context.clock.now(),
            )
            try:
                await store.add_chat(table.id, line)
            except StoreUnavailable:
                self._lines.pop(table.id, None)  # read again: it may have been stored
                self._counts.pop(table.id, None)
                raise DomainError("unavailable", "the chat cannot be stored now") from None
            if seat is None:
                self._counts[table.id] = (players, spectators + 1)
            else:
                self._counts[table.id] = (players + 1, spectators)
            self._keep(table.id, line)
            self._deliver(table, [line])
            self.context.publish(table, ChatSaid(line))
            return line

    async def _counted(self, table: LiveTable) -> tuple[int, int]:
        """The table's stored lines, the players' and the spectators' (read once)."""
        counts = self._counts.get(table.id)
        if counts is None:
            try:
                stored = await self._store().chat_of(table.id, self._most())
            except StoreUnavailable:
                raise DomainError("unavailable", "the chat cannot be read now") from None
            spectators = sum(1 for line in stored if line.seat is None)
            counts = self._counts[table.id] = (len(stored) - spectators, spectators)
        return counts

    def _most(self) -> int:
        """Lines a table's chat holds at most: the players' and the spectators'."""
        return MAX_LINES + self.context.settings.chat_spectator_lines

    # ------------------------------------------------------------ hearing

    async def lines(self, table: LiveTable) -> list[ChatLine]:
        """The table's latest lines (read from the store the first time)."""
        known = self._lines.get(table.id)
        if known is None:
            try:
                known = await self._store().chat_of(table.id, HISTORY)
            except StoreUnavailable:
                raise DomainError("unavailable", "the chat cannot be read now") from None
            self._lines[table.id] = known
        return known

    def _keep(self, table_id: str, line: ChatLine) -> None:
        known = self._lines.get(table_id)
        if known is None:
            return  # read in full when first needed
        if known and line.number <= known[-1].number:
            return
        known.append(line)
        del known[:-HISTORY]

    async def _heard(self, table: LiveTable, message: ChatSaid) -> None:
        """A replica hears the owner's new line: kept and sent to this process's viewers.
        (A line lost on the bus is missed live; it is in the history of the next hello.)"""
        if self.context.owns(table):
            return
        line = message.line
        known = self._lines.get(table.id)
        if known and line.number > known[-1].number + 1:
            self._lines.pop(table.id, None)  # a gap: the store has what was missed
        self._keep(table.id, line)
        self._deliver(table, [line])

    async def welcome(self, table: LiveTable, session: Session) -> None:
        """Send a new connection the chat so far (what it may see). A store that cannot be
        read now sends nothing: the game is not held up by its chat."""
        if self.store is None:
            return
        try:
            lines = await self.lines(table)
        except DomainError:
            return
        await self._learn_blocks(table, session)
        seen = [line for line in lines if self._reaches(table, session, line)]
        session.send_text(_chat_message(seen, history=True))

    async def _learn_blocks(self, table: LiveTable, session: Session) -> None:
        """Whom the connecting seat's account (or a signed-in spectator's) blocked, and
        which seats they hold. A store that cannot be read now filters nothing (the
        page's mute still works)."""
        signed_in = session.account
        if self.blocks is None or (session.seat is None and signed_in is None):
            return
        try:
            accounts = await self.blocks.seat_accounts(table.id)
            self._accounts[table.id] = accounts
            me = accounts.get(session.seat) if session.seat is not None else None
            me = me or signed_in
            if me is not None:
                self._blocking[session] = (me, await self.blocks.blocked_ids(me))
        except StoreUnavailable:
            return

    def blocked_now(self, blocker: str, blocked: str) -> None:
        """``blocker`` just blocked ``blocked``: their connections here hear no more of them."""
        for account, chosen in self._blocking.values():
            if account == blocker:
                chosen.add(blocked)

    def mute(self, session: Session, author: str, muted: bool) -> None:
        """Send ``session`` nothing more from ``author`` (or again, with ``muted`` false)."""
        if not (2 <= len(author) <= 16 and author[0] in "sw" and author[1:].isalnum()):
            raise DomainError("bad_chat", "mute whom? an author key such as s0 or w1a2b3c4d5")
        chosen = self._muted.setdefault(session, set())
        if muted:
            if len(chosen) >= MAX_MUTED and author not in chosen:
                raise DomainError("bad_chat", f"at most {MAX_MUTED} people can be muted")
            chosen.add(author)
        else:
            chosen.discard(author)

    def _reaches(self, table: LiveTable, session: Session, line: ChatLine) -> bool:
        if line.author in self._muted.get(session, ()):
            return False
        blocking = self._blocking.get(session)
        if blocking is not None and line.seat is not None:
            author = self._accounts.get(table.id, {}).get(line.seat)
            if author is not None and author in blocking[1]:
                return False
        return line.seat is not None or session.seat is None or spectators_heard(table)

    def _deliver(self, table: LiveTable, lines: list[ChatLine]) -> None:
        for session in self.context.sessions_at(table):
            seen = [line for line in lines if self._reaches(table, session, line)]
            if seen:
                session.send_text(_chat_message(seen))

    def reread(self, table_id: str) -> None:
        """The table's stored lines changed (a deleted account's name, ``core/people/accounts.py``):
        read them from the store when next needed."""
        self._lines.pop(table_id, None)

    def forget(self, table_id: str) -> None:
        """The table left memory: so does its chat."""
        self._lines.pop(table_id, None)
        self._locks.pop(table_id, None)
        self._accounts.pop(table_id, None)
        self._counts.pop(table_id, None)
        for key in [key for key in self._people if key[0] == table_id]:
            del self._people[key]

    async def record(self, table: LiveTable) -> list[dict[str, Any]]:
        """Every line of a finished table, in order, for its record (the replay)."""
        try:
            lines = await self._store().chat_of(table.id, self._most())
        except StoreUnavailable:
            raise DomainError("unavailable", "the chat cannot be read now") from None
        return [chat_line_json(line) for line in lines]


def _chat_message(lines: list[ChatLine], history: bool = False) -> str:
    return encode(ChatLines([chat_line_json(line) for line in lines], history))
