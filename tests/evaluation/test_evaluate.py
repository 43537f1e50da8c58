"""Scoring an agent over the evaluation set: rotations, figures, agents by import path, errors."""

from __future__ import annotations

import json
import sys
from itertools import groupby
from pathlib import Path

import pytest

from odin_cards.games import rules_of
from odin_cards.tools.arena import ArenaError, BotFailure, load_agent
from odin_cards.tools.evaluation import evaluate, evaluation_dict, load_set, matches
from odin_cards.tools.evaluation.deals import checksum_line
from odin_cards.tools.evaluation.generate import set_text

from . import agents

AGENTS = Path(agents.__file__)
FAST = {"target": 5}
"""Short games keep the runs small."""


def agent(name: str) -> str:
    return f"{AGENTS}:{name}"


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_deal_is_played_once_with_the_agent_at_each_seat(players: int) -> None:
    deals = load_set().for_players(players, 4)
    scheduled = matches(deals, players)
    assert len(scheduled) == 4 * players
    for index, deal in enumerate(deals):
        mine = [m for m in scheduled if m.deal == index]
        assert {m.seed for m in mine} == {deal.seed}
        assert all(m.chance == (deal.hand,) for m in mine)
        assert [m.lineup.index(0) for m in mine] == list(range(players))
        assert all(m.lineup.count(0) == 1 for m in mine)


def test_an_evaluation_reports_the_agents_share_and_points_per_pairing() -> None:
    result = evaluate(
        agent("lowest"), ["random", "heuristic"], load_set(), [2, 3], 3, FAST, workers=1
    )
    assert [(p.players, p.opponent.label) for p in result.pairings] == [
        (2, "random"),
        (2, "heuristic"),
        (3, "random"),
        (3, "heuristic"),
    ]
    for pairing in result.pairings:
        players = pairing.players
        assert pairing.games == 3 * players
        assert pairing.agent.games == pairing.agent.seats == pairing.games
        assert pairing.opponent.seats == (players - 1) * pairing.games
        assert pairing.agent.fair_share == pytest.approx(1 / players)
        assert pairing.agent.win_share + pairing.opponent.win_share == pytest.approx(1.0)
        assert pairing.agent.ci_low <= pairing.agent.win_share <= pairing.agent.ci_high
        for seat in range(players):  # the agent sat at every seat of every deal
            assert sum(r.lineup[seat] == 0 for r in pairing.results) == 3
    data = evaluation_dict(result)
    assert data["format"] == "odin-cards-evaluate/1" and data["complete"] is True
    assert data["evaluation_set"] == {"name": "odin-eval-v1", "sha256": load_set().sha256}
    assert data["pairings"][1]["opponent"] == "heuristic"
    assert data["pairings"][1]["agent"]["win_share"] == result.pairings[1].agent.win_share


def test_the_same_evaluation_gives_the_same_games_whatever_the_workers() -> None:
    """Deals come from the set and bots' generators from the deal seeds: nothing else."""
    runs = [
        evaluate("random", ["random"], load_set(), [2], 3, FAST, workers=workers)
        for workers in (1, 2)
    ]
    first, second = (
        [(r.lineup, r.scores, r.hands) for r in run.pairings[0].results] for run in runs
    )
    assert first == second


def test_the_agent_sees_only_its_seats_view() -> None:
    agents.CALLS.clear()
    # by module name, so that the agent is this very module and its CALLS this list
    recording = f"{agents.__name__}:recording"
    result = evaluate(recording, ["heuristic"], load_set(), [3], 1, FAST, workers=1)
    assert set(agents.CALLS) == {0, 1, 2}  # the agent's seat rotated over all three
    assert result.pairings[0].games == 3


def test_games_are_dealt_the_sets_hands_not_only_its_seeds(tmp_path: Path) -> None:
    """A set whose first hands differ from their seeds' deals: the file's hands are played."""
    document = json.loads(set_text("swapped", 2, [2]))
    for deal in document["deals"]["2"]:
        deal["hand"].reverse()  # seat 0 gets seat 1's cards and the other way round
    path = tmp_path / "swapped.json"
    data = json.dumps(document).encode()
    path.write_bytes(data)
    (tmp_path / "swapped.json.sha256").write_text(checksum_line(data, path.name))
    swapped = load_set(path)
    agents.HANDS.clear()
    evaluate(f"{agents.__name__}:hand_recording", ["random"], swapped, [2], 2, FAST, 1)
    # Games run in schedule order (deal 0 rotation 0, deal 0 rotation 1, ...) with the agent
    # at seat 0, 1, 0, 1: each run of calls from one seat is one game, whose first call
    # (before the agent has played) shows the cards it was dealt.
    games = [list(calls) for _, calls in groupby(agents.HANDS, key=lambda call: call[0])]
    assert len(games) == 4
    deals = swapped.for_players(2)
    for index, calls in enumerate(games):
        seat, hand_number, cards = calls[0]
        assert (seat, hand_number) == (index % 2, 1)
        deal = deals[index // 2]
        assert cards == deal.hand[seat]
        seeds_own = rules_of("odin").new_game(2, {}, deal.seed).record().to_dict()["events"][0]
        assert list(cards) == seeds_own["deal"][1 - seat] != seeds_own["deal"][seat]


@pytest.mark.parametrize("name", ["by_id", "by_text", "HighestBot"])
def test_an_agent_may_answer_an_action_its_id_or_text_or_be_a_bot_class(name: str) -> None:
    result = evaluate(agent(name), ["random"], load_set(), [2], 1, FAST, workers=1)
    assert result.pairings[0].games == 2
    assert result.agent == agent(name)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("illegal", "chose 'play B0', which is not legal here (legal: "),
        ("not_an_action", "returned list [Action('"),
        ("broken", "out of ideas"),
    ],
)
def test_a_failing_agent_stops_the_evaluation(name: str, message: str) -> None:
    with pytest.raises(BotFailure, match=message.replace("(", r"\(").replace("[", r"\[")):
        evaluate(agent(name), ["random"], load_set(), [2], 2, FAST, workers=1)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("no_such_module_xyz:agent", "cannot import no_such_module_xyz: no module named"),
        ("odin_cards.odin.rules:no_such_name", "odin_cards.odin.rules has no 'no_such_name'"),
        ("odin_cards.odin.rules:Game", r"is a class without a method choose\(view, legal,"),
        (f"{AGENTS}:NOT_CALLABLE", "is a int, not a function or a class"),
        (f"{AGENTS}:NotABot", r"is a class without a method choose\(view, legal, budget, rng\)"),
        ("/no/such/file.py:agent", "/no/such/file.py: no such file"),
        ("nope", "unknown bot level 'nope'"),
    ],
)
def test_a_bad_agent_path_is_refused_before_any_game(path: str, message: str) -> None:
    with pytest.raises(ArenaError, match=message):
        evaluate(path, ["random"], load_set(), [2], 1, FAST, workers=1)


def test_a_module_failing_on_import_is_explained(tmp_path: Path) -> None:
    failing = tmp_path / "failing_agent.py"
    failing.write_text("raise RuntimeError('no weights here')\n")
    with pytest.raises(ArenaError, match="fails on import: RuntimeError: no weights here"):
        evaluate(f"{failing}:agent", ["random"], load_set(), [2], 1, FAST, workers=1)


def test_an_agent_module_on_the_path_loads_by_dotted_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "my_agents_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "policy.py").write_text(
        "def first(view, legal):\n    return legal[0]\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)  # the current directory is searched first, as python -m does
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    player = load_agent("my_agents_pkg.policy:first")
    assert player.name == "my_agents_pkg.policy:first" and player.function
    result = evaluate("my_agents_pkg.policy:first", ["random"], load_set(), [2], 1, FAST, 1)
    assert result.pairings[0].games == 2
