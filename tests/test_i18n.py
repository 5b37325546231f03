"""The terminal's messages (rummykit.i18n, issue 13 items 6-7): every key in all six
languages with the same slots, the language from the locale, and no English engine
text on a screen in another language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rummykit.i18n import LANGUAGES, Messages, catalog, howto_markdown, language_from_environment

OWN = Path(__file__).resolve().parent.parent / "src" / "rummykit" / "i18n"
SLOT = re.compile(r"\{(\w+)\}")


def own(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((OWN / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def test_the_six_languages_have_catalogs() -> None:
    assert LANGUAGES == ("en", "ro", "de", "hr", "bg", "pl")
    assert sorted(p.stem for p in OWN.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_key_in_every_language_with_the_same_slots(lang: str) -> None:
    english, other = own("en"), own(lang)
    assert set(english) == set(other), f"{lang}: {sorted(set(english) ^ set(other))}"
    wrong = [k for k in english if set(SLOT.findall(english[k])) != set(SLOT.findall(other[k]))]
    assert not wrong, f"{lang}: slots differ in {wrong}"
    # Translated: only a handful of messages (names, "atu", "{seat} {name}: {move}")
    # may read the same as in English.
    same = [k for k, text in other.items() if text == english[k] and text]
    assert len(same) <= len(english) // 10, f"{lang}: untranslated {same}"


def test_terminal_keys_are_all_used_by_the_terminal() -> None:
    """No message the terminal never shows (keys are looked up by name in cli/*.py)."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in (OWN.parent / "cli").glob("*.py"))
    unused = [k for k in own("en") if f'"{k}"' not in source and f"'{k}'" not in source]
    assert not unused, f"unused terminal messages: {unused}"


def test_catalog_merges_the_browser_catalog() -> None:
    de = catalog("de")
    assert de["cli.bye"] == "Tschüss."
    assert de["reason.laydown_opens"].startswith("legt mit")  # shared with the browser
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        catalog("fr")


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "de_AT.UTF-8"}, "de"),
        ({"LC_ALL": "ro_MD.UTF-8", "LANG": "en_GB.UTF-8"}, "ro"),
        ({"LC_MESSAGES": "bs_BA.UTF-8"}, "hr"),
        ({"LANG": "mk_MK"}, "bg"),
        ({"LANGUAGE": "fr:pl"}, "pl"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_language_from_the_locale(environ: dict[str, str], lang: str) -> None:
    assert language_from_environment(environ) == lang


def test_messages_fill_slots_and_keep_english_engine_text_off_other_screens() -> None:
    en, ro = Messages("en"), Messages("ro")
    assert ro("cli.you_drew", pieces="R5") == "Ai tras R5."
    assert ro.family("phase", "turns") == catalog("ro")["phase.turns"]
    assert ro.family("phase", "no-such-phase") == "no-such-phase"
    engine = "discard R5 is illegal: draw first (RULES §9.5(2), A-50)"
    assert en.local(engine) == engine
    assert ro.local(engine) == "RULES §9.5(2), A-50"
    assert ro.local("the column is empty") == ""
    with pytest.raises(KeyError):
        en("cli.no-such-message")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_how_to_play_pages_in_docs_match_the_catalog(lang: str) -> None:
    """docs/howto/<lang>.md is the catalog's how-to-play text; regenerate it with
    python -c 'from rummykit.i18n import howto_markdown as h; print(h("de"), end="")'."""
    page = OWN.parent.parent.parent / "docs" / "howto" / f"{lang}.md"
    assert page.read_text(encoding="utf-8") == howto_markdown(lang)
