"""Adapters of the domain's ports: SQL storage, the database lock, in-memory fakes.

The server opens its database with :func:`open_database` (which takes the database's lock
with :func:`acquire_database`, migrates it and starts the event log). Tests of the domain
use :class:`~.memory.MemoryDatabase` instead.
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
