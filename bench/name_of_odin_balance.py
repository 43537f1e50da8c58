"""In the Name of Odin seat balance: bots in every seat, per player count, per card set.

The issue asks for a starter set "with numbers chosen so that bot-vs-bot games are balanced
(measure it)". This is the measurement: for each card set and player count it plays the same
seeded games (``--level`` bot in every seat) and prints

- the win share of each **place in the order of play** (0 = the player who began; the first
  player is drawn at random, so a seat number says nothing) with its Wilson 95 % interval;
- turns per game and per place, raids per place, mean final score per place;
- which kinds of points win: the mean points of a player and of a winner from raids (the
  village's glory: raid cards, zones, heroes' raid glory, the mead hall's slot), buildings,
  ships and vikings (1 per 3 of a type, 1 per set of three);
- how much of the first place's edge is structural: the game ends at once after the last
  raid (ruling R17), so the earlier places may have had one turn more. The figures are split
  into games that ended with every place on the same number of turns and the others, and the
  games are also judged **at equal length**: by the scores after the last round that every
  place completed (read from the public view), as if the game had stopped there.

Several ``--cards`` are played side by side with the same seeds, so a change of numbers is
compared in one run:

    nice -n 10 .venv/bin/python bench/name_of_odin_balance.py                        # starter
    nice -n 10 .venv/bin/python bench/name_of_odin_balance.py --cards old.toml starter
    nice -n 10 .venv/bin/python bench/name_of_odin_balance.py -p 2 4 -n 100           # a screen

It uses only the engine's public API (``rules_of("name-of-odin")``, set-up ``{"cards": {...}}``,
views) and the bots of :mod:`odin_cards.name_of_odin.bots`; each bot sees only its seat's view.
``--workers`` processes (default 1) play the games; results do not depend on it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from odin_cards.games import rules_of
from odin_cards.name_of_odin.bots import ask, make_bot
from odin_cards.name_of_odin.rules import load_cards, starter_cards

GAME = "name-of-odin"
KINDS = ("raids", "buildings", "ships", "vikings")
"""The kinds of final points, as this benchmark groups them."""
MAX_ACTIONS = 20_000
"""A game still running after this many actions is a bot or rules bug, never a result."""
Z95 = 1.959964


def card_set(spec: str) -> dict[str, Any]:
    """The card set ``spec`` names (``starter`` or a card file), validated, as set-up data."""
    cards = starter_cards() if spec == "starter" else load_cards(spec)
    return cards.to_dict()


def village_points(village: Mapping[str, Any]) -> dict[str, int]:
    """A village's points by kind if the game were scored now, from its public view."""
    vikings = [village["vikings"][v] for v in ("W", "T", "S")]
    return {
        "raids": village["glory"],
        "buildings": sum(b["glory"] for b in village["buildings"]),
        "ships": sum(s["glory"] for s in village["ships"]),
        "vikings": sum(n // 3 for n in vikings) + min(vikings),
    }


def winners_of(scores: Sequence[int], raids: Sequence[int]) -> list[int]:
    """The rulebook's winners: most points, then fewer raids; still tied, all share."""
    best = max(zip(scores, (-r for r in raids), strict=True))
    return [s for s in range(len(scores)) if (scores[s], -raids[s]) == best]


@dataclass(frozen=True, slots=True)
class Played:
    """One finished game, by place in the order of play (index 0 = the first player)."""

    turns: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    raids: tuple[int, ...]
    points: tuple[dict[str, int], ...]
    equal_winners: tuple[int, ...]
    """The winners judged after the last round every place completed."""


def play(players: int, setup: Mapping[str, Any], seed: str, level: str) -> Played:
    """One game with a ``level`` bot in every seat; each bot is shown only its seat's view."""
    game = rules_of(GAME).new_game(players, setup, seed)
    bots = [make_bot(level) for _ in range(players)]
    rngs = [random.Random(f"bots:{seed}:{seat}") for seat in range(players)]
    turn = 1
    at_round: list[dict[str, int]] | None = None
    view: Mapping[str, Any] = game.view(None)
    while not game.is_over:
        if game.action_count >= MAX_ACTIONS:
            raise RuntimeError(f"game {seed!r} not over after {MAX_ACTIONS} actions")
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        if view["turn"] != turn:
            turn = view["turn"]
            if (turn - 1) % players == 0:  # a round is complete: every place had as many turns
                at_round = [village_points(v) for v in view["villages"]]
        game.apply(ask(bots[seat], view, rngs[seat]), seat=seat)
    final = game.view(None)
    first = final["first_player"]
    order = [(first + place) % players for place in range(players)]
    villages = final["villages"]
    points = tuple(village_points(villages[s]) for s in order)
    raids = tuple(len(villages[s]["raids"]) for s in order)
    scores = tuple(sum(p.values()) for p in points)
    # Scores at the end of the last complete round (none yet: nobody scored anything).
    equal = [0] * players if at_round is None else [sum(at_round[s].values()) for s in order]
    if final["turn"] % players == 0:  # the last place ended it: every place had as many turns
        equal = list(scores)
    outcome = game.outcome
    assert outcome is not None
    if sorted(scores) != sorted(outcome.scores):
        raise RuntimeError(f"game {seed!r}: points from the view disagree with the outcome")
    return Played(
        turns=final["turn"],
        scores=scores,
        winners=tuple(order.index(s) for s in outcome.winners),
        raids=raids,
        points=points,
        equal_winners=tuple(winners_of(equal, raids)),
    )


def play_job(job: tuple[int, dict[str, Any], str, str]) -> Played:
    players, setup, seed, level = job
    return play(players, setup, seed, level)


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The Wilson 95 % interval of a share ``wins / games``."""
    if games == 0:
        return (0.0, 1.0)
    share = wins / games
    denominator = 1 + Z95**2 / games
    centre = (share + Z95**2 / (2 * games)) / denominator
    half = Z95 * math.sqrt(share * (1 - share) / games + Z95**2 / (4 * games**2)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Totals:
    """Sums over the games of one card set and player count."""

    players: int
    games: int = 0
    turns: int = 0
    wins: list[float] = field(default_factory=list)
    equal_wins: list[float] = field(default_factory=list)
    same_turns_games: int = 0
    same_turns_wins: list[float] = field(default_factory=list)
    place_turns: list[int] = field(default_factory=list)
    raids: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=dict)
    winner_points: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        zeros = [0] * self.players
        self.wins = [0.0] * self.players
        self.equal_wins = [0.0] * self.players
        self.same_turns_wins = [0.0] * self.players
        self.place_turns, self.raids, self.scores = list(zeros), list(zeros), list(zeros)
        self.points = dict.fromkeys(KINDS, 0)
        self.winner_points = dict.fromkeys(KINDS, 0.0)

    def add(self, game: Played) -> None:
        players = self.players
        self.games += 1
        self.turns += game.turns
        same = game.turns % players == 0
        self.same_turns_games += same
        for place in range(players):
            self.place_turns[place] += (game.turns - place + players - 1) // players
            self.raids[place] += game.raids[place]
            self.scores[place] += game.scores[place]
            for kind in KINDS:
                self.points[kind] += game.points[place][kind]
        for place in game.winners:
            self.wins[place] += 1 / len(game.winners)
            if same:
                self.same_turns_wins[place] += 1 / len(game.winners)
            for kind in KINDS:
                self.winner_points[kind] += game.points[place][kind] / len(game.winners)
        for place in game.equal_winners:
            self.equal_wins[place] += 1 / len(game.equal_winners)

    def summary(self) -> dict[str, Any]:
        """JSON-safe figures: shares with their intervals, means per game / player / place."""
        games, players = self.games, self.players
        other = games - self.same_turns_games
        return {
            "players": players,
            "games": games,
            "win_share": [w / games for w in self.wins],
            "win_interval": [wilson(w, games) for w in self.wins],
            "turns_per_game": self.turns / games,
            "turns_per_place": [t / games for t in self.place_turns],
            "raids_per_place": [r / games for r in self.raids],
            "score_per_place": [s / games for s in self.scores],
            "mean_score": sum(self.scores) / (games * players),
            "points_per_player": {k: v / (games * players) for k, v in self.points.items()},
            "points_per_winner": {k: v / games for k, v in self.winner_points.items()},
            "same_turns_games": self.same_turns_games,
            "win_share_same_turns": [
                w / self.same_turns_games if self.same_turns_games else None
                for w in self.same_turns_wins
            ],
            "win_share_other_games": [
                (w - s) / other if other else None
                for w, s in zip(self.wins, self.same_turns_wins, strict=True)
            ],
            "win_share_equal_length": [w / games for w in self.equal_wins],
            "equal_length_interval": [wilson(w, games) for w in self.equal_wins],
        }


def measure(
    specs: Sequence[str], counts: Sequence[int], games: int, seed: int, level: str, workers: int
) -> dict[str, dict[int, dict[str, Any]]]:
    """Figures per card set and player count; every card set plays the same seeds."""
    sets = {spec: card_set(spec) for spec in specs}
    jobs = [
        (spec, players, {"cards": sets[spec]}, f"balance:{seed}:{players}:{index}")
        for players in counts
        for spec in specs
        for index in range(games)
    ]
    totals = {spec: {players: Totals(players) for players in counts} for spec in specs}
    work = [(players, setup, game_seed, level) for _, players, setup, game_seed in jobs]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(play_job, work, chunksize=8))
    else:
        results = [play_job(job) for job in work]
    for (spec, players, _, _), played in zip(jobs, results, strict=True):
        totals[spec][players].add(played)
    return {spec: {p: t.summary() for p, t in by.items()} for spec, by in totals.items()}


def shares(values: Sequence[float | None]) -> str:
    return " / ".join("-" if v is None else f"{v:.3f}" for v in values)


def report(figures: Mapping[str, Mapping[int, Mapping[str, Any]]], games: int) -> str:
    """The figures as a readable text, card sets side by side per player count."""
    lines: list[str] = []
    specs = list(figures)
    counts = sorted({p for by in figures.values() for p in by})
    for players in counts:
        lines.append(
            f"== {players} players, {games} games per card set (fair share {1 / players:.3f})"
        )
        for spec in specs:
            f = figures[spec][players]
            lines.append(f"-- {spec}")
            wins = ", ".join(
                f"{share:.3f} ({low:.3f}-{high:.3f})"
                for share, (low, high) in zip(f["win_share"], f["win_interval"], strict=True)
            )
            lines.append(f"   win share by place     {wins}")
            lines.append(
                f"   turns/game {f['turns_per_game']:.1f}; per place "
                f"{shares(f['turns_per_place'])}; raids per place {shares(f['raids_per_place'])}"
            )
            lines.append(
                f"   mean score {f['mean_score']:.1f}; per place {shares(f['score_per_place'])}"
            )
            per_player = ", ".join(f"{k} {v:.1f}" for k, v in f["points_per_player"].items())
            per_winner = ", ".join(f"{k} {v:.1f}" for k, v in f["points_per_winner"].items())
            lines.append(f"   points of a player     {per_player}")
            lines.append(f"   points of a winner     {per_winner}")
            equal = ", ".join(
                f"{share:.3f} ({low:.3f}-{high:.3f})"
                for share, (low, high) in zip(
                    f["win_share_equal_length"], f["equal_length_interval"], strict=True
                )
            )
            lines.append(f"   judged at equal length {equal}")
            lines.append(
                f"   games ending with equal turns: {f['same_turns_games']}; win share there "
                f"{shares(f['win_share_same_turns'])}; in the others "
                f"{shares(f['win_share_other_games'])}"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--cards", nargs="+", default=["starter"], help="card sets: 'starter' or card files"
    )
    parser.add_argument("-p", "--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("-n", "--games", type=int, default=200, help="games per set and count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="heuristic", help="bot level in every seat")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the games")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    if not all(2 <= p <= 5 for p in args.players):
        parser.error("player counts are 2 to 5")
    if not 1 <= args.games <= 100_000 or not 1 <= args.workers <= 64:
        parser.error("--games is 1 to 100000, --workers 1 to 64")
    start = time.perf_counter()
    figures = measure(args.cards, args.players, args.games, args.seed, args.level, args.workers)
    print(report(figures, args.games))
    print(f"({time.perf_counter() - start:.0f} s, {args.level} bots, seed {args.seed})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
