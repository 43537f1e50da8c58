"""Adapters of the core's ports: SQL storage, the database lock, in-memory stores,
Redis, worker processes, metrics.

The server opens its database with :func:`open_database` (which takes the database's lock
with :func:`acquire_database`, migrates it and starts the event log); the result is the
core's :class:`~odin_cards.server.core.ports.Storage`. Tests of the core use the
in-memory one instead, :class:`~.memory.MemoryDatabase`.
"""

from odin_cards.server.adapters.database import Database, open_database
from odin_cards.server.adapters.db_lock import acquire_database, check_database
from odin_cards.server.adapters.sql_log import SqlEventLog
from odin_cards.server.adapters.sql_store import SqlTableStore

__all__ = [
    "Database",
    "SqlEventLog",
    "SqlTableStore",
    "acquire_database",
    "check_database",
    "open_database",
]
