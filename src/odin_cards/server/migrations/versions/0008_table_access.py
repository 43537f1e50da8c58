"""Who may do what at a waiting table: its creator's token, seats kept free.

``tables.creator_hash`` is the SHA-256 of the token given to whoever created the table
(it cancels a waiting table and locks or frees its seats); tables from before it have
none, so nobody can. ``seats.locked`` marks a free seat the creator keeps free. A
cancelled table's status is ``cancelled`` (the status column holds it already).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator_hash", sa.String(64), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("locked", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("locked")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator_hash")
