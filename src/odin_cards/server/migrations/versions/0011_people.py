"""People (issue #10): Play now's queue, follows, blocks, reports and invitations.

``match_tickets`` is the queue of every server process (``docs/matchmaking.md``): a row
per ticket, identified by the SHA-256 of its secret (which becomes the seat's token).
``follows`` and ``blocks`` pair account ids; ``reports`` keep who reported whom, why and
when; ``invites`` are open invitations to a table.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_tickets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("target", sa.String(8), nullable=False),
        sa.Column("clock", sa.String(8), nullable=False),
        sa.Column("rating", sa.Float, nullable=True),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed", sa.DateTime(timezone=True), nullable=True),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("match_tickets_waiting", "match_tickets", ["state", "players"])
    op.create_index("match_tickets_account", "match_tickets", ["account_id"])
    op.create_table(
        "follows",
        sa.Column("follower", sa.String(32), primary_key=True),
        sa.Column("followed", sa.String(32), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("follows_followed", "follows", ["followed"])
    op.create_table(
        "blocks",
        sa.Column("blocker", sa.String(32), primary_key=True),
        sa.Column("blocked", sa.String(32), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("blocks_blocked", "blocks", ["blocked"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.String(32), nullable=False),
        sa.Column("reported", sa.String(32), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(500), nullable=True),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("reports_created", "reports", ["created"])
    op.create_table(
        "invites",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("sender", sa.String(32), nullable=False),
        sa.Column("recipient", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("invites_recipient", "invites", ["recipient"])


def downgrade() -> None:
    op.drop_index("invites_recipient", "invites")
    op.drop_table("invites")
    op.drop_index("reports_created", "reports")
    op.drop_table("reports")
    op.drop_index("blocks_blocked", "blocks")
    op.drop_table("blocks")
    op.drop_index("follows_followed", "follows")
    op.drop_table("follows")
    op.drop_index("match_tickets_account", "match_tickets")
    op.drop_index("match_tickets_waiting", "match_tickets")
    op.drop_table("match_tickets")
