"""Bots of In the Name of Odin: they see only their seat's view and its legal actions.

A bot is given what a person in its seat is given: the seat's :meth:`Game.view` (a
JSON-safe dict; it carries the legal actions as texts when the seat is to move) and a
seeded random generator, and answers one of the legal action texts. It never holds the
game, so it cannot look at another hand or a deck's order. :func:`ask` is the one way to
ask a bot for a move; :data:`LEVELS` lists the levels, weakest first.

* ``random``: any legal action, uniformly.
* ``heuristic``: plans a raid (the one worth most that its vikings, ship and range can
  reach soonest), gets a hero and a longship, brings the ship home, builds, recruits the
  vikings the planned raid lacks, spends the cards it needs least, matches every card it
  can in its raids, and adds its least useful card to the other players' raids (a card
  whose symbol the raid does not ask yet, so the raider must match more kinds) to take a
  better one from the display afterwards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from odin_cards.contract import GameState
from odin_cards.name_of_odin.plugin import LEVELS as FACTS
from odin_cards.name_of_odin.rules.symbols import VIKING_CODES, VIKINGS

View = Mapping[str, Any]
"""A seat's view of a game (:func:`odin_cards.name_of_odin.rules.view.view_of`)."""


class Bot(Protocol):
    """A player of In the Name of Odin that decides from its seat's view."""

    def choose(self, view: View, legal: Sequence[str], rng: random.Random) -> str:
        """One of ``legal`` (action texts) for the seat of ``view``."""
        ...


@dataclass(frozen=True, slots=True)
class Level:
    """How a level plays: the bot it makes. What the level is (its name and description)
    is written once, in the plugin (:data:`odin_cards.name_of_odin.plugin.LEVELS`)."""

    key: str
    make: Callable[[], Bot]


class RandomBot:
    """Any legal action, uniformly (for learning the rules, and as a yardstick)."""

    def choose(self, view: View, legal: Sequence[str], rng: random.Random) -> str:
        return legal[rng.randrange(len(legal))]


# --------------------------------------------------------------------------- the heuristic

RECRUITS = {0: 0, 1: 1, 2: 3, 3: 6}
"""Vikings recruited for 0-3 cards of one type."""
VIKING_WORTH = 0.6
"""Final glory a viking kept is worth, roughly: 1 per 3 of a type and 1 per set of three."""
MATERIAL_CRAFT_LIMIT = 3
"""The most craft symbols the heuristic pays for one building material."""


def _split(text: str) -> tuple[str, list[str]]:
    verb, *args = text.split()
    return verb, args


def _cards_of(args: Sequence[str]) -> list[str]:
    """The action cards among an action's arguments (not ids, not ``+X``, not vikings)."""
    return [a for a in args if len(a) == 2 and a[0] in VIKINGS and a[1] in "HCN"]


def _vikings(names: Sequence[str]) -> Counter[str]:
    return Counter(VIKING_CODES[name] for name in names)


@dataclass(frozen=True, slots=True)
class Plan:
    """The raid the heuristic works towards, and what it still lacks for it."""

    position: int
    raid_id: str
    value: float
    need: Counter[str]
    """Vikings the raid takes, after the discounts of the hero held (if any)."""
    lacking: Counter[str]
    """Vikings it needs and does not have."""
    range: int


class HeuristicBot:
    """Plans raids and plays its cards for them; see the module's description."""

    def choose(self, view: View, legal: Sequence[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        decision = view["decision"]
        me = view["villages"][view["seat"]]
        plan = self._plan(view, me)
        worth = self._card_worth(me, plan)
        if decision == "turn":
            return self._turn(view, me, plan, worth, legal)
        if decision == "take-viking":
            total = sum(me["vikings"].values())
            takes = [t for t in legal if t.startswith("take")]
            return takes[0] if takes and total < me["viking_limit"] else "stop"
        if decision == "release-viking":
            return self._release(me, plan, legal)
        if decision == "modify":
            return self._modify(view, worth, legal)
        if decision == "match":
            matches = [t for t in legal if t.startswith("match")]
            return min(matches, key=lambda t: worth(t.split()[1])) if matches else "done"
        if decision == "pick":
            return max(legal, key=lambda t: (worth(t.split()[1]), t))
        return legal[rng.randrange(len(legal))]

    # ---------------------------------------------------------------- judging the position

    @staticmethod
    def _discounts(me: Mapping[str, Any], ship: Mapping[str, Any] | None) -> list[str]:
        """The viking discounts of a raid with ``ship``: the hero's symbol and abilities."""
        found: list[str] = []
        hero = me["hero"]
        if hero is not None:
            found.append(VIKING_CODES[hero["viking"]])
            ability = hero.get("ability") or {}
            if ability.get("effect") == "raid-discount":
                found.append(VIKING_CODES[ability["viking"]])
        if ship is not None:
            ability = ship.get("ability") or {}
            if ability.get("effect") == "raid-discount":
                found.append(VIKING_CODES[ability["viking"]])
        return found

    def _plan(self, view: View, me: Mapping[str, Any]) -> Plan | None:
        """The raid worth working towards: most glory for the fewest vikings still lacking."""
        ships = me["ships"]
        best_reach = max((s["reach"] for s in ships), default=0)
        have = Counter(me["vikings"])
        in_hand = Counter(card[0] for card in view["hand"] or ())
        recruitable = {v: RECRUITS[min(in_hand[v], 3)] for v in VIKINGS}
        best: tuple[float, Plan] | None = None
        for slot in view["ocean"]:
            raid = slot["raid"]
            if raid is None:
                continue
            need = _vikings(raid["vikings"])
            if slot["marker"] is not None:
                need[slot["marker"]] += 1
            required = +need
            ship = max(ships, key=lambda s: s["reach"], default=None)
            for discount in self._discounts(me, ship):
                if need[discount] > 0:
                    need[discount] -= 1
            need = +need
            if not need:  # whatever the discounts, a raid sends one viking of a type it asks
                easiest = max(required, key=lambda v: (have[v] + recruitable[v], v))
                need = Counter({easiest: 1})
            lacking = +Counter({v: need[v] - have[v] for v in VIKINGS})
            beyond_hand = sum(max(0, lacking[v] - recruitable[v]) for v in VIKINGS)
            value = raid["glory"] + slot["glory"]
            score = (
                value - 0.8 * sum(lacking.values()) - 1.2 * beyond_hand - 0.25 * sum(need.values())
            )
            if slot["range"] > best_reach:
                score -= 1.5 * (slot["range"] - best_reach) if ships else 1.0
            plan = Plan(slot["position"], raid["id"], value, need, lacking, slot["range"])
            if best is None or score > best[0]:
                best = (score, plan)
        return None if best is None else best[1]

    def _card_worth(self, me: Mapping[str, Any], plan: Plan | None) -> Callable[[str], float]:
        """How much keeping an action card is worth now (its two symbols together)."""
        ships = me["ships"]
        want = {"H": 1.0, "C": 1.0, "N": 1.0}
        if me["hero"] is None:
            want["H"] += 1.5
        if not ships or any(s["away"] for s in ships):
            want["N"] += 1.5
        elif plan is not None and max(s["reach"] for s in ships) < plan.range:
            want["N"] += 0.8
        if me["materials"] or len(me["buildings"]) < 5:
            want["C"] += 0.5
        lacking = plan.lacking if plan is not None else Counter()
        room = me["viking_limit"] - sum(me["vikings"].values())
        viking_want = {v: 0.3 + (0.8 if lacking[v] and room > 0 else 0.0) for v in VIKINGS}

        def worth(card: str) -> float:
            return want[card[1]] + viking_want[card[0]]

        return worth

    # ---------------------------------------------------------------- the active player

    def _cheapest(self, options: Sequence[str], worth: Callable[[str], float]) -> str | None:
        """The option (same action, different payments) that gives up the least."""
        if not options:
            return None
        return min(options, key=lambda t: (sum(worth(c) for c in _cards_of(t.split())), t))

    def _turn(
        self,
        view: View,
        me: Mapping[str, Any],
        plan: Plan | None,
        worth: Callable[[str], float],
        legal: Sequence[str],
    ) -> str:
        by_verb: dict[str, list[str]] = {}
        for text in legal:
            by_verb.setdefault(text.split()[0], []).append(text)

        raid = self._best_raid(view, me, by_verb.get("raid", []))
        if raid is not None:
            return raid
        for ship in me["ships"]:
            if ship["away"]:
                back = self._cheapest(
                    [t for t in by_verb.get("return", []) if t.split()[1] == ship["id"]], worth
                )
                if back is not None:
                    return back
        if me["hero"] is None and by_verb.get("hero"):
            return self._hero(view, plan, by_verb["hero"], worth)
        if not me["ships"] and by_verb.get("ship"):
            return self._ship(view, by_verb["ship"], worth)
        if by_verb.get("build"):
            return self._build(view, by_verb["build"], worth)
        ability = self._ability(me, by_verb.get("ability", []))
        if ability is not None:
            return ability
        repair = self._repair(me, plan, by_verb.get("repair", []), worth)
        if repair is not None:
            return repair
        recruit = self._recruit(me, plan, by_verb.get("recruit", []), worth)
        if recruit is not None:
            return recruit
        material = self._material(me, by_verb.get("material", []), worth)
        if material is not None:
            return material
        if by_verb.get("ship") and len(me["ships"]) < me["ship_slots"]:
            return self._ship(view, by_verb["ship"], worth)
        swap = self._swap(by_verb.get("swap", []), worth)
        if swap is not None:
            return swap
        if len(view["hand"]) >= me["hand_limit"]:
            return self._unstick(by_verb, worth)
        return "end"

    @staticmethod
    def _unstick(by_verb: Mapping[str, Sequence[str]], worth: Callable[[str], float]) -> str:
        """A full hand that found nothing to do would draw nothing: change the cards instead
        (refresh the display with the worst card, else swap for the best one shown)."""
        refresh = by_verb.get("refresh", [])
        if refresh:
            return min(refresh, key=lambda t: (worth(t.split()[1]), t))
        swaps = by_verb.get("swap", [])
        if swaps:
            return max(swaps, key=lambda t: (worth(t.split()[2]) - worth(t.split()[1]), t))
        return "end"

    def _best_raid(self, view: View, me: Mapping[str, Any], raids: Sequence[str]) -> str | None:
        """The raid worth most now, counting the vikings sent as final glory given up.

        Any raid is taken, however little it brings: only raids end the game, and a card set
        of poor raids must not leave every bot waiting for a better one for ever.
        """
        if not raids:
            return None
        glory = {
            slot["raid"]["id"]: slot["raid"]["glory"] + slot["glory"]
            for slot in view["ocean"]
            if slot["raid"] is not None
        }
        hero = me["hero"] or {}
        ability = hero.get("ability") or {}
        bonus = ability.get("amount", 0) if ability.get("effect") == "raid-glory" else 0

        def value(text: str) -> tuple[float, str]:
            _, args = _split(text)
            sent = len(args) - 2
            return (glory[args[0]] + bonus - VIKING_WORTH * sent, text)

        return max(raids, key=value)

    def _hero(
        self, view: View, plan: Plan | None, options: Sequence[str], worth: Callable[[str], float]
    ) -> str:
        """A hero whose viking the planned raid needs, else the cheapest."""
        heroes = {slot["hero"]["id"]: slot for slot in view["hero_display"] if slot["hero"]}
        need = plan.need if plan is not None else Counter()

        def score(text: str) -> tuple[float, str]:
            slot = heroes[text.split()[1]]
            hero = slot["hero"]
            helps = 1.0 if need[VIKING_CODES[hero["viking"]]] else 0.0
            ability = hero.get("ability") or {}
            if ability.get("effect") in ("raid-glory", "raid-discount"):
                helps += 0.7
            paid = sum(worth(c) for c in _cards_of(text.split()))
            return (helps + slot["glory"] - 0.5 * paid, text)

        return max(options, key=score)

    def _ship(self, view: View, options: Sequence[str], worth: Callable[[str], float]) -> str:
        ships = {s["id"]: s for s in view["ship_display"] if s}

        def score(text: str) -> tuple[float, str]:
            ship = ships[text.split()[1]]
            ability = ship.get("ability") or {}
            extra = ability.get("amount", 0) if ability.get("effect") == "extra-range" else 0
            paid = sum(worth(c) for c in _cards_of(text.split()))
            return (ship["range"] + extra + 0.7 * ship["glory"] - 0.3 * paid, text)

        return max(options, key=score)

    def _build(self, view: View, options: Sequence[str], worth: Callable[[str], float]) -> str:
        buildings = {b["id"]: b for b in view["building_display"] if b}

        def score(text: str) -> tuple[float, str]:
            building = buildings[text.split()[1]]
            useful = 0.5 if building.get("ability") or building["kind"] != "forge" else 0.0
            paid = sum(worth(c) for c in _cards_of(text.split()))
            return (building["glory"] + useful - 0.3 * paid, text)

        return max(options, key=score)

    @staticmethod
    def _ability(me: Mapping[str, Any], options: Sequence[str]) -> str | None:
        """A hero's one-time action, when it does what the bot needs (it costs the hero)."""
        if not options or me["hero"] is None:
            return None
        effect = (me["hero"].get("ability") or {}).get("effect")
        if effect == "repair" and any(s["damage"] >= 2 for s in me["ships"]):
            return options[0]
        if effect == "gain-material" and me["materials"] == 0 and len(me["buildings"]) < 5:
            return options[0]
        return None

    def _repair(
        self,
        me: Mapping[str, Any],
        plan: Plan | None,
        options: Sequence[str],
        worth: Callable[[str], float],
    ) -> str | None:
        wanted = plan.range if plan is not None else 2
        for ship in me["ships"]:
            if ship["damage"] and ship["reach"] < wanted:
                found = self._cheapest([t for t in options if t.split()[1] == ship["id"]], worth)
                if found is not None:
                    return found
        return None

    def _recruit(
        self,
        me: Mapping[str, Any],
        plan: Plan | None,
        options: Sequence[str],
        worth: Callable[[str], float],
    ) -> str | None:
        """Vikings of the type the planned raid lacks most, as many as fit (2-3 cards best)."""
        if not options:
            return None
        room = me["viking_limit"] - sum(me["vikings"].values())
        lacking = plan.lacking if plan is not None else Counter()
        if not lacking or room <= 0:
            return None

        def score(text: str) -> tuple[float, str]:
            cards = _cards_of(text.split())
            viking = cards[0][0]
            gained = RECRUITS[len(cards)]
            useful = min(gained, lacking[viking], room) + 0.3 * min(gained, room)
            waste = max(0, gained - room) * 0.4
            paid = sum(worth(c) for c in cards) * 0.5
            return (useful - waste - paid, text)

        best = max(options, key=score)
        return best if score(best)[0] > 0 else None

    def _material(
        self, me: Mapping[str, Any], options: Sequence[str], worth: Callable[[str], float]
    ) -> str | None:
        if me["materials"] or not options:
            return None
        cheap = [t for t in options if len(_cards_of(t.split())) <= MATERIAL_CRAFT_LIMIT]
        return self._cheapest(cheap, worth)

    @staticmethod
    def _swap(options: Sequence[str], worth: Callable[[str], float]) -> str | None:
        if not options:
            return None

        def gain(text: str) -> tuple[float, str]:
            _, (mine, theirs) = _split(text)
            return (worth(theirs) - worth(mine), text)

        best = max(options, key=gain)
        return best if gain(best)[0] > 0.5 else None

    # ---------------------------------------------------------------- the other decisions

    @staticmethod
    def _release(me: Mapping[str, Any], plan: Plan | None, legal: Sequence[str]) -> str:
        """Send back the type held most beyond what the planned raid needs."""
        need = plan.need if plan is not None else Counter()
        have = me["vikings"]
        return max(legal, key=lambda t: (have[t.split()[1]] - need[t.split()[1]], t))

    @staticmethod
    def _modify(view: View, worth: Callable[[str], float], legal: Sequence[str]) -> str:
        """Add the least useful card, of a symbol the raid does not ask yet, if the display
        offers a better one to take afterwards."""
        modifies = [t for t in legal if t.startswith("modify")]
        if not modifies or not view["action_display"]:
            return "pass"
        asked = {card[1] for card in (view["raid"] or {}).get("requirements", [])}

        def cost(text: str) -> tuple[float, str]:
            card = text.split()[1]
            return (worth(card) - (0.6 if card[1] not in asked else 0.0), text)

        best = min(modifies, key=cost)
        best_display = max(worth(card) for card in view["action_display"])
        return best if best_display + 0.6 > worth(best.split()[1]) else "pass"


MAKERS: Mapping[str, Callable[[], Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}
"""The bot of each level of the plugin (:data:`odin_cards.name_of_odin.plugin.LEVELS`)."""

LEVELS: dict[str, Level] = {facts.key: Level(facts.key, MAKERS[facts.key]) for facts in FACTS}
"""The levels, weakest first (the plugin's order)."""


def make_bot(level: str) -> Bot:
    """A bot of ``level``; ``KeyError`` names the levels."""
    try:
        return LEVELS[level].make()
    except KeyError:
        raise KeyError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}") from None


def ask(bot: Bot, view: View, rng: random.Random) -> str:
    """The bot's move for the seat of ``view``, which must be the seat to move.

    Raises ``ValueError`` if the bot answers an action that is not legal: a bot bug is
    never repaired silently.
    """
    legal = view["legal"]
    if view["seat"] is None or view["seat"] != view["to_move"] or not legal:
        raise ValueError("a bot is asked only for the seat to move, with its view")
    text = bot.choose(view, tuple(legal), rng)
    if text not in legal:
        raise ValueError(f"the bot chose {text!r}, which is not legal here")
    return text


__all__ = [
    "LEVELS",
    "MAKERS",
    "Bot",
    "HeuristicBot",
    "Level",
    "RandomBot",
    "View",
    "ask",
    "choose",
    "make_bot",
]


def choose(state: GameState, level: str, seconds: float | None, rng: random.Random) -> str:
    """The platform's way to ask (:data:`odin_cards.plugin.Choose`): the move of ``level``
    for the seat to move, shown only that seat's view (these bots never need ``seconds``)."""
    seat = state.current_player
    if seat is None:
        raise ValueError("the game is over: nobody is to move")
    return ask(make_bot(level), state.view(seat), rng)
