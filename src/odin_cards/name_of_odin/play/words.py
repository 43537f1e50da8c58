"""In the Name of Odin's public events in words: one line each, for the terminal and replays.

Cards are named by their code (``WH``) or id (``iona``), as the action notation writes them,
so a line can be typed back as an action. Only public events are ever passed here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from odin_cards.name_of_odin.rules.symbols import VIKING_NAMES

Event = Mapping[str, Any]


def _vikings(count: int, viking: str) -> str:
    name = VIKING_NAMES.get(viking, viking)
    return f"{count} {name}{'' if count == 1 else 's'}"


def _paid(event: Event) -> str:
    cards = event.get("cards") or []
    return f" for {' '.join(cards)}" if cards else ""


def _raid_glory(event: Event, who: str) -> str:
    parts = [f"{event['raid_glory']} for the raid"]
    if event["zone_glory"]:
        parts.append(f"{event['zone_glory']} for the zone")
    if event["hero_glory"]:
        parts.append(f"{event['hero_glory']} from the hero")
    unmatched = event["unmatched"]
    line = f"{who} raided {event['raid']}: {' + '.join(parts)}; {unmatched} unmatched"
    line += f" ({event['change']:+d}), glory now {event['glory']}"
    if event["destroyed"]:
        return line + "; the longship is destroyed"
    return line + f"; the longship has {event['damage']} damage"


def _outcome(event: Event, names: Sequence[str]) -> str:
    winners = " and ".join(names[s] for s in event["winners"])
    scores = ", ".join(
        f"{names[s]} {score} ({raids} raid{'' if raids == 1 else 's'})"
        for s, (score, raids) in enumerate(zip(event["scores"], event["raids"], strict=True))
    )
    return f"game over: {winners} {'wins' if len(event['winners']) == 1 else 'win'}; {scores}"


LINES: dict[str, Callable[[Event, str, Sequence[str]], str | None]] = {
    "setup": lambda e, w, n: (
        f"{e['players']} players, cards: {e['cards']}; {e['raids']} raids;"
        f" {n[e['first_player']]} begins"
    ),
    "turn": lambda e, w, n: f"turn {e['turn']}: {w}",
    "draw": lambda e, w, n: f"{w} drew {e['count']} card{'' if e['count'] == 1 else 's'}",
    "reshuffle": lambda e, w, n: f"the discards were shuffled into a new deck ({e['cards']})",
    "refresh": lambda e, w, n: (
        f"{w} discarded {e['discarded']} and refreshed the display: {' '.join(e['display'])}"
    ),
    "swap": lambda e, w, n: f"{w} swapped {e['gave']} for {e['took']} from the display",
    "recruit": lambda e, w, n: f"{w} recruited {_vikings(e['count'], e['viking'])}{_paid(e)}",
    "vikings": lambda e, w, n: (
        f"  {_vikings(e['from_reserve'], e['viking'])} came from the reserve"
    ),
    "take": lambda e, w, n: f"{w} took a {VIKING_NAMES[e['viking']]} from {n[e['from']]}",
    "stop": lambda e, w, n: f"{w} took no more vikings",
    "release": lambda e, w, n: f"{w} sent a {VIKING_NAMES[e['viking']]} back to the reserve",
    "hero": lambda e, w, n: (
        f"{w} recruited the hero {e['hero']}{_paid(e)}"
        + (f", +{e['glory']} glory" if e["glory"] else "")
    ),
    "ability": lambda e, w, n: (
        f"{w} used {e['hero']}'s ability ({e['effect']}"
        + (f" on {' '.join(e['target'])}" if e["target"] else "")
        + "); the hero leaves"
    ),
    "build": lambda e, w, n: f"{w} built {e['building']}{_paid(e)}",
    "buildings-replaced": lambda e, w, n: (
        "nobody could build a displayed building: new display "
        + " ".join(b or "-" for b in e["display"])
    ),
    "material": lambda e, w, n: f"{w} gained a building material{_paid(e)}",
    "ship": lambda e, w, n: f"{w} bought the longship {e['ship']}{_paid(e)}",
    "return": lambda e, w, n: f"{w} brought {e['ship']} home{_paid(e)}",
    "repair": lambda e, w, n: f"{w} repaired {e['ship']}{_paid(e)}",
    "raid": lambda e, w, n: (
        f"{w} raids {e['raid']} with {e['ship']}, sending {' '.join(e['sent'])}"
    ),
    "modify": lambda e, w, n: f"  {w} adds {e['card']} to the raid",
    "pass": lambda e, w, n: f"  {w} passes",
    "reveal": lambda e, w, n: (
        (f"  revealed {' '.join(e['cards'])}; " if e["cards"] else "  ")
        + f"the raid asks {' '.join(e['requirements'])}"
    ),
    "match": lambda e, w, n: f"  {w} matches {e['requirement']} with {e['card']}",
    "done": lambda e, w, n: f"  {w} matches no more",
    "glory": lambda e, w, n: _raid_glory(e, w),
    "ocean": lambda e, w, n: f"  a new raid comes in: {e['new']}" if e["new"] else None,
    "pick": lambda e, w, n: f"  {w} takes {e['card']} from the display",
    "end": lambda e, w, n: _outcome(e, n),
}
"""Each event type's line; ``None``: the event says nothing worth a line."""


def event_line(event: Event, names: Sequence[str]) -> str | None:
    """One public event in words (``names``: the seats' names); ``None`` for a silent one."""
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    line = LINES.get(event["type"])
    if line is None:
        return f"{event['type']}: " + ", ".join(
            f"{k} {v}" for k, v in event.items() if k not in ("type", "index")
        )
    return line(event, who, names)


def event_lines(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """The lines of several public events, silent ones left out."""
    lines = (event_line(event, names) for event in events)
    return [line for line in lines if line is not None]


__all__ = ["event_line", "event_lines"]
