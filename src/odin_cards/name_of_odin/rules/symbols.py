"""The symbols of In the Name of Odin and the codes this project writes them with.

An action card shows one viking symbol (top) and one action symbol (bottom); its code is
the two letters, viking first: ``WH`` is a warrior/hero card, ``SN`` a sailor/sailing card.

* vikings: ``W`` warrior (red), ``T`` trader (black), ``S`` sailor (blue);
* actions: ``H`` hero (yellow), ``C`` craft (green), ``N`` sailing (brown, "navigation").
"""

from __future__ import annotations

from typing import Final

VIKINGS: Final = ("W", "T", "S")
"""Viking types in their fixed order (views, records, scoring)."""
ACTIONS: Final = ("H", "C", "N")
"""Action symbols in their fixed order."""

VIKING_NAMES: Final = {"W": "warrior", "T": "trader", "S": "sailor"}
ACTION_NAMES: Final = {"H": "hero", "C": "craft", "N": "sailing"}
VIKING_CODES: Final = {name: code for code, name in VIKING_NAMES.items()}
ACTION_CODES: Final = {name: code for code, name in ACTION_NAMES.items()}

CARD_CODES: Final = tuple(v + a for v in VIKINGS for a in ACTIONS)
"""The nine kinds of action card, in canonical order (``WH WC WN TH ... SN``)."""
CARD_ORDER: Final = {code: index for index, code in enumerate(CARD_CODES)}


def viking_of(card: str) -> str:
    """The viking symbol of an action card code."""
    return card[0]


def action_of(card: str) -> str:
    """The action symbol of an action card code."""
    return card[1]


def sort_cards(cards: list[str] | tuple[str, ...]) -> list[str]:
    """Action card codes in canonical order (what every notation and view uses)."""
    return sorted(cards, key=CARD_ORDER.__getitem__)


BUILDING_KINDS: Final = ("forge", "rune-circle", "shipyard", "jarls-house", "inn")
"""The five building plots of a village, in board order (rulebook: 1A-1E)."""

BUILDING_SYMBOL: Final = {"forge": "C", "jarls-house": "H", "shipyard": "N"}
"""The action symbol a building kind grants once a turn (never for raids)."""

COSTS: Final = {"build": 3, "ship": 3, "return": 2, "repair": 2}
"""The rulebook's fixed costs, in action symbols (a material's and a hero's vary)."""
