"""Hints for the seat to move: the best laydown now, attachments, joker exchanges, a discard.

Every suggestion is an action the engine accepts now (attachments and exchanges
come straight from ``Game.legal_actions()``, the one source of legality) or,
for the laydown and discard, the exact solver's answer; each carries a one-line
reason.  Hints read only what the seat may know: its own rack and the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.engine.actions import Attach, Discard, ExchangeJoker, Meld
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import view
from rummykit.model.candidates import Candidate
from rummykit.model.pieces import Face
from rummykit.solver.deadwood import least_deadwood
from rummykit.solver.opening import Laydown, best_laydown, best_opening, opening_requirement

__all__ = ["Hint", "hints", "hints_json"]


@dataclass(frozen=True, slots=True)
class Hint:
    """One suggestion: what it is about, the actions in notation, and why."""

    topic: str
    """``laydown``, ``attach``, ``exchange`` or ``discard``."""
    actions: tuple[str, ...]
    reason: str

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"topic": self.topic, "actions": list(self.actions), "reason": self.reason}


def hints(game: Game) -> list[Hint]:
    """Hints for ``game.to_move`` in the play phase (empty in other phases).

    Order: the best laydown now (or why there is none), every legal attachment,
    every legal joker exchange, and the discard that leaves the least deadwood.
    """
    if game.phase not in (Phase.TURNS, Phase.ROUND1) or game.board[game.to_move]:
        return []
    seat = game.to_move
    legal = game.legal_actions()
    rack = tuple(game.rack_faces(seat))
    out: list[Hint] = []
    if any(isinstance(a, Meld) for a in legal):
        out.append(_laydown_hint(game, seat, rack))
    table = {f.id: f for f in game.table}
    for action in legal:
        if isinstance(action, Attach):
            target = table[action.target].notation(game.pieces)
            out.append(Hint("attach", (str(action),), f"extends m{action.target} {target}"))
        elif isinstance(action, ExchangeJoker):
            target = table[action.target].notation(game.pieces)
            out.append(
                Hint("exchange", (str(action),), f"frees the joker of m{action.target} {target}")
            )
    discards = [a.face for a in legal if isinstance(a, Discard)]
    if discards:
        out.append(_discard_hint(game, rack, discards))
    return out


def hints_json(found: Sequence[Hint]) -> list[dict[str, Any]]:
    """Hints as JSON-ready dicts."""
    return [h.to_json() for h in found]


def _meld_action(cand: Candidate, game: Game) -> str:
    material = game.pieces.material
    return str(Meld(cand.faces(material), cand.declared(material)))


def _laydown_hint(game: Game, seat: int, rack: tuple[Face, ...]) -> Hint:
    # One piece stays for the discard unless the variant lets a player go out without one.
    keep = 0 if game.play.go_out_without_discard else 1
    must = view(game, seat).must_use
    must_face = must[0] if must else None
    lay: Laydown
    need = opening_requirement(game.variant, game.options)
    free = need["opening_min_points"] == 0 and need["opening_structure"] == "none"
    if game.opened[seat] or free:
        lay = best_laydown(rack, game.variant, keep=keep, rules=game.rules)
        if not lay.melds:
            return Hint("laydown", (), "no formation can be laid from the rack")
        reason = f"lays {lay.points} points, the most this rack can"
    else:
        lay = best_opening(
            rack, game.variant, need, keep=keep, must_include=must_face, rules=game.rules
        )
        minimum = need["opening_min_points"]
        if not lay.melds:
            return Hint("laydown", (), "no laydown meets the opening rule yet")
        if not lay.valid_opening:
            return Hint(
                "laydown",
                tuple(_meld_action(c, game) for c in lay.melds),
                f"best opening is {lay.points} points, short of the {minimum} needed: wait",
            )
        reason = f"opens with {lay.points} points (minimum {minimum})"
    return Hint("laydown", tuple(_meld_action(c, game) for c in lay.melds), reason)


def _discard_hint(game: Game, rack: tuple[Face, ...], discards: Sequence[Face]) -> Hint:
    best: tuple[int, int, Face] | None = None
    for face in discards:
        rest = list(rack)
        rest.remove(face)
        left = least_deadwood(rest, game.variant, rules=game.rules).points
        # Least deadwood left, then shed the higher-valued piece.
        key = (left, -game.variant.score_value(face), face)
        if best is None or key < best:
            best = key
    assert best is not None
    left, _, face = best
    return Hint(
        "discard",
        (str(Discard(face)),),
        f"keeps the rest best arranged: {left} points left unmatched",
    )
