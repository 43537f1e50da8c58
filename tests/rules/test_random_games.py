"""The generic conformance test: thousands of random games under every configuration.

For every player count and every option, random play checks at each step that cards
are conserved, that legal actions exist until the game ends, that legal actions are
accepted and others refused with an IllegalActionError that changes nothing, that
the game record round-trips through JSON to an identical game, and that no view
holds a card of another seat's hand that the viewer has not seen.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from odin_cards.odin.rules import (
    ALL_ACTIONS,
    Deal,
    Game,
    GameRecord,
    IllegalActionError,
    Options,
)
from odin_cards.odin.rules.cards import GOAT, cards_of, deck_mask

from . import oracle

CONFIGS = [
    pytest.param(players, options, id=f"{players}p-{name}")
    for players in range(2, 7)
    for name, options in [
        ("default", Options()),
        ("goat", Options(goat=True, target=10)),
        ("winner-leads", Options(next_leader="winner", first_leader=players - 1, target=20)),
        ("one-hand", Options(one_hand=True)),
    ]
] + [
    pytest.param(2, Options(colours=4), id="2p-4colours"),
    pytest.param(2, Options(colours=4, goat=True), id="2p-4colours-goat"),
]

GAMES_PER_CONFIG = 100  # 24 configurations: 2,400 whole games


def card_set(cards: object) -> set[str]:
    return {c for c in re.findall(r"\b[BRPGKOX][0-9]\b", json.dumps(cards))}


def conserved(game: Game) -> None:
    """Every card of the deck is in exactly one place: a hand, the table, the set being
    taken from, or the discards."""
    places = [*game.hands, game.discards]
    if game.table is not None and not game.is_over:
        places.append(game.table.mask)
    if game.beaten is not None:
        places.append(game.beaten.mask)
    total = 0
    for mask in places:
        assert total & mask == 0, "a card is in two places"
        total |= mask
    deck = deck_mask((c for c in range(6) if c not in game.removed), game.options.goat)
    if game.is_over:
        assert total & ~deck == 0
    else:
        assert total == deck & total  # nothing from outside the deck
        played_out = deck & ~total
        # Cards not in any place must be undealt ones (dealt cards never vanish).
        dealt = 0
        for event in reversed(game.history):
            if isinstance(event, Deal):
                for hand in event.hands:
                    dealt |= hand
                break
        assert played_out & dealt == 0, f"lost cards: {cards_of(played_out & dealt)}"


def no_leak(game: Game) -> None:
    """No view shows a card of another seat's hand unless it is public."""
    spectator = game.view(None)
    public = (
        card_set(spectator.table)
        | card_set(spectator.beaten)
        | card_set(spectator.discards)
        | card_set(spectator.known)
    )
    # Cards played in the current hand are public: they are in the history since the deal.
    start = max(i for i, e in enumerate(spectator.history) if e["type"] == "deal")
    current = [e for e in spectator.history[start:]]
    public |= card_set([e.get("cards", []) for e in current] + [e.get("card") for e in current])
    assert "seed" not in json.dumps(spectator.to_dict(), default=str)
    assert spectator.hand is None
    for seat in range(game.players):
        view = game.view(seat)
        assert view.history == spectator.history
        own = set(view.hand or ())
        assert own == {c for c in card_set(cards_of_mask(game.hands[seat]))}
        shown = card_set({k: v for k, v in view.to_dict().items() if k != "history"})
        assert shown <= own | public, f"seat {seat} sees {shown - own - public}"
        for other in range(game.players):
            held = set(card_set(cards_of_mask(game.hands[other])))
            assert set(view.known[other]) <= held  # knowledge is true
    for event in spectator.history:
        if event["type"] == "deal":
            assert not card_set(event)


def cards_of_mask(mask: int) -> list[str]:
    from odin_cards.odin.rules import CARD_TEXT

    return [CARD_TEXT[c] for c in cards_of(mask)]


def refused_unchanged(game: Game, action_ids: list[int]) -> None:
    before = game.clone(history=False)
    length = len(game.history)
    for action_id in action_ids:
        with pytest.raises(IllegalActionError):
            game.apply(action_id)
    assert len(game.history) == length
    game_without_history = game.clone(history=False)
    assert game_without_history == before


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_random_games(players: int, options: Options) -> None:
    rng = random.Random(f"{players}:{options}")
    for number in range(GAMES_PER_CONFIG):
        game = Game.new(players, options, seed=f"random:{number}")
        thorough = number == 0  # the whole id space and every view, step by step
        step = 0
        while not game.is_over:
            step += 1
            legal = game.legal_actions()
            assert legal, "no legal action before the game ended"
            assert len({a.id for a in legal}) == len(legal), "a legal action listed twice"
            conserved(game)
            if thorough:
                legal_ids = {a.id for a in legal}
                assert legal_ids == {a.id for a in ALL_ACTIONS if game.is_legal(a)}
                if game.hand_number == 0 or step % 10 == 0:
                    no_leak(game)
                if game.decision != "take":
                    seat = game.to_move
                    hand = cards_of_mask(game.hands[seat])
                    table = [] if game.table is None else list(game.table.cards)
                    expected = oracle.legal_plays(hand, table)
                    assert sorted(a.text for a in legal if a.is_play) == expected
            else:
                others = [rng.randrange(len(ALL_ACTIONS)) for _ in range(5)]
                refused_unchanged(game, [i for i in others if not game.is_legal(ALL_ACTIONS[i])])
            game.apply(legal[rng.randrange(len(legal))])
        assert game.legal_actions() == []
        conserved(game)
        record = GameRecord.from_json(game.record().to_json())
        assert record.replay() == game
        outcome = game.outcome
        assert outcome is not None
        assert max(outcome.scores) >= options.target or options.one_hand
        assert set(outcome.winners) == {
            s for s, p in enumerate(outcome.scores) if p == min(outcome.scores)
        }


def test_goat_is_always_dealt() -> None:
    for seed in range(300):
        game = Game.new(6, Options(goat=True), seed=seed)
        assert any(hand >> GOAT & 1 for hand in game.hands)
        assert all(hand.bit_count() == 9 for hand in game.hands)


def test_four_colour_game_keeps_its_deck_for_every_hand() -> None:
    game = Game.new(2, Options(colours=4, target=30), seed=5)
    assert len(game.removed) == 2
    removed = deck_mask(game.removed, goat=False)
    rng = random.Random(1)
    hands = 0
    while not game.is_over:
        if isinstance(game.history[-1], Deal):
            hands += 1
            assert all(hand & removed == 0 for hand in game.hands)
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    assert hands >= 2
    assert set(game.view(0).colours) == {"BRPGKO"[c] for c in range(6)} - {
        "BRPGKO"[c] for c in game.removed
    }
