"""Every hand of the reference traces (tests/data/odin-hands.jsonl, copied from the
project's shared conformance set): every legal list, take list and score."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from odin_cards.odin.traces import check_trace, read_traces, write_traces

DATA = Path(__file__).parent.parent / "data"
TRACES = list(read_traces((DATA / "odin-hands.jsonl").read_text().splitlines()))


def test_the_reference_file_covers_every_player_count() -> None:
    assert len(TRACES) == 250
    assert {t["players"] for t in TRACES} == {2, 3, 4, 5, 6}
    assert sum(len(t["steps"]) for t in TRACES) > 15_000


@pytest.mark.parametrize("number", range(len(TRACES)))
def test_reference_hand(number: int) -> None:
    assert check_trace(number, TRACES[number]) is None


def test_a_changed_legal_list_is_reported_with_step_and_difference() -> None:
    trace = copy.deepcopy(TRACES[0])
    trace["steps"][3]["legal"].append("play O9")
    mismatch = check_trace(0, trace)
    assert mismatch is not None
    assert mismatch.step == 3
    assert "trace only: play O9" in mismatch.difference


def test_a_changed_score_is_reported() -> None:
    trace = copy.deepcopy(TRACES[1])
    trace["scores"][0] += 1
    mismatch = check_trace(1, trace)
    assert mismatch is not None and "scores" in mismatch.difference


def test_an_illegal_traced_action_is_reported() -> None:
    trace = copy.deepcopy(TRACES[2])
    step = next(s for s in trace["steps"] if s["table"])
    step["action"] = "play " + trace["hands"][0][0] + " " + trace["hands"][1][0]
    mismatch = check_trace(2, trace)
    assert mismatch is not None


def test_written_traces_check_against_the_engine() -> None:
    lines = list(write_traces(30, seed=4, players=[2, 3, 4, 5, 6]))
    traces = [json.loads(line) for line in lines]
    assert [t["players"] for t in traces[:5]] == [2, 3, 4, 5, 6]
    assert all(check_trace(i, t) is None for i, t in enumerate(traces))
    assert list(write_traces(30, seed=4, players=[2, 3, 4, 5, 6])) == lines  # seeded


def test_written_traces_have_the_reference_shape() -> None:
    trace = json.loads(next(write_traces(1, seed=random.Random(0).randrange(99), players=[4])))
    assert set(trace) == set(TRACES[0])
    for step in trace["steps"]:
        assert set(step) in (set(TRACES[0]["steps"][0]), set(TRACES[0]["steps"][1]))
