"""The opponent model: how likely each sampled deal makes what the opponents did this hand.

A uniform sample of the hidden cards ignores what the opponents' plays and passes
reveal: a seat that passed on a single 3 rarely held a 9, a leader who could have
played a finishing lead did not hold one, a leader tends to lead the card whose loss
leaves the best hand. :class:`OpponentModel` scores one deal by the probability it
gives, under these rules of thumb, to every public action of every other seat since
the hand was dealt; :func:`weighted_deals` draws deals uniformly (the rules' sampler)
and resamples them by that score, so the search's determinizations follow what the
seat has seen (sampling-importance-resampling).

Each seat's hand at each of its past decisions is rebuilt from the deal by undoing
the plays and takes that followed; only the public history is read, so the weights
depend on nothing a seat may not know. How much probability the model gives the
true hands, compared with the uniform sampler, is measured by :func:`true_deal_gain`
(see docs/bots.md).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

import numpy as np

from odin_cards.odin.bots.hand import is_one_set
from odin_cards.odin.bots.policy import STYLE, Style, can_beat, hand_cost
from odin_cards.odin.rules import View
from odin_cards.odin.rules.actions import PASS_ACTION, PLAY_BY_MASK, TAKE_ACTIONS
from odin_cards.odin.rules.cards import mask_of, parse_card
from odin_cards.odin.rules.position import HandSampler

LEAD_STEP, FOLLOW_STEP, PASS_STEP, TAKE_STEP = 0, 1, 2, 3
"""The kinds of :class:`Step`."""


@dataclass(frozen=True, slots=True)
class Step:
    """One public action of the hand, as the model reads it."""

    kind: int
    seat: int
    mask: int
    """The cards played, or the card taken (0 for a pass)."""
    size: int
    """For a pass: the size of the set on the table."""
    value: int
    """For a pass: the value of the set on the table."""


def _this_hand(view: View) -> tuple[dict[str, Any], ...]:
    """The view's events since the current hand's deal."""
    history = view.history
    for index in range(len(history) - 1, -1, -1):
        if history[index].get("type") == "deal":
            return history[index:]
    return history


def hand_steps(view: View) -> tuple[Step, ...]:
    """The public actions of the current hand in order (plays, passes, takes)."""
    steps: list[Step] = []
    table_size = 0
    table_value = 0
    for event in _this_hand(view):
        kind = event.get("type")
        if kind == "round":
            table_size = 0
        elif kind == "play":
            cards = mask_of(parse_card(c) for c in event["cards"])
            lead = table_size == 0
            steps.append(Step(LEAD_STEP if lead else FOLLOW_STEP, event["seat"], cards, 0, 0))
            table_size = cards.bit_count()
            table_value = int(event["value"])
        elif kind == "pass":
            steps.append(Step(PASS_STEP, event["seat"], 0, table_size, table_value))
        elif kind == "take":
            steps.append(Step(TAKE_STEP, event["seat"], mask_of([parse_card(event["card"])]), 0, 0))
    return tuple(steps)


def dealt(hands: Sequence[int], steps: Sequence[Step]) -> list[int]:
    """Every seat's hand as dealt, from its hand now (bitmasks) and the hand's ``steps``:
    the plays and takes undone."""
    current = list(hands)
    for step in reversed(steps):
        if step.kind == TAKE_STEP:
            current[step.seat] &= ~step.mask
        else:  # a pass has no cards: nothing to undo
            current[step.seat] |= step.mask
    return current


Weigher = Callable[[Sequence[Sequence[int]]], list[float]]
"""Log-weights (up to a constant) of deals: every seat's hand now, as bitmasks."""


class DealModel(Protocol):
    """How likely a deal makes what the other seats did this hand."""

    def weigher(self, view: View) -> Weigher:
        """A function weighing deals consistent with ``view`` (the seat to move's)."""
        ...


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """Hand-written likelihoods of an opponent's public actions given their hand.

    The figures were fitted by :func:`true_deal_gain` on recorded games between the
    project's bots (docs/bots.md gives the command and the result).
    """

    pass_when_able: float = 0.25
    """Probability of a pass by a seat that could have beaten the table."""
    pass_when_out: float = 0.05
    """... by a seat whose whole hand beats the table (it could have gone out)."""
    single_when_finishing: float = 0.05
    """Probability of leading a single while holding a finishing lead."""
    lead_sharpness: float = 2.0
    """How strongly leads follow the heuristic's judgement (a softmax over hand costs)."""

    def weigher(self, view: View) -> Weigher:
        """Log-weights of deals in ``view``'s position (see :class:`DealModel`)."""
        steps = hand_steps(view)
        seat = view.seat
        assert seat is not None
        return lambda deals: [self.log_weight(deal, steps, seat) for deal in deals]

    def log_weight(self, hands: Sequence[int], steps: Sequence[Step], observer: int) -> float:
        """Log-probability of the other seats' ``steps`` if the deal now is ``hands``."""
        current = dealt(hands, steps)
        total = 0.0
        for step in steps:
            seat = step.seat
            hand = current[seat]
            if step.kind == TAKE_STEP:
                current[seat] = hand | step.mask
                continue
            if step.kind != PASS_STEP:
                current[seat] = hand & ~step.mask
            if seat == observer:
                continue
            if step.kind == PASS_STEP:
                total += self._pass(hand, step)
            elif step.kind == LEAD_STEP:
                total += self._lead(hand, step.mask)
        return total

    def _pass(self, hand: int, step: Step) -> float:
        size = hand.bit_count()
        if not can_beat(hand, size, step.size, step.value):
            return 0.0
        goes_out = size == step.size + 1 or (
            size == step.size and PLAY_BY_MASK[hand].value > step.value
        )
        if goes_out and is_one_set(hand):
            return math.log(self.pass_when_out)
        return math.log(self.pass_when_able)

    def _lead(self, hand: int, led: int) -> float:
        if led.bit_count() > 1:
            return 0.0  # a finishing lead: the whole hand, nothing to learn
        if hand.bit_count() > 1 and is_one_set(hand):
            return math.log(self.single_when_finishing)
        sharp = self.lead_sharpness
        costs = []
        chosen = 0.0
        rest = hand
        while rest:
            bit = rest & -rest
            rest ^= bit
            cost = hand_cost(hand ^ bit)
            costs.append(cost)
            if bit == led:
                chosen = cost
        low = min(costs)
        norm = sum(math.exp(-sharp * (c - low)) for c in costs)
        return -sharp * (chosen - low) - math.log(norm)


@dataclass(frozen=True, slots=True)
class ReplayModel:
    """Each other seat chose the heuristic's move with probability ``1 - miss``, any other
    legal move alike: the hand is replayed from each sampled deal and every choice of
    the other seats compared with what the heuristic (judging as ``style``, from what
    that seat could know then) would have played.

    Sharper than :class:`OpponentModel`'s rules of thumb: every pass, lead, follow and
    take counts, and passes are judged as the heuristic judges them (it passes when no
    play improves its hand). The replay runs in the batch simulator's compiled kernels
    (:meth:`odin_cards.odin.sim.rollout.HeuristicPlayouts.replay_log_weights`, microseconds a
    decision); until they are loaded, or without numba, ``fallback`` weighs the deals.
    """

    miss: float = 0.4
    """Probability that a seat did not play the heuristic's move."""
    style: Style = STYLE
    fallback: OpponentModel = OpponentModel()

    def weigher(self, view: View) -> Weigher:
        from odin_cards.odin.bots.compiled import prepare_replay, vector

        if not prepare_replay(wait=False):
            return self.fallback.weigher(view)
        from odin_cards.odin.rules import Game
        from odin_cards.odin.sim.rollout import HeuristicPlayouts

        assert view.seat is not None
        observer = view.seat
        actions, seats = hand_actions(view)
        leader = view.hand_leader
        style = vector(self.style)
        players = view.players

        def weigh(deals: Sequence[Sequence[int]]) -> list[float]:
            playouts = HeuristicPlayouts(Game.from_view(view, deals[0]), style)
            table = np.zeros((len(deals), 6), np.int64)
            table[:, :players] = deals
            weights = playouts.replay_log_weights(
                table, actions, seats, observer, leader, self.miss
            )
            return [float(w) for w in weights]

        return weigh


def hand_actions(view: View) -> tuple[list[int], list[int]]:
    """The current hand's actions (engine ids) and the seat of each, in order."""
    actions: list[int] = []
    seats: list[int] = []
    for event in _this_hand(view):
        kind = event.get("type")
        if kind == "play":
            actions.append(PLAY_BY_MASK[mask_of(parse_card(c) for c in event["cards"])].id)
        elif kind == "pass":
            actions.append(PASS_ACTION.id)
        elif kind == "take":
            actions.append(TAKE_ACTIONS[parse_card(event["card"])].id)
        else:
            continue
        seats.append(event["seat"])
    return actions, seats


MIN_POOL: Final = 16
"""The fewest deals a pool holds, whatever the time."""

MODEL: Final = OpponentModel()
"""The hand-written model."""
CHUNK: Final = 16
"""Deals drawn and weighed at a time while the pool's time lasts."""


def weighted_deals(
    view: View,
    rng: random.Random,
    count: int,
    model: DealModel = MODEL,
    sampler: HandSampler | None = None,
    until: float | None = None,
) -> tuple[list[list[int]], list[float]]:
    """``count`` deals drawn uniformly, with their cumulative normalised model weights.

    Draw from them with ``rng.choices(deals, cum_weights=cumulative)``. With ``until``
    (a :func:`time.perf_counter` time) fewer deals are drawn if that time comes first,
    never fewer than :data:`MIN_POOL`: a loaded machine keeps the think time.
    """
    assert view.seat is not None
    sampler = sampler or HandSampler.of(view)
    weigh = model.weigher(view)
    deals: list[list[int]] = []
    logs: list[float] = []
    while len(deals) < count:
        chunk = [sampler.draw(rng) for _ in range(min(CHUNK, count - len(deals)))]
        deals.extend(chunk)
        logs.extend(weigh(chunk))
        if until is not None and len(deals) >= MIN_POOL and time.perf_counter() >= until:
            break
    top = max(logs)
    cumulative = []
    running = 0.0
    for log in logs:
        running += math.exp(log - top)
        cumulative.append(running)
    return deals, cumulative


def true_deal_gain(
    view: View,
    true_hands: Sequence[int],
    rng: random.Random,
    samples: int = 200,
    model: DealModel = MODEL,
) -> float:
    """How much more probability (natural log) the model gives the true deal than uniform.

    Among deals consistent with the view the uniform sampler gives each the same
    probability; the model's probability of a deal is its weight over the mean weight
    of a uniform deal (estimated from ``samples`` draws). 0 means no better than
    uniform; positive, the model points towards the true hands.
    """
    assert view.seat is not None
    sampler = HandSampler.of(view)
    weigh = model.weigher(view)
    logs = weigh([sampler.draw(rng) for _ in range(samples)] + [list(true_hands)])
    true = logs.pop()
    top = max(logs)
    mean = top + math.log(sum(math.exp(x - top) for x in logs) / samples)
    return true - mean


__all__ = [
    "FOLLOW_STEP",
    "LEAD_STEP",
    "MODEL",
    "PASS_STEP",
    "TAKE_STEP",
    "DealModel",
    "OpponentModel",
    "ReplayModel",
    "Step",
    "dealt",
    "hand_actions",
    "hand_steps",
    "true_deal_gain",
    "weighted_deals",
]
