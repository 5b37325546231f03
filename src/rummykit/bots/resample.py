"""Sampled worlds: a full game consistent with what one seat sees.

:func:`resample` turns a :class:`~rummykit.engine.view.SeatView` into a
:class:`~rummykit.engine.game.Game` whose view from that seat is the same view:
the hidden racks, the stock order and any face-down piece are drawn from the
pieces the seat has not seen, in a way the public log allows (a piece an
opponent took from the discard pile and has not laid is still on his rack;
every piece he laid, he held).

How: the current deal is replayed from a random deal layout on a *shadow*
game.  Before each logged action the shadow makes sure the actor holds the
pieces it names, swapping in a piece of that face from wherever an unseen one
lies (another rack, the stock).  Only pieces that no public action has shown
are ever swapped, so swapping two of them swaps their whole hidden histories
and the public log stays true.  At the end this seat's rack is fixed the same
way.  The layout those swaps produce is then replayed from scratch on a fresh
game, every action verified by the engine, and the result's view compared with
the given one; a failed attempt (a rare announcement constraint) is retried.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from rummykit.engine.actions import (
    AcceptSwap,
    Action,
    CallRemi,
    DoublesCategory,
    ProposeSwap,
    parse_action,
)
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.extensions.call import call_state
from rummykit.engine.extensions.preplay import preplay_state, recount_doubles
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import SeatView, view
from rummykit.model.pieces import Face
from rummykit.rules.variant import DealLayout, PrePlaySettings, find_variant

__all__ = ["RESAMPLE_PHASES", "ResampleError", "resample"]

RESAMPLE_PHASES = frozenset({Phase.PREPLAY, Phase.ROUND1, Phase.TURNS})
"""Phases :func:`resample` serves: those where a seat chooses under hidden information."""

ATTEMPTS = 12


class ResampleError(ValueError):
    """No consistent world could be built for a view."""


class _ConflictError(Exception):
    """This attempt cannot be completed; try another."""


def resample(view_: SeatView, rng: random.Random) -> Game:
    """A game drawn at random among those that show ``view_`` to its seat.

    Only the current deal is rebuilt (earlier deals survive as totals and
    results).  Raises :class:`ResampleError` outside :data:`RESAMPLE_PHASES`
    (a deal that is over hides nothing a decision needs) or if no consistent
    world is found.
    """
    if view_.phase not in RESAMPLE_PHASES:
        raise ResampleError(
            f"resample needs a deal in play (pre-play or turns), not phase {view_.phase}"
        )
    world = _World(view_)
    for attempt in range(ATTEMPTS):
        try:
            game = world.attempt(rng, attempt)
        except (_ConflictError, IllegalActionError):
            continue
        if view(game, view_.seat) == view_:
            return game
    raise ResampleError(
        f"no world consistent with seat P{view_.seat + 1}'s view of {view_.variant} "
        f"after {ATTEMPTS} attempts"
    )


class _World:
    """The fixed parts of a view, and one attempt at a consistent world."""

    def __init__(self, seen: SeatView) -> None:
        self.view = seen
        self.variant = find_variant(seen.variant)
        self.pieces = self.variant.pieces(seen.options)
        self.faces = self.pieces.faces
        material = self.pieces.material
        self.hidden_texts = ("swap ?", "accept ?", "remi ?")
        self.actions: list[tuple[int, Action | str]] = [
            (s, t if t.startswith(self.hidden_texts) else parse_action(t, material))
            for s, t in seen.history
        ]
        self.uses: list[Counter[Face]] = [Counter() for _ in range(seen.players)]
        """Faces each seat laid, discarded, or showed in a swap (offered or accepted)
        beyond what it took from the pile: pieces it held unseen, so not the faces of
        another seat's dealt double."""
        taken: list[Counter[Face]] = [Counter() for _ in range(seen.players)]
        probe = self.variant.deal(
            self.pieces, list(range(len(self.faces))), seen.players, seen.maker, seen.options
        )
        # The pile as the log tells it: a dealt face-up piece (Rommé's upcard) is named by
        # no entry, so it stands as its position in the deal's discard pile.
        column: list[Face | int] = list(range(len(probe.discard)))
        turn_start: tuple[int, list[Face | int], Counter[Face]] = (-1, [], Counter())
        dealt_taken: list[int] = []
        """Dealt pile positions taken in the turn under way, and the named faces taken."""
        named_taken: Counter[Face] = Counter()
        for seat, item in self.actions:
            if turn_start[0] != seat:
                turn_start = (seat, column[:], taken[seat].copy())
                dealt_taken, named_taken = [], Counter()
            if isinstance(item, str):
                continue
            proof = item.proves()
            self.uses[seat].update(proof.held)
            if proof.discards:
                # Only a plain discard keeps the deal going: a closing one ends it, and a
                # deal that is over is never resampled.
                column.extend(proof.discards)
                turn_start = (-1, [], Counter())
            if proof.takes_column_from is not None:
                index = proof.takes_column_from
                named = [f for f in column[index:] if isinstance(f, Face)]
                taken[seat].update(named)
                named_taken.update(named)
                dealt_taken.extend(p for p in column[index:] if isinstance(p, int))
                del column[index:]
            if proof.undoes_turn:
                column = turn_start[1][:]
                taken[seat] = turn_start[2].copy()
                dealt_taken, named_taken = [], Counter()
        for seat in range(seen.players):
            self.uses[seat] -= taken[seat]
        self.dealt_pile: dict[int, Face] = {}
        """Faces of dealt pile positions the view shows: still (or again, after a
        ``reset``) in the pile, or taken by this seat this turn (its ``must_use`` names
        every taken piece not yet laid)."""
        if len(column) == len(seen.column):
            for entry, face in zip(column, seen.column, strict=True):
                if isinstance(entry, int):
                    self.dealt_pile[entry] = face
        if turn_start[0] == seen.seat == seen.to_move and dealt_taken:
            unnamed = Counter(seen.must_use) - named_taken
            if sum(unnamed.values()) == len(dealt_taken):
                self.dealt_pile.update(zip(dealt_taken, sorted(unnamed.elements()), strict=True))

    # ------------------------------------------------------------ one attempt

    def attempt(self, rng: random.Random, attempt: int) -> Game:
        seen = self.view
        self.attempt_no = attempt
        layout = self._layout(rng, robbed=attempt % 4 >= 2)
        seed = rng.randrange(2**32)
        shadow = self._game(layout, seed)
        self.pinned: set[int] = set()
        if shadow.indicator is not None:
            self.pinned.add(shadow.indicator)
        self.layout = [list(r) for r in layout.racks], list(layout.stock), list(layout.discard)
        self._fix_atu(shadow, rng)
        concrete: list[Action] = []
        for actor, item in self.actions:
            if shadow.to_move != actor:
                raise _ConflictError
            if isinstance(item, str):
                action = self._hidden_choice(shadow, item, rng)
            else:
                action = item
                self._provide(shadow, actor, action, rng)
            # The discarded piece is seen, even if the pile is turned over at once (§2.4).
            shown = [
                piece
                for face in action.proves().discards
                for piece in shadow.pick_discard(actor, face, action)
            ]
            shadow.apply(action)
            concrete.append(action)
            self.pinned.update(shown)
            for formation in shadow.table:
                self.pinned.update(formation.pieces)
        self._fix_rack(shadow, seen.seat, [*seen.rack], rng)
        self._fix_column(shadow, rng)
        racks, stock, discard = self.layout
        final = DealLayout(
            racks=tuple(tuple(r) for r in racks),
            stock=tuple(stock),
            first_seat=layout.first_seat,
            discard=tuple(discard),
            indicator=layout.indicator,
            double_game=layout.double_game,
            notes=layout.notes,
        )
        game = self._game(final, seed)
        for action in concrete:
            game.apply(action)
        return game

    def _game(self, layout: DealLayout, seed: int) -> Game:
        seen = self.view
        game = Game(
            self.variant,
            seen.players,
            seen.options,
            rng=random.Random(seed),
            maker=seen.maker,
            layout=layout,
        )
        game.deal_number = seen.deal_number
        game.totals = list(seen.totals)
        game.results = list(seen.results)
        return game

    def _layout(self, rng: random.Random, *, robbed: bool) -> DealLayout:
        """A random deal whose public parts (the indicator) match the view."""
        seen = self.view
        order = self.variant.shuffled_order(self.pieces, rng)
        layout = self.variant.deal(self.pieces, order, seen.players, seen.maker, seen.options)
        if layout.indicator is not None and seen.indicator is not None:
            if self.faces[layout.indicator] != seen.indicator:
                wanted = [p for p in order if self.faces[p] == seen.indicator]
                swap_with = wanted[rng.randrange(len(wanted))]
                i, j = order.index(layout.indicator), order.index(swap_with)
                order[i], order[j] = order[j], order[i]
        elif self.faces[order[-1]].is_joker != robbed:
            # Rommé's "rauben" depends on the bottom card: try both kinds there.
            pool = [i for i, p in enumerate(order) if self.faces[p].is_joker == robbed]
            if pool:
                j = pool[rng.randrange(len(pool))]
                order[-1], order[j] = order[j], order[-1]
        if self.dealt_pile:
            layout = self.variant.deal(self.pieces, order, seen.players, seen.maker, seen.options)
            fixed = {layout.indicator, order[-1], *layout.discard}
            for position, face in self.dealt_pile.items():
                piece = layout.discard[position]
                if self.faces[piece] == face:
                    continue
                wanted = [p for p in order if self.faces[p] == face and p not in fixed]
                if not wanted:
                    raise _ConflictError(f"no copy of {face} for the dealt pile")
                i, j = order.index(piece), order.index(wanted[rng.randrange(len(wanted))])
                order[i], order[j] = order[j], order[i]
        return self.variant.deal(self.pieces, order, seen.players, seen.maker, seen.options)

    # ------------------------------------------------------------ swapping

    def _swap(self, game: Game, a: int, b: int) -> None:
        """Exchange the hidden histories of unseen pieces ``a`` and ``b``."""

        def swap_in(items: list[int]) -> None:
            for i, p in enumerate(items):
                if p == a:
                    items[i] = b
                elif p == b:
                    items[i] = a

        racks, stock, discard = self.layout
        for rack in racks:
            swap_in(rack)
        swap_in(stock)
        swap_in(discard)
        for rack in game.racks:
            swap_in(rack)
            rack.sort()
        swap_in(game.stock)
        swap_in(game.column)
        turns = [game.turn]
        if game.snapshot is not None:
            swap_in(game.snapshot.rack)
            swap_in(game.snapshot.column)
            turns.append(game.snapshot.turn)
        for turn in turns:
            swap_in(turn.must_use)
            swap_in(turn.pending_jokers)
            if turn.gained in (a, b):
                turn.gained = b if turn.gained == a else a
        called = call_state(game, writable=True)
        if called is not None and called.face_down in (a, b):
            called.face_down = b if called.face_down == a else a
        recount_doubles(game)
        game._legal_cache = None

    def _free(self, game: Game, exclude_seat: int | None = None) -> list[int]:
        """Unseen pieces outside ``exclude_seat``'s rack that may take another's place."""
        out = [p for p in game.stock if p not in self.pinned]
        out.extend(p for p in game.column if p not in self.pinned)
        for seat, rack in enumerate(game.racks):
            if seat != exclude_seat:
                out.extend(p for p in rack if p not in self.pinned)
        return out

    def _bring(
        self, game: Game, seat: int, face: Face, keep: Counter[Face], rng: random.Random
    ) -> None:
        """Put one more ``face`` on ``seat``'s rack in place of an unneeded unseen piece."""
        donors = [p for p in self._free(game, seat) if self.faces[p] == face]
        spare = [p for p in game.racks[seat] if p not in self.pinned]
        spare = [p for p in spare if keep[self.faces[p]] <= 0 or self._surplus(game, seat, p, keep)]
        if not donors or not spare:
            raise _ConflictError(f"P{seat + 1} needs {face}: no unseen copy can be swapped in")
        self._swap(game, spare[rng.randrange(len(spare))], donors[rng.randrange(len(donors))])

    def _surplus(self, game: Game, seat: int, piece: int, keep: Counter[Face]) -> bool:
        face = self.faces[piece]
        held = sum(1 for p in game.racks[seat] if self.faces[p] == face)
        return held > keep[face]

    def _ensure(self, game: Game, seat: int, need: Counter[Face], rng: random.Random) -> None:
        for face, count in sorted(need.items()):
            seen = [p for p in game.racks[seat] if self.faces[p] == face and p in self.pinned]
            if len(seen) >= count:
                # Seen copies cover the need: move unseen copies away, so the engine
                # cannot lay one of them and strand a seen copy another seat needs.
                for piece in [
                    p for p in game.racks[seat] if self.faces[p] == face and p not in self.pinned
                ]:
                    others = [q for q in self._free(game, seat) if self.faces[q] != face]
                    if others:
                        self._swap(game, piece, others[rng.randrange(len(others))])
            while sum(1 for p in game.racks[seat] if self.faces[p] == face) < count:
                self._bring(game, seat, face, need, rng)

    # ------------------------------------------------------------ constraints

    def _provide(self, game: Game, seat: int, action: Action, rng: random.Random) -> None:
        """Make ``seat`` hold what ``action`` names."""
        proof = action.proves()
        need: Counter[Face] = Counter()
        for face in proof.discards:
            need[face] += self._free_taken(game, seat, face, rng)
        need.update(proof.held)
        if proof.shows_atu and game.indicator is not None:
            need[self.faces[game.indicator]] += 1
        if proof.shows_double is not None:
            self._double_of(game, seat, proof.shows_double, rng)
            return
        self._ensure(game, seat, need, rng)
        if proof.shows or proof.shows_atu:
            # A dealt double or atu twin must stay where the announcement found it.
            self._pin(game, seat, need)

    def _free_taken(self, game: Game, seat: int, face: Face, rng: random.Random) -> int:
        """RULES §2.5/A-03: where the taken discard may not go back, the discard is another
        copy.  An unseen taken piece (an up-card) of that face is swapped away; the
        copies a seen taken piece adds to the need are returned."""
        if game.play.discard_taken_allowed or game.turn.acquired != "last":
            return 0
        extra = 0
        for piece in game.turn.must_use:
            if piece not in game.racks[seat] or self.faces[piece] != face:
                continue
            if piece in self.pinned:
                extra += 1
                continue
            others = [q for q in self._free(game, seat) if self.faces[q] != face]
            if not others:
                raise _ConflictError
            self._swap(game, piece, others[rng.randrange(len(others))])
        return extra

    def _pin(self, game: Game, seat: int, faces: Counter[Face]) -> None:
        for face, count in faces.items():
            held = [p for p in game.racks[seat] if self.faces[p] == face]
            held.sort(key=lambda p: p not in self.pinned)
            self.pinned.update(held[:count])

    def _double_of(
        self, game: Game, seat: int, category: DoublesCategory, rng: random.Random
    ) -> None:
        """A dealt double of ``category`` on ``seat``'s rack (RULES §9.4)."""
        material = self.pieces.material
        own = seat == self.view.seat
        # Own seat: a double it still holds or has laid, discarded or offered since.
        kept = Counter(self.view.rack) + self.uses[seat]
        # Never a face the other seats lay more of than the double would leave.
        others: Counter[Face] = Counter()
        for other, uses in enumerate(self.uses):
            if other != seat:
                others.update(uses)
        if not own:
            others.update(self.view.rack)

        def fits(face: Face) -> bool:
            if own and kept[face] < 2:
                return False
            return self.pieces.copies - others[face] >= 2

        state = preplay_state(game)
        for kind in state.dealt_doubles[seat] if state is not None else ():
            face = Face.from_kind(material, kind)
            if DoublesCategory.of(face) is category and fits(face):
                self._pin(game, seat, Counter({face: 2}))
                return
        free = Counter(self.faces[p] for p in self._free(game, seat))
        held = Counter(self.faces[p] for p in game.racks[seat])
        options = [
            f
            for f in sorted(set(free) | set(held))
            if not f.is_joker and DoublesCategory.of(f) is category and held[f] + free[f] >= 2
        ]
        options = [f for f in options if fits(f)] or ([] if own else options)
        if not options and own:
            own = False
            options = [
                f
                for f in sorted(set(free) | set(held))
                if not f.is_joker
                and DoublesCategory.of(f) is category
                and held[f] + free[f] >= 2
                and fits(f)
            ]
        if not options:
            raise _ConflictError
        face = options[rng.randrange(len(options))]
        self._ensure(game, seat, Counter({face: 2}), rng)
        self._pin(game, seat, Counter({face: 2}))

    def _fix_atu(self, game: Game, rng: random.Random) -> None:
        """Mandatory atu (RULES §9.4) is public at the deal: holders must match the view."""
        state = preplay_state(game, writable=True)
        if (
            state is None
            or game.indicator is None
            or not game.play.setting(PrePlaySettings).atu_mandatory
        ):
            return
        twin = self.faces[game.indicator]
        for seat in range(game.players):
            if state.atu[seat] == self.view.atu[seat]:
                continue
            if self.view.atu[seat]:
                self._ensure(game, seat, Counter({twin: 1}), rng)
                self._pin(game, seat, Counter({twin: 1}))
            else:
                for p in [p for p in game.racks[seat] if self.faces[p] == twin]:
                    others = [q for q in self._free(game, seat) if self.faces[q] != twin]
                    if not others:
                        raise _ConflictError
                    self._swap(game, p, others[rng.randrange(len(others))])
            state.atu[seat] = self.view.atu[seat]

    def _hidden_choice(self, game: Game, text: str, rng: random.Random) -> Action:
        """A concrete action for a log entry this seat saw only in part."""
        legal = game.legal_actions()
        if text.startswith("swap ?"):
            target = int(text.rsplit("P", 1)[1]) - 1
            fits: list[Action] = [
                a for a in legal if isinstance(a, ProposeSwap) and a.seat == target
            ]
        elif text.startswith("accept ?"):
            fits = [a for a in legal if isinstance(a, AcceptSwap)]
            state = preplay_state(game)
            pending = None if state is None else state.pending_swap
            if pending is not None and pending[0] == self.view.seat:
                fits = self._received(game, rng) or fits
        else:
            fits = [a for a in legal if isinstance(a, CallRemi) and a.face is not None]
        if not fits:
            raise _ConflictError
        if game.to_move != self.view.seat:
            # Not a double of faces this seat holds: the other copies must be free.
            mine = Counter(self.view.rack)
            free_of_mine = [
                a for a in fits if all(self.pieces.copies - mine[f] >= 2 for f in a.proves().shows)
            ]
            fits = free_of_mine or fits
        choice = fits[rng.randrange(len(fits))]
        proof = choice.proves()
        if proof.shows:
            # The double the swap proves stays pinned, both tiles (§9.4(1)).
            self._pin(game, game.to_move, Counter(proof.passes + proof.shows))
        return choice

    def _received(self, game: Game, rng: random.Random) -> list[Action]:
        """The swap this seat received (RULES §9.4): a face its rack shows, given from a
        double the accepting seat is made to hold."""
        faces = sorted({f for f in self.view.rack if not f.is_joker})
        rng.shuffle(faces)
        for face in faces:
            if AcceptSwap(face) in game.legal_actions():
                return [AcceptSwap(face)]
        for face in faces:
            try:
                self._ensure(game, game.to_move, Counter({face: 2}), rng)
            except _ConflictError:
                continue
            if AcceptSwap(face) in game.legal_actions():
                return [AcceptSwap(face)]
        return []

    def _fix_rack(self, game: Game, seat: int, wanted: Sequence[Face], rng: random.Random) -> None:
        self._ensure(game, seat, Counter(wanted), rng)

    def _fix_column(self, game: Game, rng: random.Random) -> None:
        """An up-card nobody took shows its face: match the view's pile."""
        column = self.view.column
        if len(column) != len(game.column):
            raise _ConflictError
        for i, face in enumerate(column):
            piece = game.column[i]
            if self.faces[piece] == face:
                continue
            if piece in self.pinned:
                raise _ConflictError
            donors = [
                p
                for p in self._free(game)
                if self.faces[p] == face
                and p not in game.column
                and p not in game.racks[self.view.seat]
            ]
            if not donors:
                raise _ConflictError
            self._swap(game, piece, donors[rng.randrange(len(donors))])
