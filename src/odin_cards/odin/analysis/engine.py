"""What each legal move is worth to one seat, as the strongest level's search sees it.

The one adapter between analysis and the bots: it runs the strongest levels' search
(:func:`odin_cards.odin.bots.search.search` with :data:`~odin_cards.odin.bots.search.CURRENT`: its
opponent model, rollout policy and sure wins) on the seat's :class:`View` alone, for a fixed
number of iterations and with dice seeded by the caller, so the same view always gets the
same answer whatever the hidden hands really were. One change: the reward is the hand's
margin alone (``game_reward=False``), so that a move's value reads in points: the
opponents' mean points minus the seat's own at the end of the hand (higher is better for
the seat). The preferred move is what the search plays: a move that empties the hand if
there is one, else its most visited move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from odin_cards.odin.bots.knowledge import Knowledge
from odin_cards.odin.bots.search import CURRENT, REWARD_SCALE, best_child, search
from odin_cards.odin.rules import Action, View

SETTINGS: Final = replace(CURRENT, game_reward=False)
"""The strongest levels' search, rewarded by the hand's margin in points."""


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
    root = search(view, rng, None, max(iterations, len(legal)), SETTINGS)
    hand = Knowledge.of(view).hand
    going_out = [action for action in legal if action.mask == hand]
    preferred = going_out[0] if going_out else best_child(root, legal)
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


__all__ = ["SETTINGS", "MoveValue", "move_values"]
