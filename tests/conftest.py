"""Suite-wide hooks."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the tests marked ``heavy`` first.  With ``-n auto`` a test of minutes that
    starts near the end keeps one worker busy while the others have finished."""
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)
