"""The browser platform's server: a pure asyncio core, its adapters, the transport, one
composition root.

- :mod:`.core`: tables, features and people, talking only to ports; it imports no web
  framework, database driver or game (``docs/server.md``, Layout);
- :mod:`.adapters`: the ports on SQL, Redis, worker processes and memory;
- :mod:`.transport`: HTTP and WebSocket (FastAPI/Starlette), the pages;
- :mod:`.app`: the composition root (``create_app``), which ``odin serve`` runs under uvicorn.

Importing this package imports none of them; it only checks that the ``server`` extra
is installed (:class:`odin_cards.extras.MissingExtra` otherwise, naming it).
"""

from odin_cards.extras import require

require("server", "odin_cards.server")
