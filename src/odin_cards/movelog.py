"""Public events as one-line text in the canonical notation, for logs and replays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    return names[seat] if names is not None else f"seat {seat}"


def event_line(event: dict[str, Any], names: Sequence[str] | None = None) -> str | None:
    """One line for a public event (see ``public_events``), or ``None`` for bookkeeping."""
    kind = event["type"]
    if kind in ("play", "take", "pass"):
        return f"{seat_name(event['seat'], names)}: {event['text']}"
    if kind == "deal":
        return f"hand {event['hand']}: {seat_name(event['leader'], names)} leads"
    if kind == "discard":
        return f"  discarded {' '.join(event['cards'])}"
    if kind == "round":
        return f"  round over, {seat_name(event['leader'], names)} leads"
    if kind == "hand_end":
        points = " ".join(str(p) for p in event["points"])
        return f"hand over, ended by {seat_name(event['seat'], names)}: points {points}"
    if kind == "game_end":
        winners = ", ".join(seat_name(s, names) for s in event["winners"])
        return f"game over: {winners} {'wins' if len(event['winners']) == 1 else 'share victory'}"
    return None
