"""The ports of the server's core: what it needs from storage, bots, connections and time.

The core (tables, seats, lobby, the order check -> store -> apply -> ack -> broadcast, bot
scheduling, features, people) talks only to these protocols and records:

- :mod:`.storage`: every store (tables, log, chat, leases, accounts, ratings, profiles,
  people, Play now's queue), their failures, and :class:`~.storage.Storage`, the bundle of
  one database's stores with its health check;
- :mod:`.records` and :mod:`.people`: what those stores keep;
- :mod:`.runtime`: connections, bots, the analyst, several processes, metrics, the clock.

Adapters implement them (SQL, Redis, worker processes, memory); importing this package
loads no database, web framework or game (standard library only).
"""

from odin_cards.server.core.ports.records import (
    MAX_REASON,
    STATUSES,
    ChatLine,
    LoggedAction,
    SeatHolder,
    SeatRecord,
    StoredTable,
    TableRecord,
)
from odin_cards.server.core.ports.runtime import (
    Analyst,
    BotRequest,
    BotRunner,
    Bus,
    BusHandler,
    Clock,
    Metrics,
    Outbox,
    RequestHandler,
    Router,
)
from odin_cards.server.core.ports.storage import (
    AccountStore,
    BlockList,
    CommitUnknown,
    DatabaseInUse,
    EventLog,
    Fenced,
    LeaseStore,
    MatchStore,
    NameTaken,
    PeopleStore,
    ProfileStore,
    Ratings,
    RatingStore,
    SeatTaken,
    SocialStore,
    Storage,
    StoreUnavailable,
    TableStore,
)

__all__ = [
    "MAX_REASON",
    "STATUSES",
    "AccountStore",
    "Analyst",
    "BlockList",
    "BotRequest",
    "BotRunner",
    "Bus",
    "BusHandler",
    "ChatLine",
    "Clock",
    "CommitUnknown",
    "DatabaseInUse",
    "EventLog",
    "Fenced",
    "LeaseStore",
    "LoggedAction",
    "MatchStore",
    "Metrics",
    "NameTaken",
    "Outbox",
    "PeopleStore",
    "ProfileStore",
    "RatingStore",
    "Ratings",
    "RequestHandler",
    "Router",
    "SeatHolder",
    "SeatRecord",
    "SeatTaken",
    "SocialStore",
    "Storage",
    "StoreUnavailable",
    "StoredTable",
    "TableRecord",
    "TableStore",
]
