"""Logs never hold a secret: no seat token, no hand, at any log level.

At ``--log-level debug`` uvicorn's WebSocket protocol logs every frame, which carries seat
tokens (``hello``) and hands (``update``), and SQLAlchemy logs every statement with its
parameters (a new table's seed). :func:`guard_logs` keeps those loggers above the levels
that write them whatever the level asked for, and puts :class:`Redact` on every handler so
that anything else that slips through is masked.
"""

from __future__ import annotations

import logging
import re

FRAME_LOGGERS = ("uvicorn.error", "websockets")
"""Loggers that write WebSocket frames at DEBUG (uvicorn passes ``uvicorn.error`` to the
websockets protocol): kept at INFO."""
SQL_LOGGERS = ("sqlalchemy", "aiosqlite", "asyncpg")
"""Loggers that write SQL statements with their parameters (seeds, names, token hashes) at
INFO or DEBUG: kept at WARNING."""

_SECRETS = (
    # a seat token: 32 random bytes in URL-safe base64, alone
    (re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])"), "[token]"),
    (re.compile(r'"token"\s*:\s*"[^"]*"'), '"token":"[token]"'),
    (re.compile(r'"hand"\s*:\s*\[[^\]]*\]'), '"hand":["[hand]"]'),
    (re.compile(r'"seed"\s*:\s*-?\d+'), '"seed":"[seed]"'),
    # SQLAlchemy's errors quote the statement's parameters (names, seeds, token hashes)
    (re.compile(r"\[parameters: [^\n]*"), "[parameters: hidden]"),
)


def redact(text: str) -> str:
    for pattern, mask in _SECRETS:
        text = pattern.sub(mask, text)
    return text


class Redact(logging.Filter):
    """Masks seat tokens, hands, seeds and SQL parameters in a record's message and its
    traceback (never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format: leave it to the handler to report
            return True
        clean = redact(message)
        if clean != message:
            record.msg = clean
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(_FORMATTER.formatException(record.exc_info))
        return True


_FORMATTER = logging.Formatter()


_REDACT = Redact()


def guard_logs() -> None:
    """Keep frame loggers at INFO and SQL loggers at WARNING or above; redact every handler
    of the root and uvicorn.

    Call it after logging is configured (uvicorn configures it when its ``Config`` is made)
    and before the database engine is made (SQLAlchemy reads its logger's level then).
    """
    for names, floor in ((FRAME_LOGGERS, logging.INFO), (SQL_LOGGERS, logging.WARNING)):
        for name in names:
            logger = logging.getLogger(name)
            if logger.getEffectiveLevel() < floor:
                logger.setLevel(floor)
    for name in ("", "uvicorn", "uvicorn.error", "uvicorn.access", "odin_cards"):
        logger = logging.getLogger(name)
        if _REDACT not in logger.filters:
            logger.addFilter(_REDACT)
        for handler in logger.handlers:
            if _REDACT not in handler.filters:
                handler.addFilter(_REDACT)
