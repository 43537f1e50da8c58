"""The terminal screen of In the Name of Odin, drawn from one seat's view with Rich.

One screen shows the whole table: the ocean with its raids, the four displays (action
cards, buildings, heroes, longships), every village (yours marked), a raid in progress,
your hand and the numbered choices. Colours help but never carry meaning alone: every
card is also written by its code (``WH``: warrior/hero) or its id, as the notation is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from odin_cards.name_of_odin.rules.symbols import VIKING_CODES

View = Mapping[str, Any]

STYLES = {
    "W": "bold red",
    "T": "bold",
    "S": "bold blue",
    "H": "yellow",
    "C": "green",
    "N": "dark_orange3",
}
"""Viking letters in their figure's colour, action letters in their symbol's colour."""

KIND_SHORT = {
    "forge": "forge",
    "rune-circle": "runes",
    "shipyard": "yard",
    "jarls-house": "jarl",
    "inn": "inn",
}


def card_text(code: str) -> Text:
    """An action card's code, each letter in its colour (``WH``)."""
    return Text.assemble((code[0], STYLES[code[0]]), (code[1], STYLES[code[1]]))


def cards_text(codes: Sequence[str]) -> Text:
    return Text(" ").join(card_text(c) for c in codes) if codes else Text("-", style="dim")


def vikings_text(counts: Mapping[str, int]) -> Text:
    return Text(" ").join(Text(f"{counts[v]}{v}", style=STYLES[v]) for v in "WTS")


def ability_text(card: Mapping[str, Any]) -> str:
    """A card's ability in a few words (``discount build 1``, ``raid-discount warrior``)."""
    ability = card.get("ability")
    if not ability:
        return ""
    words = [ability["effect"]]
    for key in ("action", "viking", "amount"):
        if key in ability:
            words.append(str(ability[key]))
    return " ".join(words)


def raid_needs(slot: Mapping[str, Any]) -> Text:
    """The vikings a raid in this ocean slot asks (the card's and the zone's marker)."""
    raid = slot["raid"]
    letters = [VIKING_CODES[v] for v in raid["vikings"]]
    text = Text(" ").join(Text(v, style=STYLES[v]) for v in letters)
    if slot["marker"]:
        text.append(" + ")
        text.append(slot["marker"], style=STYLES[slot["marker"]])
    return text


def ocean_table(view: View) -> Table:
    table = Table(title="Ocean", box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    for column in ("zone", "range", "raid", "glory", "vikings"):
        table.add_column(column, justify="right" if column in ("range", "glory") else "left")
    for slot in view["ocean"]:
        raid = slot["raid"]
        zone = slot["zone"] + (f" +{slot['glory']}" if slot["glory"] else "")
        if raid is None:
            table.add_row(zone, str(slot["range"]), Text("(empty)", style="dim"), "", "")
            continue
        table.add_row(
            zone,
            str(slot["range"]),
            Text(f"{raid['id']}", style="bold"),
            str(raid["glory"]),
            raid_needs(slot),
        )
    spare = " ".join(view["spare_markers"]) or "-"
    table.caption = f"raid deck: {view['raid_deck']} left; spare marker {spare}"
    return table


def market(view: View) -> Group:
    """The four displays."""
    actions = Text("Action display: ", style="bold").append_text(cards_text(view["action_display"]))
    actions.append(f"   (deck {view['action_deck']})", style="dim")
    buildings = Table(
        title="Buildings (3 craft + 1 material)", box=box.SIMPLE_HEAD, title_justify="left"
    )
    for column in ("id", "kind", "glory", "ability"):
        buildings.add_column(column)
    for card in view["building_display"]:
        if card is not None:
            buildings.add_row(card["id"], card["kind"], str(card["glory"]), ability_text(card))
    heroes = Table(title="Heroes (cost in hero symbols)", box=box.SIMPLE_HEAD, title_justify="left")
    for column in ("cost", "id", "viking", "ability"):
        heroes.add_column(column)
    for slot in view["hero_display"]:
        hero = slot["hero"]
        cost = f"{slot['cost']}" + (f" +{slot['glory']} glory" if slot["glory"] else "")
        if hero is not None:
            viking = VIKING_CODES[hero["viking"]]
            heroes.add_row(cost, hero["id"], Text(viking, style=STYLES[viking]), ability_text(hero))
    ships = Table(title="Longships (3 sailing)", box=box.SIMPLE_HEAD, title_justify="left")
    for column in ("id", "range", "glory", "ability"):
        ships.add_column(column)
    for card in view["ship_display"]:
        if card is not None:
            ships.add_row(card["id"], str(card["range"]), str(card["glory"]), ability_text(card))
    return Group(actions, Columns([buildings, heroes, ships], padding=(0, 2)))


def ship_text(ship: Mapping[str, Any]) -> str:
    state = "away" if ship["away"] else "home"
    return f"{ship['id']} reach {ship['reach']} ({ship['damage']} dmg, {state})"


def villages_table(view: View, names: Sequence[str]) -> Group:
    """Every village in two lines (fits 80 columns): what counts, then what it holds."""
    lines: list[RenderableType] = [Text("Villages", style="bold")]
    for village in view["villages"]:
        seat = village["seat"]
        first = Text("▶ " if seat == view["active"] else "  ")
        first.append(names[seat], style="bold" if seat == view["seat"] else "")
        first.append(f"  glory {village['glory']}  raids {len(village['raids'])}")
        first.append(f"  hand {village['hand_size']}/{village['hand_limit']}  vikings ")
        first.append_text(vikings_text(village["vikings"]))
        first.append(f" /{village['viking_limit']}", style="dim")
        first.append(f"  material {village['materials']}")
        second = Text("    buildings: ")
        kinds = [KIND_SHORT.get(b["kind"], b["kind"]) for b in village["buildings"]]
        second.append(" ".join(kinds) or "-")
        second.append("  hero: ")
        hero = village["hero"]
        if hero is None:
            second.append("-")
        else:
            viking = VIKING_CODES[hero["viking"]]
            second.append(hero["id"] + " ").append(viking, style=STYLES[viking])
        second.append("  ships: " + ("; ".join(ship_text(s) for s in village["ships"]) or "-"))
        lines += [first, second]
    reserve = view["reserve"]
    lines.append(Text(f"  reserve: {reserve['W']}W {reserve['T']}T {reserve['S']}S", style="dim"))
    return Group(*lines)


def raid_panel(view: View, names: Sequence[str]) -> Text | None:
    raid = view["raid"]
    if raid is None:
        return None
    raider = names[view["active"]]
    text = Text(f"Raid in progress: {raider} raids {raid['raid']} with {raid['ship']}", "bold")
    text.append(f"; sent {' '.join(raid['sent'])}; asks ")
    text.append_text(cards_text(raid["requirements"]))
    text.append(f"; matched {raid['matched']}")
    return text


def choices_text(choices: Sequence[str]) -> Columns:
    """The legal actions, numbered from 1, in columns."""
    return Columns(
        [Text.assemble((f"{n:>3}", "bold cyan"), f" {text}") for n, text in enumerate(choices, 1)],
        padding=(0, 2),
        column_first=True,
    )


def what_to_do(view: View) -> str:
    """The question the seat to move is asked, in words."""
    decision = view["decision"]
    return {
        "turn": "your turn: act, or end",
        "take-viking": "too few vikings in the reserve: take one from a player, or stop",
        "release-viking": "too many vikings: send one back",
        "modify": "add a card to the raid, or pass",
        "match": "match a card of the raid, or done",
        "pick": "take a card from the display",
    }.get(decision, str(decision))


def screen(
    view: View, names: Sequence[str], choices: Sequence[str], whole: bool = False
) -> RenderableType:
    """The whole table as ``view``'s seat sees it, with its numbered ``choices``."""
    parts: list[RenderableType] = [
        Text(
            f"Turn {view['turn']} · {names[view['active']]} is the active player · {view['cards']}",
            style="bold",
        ),
        ocean_table(view),
        market(view),
        villages_table(view, names),
    ]
    raid = raid_panel(view, names)
    if raid is not None:
        parts.append(raid)
    if view["hand"] is not None:
        parts.append(Text("Your hand: ", style="bold").append_text(cards_text(view["hand"])))
    if choices:
        parts.append(Text(what_to_do(view), style="bold"))
        parts.append(choices_text(choices))
    return Group(*parts)


__all__ = ["card_text", "cards_text", "choices_text", "screen", "what_to_do"]
