"""The browser table in Debian's Chromium (issue 5 items 7–8): two people and two bots
finish a game of remi_ro and of a card game by clicking, a spectator never sees a
hidden piece, a reload in the middle of a turn restores the table, and a finished game
replays step by step."""

from __future__ import annotations

import json
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import (
    SHOWN_FACES,
    PageErrors,
    catalog,
    chromium,
    create_table,
    join_table,
    live_server,
    perform,
    play_humans,
    public_faces,
    require_browser,
    snapshot,
    wait_for_state,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_browser()
    with live_server(tmp_path_factory.mktemp("browser")) as url:
        yield url


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    with chromium() as b:
        yield b


def _page(browser: Any, locale: str = "en-GB") -> tuple[Any, PageErrors]:
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page, PageErrors(page)


class SpectatorWatch:
    """A spectator's page and every frame its WebSocket received."""

    def __init__(self, browser: Any, url: str, code: str) -> None:
        self.page, self.errors = _page(browser)
        self.frames: list[dict[str, Any]] = []
        self.checked = 0
        self.page.on("websocket", self._socket)
        self.page.goto(f"{url}/t/{code}?spectate=1")

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    def check_against(self, player: Any) -> None:
        """Once the spectator has caught up with ``player``'s page, it shows exactly the
        public pieces of the player's view and no rack."""
        seen = snapshot(player)
        self.page.wait_for_function("id => window.rummykitTable.eventId >= id", arg=seen["eventId"])
        # One evaluation, so no frame can arrive between reading the event and the page.
        mine = self.page.evaluate(
            """() => ({
                eventId: window.rummykitTable.eventId,
                faces: shownFaces(document.body),
                rack: document.querySelectorAll('#rack .piece').length,
                rackHidden: document.getElementById('rack-area').hidden,
            })""".replace("shownFaces(document.body)", SHOWN_FACES)
        )
        if mine["eventId"] != seen["eventId"]:
            return  # a bot moved in between; the next check compares again
        assert mine["rack"] == 0 and mine["rackHidden"]
        shown, public = Counter(mine["faces"]), Counter(public_faces(seen["view"]))
        assert shown == public, (
            f"shown but not public {shown - public}, public but not shown {public - shown}, "
            f"event {seen['eventId']}, page errors {self.errors.errors}"
        )
        self.checked += 1

    def assert_nothing_hidden_was_sent(self) -> None:
        states = [f for f in self.frames if f.get("type") == "state"]
        assert states, "the spectator received no state"
        for frame in states:
            view = frame["view"]
            assert view["seat"] == -1 and view["rack"] == [], frame
            assert not frame.get("legal"), frame
            if frame.get("hands") is not None:
                assert view["phase"] in ("deal_end", "match_end"), frame


def _two_people_and_two_bots(
    browser: Any, url: str, variant: str, options: dict[str, str]
) -> tuple[str, list[Any], list[PageErrors]]:
    ana, ana_errors = _page(browser, "ro-RO")
    code = create_table(
        ana,
        url,
        variant=variant,
        name="Ana",
        seats=["open", "bot:greedy", "bot:greedy"],
        options=options,
    )
    # Issue 12 §1: before the last seat is taken there is no deal: the page waits and
    # has no view (no rack) to show.
    ana.wait_for_selector("#waiting:not([hidden])")
    assert snapshot(ana)["view"] is None and ana.locator("#rack .piece").count() == 0
    # The replay bar belongs to finished games; `.replay-bar {display: flex}` once
    # overrode its `hidden` attribute and showed it on every live table.
    assert not ana.locator("#replay-bar").is_visible()
    bob, bob_errors = _page(browser, "de-DE")
    join_table(bob, url, code, "Bob")
    wait_for_state(ana)
    wait_for_state(bob)
    return code, [ana, bob], [ana_errors, bob_errors]


def _assert_finished(page: Any, lang: str) -> None:
    text = catalog(lang)
    state = snapshot(page)
    assert state["view"]["phase"] == "match_end"
    results = state["view"]["results"]
    assert results, "a finished match has deal results"
    # The deal summary shows every seat's score and the winner; the score table the totals.
    assert page.locator("#summary").is_visible()
    rows = page.locator("#summary .summary-table tr")
    assert rows.count() == 1 + state["view"]["players"]
    # Issue 13 item 4: the sheet names the bonuses and penalties (the closer at least).
    last = results[-1]
    if last["closer"] is not None:
        notes = page.locator("#summary .summary-table td.notes").nth(last["closer"])
        assert text["sheet.closed"] in notes.inner_text()
    scores = page.locator("#summary .summary-table td.deal-score").all_inner_texts()
    assert scores == [str(x) for x in last["scores"]]
    assert (
        page.locator("#summary .winner")
        .inner_text()
        .startswith(text["summary.winners"].split("{")[0])
    )
    totals = page.locator("#results .score-table tr.totals td").all_inner_texts()
    assert totals[1:] == [str(t) for t in state["view"]["totals"]]
    # Hands are revealed once the deal has ended (the server's policy).
    assert page.locator("#summary .revealed").count() == state["view"]["players"]


def test_remi_ro_two_people_two_bots_and_a_spectator(browser: Any, server: str) -> None:
    code, pages, errors = _two_people_and_two_bots(browser, server, "remi_ro", {"match_deals": "1"})
    watch = SpectatorWatch(browser, server, code)
    wait_for_state(watch.page)
    counter = {"n": 0}

    def after(page: Any, action: str) -> None:
        counter["n"] += 1
        if counter["n"] % 4 == 0:
            watch.check_against(page)

    made = play_humans(pages, on_action=after)
    assert made > 0
    _assert_finished(pages[0], "ro")
    _assert_finished(pages[1], "de")
    wait_for_state(watch.page)
    watch.page.wait_for_function("window.rummykitTable.view.phase === 'match_end'")
    watch.assert_nothing_hidden_was_sent()
    assert watch.checked > 0, "the spectator was never compared with a player"
    for e in [*errors, watch.errors]:
        assert not e.errors


def test_card_game_two_people_two_bots(browser: Any, server: str) -> None:
    code, pages, errors = _two_people_and_two_bots(
        browser,
        server,
        "basic",
        # One deal, and the stock turned over at most once: without a cap an unshuffled
        # discard pile can come round again and again (a deal may never end).
        {"match_mode": '"deals"', "match_deals": "1", "max_stock_recycles": "1"},
    )
    first = snapshot(pages[0])["view"]
    assert first["rack"][0][-1] in "SHDC"
    # The options set in the lobby's form are the table's.
    assert first["options"]["max_stock_recycles"] == 1
    assert first["options"]["match_deals"] == 1
    play_humans(pages)
    _assert_finished(pages[0], "ro")
    _assert_finished(pages[1], "de")
    # A rematch: same game, a new table, the same seat.
    last = snapshot(pages[0])
    pages[0].click("#btn-rematch")
    pages[0].wait_for_url(lambda u: "/t/" in u and not u.endswith(f"/t/{code}"))
    pages[0].wait_for_function("window.rummykitTable.table !== null")
    again = pages[0].evaluate("[window.rummykitTable.seat, window.rummykitTable.table.variant]")
    assert again == [last["seat"], "basic"]
    for e in errors:
        assert not e.errors


def test_a_gin_deal_is_played_by_clicking(browser: Any, server: str) -> None:
    """Issue 14 item 4: Gin Rummy joins the browser like every variant: a person plays a
    whole deal against a bot by clicking (the up-card offer, draws, discards and, when
    the deal gets there, the knock, the melds and the lay-offs)."""
    page, errors = _page(browser, "ro-RO")
    create_table(page, server, variant="gin", name="Ana", seats=["bot:greedy"])
    state = wait_for_state(page)
    assert len(state["view"]["rack"]) in (10, 11) and state["view"]["rack"][0][-1] in "SHDC"
    played: list[str] = []
    play_humans([page], on_action=lambda _page, action: played.append(action))
    final = snapshot(page)["view"]
    assert final["phase"] == "match_end" and len(final["results"]) == 1
    # A knock ends the deal with its scores, or the wall with none (§G.6, §G.8).
    result = final["results"][0]
    assert result["end"] == "knock" or result["scores"] == [0, 0], result
    assert played and {a.split()[0] for a in played} <= {
        "draw",
        "take",
        "pass",
        "discard",
        "knock",
        "meld",
        "layoff",
        "ready",
        "next",
    }
    assert not errors.errors


def test_reload_mid_turn_restores_the_table(browser: Any, server: str) -> None:
    page, errors = _page(browser)
    create_table(page, server, variant="remi_ro", name="Ana", seats=["bot:greedy"] * 3)
    state = wait_for_state(page)
    # Play until it is this seat's turn in the play phase, then draw: the turn is half done.
    for _ in range(20):
        state = snapshot(page)
        if "draw" in state["legal"]:
            break
        if state["legal"]:
            action = "ready" if "ready" in state["legal"] else None
            action = action or next(a for a in state["legal"] if a.startswith("discard"))
            perform(page, action)
        page.wait_for_function(
            "after => window.rummykitTable.eventId > after", arg=state["eventId"]
        )
    assert "draw" in snapshot(page)["legal"]
    before = snapshot(page)
    # Legal moves are highlighted: the stock now, then the pieces a move uses.
    assert page.locator("#stock.legal").count() == 1
    perform(page, "draw")
    mid = wait_for_state(page, before["eventId"])
    assert any(a.startswith("discard") for a in mid["legal"])
    assert page.locator("#stock.legal").count() == 0
    assert page.locator("#rack .rack-piece.playable").count() > 0
    page.locator("#rack .rack-piece.playable").first.click()
    assert page.locator("#btn-discard.legal").count() == 1
    page.click("#btn-clear")
    # Sort by number, then drag the first piece to the end of the rack.
    page.click("#btn-sort-number")
    by_number = snapshot(page)["order"]
    ranks = [int(f[1:]) if f != "J" else 99 for f in by_number]
    assert ranks == sorted(ranks) and sorted(by_number) == sorted(mid["view"]["rack"])
    first = page.locator("#rack .rack-piece").first
    last = page.locator("#rack .rack-piece").last
    a, b = first.bounding_box(), last.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] * 0.9, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()
    # The drop is handled just after the button is released.
    page.wait_for_function(
        "want => JSON.stringify(window.rummykitTable.order) === want",
        arg=json.dumps(by_number[1:] + by_number[:1], separators=(",", ":")),
    )
    order = snapshot(page)["order"]
    assert order == by_number[1:] + by_number[:1]
    # Select a piece; then reload in the middle of the turn.
    page.locator("#rack .rack-piece").nth(2).click()
    page.reload()
    restored = wait_for_state(page)
    assert restored["seat"] == mid["seat"]
    assert restored["eventId"] == mid["eventId"]
    assert restored["legal"] == mid["legal"]
    assert sorted(restored["view"]["rack"]) == sorted(mid["view"]["rack"])
    assert restored["order"] == order, "the player's arrangement survives the reload"
    assert page.locator("#rack .rack-piece").count() == len(order)
    assert page.locator("#turn").inner_text().endswith(catalog("en")["turn.yours"])
    # Hints for the seat to move, each playable with a click.
    page.click("#btn-hint")
    page.wait_for_selector("#hints li")
    offered = page.locator("#hints button[data-action]").evaluate_all(
        "bs => bs.map(b => b.dataset.action)"
    )
    assert set(offered) & set(restored["legal"]), offered
    # How to play, then the table's rules and options (each with its label and a
    # one-line explanation).
    page.click("#rules-toggle")
    assert page.locator("#rules").is_visible()
    assert page.inner_text("#howto").startswith(catalog("en")["variant.remi_ro"])
    page.click("#rules details summary")
    assert "opening_min_points" in page.inner_text("#rules .options")
    assert catalog("en")["opt.opening_min_points"] in page.inner_text("#rules .options")
    assert "45" in page.inner_text("#rules-body")
    # The turn goes on where it stopped: discard and the bots play on.
    discard = next(a for a in restored["legal"] if a.startswith("discard"))
    perform(page, discard)
    after = wait_for_state(page, restored["eventId"])
    assert [s for s, _ in after["view"]["history"]][-1] != -1
    assert not errors.errors


def test_illegal_move_is_explained(browser: Any, server: str) -> None:
    """A move the engine refuses is sent anyway and the server's reason is shown."""
    page, _ = _page(browser)
    create_table(page, server, variant="remi_ro", name="Ana", seats=["bot:greedy"] * 3)
    for _ in range(20):
        state = wait_for_state(page)
        if "draw" in state["legal"]:
            break
        if state["legal"]:
            perform(page, "ready" if "ready" in state["legal"] else state["legal"][-1])
        page.wait_for_function(
            "after => window.rummykitTable.eventId > after", arg=state["eventId"]
        )
    state = snapshot(page)
    assert "draw" in state["legal"]
    # The opening threshold shows as pieces are selected (POST /api/meldcheck).
    for i in range(3):
        page.locator("#rack .rack-piece").nth(i).click()
    page.wait_for_function(
        "() => document.getElementById('selection').textContent.includes('of 45 points')"
    )
    # Discarding before drawing is not allowed.
    page.click("#btn-clear")
    page.locator("#rack .rack-piece").first.click()
    page.click("#btn-discard")
    message = page.locator("#message")
    message.wait_for(state="visible")
    text = message.inner_text()
    assert text.startswith(catalog("en")["error.illegal_action"])
    assert len(text) > len(catalog("en")["error.illegal_action"]) + 10
    assert snapshot(page)["eventId"] == state["eventId"]


def test_a_move_that_costs_a_penalty_asks_first(browser: Any, server: str) -> None:
    """Issue 12 (10): a move the rules penalise asks for confirmation.  Play on the
    board (RULES §9.13) is final and costs the unopened penalty if another player
    closes first: Cancel sends nothing, "Play it anyway" plays it."""
    page, errors = _page(browser)
    create_table(page, server, variant="remi_ro", name="Ana", seats=["bot:greedy"] * 3)
    state = wait_for_state(page)
    for _ in range(40):
        state = snapshot(page)
        if "board" in state["legal"]:
            break
        for answer in ("decline", "ready"):
            if answer in state["legal"]:
                perform(page, answer)
                break
        page.wait_for_function(
            "after => window.rummykitTable.eventId > after", arg=state["eventId"]
        )
    assert "board" in state["legal"]
    board = page.locator('#extra-actions button[data-action="board"]')
    board.click()
    warning = page.locator("#warning")
    warning.wait_for(state="visible")
    assert "§9.13" in page.inner_text("#warning-text")
    assert page.inner_text("#warning-confirm") == catalog("en")["button.play_anyway"]
    page.click("#warning-cancel")
    assert warning.is_hidden()
    page.wait_for_timeout(300)
    assert snapshot(page)["eventId"] == state["eventId"], "a cancelled move was sent"
    board.click()
    warning.wait_for(state="visible")
    page.click("#warning-confirm")
    after = wait_for_state(page, state["eventId"])
    assert after["view"]["board"][after["seat"]]
    assert not errors.errors


def test_a_code_sent_before_the_script_is_ready_is_not_lost(browser: Any, server: str) -> None:
    # CI saw a tap on "Show table" land before lobby.js had wired the form: the browser
    # submitted it itself, reloaded the lobby and the code was gone. The form now
    # submits to /?code=…, which the script looks up; and a name typed early is kept.
    code = _http(server, "/api/tables", {"variant": "basic", "players": 2, "name": "Ana"})["code"]
    context = browser.new_context(java_script_enabled=False)
    bare = context.new_page()
    bare.goto(f"{server}/")
    bare.fill("#join-code", code)
    bare.click("#join button[type=submit]")
    bare.wait_for_url(f"**/?code={code}")
    context.close()
    page, errors = _page(browser)
    page.goto(f"{server}/?code={code}")
    page.wait_for_selector("#join-preview .join-button")
    assert code in page.inner_text("#join-preview")
    assert not errors.errors


def test_static_files_are_served(server: str) -> None:
    import urllib.request

    for path in ("/", "/static/js/table.js", "/static/i18n/bg.json", "/t/NOPE"):
        with urllib.request.urlopen(server + path) as answer:
            assert answer.status == 200
    assert Path(__file__).name.startswith("test_browser_")


def test_touch_selects_and_offers_a_double_for_a_swap(browser: Any, server: str) -> None:
    """On a phone: tapping selects (pointer events); in the announcements the swap
    offers shown are exactly those of the seat's legal list (RULES §9.4: offers go to
    seats that announced a double; the page invents none)."""
    context = browser.new_context(
        locale="ro-RO", has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    errors = PageErrors(page)
    create_table(page, server, variant="remi_ro", name="Ana", seats=["bot:greedy"] * 3)
    state = wait_for_state(page)
    page.wait_for_function("window.rummykitTable.legal.length > 0")
    state = snapshot(page)
    piece = page.locator("#rack .rack-piece").first
    piece.tap()
    assert "selected" in (piece.get_attribute("class") or "")
    piece.tap()
    assert "selected" not in (piece.get_attribute("class") or "")
    rack = state["order"]
    doubles = [f for f in set(rack) if rack.count(f) >= 2]
    if state["view"]["phase"] == "preplay" and doubles:
        page.locator(f'#rack .rack-piece[data-face="{doubles[0]}"]').first.tap()
        offers = page.locator("#extra-actions button[data-action^='swap']").evaluate_all(
            "bs => bs.map(b => b.dataset.action)"
        )
        assert offers == [a for a in state["legal"] if a.startswith("swap")]
    assert not errors.errors
    context.close()


def test_missing_chromium_skips_but_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    import browser_support

    monkeypatch.setattr(browser_support, "CHROMIUM", Path("/nonexistent/chromium"))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="chromium"):
        browser_support.require_browser()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run the browser tests"):
        browser_support.require_browser()


def _http(url: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{url}{path}", data=data, headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_a_finished_game_replays_step_by_step(browser: Any, server: str) -> None:
    """Issue 5 item 5: a finished game is browsable and replayable in the browser; the
    replay opens no WebSocket and shows exactly the chosen seat's view of each step."""
    made = _http(
        server,
        "/api/tables",
        {
            "variant": "remi_ro",
            "players": 2,
            "options": {"match_deals": 1},
            "bots": [{"seat": 0, "bot": "greedy"}, {"seat": 1, "bot": "greedy"}],
        },
    )
    code = made["code"]
    deadline = time.monotonic() + 120
    while _http(server, f"/api/tables/{code}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)
    page, errors = _page(browser)
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(f"{server}/")
    page.locator(f'#games a[href$="/t/{code}?replay=1"]').click()
    page.wait_for_function("window.rummykitTable && window.rummykitTable.views !== null")
    events = _http(server, f"/api/tables/{code}/replay/0")["events"]
    assert page.locator("#replay-step").inner_text() == f"Step 0 of {events}"
    assert page.locator("#replay-prev").is_disabled()

    def shown(step: int, seat: int) -> None:
        page.wait_for_function(
            "([step, seat]) => window.rummykitTable.step === step"
            " && window.rummykitTable.seat === seat",
            arg=[step, seat],
        )
        expected = _http(server, f"/api/tables/{code}/replay/{step}")["views"][seat]
        state = snapshot(page)
        assert state["view"] == expected and state["legal"] == []
        rack = page.locator("#rack .rack-piece").evaluate_all("ps => ps.map(p => p.dataset.face)")
        assert sorted(rack) == sorted(expected["rack"])

    shown(0, 0)
    page.locator("#replay-next").click()
    shown(1, 0)
    page.keyboard.press("ArrowRight")
    shown(2, 0)
    page.locator("#replay-seat").select_option("1")
    shown(2, 1)
    page.locator("#replay-last").click()
    shown(events, 1)
    assert snapshot(page)["view"]["phase"] == "match_end"
    assert page.locator("#replay-next").is_disabled()
    assert page.locator("#controls").is_hidden()
    assert not sockets, "a replay needs no WebSocket"
    assert not errors.errors
    page.context.close()
