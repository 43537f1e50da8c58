"""Time control: the table's clock setting, and each turn's deadline derived from the log.

A table's ``settings["clock"]`` says how long a seat may think (none, real time, or turn
based). The deadline of the turn being played is never stored as such: it follows from
what is stored anyway, the game's start (``TableRecord.clock["started"]``) and the time
each logged action was written (``LoggedAction.created``). So every process, a restart or
a new owner taking the table over, computes the same deadline from the same rows, and
nothing is written per move beyond the action itself.

Real time: a seat has ``move`` seconds for each move, plus a reserve that starts at
``reserve``; time over ``move`` comes out of the reserve, and every move of the seat adds
``bonus`` to it (up to ``reserve + 10 * bonus``). Turn based: ``move`` is 12 hours, a day
or three days, and there is no reserve.

Pure: no I/O, no clock of its own (times are passed in).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from odin_cards.server.core.errors import DomainError

PRESETS: dict[str, tuple[int, int, int]] = {
    "fast": (15, 60, 3),
    "normal": (40, 120, 5),
    "slow": (50, 300, 10),
}
"""Real-time presets: (seconds a move, first reserve, reserve added each move). The
seconds a move follow Board Game Arena's Odin (15 / 40 / 50)."""

TURN_MOVES = {"12h": 12 * 3600, "24h": 24 * 3600, "3d": 3 * 24 * 3600}
"""Turn-based presets: seconds a move."""

MOVE_LIMITS = (5, 600)
RESERVE_LIMITS = (0, 3600)
BONUS_LIMITS = (0, 120)
"""Custom real-time values, in seconds, inclusive."""

BONUS_MOVES = 10
"""The reserve grows to at most ``reserve + BONUS_MOVES * bonus``."""

MISSED_LIMIT = 3
"""Missed moves in a row (each made by a stand-in) after which a bot takes the seat."""

STAND_IN = "stand-in"
"""``LoggedAction.by`` of a move a stand-in made when the seat's clock ran out."""
BOT = "bot"
"""``LoggedAction.by`` of a move the bot that took a person's seat made."""

NONE: dict[str, Any] = {"kind": "none"}


def _bad(message: str) -> DomainError:
    return DomainError("bad_clock", message)


def _seconds(value: Any, name: str, limits: tuple[int, int]) -> int:
    low, high = limits
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"clock: {name} is a whole number of seconds")
    if not low <= value <= high:
        raise _bad(f"clock: {name} is {low} to {high} seconds, not {value}")
    return value


def normalize(given: Any) -> dict[str, Any]:
    """The stored form of a requested clock, or ``bad_clock`` saying what is wrong.

    ``None`` or ``{"kind": "none"}``: no clock. ``{"kind": "realtime", "preset": "fast" |
    "normal" | "slow"}`` or ``{"kind": "realtime", "move": s, "reserve": s, "bonus": s}``.
    ``{"kind": "turn", "preset": "12h" | "24h" | "3d"}``. A stored form normalizes to
    itself (the directory normalizes what the API normalized already).
    """
    if given is None:
        return dict(NONE)
    if not isinstance(given, Mapping):
        raise _bad("clock: an object with a kind (none, realtime or turn)")
    kind = given.get("kind")
    allowed = {"none": {"kind"}, "realtime": {"kind", "preset", "move", "reserve", "bonus"}}
    allowed["turn"] = {"kind", "preset", "move"}
    if kind not in allowed:
        raise _bad(f"clock: kind is none, realtime or turn, not {str(kind)[:32]!r}")
    extra = set(given) - allowed[kind]
    if extra:
        raise _bad(f"clock: unknown field {sorted(map(str, extra))[0][:32]!r} for {kind}")
    if kind == "none":
        return dict(NONE)
    preset = given.get("preset")
    if kind == "turn":
        if preset not in TURN_MOVES or given.get("move", TURN_MOVES[preset]) != TURN_MOVES[preset]:
            raise _bad(f"clock: a turn-based preset is {', '.join(TURN_MOVES)}")
        return {"kind": "turn", "preset": preset, "move": TURN_MOVES[preset]}
    if preset is not None and preset != "custom":
        if preset not in PRESETS:
            raise _bad(f"clock: a real-time preset is {', '.join(PRESETS)} or custom")
        move, reserve, bonus = PRESETS[preset]
        stored = {"move": move, "reserve": reserve, "bonus": bonus}
        if any(given.get(key, value) != value for key, value in stored.items()):
            raise _bad(f"clock: the {preset} preset has its own times; say custom to choose")
    else:
        move = _seconds(given.get("move"), "move", MOVE_LIMITS)
        reserve = _seconds(given.get("reserve", 0), "reserve", RESERVE_LIMITS)
        bonus = _seconds(given.get("bonus", 0), "bonus", BONUS_LIMITS)
        preset = "custom"
    return {"kind": "realtime", "preset": preset, "move": move, "reserve": reserve, "bonus": bonus}


def control_of(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The table's clock setting (tables from before clocks have none)."""
    control = settings.get("clock")
    return dict(control) if isinstance(control, Mapping) else dict(NONE)


def timed(control: Mapping[str, Any]) -> bool:
    return control.get("kind") in ("realtime", "turn")


@dataclass(frozen=True, slots=True)
class Stamp:
    """What the clock needs of one logged action: who moved, when, and who made it."""

    seat: int
    at: datetime
    by: str | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn being played: the seat, when it began, its deadline, the reserves left."""

    seat: int
    began: datetime
    deadline: datetime
    reserves: tuple[float, ...]


def reserves(
    control: Mapping[str, Any], players: int, started: datetime, stamps: Sequence[Stamp]
) -> list[float]:
    """Each seat's reserve after the logged moves (turn based: all zero)."""
    if control.get("kind") != "realtime":
        return [0.0] * players
    move, reserve, bonus = control["move"], control["reserve"], control["bonus"]
    cap = reserve + BONUS_MOVES * bonus
    left = [float(reserve)] * players
    began = started
    for stamp in stamps:
        used = max(0.0, (stamp.at - began).total_seconds())
        over = max(0.0, used - move)
        left[stamp.seat] = min(float(cap), max(0.0, left[stamp.seat] - over) + bonus)
        began = stamp.at
    return left


def turn(
    control: Mapping[str, Any],
    players: int,
    started: datetime | None,
    stamps: Sequence[Stamp],
    mover: int | None,
) -> Turn | None:
    """The turn of ``mover`` after ``stamps``; ``None`` without a clock, a start or a mover."""
    if not timed(control) or started is None or mover is None:
        return None
    left = reserves(control, players, started, stamps)
    began = stamps[-1].at if stamps else started
    deadline = began + timedelta(seconds=control["move"] + left[mover])
    return Turn(mover, began, deadline, tuple(left))


def missed_in_a_row(stamps: Sequence[Stamp], seat: int) -> int:
    """How many of ``seat``'s last moves were made by a stand-in, in a row."""
    count = 0
    for stamp in reversed(stamps):
        if stamp.seat != seat:
            continue
        if stamp.by != STAND_IN:
            break
        count += 1
    return count


def stand_ins(stamps: Sequence[Stamp], players: int) -> list[int]:
    """How many moves of each seat a stand-in or the seat's bot made."""
    counts = [0] * players
    for stamp in stamps:
        if stamp.by is not None:
            counts[stamp.seat] += 1
    return counts
