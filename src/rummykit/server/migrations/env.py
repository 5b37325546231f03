"""Alembic environment: run with the connection the store passes in."""

from __future__ import annotations

from alembic import context

from rummykit.server.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
