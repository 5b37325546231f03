"""Golden game records (STYLE 10): each replays to exactly the recorded results.

A change in the engine that alters the legality of any recorded action, or any
score, breaks one of these; regenerate them only for an intended rule change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rummykit.engine.record import load_record, record_of, replay

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_there_are_golden_records() -> None:
    assert len(GOLDEN) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_replays_to_its_results(path: Path) -> None:
    record = load_record(path)
    result = replay(record)
    assert result.game.is_over
    assert [r.to_json() for r in result.results] == record["results"]
    assert list(result.game.totals) == record["totals"]
    # Saving the replayed game gives back the same record, action for action.
    again = record_of(result.game, record["seats"])
    assert again["actions"] == record["actions"]
    assert again["fingerprint"] == record["fingerprint"]
