"""Game records: every chance event and action of a game, as JSON, and their replay.

A record is secret while its game runs (it holds every deal); views are what seats
get. Replaying a record rebuilds the identical :class:`Game`, history included.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import CARD_TEXT, cards_of
from .errors import OdinError, OptionsError, RecordError
from .options import Options

if TYPE_CHECKING:
    from .game import Game

FORMAT = "odin-cards-record/1"


@dataclass(frozen=True, slots=True)
class GameRecord:
    players: int
    options: Options
    seed: int | str
    events: tuple[dict[str, Any], ...]
    """``{"deal": [[cards of seat 0], ...], "leader": seat}`` or ``{"seat": s, "action": text}``."""
    outcome: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "players": self.players,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "events": list(self.events),
            "outcome": self.outcome,
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not an Odin game record (expected format {FORMAT!r})")
        try:
            options = Options.from_dict(data["options"])
            events = tuple(data["events"])
            return cls(data["players"], options, data["seed"], events, data.get("outcome"))
        except KeyError as error:
            raise RecordError(f"broken game record: no {error} field") from None
        except (TypeError, OptionsError) as error:
            raise RecordError(f"broken game record: {error}") from None

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"a game record is JSON: {error}") from None
        return cls.from_dict(data)

    def replay(self) -> Game:
        """Rebuild the game; a record that the rules do not accept raises RecordError."""
        from .game import Game

        deals = [e["deal"] for e in self.events if "deal" in e]
        try:
            game = Game.new(self.players, self.options, self.seed, deals=deals)
            dealt = 0
            for number, event in enumerate(self.events):
                if "deal" in event:
                    if dealt and (game.history[-1][0] != "deal" or game.hand_number != dealt):
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
        return game


def make_record(game: Game) -> GameRecord:
    events: list[dict[str, Any]] = []
    for kind, seat, data in game.history:
        if kind == "deal":
            assert isinstance(data, tuple)
            hands = [[CARD_TEXT[c] for c in cards_of(m)] for m in data]
            events.append({"deal": hands, "leader": seat})
        elif kind == "play":
            assert isinstance(data, Action)
            events.append({"seat": seat, "action": data.text})
        elif kind == "take":
            assert isinstance(data, int)
            events.append({"seat": seat, "action": f"take {CARD_TEXT[data]}"})
        elif kind == "pass":
            events.append({"seat": seat, "action": "pass"})
    outcome = game.outcome
    return GameRecord(
        players=game.players,
        options=game.options,
        seed=game.seed,
        events=tuple(events),
        outcome=None
        if outcome is None
        else {
            "scores": list(outcome.scores),
            "winners": list(outcome.winners),
            "hands_played": outcome.hands_played,
        },
    )
