"""The terminal display of one seat's view: players, table, last moves, hand and choices.

Everything shown comes from the player's :class:`View` (never the game), so the
display cannot leak a hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from odin_cards.odin.play.cards import cards_text
from odin_cards.odin.play.words import event_line, plural, their, verb
from odin_cards.odin.rules import Action, View

LAST_MOVES = 6


def hand_events(view: View) -> list[dict[str, Any]]:
    """The public events of the current hand (from its deal on)."""
    start = 0
    for index, event in enumerate(view.history):
        if event["type"] == "deal":
            start = index
    return list(view.history[start:])


def passed_seats(view: View) -> set[int]:
    """Seats that passed since the set on the table was played."""
    passed: set[int] = set()
    for event in hand_events(view):
        if event["type"] in ("play", "round", "deal"):
            passed = set()
        elif event["type"] == "pass":
            passed.add(event["seat"])
    return passed


def sort_choices(legal: Sequence[Action]) -> list[Action]:
    """Plays from smallest to largest (by size, then value), then takes, then pass."""
    return sorted(legal, key=lambda a: (a.is_pass, a.is_take, a.id))


def is_finishing_lead(action: Action, decision: str | None) -> bool:
    """A lead of more than one card: the whole hand, which ends it."""
    return decision == "lead" and action.is_play and action.size > 1


def action_text(action: Action, decision: str | None = None) -> Text:
    if action.is_pass:
        return Text("pass", style="italic")
    verb = "take " if action.is_take else ""
    text = Text(verb)
    text.append_text(cards_text(action.cards))
    if action.is_play and action.size > 1:
        text.append(f" ({action.value})", style="dim")
    if is_finishing_lead(action, decision):
        text.append(" whole hand: ends the hand", style="bold green")
    return text


def what_to_do(view: View, legal: Sequence[Action]) -> str:
    """The decision in words, for the prompt."""
    if view.decision == "lead":
        if any(is_finishing_lead(a, view.decision) for a in legal):
            return "lead one card, or your whole hand to end the hand"
        return "lead one card"
    if view.decision == "take":
        return f"take one card of {' '.join(view.beaten)}"
    n = len(view.table)
    return f"beat {view.table_value} with {n} or {n + 1} cards, or pass"


def players_table(view: View, names: Sequence[str]) -> Table:
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    for column, justify in (
        ("", "left"),
        ("player", "left"),
        ("cards", "right"),
        ("took (still holds)", "left"),
        ("points", "right"),
        ("", "left"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    passed = passed_seats(view)
    for seat, name in enumerate(names):
        status = ""
        if seat == view.to_move:
            status = "to move"
        elif seat == view.table_player:
            status = "played the table"
        elif seat in passed:
            status = "passed"
        marker = "▶" if seat == view.to_move else ""
        style = "bold" if seat == view.seat else ""
        table.add_row(
            marker,
            Text(name, style=style),
            str(view.hand_sizes[seat]),
            cards_text(view.known[seat]),
            str(view.scores[seat]),
            Text(status, style="dim" if status == "passed" else "cyan"),
        )
    return table


def table_line(view: View, names: Sequence[str]) -> Text:
    if view.decision == "take" and view.beaten:
        text = Text()
        text.append("You beat ", style="bold")
        text.append_text(cards_text(view.beaten))
        text.append(" with ")
        text.append_text(cards_text(view.table))
        text.append(": take one card of the beaten set.")
        return text
    if not view.table:
        leader = names[view.to_move] if view.to_move is not None else "nobody"
        return Text(f"Table: empty; {leader} to lead.")
    text = Text()
    text.append("Table: ", style="bold")
    text.append_text(cards_text(view.table))
    owner = names[view.table_player] if view.table_player is not None else "?"
    text.append(f"  worth {view.table_value}, played by {owner}")
    if view.passes:
        text.append(f" ({view.passes} pass{'es' if view.passes > 1 else ''})", style="dim")
    return text


def last_moves(view: View, names: Sequence[str], count: int = LAST_MOVES) -> list[str]:
    lines = [event_line(e, names) for e in hand_events(view)]
    return [line for line in lines if line is not None][-count:]


def hand_line(view: View, sort: str) -> Text:
    text = Text()
    text.append(f"Your hand ({plural(len(view.hand or ()), 'card')}, by {sort}):", style="bold")
    text.append("\n  ")
    text.append_text(cards_text(view.hand or (), by=sort, group=True))
    return text


def choices_view(choices: Sequence[Action], decision: str | None = None) -> Columns:
    items = []
    for number, action in enumerate(choices, 1):
        item = Text()
        item.append(f"{number:>2}) ", style="bold cyan")
        item.append_text(action_text(action, decision))
        items.append(item)
    return Columns(items, padding=(0, 3))


def turn_view(
    view: View,
    names: Sequence[str],
    sort: str,
    choices: Sequence[Action],
) -> RenderableType:
    """Everything the player needs to decide, top to bottom."""
    options = view.options
    title = f"Hand {view.hand_number} · target {options.target}" + (
        " · one hand" if options.one_hand else ""
    )
    moves = last_moves(view, names)
    parts: list[RenderableType] = [
        Rule(title),
        players_table(view, names),
        Text(""),
        table_line(view, names),
    ]
    if moves:
        parts.append(Text("Last moves:", style="bold"))
        parts += [Text(f"  {line.strip()}", style="dim") for line in moves]
    parts += [
        hand_line(view, sort),
        Text("Your choices:", style="bold"),
        choices_view(choices, view.decision),
    ]
    return Group(*parts)


# ------------------------------------------------- public events, local or remote


def event_text(event: dict[str, Any], names: Sequence[str]) -> Text | None:
    """A play or a take with its cards drawn, another move as a dim line; ``None`` for
    bookkeeping. Deals and the ends of hands and games have screens of their own."""
    kind = event["type"]
    if kind == "play":
        text = Text(f"{names[event['seat']]}: play ")
        text.append_text(cards_text(event["cards"]))
        if len(event["cards"]) > 1:
            text.append(f" ({event['value']})", style="dim")
        return text
    if kind == "take":
        text = Text(f"{names[event['seat']]}: take ")
        text.append_text(cards_text([event["card"]]))
        return text
    line = event_line(event, names)
    return None if line is None else Text(line, style="dim")


def hand_summary(
    event: dict[str, Any], number: int, names: Sequence[str], totals: Sequence[int]
) -> RenderableType:
    """The end of hand ``number`` (a public ``hand_end`` event): who went out, and every
    player's cards left (shown at a hand's end), points and total."""
    ender = names[event["seat"]]
    table = Table()
    table.add_column("player")
    table.add_column("cards left")
    table.add_column("this hand", justify="right")
    table.add_column("total", justify="right")
    shown = event.get("cards") or [[] for _ in names]  # a 0.1 server sends points only
    for name, left, points, total in zip(names, shown, event["points"], totals, strict=True):
        table.add_row(Text(name), Text(" ".join(left)), str(points), str(total))
    title = Text(f"Hand {number} is over: {ender} emptied {their(ender)} hand.", style="bold")
    return Group(title, table)


def standings(
    totals: Sequence[int],
    winners: Sequence[int],
    names: Sequence[str],
    hands: int,
    cheer: str = "",
) -> RenderableType:
    """The final standings: places (lower points are better), winners, the verdict."""
    table = Table()
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("points", justify="right")
    for seat in sorted(range(len(totals)), key=lambda s: (totals[s], s)):
        place = 1 + sum(1 for p in totals if p < totals[seat])
        mark = " (winner)" if seat in winners else ""
        table.add_row(str(place), Text(names[seat] + mark), str(totals[seat]))
    who = [names[s] for s in winners]
    if len(who) == 1:
        verdict = verb(who[0], "wins!", "win!")
    else:
        verdict = f"{', '.join(who[:-1])} and {who[-1]} share the victory!"
    return Group(
        Text(f"Game over after {plural(hands, 'hand')}. Final standings:", style="bold"),
        table,
        Text(verdict + cheer, style="bold green"),
    )
