"""Accounts (issue #10): people with a name and a password, their sessions, the failed
logins that lock a name or an address out, and the account that holds a seat.

``accounts.name_key`` is the name casefolded (NFKC): names are unique whatever their case.
``account_sessions.id`` is the SHA-256 of the session cookie (the cookie itself is never
stored). ``login_attempts`` counts failed logins per name (``n:<name_key>``), per address
(``a:<address>``) and sign-ups per address (``s:<address>``), in the database so that
every server process sees the same counts. ``seats.account_id`` is the account holding a
seat (``NULL``: a guest or a bot).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted", sa.DateTime(timezone=True), nullable=True),
        sa.Column("banned", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("name_key", name="accounts_name_key"),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("account_sessions_account", "account_sessions", ["account_id"])
    op.create_table(
        "login_attempts",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("first", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
        batch.create_index("seats_account", ["account_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("seats_account")
        batch.drop_column("account_id")
    op.drop_table("login_attempts")
    op.drop_index("account_sessions_account", "account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
