"""The moves of In the Name of Odin: what each action does to a :class:`~.state.State`.

:func:`apply` checks an action against :func:`.legal.legal` (so listing and validating
always agree) and applies it with :func:`perform`, which trusts its input; the history
says what happened. Chance during play is only the reshuffle of the action discards
(:meth:`.state.State.draw_action`). The rules are ``docs/name-of-odin/RULES.md``; ruling
numbers (R1, R2, ...) in comments refer to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from odin_cards.contract import ActionLike
from odin_cards.name_of_odin.rules.actions import Action, parse
from odin_cards.name_of_odin.rules.errors import (
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    brief,
)
from odin_cards.name_of_odin.rules.legal import REQUIREMENTS, legal, takeable, why_refused
from odin_cards.name_of_odin.rules.state import (
    Event,
    Longship,
    Outcome,
    RaidInProgress,
    Recruiting,
    State,
    top,
)
from odin_cards.name_of_odin.rules.symbols import COSTS, action_of, sort_cards, viking_of

RECRUITS: Final = {1: 1, 2: 3, 3: 6}
"""Viking symbols spent -> vikings recruited."""


def apply(game: State, action: ActionLike | str | int, seat: int | None = None) -> list[Event]:
    """Validate and apply one action (of ``seat``, when given): an :class:`Action`, its text
    or its id. Return the events it produced; a refused one raises and changes nothing."""
    if game.final is not None:
        raise GameOverError("the game is over")
    if isinstance(action, int) and not isinstance(action, bool):
        chosen = game.space.action(action)
    else:
        text: object = action if isinstance(action, str) else getattr(action, "text", action)
        chosen = parse(text, game.space)
    mover = game.current_player
    assert mover is not None
    if seat is not None and (type(seat) is not int or seat != mover):
        raise NotYourTurnError(f"seat {brief(seat)} cannot act now: seat {mover} decides")
    allowed = {a.text for a in legal(game, chosen.verb)}
    if chosen.text not in allowed:
        raise IllegalActionError(why_refused(game, chosen))
    start = len(game.history)
    perform(game, mover, chosen)
    return game.history[start:]


def perform(game: State, seat: int, action: Action) -> None:
    """Apply ``action`` of ``seat`` (legal now: not checked again) to ``game``."""
    game.actions.append((seat, action.text))
    _MOVES[action.verb](game, *action.args)


def _spend(game: State, seat: int, pay: Sequence[str], action: str, cost: int = 0) -> list[str]:
    """Discard the paying cards; mark the building symbol used, and the discount if it
    saved a symbol of ``cost`` (R8)."""
    village = game.villages[seat]
    cards = [p for p in pay if not p.startswith("+")]
    for card in cards:
        village.hand.remove(card)
        game.action_discard.append(card)
    for p in pay:
        if p.startswith("+"):
            game.used_symbols.add(p[1])
    _, building = game.discount(seat, action)
    if building is not None and len(pay) < cost:
        game.used_abilities.add(building)
    return cards


def _touch_swap(game: State) -> None:
    """Any action but the swap right after a refresh forfeits the swap (R5)."""
    if game.swap == "refreshed":
        game.swap = "used"


def _end(game: State) -> None:
    seat = game.active
    village = game.villages[seat]
    drawn: list[str] = []
    while len(village.hand) + len(drawn) < game.hand_limit(seat):
        card = game.draw_action()
        if card is None:
            break
        drawn.append(card)
    village.hand = sort_cards(village.hand + drawn)
    game.log(
        "draw", {"seat": seat, "count": len(drawn)}, {"seat": seat, "cards": sort_cards(drawn)}
    )
    game.active = (seat + 1) % game.players
    game.swap = "open"
    game.used_symbols = set()
    game.used_abilities = set()
    game.turn_number += 1
    game.log("turn", {"seat": game.active, "turn": game.turn_number})


def _refresh(game: State, card: str) -> None:
    village = game.villages[game.active]
    village.hand.remove(card)
    game.action_discard.append(card)
    old = game.action_display
    game.action_discard.extend(old)
    game.action_display = []
    _refill_action_display(game)
    game.swap = "refreshed"
    game.log(
        "refresh",
        {
            "seat": game.active,
            "discarded": card,
            "old": old,
            "display": list(game.action_display),
        },
    )


def _refill_action_display(game: State) -> None:
    while len(game.action_display) < game.cards.board.action_display:
        card = game.draw_action()
        if card is None:
            break
        game.action_display.append(card)
    game.action_display = sort_cards(game.action_display)


def _swap(game: State, mine: str, theirs: str) -> None:
    village = game.villages[game.active]
    village.hand.remove(mine)
    village.hand = sort_cards([*village.hand, theirs])
    game.action_display.remove(theirs)
    game.action_display = sort_cards([*game.action_display, mine])
    game.swap = "used"
    game.log("swap", {"seat": game.active, "gave": mine, "took": theirs})


def _recruit(game: State, *cards: str) -> None:
    _touch_swap(game)
    seat = game.active
    viking = viking_of(cards[0])
    _spend(game, seat, cards, "recruit-vikings")
    count = RECRUITS[len(cards)]
    for building_id, ability in game.abilities(seat):
        if ability.effect == "extra-vikings" and building_id not in game.used_abilities:
            game.used_abilities.add(building_id)
            count += ability.amount
            break
    game.log("recruit", {"seat": seat, "cards": list(cards), "viking": viking, "count": count})
    _gain_vikings(game, viking, count)


def _gain_vikings(game: State, viking: str, count: int) -> None:
    """Vikings from the reserve, then (R15) from the players with the most."""
    seat = game.active
    village = game.villages[seat]
    taken = min(count, game.reserve[viking])
    game.reserve[viking] -= taken
    village.vikings[viking] += taken
    game.log("vikings", {"seat": seat, "viking": viking, "from_reserve": taken})
    game.recruiting = Recruiting(viking, count - taken)
    if game.recruiting.missing and takeable(game):
        game.decision_name = "take-viking"
    else:
        _after_gain(game)


def _after_gain(game: State) -> None:
    seat = game.active
    if game.villages[seat].viking_count > game.viking_limit(seat):
        game.decision_name = "release-viking"
    else:
        game.recruiting = None
        game.decision_name = "turn"


def _take(game: State, seat_text: str) -> None:
    recruiting = game.recruiting
    assert recruiting is not None
    other = int(seat_text)
    viking = recruiting.viking
    game.villages[other].vikings[viking] -= 1
    game.villages[game.active].vikings[viking] += 1
    recruiting.missing -= 1
    recruiting.took_from_others = True
    game.log("take", {"seat": game.active, "from": other, "viking": viking})
    if not recruiting.missing or not takeable(game):
        _after_gain(game)


def _stop(game: State) -> None:
    game.log("stop", {"seat": game.active})
    _after_gain(game)


def _release(game: State, viking: str) -> None:
    game.villages[game.active].vikings[viking] -= 1
    game.reserve[viking] += 1
    game.log("release", {"seat": game.active, "viking": viking})
    _after_gain(game)


def _hero(game: State, hero_id: str, *pay: str) -> None:
    _touch_swap(game)
    seat = game.active
    village = game.villages[seat]
    slot = game.hero_display.index(hero_id)
    cards = _spend(game, seat, pay, "recruit-hero", game.cards.board.hero_slots[slot].cost)
    if village.hero is not None:
        game.hero_deck.append(village.hero)
    village.hero = hero_id
    glory = game.cards.board.hero_slots[slot].glory
    village.glory += glory
    # the heroes left of the taken one move right; a new one comes in on the left
    game.hero_display[1 : slot + 1] = game.hero_display[0:slot]
    game.hero_display[0] = top(game.hero_deck)
    game.log(
        "hero",
        {
            "seat": seat,
            "hero": hero_id,
            "slot": slot,
            "cards": cards,
            "glory": glory,
            "new": game.hero_display[0],
        },
    )


def _ability(game: State, *target: str) -> None:
    _touch_swap(game)
    seat = game.active
    village = game.villages[seat]
    hero = game.hero_card(seat)
    assert hero is not None and hero.ability is not None
    ability = hero.ability
    village.hero = None
    game.hero_deck.append(hero.id)
    game.log(
        "ability",
        {"seat": seat, "hero": hero.id, "effect": ability.effect, "target": list(target)},
    )
    if ability.effect == "gain-material":
        village.materials = min(village.materials + ability.amount, game.empty_plots(seat))
    elif ability.effect == "repair":
        ship = game.longship(seat, target[0])
        ship.damage = max(ship.damage - ability.amount, 0)
    elif ability.effect == "return-ship":
        game.longship(seat, target[0]).away = False
    else:
        assert ability.effect == "recruit-vikings" and ability.viking is not None
        _gain_vikings(game, ability.viking, ability.amount)


def _build(game: State, building_id: str, *pay: str) -> None:
    _touch_swap(game)
    seat = game.active
    village = game.villages[seat]
    cards = _spend(game, seat, pay, "build", COSTS["build"])
    village.materials -= 1
    village.buildings.append(building_id)
    slot = game.building_display.index(building_id)
    game.building_display[slot] = top(game.building_deck)
    game.log(
        "build",
        {
            "seat": seat,
            "building": building_id,
            "cards": cards,
            "new": game.building_display[slot],
        },
    )
    _refresh_buildings(game)


def _refresh_buildings(game: State) -> None:
    """R10: while no displayed building is buildable by anyone, replace the display."""
    board = game.cards.board
    for _ in range(len(game.cards.buildings)):
        shown = [b for b in game.building_display if b is not None]
        if any(game.anyone_can_build(b) for b in shown) or not game.building_deck:
            return
        if not any(game.anyone_can_build(b) for b in game.building_deck):
            return
        game.building_deck.extend(shown)
        game.building_display = [top(game.building_deck) for _ in range(board.building_display)]
        game.log("buildings-replaced", {"display": list(game.building_display)})


def _material(game: State, *pay: str) -> None:
    _touch_swap(game)
    seat = game.active
    cards = _spend(game, seat, pay, "material", game.material_cost(seat))
    game.villages[seat].materials += 1
    game.log("material", {"seat": seat, "cards": cards})


def _ship(game: State, ship_id: str, *pay: str) -> None:
    _touch_swap(game)
    seat = game.active
    cards = _spend(game, seat, pay, "ship", COSTS["ship"])
    game.villages[seat].ships.append(Longship(ship_id))
    slot = game.ship_display.index(ship_id)
    game.ship_display[slot] = top(game.ship_deck)
    game.log(
        "ship", {"seat": seat, "ship": ship_id, "cards": cards, "new": game.ship_display[slot]}
    )


def _return(game: State, ship_id: str, *pay: str) -> None:
    _touch_swap(game)
    seat = game.active
    cards = _spend(game, seat, pay, "return", COSTS["return"])
    game.longship(seat, ship_id).away = False
    game.log("return", {"seat": seat, "ship": ship_id, "cards": cards})


def _repair(game: State, ship_id: str, *pay: str) -> None:
    _touch_swap(game)
    seat = game.active
    cards = _spend(game, seat, pay, "repair", COSTS["repair"])
    game.longship(seat, ship_id).damage -= 1
    game.log("repair", {"seat": seat, "ship": ship_id, "cards": cards})


# --- the raid -----------------------------------------------------------------------


def _raid(game: State, raid_id: str, ship_id: str, *sent: str) -> None:
    _touch_swap(game)
    seat = game.active
    village = game.villages[seat]
    position = game.ocean.index(raid_id)
    for viking in sent:
        village.vikings[viking] -= 1
        game.reserve[viking] += 1
    asked = [(seat + step) % game.players for step in range(1, game.players)]
    game.raid = RaidInProgress(raid_id, position, ship_id, tuple(sent), asked)
    game.log(
        "raid",
        {
            "seat": seat,
            "raid": raid_id,
            "position": position,
            "ship": ship_id,
            "sent": list(sent),
        },
    )
    game.decision_name = "modify"


def _modify(game: State, card: str) -> None:
    raid = game.raid
    assert raid is not None
    seat = raid.asked.pop(0)
    game.villages[seat].hand.remove(card)
    raid.requirements.append(card)
    raid.modifiers.append(seat)
    game.log("modify", {"seat": seat, "card": card})
    _next_modifier(game)


def _pass(game: State) -> None:
    raid = game.raid
    assert raid is not None
    seat = raid.asked.pop(0)
    game.log("pass", {"seat": seat})
    _next_modifier(game)


def _next_modifier(game: State) -> None:
    raid = game.raid
    assert raid is not None
    if raid.asked and len(raid.requirements) < REQUIREMENTS:
        return
    raid.asked = []
    revealed: list[str] = []
    while len(raid.requirements) < REQUIREMENTS:
        card = game.draw_action()
        if card is None:
            break
        raid.requirements.append(card)
        revealed.append(card)
    game.log("reveal", {"cards": revealed, "requirements": list(raid.requirements)})
    game.decision_name = "match"
    _maybe_end_matching(game)


def _maybe_end_matching(game: State) -> None:
    raid = game.raid
    assert raid is not None
    symbols = {action_of(c) for c in raid.requirements}
    if not any(action_of(c) in symbols for c in game.villages[game.active].hand):
        _finish_raid(game)


def _match(game: State, card: str) -> None:
    raid = game.raid
    assert raid is not None
    village = game.villages[game.active]
    village.hand.remove(card)
    required = next(r for r in raid.requirements if action_of(r) == action_of(card))
    raid.requirements.remove(required)
    raid.matched += 1
    game.action_discard.extend((card, required))
    game.log("match", {"seat": game.active, "card": card, "requirement": required})
    _maybe_end_matching(game)


def _done(game: State) -> None:
    game.log("done", {"seat": game.active})
    _finish_raid(game)


def _finish_raid(game: State) -> None:
    """Steps F to H: glory, damage, marker swap, the ocean, the hero, the picks."""
    raid = game.raid
    assert raid is not None
    seat = game.active
    village = game.villages[seat]
    card = game.cards.raid(raid.raid)
    zone = game.cards.board.ocean_slots[raid.position]
    hero = game.hero_card(seat)
    bonus = 0
    if hero is not None and hero.ability is not None and hero.ability.effect == "raid-glory":
        bonus = hero.ability.amount
    gained = card.glory + zone.glory + bonus
    village.glory += gained
    unmatched = len(raid.requirements)
    change = 1 - unmatched  # 0/1/2/3 open cards: +1/0/-1/-2
    before = village.glory
    village.glory = max(village.glory + change, 0)
    game.action_discard.extend(raid.requirements)
    village.raids.append(raid.raid)
    ship = game.longship(seat, raid.ship)
    ship.damage += 1
    ship.away = True
    ship_card = game.cards.ship(ship.id)
    destroyed = ship.damage >= ship_card.range + ship_card.extra_range
    if destroyed:
        village.ships.remove(ship)
        game.ship_deck.append(ship.id)
    game.log(
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
    zone_index = game.cards.board.ocean.index(zone)
    if zone_index in game.markers and game.spare_markers:
        old = game.markers[zone_index]
        game.markers[zone_index] = game.spare_markers.pop(0)
        game.spare_markers.append(old)
    remaining = [r for r in game.ocean if r is not None and r != raid.raid]
    new = top(game.raid_deck)
    if new is not None:
        remaining.append(new)
    game.ocean = remaining + [None] * (len(game.ocean) - len(remaining))
    if hero is not None:
        village.hero = None
        game.hero_deck.append(hero.id)
    game.log(
        "ocean",
        {
            "ocean": list(game.ocean),
            "markers": {str(z): v for z, v in game.markers.items()},
            "new": new,
        },
    )
    game.raid = None
    if not any(game.ocean) and not game.raid_deck:
        _end_game(game)
        return
    game.pickers = list(raid.modifiers)
    game.decision_name = "pick" if game.pickers and game.action_display else "turn"
    if game.decision_name == "turn":
        _end_picks(game)


def _pick(game: State, card: str) -> None:
    seat = game.pickers.pop(0)
    game.action_display.remove(card)
    game.villages[seat].hand = sort_cards([*game.villages[seat].hand, card])
    game.log("pick", {"seat": seat, "card": card})
    if not game.pickers or not game.action_display:
        _end_picks(game)


def _end_picks(game: State) -> None:
    game.pickers = []
    _refill_action_display(game)
    game.decision_name = "turn"


# --- the end ------------------------------------------------------------------------


def _end_game(game: State) -> None:
    breakdown = tuple(game.score(seat) for seat in range(game.players))
    scores = tuple(sum(b.values()) for b in breakdown)
    raids = tuple(len(v.raids) for v in game.villages)
    best = max(zip(scores, (-r for r in raids), strict=True))
    winners = tuple(s for s in range(game.players) if (scores[s], -raids[s]) == best)
    game.final = Outcome(scores, winners, raids, breakdown)
    game.decision_name = None
    game.pickers = []
    game.log("end", {"scores": list(scores), "winners": list(winners), "raids": list(raids)})


_MOVES: Final[dict[str, Callable[..., None]]] = {
    "end": _end,
    "swap": _swap,
    "refresh": _refresh,
    "recruit": _recruit,
    "hero": _hero,
    "ability": _ability,
    "build": _build,
    "material": _material,
    "ship": _ship,
    "return": _return,
    "repair": _repair,
    "raid": _raid,
    "take": _take,
    "stop": _stop,
    "release": _release,
    "modify": _modify,
    "pass": _pass,
    "match": _match,
    "done": _done,
    "pick": _pick,
}
"""The move of each verb (the verbs of :data:`.actions.VERBS`)."""
