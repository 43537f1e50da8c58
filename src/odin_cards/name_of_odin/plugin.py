"""In the Name of Odin as a game of the platform: the one object the platform knows of it.

Published in the entry-point group ``odin_cards.games`` under ``name-of-odin``
(``pyproject.toml``). Plain data and references only: importing this module imports none
of the game.
"""

from __future__ import annotations

from odin_cards.plugin import BotLevel, Flag, GamePlugin

LEVELS = (
    BotLevel("random", "Random", "Takes any legal action at random. For learning the rules."),
    BotLevel(
        "heuristic",
        "Heuristic",
        "Plans a raid and gathers its vikings, ship and hero; builds; matches every card"
        " it can and adds cards to the others' raids.",
    ),
)
"""Its bot levels, weakest first (their players: :data:`odin_cards.name_of_odin.bots.LEVELS`)."""

PLUGIN = GamePlugin(
    key="name-of-odin",
    name="In the Name of Odin",
    summary="Vikings, longships and raids: build a village and win glory for Odin.",
    rank=10,
    rules="odin_cards.name_of_odin.rules.name_of_odin:NAME_OF_ODIN",
    bot_levels=LEVELS,
    bots="odin_cards.name_of_odin.bots:choose",
    stand_in="heuristic",
    flags=(
        Flag(
            "--cards",
            "Play with the cards of this file: your copy's cards (TOML or JSON).",
            "text",
            "FILE",
        ),
    ),
    read_flags="odin_cards.name_of_odin.play.flags:read_flags",
    terminal="odin_cards.name_of_odin.play.terminal:play",
    remote="odin_cards.name_of_odin.play.remote:screen",
    replay="odin_cards.name_of_odin.play.replay:replay",
)
