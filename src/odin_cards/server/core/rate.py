"""A token bucket: how the server limits how often one client may do something (send
messages, say hello, write in the chat, ask the bots for work) without a timer of its own."""

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

    def level(self) -> float:
        """The tokens there are now."""
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        return self._tokens

    def full(self) -> bool:
        """Whether the bucket has refilled to its burst (a holder may forget it)."""
        return self.level() >= self._burst

    def take(self, count: float = 1) -> bool:
        """Take ``count`` tokens if there are as many; ``False`` (and nothing taken) if not."""
        if self.level() >= count:
            self._tokens -= count
            return True
        return False
