"""An arena run as JSON: the set-up, the figures per bot and every game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from odin_cards import __version__
from odin_cards.tools.arena.entrants import budget_text
from odin_cards.tools.arena.runner import ArenaRun
from odin_cards.tools.arena.stats import BotStats, bot_stats, victory_shares

FORMAT = "odin-cards-arena/1"


def bot_dict(stats: BotStats, budget: str) -> dict[str, Any]:
    return {
        "label": stats.label,
        "level": stats.key,
        "budget": budget,
        "games": stats.games,
        "seats": stats.seats,
        "wins": stats.wins,
        "win_share": stats.win_share,
        "win_share_ci95": [stats.ci_low, stats.ci_high],
        "fair_share": stats.fair_share,
        "points": stats.points,
        "hands": stats.hands,
        "points_per_hand": stats.points_per_hand,
        "rating": {"mu": stats.mu, "sigma": stats.sigma, "ordinal": stats.ordinal},
        "decisions": stats.decisions,
        "decision_seconds": {
            "mean": stats.decision_mean,
            "p95": stats.decision_p95,
            "max": stats.decision_max,
        },
    }


def run_dict(run: ArenaRun, stats: list[BotStats] | None = None) -> dict[str, Any]:
    """The whole run as plain JSON data (``FORMAT``)."""
    stats = bot_stats(run) if stats is None else stats
    labels = [e.label for e in run.entrants]
    return {
        "format": FORMAT,
        "version": __version__,
        "game": run.game,
        "players": run.players,
        "options": dict(run.setup),
        "seed": run.seed,
        "games": len(run.results),
        "deals": run.deals,
        "rotations": run.rotations,
        "workers": run.workers,
        "seconds": run.seconds,
        "win_share_interval": "Wilson score, 95%, game as trial, ties split",
        "rating_model": "openskill PlackettLuce, ranks = final points (fewer is better)",
        "bots": [
            bot_dict(s, budget_text(e.budget)) for s, e in zip(stats, run.entrants, strict=True)
        ],
        "game_results": [
            {
                "deal": r.deal,
                "rotation": r.rotation,
                "seed": r.seed,
                "seats": [labels[e] for e in r.lineup],
                "scores": list(r.scores),
                "winners": list(r.winners),
                "victory_shares": victory_shares(r),
                "hands": r.hands,
                "actions": r.actions,
                "decisions": [len(t) for t in r.decision_seconds],
            }
            for r in run.results
        ],
    }


def write_json(run: ArenaRun, path: Path, stats: list[BotStats] | None = None) -> None:
    path.write_text(json.dumps(run_dict(run, stats), indent=1) + "\n")
