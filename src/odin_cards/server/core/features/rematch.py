"""A rematch: at a finished table each player accepts or declines another game.

The next table starts once every person seated at the table has answered and at least one
accepted, or earlier when an accepting player starts it without those who have not
answered (people who left do not hold the others up). Only those who accepted are seated
again (their tokens hold the new seats); bots keep their seats; the seat of anyone who
declined or did not answer is given to a bot or left open for someone new, as the
accepting players choose (``declined``: ``"bot"`` or ``"open"``, the latest choice
counts). With an open seat the new table waits for players like any new table.

Everyone at the table sees the answers live (a ``rematch`` message). The answers are
stored (migration 0007), so a restart or a new owner keeps them. With several processes
an answer goes to the table's owner (``op: "rematch"``), which alone starts the next
table: two answers at once never make two tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from odin_cards.games import plugin_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import SocialStore, StoreUnavailable
from odin_cards.server.core.protocol.server import RematchShown, encode
from odin_cards.server.core.tables.cluster import NotOwner
from odin_cards.server.core.tables.sessions import Session
from odin_cards.server.core.tables.table import LiveTable

if TYPE_CHECKING:
    from odin_cards.server.core.tables.hall import Hall

ANSWERS = ("accept", "decline")
DECLINED = ("bot", "open")

SeatPlan = tuple[str | None, str | None, str | None]
"""A seat of the next table: (name, bot level, token hash)."""


def rematch_json(table: LiveTable, state: Mapping[str, Any]) -> dict[str, Any]:
    """The rematch as the protocol shows it: answers by seat, the choice for declined
    seats, who has not answered, and the next table once it started."""
    answers: dict[str, str] = dict(state.get("answers", {}))
    return {
        "answers": answers,
        "declined": state.get("declined", "bot"),
        "waiting_for": [seat for seat in table.people if str(seat) not in answers],
        "next_table": table.next_table,
    }


def plan_seats(table: LiveTable, answers: Mapping[str, str], declined: str) -> list[SeatPlan]:
    """The next table's seats: those who accepted keep theirs, bots stay, every other
    person's seat goes to a bot or is left open."""
    stand_in = plugin_of(table.game_key).stand_in_level()
    plan: list[SeatPlan] = []
    for seat in table.seats:
        if seat.name is None:
            plan.append((None, seat.bot, None))
        elif answers.get(str(seat.seat)) == "accept":
            plan.append((seat.name, None, seat.token_hash))
        elif declined == "bot" and stand_in is not None:
            plan.append((None, stand_in, None))
        else:
            plan.append((None, None, None))
    return plan


class Rematches:
    """The rematches of the tables this process holds (the hall's partner)."""

    def __init__(self, hall: Hall, store: SocialStore | None) -> None:
        self.hall = hall
        self.store = store
        self._states: dict[str, dict[str, Any]] = {}

    def _store(self) -> SocialStore:
        if self.store is None:
            raise DomainError("unavailable", "this server keeps no rematches")
        return self.store

    async def state(self, table: LiveTable) -> dict[str, Any]:
        """The table's answers so far (read from the store the first time)."""
        known = self._states.get(table.id)
        if known is None:
            try:
                known = await self._store().rematch_of(table.id) or {}
            except StoreUnavailable:
                raise DomainError("unavailable", "the rematch cannot be read now") from None
            self._states[table.id] = known
        return known

    async def answer(
        self, table: LiveTable, token: str, answer: str, declined: str | None, now: bool
    ) -> dict[str, Any]:
        """A player's answer (``token`` holds the seat); the rematch after it."""
        seat = table.seat_of(token)
        if seat is None:
            raise DomainError("unauthorized", "only a player of this table answers a rematch")
        _check(answer, declined, now)
        request = {"op": "rematch", "seat": seat, "answer": answer, "declined": declined}
        request["now"] = now
        peers = self.hall.peers
        while peers is not None and not table.owned:
            reply = await peers.route(table, request)
            if reply is None:
                break
            if "error" in reply:
                raise DomainError(str(reply["error"]), str(reply["message"]))
            if reply.get("next_table") is not None:
                table.next_table = str(reply["next_table"])  # before the fan-out comes
            return dict(reply)
        try:
            return await self.answer_here(table, seat, answer, declined, now)
        except NotOwner:
            raise DomainError("unavailable", "the table is changing hands; try again") from None

    async def answer_here(
        self, table: LiveTable, seat: int, answer: str, declined: str | None, now: bool
    ) -> dict[str, Any]:
        """Record the answer, start the next table when it is time (this process owns it)."""
        _check(answer, declined, now)
        store = self._store()
        async with table.lock:
            if not table.owned:
                raise NotOwner(table.id)
            if table.status != "finished":
                raise DomainError("not_finished", "the game is still being played")
            if table.seats[seat].name is None:
                raise DomainError("unauthorized", "only a player of this table answers a rematch")
            try:  # as stored, not as cached: a new owner may have missed answers
                state = await store.rematch_of(table.id) or {}
            except StoreUnavailable:
                raise DomainError("unavailable", "the rematch cannot be read now") from None
            self._states[table.id] = state
            if table.next_table is not None:
                return rematch_json(table, state)  # it started: answers are closed
            answers = {**state.get("answers", {}), str(seat): answer}
            new = {"answers": answers, "declined": state.get("declined", "bot")}
            if answer == "accept" and declined is not None:
                new["declined"] = declined
            try:
                await store.save_rematch(table.id, new)
            except StoreUnavailable:
                self._states.pop(table.id, None)
                raise DomainError("unavailable", "the answer cannot be stored now") from None
            self._states[table.id] = new
            accepted = [s for s, a in answers.items() if a == "accept"]
            everyone = all(str(s) in answers for s in table.people)
            if accepted and (everyone or (now and answer == "accept")):
                plan = plan_seats(table, answers, str(new["declined"]))
                await self.hall.start_following(table, plan)
            self.tell(table)
            return rematch_json(table, new)

    def tell(self, table: LiveTable) -> None:
        """Send the rematch to everyone at the table here, and to the other processes."""
        state = self._states.get(table.id)
        if state is None:
            return
        shown = rematch_json(table, state)
        text = encode(RematchShown(shown))
        for session in self.hall.sessions.at(table.id):
            session.send_text(text)
        if self.hall.peers is not None and table.owned:
            self.hall.peers.bus.publish(table.id, {"kind": "rematch", "state": state})

    def heard(self, table: LiveTable, message: Mapping[str, Any]) -> None:
        """A replica hears the owner's rematch."""
        state = message.get("state")
        if isinstance(state, dict):
            self._states[table.id] = state
            self.tell(table)

    async def welcome(self, table: LiveTable, session: Session) -> None:
        """A new connection to a finished table is sent the rematch so far."""
        if table.status != "finished" or self.store is None:
            return
        try:
            state = await self.state(table)
        except DomainError:
            return
        if state:
            shown = rematch_json(table, state)
            session.send(RematchShown(shown))

    def forget(self, table_id: str) -> None:
        self._states.pop(table_id, None)


def _check(answer: str, declined: str | None, now: bool) -> None:
    if answer not in ANSWERS:
        raise DomainError("bad_rematch", "answer accept or decline")
    if declined is not None and (answer != "accept" or declined not in DECLINED):
        raise DomainError("bad_rematch", "declined seats go to a bot or stay open (with accept)")
    if now and answer != "accept":
        raise DomainError("bad_rematch", "only a player who accepts can start without the others")
