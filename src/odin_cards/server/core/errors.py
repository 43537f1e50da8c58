"""The domain's refusals: a stable code and a message for people; nothing else.

The domain never speaks HTTP or WebSocket. The HTTP layer maps each code to a status
(:data:`odin_cards.server.transport.errors.STATUS`), the WebSocket layer sends it as an ``error``
message. ``docs/protocol.md`` lists the codes; clients may rely on them.
"""

from __future__ import annotations

CODES = frozenset(
    {
        # an action (WebSocket)
        "malformed",
        "illegal",
        "stale",
        "not_your_turn",
        "not_seated",
        "game_over",
        "not_started",
        # a table or a seat (both layers)
        "not_found",
        "broken",
        "expired",
        "unauthorized",
        "no_seat",
        "taken",
        "bad_name",
        "account_name",
        "bad_game",
        "bad_players",
        "bad_bots",
        "bad_options",
        "bad_clock",
        "bad_vote",
        "not_handed",
        "not_finished",
        "running",
        # chat and rematch
        "bad_chat",
        "chat_full",
        "bad_rematch",
        "started",
        "cancelled",
        "locked",
        # hints and analysis (issue #13)
        "hints_off",
        "analysis_busy",
        # people: Play now, friends, blocks, reports (issue #10)
        "bad_choice",
        "banned",
        "queue_full",
        "too_soon",
        "no_person",
        "blocked",
        "too_many",
        "not_friend",
        "bad_report",
        # ratings: leaderboards (issue #10)
        "bad_class",
        "bad_page",
        # the server's state or limits
        "unavailable",
        "too_many_tables",
        "too_many_bots",
        # the transport's own (WebSocket)
        "too_large",
        "rate_limited",
    }
)


class DomainError(Exception):
    """A request the domain refuses; nothing changed. ``id`` echoes a client action's id."""

    def __init__(self, code: str, message: str, id: str | None = None) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.id = id
