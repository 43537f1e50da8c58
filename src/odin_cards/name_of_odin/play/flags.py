"""In the Name of Odin's set-up flag on the command line: ``--cards FILE``, one's own copy's
cards (:data:`odin_cards.plugin.ReadFlags`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from odin_cards.plugin import FlagError


def read_flags(players: int, flags: Mapping[str, Any]) -> dict[str, Any]:
    """The set-up the flags given say: the cards of the file ``--cards`` names."""
    from odin_cards.name_of_odin.rules import CardsError, load_cards

    setup: dict[str, Any] = {}
    for flag, value in flags.items():
        if flag != "--cards":
            raise FlagError(flag, f"{flag} is not an option of In the Name of Odin")
        try:
            setup["cards"] = load_cards(Path(value)).to_dict()
        except CardsError as error:
            raise FlagError(flag, " ".join(str(error).split())) from None
    return setup


__all__ = ["read_flags"]
