"""A batch of games stepped together by the compiled kernels (:mod:`.kernels`).

:class:`Batch` is the checked surface: everything from outside (options, seeds, actions,
given deals, engine games) is checked here, and a refused call raises
:class:`SimError` and changes nothing. The kernels behind it trust what they are given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from odin_cards.odin.rules import NUM_ACTIONS, Game, Options
from odin_cards.odin.sim import kernels as k
from odin_cards.odin.sim.tables import GOAT_BIT, MAX_LEGAL, TABLES

Deals = Literal["own", "given"]
"""``own``: the simulator deals every hand from each game's generator. ``given``: a game
waits in :attr:`Batch.waiting_for_deal` until :meth:`Batch.deal` gives it its hands (to
play the engine's deals, or any others)."""

MAX_GAMES = 1 << 16
"""A batch holds at most this many games (65,536: a legal-action mask of them all is 440 MB)."""
MAX_TARGET = 1_000_000
"""The highest target the simulator takes (its scores are 64-bit integers; no game needs more)."""

_MASK64 = (1 << 64) - 1

HEURISTIC: Final = k.HEURISTIC_PLAYER
"""An opponent of :meth:`Batch.play_others` that plays the bots' heuristic (compiled)."""
RANDOM: Final = k.RANDOM_PLAYER
"""An opponent of :meth:`Batch.play_others` that plays uniformly among its legal actions."""

GameIndex = int | np.integer[Any]
"""A game's row in a batch: an ``int`` or a NumPy integer."""


class SimError(ValueError):
    """A refused call to the simulator (bad options, an illegal action, a bad deal)."""


def _mix(z: int) -> int:
    """splitmix64's finalizer (never 0: a xorshift generator must not start at 0)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return z or 1


def game_seed(seed: int, index: int) -> int:
    """The dealing generator's state of game ``index`` of a batch seeded ``seed``."""
    return _mix((seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xD1B54A32D192ED03) & _MASK64)


def choice_seed(seed: int, index: int) -> int:
    """The choosing generator's state of that game: another stream of the same key."""
    return _mix(game_seed(seed, index) ^ 0x6A09E667F3BCC909)


def generators(keys: Sequence[tuple[int, int]]) -> npt.NDArray[np.uint64]:
    """``uint64[N, 2]``: each game's dealing and choosing generator states, from its key."""
    return np.array([(game_seed(*key), choice_seed(*key)) for key in keys], np.uint64).reshape(
        len(keys), 2
    )


def option_fields(players: int, options: Options, deals: Deals) -> list[int]:
    row = [0] * k.NUM_FIELDS
    row[k.PLAYERS] = players
    row[k.TARGET] = options.target
    row[k.ONE_HAND] = int(options.one_hand)
    row[k.WINNER_LEADS] = int(options.next_leader == "winner")
    row[k.OWN_DEALS] = int(deals == "own")
    row[k.GOAT] = int(options.goat)
    row[k.COLOURS] = options.colours
    row[k.REMOVAL] = int(options.removal == "any-two")
    row[k.FIXED_LEADER] = -1 if options.first_leader is None else options.first_leader
    return row


def check_count(games: int) -> None:
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise SimError(f"a batch holds 1 to {MAX_GAMES} games, not {games!r}")


def check_seed(seed: int) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimError(f"the seed is a whole number, not {seed!r}")


def game_keys(games: int, seed: int, seeds: Sequence[int] | None) -> list[tuple[int, int]]:
    """Each game's ``(seed, index)``: ``(seed, i)``, or ``(seeds[i], 0)`` when given."""
    check_seed(seed)
    if seeds is None:
        return [(seed, i) for i in range(games)]
    if isinstance(seeds, str | bytes) or not isinstance(seeds, Sequence) or len(seeds) != games:
        raise SimError(f"give one seed a game ({games})")
    for one in seeds:
        check_seed(one)
    return [(one, 0) for one in seeds]


def check_setup(players: int, options: Options, deals: Deals) -> None:
    """Refuse (:class:`SimError`) what no backend plays: bad options, a huge target, bad deals."""
    if not isinstance(options, Options):
        raise SimError(f"options are Options, not {type(options).__name__}")
    if deals not in ("own", "given"):
        raise SimError(f"deals are 'own' or 'given', not {deals!r}")
    try:
        options.check(players)
    except ValueError as error:
        raise SimError(str(error)) from None
    if options.target > MAX_TARGET:
        raise SimError(f"the simulator takes a target up to {MAX_TARGET:,}")


def card_masks(hands: Sequence[int] | npt.NDArray[np.integer], players: int) -> list[int]:
    """``players`` hands given as card masks (ints or NumPy integers), as Python ints."""
    if not isinstance(hands, Sequence | np.ndarray) or len(hands) != players:
        raise SimError(f"give {players} hands, one card mask a seat")
    masks = []
    for hand in hands:
        if isinstance(hand, bool | np.bool_) or not isinstance(hand, int | np.integer):
            raise SimError(f"a hand is a card mask (a whole number), not {hand!r}")
        if hand < 0:
            raise SimError("a card mask is not negative")
        masks.append(int(hand))
    return masks


def _empty_state(games: int) -> k.State:
    return (
        np.zeros((games, k.NUM_FIELDS), np.int64),
        np.zeros((games, k.SEATS), np.int64),
        np.zeros((games, k.SEATS), np.int64),
        np.zeros((games, k.SEATS), np.int64),
        np.zeros((games, k.SEATS), np.int64),
        np.zeros((games, k.SEATS), np.int64),
        np.zeros((games, 2), np.uint64),
    )


class Batch:
    """``N`` games of Odin in arrays; one call steps all of them.

    Make one with :meth:`new` (fresh games, the simulator's own deals) or
    :meth:`from_games` (copies of engine positions, e.g. determinized ones from
    :meth:`Game.from_view <odin_cards.odin.rules.Game.from_view>`). Games may differ in players
    and options. Each game has its own two generators, one for its deals and one for its
    random choices (:meth:`sample_legal`, :meth:`random_play`, random opponents), so a
    game's course depends only on its seed and the actions it is given, never on the rest
    of the batch, and its deals never on how many choices were drawn.
    """

    def __init__(self, state: k.State) -> None:
        self.state = state

    # ------------------------------------------------------------------ set-up

    @classmethod
    def new(
        cls,
        games: int,
        players: int = 4,
        options: Options | None = None,
        seed: int = 0,
        deals: Deals = "own",
        seeds: Sequence[int] | None = None,
    ) -> Batch:
        """``games`` new games of ``players`` with ``options``; game ``i`` seeded from
        ``(seed, i)``, or with ``seeds`` (one a game) from ``(seeds[i], 0)``: the game
        ``new(1, seed=seeds[i])`` would play."""
        check_count(games)
        keys = game_keys(games, seed, seeds)
        options = options if options is not None else Options()
        check_setup(players, options, deals)
        state = _empty_state(games)
        state[0][:] = np.array(option_fields(players, options, deals), np.int64)
        state[6][:] = generators(keys)
        k.new_games(state, np.ones(games, np.bool_), TABLES)
        return cls(state)

    @classmethod
    def from_games(cls, games: Sequence[Game], seed: int = 0, deals: Deals = "own") -> Batch:
        """Copies of engine games, where they stand; later hands dealt as ``deals`` says."""
        if not isinstance(games, Sequence) or not all(isinstance(g, Game) for g in games):
            raise SimError("give a sequence of engine Games")
        check_count(len(games))
        check_seed(seed)
        state = _empty_state(len(games))
        g, hands, hands_n, known, scores, _, rng = state
        for i, game in enumerate(games):
            check_setup(game.players, game.options, deals)
            row = option_fields(game.players, game.options, deals)
            row[k.PHASE] = int(game.phase)
            row[k.TO_MOVE] = game.to_move
            row[k.TABLE] = -1 if game.table is None else game.table.id
            row[k.TABLE_PLAYER] = game.table_player
            row[k.BEATEN] = -1 if game.beaten is None else game.beaten.id
            row[k.PASSES] = game.passes
            row[k.DISCARDS] = game.discards
            row[k.HAND_NUMBER] = game.hand_number
            row[k.HAND_LEADER] = game.hand_leader
            deck = sum(511 << (9 * c) for c in range(6) if c not in game.removed)
            row[k.DECK] = deck | (GOAT_BIT if game.options.goat else 0)
            g[i] = row
            for seat in range(game.players):
                if not 0 <= game.hand(seat).bit_count() <= 9:
                    raise SimError(f"game {i}: seat {seat} holds more than 9 cards")
                hands[i, seat] = game.hand(seat)
                hands_n[i, seat] = k.number_mask(game.hand(seat))
                known[i, seat] = game.known[seat]
                scores[i, seat] = game.scores[seat]
        rng[:] = generators([(seed, i) for i in range(len(games))])
        return cls(state)

    def repeated(self, copies: int, seed: int = 0) -> Batch:
        """A batch of ``copies`` copies of each game in turn (game ``i`` becomes rows
        ``i * copies`` to ``i * copies + copies - 1``), each with its own generator."""
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise SimError(f"copies is a whole number from 1, not {copies!r}")
        check_count(len(self) * copies)
        check_seed(seed)
        g, hands, hands_n, known, scores, hand_points = (
            np.repeat(a, copies, axis=0) for a in self.state[:6]
        )
        rng = generators([(seed, i) for i in range(len(g))])
        return Batch((g, hands, hands_n, known, scores, hand_points, rng))

    # --------------------------------------------------------------- questions

    def __len__(self) -> int:
        return int(self.state[0].shape[0])

    def _field(self, column: int) -> npt.NDArray[np.int64]:
        return self.state[0][:, column].copy()

    @property
    def players(self) -> npt.NDArray[np.int64]:
        return self._field(k.PLAYERS)

    @property
    def to_move(self) -> npt.NDArray[np.int64]:
        """The seat to move in each game; -1 in a game over or waiting for a deal."""
        moving = self.needs_action
        return np.where(moving, self.state[0][:, k.TO_MOVE], -1)

    @property
    def phase(self) -> npt.NDArray[np.int64]:
        """0 lead, 1 follow, 2 take, 3 over, 4 waiting for a given deal."""
        return self._field(k.PHASE)

    @property
    def needs_action(self) -> npt.NDArray[np.bool_]:
        """Games in which a seat is to move."""
        return np.asarray(self.state[0][:, k.PHASE] < k.OVER)

    @property
    def over(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.state[0][:, k.PHASE] == k.OVER)

    @property
    def waiting_for_deal(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.state[0][:, k.PHASE] == k.DEAL)

    @property
    def scores(self) -> npt.NDArray[np.int64]:
        """Points per seat (``[N, 6]``; seats past a game's players hold 0)."""
        return self.state[4].copy()

    @property
    def hand_points(self) -> npt.NDArray[np.int64]:
        """The points of each game's last finished hand (``[N, 6]``)."""
        return self.state[5].copy()

    @property
    def hands_ended(self) -> npt.NDArray[np.int64]:
        """Hands finished in each game since the batch was made (a counter)."""
        return self._field(k.HANDS_ENDED)

    @property
    def hand_number(self) -> npt.NDArray[np.int64]:
        """Hands finished in each game, as :attr:`Game.hand_number` counts them."""
        return self._field(k.HAND_NUMBER)

    @property
    def winners(self) -> npt.NDArray[np.bool_]:
        """``[N, 6]``: the seats sharing victory in each finished game (none while playing)."""
        g, _, _, _, scores, _, _ = self.state
        seats = np.arange(k.SEATS)[None, :] < g[:, k.PLAYERS][:, None]
        best = np.where(seats, scores, np.iinfo(np.int64).max).min(axis=1)
        return np.asarray(seats & (scores == best[:, None]) & self.over[:, None])

    def hands(self, game: GameIndex) -> tuple[int, ...]:
        """The cards of every seat of ``game`` (bitmasks; full state, never show to a seat)."""
        game = self._check_index(game)
        players = int(self.state[0][game, k.PLAYERS])
        return tuple(int(m) for m in self.state[1][game, :players])

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``[N, NUM_ACTIONS]`` booleans: the legal action ids of every game (a new array)."""
        out = np.zeros((len(self), NUM_ACTIONS), np.bool_)
        k.legal_masks(self.state, TABLES, out)
        return out

    def legal_ids(self) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int64]]:
        """Every game's legal ids, ascending: ``ids[i, :counts[i]]`` (``ids`` is
        ``int16[N, MAX_LEGAL]``). Much cheaper than :meth:`legal_mask` for large batches."""
        ids = np.zeros((len(self), MAX_LEGAL), np.int16)
        counts = np.zeros(len(self), np.int64)
        k.legal_lists(self.state, TABLES, ids, counts)
        return ids, counts

    def legal_list(self, game: GameIndex) -> list[int]:
        """The legal ids of one game, ascending (as :meth:`Game.legal_action_ids`)."""
        game = self._check_index(game)
        ids, counts = self.legal_ids()
        return [int(a) for a in ids[game, : counts[game]]]

    def sample_legal(self, which: npt.ArrayLike | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal id for each game to move (-1 for the others; only the
        games ``which`` chooses, a boolean ``[N]`` array, when given), drawn from each
        game's choosing generator: never changes a deal."""
        out = np.empty(len(self), np.int64)
        k.sample_actions(self.state, TABLES, self._chosen(which), out)
        return out

    def _chosen(self, which: npt.ArrayLike | None) -> npt.NDArray[np.bool_]:
        chosen = np.ones(len(self), np.bool_) if which is None else np.asarray(which)
        if chosen.shape != (len(self),) or chosen.dtype != np.bool_:
            raise SimError(f"choose games with a boolean array of shape ({len(self)},)")
        return chosen

    # ----------------------------------------------------------------- changes

    def step(self, actions: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Apply one action id per game (-1 for a game with nobody to move).

        Every action is checked first; one refused action raises :class:`SimError`
        naming the game, and no game changes. Returns which games ended a hand.
        """
        chosen = np.asarray(actions)
        if chosen.shape != (len(self),) or chosen.dtype.kind not in "iu":
            raise SimError(
                f"give one integer action id per game: shape ({len(self)},), not"
                f" {chosen.shape} of {chosen.dtype}"
            )
        chosen = chosen.astype(np.int64)
        bad = k.first_illegal(self.state, TABLES, chosen)
        if bad >= 0:
            raise SimError(self._refusal(bad, int(chosen[bad])))
        before = self.state[0][:, k.HANDS_ENDED].copy()
        k.apply_all(self.state, TABLES, chosen)
        return np.asarray(self.state[0][:, k.HANDS_ENDED] != before)

    def _refusal(self, game: int, action: int) -> str:
        phase = int(self.state[0][game, k.PHASE])
        if phase >= k.OVER:
            why = "is over" if phase == k.OVER else "waits for a deal"
            return f"game {game} {why}: give it -1, not {action}"
        if not 0 <= action < NUM_ACTIONS:
            return f"game {game}: there is no action id {action}"
        return f"game {game}: action id {action} is not legal now"

    def reset(self, which: npt.ArrayLike | None = None) -> None:
        """Start the chosen games (a boolean ``[N]`` array; all by default) afresh."""
        k.new_games(self.state, self._chosen(which), TABLES)

    def play_others(
        self,
        learner: npt.ArrayLike,
        kinds: npt.ArrayLike,
        style: npt.NDArray[np.float64],
        which: npt.ArrayLike | None = None,
    ) -> npt.NDArray[np.int64]:
        """The opponents move: in each chosen game, every seat but ``learner[i]`` plays as
        ``kinds[i, seat]`` says (:data:`HEURISTIC` or :data:`RANDOM`) until ``learner[i]``
        is to move or the game is over. ``style`` is the heuristic's judgement
        (:func:`odin_cards.odin.bots.policy.style_vector`); random seats draw from each
        game's choosing generator. Returns ``int64[N, 6]``: each seat's points in the
        hands that ended meanwhile (summed)."""
        chosen = self._chosen(which)
        seats = np.asarray(learner)
        if seats.shape != (len(self),) or seats.dtype.kind not in "iu":
            raise SimError(f"give one learner seat a game: shape ({len(self)},)")
        seats = seats.astype(np.int64)
        table = np.asarray(kinds)
        if table.shape != (len(self), k.SEATS) or table.dtype.kind not in "iu":
            raise SimError(f"give one kind a seat a game: shape ({len(self)}, {k.SEATS})")
        table = table.astype(np.int64)
        if style.shape != (k.STYLE_FIELDS,) or style.dtype != np.float64:
            raise SimError(f"a style is {k.STYLE_FIELDS} float64 figures")
        players = self.state[0][:, k.PLAYERS]
        seat = np.arange(k.SEATS)[None, :]
        others = (seat < players[:, None]) & (seat != seats[:, None]) & chosen[:, None]
        if not np.isin(table[others], (HEURISTIC, RANDOM)).all():
            raise SimError("every other seat of a chosen game plays as HEURISTIC or RANDOM")
        points = np.zeros((len(self), k.SEATS), np.int64)
        k.play_others(self.state, TABLES, style, table, seats, chosen, points)
        return points

    def deal(self, game: GameIndex, hands: Sequence[int] | npt.NDArray[np.integer]) -> None:
        """Give ``game`` (waiting for a deal) its hands: one card mask per seat."""
        game = self._check_index(game)
        g = self.state[0]
        if g[game, k.PHASE] != k.DEAL:
            raise SimError(f"game {game} is not waiting for a deal")
        players = int(g[game, k.PLAYERS])
        hands = card_masks(hands, players)
        deck = int(g[game, k.DECK])
        seen = 0
        for seat, hand in enumerate(hands):
            if hand < 0 or hand & ~deck:
                raise SimError(f"seat {seat} is dealt cards outside this game's deck")
            if hand.bit_count() != 9:
                raise SimError(f"seat {seat} is dealt {hand.bit_count()} cards, not 9")
            if hand & seen:
                raise SimError(f"seat {seat} is dealt a card dealt before")
            seen |= hand
        if deck & GOAT_BIT and not seen & GOAT_BIT:
            raise SimError("with the Goat in play, X0 is always dealt")
        k.give_hands(self.state, game, np.array([*hands] + [0] * (k.SEATS - players), np.int64))

    def random_play(self, sweeps: int, restart: bool = True) -> int:
        """``sweeps`` rounds of one uniformly random legal action in every game to move.

        Finished games start afresh when ``restart``. Returns the actions applied.
        """
        if isinstance(sweeps, bool) or not isinstance(sweeps, int) or sweeps < 0:
            raise SimError(f"sweeps is a whole number from 0, not {sweeps!r}")
        return int(k.random_actions(self.state, TABLES, sweeps, restart))

    def _check_index(self, game: GameIndex) -> int:
        if (
            isinstance(game, bool)
            or not isinstance(game, int | np.integer)
            or not 0 <= game < len(self)
        ):
            raise SimError(f"there is no game {game!r} in a batch of {len(self)}")
        return int(game)
