"""Tables name their game and rules version; the log is keyed by action number.

A 0.1 database keys each logged action by the engine's history length before it
(``version``), which changes whenever the engine writes history differently. From here
on an action's key is its number at its table (0, 1, 2, ...): the rows of each table are
numbered in their old ``version`` order, so every game replays exactly as before.
Tables gain ``game`` (every 0.1 table is Odin), ``rules_version`` (1) and
``broken_reason``; ``options`` becomes ``setup`` (the same JSON). No downgrade: back the
database up before upgrading if you may want 0.1 back.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import warnings

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Adding columns with constant defaults is a plain ALTER TABLE on SQLite too (batch
    # mode does not copy the table for it): ``tables`` is the parent of ``seats`` and
    # ``events``, and copying a parent under foreign keys is what batch mode cannot do.
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("game", sa.String(16), nullable=False, server_default="odin"))
        batch.add_column(sa.Column("rules_version", sa.Integer, nullable=False, server_default="1"))
        batch.add_column(sa.Column("broken_reason", sa.String(500), nullable=True))
    # SQLite (3.25+) and PostgreSQL both rename a column in place.
    op.execute("ALTER TABLE tables RENAME COLUMN options TO setup")

    op.add_column("events", sa.Column("number", sa.Integer, nullable=True))
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:  # any SQLite (UPDATE ... FROM needs 3.33); each count is an index range
        op.execute(
            "UPDATE events SET number = (SELECT COUNT(*) FROM events AS earlier"
            " WHERE earlier.table_id = events.table_id AND earlier.version < events.version)"
        )
    else:  # one pass, however long the logs
        op.execute(
            "UPDATE events SET number = numbered.number FROM (SELECT table_id, version,"
            " ROW_NUMBER() OVER (PARTITION BY table_id ORDER BY version) - 1 AS number"
            " FROM events) AS numbered"
            " WHERE events.table_id = numbered.table_id AND events.version = numbered.version"
        )
    if sqlite:
        # SQLite cannot change a primary key in place: batch mode copies the table. (It
        # warns that the copied table's key differs from the old one's: that is the point.)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", ".*not matching locally", sa.exc.SAWarning)
            with op.batch_alter_table("events", recreate="always") as batch:
                batch.drop_column("result_version")
                batch.drop_column("version")
                batch.alter_column("number", existing_type=sa.Integer, nullable=False)
                batch.create_primary_key("events_pkey", ["table_id", "number"])
    else:
        op.drop_constraint("events_pkey", "events", type_="primary")
        op.drop_column("events", "result_version")
        op.drop_column("events", "version")
        op.alter_column("events", "number", existing_type=sa.Integer, nullable=False)
        op.create_primary_key("events_pkey", "events", ["table_id", "number"])


def downgrade() -> None:
    raise NotImplementedError(
        "a database upgraded to 0002 cannot go back to 0.1: restore its backup instead"
    )
