"""Level 2: the heuristic player, Odin's structure turned into rules of thumb.

The strategy itself lives in :mod:`.policy` (shared with the search's rollouts);
this bot only turns its seat's view into the masks the policy reads.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from odin_cards.odin.bots.base import Bot, Budget
from odin_cards.odin.bots.knowledge import Knowledge
from odin_cards.odin.bots.policy import STYLE, Style, choose
from odin_cards.odin.rules import Action, View


class HeuristicBot(Bot):
    """Plays the move that best improves its hand's split into sets; see :mod:`.policy`.

    ``style`` picks the heuristic's version (:data:`~.policy.FIRST` is version 0.2's).
    """

    level = "heuristic"

    def __init__(self, style: Style = STYLE) -> None:
        self.style = style

    def choose(
        self, view: View, legal: Sequence[Action], budget: Budget, rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        return view_choice(view, legal, self.style)


def view_choice(view: View, legal: Sequence[Action], style: Style = STYLE) -> Action:
    """The heuristic's move from one seat's view: the view turned into the masks the
    policy reads (the search breaks its root ties with it too)."""
    k = Knowledge.of(view)
    return choose(
        k.seat,
        k.players,
        k.decision,
        k.hand,
        k.table,
        k.table_player,
        k.beaten,
        k.others,
        k.sizes,
        legal,
        style,
    )
