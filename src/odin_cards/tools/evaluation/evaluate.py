"""Scoring one agent against the built-in levels over the evaluation set.

For every number of players ``P`` asked and every opponent level, each of the first
``deals`` deals of the set is played ``P`` times: in rotation ``r`` the agent holds seat
``r`` and the level every other seat. Every seat's cards of every deal are thus played by
the agent once, and the luck of the deal cancels. The figures are the arena's
(:mod:`odin_cards.tools.arena.stats`): the agent's win share with its Wilson 95% interval
(fair share ``1/P``), and points per hand (fewer is better) for the agent and the level.
The game is the set's (its levels, through its plugin, like the arena's).

Games run through the arena's runner, so an agent that raises or returns an illegal
action stops the evaluation with :class:`~odin_cards.tools.arena.BotFailure`; it is never
replaced by a legal move.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from odin_cards import __version__
from odin_cards.tools.arena import (
    BotStats,
    Entrant,
    GameResult,
    Match,
    budget_text,
    check_table,
    make_entrants,
    play_schedule,
    summarise,
)
from odin_cards.tools.arena.report import bot_dict
from odin_cards.tools.evaluation.deals import Deal, EvaluationSet, set_setup
from odin_cards.tools.evaluation.versions import player_version

RESULT_FORMAT = "odin-cards-evaluate/1"


def matches(deals: Sequence[Deal], players: int) -> list[Match]:
    """Every deal once per seat: the agent (entrant 0) at seat ``r``, the level elsewhere."""
    return [
        Match(
            deal=index,
            rotation=rotation,
            seed=deal.seed,
            lineup=tuple(0 if seat == rotation else 1 for seat in range(players)),
            chance=(deal.hand,),
        )
        for index, deal in enumerate(deals)
        for rotation in range(players)
    ]


@dataclass(frozen=True, slots=True)
class Pairing:
    """The agent against one level at one table size: its games and both sides' figures."""

    players: int
    entrants: tuple[Entrant, ...]
    """The agent and the level, as the arena names them."""
    agent: BotStats
    opponent: BotStats
    results: tuple[GameResult, ...]
    seconds: float

    @property
    def games(self) -> int:
        return len(self.results)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A whole evaluation: the set-up and one :class:`Pairing` per (players, level)."""

    agent: str
    opponents: tuple[str, ...]
    set_name: str
    set_sha256: str
    deals: int
    setup: Mapping[str, Any]
    """The game's set-up on the set's deals (:func:`.deals.set_setup`)."""
    workers: int
    pairings: tuple[Pairing, ...]

    @property
    def seconds(self) -> float:
        return sum(p.seconds for p in self.pairings)


def evaluate(
    agent: str,
    opponents: Sequence[str],
    evaluation_set: EvaluationSet,
    players: Sequence[int],
    deals: int,
    setup: Mapping[str, Any],
    workers: int,
    on_game: Callable[[GameResult], None] | None = None,
    on_pairing: Callable[[Pairing], None] | None = None,
) -> Evaluation:
    """Play the agent (a level spec or an import path) against each opponent level.

    ``ArenaError`` for a bad agent, level or set-up (before any game),
    ``EvaluationSetError`` for a table size or deal count the set does not hold or a
    set-up its deals fix otherwise, ``BotFailure`` for a failing agent.
    """
    game = evaluation_set.game
    lineups = [make_entrants([agent, opponent], game) for opponent in opponents]
    chosen = {count: evaluation_set.for_players(count, deals) for count in players}
    setup = set_setup(setup)
    tables = {count: check_table(lineups[0], count, setup) for count in players} if lineups else {}
    pairings = []
    for count in players:
        for entrants in lineups:
            pairing = play_pairing(entrants, count, chosen[count], tables[count], workers, on_game)
            pairings.append(pairing)
            if on_pairing is not None:
                on_pairing(pairing)
    return Evaluation(
        agent=lineups[0][0].label if lineups else agent,
        opponents=tuple(e[1].label for e in lineups),
        set_name=evaluation_set.name,
        set_sha256=evaluation_set.sha256,
        deals=deals,
        setup=setup,
        workers=workers,
        pairings=tuple(pairings),
    )


def play_pairing(
    entrants: Sequence[Entrant],
    players: int,
    deals: Sequence[Deal],
    setup: Mapping[str, Any],
    workers: int,
    on_game: Callable[[GameResult], None] | None = None,
) -> Pairing:
    start = time.perf_counter()
    results = play_schedule(matches(deals, players), entrants, players, setup, workers, on_game)
    agent, opponent = summarise(entrants, players, results)
    seconds = time.perf_counter() - start
    return Pairing(players, tuple(entrants), agent, opponent, tuple(results), seconds)


def evaluation_dict(evaluation: Evaluation, complete: bool = True) -> dict[str, Any]:
    """The evaluation as plain JSON data (format :data:`RESULT_FORMAT`), naming the package's
    version and each player's (:func:`.versions.player_version`)."""
    players: dict[str, Any] = {}
    for pairing in evaluation.pairings:
        for entrant in pairing.entrants:
            players.setdefault(entrant.label, player_version(entrant))
    return {
        "format": RESULT_FORMAT,
        "version": __version__,
        "players": players,
        "agent": evaluation.agent,
        "opponents": list(evaluation.opponents),
        "evaluation_set": {"name": evaluation.set_name, "sha256": evaluation.set_sha256},
        "deals": evaluation.deals,
        "options": dict(evaluation.setup),
        "workers": evaluation.workers,
        "seconds": evaluation.seconds,
        "complete": complete,
        "win_share_interval": "Wilson score, 95%, game as trial, ties split",
        "pairings": [
            {
                "players": p.players,
                "opponent": p.opponent.label,
                "games": p.games,
                "seconds": p.seconds,
                "agent": bot_dict(p.agent, budget_text(p.entrants[0].budget)),
                "opponent_figures": bot_dict(p.opponent, budget_text(p.entrants[1].budget)),
            }
            for p in evaluation.pairings
        ],
    }
