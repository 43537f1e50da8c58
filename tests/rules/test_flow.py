"""Rounds, hands and games: who leads, when things end, how points add up."""

from __future__ import annotations

import pytest

from odin_cards.odin.rules import Discard, Game, GameEnd, HandEnd, Options, Pass, Play, RoundEnd

A = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"]  # all blue: may finish at once
B = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]
C = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9"]
MIXED = ["G1", "G2", "K3", "K4", "O5", "O6", "G7", "K8", "O9"]


def test_round_ends_when_everyone_else_passes_and_the_last_player_leads() -> None:
    g = Game.new(3, Options(first_leader=0), deals=[[MIXED, B, C]])
    g.apply("play G1")
    g.apply("play R2")
    g.apply("take G1")
    g.apply("pass")  # seat 2
    assert g.decision == "follow"
    g.apply("pass")  # seat 0: everybody but seat 1 passed in a row
    assert (g.decision, g.to_move, g.view(None).table) == ("lead", 1, ())
    assert g.view(None).discards == ("R2",)
    assert g.history[-3:] == [Pass(0), Discard(None, 1 << 10), RoundEnd(1)]


def test_a_pass_does_not_stop_a_player_playing_later_in_the_round() -> None:
    g = Game.new(3, Options(first_leader=0), deals=[[MIXED, B, C]])
    g.apply("play G1")
    g.apply("pass")  # seat 1
    g.apply("play P2")  # seat 2
    g.apply("take G1")
    g.apply("play K3")  # seat 0 (not a colour of the table; single beats 2)
    g.apply("take P2")
    assert g.to_move == 1
    assert any(a.text == "play R4" for a in g.legal_actions())  # seat 1 passed before


def test_finishing_lead_ends_the_hand_and_is_optional() -> None:
    g = Game.new(2, Options(first_leader=0, one_hand=True), deals=[[A, B]])
    texts = {a.text for a in g.legal_actions()}
    assert "play B1 B2 B3 B4 B5 B6 B7 B8 B9" in texts and "play B1" in texts
    g.apply("play B1 B2 B3 B4 B5 B6 B7 B8 B9")
    assert g.is_over and g.outcome is not None
    assert g.outcome.scores == (0, 9) and g.outcome.winners == (0,)


def test_taken_card_joins_the_hand_and_is_known_to_all() -> None:
    g = Game.new(2, Options(first_leader=1, one_hand=True), deals=[[B, MIXED]])
    g.apply("play G1")
    g.apply("play R2")
    g.apply("take G1")
    assert g.view(0).hand == ("R1", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "G1")
    assert g.view(1).known == (("G1",), ())


def test_emptying_the_hand_takes_no_card() -> None:
    import random

    rng = random.Random(2)
    endings = 0
    for seed in range(40):
        g = Game.new(4, Options(one_hand=True), seed=seed)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        end = next(i for i, e in enumerate(g.history) if isinstance(e, HandEnd))
        hand_end, last = g.history[end], g.history[end - 1]
        assert isinstance(hand_end, HandEnd)
        assert isinstance(last, Play)  # the emptying play, with no take after it
        ender = hand_end.seat
        assert last.seat == ender and g.outcome is not None
        assert g.outcome.scores[ender] == 0
        endings += 1
    assert endings == 40


def test_scores_add_up_and_the_game_ends_at_the_target_with_shared_victory() -> None:
    # Hand 1: seat 0 finishes at once (0 / 9 / 9). Hand 2: seat 1 leads (rotate) and finishes.
    g = Game.new(3, Options(first_leader=0, target=18), deals=[[A, B, C], [C, A, B]])
    g.apply("play B1 B2 B3 B4 B5 B6 B7 B8 B9")
    assert g.scores == [0, 9, 9] and not g.is_over
    assert (g.hand_leader, g.to_move, g.decision) == (1, 1, "lead")
    g.apply("play B1 B2 B3 B4 B5 B6 B7 B8 B9")
    assert g.is_over and g.outcome is not None
    assert g.outcome.scores == (9, 9, 18)
    assert g.outcome.winners == (0, 1)  # tied players share the victory
    assert g.outcome.hands_played == 2
    assert g.history[-1] == GameEnd((0, 1))
    end = g.history[-2]
    assert isinstance(end, HandEnd) and (end.seat, end.points) == (1, (9, 0, 9))
    assert end.hands[1] == 0 and end.hands[0].bit_count() == end.hands[2].bit_count() == 9


def test_the_cards_left_are_shown_to_everybody_at_the_hands_end() -> None:
    g = Game.new(3, Options(first_leader=0, target=50), deals=[[A, MIXED, C]])
    left = [list(g.view(s).hand or ()) for s in (1, 2)]
    g.apply("play B1 B2 B3 B4 B5 B6 B7 B8 B9")
    end = g.public_events()[-2]
    assert end == {
        "index": 2,
        "type": "hand_end",
        "seat": 0,
        "points": [0, 9, 9],
        "cards": [[], *left],  # canonical order, as each seat saw its hand
    }
    assert g.public_events()[-1]["type"] == "deal"  # the next hand's cards stay secret


def test_next_leader_winner_option() -> None:
    g = Game.new(
        3, Options(first_leader=1, next_leader="winner", target=50), deals=[[C, A, B], [A, B, C]]
    )
    g.apply("play B1 B2 B3 B4 B5 B6 B7 B8 B9")  # seat 1 ends hand 1
    assert g.hand_leader == 1 and g.to_move == 1  # and leads hand 2


def test_next_leader_rotates_left_of_the_previous_first_leader() -> None:
    g = Game.new(3, Options(first_leader=2, target=50), deals=[[C, B, A]])
    g.apply("play B1 B2 B3 B4 B5 B6 B7 B8 B9")
    assert g.hand_leader == 0


def test_one_hand_game() -> None:
    g = Game.new(2, Options(first_leader=0, one_hand=True), deals=[[A, B]])
    g.apply("play B5")
    assert not g.is_over


@pytest.mark.parametrize("seed", range(20))
def test_random_first_leader_is_seeded(seed: int) -> None:
    a = Game.new(5, seed=seed)
    b = Game.new(5, seed=seed)
    assert a.hand_leader == b.hand_leader and a.hands == b.hands


def test_first_leaders_vary_with_the_seed() -> None:
    assert len({Game.new(6, seed=s).hand_leader for s in range(60)}) == 6


def test_goat_joins_colour_sets_and_alone_beats_nothing() -> None:
    goat_hand = ["X0", "B2", "B7", "R1", "R3", "P4", "P5", "G6", "G8"]
    g = Game.new(2, Options(goat=True, first_leader=1, one_hand=True), deals=[[goat_hand, MIXED]])
    assert (g.view(0).hand or ())[0] == "X0"
    g.apply("play G1")
    follows = {a.text for a in g.legal_actions()}
    assert {"play X0 B2", "play X0 G6", "play B2 B7"} <= follows  # 20 and 60 beat 1
    assert "play X0" not in follows  # worth 0
    assert "play X0 B2 B7" not in follows  # one card on the table: play 1 or 2
    g.apply("play X0 B7")
    assert g.view(None).table_value == 70
    assert {a.text for a in g.legal_actions()} == {"take G1"}


def test_goat_hand_points() -> None:
    goat_hand = ["X0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]
    g = Game.new(2, Options(goat=True, first_leader=0, one_hand=True), deals=[[A, goat_hand]])
    g.apply("play B1 B2 B3 B4 B5 B6 B7 B8 B9")
    assert g.outcome is not None and g.outcome.scores == (0, 13)  # 8 cards + the Goat's 5


def test_goat_joins_a_colour_finishing_lead() -> None:
    hand = ["X0", "B2", "B7", "B1", "B3", "B4", "B5", "B6", "B8"]
    g = Game.new(2, Options(goat=True, first_leader=0, one_hand=True), deals=[[hand, B]])
    assert "play X0 B1 B2 B3 B4 B5 B6 B7 B8" in {a.text for a in g.legal_actions()}
    assert "play X0" in {a.text for a in g.legal_actions()}
