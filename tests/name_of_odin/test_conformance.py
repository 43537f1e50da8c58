"""Random games of every player count, checked at every step against the game's invariants.

Per action: the cards and vikings are conserved, a game not over has legal actions, the
chosen legal action applies, actions that are not legal (taken from other moments of the
game, and from a list of plausible mistakes) are refused with a reason and change
nothing. Every legal action has an id of the card set's space that turns back into it.
At sampled moments: every legal action applies (on a copy), the legal mask flags exactly
the legal actions' ids, and a seat's view is unchanged when everything hidden from it
(other hands, the decks' order) is re-dealt. At the end: the record replays to the same
game, equal field by field.

The quick test plays a few games per player count; the ``slow`` one 100 per count (400 games,
about 0.5 s of CPU each with the starter set's dear heroes, whose games are long).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from odin_cards.contract import ActionError
from odin_cards.name_of_odin.rules import NAME_OF_ODIN, Action, Game, NotYourTurnError
from odin_cards.name_of_odin.rules.symbols import CARD_CODES, VIKINGS

QUICK_GAMES = 3
SLOW_GAMES = 30
"""Per player count and chunk: 2 chunks x 4 counts = 240 games (about 9 minutes of one
worker's time since every action's id is checked as well: 50 a chunk took 16), each test
well under the suite's 600 s timeout."""
SAMPLE = 30
"""One action in SAMPLE gets the expensive checks (all legal actions, hidden re-deal)."""
SLOW_SAMPLE = 300
"""The same in the slow run, whose point is many games."""


def action_cards(game: Game) -> Counter[str]:
    cards: Counter[str] = Counter(game.action_deck)
    cards.update(game.action_discard)
    cards.update(game.action_display)
    for village in game.villages:
        cards.update(village.hand)
    if game.raid is not None:
        cards.update(game.raid.requirements)
    return cards


def check_conserved(game: Game) -> None:
    assert action_cards(game) == Counter({c: n for c, n in game.cards.actions.items() if n})
    per_type = game.cards.board.vikings_per_type
    for viking in VIKINGS:
        held = sum(v.vikings[viking] for v in game.villages)
        assert held + game.reserve[viking] == per_type
        assert game.reserve[viking] >= 0
        assert all(v.vikings[viking] >= 0 for v in game.villages)
    for seat, village in enumerate(game.villages):
        assert len(village.ships) <= game.ship_slots(seat)
        assert village.materials <= game.empty_plots(seat)
        assert len({game.cards.building(b).kind for b in village.buildings}) == len(
            village.buildings
        )
        assert village.glory >= 0
        assert len(village.hand) <= game.hand_limit(seat)
        if game.decision in ("turn", "modify", "match", "pick"):
            assert village.viking_count <= game.viking_limit(seat)
    owned = [s.id for v in game.villages for s in v.ships]
    ships = owned + game.ship_deck + [s for s in game.ship_display if s]
    assert sorted(ships) == sorted(s.id for s in game.cards.ships)
    heroes = [v.hero for v in game.villages if v.hero] + game.hero_deck
    heroes += [h for h in game.hero_display if h]
    assert sorted(heroes) == sorted(h.id for h in game.cards.heroes)


def snapshot(game: Game) -> str:
    seat = game.current_player
    return json.dumps([game.action_count, game.public_length, game.view(seat)], sort_keys=True)


def check_refusals(game: Game, seen: list[str], rng: random.Random) -> None:
    seat = game.current_player
    assert seat is not None
    legal = {a.text for a in game.legal_actions()}
    before = snapshot(game)
    ids = list(game.cards.by_id)
    candidates = [
        *rng.sample(seen, min(len(seen), 6)),
        "end",
        "pass",
        "done",
        "stop",
        "take 0",
        "release W",
        f"recruit {rng.choice(CARD_CODES)}",
        f"modify {rng.choice(CARD_CODES)}",
        f"match {rng.choice(CARD_CODES)}",
        f"pick {rng.choice(CARD_CODES)}",
        f"swap {rng.choice(CARD_CODES)} {rng.choice(CARD_CODES)}",
        "material WC WC +C",
        "ability",
        f"ability {rng.choice(ids)}",
        f"build {rng.choice(ids)} WC TC SC",
        f"hero {rng.choice(ids)} WH",
        f"ship {rng.choice(ids)} WN TN SN",
        f"return {rng.choice(ids)} WN TN",
        f"repair {rng.choice(ids)} WN +N",
        f"raid {rng.choice(ids)} {rng.choice(ids)} W",
        f"take {rng.randrange(7)}",
    ]
    for text in candidates:
        canonical = game.parse(text).text
        if canonical in legal:
            continue
        with pytest.raises(ActionError) as refused:
            game.apply(text, seat)
        assert str(refused.value)
    other = (seat + 1) % game.players
    with pytest.raises(NotYourTurnError):
        game.apply(next(iter(legal)), other)
    assert snapshot(game) == before


def check_ids(game: Game, legal: list[Action]) -> None:
    space = game.space
    ids = [a.id for a in legal]
    assert len(set(ids)) == len(ids) and all(0 <= i < space.size for i in ids)
    for action, action_id in zip(legal, ids, strict=True):
        back = space.action(action_id)
        assert back == action and back.text == action.text and back.id == action_id


def check_mask(game: Game, legal: list[Action]) -> None:
    mask = game.legal_mask()
    assert len(mask) == game.space.size
    assert [i for i, flag in enumerate(mask) if flag] == game.legal_action_ids()
    assert game.legal_action_ids() == sorted(a.id for a in legal)


def check_every_legal_action_applies(game: Game) -> None:
    for action in game.legal_actions():
        copy = game.clone()
        copy.apply(action, copy.current_player)
        check_conserved(copy)


def redeal_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy that differs from ``game`` only in what ``seat`` cannot see."""
    copy = game.clone()
    others = [v for n, v in enumerate(copy.villages) if n != seat]
    pool = list(copy.action_deck)
    for village in others:
        pool.extend(village.hand)
    rng.shuffle(pool)
    for village in others:
        size = len(village.hand)
        village.hand, pool = sorted(pool[:size], key=CARD_CODES.index), pool[size:]
    copy.action_deck = pool
    for deck in (copy.hero_deck, copy.building_deck, copy.ship_deck, copy.raid_deck):
        rng.shuffle(deck)
    return copy


def check_views_leak_nothing(game: Game, rng: random.Random) -> None:
    for seat in [*range(game.players), None]:
        view = game.view(seat)
        assert json.loads(json.dumps(view)) == view
        if seat is None:
            assert view["hand"] is None and view["legal"] == []
            continue
        assert view["hand"] == game.villages[seat].hand
        other = redeal_hidden(game, seat, rng)
        assert other.view(seat) == view


def play(players: int, seed: int, sample: int = SAMPLE) -> Game:
    game = NAME_OF_ODIN.new_game(players, {}, seed)
    rng = random.Random(seed * 7 + players)
    seen: list[str] = []
    while not game.is_over:
        seat = game.current_player
        assert seat is not None and game.decision is not None
        legal = game.legal_actions()
        assert legal, "a game that is not over has a legal action"
        assert len({a.text for a in legal}) == len(legal)
        check_ids(game, legal)
        if rng.randrange(sample) == 0:
            check_mask(game, legal)
            check_every_legal_action_applies(game)
            check_views_leak_nothing(game, rng)
            check_refusals(game, seen, rng)
        action = rng.choice(legal)
        seen.append(action.text)
        assert game.parse(action.text) == action and game.parse(action.text).id == action.id
        count = game.action_count
        events = game.apply(action.text, seat)
        assert events and game.action_count == count + 1
        check_conserved(game)
    assert game.current_player is None and game.decision is None and game.legal_actions() == []
    outcome = game.outcome
    assert outcome is not None and outcome.winners
    assert len(outcome.scores) == players
    check_public_history(game)
    check_replays(game)
    return game


def check_public_history(game: Game) -> None:
    """Draws and deals are public only as counts; their cards are each seat's secret."""
    events = game.public_events()
    assert [e["index"] for e in events] == list(range(game.public_length))
    assert json.loads(json.dumps(events)) == events
    for event in events:
        if event["type"] in ("draw", "deal"):
            assert set(event) == {"index", "type", "seat", "count"}


def check_replays(game: Game) -> None:
    data = json.loads(json.dumps(game.record().to_dict()))
    again = NAME_OF_ODIN.load_record(data).replay()
    assert again.public_events() == game.public_events()
    assert again.outcome == game.outcome
    assert again.view(0) == game.view(0)
    assert again == game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games(players: int) -> None:
    for seed in range(QUICK_GAMES):
        play(players, seed)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", [0, 1])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_random_games(players: int, chunk: int) -> None:
    first = QUICK_GAMES + chunk * SLOW_GAMES
    for seed in range(first, first + SLOW_GAMES):
        play(players, seed, SLOW_SAMPLE)
