"""What one seat may see of a game, as a JSON-safe dict (the server sends it as is).

Hidden: every other seat's hand and the order of every deck. Everything else at the
table is public and in the view: the displays, the ocean and its markers, each village,
hand sizes, the discard pile (every discard is face up), a raid in progress, and the
actions the seat may take when it is the one to move. Cards appear with their data
(name, glory, range, ability) so that a client needs no card file.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from odin_cards.name_of_odin.rules.errors import SeatError, brief
from odin_cards.name_of_odin.rules.legal import legal
from odin_cards.name_of_odin.rules.state import State
from odin_cards.name_of_odin.rules.symbols import CARD_CODES


def view_of(game: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator); :class:`SeatError` for no seat of it."""
    if seat is not None and (isinstance(seat, bool) or seat not in range(game.players)):
        raise SeatError(f"not a seat of this game: {brief(seat)}")
    cards = game.cards
    board = cards.board

    def card(card_id: str | None) -> dict[str, Any] | None:
        return None if card_id is None else cards.by_id[card_id].to_dict()

    villages = []
    for index, village in enumerate(game.villages):
        villages.append(
            {
                "seat": index,
                "glory": village.glory,
                "vikings": dict(village.vikings),
                "viking_limit": game.viking_limit(index),
                "buildings": [card(b) for b in village.buildings],
                "materials": village.materials,
                "hero": card(village.hero),
                "ships": [
                    {
                        **cards.ship(s.id).to_dict(),
                        "damage": s.damage,
                        "away": s.away,
                        "reach": game.ship_range(s),
                    }
                    for s in village.ships
                ],
                "ship_slots": game.ship_slots(index),
                "raids": list(village.raids),
                "hand_size": len(village.hand),
                "hand_limit": game.hand_limit(index),
            }
        )
    zones = board.ocean_slots
    ocean = []
    for position, raid_id in enumerate(game.ocean):
        zone = zones[position]
        marker = game.markers.get(board.ocean.index(zone))
        ocean.append(
            {
                "position": position,
                "zone": zone.name,
                "range": zone.range,
                "glory": zone.glory,
                "marker": marker,
                "raid": card(raid_id),
            }
        )
    raid = game.raid
    discard = Counter(game.action_discard)
    mover = game.current_player
    view: dict[str, Any] = {
        "game": "name-of-odin",
        "cards": cards.name,
        "players": game.players,
        "seat": seat,
        "active": game.active,
        "to_move": mover,
        "decision": game.decision,
        "action_count": game.action_count,
        "turn": game.turn_number,
        "first_player": game.first_player,
        "hand": list(game.villages[seat].hand) if seat is not None else None,
        "legal": [a.text for a in legal(game)] if seat is not None and seat == mover else [],
        "turn_state": {
            "swap": game.swap,
            "used_symbols": sorted(game.used_symbols),
            "used_abilities": sorted(game.used_abilities),
        },
        "villages": villages,
        "reserve": dict(game.reserve),
        "action_display": list(game.action_display),
        "action_deck": len(game.action_deck),
        "action_discard": {code: discard[code] for code in CARD_CODES if discard[code]},
        "building_display": [card(b) for b in game.building_display],
        "building_deck": len(game.building_deck),
        "hero_display": [
            {"slot": n, "cost": slot.cost, "glory": slot.glory, "hero": card(game.hero_display[n])}
            for n, slot in enumerate(board.hero_slots)
        ],
        "hero_deck": len(game.hero_deck),
        "ship_display": [card(s) for s in game.ship_display],
        "ship_deck": len(game.ship_deck),
        "ocean": ocean,
        "raid_deck": len(game.raid_deck),
        "spare_markers": list(game.spare_markers),
        "raid": None
        if raid is None
        else {
            "raid": raid.raid,
            "position": raid.position,
            "ship": raid.ship,
            "sent": list(raid.sent),
            "asked": list(raid.asked),
            "modifiers": list(raid.modifiers),
            "requirements": list(raid.requirements),
            "matched": raid.matched,
        },
        "recruiting": None
        if game.recruiting is None
        else {
            "viking": game.recruiting.viking,
            "missing": game.recruiting.missing,
            "took_from_others": game.recruiting.took_from_others,
        },
        "pickers": list(game.pickers),
        "outcome": None if game.outcome is None else game.outcome.to_dict(),
    }
    return view
