"""The heuristic's rules of thumb, on hand-made positions (masks, as the policy sees them)."""

from __future__ import annotations

import random

from odin_cards.odin.bots import Budget, HeuristicBot, ask
from odin_cards.odin.bots.policy import best_take, can_beat, choose
from odin_cards.odin.bots.search import SearchBot
from odin_cards.odin.rules import Game, Options, Phase, parse_action
from odin_cards.odin.rules.actions import PLAY_BY_MASK
from odin_cards.odin.rules.cards import deck_mask, mask_of, number_mask_of, parse_card
from odin_cards.odin.rules.legal import beating_plays, leads

LEAD, FOLLOW = Phase.LEAD, Phase.FOLLOW
DECK = deck_mask(range(6), goat=False)


def m(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def test_takes_the_card_that_fits() -> None:
    assert best_take(m("B1 B2"), m("R5 B7")) == m("B7")
    assert best_take(m("R5 G5"), m("K5 K9")) == m("K5")
    # Nothing fits: the higher card is the stronger single.
    assert best_take(m("B1 R2"), m("G4 G7")) == m("G7")


def test_can_beat_reads_the_unseen_cards() -> None:
    pool = m("B9 R3 G3")
    assert can_beat(pool, 2, 1, 9)  # the pair R3 G3 beats any single
    assert not can_beat(pool, 1, 1, 9)  # ... but not from a one-card hand
    assert can_beat(pool, 1, 1, 8)  # B9 beats 8
    assert not can_beat(pool, 3, 2, 33)  # no pair above 33, no triple
    assert can_beat(pool, 3, 2, 32)
    assert can_beat(m("X0 B1 B2"), 3, 2, 99)  # the Goat makes a colour triple
    assert not can_beat(m("X0 B1 R1"), 3, 2, 99)  # ... but never a number triple


def follow_choice(hand: str, table: str, opponent_size: int, others: int) -> str:
    hand_mask = m(hand)
    table_action = PLAY_BY_MASK[m(table)]
    legal = beating_plays(
        hand_mask, number_mask_of(hand_mask), table_action.size, table_action.value
    )
    legal.append(parse_action("pass"))
    sizes = [hand_mask.bit_count(), opponent_size]
    action = choose(0, 2, FOLLOW, hand_mask, table_action, 1, None, others, sizes, legal)
    return action.text


def test_plays_the_set_that_nobody_can_beat_and_leaves_one_set() -> None:
    # B9 R9 cannot be beaten by three scattered cards; taking P8 leaves P1 P2 P8.
    assert follow_choice("B9 R9 P1 P2", "P8", 3, m("O1 G2 K5")) == "play B9 R9"


def test_beats_an_opponent_about_to_go_out() -> None:
    # Exchanging a single gains nothing, so with an opponent far from going out it passes;
    # the table player has one card left and would lead it: beat them.
    others = DECK & ~m("B1 R5 G7 K8 O3")
    assert follow_choice("B1 R5 G7 K8", "O3", 6, others) == "pass"
    assert follow_choice("B1 R5 G7 K8", "O3", 1, others).startswith("play")


def lead_choice(hand: str, opponent_size: int) -> str:
    hand_mask = m(hand)
    others = DECK & ~hand_mask
    sizes = [hand_mask.bit_count(), opponent_size]
    return choose(0, 2, LEAD, hand_mask, None, -1, None, others, sizes, leads(hand_mask)).text


def test_leads_low_but_high_against_a_last_card() -> None:
    assert lead_choice("B2 R5 G9 K3", 7) == "play B2"
    assert lead_choice("B2 R5 G9 K3", 1) == "play G9"


def test_leads_the_loose_card_and_keeps_the_set() -> None:
    # Leading R1 leaves a blue set (one lead from going out); leading a blue card does not.
    assert lead_choice("B3 B4 B8 R1", 7) == "play R1"


def nine_blue_game() -> Game:
    blue = [f"B{n}" for n in range(1, 10)]
    red = [f"R{n}" for n in range(1, 10)]
    return Game.new(2, Options(first_leader=0), deals=[[blue, red]])


def test_heuristic_plays_the_finishing_lead() -> None:
    game = nine_blue_game()
    action = ask(HeuristicBot(), game, Budget(), random.Random(0))
    assert action.size == 9


def test_search_plays_the_finishing_lead() -> None:
    game = nine_blue_game()
    action = ask(SearchBot(), game, Budget(iterations=30), random.Random(0))
    assert action.size == 9
