"""Take-away's bots: they look only at the seat's view and legal moves."""

from __future__ import annotations

import random

from odin_cards.contract import GameState


def choose(state: GameState, level: str, seconds: float | None, rng: random.Random) -> str:
    seat = state.current_player
    if seat is None:
        raise ValueError("the game is over")
    legal = [action.text for action in state.legal_actions()]
    if level == "random":
        return legal[rng.randrange(len(legal))]
    if level == "greedy":
        return legal[-1]
    raise KeyError(f"unknown level {level!r}")
