"""A deliberately naive statement of RULES.md, used as an oracle for the fast engine.

It works on card codes and Python sets, enumerates every subset of a hand and applies
each rule sentence literally. Nothing here is shared with ``odin_cards.odin.rules.legal``.
"""

from __future__ import annotations

from itertools import combinations

COLOURS = "BRPGKO"


def value(cards: list[str]) -> int:
    """Digits from high to low (the Goat is a 0 digit)."""
    return int("".join(sorted((c[1] for c in cards), reverse=True)))


def is_set(cards: list[str]) -> bool:
    if len(cards) == 1:
        return True
    plain = [c for c in cards if c != "X0"]
    one_colour = len({c[0] for c in plain}) == 1
    one_number = len({c[1] for c in plain}) == 1 and "X0" not in cards
    return one_colour or one_number


def canonical(cards: list[str]) -> str:
    def key(card: str) -> tuple[int, int]:
        return (-1, 0) if card == "X0" else (COLOURS.index(card[0]), int(card[1]))

    return " ".join(sorted(cards, key=key))


def legal_plays(hand: list[str], table: list[str]) -> list[str]:
    """Every ``play ...`` text the rules allow for ``hand`` against ``table``."""
    plays = set()
    if not table:
        for card in hand:
            plays.add(f"play {card}")
        if len(hand) > 1 and is_set(hand):
            plays.add(f"play {canonical(hand)}")
        return sorted(plays)
    for size in (len(table), len(table) + 1):
        for combo in combinations(hand, size):
            cards = list(combo)
            if is_set(cards) and value(cards) > value(table):
                plays.add(f"play {canonical(cards)}")
    return sorted(plays)
