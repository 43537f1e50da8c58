"""Quotas by client address: tables created an hour, hellos a minute, WebSockets open;
and by account and address: the account's seat links and claims an hour.

A public server meets clients that create tables in a loop or open sockets and say
nothing. These counters keep one address from taking what others need. The address is
the peer of the TCP connection (the ASGI scope's ``client``), an IPv6 one by its /64
(:func:`address_key`); behind a reverse proxy every
client shares the proxy's address, so raise the limits there or let the proxy enforce them.
"""

from __future__ import annotations

import ipaddress
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from odin_cards.server.settings import Settings

HOUR = 3600.0
MINUTE = 60.0


def address_key(address: str) -> str:
    """The key under which a client address is counted: a whole IPv4 address, an IPv6
    address's /64 network (one host is given a whole /64: its other addresses are the same
    client), an IPv4-mapped IPv6 address as its IPv4 address; anything else (no address,
    a name) as it is."""
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        mapped = parsed.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def client_address(scope: Mapping[str, Any]) -> str:
    """The quota key of an ASGI connection's peer (:func:`address_key`; ``"unknown"`` when
    the server gives none): every quota and rate kept per client address keys on this."""
    client = scope.get("client")
    return address_key(str(client[0])) if client else "unknown"


@dataclass(frozen=True, slots=True)
class Refused:
    """A quota said no: the stable code, an HTTP status, a message and when to retry."""

    code: str
    status: int
    message: str
    retry_after: int | None = None


def _hourly(limit: int, what: str, whose: str, retry: int) -> Refused:
    """An hourly limit reached: ``rate_limited``, with when to try again."""
    return Refused(
        "rate_limited",
        429,
        f"at most {limit} {what} an hour from {whose}; try again in {retry} seconds",
        retry,
    )


class Window:
    """Times of the last hour's events per key (a sliding window): at most ``limit`` an
    hour per key. Keys whose last event is an hour old are forgotten once there are many,
    so the map cannot grow forever."""

    def __init__(self) -> None:
        self._stamps: dict[str, deque[float]] = {}

    def wait(self, key: str, limit: int, now: float) -> int | None:
        """Seconds ``key`` must wait before its next event, or ``None`` if it may have one
        now (not counted: :meth:`count` does)."""
        stamps = self._stamps.get(key)
        while stamps and stamps[0] <= now - HOUR:
            stamps.popleft()
        if stamps is None or len(stamps) < limit:
            return None
        return max(1, int(stamps[0] + HOUR - now) + 1) if stamps else int(HOUR)

    def count(self, key: str, now: float) -> None:
        self._stamps.setdefault(key, deque()).append(now)
        if len(self._stamps) < 1024:
            return
        for old in [k for k, s in self._stamps.items() if not s or s[-1] <= now - HOUR]:
            del self._stamps[old]


class Quotas:
    """The counters of one server process (one per application)."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self._settings = settings
        self._clock = clock
        self._created = Window()
        self._seat_writes = Window()
        self._sockets: dict[str, int] = {}
        self._hellos: dict[str, tuple[float, float]] = {}
        self.sockets = 0
        """WebSocket connections open now."""

    # ------------------------------------------------------------ tables

    def create_table(self, address: str) -> Refused | None:
        """Count one table created by ``address``, or say why it may not create one now."""
        limit = self._settings.tables_per_hour
        now = self._clock()
        retry = self._created.wait(address, limit, now)
        if retry is not None:
            return _hourly(limit, "new tables", "one address", retry)
        self._created.count(address, now)
        return None

    # ------------------------------------------------------- account seats

    def seat_write(self, account_id: str, address: str) -> Refused | None:
        """Count one seat link or seat claim of an account (each a database write, a claim
        also a message to the table's owner), or say why it must wait: at most
        ``seat_writes_per_account`` an hour per account and ``seat_writes_per_address`` an
        hour per client address (several accounts may share one address)."""
        now = self._clock()
        limits = (
            (f"account:{account_id}", self._settings.seat_writes_per_account, "one account"),
            (f"address:{address}", self._settings.seat_writes_per_address, "one address"),
        )
        for key, limit, whose in limits:
            retry = self._seat_writes.wait(key, limit, now)
            if retry is not None:
                return _hourly(limit, "seat links and claims", whose, retry)
        for key, _, _ in limits:
            self._seat_writes.count(key, now)
        return None

    # ------------------------------------------------------------ hellos

    def hello(self, address: str) -> bool:
        """Take one ``hello`` from the address's budget (``hellos_per_minute`` times
        ``sockets_per_ip`` a minute, as many at once); ``False`` when it is spent. Each hello
        costs a full state, maybe a resync of every event: a client that reconnects in a
        loop gets no more of them than its connections could ask for."""
        budget = float(self._settings.hellos_per_minute * self._settings.sockets_per_ip)
        now = self._clock()
        tokens, stamp = self._hellos.get(address, (budget, now))
        tokens = min(budget, tokens + (now - stamp) * budget / MINUTE)
        allowed = tokens >= 1
        self._hellos[address] = (tokens - 1 if allowed else tokens, now)
        if len(self._hellos) > 1024:  # forget addresses whose budget is whole again
            for known, (left, since) in list(self._hellos.items()):
                if left + (now - since) * budget / MINUTE >= budget:
                    del self._hellos[known]
        return allowed

    # ----------------------------------------------------------- sockets

    def open_socket(self, address: str) -> Refused | None:
        """Count one more open WebSocket of ``address``, or say why it is refused."""
        if self.sockets >= self._settings.sockets:
            return Refused("unavailable", 503, "the server has too many connections; try later")
        held = self._sockets.get(address, 0)
        if held >= self._settings.sockets_per_ip:
            return Refused(
                "rate_limited",
                429,
                f"at most {self._settings.sockets_per_ip} connections from one address",
            )
        self._sockets[address] = held + 1
        self.sockets += 1
        return None

    def close_socket(self, address: str) -> None:
        held = self._sockets.get(address, 0) - 1
        if held > 0:
            self._sockets[address] = held
        else:
            self._sockets.pop(address, None)
        self.sockets -= 1
