"""Tables, seats and the append-only event log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "rk_tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("turn_timer", sa.Float, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rematch", sa.String(16), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
    )
    op.create_index("ix_rk_tables_status", "rk_tables", ["status"])
    op.create_table(
        "rk_seats",
        sa.Column("code", sa.String(16), sa.ForeignKey("rk_tables.code"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "rk_events",
        sa.Column("code", sa.String(16), sa.ForeignKey("rk_tables.code"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("action_id", sa.String(64), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("code", "action_id", name="uq_rk_events_action_id"),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("rk_events")
    op.drop_table("rk_seats")
    op.drop_index("ix_rk_tables_status", "rk_tables")
    op.drop_table("rk_tables")
