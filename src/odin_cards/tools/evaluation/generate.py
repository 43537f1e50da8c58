"""Write an evaluation set, byte for byte, from its name.

``python -m odin_cards.tools.evaluation.generate --name NAME --deals N``.

The set's name is its seed: deal ``i`` for ``P`` players has the game seed
``"<name>:<P>p:<i>"``, and the engine deals its first hand and chooses its first leader
from that seed exactly as in any game (through the game contract). Nothing else is
random, so the same name, counts and engine always give the same bytes; the test suite
regenerates the packaged set and compares. The checksum file is written beside it.

    python -m odin_cards.tools.evaluation.generate                      # the packaged odin-eval-v1
    python -m odin_cards.tools.evaluation.generate --out /tmp/set.json  # the same bytes elsewhere
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from odin_cards.games import rules_of
from odin_cards.tools.evaluation.deals import DEFAULT_SET, FORMAT, checksum_line, packaged_path

PLAYERS = (2, 3, 4, 5, 6)
DEALS = 200
"""Deals per number of players in ``odin-eval-v1``: 200 deals x P rotations x 2 levels is
about what a CPU evaluates in minutes, and makes a 95% interval about +-0.05 wide."""

ROTATION = (
    "each deal is played once per seat: in rotation r the evaluated agent holds seat r and"
    " the opponent level every other seat"
)


def deal_entry(players: int, name: str, index: int) -> dict[str, Any]:
    """Deal ``index`` for ``players``: its seed, first leader and first hand (from the engine)."""
    seed = f"{name}:{players}p:{index}"
    game = rules_of("odin").new_game(players, {}, seed)
    first = game.record().to_dict()["events"][0]
    return {
        "id": f"{players}p-{index:03d}",
        "seed": seed,
        "first_leader": first["leader"],
        "hand": [" ".join(cards) for cards in first["deal"]],
    }


def set_text(name: str = DEFAULT_SET, deals: int = DEALS, players: Sequence[int] = PLAYERS) -> str:
    """The set file's text: a JSON document with one deal a line (reviewable in a diff)."""
    rules = rules_of("odin")
    header: dict[str, Any] = {
        "format": FORMAT,
        "name": name,
        "game": rules.key,
        "rules_version": rules.rules_version,
        "seed": name,
        "generator": f"python -m {MODULE} --name {name} --deals {deals}",
        "setup": {"colours": 6, "goat": False},
        "rotation": ROTATION,
        "deal": (
            "seed: the game seed; hand: seat -> the first hand's nine cards (injected as the"
            " contract's chance); later hands are dealt from the seed"
        ),
    }
    lines = ["{"]
    lines += [f" {json.dumps(key)}: {json.dumps(value)}," for key, value in header.items()]
    lines.append(' "deals": {')
    for n, count in enumerate(players):
        entries = [json.dumps(deal_entry(count, name, i)) for i in range(deals)]
        body = ",\n".join(f"  {entry}" for entry in entries)
        end = "" if n == len(players) - 1 else ","
        lines.append(f'  "{count}": [\n{body}\n  ]{end}')
    lines.append(" }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_set(path: Path, name: str = DEFAULT_SET, deals: int = DEALS) -> bytes:
    """Write the set and its ``.sha256`` file; return the set's bytes."""
    data = set_text(name, deals).encode()
    path.write_bytes(data)
    path.with_name(path.name + ".sha256").write_text(checksum_line(data, path.name))
    return data


MODULE = "odin_cards.tools.evaluation.generate"
"""This module, as ``python -m`` runs it (the set records the command that wrote it)."""


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m odin_cards.tools.evaluation.generate",
        description="Write an evaluation set (and its checksum) from its name.",
    )
    parser.add_argument("--name", default=DEFAULT_SET, help="the set's name, also its seed")
    parser.add_argument("--deals", type=int, default=DEALS, help="deals per number of players")
    parser.add_argument("--out", type=Path, help="file to write (default: the packaged set)")
    args = parser.parse_args(argv)
    if not 1 <= args.deals <= 1000:
        parser.error(f"--deals: 1 to 1000, not {args.deals}")
    path = args.out or packaged_path(args.name)
    data = write_set(path, args.name, args.deals)
    print(f"wrote {path} ({len(data)} bytes) and {path.name}.sha256")


if __name__ == "__main__":
    main()
