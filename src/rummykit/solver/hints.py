"""Hints for the seat to move, and warnings before a move that costs a known penalty.

Hints are computed from what the seat may know: its view
(:func:`rummykit.engine.view.view`) and its legal actions.  Every hint is a
sequence of actions that the engine accepts one after the other from the
moment it is given, with a one-line reason.  In order:

* before drawing: draw or take (which, and why), or go out with the dealt hand;
* the best laydown now — counting what this turn has already laid toward the
  opening, never one that is short of the opening (that is only a note) — or,
  when the formations laid this turn cannot reach the opening, ``reset``;
* every legal attachment, and the joker exchanges whose joker can be used;
* a closing move (``remi X``, ``out X``, ``close X``) where one is legal;
* the discard that leaves the least deadwood (in Continental: the fewest cards
  outside runs), preceded by every announcement the rules require then
  (RULES §9.11: ``three`` before a turn ends with 1–3 tiles).

:func:`penalty_warning` names the penalty a move would incur for sure (or
risk, for a "Remi!" call or a board declaration), so that interfaces can ask
for confirmation first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rummykit.engine.actions import (
    Action,
    AnnounceAtu,
    AnnounceThree,
    Attach,
    CallRemi,
    CloseBoard,
    DeclareBoard,
    Discard,
    Draw,
    ExchangeJoker,
    GoOut,
    Meld,
    ResetTurn,
    TakeColumn,
)
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import FormationView, SeatView, seat_legal_actions, view
from rummykit.model.arrange import min_deadwood
from rummykit.model.candidates import Candidate, counts_of
from rummykit.model.melds import MeldKind, MeldRules
from rummykit.model.pieces import Face, Material
from rummykit.rules.variant import (
    BoardSettings,
    CallSettings,
    OpeningStructure,
    PlayRules,
    TakeUse,
    ThreeSettings,
    Variant,
    find_variant,
)
from rummykit.solver.deadwood import kind_points
from rummykit.solver.opening import (
    FREE_OPENING,
    Laydown,
    OpeningRequirement,
    best_opening,
    opening_requirement,
)

__all__ = ["REASONS", "TOPICS", "Hint", "advise", "hints", "hints_json", "penalty_warning"]

TOPICS = (
    "atu",
    "draw",
    "take",
    "out",
    "laydown",
    "reset",
    "attach",
    "exchange",
    "close",
    "discard",
)
"""Every :attr:`Hint.topic` (interfaces translate them)."""

_ONE_EACH = (1,) * 53


REASONS = (
    "atu",
    "out_dealt",
    "draw_column_empty",
    "draw_round1",
    "draw_small_rack",
    "draw_not_allowed",
    "take_stock_empty",
    "take_opening",
    "take_new_formation",
    "take_improves_points",
    "take_improves_cards",
    "draw_board",
    "draw_not_opening",
    "draw_no_new_formation",
    "draw_no_gain_points",
    "draw_no_gain_cards",
    "laydown_more",
    "laydown_most",
    "laydown_completes",
    "laydown_opens",
    "reset_laid",
    "reset_moves",
    "laydown_none",
    "laydown_no_opening",
    "laydown_short",
    "attach",
    "exchange",
    "reset_incomplete",
    "close_remi",
    "out_close",
    "close_board",
    "discard_last",
    "discard_points",
    "discard_cards",
)
"""Every :attr:`Hint.code`: interfaces translate a reason from its code and
:attr:`Hint.params` rather than from the English :attr:`Hint.reason`."""

Param = str | int
"""A reason parameter: a number, or notation (a piece, a formation)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """One suggestion: what it is about, the actions in notation (to play in order),
    and why.  A hint with no actions is a note (e.g. an opening still out of reach)."""

    topic: str
    """``atu``, ``draw``, ``take``, ``out``, ``laydown``, ``reset``, ``attach``,
    ``exchange``, ``close`` or ``discard``."""
    actions: tuple[str, ...]
    reason: str
    """The reason in English."""
    code: str = ""
    """The reason's code (one of :data:`REASONS`), for interfaces that translate it."""
    params: tuple[tuple[str, Param], ...] = ()
    """The values the reason names, as (name, value) pairs.  ``then_three`` (tiles that
    will remain) and ``three_first`` (tiles that will remain, with ``penalty``) mark the
    announcement of 'three' a hint adds (RULES §9.11)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``code`` and ``params`` let an interface translate the reason)."""
        return {
            "topic": self.topic,
            "actions": list(self.actions),
            "reason": self.reason,
            "code": self.code,
            "params": dict(self.params),
        }


def hints(game: Game) -> list[Hint]:
    """Hints for ``game.to_move``, from that seat's view and legal actions only."""
    if game.phase not in (Phase.PREPLAY, Phase.ROUND1, Phase.TURNS):
        return []
    seat = game.to_move
    return advise(view(game, seat), seat_legal_actions(game, seat))


def hints_json(found: Sequence[Hint]) -> list[dict[str, Any]]:
    """Hints as JSON-ready dicts."""
    return [h.to_json() for h in found]


@dataclass(frozen=True, slots=True)
class _Seat:
    """What the advice reads, gathered once from a view."""

    seen: SeatView
    variant: Variant
    play: PlayRules
    rules: MeldRules
    rack: tuple[Face, ...]
    keep: int

    @property
    def seat(self) -> int:
        return self.seen.seat

    @property
    def material(self) -> Material:
        return self.variant.material


def advise(seen: SeatView, legal: Sequence[Action]) -> list[Hint]:
    """Hints for the holder of ``seen`` given its legal actions now (empty unless it
    is to move in a phase where advice applies)."""
    if seen.to_move != seen.seat or not legal:
        return []
    if seen.phase is Phase.PREPLAY:
        if AnnounceAtu() in legal:
            return [
                Hint(
                    "atu",
                    ("atu",),
                    "you hold the twin of the indicator: announce atu now for +50 at the "
                    "end of the deal (RULES §9.4(3))",
                    "atu",
                )
            ]
        return []
    if seen.phase not in (Phase.ROUND1, Phase.TURNS):
        return []
    variant = find_variant(seen.variant)
    play = variant.play_rules(seen.options)
    me = _Seat(
        seen,
        variant,
        play,
        variant.rules_for(seen.options),
        tuple(seen.rack),
        0 if play.go_out_without_discard else 1,
    )
    if any(isinstance(a, (Draw, TakeColumn)) for a in legal):
        return _before_drawing(me, legal)
    out: list[Hint] = []
    if any(isinstance(a, Meld) for a in legal):
        found = _laydown_hint(me, legal)
        if found is not None:
            out.append(found)
    if _may_attach_now(me):
        for action in legal:
            if isinstance(action, Attach):
                target = _formation(seen, action.target)
                out.append(
                    Hint(
                        "attach",
                        (str(action),),
                        f"extends m{action.target} {target.notation}",
                        "attach",
                        (("target", action.target), ("notation", target.notation)),
                    )
                )
    if not _reset_this_turn(seen):
        # After a reset the exchange did not work out: do not suggest it again.
        for action in legal:
            if isinstance(action, ExchangeJoker) and _joker_usable(me, action):
                target = _formation(seen, action.target)
                out.append(
                    Hint(
                        "exchange",
                        (str(action),),
                        f"frees the joker of m{action.target} {target.notation}",
                        "exchange",
                        (("target", action.target), ("notation", target.notation)),
                    )
                )
    out.extend(_closing_hints(me, legal))
    discards = [a.face for a in legal if isinstance(a, Discard)]
    if discards:
        out.append(_discard_hint(me, discards))
    if not any(h.actions for h in out) and ResetTurn() in legal:
        out.append(
            Hint(
                "reset",
                ("reset",),
                "this turn cannot be completed as it stands: take it back",
                "reset_incomplete",
            )
        )
    return out


# ---------------------------------------------------------------------- before drawing


def _before_drawing(me: _Seat, legal: Sequence[Action]) -> list[Hint]:
    seen = me.seen
    out: list[Hint] = []
    if GoOut() in legal:
        out.append(
            Hint(
                "out",
                ("out",),
                "your dealt hand is a layout: lay it out before drawing (RULES §7.6, §7.8 item 6)",
                "out_dealt",
            )
        )
    top = len(seen.column) - 1
    take = TakeColumn(top)
    can_draw = Draw() in legal
    if top < 0 or take not in legal:
        if can_draw:
            out.append(_hint("draw", ("draw",), _why_only_draw(me)))
        return out
    face = seen.column[top]
    verdict = _take_verdict(me, face)
    if verdict is not None or not can_draw:
        out.append(
            _hint("take", (str(take),), verdict or _why("take_stock_empty", "the stock is empty"))
        )
    else:
        out.append(_hint("draw", ("draw",), _why_not_take(me, face)))
    return out


_Why = tuple[str, str, tuple[tuple[str, Param], ...]]
"""A reason: its code, its English text and its parameters."""


def _why(code: str, text: str, **params: Param) -> _Why:
    return code, text, tuple(params.items())


def _hint(topic: str, actions: tuple[str, ...], why: _Why) -> Hint:
    code, text, params = why
    return Hint(topic, actions, text, code, params)


def _why_only_draw(me: _Seat) -> _Why:
    seen = me.seen
    if not seen.column:
        return _why("draw_column_empty", "the discard pile is empty")
    if seen.phase is Phase.ROUND1:
        return _why("draw_round1", "nobody takes from the column in round 1 (RULES §9.5(3))")
    if me.play.take_any_column_tile and len(me.rack) <= me.play.draw_only_rack:
        return _why("draw_small_rack", "with 1 or 2 tiles you may only draw (RULES §9.6(1))")
    return _why("draw_not_allowed", "the top discard may not be taken now")


def _obliged_to_use(me: _Seat) -> bool:
    use = me.play.take_use
    if use is TakeUse.NONE:
        return False
    if use is TakeUse.NEW_FORMATION_IF_UNOPENED:
        return not me.seen.opened[me.seat]
    return True


def _take_verdict(me: _Seat, face: Face) -> _Why | None:
    """Why to take ``face``, or None when drawing is better."""
    seen = me.seen
    rack = [*me.rack, face]
    if seen.board[me.seat]:
        return None
    if _obliged_to_use(me):
        lay = _first_laydown(me, rack, must=face)
        if lay is None:
            return None
        shown = _meld_text(next(c for c in lay.melds if face.kind in c.kinds), me)
        if _opening_due(me):
            return _why(
                "take_opening",
                f"{face} goes into {shown} this turn, opening with {lay.points} points",
                piece=str(face),
                meld=shown,
                points=lay.points,
            )
        return _why(
            "take_new_formation",
            f"{face} goes into {shown}, laid this turn as the rule requires",
            piece=str(face),
            meld=shown,
        )
    # Drawing a card that fits nothing leaves at best the rack's deadwood after its best
    # discard plus that card: taking pays only if the card joins a formation.
    plain = _best_discard(me, list(me.rack))
    baseline = _left(me, list(me.rack)) if plain is None else plain[0]
    baseline += _value(me, face)
    after = _best_discard(me, rack, keep=face if not me.play.discard_taken_allowed else None)
    if after is not None and after[0] < baseline:
        return _why(
            "take_improves_cards" if _counts_cards(me) else "take_improves_points",
            f"{face} joins a formation in your hand: {_unmatched(me, after[0])} after the "
            f"discard, not {baseline}",
            piece=str(face),
            left=after[0],
            baseline=baseline,
        )
    return None


def _why_not_take(me: _Seat, face: Face) -> _Why:
    piece = str(face)
    if me.seen.board[me.seat]:
        return _why("draw_board", "a board player gains nothing from the column tile")
    if _obliged_to_use(me):
        if _opening_due(me):
            return _why(
                "draw_not_opening",
                f"{face} cannot be part of an opening you can lay this turn",
                piece=piece,
            )
        return _why(
            "draw_no_new_formation",
            f"{face} would have to go into a new formation this turn, and none can take it",
            piece=piece,
        )
    left = _left(me, list(me.rack))
    return _why(
        "draw_no_gain_cards" if _counts_cards(me) else "draw_no_gain_points",
        f"{face} does not improve your hand ({_unmatched(me, left)})",
        piece=piece,
        left=left,
    )


# ---------------------------------------------------------------------- laydown


def _opening_due(me: _Seat) -> bool:
    """Whether the seat still has to meet an opening rule (not opened in an earlier turn)."""
    play = me.play
    free = play.opening_min_points == 0 and play.opening_structure is OpeningStructure.NONE
    return not me.seen.opened[me.seat] and not free


def _laid_this_turn(me: _Seat) -> list[FormationView]:
    # An unopened seat owns only what it laid this turn: the opening is committed with
    # the turn (RULES §9.9), so formations of an earlier turn would have opened it.
    return [f for f in me.seen.table if f.owner == me.seat]


def _is_ones_set(f: FormationView) -> bool:
    return f.kind == "set" and f.positions[:1] == (1,)


def _remaining_structure(me: _Seat, laid: Sequence[FormationView]) -> str | None:
    """The structure what is still to lay must have (None: nothing more may be laid)."""
    structure = me.play.opening_structure
    has_run = any(f.kind == "run" for f in laid)
    has_set = any(f.kind == "set" for f in laid)
    if structure is OpeningStructure.RUN:
        return "none" if has_run else "run"
    if structure is OpeningStructure.RUN_OR_ONES_SET:
        if has_run:
            return "none"
        if len(laid) == 1 and _is_ones_set(laid[0]):
            # a set of 1s alone is an opening, and nothing more may join it.
            return None
        return "run" if laid else "run_or_ones_set"
    if structure is OpeningStructure.RUN_AND_SET:
        if has_run and has_set:
            return "none"
        if has_set:
            return "run"
        return "run_and_set"
    return "none"


def _first_laydown(me: _Seat, rack: Sequence[Face], must: Face | None) -> Laydown | None:
    """The best laydown from ``rack`` that meets what this turn still owes, or None."""
    if not _opening_due(me):
        lay = best_opening(
            rack, me.variant, FREE_OPENING, keep=me.keep, must_include=must, rules=me.rules
        )
        return lay if lay.melds else None
    laid = _laid_this_turn(me)
    structure = _remaining_structure(me, laid)
    if structure is None:
        return None
    minimum = max(0, me.play.opening_min_points - me.seen.laid_points)
    need = OpeningRequirement(OpeningStructure(structure), minimum)
    lay = best_opening(rack, me.variant, need, keep=me.keep, must_include=must, rules=me.rules)
    if structure == "run_and_set" and any(f.kind == "run" for f in laid):
        # A run is down, a set is still owed: any laydown with a set will do.
        free = best_opening(
            rack,
            me.variant,
            OpeningRequirement(OpeningStructure.NONE, minimum),
            keep=me.keep,
            must_include=must,
            rules=me.rules,
        )
        if free.valid_opening and any(c.kind is MeldKind.SET for c in free.melds):
            lay = free
    if not lay.melds or not lay.valid_opening:
        return None
    return lay


def _opening_complete(me: _Seat) -> bool:
    laid = _laid_this_turn(me)
    if not laid or me.seen.laid_points < me.play.opening_min_points:
        return False
    return _remaining_structure(me, laid) in ("none", None)


def _laydown_hint(me: _Seat, legal: Sequence[Action]) -> Hint | None:
    seen = me.seen
    must = seen.must_use[0] if seen.must_use else None
    if must is None and seen.pending_jokers:
        must = Face.joker(me.material)
    rack = list(me.rack)
    due = _opening_due(me)
    if due and _opening_complete(me):
        if _remaining_structure(me, _laid_this_turn(me)) is None:
            return None
        # The opening is made: more formations are free this turn.
        lay = best_opening(
            rack, me.variant, FREE_OPENING, keep=me.keep, must_include=must, rules=me.rules
        )
        if not lay.melds:
            return None
        return _laydown_of(
            me,
            lay,
            _why(
                "laydown_more",
                f"lays {lay.points} more points after the opening",
                points=lay.points,
            ),
        )
    lay_found = _first_laydown(me, rack, must)
    if lay_found is None:
        return _no_laydown(me, legal, rack, must)
    points = lay_found.points
    if not due:
        return _laydown_of(
            me,
            lay_found,
            _why("laydown_most", f"lays {points} points, the most this rack can", points=points),
        )
    minimum = me.play.opening_min_points
    already = seen.laid_points
    if already:
        total = already + points
        reason = _why(
            "laydown_completes",
            f"completes the opening: {already} points laid this turn + {points} "
            f"= {total} (minimum {minimum})",
            already=already,
            points=points,
            total=total,
            minimum=minimum,
        )
    else:
        reason = _why(
            "laydown_opens",
            f"opens with {points} points (minimum {minimum})",
            points=points,
            minimum=minimum,
        )
    return _laydown_of(me, lay_found, reason)


def _no_laydown(
    me: _Seat, legal: Sequence[Action], rack: Sequence[Face], must: Face | None
) -> Hint | None:
    seen = me.seen
    stuck = bool(seen.must_use or seen.pending_jokers or (_opening_due(me) and seen.laid_points))
    if stuck and ResetTurn() in legal:
        what = "the formations laid this turn" if seen.laid_points else "this turn's moves"
        return Hint(
            "reset",
            ("reset",),
            f"{what} cannot be completed into a legal turn: take them back",
            "reset_laid" if seen.laid_points else "reset_moves",
        )
    if not _opening_due(me):
        return Hint("laydown", (), "no formation can be laid from the rack", "laydown_none")
    minimum = me.play.opening_min_points
    best = best_opening(
        rack,
        me.variant,
        opening_requirement(me.variant, seen.options),
        keep=me.keep,
        must_include=must,
        rules=me.rules,
    )
    if not best.melds:
        return Hint("laydown", (), "no laydown meets the opening rule yet", "laydown_no_opening")
    # A note, not a move: laying it would leave the turn unable to end (RULES: opening).
    return Hint(
        "laydown",
        (),
        f"best opening is {best.points} points, short of the {minimum} needed: wait",
        "laydown_short",
        (("points", best.points), ("minimum", minimum)),
    )


def _laydown_of(me: _Seat, lay: Laydown, why: _Why) -> Hint:
    code, reason, params = why
    actions = [f"meld {_meld_text(c, me)}" for c in lay.melds]
    left = len(me.rack) - sum(len(c.kinds) for c in lay.melds)
    if _three_due(me, left - 1):
        actions.append("three")
        reason += f"; then announce 'three' ({left - 1} tiles will remain, RULES §9.11)"
        params = (*params, ("then_three", left - 1))
    return Hint("laydown", tuple(actions), reason, code, params)


def _meld_text(cand: Candidate, me: _Seat) -> str:
    material = me.material
    return str(Meld(cand.faces(material), cand.declared(material))).removeprefix("meld ")


# ---------------------------------------------------------------------- table moves


def _formation(seen: SeatView, target: int) -> FormationView:
    return next(f for f in seen.table if f.id == target)


def _may_attach_now(me: _Seat) -> bool:
    # An unopened seat's lay-off counts only once this turn's opening is made; a lay-off
    # before it could leave the turn unable to end.
    if me.play.layoff_before_opening or not _opening_due(me):
        return True
    return _opening_complete(me)


def _reset_this_turn(seen: SeatView) -> bool:
    for actor, text in reversed(seen.history):
        if actor != seen.seat:
            return False
        if text == "reset":
            return True
    return False


def _joker_usable(me: _Seat, action: ExchangeJoker) -> bool:
    """Whether the joker an exchange frees can be used as the rules require (§8.5, §9.10)."""
    if me.play.exchanged_joker_use == "none":
        return True
    joker = Face.joker(me.material)
    rest = list(me.rack)
    for face in action.faces:
        rest.remove(face)
    rest.append(joker)
    # A new formation with the joker (the opening, if one is still due) must be possible.
    return _first_laydown(me, rest, must=joker) is not None


def _closing_hints(me: _Seat, legal: Sequence[Action]) -> list[Hint]:
    for action in legal:
        if isinstance(action, CallRemi) and action.face is not None:
            return [
                Hint(
                    "close",
                    (str(action),),
                    f"the other cards all lie in melds: call and close with {action.face}, "
                    "deadwood 0 (RULES §6.6)",
                    "close_remi",
                    (("piece", str(action.face)),),
                )
            ]
        if isinstance(action, GoOut) and action.face is not None:
            return [
                Hint(
                    "out",
                    (str(action),),
                    f"the other 15 cards make a layout: go out, closing with {action.face} "
                    "(RULES §7.6)",
                    "out_close",
                    (("piece", str(action.face)),),
                )
            ]
        if isinstance(action, CloseBoard):
            return [
                Hint(
                    "close",
                    (str(action),),
                    f"your 14 other tiles make a contract: close with {action.face} (RULES §9.13)",
                    "close_board",
                    (("piece", str(action.face)),),
                )
            ]
    return []


# ---------------------------------------------------------------------- discard


def _counts_cards(me: _Seat) -> bool:
    # Continental pays per layout, not per point (RULES §7.8): count cards, not points.
    return me.variant.find_layout is not None


def _values(me: _Seat) -> tuple[int, ...]:
    return _ONE_EACH if _counts_cards(me) else kind_points(me.variant)


@lru_cache(maxsize=8192)
def _arrangement(
    counts: tuple[int, ...], rules: MeldRules, values: tuple[int, ...]
) -> tuple[int, frozenset[int]]:
    """(least deadwood, kinds left unmatched) of a hand, cached: advice asks about the
    same hands again and again (the rack, then the rack without each candidate)."""
    found = min_deadwood(counts, rules, values)
    return found.points, frozenset(found.deadwood)


def _left(me: _Seat, faces: Sequence[Face]) -> int:
    return _arrangement(counts_of([f.kind for f in faces]), me.rules, _values(me))[0]


def _value(me: _Seat, face: Face) -> int:
    return 1 if _counts_cards(me) else me.variant.score_value(face)


def _unmatched(me: _Seat, left: int) -> str:
    if _counts_cards(me):
        return f"{left} cards outside runs"
    return f"{left} points left unmatched"


def _best_discard(
    me: _Seat, rack: Sequence[Face], choices: Sequence[Face] | None = None, keep: Face | None = None
) -> tuple[int, Face] | None:
    """(deadwood left, face) of the discard leaving the least deadwood, or None."""
    values = _values(me)
    whole, loose = _arrangement(counts_of([f.kind for f in rack]), me.rules, values)
    top_loose = max((values[k] for k in loose), default=-1)
    best: tuple[int, int, int, Face] | None = None
    for face in sorted(set(rack if choices is None else choices)):
        if keep is not None and face == keep and rack.count(face) < 2:
            continue
        # Dropping a matched piece of value v leaves at least (deadwood - v); dropping
        # an unmatched one at most that: only unmatched pieces, or matched ones worth
        # more than every unmatched piece, can leave the least.
        if loose and face.kind not in loose and values[face.kind] <= top_loose:
            continue
        if face.kind in loose:
            # The best arrangement minus an unmatched piece is the best of the rest.
            left = whole - values[face.kind]
        else:
            rest = list(rack)
            rest.remove(face)
            left = _left(me, rest)
        # Least deadwood left; then keep wild pieces; then shed the higher-valued piece.
        key = (left, me.rules.is_wild(face), -me.variant.score_value(face), face)
        if best is None or key < best:
            best = key
    return None if best is None else (best[0], best[3])


def _three_due(me: _Seat, left: int) -> bool:
    """RULES §9.11: a turn ending with 1–3 tiles needs the 'three' announcement."""
    return (
        me.play.three_announcement
        and 1 <= left <= 3
        and not me.seen.announced_three[me.seat]
        and not me.seen.board[me.seat]
    )


def _discard_hint(me: _Seat, discards: Sequence[Face]) -> Hint:
    found = _best_discard(me, me.rack, discards)
    assert found is not None
    left, face = found
    remaining = len(me.rack) - 1
    if remaining == 0:
        return Hint(
            "discard",
            (str(Discard(face)),),
            "your last piece: discard it and close",
            "discard_last",
            (("piece", str(face)),),
        )
    params: tuple[tuple[str, Param], ...] = (
        ("piece", str(face)),
        ("left", left),
        ("remaining", remaining),
    )
    if _counts_cards(me):
        code = "discard_cards"
        reason = f"keeps the most cards in runs: {left} of {remaining} still outside runs"
    else:
        code = "discard_points"
        reason = f"keeps the rest best arranged: {left} points left unmatched"
    actions: tuple[str, ...] = (str(Discard(face)),)
    if _three_due(me, remaining):
        actions = (str(AnnounceThree()), *actions)
        penalty = _three_penalty(me.play)
        reason += (
            f"; announce 'three' first: ending the turn with {remaining} tiles unannounced "
            f"scores {penalty} (RULES §9.11)"
        )
        params = (*params, ("three_first", remaining), ("penalty", penalty))
    return Hint("discard", actions, reason, code, params)


def _three_penalty(play: PlayRules) -> int:
    return -abs(play.setting(ThreeSettings).penalty)


# ---------------------------------------------------------------------- warnings


def penalty_warning(seen: SeatView, action: Action) -> str | None:
    """Why ``action`` would cost the holder of ``seen`` a known penalty (or risks one the
    rules define), or None.  Interfaces ask the player to confirm such a move."""
    if seen.to_move != seen.seat or seen.phase not in (Phase.ROUND1, Phase.TURNS):
        return None
    variant = find_variant(seen.variant)
    play = variant.play_rules(seen.options)
    seat = seen.seat
    if isinstance(action, Discard) and play.three_announcement:
        left = len(seen.rack) - 1
        if 1 <= left <= 3 and not seen.announced_three[seat] and not seen.board[seat]:
            return (
                f"ending the turn with {left} tiles without announcing 'three' scores "
                f"{_three_penalty(play)} for the deal (RULES §9.11): announce "
                "'three' first"
            )
    if isinstance(action, CallRemi) and action.face is None and play.stop_call:
        rules = variant.rules_for(seen.options)
        counts = counts_of([f.kind for f in seen.rack])
        dead = min_deadwood(counts, rules, kind_points(variant)).points
        penalty = play.setting(CallSettings).failure_penalty
        return (
            f"you call with {dead} points of deadwood: if any opponent has {dead} or less, "
            f"the call fails and you score {penalty} (RULES §6.8)"
        )
    if isinstance(action, DeclareBoard):
        penalty = play.setting(BoardSettings).beaten_penalty
        return (
            "play on the board is final: you can no longer lay out this deal, and you score "
            f"-{penalty} if another player closes first (RULES §9.13, §9.12)"
        )
    return None
