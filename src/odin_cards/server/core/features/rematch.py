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
from typing import Any, Protocol

from odin_cards.games import plugin_of
from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.ports import SocialStore, StoreUnavailable
from odin_cards.server.core.protocol.process import (
    Answer,
    AnswerRematch,
    BusMessage,
    Command,
    Rematch,
    RematchState,
)
from odin_cards.server.core.protocol.server import RematchShown, ServerMessage
from odin_cards.server.core.tables.ownership import Commands, Listeners, NotOwner
from odin_cards.server.core.tables.sessions import Session
from odin_cards.server.core.tables.table import LiveTable

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


class RematchContext(Protocol):
    """What a rematch needs of the core: the owner, starting the next table, telling the
    table's sessions and the other processes."""

    @property
    def commands(self) -> Commands: ...

    @property
    def listeners(self) -> Listeners: ...

    def owns(self, table: LiveTable) -> bool: ...

    async def execute(self, table: LiveTable, command: Command) -> Answer: ...

    async def start_following(self, table: LiveTable, plan: list[SeatPlan]) -> LiveTable: ...

    def tell(self, table: LiveTable, message: ServerMessage) -> None: ...

    def publish(self, table: LiveTable, message: BusMessage) -> None: ...


class Rematches:
    """The rematches of the tables this process holds (the command ``AnswerRematch``)."""

    def __init__(self, context: RematchContext, store: SocialStore | None) -> None:
        self.context = context
        self.store = store
        self._states: dict[str, dict[str, Any]] = {}
        context.commands.on(AnswerRematch, self._answer)
        context.listeners.on(RematchState, self._heard)

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
        reply = await self.context.execute(table, AnswerRematch(seat, answer, declined, now))
        assert isinstance(reply, Rematch)
        if reply.rematch.get("next_table") is not None:
            table.next_table = str(reply.rematch["next_table"])  # (a replica: before its fan-out)
        return reply.rematch

    async def _answer(self, table: LiveTable, command: AnswerRematch) -> Answer:
        shown = await self.answer_here(
            table, command.seat, command.answer, command.declined, command.now
        )
        return Rematch(shown)

    async def answer_here(
        self, table: LiveTable, seat: int, answer: str, declined: str | None, now: bool
    ) -> dict[str, Any]:
        """Record the answer, start the next table when it is time (this process owns it)."""
        _check(answer, declined, now)
        store = self._store()
        async with table.lock:
            if not self.context.owns(table):
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
                await self.context.start_following(table, plan)
            self.tell(table)
            return rematch_json(table, new)

    def tell(self, table: LiveTable) -> None:
        """Send the rematch to everyone at the table here, and to the other processes."""
        state = self._states.get(table.id)
        if state is None:
            return
        self.context.tell(table, RematchShown(rematch_json(table, state)))
        if self.context.owns(table):
            self.context.publish(table, RematchState(state))

    async def _heard(self, table: LiveTable, message: RematchState) -> None:
        """A replica hears the owner's rematch."""
        if not self.context.owns(table):
            self._states[table.id] = message.state
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
