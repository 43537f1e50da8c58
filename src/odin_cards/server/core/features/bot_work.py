"""One budget of bot work per person and per client address (issue #29).

Bots cost the server's CPU whichever way they are asked for: a bot seat at a new table, the
bots Play now fills a table with, a hint (the strongest bot's search for a player), the
analysis of a finished game. A client that found the one way not counted could keep the
bot workers busy for everyone, so every way draws on the same budget, in units
(``Settings.bot_work_seat``, ``bot_work_hint``, ``bot_work_analysis``): a token bucket of
``bot_work_burst`` units refilled at ``bot_work_per_hour``, one for each client address
(a quota key: an IPv6 /64) and one for each account, so neither many accounts on one
address nor one account on many addresses get more. A refusal (``too_many_bots``) says
what the work was, how long to wait, and that people cost nothing.

Kept per server process: with several processes a client spread over them gets each
one's budget (the per-process caps on bot seats and analyses still hold).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from odin_cards.server.core.errors import DomainError
from odin_cards.server.core.rate import Bucket
from odin_cards.server.settings import Settings

KEPT = 4096
"""Budgets kept before those refilled to the full are forgotten (they would start full)."""


class BotWork:
    """The budgets of bot work of every person and address this process has seen."""

    def __init__(self, settings: Settings, clock: Callable[[], float]) -> None:
        self.settings = settings
        self.clock = clock
        self._buckets: dict[str, Bucket] = {}

    def draw(self, what: str, units: int, address: str | None, account: str | None) -> None:
        """Take ``units`` of bot work for ``what`` (words for the refusal) from the budget
        of ``address`` and of ``account`` (either may be unknown: ``None``), or refuse
        with ``too_many_bots`` and take nothing."""
        if units <= 0:
            return
        keys = [f"a:{address}"] if address is not None else []
        if account is not None:
            keys.append(f"p:{account}")
        buckets = [self._bucket(key) for key in keys]
        short = [b for b in buckets if b.level() < units]
        if short:
            whose = "your account" if self._buckets.get(f"p:{account}") in short else "your address"
            rate = self.settings.bot_work_per_hour / 3600.0
            wait = max(math.ceil((units - min(b.level() for b in short)) / rate), 1)
            raise DomainError(
                "too_many_bots",
                f"{whose} asked the bots for too much work lately ({what}: {units} of "
                f"{self.settings.bot_work_burst} units, {self.settings.bot_work_per_hour} "
                f"an hour); try again in {wait} seconds, or play people",
            )
        for bucket in buckets:
            bucket.take(units)

    def seats(self, count: int, address: str | None, account: str | None) -> None:
        """Bot seats at a new table (its creator's, or Play now's fill-ins)."""
        self.draw(f"{count} bot seats", count * self.settings.bot_work_seat, address, account)

    def hint(self, address: str | None, account: str | None) -> None:
        """A hint thought for a player."""
        self.draw("a hint", self.settings.bot_work_hint, address, account)

    def analysis(self, address: str | None, account: str | None) -> None:
        """The analysis of a finished game."""
        self.draw("an analysis", self.settings.bot_work_analysis, address, account)

    def _bucket(self, key: str) -> Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= KEPT:
                for known in [k for k, b in self._buckets.items() if b.full()]:
                    del self._buckets[known]
            bucket = self._buckets[key] = Bucket(
                self.settings.bot_work_per_hour / 3600.0,
                self.settings.bot_work_burst,
                self.clock,
            )
        return bucket


__all__ = ["KEPT", "BotWork"]
