"""Alembic environment: migrations run on the connection the server hands over.

``odin serve`` calls :func:`odin_cards.server.adapters.sql_schema.migrate`, which puts its
connection in ``config.attributes["connection"]``; nothing here opens a database by itself.
"""

from __future__ import annotations

from alembic import context

from odin_cards.server.adapters.sql_schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through sql_schema.migrate (odin serve does)")

# transactional_ddl: the caller runs the whole upgrade in one transaction, on SQLite too
# (see sql_schema.migrate), so Alembic must not assume each statement commits itself.
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=True,
    transactional_ddl=True,
)
with context.begin_transaction():
    context.run_migrations()
