"""The catalogue of built-in variants: importing it registers each of them, and the
README's variant table names exactly these ids and aliases."""

from __future__ import annotations

import re
from pathlib import Path

from rummykit.rules import catalogue
from rummykit.rules.variant import all_variants, find_variant

README = Path(__file__).resolve().parents[1] / "README.md"


def test_every_catalogued_module_registers_its_variant() -> None:
    """One registered variant per module of the catalogue, under the module's name."""
    assert sorted(v.name for v in all_variants()) == sorted(catalogue.__all__)
    for name in catalogue.__all__:
        assert find_variant(name).name == name


def test_the_readme_table_lists_the_ids_and_aliases_players_type() -> None:
    """Each README row's id and aliases resolve to that variant (what a player types
    after reading it works), and no variant is missing from the table."""
    rows = re.findall(r"^\| `(\w+)` \| ([^|]*) \|", README.read_text(), re.M)
    assert sorted(name for name, _ in rows) == sorted(catalogue.__all__)
    for name, aliases in rows:
        for alias in re.findall(r"`([^`]+)`", aliases):
            assert find_variant(alias).name == name, alias
