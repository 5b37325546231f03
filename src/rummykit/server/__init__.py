"""The rummykit server: tables with friends and bots over HTTP and WebSockets.

Needs the ``server`` extra (``pip install 'rummykit[server]'``).  Start it with
``rummykit serve``; see ``docs/server.md`` and ``docs/protocol.md``.
"""

from __future__ import annotations

__all__ = ["create_app", "run"]

from rummykit.server.app import create_app
from rummykit.server.hub import HubSettings
from rummykit.server.quotas import ServerLimits


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str | None = None,
    *,
    settings: HubSettings | None = None,
    limits: ServerLimits | None = None,
    log_level: str = "info",
) -> None:
    """Serve until interrupted (uvicorn)."""
    import uvicorn

    app = create_app(database_url, settings=settings, limits=limits)
    # Frames past 64 KiB are refused by the WebSocket layer itself; smaller oversized
    # frames get the protocol's ``too_large`` error.
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=65536)
