"""A version per table and the start of the current turn (issue 15).

Many server processes share one database: each keeps its tables in memory and
must see when another process changed one.  ``version`` grows by one in every
transaction that changes a table (its header, a seat or its log); a process
whose copy has an older version reads what it missed.  ``turn_start`` is when
the seat to move got its turn, so that every process shows the same turn-timer
deadline.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``version`` (0) and ``turn_start`` (unknown) to every table."""
    with op.batch_alter_table("rk_tables") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("turn_start", sa.Float(), nullable=True))


def downgrade() -> None:
    """Back to 0002."""
    with op.batch_alter_table("rk_tables") as batch:
        batch.drop_column("turn_start")
        batch.drop_column("version")
