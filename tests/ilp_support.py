"""An independent integer-programming formulation of the hand objectives (HiGHS via highspy).

Melds are enumerated here from scratch, as templates (a run window with a set of
joker positions, or a rank with a multiset of suits and a joker count) and kept
only when :func:`rummykit.model.melds.read_meld` accepts them with their jokers
declared, so neither :mod:`rummykit.model.candidates` nor the solver's search is
involved.  The program: an integer count ``y_m`` per template, at most the rack's
count of each face kind used, and a linear objective; structure rules of the
opening are linear constraints on binary indicators.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

import highspy
import numpy as np

from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules, read_meld
from rummykit.model.pieces import JOKER_KIND, Face, Material, kind_of, suit_of_kind
from rummykit.rules.options import VariantOptions

__all__ = ["Template", "ilp_best", "templates"]


@dataclass(frozen=True)
class Template:
    """One fully declared formation: its kind, positions and the face kinds it uses."""

    kind: MeldKind
    positions: tuple[int, ...]
    kinds: tuple[int, ...]
    """Per piece, the face kind (``JOKER_KIND`` for a wild piece)."""
    need: tuple[tuple[int, int], ...]
    """(kind, count) pairs it takes from a rack."""
    mask: int
    """Bit k set for each face kind it uses."""

    @property
    def is_ones_set(self) -> bool:
        return self.kind is MeldKind.SET and self.positions[0] == 1


def _template(kind: MeldKind, positions: tuple[int, ...], kinds: tuple[int, ...]) -> Template:
    need = tuple((k, kinds.count(k)) for k in sorted(set(kinds)))
    mask = 0
    for k in kinds:
        mask |= 1 << k
    return Template(kind, positions, kinds, need, mask)


def _face(kind: int, material: Material) -> Face:
    return Face.from_kind(material, kind)


def _legal(template: Template, rules: MeldRules, material: Material, suit: int) -> bool:
    faces = [_face(k, material) for k in template.kinds]
    declared: list[Face | None] = []
    for k, p in zip(template.kinds, template.positions, strict=True):
        if k != JOKER_KIND or template.kind is MeldKind.SET:
            declared.append(None)
        else:
            declared.append(Face.of(material, suit, 1 if p == HIGH_ACE else p))
    readings = read_meld(faces, rules, declared)
    return any(
        r.kind is template.kind and sorted(r.positions) == sorted(template.positions)
        for r in readings
    )


@lru_cache(maxsize=64)
def templates(rules: MeldRules, jokers: int, material: Material) -> tuple[Template, ...]:
    """Every formation the rules allow with at most ``jokers`` wild pieces."""
    out: list[Template] = []
    for suit in range(4):
        for start in range(1, HIGH_ACE + 1):
            for end in range(start + rules.min_size - 1, HIGH_ACE + 1):
                span = list(range(start, end + 1))
                for wild in range(min(jokers, len(span)) + 1):
                    for chosen in combinations(span, wild):
                        kinds = tuple(
                            JOKER_KIND if p in chosen else kind_of(suit, 1 if p == HIGH_ACE else p)
                            for p in span
                        )
                        t = _template(MeldKind.RUN, tuple(span), kinds)
                        if _legal(t, rules, material, suit):
                            out.append(t)
    for rank in range(1, 14):
        for size in range(rules.min_size, rules.set_max_size + 1):
            for wild in range(min(jokers, size) + 1):
                for suits in combinations_with_replacement(range(4), size - wild):
                    kinds = tuple(kind_of(s, rank) for s in suits) + (JOKER_KIND,) * wild
                    t = _template(MeldKind.SET, (rank,) * size, kinds)
                    if _legal(t, rules, material, -1):
                        out.append(t)
    return tuple(out)


@lru_cache(maxsize=64)
def _indexed(
    rules: MeldRules, jokers: int, material: Material
) -> tuple[tuple[Template, ...], np.ndarray]:
    every = templates(rules, jokers, material)
    return every, np.array([t.mask for t in every], dtype=np.int64)


def ilp_best(
    counts: Sequence[int],
    rules: MeldRules,
    material: Material,
    value: Callable[[Template], int],
    *,
    structure: str = "none",
    max_pieces: int | None = None,
) -> int:
    """The most total ``value`` of disjoint formations from ``counts`` (0: lay nothing).

    ``structure``: ``none``; ``run`` (at least one run); ``run_and_set``;
    ``run_or_ones_set`` (a run, or exactly one set of 1s alone).  ``max_pieces``
    bounds the pieces laid.
    """
    held = 0
    for k, c in enumerate(counts):
        if c:
            held |= 1 << k
    every, masks = _indexed(rules, counts[JOKER_KIND], material)
    usable = [
        t
        for t in (every[i] for i in np.flatnonzero((masks & ~np.int64(held)) == 0))
        if all(counts[k] >= c for k, c in t.need)
    ]
    if structure == "run_or_ones_set":
        with_run = _solve(counts, usable, value, "run", max_pieces)
        lone = [value(t) for t in usable if t.is_ones_set and _fits(t, max_pieces)]
        return max([with_run, *lone])
    return _solve(counts, usable, value, structure, max_pieces)


def _fits(t: Template, max_pieces: int | None) -> bool:
    return max_pieces is None or len(t.kinds) <= max_pieces


def _solve(
    counts: Sequence[int],
    usable: list[Template],
    value: Callable[[Template], int],
    structure: str,
    max_pieces: int | None,
) -> int:
    if not usable:
        return 0
    n = len(usable)
    kinds = sorted({k for t in usable for k in t.kinds})
    row_of = {k: i for i, k in enumerate(kinds)}
    rows_lower = [-highspy.kHighsInf] * len(kinds)
    rows_upper = [float(counts[k]) for k in kinds]
    columns: list[list[tuple[int, float]]] = []
    for t in usable:
        col = [(row_of[k], float(c)) for k, c in t.need]
        columns.append(col)
    extra_rows: list[list[tuple[int, float]]] = []
    if max_pieces is not None:
        extra_rows.append([(j, float(len(t.kinds))) for j, t in enumerate(usable)])
        rows_lower.append(-highspy.kHighsInf)
        rows_upper.append(float(max_pieces))
    needs = []
    if structure in ("run", "run_and_set"):
        needs.append(MeldKind.RUN)
    if structure == "run_and_set":
        needs.append(MeldKind.SET)
    for kind in needs:
        members = [j for j, t in enumerate(usable) if t.kind is kind]
        if not members:
            return 0
        extra_rows.append([(j, 1.0) for j in members])
        rows_lower.append(1.0)
        rows_upper.append(highspy.kHighsInf)
    base = len(kinds)
    for r, row in enumerate(extra_rows):
        for j, a in row:
            columns[j].append((base + r, a))
    start = [0]
    index: list[int] = []
    coeff: list[float] = []
    for col in columns:
        for i, a in col:
            index.append(i)
            coeff.append(a)
        start.append(len(index))
    lp = highspy.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = len(rows_lower)
    lp.col_cost_ = np.array([-float(value(t)) for t in usable])
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.array([float(max(counts) + 1)] * n)
    lp.row_lower_ = np.array(rows_lower)
    lp.row_upper_ = np.array(rows_upper)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.array(start, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(coeff)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * n
    h = highspy.Highs()  # type: ignore[no-untyped-call]
    h.silent()
    h.setOptionValue("threads", 1)
    # These programs are tiny: presolve costs more than it saves.
    h.setOptionValue("presolve", "off")
    h.passModel(lp)
    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return 0
    assert status == highspy.HighsModelStatus.kOptimal, status
    best = -h.getInfo().objective_function_value
    return max(0, round(best))


# ------------------------------------------------------------------ rack sampling


@dataclass(frozen=True)
class Family:
    """One registered variant's rules as the exactness tests use them."""

    name: str
    rules: MeldRules
    material: Material
    faces: tuple[Face, ...]
    """Every physical piece of a default game."""
    opening_value: Callable[[MeldKind, int], int]
    score_value: Callable[[Face], int]
    structure: str
    options: VariantOptions


def families() -> list[Family]:
    """One family per distinct rule-set among the registered variants (default options)."""
    from rummykit.rules import all_variants

    out: list[Family] = []
    seen: set[tuple[object, ...]] = set()
    for variant in all_variants():
        options = variant.resolve(variant.default_players)
        rules = variant.rules_for(options)
        play = variant.play_rules(options)
        key = (rules, variant.opening_value, variant.score_value, str(play.opening_structure))
        if key in seen or getattr(rules, "wild_ranks", None):
            # Wild ranks (Continental's deuces, §7.4) need wild naturals in the
            # templates; those variants are checked through their own layout goal.
            continue
        seen.add(key)
        out.append(
            Family(
                variant.name,
                rules,
                variant.material,
                variant.pieces(options).faces,
                variant.opening_value,
                variant.score_value,
                str(play.opening_structure),
                options,
            )
        )
    return out


def sample_racks(
    family: Family, count: int, seed: int, sizes: range = range(6, 15)
) -> list[tuple[Face, ...]]:
    """``count`` seeded racks; half drawn near one rank window so melds and choices abound.

    Most racks hold two jokers when the pack has them (the hard case).
    """
    import random

    rng = random.Random(seed)
    naturals = [f for f in family.faces if not f.is_joker]
    jokers = [f for f in family.faces if f.is_joker]
    out: list[tuple[Face, ...]] = []
    for _ in range(count):
        size = rng.choice(sizes)
        wild = min(len(jokers), rng.choice((0, 1, 2, 2, 2)))
        pool = naturals
        if rng.random() < 0.5:
            low = rng.randint(1, 9)
            pool = [f for f in naturals if low <= f.rank <= low + 5 or f.rank == 1]
        out.append(tuple(rng.sample(pool, size - wild)) + tuple(jokers[:wild]))
    return out


# ------------------------------------------------------------- board contracts (§9.13)


def _feasible(
    n: int,
    rows: list[tuple[list[tuple[int, float]], float, float]],
    upper: Sequence[float] | None = None,
) -> bool:
    """Whether integer x >= 0 (x_i <= upper_i) meets lower <= row . x <= upper for every row."""
    if n == 0:
        return all(lo <= 0 <= hi for _, lo, hi in rows)
    columns: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for r, (row, _, _) in enumerate(rows):
        for j, a in row:
            columns[j].append((r, a))
    start = [0]
    index: list[int] = []
    coeff: list[float] = []
    for col in columns:
        for i, a in col:
            index.append(i)
            coeff.append(a)
        start.append(len(index))
    lp = highspy.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = len(rows)
    lp.col_cost_ = np.zeros(n)
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.array(list(upper) if upper is not None else [14.0] * n)
    lp.row_lower_ = np.array([lo for _, lo, _ in rows])
    lp.row_upper_ = np.array([hi for _, _, hi in rows])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.array(start, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(coeff)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * n
    h = highspy.Highs()  # type: ignore[no-untyped-call]
    h.silent()
    h.setOptionValue("threads", 1)
    h.setOptionValue("presolve", "off")
    h.passModel(lp)
    h.run()
    status = h.getModelStatus()
    assert status in (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kInfeasible)
    return status == highspy.HighsModelStatus.kOptimal


def _cover(
    counts: Sequence[int], usable: list[Template], extra: Sequence[tuple[list[int], float, float]]
) -> bool:
    """Exact cover of every piece by ``usable`` formations, with extra count rows."""
    rows: list[tuple[list[tuple[int, float]], float, float]] = []
    for k in range(JOKER_KIND + 1):
        row = [(j, float(c)) for j, t in enumerate(usable) for kk, c in t.need if kk == k]
        if not row and counts[k]:
            return False
        if row:
            rows.append((row, float(counts[k]), float(counts[k])))
    for members, lo, hi in extra:
        rows.append(([(j, 1.0) for j in members], lo, hi))
    return _feasible(len(usable), rows)


def ilp_contract_value(counts: Sequence[int], rules: MeldRules, *, strict_mosaic: bool) -> int:
    """The value of the best §9.13 contract 14 tiles form (0: none), one program per contract.

    Bicolour is read as two single-colour runs of two colours (the default option).
    """
    if sum(counts) != 14:
        return 0
    usable = [
        t
        for t in templates(rules, counts[JOKER_KIND], Material.TILES)
        if all(counts[k] >= c for k, c in t.need)
    ]
    runs = [j for j, t in enumerate(usable) if t.kind is MeldKind.RUN]
    sets = [j for j, t in enumerate(usable) if t.kind is MeldKind.SET]
    full = [j for j in runs if len(usable[j].kinds) == 14]
    checks: list[tuple[int, Callable[[], bool]]] = [
        (1500, lambda: _cover(counts, usable, [(full, 1, 1)])),
        (1300, lambda: _pairs(counts)),
        (
            1200,
            lambda: _cover(
                counts,
                usable,
                [(runs, 2, 2), (sets, 0, 0)]
                + [([j for j in runs if _suit(usable[j]) == s], 0, 1) for s in range(4)],
            ),
        ),
        (1000, lambda: _mosaic(counts, strict_mosaic)),
        (
            700,
            lambda: _cover(
                counts,
                usable,
                [
                    (runs, 0, 0),
                    ([j for j in sets if len(usable[j].kinds) == 4], 2, 2),
                    ([j for j in sets if len(usable[j].kinds) == 3], 2, 2),
                ],
            ),
        ),
        (500, lambda: _cover(counts, usable, [])),
    ]
    for value, check in checks:
        if check():
            return value
    return 0


def _suit(t: Template) -> int:
    return next(suit_of_kind(k) for k in t.kinds if k != JOKER_KIND)


def _pairs(counts: Sequence[int]) -> bool:
    """Seven pairs: identical naturals, a natural with a joker, or two jokers (A-61)."""
    kinds = [k for k in range(52) if counts[k]]
    # Columns: pairs p_k, natural+joker q_k, then joker pairs r.
    n = 2 * len(kinds) + 1
    rows: list[tuple[list[tuple[int, float]], float, float]] = []
    for i, k in enumerate(kinds):
        rows.append(([(2 * i, 2.0), (2 * i + 1, 1.0)], float(counts[k]), float(counts[k])))
    jokers = float(counts[JOKER_KIND])
    rows.append(([(2 * i + 1, 1.0) for i in range(len(kinds))] + [(n - 1, 2.0)], jokers, jokers))
    return _feasible(n, rows)


def _mosaic(counts: Sequence[int], strict: bool) -> bool:
    """1-2-…-13-1 with no two neighbours of one colour; strict adds the RO conditions."""

    # x[p][s] (natural of colour s at position p) and j[p][s] (joker read as colour s).
    def x(p: int, s: int) -> int:
        return 8 * (p - 1) + s

    def j(p: int, s: int) -> int:
        return 8 * (p - 1) + 4 + s

    n = 8 * 14
    upper = [0.0] * n
    for p in range(1, 15):
        rank = 1 if p == 14 else p
        for s in range(4):
            upper[x(p, s)] = 1.0 if counts[kind_of(s, rank)] else 0.0
            upper[j(p, s)] = 1.0 if counts[JOKER_KIND] else 0.0
    rows: list[tuple[list[tuple[int, float]], float, float]] = []
    for p in range(1, 15):
        rows.append(([(x(p, s), 1.0) for s in range(4)] + [(j(p, s), 1.0) for s in range(4)], 1, 1))
    for s in range(4):
        for rank in range(1, 14):
            spots = [1, 14] if rank == 1 else [rank]
            c = float(counts[kind_of(s, rank)])
            rows.append(([(x(p, s), 1.0) for p in spots], c, c))
    jokers = float(counts[JOKER_KIND])
    rows.append(([(j(p, s), 1.0) for p in range(1, 15) for s in range(4)], jokers, jokers))
    for s in range(4):
        for p in range(1, 14):
            pair = [(x(p, s), 1.0), (j(p, s), 1.0), (x(p + 1, s), 1.0), (j(p + 1, s), 1.0)]
            rows.append((pair, 0, 1))
        if strict:
            first = [(v(p, s), 1.0) for p in range(1, 5) for v in (x, j)]
            rows.append((first, 0, 1))
            ends = [(v(p, s), 1.0) for p in (1, 14) for v in (x, j)]
            rows.append((ends, 0, 1))
    return _feasible(n, rows, upper)


def ilp_cover_with_run_and_set(counts: Sequence[int], rules: MeldRules) -> bool:
    """Whether every tile lies in formations including a run and a set (RULES §10.10)."""
    usable = [
        t
        for t in templates(rules, counts[JOKER_KIND], Material.TILES)
        if all(counts[k] >= c for k, c in t.need)
    ]
    runs = [j for j, t in enumerate(usable) if t.kind is MeldKind.RUN]
    sets = [j for j, t in enumerate(usable) if t.kind is MeldKind.SET]
    return _cover(counts, usable, [(runs, 1, 14), (sets, 1, 14)])
