"""The evaluation set: reproducible byte for byte, checksummed, and dealt by the engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from odin_cards.games import rules_of
from odin_cards.tools.evaluation import (
    DEFAULT_SET,
    EvaluationSetError,
    load_set,
    packaged_path,
)
from odin_cards.tools.evaluation.generate import DEALS, PLAYERS, main, set_text


def test_regenerating_the_packaged_set_gives_the_same_bytes(tmp_path: Path) -> None:
    out = tmp_path / "set.json"
    main(["--out", str(out)])
    assert out.read_bytes() == packaged_path(DEFAULT_SET).read_bytes()
    packaged_sum = packaged_path().with_name(f"{DEFAULT_SET}.json.sha256").read_text().split()[0]
    assert (tmp_path / "set.json.sha256").read_text().split()[0] == packaged_sum
    assert load_set(out).sha256 == load_set().sha256 == packaged_sum


def test_the_set_holds_200_deals_for_every_table_size() -> None:
    evaluation_set = load_set()
    assert evaluation_set.name == DEFAULT_SET
    assert evaluation_set.rules_version == rules_of("odin").rules_version
    assert sorted(evaluation_set.deals) == list(PLAYERS) == [2, 3, 4, 5, 6]
    seeds = set()
    for players, deals in evaluation_set.deals.items():
        assert len(deals) == DEALS
        assert [d.id for d in deals[:2]] == [f"{players}p-000", f"{players}p-001"]
        seeds |= {d.seed for d in deals}
        for deal in deals:
            cards = [c for seat in deal.hand for c in seat]
            assert len(deal.hand) == players and len(cards) == 9 * players == len(set(cards))
    assert len(seeds) == DEALS * len(PLAYERS)


@pytest.mark.parametrize("players", PLAYERS)
def test_every_deal_is_what_the_engine_deals_from_its_seed(players: int) -> None:
    """The injected first hand is the seed's own: a drifting engine fails here."""
    rules = rules_of("odin")
    for deal in load_set().for_players(players, 40):
        game = rules.new_game(players, {}, deal.seed)
        first = game.record().to_dict()["events"][0]
        assert [tuple(cards) for cards in first["deal"]] == list(deal.hand)
        assert first["leader"] == deal.first_leader == game.current_player
        injected = rules.new_game(players, {}, deal.seed, chance=deal.chance)
        assert injected.view(deal.first_leader).hand == deal.hand[deal.first_leader]


def test_a_changed_set_is_refused_by_its_checksum(tmp_path: Path) -> None:
    out = tmp_path / "set.json"
    main(["--out", str(out), "--deals", "3", "--name", "tiny"])
    document = json.loads(out.read_text())
    assert document["name"] == "tiny" and len(document["deals"]["6"]) == 3
    assert out.read_text() == set_text("tiny", 3)
    assert load_set(out).for_players(4)[0].seed == "tiny:4p:0"

    out.write_text(out.read_text().replace("tiny:4p:0", "tiny:4p:9"))
    with pytest.raises(EvaluationSetError, match="does not match its checksum"):
        load_set(out)
    (tmp_path / "set.json.sha256").unlink()
    with pytest.raises(EvaluationSetError, match="has no checksum file"):
        load_set(out)
    with pytest.raises(EvaluationSetError, match="cannot read"):
        load_set(tmp_path / "missing.json")


def test_a_file_that_is_not_a_set_is_refused(tmp_path: Path) -> None:
    from odin_cards.tools.evaluation.deals import checksum_line

    out = tmp_path / "other.json"
    for text in ('{"format": "something-else"}', "[1, 2]", "not json"):
        out.write_text(text)
        (tmp_path / "other.json.sha256").write_text(checksum_line(text.encode(), out.name))
        with pytest.raises(EvaluationSetError, match="is not an evaluation set"):
            load_set(out)


def test_asking_for_more_deals_or_players_than_the_set_holds_is_explained() -> None:
    evaluation_set = load_set()
    assert len(evaluation_set.for_players(3, 7)) == 7
    with pytest.raises(EvaluationSetError, match="holds 200 deals for 2 players; ask 1 to 200"):
        evaluation_set.for_players(2, 201)
    with pytest.raises(EvaluationSetError, match="no deals for 7 players"):
        evaluation_set.for_players(7)
