"""What a seat of an Odin table is sent as its ``State`` (the plugin's ``presenter``), and
what a public server refuses of Odin's options (its ``limits``).

The server stores, replays and broadcasts any game through the contract; only the shape
of a seat's state (``docs/protocol.md``) is the game's own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, fields
from typing import Any

from odin_cards.odin.rules import Game, View, card_text, cards_of
from odin_cards.odin.rules.view import make_view


def dump(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


PUBLIC_FIELDS = tuple(f.name for f in fields(View) if f.name not in ("history", "seat", "hand"))


def states(
    game: Any, setup: Mapping[str, Any], names: Sequence[str], playing: bool
) -> Callable[[int | None], str]:
    """A maker of every seat's ``State`` in the current position, sharing the work.

    A state is the seat's view without the history (``View.to_dict()``'s content),
    plus ``legal`` and ``names``. Views differ between seats only in ``seat`` and
    ``hand`` (``tests/server/test_state.py`` holds the engine to that), so the public
    part is built and encoded once and each seat's part is spliced onto it.
    """
    assert isinstance(game, Game)
    view = make_view(game, None, history=False)
    public: dict[str, Any] = {name: getattr(view, name) for name in PUBLIC_FIELDS}
    public["options"] = dict(setup)
    if view.outcome is not None:
        public["outcome"] = asdict(view.outcome)
    public["names"] = list(names)
    head = dump(public)[:-1]
    mover = game.current_player if playing else None
    legal = dump([a.text for a in game.legal_actions()]) if mover is not None else "[]"

    def state(seat: int | None) -> str:
        if seat is None:
            return f'{head},"seat":null,"hand":null,"legal":[]}}'
        hand = dump([card_text(c) for c in cards_of(game.hand(seat))])
        mine = legal if seat == mover else "[]"
        return f'{head},"seat":{seat},"hand":{hand},"legal":{mine}}}'

    return state


MAX_TARGET = 100
"""The highest target a public server accepts (the rules allow any: a game must end)."""


def limits(setup: Mapping[str, Any]) -> str | None:
    """What is wrong with valid Odin options on a public server, or ``None``."""
    target = setup.get("target")
    if isinstance(target, int) and target > MAX_TARGET:
        return f"the target is at most {MAX_TARGET} points"
    return None
