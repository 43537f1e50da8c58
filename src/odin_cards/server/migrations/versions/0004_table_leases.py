"""Several server processes on one database: process heartbeats and table leases.

``processes`` holds one row per running server process (its heartbeat's expiry);
``table_leases`` names the process that owns each running table and its fencing token,
which grows by one on every takeover (``docs/server.md``, Several processes). A single
process never writes them.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "processes",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(40), nullable=True),
        sa.Column("token", sa.BigInteger, nullable=False),
    )
    op.create_index("table_leases_owner", "table_leases", ["owner"])


def downgrade() -> None:
    op.drop_index("table_leases_owner", "table_leases")
    op.drop_table("table_leases")
    op.drop_table("processes")
