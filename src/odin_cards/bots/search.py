"""Level 3+: information-set Monte Carlo tree search from one seat's view.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). Odin hides only the
cards in hand; every move is public, so one tree indexed by actions serves all
seats: each node's children are moves of the seat to move there, chosen by UCB on
*that* seat's reward. Each iteration:

1. **Determinize.** Draw the other hands uniformly among the deals consistent with
   everything the seat knows (the rules' :class:`HandSampler`) and put them into a
   game rebuilt from the view (:meth:`Game.from_view`, then :meth:`Game.with_hands`).
   The bot never sees the real game: only these samples.
2. **Select / expand.** Walk down the tree, considering only the children legal in
   this determinization (UCB uses their availability counts), and add one new
   node: the heuristic's move first, then the others in random order.
3. **Roll out** to the end of the hand with the heuristic policy (:mod:`.policy`),
   each seat judging from what *it* could know in that sampled game.
4. **Back up** every seat's reward: the opponents' average points minus its own
   at the end of the hand (scaled by 1/10).

The move played is the root's most visited child. Rollouts stop at the hand's end:
the next deal is pure chance and the reward already says who gained.

What a search plays with is its :class:`Settings`. :data:`CURRENT` (levels ``search``
and ``expert``) improves on version 0.2's search (:data:`FIRST`, level ``search-v1``):

* **Opponent model.** Deals are drawn from a pool of uniform samples resampled by how
  likely each makes the opponents' plays and passes (:mod:`.inference`).
* **A reward that knows the game** (``game_reward``, off in :data:`CURRENT`): at the
  hand's end the seat's reward is its chance of winning the game (exact when the game
  ends: one hand, or the target reached; else estimated from the totals and the points
  still to come), plus a small part of the hand's margin. Measured weaker than the
  hand's margin (docs/bots.md), so the levels keep the margin.
* **Ties and certain wins.** A finishing lead or a play that empties the hand is
  always taken (the seat scores nothing this hand); among equally visited moves the
  better mean wins, then the heuristic's move, never merely the first legal one.
* Rollouts use the current heuristic (:data:`~.policy.STYLE`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..rules import Action, Game, HandEnd, View
from ..rules.cards import deck_mask
from ..rules.game import OVER
from ..rules.position import HandSampler
from .base import Bot, Budget
from .heuristic import view_choice
from .inference import MODEL, OpponentModel, weighted_deals
from .knowledge import Knowledge
from .policy import FIRST as FIRST_STYLE
from .policy import STYLE, Style
from .policy import choose as policy_choose

EXPLORATION = 0.3
"""UCB exploration constant for rewards scaled to about [-1, 1]."""
WIDENING = 1.0
"""Progressive widening below the root: a node visited n times has about sqrt(n)
children, the heuristic's move first, so that iterations are not spent on every
far-fetched reply of every opponent."""
REWARD_SCALE = 0.1
MARGIN_SHARE = 0.25
"""Part of the game-aware reward taken by the hand's margin (scaled as in version 0.2)."""
HAND_SPREAD = 2.5
"""Rough spread of one seat's points in one hand, for the chance of winning a game."""
POOL = 128
"""Uniform deals drawn per decision and resampled by the opponent model."""
POOL_TIME = 0.1
"""The most of a timed decision spent drawing and weighing the pool."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What one version of the search plays with."""

    style: Style
    """The heuristic of the rollouts and of the first expansion."""
    game_reward: bool
    """Reward the chance of winning the game (else: the hand's margin alone)."""
    model: OpponentModel | None
    """The opponent model weighting deals (``None``: uniform deals)."""
    sure_wins: bool
    """Always take a finishing lead or a play that empties the hand; break ties sensibly."""


FIRST: Final = Settings(style=FIRST_STYLE, game_reward=False, model=None, sure_wins=False)
"""Version 0.2's search, kept as the level ``search-v1`` for comparison."""
CURRENT: Final = Settings(style=STYLE, game_reward=False, model=MODEL, sure_wins=True)
"""The search of the levels ``search`` and ``expert``."""


class _Node:
    """A node of the tree: the statistics of the move that led to it."""

    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        """The seat that made the move into this node (whose reward it keeps)."""
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class SearchBot(Bot):
    """Information-set MCTS with heuristic rollouts; see the module docstring.

    ``seconds`` / ``iterations`` are the default budget, used when the budget a
    caller passes sets neither.
    """

    level = "search"

    def __init__(
        self,
        seconds: float | None = 0.5,
        iterations: int | None = None,
        settings: Settings = CURRENT,
    ) -> None:
        self.seconds = seconds
        self.iterations = iterations
        self.settings = settings

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        seconds, iterations = budget.seconds, budget.iterations
        if seconds is None and iterations is None:
            seconds, iterations = self.seconds, self.iterations
        deadline = None if seconds is None else start + seconds
        if view.seat is None or view.to_move != view.seat:
            raise ValueError("a bot decides only for its own seat, on its turn")
        settings = self.settings
        if settings.sure_wins:
            hand = Knowledge.of(view).hand
            for action in legal:
                if action.mask == hand:
                    return action  # a finishing lead or going out: nothing scores less
        root = search(view, rng, deadline, iterations, settings)
        if not settings.sure_wins:
            return best_child(root, legal)
        return best_child(root, legal, view_choice(view, legal, settings.style))


def best_child(root: _Node, legal: Sequence[Action], prefer: Action | None = None) -> Action:
    """The most visited legal move at the root.

    Among equals the best mean wins, then ``prefer`` (the heuristic's move), then the
    first legal move (version 0.2 knew only the last rule).
    """
    best = legal[0]
    best_key: tuple[int, float, bool] = (-1, -math.inf, False)
    for action in legal:
        node = root.children.get(action.id)
        if node is None:
            continue
        mean = node.total / node.visits if node.visits else -math.inf
        key = (node.visits, mean, action == prefer)
        if key > best_key:
            best_key, best = key, action
    return best


def search(
    view: View,
    rng: random.Random,
    deadline: float | None,
    iterations: int | None,
    settings: Settings = CURRENT,
) -> _Node:
    """Run ISMCTS until the deadline or the iteration count; return the root."""
    sampler = HandSampler.of(view)
    base = Game.from_view(view, sampler.draw(rng))
    deck = deck_mask((c for c in range(6) if c not in base.removed), base.options.goat)
    root = _Node(-1)
    hand_number = base.hand_number
    pool: list[list[int]] = []
    cumulative: list[float] = []
    if settings.model is not None and (iterations is None or iterations > 1):
        until = None
        if deadline is not None:
            until = time.perf_counter() + POOL_TIME * (deadline - time.perf_counter())
        pool, cumulative = weighted_deals(view, rng, POOL, settings.model, sampler, until)
    done = 0
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        if iterations is None and deadline is None:
            break
        hands = rng.choices(pool, cum_weights=cumulative)[0] if pool else sampler.draw(rng)
        game = base.with_hands(hands, history=False)
        _iterate(root, game, deck, hand_number, rng, settings)
        done += 1
    return root


def _iterate(
    root: _Node,
    game: Game,
    deck: int,
    hand_number: int,
    rng: random.Random,
    settings: Settings,
) -> None:
    node = root
    path = []
    while game.phase != OVER and game.hand_number == hand_number:
        legal = game.legal_actions()
        children = node.children
        untried = []
        tried = []
        for action in legal:
            child = children.get(action.id)
            if child is None:
                untried.append(action)
            else:
                child.avail += 1
                tried.append(action)
        if untried and (
            node is root or not tried or len(tried) < WIDENING * math.sqrt(node.visits)
        ):
            first = _policy(game, deck, legal, settings.style)
            action = first if first in untried else untried[rng.randrange(len(untried))]
            child = _Node(game.to_move)
            children[action.id] = child
            game.apply_unchecked(action)
            path.append(child)
            break
        best_score = -math.inf
        best_action = tried[0]
        for action in tried:
            child = children[action.id]
            score = child.total / child.visits + EXPLORATION * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if score > best_score:
                best_score, best_action = score, action
        node = children[best_action.id]
        game.apply_unchecked(best_action)
        path.append(node)
    points = rollout(game, deck, hand_number, settings.style)
    rewards = game_rewards(game, points) if settings.game_reward else hand_rewards(points)
    for node in path:
        node.visits += 1
        node.total += rewards[node.mover]


def hand_rewards(points: Sequence[int]) -> list[float]:
    """Per seat, the others' mean points minus its own in this hand (scaled by 1/10)."""
    players = len(points)
    total = sum(points)
    return [REWARD_SCALE * ((total - own) / (players - 1) - own) for own in points]


def game_rewards(game: Game, points: Sequence[int]) -> list[float]:
    """Per seat, its chance of winning the game after this hand, plus a part of the margin.

    The chance is rescaled so that a fair share is 0 and a sure win 1. When the game
    is over it is the seat's share of the victory; otherwise a softmax of the totals
    whose temperature grows with the hands still to play (about the points left before
    the target over the points a hand gives).
    """
    players = len(points)
    scores = game.scores
    if game.phase == OVER:
        best = min(scores)
        winners = [s for s in range(players) if scores[s] == best]
        chances = [1 / len(winners) if s in winners else 0.0 for s in range(players)]
    else:
        left = max(1, game.options.target - max(scores))
        per_hand = max(1.0, sum(points) / players)
        spread = HAND_SPREAD * math.sqrt(1 + left / per_hand)
        low = min(scores)
        exps = [math.exp(-(score - low) / spread) for score in scores]
        norm = sum(exps)
        chances = [e / norm for e in exps]
    margins = hand_rewards(points)
    share = MARGIN_SHARE
    return [
        (1 - share) * (players * chance - 1) / (players - 1) + share * margin
        for chance, margin in zip(chances, margins, strict=True)
    ]


def _policy(game: Game, deck: int, legal: Sequence[Action], style: Style) -> Action:
    """The heuristic move of the seat to move, judged from what that seat could know."""
    if len(legal) == 1:
        return legal[0]
    seat = game.to_move
    hands = game.hands
    table = game.table
    beaten = game.beaten
    seen = hands[seat] | game.discards
    if table is not None:
        seen |= table.mask
    if beaten is not None:
        seen |= beaten.mask
    return policy_choose(
        seat,
        game.players,
        game.phase,
        hands[seat],
        table,
        game.table_player,
        beaten,
        deck & ~seen,
        [h.bit_count() for h in hands],
        legal,
        style,
    )


def rollout(game: Game, deck: int, hand_number: int, style: Style = STYLE) -> tuple[int, ...]:
    """Play the hand out with the heuristic policy; return each seat's points for it."""
    while game.phase != OVER and game.hand_number == hand_number:
        game.apply_unchecked(_policy(game, deck, game.legal_actions(), style))
    for event in reversed(game.history):
        if isinstance(event, HandEnd):
            return event.points
    raise AssertionError("a rollout ended without a hand end")


__all__ = [
    "CURRENT",
    "FIRST",
    "SearchBot",
    "Settings",
    "best_child",
    "game_rewards",
    "hand_rewards",
    "rollout",
    "search",
]
