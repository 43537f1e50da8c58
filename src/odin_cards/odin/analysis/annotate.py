"""A finished game, move by move: what the search preferred, what the move cost, who erred.

Each decision with a choice is judged by :func:`.engine.move_values` from the view of the
seat that made it (its hand, the table, what was public), never from the record's other
hands: the dice of each judgement are seeded by the analysis seed and the move's number
only, so a move's note is the same whatever the hidden cards were.

A move's *loss* is how many points of hand margin (opponents' mean points minus the seat's
own, as the search expected them) the move gave up against the search's preferred move,
never below zero. The classes, by loss in points:

- ``inaccuracy``: at least :data:`INACCURACY` (0.75);
- ``mistake``: at least :data:`MISTAKE` (1.5);
- ``blunder``: at least :data:`BLUNDER` (3.0);
- ``best``: the preferred move itself; ``good``: another move within 0.75 of it;
- ``forced``: the only legal move (not judged, not counted).

The figures are the search's estimates from sampled deals: a few tenths of a point are
noise, which is why the lowest class starts at three quarters of a point.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Final

from odin_cards.odin.analysis.engine import move_values
from odin_cards.odin.bots.compiled import prepare
from odin_cards.odin.rules import Game, GameRecord

INACCURACY: Final = 0.75
MISTAKE: Final = 1.5
BLUNDER: Final = 3.0
FORMAT: Final = "odin-cards-analysis/1"

VERDICTS: Final = ("forced", "best", "good", "inaccuracy", "mistake", "blunder")


def verdict_of(loss: float, preferred: bool) -> str:
    """The class of a move that gave up ``loss`` points against the preferred move."""
    if preferred:
        return "best"
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return "good"


@dataclass(frozen=True, slots=True)
class MoveNote:
    """One action of the game and its judgement.

    ``event`` is the action's index in the game's public history (the ``index`` of its
    event in ``docs/api.md``), ``hand`` its 1-based hand. ``expected`` and
    ``best_expected`` are the hand margins the search expected after the move played and
    after its preferred move (``None`` for a forced move).
    """

    event: int
    hand: int
    seat: int
    played: str
    best: str
    choices: int
    expected: float | None
    best_expected: float | None
    loss: float
    verdict: str


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One seat's game: how many choices it had and how they went."""

    seat: int
    decisions: int
    best: int
    inaccuracies: int
    mistakes: int
    blunders: int
    total_loss: float
    mean_loss: float


@dataclass(frozen=True, slots=True)
class Analysis:
    """A whole game's notes and per-seat summaries, with how they were computed."""

    players: int
    iterations: int
    seed: int
    moves: tuple[MoveNote, ...]
    summary: tuple[PlayerSummary, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "players": self.players,
            "iterations": self.iterations,
            "seed": self.seed,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "moves": [asdict(m) for m in self.moves],
            "summary": [asdict(s) for s in self.summary],
        }


Progress = Callable[[int, int], None]
"""Called with (actions done, actions in all) as the analysis goes."""


def judge(game: Game, played: str, iterations: int, seed: int) -> MoveNote:
    """The note of ``played`` (the text of a legal move of the seat to move in ``game``)."""
    seat = game.current_player
    if seat is None:
        raise ValueError("the game is over: there is no move to judge")
    legal = game.legal_actions()
    action = game.parse(played)
    event = len(game.history)
    hand = game.hand_number + 1
    if len(legal) == 1:
        return MoveNote(event, hand, seat, action.text, action.text, 1, None, None, 0.0, "forced")
    preferred, values = move_values(game.view(seat), legal, iterations, random.Random(seed))
    by_id = {v.action.id: v.points for v in values}
    expected = by_id[action.id]
    best_expected = by_id[preferred.id]
    loss = max(0.0, best_expected - expected)
    return MoveNote(
        event,
        hand,
        seat,
        action.text,
        preferred.text,
        len(legal),
        round(expected, 2),
        round(best_expected, 2),
        round(loss, 2),
        verdict_of(loss, action == preferred),
    )


def move_seed(seed: int, number: int) -> int:
    """The dice of the ``number``-th action's judgement: public facts only, never the deal."""
    return (seed * 1_000_003 + number) & 0xFFFF_FFFF_FFFF


def summarise(players: int, moves: list[MoveNote]) -> tuple[PlayerSummary, ...]:
    """Per seat: choices made (forced moves left out), their classes and losses."""
    out = []
    for seat in range(players):
        judged = [m for m in moves if m.seat == seat and m.verdict != "forced"]
        total = round(sum(m.loss for m in judged), 2)
        out.append(
            PlayerSummary(
                seat=seat,
                decisions=len(judged),
                best=sum(1 for m in judged if m.verdict == "best"),
                inaccuracies=sum(1 for m in judged if m.verdict == "inaccuracy"),
                mistakes=sum(1 for m in judged if m.verdict == "mistake"),
                blunders=sum(1 for m in judged if m.verdict == "blunder"),
                total_loss=total,
                mean_loss=round(total / len(judged), 2) if judged else 0.0,
            )
        )
    return tuple(out)


def analyse_game(
    record: GameRecord,
    iterations: int = 400,
    seed: int = 0,
    progress: Progress | None = None,
) -> Analysis:
    """Judge every action of ``record`` (see the module docstring).

    ``iterations`` is the search's budget per decision (fixed, so the analysis is the same
    on any machine). Raises :class:`~odin_cards.odin.rules.errors.RecordError` for a record
    the rules do not accept.
    """
    record.replay()  # a record that does not replay is refused before any search
    deals = [e["deal"] for e in record.events if "deal" in e]
    game = Game.new(record.players, record.options, record.seed, deals=deals)
    actions = [e for e in record.events if "action" in e]
    moves: list[MoveNote] = []
    for number, event in enumerate(actions):
        moves.append(judge(game, event["action"], iterations, move_seed(seed, number)))
        game.apply(event["action"], seat=event["seat"])
        if progress is not None:
            progress(number + 1, len(actions))
    return Analysis(
        record.players, iterations, seed, tuple(moves), summarise(record.players, moves)
    )


def analyse_record(data: Any, iterations: int = 400, seed: int = 0) -> Analysis:
    """:func:`analyse_game` of a record given as its JSON object (``GameRecord.to_dict``)."""
    return analyse_game(GameRecord.from_dict(data), iterations, seed)


def analyse_to_dict(
    data: Any, iterations: int, seed: int = 0, progress: Progress | None = None
) -> dict[str, Any]:
    """The plugin's analysis (:class:`odin_cards.plugin.Analyse`): a record's dict in, the
    analysis's JSON data out. With numba it waits for the compiled play-outs first: the
    same verdicts, sooner. A record that does not replay is a ``ValueError``."""
    prepare()
    return analyse_game(GameRecord.from_dict(data), iterations, seed, progress).to_dict()


__all__ = [
    "BLUNDER",
    "FORMAT",
    "INACCURACY",
    "MISTAKE",
    "VERDICTS",
    "Analysis",
    "MoveNote",
    "PlayerSummary",
    "analyse_game",
    "analyse_record",
    "analyse_to_dict",
    "judge",
    "move_seed",
    "summarise",
    "verdict_of",
]
