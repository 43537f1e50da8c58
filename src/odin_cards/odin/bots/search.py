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
* Rollouts use the current heuristic (:data:`~.policy.STYLE`), played in the batch
  simulator's compiled kernels when numba is installed (``compiled``; :class:`Playouts`):
  the same moves, 2.5 to 4 times the iterations in the same time, measured no stronger
  (docs/bots.md).

:data:`GUIDED` (level ``search-net``) is :data:`CURRENT` with the learned value network
(:mod:`.network`) at the leaves: half of a leaf's reward is the network's estimate, half a
full rollout's. ``Settings.value_after`` without ``mix`` replaces the rollout by a few
heuristic moves and the network (3-4 times the iterations); measured weaker (docs/bots.md).

The learned policy (:mod:`.learned`, distilled from this search's root visits) can serve as
a root prior (``Settings.prior``, a PUCT term), as the order of expansion below the root
(``policy_expand``) and as the rollout policy (``policy_rollout``). All are off in the
levels: none was measured stronger than :data:`CURRENT` at equal think time (docs/bots.md).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from odin_cards.odin.bots.base import Bot, Budget
from odin_cards.odin.bots.compiled import prepare, vector
from odin_cards.odin.bots.heuristic import view_choice
from odin_cards.odin.bots.inference import MODEL, DealModel, weighted_deals
from odin_cards.odin.bots.knowledge import Knowledge, others_of_mover
from odin_cards.odin.bots.learned import Decision, PolicyNet, shipped_policy
from odin_cards.odin.bots.network import ValueNet, shipped
from odin_cards.odin.bots.policy import FIRST as FIRST_STYLE
from odin_cards.odin.bots.policy import STYLE, Style
from odin_cards.odin.bots.policy import choose as policy_choose
from odin_cards.odin.rules import Action, Game, HandEnd, View
from odin_cards.odin.rules.cards import deck_mask
from odin_cards.odin.rules.game import OVER
from odin_cards.odin.rules.position import HandSampler

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
    model: DealModel | None
    """The opponent model weighting deals (``None``: uniform deals)."""
    sure_wins: bool
    """Always take a finishing lead or a play that empties the hand; break ties sensibly."""
    learned: bool = False
    """Judge leaves with the value network (else: heuristic rollouts to the hand's end)."""
    value: ValueNet | None = field(default=None, compare=False)
    """The value network to use (``None``: the one shipped with the package)."""
    value_after: int = 0
    """With a value network: heuristic moves played from the leaf before it judges."""
    mix: float = 0.0
    """With a value network and ``mix`` > 0: the leaf's reward is ``mix`` times the
    network's estimate at the leaf plus the rest times a full rollout's (no speed-up:
    less noise)."""
    policy: PolicyNet | None = field(default=None, compare=False)
    """The learned policy to use (``None``: the one shipped with the package)."""
    policy_expand: bool = False
    """Add new nodes in the learned policy's order (most probable first) instead of the
    heuristic's move first and the others at random."""
    prior: float = 0.0
    """With ``prior`` > 0: at the root, UCB gets a PUCT term ``prior * P(move) *
    sqrt(visits) / (1 + move's visits)`` with ``P`` the learned policy's distribution from
    the seat's view, and the root's moves are tried in its order."""
    policy_rollout: bool = False
    """Roll out with the learned policy's most probable move instead of the heuristic's."""
    compiled: bool = False
    """Play heuristic rollouts in the batch simulator's compiled kernels when numba is
    installed (:class:`odin_cards.odin.sim.rollout.HeuristicPlayouts`): the same play-outs
    move for move, about twenty times faster, so more iterations in the same time."""


FIRST: Final = Settings(style=FIRST_STYLE, game_reward=False, model=None, sure_wins=False)
"""Version 0.2's search, kept as the level ``search-v1`` for comparison."""
CURRENT: Final = Settings(
    style=STYLE, game_reward=False, model=MODEL, sure_wins=True, compiled=True
)
"""The search of the levels ``search`` and ``expert``."""
GUIDED: Final = Settings(
    style=STYLE,
    game_reward=False,
    model=MODEL,
    sure_wins=True,
    learned=True,
    mix=0.5,
    compiled=True,
)
"""The search of the level ``search-net``: :data:`CURRENT` whose leaves are judged half
by a rollout and half by the value network (:mod:`.network`)."""


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

    def prepare(self) -> None:
        if self.settings.compiled:
            prepare(wait=True)

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
    priors: dict[int, float] | None = None
    if settings.prior > 0:
        net = settings.policy if settings.policy is not None else shipped_policy()
        legal = base.legal_actions()
        probabilities = net.probabilities(Decision.of_view(view), legal)
        priors = {a.id: float(p) for a, p in zip(legal, probabilities, strict=True)}
    playouts = Playouts(base, deck, hand_number, settings)
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
        _iterate(root, game, deck, hand_number, rng, settings, priors, playouts)
        done += 1
    return root


def _iterate(
    root: _Node,
    game: Game,
    deck: int,
    hand_number: int,
    rng: random.Random,
    settings: Settings,
    priors: dict[int, float] | None = None,
    playouts: Playouts | None = None,
) -> None:
    if playouts is None:
        playouts = Playouts(game, deck, hand_number, settings)
    node = root
    path = []
    net = None
    if settings.policy_expand or settings.policy_rollout:
        net = settings.policy if settings.policy is not None else shipped_policy()
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
            if node is root and priors is not None:
                action = max(untried, key=lambda a: priors.get(a.id, 0.0))
            elif net is not None and settings.policy_expand:
                action = _most_probable(net, Decision.of_game(game, deck), legal, untried)
            else:
                first = playouts.move(game, legal)
                action = first if first in untried else untried[rng.randrange(len(untried))]
            child = _Node(game.to_move)
            children[action.id] = child
            game.apply_unchecked(action)
            path.append(child)
            break
        best_score = -math.inf
        best_action = tried[0]
        puct = settings.prior * math.sqrt(node.visits) if node is root and priors else 0.0
        for action in tried:
            child = children[action.id]
            score = child.total / child.visits + EXPLORATION * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if puct:
                assert priors is not None
                score += puct * priors.get(action.id, 0.0) / (1 + child.visits)
            if score > best_score:
                best_score, best_action = score, action
        node = children[best_action.id]
        game.apply_unchecked(best_action)
        path.append(node)
    if settings.learned and settings.mix > 0:
        value = settings.value if settings.value is not None else shipped()
        mix = settings.mix
        guess = (
            value.values(game) if game.phase != OVER and game.hand_number == hand_number else None
        )
        rewards = hand_rewards(playouts.points(game))
        if guess is not None:
            rewards = [(1 - mix) * r + mix * g for r, g in zip(rewards, guess, strict=True)]
    elif settings.learned:
        value = settings.value if settings.value is not None else shipped()
        rewards = _judge(game, deck, hand_number, settings.style, value, settings.value_after)
    elif net is not None and settings.policy_rollout:
        rewards = hand_rewards(policy_rollout(game, deck, hand_number, net))
    else:
        points = playouts.points(game)
        rewards = game_rewards(game, points) if settings.game_reward else hand_rewards(points)
    for node in path:
        node.visits += 1
        node.total += rewards[node.mover]


class Playouts:
    """The heuristic of a search's rollouts and first expansions, for one decision.

    Compiled when the settings ask for it and numba is installed
    (:class:`odin_cards.odin.sim.rollout.HeuristicPlayouts`: the same moves, about twenty
    times faster), else the engine's (:func:`rollout`, :func:`rollout_move`).
    """

    def __init__(self, game: Game, deck: int, hand_number: int, settings: Settings) -> None:
        self.deck = deck
        self.hand_number = hand_number
        self.style = settings.style
        self.compiled = None
        if settings.compiled and prepare(wait=False):
            from odin_cards.odin.sim.rollout import HeuristicPlayouts

            self.compiled = HeuristicPlayouts(game, vector(settings.style))

    def points(self, game: Game) -> tuple[int, ...]:
        """Each seat's points when the heuristic plays the searched hand out from ``game``
        (the hand's points if it has ended already)."""
        if self.compiled is None:
            return rollout(game, self.deck, self.hand_number, self.style)
        if game.phase == OVER or game.hand_number != self.hand_number:
            return _hand_end(game)
        return self.compiled.points(game)

    def move(self, game: Game, legal: Sequence[Action]) -> Action:
        """The heuristic's move for the seat to move in ``game``."""
        if self.compiled is None or len(legal) == 1:
            return rollout_move(game, self.deck, legal, self.style)
        return self.compiled.action(game)


def _hand_end(game: Game) -> tuple[int, ...]:
    """The points of the hand that ``game`` last finished."""
    for event in reversed(game.history):
        if isinstance(event, HandEnd):
            return event.points
    raise AssertionError("a hand ended without a hand end")


def _most_probable(
    net: PolicyNet, d: Decision, legal: Sequence[Action], among: Sequence[Action]
) -> Action:
    """The move of ``among`` (a part of ``legal``) that the policy finds most probable."""
    if len(among) == 1:
        return among[0]
    probabilities = net.probabilities(d, legal)
    ids = {a.id for a in among}
    best, best_p = among[0], -1.0
    for action, p in zip(legal, probabilities, strict=True):
        if action.id in ids and p > best_p:
            best, best_p = action, float(p)
    return best


def policy_rollout(game: Game, deck: int, hand_number: int, net: PolicyNet) -> tuple[int, ...]:
    """Play the hand out with the learned policy's most probable moves; each seat's points."""
    while game.phase != OVER and game.hand_number == hand_number:
        legal = game.legal_actions()
        if len(legal) == 1:
            game.apply_unchecked(legal[0])
        else:
            game.apply_unchecked(net.best(Decision.of_game(game, deck), legal))
    return _hand_end(game)


def _judge(
    game: Game, deck: int, hand_number: int, style: Style, value: ValueNet, moves: int
) -> list[float]:
    """Each seat's reward: ``moves`` heuristic moves, then the value network's estimate.

    A hand that ends on the way is scored exactly (the hand's margins).
    """
    for _ in range(moves):
        if game.phase == OVER or game.hand_number != hand_number:
            break
        game.apply_unchecked(rollout_move(game, deck, game.legal_actions(), style))
    if game.phase == OVER or game.hand_number != hand_number:
        return hand_rewards(_hand_end(game))
    return value.values(game)


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


def rollout_move(game: Game, deck: int, legal: Sequence[Action], style: Style) -> Action:
    """The heuristic move of the seat to move, judged from what that seat could know."""
    if len(legal) == 1:
        return legal[0]
    hands = game.hands
    return policy_choose(
        game.to_move,
        game.players,
        game.phase,
        hands[game.to_move],
        game.table,
        game.table_player,
        game.beaten,
        others_of_mover(game, deck),
        [h.bit_count() for h in hands],
        legal,
        style,
    )


def rollout(game: Game, deck: int, hand_number: int, style: Style = STYLE) -> tuple[int, ...]:
    """Play the hand out with the heuristic policy; return each seat's points for it."""
    while game.phase != OVER and game.hand_number == hand_number:
        game.apply_unchecked(rollout_move(game, deck, game.legal_actions(), style))
    return _hand_end(game)


__all__ = [
    "CURRENT",
    "FIRST",
    "GUIDED",
    "SearchBot",
    "Settings",
    "best_child",
    "game_rewards",
    "hand_rewards",
    "policy_rollout",
    "rollout",
    "rollout_move",
    "search",
]
