"""The observation encoder: exact round trips, the documented layout, and no hidden card."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.research
np = pytest.importorskip("numpy", reason="the [research] extra (NumPy) is not installed")

from odin_cards.odin.rules import Game, Options  # noqa: E402
from odin_cards.odin.rules.position import HandSampler  # noqa: E402
from odin_cards.odin.rules.view import make_view  # noqa: E402

from odin_cards.odin.env.observation import (  # noqa: E402  # isort: skip
    FIELD,
    FIELDS,
    FLAT_SIZE,
    encode,
    flat_high,
    observe,
    to_dict,
    to_flat,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def positions(players: int, options: Options, seed: int, count: int) -> list[Game]:
    """Positions of one random game: a copy of the game before each of ``count`` actions."""
    game = Game.new(players, options, seed)
    rng = random.Random(seed)
    seen: list[Game] = []
    while not game.is_over and len(seen) < count:
        seen.append(game.clone())
        game.apply(rng.choice(game.legal_actions()))
    seen.append(game)
    return seen


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, Options()),
        (2, Options(colours=4, goat=True)),
        (4, Options(target=10)),
        (6, Options(goat=True, one_hand=True)),
        (3, Options(target=1000, next_leader="winner")),
    ],
)
def test_dict_to_flat_to_dict_is_exact(players: int, options: Options) -> None:
    high = flat_high()
    for game in positions(players, options, seed=players, count=400):
        for seat in range(players):
            obs = observe(make_view(game, seat, history=False))
            flat = to_flat(obs)
            assert flat.dtype == np.float32 and flat.shape == (FLAT_SIZE,)
            assert (flat >= 0).all() and (flat <= high).all()
            back = to_dict(flat)
            assert back.keys() == obs.keys()
            for name, value in obs.items():
                assert np.array_equal(back[name], value), name
            assert np.array_equal(encode(make_view(game, seat, history=False)), flat)


def test_fields_tile_the_vector_without_gaps() -> None:
    assert FIELDS[0].start == 0
    for before, after in itertools.pairwise(FIELDS):
        assert after.start == before.stop
    assert FIELDS[-1].stop == FLAT_SIZE


def test_what_the_seat_sees_is_encoded_where_the_layout_says() -> None:
    game = Game.new(3, Options(target=10, first_leader=1), seed=5, deals=[DEAL_3])
    game.apply("play B1")  # seat 1 leads B1
    game.apply("play R2")  # seat 2 beats it and takes B1
    game.apply("take B1")
    obs = observe(make_view(game, 0, history=False))
    flat = encode(make_view(game, 0, history=False))
    assert obs["hand"].nonzero()[0].tolist() == [9 * 4 + n for n in range(9)]  # K1..K9
    assert obs["known"][1].nonzero()[0].tolist() == [0]  # slot 2 (seat 2) holds B1
    assert obs["table"].nonzero()[0].tolist() == [9 + 1]  # R2
    assert obs["hand_sizes"].tolist() == [9, 8, 9, 0, 0, 0]
    assert obs["to_move"].tolist() == [1, 0, 0, 0, 0, 0]
    assert obs["table_player"].tolist() == [0, 0, 1, 0, 0, 0]
    assert obs["hand_leader"].tolist() == [0, 1, 0, 0, 0, 0]
    assert obs["decision"].tolist() == [0, 1, 0, 0]
    assert obs["seats"].tolist() == [1, 1, 1, 0, 0, 0]
    assert flat[FIELD["target"].start] == pytest.approx(0.1)
    assert flat[FIELD["hand_sizes"].start + 1] == pytest.approx(8 / 9)
    game.apply("pass")  # seat 0 passes; seat 1 to move, one pass
    obs = observe(make_view(game, 1, history=False))
    assert obs["passed"].tolist() == [0, 0, 1, 0, 0, 0]  # seat 0 is slot 2 of seat 1


DEAL_3 = [
    ["K1", "K2", "K3", "K4", "K5", "K6", "K7", "K8", "K9"],
    ["B1", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "O1"],
    ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"],
]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_observation_is_the_same_for_every_deal_the_seat_cannot_tell_apart(
    players: int,
) -> None:
    """Hidden cards never enter an observation: redistribute every card the seat has not
    seen (as its own sampler would) and its observation stays the same, byte for byte."""
    rng = random.Random(players)
    checked = changed = 0
    for game in positions(players, Options(goat=True), seed=11 * players, count=300)[::7]:
        if game.is_over:
            continue
        for seat in range(players):
            view = make_view(game, seat, history=False)
            mine = encode(view)
            for _ in range(3):
                other = game.with_hands(HandSampler.of(view).draw(rng))
                changed += other.hands != game.hands
                assert np.array_equal(encode(make_view(other, seat, history=False)), mine)
                checked += 1
    assert checked > 50 and changed > checked // 2  # the deals did differ


def test_observation_changes_with_the_seats_own_hand() -> None:
    """The converse, so that the test above can fail: the seat's own cards do show."""
    game = Game.new(4, Options(), seed=3)
    hands = list(game.hands)
    hands[0], hands[1] = hands[1], hands[0]
    other = game.with_hands(hands)
    assert not np.array_equal(
        encode(make_view(game, 0, history=False)), encode(make_view(other, 0, history=False))
    )


def test_a_spectator_has_no_observation() -> None:
    with pytest.raises(ValueError, match="spectator"):
        observe(make_view(Game.new(2, Options(), seed=1), None, history=False))


def test_flat_refuses_a_vector_of_the_wrong_size_or_target() -> None:
    with pytest.raises(ValueError, match="shape"):
        to_dict(np.zeros(FLAT_SIZE - 1, dtype=np.float32))
    obs = observe(make_view(Game.new(2, Options(), seed=1), 0, history=False))
    obs["target"][0] = 5000
    with pytest.raises(ValueError, match="target"):
        to_flat(obs)


def test_docs_index_table_matches_the_layout() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\d+)[–-](\d+) \|", DOCS.read_text(), re.MULTILINE)
    assert [(name, int(a), int(b)) for name, a, b in rows] == [
        (f.name, f.start, f.stop - 1) for f in FIELDS
    ]
