"""Imports every built-in variant module so that each registers itself."""

from rummykit.rules import basic, german2, remi_ro, romme

__all__ = ["basic", "german2", "remi_ro", "romme"]
