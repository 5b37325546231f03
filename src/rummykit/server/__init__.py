"""The rummykit server: tables with friends and bots over HTTP and WebSockets.

Needs the ``server`` extra (``pip install 'rummykit[server]'``).  Start it with
``rummykit serve``; see ``docs/server.md`` and ``docs/protocol.md``.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["ServeConfig", "create_app", "run"]

from rummykit.server.app import create_app
from rummykit.server.config import ServeConfig
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
    config: ServeConfig | None = None,
    workers: int = 1,
    log_format: str = "text",
    ws_compression: bool = False,
) -> None:
    """Serve until interrupted (uvicorn).  ``config`` (else ``database_url``,
    ``settings`` and ``limits``) says what to serve; ``workers`` > 1 starts that many
    processes on the port, which needs ``config.redis_url``; ``ws_compression``
    turns on permessage-deflate.  Without Redis this
    process must be the only one on its database (``DatabaseBusyError`` otherwise)."""
    import uvicorn

    from rummykit.server.config import claim_database, log_config, tune_gc

    if config is None:
        config = ServeConfig(database_url=database_url)
    if workers > 1 and config.redis_url is None:
        raise ValueError("--workers above 1 needs --redis-url (and a PostgreSQL database)")
    held = None if config.redis_url is not None else claim_database(config.database_url)
    # Frames past 64 KiB are refused by the WebSocket layer itself; smaller oversized
    # frames get the protocol's ``too_large`` error.
    server_args: dict[str, Any] = {"host": host, "port": port, "log_level": log_level}
    server_args["ws_max_size"] = 65536
    # Compressing every frame for every socket was a quarter of the server's CPU under
    # load (docs/performance.md); frames are a few KB, so it is off unless asked for.
    server_args["ws_per_message_deflate"] = ws_compression
    if log_format == "json":
        server_args["log_config"] = log_config("json", log_level)
    try:
        if workers > 1:
            os.environ.update(config.to_env())
            uvicorn.run(
                "rummykit.server.config:app_from_env", factory=True, workers=workers, **server_args
            )
            return
        if settings is not None or limits is not None:
            from rummykit.server.app import create_app

            app = create_app(
                config.database_url,
                settings=settings,
                limits=limits,
                redis_url=config.redis_url,
                redis_prefix=config.redis_prefix,
                lease_ms=config.lease_ms,
            )
        else:
            app = config.create_app()
        tune_gc()
        uvicorn.run(app, **server_args)
    finally:
        if held is not None:
            held.close()
