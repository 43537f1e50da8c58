"""Game records: every chance event and action of a game, as JSON, and their replay.

A record is secret while its game runs (it holds every deal); views are what seats
get. Replaying a record rebuilds the identical game, history included, and checks the
outcome it stores. :class:`RecordData` is the record as data (every format read, the
current one written, the encoder of a state's history) and :func:`replayed` its replay
into a state of any class; the facade (:mod:`.game`) joins them as
:class:`~.game.GameRecord`, whose ``replay()`` returns a :class:`~.game.Game`.

Formats (``"format"``): ``odin-cards-record/3`` (written now) always holds the
``removal`` option; ``odin-cards-record/2`` (0.2 before that option) adds ``"game":
"odin"``, the key of the rules in :mod:`odin_cards.games`, to ``odin-cards-record/1``
(written by 0.1, no ``"game"``). Both older formats still load and replay: their games
were dealt before the option existed, so a 4-colour game among them left out ``any-two``
colours (the option they cannot hold).

A finished game's record also carries its ``"statistics"`` (:mod:`.statistics`), derived
from its moves and checked on replay like the outcome; records without them still load.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Self, TypeVar

from odin_cards.odin.rules.cards import CARD_TEXT, cards_of
from odin_cards.odin.rules.errors import OdinError, OptionsError, RecordError
from odin_cards.odin.rules.events import Deal, Pass, Play, Take
from odin_cards.odin.rules.options import Options
from odin_cards.odin.rules.state import State
from odin_cards.odin.rules.statistics import game_statistics

GAME: Final = "odin"
"""The key of Odin's rules (``odin_cards.games.GAMES``)."""
FORMAT: Final = "odin-cards-record/3"
"""The format written."""
FORMAT_V2: Final = "odin-cards-record/2"
"""Written before the ``removal`` option: a 4-colour game in it removed ``any-two``."""
FORMAT_V1: Final = "odin-cards-record/1"
"""The 0.1 format: no ``"game"`` key; otherwise read as ``FORMAT_V2``."""
FORMATS: Final = (FORMAT, FORMAT_V2, FORMAT_V1)

S = TypeVar("S", bound=State)


@dataclass(frozen=True, slots=True)
class RecordData:
    """A record as data: what :class:`~.game.GameRecord` holds, reads and writes."""

    players: int
    options: Options
    seed: int | str
    events: tuple[dict[str, Any], ...]
    """``{"deal": [[cards of seat 0], ...], "leader": seat}`` or ``{"seat": s, "action": text}``."""
    outcome: dict[str, Any] | None = None
    """``{"scores": [...], "winners": [...], "hands_played": n}`` once the game is over."""
    statistics: dict[str, Any] | None = None
    """The finished game's figures (:mod:`.statistics`); ``None`` while it runs, and in
    records written before they existed (replaying such a record computes them)."""

    @property
    def game(self) -> str:
        """The key of the game's rules: ``"odin"``."""
        return GAME

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": GAME,
            "players": self.players,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "events": list(self.events),
            "outcome": self.outcome,
            **({} if self.statistics is None else {"statistics": self.statistics}),
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def of(cls, game: State) -> Self:
        """The record of ``game``: the one encoder of the history for records."""
        events: list[dict[str, Any]] = []
        for event in game.history:
            match event:
                case Deal(leader, hands):
                    cards = [[CARD_TEXT[c] for c in cards_of(m)] for m in hands]
                    events.append({"deal": cards, "leader": leader})
                case Play() | Pass() | Take():
                    events.append({"seat": event.seat, "action": event.action.text})
        return cls(
            players=game.players,
            options=game.options,
            seed=game.seed,
            events=tuple(events),
            outcome=_outcome(game),
            statistics=_statistics(game),
        )

    @classmethod
    def from_dict(cls, data: Any) -> Self:
        """Read a record of any format; :class:`RecordError` if it is not one."""
        if not isinstance(data, Mapping) or data.get("format") not in FORMATS:
            raise RecordError(f"not an Odin game record (expected format {FORMAT!r})")
        if data["format"] != FORMAT_V1 and data.get("game") != GAME:
            raise RecordError(f"not a record of Odin: game {data.get('game')!r}")
        try:
            options = Options.from_dict(data["options"])
            if data["format"] != FORMAT:
                options = _before_removal(options, data["options"])
            events = data["events"]
            if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
                raise RecordError("broken game record: events are a list of objects")
            outcome = data.get("outcome")
            if outcome is not None and not isinstance(outcome, dict):
                raise RecordError("broken game record: the outcome is an object")
            statistics = data.get("statistics")
            if statistics is not None and not isinstance(statistics, dict):
                raise RecordError("broken game record: the statistics are an object")
            return cls(data["players"], options, data["seed"], tuple(events), outcome, statistics)
        except KeyError as error:
            raise RecordError(f"broken game record: no {error} field") from None
        except (TypeError, OptionsError) as error:
            raise RecordError(f"broken game record: {error}") from None

    @classmethod
    def from_json(cls, text: str) -> Self:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"a game record is JSON: {error}") from None
        return cls.from_dict(data)


def replayed(record: RecordData, kind: type[S]) -> S:
    """The game ``record`` holds, as a ``kind`` (:class:`State` or the facade
    :class:`~.game.Game`); a record that the rules do not accept raises :class:`RecordError`.

    So does a record whose stored outcome (or statistics) is not the one its actions lead to.
    """
    deals: Sequence[Any] = [e["deal"] for e in record.events if "deal" in e]
    try:
        game = kind.new(record.players, record.options, record.seed, deals=deals)
        dealt = 0
        for number, event in enumerate(record.events):
            if "deal" in event:
                if dealt and (game.history[-1].kind != "deal" or game.hand_number != dealt):
                    raise RecordError(f"event {number}: a deal before the hand ended")
                if event.get("leader") != game.hand_leader:
                    raise RecordError(
                        f"event {number}: the record says seat {event.get('leader')} leads,"
                        f" the rules say seat {game.hand_leader}"
                    )
                dealt += 1
                continue
            game.apply(event["action"], seat=event["seat"])
    except RecordError:
        raise
    except (OdinError, KeyError, TypeError) as error:
        raise RecordError(f"the record does not replay: {error}") from None
    if record.outcome is not None and record.outcome != _outcome(game):
        raise RecordError(
            f"the stored outcome {json.dumps(record.outcome)} is not the one the moves lead"
            f" to ({json.dumps(_outcome(game))})"
        )
    if record.statistics is not None and record.statistics != _statistics(game):
        raise RecordError("the stored statistics are not the ones the moves lead to")
    return game


def _before_removal(options: Options, written: Mapping[str, Any]) -> Options:
    """The options of a record written before ``removal`` existed: its 4-colour games
    removed any two colours. The key in such a record is an error, not a choice."""
    if "removal" in written:
        raise RecordError(
            f"broken game record: 'removal' is an option of format {FORMAT!r}, not of older records"
        )
    return replace(options, removal="any-two") if options.colours == 4 else options


def _outcome(game: State) -> dict[str, Any] | None:
    outcome = game.outcome
    if outcome is None:
        return None
    return {
        "scores": list(outcome.scores),
        "winners": list(outcome.winners),
        "hands_played": outcome.hands_played,
    }


def _statistics(game: State) -> dict[str, Any] | None:
    """A finished game's figures; ``None`` while it runs."""
    if game.outcome is None:
        return None
    return game_statistics(game.history, game.players).to_dict()
