"""The browser table's static files: message catalogs complete in every language,
every message the pages use defined, and nothing fetched from outside the server."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import pytest

from rummykit.bots import BOTS
from rummykit.engine.actions import DoublesCategory
from rummykit.engine.game import Phase
from rummykit.model.melds import MeldKind
from rummykit.rules.variant import all_variants
from rummykit.server.explain import EXPLAINED, VERBS
from rummykit.server.schema import CHAT_PHRASES, ErrorCode
from rummykit.solver.hints import REASONS as HINT_REASONS
from rummykit.solver.hints import TOPICS as HINT_TOPICS

STATIC = Path(__file__).resolve().parent.parent / "src" / "rummykit" / "server" / "static"
LANGUAGES = ("en", "ro", "de", "hr", "bg", "pl")
PAGES = sorted(STATIC.glob("*.html"))
SCRIPTS = sorted((STATIC / "js").glob("*.js"))

# Message families the pages look up by a value the server or engine sends
# (``tf("phase", view.phase)``); each must cover every value.
DEAL_ENDS = ("close", "out", "board", "call", "knock", "exhaustion", "void")  # DealResult.end
TABLE_STATUS = ("open", "playing", "finished")  # server TableInfo.status
HTTP_ERRORS = ("no_table", "seat_taken", "table_full", "not_finished", "finished", "bad_name")


def option_names() -> tuple[str, ...]:
    """Every option of every variant (the lobby and the Rules panel label each)."""
    return tuple(sorted({spec.name for v in all_variants() for spec in v.options}))


def option_choices() -> tuple[str, ...]:
    """Every named value an option may take (``direction = "clockwise"``)."""
    return tuple(
        sorted(
            {
                choice
                for v in all_variants()
                for spec in v.options
                for choice in spec.choices or ()
                if isinstance(choice, str)
            }
        )
    )


def families() -> dict[str, tuple[str, ...]]:
    variants = tuple(v.name for v in all_variants())
    return {
        "phase": tuple(str(p) for p in Phase),
        "variant": variants,
        # Issue 13 item 6: a how-to-play page per game, a label and a one-line
        # explanation per option, a message per hint reason (never the English text).
        "howto": variants,
        "opt": option_names(),
        "opt_help": option_names(),
        "reason": HINT_REASONS,
        "choice": option_choices(),
        "kind": tuple(str(k) for k in MeldKind),
        "end": DEAL_ENDS,
        "hint.topic": HINT_TOPICS,
        "bot": tuple(BOTS),
        "status": TABLE_STATUS,
        "doubles": tuple(str(c) for c in DoublesCategory),
        "error": (*typing.get_args(ErrorCode), *HTTP_ERRORS, "generic"),
        # Issue 13 item 5: quick chat phrases travel as keys, shown in each language.
        "chat.phrase": CHAT_PHRASES,
        # Issue 13 item 6: an illegal move's refusal (server/explain.py) in words.
        "illegal": tuple(key for key, _ in EXPLAINED),
        "illegal.verb": VERBS,
    }


def catalog(lang: str) -> dict[str, str]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


# A call t("key") or t("key", {...}) in a script, and data-i18n*="key" in a page.
_T_CALL = re.compile(r"(?<![\w.$])t\(\s*[\"']([\w.]+)[\"']")
_ATTR = re.compile(r"data-i18n(?:-title|-placeholder)?=\"([\w.]+)\"")
_TF_CALL = re.compile(r"(?<![\w.$])tf\(\s*[\"']([\w.]+)[\"']")
_SLOT = re.compile(r"\{(\w+)\}")


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in SCRIPTS:
        keys.update(_T_CALL.findall(path.read_text(encoding="utf-8")))
    for path in PAGES:
        keys.update(_ATTR.findall(path.read_text(encoding="utf-8")))
    return keys


def family_keys() -> set[str]:
    return {f"{family}.{value}" for family, values in families().items() for value in values}


def test_pages_and_scripts_exist() -> None:
    assert {p.name for p in PAGES} >= {"index.html", "table.html"}
    assert {p.name for p in SCRIPTS} >= {"i18n.js", "lobby.js", "table.js", "pieces.js"}
    # The scanners below must see the pages' messages at all.
    assert len(used_keys()) > 100


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_is_flat_strings(lang: str) -> None:
    data = catalog(lang)
    bad = {k: v for k, v in data.items() if not isinstance(v, str) or not v.strip()}
    assert not bad, f"{lang}: keys without a message: {sorted(bad)}"


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_key_in_every_language(lang: str) -> None:
    english, other = set(catalog("en")), set(catalog(lang))
    assert not english - other, f"{lang} misses {sorted(english - other)}"
    assert not other - english, f"{lang} has keys English lacks: {sorted(other - english)}"


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_placeholders_match_english(lang: str) -> None:
    english = catalog("en")
    wrong = {
        key: text
        for key, text in catalog(lang).items()
        if set(_SLOT.findall(text)) != set(_SLOT.findall(english[key]))
    }
    assert not wrong, f"{lang}: placeholders differ from English in {wrong}"


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_messages_are_translated(lang: str) -> None:
    """A real translation: nearly every message differs from the English one (names of
    games and a few short terms such as 'atu' or 'Bot: {bot}' may coincide)."""
    english = catalog("en")
    same = [k for k, text in catalog(lang).items() if text == english[k]]
    assert len(same) <= len(english) // 20, f"{lang}: untranslated {same}"


def test_every_used_key_exists() -> None:
    missing = sorted(used_keys() - set(catalog("en")))
    assert not missing, f"messages used by the pages but missing from the catalogs: {missing}"


def test_every_looked_up_family_is_complete() -> None:
    missing = sorted(family_keys() - set(catalog("en")))
    assert not missing, f"engine/server values without a message: {missing}"
    text = "\n".join(p.read_text(encoding="utf-8") for p in SCRIPTS)
    looked_up = set(_TF_CALL.findall(text))
    assert looked_up <= set(families()), f"tf() families the test does not know: {looked_up}"


def test_no_unused_messages() -> None:
    unused = sorted(set(catalog("en")) - used_keys() - family_keys())
    assert not unused, f"catalog keys no page uses: {unused}"


def test_language_names_and_list_agree() -> None:
    """The picker offers exactly the six catalogs."""
    text = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    listed = re.search(r"LANGUAGES = \[([^\]]*)\]", text)
    assert listed is not None
    assert tuple(re.findall(r"\"(\w+)\"", listed[1])) == LANGUAGES


_REMOTE = re.compile(r"""(?:src|href)\s*=\s*["'](?:https?:)?//""", re.IGNORECASE)
_LOCAL_REF = re.compile(r"""(?:src|href)\s*=\s*["'](/static/[^"']+)["']""")
_IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s+["']([^"']+)["']""", re.MULTILINE)


def test_nothing_is_fetched_from_elsewhere() -> None:
    """No CDN and no build step: pages load only files that exist under /static/, and
    scripts import only sibling modules."""
    for page in PAGES:
        html = page.read_text(encoding="utf-8")
        assert not _REMOTE.search(html), f"{page.name} loads something from another host"
        for ref in _LOCAL_REF.findall(html):
            assert (STATIC / ref.removeprefix("/static/")).is_file(), f"{page.name}: {ref}"
    for script in SCRIPTS:
        text = script.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text, script.name
        for target in _IMPORT.findall(text):
            assert target.startswith("./"), f"{script.name} imports {target}"
            assert (script.parent / target).is_file(), f"{script.name}: {target}"
    for css in (STATIC / "css").glob("*.css"):
        urls = re.findall(r"url\(([^)]*)\)", css.read_text(encoding="utf-8"))
        assert not [u for u in urls if "//" in u], f"{css.name} loads {urls}"


def test_the_page_offers_the_servers_quick_phrases() -> None:
    """The quick-phrase buttons send exactly the keys the server accepts."""
    text = (STATIC / "js" / "table.js").read_text(encoding="utf-8")
    listed = re.search(r"CHAT_PHRASES = \[([^\]]*)\]", text)
    assert listed is not None
    assert tuple(re.findall(r"\"(\w+)\"", listed[1])) == CHAT_PHRASES
