"""The facade of In the Name of Odin's core: :class:`Game` and :class:`GameRecord`, the
contract's ``GameState`` and ``Record``.

The core is layered so that it imports downwards only: the card set, the notation and the
id space at the bottom; the state (:mod:`.state`) and its set-up (:mod:`.setup`); the legal
actions (:mod:`.legal`) and the moves (:mod:`.moves`) over it; what is built from a state
(views in :mod:`.view`, records and their replay in :mod:`.record`); and this module on
top. The contract's methods join those layers, so they live here: :class:`Game` is
:class:`~.state.State` plus them and no field, :class:`GameRecord` is
:class:`~.record.RecordData` plus ``replay``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self

from odin_cards.contract import ActionLike
from odin_cards.name_of_odin.rules.actions import Action, parse
from odin_cards.name_of_odin.rules.legal import legal
from odin_cards.name_of_odin.rules.moves import apply
from odin_cards.name_of_odin.rules.record import RecordData, replayed
from odin_cards.name_of_odin.rules.setup import start as set_up
from odin_cards.name_of_odin.rules.state import Event, State
from odin_cards.name_of_odin.rules.view import view_of


class Game(State):
    """A game of In the Name of Odin: its state (the fields of :class:`~.state.State`), its
    legal actions and their ids, its moves, views and record."""

    __slots__ = ()

    @classmethod
    def new(
        cls,
        players: int,
        setup: Mapping[str, Any],
        seed: int | str,
        chance: Sequence[Any] | None = None,
    ) -> Self:
        """A new game (see :func:`.setup.start`); :class:`SetupRefusedError` if refused."""
        return set_up(cls, players, setup, seed, chance)

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take now, in canonical order."""
        return legal(self)

    def legal_action_ids(self) -> list[int]:
        """The ids of the legal actions (in this card set's space), ascending."""
        return sorted(self.space.id_of(a) for a in legal(self))

    def legal_mask(self) -> list[bool]:
        """One flag per id of this card set's space (``space.size``): ``True`` where legal."""
        mask = [False] * self.space.size
        for action in legal(self):
            mask[self.space.id_of(action)] = True
        return mask

    def parse(self, text: str) -> Action:
        """The action ``text`` writes, numbered in this game's space (legal or not)."""
        return parse(text, self.space)

    def apply(self, action: ActionLike | str | int, seat: int | None = None) -> list[Event]:
        """Validate and apply one action: an :class:`Action`, its text or its id. A refused
        one raises and changes nothing."""
        return apply(self, action, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see (see :mod:`.view`)."""
        return view_of(self, seat)

    def public_events(self, start: int = 0) -> list[dict[str, Any]]:
        start = max(start, 0)
        return [
            {"index": index, "type": event.kind, **event.public}
            for index, event in enumerate(self.history[start:], start=start)
        ]

    def record(self) -> GameRecord:
        return GameRecord.of(self)


class GameRecord(RecordData):
    """A game of In the Name of Odin as a replayable record (see :mod:`.record`)."""

    __slots__ = ()

    def replay(self) -> Game:
        """The game rebuilt action by action; :class:`RecordError` if it does not replay."""
        return replayed(self, Game)
