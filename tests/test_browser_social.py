"""Between deals, chat and feedback at the browser table, in Debian's Chromium (issue 13
items 3, 4, 5 and 6): the next deal waits until every human asked for it and the page
says who is awaited; chat lines are shown as text, never as markup, and spectators
read them; an illegal move on a Romanian page reads in Romanian."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import (
    PageErrors,
    catalog,
    choose,
    chromium,
    live_server,
    require_browser,
    snapshot,
    wait_for_state,
)
from rummykit.bots.greedy import GreedyBot

MARKUP = '<b>x</b><script>window.__owned = 1</script><img src=x onerror="window.__owned = 2">'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_browser()
    with live_server(tmp_path_factory.mktemp("social")) as url:
        yield url


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    with chromium() as b:
        yield b


def _create(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{url}/api/tables",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        made: dict[str, Any] = json.loads(answer.read())
    return made


def _open(browser: Any, url: str, made: dict[str, Any] | None, code: str, lang: str) -> Any:
    """A page at table ``code`` holding ``made``'s seat (None: a spectator)."""
    context = browser.new_context(locale=lang, viewport={"width": 1280, "height": 800})
    if made is not None:
        seats = {code: {"seat": made["seat"], "token": made["token"]}}
        context.add_init_script(
            f"localStorage.setItem('rummykit.seats', {json.dumps(json.dumps(seats))});"
            "localStorage.setItem('rummykit.name', 'Ana');"
        )
    page = context.new_page()
    page.set_default_timeout(10_000)
    suffix = "" if made is not None else "?spectate"
    page.goto(f"{url}/t/{code}{suffix}")
    return page


SEND = """a => { const s = window.rummykitTable;
  s.ws.send(JSON.stringify({v: 1, type: "action", action_id: crypto.randomUUID(),
                            state_id: s.stateId, action: a})); }"""


def test_the_next_deal_waits_for_the_human_and_shows_who_is_awaited(
    browser: Any, server: str
) -> None:
    made = _create(
        server,
        {
            "variant": "basic",
            "players": 2,
            "name": "Ana",
            "bots": [{"seat": 1, "bot": "greedy"}],
            "options": {"match_mode": "deals", "match_deals": 2, "max_stock_recycles": 1},
        },
    )
    page = _open(browser, server, made, made["code"], "en-GB")
    errors = PageErrors(page)
    state = wait_for_state(page)
    bot, rng = GreedyBot(), random.Random(3)
    # The human's moves go straight over the page's socket (the UI's moves are tested
    # elsewhere): the point here is the end of the deal.
    for _ in range(400):
        if state["view"]["phase"] == "deal_end":
            break
        if state["legal"]:
            page.evaluate(SEND, choose(bot, state, rng))
        state = wait_for_state(page, state["eventId"]) if state["legal"] else snapshot(page)
        if not state["legal"] and state["view"]["phase"] != "deal_end":
            page.wait_for_function(
                "() => window.rummykitTable.legal.length"
                " || window.rummykitTable.view.phase === 'deal_end'"
            )
            state = snapshot(page)
    assert state["view"]["phase"] == "deal_end"
    ended = state["eventId"]
    page.wait_for_selector("#summary:not([hidden]) #awaited")
    assert "Ana" in page.locator("#awaited").inner_text()
    sheet = page.locator("#summary-body").inner_text()
    assert catalog("en")["sheet.winner"] in sheet or "void" in json.dumps(state["view"])
    # The bot is to move or not: it does not start the next deal for the human.
    page.wait_for_timeout(600)
    assert snapshot(page)["eventId"] == ended and page.locator("#btn-next").is_visible()
    page.click("#btn-next")
    page.wait_for_function(
        "after => window.rummykitTable.eventId > after"
        " && window.rummykitTable.view.phase !== 'deal_end'",
        arg=ended,
    )
    assert page.locator("#summary").is_hidden()
    assert not errors.errors, errors.errors
    page.context.close()


def test_chat_shows_markup_as_text_and_spectators_read_it_in_their_language(
    browser: Any, server: str
) -> None:
    made = _create(
        server,
        {"variant": "remi_ro", "players": 2, "name": "Ana", "bots": [{"seat": 1, "bot": "easy"}]},
    )
    code = made["code"]
    ana = _open(browser, server, made, code, "en-GB")
    watcher = _open(browser, server, None, code, "ro-RO")
    errors = PageErrors(ana)
    for page in (ana, watcher):
        wait_for_state(page)
        page.click("#chat-toggle")
    ana.fill("#chat-text", MARKUP)
    ana.click("#chat-send")
    ana.click('#chat-phrases [data-phrase="good_luck"]')
    for page in (ana, watcher):
        page.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2")
        texts = page.locator("#chat-log .chat-text").all_inner_texts()
        assert texts[0] == MARKUP  # shown verbatim
        assert page.locator("#chat-log b, #chat-log script, #chat-log img").count() == 0
        assert page.evaluate("() => window.__owned") is None  # nothing ran
    assert (
        watcher.locator("#chat-log .chat-text").all_inner_texts()[1]
        == catalog("ro")["chat.phrase.good_luck"]
    )
    assert ana.locator("#chat-log .chat-text").all_inner_texts()[1] == "Good luck!"
    # A spectator reads, never writes.
    assert watcher.locator("#chat-form").is_hidden()
    assert watcher.locator("#chat-readonly").is_visible()
    # A line too long is refused with a clear message; nothing is added.
    ana.evaluate(
        "() => window.rummykitTable.ws.send(JSON.stringify("
        "{v: 1, type: 'chat', text: 'y'.repeat(201)}))"
    )
    ana.wait_for_selector("#message:not([hidden])")
    assert catalog("en")["error.bad_chat"] in ana.locator("#message").inner_text()
    assert ana.locator("#chat-log li").count() == 2
    assert not errors.errors, errors.errors
    for page in (ana, watcher):
        page.context.close()


# ---------------------------------------------------------------- item 3: feedback

AUDIO_STUB = """
window.__tones = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    const param = { setValueAtTime() {}, linearRampToValueAtTime() {} };
    const start = () => { window.__tones += 1; };
    return { frequency: param, connect: (n) => n, start, stop() {} };
  }
  createGain() {
    const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return { gain: param, connect: (n) => n };
  }
};
"""

ANIMATION = """cls => { const e = document.createElement('div'); e.className = cls;
  document.body.append(e); const name = getComputedStyle(e).animationName; e.remove();
  return name; }"""


def _my_turn_again(page: Any, bot: Any, rng: random.Random) -> dict[str, Any]:
    """Play this seat's moves until it is to move again after another seat moved."""
    state = wait_for_state(page)
    while not state["legal"]:
        state = wait_for_state(page, state["eventId"])
    while state["legal"]:
        page.evaluate(SEND, choose(bot, state, rng))
        state = wait_for_state(page, state["eventId"])
    while not state["legal"]:
        state = wait_for_state(page, state["eventId"])
    return state


def test_turn_sound_mute_timer_pulses_and_the_away_warning(browser: Any, server: str) -> None:
    made = _create(
        server,
        {
            "variant": "basic",
            "players": 2,
            "name": "Ana",
            "bots": [{"seat": 1, "bot": "greedy"}],
            "turn_timer": 600,
        },
    )
    code = made["code"]
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 800})
    seats = {code: {"seat": made["seat"], "token": made["token"]}}
    context.add_init_script(
        AUDIO_STUB
        + f"localStorage.setItem('rummykit.seats', {json.dumps(json.dumps(seats))});"
        + "if (!sessionStorage.getItem('set')) { sessionStorage.setItem('set', 1);"
        + " localStorage.setItem('rummykit.settings', JSON.stringify({sound: true})); }"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors = PageErrors(page)
    page.goto(f"{server}/t/{code}")
    bot, rng = GreedyBot(), random.Random(5)
    _my_turn_again(page, bot, rng)
    # "Your turn" sounded (a tone made with WebAudio, no sound file).
    assert page.evaluate("() => window.__tones") >= 1
    # The opponent's draw or take pulsed its pile; its move is shown on its seat.
    assert page.locator("#stock.pulled, #column-box.pulled").count() == 1
    assert page.locator('.seat[data-seat="1"] .seat-last').inner_text()
    # The turn timer is visible while it is this seat's turn.
    page.wait_for_selector("#deadline:not([hidden])")  # the page updates it each second
    assert re.search(r"\d", page.locator("#deadline").inner_text())
    # Muted: the switch is remembered, and no tone sounds on the next turn.
    page.click("#settings-toggle")
    page.uncheck("#opt-sound")
    page.click("#settings-close")
    assert (
        json.loads(page.evaluate("() => localStorage.getItem('rummykit.settings')"))["sound"]
        is False
    )
    tones = page.evaluate("() => window.__tones")
    _my_turn_again(page, bot, rng)
    assert page.evaluate("() => window.__tones") == tones
    # Animations are off where the player asked the system for less motion.
    assert page.evaluate(ANIMATION, "pulled") == "pulled"
    calm = browser.new_context(reduced_motion="reduce")
    still = calm.new_page()
    still.goto(f"{server}/t/{code}?spectate")
    for cls in ("pulled", "piece fresh", "seat just-moved"):
        assert still.evaluate(ANIMATION, cls) == "none", cls
    # The connection drops: the player is told a bot will play after the grace period.
    page.evaluate("() => window.rummykitTable.ws.close()")
    page.wait_for_selector("#away-banner:not([hidden])")
    assert "60" in page.locator("#away-banner").inner_text()
    page.wait_for_selector("#away-banner", state="hidden")  # reconnected
    # The others see how long until a bot plays for the absent player.
    page.close()
    still.wait_for_function(
        "() => document.querySelector('.seat[data-seat=\"0\"] .badge.away')"
        " && /\\d/.test(document.querySelector('.seat[data-seat=\"0\"] .badge.away').textContent)"
    )
    assert not errors.errors, errors.errors
    context.close()
    calm.close()


def test_after_a_stand_in_played_the_player_is_told_what_it_did(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    with live_server(tmp_path_factory.mktemp("grace"), grace=0.5) as url:
        made = _create(url, {"variant": "basic", "players": 2, "name": "Ana"})
        code = made["code"]
        page = _open(browser, url, made, code, "de-DE")
        page.wait_for_selector("#waiting:not([hidden])")
        # A second player sits (and never connects): the deal is made now.
        request = urllib.request.Request(
            f"{url}/api/tables/{code}/join",
            data=json.dumps({"name": "Bo"}).encode(),
            headers={"content-type": "application/json"},
        )
        urllib.request.urlopen(request, timeout=5).close()
        first = wait_for_state(page)
        page.close()  # away; the browser keeps what the page had seen

        def state() -> dict[str, Any]:
            with urllib.request.urlopen(f"{url}/api/tables/{code}/state", timeout=5) as r:
                got: dict[str, Any] = json.loads(r.read())
            return got

        mine: list[str] = []
        for _ in range(150):
            later = state()["view"]["history"][len(first["view"]["history"]) :]
            mine = [a for seat, a in later if seat == 0]
            if mine:
                break
            time.sleep(0.05)
        assert mine, "no stand-in played"
        back = page.context.new_page()
        back.goto(f"{url}/t/{code}")
        back.wait_for_selector("#away-notice:not([hidden])")
        head = catalog("de")["away.bot_played"].split("{")[0]
        assert back.locator("#away-text").inner_text().startswith(head)
        back.context.close()
