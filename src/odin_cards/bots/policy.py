"""The heuristic policy on bitmasks: one strategy shared by the heuristic bot and rollouts.

It works on a handful of ints (the mover's hand, the cards that may be in other
hands, hand sizes) so that the same code can serve two callers: the heuristic bot,
which builds these from its seat's :class:`View`, and the search bot's rollouts,
which build them from a sampled :class:`Game` (see :mod:`.search`) at a few
microseconds per decision.

The strategy, in Odin's terms:

* A hand is judged by the fewest sets it splits into (each set is one turn to get
  rid of it) and by the points it would score (:func:`hand_cost`).
* Going out (playing the whole hand) and the finishing lead are always taken.
* Following, every beating set is tried together with the best card to take back,
  and the move that most improves the hand is played; passing is chosen when no
  play improves it. Cheaper sets win ties so that strong sets are kept for the end.
* A play after which the rest of the hand is one set, and which no other seat can
  possibly beat (judged from the cards still unseen), wins the next lead and with
  it the hand: such plays get a large bonus.
* Leading, the card whose loss leaves the best hand is led, the lowest of equals,
  unless the hand after it is one set (then the strongest, to win the lead back).
* When an opponent is about to go out (few cards left), points in hand weigh more
  than structure, any set of theirs on the table is beaten if possible so that they
  do not lead again, and a seat with one card left is led the highest single.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..rules.actions import PASS_ACTION, Action
from .hand import GOAT_BIT, ROW, min_sets, points

SET_WEIGHT: Final = 1.0
"""Cost of one more set in hand: roughly one more turn needed to go out."""
CARD_WEIGHT: Final = 0.55
"""Cost of one more point in hand, in normal play."""
DANGER_CARD_WEIGHT: Final = 1.6
"""Cost of one more point when an opponent is about to go out: dump cards."""
SAFE_FINISH_BONUS: Final = 20.0
"""A play nobody can beat that leaves one set in hand: the next lead goes out."""
FINISH_BONUS: Final = 1.0
"""A play that leaves one set in hand, beatable: a chance to go out."""
DENY_BONUS: Final = 1.5
"""Beating the set of an opponent about to go out, so that they do not lead."""
DANGER_SIZE: Final = 2
"""An opponent with this many cards or fewer may go out at their next chance."""

_POWERS: Final = tuple(10.0**i for i in range(11))


def hand_cost(hand: int, card_weight: float = CARD_WEIGHT) -> float:
    """How bad a hand is: sets still to play plus weighted points (lower is better)."""
    return SET_WEIGHT * min_sets(hand) + card_weight * points(hand)


def best_take(hand: int, beaten: int, card_weight: float = CARD_WEIGHT) -> int:
    """The card (as a one-bit mask) of ``beaten`` that best fits ``hand``.

    Best fit means the lowest :func:`hand_cost`; among equals the highest card, a
    stronger single to lead or beat with later. The Goat is taken only if it fits
    better than every other card (it costs five points at the end).
    """
    best_bit = 0
    best = 1e9
    rest = beaten
    while rest:
        bit = rest & -rest
        rest ^= bit
        cost = hand_cost(hand | bit, card_weight) - 0.01 * _number(bit)
        if cost < best:
            best, best_bit = cost, bit
    return best_bit


def _number(bit: int) -> int:
    """The number of the single card ``bit`` (the Goat: 0)."""
    if bit == GOAT_BIT:
        return 0
    return (bit.bit_length() - 1) % 9 + 1


def can_beat(pool: int, max_size: int, size: int, value: int) -> bool:
    """Whether cards of ``pool`` could form a set beating ``size`` cards worth ``value``.

    ``max_size`` is the largest hand among the seats that could answer: nobody plays
    more cards than they hold. This is what "safe" means for the seat that asks:
    ``pool`` is every card another seat might hold.
    """
    if size > max_size:
        return False
    goat = bool(pool & GOAT_BIT)
    counts = [0] * 9
    best = 0
    for colour in range(6):
        row = (pool >> (9 * colour)) & ROW
        if not row:
            continue
        n = row.bit_count()
        if size + 1 <= max_size and (n >= size + 1 or (goat and n >= size)):
            return True
        if n >= size or (goat and n >= size - 1 and size >= 2):
            digits: list[int] = []
            r = row
            while r and len(digits) < size:
                top = r.bit_length()
                digits.append(top)
                r ^= 1 << (top - 1)
            while len(digits) < size:
                digits.append(0)
            v = 0
            for d in digits:
                v = v * 10 + d
            if v > best:
                best = v
        for number in range(9):
            if row >> number & 1:
                counts[number] += 1
    repunit = (10**size - 1) // 9
    for number in range(8, -1, -1):
        n = counts[number]
        if size + 1 <= max_size and n >= size + 1:
            return True
        if n >= size and (number + 1) * repunit > best:
            best = (number + 1) * repunit
    return best > value


def choose(
    seat: int,
    players: int,
    decision: int,
    hand: int,
    table: Action | None,
    table_player: int,
    beaten: Action | None,
    others: int,
    sizes: Sequence[int],
    legal: Sequence[Action],
) -> Action:
    """The heuristic's action for ``seat``.

    ``decision`` is 0 (lead), 1 (follow) or 2 (take), as in the engine; ``others``
    is every card that may be in another seat's hand (unseen cards and cards others
    are known to hold); ``legal`` are the seat's legal actions.
    """
    if len(legal) == 1:
        return legal[0]
    danger = min(sizes[s] for s in range(players) if s != seat) <= DANGER_SIZE
    weight = DANGER_CARD_WEIGHT if danger else CARD_WEIGHT
    if decision == 2:
        assert beaten is not None
        return _take_action(legal, best_take(hand, beaten.mask, weight))
    if decision == 0:
        return _lead(seat, players, hand, others, sizes, legal, weight)
    assert table is not None
    return _follow(seat, players, hand, table, table_player, others, sizes, legal, weight)


def _take_action(legal: Sequence[Action], bit: int) -> Action:
    for action in legal:
        if action.mask == bit:
            return action
    return legal[0]


def _max_other_size(seat: int, players: int, sizes: Sequence[int]) -> int:
    return max(sizes[s] for s in range(players) if s != seat)


def _lead(
    seat: int,
    players: int,
    hand: int,
    others: int,
    sizes: Sequence[int],
    legal: Sequence[Action],
    weight: float,
) -> Action:
    best: Action = legal[0]
    best_score = 1e9
    last_card_threat = min(sizes[s] for s in range(players) if s != seat) == 1
    for action in legal:
        if action.size > 1 or action.mask == hand:
            return action  # the finishing lead (or the last card): the hand is won
    for action in legal:
        rest = hand ^ action.mask
        score = hand_cost(rest, weight)
        number = _number(action.mask)
        if last_card_threat or is_one_set_after(rest):
            # Win the lead back (or stop a one-card seat going out): lead high.
            score -= 0.01 * number
        else:
            score += 0.01 * number
        if score < best_score:
            best_score, best = score, action
    return best


def is_one_set_after(hand: int) -> bool:
    return bool(hand) and min_sets(hand) == 1


def _follow(
    seat: int,
    players: int,
    hand: int,
    table: Action,
    table_player: int,
    others: int,
    sizes: Sequence[int],
    legal: Sequence[Action],
    weight: float,
) -> Action:
    base = hand_cost(hand, weight)
    deny = table_player != seat and sizes[table_player] <= DANGER_SIZE + 1
    max_other = -1
    best: Action = PASS_ACTION
    best_gain = 0.0 if not deny else -DENY_BONUS
    for action in legal:
        if action.kind != 2:
            continue
        mask = action.mask
        if mask == hand:
            return action  # going out
        rest = hand ^ mask
        after = rest | best_take(rest, table.mask, weight)
        gain = base - hand_cost(after, weight)
        if min_sets(after) == 1:
            if max_other < 0:
                max_other = _max_other_size(seat, players, sizes)
            if can_beat(others, max_other, action.size, action.value):
                gain += FINISH_BONUS
            else:
                gain += SAFE_FINISH_BONUS
        # Among equal plays keep strong sets for later: the cheapest beating set wins.
        gain -= 0.001 * _strength(action)
        if gain > best_gain:
            best_gain, best = gain, action
    if best is PASS_ACTION and PASS_ACTION not in legal:
        return legal[0]
    return best


def _strength(action: Action) -> float:
    """A set's value scaled to 0-9, so that sets of different sizes compare."""
    return action.value / _POWERS[action.size - 1]


__all__ = ["best_take", "can_beat", "choose", "hand_cost"]
