"""The arena: many seeded games between bots, every seat rotation, statistics that prove strength.

Any game of the registry (:mod:`odin_cards.games`): its bot levels, through its plugin,
and Python agents by import path. From Python (the ``odin arena`` command is a thin shell
around this)::

    from odin_cards.tools.arena import make_entrants, run_arena, bot_stats
    run = run_arena(make_entrants(["heuristic", "random"], game="odin"), games=200, seed=1)
    for stats in bot_stats(run):
        print(stats.label, stats.win_share, stats.ci_low, stats.ci_high)
"""

from odin_cards.tools.arena.agents import (
    AgentError,
    AgentFunction,
    Budget,
    is_agent_path,
    load_agent,
)
from odin_cards.tools.arena.entrants import (
    ArenaError,
    Entrant,
    budget_text,
    make_entrant,
    make_entrants,
    parse_entrant,
)
from odin_cards.tools.arena.ladder import Rating, Rung, Sprt, ladder_ratings, play_rung, run_ladder
from odin_cards.tools.arena.plot import plot_stats
from odin_cards.tools.arena.report import run_dict, write_json
from odin_cards.tools.arena.runner import (
    ArenaRun,
    BotFailure,
    GameResult,
    check_table,
    default_workers,
    play_match,
    play_schedule,
    run_arena,
)
from odin_cards.tools.arena.schedule import Match, lineups, schedule
from odin_cards.tools.arena.stats import (
    BotStats,
    bot_stats,
    ranks,
    ratings,
    summarise,
    victory_shares,
    wilson_interval,
)

__all__ = [
    "AgentError",
    "AgentFunction",
    "ArenaError",
    "ArenaRun",
    "BotFailure",
    "BotStats",
    "Budget",
    "Entrant",
    "GameResult",
    "Match",
    "Rating",
    "Rung",
    "Sprt",
    "bot_stats",
    "budget_text",
    "check_table",
    "default_workers",
    "is_agent_path",
    "ladder_ratings",
    "lineups",
    "load_agent",
    "make_entrant",
    "make_entrants",
    "parse_entrant",
    "play_match",
    "play_rung",
    "play_schedule",
    "plot_stats",
    "ranks",
    "ratings",
    "run_arena",
    "run_dict",
    "run_ladder",
    "schedule",
    "summarise",
    "victory_shares",
    "wilson_interval",
    "write_json",
]
