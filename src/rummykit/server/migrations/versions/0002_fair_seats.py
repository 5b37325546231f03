"""Seeds drawn at the deal, action ids per seat (issue 12).

A table waiting for players has no seed yet: the deal is drawn when the last seat
is filled, so nothing of it exists while seats can be joined and left.  A seed
stored for such a table at its creation is dropped.  A client's action id is
unique per seat, so one seat cannot learn which ids another seat used.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Make the seed nullable, drop open tables' seeds, scope action ids by seat."""
    with op.batch_alter_table("rk_tables") as batch:
        batch.alter_column("seed", existing_type=sa.BigInteger(), nullable=True)
    op.execute("UPDATE rk_tables SET seed = NULL WHERE status = 'open'")
    with op.batch_alter_table("rk_events") as batch:
        batch.drop_constraint("uq_rk_events_action_id", type_="unique")
        batch.create_unique_constraint("uq_rk_events_seat_action_id", ["code", "seat", "action_id"])


def downgrade() -> None:
    """Back to 0001: every table gets a seed again (open tables a fresh one); action
    ids must then be unique per table (a downgrade fails if two seats share one)."""
    with op.batch_alter_table("rk_events") as batch:
        batch.drop_constraint("uq_rk_events_seat_action_id", type_="unique")
        batch.create_unique_constraint("uq_rk_events_action_id", ["code", "action_id"])
    conn = op.get_bind()
    tables = sa.table("rk_tables", sa.column("code", sa.String), sa.column("seed", sa.BigInteger))
    for (code,) in conn.execute(sa.select(tables.c.code).where(tables.c.seed.is_(None))).all():
        conn.execute(
            tables.update().where(tables.c.code == code).values(seed=secrets.randbelow(2**62))
        )
    with op.batch_alter_table("rk_tables") as batch:
        batch.alter_column("seed", existing_type=sa.BigInteger(), nullable=False)
