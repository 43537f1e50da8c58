"""Accounts (issue #10): optional identities with a name and a password.

A guest plays as before, with seat tokens in the browser; a person who signs up gets an
account whose logged-in sessions are cookies (only their SHA-256 is stored). The rules
here are the domain's: which names and passwords are allowed, how long a session lives
(idle and absolute), when failed logins lock a name or an address out, and what deleting
or banning an account does. Storage is the :class:`~..ports.AccountStore` port (SQL in
``adapters/sql_accounts.py``, memory in ``adapters/memory_accounts.py``); the HTTP side
(cookies, CSRF) is ``transport/auth.py``.

Password hashes are argon2id (``argon2-cffi``), computed in a worker thread (a hash takes
tens of milliseconds and 64 MiB) with at most :data:`HASHING_AT_ONCE` at a time, so a
flood of logins cannot take the server's memory. A login for an unknown name verifies a
dummy hash: it costs what a known name costs, and answers the same words.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import string
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from odin_cards.games import plugins
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.people.look_alikes import look_alike_key, words
from odin_cards.server.core.ports import AccountStore, Clock, NameTaken, StoreUnavailable
from odin_cards.server.core.ports.people import (
    Account,
    AccountRecord,
    Attempts,
    HeldSeat,
    SessionRecord,
)
from odin_cards.server.core.tables.table import LiveTable
from odin_cards.server.settings import Settings


class HeldTables(Protocol):
    """What accounts need of the tables this process holds: find one, list them, and have
    a table's seats read again from the store by its owner and here (an account's seat
    changed in the store), its chat's names with them."""

    def held_table(self, table_id: str) -> LiveTable | None: ...

    def held_tables(self) -> list[LiveTable]: ...

    async def refresh(self, table: LiveTable) -> None: ...


# ---------------------------------------------------------------- rules

NAME_MIN = 3
NAME_MAX = 20
NAME_CHARACTERS = frozenset(string.ascii_letters + string.digits + "_-")
"""Letters, digits, ``_`` and ``-``: no look-alike characters from other scripts."""

PASSWORD_MIN = 8
PASSWORD_MAX = 128
"""Characters; longer passwords are refused (hashing a megabyte is a denial of service)."""

RESERVED = frozenset(
    {
        "admin",
        "administrator",
        "anonymous",
        "bot",
        "bots",
        "deleted",
        "former-player",
        "guest",
        "moderator",
        "mod",
        "null",
        "odin",
        "odin-cards",
        "root",
        "server",
        "staff",
        "stand-in",
        "support",
        "system",
        "undefined",
    }
)
"""Names nobody may take (besides every bot level's key and name)."""

BOT_WORDS = frozenset({"bot", "bots"})
"""Words no person's name may have (looked at through :func:`.look_alikes.words`)."""

NEUTRAL_NAME = "Former player"
"""The name a deleted account's seats show from then on."""

HASHING_AT_ONCE = 2
"""Password hashes computed at once in this process (each takes 64 MiB for a moment)."""

SESSION_TOUCH = 60.0
"""Seconds between two writes of a session's ``last_used`` (not one write per request)."""

SEAT_LIMIT = 200
"""Most seats one request may link to an account, and most tables listed."""


class AccountError(Exception):
    """A request about accounts refused; nothing changed. ``status`` is the HTTP status
    the transport answers with; ``retry_after`` (seconds) comes with a lockout."""

    def __init__(
        self, code: str, message: str, status: int = 400, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after


def bot_names() -> frozenset[str]:
    """Every game's bot levels' keys and names (as they were written)."""
    return frozenset(
        word
        for plugin in plugins().values()
        for level in plugin.bot_levels
        for word in (level.key, level.name)
    )


def reserved_names() -> frozenset[str]:
    """Name keys nobody may sign up with: :data:`RESERVED`, every game's key and name and
    its bot levels' keys and names."""
    games = {word for plugin in plugins().values() for word in (plugin.key, plugin.name)}
    return RESERVED | {name_key(word) for word in games | bot_names()}


def name_key(name: str) -> str:
    """The key that makes names unique whatever their case (NFKC, casefolded)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: str, reserved: Collection[str] = ()) -> str:
    """The name's key, or ``bad_name`` saying what is wrong with it."""
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError("bad_name", f"a user name has {NAME_MIN} to {NAME_MAX} characters", 422)
    if any(c not in NAME_CHARACTERS for c in name):
        raise AccountError("bad_name", "a user name has only letters a-z, digits, '_' and '-'", 422)
    if not name[0].isalpha():
        raise AccountError("bad_name", "a user name begins with a letter", 422)
    key = name_key(name)
    if key in reserved:
        raise AccountError("name_taken", f"the name {name} is reserved; choose another", 409)
    return key


def check_password(password: str, name: str | None = None) -> None:
    """``bad_password`` unless the password is long enough, not too long, and not the name."""
    if len(password) < PASSWORD_MIN:
        raise AccountError(
            "bad_password", f"a password has at least {PASSWORD_MIN} characters", 422
        )
    if len(password) > PASSWORD_MAX:
        raise AccountError("bad_password", f"a password has at most {PASSWORD_MAX} characters", 422)
    if name is not None and name_key(password) == name_key(name):
        raise AccountError("bad_password", "the password cannot be the user name", 422)


def hash_secret(secret: str) -> str:
    """SHA-256 of a session cookie or seat token (what the store keeps)."""
    return hashlib.sha256(secret.encode()).hexdigest()


# ---------------------------------------------------------------- live sessions


@dataclass(frozen=True, slots=True)
class Session:
    """A live session: its account and the CSRF token its writes must carry."""

    id: str
    account: Account
    csrf: str
    expires: datetime


@dataclass(frozen=True, slots=True)
class NewSession:
    """A session just opened: the cookie (given once, never stored) and its CSRF token."""

    cookie: str
    session: Session


# ---------------------------------------------------------------- the service


class Accounts:
    """Sign up, log in and out, sessions, lockout, password change, deletion, bans."""

    def __init__(
        self,
        store: AccountStore,
        clock: Clock,
        settings: Settings,
        hasher: PasswordHasher | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.settings = settings
        self.hasher = hasher or PasswordHasher()
        self.reserved = reserved_names()
        self.reserved_look_alikes = frozenset(
            look_alike_key(word) for word in (*self.reserved, NEUTRAL_NAME)
        )
        """What no account's name may look like."""
        self.bot_look_alikes = frozenset(
            look_alike_key(word) for word in (*bot_names(), NEUTRAL_NAME)
        )
        """What no guest's name may look like (a guest may be "Guest", not "Expert")."""
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self._dummy: str | None = None

    # ------------------------------------------------------------ hashing

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches; with no hash (unknown name) a dummy one is checked
        so that the answer takes as long."""
        if password_hash is None:
            if self._dummy is None:
                self._dummy = await self._hash(secrets.token_urlsafe(16))
            password_hash = self._dummy
            matches = False
        else:
            matches = True
        async with self._hashing:
            try:
                await asyncio.to_thread(self.hasher.verify, password_hash, password)
            except (VerificationError, InvalidHashError):
                return False
        return matches

    # ------------------------------------------------------------ limits

    def _lockout(self) -> tuple[timedelta, timedelta]:
        return (
            timedelta(seconds=self.settings.login_window),
            timedelta(seconds=self.settings.lockout_seconds),
        )

    async def _check_locked(self, keys: Sequence[str]) -> None:
        now = self.clock.now()
        for key in keys:
            attempts = await self.store.attempts(key)
            locked = None if attempts is None else attempts.locked_until
            if locked is not None and locked > now:
                raise self._locked(key, locked - now)

    def _locked(self, key: str, left: timedelta) -> AccountError:
        seconds = max(1, int(left.total_seconds() + 0.999))
        minutes = (seconds + 59) // 60
        if key.startswith("s:"):
            what = "too many sign-ups from this address"
        elif key.startswith("a:"):
            what = "too many failed logins from this address"
        else:
            what = "too many failed logins for this name"
        when = f"{minutes} minute{'s' if minutes != 1 else ''}"
        return AccountError("locked", f"{what}; try again in {when}", 429, seconds)

    async def _fail(self, keys: Sequence[tuple[str, int]]) -> None:
        """Count a failed login under each key; raise ``locked`` if one is locked now."""
        window, lock = self._lockout()
        now = self.clock.now()
        locked: tuple[str, datetime] | None = None
        for key, limit in keys:
            attempts = await self.store.count_failure(key, now, window, limit, lock)
            if attempts.locked_until is not None and attempts.locked_until > now:
                locked = (key, attempts.locked_until)
        if locked is not None:
            raise self._locked(locked[0], locked[1] - now)

    # ------------------------------------------------------------ sessions

    async def _open(self, account: Account, old_cookie: str | None) -> NewSession:
        """A new session (a new id at every login); the old cookie's session ends."""
        if old_cookie:
            await self.store.end_session(hash_secret(old_cookie))
        cookie = secrets.token_urlsafe(32)
        now = self.clock.now()
        record = SessionRecord(
            hash_secret(cookie),
            account.id,
            secrets.token_urlsafe(32),
            now,
            now + timedelta(seconds=self.settings.session_max),
            now,
        )
        await self.store.add_session(record)
        return NewSession(cookie, Session(record.id, account, record.csrf, record.expires))

    async def session(self, cookie: str | None) -> Session | None:
        """The live session of this cookie, or ``None`` (none, expired, banned, deleted)."""
        if not cookie or len(cookie) > 128:
            return None
        session_id = hash_secret(cookie)
        found = await self.store.session(session_id)
        if found is None:
            return None
        record, stored = found
        now = self.clock.now()
        idle = timedelta(seconds=self.settings.session_idle)
        account = stored.account
        if (
            now >= record.expires
            or now - record.last_used >= idle
            or account.banned is not None
            or account.deleted is not None
        ):
            await self.store.end_session(session_id)
            return None
        if (now - record.last_used).total_seconds() >= SESSION_TOUCH:
            await self.store.touch_session(session_id, now)
        return Session(session_id, account, record.csrf, record.expires)

    # ------------------------------------------------------------ the requests

    async def sign_up(
        self, name: str, password: str, address: str, old_cookie: str | None = None
    ) -> NewSession:
        key = check_name(name, self.reserved)
        look_alike = self._check_look_alike(name, self.reserved_look_alikes, "name_taken", 409)
        check_password(password, name)
        _, lock = self._lockout()
        now = self.clock.now()
        signups = f"s:{address}"[:80]
        await self._check_locked([signups])
        if await self.store.by_key(key) is not None:
            raise AccountError("name_taken", f"the name {name} is taken; choose another", 409)
        twin = await self.store.by_look_alike(look_alike)
        if twin is not None:
            raise AccountError(
                "name_taken",
                f"the name {name} looks like the account {twin.account.name}; choose another",
                409,
            )
        # Each sign-up counts: after ``signups_per_hour`` in an hour the address waits.
        await self.store.count_failure(
            signups, now, timedelta(hours=1), self.settings.signups_per_hour, lock
        )
        account = Account(secrets.token_hex(16), name, now)
        record = AccountRecord(account, key, await self._hash(password), look_alike)
        try:
            await self.store.create(record)
        except NameTaken:
            raise AccountError(
                "name_taken", f"the name {name} is taken; choose another", 409
            ) from None
        return await self._open(account, old_cookie)

    async def log_in(
        self, name: str, password: str, address: str, old_cookie: str | None = None
    ) -> NewSession:
        """A new session for the name's account; ``bad_login`` (the same words whether the
        name exists or not), ``locked`` after too many failures, ``banned``."""
        if len(name) > NAME_MAX * 2 or len(password) > PASSWORD_MAX:
            raise AccountError("bad_login", "wrong user name or password", 401)
        key = name_key(name)
        name_lock = f"n:{key}"[:80]
        address_lock = f"a:{address}"[:80]
        await self._check_locked([name_lock, address_lock])
        record = await self.store.by_key(key)
        good = await self._verify(None if record is None else record.password_hash, password)
        if record is None or not good:
            await self._fail(
                [
                    (name_lock, self.settings.login_failures_per_name),
                    (address_lock, self.settings.login_failures_per_address),
                ]
            )
            raise AccountError("bad_login", "wrong user name or password", 401)
        if record.account.banned is not None:
            raise AccountError("banned", "this account is banned", 403)
        await self.store.clear_attempts(name_lock)
        if self.hasher.check_needs_rehash(record.password_hash):
            await self.store.set_password(record.account.id, await self._hash(password))
        return await self._open(record.account, old_cookie)

    async def log_out(self, session: Session) -> None:
        await self.store.end_session(session.id)

    async def _check_password(self, account: Account, password: str) -> AccountRecord:
        record = await self.store.by_id(account.id)
        if record is None or record.account.deleted is not None:
            raise AccountError("not_found", "there is no such account", 404)
        if len(password) > PASSWORD_MAX or not await self._verify(record.password_hash, password):
            await self._fail([(f"n:{record.name_key}"[:80], self.settings.login_failures_per_name)])
            raise AccountError("bad_login", "the password is wrong", 403)
        return record

    async def change_password(self, session: Session, old: str, new: str) -> None:
        """Change the password (the old one first); every other session ends."""
        check_password(new, session.account.name)
        await self._check_locked([f"n:{name_key(session.account.name)}"[:80]])
        await self._check_password(session.account, old)
        await self.store.set_password(session.account.id, await self._hash(new))
        await self.store.end_sessions(session.account.id, keep=session.id)

    async def delete(
        self, session: Session, password: str, tables: HeldTables | None = None
    ) -> list[HeldSeat]:
        """Delete the account (the password first): the name is freed, every session ends,
        its seats show :data:`NEUTRAL_NAME` (in the store, and in the ``tables`` held in
        memory, through their owners); the seats that changed."""
        await self._check_locked([f"n:{name_key(session.account.name)}"[:80]])
        await self._check_password(session.account, password)
        changed = await self.store.delete(session.account.id, self.clock.now(), NEUTRAL_NAME)
        for table_id in sorted({held.table_id for held in changed}):
            table = None if tables is None else tables.held_table(table_id)
            if tables is not None and table is not None:
                try:
                    await _refresh(tables, table)
                except (AccountError, DomainError, StoreUnavailable):
                    # Stored already; this copy shows the old name until it is reloaded.
                    for held in changed:
                        if held.table_id == table_id and held.seat < table.players:
                            table.seats[held.seat].name = NEUTRAL_NAME
        return changed

    async def ban(self, name: str, banned: bool = True) -> Account:
        """Ban the named account (its sessions end; it cannot log in) or unban it."""
        record = await self.store.by_key(name_key(name))
        if record is None:
            raise AccountError("not_found", f"there is no account named {name!r}", 404)
        await self.store.set_banned(record.account.id, self.clock.now() if banned else None)
        updated = await self.store.by_id(record.account.id)
        assert updated is not None
        return updated.account

    def _check_look_alike(self, name: str, reserved: frozenset[str], code: str, status: int) -> str:
        """The name's look-alike key (:mod:`.look_alikes`), or ``code`` when it looks like
        one of ``reserved`` (a bot level, "Former player", "admin", ...) or has the word
        "bot" (a seat a bot plays shows "Expert bot", "bot for Ann")."""
        key = look_alike_key(name)
        if key in reserved:
            raise AccountError(code, f"{name} looks like a reserved name; choose another", status)
        if any(word in BOT_WORDS for word in words(key)):
            raise AccountError(
                code, "a person's name cannot have the word 'bot'; choose another", status
            )
        return key

    async def check_guest_name(self, name: str, own: str | None = None) -> None:
        """A guest (a seat, Play now, a spectator's chat line) may not go by an account's
        name (compared as account names are: NFKC, casefolded), nor by one that looks like
        an account's or a reserved one (:mod:`.look_alikes`), so that nobody passes for an
        account or a bot at a table: ``409 account_name`` telling them to log in as that
        account or pick another name; ``422 bad_name`` for a reserved look-alike. ``own``:
        the id of the signed-in account asking, which may go by its own name."""
        look_alike = self._check_look_alike(name, self.bot_look_alikes, "bad_name", 422)
        found = await self.store.by_key(name_key(name))
        if found is not None and found.account.id != own:
            holder = found.account
            raise AccountError(
                "account_name",
                f"{holder.name} is an account's name: log in as {holder.name} to sit "
                "under it, or choose another name",
                409,
            )
        twin = await self.store.by_look_alike(look_alike)
        if twin is not None and twin.account.id != own:
            raise AccountError(
                "account_name",
                f"{name} looks like the account {twin.account.name}: log in as "
                f"{twin.account.name} to sit under it, or choose another name",
                409,
            )

    async def link_seats(
        self, account: Account, tokens: Sequence[str], tables: HeldTables | None = None
    ) -> int:
        """Give the seats these tokens hold (a guest's, from their browser) to the account.
        The ``tables`` held in memory with such a seat read their seats again, so that the
        seat shows its account at once (the table page links it to the profile)."""
        hashes = [hash_secret(t) for t in tokens[:SEAT_LIMIT] if 0 < len(t) <= 128]
        if not hashes:
            return 0
        linked = await self.store.link_seats(account.id, hashes)
        if linked and tables is not None:
            wanted = set(hashes)
            for table in tables.held_tables():
                if any(s.token_hash in wanted and s.account is None for s in table.seats):
                    await _refresh(tables, table)
        return linked

    async def seats(self, account: Account) -> list[HeldSeat]:
        return await self.store.seats_of(account.id, SEAT_LIMIT)

    async def claim_seat(
        self, account: Account, tables: HeldTables, table: LiveTable, seat: int
    ) -> str:
        """A new token for a seat the account holds at ``table``, replacing the old one:
        the seat moves to the device that asked (the other device's token stops opening
        it; a connection already open keeps playing until it reconnects). ``not_yours``
        if the account does not hold the seat."""
        if not 0 <= seat < table.players:
            raise AccountError("not_yours", "your account holds no such seat", 404)
        token = secrets.token_urlsafe(32)
        digest = hash_secret(token)
        if not await self.store.set_seat_token(table.id, seat, account.id, digest):
            raise AccountError("not_yours", "your account holds no such seat", 404)
        # The table's owner reads the seats again and shows them to its replicas, and
        # this process reads them too: the new token opens the seat on every process.
        await _refresh(tables, table)
        return token


async def _refresh(tables: HeldTables, table: LiveTable) -> None:
    """The table's seats as stored, read again by its owner (which shows them to its
    replicas) and by this process."""
    try:
        await tables.refresh(table)
    except DomainError as refusal:
        raise AccountError("unavailable", refusal.message, 503) from None


def same_secret(a: str, b: str) -> bool:
    """Constant-time comparison of two secrets (CSRF tokens)."""
    return hmac.compare_digest(a.encode(), b.encode())


__all__ = [
    "Account",
    "AccountError",
    "AccountRecord",
    "AccountStore",
    "Accounts",
    "Attempts",
    "HeldSeat",
    "NameTaken",
    "NewSession",
    "Session",
    "SessionRecord",
    "StoreUnavailable",
    "check_name",
    "check_password",
    "hash_secret",
    "name_key",
    "same_secret",
]
