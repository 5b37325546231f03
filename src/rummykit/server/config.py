"""How ``rummykit serve`` is configured: every setting has a ``RUMMYKIT_*`` environment
variable (``docs/deploy.md`` lists them), read by the command line and by each
worker process that ``--workers N`` starts (:func:`app_from_env`).  Also the JSON
log format and the guard that keeps a second process off a database only one
process may use.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI

__all__ = [
    "ENV",
    "DatabaseBusyError",
    "JsonFormatter",
    "ServeConfig",
    "app_from_env",
    "claim_database",
    "log_config",
    "tune_gc",
]

ENV = {
    "host": "RUMMYKIT_HOST",
    "port": "RUMMYKIT_PORT",
    "workers": "RUMMYKIT_WORKERS",
    "database_url": "RUMMYKIT_DATABASE_URL",
    "redis_url": "RUMMYKIT_REDIS_URL",
    "redis_prefix": "RUMMYKIT_REDIS_PREFIX",
    "lease_ms": "RUMMYKIT_LEASE_MS",
    "bot_delay": "RUMMYKIT_BOT_DELAY",
    "grace": "RUMMYKIT_GRACE",
    "limit_create": "RUMMYKIT_LIMIT_CREATE",
    "limit_join": "RUMMYKIT_LIMIT_JOIN",
    "limit_lookup": "RUMMYKIT_LIMIT_LOOKUP",
    "expire_open": "RUMMYKIT_EXPIRE_OPEN",
    "log_format": "RUMMYKIT_LOG_FORMAT",
    "log_level": "RUMMYKIT_LOG_LEVEL",
    "ws_compression": "RUMMYKIT_WS_COMPRESSION",
}
"""The environment variable of each ``serve`` setting."""


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """What one server process needs to build its application."""

    database_url: str | None = None
    redis_url: str | None = None
    redis_prefix: str = "rk"
    lease_ms: int = 3000
    bot_delay: float = 0.4
    grace: float = 30.0
    limit_create: str | None = "20/minute"
    limit_join: str | None = "30/minute"
    limit_lookup: str | None = "30/minute"
    expire_open: float = 3600.0

    def to_env(self) -> dict[str, str]:
        """These settings as environment variables (for worker processes)."""
        out = {}
        for name in self.__slots__:
            value = getattr(self, name)
            if value is not None:
                out[ENV[name]] = str(value)
            elif name.startswith("limit_"):
                out[ENV[name]] = "off"
        return out

    @classmethod
    def from_env(cls) -> ServeConfig:
        """The settings in the environment (defaults for those missing)."""
        env = os.environ

        def text(name: str, default: str | None) -> str | None:
            return env.get(ENV[name], default)

        def rate(name: str, default: str) -> str | None:
            value = env.get(ENV[name], default)
            return None if value.strip().lower() == "off" else value

        return cls(
            database_url=text("database_url", None) or None,
            redis_url=text("redis_url", None) or None,
            redis_prefix=env.get(ENV["redis_prefix"], "rk"),
            lease_ms=int(env.get(ENV["lease_ms"], "3000")),
            bot_delay=float(env.get(ENV["bot_delay"], "0.4")),
            grace=float(env.get(ENV["grace"], "30")),
            limit_create=rate("limit_create", "20/minute"),
            limit_join=rate("limit_join", "30/minute"),
            limit_lookup=rate("limit_lookup", "30/minute"),
            expire_open=float(env.get(ENV["expire_open"], "3600")),
        )

    def create_app(self) -> FastAPI:
        """The application these settings describe."""
        from rummykit.server.app import create_app
        from rummykit.server.hub import HubSettings
        from rummykit.server.quotas import ServerLimits

        limits = ServerLimits(
            create=self.limit_create,
            join=self.limit_join,
            lookup=self.limit_lookup,
            idle_open=self.expire_open or None,
        )
        return create_app(
            self.database_url,
            settings=HubSettings(bot_delay=self.bot_delay, grace=self.grace),
            limits=limits,
            redis_url=self.redis_url,
            redis_prefix=self.redis_prefix,
            lease_ms=self.lease_ms,
        )


def app_from_env() -> FastAPI:
    """The application of a worker process (uvicorn ``--factory``): settings from the
    ``RUMMYKIT_*`` environment variables."""
    app = ServeConfig.from_env().create_app()
    tune_gc()
    return app


GC_THRESHOLDS = (50_000, 20, 100)
"""The cyclic collector's thresholds in a server process (Python's default: 700, 10, 10)."""


def tune_gc() -> None:
    """Tune the cyclic garbage collector for a server process (call once, after start-up).

    A server holds many long-lived objects (every table's game, every socket); with
    Python's default thresholds the collector then runs full collections every few
    seconds that stop every table for up to hundreds of milliseconds under load
    (docs/performance.md measured 0.4-0.7 s pauses, the spread swarm's p99).  What start-up
    made (modules, the app) is frozen out of collection, and the young generation is
    collected after 50,000 allocations instead of 700, so full collections are rare."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class DatabaseBusyError(RuntimeError):
    """Another server process uses a database only one process may use."""


def claim_database(url: str | None) -> Any:
    """Make sure this is the only server process on the database at ``url`` when it
    has no Redis to share it through: an exclusive lock on a file beside an SQLite
    database, a session advisory lock on PostgreSQL (per schema).  Returns what holds
    the lock (keep it for the life of the process); raises :class:`DatabaseBusyError`."""
    import sqlalchemy as sa

    from rummykit.server.store import default_database_url, normalize_url

    parsed = sa.engine.make_url(normalize_url(url or default_database_url()))
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:") or database.startswith("file:"):
            return None
        import fcntl

        path = Path(database).expanduser()
        handle = (path.parent / (path.name + ".lock")).open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise DatabaseBusyError(
                f"another rummykit server is using {path}: one process per SQLite file "
                "(for more, use PostgreSQL and --redis-url)"
            ) from None
        return handle
    engine = sa.create_engine(parsed, poolclass=sa.pool.NullPool)
    conn = engine.connect()
    got = conn.execute(
        sa.text("select pg_try_advisory_lock(hashtext('rummykit:' || current_schema()))")
    ).scalar()
    conn.commit()
    if not got:
        conn.close()
        engine.dispose()
        shown = parsed.render_as_string(hide_password=True)
        raise DatabaseBusyError(
            f"another rummykit server without Redis is using {shown}: "
            "give every process the same --redis-url to run many"
        )
    return conn


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message (and the exception's
    type and message, without a traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            out["error"] = f"{type(exc).__name__}: {exc}".splitlines()[0]
        return json.dumps(out, ensure_ascii=False)


def log_config(fmt: str, level: str = "info") -> dict[str, Any]:
    """uvicorn's ``log_config`` for ``fmt`` (``text`` or ``json``): every line goes
    through :class:`~rummykit.server.app.RedactTokens` at the handler."""
    formatter: dict[str, Any]
    if fmt == "json":
        formatter = {"()": "rummykit.server.config.JsonFormatter"}
    else:
        formatter = {"format": "%(levelname)s: %(name)s: %(message)s"}
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "main",
        "filters": ["redact"],
        "stream": "ext://sys.stderr",
    }
    loggers = {
        name: {"handlers": ["main"], "level": level.upper(), "propagate": False}
        for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "rummykit")
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"redact": {"()": "rummykit.server.app.RedactTokens"}},
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": loggers,
    }
