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
  With two loose cards left, the lower is led unless the higher cannot be beaten:
  the higher one kept beats the next single and goes out.
* Winning the lead is worth something of its own (:attr:`Style.control`): a play
  nobody can beat lets the seat lead next and shed a card for free, so strong sets
  are played rather than passed with when they take control.
* When an opponent is about to go out (few cards left), points in hand weigh more
  than structure, any set of theirs on the table is beaten if possible so that they
  do not lead again, and a seat with one card left is led the highest single.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from odin_cards.odin.bots.hand import GOAT_BIT, ROW, is_one_set, profile
from odin_cards.odin.rules.actions import PASS_ACTION, PLAY, Action
from odin_cards.odin.rules.game import CHOOSE_TAKE, LEAD, Phase

if TYPE_CHECKING:  # the heuristic itself is the core's; only its vector needs the bots extra
    import numpy as np
    import numpy.typing as npt

DANGER_SIZE: Final = 2
"""An opponent with this many cards or fewer may go out at their next chance."""

_POWERS: Final = tuple(10.0**i for i in range(11))


@dataclass(frozen=True, slots=True)
class Style:
    """The judgements and weights in which the heuristic's versions differ.

    :data:`FIRST` is the heuristic of version 0.2 (kept so that today's search, which
    rolls out with it, stays available for comparison); :data:`SECOND` the one of the
    first round of issue #13's fixes; :data:`STYLE` is the current one, whose weights were
    tuned by self-play (:mod:`odin_cards.odin.learning.tune`, docs/bots.md).
    """

    control: float
    """Bonus of a play nobody can beat: the seat leads next and sheds a card for free."""
    pair_low: bool
    """With two loose cards, lead the lower unless the higher cannot be beaten."""
    set_weight: float = 1.0
    """Cost of one more set in hand: roughly one more turn needed to go out."""
    card_weight: float = 0.55
    """Cost of one more point in hand, in normal play."""
    danger_card_weight: float = 1.6
    """Cost of one more point when an opponent is about to go out: dump cards."""
    safe_finish_bonus: float = 20.0
    """A play nobody can beat that leaves one set in hand: the next lead goes out."""
    finish_bonus: float = 1.0
    """A play that leaves one set in hand, beatable: a chance to go out."""
    deny_bonus: float = 1.5
    """Beating the set of an opponent about to go out, so that they do not lead."""
    strength_weight: float = 0.05
    """Worth of one pip in hand: high cards win rounds, low singles are a burden."""
    play_threshold: float = 0.0
    """How much a play must improve the hand to be preferred to passing."""
    lead_low: float = 0.01
    """Among equally good leads, lower cards first (negative: higher first)."""

    def cost(self, hand: int, card_weight: float) -> float:
        """How bad a hand is: sets still to play plus weighted points (lower is better)."""
        sets, score, strength = profile(hand)
        return self.set_weight * sets + card_weight * score - self.strength_weight * strength


FIRST: Final = Style(control=0.0, pair_low=False)
"""Version 0.2's heuristic: winning the lead counts for nothing, the higher of two is led."""
SECOND: Final = Style(control=0.6, pair_low=True)
"""Issue #13's first heuristic: the lower of two loose cards, winning the lead counts.
The learned policy's features were computed with it (:mod:`.learned`)."""
STYLE: Final = SECOND
"""The current heuristic."""


def style_vector(style: Style) -> npt.NDArray[np.float64]:
    """``style`` as the compiled heuristic reads it (:mod:`odin_cards.odin.sim.kernels`, whose
    ``ST_*`` constants give the order); needs the simulator's kernels module (numba)."""
    import numpy as np

    from odin_cards.odin.sim import kernels as k

    vector = np.zeros(k.STYLE_FIELDS, np.float64)
    vector[k.ST_CONTROL] = style.control
    vector[k.ST_PAIR_LOW] = 1.0 if style.pair_low else 0.0
    vector[k.ST_SET] = style.set_weight
    vector[k.ST_CARD] = style.card_weight
    vector[k.ST_DANGER_CARD] = style.danger_card_weight
    vector[k.ST_SAFE_FINISH] = style.safe_finish_bonus
    vector[k.ST_FINISH] = style.finish_bonus
    vector[k.ST_DENY] = style.deny_bonus
    vector[k.ST_STRENGTH] = style.strength_weight
    vector[k.ST_THRESHOLD] = style.play_threshold
    vector[k.ST_LEAD_LOW] = style.lead_low
    return vector


def hand_cost(hand: int, card_weight: float | None = None) -> float:
    """How bad a hand is, judged with version 0.2's weights (the opponent model's lead
    likelihoods use it): sets still to play plus weighted points (lower is better)."""
    return FIRST.cost(hand, FIRST.card_weight if card_weight is None else card_weight)


def best_take(
    hand: int, beaten: int, card_weight: float | None = None, style: Style = FIRST
) -> int:
    """The card (as a one-bit mask) of ``beaten`` that best fits ``hand``.

    Best fit means the lowest :func:`hand_cost`; among equals the highest card, a
    stronger single to lead or beat with later. The Goat is taken only if it fits
    better than every other card (it costs :data:`~odin_cards.odin.rules.GOAT_POINTS` at the end).
    """
    if not beaten & (beaten - 1):
        return beaten  # one card: nothing to choose
    if card_weight is None:
        card_weight = style.card_weight
    best_bit = 0
    best = 1e9
    rest = beaten
    while rest:
        bit = rest & -rest
        rest ^= bit
        cost = style.cost(hand | bit, card_weight) - 0.01 * _number(bit)
        if cost < best:
            best, best_bit = cost, bit
    return best_bit


def _number(bit: int) -> int:
    """The number of the single card ``bit`` (the Goat: 0)."""
    if bit == GOAT_BIT:
        return 0
    return (bit.bit_length() - 1) % 9 + 1


NEVER: Final = 10**10
"""A threshold no set reaches: whatever is played can be beaten."""


def best_answer(pool: int, max_size: int, size: int) -> int:
    """The highest value another seat might play on a set of ``size`` cards.

    A set of ``size`` cards worth at least this cannot be beaten. ``pool`` is every
    card another seat might hold, ``max_size`` the largest hand among them (nobody
    plays more cards than they hold). Returns -1 when nobody can answer ``size``
    cards at all and :data:`NEVER` when some seat might play ``size + 1`` cards.
    """
    if size > max_size:
        return -1
    goat = bool(pool & GOAT_BIT)
    longer = size + 1 <= max_size
    counts = [0] * 9
    best = 0
    for colour in range(6):
        row = (pool >> (9 * colour)) & ROW
        if not row:
            continue
        n = row.bit_count()
        if longer and (n >= size + 1 or (goat and n >= size)):
            return NEVER
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
        if longer and n >= size + 1:
            return NEVER
        if n >= size and (number + 1) * repunit > best:
            best = (number + 1) * repunit
    return best


def can_beat(pool: int, max_size: int, size: int, value: int) -> bool:
    """Whether cards of ``pool`` could form a set beating ``size`` cards worth ``value``."""
    return value < best_answer(pool, max_size, size)


def choose(
    seat: int,
    players: int,
    decision: Phase,
    hand: int,
    table: Action | None,
    table_player: int,
    beaten: Action | None,
    others: int,
    sizes: Sequence[int],
    legal: Sequence[Action],
    style: Style = STYLE,
) -> Action:
    """The heuristic's action for ``seat``.

    ``decision`` is the engine's phase (lead, follow or take); ``others``
    is every card that may be in another seat's hand (unseen cards and cards others
    are known to hold); ``legal`` are the seat's legal actions; ``style`` the
    heuristic's version.
    """
    if len(legal) == 1:
        return legal[0]
    danger = min(sizes[s] for s in range(players) if s != seat) <= DANGER_SIZE
    weight = style.danger_card_weight if danger else style.card_weight
    if decision == CHOOSE_TAKE:
        assert beaten is not None
        return _take_action(legal, best_take(hand, beaten.mask, weight, style))
    if decision == LEAD:
        return _lead(seat, players, hand, others, sizes, legal, weight, style)
    assert table is not None
    return _follow(seat, players, hand, table, table_player, others, sizes, legal, weight, style)


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
    style: Style,
) -> Action:
    best: Action = legal[0]
    best_score = 1e9
    last_card_threat = min(sizes[s] for s in range(players) if s != seat) == 1
    for action in legal:
        if action.size > 1 or action.mask == hand:
            return action  # the finishing lead (or the last card): the hand is won
    if style.pair_low and hand.bit_count() == 2 and not last_card_threat:
        return _lead_pair(seat, players, others, sizes, legal)
    for action in legal:
        rest = hand ^ action.mask
        number = _number(action.mask)
        if last_card_threat:
            # A seat with one card goes out by beating a single: lead the highest.
            score = -number + 0.001 * style.cost(rest, weight)
        elif is_one_set(rest):
            # If this card wins the round, the rest is a finishing lead: lead it high.
            score = -100.0 - number
        else:
            score = style.cost(rest, weight) + style.lead_low * number
        if score < best_score:
            best_score, best = score, action
    return best


def _lead_pair(
    seat: int, players: int, others: int, sizes: Sequence[int], legal: Sequence[Action]
) -> Action:
    """Two loose cards: the higher if nobody can beat it (it wins the lead, the other goes
    out), else the lower, keeping the higher to beat the next single and go out."""
    low, high = sorted(legal, key=lambda a: (a.value, a.mask))
    if not can_beat(others, _max_other_size(seat, players, sizes), 1, high.value):
        return high
    return low


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
    style: Style,
) -> Action:
    base = style.cost(hand, weight)
    deny = table_player != seat and sizes[table_player] <= DANGER_SIZE + 1
    max_other = _max_other_size(seat, players, sizes)
    size = table.size
    safe_same = best_answer(others, max_other, size)
    safe_more = best_answer(others, max_other, size + 1)
    best: Action = PASS_ACTION
    best_gain = style.play_threshold - (style.deny_bonus if deny else 0.0)
    for action in legal:
        if action.kind != PLAY:
            continue
        mask = action.mask
        if mask == hand:
            return action  # going out
        rest = hand ^ mask
        after = rest | best_take(rest, table.mask, weight, style)
        gain = base - style.cost(after, weight)
        safe = action.value >= (safe_same if action.size == size else safe_more)
        if is_one_set(after):
            gain += style.safe_finish_bonus if safe else style.finish_bonus
        elif safe:
            gain += style.control
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


__all__ = [
    "FIRST",
    "SECOND",
    "STYLE",
    "Style",
    "best_answer",
    "best_take",
    "can_beat",
    "choose",
    "hand_cost",
    "style_vector",
]
