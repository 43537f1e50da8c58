"""Actions as text: the notation of In the Name of Odin (see docs/name-of-odin/RULES.md).

Every action is a verb and its arguments separated by single spaces. Action cards are
written by code (``WH``, ``SN``) in canonical order; ``+C``, ``+H``, ``+N`` at the end of a
payment means "and the symbol of my forge / Jarl's house / shipyard". Other cards are
written by their id from the card set. :func:`parse` reads any spacing and letter case
and returns the canonical :class:`Action`; the engine decides legality.

An action's ``id`` is its number in the id space of its game's card set
(:class:`~.space.ActionSpace`, ``docs/name-of-odin/actions.md``), which it carries: the
actions a game lists or parses (``Game.legal_actions``, ``Game.parse``) have one; an action
read by :func:`parse` without a space has none until a game's space numbers it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final, Protocol

from odin_cards.name_of_odin.rules.errors import MalformedActionError, brief
from odin_cards.name_of_odin.rules.symbols import CARD_ORDER, VIKINGS

MAX_TEXT: Final = 200

VERBS: Final = {
    # decision "turn" (the active player's action phase)
    "end": "end the action phase and draw",
    "swap": "swap <hand card> <display card>",
    "refresh": "refresh <hand card>: discard it and replace the whole action display",
    "recruit": "recruit <1-3 cards of one viking type>",
    "hero": "hero <hero id> <cards> [+H]",
    "ability": "ability [<ship id>]: use the hero's action ability",
    "build": "build <building id> <cards> [+C]",
    "material": "material <cards> [+C]",
    "ship": "ship <ship id> <cards> [+N]",
    "return": "return <ship id> <cards> [+N]",
    "repair": "repair <ship id> <cards> [+N]",
    "raid": "raid <raid id> <ship id> <vikings sent, e.g. T T W>",
    # decision "take-viking" / "release-viking" (recruiting)
    "take": "take <seat>: one viking of the recruited type from that player",
    "stop": "stop taking vikings from other players",
    "release": "release <W|T|S>: send one viking back to the reserve",
    # decision "modify" (another player, during a raid)
    "modify": "modify <hand card>",
    "pass": "pass (add no card to the raid)",
    # decision "match" (the raider)
    "match": "match <hand card>",
    "done": "done (stop matching)",
    # decision "pick" (a player who modified the raid)
    "pick": "pick <display card>",
}
_CARD = re.compile(r"[WTS][HCN]")
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


class IdSpace(Protocol):
    """What numbers actions (:class:`~.space.ActionSpace`, one per card set)."""

    def id_of(self, action: Action) -> int: ...


@dataclass(frozen=True, slots=True)
class Action:
    """One action in canonical form: equal to another of the same text, whatever its space."""

    verb: str
    args: tuple[str, ...] = ()
    space: IdSpace | None = field(default=None, compare=False, repr=False)
    """The id space of the game it belongs to (``None``: read without a game)."""

    @property
    def text(self) -> str:
        return " ".join((self.verb, *self.args))

    @property
    def id(self) -> int:
        """Its number in its game's id space; :class:`MalformedActionError` when it has no
        space, or is an action its game can never take (``recruit WH TH``)."""
        if self.space is None:
            raise MalformedActionError(
                f"{self.text!r} has no id outside a game: take it from Game.parse or"
                " Game.legal_actions"
            )
        return self.space.id_of(self)

    def __str__(self) -> str:
        return self.text


def _cards(tokens: list[str], verb: str, low: int, high: int) -> list[str]:
    cards = [t.upper() for t in tokens]
    for card in cards:
        if not _CARD.fullmatch(card):
            raise MalformedActionError(f"{verb}: {brief(card)} is not an action card (e.g. WH)")
    if not low <= len(cards) <= high:
        raise MalformedActionError(f"{verb}: expected {low}..{high} cards, got {len(cards)}")
    return sorted(cards, key=CARD_ORDER.__getitem__)


def _payment(tokens: list[str], verb: str, bonus: str) -> tuple[str, ...]:
    """Cards and an optional building symbol ``+X`` (which must be ``bonus``)."""
    extra = [t.upper() for t in tokens if t.startswith("+")]
    cards = [t for t in tokens if not t.startswith("+")]
    if len(extra) > 1 or (extra and extra[0] != bonus):
        raise MalformedActionError(f"{verb}: only {bonus} may be added to the cards")
    return (*_cards(cards, verb, 1, 12), *extra)


def _card_id(token: str, verb: str) -> str:
    card_id = token.lower()
    if not _ID.fullmatch(card_id):
        raise MalformedActionError(f"{verb}: {brief(token)} is not a card id")
    return card_id


def parse(text: object, space: IdSpace | None = None) -> Action:
    """The canonical :class:`Action` written by ``text`` (numbered by ``space``, when given);
    :class:`MalformedActionError` (also for anything that is not a string)."""
    if not isinstance(text, str):
        raise MalformedActionError(f"an action is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise MalformedActionError(f"an action is at most {MAX_TEXT} characters")
    tokens = text.split()
    if not tokens:
        raise MalformedActionError("an empty action")
    verb, rest = tokens[0].lower(), tokens[1:]
    if verb not in VERBS:
        raise MalformedActionError(f"unknown action {brief(verb)}; actions: {', '.join(VERBS)}")
    usage = f"usage: {VERBS[verb]}"
    try:
        return Action(verb, _parse(verb, rest), space)
    except IndexError:
        raise MalformedActionError(f"{verb}: missing arguments; {usage}") from None
    except MalformedActionError as error:
        raise MalformedActionError(f"{error}; {usage}") from None


def _parse(verb: str, rest: list[str]) -> tuple[str, ...]:
    """The canonical arguments of ``verb`` written by ``rest``."""
    if verb in ("end", "stop", "pass", "done"):
        if rest:
            raise MalformedActionError(f"{verb} takes no arguments")
        return ()
    if verb == "swap":
        if len(rest) != 2:
            raise MalformedActionError("swap takes two cards")
        return (*_cards(rest[:1], verb, 1, 1), *_cards(rest[1:], verb, 1, 1))
    if verb in ("refresh", "modify", "match", "pick"):
        return tuple(_cards(rest, verb, 1, 1))
    if verb == "recruit":
        return tuple(_cards(rest, verb, 1, 3))
    if verb == "material":
        return _payment(rest, verb, "+C")
    if verb in ("hero", "build", "ship", "return", "repair"):
        bonus = {"hero": "+H", "build": "+C"}.get(verb, "+N")
        return (_card_id(rest[0], verb), *_payment(rest[1:], verb, bonus))
    if verb == "ability":
        if len(rest) > 1:
            raise MalformedActionError("ability takes at most a longship id")
        return tuple(_card_id(t, verb) for t in rest)
    if verb == "raid":
        vikings = [t.upper() for t in rest[2:]]
        if not vikings or any(v not in VIKINGS for v in vikings):
            raise MalformedActionError("raid: name the vikings sent, each W, T or S")
        order = {v: i for i, v in enumerate(VIKINGS)}
        return (
            _card_id(rest[0], verb),
            _card_id(rest[1], verb),
            *sorted(vikings, key=order.__getitem__),
        )
    if verb == "take":
        if len(rest) != 1 or not rest[0].isdigit() or len(rest[0]) > 2:
            raise MalformedActionError("take names one seat number")
        return (str(int(rest[0])),)
    assert verb == "release"
    if len(rest) != 1 or rest[0].upper() not in VIKINGS:
        raise MalformedActionError("release names one viking type: W, T or S")
    return (rest[0].upper(),)
