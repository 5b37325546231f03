"""Helpers for the browser tests: a real `rummykit serve` process on a temporary SQLite
file, Debian's Chromium driven by Playwright, and moves made by clicking the page.

The tests never download a browser: they launch /usr/bin/chromium (Debian's package)
and skip with the reason when it is missing — except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots.greedy import GreedyBot
from rummykit.engine.actions import Meld, parse_action
from rummykit.engine.game import Phase
from rummykit.engine.view import FormationView, SeatView
from rummykit.model.melds import HIGH_ACE
from rummykit.model.pieces import Face
from rummykit.rules.variant import find_variant

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
STATIC = Path(__file__).resolve().parent.parent / "src" / "rummykit" / "server" / "static"


def require_browser() -> None:
    """Skip (fail in CI) unless Chromium, Playwright and the server extra are here."""
    problems = []
    if not CHROMIUM.is_file():
        problems.append(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    for module, extra in (("playwright", "test"), ("fastapi", "server"), ("uvicorn", "server")):
        try:
            __import__(module)
        except ImportError:
            problems.append(f"the Python package {module!r} is missing (the {extra!r} extra)")
    if not problems:
        return
    reason = "browser tests need " + "; ".join(problems)
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the browser tests: {reason}")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def live_server(tmp: Path, *, grace: float = 60.0) -> Iterator[str]:
    """`rummykit serve` on a free port and an SQLite file in ``tmp``; yields its URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [
        sys.executable,
        "-c",
        "from rummykit.cli.main import main; main()",
        "serve",
        "--port",
        str(port),
        "--database-url",
        f"sqlite:///{tmp}/browser.db",
        "--bot-delay",
        "0",
        "--grace",
        str(grace),
    ]
    log = (tmp / "server.log").open("w")
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/variants", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                raise RuntimeError(f"the server did not start: {(tmp / 'server.log').read_text()}")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


def catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads(
        (STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8")
    )
    return data


class PageErrors:
    """Collects uncaught page errors and console errors of a page."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on(
            "console",
            lambda msg: (
                self.errors.append(f"console: {msg.text}")
                if msg.type in ("error", "warning")
                and "favicon" not in msg.text
                # A 404 for /favicon.ico is the browser's own request.
                and "404" not in msg.text
                else None
            ),
        )


# ---------------------------------------------------------------- the lobby


def open_lobby(page: Any, url: str) -> None:
    """Open the lobby and wait until its script has wired the forms (``body[data-ready]``):
    a submit before that is the browser's own form submission, a page load."""
    page.goto(f"{url}/")
    page.wait_for_selector("body[data-ready]", state="attached")


def create_table(
    page: Any,
    url: str,
    *,
    variant: str,
    name: str,
    seats: list[str],
    options: dict[str, str] | None = None,
) -> str:
    """Create a table through the lobby form; ``seats`` are the choices for seats 2..n
    ("open", "bot:greedy", ...).  Returns the table code (the page is then at the table)."""
    open_lobby(page, url)
    page.wait_for_selector(f'#variant option[value="{variant}"]', state="attached")
    page.fill("#name", name)
    page.select_option("#variant", variant)
    page.fill("#players", str(len(seats) + 1))
    page.dispatch_event("#players", "change")
    for i, choice in enumerate(seats, start=1):
        page.select_option(f'#seat-config select[data-seat="{i}"]', choice)
    if options:
        page.click("#options-box summary")
        for option, value in options.items():
            field = page.locator(f'#options [data-option="{option}"]:not(tr)')
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
            field.dispatch_event("change")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    return str(page.url.rsplit("/", 1)[1])


def join_table(page: Any, url: str, code: str, name: str) -> None:
    """Look a table up by its code in the lobby and sit down."""
    open_lobby(page, url)
    page.fill("#name", name)
    page.fill("#join-code", code)
    page.click("#join button[type=submit]")
    page.click("#join-preview .join-button")
    page.wait_for_url(f"**/t/{code}")


# ---------------------------------------------------------------- the table


SNAPSHOT = """() => {
  const s = window.rummykitTable;
  return {seat: s.seat, view: s.view, legal: s.legal, eventId: s.eventId,
          order: s.order, connected: s.connected, hands: s.hands || null};
}"""


def snapshot(page: Any) -> dict[str, Any]:
    """What the page knows: its seat, the view, the legal list, the last event id."""
    data: dict[str, Any] = page.evaluate(SNAPSHOT)
    return data


def wait_for_state(page: Any, after: int = -1) -> dict[str, Any]:
    """Wait until the page has a state newer than event ``after``; return the snapshot."""
    page.wait_for_function(
        "after => window.rummykitTable.view !== null && window.rummykitTable.eventId > after",
        arg=after,
    )
    return snapshot(page)


def _positions(kind: str, faces: list[Face], declared: list[Face | None]) -> tuple[int, ...]:
    ranks = [(d or f).rank for f, d in zip(faces, declared, strict=True)]
    if kind != "run":
        return tuple(ranks)
    out: list[int] = []
    for rank in ranks:
        out.append(HIGH_ACE if rank == 1 and out and out[-1] == 13 else rank)
    return tuple(out)


def view_from_json(data: dict[str, Any]) -> SeatView:
    """The SeatView a state frame's ``view`` was made from (as far as a bot needs it)."""
    material = find_variant(data["variant"]).material
    table = []
    for f in data["table"]:
        meld = parse_action(f"meld {f['notation']}", material)
        assert isinstance(meld, Meld)
        laid, declared = list(meld.faces), list(meld.declared)
        table.append(
            FormationView(
                f["id"],
                f["owner"],
                f["kind"],
                f["notation"],
                tuple(laid),
                _positions(f["kind"], laid, declared),
            )
        )

    def faces(items: list[str]) -> tuple[Face, ...]:
        return tuple(Face.parse(x, material) for x in items)

    return SeatView(
        variant=data["variant"],
        options=find_variant(data["variant"]).resolve(data["players"], data["options"]),
        players=data["players"],
        seat=data["seat"],
        phase=Phase(data["phase"]),
        deal_number=data["deal_number"],
        round=data["round"],
        maker=data["maker"],
        first_seat=data["first_seat"],
        to_move=data["to_move"],
        rack=faces(data["rack"]),
        rack_sizes=tuple(data["rack_sizes"]),
        table=tuple(table),
        column=faces(data["column"]),
        stock_count=data["stock_count"],
        indicator=None if data["indicator"] is None else Face.parse(data["indicator"]),
        indicator_in_stock=data["indicator_in_stock"],
        double_game=data["double_game"],
        opened=tuple(data["opened"]),
        board=tuple(data["board"]),
        announced_three=tuple(data["announced_three"]),
        atu=tuple(data["atu"]),
        doubles_announced=tuple(tuple(d) for d in data["doubles_announced"]),
        swap_offer=data["swap_offer"],
        turns_taken=tuple(data["turns_taken"]),
        totals=tuple(data["totals"]),
        results=(),
        must_use=faces(data["must_use"]),
        pending_jokers=data["pending_jokers"],
        laid_points=data["laid_points"],
        history=tuple((s, a) for s, a in data["history"]),
    )


def choose(bot: GreedyBot, state: dict[str, Any], rng: random.Random) -> str:
    """The greedy bot's move from the page's own view and legal list, as notation."""
    seen = view_from_json(state["view"])
    material = find_variant(seen.variant).material
    legal = [parse_action(text, material) for text in state["legal"]]
    return str(bot.choose(seen, legal, rng))


def _bare(token: str) -> str:
    return token.split("(", 1)[0]


def _press(page: Any, selector: str | Any, touch: bool) -> None:
    """Click ``selector`` (a CSS selector or a locator), or tap it on a touch screen."""
    target = page.locator(selector) if isinstance(selector, str) else selector
    if touch:
        target.tap()
    else:
        target.click()


def _select(page: Any, faces: list[str], touch: bool = False) -> None:
    """Select rack pieces showing ``faces`` by clicking them (one click per copy)."""
    _press(page, "#btn-clear", touch)
    for face in faces:
        piece = page.locator(f'#rack .rack-piece[data-face="{face}"]:not(.selected)').first
        _press(page, piece, touch)


def _pick(page: Any, action: str, touch: bool = False) -> None:
    """After a click that may open the move chooser: pick ``action`` there."""
    chooser = page.locator("#chooser")
    if chooser.is_visible():
        _press(page, f'#chooser-list button[data-action="{action}"]', touch)


def perform(page: Any, action: str, touch: bool = False) -> None:
    """Make ``action`` (engine notation) by clicking the table like a player would, or
    by tapping it (``touch``: a context with a touch screen)."""
    verb, _, rest = action.partition(" ")
    if verb == "draw":
        _press(page, "#stock", touch)
    elif verb == "take":
        _press(page, f'#column .column-piece[data-index="{int(rest)}"]', touch)
    elif verb == "meld":
        _select(page, [_bare(t) for t in rest.strip("[]").split()], touch)
        # The selection makes a legal formation: the button says so.
        assert page.locator("#btn-meld.legal").count() == 1, action
        _press(page, "#btn-meld", touch)
        _pick(page, action, touch)
    elif verb in ("attach", "exchange"):
        pieces, _, target = rest.partition("->")
        _select(page, [_bare(t) for t in pieces.split()], touch)
        formation = page.locator(f'#formations .formation[data-id="{target.strip()[1:]}"]')
        # The formation the selection may go to is highlighted.
        assert "target" in (formation.get_attribute("class") or ""), action
        _press(page, formation, touch)
        _pick(page, action, touch)
    elif verb == "discard":
        _select(page, [rest], touch)
        _press(page, "#btn-discard", touch)
    elif verb == "next":
        _press(page, "#btn-next", touch)
    else:
        _press(page, f'#extra-actions button[data-action="{action}"]', touch)
    # A move with a penalty at stake (board play, a call, a discard leaving 1-3 tiles
    # unannounced) asks first; the player meant it.
    if page.locator("#warning").is_visible():
        _press(page, "#warning-confirm", touch)


def public_faces(view: dict[str, Any]) -> list[str]:
    """Every face a view shows face up to all: formations, the discard pile, the indicator."""
    out = [_bare(t) for f in view["table"] for t in f["notation"].strip("[]").split()]
    out += view["column"]
    if view["indicator"] is not None:
        out.append(view["indicator"])
    return sorted(out)


SHOWN_FACES = """[...document.querySelectorAll('.piece[data-face]')]
    .filter(e => !e.closest('#summary') && !e.closest('[hidden]'))
    .map(e => e.dataset.face)"""
"""JavaScript: the faces shown face up in the page (outside the end-of-deal summary)."""


def play_humans(
    pages: list[Any],
    *,
    max_actions: int = 600,
    on_action: Any = None,
    seed: int = 1,
    touch: bool = False,
    until: Any = None,
) -> int:
    """Play the humans' moves through the UI (the greedy bot picks each from the page's
    own view) until the match ends (or ``until(made)`` is true); return how many moves
    were made.  ``touch``: tap instead of clicking."""
    bots = [GreedyBot() for _ in pages]
    rng = random.Random(seed)
    made = 0
    idle_since = time.monotonic()
    while made < max_actions:
        moved = False
        for page, bot in zip(pages, bots, strict=True):
            state = snapshot(page)
            if state["view"] is None:
                continue
            if state["view"]["phase"] == "match_end" or (until is not None and until(made)):
                return made
            if not state["legal"]:
                continue
            action = choose(bot, state, rng)
            perform(page, action, touch)
            try:
                page.wait_for_function(
                    "after => window.rummykitTable.eventId > after"
                    " || !document.getElementById('message').hidden",
                    arg=state["eventId"],
                    timeout=10_000,
                )
            except Exception:
                raise AssertionError(f"no answer to {action!r} ({state['legal']})") from None
            message = page.locator("#message")
            if message.is_visible() and message.inner_text().strip():
                raise AssertionError(f"{action!r} was refused: {message.inner_text()}")
            made += 1
            moved = True
            if on_action is not None:
                on_action(page, action)
        if moved:
            idle_since = time.monotonic()
        else:
            if time.monotonic() - idle_since > 20:
                stuck = [
                    {
                        k: v
                        for k, v in snapshot(p)["view"].items()
                        if k not in ("options", "results")
                    }
                    | {"legal": snapshot(p)["legal"]}
                    for p in pages
                ]
                raise AssertionError(f"nobody moved for 20 s: {stuck}")
            pages[0].wait_for_timeout(30)
    raise AssertionError(f"the match did not end within {max_actions} human moves")


def play_until_draw(page: Any) -> dict[str, Any]:
    """Tap through to this seat's first draw (announcements: ``ready``; a discard-only
    first turn: the first legal discard); the snapshot where it may draw."""
    for _ in range(20):
        state = snapshot(page)
        if "draw" in state["legal"]:
            return state
        if state["legal"]:
            action = "ready" if "ready" in state["legal"] else None
            action = action or next(a for a in state["legal"] if a.startswith("discard"))
            perform(page, action, touch=True)
        page.wait_for_function(
            "after => window.rummykitTable.eventId > after", arg=state["eventId"]
        )
    return snapshot(page)
