"""python_odin, the OpenSpiel game: OpenSpiel's own tests and tools, and hidden cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytestmark = pytest.mark.research
pyspiel = pytest.importorskip("pyspiel", reason="the [research] extra (OpenSpiel) is not installed")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    evaluate_bots,
    generate_playthrough,
    ismcts,
    mcts,
    outcome_sampling_mccfr,
)
from open_spiel.python.bots import uniform_random  # noqa: E402

from odin_cards.odin.env.observation import FLAT_SIZE, encode  # noqa: E402
from odin_cards.odin.env.openspiel import (  # noqa: E402
    ROW,
    SHORT_NAME,
    OdinState,
    colour_pairs,
    game_length_bound,
    hands_bound,
    plays_bound,
)
from odin_cards.odin.rules import NUM_ACTIONS, parse_action  # noqa: E402
from odin_cards.odin.rules.cards import GOAT, HAND_SIZE  # noqa: E402
from odin_cards.odin.rules.view import make_view  # noqa: E402


def load(**params: Any) -> Any:
    return pyspiel.load_game(SHORT_NAME, params)


@pytest.mark.parametrize(
    ("params", "sims", "serialize"),
    [
        ({"players": 2, "colours": 4, "removal": "any-two", "target": 8}, 2, True),
        ({"players": 3, "one_hand": True, "goat": True}, 3, False),
        ({"players": 6, "one_hand": True, "goat": True, "first_leader": 2}, 1, False),
        ({"players": 4, "target": 6, "next_leader": "winner"}, 1, False),
    ],
)
def test_openspiel_random_sim_test(params: dict[str, Any], sims: int, serialize: bool) -> None:
    pyspiel.random_sim_test(load(**params), num_sims=sims, serialize=serialize, verbose=False)


def test_playthrough_is_generated_and_reproducible() -> None:
    game = f"{SHORT_NAME}(players=2,one_hand=True,goat=True)"
    first = generate_playthrough.playthrough(game, None, seed=3)
    assert first == generate_playthrough.playthrough(game, None, seed=3)
    recall = FLAT_SIZE + 6 * 55 + 55 + 9 * 55 + plays_bound(2, goat=True) * ROW + 6 * 55
    for line in (
        f"InformationStateTensorSize() = {recall}",
        "ObservationTensorSize() = 598",
        f"NumDistinctActions() = {NUM_ACTIONS}",
        "IsTerminal() = True",
    ):
        assert line in first
    assert 'PrivateObservationString(0) = "dealt: ' in first


class Ismcts(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS bot searches afresh each move; evaluate_bots also asks
    every bot to restart and to hear the others' actions, which it does not implement."""

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass


def test_ismcts_with_a_rollout_evaluator_plays_and_beats_random() -> None:
    game = load(players=2, one_hand=True)
    wins = 0.0
    for seed in range(3):
        rng = random.Random(seed)
        bot = Ismcts(
            game,
            mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed)),
            uct_c=2.0,
            max_simulations=30,
            random_state=np.random.RandomState(seed),
        )
        bot.set_resampler(
            lambda state, player, dice=rng: state.resample_from_infostate(player, dice.random)
        )
        opponent = uniform_random.UniformRandomBot(1, np.random.RandomState(seed))
        returns = evaluate_bots.evaluate_bots(
            game.new_initial_state(), [bot, opponent], np.random.RandomState(seed)
        )
        assert sum(returns) == pytest.approx(1.0)
        wins += returns[0]
    assert wins >= 2  # random play loses to 30 simulations a move


def play(state: OdinState, rng: random.Random, actions: int) -> OdinState:
    """Random chance outcomes and moves, ``actions`` of them (fewer if the game ends)."""
    for _ in range(actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("actions", [5, 20, 60, 120, 400])
def test_resampling_keeps_the_players_information_and_redraws_the_rest(actions: int) -> None:
    game = load(players=3, target=10, goat=True)
    state = play(game.new_initial_state(), random.Random(actions), actions)
    player = 1
    others = set()
    for draw in range(6):
        other = state.resample_from_infostate(player, random.Random(draw).random)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.observation_tensor(player) == state.observation_tensor(player)
        assert other.current_player() == state.current_player()
        if not state.is_chance_node() and not state.is_terminal():
            assert other.legal_actions() == state.legal_actions() or (
                state.current_player() != player
            )
        others.add(str(other))
    if state.is_chance_node() and not state.dealt:
        assert others == {str(state)}  # nothing hidden between hands
    elif not state.is_terminal():
        assert len(others) > 1


def test_a_players_information_is_the_same_for_deals_that_agree_on_its_cards() -> None:
    game = load(players=3, one_hand=True, first_leader=0)
    cards = list(range(27))
    swapped = cards[:9] + cards[18:27] + cards[9:18]  # seats 1 and 2 exchange hands
    first, second = game.new_initial_state(), game.new_initial_state()
    for a, b in zip(cards, swapped, strict=True):
        first.apply_action(a)
        second.apply_action(b)
    assert first.information_state_string(0) == second.information_state_string(0)
    assert first.information_state_tensor(0) == second.information_state_tensor(0)
    assert first.observation_string(0) == second.observation_string(0)
    assert first.observation_tensor(0) == second.observation_tensor(0)
    assert first.information_state_tensor(1) != second.information_state_tensor(1)
    assert first.information_state_string(1) != second.information_state_string(1)


def test_the_goat_is_dealt_with_the_engines_distribution() -> None:
    state = load(players=6, goat=True, first_leader=0).new_initial_state()
    outcomes = dict(state.chance_outcomes())
    slots = HAND_SIZE * 6
    assert len(outcomes) == 55
    assert outcomes[GOAT] == pytest.approx(1 / slots)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    for card in range(slots - 1):  # deal every place but the last without the Goat
        state.apply_action(card)
    assert state.chance_outcomes() == [(GOAT, 1.0)]


def test_colours_and_first_leader_are_chance_when_the_setup_leaves_them() -> None:
    state = load(players=2, colours=4).new_initial_state()
    pairs = colour_pairs("red-or-black")
    assert [o for o, _ in state.chance_outcomes()] == list(range(len(pairs))) and len(pairs) == 8
    state.apply_action(3)
    assert [o for o, _ in state.chance_outcomes()] == [0, 1]
    state.apply_action(1)
    deck = [o for o, _ in state.chance_outcomes()]
    assert len(deck) == 36 and all(c // 9 not in pairs[3] for c in deck)
    play(state, random.Random(0), 18)
    assert state.current_player() == 1
    assert state.engine is not None and state.engine.removed == pairs[3]


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        load(players=7)
    with pytest.raises(ValueError, match="4-colour"):
        load(players=3, colours=4)
    with pytest.raises(ValueError, match="target"):
        load(target=5000)


def test_the_observation_tensor_is_the_environments_flat_vector() -> None:
    game = load(players=4, target=8)
    state = game.new_initial_state()
    rng = random.Random(5)
    compared = 0
    while not state.is_terminal():
        if not state.is_chance_node() and rng.random() < 0.2:
            assert state.engine is not None
            for player in range(4):
                flat = encode(make_view(state.engine, player, history=False))
                assert state.observation_tensor(player) == pytest.approx(flat.tolist())
            compared += 1
        play(state, rng, 1)
    assert compared > 20


def test_the_information_state_string_recalls_earlier_hands() -> None:
    """Perfect recall across hands: each hand's own cards, the others' as unknown, and the
    cards every seat showed at each hand's end."""
    game = load(players=2, target=20, first_leader=0)
    state = play(game.new_initial_state(), random.Random(2), 10_000)
    assert state.is_terminal()
    words = state.information_state_string(0).split()
    dealt = len(state.deals)
    assert dealt >= 2
    assert sum(w.startswith("got:") for w in words) == 9 * dealt
    assert words.count("1:dealt") == 9 * dealt
    assert sum(w.startswith("0:shows:") for w in words) == dealt
    assert sum(w.startswith("1:shows:") for w in words) == dealt


def test_the_information_state_tensor_recalls_the_order_of_plays() -> None:
    """Leading B1 then B2, or B2 then B1 (the other seat passing each time), leaves the same
    cards, table and summary: only the order tells the two apart, as the string does."""
    game = load(players=2, one_hand=True, first_leader=0)
    tensors, strings = [], []
    for first, second in (("B1", "B2"), ("B2", "B1")):
        state = game.new_initial_state()
        for card in range(18):  # seat 0: B1-B9, seat 1: R1-R9
            state.apply_action(card)
        for lead in (first, second):
            state.apply_action(parse_action(f"play {lead}").id)
            state.apply_action(parse_action("pass").id)
        assert state.current_player() == 0
        tensors.append(np.array(state.information_state_tensor(0)))
        strings.append(state.information_state_string(0))
    assert strings[0] != strings[1]
    summary = FLAT_SIZE + 6 * 55 + 55  # what the tensor was before it recalled the order
    assert (tensors[0][:summary] == tensors[1][:summary]).all()
    assert (tensors[0] != tensors[1]).any()


def states_of_random_play(params: dict[str, Any], games: int, seed: int) -> list[OdinState]:
    game = load(**params)
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            states.append(state.clone())
            play(state, rng, 1)
        states.append(state)
    return states


def sparse(tensor: np.ndarray[Any, Any]) -> bytes:
    """A tensor's exact, compact key: where it is not zero, and its values there."""
    where = np.flatnonzero(tensor != 0)  # faster than on the floats themselves
    return where.tobytes() + tensor[where].tobytes()


@pytest.mark.parametrize(
    ("params", "hands"),
    [
        ({"players": 2, "one_hand": True, "first_leader": 0}, 1),
        ({"players": 3, "one_hand": True, "goat": True}, 1),
        ({"players": 2, "target": 4}, 4),
        ({"players": 3, "target": 4}, 3),
        ({"players": 2, "target": 4, "colours": 4, "next_leader": "winner", "goat": True}, 2),
    ],
)
def test_information_state_strings_and_tensors_agree_on_equality(
    params: dict[str, Any], hands: int
) -> None:
    """The tensor is perfect recall, in one-hand games and in games of several hands: two
    states have equal tensors for a player exactly when they have equal strings. Random
    games, and states a player cannot tell apart (the others' cards redrawn), each compared
    for every player."""
    states = states_of_random_play(params, games=2, seed=7)
    assert max(len(s.deals) for s in states) >= hands  # earlier hands to recall
    assert_strings_and_tensors_agree(load(**params), states, random.Random(1))


def assert_strings_and_tensors_agree(
    game: Any, states: list[OdinState], rng: random.Random
) -> None:
    """For every player, ``states`` (and 40 of them redrawn from player 0's information)
    have equal information-state tensors exactly when they have equal strings. The tensors
    are read from the game's perfect-recall observer, which is what
    ``information_state_tensor`` copies (checked on a few states: copying the whole vector
    for every state would make the test slow)."""
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    for state in rng.sample(states, 40):
        if not state.is_chance_node() or state.dealt:
            states.append(state.resample_from_infostate(0, rng.random))
    for state in (states[0], states[len(states) // 2], states[-1]):
        observer.set_from(state, 1)
        assert state.information_state_tensor(1) == observer.tensor.tolist()
    for player in range(game.num_players()):
        by_string: dict[str, bytes] = {}
        by_tensor: dict[bytes, str] = {}
        for state in states:
            text = state.information_state_string(player)
            observer.set_from(state, player)
            tensor = sparse(observer.tensor)
            assert by_string.setdefault(text, tensor) == tensor
            assert by_tensor.setdefault(tensor, text) == text
        assert len(by_string) > len(states) // 2  # most states differ: the test compares


def twin_games(players: int, actions: int) -> tuple[list[OdinState], list[OdinState]]:
    """Two games that differ only in the order of two leads in the first hand: seat 0,
    dealt B1-B9, leads B1 then B2, or B2 then B1, then B3 to B9, every other seat (dealt
    nine cards of one other colour) passing each time. Both end the hand with the same
    scores and shown cards; then the same chance outcomes and moves, ``actions`` of them,
    each followed by a state kept (the second hand's, then later ones)."""
    game = load(players=players, first_leader=0)
    twins: tuple[list[OdinState], list[OdinState]] = ([], [])
    for (first, second), states in zip((("B1", "B2"), ("B2", "B1")), twins, strict=True):
        state = game.new_initial_state()
        for card in range(9 * players):  # seat s: the nine cards of colour s
            state.apply_action(card)
        for lead in (first, second, "B3", "B4", "B5", "B6", "B7", "B8", "B9"):
            state.apply_action(parse_action(f"play {lead}").id)
            if lead != "B9":
                for _ in range(players - 1):
                    state.apply_action(parse_action("pass").id)
        assert state.engine is not None and state.engine.scores == [0] + [9] * (players - 1)
        rng = random.Random(players)
        for _ in range(actions):
            play(state, rng, 1)  # the first is the second hand's first card
            states.append(state.clone())
            if state.is_terminal():
                break
    return twins


@pytest.mark.parametrize("players", [2, 3])
def test_the_information_state_tensor_recalls_earlier_hands(players: int) -> None:
    """Twin games (:func:`twin_games`): at each pair of states from the second hand on, the
    current hand's part of the tensor (all the tensor was before it recalled earlier hands)
    is the same, and the whole tensor tells the twins apart, as the string does, for every
    player; over both games' states, tensors and strings agree on equality."""
    game = load(players=players, first_leader=0)
    current = load(players=players, one_hand=True).information_state_tensor_size()
    past = hands_bound(players, 15, one_hand=False) - 1
    block = 9 * 55 + plays_bound(players, goat=False) * ROW + 6 * 55
    assert game.information_state_tensor_size() == current + past * block
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    ours, theirs = twin_games(players, actions=100)
    assert len(ours) == len(theirs) and max(len(s.deals) for s in ours) >= 2
    for a, b in zip(ours[::10], theirs[::10], strict=True):
        for player in range(players):
            assert a.information_state_string(player) != b.information_state_string(player)
            observer.set_from(a, player)
            first = observer.tensor.copy()
            observer.set_from(b, player)
            assert (first[:current] == observer.tensor[:current]).all()
            assert (first != observer.tensor).any()
    assert_strings_and_tensors_agree(game, ours + theirs, random.Random(players))


def test_outcome_sampling_mccfr_runs_on_a_one_hand_game() -> None:
    """Outcome-sampling MCCFR keys its regrets by information state, which must be perfect
    recall with the same legal actions at every state of an information set."""
    game = load(players=2, one_hand=True, first_leader=0)
    np.random.seed(3)  # OpenSpiel's MCCFR samples with NumPy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(10):
        solver.iteration()
    policy = solver.average_policy()
    legal: dict[str, list[int]] = {}
    for state in states_of_random_play({"players": 2, "one_hand": True, "first_leader": 0}, 2, 5):
        if state.is_chance_node() or state.is_terminal():
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        assert legal.setdefault(key, state.legal_actions()) == state.legal_actions()
        probabilities = policy.action_probabilities(state, player)
        assert set(probabilities) == set(state.legal_actions())
        assert sum(probabilities.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_max_game_length_bounds_random_play(players: int) -> None:
    """``max_game_length`` is a bound derived from the rules (see ``plays_bound``,
    ``hands_bound``): no random game comes near it, and it grows with the target."""
    params = {"players": players, "target": 6, "goat": True}
    game = load(**params)
    for state in states_of_random_play(params, games=1, seed=players)[-1:]:
        assert len(state.history()) <= game.max_game_length()
        assert len(state.deals) <= hands_bound(players, 6, one_hand=False)
    assert game.max_game_length() == game_length_bound(players, 6, False, True, 1)
    assert load(players=players, target=12).max_game_length() > game.max_game_length()
