"""An illegal action's refusal in words every language renders (server/explain.py,
issue 13 item 6): the engine's English reason is mapped to a message key with its
parameters, and every key and verb has a message in all six languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rummykit.engine.actions import parse_action
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.game import Game
from rummykit.server.explain import EXPLAINED, VERBS, explain

STATIC = Path(__file__).resolve().parent.parent / "src" / "rummykit" / "server" / "static"
LANGUAGES = ("en", "ro", "de", "hr", "bg", "pl")
_SLOT = re.compile(r"\{(\w+)\}")


def _catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads(
        (STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8")
    )
    return data


def _refusal(game: Game, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as refused:
        game.verify(parse_action(text, game.pieces.material))
    return refused.value


def _at_first_draw(variant: str) -> Game:
    game = Game(variant, 2, {}, seed=3)
    for _ in range(40):
        legal = [str(a) for a in game.legal_actions()]
        if "draw" in legal and game.phase.value == "turns":
            return game
        pick = "ready" if "ready" in legal else "draw" if "draw" in legal else None
        pick = pick or next(a for a in legal if a.startswith("discard"))
        game.apply(parse_action(pick, game.pieces.material))
    raise AssertionError("no draw")


@pytest.mark.parametrize("variant", ["remi_ro", "romme", "basic"])
def test_the_refusals_players_meet_most_have_their_own_words(variant: str) -> None:
    game = _at_first_draw(variant)
    rack = [str(game.faces[p]) for p in game.racks[game.to_move]]
    first = explain(_refusal(game, f"discard {rack[0]}"))
    assert (first["verb"], first["key"]) == ("discard", "draw_first")
    assert first["rule"].startswith("§")
    assert explain(_refusal(game, "next"))["key"] == "deal_not_over"
    game.apply(parse_action("draw", game.pieces.material))
    assert explain(_refusal(game, "draw"))["key"] == "already_drew"
    assert explain(_refusal(game, "attach " + rack[0] + " -> m9"))["key"] in (
        "no_formation",
        "round_one",
    )


def test_params_come_from_the_reason() -> None:
    exc = IllegalActionError(
        "meld [R1 R2 R3]", "§9.7", "an opening needs 45 points, these make 6", ""
    )
    assert explain(exc) == {
        "verb": "meld",
        "rule": "§9.7",
        "key": "opening_points",
        "params": {"need": "45", "have": "6"},
    }
    other = explain(IllegalActionError("swap R5 P2", "§9.4", "something rare", ""))
    assert other == {"verb": "other", "rule": "§9.4", "key": None, "params": {}}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_and_verb_has_words_in_every_language(lang: str) -> None:
    words = _catalog(lang)
    for key, pattern in EXPLAINED:
        text = words.get(f"illegal.{key}")
        assert text, f"{lang}: no message for illegal.{key}"
        assert set(_SLOT.findall(text)) == set(pattern.groupindex), (lang, key)
    for verb in VERBS:
        assert words.get(f"illegal.verb.{verb}"), f"{lang}: no message for verb {verb}"
    assert set(_SLOT.findall(words["illegal.rule"])) == {"rule"}
