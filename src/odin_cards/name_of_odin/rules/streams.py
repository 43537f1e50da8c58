"""Seeded random streams as plain values: where all of a game's chance comes from.

A game's state must be a value (copied and compared field by field, see :mod:`.state`),
so it cannot hold a live generator. It holds a :data:`Stream` instead: the state of
Python's Mersenne Twister (``random.Random.getstate()``, an immutable tuple), and every
draw is a function from one stream to its result and the next stream.

The draws are those of ``random.Random(seed)`` itself, in the same order, so the same
seed gives the same game as when the state held the generator (every stored table and
record replays unchanged; ``tests/name_of_odin/test_golden.py`` holds games to that).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

Stream = tuple[Any, ...]
"""A generator's whole state (``random.Random.getstate()``): immutable, comparable."""

T = TypeVar("T")


def seeded(seed: int | str) -> Stream:
    """The stream of ``seed``: what ``random.Random(seed)`` would draw."""
    return random.Random(seed).getstate()


def shuffled(stream: Stream, items: Sequence[T]) -> tuple[list[T], Stream]:
    """``items`` in a new order (``random.Random.shuffle``) and the stream after it."""
    generator = _at(stream)
    order = list(items)
    generator.shuffle(order)
    return order, generator.getstate()


def randrange(stream: Stream, stop: int) -> tuple[int, Stream]:
    """A whole number from 0 to ``stop - 1`` (``random.Random.randrange``) and the stream
    after it."""
    generator = _at(stream)
    return generator.randrange(stop), generator.getstate()


def _at(stream: Stream) -> random.Random:
    generator = random.Random(0)
    generator.setstate(stream)
    return generator
