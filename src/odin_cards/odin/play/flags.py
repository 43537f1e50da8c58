"""Odin's set-up flags on the command line (``--target 10 --one-hand``), read into its
set-up (:data:`odin_cards.plugin.ReadFlags`).

The flags themselves are data in the plugin (:data:`odin_cards.odin.plugin.FLAGS`), so
``odin -h`` lists them without importing the game; this module says what a value may be,
each refusal naming its flag. The rules check the whole set-up afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from odin_cards.plugin import FlagError

KEYS = {
    "--target": "target",
    "--one-hand": "one_hand",
    "--next-leader": "next_leader",
    "--first-leader": "first_leader",
    "--colours": "colours",
    "--goat": "goat",
}
"""The set-up field each flag sets (:class:`odin_cards.odin.rules.Options`)."""


def read_flags(players: int, flags: Mapping[str, Any]) -> dict[str, Any]:
    """The set-up the flags given say (the others keep the rules' defaults)."""
    setup: dict[str, Any] = {}
    for flag, value in flags.items():
        if flag not in KEYS:
            raise FlagError(flag, f"{flag} is not an option of Odin")
        setup[KEYS[flag]] = value
    target = setup.get("target")
    if target is not None and target < 1:
        raise FlagError("--target", f"the target is a positive whole number, not {target}")
    leader = setup.get("next_leader")
    if leader is not None and leader not in ("rotate", "winner"):
        raise FlagError("--next-leader", f"'rotate' or 'winner', not {leader!r}")
    first = setup.get("first_leader")
    if first is not None and not 0 <= first < players:
        raise FlagError("--first-leader", f"a seat from 0 to {players - 1}, not {first}")
    colours = setup.get("colours")
    if colours is not None and colours not in (4, 6):
        raise FlagError("--colours", f"6, or 4 in a two-player game, not {colours}")
    if colours == 4 and players != 2:
        raise FlagError("--colours", "the 4-colour deck is for two players only")
    return setup


__all__ = ["KEYS", "read_flags"]
