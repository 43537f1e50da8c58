"""Sentences about players that read right whatever their name, "You" included.

The person's default name is ``You``: "You lead", "You win!", "You emptied your hand",
not "You leads". A name is shown as written (``[red]Ada[/red]`` stays those characters):
every line is a :class:`rich.text.Text`, never console markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

YOU = "You"


def verb(name: str, third: str, base: str) -> str:
    """``name`` and the verb that agrees with it: ``Ada leads``, ``You lead``."""
    return f"{name} {base if name == YOU else third}"


def their(name: str) -> str:
    return "your" if name == YOU else "their"


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def event_line(event: dict[str, Any], names: Sequence[str]) -> str | None:
    """One line for a public event, with the players' names (``None`` for bookkeeping)."""
    kind = event["type"]
    if kind in ("play", "take", "pass"):
        return f"{names[event['seat']]}: {event['text']}"
    if kind == "deal":
        return f"hand {event['hand']}: {verb(names[event['leader']], 'leads', 'lead')}"
    if kind == "discard":
        return f"  discarded {' '.join(event['cards'])}"
    if kind == "round":
        return f"  round over, {verb(names[event['leader']], 'leads', 'lead')}"
    if kind == "hand_end":
        points = " ".join(str(p) for p in event["points"])
        return f"hand over, ended by {names[event['seat']]}: points {points}"
    if kind == "game_end":
        winners = [names[s] for s in event["winners"]]
        if len(winners) == 1:
            return f"game over: {verb(winners[0], 'wins', 'win')}"
        return f"game over: {', '.join(winners)} share the victory"
    return None
