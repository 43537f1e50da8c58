"""Odin rules version 2: a 4-colour set-up names its colour ``removal`` rule.

Rules version 2 adds the ``removal`` option, whose default (``red-or-black``: red and
black are never both in play) is not the rule every stored game was dealt with (any two
colours). So that each stored game keeps replaying exactly, every Odin table stored at
rules version 1 whose set-up has 4 colours gets ``"removal": "any-two"`` written into
its set-up, and every Odin table at version 1 moves to version 2 (a 6-colour set-up
needs no change: the option does not apply to it). No downgrade: back the database up
before upgrading if you may want the older server back.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# The columns this migration reads and writes, as they stand at 0002.
tables = sa.table(
    "tables",
    sa.column("id", sa.String),
    sa.column("game", sa.String),
    sa.column("rules_version", sa.Integer),
    sa.column("setup", sa.JSON),
)


def upgrade() -> None:
    connection = op.get_bind()
    old = (tables.c.game == "odin") & (tables.c.rules_version == 1)
    # A set-up is a small JSON object; its colours are read in Python, the same way on
    # SQLite and PostgreSQL (their JSON operators differ).
    rows = connection.execute(sa.select(tables.c.id, tables.c.setup).where(old)).all()
    for table_id, setup in rows:
        if isinstance(setup, dict) and setup.get("colours") == 4 and "removal" not in setup:
            connection.execute(
                sa.update(tables)
                .where(tables.c.id == table_id)
                .values(setup={**setup, "removal": "any-two"})
            )
    connection.execute(sa.update(tables).where(old).values(rules_version=2))


def downgrade() -> None:
    raise NotImplementedError(
        "a database upgraded to 0003 cannot go back: restore its backup instead"
    )
