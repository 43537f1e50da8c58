"""The Odin server: lobby, authoritative tables, WebSocket play, persistence, bot seats.

``odin serve`` runs :func:`create_app` under uvicorn. Layout: :mod:`.app` (ASGI app and
pages), :mod:`.api` (lobby HTTP API), :mod:`.ws` and :mod:`.connection` (WebSocket),
:mod:`.messages` (the protocol's messages), :mod:`.domain` (tables and their changes,
talking to ports), :mod:`.adapters` (the ports on SQL and in memory), :mod:`.bots` (bot
seats in worker processes). The protocol is ``docs/protocol.md``.
"""

from odin_cards.server.app import create_app
from odin_cards.server.settings import Settings, sqlite_url

__all__ = ["Settings", "create_app", "sqlite_url"]
