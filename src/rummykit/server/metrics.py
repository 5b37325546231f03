"""Prometheus metrics of one server process (``GET /metrics``).

Each process counts its own: scrape every process (the deployment docs show how)
and sum.  A registry per application, so that several apps in one process (the
tests) do not share counters.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """The counters the hub and the app update, and the gauges read when scraped."""

    def __init__(
        self,
        tables: Callable[[], int],
        sockets: Callable[[], int],
        published: Callable[[], int] = lambda: 0,
    ) -> None:
        self.registry = CollectorRegistry()
        self.actions = Counter(
            "rummykit_actions",
            "Actions stored by this process (players' and bots'); rate() gives actions/s.",
            registry=self.registry,
        )
        self.latency = Histogram(
            "rummykit_action_seconds",
            "Time from receiving a player's action to its acknowledgement (checked, "
            "stored, applied), in seconds.",
            buckets=_LATENCY,
            registry=self.registry,
        )
        self.bot = Histogram(
            "rummykit_bot_decision_seconds",
            "Time a bot took to choose an action, in seconds.",
            buckets=_LATENCY,
            registry=self.registry,
        )
        Gauge(
            "rummykit_tables", "Tables in this process's memory.", registry=self.registry
        ).set_function(lambda: float(tables()))
        Gauge(
            "rummykit_sockets", "Open table WebSockets on this process.", registry=self.registry
        ).set_function(lambda: float(sockets()))
        Gauge(
            "rummykit_redis_published",
            "Messages this process published to Redis since it started (many processes).",
            registry=self.registry,
        ).set_function(lambda: float(published()))

    def acted(self, seconds: float | None = None) -> None:
        """One action stored (a player's took ``seconds``)."""
        self.actions.inc()
        if seconds is not None:
            self.latency.observe(seconds)

    def bot_decided(self, seconds: float) -> None:
        """A bot chose an action in ``seconds``."""
        self.bot.observe(seconds)

    def render(self) -> bytes:
        """The text exposition format."""
        return bytes(generate_latest(self.registry))
