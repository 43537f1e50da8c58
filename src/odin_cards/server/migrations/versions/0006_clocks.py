"""Clocks: who made each move, and a table's clock facts.

``events.by`` says who made a logged move for its seat: ``NULL`` the seat's person (or
its own bot), ``stand-in`` when the seat's clock ran out, ``bot`` the bot that took a
person's seat. ``tables.clock`` holds the facts a clock needs beyond the log (when the
game started, which people's seats a bot plays); ``{}`` for older tables, which have no
clock. Each turn's deadline follows from these and the log's times (``core/features/clocks.py``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("clock", sa.JSON, nullable=False, server_default="{}"))
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("by", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("by")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("clock")
