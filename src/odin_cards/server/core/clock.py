"""The system clock, the production :class:`~.ports.Clock` (tests inject a fake one)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime


class SystemClock:
    """Wall-clock time in UTC, the monotonic clock, and asyncio's sleep."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
