"""The table on a phone, in Debian's Chromium with touch emulation (issue 13 items 1, 2
and 8): the rack and the action bar stay on screen at every step of a whole remi_ro
deal played by tapping, pieces stay legible, dragging reorders the rack and discards,
the colour-blind setting marks colours by shape, and an invite link seats a friend
after asking for a name while the spectate link only watches."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import (
    PageErrors,
    catalog,
    chromium,
    create_table,
    live_server,
    perform,
    play_humans,
    play_until_draw,
    require_browser,
    snapshot,
    wait_for_state,
)

PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
MIN_PIECE_WIDTH = 28  # CSS px: no face-up tile or card narrower on a phone


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_browser()
    with live_server(tmp_path_factory.mktemp("phone")) as url:
        yield url


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    with chromium() as b:
        yield b


def _phone(browser: Any, locale: str = "en-GB", viewport: dict[str, int] = PHONE) -> Any:
    context = browser.new_context(locale=locale, viewport=viewport, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


# One evaluation: where the dock's parts are, and the narrowest face-up piece shown.
LAYOUT = """() => {
  const box = (id) => {
    const e = document.getElementById(id);
    if (!e || e.hidden) return null;
    const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  };
  const pieces = [...document.querySelectorAll('.piece:not(.back)')]
    .filter(e => e.offsetParent !== null)
    .map(e => e.getBoundingClientRect());
  const rack = [...document.querySelectorAll('#rack .rack-piece')].map(e => {
    const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  });
  return {
    width: innerWidth, height: innerHeight,
    rack: box('rack-area'), controls: box('controls'), pieces: rack,
    narrowest: pieces.length ? Math.min(...pieces.map(r => r.width)) : null,
    scrolled: document.scrollingElement.scrollTop,
  };
}"""


def assert_dock_on_screen(page: Any, when: str = "") -> None:
    """The rack (every piece of it) and the action bar lie inside the viewport, the page
    itself does not scroll, and no face-up piece is narrower than 28 CSS px."""
    at = page.evaluate(LAYOUT)
    for part in ("rack", "controls"):
        rect = at[part]
        assert rect is not None, f"{when}: #{part} is hidden"
        assert rect["top"] >= 0 and rect["bottom"] <= at["height"] + 0.5, (when, part, at)
        assert rect["left"] >= 0 and rect["right"] <= at["width"] + 0.5, (when, part, at)
    for rect in at["pieces"]:
        assert rect["top"] >= 0 and rect["bottom"] <= at["height"] + 0.5, (when, at)
    assert at["scrolled"] == 0, f"{when}: the page scrolled"
    assert at["narrowest"] is None or at["narrowest"] >= MIN_PIECE_WIDTH, (when, at)


def test_one_person_and_three_bots_play_a_deal_by_tapping(browser: Any, server: str) -> None:
    page = _phone(browser, "ro-RO")
    errors = PageErrors(page)
    create_table(
        page,
        server,
        variant="remi_ro",
        name="Ana",
        seats=["bot:greedy"] * 3,
        options={"match_deals": "1"},
    )
    wait_for_state(page)
    page.wait_for_selector("#rack .rack-piece")
    assert_dock_on_screen(page, "dealt")
    # The same table on a smaller phone.
    page.set_viewport_size(SMALL_PHONE)
    assert_dock_on_screen(page, "360x740")
    page.set_viewport_size(PHONE)
    steps = {"n": 0}

    def check(p: Any, action: str) -> None:
        steps["n"] += 1
        assert_dock_on_screen(p, f"after {action!r}")

    made = play_humans([page], on_action=check, touch=True)
    assert made == steps["n"] and made >= 3
    state = snapshot(page)
    assert state["view"]["phase"] == "match_end"
    assert page.locator("#summary").is_visible()
    assert not errors.errors, errors.errors
    page.context.close()


def _touch_drag(page: Any, start: dict[str, float], end: dict[str, float]) -> None:
    """Drag with one finger (CDP touch events, as a phone sends them)."""
    cdp = page.context.new_cdp_session(page)
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] * 0.9, end["y"] + end["height"] / 2

    def touch(kind: str, points: list[dict[str, float]]) -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", [{"x": x0, "y": y0}])
    for i in range(1, 9):
        touch("touchMove", [{"x": x0 + (x1 - x0) * i / 8, "y": y0 + (y1 - y0) * i / 8}])
        page.wait_for_timeout(16)  # a finger moves at screen rate...
    page.wait_for_timeout(150)  # ...and rests before it lifts (no fling)
    touch("touchEnd", [])
    cdp.detach()


def test_touch_drag_reorders_and_discards_and_shapes_mark_colours(
    browser: Any, server: str
) -> None:
    page = _phone(browser)
    errors = PageErrors(page)
    create_table(page, server, variant="remi_ro", name="Ana", seats=["bot:greedy"] * 3)
    state = wait_for_state(page)
    state = play_until_draw(page)
    perform(page, "draw", touch=True)
    state = wait_for_state(page, state["eventId"])
    before = state["order"]
    pieces = page.locator("#rack .rack-piece")
    _touch_drag(page, pieces.first.bounding_box(), pieces.last.bounding_box())
    # The drop is handled just after the finger lifts: wait for the new order.
    page.wait_for_function(
        "want => JSON.stringify(window.rummykitTable.order) === want",
        arg=json.dumps(before[1:] + before[:1], separators=(",", ":")),
    )
    # The colour-blind setting: each tile colour gets its own shape, and is remembered.
    # Set while it is still Ana's turn: once she discards, a bot may go out and the
    # deal's summary covers the page.
    assert page.locator("#rack .piece .shape").first.is_hidden()
    page.locator("#settings-toggle").tap()
    page.locator("#opt-shapes").tap()
    page.locator("#settings-close").tap()
    marks = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#rack .piece.tile')]
            .filter(p => !p.classList.contains('joker'))
            .map(p => [p.dataset.face[0], p.querySelector('.shape').textContent]))"""
    )
    assert len(set(marks.values())) == len(marks), marks
    assert page.locator("#rack .piece.tile:not(.joker) .shape").first.is_visible()
    # A drag onto the discard pile discards that piece.
    face = snapshot(page)["order"][0]
    assert f"discard {face}" in state["legal"]
    page.locator("#column-box").scroll_into_view_if_needed()
    _touch_drag(page, pieces.first.bounding_box(), page.locator("#column-box").bounding_box())
    after = wait_for_state(page, state["eventId"])
    assert after["view"]["history"][len(state["view"]["history"])] == [0, f"discard {face}"]
    page.reload()
    wait_for_state(page)
    assert page.evaluate("document.body.classList.contains('shapes')")
    assert not errors.errors, errors.errors
    page.context.close()


def test_invite_link_asks_a_name_and_seats_the_friend(browser: Any, server: str) -> None:
    """Lobby (a medium bot) -> waiting room (awaited seat, invite link and its QR code)
    -> the friend opens the link on a phone, gives a name and sits; both play turns.
    The spectate link only watches."""
    host = _phone(browser, "de-DE")
    host_errors = PageErrors(host)
    text = catalog("de")
    code = create_table(host, server, variant="remi_ro", name="Ana", seats=["open", "bot:medium"])
    host.wait_for_selector("#waiting:not([hidden])")
    awaited = host.locator("#waiting-seats li.seat-open").all_inner_texts()
    assert awaited == [f"{text['seat.default'].replace('{n}', '2')}: {text['waiting.awaited']}"]
    assert text["bot.medium"] in host.inner_text("#waiting-seats")
    invite = host.input_value("#invite")
    assert invite.endswith(f"/t/{code}")
    qr = host.locator("#qr img")
    assert qr.get_attribute("data-text") == invite
    assert qr.evaluate("img => img.complete && img.naturalWidth > 100")
    assert host.get_attribute("#spectate-link", "href") == f"{invite}?spectate=1"
    assert snapshot(host)["view"] is None  # nothing dealt before every seat is taken

    watcher = _phone(browser, "en-GB")
    watcher.goto(f"{invite}?spectate=1")
    watcher.wait_for_function("window.rummykitTable.table !== null")
    assert watcher.locator("#join-dialog").is_hidden()

    friend = _phone(browser, "pl-PL")
    friend_errors = PageErrors(friend)
    friend.goto(invite)
    friend.wait_for_selector("#join-dialog:not([hidden])")
    assert friend.inner_text("#join-sit") == catalog("pl")["invite.sit_down"]
    # Told before sitting that a stand-in bot plays the seat while they are away.
    assert friend.inner_text("#join-dialog").count(catalog("pl")["invite.standin"]) == 1
    friend.fill("#join-name", "Bob")
    # Sitting down reloads the page with the seat's token.
    with friend.expect_navigation():
        friend.locator("#join-sit").tap()
    wait_for_state(friend)
    wait_for_state(host)
    assert snapshot(friend)["seat"] == 1
    seats = friend.evaluate("window.rummykitTable.table.seats")
    assert [s["name"] for s in seats if s["kind"] == "human"] == ["Ana", "Bob"]
    assert host.locator("#waiting").is_hidden()
    # Both play turns by tapping; the rack and actions stay on screen throughout.
    moves = {"n": 0}

    def check(p: Any, action: str) -> None:
        moves["n"] += 1
        assert_dock_on_screen(p, action)

    played = play_humans([host, friend], touch=True, on_action=check, until=lambda n: n >= 8)
    assert played >= 8
    histories = snapshot(host)["view"]["history"]
    assert {seat for seat, _ in histories} >= {0, 1}
    assert not host_errors.errors and not friend_errors.errors
    for page in (host, friend, watcher):
        page.context.close()
