"""Ratings (issue #10): every finished table's results, OpenSkill ratings and their history.

``table_results`` marks a finished table as settled (once: its primary key), rated or
not, with why not; ``seat_results`` holds each seat's place, win, score and figures;
``ratings`` each account's rating per class (``heads-up``, ``multi``); ``rating_history``
one row per account and rated table (primary key: a table is applied once per account).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_results",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rating_class", sa.String(8), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("note", sa.String(120), nullable=True),
    )
    op.create_table(
        "seat_results",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("person", sa.Boolean, nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("statistics", sa.JSON, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("rating_class", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ratings_board", "ratings", ["rating_class", "mu"])
    op.create_table(
        "rating_history",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("rating_class", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("rating_history_account", "rating_history", ["account_id", "created"])


def downgrade() -> None:
    op.drop_index("rating_history_account", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ratings_board", "ratings")
    op.drop_table("ratings")
    op.drop_table("seat_results")
    op.drop_table("table_results")
