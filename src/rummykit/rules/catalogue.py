"""Imports every built-in variant module so that each registers itself."""

from rummykit.rules import remi_ro

__all__ = ["remi_ro"]
