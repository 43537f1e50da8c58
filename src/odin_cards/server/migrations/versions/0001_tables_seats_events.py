"""Tables, seats and the event log.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("previous_table", sa.String(16), nullable=True),
        sa.Column("next_table", sa.String(16), nullable=True),
    )
    op.create_index("tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(32), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_index("seats_token_hash", "seats", ["token_hash"])
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("result_version", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("client_id", sa.String(64), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "client_id", name="events_client_id"),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_index("seats_token_hash", "seats")
    op.drop_table("seats")
    op.drop_index("tables_status", "tables")
    op.drop_table("tables")
