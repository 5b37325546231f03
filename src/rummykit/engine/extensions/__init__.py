"""The built-in variant extensions (:mod:`rummykit.engine.extension`): importing this
package registers each of them under its name."""

from rummykit.engine.extensions import (
    board,
    call,
    gin,
    joker_shift,
    layout,
    preplay,
    reclaim,
    three,
)

__all__ = ["board", "call", "gin", "joker_shift", "layout", "preplay", "reclaim", "three"]
