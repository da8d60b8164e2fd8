"""Helpers for the big-screen browser tests: open the page, record its frames, seat socket phones, check its
layout (the checks themselves live in tests/browser/screen_checks.py and are re-exported here)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from quatro_party.server.testing import LiveServer

from ..timeouts import limit
from .pictures import snap
from .screen_checks import (
    ATTRACT_CHECK,
    CAPTION_LEAST,
    CHIP_LEAST,
    NAME_LEAST,
    SELF_CHECK,
    SIZES,
    STORY_CHECK,
    STORY_LEAST,
    TITLE_LEAST,
    at_rest,
    attract_check,
    self_check,
    settle,
    story_check,
)

__all__ = [
    "ATTRACT_CHECK",
    "CAPTION_LEAST",
    "CHIP_LEAST",
    "NAME_LEAST",
    "SELF_CHECK",
    "SIZES",
    "STORY_CHECK",
    "STORY_LEAST",
    "TITLE_LEAST",
    "TV",
    "ScreenPage",
    "all_keys",
    "assert_names_readable",
    "join",
    "open_screen",
    "to_play",
    "at_rest",
    "attract_check",
    "recorded_marks",
    "self_check",
    "settle",
    "story_check",
    "story_marks",
    "without_sign_list",
]

TV = {"width": 1920, "height": 1080}


class ScreenPage:
    """The big screen in a real Chromium page, with every WebSocket frame it received and every page error."""

    def __init__(self, context: Any, url: str) -> None:
        self.page: Page = context.new_page()
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._on_socket)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)

    def _on_socket(self, ws: Any) -> None:
        ws.on(
            "framereceived",
            lambda payload: self.frames.append(
                payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
            ),
        )

    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(f) for f in list(self.frames)]

    def wait_phase(self, phase: str, timeout: float = 10.0) -> None:
        """Until the page shows ``phase``, at most ``timeout`` seconds (× ``QUATRO_TEST_TIMEOUT_FACTOR``)."""
        self.wait(f"document.body.dataset.phase === {json.dumps(phase)}", timeout)

    def wait(self, js: str, timeout: float = 10.0) -> None:
        """Until ``js`` is truthy in the page, at most ``timeout`` seconds (× ``QUATRO_TEST_TIMEOUT_FACTOR``)."""
        self.page.wait_for_function(js, timeout=limit(timeout) * 1000)

    def at_rest(self, at_most: float) -> None:
        """Until what moves on the page now (an entrance, a burst, a flying card) has ended, at most ``at_most``
        seconds: a picture or a layout check as soon as the page is still, never later than a pause of
        ``at_most`` (the lobby's attract loop, which never rests, aside)."""
        at_rest(self.page, at_most)

    def view(self) -> dict[str, Any]:
        return self.page.evaluate("window.quatroScreen.view")

    def text(self, selector: str) -> str:
        return self.page.locator(selector).first.inner_text()

    def shot(self, folder: Path, phase: str) -> Path:
        path = folder / f"screen-{phase}.png"
        snap(self.page, path)
        return path

    def freeze_fx(self, at_ms: float = 450) -> None:
        """Hold every burst and flying card at ``at_ms`` into its animation, for a picture that does not
        depend on how fast a busy machine draws frames. :meth:`thaw_fx` lets them run on."""
        self.page.evaluate(
            """(t) => { for (const a of document.querySelector('#fx').getAnimations({subtree: true})) {
                   a.currentTime = t; a.pause(); } }""",
            at_ms,
        )

    def thaw_fx(self) -> None:
        self.page.evaluate(
            "() => { for (const a of document.querySelector('#fx').getAnimations({subtree: true})) a.play(); }"
        )

    def assert_fits(self) -> None:
        """Nothing important leaves the 1920×1080 viewport, and no name or sentence is cut off."""
        problems = self.page.evaluate(
            """() => {
              const out = [];
              const W = innerWidth, H = innerHeight;
              if (document.documentElement.scrollWidth > W || document.documentElement.scrollHeight > H)
                out.push('page scrolls: ' + document.documentElement.scrollWidth + 'x' + document.documentElement.scrollHeight);
              const sel = '#bar > *, .score, .seat, #places .card, .sentence, .notice:not([hidden]), #join-url, #qr, ' +
                          '#host-bar button, #start-slot button, .pause-row, .sign-row, .howto, #over';
              for (const e of document.querySelectorAll(sel)) {
                const r = e.getBoundingClientRect();
                if (!r.width || !r.height) continue;
                if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
                  out.push('outside: ' + (e.id || e.className) + ' ' + JSON.stringify([r.left, r.top, r.right, r.bottom]));
              }
              for (const e of document.querySelectorAll('.seat .name, .score .tname, .sentence, #join-url, button')) {
                if (e.scrollWidth > e.clientWidth + 1) out.push('cut: ' + e.textContent);
              }
              for (const e of document.querySelectorAll('.seat .name')) {  // a name on two lines: not a third
                if (e.scrollHeight > e.clientHeight + 1) out.push('cut (lines): ' + e.textContent);
              }
              return out;
            }"""
        )
        assert problems == [], problems
        clash = self.overlaps(
            "#centre .sentence, #places, .pause-row > *, .sign-row > *, .sign-title, .sign-sub, "
            ".howto, .notice:not([hidden])",
            ".seat, .seat .sign-badge, .seat .caller-badge",
        )
        assert clash == [], clash
        lines = self.page.evaluate("document.querySelector('#round').getBoundingClientRect().height")
        assert lines < 50, "the round number wraps"

    def name_chars_shown(self) -> dict[str, int]:
        """For each seat plate, its name and how many of its characters are drawn inside the name's box (an
        ellipsis hides the characters it covers; a clamped second line hides the rest)."""
        pairs = self.page.evaluate(
            """() => [...document.querySelectorAll('.seat .name')].map((e) => {
              const box = e.getBoundingClientRect();
              const ellipsis = e.scrollWidth > e.clientWidth + 1 ? parseFloat(getComputedStyle(e).fontSize) : 0;
              const text = e.firstChild;
              let shown = 0;
              if (text && text.nodeType === Node.TEXT_NODE) {
                const r = document.createRange();
                for (let i = 0; i < text.length; i++) {
                  r.setStart(text, i); r.setEnd(text, i + 1);
                  const q = r.getBoundingClientRect();
                  if (q.width && q.left >= box.left - 1 && q.right <= box.right - ellipsis + 1 &&
                      q.top >= box.top - 1 && q.bottom <= box.bottom + 1) shown++;
                }
              }
              return [e.textContent, shown];
            })"""
        )
        return {name: shown for name, shown in pairs}

    def text_colour(self, selector: str, needle: str) -> str:
        """The computed colour of the element that draws ``needle`` (the first text node holding it) in
        ``selector``."""
        return self.page.evaluate(
            """([sel, needle]) => {
              const root = document.querySelector(sel);
              const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
              for (let n = walk.nextNode(); n; n = walk.nextNode())
                if (n.data.includes(needle)) return getComputedStyle(n.parentElement).color;
              return null;
            }""",
            [selector, needle],
        )

    def overlaps(self, a: str, b: str) -> list[tuple[str, str]]:
        """Pairs of elements matching ``a`` and ``b`` whose boxes overlap (for layout checks)."""
        return self.page.evaluate(
            """([a, b]) => {
              const out = [];
              for (const x of document.querySelectorAll(a)) for (const y of document.querySelectorAll(b)) {
                if (x === y || x.contains(y) || y.contains(x)) continue;
                const p = x.getBoundingClientRect(), q = y.getBoundingClientRect();
                if (p.left < q.right - 2 && q.left < p.right - 2 && p.top < q.bottom - 2 && q.top < p.bottom - 2)
                  out.push([x.className + ' ' + x.textContent.slice(0, 30), y.className + ' ' + y.textContent.slice(0, 30)]);
              }
              return out;
            }""",
            [a, b],
        )


def open_screen(context: Any, server: LiveServer, host: bool = True) -> ScreenPage:
    """The big screen of ``server`` in a new page of ``context`` (the host's, unless ``host`` is False), drawn."""
    screen = ScreenPage(context, server.screen_url(host=host))
    screen.wait("document.body.dataset.phase && document.body.dataset.phase !== 'loading'")
    return screen


def join(server: LiveServer, seat: int, name: str) -> Any:
    """A socket phone seated at ``seat`` under ``name``."""
    phone = server.phone()
    phone.join(seat, name)
    return phone


def to_play(phones: list[Any]) -> dict[str, Any]:
    """Every socket phone says ready in the sign phase; the first one's view once play is on."""
    for p in phones:
        p.wait_state(lambda v: v["phase"] == "sign")
        assert p.act("ready")["type"] == "ok"
    return phones[0].wait_state(lambda v: v["phase"] == "play")


def all_keys(obj: Any) -> set[str]:
    """Every key of every object nested in ``obj``."""
    if isinstance(obj, dict):
        return set(obj) | set().union(*(all_keys(v) for v in obj.values()))
    if isinstance(obj, list):
        return set().union(*(all_keys(v) for v in obj))
    return set()


def assert_names_readable(screen: ScreenPage) -> None:
    """Every seat's name is shown whole, or at least 14 of its characters: people find their plate by it."""
    shown = screen.name_chars_shown()
    short = {name: n for name, n in shown.items() if n < min(len(name), 14)}
    assert short == {}, f"names cut on their plates (characters shown): {short}"
    hidden = screen.overlaps(".seat .name", ".seat .sign-badge, .seat .caller-badge")
    assert hidden == [], f"names under a badge: {hidden}"


def without_sign_list(raw: str) -> str:
    """A frame's text without the view's public list of the 24 emojis (R8), which names every sign."""
    msg = json.loads(raw)
    if isinstance(msg.get("view"), dict):
        assert len(msg["view"].pop("signs", [])) in (0, 24)
    return json.dumps(msg, ensure_ascii=False)


def story_marks(page: Page) -> list[list[Any]]:
    """The round's story as the TV draws it: ``[seat, kind, t, sign]`` for each mark, row by row."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.story-row')].flatMap((row) =>
             [...row.querySelectorAll('.story-mark')].map((m) =>
               [+row.dataset.seat, m.dataset.kind, +m.dataset.t, m.dataset.sign || null]))"""
    )


def recorded_marks(story: list[dict[str, Any]]) -> list[list[Any]]:
    """The same shape from the story the server recorded (``result.story.events``): what the TV must draw."""
    return [
        [e["seat"], e["kind"], e["t"], None if e["kind"] != "emit" else ("true" if e["sign"] else "false")]
        for e in story
    ]
