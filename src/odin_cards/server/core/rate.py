"""A token bucket: how the server limits how often one client may do something (send
messages, say hello, write in the chat) without a timer of its own."""

from __future__ import annotations

from collections.abc import Callable


class Bucket:
    """``burst`` at once, refilled at ``rate`` a second, read from ``clock`` (seconds)."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self._rate = rate
        self._burst = burst
        self._tokens = burst
        self._clock = clock
        self._stamp = clock()

    def full(self) -> bool:
        """Whether the bucket has refilled to its burst (a holder may forget it)."""
        elapsed = self._clock() - self._stamp
        return self._tokens + elapsed * self._rate >= self._burst

    def take(self) -> bool:
        """Take one token if there is one; ``False`` (and nothing taken) if not."""
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False
