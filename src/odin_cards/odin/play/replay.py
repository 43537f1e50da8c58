"""``odin replay`` of an Odin record (:data:`odin_cards.plugin.Replay`): the options, each
move in the canonical notation, the scores after each hand and, for a finished game, its
statistics; with ``--deals`` every seat's dealt cards too (the record's secrets)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rich.text import Text

from odin_cards.contract import GameState
from odin_cards.odin.bots.play import odin_game
from odin_cards.odin.play.statistics import seats_table, summary_line
from odin_cards.odin.play.words import event_line
from odin_cards.odin.rules import GameRecord
from odin_cards.odin.rules.statistics import game_statistics


def replay(
    state: GameState, record: Mapping[str, Any], names: Sequence[str] | None, deals: bool
) -> Iterator[Any]:
    """What ``odin replay`` prints, line by line."""
    game = odin_game(state)
    options = game.options
    yield Text(
        f"{game.players} players, target {options.target}"
        f"{', one hand' if options.one_hand else ''}{', Goat' if options.goat else ''}"
        f", seed {game.seed!r}",
        style="bold",
    )
    if names is not None:
        yield Text("seats: " + ", ".join(f"{s} {n}" for s, n in enumerate(names)))
    labels = list(names) if names is not None else [f"seat {s}" for s in range(game.players)]
    scores = [0] * game.players
    dealt = iter([e["deal"] for e in GameRecord.from_dict(record).events if "deal" in e])
    for event in game.view(None).history:
        line = event_line(event, labels)
        if line is None:
            continue
        if event["type"] == "deal":
            yield ""
            yield Text(line, style="bold")
            hands = next(dealt)
            if deals:
                for seat, cards in enumerate(hands):
                    yield f"  seat {seat} holds {' '.join(cards)}"
        elif event["type"] == "hand_end":
            scores = [s + p for s, p in zip(scores, event["points"], strict=True)]
            yield Text(f"{line}; scores {' '.join(map(str, scores))}", style="yellow")
        elif event["type"] == "game_end":
            yield Text(line, style="bold green")
        else:
            yield Text(f"  {line}")
    if not game.is_over:
        return
    figures = game_statistics(game.history, game.players)
    yield ""
    yield Text(summary_line(figures, labels), style="bold")
    yield seats_table(figures, labels)


__all__ = ["replay"]
