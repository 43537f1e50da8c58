"""Golden playthroughs: at every step of a few seeded games, the decision asked, every
legal action, every seat's view (and the spectator's), the action chosen and the public
events it produced; diffed line by line against tests/data/golden/.

After an intended change of behaviour, regenerate with ``ODIN_UPDATE_GOLDEN=1 pytest
tests/rules/test_golden.py`` and review the diff like code.
"""

from __future__ import annotations

import difflib
import os
import random
from pathlib import Path

import pytest

from odin_cards.odin.rules import Game, Options, View, public_events

GOLDEN = Path(__file__).parent.parent / "data" / "golden"

GAMES = {
    "3p-one-hand": (3, Options(one_hand=True), "golden-3"),
    "2p-4colours-goat": (2, Options(colours=4, goat=True, one_hand=True), "golden-2"),
    "5p-winner-leads-target-8": (5, Options(next_leader="winner", target=8), "golden-5"),
}


def view_line(view: View) -> str:
    who = "spectator" if view.seat is None else f"seat {view.seat}"
    hand = "-" if view.hand is None else " ".join(view.hand)
    known = " | ".join(" ".join(k) or "-" for k in view.known)
    table = " ".join(view.table) or "-"
    return (
        f"  {who}: hand [{hand}] sizes {list(view.hand_sizes)} known [{known}]"
        f" table [{table}] discards {len(view.discards)} scores {list(view.scores)}"
    )


def playthrough(players: int, options: Options, seed: str) -> str:
    game = Game.new(players, options, seed=seed)
    rng = random.Random(seed)
    lines = [f"# {players} players, {options}, seed {seed!r}"]
    step = 0
    while True:
        spectator = game.view(None)
        lines.append(
            f"step {step}: hand {spectator.hand_number}, "
            + (
                f"seat {spectator.to_move} to {spectator.decision}"
                if spectator.to_move is not None
                else f"game over, winners {list(spectator.outcome.winners)}"  # type: ignore[union-attr]
            )
        )
        for seat in [*range(players), None]:
            lines.append(view_line(game.view(seat)))
        if game.is_over:
            break
        legal = game.legal_actions()
        lines.append(f"  decision: {game.decision}; legal: {', '.join(a.text for a in legal)}")
        action = legal[rng.randrange(len(legal))]
        lines.append(f"  action: {action.text}")
        start = len(game.history)
        game.apply(action)
        for event in public_events(game.history, start):
            fields = " ".join(f"{k}={v}" for k, v in event.items() if k not in ("index", "type"))
            lines.append(f"  event {event['index']}: {event['type']} {fields}".rstrip())
        step += 1
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough(name: str) -> None:
    text = playthrough(*GAMES[name])
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("ODIN_UPDATE_GOLDEN"):
        path.write_text(text)
    expected = path.read_text()
    if text != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    "golden",
                    "engine",
                )
            )[:60]
        )
        pytest.fail(f"{name} differs from its golden file:\n{diff}")
