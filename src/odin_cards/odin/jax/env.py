"""Odin as pure JAX functions over a fixed-shape state: for ``jit``, ``vmap`` and accelerators.

One game is a :class:`State` (a NamedTuple of arrays, so a JAX pytree); a batch is the
same tuple with a leading axis, made by ``jax.vmap``. Every function is pure and traces
without Python branches on values, so ``jax.jit(jax.vmap(step))`` steps thousands of games
in one call on a CPU, a GPU or a TPU:

* :func:`init` ``(key, players, options, reward)`` -> a new game, dealt from ``key``;
* :func:`step` ``(state, action)`` -> the state after the seat to move plays ``action``;
* :func:`observe` ``(state, seat)`` -> ``float32[FLAT_SIZE]``, that seat's flat observation;
* :func:`legal_action_mask` ``(state)`` -> ``bool[6702]``, the legal ids of the seat to move.

Observations and action ids are the other environments' (``odin_v0``, the vectorized
environment, OpenSpiel): the layout comes from :mod:`odin_cards.odin.env.observation`,
the actions from the engine's table (:mod:`.tables`). The rules are the engine's, restated
over card masks held as two ``uint32`` words; ``tests/jax`` plays engine and JAX games side
by side and compares masks, observations, rewards and terminals at every step.

Chance is JAX's: each game carries its own key, split at every step; a hand's deal (and,
at :func:`init`, the removed colours and the first leader) come from it. To play given
deals (the engine's, in the test), :func:`from_game` copies an engine position and
:func:`redeal` replaces the hands of a hand that has not begun.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from odin_cards.odin.env.observation import FIELD, FLAT_SIZE, MAX_TARGET, SLOTS
from odin_cards.odin.env.table import REWARDS, RewardKind, check_choice
from odin_cards.odin.jax import tables as tb
from odin_cards.odin.rules import NUM_ACTIONS, Game, Options
from odin_cards.odin.rules.cards import HAND_SIZE, NUM_CARDS
from odin_cards.odin.rules.game import Phase

Array = jax.Array

LEAD: Final = int(Phase.LEAD)
FOLLOW: Final = int(Phase.FOLLOW)
TAKE: Final = int(Phase.TAKE)
OVER: Final = int(Phase.OVER)
SEATS: Final = SLOTS
"""Seats in every state (six: the most players); seats past ``players`` hold nothing."""
GOAT_EXTRA: Final = 4
"""The Goat left in a hand costs five points: one as a card, four more."""


class State(NamedTuple):
    """One game (or, with a leading axis, a batch of games). Card sets are ``uint32[..., 2]``
    words (:mod:`.tables`); seats are absolute (0 to ``players - 1``)."""

    hands: Array
    """``uint32[6, 2]``: every seat's cards (secret: give a seat :func:`observe` only)."""
    known: Array
    """``uint32[6, 2]``: cards each seat is known to hold (taken, not played since)."""
    discards: Array
    """``uint32[2]``: cards out of play for the rest of this hand."""
    deck: Array
    """``uint32[2]``: every card of this game's deck."""
    phase: Array
    """``int32``: 0 lead, 1 follow, 2 take, 3 over (the engine's :class:`Phase`)."""
    to_move: Array
    """``int32``: the seat to move, -1 once the game is over."""
    table: Array
    """``int32``: the play id on the table, -1 for none."""
    table_player: Array
    beaten: Array
    """``int32``: the play id just beaten while its beater chooses a card, -1 for none."""
    passes: Array
    hand_leader: Array
    hand_number: Array
    """``int32``: hands finished (the engine's ``hand_number``)."""
    scores: Array
    """``int32[6]``: points so far."""
    hand_points: Array
    """``int32[6]``: the points of the last finished hand."""
    rewards: Array
    """``float32[6]``: what the last step gave each seat (the reward kind of :func:`init`)."""
    terminated: Array
    """``bool``: the game is over."""
    hand_ended: Array
    """``bool``: the last step ended a hand."""
    illegal: Array
    """``bool``: the last step's action was refused (and nothing else changed)."""
    players: Array
    target: Array
    one_hand: Array
    winner_leads: Array
    """``bool``: the next hand is led by the seat that ended the last (``next_leader="winner"``)."""
    reward_hand: Array
    """``bool``: rewards are minus each hand's points (``reward="hand"``), not the victory."""
    key: Array
    """This game's PRNG key (the next deals)."""


# --------------------------------------------------------------------- card words

_LOW_SHIFTS = np.arange(tb.LOW_BITS, dtype=np.uint32)
_HIGH_SHIFTS = np.arange(tb.HIGH_BITS, dtype=np.uint32)


def _pack(flags: Array) -> Array:
    """``bool[..., 55]`` -> ``uint32[..., 2]``."""
    flags = flags.astype(jnp.uint32)
    low = jnp.sum(flags[..., : tb.LOW_BITS] << _LOW_SHIFTS, axis=-1, dtype=jnp.uint32)
    high = jnp.sum(flags[..., tb.LOW_BITS :] << _HIGH_SHIFTS, axis=-1, dtype=jnp.uint32)
    return jnp.stack([low, high], axis=-1)


def _unpack(pair: Array) -> Array:
    """``uint32[..., 2]`` -> ``bool[..., 55]``."""
    low = (pair[..., 0:1] >> _LOW_SHIFTS) & 1
    high = (pair[..., 1:2] >> _HIGH_SHIFTS) & 1
    return jnp.concatenate([low, high], axis=-1).astype(jnp.bool_)


def _count(pair: Array) -> Array:
    """Cards in ``uint32[..., 2]`` words (``int32[...]``)."""
    return jnp.sum(jax.lax.population_count(pair), axis=-1).astype(jnp.int32)


def _empty(pair: Array) -> Array:
    return jnp.all(pair == 0, axis=-1)


def exact_ratio(num: Array, den: Array | int) -> Array:
    """``num / den`` as the nearest ``float32``, exactly as NumPy divides: whole numbers
    ``0 <= num < 2**15``, ``1 <= den <= 1024``.

    XLA may turn a division by a broadcast value into a multiplication by its reciprocal,
    one unit in the last place away from the other environments' observation; so the
    quotient is found by long division in integers (25 bits, then round half to even).
    """
    num = jnp.asarray(num, jnp.int32)
    den = jnp.broadcast_to(jnp.asarray(den, jnp.int32), num.shape)
    mantissa = num // den
    rest = num % den
    exponent = jnp.zeros_like(num)
    for _ in range(40):  # at most 10 leading zero bits (den <= 1024), then 25 bits
        short = mantissa < 1 << 24
        doubled = rest * 2
        bit = (doubled >= den).astype(jnp.int32)
        mantissa = jnp.where(short, mantissa * 2 + bit, mantissa)
        rest = jnp.where(short, doubled - bit * den, rest)
        exponent = jnp.where(short, exponent - 1, exponent)
    guard = mantissa & 1
    mantissa = mantissa >> 1
    up = (guard == 1) & ((rest != 0) | ((mantissa & 1) == 1))
    mantissa = mantissa + up.astype(jnp.int32)
    value = jnp.ldexp(mantissa.astype(jnp.float32), exponent + 1)
    return jnp.where(num == 0, jnp.float32(0.0), value)


def _where(condition: Array, yes: State, no: State) -> State:
    """``yes`` where ``condition`` holds, else ``no``, field by field (a scalar condition)."""
    chosen: State = jax.tree.map(lambda a, b: jnp.where(condition, a, b), yes, no)
    return chosen


def _action_words(action: Array) -> Array:
    """The cards of an action id (-1: none)."""
    words = jnp.asarray(tb.ACTION_WORDS)[jnp.maximum(action, 0)]
    return jnp.where(action >= 0, words, jnp.zeros_like(words))


# ------------------------------------------------------------------------- set-up


def _raw_key(key: Array) -> Array:
    """A key as its ``uint32`` data (a typed ``jax.random.key`` too): the state's key is
    selected with ``jnp.where`` like every other field."""
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        return jax.random.key_data(key)
    return key


def _check(players: int, options: Options | None, reward: RewardKind) -> Options:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players is a whole number from 2 to 6, not {players!r}")
    options = options if options is not None else Options()
    if not isinstance(options, Options):
        raise ValueError(f"options are Options, not {type(options).__name__}")
    options.check(players)
    if options.target > MAX_TARGET:
        raise ValueError(f"the environments take a target up to {MAX_TARGET}")
    check_choice("reward", reward, REWARDS)
    return options


def _deal(key: Array, deck: Array, players: Array) -> Array:
    """Shuffle ``deck`` and deal nine cards to each of ``players`` seats (``uint32[6, 2]``).

    With the Goat in the deck it is always dealt: if it falls among the undealt cards it
    swaps places with a random dealt card (the engine's rule, ``rules/deal.py``).
    """
    shuffle, swap = jax.random.split(key)
    in_deck = _unpack(deck)
    order = jnp.argsort(jnp.where(in_deck, jax.random.uniform(shuffle, (NUM_CARDS,)), 2.0))
    dealt = players * HAND_SIZE
    where = jnp.argmax(order == NUM_CARDS - 1)
    other = jax.random.randint(swap, (), 0, dealt)
    move = in_deck[NUM_CARDS - 1] & (where >= dealt)
    goat_to = jnp.where(move, other, where)
    order = order.at[where].set(order[goat_to]).at[goat_to].set(NUM_CARDS - 1)
    position = jnp.arange(NUM_CARDS)
    seat_at = jnp.where(position < dealt, position // HAND_SIZE, SEATS)
    seat_of = jnp.zeros(NUM_CARDS, jnp.int32).at[order].set(seat_at)
    return _pack(seat_of[None, :] == jnp.arange(SEATS)[:, None])


def _start_hand(state: State, leader: Array, key: Array) -> State:
    zeros = jnp.zeros_like(state.hands)
    return state._replace(
        hands=_deal(key, state.deck, state.players),
        known=zeros,
        discards=jnp.zeros_like(state.discards),
        phase=jnp.int32(LEAD),
        to_move=leader,
        hand_leader=leader,
        table=jnp.int32(-1),
        table_player=jnp.int32(-1),
        beaten=jnp.int32(-1),
        passes=jnp.int32(0),
    )


def _blank(players: int, options: Options, reward: RewardKind, key: Array) -> State:
    six = jnp.zeros(SEATS, jnp.int32)
    return State(
        hands=jnp.zeros((SEATS, 2), jnp.uint32),
        known=jnp.zeros((SEATS, 2), jnp.uint32),
        discards=jnp.zeros(2, jnp.uint32),
        deck=jnp.zeros(2, jnp.uint32),
        phase=jnp.int32(LEAD),
        to_move=jnp.int32(0),
        table=jnp.int32(-1),
        table_player=jnp.int32(-1),
        beaten=jnp.int32(-1),
        passes=jnp.int32(0),
        hand_leader=jnp.int32(0),
        hand_number=jnp.int32(0),
        scores=six,
        hand_points=six,
        rewards=jnp.zeros(SEATS, jnp.float32),
        terminated=jnp.bool_(False),
        hand_ended=jnp.bool_(False),
        illegal=jnp.bool_(False),
        players=jnp.int32(players),
        target=jnp.int32(options.target),
        one_hand=jnp.bool_(options.one_hand),
        winner_leads=jnp.bool_(options.next_leader == "winner"),
        reward_hand=jnp.bool_(reward == "hand"),
        key=key,
    )


def init(
    key: Array, players: int = 4, options: Options | None = None, reward: RewardKind = "game"
) -> State:
    """A new game of ``players`` (a Python int) with ``options``, dealt from ``key`` (a
    ``jax.random.PRNGKey`` or a typed ``jax.random.key``).

    ``reward``: ``"game"`` (each winner's share of 1 when the game ends) or ``"hand"``
    (minus each seat's points when a hand ends), as the other environments define them.
    Bad settings raise ``ValueError`` while tracing. Batch it with
    ``jax.vmap(lambda k: init(k, players, options))(keys)``.
    """
    options = _check(players, options, reward)
    key, colours, leader_key, deal = jax.random.split(_raw_key(key), 4)
    deck = jnp.asarray(tb.COLOUR_WORDS).sum(axis=0, dtype=jnp.uint32)
    if options.colours == 4:
        first_key, second_key = jax.random.split(colours)
        if options.removal == "any-two":
            first = jax.random.randint(first_key, (), 0, 6)
            second = jax.random.randint(second_key, (), 0, 5)
            second = second + (second >= first)
        else:  # red-or-black: one of red and black, one of the four others
            first = jnp.array([1, 4])[jax.random.randint(first_key, (), 0, 2)]
            second = jnp.array([0, 2, 3, 5])[jax.random.randint(second_key, (), 0, 4)]
        removed = jnp.asarray(tb.COLOUR_WORDS)[first] | jnp.asarray(tb.COLOUR_WORDS)[second]
        deck = deck & ~removed
    if options.goat:
        deck = deck | jnp.asarray(tb.GOAT_WORDS)
    if options.first_leader is None:
        leader = jax.random.randint(leader_key, (), 0, players).astype(jnp.int32)
    else:
        leader = jnp.int32(options.first_leader)
    state = _blank(players, options, reward, key)._replace(deck=deck)
    return _start_hand(state, leader, deal)


def from_game(game: Game, key: Array, reward: RewardKind = "game") -> State:
    """A copy of an engine :class:`Game` where it stands; its later hands dealt from ``key``.

    Runs on the host (not under ``jit``): to start JAX games from engine positions, or to
    play the engine's deals (:func:`redeal`).
    """
    if not isinstance(game, Game):
        raise ValueError(f"give an engine Game, not {type(game).__name__}")
    options = _check(game.players, game.options, reward)
    deck = sum(511 << (9 * c) for c in range(6) if c not in game.removed)
    deck |= (1 << (NUM_CARDS - 1)) if options.goat else 0
    players = game.players
    padding = [0] * (SEATS - players)
    scores = np.zeros(SEATS, np.int32)
    scores[:players] = game.scores
    return _blank(players, options, reward, _raw_key(key))._replace(
        hands=jnp.asarray(tb.masks_to_words([game.hand(s) for s in range(players)] + padding)),
        known=jnp.asarray(tb.masks_to_words([*game.known, *padding])),
        discards=jnp.asarray(tb.words(game.discards), jnp.uint32),
        deck=jnp.asarray(tb.words(deck), jnp.uint32),
        phase=jnp.int32(int(game.phase)),
        to_move=jnp.int32(-1 if game.is_over else game.to_move),
        table=jnp.int32(-1 if game.table is None else game.table.id),
        table_player=jnp.int32(game.table_player),
        beaten=jnp.int32(-1 if game.beaten is None else game.beaten.id),
        passes=jnp.int32(game.passes),
        hand_leader=jnp.int32(game.hand_leader),
        hand_number=jnp.int32(game.hand_number),
        scores=jnp.asarray(scores),
        terminated=jnp.bool_(game.is_over),
    )


def redeal(state: State, hands: Array) -> State:
    """``state`` with every seat's cards replaced by ``hands`` (``uint32[6, 2]``): the deal of
    a hand nobody has played in yet (to play given deals; not checked, not for agents)."""
    return state._replace(hands=hands, known=jnp.zeros_like(state.known))


# -------------------------------------------------------------------------- rules


def _legal(state: State, ids: Array, cards: Array, size: Array, value: Array) -> Array:
    """Whether each action of ``ids`` (any shape; its cards, size and value rank beside
    it) is legal for the seat to move."""
    hand = state.hands[jnp.maximum(state.to_move, 0)]
    within = _empty(cards & ~hand)
    play = (ids >= tb.FIRST_PLAY) & within
    lead = play & ((size == 1) | jnp.all(cards == hand, axis=-1))
    table = jnp.maximum(state.table, 0)
    table_size = jnp.asarray(tb.ACTION_SIZE)[table]
    fits = (size == table_size) | (size == table_size + 1)
    follow = (ids == tb.PASS) | (play & fits & (value > jnp.asarray(tb.ACTION_RANK)[table]))
    beaten = _action_words(state.beaten)
    take = (ids >= 1) & (ids < tb.FIRST_PLAY) & _empty(cards & ~beaten)
    phase = state.phase
    return jnp.where(
        phase == LEAD,
        lead,
        jnp.where(phase == FOLLOW, follow, jnp.where(phase == TAKE, take, False)),
    )


def legal_action_mask(state: State) -> Array:
    """``bool[6702]``: the legal action ids of the seat to move (all ``False`` once over)."""
    ids = jnp.arange(NUM_ACTIONS, dtype=jnp.int32)
    tables = (jnp.asarray(t) for t in (tb.ACTION_WORDS, tb.ACTION_SIZE, tb.ACTION_RANK))
    return _legal(state, ids, *tables)


def _end_hand(state: State, ender: Array, key: Array) -> State:
    """Score the hand ``ender`` just finished; deal the next or end the game."""
    hands = state.hands
    goat = (hands[:, 1] >> (NUM_CARDS - 1 - tb.LOW_BITS)) & 1
    points = _count(hands) + GOAT_EXTRA * goat.astype(jnp.int32)
    scores = state.scores + points
    seated = jnp.arange(SEATS) < state.players
    over = state.one_hand | (jnp.max(jnp.where(seated, scores, 0)) >= state.target)
    scored = state._replace(scores=scores, hand_points=points, hand_number=state.hand_number + 1)
    leader = jnp.where(state.winner_leads, ender, (state.hand_leader + 1) % state.players).astype(
        jnp.int32
    )
    dealt = _start_hand(scored, leader, key)
    ended = scored._replace(
        phase=jnp.int32(OVER),
        to_move=jnp.int32(-1),
        table=jnp.int32(-1),
        beaten=jnp.int32(-1),
        terminated=jnp.bool_(True),
    )
    return _where(over, ended, dealt)


def _apply(state: State, action: Array, key: Array) -> State:
    """``state`` after the seat to move's legal ``action`` (the engine's ``State._step``)."""
    seat = jnp.maximum(state.to_move, 0)
    players = state.players
    after = (seat + 1) % players
    cards = _action_words(action)
    is_play = action >= tb.FIRST_PLAY
    is_take = (action >= 1) & ~is_play
    is_pass = action == tb.PASS
    hand = state.hands[seat]
    held = jnp.where(is_play, hand ^ cards, jnp.where(is_take, hand | cards, hand))
    known = state.known[seat]
    known = jnp.where(is_play, known & ~cards, jnp.where(is_take, known | cards, known))
    passes = state.passes + 1
    round_over = is_pass & (passes == players - 1)
    leading = state.phase == LEAD
    discards = state.discards
    discards = discards | jnp.where(is_take, _action_words(state.beaten) & ~cards, 0)
    discards = discards | jnp.where(round_over, _action_words(state.table), 0)
    i32 = jnp.int32
    moved = state._replace(
        hands=state.hands.at[seat].set(held),
        known=state.known.at[seat].set(known),
        discards=discards.astype(jnp.uint32),
        phase=jnp.where(
            is_play,
            jnp.where(leading, i32(FOLLOW), i32(TAKE)),
            jnp.where(is_take, i32(FOLLOW), jnp.where(round_over, i32(LEAD), state.phase)),
        ),
        to_move=jnp.where(
            is_play,
            jnp.where(leading, after, seat),
            jnp.where(round_over, state.table_player, after),
        ).astype(i32),
        table=jnp.where(is_play, action, jnp.where(round_over, i32(-1), state.table)),
        table_player=jnp.where(
            is_play, seat, jnp.where(round_over, i32(-1), state.table_player)
        ).astype(i32),
        beaten=jnp.where(
            is_play,
            jnp.where(leading, state.beaten, state.table),
            jnp.where(is_take, i32(-1), state.beaten),
        ),
        passes=jnp.where(is_play | round_over, i32(0), jnp.where(is_pass, passes, state.passes)),
    )
    ended = is_play & _empty(held)
    finished = _end_hand(moved, seat, key)
    moved = _where(ended, finished, moved)
    seated = jnp.arange(SEATS) < players
    best = jnp.min(jnp.where(seated, moved.scores, np.iinfo(np.int32).max))
    winners = (seated & (moved.scores == best)).astype(jnp.int32)
    shares = exact_ratio(winners, jnp.maximum(jnp.sum(winners), 1))
    game_rewards = jnp.where(moved.terminated, shares, 0.0)
    hand_rewards = jnp.where(ended, -moved.hand_points.astype(jnp.float32), 0.0)
    return moved._replace(
        rewards=jnp.where(state.reward_hand, hand_rewards, game_rewards),
        hand_ended=ended,
    )


def step(state: State, action: Array | int) -> State:
    """The state after the seat to move plays ``action`` (an engine action id).

    ``rewards``, ``hand_ended`` and ``terminated`` say what the step did. An illegal
    action (or any action once the game is over) changes nothing but the step's own
    flags: ``illegal`` set, ``rewards`` zero, ``hand_ended`` false. Check the mask first,
    or ``illegal`` afterwards.
    """
    action = jnp.asarray(action, jnp.int32)
    legal = (action >= 0) & (action < NUM_ACTIONS)
    some = jnp.clip(action, 0, NUM_ACTIONS - 1)
    cards = jnp.asarray(tb.ACTION_WORDS)[some]
    size = jnp.asarray(tb.ACTION_SIZE)[some]
    rank = jnp.asarray(tb.ACTION_RANK)[some]
    legal = legal & _legal(state, some, cards, size, rank) & ~state.terminated
    key, deal = jax.random.split(state.key)
    moved = _apply(state._replace(key=key), jnp.where(legal, action, tb.PASS), deal)
    refused = state._replace(
        rewards=jnp.zeros_like(state.rewards), hand_ended=jnp.bool_(False), illegal=jnp.bool_(True)
    )
    moved = moved._replace(illegal=jnp.bool_(False))
    return _where(legal, moved, refused)


# -------------------------------------------------------------------- observation


def _start(name: str) -> int:
    return FIELD[name].start


def observe(state: State, seat: Array | int) -> Array:
    """``float32[FLAT_SIZE]``: what ``seat`` (0 to ``players - 1``; not checked under
    ``jit``) sees, in the other environments' flat layout
    (:mod:`odin_cards.odin.env.observation`): its own hand, never another seat's. A
    finished game's ``to_move`` is -1: observe it from a seat of your choosing."""
    seat = jnp.asarray(seat, jnp.int32)
    players = state.players
    slots = jnp.arange(SEATS, dtype=jnp.int32)
    seated = slots < players
    of_slot = (seat + slots) % players  # the seat in each slot (where seated)
    out = jnp.zeros(FLAT_SIZE, jnp.float32)

    def put(out: Array, name: str, values: Array) -> Array:
        start = _start(name)
        flat = values.reshape(-1).astype(jnp.float32)
        return jax.lax.dynamic_update_slice(out, flat, (start,))

    phase = state.phase
    playing = phase < OVER
    known = _unpack(state.known[of_slot[1:]]) & seated[1:, None]
    counts = _count(state.hands[of_slot])
    table_player = (state.table_player - seat) % players
    mover = (state.to_move - seat) % players
    back = (mover - slots) % players
    out = put(out, "hand", _unpack(state.hands[seat]))
    out = put(out, "known", known)
    out = put(out, "discards", _unpack(state.discards))
    out = put(out, "table", _unpack(_action_words(state.table)))
    out = put(out, "beaten", _unpack(_action_words(state.beaten)))
    out = put(out, "deck", _unpack(state.deck))
    out = put(out, "hand_sizes", jnp.where(seated, exact_ratio(counts, HAND_SIZE), 0.0))
    scores = exact_ratio(state.scores[of_slot], state.target)
    out = put(out, "scores", jnp.where(seated, scores, 0.0))
    out = put(out, "seats", seated)
    out = put(out, "to_move", playing & (slots == mover))
    out = put(out, "table_player", (state.table >= 0) & (slots == table_player))
    out = put(out, "hand_leader", slots == (state.hand_leader - seat) % players)
    out = put(out, "passed", playing & seated & (back >= 1) & (back <= state.passes))
    out = put(out, "decision", jnp.arange(4) == phase)
    out = put(out, "target", exact_ratio(jnp.ones(1, jnp.int32), state.target))
    return put(out, "one_hand", state.one_hand[None])


# ------------------------------------------------------------------- random play


def random_action(key: Array, mask: Array) -> Array:
    """A random legal id of ``mask`` (``bool[6702]``; pass when none is legal).

    Each id gets a random priority, murmur3's 32-bit finaliser of the id mixed with a
    draw from ``key``, and the legal id of the lowest priority is chosen: uniform up to
    the hash's quality (two legal ids tie with a chance below 1 in 30,000, the lower id
    then wins). A count of the legal ids and a cumulative sum would be exact, but XLA's
    cumulative sum over 6,702 entries costs ten times the rest of a step on a CPU.
    """
    x = jnp.arange(NUM_ACTIONS, dtype=jnp.uint32) * jnp.uint32(0x9E3779B1)
    x = x + jax.random.bits(key, (), jnp.uint32)
    x = (x ^ (x >> 16)) * jnp.uint32(0x85EBCA6B)
    x = (x ^ (x >> 13)) * jnp.uint32(0xC2B2AE35)
    x = x ^ (x >> 16)
    return jnp.argmin(jnp.where(mask, x, jnp.uint32(0xFFFFFFFF))).astype(jnp.int32)


def random_play(
    key: Array, states: State, steps: int, players: int, options: Options | None = None
) -> tuple[State, Array]:
    """``steps`` uniformly random actions in every game of the batch ``states`` (a finished
    game starts afresh); the states after, and the actions applied (``int32``). Jit it with
    ``steps``, ``players`` and ``options`` static (:mod:`.bench` does)."""

    def one(state: State, key: Array) -> tuple[State, Array]:
        choose, fresh = jax.random.split(key)
        played = step(state, random_action(choose, legal_action_mask(state)))
        restarted = init(fresh, players, options)
        state = _where(played.terminated, restarted, played)
        return state, ~played.illegal

    def sweep(states: State, key: Array) -> tuple[State, Array]:
        keys = jax.random.split(key, states.phase.shape[0])
        states, applied = jax.vmap(one)(states, keys)
        return states, jnp.sum(applied, dtype=jnp.int32)

    states, applied = jax.lax.scan(sweep, states, jax.random.split(key, steps))
    return states, jnp.sum(applied, dtype=jnp.int32)


__all__ = [
    "FOLLOW",
    "LEAD",
    "OVER",
    "SEATS",
    "TAKE",
    "State",
    "exact_ratio",
    "from_game",
    "init",
    "legal_action_mask",
    "observe",
    "random_action",
    "random_play",
    "redeal",
    "step",
]
