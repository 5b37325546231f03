"""Imports every built-in variant module so that each registers itself."""

from rummykit.rules import (
    basic,
    continental,
    double,
    german2,
    gin,
    remi_ro,
    remmi_de,
    romme,
    vienna,
)

__all__ = [
    "basic",
    "continental",
    "double",
    "german2",
    "gin",
    "remi_ro",
    "remmi_de",
    "romme",
    "vienna",
]
