"""The compiled core: Odin's rules over arrays, one game per row, many games per call.

The rules are the engine's (:mod:`odin_cards.odin.rules.state`), restated over integers so that
numba can compile them: a hand is a 55-bit mask (colour-major, the Goat at bit 54, as in
the engine), an action is its engine id, and a game is one row of a few arrays
(:data:`State`). Every function here trusts its input; :mod:`.batch` checks what comes
from outside before calling in, and the differential test (``tests/sim``) holds these
functions to the engine, legal action by legal action.

Every compiled function of the simulator lives in this one file: numba's on-disk cache is
invalidated per source file, so a compiled caller in another file would go on running
its cached copy of a callee (or of a constant) changed here.

Chance is the one thing not shared with the engine: each game has two xorshift64*
generators, kept apart so that deals never depend on choices: ``DEALING`` for its deals,
removed colours and first leader, ``CHOOSING`` for random play and sampled actions. A
game may also take its deals from outside (``OWN_DEALS`` = 0: it waits in phase ``DEAL``).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from odin_cards.odin.sim._jit import jit, jit_inline
from odin_cards.odin.sim.tables import GOAT_ALONE_ID, GOAT_BIT, Tables

# Columns of the per-game field array ``G`` (int64, one row per game).
PLAYERS: Final = 0
PHASE: Final = 1
TO_MOVE: Final = 2
TABLE: Final = 3
"""The play id on the table, -1 for none."""
TABLE_PLAYER: Final = 4
BEATEN: Final = 5
"""The play id just beaten while its beater chooses a card, -1 for none."""
PASSES: Final = 6
DISCARDS: Final = 7
HAND_NUMBER: Final = 8
"""Hands finished so far, as the engine counts them."""
HAND_LEADER: Final = 9
DECK: Final = 10
"""Every card of this game's deck (mask)."""
TARGET: Final = 11
ONE_HAND: Final = 12
WINNER_LEADS: Final = 13
"""``next_leader="winner"``."""
OWN_DEALS: Final = 14
HANDS_ENDED: Final = 15
"""Hands finished since the row was made (never reset: a step compares it before and after)."""
GOAT: Final = 16
COLOURS: Final = 17
REMOVAL: Final = 18
"""0: ``red-or-black``, 1: ``any-two``."""
FIXED_LEADER: Final = 19
"""``first_leader`` option, -1 for a random one."""
NUM_FIELDS: Final = 20

# Phases: the engine's LEAD, FOLLOW, TAKE, OVER, and one of the simulator's own.
LEAD: Final = 0
FOLLOW: Final = 1
CHOOSE_TAKE: Final = 2
OVER: Final = 3
DEAL: Final = 4
"""Waiting for a deal given from outside (``OWN_DEALS`` = 0)."""

ALL_COLOURED: Final = (1 << 54) - 1
SEATS: Final = 6

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
F64 = npt.NDArray[np.float64]
POWERS: Final = np.array([10.0**i for i in range(11)], np.float64)
"""Powers of ten as floats: a set's strength is its value over ``POWERS[size - 1]``."""
State = tuple[I64, I64, I64, I64, I64, I64, U64]
"""``(G, hands, hands_n, known, scores, hand_points, rng)``: fields, then ``[N, 6]`` arrays
of hands (colour-major), hands (number-major), cards known held, scores, the points of the
last finished hand; then ``uint64[N, 2]``, each game's two generator states (``DEALING``,
``CHOOSING``)."""

DEALING: Final = 0
"""The generator column of deals, removed colours and first leaders."""
CHOOSING: Final = 1
"""The generator column of random choices (random play, sampled actions, random opponents)."""


@jit_inline
def next_random(rng: U64, i: int, stream: int) -> np.uint64:
    """xorshift64* step of game ``i``'s generator ``stream``."""
    x = rng[i, stream]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[i, stream] = x
    return np.uint64(x * np.uint64(0x2545F4914F6CDD1D))


@jit_inline
def below(rng: U64, i: int, stream: int, n: int) -> int:
    """A uniform whole number in ``[0, n)`` (n <= 2**20: the bias is below 1e-3)."""
    return int(np.int64((next_random(rng, i, stream) >> np.uint64(33)) % np.uint64(n)))


@jit_inline
def number_mask(mask: int) -> int:
    """A colour-major mask in the number-major layout."""
    result = 0
    for colour in range(6):
        bits = (mask >> (9 * colour)) & 511
        for number in range(9):
            if bits >> number & 1:
                result |= 1 << (number * 6 + colour)
    if mask & GOAT_BIT:
        result |= GOAT_BIT
    return result


@jit_inline
def card_count(mask: int, t: Tables) -> int:
    count = 0
    for colour in range(6):
        count += t.popcount9[(mask >> (9 * colour)) & 511]
    if mask & GOAT_BIT:
        count += 1
    return count


@jit_inline
def points(mask: int, t: Tables) -> int:
    """What a hand left at a hand's end costs: a point a card, the Goat five."""
    extra = 4 if mask & GOAT_BIT else 0
    return card_count(mask, t) + extra


@jit_inline
def set_id(mask: int, t: Tables) -> int:
    """The play id of the cards in ``mask`` if they are a set, else -1."""
    goat = mask & GOAT_BIT
    plain = mask & ~GOAT_BIT
    if plain == 0:
        return GOAT_ALONE_ID if goat else -1
    for colour in range(6):
        bits = (plain >> (9 * colour)) & 511
        if bits:
            if plain == bits << (9 * colour):
                if goat:
                    return int(t.goat_id[colour * 512 + bits])
                return int(t.colour_id[colour * 512 + bits])
            break
    if goat:
        return -1
    numbers = number_mask(plain)
    for number in range(9):
        bits = (numbers >> (6 * number)) & 63
        if bits:
            if numbers == bits << (6 * number):
                return int(t.number_id[number * 64 + bits])
            return -1
    return -1


@jit
def start_hand(st: State, i: int, leader: int, t: Tables) -> None:
    """Deal (or wait for a deal) and give the lead to ``leader``."""
    g, hands, hands_n, known, _, _, rng = st
    players = g[i, PLAYERS]
    g[i, HAND_LEADER] = leader
    g[i, TO_MOVE] = leader
    g[i, TABLE] = -1
    g[i, TABLE_PLAYER] = -1
    g[i, BEATEN] = -1
    g[i, PASSES] = 0
    g[i, DISCARDS] = 0
    for seat in range(SEATS):
        known[i, seat] = 0
    if not g[i, OWN_DEALS]:
        g[i, PHASE] = DEAL
        return
    deck = g[i, DECK]
    cards = np.empty(55, np.int64)
    n = 0
    for card in range(55):
        if deck >> card & 1:
            cards[n] = card
            n += 1
    for j in range(n - 1, 0, -1):
        k = below(rng, i, DEALING, j + 1)
        cards[j], cards[k] = cards[k], cards[j]
    dealt = players * 9
    if g[i, GOAT]:
        for j in range(dealt, n):
            if cards[j] == 54:
                k = below(rng, i, DEALING, dealt)
                cards[j], cards[k] = cards[k], cards[j]
                break
    for seat in range(SEATS):
        mask = 0
        if seat < players:
            for j in range(seat * 9, seat * 9 + 9):
                mask |= 1 << cards[j]
        hands[i, seat] = mask
        hands_n[i, seat] = number_mask(mask)
    g[i, PHASE] = LEAD


@jit
def give_hands(st: State, i: int, dealt: I64) -> None:
    """Put the given hands (one mask a seat) into game ``i``, waiting in phase ``DEAL``."""
    g, hands, hands_n, _, _, _, _ = st
    for seat in range(SEATS):
        mask = dealt[seat] if seat < g[i, PLAYERS] else 0
        hands[i, seat] = mask
        hands_n[i, seat] = number_mask(mask)
    g[i, PHASE] = LEAD


@jit
def new_game(st: State, i: int, t: Tables) -> None:
    """Start game ``i`` afresh with its options: removed colours, first leader, first deal."""
    g, _, _, _, scores, hand_points, rng = st
    players = g[i, PLAYERS]
    deck = ALL_COLOURED
    if g[i, COLOURS] == 4:
        if g[i, REMOVAL] == 0:
            first = 1 if below(rng, i, DEALING, 2) == 0 else 4
            second = (0, 2, 3, 5)[below(rng, i, DEALING, 4)]
        else:
            first = below(rng, i, DEALING, 6)
            second = below(rng, i, DEALING, 5)
            if second >= first:
                second += 1
        deck &= ~(511 << (9 * first)) & ~(511 << (9 * second))
    if g[i, GOAT]:
        deck |= GOAT_BIT
    g[i, DECK] = deck
    leader = g[i, FIXED_LEADER]
    if leader < 0:
        leader = below(rng, i, DEALING, players)
    g[i, HAND_NUMBER] = 0
    for seat in range(SEATS):
        scores[i, seat] = 0
        hand_points[i, seat] = 0
    start_hand(st, i, leader, t)


@jit
def end_hand(st: State, i: int, ender: int, t: Tables) -> None:
    g, hands, _, _, scores, hand_points, _ = st
    players = g[i, PLAYERS]
    most = 0
    for seat in range(players):
        p = points(hands[i, seat], t)
        hand_points[i, seat] = p
        scores[i, seat] += p
        most = max(most, scores[i, seat])
    g[i, HAND_NUMBER] += 1
    g[i, HANDS_ENDED] += 1
    if g[i, ONE_HAND] or most >= g[i, TARGET]:
        g[i, PHASE] = OVER
        g[i, TO_MOVE] = -1
        g[i, TABLE] = -1
        g[i, BEATEN] = -1
        return
    leader = ender if g[i, WINNER_LEADS] else (g[i, HAND_LEADER] + 1) % players
    start_hand(st, i, leader, t)


@jit_inline
def _follows(
    out: I64, n: int, bits: int, k: int, v: int, ids: I64, key: int, values: I64, scale: int,
    extra: int, t: Tables,
) -> int:  # fmt: skip
    """Append the subsets of ``bits`` of size ``k`` or ``k + 1`` worth more than ``v``.

    A subset's size is its popcount plus ``extra`` (the Goat), its value ``values[sub]``
    times ``scale`` (10 with the Goat: a trailing 0 digit); its id is ``ids[key + sub]``.
    """
    sub = bits
    while sub:
        size = t.popcount9[sub] + extra
        if (size == k or size == k + 1) and values[sub] * scale > v:
            out[n] = ids[key + sub]
            n += 1
        sub = (sub - 1) & bits
    return n


@jit_inline
def legal(st: State, i: int, t: Tables, out: I64) -> int:
    """Write the legal ids of game ``i`` into ``out`` (unsorted); return how many."""
    g, hands, hands_n, _, _, _, _ = st
    phase = g[i, PHASE]
    n = 0
    if phase == FOLLOW:
        seat = g[i, TO_MOVE]
        hand = hands[i, seat]
        table = g[i, TABLE]
        k = t.size[table]
        v = t.value[table]
        goat = hand & GOAT_BIT
        for colour in range(6):
            bits = (hand >> (9 * colour)) & 511
            if bits and t.popcount9[bits] >= k:
                n = _follows(out, n, bits, k, v, t.colour_id, colour * 512, t.colour_value, 1, 0, t)
            if goat and bits and t.popcount9[bits] + 1 >= k:
                n = _follows(out, n, bits, k, v, t.goat_id, colour * 512, t.colour_value, 10, 1, t)
        if k <= 6:
            hand_n = hands_n[i, seat]
            for number in range(9):
                bits = (hand_n >> (6 * number)) & 63
                count = t.popcount9[bits]
                if count >= 2 and count >= k:
                    sub = bits
                    while sub:
                        size = t.popcount9[sub]
                        if (
                            size >= 2
                            and (size == k or size == k + 1)
                            and t.number_value[number * 7 + size] > v
                        ):
                            out[n] = t.number_id[number * 64 + sub]
                            n += 1
                        sub = (sub - 1) & bits
        out[n] = 0
        return n + 1
    if phase == LEAD:
        hand = hands[i, g[i, TO_MOVE]]
        for colour in range(6):
            bits = (hand >> (9 * colour)) & 511
            while bits:
                low = bits & -bits
                out[n] = t.colour_id[colour * 512 + low]
                n += 1
                bits ^= low
        if hand & GOAT_BIT:
            out[n] = GOAT_ALONE_ID
            n += 1
        if n > 1:
            whole = set_id(hand, t)
            if whole >= 0:
                out[n] = whole
                n += 1
        return n
    if phase == CHOOSE_TAKE:
        beaten = t.mask[g[i, BEATEN]]
        for card in range(55):
            if beaten >> card & 1:
                out[n] = 1 + card
                n += 1
        return n
    return 0


@jit_inline
def is_legal(st: State, i: int, action: int, t: Tables) -> bool:
    """Whether ``action`` (any int) is legal in game ``i`` now."""
    g, hands, _, _, _, _, _ = st
    phase = g[i, PHASE]
    if phase >= OVER or action < 0 or action >= t.mask.shape[0]:
        return False
    if phase == CHOOSE_TAKE:
        return bool(1 <= action <= 55 and ((t.mask[g[i, BEATEN]] >> (action - 1)) & 1) == 1)
    if 1 <= action <= 55:
        return False
    if action == 0:
        return bool(phase == FOLLOW)
    mask = t.mask[action]
    hand = hands[i, g[i, TO_MOVE]]
    if mask & ~hand:
        return False
    if phase == LEAD:
        return bool(t.size[action] == 1 or mask == hand)
    table = g[i, TABLE]
    size = t.size[action]
    fits = size == t.size[table] or size == t.size[table] + 1
    return bool(fits and t.value[action] > t.value[table])


@jit_inline
def apply(st: State, i: int, action: int, t: Tables) -> None:
    """Apply a legal ``action`` to game ``i`` (the engine's ``State._step``)."""
    g, hands, hands_n, known, _, _, _ = st
    seat = g[i, TO_MOVE]
    players = g[i, PLAYERS]
    if action >= 56:
        mask = t.mask[action]
        hand = hands[i, seat] ^ mask
        hands[i, seat] = hand
        hands_n[i, seat] ^= t.nmask[action]
        known[i, seat] &= ~mask
        if hand == 0:
            end_hand(st, i, seat, t)
            return
        g[i, PASSES] = 0
        g[i, TABLE_PLAYER] = seat
        if g[i, PHASE] == LEAD:
            g[i, TABLE] = action
            g[i, PHASE] = FOLLOW
            g[i, TO_MOVE] = (seat + 1) % players
        else:
            g[i, BEATEN] = g[i, TABLE]
            g[i, TABLE] = action
            g[i, PHASE] = CHOOSE_TAKE
    elif action >= 1:
        mask = t.mask[action]
        hands[i, seat] |= mask
        hands_n[i, seat] |= t.nmask[action]
        known[i, seat] |= mask
        g[i, DISCARDS] |= t.mask[g[i, BEATEN]] & ~mask
        g[i, BEATEN] = -1
        g[i, PHASE] = FOLLOW
        g[i, TO_MOVE] = (seat + 1) % players
    else:
        g[i, PASSES] += 1
        if g[i, PASSES] == players - 1:
            g[i, DISCARDS] |= t.mask[g[i, TABLE]]
            g[i, TABLE] = -1
            g[i, PASSES] = 0
            g[i, PHASE] = LEAD
            g[i, TO_MOVE] = g[i, TABLE_PLAYER]
            g[i, TABLE_PLAYER] = -1
        else:
            g[i, TO_MOVE] = (seat + 1) % players


# ----------------------------------------------------------------- whole batches


@jit
def new_games(st: State, which: npt.NDArray[np.bool_], t: Tables) -> None:
    for i in range(which.shape[0]):
        if which[i]:
            new_game(st, i, t)


@jit
def legal_masks(st: State, t: Tables, out: npt.NDArray[np.bool_]) -> None:
    """Set ``out[i, id]`` for every legal id of every game (``out`` comes zeroed)."""
    buffer = np.empty(1024, np.int64)
    for i in range(out.shape[0]):
        n = legal(st, i, t, buffer)
        for j in range(n):
            out[i, buffer[j]] = True


@jit
def legal_lists(st: State, t: Tables, ids: npt.NDArray[np.int16], counts: I64) -> None:
    """Every game's legal ids, ascending, in ``ids[i, :counts[i]]``."""
    buffer = np.empty(1024, np.int64)
    for i in range(ids.shape[0]):
        n = legal(st, i, t, buffer)
        buffer[:n].sort()
        for j in range(n):
            ids[i, j] = buffer[j]
        counts[i] = n


@jit
def first_illegal(st: State, t: Tables, actions: I64) -> int:
    """The first game whose action is refused (-1: none). A game not to move takes -1."""
    g = st[0]
    for i in range(actions.shape[0]):
        if g[i, PHASE] >= OVER:
            if actions[i] != -1:
                return i
        elif not is_legal(st, i, actions[i], t):
            return i
    return -1


@jit
def apply_all(st: State, t: Tables, actions: I64) -> None:
    """Apply each game's (checked) action; -1 leaves a game as it is."""
    for i in range(actions.shape[0]):
        if actions[i] >= 0:
            apply(st, i, actions[i], t)


@jit
def sample_actions(st: State, t: Tables, which: npt.NDArray[np.bool_], out: I64) -> None:
    """A uniformly random legal id for every chosen game to move (-1 for the others)."""
    g, _, _, _, _, _, rng = st
    buffer = np.empty(1024, np.int64)
    for i in range(out.shape[0]):
        out[i] = -1
        if which[i] and g[i, PHASE] < OVER:
            out[i] = buffer[below(rng, i, CHOOSING, legal(st, i, t, buffer))]


@jit
def random_actions(st: State, t: Tables, sweeps: int, restart: bool) -> int:
    """Uniform random play: ``sweeps`` times, one action in every game that has a move.

    A finished game starts again when ``restart`` (with its own deals). Returns the
    number of actions applied: legal generation, the choice and the step are all in it.
    """
    g, _, _, _, _, _, rng = st
    buffer = np.empty(1024, np.int64)
    applied = 0
    for _ in range(sweeps):
        for i in range(g.shape[0]):
            phase = g[i, PHASE]
            if phase >= OVER:
                if not restart or phase == DEAL:
                    continue
                new_game(st, i, t)
            n = legal(st, i, t, buffer)
            apply(st, i, buffer[below(rng, i, CHOOSING, n)], t)
            applied += 1
    return applied


@jit
def random_hands(st: State, t: Tables) -> int:
    """Play every game uniformly at random to the end of its current hand; return actions."""
    g, _, _, _, _, _, rng = st
    buffer = np.empty(1024, np.int64)
    applied = 0
    for i in range(g.shape[0]):
        start = g[i, HANDS_ENDED]
        while g[i, HANDS_ENDED] == start and g[i, PHASE] < OVER:
            n = legal(st, i, t, buffer)
            apply(st, i, buffer[below(rng, i, CHOOSING, n)], t)
            applied += 1
    return applied


# ---------------------------------------------- the heuristic (bots/policy.py), compiled

# A heuristic's judgement (bots.policy.Style) as a float64 vector, in this order.
ST_CONTROL: Final = 0
ST_PAIR_LOW: Final = 1
ST_SET: Final = 2
ST_CARD: Final = 3
ST_DANGER_CARD: Final = 4
ST_SAFE_FINISH: Final = 5
ST_FINISH: Final = 6
ST_DENY: Final = 7
ST_STRENGTH: Final = 8
ST_THRESHOLD: Final = 9
ST_LEAD_LOW: Final = 10
STYLE_FIELDS: Final = 11
DANGER_SIZE: Final = 2
"""As :data:`odin_cards.odin.bots.policy.DANGER_SIZE`."""
NEVER: Final = 10**10
"""As :data:`odin_cards.odin.bots.policy.NEVER`: a threshold no set reaches."""
ORS: Final = 64 + 6
"""Length of :func:`min_sets`'s work array."""
SCRATCH: Final = 1024 + 1024 + ORS
"""Length of the work array a heuristic decision needs (:func:`heuristic_action`)."""


@jit_inline
def min_sets(hand: int, ors: I64, t: Tables) -> int:
    """:func:`odin_cards.odin.bots.hand.min_sets`: the fewest sets the hand splits into.

    ``ors`` is a work array of :data:`ORS` entries: the numbers of each subset of the
    hand's colours, then (from entry 64) the rows of those colours.
    """
    goat = hand & GOAT_BIT
    count = 0
    for colour in range(6):
        row = (hand >> (9 * colour)) & 511
        if row:
            ors[64 + count] = row
            count += 1
    if count == 0:
        return 1 if goat else 0
    full = (1 << count) - 1
    best = count
    ors[0] = 0
    for sub in range(1, 1 << count):
        low = sub & -sub
        row = ors[64 + t.popcount9[low - 1]]
        numbers = ors[sub ^ low] | row
        ors[sub] = numbers
        cost = t.popcount9[full ^ sub] + t.popcount9[numbers]
        if goat and sub == full:
            cost += 1
        if cost < best:
            best = cost
    return best


@jit_inline
def pips(mask: int, t: Tables) -> int:
    total = 0
    for colour in range(6):
        total += t.pips9[(mask >> (9 * colour)) & 511]
    return total


@jit_inline
def hand_cost(hand: int, card_weight: float, style: F64, ors: I64, t: Tables) -> float:
    """:meth:`odin_cards.odin.bots.policy.Style.cost` (the same arithmetic, in the same order)."""
    sets = min_sets(hand, ors, t)
    cost = style[ST_SET] * sets + card_weight * points(hand, t) - style[ST_STRENGTH] * pips(hand, t)
    return float(cost)


@jit_inline
def card_number(card: int) -> int:
    """The number of a card index (the Goat: 0)."""
    if card == 54:
        return 0
    return card % 9 + 1


@jit_inline
def best_take(hand: int, beaten: int, card_weight: float, style: F64, ors: I64, t: Tables) -> int:
    """:func:`odin_cards.odin.bots.policy.best_take`: the card index to take from ``beaten``."""
    best_card = -1
    best = 1e9
    for card in range(55):
        if beaten >> card & 1:
            if best_card < 0 and beaten == 1 << card:
                return card
            cost = hand_cost(hand | (1 << card), card_weight, style, ors, t) - 0.01 * card_number(
                card
            )
            if cost < best:
                best = cost
                best_card = card
    return best_card


@jit_inline
def best_answer(pool: int, max_size: int, size: int, t: Tables) -> int:
    """:func:`odin_cards.odin.bots.policy.best_answer`: the highest value another seat might
    play on ``size`` cards (-1: nobody can; :data:`NEVER`: someone might play more)."""
    if size > max_size:
        return -1
    goat = (pool & GOAT_BIT) != 0
    longer = size + 1 <= max_size
    counts = 0  # nine 4-bit counters, number n at bits 4n
    best = 0
    for colour in range(6):
        row = (pool >> (9 * colour)) & 511
        if not row:
            continue
        n = t.popcount9[row]
        if longer and (n >= size + 1 or (goat and n >= size)):
            return NEVER
        if n >= size or (goat and n >= size - 1 and size >= 2):
            v = 0
            taken = 0
            for number in range(8, -1, -1):
                if taken < size and row >> number & 1:
                    v = v * 10 + number + 1
                    taken += 1
            while taken < size:
                v = v * 10
                taken += 1
            if v > best:
                best = v
        for number in range(9):
            if row >> number & 1:
                counts += 1 << (4 * number)
    repunit = 0
    for _ in range(size):
        repunit = repunit * 10 + 1
    for number in range(8, -1, -1):
        n = (counts >> (4 * number)) & 15
        if longer and n >= size + 1:
            return NEVER
        if n >= size and (number + 1) * repunit > best:
            best = (number + 1) * repunit
    return best


@jit_inline
def is_one_set(hand: int, ors: I64, t: Tables) -> bool:
    return hand != 0 and min_sets(hand, ors, t) == 1


@jit_inline
def _order_key(action: int, table_size: int, t: Tables) -> int:
    """Where the engine lists a follow (:func:`odin_cards.odin.rules.legal.beating_plays`):
    colour sets by colour, then number sets by number, then sets with the Goat by
    colour; in each, the table's size before one more, then by value and id."""
    if action == 0:
        return 1 << 62  # pass comes last
    mask = t.mask[action]
    plain = mask & ~GOAT_BIT
    low = 0
    while not plain >> low & 1:
        low += 1
    if mask & GOAT_BIT:
        group = 15 + low // 9
    elif plain == ((plain >> (9 * (low // 9))) & 511) << (9 * (low // 9)):
        group = low // 9
    else:
        group = 6 + low % 9
    longer = 1 if t.size[action] != table_size else 0
    return int((group << 56) | (longer << 55) | (t.value[action] << 13) | action)


@jit_inline
def _sort_by(ids: I64, keys: I64, n: int) -> None:
    for a in range(1, n):
        key = keys[a]
        item = ids[a]
        b = a - 1
        while b >= 0 and keys[b] > key:
            keys[b + 1] = keys[b]
            ids[b + 1] = ids[b]
            b -= 1
        keys[b + 1] = key
        ids[b + 1] = item


@jit_inline
def heuristic_action(st: State, i: int, t: Tables, style: F64, work: I64) -> int:
    """:func:`odin_cards.odin.bots.policy.choose` for the seat to move in game ``i``.

    The seat judges from what it could know: ``others`` is every card of the deck it
    has not seen (its hand, the discards, the table, the set being taken from).
    ``work`` is a work array of :data:`SCRATCH` entries. The legal moves are visited in
    the engine's order, so that ties are broken exactly as the engine-side policy does.
    """
    g, hands, _, _, _, _, _ = st
    ids = work[:1024]
    keys = work[1024:2048]
    ors = work[2048 : 2048 + ORS]
    phase = g[i, PHASE]
    seat = g[i, TO_MOVE]
    players = g[i, PLAYERS]
    hand = hands[i, seat]
    n = legal(st, i, t, ids)
    if n == 1:
        return int(ids[0])
    table = g[i, TABLE]
    beaten = g[i, BEATEN]
    seen = hand | g[i, DISCARDS]
    if table >= 0:
        seen |= t.mask[table]
    if beaten >= 0:
        seen |= t.mask[beaten]
    others = g[i, DECK] & ~seen
    fewest = 99
    most = 0
    for other in range(players):
        if other != seat:
            size = card_count(hands[i, other], t)
            fewest = min(fewest, size)
            most = max(most, size)
    weight = style[ST_DANGER_CARD] if fewest <= DANGER_SIZE else style[ST_CARD]
    if phase == CHOOSE_TAKE:
        return 1 + best_take(hand, t.mask[beaten], weight, style, ors, t)
    if phase == LEAD:
        # legal() lists leads as the engine does: singles by colour then number, the
        # Goat, then the finishing lead.
        for j in range(n):
            if t.size[ids[j]] > 1 or t.mask[ids[j]] == hand:
                return int(ids[j])
        last_card_threat = fewest == 1
        if style[ST_PAIR_LOW] > 0 and card_count(hand, t) == 2 and not last_card_threat:
            # two loose cards: the higher if nobody can beat it, else the lower
            low_id = ids[0]
            high_id = ids[1]
            if t.value[high_id] < t.value[low_id] or (
                t.value[high_id] == t.value[low_id] and t.mask[high_id] < t.mask[low_id]
            ):
                low_id, high_id = high_id, low_id
            if not t.value[high_id] < best_answer(others, most, 1, t):
                return int(high_id)
            return int(low_id)
        best_id = ids[0]
        best_score = 1e9
        for j in range(n):
            action = ids[j]
            rest = hand ^ t.mask[action]
            number = t.value[action]
            if last_card_threat:
                score = -number + 0.001 * hand_cost(rest, weight, style, ors, t)
            elif is_one_set(rest, ors, t):
                score = -100.0 - number
            else:
                score = hand_cost(rest, weight, style, ors, t) + style[ST_LEAD_LOW] * number
            if score < best_score:
                best_score = score
                best_id = action
        return int(best_id)
    # follow
    size = t.size[table]
    for j in range(n):
        keys[j] = _order_key(ids[j], size, t)
    _sort_by(ids, keys, n)
    base = hand_cost(hand, weight, style, ors, t)
    player = g[i, TABLE_PLAYER]
    deny = player != seat and card_count(hands[i, player], t) <= DANGER_SIZE + 1
    safe_same = best_answer(others, most, size, t)
    safe_more = best_answer(others, most, size + 1, t)
    best_id = 0
    best_gain = style[ST_THRESHOLD] - (style[ST_DENY] if deny else 0.0)
    table_mask = t.mask[table]
    for j in range(n):
        action = ids[j]
        if action == 0:
            continue
        mask = t.mask[action]
        if mask == hand:
            return int(action)
        rest = hand ^ mask
        after = rest | (1 << best_take(rest, table_mask, weight, style, ors, t))
        gain = base - hand_cost(after, weight, style, ors, t)
        limit = safe_same if t.size[action] == size else safe_more
        safe = t.value[action] >= limit
        if is_one_set(after, ors, t):
            gain += style[ST_SAFE_FINISH] if safe else style[ST_FINISH]
        elif safe:
            gain += style[ST_CONTROL]
        gain -= 0.001 * (t.value[action] / POWERS[t.size[action] - 1])
        if gain > best_gain:
            best_gain = gain
            best_id = action
    return int(best_id)


@jit
def heuristic_actions(st: State, t: Tables, style: F64, out: I64) -> None:
    """The heuristic's action for every game to move (-1 for the others)."""
    g = st[0]
    work = np.empty(SCRATCH, np.int64)
    for i in range(out.shape[0]):
        out[i] = -1
        if g[i, PHASE] < OVER:
            out[i] = heuristic_action(st, i, t, style, work)


HEURISTIC_PLAYER: Final = 1
"""A seat :func:`play_others` plays with the heuristic."""
RANDOM_PLAYER: Final = 2
"""A seat :func:`play_others` plays uniformly at random (the ``CHOOSING`` generator)."""


@jit
def play_others(
    st: State, t: Tables, style: F64, kinds: I64, learner: I64,
    which: npt.NDArray[np.bool_], points: I64,
) -> None:  # fmt: skip
    """In every chosen game, the seats other than ``learner[i]`` move (each as
    ``kinds[i, seat]`` says: :data:`HEURISTIC_PLAYER` or :data:`RANDOM_PLAYER`) until
    ``learner[i]`` is to move or the game is over; the points of every hand that ends
    meanwhile are added to ``points[i]``. Every seat to move but the learner has a kind."""
    g, _, _, _, _, hand_points, rng = st
    work = np.empty(SCRATCH, np.int64)
    buffer = np.empty(1024, np.int64)
    for i in range(g.shape[0]):
        if not which[i]:
            continue
        while g[i, PHASE] < OVER and g[i, TO_MOVE] != learner[i]:
            if kinds[i, g[i, TO_MOVE]] == RANDOM_PLAYER:
                action = buffer[below(rng, i, CHOOSING, legal(st, i, t, buffer))]
            else:
                action = heuristic_action(st, i, t, style, work)
            before = g[i, HANDS_ENDED]
            apply(st, i, action, t)
            if g[i, HANDS_ENDED] != before:
                for seat in range(SEATS):
                    points[i, seat] += hand_points[i, seat]


LEAF_FIELDS: Final = 7
"""A position given to :func:`heuristic_points`: phase, seat to move, table id, its player,
beaten id, passes, discards (then one hand a seat)."""


@jit_inline
def _load_leaf(st: State, leaf: I64, dealt: I64) -> None:
    """Put the position ``leaf`` / ``dealt`` (see :data:`LEAF_FIELDS`) into row 0."""
    g, hands, hands_n, _, _, _, _ = st
    g[0, PHASE] = leaf[0]
    g[0, TO_MOVE] = leaf[1]
    g[0, TABLE] = leaf[2]
    g[0, TABLE_PLAYER] = leaf[3]
    g[0, BEATEN] = leaf[4]
    g[0, PASSES] = leaf[5]
    g[0, DISCARDS] = leaf[6]
    for seat in range(SEATS):
        hands[0, seat] = dealt[seat]
        hands_n[0, seat] = number_mask(dealt[seat])


@jit
def heuristic_points(
    st: State, t: Tables, style: F64, leaf: I64, dealt: I64, out: I64
) -> None:  # fmt: skip
    """Play the position ``leaf`` / ``dealt`` out to the hand's end with the heuristic in
    row 0 of ``st`` (whose other fields, the game's options, the caller set) and write
    each seat's points into ``out``."""
    _load_leaf(st, leaf, dealt)
    g = st[0]
    hand_points = st[5]
    work = np.empty(SCRATCH, np.int64)
    start = g[0, HANDS_ENDED]
    while g[0, HANDS_ENDED] == start and g[0, PHASE] < OVER:
        apply(st, 0, heuristic_action(st, 0, t, style, work), t)
    for seat in range(SEATS):
        out[seat] = hand_points[0, seat]


@jit
def heuristic_choice(st: State, t: Tables, style: F64, leaf: I64, dealt: I64) -> int:
    """The heuristic's action id in the position ``leaf`` / ``dealt`` (as
    :func:`heuristic_points` takes it)."""
    _load_leaf(st, leaf, dealt)
    work = np.empty(SCRATCH, np.int64)
    return heuristic_action(st, 0, t, style, work)


@jit
def replay_log_weights(
    st: State, t: Tables, style: F64, deals: I64, actions: I64, seats: I64, observer: int,
    leader: int, miss: float, out: F64,
) -> None:  # fmt: skip
    """How likely each deal makes the other seats' choices in this hand, if each chose
    the heuristic's move with probability ``1 - miss`` and any other legal move alike.

    ``deals[d]`` is every seat's hand now; ``actions`` / ``seats`` are the hand's actions
    in order (engine ids; ``leader`` led its first round). Each deal is undone to the
    hand's start and the hand replayed in row 0 of ``st`` (its options set by the
    caller); ``out[d]`` is the log-probability of the others' choices (forced moves
    count nothing; the ``observer``'s own choices are not judged).
    """
    g, hands, hands_n, known, _, _, _ = st
    work = np.empty(SCRATCH, np.int64)
    buffer = np.empty(1024, np.int64)
    dealt = np.empty(SEATS, np.int64)
    hit = np.log(1.0 - miss)
    for d in range(deals.shape[0]):
        for seat in range(SEATS):
            dealt[seat] = deals[d, seat]
        for j in range(actions.shape[0] - 1, -1, -1):
            action = actions[j]
            if action >= 56:
                dealt[seats[j]] |= t.mask[action]
            elif action >= 1:
                dealt[seats[j]] &= ~t.mask[action]
        g[0, PHASE] = LEAD
        g[0, TO_MOVE] = leader
        g[0, TABLE] = -1
        g[0, TABLE_PLAYER] = -1
        g[0, BEATEN] = -1
        g[0, PASSES] = 0
        g[0, DISCARDS] = 0
        for seat in range(SEATS):
            hands[0, seat] = dealt[seat]
            hands_n[0, seat] = number_mask(dealt[seat])
            known[0, seat] = 0
        total = 0.0
        for j in range(actions.shape[0]):
            action = actions[j]
            if seats[j] != observer:
                n = legal(st, 0, t, buffer)
                if n > 1:
                    if heuristic_action(st, 0, t, style, work) == action:
                        total += hit
                    else:
                        total += np.log(miss / (n - 1))
            apply(st, 0, action, t)
        out[d] = total


# ------------------------------------------------------- observations (sim/encode.py)


@jit_inline
def _observe_cards(out: npt.NDArray[np.float32], start: int, mask: int) -> None:
    for card in range(55):
        if mask >> card & 1:
            out[start + card] = 1.0


@jit
def encode_seat(
    st: State, i: int, seat: int, starts: npt.NDArray[np.int64], t: Tables,
    out: npt.NDArray[np.float32],
) -> None:  # fmt: skip
    """Write ``seat``'s observation of game ``i`` into ``out`` (which comes zeroed)."""
    g, hands, _, known, scores, _, _ = st
    players = g[i, PLAYERS]
    phase = g[i, PHASE]
    _observe_cards(out, starts[0], hands[i, seat])
    for other in range(players):
        slot = (other - seat) % players
        if slot:
            _observe_cards(out, starts[1] + (slot - 1) * 55, known[i, other])
    _observe_cards(out, starts[2], g[i, DISCARDS])
    table = g[i, TABLE]
    if table >= 0:
        _observe_cards(out, starts[3], t.mask[table])
        out[starts[10] + (g[i, TABLE_PLAYER] - seat) % players] = 1.0
    beaten = g[i, BEATEN]
    if beaten >= 0:
        _observe_cards(out, starts[4], t.mask[beaten])
    _observe_cards(out, starts[5], g[i, DECK])
    target = g[i, TARGET]
    for other in range(players):
        slot = (other - seat) % players
        out[starts[6] + slot] = card_count(hands[i, other], t) / 9.0
        out[starts[7] + slot] = scores[i, other] / target
        out[starts[8] + slot] = 1.0
    if phase < OVER:
        mover = g[i, TO_MOVE]
        out[starts[9] + (mover - seat) % players] = 1.0
        for back in range(1, g[i, PASSES] + 1):
            out[starts[12] + (mover - back - seat) % players] = 1.0
    out[starts[11] + (g[i, HAND_LEADER] - seat) % players] = 1.0
    if phase <= OVER:  # no decision while waiting for a deal
        out[starts[13] + phase] = 1.0
    out[starts[14]] = 1.0 / target
    out[starts[15]] = 1.0 if g[i, ONE_HAND] else 0.0


@jit
def encode_movers(
    st: State, starts: npt.NDArray[np.int64], t: Tables, out: npt.NDArray[np.float32]
) -> None:
    """Row ``i`` of ``out`` (zeroed): game ``i`` as its seat to move sees it (zeros if none)."""
    g = st[0]
    for i in range(out.shape[0]):
        if g[i, PHASE] < OVER:
            encode_seat(st, i, g[i, TO_MOVE], starts, t, out[i])


@jit
def encode_seats(
    st: State, seats: I64, starts: npt.NDArray[np.int64], t: Tables,
    out: npt.NDArray[np.float32],
) -> None:  # fmt: skip
    """Row ``i`` of ``out`` (zeroed): game ``i`` as ``seats[i]`` sees it (zeros if -1), the
    game over or not."""
    for i in range(out.shape[0]):
        if seats[i] >= 0:
            encode_seat(st, i, seats[i], starts, t, out[i])
