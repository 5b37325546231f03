"""The ``gin`` extension (Gin Rummy as OpenSpiel plays it): the first up-card offer,
knocking and the knocker's layout, the defender's lay-offs, gin and undercut, the wall,
and the Oklahoma option's knock card.
"""

from __future__ import annotations

import pytest

from gin_support import DEFENDER, JUNK, JUNK2, KNOCKER, deal, face, kinds
from kit import CARD_NOTATION, illegal, play, rack, state_key, table
from rummykit.engine import Game, IllegalActionError
from rummykit.engine.actions import Discard, Draw, Meld, Ready, TakeColumn
from rummykit.engine.extensions.gin import Knock, LayOff, Pass, Step, gin_state
from rummykit.engine.game import Phase
from rummykit.rules.gin import (
    deadwood,
    layoff_kinds,
)

act = CARD_NOTATION.act


def legal(game: Game) -> set[str]:
    return {str(a) for a in game.legal_actions()}


def step(game: Game) -> str:
    state = gin_state(game)
    assert state is not None
    return state.step


def meld_sets(game: Game) -> set[frozenset[str]]:
    """The legal melds, each as the set of its cards."""
    return {frozenset(str(f) for f in a.faces) for a in game.legal_actions() if isinstance(a, Meld)}


# ------------------------------------------------------------------ the wall


def _to_the_wall(game: Game) -> None:
    play(game, "P1: pass", "P2: pass")
    while step(game) != Step.WALL:
        drawn = str(game.faces[game.stock[-1]])
        game.apply(Draw())
        game.apply(Discard(face(drawn)))


# ------------------------------------------------------------------ the up-card offer


def test_the_first_upcard_is_offered_to_the_non_dealer_then_the_dealer() -> None:
    """§G.2: take or pass; after two passes the non-dealer must draw from the stock."""
    game = deal(JUNK, JUNK2, "2C", "KD")
    assert legal(game) == {"take 0", "pass"}
    assert illegal(game, Draw()).rule == "§G.2"
    play(game, "P1: pass")
    assert game.to_move == 1 and legal(game) == {"take 0", "pass"}
    play(game, "P2: pass")
    assert game.to_move == 0 and legal(game) == {"draw"}
    assert illegal(game, TakeColumn(0)).rule == "§G.2"
    play(game, "P1: draw")
    assert "KD" in rack(game, 0) and step(game) == Step.DISCARD
    # The passed up-card is dead: after P1's discard only that discard is live.
    play(game, "P1: discard KD")
    assert legal(game) == {"draw", "take 1"}


def test_the_dealer_may_take_the_upcard_the_non_dealer_passed() -> None:
    """§G.2: the dealer takes the passed up-card, discards, and the non-dealer draws next."""
    game = deal(JUNK, JUNK2, "2C")
    play(game, "P1: pass", "P2: take 0")
    assert "2C" in rack(game, 1) and game.to_move == 1
    play(game, "P2: discard 2C")
    assert game.to_move == 0 and legal(game) == {"draw", "take 0"}


# ------------------------------------------------------------------ knocking


def test_knock_with_deadwood_at_most_ten_then_layout_layoffs_and_score() -> None:
    """§G.4-§G.8: deadwood 4 after the draw allows a knock; the knocker discards, lays
    his melds and says ready; the defender lays off 4S (run end) and 5S (set, or the run
    extended by 4S), then lays nothing; the knocker scores 56 - 4."""
    game = deal(KNOCKER, DEFENDER, "2D", "KH")
    play(game, "P1: pass", "P2: pass", "P1: draw")
    assert "knock" in legal(game)
    play(game, "P1: knock")
    assert game.phase is Phase.SHOWDOWN
    # §G.5(1): only a discard that keeps deadwood <= 10 (not a meld card).
    assert legal(game) == {"discard KH", "discard 4D"}
    play(game, "P1: discard KH")
    for meld in ("meld [AS 2S 3S]", "meld [5H 5D 5C]", "meld [9C 10C JC]"):
        play(game, f"P1: {meld}")
    play(game, "P1: ready")
    assert game.to_move == 1 and step(game) == Step.LAYOFF
    assert legal(game) == {"layoff 4S", "layoff 5S", "ready"}
    play(game, "P2: layoff 4S", "P2: layoff 5S")
    assert legal(game) == {"ready"}
    play(game, "P2: ready")
    assert legal(game) == {"ready"}  # §G.5(4): P2 holds no meld
    play(game, "P2: ready")
    result = game.results[-1]
    assert result.end == "knock" and result.closer == 0
    assert result.rack_values == (4, 56)
    assert result.scores == (52, -52)
    # A lay-off goes onto a run it touches first: 4S, then 5S, extend A-2-3S.
    assert table(game) == ["[AS 2S 3S 4S 5S]", "[5H 5D 5C]", "[9C 10C JC]"]


def test_a_knock_over_the_knock_card_is_refused_and_changes_nothing() -> None:
    """§G.4: with 74 deadwood the knock is not legal: a typed error citing §G.4, and the
    state is exactly as before."""
    game = deal(JUNK, JUNK2, "2C", "4H")
    play(game, "P1: pass", "P2: pass", "P1: draw")
    assert "knock" not in legal(game)
    before = state_key(game)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(Knock())
    assert caught.value.rule == "§G.4"
    assert "at most 10" in str(caught.value)
    assert state_key(game) == before


def test_the_knocker_lays_melds_until_the_knock_card_is_reached() -> None:
    """§G.5(2): ready only once the cards left are worth at most the knock card."""
    game = deal(KNOCKER, DEFENDER, "2D", "KH")
    play(game, "P1: pass", "P2: pass", "P1: draw", "P1: knock", "P1: discard KH")
    assert illegal(game, Ready()).rule == "§G.5"
    play(game, "P1: meld [AS 2S 3S]", "P1: meld [5H 5D 5C]")
    assert "ready" not in legal(game)  # 9C 10C JC 4D: 33 left
    play(game, "P1: meld [9C 10C JC]")
    assert "ready" in legal(game)


def test_gin_scores_the_bonus_and_forbids_layoffs() -> None:
    """§G.5(3), §G.8: a knocker with no deadwood (gin) adds 25; the defender may not lay
    off (5S would fit the set of fives) and goes straight to his own melds."""
    defender = DEFENDER.replace("4S", "9S")
    game = deal(KNOCKER, defender, "2D", "4S")
    play(game, "P1: pass", "P2: pass", "P1: draw", "P1: knock", "P1: discard 4D")
    play(game, "P1: meld [AS 2S 3S 4S]", "P1: meld [5H 5D 5C]", "P1: meld [9C 10C JC]")
    play(game, "P1: ready")
    assert step(game) == Step.DEFENDER_MELDS
    assert legal(game) == {"ready"}
    play(game, "P2: ready")
    result = game.results[-1]
    assert result.rack_values == (0, deadwood(kinds(defender)))
    assert result.scores == (result.rack_values[1] + 25, -(result.rack_values[1] + 25))


def test_an_undercut_costs_the_knocker_the_bonus() -> None:
    """§G.8: the defender's deadwood (0 after his melds) is below the knocker's 4: the
    knocker scores 0 - 4 - 25 and the defender 29."""
    defender = "6H 7H 8H 9H QS QD QH KS KD KH"
    game = deal(KNOCKER, defender, "2D", "JH")
    play(game, "P1: pass", "P2: pass", "P1: draw", "P1: knock", "P1: discard JH")
    play(game, "P1: meld [AS 2S 3S]", "P1: meld [5H 5D 5C]", "P1: meld [9C 10C JC]")
    play(game, "P1: ready")
    assert legal(game) == {"ready"}  # nothing of P2 fits the knocker's melds
    play(game, "P2: ready")
    assert {frozenset(["6H", "7H", "8H", "9H"]), frozenset(["QS", "QH", "QD"])} <= meld_sets(game)
    for meld in ("meld [6H 7H 8H 9H]", "meld [QS QD QH]", "meld [KS KD KH]"):
        play(game, f"P2: {meld}")
    play(game, "P2: ready")
    result = game.results[-1]
    assert result.rack_values == (4, 0)
    assert result.scores == (-29, 29)


def test_a_run_takes_layoffs_next_to_it_as_laid_and_one_further() -> None:
    """§G.5(3) (OpenSpiel): onto 5H 6H 7H, 8H fits, then 9H, but never 10H."""
    run = [kinds("5H 6H 7H")]
    assert layoff_kinds(run, []) == frozenset(kinds("4H 8H"))
    assert layoff_kinds(run, kinds("8H")) == frozenset(kinds("4H 9H"))
    assert layoff_kinds(run, kinds("8H 9H")) == frozenset(kinds("4H 9H"))
    # The fourth card of a three-card set; none onto a four-card set.
    assert layoff_kinds([kinds("7S 7H 7C")], []) == frozenset(kinds("7D"))
    assert layoff_kinds([kinds("7S 7H 7D 7C")], []) == frozenset()


def test_the_wall_ends_the_deal_in_a_draw() -> None:
    """§G.6: with two stock cards left the next player may not draw; a pass ends the
    deal, scoring nothing."""
    game = deal(JUNK, JUNK2, "AC")
    _to_the_wall(game)
    assert len(game.stock) == 2
    assert legal(game) == {"pass"}
    assert illegal(game, Draw()).rule == "§G.2"
    play(game, "pass")
    result = game.results[-1]
    assert result.end == "exhaustion" and result.scores == (0, 0)
    assert game.is_over


def test_at_the_wall_a_knock_takes_the_upcard() -> None:
    """§G.6: the player at the wall knocks if his hand with the up-card keeps <= 10; the
    up-card comes into his hand and he discards as any knocker (§G.5)."""
    game = deal(KNOCKER, DEFENDER, "AC")
    # P1 takes the first up-card and returns it, so P2 draws first and P1 meets the wall.
    play(game, "P1: take 0", "P1: discard AC")
    while step(game) != Step.WALL:
        drawn = str(game.faces[game.stock[-1]])
        game.apply(Draw())
        game.apply(Discard(face(drawn)))
    assert game.to_move == 0 and len(game.stock) == 2
    assert legal(game) == {"pass", "knock"}
    upcard = str(game.faces[game.column[-1]])
    play(game, "P1: knock")
    assert len(game.racks[0]) == 11 and upcard in rack(game, 0)
    assert step(game) == Step.KNOCK_DISCARD and game.phase is Phase.SHOWDOWN


# ------------------------------------------------------------------ oklahoma and endless play


def test_oklahoma_the_upcard_sets_the_knock_card() -> None:
    """§G.4: with oklahoma a 3 up-card allows knocks at 3 or less: deadwood 4 cannot."""
    game = deal(KNOCKER, DEFENDER, "3D", "KH", {"oklahoma": True})
    state = gin_state(game)
    assert state is not None and state.limit == 3
    play(game, "P1: pass", "P2: pass", "P1: draw")
    assert "knock" not in legal(game)
    plain = deal(KNOCKER, DEFENDER, "3D", "KH")
    play(plain, "P1: pass", "P2: pass", "P1: draw")
    assert "knock" in legal(plain)


def test_oklahoma_an_ace_upcard_means_gin_only() -> None:
    """§G.4: an ace up-card makes the knock card 0."""
    game = deal(KNOCKER, DEFENDER, "AD", "KH", {"oklahoma": True})
    state = gin_state(game)
    assert state is not None and state.limit == 0


def test_returning_the_taken_upcard_twice_in_a_row_is_a_draw() -> None:
    """§G.7: P1 takes the up-card and discards it, P2 does the same: the deal is drawn."""
    game = deal(JUNK, JUNK2, "4C")
    play(game, "P1: take 0", "P1: discard 4C", "P2: take 0", "P2: discard 4C")
    result = game.results[-1]
    assert result.end == "void" and result.scores == (0, 0)


def test_the_fiftieth_take_of_the_upcard_is_a_draw() -> None:
    """§G.7: after the first offer, the 50th take of the up-card ends the deal at once
    (a draw, the card staying on the pile)."""
    game = deal(JUNK, JUNK2, "4C")
    play(game, "P1: pass", "P2: pass", "P1: draw")
    game.apply(Discard(game.faces[game.racks[0][0]]))
    for take in range(1, 51):
        seat = game.to_move
        taken = game.column[-1]
        game.apply(TakeColumn(len(game.column) - 1))
        if take == 50:
            break
        # Discard another card than the one taken, so §G.7's repeated return never ends it.
        game.apply(Discard(game.faces[next(p for p in game.racks[seat] if p != taken)]))
        assert not game.results
    result = game.results[-1]
    assert result.end == "void" and result.scores == (0, 0)
    assert len(game.racks[seat]) == 10 and game.column[-1] == taken


def test_gin_actions_are_unknown_to_other_variants() -> None:
    """A variant without the gin extension refuses its actions (§2.3)."""
    game = Game("basic", 2, seed=1)
    for action in (Knock(), Pass(), LayOff(face("5S"))):
        with pytest.raises(IllegalActionError, match="no such action"):
            game.apply(action)
    assert isinstance(act("layoff 5S"), LayOff) and isinstance(act("meld [AS 2S 3S]"), Meld)
