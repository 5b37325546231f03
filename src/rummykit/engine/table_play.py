"""Table plays: laying melds, laying off, exchanging jokers and resetting the turn
(their checks and their effects; a part of :class:`~rummykit.engine.game.Game`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from rummykit.engine.actions import Action, Attach, ExchangeJoker, Meld, ResetTurn
from rummykit.engine.core import GameFields, Phase
from rummykit.engine.table import Formation
from rummykit.engine.turn import restore_snapshot
from rummykit.model.melds import MeldKind, MeldRules, best_reading, read_meld
from rummykit.model.pieces import JOKER_KIND, SUIT_COUNT, Face

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["TablePlay"]


class _MeldPlan(NamedTuple):
    """A meld's reading as the table holds it (see :meth:`Game._meld_plan`)."""

    kind: MeldKind
    suit: int
    order: tuple[int, ...]
    """The meld's pieces in table order, as indices into its faces."""
    positions: tuple[int, ...]
    kinds: tuple[int, ...]
    laid: tuple[MeldKind, int]
    """(kind, position of the reading's first piece), for the opening checks."""
    points: int
    """Its opening points."""


_MELD_PLANS: dict[tuple[int, int, int], tuple[Meld, MeldRules, Any, _MeldPlan]] = {}
"""Meld plans by the ids of the meld, the rules and the opening values (each checked)."""


class TablePlay(GameFields):
    """Melds, lay-offs, joker exchanges and the reset (a part of
    :class:`~rummykit.engine.game.Game`)."""

    def verify_table_action(self, action: Action) -> None:
        self.in_turn(action)
        seat = self.to_move
        if self.turn.acquired is None:
            raise self.fail(action, self.play.cite("acquire", "§2.3"), "draw or take a piece first")
        if not self.play.table_melds:
            raise self.fail(
                action,
                self.play.cite("table", "§2.3"),
                "melds are never laid on the table during play",
            )
        if self.phase is Phase.ROUND1:
            raise self.fail(action, "§9.5(3)", "nothing is laid, attached or exchanged in round 1")
        if self.turn.acquired == "none" and not self.play.first_turn_may_meld:
            raise self.fail(action, "§5.2/A-14", "the first player only discards on his first turn")
        if problem := self._table_play_problem(seat):
            raise self.fail(action, *problem)

    def _table_play_problem(self, seat: int) -> tuple[str, str] | None:
        for ext in self._table_hooks:
            if problem := ext.table_play_problem(cast("Game", self), seat):
                return problem
        return None

    def _keeps_discard(self, action: Action, removed: int, added: int = 0) -> None:
        left = len(self.racks[self.to_move]) - removed + added
        if left >= 1:
            return
        if not self.play.go_out_without_discard:
            raise self.fail(
                action,
                self.play.cite("keep_discard", "§2.1(9)"),
                "one piece must stay for the discard",
            )
        # Going out without a discard (§3.6): the turn's obligations must hold afterwards.
        trial = self.copy()
        trial._going_out_trial = True
        trial._appliers[type(action)](trial, action)
        if problem := trial.commit_problem(going_out=True):
            raise self.fail(action, *problem)

    def verify_meld_pieces(self, action: Meld) -> None:
        """Raise unless the seat to move holds ``action``'s pieces and they form a meld."""
        if len(action.declared) != len(action.faces):
            raise self.fail(action, "§2.2", "malformed meld")
        self.pick(self.to_move, action.faces, action)
        if not read_meld(action.faces, self.rules, action.declared):
            raise self.fail(
                action, self.play.cite("meld", "§2.2"), "these pieces do not form a run or a set"
            )

    def _verify_meld(self, action: Meld) -> None:
        self.verify_table_action(action)
        self.verify_meld_pieces(action)
        self._keeps_discard(action, len(action.faces))

    def _apply_meld(self, action: Meld) -> None:
        self.before_change()
        seat = self.to_move
        pieces = self.pick(seat, action.faces, action)
        plan = self._meld_plan(action)
        formation = Formation(
            id=len(self.table) + 1,
            owner=seat,
            kind=plan.kind,
            suit=plan.suit,
            pieces=tuple(pieces[i] for i in plan.order),
            positions=plan.positions,
            kinds=plan.kinds,
        )
        self.place(seat, pieces, new_formation=True)
        self.table.append(formation)
        self.turn.new_formations.append(formation.id)
        self.turn.laid.append(plan.laid)
        self.turn.laid_points += plan.points
        self.turn.dirty = True
        self._go_out_if_empty()

    def _meld_plan(self, action: Meld) -> _MeldPlan:
        """How ``action`` lies on the table: its best reading (RULES §2.2), worked out
        once per meld object (the legal lists hand out the same objects again)."""
        key = (id(action), id(self.rules), id(self._opening_value))
        known = _MELD_PLANS.get(key)
        if (
            known is not None
            and known[0] is action
            and known[1] is self.rules
            and known[2] is self._opening_value
        ):
            return known[3]
        readings = read_meld(action.faces, self.rules, action.declared)
        reading = best_reading(action.faces, readings, self._opening_value)
        order = tuple(sorted(range(len(action.faces)), key=lambda i: reading.positions[i]))
        plan = _MeldPlan(
            reading.kind,
            reading.suit,
            order,
            tuple(reading.positions[i] for i in order),
            tuple(action.faces[i].kind for i in order),
            (reading.kind, reading.positions[0]),
            sum(self._opening_value(reading.kind, p) for p in reading.positions),
        )
        if len(_MELD_PLANS) > 20_000:
            _MELD_PLANS.clear()
        _MELD_PLANS[key] = (action, self.rules, self._opening_value, plan)
        return plan

    def place(self, seat: int, pieces: Sequence[int], *, new_formation: bool) -> None:
        rack = self.racks[seat]
        # §8.5/A-39: where only a new meld may take a freed joker, a lay-off does not count.
        clears = new_formation or self.play.exchanged_joker_use == "formation"
        for p in pieces:
            rack.remove(p)
            if self.credit[p] < 0:
                self.credit[p] = seat
            if clears and p in self.turn.pending_jokers:
                self.turn.pending_jokers.remove(p)

    def formation(self, action: Action, target: int) -> Formation:
        if not 1 <= target <= len(self.table):
            raise self.fail(
                action, self.play.cite("attach", "§2.1(7)"), f"there is no formation m{target}"
            )
        return self.table[target - 1]

    def attach_slot(self, formation: Formation, face: Face, declared: Face | None) -> int | None:
        if not face.is_joker:
            return self._plays(formation).slots.get(face.kind)
        rules = self.rules
        if formation.kind is MeldKind.RUN:
            # A joker: the variant's joker limits apply to the longer run too.
            wild = 1 + formation.kinds.count(JOKER_KIND)
            natural = len(formation.kinds) + 1 - wild
            if (rules.max_wild is not None and wild > rules.max_wild) or (
                rules.wild_le_natural and wild > natural
            ):
                return None
            return formation.run_slot_for(face, rules, declared)
        size = len(formation.pieces)
        if size >= rules.set_max_size or (rules.set_distinct_suits and size >= SUIT_COUNT):
            return None
        if face.is_joker:
            if declared is not None and (
                declared.rank != formation.rank
                or (
                    rules.set_distinct_suits
                    and declared.suit_index in formation.natural_suits(self.pieces)
                )
            ):
                return None
            wild = 1 + formation.kinds.count(JOKER_KIND)
            natural = size + 1 - wild
            if (rules.max_wild is not None and wild > rules.max_wild) or (
                rules.wild_le_natural and wild > natural
            ):
                return None
            return formation.rank
        if face.rank != formation.rank:
            return None
        if rules.set_distinct_suits and face.suit_index in formation.natural_suits(self.pieces):
            return None
        return formation.rank

    def _verify_attach(self, action: Attach) -> None:
        self.verify_table_action(action)
        seat = self.to_move
        (piece,) = self.pick(seat, (action.face,), action)
        formation = self.formation(action, action.target)
        freed_joker = piece in self.turn.pending_jokers
        if not (freed_joker or self._may_lay_off(seat)):
            raise self.fail(
                action,
                self.play.cite("attach_opening", "§2.1(7)"),
                "laying off needs a player opened in an earlier turn",
            )
        if action.face.is_joker and formation.owner != seat and self.play.joker_layoff_own_only:
            raise self.fail(
                action, "§9.6(2)", "a joker may be attached only to your own formations"
            )
        if action.declared is not None and not action.face.is_joker:
            raise self.fail(action, "§2.2", "only a joker is declared")
        if self.attach_slot(formation, action.face, action.declared) is None:
            # A lay-off that does not fit may still be a variant's play (e.g. §4.5).
            for ext in self._misfit_hooks:
                if ext.verify_misfit_attach(cast("Game", self), action, piece, formation):
                    return
            raise self.fail(
                action,
                self.play.cite("attach", "§2.1(7)"),
                f"{action.face} does not fit {formation.notation(self.pieces)}",
            )
        self._keeps_discard(action, 1)

    def _may_lay_off(self, seat: int) -> bool:
        play = self.play
        return (
            self.opened[seat]
            or play.layoff_before_opening
            or (play.layoff_on_opening_turn and bool(self.turn.new_formations))
            # §5.6: a player making a Hand may lay off before opening; the commit
            # check requires that he then goes out this turn.
            or (play.hand_waives_opening and not self.has_laid[seat])
        )

    def _apply_attach(self, action: Attach) -> None:
        self.before_change()
        seat = self.to_move
        (piece,) = self.pick(seat, (action.face,), action)
        formation = self.table[action.target - 1]
        slot = self.attach_slot(formation, action.face, action.declared)
        self.turn.attached = True
        self.turn.dirty = True
        if slot is None:
            for ext in self._misfit_hooks:
                if ext.apply_misfit_attach(cast("Game", self), action, piece, formation):
                    return
            raise AssertionError("a verified lay-off that does not fit")
        self.table[action.target - 1] = formation.with_piece(piece, action.face.kind, slot)
        self.place(seat, [piece], new_formation=False)
        if self.turn.extensions:
            for ext in self._attached_hooks:
                ext.attached(cast("Game", self), seat, action)
        if piece in self.turn.must_use and self.play.taken_piece_may_attach:
            self.turn.new_formations.append(formation.id)
        self._go_out_if_empty()

    def _exchange_plan(self, action: ExchangeJoker) -> tuple[Formation, list[int], list[int]]:
        """(formation, jokers freed, positions filled) or raise."""
        formation = self.formation(action, action.target)
        faces = action.faces
        jokers = [p for p in formation.pieces if self.faces[p].is_joker]
        if not jokers:
            raise self.fail(
                action, self.play.cite("exchange", "§2.1(8)"), f"m{action.target} holds no joker"
            )
        if formation.kind is MeldKind.RUN:
            if len(faces) != 1:
                raise self.fail(
                    action,
                    self.play.cite("exchange", "§2.1(8)"),
                    "a joker in a run is freed by one piece",
                )
            for i, p in enumerate(formation.pieces):
                if p in jokers and formation.represented(self.pieces, i) == faces[0]:
                    if p in self.locked:
                        raise self.fail(
                            action,
                            self.play.cite("exchange", "§2.1(8)"),
                            "that joker was exchanged once already",
                        )
                    return formation, [p], [formation.positions[i]]
            raise self.fail(
                action,
                self.play.cite("exchange", "§2.1(8)"),
                f"no joker in m{action.target} stands for {faces[0]}",
            )
        present = formation.natural_suits(self.pieces)
        suits = [f.suit_index for f in faces]
        if (
            any(f.is_joker or f.rank != formation.rank for f in faces)
            or len(set(suits)) != len(suits)
            or present & set(suits)
        ):
            raise self.fail(
                action,
                self.play.cite("exchange", "§2.1(8)"),
                f"those pieces are not missing from m{action.target}",
            )
        if not self.play.exchange_set_needs_all_suits:
            # §8.5: one missing suit replaces one joker.
            free = [p for p in jokers if p not in self.locked]
            if len(faces) != 1 or not free:
                raise self.fail(
                    action,
                    self.play.cite("exchange", "§2.1(8)"),
                    "one piece of a missing suit frees one joker",
                )
            return formation, free[:1], [formation.rank]
        if len(present) + len(suits) != SUIT_COUNT or self.rules.set_max_size < SUIT_COUNT:
            # With sets capped below four (§10.11 set_max_size) no set joker is freed.
            raise self.fail(
                action,
                self.play.cite("exchange_set", "§2.1(8)"),
                "a joker in a set is freed only when all four suits/colours lie there",
            )
        if any(p in self.locked for p in jokers):
            raise self.fail(
                action,
                self.play.cite("exchange", "§2.1(8)"),
                "that joker was exchanged once already",
            )
        return formation, jokers, [formation.rank] * len(faces)

    def _verify_exchange(self, action: ExchangeJoker) -> None:
        self.verify_table_action(action)
        seat = self.to_move
        if not self.play.joker_exchange:
            raise self.fail(
                action,
                self.play.cite("exchange", "§2.1(8)"),
                "jokers on the table are never exchanged here",
            )
        if not self.opened[seat] and self.play.exchange_needs_opened_before:
            raise self.fail(
                action,
                self.play.cite("exchange_opened", "§2.1(8)"),
                "exchanging needs an opened player",
            )
        self.pick(seat, action.faces, action)
        _, jokers, _ = self._exchange_plan(action)
        if len(action.faces) != len(jokers) and self._exchange_one_for_one(seat):
            raise self.fail(
                action,
                self.play.cite("exchange_opened", "§2.1(8)"),
                "before your opening formations, an exchange gives one piece per joker",
            )
        self._keeps_discard(action, len(action.faces), len(jokers))

    def _exchange_one_for_one(self, seat: int) -> bool:
        """§10.3/A-70: an unopened player's rack keeps its size, so an exchange that
        gives two pieces for one joker waits for his opening formations."""
        return (
            self.play.unopened_exchange_one_for_one
            and not self.opened[seat]
            and not self.turn.new_formations
        )

    def _apply_exchange(self, action: ExchangeJoker) -> None:
        self.before_change()
        seat = self.to_move
        pieces = self.pick(seat, action.faces, action)
        formation, jokers, _positions = self._exchange_plan(action)
        if formation.kind is MeldKind.RUN:
            updated = formation.replacing(jokers[0], pieces[0], action.faces[0].kind)
        else:
            keep = [p for p in formation.pieces if p not in jokers]
            pieces_after = (*keep, *pieces)
            updated = Formation(
                formation.id,
                formation.owner,
                formation.kind,
                formation.suit,
                pieces_after,
                (formation.rank,) * len(pieces_after),
                tuple(self.faces[p].kind for p in pieces_after),
            )
        self.table[formation.id - 1] = updated
        self.place(seat, pieces, new_formation=False)
        for j in jokers:
            # the joker keeps its original credit; RULES §9.10: it is locked.
            if self.play.exchanged_joker_locked:
                self.locked.add(j)
            self.racks[seat].append(j)
            if self.play.exchanged_joker_use != "none":
                self.turn.pending_jokers.append(j)
        self.racks[seat].sort()
        self.turn.exchanged = True
        self.turn.dirty = True

    def _verify_reset(self, action: ResetTurn) -> None:
        self.in_turn(action)
        if not self.turn.dirty:
            raise self.fail(action, "§2.3", "nothing to reset this turn")

    def _apply_reset(self, action: ResetTurn) -> None:
        snap = self.snapshot
        assert snap is not None
        restore_snapshot(self, snap)
        self.snapshot = None

    def _go_out_if_empty(self) -> None:
        """§3.6: melding or laying off the last piece ends the deal (no discard needed)."""
        seat = self.to_move
        if self.racks[seat] or self._going_out_trial:
            return
        hand = not self.has_laid[seat]
        self.commit_turn(seat)
        self.end_deal("out", seat, None, None, hand=hand)

    def lay_out(self, seat: int, action: Meld) -> None:
        """Lay ``action``'s pieces from ``seat``'s hand face up as a formation."""
        pieces = self.pick(seat, action.faces, action)
        readings = read_meld(action.faces, self.rules, action.declared)
        reading = best_reading(action.faces, readings, self.variant.opening_value)
        order = sorted(range(len(pieces)), key=lambda i: reading.positions[i])
        self.table.append(
            Formation(
                id=len(self.table) + 1,
                owner=seat,
                kind=reading.kind,
                suit=reading.suit,
                pieces=tuple(pieces[i] for i in order),
                positions=tuple(reading.positions[i] for i in order),
                kinds=tuple(action.faces[i].kind for i in order),
            )
        )
        for p in pieces:
            self.racks[seat].remove(p)
            self.credit[p] = seat
