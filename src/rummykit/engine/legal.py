"""The legal-action lists: a turn's draws, takes, table plays and discards, and what
may be played on each formation and rack (cached across games of a variant; a part of
:class:`~rummykit.engine.game.Game`)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from rummykit.engine.actions import (
    Action,
    Attach,
    Draw,
    ExchangeJoker,
    Meld,
    NextDeal,
    ResetTurn,
    TakeColumn,
)
from rummykit.engine.core import GameFields, Phase
from rummykit.engine.table import Formation
from rummykit.model.candidates import (
    Candidate,
    candidates,
    counts_of,
    rank_sets,
    suit_runs,
)
from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules, position_rank
from rummykit.model.pieces import (
    JOKER_KIND,
    RANKS_PER_SUIT,
    SUIT_COUNT,
    Face,
    Material,
    kind_of,
    suit_kinds,
    suit_of_kind,
)

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["Enumeration", "MeldCache", "MeldParts"]

_MeldPairs = tuple[tuple[int, Meld], ...]
"""(size, meld) of each formation of one part of a rack (a suit's runs, a rank's sets)."""
MeldParts = dict[
    int,
    tuple[
        list[dict[tuple[int, ...], _MeldPairs]],
        list[dict[tuple[int, ...], _MeldPairs]],
        dict[tuple[int, ...], tuple[Candidate, ...]],
    ],
]
"""Per usable wild count: (per suit its rows' runs, then per suit its canonical rows'
runs; per rank its columns' sets; per canonical row, the runs of the first suit seen
holding it, for every suit: see :func:`_runs_in_suit`)."""
_PART_LIMIT = 20_000
_FIRST = itemgetter(0)
_SECOND = itemgetter(1)
_NO_SUIT = (0, 0, 0, 0)
_SUIT_SLICES = tuple(suit_kinds(suit) for suit in range(SUIT_COUNT))


class _FormationPlays(NamedTuple):
    """What may be played on one formation, for any rack (:meth:`Game._plays`)."""

    formation: Formation
    slots: dict[int, int]
    """Natural kind -> the position it takes (see :func:`_natural_slots`)."""
    attaches: tuple[tuple[int, Attach], ...]
    """(natural kind, its lay-off) for each natural that fits, kinds ascending."""
    joker_attaches: tuple[Attach, ...]
    run_exchanges: tuple[tuple[int, int, ExchangeJoker], ...]
    """(joker piece, natural kind it stands for, the exchange) of each joker of a run."""
    jokers: tuple[int, ...]
    """The formation's joker pieces."""
    missing: tuple[Face, ...]
    """A set's missing suits (as faces of its rank), where it holds a joker."""
    one_exchanges: tuple[tuple[int, ExchangeJoker], ...]
    """A set: (kind, the exchange of one missing suit for one joker)."""
    all_exchange: ExchangeJoker | None
    """A set holding a joker: the exchange of every missing suit."""
    extension_data: tuple[tuple[int, Any], ...]
    """(index in ``Game._formation_attach_hooks``, its ``formation_data``) of each
    extension that may lay off onto the formation."""


def _meld_actions(
    counts: tuple[int, ...], rules: MeldRules, material: Material, parts: MeldParts
) -> tuple[tuple[int, ...], tuple[Meld, ...]]:
    """(sizes, melds) of every formation the counts can make, shortest first.

    The formations are :func:`candidates`' in its order (each suit's runs, then each
    rank's sets), stably sorted by size.  A suit's runs depend only on that suit's
    counts and the usable wild count, a rank's sets only on that rank's column: each
    part's (size, meld) pairs are kept in ``parts``, so a rack that differs from one
    seen before by a piece or two is assembled from parts already built.
    """
    if rules.wild_ranks:  # wild ranks mix the suits: no parts
        found = sorted(candidates(counts, rules), key=lambda c: len(c.kinds))
        return tuple(len(c.kinds) for c in found), tuple(_meld_of(c, material) for c in found)
    jokers = counts[JOKER_KIND]
    max_wild = jokers if rules.max_wild is None else min(jokers, rules.max_wild)
    tables = parts.get(max_wild)
    if tables is None:
        tables = parts[max_wild] = (
            [{} for _ in range(2 * SUIT_COUNT)],
            [{} for _ in range(14)],
            {},
        )
    run_tables, set_tables, any_suit = tables
    pairs: list[tuple[int, Meld]] = []
    if rules.runs_allowed:
        for suit in range(SUIT_COUNT):
            row = counts[_SUIT_SLICES[suit]]
            table = run_tables[suit]
            found_pairs = table.get(row)
            if found_pairs is None:
                # As in candidates(): the runs depend only on which ranks the suit
                # holds, and whether one ace or two.
                canonical = (row[0] if row[0] < 2 else 2, *(1 if c else 0 for c in row[1:]))
                same = run_tables[SUIT_COUNT + suit]
                found_pairs = same.get(canonical)
                if found_pairs is None:
                    # A row another suit held already: its runs, moved to this suit
                    # (racks are new nearly every call, and four suits share the rows).
                    known = any_suit.get(canonical)
                    if known is None:
                        runs = any_suit[canonical] = tuple(suit_runs(counts, rules, suit))
                    else:
                        runs = _runs_in_suit(known, suit)
                    found_pairs = same[canonical] = tuple(
                        (len(c.kinds), _meld_of(c, material)) for c in runs
                    )
                if len(table) > _PART_LIMIT:
                    table.clear()
                table[row] = found_pairs
            pairs.extend(found_pairs)
    if rules.sets_allowed:
        # Each rank's column (its count in each suit), ranks 1 to 13.
        columns = zip(counts[0:13], counts[13:26], counts[26:39], counts[39:52], strict=True)
        for rank, column in enumerate(columns, 1):
            if column == _NO_SUIT:
                continue
            table = set_tables[rank]
            found_pairs = table.get(column)
            if found_pairs is None:
                found_pairs = table[column] = tuple(
                    (len(c.kinds), _meld_of(c, material)) for c in rank_sets(counts, rules, rank)
                )
            pairs.extend(found_pairs)
    pairs.sort(key=_FIRST)
    return tuple(map(_FIRST, pairs)), tuple(map(_SECOND, pairs))


def _runs_in_suit(runs: tuple[Candidate, ...], suit: int) -> tuple[Candidate, ...]:
    """``runs`` (of one suit, from :func:`suit_runs`) moved to ``suit``: the runs of a
    suit holding the same ranks, in the same order (rules without wild ranks)."""
    if not runs or runs[0].suit == suit:
        return runs
    shift = (suit - runs[0].suit) * RANKS_PER_SUIT
    out = []
    for c in runs:
        kinds = tuple(k if k == JOKER_KIND else k + shift for k in c.kinds)
        need = tuple((k if k == JOKER_KIND else k + shift, n) for k, n in c.need)
        out.append(Candidate(c.kind, suit, c.positions, kinds, need))
    return tuple(out)


@lru_cache(maxsize=65536)
def _meld_of(candidate: Candidate, material: Material) -> Meld:
    return Meld(candidate.faces(material), candidate.declared(material))


_RunEnds = tuple[tuple[tuple[int, int], ...], tuple[Face, ...]]
_RUN_ENDS: dict[tuple[MeldRules, Material, int, int, int], _RunEnds] = {}


def _run_ends(rules: MeldRules, material: Material, formation: Formation) -> _RunEnds:
    """What the run ``formation`` takes at its ends: (natural kind, its position) of each
    natural that fits, low end first, and the face a joker declares at each end that
    takes one, high end first.

    Worked out once per suit and span (the ends depend on nothing else): every new
    or extended run on the table asks for both.
    """
    suit, low, high = formation.suit, formation.positions[0], formation.positions[-1]
    key = (rules, material, suit, low, high)
    found = _RUN_ENDS.get(key)
    if found is not None:
        return found
    slots: dict[int, int] = {}
    for p in (low - 1, high + 1):
        if 1 <= p <= HIGH_ACE:
            kind = kind_of(suit, position_rank(p))
            face = Face.of(Material.TILES, suit, position_rank(p))
            slot = formation.run_slot_for(face, rules, None)
            if slot is not None and kind not in slots:
                slots[kind] = slot
    joker = Face.joker(material)
    declared: list[Face] = []
    for p in (high + 1, low - 1):
        if not 1 <= p <= HIGH_ACE:
            continue
        face = Face.of(material, suit, position_rank(p))
        if face not in declared and formation.run_slot_for(joker, rules, face) == p:
            declared.append(face)
    if len(_RUN_ENDS) > 20_000:
        _RUN_ENDS.clear()
    found = _RUN_ENDS[key] = (tuple(slots.items()), tuple(declared))
    return found


def _natural_slots(formation: Formation, rules: MeldRules) -> dict[int, int]:
    """Natural face kind → the position it would take if attached to ``formation``."""
    if formation.kind is MeldKind.RUN:
        ends = _run_ends(rules, Material.TILES, formation)
        return dict(ends[0])
    out: dict[int, int] = {}
    size = len(formation.pieces)
    if size >= rules.set_max_size or (rules.set_distinct_suits and size >= SUIT_COUNT):
        return out
    present = {suit_of_kind(k) for k in formation.kinds if k != JOKER_KIND}
    for suit in range(SUIT_COUNT):
        if not (rules.set_distinct_suits and suit in present):
            out[kind_of(suit, formation.rank)] = formation.rank
    return out


MeldCache = dict[tuple[int, ...], tuple[tuple[int, ...], tuple[Meld, ...]]]
"""Rack counts -> (sizes, melds) of every formation the rack can make, shortest first."""
_MELDS_BY_RACK: dict[tuple[str, MeldRules], MeldCache] = {}
_MELD_PARTS: dict[tuple[str, MeldRules], MeldParts] = {}
"""Each rack part's meld actions (see :func:`_meld_actions`), per variant and rules."""
_SHARED_PLAYS: dict[tuple[str, MeldRules, tuple[str, ...]], dict[Formation, _FormationPlays]] = {}
"""Each formation's plays (see :meth:`Game._plays`), per variant, rules and extensions:
they depend on nothing else, so games, copies and a reset turn share them."""
_DRAW = Draw()
_ATTACHES: dict[tuple[int, Material, int], Attach] = {}


def _attach(face: Face, target: int) -> Attach:
    """``Attach(face, target)`` of a natural face, one object for every game."""
    key = (face.kind, face.material, target)
    action = _ATTACHES.get(key)
    if action is None:
        if len(_ATTACHES) > 20_000:
            _ATTACHES.clear()
        action = _ATTACHES[key] = Attach(face, target)
    return action


_TAKES: list[TakeColumn] = []
"""``TakeColumn(i)`` at index i: the legal lists share them."""


def _takes(last: int) -> list[TakeColumn]:
    """:data:`_TAKES`, holding at least ``TakeColumn(last)``."""
    if len(_TAKES) <= last:
        _TAKES.extend(TakeColumn(i) for i in range(len(_TAKES), last + 1))
    return _TAKES


_RESET = ResetTurn()


class Enumeration(GameFields):
    """The legal-action lists (a part of :class:`~rummykit.engine.game.Game`)."""

    def legal_actions(self) -> list[Action]:
        """Every legal action for the seat to move, in a stable order."""
        if self.phase is Phase.MATCH_END:
            return []
        if self.phase is Phase.DEAL_END:
            return [NextDeal()]
        owner = self._phase_owners.get(self.phase)
        if owner is None:
            actions = self._turn_actions()
        else:
            listed = owner.legal(cast("Game", self))
            actions = (
                [a for a in owner.candidates(cast("Game", self)) if self.can(a)]
                if listed is None
                else listed
            )
        # Legal actions are exactly those that verify, so applying one of them right
        # away (nothing logged in between) need not verify again.
        self._legal_cache = (len(self.log), actions)
        return actions

    def _turn_actions(self) -> list[Action]:
        seat = self.to_move
        rack = self.racks[seat]
        turn = self.turn
        play = self.play
        faces = self.faces
        out: list[Action] = []
        if turn.extensions:
            for ext in self._turn_list_hooks:
                listed = ext.turn_actions(cast("Game", self), seat)
                if listed is not None:
                    return listed
        if turn.acquired is None:
            if self.stock:
                out.append(_DRAW)
            last = len(self.column) - 1
            if self.phase is Phase.TURNS and last >= 0:
                if play.take_any_column_tile:
                    if len(rack) > play.draw_only_rack and last >= 1:
                        takes = _takes(last)
                        if self._middle_take_problem() is None:
                            out.extend(takes[1:last])
                        out.append(takes[last])
                elif last >= (1 if play.first_discard_dead else 0):
                    out.append(_takes(last)[last])
        elif (
            self.phase is Phase.TURNS
            and play.table_melds
            and self._table_play_problem(seat) is None
            and (turn.acquired != "none" or play.first_turn_may_meld)
        ):
            self._table_actions(seat, rack, out)
        for ext in self._early_hooks:
            ext.actions_before_discards(cast("Game", self), seat, out)
        if turn.acquired is not None:
            kinds = sorted(set(map(self.pieces.kinds.__getitem__, rack)))
            if (
                self.commit_problem(going_out=len(rack) == 1) is None
                and len(rack) - 1 <= self._rack_max
            ):
                discards = self._discards
                if not play.discard_taken_allowed and turn.acquired == "last":
                    # §2.5: the taken piece stays, unless an identical copy can go.
                    taken = set(turn.must_use)
                    stuck = {
                        k
                        for k in {faces[p].kind for p in taken}
                        if all(p in taken for p in rack if faces[p].kind == k)
                    }
                    if stuck:
                        kinds = [k for k in kinds if k not in stuck]
                out.extend(map(discards.__getitem__, kinds))
                for ext in self._closing_hooks:
                    ext.closing_discards(cast("Game", self), seat, kinds, out)
            for ext in self._late_hooks:
                ext.actions_after_discards(cast("Game", self), seat, out)
        if turn.dirty:
            out.append(_RESET)
        return out

    def _table_actions(self, seat: int, rack: list[int], out: list[Action]) -> None:
        play = self.play
        size = len(rack)
        counts = counts_of(list(map(self.pieces.kinds.__getitem__, rack)))
        cached = self._melds_by_rack.get(counts)
        if cached is None:
            if len(self._melds_by_rack) > 20_000:
                self._melds_by_rack.clear()
            cached = _meld_actions(counts, self.rules, self.pieces.material, self._meld_parts)
            self._melds_by_rack[counts] = cached
        sizes, melds = cached
        # One piece must stay for the discard, unless going out without one is allowed
        # (then a meld of the whole rack must pass the turn's checks).
        keep = bisect_right(sizes, size - 1)
        out.extend(melds[:keep])
        if play.go_out_without_discard:
            out.extend(m for m in melds[keep : bisect_right(sizes, size)] if self.can(m))
        table = self.table
        if not table:
            return
        can_attach = self._may_lay_off(seat)
        minimum = 1 if play.go_out_without_discard else 2
        plays = [self._plays(formation) for formation in table]
        if size >= minimum and (can_attach or self.turn.pending_jokers):
            holds_joker = counts[JOKER_KIND] > 0
            attach_hooks = self._formation_attach_hooks
            own_only = play.joker_layoff_own_only
            found: list[Action] = []
            for formation_plays in plays:
                if can_attach:
                    found.extend([a for kind, a in formation_plays.attaches if counts[kind]])
                    if attach_hooks and formation_plays.extension_data:
                        for index, data in formation_plays.extension_data:
                            attach_hooks[index].formation_attaches(
                                cast("Game", self),
                                seat,
                                formation_plays.formation,
                                data,
                                counts,
                                found,
                            )
                if holds_joker and (formation_plays.formation.owner == seat or not own_only):
                    found.extend(formation_plays.joker_attaches)
            if size == 1:
                found = [a for a in found if self.can(a)]
            out.extend(found)
        if play.joker_exchange and (self.opened[seat] or not play.exchange_needs_opened_before):
            out.extend(
                a for a in self._exchanges(seat, counts, size, plays) if size > 1 or self.can(a)
            )
        for ext in self._table_action_hooks:
            ext.table_actions(cast("Game", self), seat, out)

    def _plays(self, formation: Formation) -> _FormationPlays:
        """What the seat to move may play on ``formation``, before looking at its rack
        (a formation is immutable: kept until the table's formation of its id changes)."""
        known = self._plays_by_formation.get(formation.id)
        if known is not None and known[0] is formation:
            return known[1]
        shared = self._shared_plays
        plays = shared.get(formation)
        if plays is None:
            if len(shared) > 10_000:
                shared.clear()
            plays = shared[formation] = self._formation_plays(formation)
        self._plays_by_formation[formation.id] = (formation, plays)
        return plays

    def _formation_plays(self, formation: Formation) -> _FormationPlays:
        kind_faces = self.kind_faces
        joker = kind_faces[JOKER_KIND]
        slots = _natural_slots(formation, self.rules)
        attaches = tuple((kind, _attach(kind_faces[kind], formation.id)) for kind in sorted(slots))
        joker_attaches = tuple(self._joker_attaches(formation, joker))
        run_exchanges: list[tuple[int, int, ExchangeJoker]] = []
        jokers = [i for i, k in enumerate(formation.kinds) if k == JOKER_KIND]
        missing: tuple[Face, ...] = ()
        all_exchange = None
        if formation.kind is MeldKind.RUN:
            for i in jokers:
                stands_for = formation.represented(self.pieces, i)
                assert stands_for is not None
                kind = stands_for.kind
                action = ExchangeJoker((stands_for,), formation.id)
                run_exchanges.append((formation.pieces[i], kind, action))
        elif jokers:
            material = self.pieces.material
            present = formation.natural_suits(self.pieces)
            missing = tuple(
                Face.of(material, s, formation.rank) for s in range(4) if s not in present
            )
            all_exchange = ExchangeJoker(missing, formation.id)
        return _FormationPlays(
            formation,
            slots,
            attaches,
            joker_attaches,
            tuple(run_exchanges),
            tuple(formation.pieces[i] for i in jokers),
            missing,
            tuple((f.kind, ExchangeJoker((f,), formation.id)) for f in missing),
            all_exchange,
            tuple(
                (index, data)
                for index, ext in enumerate(self._formation_attach_hooks)
                if (data := ext.formation_data(cast("Game", self), formation))
            ),
        )

    def joker_attaches(self, formation: Formation) -> tuple[Attach, ...]:
        """The lay-offs of a joker onto ``formation``, any formation (looked up where the
        table's formation of its id is this one)."""
        known = self._plays_by_formation.get(formation.id)
        if known is not None and known[0] is formation:
            return known[1].joker_attaches
        return tuple(self._joker_attaches(formation, self.kind_faces[JOKER_KIND]))

    def _joker_attaches(self, formation: Formation, joker: Face) -> Iterator[Attach]:
        material = self.pieces.material
        if formation.kind is MeldKind.SET:
            if self.attach_slot(formation, joker, None) is not None:
                yield Attach(joker, formation.id)
            return
        # The joker limits of attach_slot, checked once for both ends.
        rules = self.rules
        wild = 1 + formation.kinds.count(JOKER_KIND)
        if (rules.max_wild is not None and wild > rules.max_wild) or (
            rules.wild_le_natural and wild > len(formation.kinds) + 1 - wild
        ):
            return
        for declared in _run_ends(rules, material, formation)[1]:
            yield Attach(joker, formation.id, declared)

    def _exchanges(
        self,
        seat: int,
        counts: tuple[int, ...],
        size: int,
        table_plays: list[_FormationPlays],
    ) -> Iterator[Action]:
        locked = self.locked
        needs_all_suits = self.play.exchange_set_needs_all_suits
        for plays in table_plays:
            if not plays.jokers:
                continue
            if plays.formation.kind is MeldKind.RUN:
                for piece, kind, action in plays.run_exchanges:
                    if piece not in locked and counts[kind] and size >= 1:
                        yield action
                continue
            if needs_all_suits and (
                self.rules.set_max_size < SUIT_COUNT or any(p in locked for p in plays.jokers)
            ):
                continue
            if not needs_all_suits:
                yield from (a for kind, a in plays.one_exchanges if counts[kind])
                continue
            missing = plays.missing
            if len(missing) != len(plays.jokers) and self._exchange_one_for_one(seat):
                continue
            if (
                all(counts[f.kind] for f in missing)
                and size - len(missing) + len(plays.jokers) >= 1
            ):
                assert plays.all_exchange is not None  # a set holding a joker
                yield plays.all_exchange

    def rack_melds(self, seat: int) -> tuple[Meld, ...]:
        """Every meld ``seat``'s rack can lay, shortest first (a variant's own phases list
        them; a turn's melds are listed with what the table allows)."""
        counts = counts_of(list(map(self.pieces.kinds.__getitem__, self.racks[seat])))
        melds = self._melds_by_rack.get(counts)
        if melds is None:
            melds = self._melds_by_rack[counts] = _meld_actions(
                counts, self.rules, self.pieces.material, self._meld_parts
            )
        return melds[1]
