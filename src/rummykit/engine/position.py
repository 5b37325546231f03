"""Analysis positions: a game set up from a rack and a table instead of a deal.

Hints and solvers ask "what can this rack do on this table?".  The engine is
the one source of legality, so rather than re-implement attachment and joker
exchange rules, :func:`analysis_game` builds a real :class:`Game` in which
``seat`` is to move, has drawn, holds ``rack`` and faces ``table``; its
``legal_actions()`` then answer the question.  Every other piece goes to the
stock (other racks are empty), so nothing hidden matters to the answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rummykit.engine.errors import IllegalActionError
from rummykit.engine.extensions.board import board_state
from rummykit.engine.game import Game, Phase
from rummykit.engine.table import Formation
from rummykit.engine.turn import Turn
from rummykit.model.melds import best_reading, read_meld
from rummykit.model.pieces import Face

__all__ = ["analysis_game"]


def analysis_game(
    variant: str,
    rack: Sequence[Face],
    table: Sequence[Sequence[tuple[Face, Face | None]]] = (),
    *,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    opened: bool = True,
    owners: Sequence[int] | None = None,
    locked: Sequence[Sequence[bool]] | None = None,
    board: bool = False,
) -> Game:
    """A game where seat 0 is to move after drawing from the stock, holding ``rack``.

    ``table`` lists formations as (face, declared) pairs (``declared`` fixes
    what a joker stands for, else None); ``owners[i]`` is the seat that laid
    formation ``i`` (default: seat 1), and every owner has opened.  ``opened``
    says whether seat 0 has opened in an earlier turn.  ``locked[i][j]`` marks
    piece ``j`` of formation ``i`` (in the order given) as a joker that may not
    be exchanged again (RULES §9.10).  ``board`` says whether seat 0 has declared
    play on the board (remi_ro, RULES §9.13), which changes what it may do unopened.
    Raises ``ValueError`` when a formation is not legal under the variant's
    meld rules or the pieces do not exist in its material.
    """
    game = Game(variant, players, options, seed=0)
    free: dict[Face, list[int]] = {}
    for piece, face in enumerate(game.faces):
        free.setdefault(face, []).append(piece)

    def take(face: Face) -> int:
        left = free.get(face)
        if not left:
            raise ValueError(f"{game.variant.name} has no more {face} pieces for this position")
        return left.pop(0)

    if owners is None:
        owners = [1 % game.players] * len(table)
    if len(owners) != len(table) or not all(0 <= o < game.players for o in owners):
        raise ValueError(f"owners must name a seat 0..{game.players - 1} for every formation")
    formations: list[Formation] = []
    frozen: set[int] = set()
    for number, meld in enumerate(table, start=1):
        faces = tuple(f for f, _ in meld)
        declared = tuple(d for _, d in meld)
        readings = read_meld(faces, game.rules, declared)
        if not readings:
            shown = " ".join(str(f) for f in faces)
            raise ValueError(f"[{shown}] is not a formation in {game.variant.name}")
        reading = best_reading(faces, readings, game.variant.opening_value)
        pieces = [take(f) for f in faces]
        if locked is not None and number <= len(locked):
            frozen.update(p for p, flag in zip(pieces, locked[number - 1], strict=False) if flag)
        order = sorted(range(len(faces)), key=lambda i: reading.positions[i])
        formations.append(
            Formation(
                id=number,
                owner=owners[number - 1],
                kind=reading.kind,
                suit=reading.suit,
                pieces=tuple(pieces[i] for i in order),
                positions=tuple(reading.positions[i] for i in order),
                kinds=tuple(faces[i].kind for i in order),
            )
        )
    held = sorted(take(f) for f in rack)
    rest = [p for left in free.values() for p in left]
    game.racks = [held] + [[] for _ in range(game.players - 1)]
    game.stock = sorted(rest)
    game.column = []
    game.table = formations
    game.credit = [-1] * len(game.pieces)
    for formation in formations:
        for piece in formation.pieces:
            game.credit[piece] = formation.owner
    game.locked = frozen
    game.opened = [opened if s == 0 else s in owners for s in range(game.players)]
    game.has_laid = list(game.opened)
    on_board = board_state(game, writable=True)
    if on_board is not None:
        on_board.on_board = [board] + [False] * (game.players - 1)
    elif board:
        raise ValueError(f"{game.variant.name} has no board play")
    game.phase = Phase.TURNS
    game.to_move = 0
    # Round 2 or later, so no first-round restriction applies (RULES §9.5).
    game.turn_number = game.players
    game.turns_taken = [2] * game.players
    game.turn = Turn(acquired="draw", start_rack=len(held) - 1)
    game.snapshot = None
    game._legal_cache = None
    try:
        game.legal_actions()
    except IllegalActionError as exc:  # pragma: no cover - a defect in this set-up
        raise ValueError(f"position is not playable: {exc}") from None
    return game
