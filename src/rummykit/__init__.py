"""rummykit: the reference engine for the Rummy family of games."""

__version__ = "0.1.0"
