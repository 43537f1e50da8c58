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
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from ..rules import Action, Game, HandEnd, View
from ..rules.cards import deck_mask
from ..rules.game import OVER
from ..rules.position import HandSampler
from .base import Bot, Budget
from .policy import choose as policy_choose

EXPLORATION = 0.3
"""UCB exploration constant for rewards scaled to about [-1, 1]."""
WIDENING = 1.0
"""Progressive widening below the root: a node visited n times has about sqrt(n)
children, the heuristic's move first, so that iterations are not spent on every
far-fetched reply of every opponent."""
REWARD_SCALE = 0.1


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

    def __init__(self, seconds: float | None = 0.5, iterations: int | None = None) -> None:
        self.seconds = seconds
        self.iterations = iterations

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
        root = search(view, rng, deadline, iterations)
        return best_child(root, legal)


def best_child(root: _Node, legal: Sequence[Action]) -> Action:
    """The most visited legal move at the root (the best mean among equals)."""
    best = legal[0]
    best_key = (-1, -math.inf)
    for action in legal:
        node = root.children.get(action.id)
        if node is None:
            continue
        key = (node.visits, node.total / node.visits if node.visits else -math.inf)
        if key > best_key:
            best_key, best = key, action
    return best


def search(
    view: View,
    rng: random.Random,
    deadline: float | None,
    iterations: int | None,
) -> _Node:
    """Run ISMCTS until the deadline or the iteration count; return the root."""
    sampler = HandSampler.of(view)
    base = Game.from_view(view, sampler.draw(rng))
    deck = deck_mask((c for c in range(6) if c not in base.removed), base.options.goat)
    root = _Node(-1)
    hand_number = base.hand_number
    done = 0
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        if iterations is None and deadline is None:
            break
        game = base.with_hands(sampler.draw(rng), history=False)
        _iterate(root, game, deck, hand_number, rng)
        done += 1
    return root


def _iterate(root: _Node, game: Game, deck: int, hand_number: int, rng: random.Random) -> None:
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
            first = _policy(game, deck, legal)
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
    points = rollout(game, deck, hand_number)
    players = len(points)
    total = sum(points)
    for node in path:
        own = points[node.mover]
        node.visits += 1
        node.total += REWARD_SCALE * ((total - own) / (players - 1) - own)


def _policy(game: Game, deck: int, legal: Sequence[Action]) -> Action:
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
    )


def rollout(game: Game, deck: int, hand_number: int) -> tuple[int, ...]:
    """Play the hand out with the heuristic policy; return each seat's points for it."""
    while game.phase != OVER and game.hand_number == hand_number:
        game.apply_unchecked(_policy(game, deck, game.legal_actions()))
    for event in reversed(game.history):
        if isinstance(event, HandEnd):
            return event.points
    raise AssertionError("a rollout ended without a hand end")


__all__ = ["SearchBot", "rollout", "search"]
