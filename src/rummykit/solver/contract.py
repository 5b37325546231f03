"""The best board-play contract of a rack (RULES §9.13), via the variant's own hooks.

The contract rules live with the variant (``Variant.find_contract`` and
``Variant.board_closes``, exact there); this module picks the best answer for a
14-piece rack or for the closing discard of a 15-piece one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.model.pieces import Face
from rummykit.rules.options import Options
from rummykit.rules.variant import Contract, Variant

__all__ = ["ContractAnswer", "best_contract", "has_board_play"]


@dataclass(frozen=True, slots=True)
class ContractAnswer:
    """A contract a rack forms; ``discard`` is the closing piece of a 15-piece rack."""

    contract: Contract
    discard: Face | None


def has_board_play(variant: Variant, options: Options) -> bool:
    """Whether some seat may finish with a board contract under these options
    (RULES §9.13 board play, §10.10 "Spiel auf der Tafel")."""
    play = variant.play_rules(options)
    return play.board_play or play.everyone_on_board


def best_contract(
    faces: Sequence[Face], variant: Variant, options: Options
) -> ContractAnswer | None:
    """The highest contract of 14 ``faces``, or of 15 after the best closing discard.

    ``options`` are the variant's resolved options.  Among discards reaching
    the same value the smallest face is named.  None: no contract.  Raises
    ``ValueError`` for a variant without board play or a rack of another size.
    """
    if not has_board_play(variant, options):
        raise ValueError(f"{variant.name} has no board-play contracts under these options")
    if len(faces) == 14:
        found = variant.find_contract(faces, options)
        return None if found is None else ContractAnswer(found, None)
    if len(faces) != 15:
        raise ValueError(f"a board contract needs 14 or 15 pieces, not {len(faces)}")
    closes = variant.board_closes(faces, options)
    if not closes:
        return None
    face, contract = min(closes.items(), key=lambda item: (-item[1].value, item[0]))
    return ContractAnswer(contract, face)
