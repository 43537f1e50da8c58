"""Refused actions: the right exception type, a message in game terms, nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from odin_cards.odin.rules import (
    CardError,
    Game,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    OdinError,
    Options,
    OptionsError,
    SeatError,
    parse_card,
)

# Seat 0 leads; seat 1 follows. Hands chosen for the messages of the issue.
DEAL = [
    ["B2", "B8", "R5", "R8", "P1", "P3", "G4", "G6", "G7"],
    ["K5", "O5", "B3", "B4", "R1", "R2", "P5", "G1", "O9"],
]


def game() -> Game:
    return Game.new(2, Options(first_leader=0, one_hand=True), deals=[DEAL])


def refused(
    g: Game, action: str, error: type[Exception], message: str, seat: int | None = None
) -> None:
    before = g.clone()
    with pytest.raises(error) as caught:
        g.apply(action, seat=seat)
    assert str(caught.value) == message
    assert isinstance(caught.value, OdinError) and isinstance(caught.value, ValueError)
    assert g == before


def test_the_leader_cannot_pass() -> None:
    refused(game(), "pass", IllegalActionError, "the leader cannot pass")


def test_the_leader_plays_one_card() -> None:
    refused(
        game(),
        "play B2 B8",
        IllegalActionError,
        "the leader plays one card, or the whole hand at once when it is all one colour or all"
        " one number",
    )


def test_cards_not_held() -> None:
    refused(game(), "play K5", IllegalActionError, "you do not hold K5")
    refused(game(), "play O5 K5", IllegalActionError, "you do not hold K5 and O5")


def test_value_too_low() -> None:
    g = game()
    g.apply("play R8")
    g.apply("play R1 R2")
    g.apply("take R8")
    g.apply("play B2 B8")  # 82
    g.apply("take R2")
    refused(g, "play K5 O5", IllegalActionError, "K5 O5 is worth 55 and does not beat 82")


def test_size_rule() -> None:
    g = game()
    g.apply("play P1")
    refused(
        g,
        "play B3 B4 R1",
        MalformedActionError,
        "B3 B4 R1 is not a set: cards of a set must all share one colour or one number",
    )
    g.apply("play B3 B4")
    g.apply("take P1")
    refused(
        g,
        "play P3",
        IllegalActionError,
        "the table has 2 cards: play 2 or 3 cards, or pass (not 1)",
    )


def test_must_take_from_the_beaten_set() -> None:
    g = game()
    g.apply("play R5")
    g.apply("pass")
    g.apply("play R8")
    g.apply("play O5 K5")
    refused(g, "take O5", IllegalActionError, "you must take one card of the set you beat: R8")
    # A two-card beaten set lists both choices.
    g.apply("take R8")
    g.apply("play G6 G7")
    refused(g, "pass", IllegalActionError, "you must take one card of the set you beat: K5 or O5")
    refused(
        g, "take B2", IllegalActionError, "you must take one card of the set you beat: K5 or O5"
    )


def test_nothing_to_take() -> None:
    refused(
        game(),
        "take B2",
        IllegalActionError,
        "there is nothing to take now: take comes right after you beat a set",
    )


def test_not_your_turn() -> None:
    refused(game(), "play B2", NotYourTurnError, "it is seat 0's turn, not seat 1's", seat=1)


def test_game_over() -> None:
    g = Game.new(
        2,
        Options(first_leader=0, one_hand=True),
        deals=[
            [
                ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"],
                DEAL[1][:2] + DEAL[1][4:] + ["O1", "O2"],
            ]
        ],
    )
    g.apply("play B1 B2 B3 B4 B5 B6 B7 B8 B9")
    assert g.is_over
    refused(g, "pass", GameOverError, "the game is over")


@pytest.mark.parametrize("action", ["", "fly", "play", "play B", "take", 3.5, -1, None])
def test_malformed(action: object) -> None:
    g = game()
    before = g.clone()
    with pytest.raises(MalformedActionError):
        g.apply(action)  # type: ignore[arg-type]
    assert g == before


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, Options(), "Odin is played by 2 to 6 players, not 1"),
        (7, Options(), "Odin is played by 2 to 6 players, not 7"),
        (4, Options(target=0), "the target must be a positive whole number, not 0"),
        (4, Options(colours=4), "the 4-colour deck is for two players only"),
        (3, Options(first_leader=3), "first_leader must be a seat from 0 to 2, not 3"),
        (3, Options(next_leader="loser"), "next_leader must be 'rotate' or 'winner', not 'loser'"),  # type: ignore[arg-type]
    ],
)
def test_bad_options(players: int, options: Options, message: str) -> None:
    with pytest.raises(OptionsError) as caught:
        Game.new(players, options)
    assert str(caught.value) == message


def test_bad_deals() -> None:
    with pytest.raises(OptionsError, match="B2 is dealt twice"):
        Game.new(2, deals=[[DEAL[0], ["B2", *DEAL[1][1:]]]])
    with pytest.raises(OptionsError, match="seat 1 is dealt 8 cards"):
        Game.new(2, deals=[[DEAL[0], DEAL[1][1:]]])
    with pytest.raises(OptionsError, match="X0 is not in this game's deck"):
        Game.new(2, deals=[[DEAL[0], ["X0", *DEAL[1][1:]]]])


# Library defects of 0.1 (issue 14): whole numbers are ints, every input error an OdinError.


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (Options(colours=4.0), "colours must be 6, or 4 in a two-player game, not 4.0"),  # type: ignore[arg-type]
        (Options(colours=True), "colours must be 6, or 4 in a two-player game, not True"),
        (Options(first_leader=True), "first_leader must be a seat from 0 to 1, not True"),
        (Options(first_leader=1.0), "first_leader must be a seat from 0 to 1, not 1.0"),  # type: ignore[arg-type]
        (Options(target=10.0), "the target must be a positive whole number, not 10.0"),  # type: ignore[arg-type]
        (Options(target=True), "the target must be a positive whole number, not True"),
    ],
)
def test_whole_numbers_are_ints_not_floats_or_bools(options: Options, message: str) -> None:
    with pytest.raises(OptionsError) as caught:
        options.check(2)
    assert str(caught.value) == message
    with pytest.raises(OptionsError):
        Game.new(2, options)


@pytest.mark.parametrize("players", [True, 2.0, "2"])
def test_the_number_of_players_is_an_int(players: object) -> None:
    with pytest.raises(OptionsError, match="Odin is played by 2 to 6 players"):
        Game.new(players, Options())  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [True, False, 2, -1, 1.0, "0", 10**5000], ids=range(7))
def test_a_view_of_no_seat_is_an_odin_error(seat: object) -> None:
    with pytest.raises(SeatError, match="there is no seat"):
        game().view(seat)  # type: ignore[arg-type]


def test_an_action_is_never_a_bool() -> None:
    g = game()
    before = g.clone()
    for action in (True, False):
        with pytest.raises(MalformedActionError, match="there is no action with id"):
            g.apply(action)
    with pytest.raises(MalformedActionError, match="a seat is a whole number"):
        g.apply("play B2", seat=False)  # seat 0 is to move: False must not pass for it
    assert g == before


@pytest.mark.parametrize("text", ["Z9", "B0", "", "B10", 7, None])
def test_parse_card_raises_an_odin_error(text: object) -> None:
    with pytest.raises(CardError, match="is not a card") as caught:
        parse_card(text)  # type: ignore[arg-type]
    assert isinstance(caught.value, OdinError) and not isinstance(caught.value, KeyError)


def test_the_package_is_typed() -> None:
    """``py.typed`` ships in the package (hatch puts the package directory in the wheel)."""
    import odin_cards

    assert (Path(odin_cards.__file__).parent / "py.typed").is_file()
