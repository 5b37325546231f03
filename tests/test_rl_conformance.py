"""Masked random play through the integer encoding, for every variant and player count.

At every state the mapping legal engine action -> number is total and injective, each
number decodes back to its action, the mask is exactly that set, and the engine accepts
every masked action (verified on the decoded table entry).  STEPS_PER_VARIANT steps per
variant, shared between its player counts and split in chunks so pytest-xdist can spread
them.
"""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.rl.conformance import check_action_encoding, variant_tables

STEPS_PER_VARIANT = 10_000
CHUNK = 2_500


def _cases() -> list[tuple[str, int, int, int]]:
    """(variant, players, steps, seed) chunks covering STEPS_PER_VARIANT per variant."""
    by_variant: dict[str, list[int]] = {}
    for variant, players in variant_tables():
        by_variant.setdefault(variant, []).append(players)
    cases = []
    for variant, counts in by_variant.items():
        per_count = -(-STEPS_PER_VARIANT // len(counts))
        for players in counts:
            chunks = -(-per_count // CHUNK)
            steps = -(-per_count // chunks)
            cases += [(variant, players, steps, 1000 * players + c) for c in range(chunks)]
    return cases


def _params() -> list[Any]:
    return [pytest.param(*case, id=f"{case[0]}-{case[1]}p-{case[3] % 1000}") for case in _cases()]


@pytest.mark.parametrize(("variant", "players", "steps", "seed"), _params())
def test_masked_random_steps_conform(variant: str, players: int, steps: int, seed: int) -> None:
    assert check_action_encoding(variant, players, steps=steps, seed=seed) >= 1


def test_every_variant_gets_its_ten_thousand_steps() -> None:
    total: dict[str, int] = {}
    for variant, _players, steps, _seed in _cases():
        total[variant] = total.get(variant, 0) + steps
    assert set(total) == {v for v, _ in variant_tables()}
    assert min(total.values()) >= STEPS_PER_VARIANT


def test_options_that_change_the_rules_are_covered_too() -> None:
    """Bulgarian-style rules (clockwise, run and set opening, mandatory atu, middle takes
    from one tile) and no board play: the same guarantees."""
    check_action_encoding(
        "remi_ro",
        4,
        steps=1_500,
        seed=7,
        options={
            "direction": "clockwise",
            "opening_structure": "run_and_set",
            "atu_mandatory": True,
            "column_take_middle_min_rack": 1,
            "column_take_middle_requires_opened": False,
            "board_play_enabled": False,
            "attach_on_opening_turn": True,
            "column_take_allow_attach": True,
        },
    )


def test_vienna_showdown_by_the_players_is_encoded() -> None:
    """Vienna with ``auto_arrange_deadwood = false`` (A-24): the showdown's melds and
    ``ready`` have numbers, and every masked number verifies."""
    options = {"auto_arrange_deadwood": False, "max_stock_recycles": 1}
    assert check_action_encoding("vienna", 3, steps=1500, seed=3, options=options) >= 10
