"""Game analysis (issue #13): bad moves are caught, and a move's note depends only on its view."""

from __future__ import annotations

import random

import pytest

from odin_cards.odin.analysis import BLUNDER, analyse_game, verdict_of
from odin_cards.odin.analysis.annotate import judge
from odin_cards.odin.bots import Budget, ask, make_bot
from odin_cards.odin.rules import Game, Options
from odin_cards.odin.rules.position import sample_hands

ITERATIONS = 60


def finishing_position() -> Game:
    """A 4-player follow in which the seat to move can beat the table with its whole hand
    of four cards or more (going out at once, while the others hold cards)."""
    bot = make_bot("heuristic")
    for seed in range(200):
        game = Game.new(4, Options(one_hand=True), seed)
        rng = random.Random(seed)
        while not game.is_over:
            hand = game.hand(game.current_player or 0).bit_count()
            if (
                game.decision == "follow"
                and hand >= 4
                and any(a.is_play and len(a.cards) == hand for a in game.legal_actions())
            ):
                return game
            game.apply(ask(bot, game, Budget(), rng))
    raise AssertionError("no such position in 200 games")


def test_passing_instead_of_going_out_is_a_blunder() -> None:
    game = finishing_position()
    hand = game.hand(game.current_player or 0).bit_count()
    finish = next(a for a in game.legal_actions() if a.is_play and len(a.cards) == hand)
    bad = judge(game, "pass", ITERATIONS, seed=1)
    good = judge(game, finish.text, ITERATIONS, seed=1)
    assert bad.verdict == "blunder" and bad.loss >= BLUNDER
    assert bad.best == finish.text
    assert good.verdict == "best" and good.loss == 0.0


def test_a_note_does_not_depend_on_the_hidden_cards() -> None:
    game = finishing_position()
    seat = game.current_player
    assert seat is not None
    rng = random.Random(5)
    for _ in range(3):
        other = game.with_hands(sample_hands(game.view(seat), rng))
        assert other.hands != game.hands  # the other seat really holds other cards
        assert other.hands[seat] == game.hands[seat]
        for action in game.legal_actions()[:3]:
            assert judge(other, action.text, ITERATIONS, seed=9) == judge(
                game, action.text, ITERATIONS, seed=9
            )


def test_forced_moves_are_not_judged_and_the_summary_counts_choices() -> None:
    game = Game.new(2, Options(one_hand=True), 4)
    rng = random.Random(2)
    bot = make_bot("random")
    while not game.is_over:
        game.apply(ask(bot, game, Budget(), rng))
    analysis = analyse_game(game.record(), iterations=20, seed=3)
    forced = [m for m in analysis.moves if m.verdict == "forced"]
    judged = [m for m in analysis.moves if m.verdict != "forced"]
    assert forced and judged
    assert all(m.choices == 1 and m.expected is None for m in forced)
    assert all(m.choices >= 2 and m.loss >= 0 for m in judged)
    for summary in analysis.summary:
        mine = [m for m in judged if m.seat == summary.seat]
        assert summary.decisions == len(mine)
        assert summary.blunders == sum(m.verdict == "blunder" for m in mine)
        assert summary.total_loss == pytest.approx(sum(m.loss for m in mine), abs=0.02)
    events = [e["index"] for e in game.view(None).history if e["type"] in ("play", "pass", "take")]
    assert [m.event for m in analysis.moves] == events
    assert analyse_game(game.record(), iterations=20, seed=3) == analysis  # reproducible


@pytest.mark.parametrize(
    ("loss", "preferred", "verdict"),
    [
        (0.0, True, "best"),
        (0.5, False, "good"),
        (0.75, False, "inaccuracy"),
        (1.5, False, "mistake"),
        (3.0, False, "blunder"),
    ],
)
def test_classes_by_loss(loss: float, preferred: bool, verdict: str) -> None:
    assert verdict_of(loss, preferred) == verdict
