"""Piece notation and physical piece sets (RULES §0.1 cards, §0.2 tiles, §9.1 the 106 tiles)."""

from __future__ import annotations

import pickle

import pytest

from rummykit.model.pieces import (
    CARD_RANKS,
    CARD_SUITS,
    JOKER_KIND,
    RANKS_PER_SUIT,
    SUIT_COUNT,
    TILE_COLOURS,
    Face,
    Material,
    NotationError,
    PieceSet,
    kind_of,
    parse_faces,
    rank_of_kind,
    suit_kinds,
    suit_of_kind,
)

TILES = Material.TILES
CARDS = Material.CARDS

ALL_TILE_TOKENS = [f"{c}{n}" for c in TILE_COLOURS for n in range(1, 14)] + ["J"]
ALL_CARD_TOKENS = [f"{r}{s}" for s in CARD_SUITS for r in CARD_RANKS] + ["JK"]


# --------------------------------------------------------------- §0.2 tiles / §0.1 cards


def test_there_are_53_tile_faces_and_53_card_faces() -> None:
    """§0.2: 4 colours × 1..13 plus the joker; §0.1: 4 suits × A..K plus the joker."""
    assert len(set(ALL_TILE_TOKENS)) == 53
    assert len(set(ALL_CARD_TOKENS)) == 53
    assert len({Face.parse(t) for t in ALL_TILE_TOKENS}) == 53
    assert len({Face.parse(t) for t in ALL_CARD_TOKENS}) == 53


@pytest.mark.parametrize("token", ALL_TILE_TOKENS)
def test_rule_0_2_every_tile_face_round_trips(token: str) -> None:
    """§0.2: `<colour><number>` and `J` parse to a tile face that prints back the same."""
    face = Face.parse(token)
    assert face.material is TILES
    assert str(face) == token
    assert Face.parse(str(face), TILES) == face
    if token == "J":
        assert face.is_joker and face.kind == JOKER_KIND and face.rank == 0 and face.suit == ""
    else:
        assert not face.is_joker
        assert face.suit == token[0]
        assert face.rank == int(token[1:])
        assert face == Face.of(TILES, TILE_COLOURS.index(token[0]), int(token[1:]))


@pytest.mark.parametrize("token", ALL_CARD_TOKENS)
def test_rule_0_1_every_card_face_round_trips(token: str) -> None:
    """§0.1: `<rank><suit>` and `JK` parse to a card face that prints back the same."""
    face = Face.parse(token)
    assert face.material is CARDS
    assert str(face) == token
    assert Face.parse(str(face), CARDS) == face
    if token == "JK":
        assert face.is_joker and face.rank == 0
    else:
        assert face.suit == token[-1]
        assert face.rank == CARD_RANKS.index(token[:-1]) + 1


@pytest.mark.parametrize(
    ("token", "material", "suit", "rank"),
    [
        ("R1", TILES, "R", 1),
        ("K13", TILES, "K", 13),
        ("AS", CARDS, "S", 1),
        ("10H", CARDS, "H", 10),
        ("QC", CARDS, "C", 12),
    ],
)
def test_rule_0_examples_from_the_notation_section(
    token: str, material: Material, suit: str, rank: int
) -> None:
    """§0.1/§0.2 examples read as the section says (K = black tile, 10H = ten of hearts)."""
    face = Face.parse(token)
    assert (face.material, face.suit, face.rank) == (material, suit, rank)


def test_a_face_is_found_by_its_kind_and_a_kind_out_of_range_is_refused() -> None:
    for material in Material:
        for kind in range(JOKER_KIND + 1):
            assert Face.from_kind(material, kind).kind == kind
        assert Face.from_kind(material, 0) == Face.of(material, 0, 1)
        assert Face.from_kind(material, 51) == Face.of(material, 3, 13)
        assert Face.from_kind(material, JOKER_KIND) == Face.joker(material)
        for bad in (-1, JOKER_KIND + 1):
            with pytest.raises(NotationError):
                Face.from_kind(material, bad)


def test_tile_joker_j_and_card_joker_jk_are_different_faces() -> None:
    """§0.2 `J` is the tile joker; §0.1 `JK` the card joker; `JH` is the jack of hearts."""
    tile_joker, card_joker = Face.parse("J"), Face.parse("JK")
    assert tile_joker.is_joker and tile_joker.material is TILES
    assert card_joker.is_joker and card_joker.material is CARDS
    assert tile_joker != card_joker
    jack = Face.parse("JH")
    assert not jack.is_joker and jack.rank == 11 and jack.suit == "H"


def test_parse_ignores_case_and_surrounding_spaces() -> None:
    assert Face.parse(" r5 ") == Face.parse("R5")
    assert Face.parse("qh") == Face.parse("QH")


@pytest.mark.parametrize("token", ["X5", "R14", "R0", "1S", "", "R", "11S", "J5", "KK", "R5#1"])
def test_bad_tokens_raise_notation_error_naming_the_token(token: str) -> None:
    """§0: only `R1`…`K13`, `J`, `AS`…`KC`, `10H`… and `JK` are pieces."""
    with pytest.raises(NotationError) as info:
        Face.parse(token)
    assert repr(token) in str(info.value)


def test_material_mismatch_is_an_error_naming_the_token() -> None:
    """A tile game (§0.2) rejects card notation and a card game (§0.1) rejects tiles."""
    with pytest.raises(NotationError, match=r"'QH'.*card.*tiles"):
        Face.parse("QH", TILES)
    with pytest.raises(NotationError, match=r"'R5'.*tile.*cards"):
        Face.parse("R5", CARDS)
    with pytest.raises(NotationError, match="'JK'"):
        Face.parse("JK", TILES)
    with pytest.raises(NotationError, match="'J'"):
        Face.parse("J", CARDS)


def test_parse_faces_reads_a_rack() -> None:
    """§0.2: a rack is a space-separated list, e.g. `R1 B13 Y7 K5 J`."""
    rack = parse_faces("R1 B13 Y7 K5 J", TILES)
    assert [str(f) for f in rack] == ["R1", "B13", "Y7", "K5", "J"]
    assert parse_faces("", TILES) == ()
    with pytest.raises(NotationError, match="'X9'"):
        parse_faces("R1 X9 J", TILES)
    with pytest.raises(NotationError, match="'QH'"):
        parse_faces("R1 QH", TILES)


def test_face_of_builds_naturals_and_rejects_out_of_range() -> None:
    assert str(Face.of(TILES, 3, 13)) == "K13"
    assert str(Face.of(CARDS, 1, 10)) == "10H"
    for suit, rank in [(4, 1), (-1, 1), (0, 0), (0, 14)]:
        with pytest.raises(NotationError):
            Face.of(TILES, suit, rank)


def test_the_kind_helpers_agree_with_faces_for_every_natural() -> None:
    """§0.1/§0.2: 4 suits or colours of ranks 1..13; a kind is its suit's block of 13
    plus the rank, and the helpers read it back as Face does."""
    assert (SUIT_COUNT, RANKS_PER_SUIT, JOKER_KIND) == (4, 13, 52)
    for material in Material:
        for suit in range(SUIT_COUNT):
            for rank in range(1, RANKS_PER_SUIT + 1):
                kind = kind_of(suit, rank)
                face = Face.from_kind(material, kind)
                assert face == Face.of(material, suit, rank)
                assert (suit_of_kind(kind), rank_of_kind(kind)) == (face.suit_index, face.rank)


def test_suit_kinds_slices_one_suit_of_a_count_vector() -> None:
    counts = list(range(JOKER_KIND + 1))
    assert counts[suit_kinds(0)] == list(range(13))
    assert counts[suit_kinds(3)] == list(range(39, 52))
    # K13 (black 13) is the last kind of colour 3, R1 the first of colour 0.
    assert Face.parse("K13").kind == counts[suit_kinds(3)][-1]
    assert Face.parse("R1").kind == counts[suit_kinds(0)][0]


@pytest.mark.parametrize("token", ALL_TILE_TOKENS + ALL_CARD_TOKENS)
def test_repr_evaluates_back_to_the_same_face(token: str) -> None:
    face = Face.parse(token)
    assert eval(repr(face), {"Face": Face}) == face  # repr is notation that evaluates back


def test_faces_order_by_suit_then_rank_with_joker_last() -> None:
    """Sort order: colours R Y B K (§0.2 listing order used by the engine), ranks ascending."""
    faces = sorted(parse_faces("J K1 B2 Y13 R12 R1", TILES))
    assert [str(f) for f in faces] == ["R1", "R12", "Y13", "B2", "K1", "J"]


# --------------------------------------------------------------- §9.1 the 106 tiles


@pytest.fixture(scope="module")
def tiles106() -> PieceSet:
    return PieceSet.build(TILES, copies=2, jokers=2)


def test_rule_9_1_the_tile_set_has_106_pieces(tiles106: PieceSet) -> None:
    """§9.1: four colours × numbers 1–13 × two copies = 104, plus 2 jokers."""
    assert len(tiles106) == 106
    assert len(tiles106.faces) == 106
    joker = Face.joker(TILES)
    assert tiles106.faces.count(joker) == 2
    for token in ALL_TILE_TOKENS[:-1]:
        assert tiles106.faces.count(Face.parse(token)) == 2


def test_card_decks_build_too() -> None:
    """§1: e.g. Double Rummy uses 104 + 2 jokers; Basic Rummy 52 without jokers."""
    assert len(PieceSet.build(CARDS, copies=2, jokers=2)) == 106
    basic = PieceSet.build(CARDS, copies=1, jokers=0)
    assert len(basic) == 52
    assert basic.name(0) == "AS#1"
    with pytest.raises(ValueError):
        PieceSet.build(CARDS, copies=0, jokers=0)
    with pytest.raises(ValueError):
        PieceSet.build(CARDS, copies=1, jokers=-1)


def test_a_piece_sets_kinds_are_its_faces_kinds(tiles106: PieceSet) -> None:
    """``kinds[piece]`` is the piece's face kind; it takes no part in equality or pickling."""
    assert tiles106.kinds == tuple(f.kind for f in tiles106.faces)
    assert tiles106.kinds[:3] == (0, 0, 1) and tiles106.kinds[-2:] == (JOKER_KIND, JOKER_KIND)
    cards = PieceSet.build(CARDS, copies=1, jokers=1)
    assert cards.kinds == (*range(52), JOKER_KIND)
    assert pickle.loads(pickle.dumps(cards)).kinds == cards.kinds
    assert cards == PieceSet(CARDS, 1, 1, cards.faces)


def test_every_piece_name_round_trips_through_parse_piece(tiles106: PieceSet) -> None:
    """§0.1: identical copies are told apart by `#1`/`#2`; name() and parse_piece() invert."""
    names = [tiles106.name(p) for p in range(len(tiles106))]
    assert len(set(names)) == 106
    for piece, name in enumerate(names):
        assert tiles106.parse_piece(name) == piece
        face_text, copy = name.split("#")
        assert Face.parse(face_text) == tiles106.faces[piece]
        assert int(copy) == tiles106.copy_number(piece)


@pytest.mark.parametrize("name", ["R5#1", "R5#2", "J#1", "J#2", "K13#2", "R1#1"])
def test_named_pieces_round_trip(tiles106: PieceSet, name: str) -> None:
    piece = tiles106.parse_piece(name)
    assert tiles106.name(piece) == name
    assert str(tiles106.faces[piece]) == name.split("#")[0]


def test_two_r5_tiles_are_different_pieces_with_the_same_face(tiles106: PieceSet) -> None:
    """§9.1 two copies: `R5#1` and `R5#2` are distinct pieces showing the same face `R5`."""
    first, second = tiles106.parse_piece("R5#1"), tiles106.parse_piece("R5#2")
    assert first != second
    assert tiles106.faces[first] == tiles106.faces[second] == Face.parse("R5")
    assert list(tiles106.pieces_of(Face.parse("R5"))) == sorted([first, second])
    jokers = list(tiles106.pieces_of(Face.joker(TILES)))
    assert [tiles106.name(p) for p in jokers] == ["J#1", "J#2"]


def test_a_face_without_copy_number_means_copy_one(tiles106: PieceSet) -> None:
    assert tiles106.parse_piece("R5") == tiles106.parse_piece("R5#1")
    assert tiles106.parse_piece("J") == tiles106.parse_piece("J#1")


@pytest.mark.parametrize("name", ["R5#3", "J#3", "R5#0", "QH#1", "X5#1"])
def test_parse_piece_rejects_missing_copies_and_bad_faces(tiles106: PieceSet, name: str) -> None:
    with pytest.raises(NotationError):
        tiles106.parse_piece(name)
