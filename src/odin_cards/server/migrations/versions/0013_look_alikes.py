"""Look-alike names (issue #29): each account keeps the key of the names that look like
its own (``core/people/look_alikes.py``: Unicode's confusables skeleton, casefolded), so
that a guest, a spectator or a new account cannot go by "Аnn" (a Cyrillic А) beside "Ann".

The accounts already there get their key here (deleted ones keep none).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from odin_cards.server.core.people.look_alikes import look_alike_key

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("look_alike", sa.String(128), nullable=False, server_default=""))
    accounts = sa.table(
        "accounts",
        sa.column("id"),
        sa.column("name"),
        sa.column("deleted"),
        sa.column("look_alike"),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(accounts.c.id, accounts.c.name).where(accounts.c.deleted.is_(None))
    ).all()
    for account_id, name in rows:
        connection.execute(
            sa.update(accounts)
            .where(accounts.c.id == account_id)
            .values(look_alike=look_alike_key(name))
        )
    op.create_index("accounts_look_alike", "accounts", ["look_alike"])


def downgrade() -> None:
    op.drop_index("accounts_look_alike", table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("look_alike")
