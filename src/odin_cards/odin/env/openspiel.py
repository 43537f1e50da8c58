"""Odin as an OpenSpiel game: ``python_odin``, registered with ``pyspiel`` on import.

>>> import pyspiel
>>> import odin_cards.odin.env.openspiel  # registers python_odin
>>> game = pyspiel.load_game("python_odin", {"players": 3, "one_hand": True})
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

**Chance is explicit** (``EXPLICIT_STOCHASTIC``): each hand is dealt card by card, 9 cards
to seat 0, then 9 to seat 1, and so on; a chance outcome is a card index (``docs/actions.md``:
colour * 9 + number - 1, the Goat 54), each remaining card equally likely, except that the
Goat, which is always dealt, comes with probability ``1 / slots left`` while it is undealt
(the engine's deal has exactly this distribution). Before the first deal, two more chance
nodes when the set-up leaves them to chance: the removed colours of a 4-colour game (an
index into :func:`colour_pairs`) and the first leader (a seat). Explicit outcomes, rather
than a sampled seed, are what OpenSpiel's tools need: ``chance_outcomes`` is exact, a
player's information state shows only the cards dealt to it, and ISMCTS can resample the
hidden cards (:meth:`OdinState.resample_from_infostate`).

Player actions are the engine's action ids (6,702). The game is played by the rules
engine through the game contract; the first hand's deal is injected
(``rules_of("odin").new_game(..., chance=[deal])``), each later hand's replaces, once its
chance nodes are done, the deal the engine drew from its seed (:meth:`Game.with_hands`,
at the hand's start, when every seat holds 9 cards).

Returns: each seat's share of the victory (1 split among the winners), given at the end
(constant-sum 1). Parameters: ``players`` (2-6), ``target``, ``one_hand``,
``next_leader`` (``rotate`` or ``winner``), ``first_leader`` (-1: by chance), ``colours``
(6, or 4 with 2 players), ``removal`` and ``goat``, as in :class:`odin_cards.odin.rules.Options`.

Observations: the observation tensor is the flat vector of :mod:`.observation` (598
floats). The information-state *string* is perfect recall: every public action, and the
cards dealt to the observer, in order. So is the information-state *tensor*, in every
variant: two states of a game have equal tensors for a player exactly when they have
equal strings. First the current hand (the one being dealt, or else the last dealt, which
may have just ended): the observation, per seat slot the cards it played in this hand
(6 x 55), the cards dealt to the observer (55) and the order they came in (9 x 55), every
play of the hand in order (:func:`plays_bound` rows of :data:`ROW`: the player's slot, the
cards played, the card taken), and the cards each slot showed at the last hand's end
(6 x 55). Then, in a game of several hands, every hand before the current one, hand ``h``
at a fixed place in each of three pieces of ``hands_bound - 1`` entries: the cards dealt
to the observer in order (9 x 55), the hand's plays in order (as above), the cards each
slot showed at its end (6 x 55). The passes between two plays are implied by who played
next (a hand ends on a play), the removed colours are in the observation's deck, the first
leader led hand 0's first play (or is the current hand's leader while hand 0 is current),
and which past hands are filled says how many hands came before. The size is the one-hand
size plus ``(hands_bound - 1) * (9*55 + plays_bound*116 + 6*55)``: for 2 to 6 players,
19,556 to 52,964 floats in one hand, 539,600 to 884,660 to the default target 15 (more
with the Goat; it grows with the target). The public observation leaves out the
observer's cards; the private one is those cards alone.

Lengths: :func:`plays_bound` and :func:`hands_bound` are true upper bounds (derived in
their docstrings), and ``max_game_length`` is built from them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any, Final

from odin_cards.extras import MissingExtra

try:
    import numpy as np
    import pyspiel
except ImportError as missing:  # not installed: the one line that names the extra
    raise MissingExtra("the OpenSpiel game", "research") from missing

from odin_cards.games import rules_of
from odin_cards.odin.env.observation import (
    DECISIONS,
    FIELDS,
    MAX_TARGET,
    SLOTS,
    DictObs,
    Field,
    blank,
    observe,
    slot_of,
    to_flat,
)
from odin_cards.odin.rules import NUM_ACTIONS, Game, HandEnd, Options, action_from_id
from odin_cards.odin.rules.cards import (
    CARD_TEXT,
    COLOURS,
    GOAT,
    HAND_SIZE,
    NUM_CARDS,
    cards_of,
    deck_mask,
)
from odin_cards.odin.rules.deal import RED_OR_BLACK
from odin_cards.odin.rules.position import HandSampler
from odin_cards.odin.rules.view import make_view

SHORT_NAME: Final = "python_odin"
_PARAMETERS: Final[dict[str, Any]] = {
    "players": 4,
    "target": 15,
    "one_hand": False,
    "next_leader": "rotate",
    "first_leader": -1,
    "colours": 6,
    "removal": "red-or-black",
    "goat": False,
}
ROW: Final = 6 + 2 * NUM_CARDS
"""One play in the information-state tensor's history: the player's slot (one-hot), the
cards played, the card taken afterwards (one-hot; none yet, or none for a lead)."""


def plays_bound(players: int, goat: bool) -> int:
    """A true upper bound on the plays of one hand.

    Every lead sheds one card (a finishing lead all, and ends the hand); a follow of
    ``k`` cards over ``m`` keeps one card back, so it sheds ``k - 1 >= 1`` unless it is a
    single over a single. The cards in hand never grow, and the hand ends with at least
    one card in each seat but one, so leads and shedding follows together are at most
    ``9 * players - (players - 1) = 8 * players + 1``. A single over a single needs a
    higher single, and a round's table is a single only until its first pair: at most 8
    such follows a round (9 with the Goat, whose value 0 can be led), and a round has one
    lead. Hence ``(8 * players + 1) * (1 + 8)`` plays (``* (1 + 9)`` with the Goat).
    """
    return (8 * players + 1) * (10 if goat else 9)


def moves_bound(players: int, goat: bool) -> int:
    """A true upper bound on the player actions of one hand: each play, at most one take
    (a follow that keeps cards), and at most ``players - 1`` passes before the next play or
    the round's end."""
    return plays_bound(players, goat) * (players + 1)


def hands_bound(players: int, target: int, one_hand: bool) -> int:
    """A true upper bound on the hands of a game.

    A hand ends when a seat empties its hand, so every other seat scores at least a point:
    ``players - 1`` points a hand at least. While the game goes on every score is below the
    target, at most ``players * (target - 1)`` points in all; so at most
    ``players * (target - 1) // (players - 1)`` hands end without ending the game, and one
    more ends it.
    """
    if one_hand:
        return 1
    return players * (target - 1) // (players - 1) + 1


def game_length_bound(
    players: int, target: int, one_hand: bool, goat: bool, chance_set_up: int
) -> int:
    """``max_game_length``: the set-up's chance nodes, then per hand its deal (one chance
    node a card) and at most :func:`moves_bound` player actions."""
    hands = hands_bound(players, target, one_hand)
    return chance_set_up + hands * (HAND_SIZE * players + moves_bound(players, goat))


_GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Odin (odin-cards)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification=_PARAMETERS,
)


def colour_pairs(removal: str) -> tuple[tuple[int, int], ...]:
    """The pairs of colours a 4-colour game may leave out, in chance-outcome order."""
    if removal == "any-two":
        return tuple(itertools.combinations(range(6), 2))
    others = [c for c in range(6) if c not in RED_OR_BLACK]
    return tuple((min(rb, other), max(rb, other)) for rb in RED_OR_BLACK for other in others)


class OdinGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """The game ``python_odin`` with its parameters (see the module's docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_PARAMETERS, **(params or {})}
        players = int(values["players"])
        first = int(values["first_leader"])
        self.options = Options(
            target=int(values["target"]),
            one_hand=bool(values["one_hand"]),
            next_leader=str(values["next_leader"]),  # type: ignore[arg-type]
            first_leader=None if first < 0 else first,
            colours=int(values["colours"]),
            goat=bool(values["goat"]),
            removal=str(values["removal"]),  # type: ignore[arg-type]
        )
        self.setup = rules_of("odin").check_setup(players, self.options.to_dict())
        if self.options.target > MAX_TARGET:
            raise ValueError(f"python_odin takes a target up to {MAX_TARGET}")
        self.players = players
        self.plays = plays_bound(players, self.options.goat)
        """Rows of the information-state tensor's history (:func:`plays_bound`)."""
        chance_set_up = int(self.options.colours == 4) + int(first < 0)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=game_length_bound(
                players,
                self.options.target,
                self.options.one_hand,
                self.options.goat,
                chance_set_up,
            ),
        )
        super().__init__(_GAME_TYPE, info, values)
        self.pairs = colour_pairs(self.options.removal) if self.options.colours == 4 else ()
        self._seeds: dict[tuple[int, ...], int] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> OdinGame:
        return self  # immutable: states share their game

    def seed_for(self, removed: tuple[int, ...]) -> int:
        """A seed whose game leaves out the colours ``removed`` (the engine draws them from
        its seed; every deal is chance's, the first injected and each later one replacing
        the engine's, and the first leader is set, so the seed decides nothing else)."""
        if removed not in self._seeds:
            rules = rules_of("odin")
            setup = {**self.setup, "first_leader": 0}
            for seed in itertools.count():
                game = rules.new_game(self.players, setup, seed)
                assert isinstance(game, Game)
                self._seeds.setdefault(game.removed, seed)
                if removed in self._seeds:
                    break
        return self._seeds[removed]

    def new_initial_state(self) -> OdinState:
        return OdinState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> OdinObserver:
        if params:
            raise ValueError(f"python_odin takes no observation parameters, not {params}")
        return OdinObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            self.players,
            self.plays,
            hands_bound(self.players, self.options.target, self.options.one_hand),
        )


class Progress:
    """Everything of a state that changes: copied quickly (OpenSpiel clones a Python state
    by deep-copying its attributes; the engine's :meth:`Game.clone` is much faster)."""

    __slots__ = (
        "removed",
        "leader",
        "dealt",
        "deals",
        "engine",
        "moves",
        "tokens",
        "plays",
        "shown",
        "past",
    )

    def __init__(self, removed: tuple[int, ...] | None, leader: int | None) -> None:
        self.removed = removed
        """The colours left out (``None`` until chance chose them)."""
        self.leader = leader
        """The first leader (``None`` until chance chose it)."""
        self.dealt: list[int] = []
        """Cards dealt so far in the hand being dealt, in order (seat 0's nine first)."""
        self.deals: list[list[int]] = []
        """Each hand's deal, in chance order."""
        self.engine: Game | None = None
        self.moves: list[tuple[int, int, int]] = []
        """(hand, seat, action id) of every player action, for the information states."""
        self.tokens: list[tuple[int, str]] = []
        """The history as seen by each player: (-1, public text) or (seat, a card dealt to it)."""
        self.plays: list[tuple[int, int, int]] = []
        """(seat, cards played, card taken or -1) of every play of the current hand."""
        self.shown: tuple[int, ...] = ()
        """Every seat's cards left at the last hand's end (bitmasks), once one ended."""
        self.past: list[tuple[tuple[tuple[int, int, int], ...], tuple[int, ...]]] = []
        """Each ended hand's plays (as :attr:`plays`) and the cards every seat showed at its
        end, in order."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Progress:
        other = Progress(self.removed, self.leader)
        other.dealt = self.dealt[:]
        other.deals = self.deals[:]  # each deal is never changed once made
        other.engine = None if self.engine is None else self.engine.clone()
        other.moves = self.moves[:]
        other.tokens = self.tokens[:]
        other.plays = self.plays[:]
        other.shown = self.shown
        other.past = self.past[:]  # each ended hand's record is never changed
        return other


class OdinState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A position of ``python_odin``: chance nodes for the deals, the engine for the rest."""

    def __init__(self, game: OdinGame) -> None:
        super().__init__(game)
        self.odin = game
        self.players = game.players
        self.progress = Progress(None if game.pairs else (), game.options.first_leader)

    @property
    def removed(self) -> tuple[int, ...] | None:
        return self.progress.removed

    @property
    def leader(self) -> int | None:
        return self.progress.leader

    @property
    def dealt(self) -> list[int]:
        return self.progress.dealt

    @property
    def deals(self) -> list[list[int]]:
        return self.progress.deals

    @property
    def engine(self) -> Game | None:
        return self.progress.engine

    @property
    def moves(self) -> list[tuple[int, int, int]]:
        return self.progress.moves

    @property
    def tokens(self) -> list[tuple[int, str]]:
        return self.progress.tokens

    # -------------------------------------------------------------- questions

    def _dealing(self) -> bool:
        engine = self.engine
        return self.removed is None or self.leader is None or engine is None or bool(self.dealt)

    def current_player(self) -> int:
        engine = self.engine
        if engine is not None and engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._dealing() or self._between_hands():
            return int(pyspiel.PlayerId.CHANCE)
        assert engine is not None
        return engine.to_move

    def _between_hands(self) -> bool:
        """A hand just ended: the engine dealt the next from its seed, chance deals it here."""
        engine = self.engine
        return (
            engine is not None and not engine.is_over and engine.hand_number + 1 > len(self.deals)
        )

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return self.engine.legal_action_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.removed is None:
            pairs = self.odin.pairs
            return [(i, 1.0 / len(pairs)) for i in range(len(pairs))]
        if self.leader is None:
            return [(seat, 1.0 / self.players) for seat in range(self.players)]
        left = self._undealt()
        slots = HAND_SIZE * self.players - len(self.dealt)
        if GOAT in left and len(left) > slots:
            if slots == 1:  # the last place, and the Goat is always dealt
                return [(GOAT, 1.0)]
            goat = 1.0 / slots
            rest = (1.0 - goat) / (len(left) - 1)
            return [(card, goat if card == GOAT else rest) for card in left]
        return [(card, 1.0 / len(left)) for card in left]

    def _undealt(self) -> list[int]:
        deck = deck_mask(
            (c for c in range(6) if c not in (self.removed or ())), self.odin.options.goat
        )
        for card in self.dealt:
            deck &= ~(1 << card)
        return sorted(cards_of(deck))

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_over

    def returns(self) -> list[float]:
        engine = self.engine
        if engine is None or engine.outcome is None:
            return [0.0] * self.players
        winners = engine.outcome.winners
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.players)]

    # ---------------------------------------------------------------- changes

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._chance(int(action))
            return
        engine = self.engine
        assert engine is not None
        seat = engine.to_move
        events = engine.apply(int(action))
        move = action_from_id(int(action))
        self.moves.append((len(self.deals) - 1, seat, int(action)))
        self.tokens.append((-1, f"{seat}:{move.text}"))
        plays = self.progress.plays
        if move.is_play:
            plays.append((seat, move.mask, -1))
        elif move.is_take:
            played, mask, _ = plays[-1]
            plays[-1] = (played, mask, cards_of(move.mask)[0])
        for event in events:
            if isinstance(event, HandEnd):  # every seat's cards left are shown
                self.progress.shown = event.hands
                self.progress.past.append((tuple(plays), event.hands))
                for shown, left in enumerate(event.hands):
                    cards = ",".join(CARD_TEXT[c] for c in cards_of(left)) or "-"
                    self.tokens.append((-1, f"{shown}:shows:{cards}"))

    def _chance(self, outcome: int) -> None:
        if self.removed is None:
            removed = self.progress.removed = self.odin.pairs[outcome]
            self.tokens.append((-1, "out:" + "".join(COLOURS[c] for c in removed)))
            return
        if self.leader is None:
            self.progress.leader = outcome
            self.tokens.append((-1, f"leader:{outcome}"))
            return
        if not self.dealt:  # a new hand: its plays start afresh
            self.progress.plays = []
        self.tokens.append((len(self.dealt) // HAND_SIZE, CARD_TEXT[outcome]))
        self.dealt.append(outcome)
        if len(self.dealt) == HAND_SIZE * self.players:
            self._start_hand(self.dealt)
            self.progress.dealt = []

    def _start_hand(self, order: Sequence[int]) -> None:
        hands = [0] * self.players
        for index, card in enumerate(order):
            hands[index // HAND_SIZE] |= 1 << card
        self.deals.append(list(order))
        if self.engine is None:
            setup = {**self.odin.setup, "first_leader": self.leader}
            seed = self.odin.seed_for(self.removed or ())
            cards = [[CARD_TEXT[c] for c in cards_of(h)] for h in hands]
            engine = rules_of("odin").new_game(self.players, setup, seed, chance=[cards])
            assert isinstance(engine, Game)
            self.progress.engine = engine
        else:
            self.progress.engine = self.engine.with_hands(hands, history=False)

    # ---------------------------------------------------------------- reading

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.removed is None:
                return "leave out " + "".join(COLOURS[c] for c in self.odin.pairs[action])
            if self.leader is None:
                return f"first leader {action}"
            seat = len(self.dealt) // HAND_SIZE
            return f"deal {CARD_TEXT[action]} to {seat}"
        return action_from_id(action).text

    def hand_of(self, seat: int) -> list[int]:
        """The cards dealt so far to ``seat`` in the hand being dealt."""
        return self.dealt[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]

    def observation(self, player: int) -> DictObs:
        """The dict observation of ``player`` (while dealing: what it knows so far)."""
        engine = self.engine
        if engine is not None and not self._dealing() and not self._between_hands():
            return observe(make_view(engine, player, history=False))
        obs = blank()
        for card in self.hand_of(player):
            obs["hand"][card] = 1
        if self.removed is not None:
            for colour in range(6):
                if colour not in self.removed:
                    obs["deck"][colour * 9 : colour * 9 + 9] = 1
            obs["deck"][GOAT] = int(self.odin.options.goat)
        for seat in range(self.players):
            slot = slot_of(seat, player, self.players)
            obs["seats"][slot] = 1
            obs["hand_sizes"][slot] = len(self.hand_of(seat))
            obs["scores"][slot] = engine.scores[seat] if engine is not None else 0
        if engine is not None:
            obs["hand_leader"][slot_of(engine.hand_leader, player, self.players)] = 1
        elif self.leader is not None:
            obs["hand_leader"][slot_of(self.leader, player, self.players)] = 1
        if engine is not None and engine.is_over:
            obs["decision"][DECISIONS.index("over")] = 1
        obs["target"][0] = self.odin.options.target
        obs["one_hand"][0] = int(self.odin.options.one_hand)
        return obs

    def played(self, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """Per slot (seen from ``player``), the cards it played in the current hand."""
        played = np.zeros((SLOTS, NUM_CARDS), dtype=np.float32)
        hand = len(self.deals) - 1
        for number, seat, action in reversed(self.moves):
            if number != hand:
                break
            move = action_from_id(action)
            if move.is_play:
                played[slot_of(seat, player, self.players), cards_of(move.mask)] = 1
        return played

    def write_history(
        self,
        player: int,
        rows: np.ndarray[Any, np.dtype[np.float32]],
        shown: np.ndarray[Any, np.dtype[np.float32]],
    ) -> None:
        """The current hand's plays in order into ``rows`` (one :data:`ROW` each), and the
        cards each slot showed at the last hand's end into ``shown`` (seen from ``player``)."""
        self._write_plays(player, self.progress.plays, rows)
        self._write_shown(player, self.progress.shown, shown)

    def ended_before(self) -> int:
        """How many hands came before the current one (the hand being dealt, or else the
        last dealt, which may have just ended): the hands :meth:`write_past` writes."""
        return len(self.deals) if self.dealt else max(len(self.deals) - 1, 0)

    def write_past(
        self,
        player: int,
        dealt: np.ndarray[Any, np.dtype[np.float32]] | None,
        rows: np.ndarray[Any, np.dtype[np.float32]] | None,
        shown: np.ndarray[Any, np.dtype[np.float32]] | None,
    ) -> None:
        """Every hand before the current one, hand ``h`` at index ``h`` (each piece left
        out where ``None``): the cards dealt to ``player`` in order into ``dealt``, the
        hand's plays in order into ``rows``, the cards each slot showed at its end into
        ``shown``."""
        for hand in range(self.ended_before()):
            plays, left = self.progress.past[hand]
            if dealt is not None:
                order = self.deals[hand][player * HAND_SIZE : (player + 1) * HAND_SIZE]
                dealt[hand, range(HAND_SIZE), order] = 1
            if rows is not None:
                self._write_plays(player, plays, rows[hand])
            if shown is not None:
                self._write_shown(player, left, shown[hand])

    def _write_plays(
        self,
        player: int,
        plays: Sequence[tuple[int, int, int]],
        rows: np.ndarray[Any, np.dtype[np.float32]],
    ) -> None:
        for row, (seat, mask, taken) in zip(rows, plays, strict=False):
            row[slot_of(seat, player, self.players)] = 1
            row[[SLOTS + c for c in cards_of(mask)]] = 1
            if taken >= 0:
                row[SLOTS + NUM_CARDS + taken] = 1

    def _write_shown(
        self, player: int, left: Sequence[int], shown: np.ndarray[Any, np.dtype[np.float32]]
    ) -> None:
        for seat, cards in enumerate(left):
            shown[slot_of(seat, player, self.players), cards_of(cards)] = 1

    def dealt_to(self, player: int) -> list[int]:
        """The cards dealt to ``player`` in the current hand (or the one being dealt), in
        the order they were dealt."""
        if self.dealt or not self.deals:
            return self.hand_of(player)
        return self.deals[-1][player * HAND_SIZE : (player + 1) * HAND_SIZE]

    def information_string(self, player: int) -> str:
        """Perfect recall: every public action and every card dealt to ``player``, in order."""
        words = [f"p{player}"]
        for owner, text in self.tokens:
            if owner < 0:
                words.append(text)
            elif owner == player:
                words.append(f"got:{text}")
            else:
                words.append(f"{owner}:dealt")
        return " ".join(words)

    def __str__(self) -> str:
        engine = self.engine
        if self._dealing() or engine is None:
            dealt = " | ".join(
                " ".join(CARD_TEXT[c] for c in self.hand_of(s)) for s in range(self.players)
            )
            return f"dealing hand {len(self.deals) + 1}: {dealt}"
        hands = " | ".join(
            " ".join(CARD_TEXT[c] for c in cards_of(engine.hand(s))) for s in range(self.players)
        )
        table = " ".join(make_view(engine, None, history=False).table) or "-"
        return (
            f"hand {engine.hand_number + (0 if engine.is_over else 1)}, scores {engine.scores},"
            f" table {table}, {engine.decision or 'over'}; hands: {hands}"
        )

    # ---------------------------------------------------------- resampling

    def resample_from_infostate(self, player: int, sampler: Any) -> OdinState:
        """A state ``player`` cannot tell from this one, the hidden cards drawn at random.

        Only the current hand's deal is hidden (at a hand's end every seat's cards left
        are shown, so earlier deals are public). The other seats' hands are drawn by the
        rules' :class:`HandSampler` from ``player``'s view, each seat's dealt hand found by
        undoing its moves of this hand, and the whole history replayed with that deal.
        """
        engine = self.engine
        if engine is None or self._dealing() or self._between_hands() or engine.is_over:
            return self._resample_dealing(player, sampler)
        rng = random.Random(int(sampler() * 2**53))
        hands = HandSampler.of(make_view(engine, player, history=False)).draw(rng)
        hand = len(self.deals) - 1
        for number, seat, action in reversed(self.moves):
            if number != hand:
                break
            move = action_from_id(action)
            if move.is_play:
                hands[seat] |= move.mask
            elif move.is_take:
                hands[seat] &= ~move.mask
        order = list(self.deals[hand])
        for seat in range(self.players):
            if seat != player:
                order[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] = cards_of(hands[seat])
        return self._replayed(hand, order)

    def _resample_dealing(self, player: int, sampler: Any) -> OdinState:
        """While a hand is dealt: the cards dealt so far to the others, redrawn.

        The engine's deal places the Goat (when in play) uniformly among the dealt places
        and the other cards uniformly; so given ``player``'s cards, the Goat (unless it is
        one of them) is in one of the others' places dealt so far with probability
        (those places) / (every place but the player's dealt ones).
        """
        if not self.dealt:
            return self._replayed(None, None)
        rng = random.Random(int(sampler() * 2**53))
        mine = set(self.hand_of(player))
        places = [i for i in range(len(self.dealt)) if i // HAND_SIZE != player]
        pool = [c for c in self._undealt() + self.dealt if c not in mine and c != GOAT]
        rng.shuffle(pool)
        goat_free = self.odin.options.goat and GOAT not in mine
        if goat_free and rng.random() < len(places) / (HAND_SIZE * self.players - len(mine)):
            pool[rng.randrange(len(places))] = GOAT
        order = list(self.dealt)
        for place, card in zip(places, pool, strict=False):
            order[place] = card
        return self._replayed(len(self.deals), order)

    def _replayed(self, hand: int | None, order: list[int] | None) -> OdinState:
        """This game replayed from the start with hand ``hand`` dealt as ``order``."""
        state: OdinState = self.get_game().new_initial_state()
        deals = [list(d) for d in self.deals]
        if hand is not None and order is not None and hand < len(deals):
            deals[hand] = order
        partial = order if hand == len(self.deals) else self.dealt
        number = 0
        for action in self.history():
            if state.is_chance_node() and state.removed is not None and state.leader is not None:
                if number < len(deals):
                    card = deals[number][len(state.dealt)]
                else:
                    assert partial is not None
                    card = partial[len(state.dealt)]
                state.apply_action(card)
                if not state.dealt:
                    number += 1
            else:
                state.apply_action(action)
        return state


class OdinObserver:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, iig_obs_type: Any, players: int, plays: int, hands: int) -> None:
        self.players = players
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.recall = bool(iig_obs_type.perfect_recall)
        pieces: list[tuple[str, tuple[int, ...]]] = []
        if self.public:
            pieces += [(f.name, f.shape) for f in _fields_of(self.private)]
            if self.recall:
                pieces.append(("played", (SLOTS, NUM_CARDS)))
        if self.private and (self.recall or not self.public):
            pieces.append(("dealt", (NUM_CARDS,)))
        if self.private and self.recall:
            pieces.append(("dealt_order", (HAND_SIZE, NUM_CARDS)))
        if self.public and self.recall:
            pieces.append(("history", (plays, ROW)))
            pieces.append(("shown", (SLOTS, NUM_CARDS)))
        past = hands - 1  # hands before the current one, at most
        if self.private and self.recall and past:
            pieces.append(("past_dealt_order", (past, HAND_SIZE, NUM_CARDS)))
        if self.public and self.recall and past:
            pieces.append(("past_history", (past, plays, ROW)))
            pieces.append(("past_shown", (past, SLOTS, NUM_CARDS)))
        # Each piece is one slice of the tensor, in order: OpenSpiel's C++ side builds the
        # tensor from the pieces of ``dict`` one after the other.
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        start = 0
        for name, shape in pieces:
            stop = start + int(np.prod(shape))
            self.dict[name] = self.tensor[start:stop].reshape(shape)
            start = stop

    def set_from(self, state: OdinState, player: int) -> None:
        self.tensor.fill(0)
        if self.public:
            flat = to_flat(state.observation(player))
            for field in _fields_of(self.private):
                self.dict[field.name][...] = flat[field.start : field.stop].reshape(field.shape)
            if self.recall:
                self.dict["played"][...] = state.played(player)
        dealt = state.dealt_to(player)
        if "dealt" in self.dict:
            self.dict["dealt"][dealt] = 1
        if "dealt_order" in self.dict:
            self.dict["dealt_order"][range(len(dealt)), dealt] = 1
        if "history" in self.dict:
            state.write_history(player, self.dict["history"], self.dict["shown"])
        if self.recall:
            state.write_past(
                player,
                self.dict.get("past_dealt_order"),
                self.dict.get("past_history"),
                self.dict.get("past_shown"),
            )

    def string_from(self, state: OdinState, player: int) -> str:
        if self.recall and self.public:
            text = state.information_string(player)
            return text if self.private else _hide_dealt(text, player)
        if not self.public:
            return "dealt: " + " ".join(CARD_TEXT[c] for c in state.dealt_to(player))
        obs = state.observation(player)
        parts = [f"p{player}"]
        if self.private:
            parts.append("hand:" + _cards(obs["hand"]))
        for name in ("table", "beaten", "discards"):
            if obs[name].any():
                parts.append(f"{name}:{_cards(obs[name])}")
        for slot in range(1, self.players):
            if obs["known"][slot - 1].any():
                parts.append(f"known{slot}:{_cards(obs['known'][slot - 1])}")
        parts.append("sizes:" + ",".join(str(n) for n in obs["hand_sizes"][: self.players]))
        parts.append("scores:" + ",".join(str(n) for n in obs["scores"][: self.players]))
        decision = [d for d, flag in zip(DECISIONS, obs["decision"], strict=True) if flag]
        parts.append("decision:" + (decision[0] if decision else "deal"))
        if obs["passed"].any():
            parts.append("passed:" + ",".join(str(s) for s in np.flatnonzero(obs["passed"])))
        return " ".join(parts)


def _fields_of(private: bool) -> list[Field]:
    return [f for f in FIELDS if private or f.name != "hand"]


def _cards(flags: np.ndarray[Any, Any]) -> str:
    return " ".join(CARD_TEXT[c] for c in np.flatnonzero(flags))


def _hide_dealt(text: str, player: int) -> str:
    return " ".join(
        f"{player}:dealt" if word.startswith("got:") else word for word in text.split()[1:]
    )


pyspiel.register_game(_GAME_TYPE, OdinGame)

__all__ = [
    "ROW",
    "SHORT_NAME",
    "OdinGame",
    "OdinObserver",
    "OdinState",
    "colour_pairs",
    "game_length_bound",
    "hands_bound",
    "moves_bound",
    "plays_bound",
]
