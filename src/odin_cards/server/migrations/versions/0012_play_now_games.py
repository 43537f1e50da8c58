"""Play now for any game (issue #24): each ticket names its game.

Tickets match only tickets of the same game. The tickets already queued (they live for
seconds) are Odin's, the only game Play now offered before.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("match_tickets") as batch:
        batch.add_column(sa.Column("game", sa.String(16), nullable=False, server_default="odin"))


def downgrade() -> None:
    with op.batch_alter_table("match_tickets") as batch:
        batch.drop_column("game")
