"""Every language renders the lobby and the table in Debian's Chromium (issue 5 item 8):
the browser's language is picked, every message comes from that language's catalog,
no message key shows raw, and the language can be switched and is remembered."""

from __future__ import annotations

import json
import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import (
    PageErrors,
    catalog,
    chromium,
    live_server,
    perform,
    play_until_draw,
    require_browser,
    wait_for_state,
)

LANGUAGES = {
    "en": "en-GB",
    "ro": "ro-MD",
    "de": "de-AT",
    "hr": "hr-HR",
    "bg": "bg-BG",
    "pl": "pl-PL",
}
RAW_KEY = re.compile(r"^[a-z_]+\.[a-z_.]+$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_browser()
    with live_server(tmp_path_factory.mktemp("i18n")) as url:
        yield url


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go: $RUMMYKIT_ARTIFACTS (CI uploads it), else a temporary
    folder pytest keeps for the last runs."""
    folder = os.environ.get("RUMMYKIT_ARTIFACTS")
    path = Path(folder) / "screenshots" if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def seat(server: str) -> dict[str, Any]:
    """A remi_ro table with one person and three bots: its code, seat and token."""
    body = json.dumps(
        {
            "variant": "remi_ro",
            "players": 4,
            "name": "Ana",
            "bots": [{"seat": s, "bot": "greedy"} for s in (1, 2, 3)],
        }
    ).encode()
    request = urllib.request.Request(
        f"{server}/api/tables", data=body, headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        made: dict[str, Any] = json.load(answer)
    return made


def _context(browser: Any, locale: str, seat: dict[str, Any] | None = None, **options: Any) -> Any:
    context = browser.new_context(locale=locale, **options)
    if seat is not None:
        held = {seat["code"]: {"seat": seat["seat"], "token": seat["token"]}}
        context.add_init_script(
            f"localStorage.setItem('rummykit.seats', {json.dumps(json.dumps(held))});"
        )
    return context


def _assert_translated(page: Any, lang: str) -> None:
    """Every data-i18n element shows its catalog message and no raw key is visible."""
    text = catalog(lang)
    assert page.evaluate("document.documentElement.lang") == lang
    keyed = page.evaluate(
        """() => [...document.querySelectorAll('[data-i18n]')]
            .map(e => [e.dataset.i18n, e.textContent])"""
    )
    assert keyed, "the page has no translated elements"
    wrong = [(key, shown) for key, shown in keyed if shown != text[key]]
    assert not wrong, f"{lang}: {wrong}"
    lines = [line.strip() for line in page.inner_text("body").splitlines()]
    assert not [line for line in lines if RAW_KEY.match(line)], f"{lang}: raw keys {lines}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_language_renders_lobby_and_table(
    browser: Any, server: str, seat: dict[str, Any], lang: str, shots: Path
) -> None:
    text = catalog(lang)
    context = _context(browser, LANGUAGES[lang], seat)
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/")
    page.wait_for_selector('#variant option[value="remi_ro"]', state="attached")
    _assert_translated(page, lang)
    assert page.inner_text("#create-button") == text["lobby.create_button"]
    variants = page.locator("#variant option").all_inner_texts()
    assert text["variant.remi_ro"] in variants and text["variant.romme"] in variants
    assert (
        page.locator("#seat-config select").first.locator("option").first.inner_text()
        == (text["lobby.seat_open"])
    )

    page.goto(f"{server}/t/{seat['code']}")
    page.wait_for_function("window.rummykitTable.view !== null")
    page.wait_for_selector("#rack .rack-piece")
    _assert_translated(page, lang)
    assert page.inner_text("#rack-title") == text["term.rack_tiles"]
    state = page.evaluate("window.rummykitTable.view")
    assert page.inner_text("#turn").startswith(text[f"phase.{state['phase']}"])
    assert page.inner_text("#who") == text["table.you_are"].replace("{seat}", "1")
    for button in page.locator("#extra-actions button").all():
        assert not RAW_KEY.match(button.inner_text())
    # Issue 13 item 8: the table at desktop and phone size, and the phone lobby, as
    # screenshots for people to look at (artifacts).
    written = []
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(100)
        written.append(shots / f"{lang}-{size}-table.png")
        page.screenshot(path=str(written[-1]))
    page.goto(f"{server}/")
    page.wait_for_selector('#variant option[value="remi_ro"]', state="attached")
    written.append(shots / f"{lang}-phone-lobby.png")
    page.screenshot(path=str(written[-1]), full_page=True)
    assert all(p.stat().st_size > 5000 for p in written), written
    assert not errors.errors
    context.close()


def test_no_english_engine_text_reaches_a_romanian_screen(browser: Any, server: str) -> None:
    """Issue 13 item 6: an illegal move's reason and the hints' reasons come from the
    engine in English; a Romanian page shows its own words (and rule references)."""
    body = json.dumps(
        {
            "variant": "remi_ro",
            "players": 2,
            "name": "Ana",
            "bots": [{"seat": 1, "bot": "greedy"}],
        }
    ).encode()
    request = urllib.request.Request(
        f"{server}/api/tables", data=body, headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        made: dict[str, Any] = json.load(answer)
    context = _context(browser, "ro-RO", made, viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    frames: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))),
    )
    page.goto(f"{server}/t/{made['code']}")
    state = wait_for_state(page)
    state = play_until_draw(page)
    ro = catalog("ro")
    # Discarding before drawing: refused with the engine's English reason.
    page.locator("#rack .rack-piece").first.tap()
    page.locator("#btn-discard").tap()
    page.wait_for_selector("#message:not([hidden])")
    shown = page.inner_text("#message")
    errors = [f for f in frames if f.get("type") == "error"]
    assert errors and errors[-1]["message"], errors
    assert errors[-1]["message"] not in shown
    # The refusal reads in Romanian: its own sentence and the rule it cites.
    why = errors[-1]["explain"]
    assert why["key"] == "draw_first", why
    rule = ro["illegal.rule"].replace("{rule}", why["rule"])
    assert shown == f"{ro['error.illegal_action']}: {ro['illegal.draw_first']} ({rule})"
    # Draw, then ask for hints: reasons from the Romanian catalog, never the English.
    perform(page, "draw", touch=True)
    wait_for_state(page, state["eventId"])
    page.locator("#btn-hint").tap()
    page.wait_for_selector("#hints li")
    hints = [h for f in frames if f.get("type") == "hint" for h in f["hints"]]
    assert hints and all(h["code"] for h in hints), hints
    text = page.inner_text("#hints")
    for hint in hints:
        assert hint["reason"] not in text, hint
        head = ro[f"reason.{hint['code']}"].split("{")[0]
        assert head in text, (head, text)
    context.close()


def test_language_can_be_switched_and_is_remembered(browser: Any, server: str) -> None:
    context = _context(browser, "en-US")
    page = context.new_page()
    page.goto(f"{server}/")
    page.wait_for_selector('#variant option[value="remi_ro"]', state="attached")
    assert page.inner_text("#create-button") == catalog("en")["lobby.create_button"]
    page.select_option("#lang", "bg")
    page.wait_for_function("document.documentElement.lang === 'bg'")
    _assert_translated(page, "bg")
    page.reload()
    page.wait_for_function("document.documentElement.lang === 'bg'")
    assert page.inner_text("#create-button") == catalog("bg")["lobby.create_button"]
    context.close()
