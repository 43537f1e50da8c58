"""``odin arena --ladder L1 L2 ...``: the levels' ladder, each rung stopped by a sequential test.

The arena command hands over here when ``--ladder`` is given; see
:mod:`odin_cards.tools.arena.ladder` for the test and the ratings.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from odin_cards.cli import options as opt
from odin_cards.cli.app import CommandError
from odin_cards.cli.paths import STDOUT, check_output, plural, write_text

if TYPE_CHECKING:
    from odin_cards.plugin import GamePlugin
    from odin_cards.tools.arena.ladder import Rating, Rung, Sprt


def ladder_command(
    plugin: GamePlugin,
    bots: Sequence[str],
    max_games: int,
    seed: int,
    setup: Mapping[str, Any],
    workers: int | None,
    json_file: Path | None,
    delta: float,
) -> None:
    """Play the ladder and print each rung as it ends, then the ratings."""
    from rich.console import Console
    from rich.text import Text

    from odin_cards.tools.arena import ArenaError, BotFailure, make_entrants
    from odin_cards.tools.arena.ladder import Sprt, ladder_ratings, run_ladder

    console = Console(highlight=False, stderr=json_file == STDOUT)
    try:
        entrants = make_entrants(bots, plugin.key)
        test = Sprt(delta=delta)
    except ArenaError as error:
        raise typer.BadParameter(str(error), param_hint="BOTS") from None
    if max_games < 2:
        raise typer.BadParameter(
            f"a rung needs at least 2 games, not {max_games}", param_hint="--games"
        )
    check_output(json_file, "--json")
    workers = 1 if workers is None else workers
    if workers < 1:
        raise typer.BadParameter(f"use at least 1 worker, not {workers}", param_hint="--workers")
    given = opt.flags_text()
    console.print(
        Text(
            f"ladder of {plural(len(entrants), 'level')} of {plugin.key}, heads-up, at most"
            f" {plural(max_games, 'game')} a rung, SPRT share 0.5±{test.delta:g}"
            f" (alpha {test.alpha:g}, beta {test.beta:g}){', ' + given if given else ''},"
            f" seed {seed}, {plural(workers, 'worker')}"
        )
    )

    def show(rung: Rung) -> None:
        low, high = rung.interval
        console.print(
            Text(
                f"  {rung.upper} vs {rung.lower}: {rung.verdict} after"
                f" {plural(rung.games, 'game')}, share {rung.share:.3f}"
                f" ({low:.3f}-{high:.3f}), LLR {rung.llr:+.2f}"
            )
        )

    try:
        rungs = run_ladder(entrants, setup, test, max_games, seed, workers, on_rung=show)
    except BotFailure as error:
        raise CommandError(f"bot failure: {error}") from None
    except ArenaError as error:
        raise typer.BadParameter(str(error)) from None
    ratings = ladder_ratings(rungs)
    console.print(Text("rating (Elo-style, the first level 0, 95% interval):"))
    for rating in ratings:
        console.print(
            Text(
                f"  {rating.label:24} {rating.rating:7.0f} ({rating.low:.0f} to {rating.high:.0f})"
            )
        )
    if json_file is not None:
        data = ladder_dict(rungs, ratings, test, seed, plugin.key)
        write_text(json_file, json.dumps(data, indent=1) + "\n")


def ladder_dict(
    rungs: Sequence[Rung], ratings: Sequence[Rating], test: Sprt, seed: int, game: str
) -> dict[str, Any]:
    """The ladder as JSON: the game, the test, every rung and every rating."""
    return {
        "format": "odin-cards-ladder/1",
        "game": game,
        "seed": seed,
        "test": {"delta": test.delta, "alpha": test.alpha, "beta": test.beta},
        "rungs": [
            {
                "upper": r.upper,
                "lower": r.lower,
                "games": r.games,
                "wins": r.wins,
                "share": r.share,
                "interval": list(r.interval),
                "verdict": r.verdict,
                "llr": r.llr,
                "decision_p95": [_p95(r.decision_seconds[0]), _p95(r.decision_seconds[1])],
            }
            for r in rungs
        ],
        "ratings": [
            {"level": r.label, "rating": r.rating, "low": r.low, "high": r.high} for r in ratings
        ],
    }


def _p95(times: Sequence[float]) -> float:
    from odin_cards.tools.arena.stats import percentile

    return percentile(sorted(times), 0.95)


__all__ = ["ladder_command", "ladder_dict"]
