"""The id space of In the Name of Odin's actions: every action a game can ever ask, numbered.

Learning agents need a fixed, finite set of actions with a legal mask, as Odin's
(``docs/actions.md``). Here the actions name cards of the card set (``hero ulf WH TH``,
``raid lindisfarne karvi W T``), so the space is the card set's: an :class:`ActionSpace`
is built from a :class:`~.cards.CardSet` and depends on it only through its numbers of
buildings, heroes, longships and raids (a card's index is its place in the set's list of
its type), the dearest hero slot and the most vikings a raid can ask. The layout, block by
block, is ``docs/name-of-odin/actions.md``; the actions that name no card come first and
have the same ids in every card set.

Payments, recruits and the vikings sent on a raid are multisets of three kinds (the three
cards showing an action symbol, the three of a viking type, the three viking types). Such a
multiset is numbered by its rank in :data:`MULTISETS` (by size, then lexicographically),
so its number does not depend on the largest size a block allows. A payment that may add a
building symbol (``+C``, ``+H``, ``+N``) is a multiset of up to ``n`` cards or, with the
symbol, of up to ``n - 1`` cards (the symbol never pays alone).

Every action that can be legal has an id (the tests play many games to check it); text
that reads as an action but can never be legal (``recruit WH TH``, a payment with the wrong
symbol, a card this set does not have) has none: :meth:`ActionSpace.id_of` refuses it.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import combinations_with_replacement
from math import comb
from typing import Final

from odin_cards.name_of_odin.rules.actions import Action
from odin_cards.name_of_odin.rules.cards import MAX_PLAYERS, CardSet
from odin_cards.name_of_odin.rules.errors import MalformedActionError, brief
from odin_cards.name_of_odin.rules.symbols import (
    ACTIONS,
    BUILDING_KINDS,
    CARD_CODES,
    COSTS,
    VIKINGS,
)

MAX_MULTISET: Final = 10
"""The largest multiset an action holds: a raid's 9 vikings (the card format's most) plus
its zone's marker; a payment is at most the dearest cost (9, a hero slot's most)."""
MULTISETS: Final = tuple(
    combo
    for size in range(1, MAX_MULTISET + 1)
    for combo in combinations_with_replacement(range(3), size)
)
"""Every multiset of the kinds 0, 1, 2 with 1 to :data:`MAX_MULTISET` members (as sorted
tuples), by size, then lexicographically: ``(0,) (1,) (2,) (0, 0) (0, 1) ...``."""
_RANK: Final = {combo: rank for rank, combo in enumerate(MULTISETS)}

PAYMENT_SIZES: Final = {"material": len(BUILDING_KINDS), **COSTS}
"""The dearest cost of each payment but a hero's (which is the dearest hero slot's): a
material costs one more than the village's buildings and materials, which are fewer than
its plots (one per building kind, 5) together; the others cost the rulebook's
:data:`~.symbols.COSTS`. A discount only makes a payment smaller."""
SYMBOL: Final = {
    "hero": "H",
    "build": "C",
    "material": "C",
    "ship": "N",
    "return": "N",
    "repair": "N",
}
"""The action symbol each payment is made of; the building symbol it may add is the same
(``+H``, ``+C``, ``+N``)."""

RECRUIT_SIZE: Final = 3
"""Recruiting spends one to three cards of one viking type."""

NO_CARD_VERBS: Final = ("end", "stop", "pass", "done")
ONE_CARD_VERBS: Final = ("refresh", "modify", "match", "pick")


def multisets(largest: int) -> int:
    """How many multisets of three kinds have 1 to ``largest`` members."""
    return comb(largest + 3, 3) - 1


def payments(largest: int) -> int:
    """How many payments of up to ``largest`` cards there are, a building symbol or not."""
    return multisets(largest) + multisets(largest - 1)


class ActionSpace:
    """The ids of every action a game with one card set can ask; see the module docstring.

    Immutable once built, and shared by every copy of a game (it is the card set's, not
    the game's).
    """

    __slots__ = (
        "_blocks",
        "_firsts",
        "_index",
        "_verbs",
        "buildings",
        "heroes",
        "raids",
        "ships",
        "size",
    )

    def __init__(self, cards: CardSet) -> None:
        self.buildings: tuple[str, ...] = tuple(b.id for b in cards.buildings)
        self.heroes: tuple[str, ...] = tuple(h.id for h in cards.heroes)
        self.ships: tuple[str, ...] = tuple(s.id for s in cards.ships)
        self.raids: tuple[str, ...] = tuple(r.id for r in cards.raids)
        self._index: dict[str, int] = {
            card_id: n
            for ids in (self.buildings, self.heroes, self.ships, self.raids)
            for n, card_id in enumerate(ids)
        }
        hero_cost = max(slot.cost for slot in cards.board.hero_slots)
        marker = 1 if any(zone.marker for zone in cards.board.ocean) else 0
        sent = max(len(r.vikings) for r in cards.raids) + marker
        sizes = {**PAYMENT_SIZES, "hero": hero_cost, "recruit": RECRUIT_SIZE, "raid": sent}
        blocks: list[tuple[str, int, int]] = []  # (verb, first id, how many)

        def block(verb: str, count: int) -> None:
            start = blocks[-1][1] + blocks[-1][2] if blocks else 0
            blocks.append((verb, start, count))

        for verb in NO_CARD_VERBS:
            block(verb, 1)
        for verb in ONE_CARD_VERBS:
            block(verb, len(CARD_CODES))
        block("swap", len(CARD_CODES) * (len(CARD_CODES) - 1))
        block("recruit", len(VIKINGS) * multisets(RECRUIT_SIZE))
        block("release", len(VIKINGS))
        block("take", MAX_PLAYERS)
        block("material", payments(sizes["material"]))
        block("hero", len(self.heroes) * payments(sizes["hero"]))
        block("ability", 1 + len(self.ships))
        block("build", len(self.buildings) * payments(sizes["build"]))
        for verb in ("ship", "return", "repair"):
            block(verb, len(self.ships) * payments(sizes[verb]))
        block("raid", len(self.raids) * len(self.ships) * multisets(sent))
        self._blocks: dict[str, tuple[int, int, int]] = {
            verb: (start, count, sizes.get(verb, 0)) for verb, start, count in blocks
        }
        """verb -> (first id, how many, the largest multiset of its payments or vikings)."""
        self._firsts: list[int] = [start for _, start, _ in blocks]
        self._verbs: list[str] = [verb for verb, _, _ in blocks]
        self.size: int = blocks[-1][1] + blocks[-1][2]
        """How many ids there are: ``0 .. size - 1``."""

    def layout(self) -> list[tuple[str, int, int]]:
        """The blocks of ids in order: (verb, first id, how many)."""
        return [(verb, start, count) for verb, (start, count, _) in self._blocks.items()]

    # --- action -> id -----------------------------------------------------------------------

    def id_of(self, action: Action) -> int:
        """The id of ``action``; :class:`MalformedActionError` for one that is never legal."""
        block = self._blocks.get(action.verb)
        offset = None
        if block is not None:
            try:
                offset = self._offset(action.verb, action.args, block[2])
            except (KeyError, ValueError):
                offset = None
        if block is None or offset is None:
            raise MalformedActionError(f"{action.text!r} is no action of this card set's game")
        return block[0] + offset

    def _offset(self, verb: str, args: tuple[str, ...], largest: int) -> int | None:
        """The place of (``verb``, ``args``) in the verb's block; ``None`` if it has none.

        Unknown cards and wrong numbers of arguments raise ``KeyError`` or ``ValueError``.
        """
        if verb in NO_CARD_VERBS:
            return None if args else 0
        if verb in ONE_CARD_VERBS:
            (card,) = args
            return _CARD[card]
        if verb == "swap":
            mine, theirs = args
            return _SWAP[mine, theirs]
        if verb == "recruit":
            viking = args[0][0]
            if any(c not in _CARD or c[0] != viking for c in args):
                return None
            rank = _rank(tuple(ACTIONS.index(c[1]) for c in args), largest)
            return None if rank is None else VIKINGS.index(viking) * multisets(largest) + rank
        if verb == "release":
            (viking,) = args
            return VIKINGS.index(viking)
        if verb == "take":
            (seat,) = args
            return _SEAT[seat]
        if verb == "material":
            return self._payment(verb, args, largest)
        if verb == "ability":
            return 1 + self._card(args[0], self.ships) if args else 0
        if verb == "raid":
            raid = self._card(args[0], self.raids)
            ship = self._card(args[1], self.ships)
            rank = _rank(tuple(VIKINGS.index(v) for v in args[2:]), largest)
            if rank is None:
                return None
            return (raid * len(self.ships) + ship) * multisets(largest) + rank
        index = self._card(args[0], self._cards_of(verb))
        payment = self._payment(verb, args[1:], largest)
        return None if payment is None else index * payments(largest) + payment

    def _cards_of(self, verb: str) -> tuple[str, ...]:
        """The cards of the set that ``verb`` (``hero``, ``build`` or a longship's) names."""
        return self.heroes if verb == "hero" else self.buildings if verb == "build" else self.ships

    def _card(self, card_id: str, ids: tuple[str, ...]) -> int:
        index = self._index[card_id]
        if ids[index] != card_id:
            raise KeyError(card_id)
        return index

    def _payment(self, verb: str, args: tuple[str, ...], largest: int) -> int | None:
        symbol = SYMBOL[verb]
        bonus = args[-1:] == ("+" + symbol,)
        cards = args[:-1] if bonus else args
        if any(c not in _CARD or c[1] != symbol for c in cards):
            return None
        rank = _rank(tuple(VIKINGS.index(c[0]) for c in cards), largest - bonus)
        return None if rank is None else rank + bonus * multisets(largest)

    # --- id -> action -----------------------------------------------------------------------

    def action(self, action_id: int) -> Action:
        """The action whose id is ``action_id`` (in this space); :class:`MalformedActionError`
        for anything else."""
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise MalformedActionError(f"an action id is a whole number, not {brief(action_id)}")
        if not 0 <= action_id < self.size:
            raise MalformedActionError(f"there is no action with id {action_id}")
        verb = self._verbs[bisect_right(self._firsts, action_id) - 1]
        start, _, largest = self._blocks[verb]
        return Action(verb, self._args(verb, action_id - start, largest), self)

    def _args(self, verb: str, offset: int, largest: int) -> tuple[str, ...]:
        """The arguments of the action at ``offset`` in the block of ``verb``."""
        if verb in NO_CARD_VERBS:
            return ()
        if verb in ONE_CARD_VERBS:
            return (CARD_CODES[offset],)
        if verb == "swap":
            return _SWAPS[offset]
        if verb == "recruit":
            viking, rank = divmod(offset, multisets(largest))
            return tuple(VIKINGS[viking] + ACTIONS[k] for k in MULTISETS[rank])
        if verb == "release":
            return (VIKINGS[offset],)
        if verb == "take":
            return (str(offset),)
        if verb == "material":
            return self._unpayment(verb, offset, largest)
        if verb == "ability":
            return () if offset == 0 else (self.ships[offset - 1],)
        if verb == "raid":
            pair, rank = divmod(offset, multisets(largest))
            raid, ship = divmod(pair, len(self.ships))
            return (self.raids[raid], self.ships[ship], *(VIKINGS[k] for k in MULTISETS[rank]))
        index, payment = divmod(offset, payments(largest))
        return (self._cards_of(verb)[index], *self._unpayment(verb, payment, largest))

    def _unpayment(self, verb: str, offset: int, largest: int) -> tuple[str, ...]:
        symbol = SYMBOL[verb]
        plain = multisets(largest)
        bonus = offset >= plain
        kinds = MULTISETS[offset - plain if bonus else offset]
        cards = tuple(VIKINGS[k] + symbol for k in kinds)
        return (*cards, "+" + symbol) if bonus else cards


def _rank(kinds: tuple[int, ...], largest: int) -> int | None:
    """The rank of a sorted multiset of kinds with 1 to ``largest`` members, else ``None``."""
    if not 1 <= len(kinds) <= largest or list(kinds) != sorted(kinds):
        return None
    return _RANK[kinds]


_CARD: Final = {code: n for n, code in enumerate(CARD_CODES)}
_SWAPS: Final = tuple((a, b) for a in CARD_CODES for b in CARD_CODES if a != b)
_SWAP: Final = {pair: n for n, pair in enumerate(_SWAPS)}
_SEAT: Final = {str(seat): seat for seat in range(MAX_PLAYERS)}
