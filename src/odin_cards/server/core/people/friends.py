"""Friends, blocks and reports between accounts.

*Follow* a person by name (accounts only): the friends list shows who of them is online
(``accounts.last_seen`` within :data:`ONLINE_SECONDS`, written by a throttled heartbeat
from any page of a signed-in person) and at which running or waiting tables they sit.
A private table (``settings["visibility"]``, :mod:`.access`) is shown only to someone who
sits at it or was invited to it: nobody learns of a private table through a friend.

*Invite* a friend you follow to a table you sit at: the friend sees the invitation on
their home page and accepting it takes them there.

*Block* a person: their chat lines never reach you (:mod:`.chat` filters per recipient,
live and in the history), Play now never seats you together, they cannot invite you
and cannot follow you (blocking ends their follow). *Report* a person: a reason from
:data:`REASONS` and an optional text, stored for the operators (``odin admin reports``).

Every write is limited (per account, per hour) and every list bounded.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import Clock, PeopleStore
from odin_cards.server.core.ports.people import Person

ONLINE_SECONDS = 120.0
"""A person whose last heartbeat is this recent is online."""

SEEN_EVERY = 60.0
"""Seconds between two writes of one account's ``last_seen`` (heartbeats in between are
not written: a page polling every few seconds costs nothing)."""

MAX_FOLLOWS = 200
MAX_BLOCKS = 500
MAX_INVITES_SHOWN = 20
INVITE_HOURS = 24.0
"""An invitation is shown this long."""

REASONS = ("abuse", "cheating", "spam", "name", "other")
"""Why a person is reported (the pages show them in the viewer's language)."""

MAX_REPORT_TEXT = 500

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
"""A table id as the hall makes them (anything else names no table)."""

WRITES_PER_HOUR = {"follow": 60, "block": 60, "invite": 60, "report": 10}
"""Writes one account may make an hour, by kind."""


@dataclass
class _Quota:
    stamps: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def take(self, kind: str, who: str, now: float) -> bool:
        key = (kind, who)
        recent = [s for s in self.stamps.get(key, ()) if s > now - 3600.0]
        if len(recent) >= WRITES_PER_HOUR[kind]:
            self.stamps[key] = recent
            return False
        recent.append(now)
        self.stamps[key] = recent
        if len(self.stamps) > 8192:
            for old in [k for k, v in self.stamps.items() if not v or v[-1] <= now - 3600.0]:
                del self.stamps[old]
        return True


def clean_report_text(text: str | None) -> str | None:
    """The report's text as stored (``None`` when empty), or ``bad_report``."""
    if text is None:
        return None
    text = " ".join(text.split())
    if not text:
        return None
    if len(text) > MAX_REPORT_TEXT:
        raise DomainError("bad_report", f"a report's text has at most {MAX_REPORT_TEXT} characters")
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise DomainError("bad_report", "a report's text cannot contain control characters")
    return text


BlockListener = Any
"""Called with (blocker id, blocked id) after a block (the chat applies it at once)."""


class Friends:
    """Follow, block, report and invite, for accounts (``me``: the asking account's id)."""

    def __init__(self, store: PeopleStore, clock: Clock, name_key: Any) -> None:
        self.store = store
        self.clock = clock
        self.name_key = name_key
        self._quota = _Quota()
        self._seen: dict[str, float] = {}
        self.on_block: list[Any] = []

    def _limit(self, kind: str, me: str) -> None:
        if not self._quota.take(kind, me, self.clock.monotonic()):
            raise DomainError(
                "rate_limited", f"at most {WRITES_PER_HOUR[kind]} of these an hour; wait a while"
            )

    async def _named(self, name: Any, me: str) -> Person:
        if not isinstance(name, str) or not 1 <= len(name) <= 32:
            raise DomainError("bad_name", "give a user name (at most 32 characters)")
        if any(unicodedata.category(c).startswith("C") for c in name):
            raise DomainError("no_person", "there is nobody with this user name")
        person = await self.store.person(self.name_key(name))
        if person is None:
            raise DomainError("no_person", "there is nobody with this user name")
        if person.id == me:
            raise DomainError("bad_name", "that is you")
        return person

    # ------------------------------------------------------------ follow

    async def follow(self, me: str, name: Any) -> Person:
        person = await self._named(name, me)
        if await self.store.blocks_between(me, person.id):
            raise DomainError("blocked", "you cannot follow this person")
        self._limit("follow", me)
        if not await self.store.follow(me, person.id, self.clock.now(), MAX_FOLLOWS):
            raise DomainError("too_many", f"you can follow at most {MAX_FOLLOWS} people")
        return person

    async def unfollow(self, me: str, name: Any) -> None:
        person = await self._named(name, me)
        await self.store.unfollow(me, person.id)

    async def heartbeat(self, me: str) -> bool:
        """The person is here: ``last_seen`` is written at most every :data:`SEEN_EVERY`
        seconds per process. Whether it was written."""
        now = self.clock.monotonic()
        last = self._seen.get(me)
        if last is not None and now - last < SEEN_EVERY:
            return False
        self._seen[me] = now
        if len(self._seen) > 65536:
            self._seen = {k: v for k, v in self._seen.items() if now - v < SEEN_EVERY}
        await self.store.seen(me, self.clock.now())
        return True

    async def friends(self, me: str) -> list[dict[str, Any]]:
        """Who ``me`` follows: online or not, and the tables they sit at that ``me`` may see."""
        people = await self.store.following(me, MAX_FOLLOWS)
        now = self.clock.now()
        since = now - timedelta(hours=INVITE_HOURS)
        tables = await self.store.tables_of([p.id for p in people], me, since)
        online_since = now - timedelta(seconds=ONLINE_SECONDS)
        listed = []
        for person in people:
            seen = tables.get(person.id, [])
            listed.append(
                {
                    "name": person.name,
                    "online": person.last_seen is not None and person.last_seen >= online_since,
                    "tables": [
                        {
                            "id": t.table_id,
                            "status": t.status,
                            "open_seats": t.open_seats,
                            "players": t.players,
                        }
                        for t in seen
                    ],
                }
            )
        listed.sort(key=lambda f: (not f["online"], str(f["name"]).casefold()))
        return listed

    # ------------------------------------------------------------ invite

    async def invite(self, me: str, name: Any, table_id: Any) -> str:
        """Invite a person ``me`` follows to a table ``me`` sits at (waiting or playing)."""
        person = await self._named(name, me)
        if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
            raise DomainError("not_found", "there is no such table")
        if not await self.store.follows(me, person.id):
            raise DomainError("not_friend", "invite people you follow")
        if await self.store.blocks_between(me, person.id):
            raise DomainError("blocked", "you cannot invite this person")
        if await self.store.table_seated(table_id, me) is None:
            raise DomainError("not_seated", "invite to a running or waiting table where you sit")
        self._limit("invite", me)
        invite_id = secrets.token_hex(8)
        await self.store.invite(invite_id, me, person.id, table_id, self.clock.now())
        return invite_id

    async def invitations(self, me: str) -> list[dict[str, Any]]:
        since = self.clock.now() - timedelta(hours=INVITE_HOURS)
        invites = await self.store.invites_to(me, since, MAX_INVITES_SHOWN)
        blocked = await self.store.blocked_ids(me)
        return [
            {
                "id": i.id,
                "from": i.sender.name,
                "table": i.table_id,
                "created": i.created.isoformat(),
            }
            for i in invites
            if i.sender.id not in blocked
        ]

    async def answer(self, me: str, invite_id: Any, accept: bool) -> str | None:
        """Accept (the table's id, to go to) or decline an invitation."""
        if not isinstance(invite_id, str) or not re.fullmatch(r"[0-9a-f]{16}", invite_id):
            raise DomainError("not_found", "there is no such invitation")
        table_id = await self.store.answer_invite(invite_id, me)
        if table_id is None:
            raise DomainError("not_found", "there is no such invitation")
        return table_id if accept else None

    # ------------------------------------------------------------ block, report

    async def block(self, me: str, name: Any) -> Person:
        person = await self._named(name, me)
        self._limit("block", me)
        if not await self.store.block(me, person.id, self.clock.now(), MAX_BLOCKS):
            raise DomainError("too_many", f"you can block at most {MAX_BLOCKS} people")
        for listener in self.on_block:
            listener(me, person.id)
        return person

    async def unblock(self, me: str, name: Any) -> None:
        person = await self._named(name, me)
        await self.store.unblock(me, person.id)

    async def blocked(self, me: str) -> list[str]:
        return [p.name for p in await self.store.blocked_by(me, MAX_BLOCKS)]

    async def report(self, me: str, name: Any, reason: Any, text: Any, table_id: Any) -> None:
        person = await self._named(name, me)
        if reason not in REASONS:
            raise DomainError("bad_report", f"the reason is one of {', '.join(REASONS)}")
        if text is not None and not isinstance(text, str):
            raise DomainError("bad_report", "the text is a string")
        cleaned = clean_report_text(text)
        if table_id is not None and (
            not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id)
        ):
            raise DomainError("bad_report", "the table is a table id")
        self._limit("report", me)
        await self.store.report(me, person.id, str(reason), cleaned, table_id, self.clock.now())
