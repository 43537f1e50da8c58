"""The batch simulator against the engine: same legal ids at every step, same outcomes."""

from __future__ import annotations

import random

import pytest

from odin_cards.odin.rules import CARD_TEXT, Options
from odin_cards.odin.sim import HAVE_NUMBA

from .lockstep import VARIANTS, Tally, play_lockstep

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="numba is not installed (research extra)")

IDS = [f"{players}p-{index}" for index, (players, _) in enumerate(VARIANTS)]


@pytest.mark.parametrize(("players", "options"), VARIANTS, ids=IDS)
def test_same_games_as_the_engine(players: int, options: Options) -> None:
    tally = Tally()
    play_lockstep(players, options, range(25), random.Random(players), tally)
    assert tally.games == 25 and tally.hands >= 25


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), VARIANTS, ids=IDS)
def test_same_games_as_the_engine_long(players: int, options: Options) -> None:
    tally = Tally()
    play_lockstep(players, options, range(1000, 1400), random.Random(-players), tally)
    assert tally.games == 400


def _number_deal(goat: bool) -> list[list[str]]:
    """Six players, each dealt all six cards of one number (5 to 9, then 1) and three more."""
    rest = [c for c in CARD_TEXT[:54] if c[1] in "234"]
    hands = []
    for seat, number in enumerate("567891"):
        hands.append([colour + number for colour in "BRPGKO"] + rest[3 * seat : 3 * seat + 3])
    if goat:
        hands[2][-1] = "X0"
    return hands


@pytest.mark.parametrize("goat", [False, True])
def test_six_card_number_sets(goat: bool) -> None:
    """Sets uniform play almost never reaches: six of a number, beaten by six of another."""
    tally = Tally()
    options = Options(goat=goat, one_hand=True, first_leader=0)
    deal = _number_deal(goat)
    play_lockstep(6, options, range(60), random.Random(7), tally, deals=[deal])
    assert tally.games == 60
