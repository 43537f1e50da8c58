"""Take-away as a game of the platform: published by the tests, never by ``src/``."""

from __future__ import annotations

from odin_cards.plugin import BotLevel, GamePlugin

PACKAGE = __name__.rpartition(".")[0]

PLUGIN = GamePlugin(
    key="take-away",
    name="Take-away",
    summary="Take tokens from a pile; the last token wins.",
    rules=f"{PACKAGE}.rules:TAKE_AWAY",
    bot_levels=(
        BotLevel("random", "Random", "Takes any legal number."),
        BotLevel("greedy", "Greedy", "Takes as many as it can."),
    ),
    bots=f"{PACKAGE}.bots:choose",
    web=f"{PACKAGE}.web",
)
