"""Gin Rummy (docs/rules/gin.md, §G.1-§G.9): stacked deals played through the engine.

Seat 0 (``P1``) is the non-dealer in every deal here: it is offered the up-card first.
"""

from __future__ import annotations

from typing import Any

import pytest

from gin_support import DEFENDER, JUNK, JUNK2, KNOCKER, deal, face, kinds
from kit import play, rack, table
from rummykit.engine.game import Phase
from rummykit.rules.gin import (
    GIN,
    deadwood,
    knock_deadwood,
    knock_discards,
    knock_melds,
)
from rummykit.rules.options import OptionError
from rummykit.rules.variant import find_variant

# ------------------------------------------------------------------ the profile


def test_profile_two_players_one_pack_no_jokers() -> None:
    """§G.1: one 52-card pack, no jokers, exactly two players."""
    assert GIN.min_players == GIN.max_players == 2
    pack = GIN.pieces(GIN.resolve(2))
    assert len(pack) == 52 and pack.joker_count == 0
    assert find_variant("gin-rummy") is GIN and find_variant("gin_rummy") is GIN


@pytest.mark.parametrize(
    "options",
    [{"knock_card": 11}, {"knock_card": -1}, {"gin_bonus": "25"}, {"oklahoma": 1}, {"big": 1}],
)
def test_bad_options_are_errors(options: dict[str, Any]) -> None:
    """Options are validated against the schema (§G.9)."""
    with pytest.raises(OptionError):
        GIN.resolve(2, options)


def test_oklahoma_with_a_knock_card_is_an_error_not_ignored() -> None:
    """§G.4: with ``oklahoma`` the up-card sets the knock card; a given one is refused."""
    with pytest.raises(OptionError, match="knock_card"):
        GIN.resolve(2, {"oklahoma": True, "knock_card": 5})


def test_the_deal_gives_ten_each_and_an_upcard() -> None:
    """§G.2: ten cards each, one up-card, 31 in the stock; the non-dealer first."""
    game = deal(KNOCKER, DEFENDER, "2D", "KH")
    assert sorted(map(face, rack(game, 0))) == sorted(map(face, KNOCKER.split()))
    assert sorted(map(face, rack(game, 1))) == sorted(map(face, DEFENDER.split()))
    assert [str(game.faces[p]) for p in game.column] == ["2D"]
    assert len(game.stock) == 31 and str(game.faces[game.stock[-1]]) == "KH"
    assert game.to_move == 0 and game.phase is Phase.TURNS


def test_deadwood_and_the_knockers_choices() -> None:
    """§G.3-§G.5: least deadwood; the knocker's discards and melds keep <= the limit."""
    assert deadwood(kinds(KNOCKER)) == 4
    assert deadwood(kinds(JUNK)) == deadwood(kinds(JUNK2)) == 74
    eleven = kinds(KNOCKER + " KH")
    assert knock_deadwood(eleven) == 4
    assert knock_discards(eleven, 10) == tuple(sorted(kinds("KH 4D")))
    melds = knock_melds(kinds(KNOCKER), 10)
    assert tuple(sorted(kinds("AS 2S 3S"))) in melds
    # With a limit of 0 nothing leaves 4D out: no meld may be laid.
    assert knock_melds(kinds(KNOCKER), 0) == ()


def test_a_meld_is_accepted_in_any_card_order() -> None:
    """§G.5: ``meld [3S 2S AS]`` names the same meld as ``meld [AS 2S 3S]``."""
    game = deal(KNOCKER, DEFENDER, "2D", "KH")
    play(game, "P1: pass", "P2: pass", "P1: draw", "P1: knock", "P1: discard KH")
    play(game, "P1: meld [3S 2S AS]")
    assert "[AS 2S 3S]" in table(game)
