"""Who may find, join and change a waiting table: visibility, its creator, locked seats.

A *public* table is listed in the lobby; a *private* one never is: only its invite link
leads to it (``settings["visibility"]``). Whoever creates a table gets a *creator token*
(only its hash is stored) with which, while the table waits for players, they may cancel
it (nobody can sit any more; its page says so) or lock a free seat (nobody may take it)
and free it again. A waiting table nobody completes closes by itself after
``waiting_expiry`` (the hall's expiry); its API view says when (``closes_at``).

Changes happen on the table's owner: a replica routes them (ops ``cancel`` and ``lock``)
with the token's hash, never the token.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import SeatTaken
from odin_cards.server.core.tables.cluster import NotOwner
from odin_cards.server.core.tables.table import LiveTable, hash_token

if TYPE_CHECKING:
    from odin_cards.server.core.tables.hall import Hall

VISIBILITIES = ("public", "private")
"""``settings["visibility"]``: listed in the lobby, or reached by its invite link only."""


def visibility(value: Any) -> str:
    """The normalized ``settings["visibility"]`` (absent: ``public``), or ``bad_options``."""
    if value is None:
        return "public"
    if value not in VISIBILITIES:
        raise DomainError("bad_options", "visibility is public or private")
    return str(value)


def listed(settings: Mapping[str, Any]) -> bool:
    """Whether a table with these settings is shown in the lobby's lists."""
    return bool(settings.get("visibility", "public") != "private")


def new_creator_token() -> tuple[str, str]:
    """A creator token (given once to the creator) and its hash (stored)."""
    token = secrets.token_urlsafe(24)
    return token, hash_token(token)


def _is_creator(table: LiveTable, digest: str) -> bool:
    return table.creator_hash is not None and secrets.compare_digest(table.creator_hash, digest)


def _refusal(answer: Mapping[str, Any]) -> DomainError:
    return DomainError(str(answer["error"]), str(answer["message"]))


class Access:
    """The creator's powers over a waiting table; the hall's partner, like its peers."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall

    # ------------------------------------------------------------ cancel

    async def cancel(self, table: LiveTable, token: str) -> None:
        """Cancel the waiting ``table`` (``token``: the creator's)."""
        digest = hash_token(token)
        if table.status in ("cancelled", "expired"):  # closed: nobody owns it any more
            if not _is_creator(table, digest):
                raise DomainError("unauthorized", "only the table's creator can cancel it")
            if table.status == "expired":
                check_open(table)
            return  # a second try of a cancel whose answer was lost
        peers = self.hall.peers
        if peers is not None and not table.owned:
            answer = await peers.route(table, {"op": "cancel", "hash": digest})
            if answer is not None:
                if "error" in answer:
                    raise _refusal(answer)
                table.status = "cancelled"  # the owner's fan-out says so too
                return
        try:
            await self.cancel_here(table, digest)
        except NotOwner:
            raise DomainError("unavailable", "the table is changing hands; try again") from None

    async def cancel_here(self, table: LiveTable, digest: str) -> None:
        """:meth:`cancel` on the table's owner (``digest``: the token's hash)."""
        hall = self.hall
        async with table.lock:
            if not table.owned:
                raise NotOwner(table.id)
            if not _is_creator(table, digest):
                raise DomainError("unauthorized", "only the table's creator can cancel it")
            if table.status == "cancelled":
                return  # a second try of a cancel whose answer was lost
            if table.status != "waiting":
                raise DomainError("started", "the game has started: it can no longer be cancelled")
            await hall._write(
                hall.store.set_status(table.id, "cancelled"),
                table.id,
                lambda stored: stored.table.status == "cancelled",
            )
            table.status = "cancelled"
            hall._announce(table)
            hall.drop(table)

    # ------------------------------------------------------------ lock / free

    async def lock(self, table: LiveTable, seat: int, locked: bool, token: str) -> None:
        """Lock the free ``seat`` (nobody may take it) or free it (``token``: the creator's)."""
        if not 0 <= seat < table.players:
            raise DomainError("no_seat", f"this table has seats 0 to {table.players - 1}")
        check_open(table)
        digest = hash_token(token)
        peers = self.hall.peers
        if peers is not None and not table.owned:
            request = {"op": "lock", "seat": seat, "locked": locked, "hash": digest}
            answer = await peers.route(table, request)
            if answer is not None:
                if "error" in answer:
                    raise _refusal(answer)
                table.seats[seat].locked = locked  # the owner's fan-out says so too
                return
        try:
            await self.lock_here(table, seat, locked, digest)
        except NotOwner:
            raise DomainError("unavailable", "the table is changing hands; try again") from None

    async def lock_here(self, table: LiveTable, seat: int, locked: bool, digest: str) -> None:
        """:meth:`lock` on the table's owner."""
        hall = self.hall
        async with table.lock:
            if not table.owned:
                raise NotOwner(table.id)
            if not 0 <= seat < table.players:
                raise DomainError("no_seat", f"this table has seats 0 to {table.players - 1}")
            if not _is_creator(table, digest):
                raise DomainError("unauthorized", "only the table's creator can lock seats")
            if table.status != "waiting":
                raise DomainError("started", "seats can be locked only while the table waits")
            place = table.seats[seat]
            if place.taken:
                raise DomainError("taken", f"seat {seat} is taken")
            if place.locked == locked:
                return
            try:
                await hall._write(
                    hall.store.lock_seat(table.id, seat, locked),
                    table.id,
                    lambda stored: stored.table.seats[seat].locked == locked,
                )
            except SeatTaken:
                raise DomainError("taken", f"seat {seat} is taken") from None
            place.locked = locked
            hall._announce(table)


def check_open(table: LiveTable) -> None:
    """Refuse a seat at a closed table (its status never changes again: a replica
    answers without asking the owner, which no longer holds it)."""
    if table.status == "expired":
        raise DomainError("expired", "nobody joined this table for too long; it closed")
    if table.status == "cancelled":
        raise DomainError("cancelled", "the creator cancelled this table")


def check_seat_open(table: LiveTable, seat: int) -> None:
    """Refuse a seat at a closed table, or a seat its creator locked."""
    check_open(table)
    if table.seats[seat].locked:
        raise DomainError("locked", f"seat {seat} is kept free by the table's creator")
