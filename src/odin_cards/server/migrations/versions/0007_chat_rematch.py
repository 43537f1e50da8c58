"""Chat and rematch: each table's chat lines, and the answers to a finished table's rematch.

``chat_lines`` is keyed by the table and the line's number (0, 1, 2, ... given by the
table's owner); ``action`` places the line among the game's moves for the replay.
``rematches`` holds one JSON object per finished table with the players' answers
(``core/features/rematch.py``). Older tables have neither.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("author", sa.String(16), nullable=False),
        sa.Column("name", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("text", sa.String(800), nullable=True),
        sa.Column("reaction", sa.String(16), nullable=True),
        sa.Column("action", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rematches",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("state", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rematches")
    op.drop_table("chat_lines")
