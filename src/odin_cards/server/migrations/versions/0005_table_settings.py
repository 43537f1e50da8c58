"""Table settings: how a table is run apart from the game's rules.

``tables.settings`` is a JSON object whose keys each belong to one domain module (time
control, visibility, chat, ...); tables from before it have ``{}``, which means every
module's default (no clock, public, ...).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("settings", sa.JSON, nullable=False, server_default="{}"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("settings")
