"""Odin as a game of the platform: the one object the platform knows of this package.

Published in the entry-point group ``odin_cards.games`` under ``odin`` (``pyproject.toml``).
Plain data and references only: importing this module imports none of the game.
"""

from __future__ import annotations

import json
from importlib import resources

from odin_cards.plugin import BotLevel, Flag, GamePlugin, Preset

BOTS = "bots"
"""The extra whose NumPy the network and search levels need (:mod:`odin_cards.extras`)."""

LEVELS = (
    BotLevel("random", "Random", "Plays any legal move at random. For learning the rules."),
    BotLevel(
        "heuristic",
        "Heuristic",
        "Builds colour and number sets, keeps strong sets for the end, plays at once.",
    ),
    BotLevel(
        "network",
        "Network",
        "Looks one move ahead with a learned network over a few possible deals; instant.",
        extra=BOTS,
    ),
    BotLevel(
        "search-v1",
        "Search (v0.2)",
        "Version 0.2's search, half a second a move: kept to measure the new one against.",
        0.5,
        extra=BOTS,
    ),
    BotLevel(
        "search",
        "Search",
        "Thinks half a second a move, trying out many possible deals of the hidden cards.",
        0.5,
        extra=BOTS,
    ),
    BotLevel(
        "search-net",
        "Search (network)",
        "The search judging its deals half by playing them out and half with a learned"
        " network, half a second a move.",
        0.5,
        extra=BOTS,
    ),
    BotLevel(
        "expert",
        "Expert",
        "The search with four times longer to think (about 2 seconds a move).",
        2.0,
        extra=BOTS,
    ),
)
"""Odin's bot levels, weakest first (their players: :data:`odin_cards.odin.bots.LEVELS`);
the core install plays random and heuristic."""

PLAY_NOW = (
    Preset("one", "One hand", {"target": 15, "one_hand": True}),
    Preset("10", "10 points", {"target": 10, "one_hand": False}),
    Preset("15", "15 points", {"target": 15, "one_hand": False}),
    Preset("20", "20 points", {"target": 20, "one_hand": False}),
)
"""The targets Play now offers (the create-table form's): one hand, or 10, 15, 20 points."""


def reference_ratings() -> dict[str, tuple[float, float]]:
    """The bots' reference ratings, ``{level: (mu, sigma)}`` (``bot_ratings.json`` beside
    this module says how they were measured: ``docs/ratings.md``)."""
    text = resources.files(__package__).joinpath("bot_ratings.json").read_text()
    levels = json.loads(text)["levels"]
    return {key: (float(value["mu"]), float(value["sigma"])) for key, value in levels.items()}


FLAGS = (
    Flag("--target", "Points that end the game (10/15/20/any; default 15).", "int"),
    Flag("--one-hand", "The first hand ends the game.", "switch"),
    Flag("--next-leader", "Who leads a new hand: 'rotate' (default) or 'winner'.", "text", "WHO"),
    Flag("--first-leader", "Seat that leads the first hand (default: random).", "int", "SEAT"),
    Flag("--colours", "6 (default), or 4 for the two-player variant (36 cards).", "int"),
    Flag("--goat", "Add the Grumpy Goat promo card X0.", "switch"),
)
"""Odin's set-up options on the command line (read by :mod:`odin_cards.odin.play.flags`)."""

PLUGIN = GamePlugin(
    key="odin",
    name="Odin",
    summary="A ladder-climbing card game: be the first to shed your cards, hand after hand.",
    rank=0,
    rules="odin_cards.odin.rules.odin:ODIN",
    bot_levels=LEVELS,
    bots="odin_cards.odin.bots.play:choose",
    players="odin_cards.odin.bots.play:player",
    warm="odin_cards.odin.bots.play:warm",
    stand_in="heuristic",
    presenter="odin_cards.odin.web.presenter:states",
    limits="odin_cards.odin.web.presenter:limits",
    play_now=PLAY_NOW,
    rated=True,
    ratings="odin_cards.odin.plugin:reference_ratings",
    web="odin_cards.odin.web",
    flags=FLAGS,
    read_flags="odin_cards.odin.play.flags:read_flags",
    terminal="odin_cards.odin.play.terminal:play",
    remote="odin_cards.odin.play.remote:screen",
    replay="odin_cards.odin.play.replay:replay",
    analysis="odin_cards.odin.analysis.annotate:analyse_to_dict",
    traces="odin_cards.odin.traces:TRACES",
    environments={
        "pettingzoo": "odin_cards.odin.env.odin_v0:env",
        "gymnasium": "odin_cards.odin.env.single:OdinSingleAgentEnv",
        "openspiel": "odin_cards.odin.env.openspiel:OdinGame",
        "bench": "odin_cards.odin.sim.bench:RESEARCH",
    },
)
