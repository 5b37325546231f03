"""Variant profiles, their options and the registry."""

from rummykit.rules.options import OptionError, OptionKind, Options, OptionSpec, fingerprint
from rummykit.rules.variant import (
    Contract,
    DealLayout,
    SeatOutcome,
    UnknownVariantError,
    Variant,
    all_variants,
    find_variant,
    register,
)

__all__ = [
    "Contract",
    "DealLayout",
    "OptionError",
    "OptionKind",
    "OptionSpec",
    "Options",
    "SeatOutcome",
    "UnknownVariantError",
    "Variant",
    "all_variants",
    "find_variant",
    "fingerprint",
    "register",
]
