"""Conformance traces: one hand a JSON line, every legal action at every step.

The format is the one of ``RULES.md`` (``players``, ``first_player``, ``hands``,
``steps`` with ``player``, ``table``, ``legal``, ``action``, ``take_legal``, ``take``,
and ``scores``). ``check_trace`` replays a trace through the engine and reports the
first difference; ``write_traces`` produces new traces from seeded random hands so that
other implementations can test against this one. In the format, action lists and the
``table`` are sorted as text.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from odin_cards.odin.rules import Game, OdinError, Options


@dataclass(frozen=True)
class Mismatch:
    """Where the engine and a trace disagree: hand (0-based line), step, and how."""

    hand: int
    step: int | None
    difference: str

    def __str__(self) -> str:
        where = f"hand {self.hand}" + ("" if self.step is None else f", step {self.step}")
        return f"{where}: {self.difference}"


def _diff(what: str, ours: list[str], theirs: list[str]) -> str:
    missing = sorted(set(theirs) - set(ours))
    extra = sorted(set(ours) - set(theirs))
    parts = [f"{what} differ"]
    if missing:
        parts.append(f"trace only: {', '.join(missing)}")
    if extra:
        parts.append(f"engine only: {', '.join(extra)}")
    if not missing and not extra:
        parts.append(f"engine {ours} vs trace {theirs}")
    return "; ".join(parts)


def _legal_text(game: Game) -> list[str]:
    return sorted(a.text for a in game.legal_actions())


def check_trace(number: int, trace: dict[str, Any]) -> Mismatch | None:
    """Replay one traced hand; ``None`` when the engine reproduces every step."""
    try:
        game = Game.new(
            trace["players"],
            Options(one_hand=True, first_leader=trace["first_player"]),
            deals=[trace["hands"]],
        )
        steps = trace["steps"]
    except (OdinError, KeyError, TypeError) as error:
        return Mismatch(number, None, f"cannot set up the hand: {error}")
    for index, step in enumerate(steps):
        try:
            if game.is_over:
                return Mismatch(number, index, "the engine ended the hand before the trace")
            if game.to_move != step["player"]:
                return Mismatch(
                    number, index, f"seat {game.to_move} is to move, trace says {step['player']}"
                )
            table = sorted(game.view(None).table)
            if table != step["table"]:
                return Mismatch(number, index, f"table is {table}, trace says {step['table']}")
            legal = _legal_text(game)
            if legal != step["legal"]:
                return Mismatch(number, index, _diff("legal actions", legal, step["legal"]))
            game.apply(step["action"])
            if "take" in step:
                take_legal = _legal_text(game)
                if take_legal != step["take_legal"]:
                    return Mismatch(
                        number, index, _diff("take actions", take_legal, step["take_legal"])
                    )
                game.apply(step["take"])
            elif game.decision == "take":
                return Mismatch(number, index, "the engine asks for a take the trace lacks")
        except OdinError as error:
            return Mismatch(number, index, f"the engine refuses the trace's action: {error}")
        except (KeyError, TypeError) as error:
            return Mismatch(number, index, f"malformed step: {error!r}")
    if not game.is_over or game.outcome is None:
        return Mismatch(number, None, "the trace ends before the hand does")
    scores = list(game.outcome.scores)
    if scores != trace.get("scores"):
        return Mismatch(number, None, f"scores are {scores}, trace says {trace.get('scores')}")
    return None


def read_traces(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    for line in lines:
        if line.strip():
            yield json.loads(line)


def trace_hand(players: int, seed: int | str, rng: random.Random) -> dict[str, Any]:
    """Play one random hand from a seeded deal and record it in the trace format."""
    first = rng.randrange(players)
    game = Game.new(players, Options(one_hand=True, first_leader=first), seed=seed)
    hands = [list(game.view(seat).hand or ()) for seat in range(players)]
    steps: list[dict[str, Any]] = []
    while not game.is_over:
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        step: dict[str, Any] = {
            "player": game.to_move,
            "table": sorted(game.view(None).table),
            "legal": sorted(a.text for a in legal),
            "action": action.text,
        }
        game.apply(action)
        if game.decision == "take":
            takes = game.legal_actions()
            take = takes[rng.randrange(len(takes))]
            step["take_legal"] = sorted(a.text for a in takes)
            step["take"] = take.text
            game.apply(take)
        steps.append(step)
    assert game.outcome is not None
    return {
        "players": players,
        "first_player": first,
        "hands": hands,
        "steps": steps,
        "scores": list(game.outcome.scores),
    }


def write_traces(hands: int, seed: int, players: Sequence[int]) -> Iterator[str]:
    """``hands`` JSON lines, cycling through the player counts in ``players``."""
    rng = random.Random(f"odin-traces:{seed}")
    for index in range(hands):
        count = players[index % len(players)]
        yield json.dumps(trace_hand(count, f"trace:{seed}:{index}", rng))


class OdinTraces:
    """Odin's conformance traces as its plugin offers them (``odin traces``)."""

    def read(self, lines: Iterable[str]) -> Iterator[dict[str, Any]]:
        return read_traces(lines)

    def check(self, number: int, trace: dict[str, Any]) -> Mismatch | None:
        return check_trace(number, trace)

    def write(self, count: int, seed: int, players: Sequence[int]) -> Iterator[str]:
        return write_traces(count, seed, players)


TRACES = OdinTraces()
"""The plugin's ``traces``."""
