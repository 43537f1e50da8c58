"""What each legal move is worth to one seat, as the strongest level's search sees it.

The one adapter between analysis (and hints) and the bots: it runs the search
(:func:`odin_cards.bots.search.search`) on the seat's :class:`View` alone, for a fixed number
of iterations and with dice seeded by the caller, so the same view always gets the same
answer whatever the hidden hands really were. A move's value is the search's mean reward
for it turned back into points: the opponents' mean points minus the seat's own at the end
of the hand (higher is better for the seat). The preferred move is the one the search would
play (its most visited move).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..bots.search import REWARD_SCALE, best_child, search
from ..rules import Action, View


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move as the search judged it: how often it tried it, and its mean margin
    in points for the hand (opponents' mean points minus the seat's own)."""

    action: Action
    visits: int
    points: float


def move_values(
    view: View, legal: Sequence[Action], iterations: int, rng: random.Random
) -> tuple[Action, list[MoveValue]]:
    """The search's preferred move for the seat of ``view`` and every legal move's value.

    ``legal`` must hold at least two moves (a forced move needs no search). Moves the search
    never reached (none with the root's rule of trying each move first, but a tiny budget
    could) get the lowest value of those it did reach.
    """
    if view.seat is None or view.to_move != view.seat:
        raise ValueError("a move is judged only for the seat to move, from its own view")
    if len(legal) < 2:
        raise ValueError("a forced move has nothing to judge")
    root = search(view, rng, None, max(iterations, len(legal)))
    preferred = best_child(root, legal)
    values: list[MoveValue] = []
    for action in legal:
        node = root.children.get(action.id)
        if node is None or node.visits == 0:
            values.append(MoveValue(action, 0, float("nan")))
        else:
            values.append(MoveValue(action, node.visits, node.total / node.visits / REWARD_SCALE))
    reached = [v.points for v in values if v.visits]
    floor = min(reached) if reached else 0.0
    values = [v if v.visits else MoveValue(v.action, 0, floor) for v in values]
    return preferred, values


def hint_of(view: View, legal: Sequence[Action], iterations: int, seed: int) -> Action:
    """The move the search prefers for the seat of ``view`` (the only move when forced)."""
    if len(legal) == 1:
        return legal[0]
    return move_values(view, legal, iterations, random.Random(seed))[0]


__all__ = ["MoveValue", "hint_of", "move_values"]
