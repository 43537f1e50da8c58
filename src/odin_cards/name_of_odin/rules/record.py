"""Records of In the Name of Odin: set-up, seed, injected chance and every action, as JSON.

Format ``name-of-odin-record/1``::

    {"format": "name-of-odin-record/1", "game": "name-of-odin", "players": 4,
     "setup": {"cards": "starter", "first_player": null}, "seed": 7, "chance": null,
     "actions": [[seat, "action text"], ...], "outcome": {...} | null}

A record holds the seed, so it is secret while its game runs. Replaying it rebuilds the
identical game and checks the stored outcome. :class:`RecordData` is the record as data
and :func:`replayed` its replay into a state of any class; the facade (:mod:`.game`) joins
them as :class:`~.game.GameRecord`, whose ``replay()`` returns a :class:`~.game.Game`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Self, TypeVar

from odin_cards.name_of_odin.rules.errors import NameOfOdinError, RecordError
from odin_cards.name_of_odin.rules.moves import apply
from odin_cards.name_of_odin.rules.setup import start
from odin_cards.name_of_odin.rules.state import State

FORMAT: Final = "name-of-odin-record/1"
GAME: Final = "name-of-odin"
MAX_ACTIONS: Final = 200_000

S = TypeVar("S", bound=State)


@dataclass(frozen=True, slots=True)
class RecordData:
    """A record as data: what :class:`~.game.GameRecord` holds, reads and writes."""

    players: int
    setup: Mapping[str, Any]
    seed: int | str
    chance: Mapping[str, Any] | None
    actions: tuple[tuple[int, str], ...]
    outcome: Mapping[str, Any] | None = None

    @property
    def game(self) -> str:
        return GAME

    @classmethod
    def of(cls, game: State) -> Self:
        """The record of ``game`` so far."""
        outcome = None if game.outcome is None else game.outcome.to_dict()
        return cls(
            game.players, dict(game.setup), game.seed, game.chance, tuple(game.actions), outcome
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": GAME,
            "players": self.players,
            "setup": dict(self.setup),
            "seed": self.seed,
            "chance": None if self.chance is None else dict(self.chance),
            "actions": [[seat, text] for seat, text in self.actions],
            "outcome": None if self.outcome is None else dict(self.outcome),
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> Self:
        """A record from its dict; :class:`RecordError` if it is not one."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise RecordError(f"not a record of In the Name of Odin (expected format {FORMAT!r})")
        if data.get("game") != GAME:
            raise RecordError(f"not a record of In the Name of Odin: game {data.get('game')!r}")
        try:
            players, setup, seed = data["players"], data["setup"], data["seed"]
            chance, actions, outcome = data.get("chance"), data["actions"], data.get("outcome")
        except KeyError as error:
            raise RecordError(f"broken record: no {error} field") from None
        if isinstance(players, bool) or not isinstance(players, int):
            raise RecordError("broken record: players is a whole number")
        if not isinstance(setup, Mapping) or (
            chance is not None and not isinstance(chance, Mapping)
        ):
            raise RecordError("broken record: setup and chance are objects")
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise RecordError("broken record: the seed is a whole number or a text")
        if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
            raise RecordError(f"broken record: actions is a list of at most {MAX_ACTIONS}")
        steps: list[tuple[int, str]] = []
        for number, step in enumerate(actions):
            if (
                not isinstance(step, list)
                or len(step) != 2
                or isinstance(step[0], bool)
                or not isinstance(step[0], int)
                or not isinstance(step[1], str)
            ):
                raise RecordError(f"broken record: action {number} is [seat, text]")
            steps.append((step[0], step[1]))
        if outcome is not None and not isinstance(outcome, Mapping):
            raise RecordError("broken record: the outcome is an object")
        return cls(
            players,
            dict(setup),
            seed,
            None if chance is None else dict(chance),
            tuple(steps),
            outcome,
        )

    @classmethod
    def from_json(cls, text: str) -> Self:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"a record is JSON: {error}") from None
        return cls.from_dict(data)


def replayed(record: RecordData, kind: type[S]) -> S:
    """The game ``record`` holds, rebuilt action by action as a ``kind`` (:class:`State`
    or the facade :class:`~.game.Game`); :class:`RecordError` if it does not replay."""
    try:
        chance = None if record.chance is None else [record.chance]
        game = start(kind, record.players, record.setup, record.seed, chance)
        for number, (seat, text) in enumerate(record.actions):
            try:
                apply(game, text, seat)
            except NameOfOdinError as error:
                raise RecordError(f"action {number} ({text!r}) does not replay: {error}") from None
    except RecordError:
        raise
    except NameOfOdinError as error:
        raise RecordError(f"the record does not replay: {error}") from None
    stored = None if record.outcome is None else json.loads(json.dumps(dict(record.outcome)))
    actual = None if game.outcome is None else game.outcome.to_dict()
    if stored is not None and stored != actual:
        raise RecordError(
            f"the stored outcome {json.dumps(stored)} is not the one the actions lead to"
            f" ({json.dumps(actual)})"
        )
    return game
