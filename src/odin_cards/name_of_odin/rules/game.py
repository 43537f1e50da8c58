"""The rules engine of In the Name of Odin: one :class:`Game` from set-up to final scoring.

Pure: no I/O, no clock; all chance comes from the seeded ``random.Random`` the game owns
(or from draws injected at set-up). A turn is a sequence of atomic actions ended by
``end``; during a raid other seats decide (``modify``, ``pick``), so the seat to move is
always :attr:`Game.current_player`. The rules are ``docs/name-of-odin/RULES.md``; ruling
numbers (R1, R2, ...) in comments refer to it.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from odin_cards.contract import ActionLike
from odin_cards.name_of_odin.rules.actions import Action, parse
from odin_cards.name_of_odin.rules.cards import Ability, CardSet, Hero
from odin_cards.name_of_odin.rules.errors import (
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    SeatError,
    SetupRefusedError,
    brief,
)
from odin_cards.name_of_odin.rules.legal import REQUIREMENTS, legal, takeable, why_refused
from odin_cards.name_of_odin.rules.state import (
    Event,
    Longship,
    Outcome,
    RaidInProgress,
    Recruiting,
    Village,
)
from odin_cards.name_of_odin.rules.symbols import (
    BUILDING_SYMBOL,
    CARD_CODES,
    VIKINGS,
    action_of,
    sort_cards,
    viking_of,
)

if TYPE_CHECKING:
    from odin_cards.name_of_odin.rules.record import GameRecord

GAME: Final = "name-of-odin"
RECRUITS: Final = {1: 1, 2: 3, 3: 6}
"""Viking symbols spent -> vikings recruited."""
INN_BONUS: Final = 4
"""An inn raises the limit from 10 to 14."""


_DECKS: Final = ("raid_deck", "building_deck", "ship_deck", "hero_deck", "action_deck")
"""The decks whose order ``chance`` may fix."""


class Game:
    """A game of In the Name of Odin (the contract's ``GameState``)."""

    def __init__(
        self,
        players: int,
        cards: CardSet,
        setup: Mapping[str, Any],
        seed: int | str,
        chance: Mapping[str, Any] | None = None,
    ) -> None:
        self.players = players
        self.cards = cards
        self.setup = dict(setup)
        self.seed = seed
        self.chance = dict(chance) if chance is not None else None
        self.rng = random.Random(seed)
        self.history: list[Event] = []
        board = cards.board
        draws = chance or {}
        unknown = set(draws) - {*_DECKS, "markers", "first_player"}
        if unknown:
            raise SetupRefusedError(f"chance: unknown draws {sorted(map(str, unknown))[:5]}")
        rng = self.rng

        def order(key: str, items: list[str]) -> list[str]:
            given = draws.get(key)
            if given is None:
                rng.shuffle(items)
                return items
            if not isinstance(given, list) or sorted(given) != sorted(items):
                raise SetupRefusedError(f"chance {key!r}: expected an order of {len(items)} cards")
            return list(given)

        raids = order("raid_deck", [r.id for r in cards.raids])
        self.raid_deck: list[str] = raids[: board.raids_by_players[players]]
        markers = draws.get("markers")
        if markers is None:
            markers = list(VIKINGS)
            rng.shuffle(markers)
        elif not isinstance(markers, list) or sorted(markers) != sorted(VIKINGS):
            raise SetupRefusedError("chance 'markers': expected an order of W, T, S")
        marked = [z for z, zone in enumerate(board.ocean) if zone.marker]
        self.markers: dict[int, str] = {z: markers[n] for n, z in enumerate(marked)}
        self.spare_markers: list[str] = list(markers[len(marked) :])
        self.building_deck = order("building_deck", [b.id for b in cards.buildings])
        self.ship_deck = order("ship_deck", [s.id for s in cards.ships])
        self.hero_deck = order("hero_deck", [h.id for h in cards.heroes])
        self.action_deck = order(
            "action_deck", [code for code in CARD_CODES for _ in range(cards.actions[code])]
        )
        self.action_discard: list[str] = []
        self.reserve: dict[str, int] = dict.fromkeys(VIKINGS, board.vikings_per_type)
        self.ocean: list[str | None] = [self._pop(self.raid_deck) for _ in board.ocean_slots]
        self.building_display = [
            self._pop(self.building_deck) for _ in range(board.building_display)
        ]
        self.ship_display = [self._pop(self.ship_deck) for _ in range(board.ship_display)]
        self.hero_display = [self._pop(self.hero_deck) for _ in board.hero_slots]
        self.villages = [Village(hand=[]) for _ in range(players)]
        for village in self.villages:
            village.hand = sort_cards([self._draw_action() or "" for _ in range(board.hand_size)])
        self.action_display = sort_cards(
            [c for c in (self._draw_action() for _ in range(board.action_display)) if c]
        )
        first = self.setup.get("first_player")
        if first is None:
            first = draws.get("first_player")
        if first is not None and (type(first) is not int or first not in range(players)):
            raise SetupRefusedError(f"chance 'first_player': expected a seat, got {brief(first)}")
        self.active: int = rng.randrange(players) if first is None else first
        self.first_player = self.active
        # the turn
        self.swap = "open"  # "open" | "refreshed" | "used"  (R5)
        self.used_symbols: set[str] = set()
        self.used_abilities: set[str] = set()
        self.decision_name: str | None = "turn"
        self.recruiting: Recruiting | None = None
        self.raid: RaidInProgress | None = None
        self.pickers: list[int] = []
        self.turn_number = 1
        self.actions: list[tuple[int, str]] = []
        self.final: Outcome | None = None
        self._log(
            "setup",
            {
                "players": players,
                "first_player": self.active,
                "cards": cards.name,
                "raids": len(self.raid_deck) + sum(1 for r in self.ocean if r),
            },
        )
        for seat, village in enumerate(self.villages):
            self._log(
                "deal",
                {"seat": seat, "count": len(village.hand)},
                {"seat": seat, "cards": list(village.hand)},
            )

    # --- chance -------------------------------------------------------------------------

    @staticmethod
    def _pop(deck: list[str]) -> str | None:
        return deck.pop(0) if deck else None

    def _draw_action(self) -> str | None:
        """The top action card; an empty deck is replaced by the shuffled discards."""
        if not self.action_deck:
            if not self.action_discard:
                return None
            self.action_deck = self.action_discard
            self.action_discard = []
            self.rng.shuffle(self.action_deck)
            self._log("reshuffle", {"cards": len(self.action_deck)})
        return self.action_deck.pop()

    # --- the contract -------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.final is not None

    @property
    def outcome(self) -> Outcome | None:
        return self.final

    @property
    def decision(self) -> str | None:
        return self.decision_name

    @property
    def current_player(self) -> int | None:
        name = self.decision_name
        if name is None:
            return None
        if name == "modify":
            assert self.raid is not None
            return self.raid.asked[0]
        if name == "pick":
            return self.pickers[0]
        return self.active

    @property
    def action_count(self) -> int:
        return len(self.actions)

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take now, in canonical order."""
        return legal(self)

    def parse(self, text: str) -> Action:
        return parse(text)

    def apply(self, action: ActionLike | str, seat: int | None = None) -> list[Event]:
        """Validate and apply one action; a refused one raises and changes nothing."""
        if self.final is not None:
            raise GameOverError("the game is over")
        text: object = action if isinstance(action, str) else getattr(action, "text", action)
        chosen = parse(text)
        mover = self.current_player
        assert mover is not None
        if seat is not None and (type(seat) is not int or seat != mover):
            raise NotYourTurnError(f"seat {brief(seat)} cannot act now: seat {mover} decides")
        allowed = {a.text for a in legal(self, chosen.verb)}
        if chosen.text not in allowed:
            raise IllegalActionError(why_refused(self, chosen))
        start = len(self.history)
        self.actions.append((mover, chosen.text))
        getattr(self, "_do_" + chosen.verb)(*chosen.args)
        return self.history[start:]

    def view(self, seat: int | None) -> dict[str, Any]:
        from odin_cards.name_of_odin.rules.view import view_of

        if seat is not None and (isinstance(seat, bool) or seat not in range(self.players)):
            raise SeatError(f"not a seat of this game: {brief(seat)}")
        return view_of(self, seat)

    def public_events(self, start: int = 0) -> list[dict[str, Any]]:
        return [
            {"index": index, "type": event.kind, **event.public}
            for index, event in enumerate(self.history[max(start, 0) :], start=max(start, 0))
        ]

    @property
    def public_length(self) -> int:
        return len(self.history)

    def record(self) -> GameRecord:
        from odin_cards.name_of_odin.rules.record import GameRecord

        return GameRecord.of(self)

    def clone(self) -> Game:
        """An independent copy (events are immutable and shared; the card set too)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        for name, value in self.__dict__.items():
            if isinstance(value, list | set | dict) and name not in ("villages", "setup"):
                other.__dict__[name] = copy.copy(value)
        other.villages = [
            dataclasses.replace(
                v,
                hand=list(v.hand),
                vikings=dict(v.vikings),
                buildings=list(v.buildings),
                ships=[dataclasses.replace(s) for s in v.ships],
                raids=list(v.raids),
            )
            for v in self.villages
        ]
        if self.recruiting is not None:
            other.recruiting = dataclasses.replace(self.recruiting)
        if self.raid is not None:
            raid = self.raid
            other.raid = dataclasses.replace(
                raid,
                asked=list(raid.asked),
                modifiers=list(raid.modifiers),
                requirements=list(raid.requirements),
            )
        return other

    # --- derived quantities -------------------------------------------------------------

    def abilities(self, seat: int) -> Iterator[tuple[str, Ability]]:
        """(building id, ability) for every building ability of ``seat``."""
        for building_id in self.villages[seat].buildings:
            ability = self.cards.building(building_id).ability
            if ability is not None:
                yield building_id, ability

    def kinds(self, seat: int) -> set[str]:
        return {self.cards.building(b).kind for b in self.villages[seat].buildings}

    def _bonus(self, seat: int, effect: str) -> int:
        return sum(a.amount for _, a in self.abilities(seat) if a.effect == effect)

    def viking_limit(self, seat: int) -> int:
        bonus = INN_BONUS if "inn" in self.kinds(seat) else 0
        return self.cards.board.viking_limit + bonus + self._bonus(seat, "viking-limit")

    def hand_limit(self, seat: int) -> int:
        bonus = 1 if "rune-circle" in self.kinds(seat) else 0
        return self.cards.board.hand_size + bonus + self._bonus(seat, "hand-size")

    def ship_slots(self, seat: int) -> int:
        bonus = 1 if "shipyard" in self.kinds(seat) else 0
        return self.cards.board.coast_slots + bonus + self._bonus(seat, "ship-slots")

    def empty_plots(self, seat: int) -> int:
        return 5 - len(self.villages[seat].buildings)

    def ship_range(self, ship: Longship) -> int:
        card = self.cards.ship(ship.id)
        return card.range + card.extra_range - ship.damage

    def hero_card(self, seat: int) -> Hero | None:
        hero = self.villages[seat].hero
        return None if hero is None else self.cards.hero(hero)

    def material_cost(self, seat: int) -> int:
        village = self.villages[seat]
        return len(village.buildings) + village.materials + 1

    def discount(self, seat: int, action: str) -> tuple[int, str | None]:
        """The first unused once-a-turn discount on ``action`` (R8): (amount, building)."""
        for building_id, ability in self.abilities(seat):
            if (
                ability.effect == "discount"
                and ability.action == action
                and building_id not in self.used_abilities
            ):
                return ability.amount, building_id
        return 0, None

    def building_symbol_free(self, seat: int, symbol: str) -> bool:
        """Whether ``seat`` has a building giving ``symbol`` not yet used this turn."""
        if symbol in self.used_symbols:
            return False
        return any(BUILDING_SYMBOL.get(kind) == symbol for kind in self.kinds(seat))

    def marker_at(self, position: int) -> str | None:
        zone = self.cards.board.ocean_slots[position]
        index = self.cards.board.ocean.index(zone)
        return self.markers.get(index)

    def _ship(self, seat: int, ship_id: str) -> Longship:
        return next(s for s in self.villages[seat].ships if s.id == ship_id)

    # --- applying -----------------------------------------------------------------------

    def _log(
        self, kind: str, public: Mapping[str, Any], secret: Mapping[str, Any] | None = None
    ) -> None:
        self.history.append(Event(kind, dict(public), None if secret is None else dict(secret)))

    def _spend(self, seat: int, pay: Sequence[str], action: str, cost: int = 0) -> list[str]:
        """Discard the paying cards; mark the building symbol used, and the discount if it
        saved a symbol of ``cost`` (R8)."""
        village = self.villages[seat]
        cards = [p for p in pay if not p.startswith("+")]
        for card in cards:
            village.hand.remove(card)
            self.action_discard.append(card)
        for p in pay:
            if p.startswith("+"):
                self.used_symbols.add(p[1])
        _, building = self.discount(seat, action)
        if building is not None and len(pay) < cost:
            self.used_abilities.add(building)
        return cards

    def _touch_swap(self) -> None:
        """Any action but the swap right after a refresh forfeits the swap (R5)."""
        if self.swap == "refreshed":
            self.swap = "used"

    def _do_end(self) -> None:
        seat = self.active
        village = self.villages[seat]
        drawn: list[str] = []
        while len(village.hand) + len(drawn) < self.hand_limit(seat):
            card = self._draw_action()
            if card is None:
                break
            drawn.append(card)
        village.hand = sort_cards(village.hand + drawn)
        self._log(
            "draw", {"seat": seat, "count": len(drawn)}, {"seat": seat, "cards": sort_cards(drawn)}
        )
        self.active = (seat + 1) % self.players
        self.swap = "open"
        self.used_symbols = set()
        self.used_abilities = set()
        self.turn_number += 1
        self._log("turn", {"seat": self.active, "turn": self.turn_number})

    def _do_refresh(self, card: str) -> None:
        village = self.villages[self.active]
        village.hand.remove(card)
        self.action_discard.append(card)
        old = self.action_display
        self.action_discard.extend(old)
        self.action_display = []
        self._refill_action_display()
        self.swap = "refreshed"
        self._log(
            "refresh",
            {
                "seat": self.active,
                "discarded": card,
                "old": old,
                "display": list(self.action_display),
            },
        )

    def _refill_action_display(self) -> None:
        while len(self.action_display) < self.cards.board.action_display:
            card = self._draw_action()
            if card is None:
                break
            self.action_display.append(card)
        self.action_display = sort_cards(self.action_display)

    def _do_swap(self, mine: str, theirs: str) -> None:
        village = self.villages[self.active]
        village.hand.remove(mine)
        village.hand = sort_cards([*village.hand, theirs])
        self.action_display.remove(theirs)
        self.action_display = sort_cards([*self.action_display, mine])
        self.swap = "used"
        self._log("swap", {"seat": self.active, "gave": mine, "took": theirs})

    def _do_recruit(self, *cards: str) -> None:
        self._touch_swap()
        seat = self.active
        viking = viking_of(cards[0])
        self._spend(seat, cards, "recruit-vikings")
        count = RECRUITS[len(cards)]
        for building_id, ability in self.abilities(seat):
            if ability.effect == "extra-vikings" and building_id not in self.used_abilities:
                self.used_abilities.add(building_id)
                count += ability.amount
                break
        self._log("recruit", {"seat": seat, "cards": list(cards), "viking": viking, "count": count})
        self._gain_vikings(viking, count)

    def _gain_vikings(self, viking: str, count: int) -> None:
        """Vikings from the reserve, then (R15) from the players with the most."""
        seat = self.active
        village = self.villages[seat]
        taken = min(count, self.reserve[viking])
        self.reserve[viking] -= taken
        village.vikings[viking] += taken
        self._log("vikings", {"seat": seat, "viking": viking, "from_reserve": taken})
        self.recruiting = Recruiting(viking, count - taken)
        if self.recruiting.missing and takeable(self):
            self.decision_name = "take-viking"
        else:
            self._after_gain()

    def _after_gain(self) -> None:
        seat = self.active
        if self.villages[seat].viking_count > self.viking_limit(seat):
            self.decision_name = "release-viking"
        else:
            self.recruiting = None
            self.decision_name = "turn"

    def _do_take(self, seat_text: str) -> None:
        recruiting = self.recruiting
        assert recruiting is not None
        other = int(seat_text)
        viking = recruiting.viking
        self.villages[other].vikings[viking] -= 1
        self.villages[self.active].vikings[viking] += 1
        recruiting.missing -= 1
        recruiting.took_from_others = True
        self._log("take", {"seat": self.active, "from": other, "viking": viking})
        if not recruiting.missing or not takeable(self):
            self._after_gain()

    def _do_stop(self) -> None:
        self._log("stop", {"seat": self.active})
        self._after_gain()

    def _do_release(self, viking: str) -> None:
        self.villages[self.active].vikings[viking] -= 1
        self.reserve[viking] += 1
        self._log("release", {"seat": self.active, "viking": viking})
        self._after_gain()

    def _do_hero(self, hero_id: str, *pay: str) -> None:
        self._touch_swap()
        seat = self.active
        village = self.villages[seat]
        slot = self.hero_display.index(hero_id)
        cards = self._spend(seat, pay, "recruit-hero", self.cards.board.hero_slots[slot].cost)
        if village.hero is not None:
            self.hero_deck.append(village.hero)
        village.hero = hero_id
        glory = self.cards.board.hero_slots[slot].glory
        village.glory += glory
        # the heroes left of the taken one move right; a new one comes in on the left
        self.hero_display[1 : slot + 1] = self.hero_display[0:slot]
        self.hero_display[0] = self._pop(self.hero_deck)
        self._log(
            "hero",
            {
                "seat": seat,
                "hero": hero_id,
                "slot": slot,
                "cards": cards,
                "glory": glory,
                "new": self.hero_display[0],
            },
        )

    def _do_ability(self, *target: str) -> None:
        self._touch_swap()
        seat = self.active
        village = self.villages[seat]
        hero = self.hero_card(seat)
        assert hero is not None and hero.ability is not None
        ability = hero.ability
        village.hero = None
        self.hero_deck.append(hero.id)
        self._log(
            "ability",
            {"seat": seat, "hero": hero.id, "effect": ability.effect, "target": list(target)},
        )
        if ability.effect == "gain-material":
            village.materials = min(village.materials + ability.amount, self.empty_plots(seat))
        elif ability.effect == "repair":
            ship = self._ship(seat, target[0])
            ship.damage = max(ship.damage - ability.amount, 0)
        elif ability.effect == "return-ship":
            self._ship(seat, target[0]).away = False
        else:
            assert ability.effect == "recruit-vikings" and ability.viking is not None
            self._gain_vikings(ability.viking, ability.amount)

    def _do_build(self, building_id: str, *pay: str) -> None:
        self._touch_swap()
        seat = self.active
        village = self.villages[seat]
        cards = self._spend(seat, pay, "build", 3)
        village.materials -= 1
        village.buildings.append(building_id)
        slot = self.building_display.index(building_id)
        self.building_display[slot] = self._pop(self.building_deck)
        self._log(
            "build",
            {
                "seat": seat,
                "building": building_id,
                "cards": cards,
                "new": self.building_display[slot],
            },
        )
        self._refresh_buildings()

    def _refresh_buildings(self) -> None:
        """R10: while no displayed building is buildable by anyone, replace the display."""
        board = self.cards.board
        for _ in range(len(self.cards.buildings)):
            shown = [b for b in self.building_display if b is not None]
            if any(self._anyone_can_build(b) for b in shown) or not self.building_deck:
                return
            if not any(self._anyone_can_build(b) for b in self.building_deck):
                return
            self.building_deck.extend(shown)
            self.building_display = [
                self._pop(self.building_deck) for _ in range(board.building_display)
            ]
            self._log("buildings-replaced", {"display": list(self.building_display)})

    def _anyone_can_build(self, building_id: str) -> bool:
        kind = self.cards.building(building_id).kind
        return any(kind not in self.kinds(seat) for seat in range(self.players))

    def _do_material(self, *pay: str) -> None:
        self._touch_swap()
        seat = self.active
        cards = self._spend(seat, pay, "material", self.material_cost(seat))
        self.villages[seat].materials += 1
        self._log("material", {"seat": seat, "cards": cards})

    def _do_ship(self, ship_id: str, *pay: str) -> None:
        self._touch_swap()
        seat = self.active
        cards = self._spend(seat, pay, "ship", 3)
        self.villages[seat].ships.append(Longship(ship_id))
        slot = self.ship_display.index(ship_id)
        self.ship_display[slot] = self._pop(self.ship_deck)
        self._log(
            "ship", {"seat": seat, "ship": ship_id, "cards": cards, "new": self.ship_display[slot]}
        )

    def _do_return(self, ship_id: str, *pay: str) -> None:
        self._touch_swap()
        seat = self.active
        cards = self._spend(seat, pay, "return", 2)
        self._ship(seat, ship_id).away = False
        self._log("return", {"seat": seat, "ship": ship_id, "cards": cards})

    def _do_repair(self, ship_id: str, *pay: str) -> None:
        self._touch_swap()
        seat = self.active
        cards = self._spend(seat, pay, "repair", 2)
        self._ship(seat, ship_id).damage -= 1
        self._log("repair", {"seat": seat, "ship": ship_id, "cards": cards})

    # --- the raid -----------------------------------------------------------------------

    def _do_raid(self, raid_id: str, ship_id: str, *sent: str) -> None:
        self._touch_swap()
        seat = self.active
        village = self.villages[seat]
        position = self.ocean.index(raid_id)
        for viking in sent:
            village.vikings[viking] -= 1
            self.reserve[viking] += 1
        asked = [(seat + step) % self.players for step in range(1, self.players)]
        self.raid = RaidInProgress(raid_id, position, ship_id, tuple(sent), asked)
        self._log(
            "raid",
            {
                "seat": seat,
                "raid": raid_id,
                "position": position,
                "ship": ship_id,
                "sent": list(sent),
            },
        )
        self.decision_name = "modify"

    def _do_modify(self, card: str) -> None:
        raid = self.raid
        assert raid is not None
        seat = raid.asked.pop(0)
        self.villages[seat].hand.remove(card)
        raid.requirements.append(card)
        raid.modifiers.append(seat)
        self._log("modify", {"seat": seat, "card": card})
        self._next_modifier()

    def _do_pass(self) -> None:
        raid = self.raid
        assert raid is not None
        seat = raid.asked.pop(0)
        self._log("pass", {"seat": seat})
        self._next_modifier()

    def _next_modifier(self) -> None:
        raid = self.raid
        assert raid is not None
        if raid.asked and len(raid.requirements) < REQUIREMENTS:
            return
        raid.asked = []
        revealed: list[str] = []
        while len(raid.requirements) < REQUIREMENTS:
            card = self._draw_action()
            if card is None:
                break
            raid.requirements.append(card)
            revealed.append(card)
        self._log("reveal", {"cards": revealed, "requirements": list(raid.requirements)})
        self.decision_name = "match"
        self._maybe_end_matching()

    def _maybe_end_matching(self) -> None:
        raid = self.raid
        assert raid is not None
        symbols = {action_of(c) for c in raid.requirements}
        if not any(action_of(c) in symbols for c in self.villages[self.active].hand):
            self._finish_raid()

    def _do_match(self, card: str) -> None:
        raid = self.raid
        assert raid is not None
        village = self.villages[self.active]
        village.hand.remove(card)
        required = next(r for r in raid.requirements if action_of(r) == action_of(card))
        raid.requirements.remove(required)
        raid.matched += 1
        self.action_discard.extend((card, required))
        self._log("match", {"seat": self.active, "card": card, "requirement": required})
        self._maybe_end_matching()

    def _do_done(self) -> None:
        self._log("done", {"seat": self.active})
        self._finish_raid()

    def _finish_raid(self) -> None:
        """Steps F to H: glory, damage, marker swap, the ocean, the hero, the picks."""
        raid = self.raid
        assert raid is not None
        seat = self.active
        village = self.villages[seat]
        card = self.cards.raid(raid.raid)
        zone = self.cards.board.ocean_slots[raid.position]
        hero = self.hero_card(seat)
        bonus = 0
        if hero is not None and hero.ability is not None and hero.ability.effect == "raid-glory":
            bonus = hero.ability.amount
        gained = card.glory + zone.glory + bonus
        village.glory += gained
        unmatched = len(raid.requirements)
        change = 1 - unmatched  # 0/1/2/3 open cards: +1/0/-1/-2
        before = village.glory
        village.glory = max(village.glory + change, 0)
        self.action_discard.extend(raid.requirements)
        village.raids.append(raid.raid)
        ship = self._ship(seat, raid.ship)
        ship.damage += 1
        ship.away = True
        ship_card = self.cards.ship(ship.id)
        destroyed = ship.damage >= ship_card.range + ship_card.extra_range
        if destroyed:
            village.ships.remove(ship)
            self.ship_deck.append(ship.id)
        self._log(
            "glory",
            {
                "seat": seat,
                "raid": raid.raid,
                "raid_glory": card.glory,
                "zone_glory": zone.glory,
                "hero_glory": bonus,
                "unmatched": unmatched,
                "change": village.glory - before,
                "glory": village.glory,
                "damage": ship.damage,
                "destroyed": destroyed,
            },
        )
        # H: the marker swap, the raids moving up, the refill
        zone_index = self.cards.board.ocean.index(zone)
        if zone_index in self.markers and self.spare_markers:
            old = self.markers[zone_index]
            self.markers[zone_index] = self.spare_markers.pop(0)
            self.spare_markers.append(old)
        remaining = [r for r in self.ocean if r is not None and r != raid.raid]
        new = self._pop(self.raid_deck)
        if new is not None:
            remaining.append(new)
        self.ocean = remaining + [None] * (len(self.ocean) - len(remaining))
        if hero is not None:
            village.hero = None
            self.hero_deck.append(hero.id)
        self._log(
            "ocean",
            {
                "ocean": list(self.ocean),
                "markers": {str(z): v for z, v in self.markers.items()},
                "new": new,
            },
        )
        self.raid = None
        if not any(self.ocean) and not self.raid_deck:
            self._end_game()
            return
        self.pickers = list(raid.modifiers)
        self.decision_name = "pick" if self.pickers and self.action_display else "turn"
        if self.decision_name == "turn":
            self._end_picks()

    def _do_pick(self, card: str) -> None:
        seat = self.pickers.pop(0)
        self.action_display.remove(card)
        self.villages[seat].hand = sort_cards([*self.villages[seat].hand, card])
        self._log("pick", {"seat": seat, "card": card})
        if not self.pickers or not self.action_display:
            self._end_picks()

    def _end_picks(self) -> None:
        self.pickers = []
        self._refill_action_display()
        self.decision_name = "turn"

    # --- the end ------------------------------------------------------------------------

    def score(self, seat: int) -> dict[str, int]:
        """The final scoring of ``seat``: glory, buildings, ships, vikings."""
        village = self.villages[seat]
        counts = [village.vikings[v] for v in VIKINGS]
        return {
            "glory": village.glory,
            "buildings": sum(self.cards.building(b).glory for b in village.buildings),
            "ships": sum(self.cards.ship(s.id).glory for s in village.ships),
            "same": sum(n // 3 for n in counts),
            "sets": min(counts),
        }

    def _end_game(self) -> None:
        breakdown = tuple(self.score(seat) for seat in range(self.players))
        scores = tuple(sum(b.values()) for b in breakdown)
        raids = tuple(len(v.raids) for v in self.villages)
        best = max(zip(scores, (-r for r in raids), strict=True))
        winners = tuple(s for s in range(self.players) if (scores[s], -raids[s]) == best)
        self.final = Outcome(scores, winners, raids, breakdown)
        self.decision_name = None
        self.pickers = []
        self._log("end", {"scores": list(scores), "winners": list(winners), "raids": list(raids)})


__all__ = ["GAME", "Event", "Game", "Longship", "Outcome", "Village"]
