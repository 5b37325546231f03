"""Board-play contracts from a rack (RULES §9.13): 14 pieces, or the best closing discard of 15."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ilp_support import ilp_contract_value, ilp_cover_with_run_and_set
from rummykit.model.candidates import counts_of
from rummykit.model.pieces import JOKER_KIND, RANKS_PER_SUIT, Face, Material, kind_of, parse_faces
from rummykit.rules import find_variant
from rummykit.rules.remi_ro import MELD_RULES, REMI_RO
from rummykit.solver import ContractAnswer, best_contract

TILES = Material.TILES
BOARD = REMI_RO.resolve(4, {"board_play_enabled": True})


def tiles(text: str) -> tuple[Face, ...]:
    return parse_faces(text, Material.TILES)


def test_fourteen_tiles_name_their_contract() -> None:
    answer = best_contract(tiles("R5 B5 Y5 K5 R9 B9 Y9 K9 R12 B12 Y12 B2 Y2 K2"), REMI_RO, BOARD)
    assert isinstance(answer, ContractAnswer)
    assert (answer.contract.name, answer.contract.value, answer.discard) == ("bete", 700, None)
    assert (
        best_contract(tiles("R1 R5 B9 K2 Y7 Y12 K11 B3 R8 B13 Y4 K6 R10 B6"), REMI_RO, BOARD)
        is None
    )


def test_fifteen_tiles_pick_the_most_valuable_close() -> None:
    # Discarding B1 leaves the red 1..1 (monocolour 1500); other discards leave less.
    full_red = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
    answer = best_contract(tiles(full_red + " B1"), REMI_RO, BOARD)
    assert answer is not None
    assert (answer.contract.name, answer.discard) == ("monocolour", Face.parse("B1"))


def test_sizes_and_variants_are_checked() -> None:
    with pytest.raises(ValueError, match="14 or 15"):
        best_contract(tiles("R1 R2 R3"), REMI_RO, BOARD)
    basic = find_variant("basic")
    no_board = REMI_RO.resolve(4, {"board_play_enabled": False})
    with pytest.raises(ValueError, match="no board-play"):
        best_contract(tiles("R1 R2 R3"), REMI_RO, no_board)
    with pytest.raises(ValueError, match="no board-play"):
        best_contract(tiles("R1 R2 R3"), basic, basic.resolve(basic.default_players))


# ------------------------------------------- exactness against an integer program (HiGHS)


def _near_contract(rng: random.Random) -> list[int] | None:
    """14 face kinds built as one contract family, then sometimes spoiled or given jokers."""
    shape = rng.randrange(6)
    kinds: list[int] = []
    if shape == 0:  # monocolour, or a mosaic-like mix of colours
        colours = [rng.randrange(4)] * 14 if rng.random() < 0.5 else _alternating(rng)
        kinds = [kind_of(c, p % RANKS_PER_SUIT + 1) for p, c in enumerate(colours)]
    elif shape == 1:  # doubles
        kinds = [k for k in rng.sample(range(52), 7) for _ in range(2)]
    elif shape == 2:  # bicolour: two runs of two colours
        first = rng.randint(3, 11)
        c1, c2 = rng.sample(range(4), 2)
        kinds = _run(c1, rng.randint(1, 15 - first), first) + _run(
            c2, rng.randint(1, 15 - (14 - first)), 14 - first
        )
    elif shape == 3:  # bete: sets of 4, 4, 3, 3
        for size in (4, 4, 3, 3):
            rank = rng.randrange(13)
            kinds += [kind_of(s, rank + 1) for s in rng.sample(range(4), size)]
    else:  # a simple cover by runs and sets
        while len(kinds) < 14:
            size = min(rng.randint(3, 5), 14 - len(kinds))
            if size < 3:
                return None
            if rng.random() < 0.5:
                kinds += _run(rng.randrange(4), rng.randint(1, 15 - size), size)
            else:
                rank = rng.randrange(13)
                kinds += [kind_of(s, rank + 1) for s in rng.sample(range(4), min(size, 4))]
        kinds = kinds[:14]
    for _ in range(rng.choice((0, 0, 1, 2))):
        kinds[rng.randrange(14)] = JOKER_KIND
    if rng.random() < 0.3:
        kinds[rng.randrange(14)] = rng.randrange(52)
    counts = counts_of(kinds)
    if max(counts[:52]) > 2 or counts[JOKER_KIND] > 2 or len(kinds) != 14:
        return None
    return kinds


def _run(colour: int, start: int, size: int) -> list[int]:
    return [kind_of(colour, (p - 1) % RANKS_PER_SUIT + 1) for p in range(start, start + size)]


def _alternating(rng: random.Random) -> list[int]:
    colours = rng.sample(range(4), 4)
    while len(colours) < 14:
        colours.append(rng.choice([c for c in range(4) if c != colours[-1]]))
    return colours


def _racks(count: int, seed: int) -> list[tuple[Face, ...]]:
    rng = random.Random(seed)
    out: list[tuple[Face, ...]] = []
    while len(out) < count:
        kinds = _near_contract(rng)
        if kinds is not None:
            out.append(tuple(face_of(k) for k in kinds))
    return out


def face_of(kind: int) -> Face:
    return Face.from_kind(TILES, kind)


@pytest.mark.heavy
@pytest.mark.parametrize("strict", [True, False])
def test_contracts_match_integer_program(strict: bool) -> None:
    """1,000 racks near every contract family (RULES §9.13), jokers included (A-61)."""
    options = REMI_RO.resolve(4, {"board_play_enabled": True, "mosaic_strict": strict})
    mismatches = []
    values: Counter[int] = Counter()
    for rack in _racks(1000 if strict else 300, seed=31 + strict):
        answer = best_contract(rack, REMI_RO, options)
        got = 0 if answer is None else answer.contract.value
        want = ilp_contract_value(
            counts_of([f.kind for f in rack]), MELD_RULES, strict_mosaic=strict
        )
        values[want] += 1
        if got != want:
            mismatches.append((" ".join(map(str, rack)), got, want))
    assert mismatches == []
    # The racks reach every contract value, and racks with none.
    assert set(values) == {0, 500, 700, 1000, 1200, 1300, 1500}


@pytest.mark.heavy
def test_closing_discard_matches_integer_program() -> None:
    """15 tiles: the best contract over every discard, on 40 racks."""
    rng = random.Random(41)
    mismatches = []
    for rack in _racks(40, seed=42):
        extra = face_of(rng.randrange(52))
        faces = (*rack, extra)
        if counts_of([f.kind for f in faces])[extra.kind] > 2:
            continue
        answer = best_contract(faces, REMI_RO, BOARD)
        got = 0 if answer is None else answer.contract.value
        want = 0
        for i in range(15):
            rest = faces[:i] + faces[i + 1 :]
            value = ilp_contract_value(
                counts_of([f.kind for f in rest]), MELD_RULES, strict_mosaic=True
            )
            want = max(want, value)
        if got != want:
            mismatches.append((" ".join(map(str, faces)), got, want))
    assert mismatches == []


@pytest.mark.heavy
def test_remmi_board_game_matches_integer_program() -> None:
    """RULES §10.10 (8B): 14 tiles in formations with a Kunst and a Laufend; 1,000 racks."""
    remmi = find_variant("remmi_de")
    options = remmi.resolve(remmi.default_players, {"board_variant": True})
    rules = remmi.rules_for(options)
    mismatches = []
    found = 0
    for rack in _racks(1000, seed=51):
        answer = best_contract(rack, remmi, options)
        want = ilp_cover_with_run_and_set(counts_of([f.kind for f in rack]), rules)
        found += want
        if (answer is not None) != want:
            mismatches.append(" ".join(map(str, rack)))
    assert mismatches == []
    assert 100 < found < 900  # both outcomes are well represented


def test_remmi_board_game_two_jokers_bridge_a_gap_of_three() -> None:
    # R7 R8 J J R11 is a Laufend (two naturals, two jokers: A-66 style limits hold), so
    # R11 is not an isolated tile; found by the integer-program comparison above.
    remmi = find_variant("remmi_de")
    options = remmi.resolve(remmi.default_players, {"board_variant": True})
    rack = tiles("R6 R7 R8 J J R11 Y6 K3 K4 K5 K6 K7 K8 K9")
    answer = best_contract(rack, remmi, options)
    assert answer is not None and answer.contract.name == "kunst_und_laufend"
