"""The weaknesses issue #13 named, each on a position where version 0.2 went wrong.

Each test shows the old judgement (:data:`~odin_cards.odin.bots.policy.FIRST`,
:data:`~odin_cards.odin.bots.search.FIRST`) making the mistake and the current one not.
"""

from __future__ import annotations

import random

from odin_cards.odin.bots import Budget, HeuristicBot, ask
from odin_cards.odin.bots.policy import FIRST, STYLE, Style, choose
from odin_cards.odin.bots.search import CURRENT, SearchBot, best_child, game_rewards, search
from odin_cards.odin.bots.search import FIRST as FIRST_SEARCH
from odin_cards.odin.rules import Action, Game, Options, Phase, parse_action
from odin_cards.odin.rules.actions import PLAY_BY_MASK
from odin_cards.odin.rules.cards import deck_mask, mask_of, number_mask_of, parse_card
from odin_cards.odin.rules.game import OVER
from odin_cards.odin.rules.legal import beating_plays, leads

DECK = deck_mask(range(6), goat=False)


def m(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def lead(hand: str, others: int, style: Style, opponent_size: int = 6) -> str:
    hand_mask = m(hand)
    sizes = [hand_mask.bit_count(), opponent_size]
    legal = leads(hand_mask)
    return choose(0, 2, Phase.LEAD, hand_mask, None, -1, None, others, sizes, legal, style).text


def test_two_loose_cards_lead_the_lower_and_keep_the_higher_to_go_out() -> None:
    others = DECK & ~m("B2 R7")
    assert lead("B2 R7", others, FIRST) == "play R7"  # version 0.2: always the higher
    assert lead("B2 R7", others, STYLE) == "play B2"


def test_two_loose_cards_lead_the_higher_when_nobody_can_beat_it() -> None:
    # No 8 or 9 and no two cards of a set are left elsewhere: R7 wins the round and
    # B2 goes out next.
    others = m("B1 P3 G5 K6 O4")
    assert lead("B2 R7", others, STYLE) == "play R7"


def test_against_a_last_card_the_higher_single_still_goes_first() -> None:
    others = DECK & ~m("B2 R7")
    assert lead("B2 R7", others, STYLE, opponent_size=1) == "play R7"


def follow(hand: str, table: str, others: str, style: Style) -> str:
    hand_mask = m(hand)
    table_action = PLAY_BY_MASK[m(table)]
    legal = beating_plays(
        hand_mask, number_mask_of(hand_mask), table_action.size, table_action.value
    )
    legal.append(parse_action("pass"))
    sizes = [hand_mask.bit_count(), 6]
    return choose(
        0, 2, Phase.FOLLOW, hand_mask, table_action, 1, None, m(others), sizes, legal, style
    ).text


def test_a_set_nobody_can_beat_takes_the_lead_instead_of_passing() -> None:
    # R1 R6 (61) beats G9 and no pair above 61 nor any triple can be made from the
    # cards still out: the seat leads next. Version 0.2 saw no gain and passed.
    position = ("B8 R1 R4 R6 P2", "G9", "B1 B5 P1 G8 O2")
    assert follow(*position, FIRST) == "pass"
    assert follow(*position, STYLE) == "play R1 R6"


def finishing_lead_position() -> Game:
    """A hand of seed ``fin:18`` played by the heuristic until a finishing lead is legal."""
    game = Game.new(2, Options(one_hand=True), seed="fin:18")
    bots = [HeuristicBot(), HeuristicBot()]
    rng = random.Random(18)
    while not game.is_over:
        seat = game.to_move
        if game.decision == "lead" and any(
            a.size > 1 and a.mask == game.hands[seat] for a in game.legal_actions()
        ):
            return game
        game.apply(ask(bots[seat], game, Budget(), rng))
    raise AssertionError("the seeded hand has no finishing lead")


def test_the_search_never_declines_a_finishing_lead() -> None:
    game = finishing_lead_position()
    finish = next(a for a in game.legal_actions() if a.size > 1)
    old = SearchBot(None, settings=FIRST_SEARCH)
    assert ask(old, game, Budget(iterations=2), random.Random(0)) != finish
    new = SearchBot(None, settings=CURRENT)
    for seed in range(5):
        assert ask(new, game, Budget(iterations=2), random.Random(seed)) == finish


def test_ties_at_the_root_go_to_the_better_mean_then_the_preferred_move() -> None:
    game = Game.new(2, seed=4)
    view = game.view(game.to_move)
    legal: tuple[Action, ...] = tuple(game.legal_actions())
    root = search(view, random.Random(1), None, len(legal), CURRENT)  # each move once
    assert {root.children[a.id].visits for a in legal} == {1}
    for node in root.children.values():
        node.total = 0.0
    assert best_child(root, legal) == legal[0]  # version 0.2's rule: the first
    assert best_child(root, legal, legal[-1]) == legal[-1]
    root.children[legal[1].id].total = 0.5
    assert best_child(root, legal, legal[-1]) == legal[1]


def after_hand(scores: list[int], options: Options) -> Game:
    """A game whose totals are ``scores`` just after a hand (over if the rules say so)."""
    game = Game.new(len(scores), options, seed=1)
    game.scores = list(scores)
    if options.one_hand or max(scores) >= options.target:
        game.phase = OVER
    return game


def test_the_reward_knows_the_target_and_the_game_score() -> None:
    won, lost = game_rewards(after_hand([1, 2], Options(one_hand=True)), (1, 2))
    assert won > 0.7 and lost < -0.7  # a hand won by one card is a game won
    # The same hand margin mid-game: far behind it is worth less than when ahead.
    behind = game_rewards(after_hand([12, 1], Options(target=15)), (1, 0))[0]
    ahead = game_rewards(after_hand([1, 12], Options(target=15)), (1, 0))[0]
    assert behind < ahead
    # The target reached: the lower total wins the game whatever the hand's margin.
    assert game_rewards(after_hand([16, 14], Options(target=15)), (9, 0))[1] > 0.7
