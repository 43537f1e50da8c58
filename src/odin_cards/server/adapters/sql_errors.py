"""What a database failure means to the domain: nothing written, or outcome unknown.

Every SQL adapter runs its statements inside :func:`storing` and commits through
:func:`committing`, so the domain sees only the ports' failures
(:class:`~..domain.ports.StoreUnavailable`, :class:`~..domain.ports.CommitUnknown`), never a
driver's exception.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from ..domain.ports import CommitUnknown, StoreUnavailable

FAILURES: tuple[type[Exception], ...] = (sa.exc.SQLAlchemyError, OSError)
"""What a database, its driver or the network raise when they fail (timeouts and
dropped connections are ``OSError`` too)."""


class Refused(StoreUnavailable):
    """The database refused the write (a duplicate key, a broken constraint): surely not
    stored. The group commit retries a refused batch row by row, so one refused row sinks
    no other table's."""


@contextmanager
def storing(what: str) -> Iterator[None]:
    """Statements before the commit: any failure means nothing was written."""
    try:
        yield
    except sa.exc.IntegrityError as error:
        raise Refused(f"the database refused to {what}") from error
    except FAILURES as error:
        raise StoreUnavailable(f"the database could not {what}") from error


@contextmanager
def committing(what: str) -> Iterator[None]:
    """The commit itself: a refusal is sure, anything else (the connection dropped, a
    timeout) leaves the outcome unknown."""
    try:
        yield
    except sa.exc.IntegrityError as error:
        raise Refused(f"the database refused to {what}") from error
    except FAILURES as error:
        raise CommitUnknown(f"the outcome of {what} is unknown") from error
