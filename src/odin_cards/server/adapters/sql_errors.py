"""What a database failure means to the core: nothing written, or outcome unknown.

Every SQL adapter runs its statements inside :func:`storing` and commits through
:func:`committing`, so the core sees only the ports' failures
(:class:`~odin_cards.server.core.ports.StoreUnavailable`,
:class:`~odin_cards.server.core.ports.CommitUnknown`), never a driver's exception.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from odin_cards.server.core.ports import CommitUnknown, StoreUnavailable

FAILURES: tuple[type[Exception], ...] = (sa.exc.SQLAlchemyError, OSError)
"""What a database, its driver or the network raise when they fail (timeouts and
dropped connections are ``OSError`` too)."""


def refused(error: Exception) -> bool:
    """Whether the database refused the data (a duplicate key, a broken constraint, a value
    it cannot hold, e.g. a NUL on PostgreSQL): then nothing was stored."""
    if isinstance(error, sa.exc.IntegrityError | sa.exc.DataError):
        return True
    # asyncpg's errors reach SQLAlchemy as one class; their SQLSTATE tells them apart:
    # class 22 is "data exception", 23 "integrity constraint violation".
    state = getattr(getattr(error, "orig", None), "sqlstate", None)
    return isinstance(state, str) and state[:2] in ("22", "23")


class Refused(StoreUnavailable):
    """The database refused the write (a duplicate key, a broken constraint, a value too
    long or with a NUL on PostgreSQL): surely not stored. The group commit retries a
    refused batch row by row, so one refused row sinks no other table's."""


@contextmanager
def storing(what: str) -> Iterator[None]:
    """Statements before the commit: any failure means nothing was written."""
    try:
        yield
    except FAILURES as error:
        if refused(error):
            raise Refused(f"the database refused to {what}") from error
        raise StoreUnavailable(f"the database could not {what}") from error


@contextmanager
def committing(what: str) -> Iterator[None]:
    """The commit itself: a refusal is sure, anything else (the connection dropped, a
    timeout) leaves the outcome unknown."""
    try:
        yield
    except FAILURES as error:
        if refused(error):
            raise Refused(f"the database refused to {what}") from error
        raise CommitUnknown(f"the outcome of {what} is unknown") from error
