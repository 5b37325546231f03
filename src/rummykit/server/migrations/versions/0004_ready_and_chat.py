"""The pause between deals and the table chat (issue 13).

``ready`` holds the human seats that asked for the next deal once a deal has
ended: the next deal starts when every human seat has asked (bots never start
it for them).  ``rk_chat`` holds each table's chat lines, numbered per table, so
that every process sends the same lines and a reconnecting client reads them.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``rk_tables.ready`` (none) and the ``rk_chat`` table."""
    with op.batch_alter_table("rk_tables") as batch:
        batch.add_column(sa.Column("ready", sa.JSON(), nullable=True))
    op.create_table(
        "rk_chat",
        sa.Column("code", sa.String(16), sa.ForeignKey("rk_tables.code"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Back to 0003."""
    op.drop_table("rk_chat")
    with op.batch_alter_table("rk_tables") as batch:
        batch.drop_column("ready")
