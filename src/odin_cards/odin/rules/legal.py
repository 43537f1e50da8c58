"""Fast generation of the sets a hand can play.

The hot path of every simulation is "which sets of this hand beat the table". A hand
is split into six 9-bit colour masks and nine 6-bit number masks; for each mask a
table (built on first use, then cached) lists its subsets by size, sorted by value.
Beating ``k`` cards worth ``v`` is then a bisect in the size-``k`` row plus the whole
size-``k + 1`` row, for each colour and number the hand holds.
"""

from __future__ import annotations

from bisect import bisect_right

from odin_cards.odin.rules.actions import PLAY_BY_MASK, Action
from odin_cards.odin.rules.cards import GOAT

Row = tuple[tuple[int, ...], tuple[Action, ...]]
"""Values (ascending) and the matching play actions, for one size."""
Table = tuple[Row, ...]
"""Rows indexed by the number of cards in the set."""

_GOAT_BIT = 1 << GOAT
_EMPTY_ROW: Row = ((), ())


def _table(masks: list[int]) -> Table:
    by_size: dict[int, list[Action]] = {}
    for mask in masks:
        action = PLAY_BY_MASK[mask]
        by_size.setdefault(action.size, []).append(action)
    rows: list[Row] = []
    for size in range(max(by_size, default=0) + 1):
        actions = sorted(by_size.get(size, []), key=lambda a: (a.value, a.id))
        rows.append((tuple(a.value for a in actions), tuple(actions)))
    return tuple(rows)


def _subsets(bits: int) -> list[int]:
    subs = []
    sub = bits
    while sub:
        subs.append(sub)
        sub = (sub - 1) & bits
    return subs


def _colour_table(colour: int, bits: int) -> Table:
    return _table([sub << (9 * colour) for sub in _subsets(bits)])


def _goat_table(colour: int, bits: int) -> Table:
    return _table([(sub << (9 * colour)) | _GOAT_BIT for sub in _subsets(bits)])


def _number_table(number: int, bits: int) -> Table:
    return _table(
        [
            sum(1 << (c * 9 + number) for c in range(6) if sub >> c & 1)
            for sub in _subsets(bits)
            if sub.bit_count() >= 2
        ]
    )


_COLOUR: list[Table | None] = [None] * (6 * 512)
_GOAT: list[Table | None] = [None] * (6 * 512)
_NUMBER: list[Table | None] = [None] * (9 * 64)


def colour_table(colour: int, bits: int) -> Table:
    key = colour * 512 + bits
    table = _COLOUR[key]
    if table is None:
        table = _COLOUR[key] = _colour_table(colour, bits)
    return table


def goat_table(colour: int, bits: int) -> Table:
    key = colour * 512 + bits
    table = _GOAT[key]
    if table is None:
        table = _GOAT[key] = _goat_table(colour, bits)
    return table


def number_table(number: int, bits: int) -> Table:
    key = number * 64 + bits
    table = _NUMBER[key]
    if table is None:
        table = _NUMBER[key] = _number_table(number, bits)
    return table


def _extend(out: list[Action], table: Table, size: int, value: int) -> None:
    if size < len(table):
        values, actions = table[size]
        start = bisect_right(values, value)
        out.extend(actions[start:] if start else actions)
        if size + 1 < len(table):
            out.extend(table[size + 1][1])


def beating_plays(hand: int, hand_n: int, size: int, value: int) -> list[Action]:
    """Every set in ``hand`` that may follow a table of ``size`` cards worth ``value``."""
    out: list[Action] = []
    for colour in range(6):
        bits = (hand >> (9 * colour)) & 511
        if bits:
            table = _COLOUR[colour * 512 + bits] or colour_table(colour, bits)
            _extend(out, table, size, value)
    for number in range(9):
        bits = (hand_n >> (6 * number)) & 63
        if bits & (bits - 1):
            table = _NUMBER[number * 64 + bits] or number_table(number, bits)
            _extend(out, table, size, value)
    if hand & _GOAT_BIT:
        for colour in range(6):
            bits = (hand >> (9 * colour)) & 511
            if bits:
                table = _GOAT[colour * 512 + bits] or goat_table(colour, bits)
                _extend(out, table, size, value)
    return out


def leads(hand: int) -> list[Action]:
    """Every single card of ``hand``, plus the finishing lead when the hand allows it."""
    out: list[Action] = []
    for colour in range(6):
        bits = (hand >> (9 * colour)) & 511
        if bits:
            table = _COLOUR[colour * 512 + bits] or colour_table(colour, bits)
            out.extend(table[1][1])
    if hand & _GOAT_BIT:
        out.append(PLAY_BY_MASK[_GOAT_BIT])
    finishing = finishing_lead(hand)
    if finishing is not None:
        out.append(finishing)
    return out


def finishing_lead(hand: int) -> Action | None:
    """The whole hand as one set, if it is one and has more than one card."""
    if hand & (hand - 1):
        return PLAY_BY_MASK.get(hand)
    return None
