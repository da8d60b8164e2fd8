"""The pages compute no rule: every duration comes from the view (``timing``, and seconds remaining), so a host's
``--time-scale`` or relaxed timers change every clock, countdown and sentence with the rules. Two checks:

* a grep of ``web/`` finds no rule duration (quatro_party/engine/rules.py's ``Timing`` defaults) written as a number
  a script compares a time with, as milliseconds, as ``3:00``, or as a duration in a text ("every 5 s");
* under ``--time-scale 0.1`` the phone's clock turns to its warning colour at the same remaining share of the
  round as the TV's (a browser test, both pages on one table).

A number that merely equals a rule duration but is none (a reconnection backoff) carries the comment
``not a rule duration`` on its line, so the exception is visible where it is made.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from quatro_party.engine.rules import Timing

from ..timeouts import limit_ms
from .phone_helpers import everybody_ready, game_with_page

WEB = Path(__file__).resolve().parents[2] / "web"
SECONDS = sorted({int(v) if float(v).is_integer() else v for v in dataclasses.asdict(Timing()).values()})
TIME_WORDS = r"(?:(?:clock|left|wait|secs?|remaining|cooldown|vote|round|pause|period|ends?)\w*|s)\b"


def _code(text: str) -> str:
    """JavaScript without its comments (line and block), keeping the lines (for line numbers)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return "\n".join(re.sub(r"(^|[^:'\"`])//.*$", r"\1", line) for line in text.split("\n"))


def _strings(code: str) -> list[str]:
    return re.findall(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`(?:[^`\\]|\\.)*`", code)


def rule_numbers(path: Path) -> list[str]:
    """Every place in one page file that writes a rule duration instead of reading it from the view."""
    found = []
    raw = path.read_text()
    lines = raw.split("\n")
    if path.suffix == ".css":
        return []  # animation and transition times are the look, not the rules
    if path.suffix == ".html" and path.name.startswith("rules"):
        return []  # the players' rules, one page per language: they state the defaults on purpose
    code = _code(raw) if path.suffix == ".js" else raw
    secs = "|".join(re.escape(str(s)) for s in SECONDS)
    # As milliseconds: the long rule durations only (a vote, a pause, a round); 2 s and 5 s are also the length of
    # a notice or a bubble on screen, which are the look, not the rules (their comparisons are caught above).
    millis = "|".join(str(int(float(s) * 1000)) for s in SECONDS if float(s) >= 20)
    for no, line in enumerate(code.split("\n"), start=1):
        if "not a rule duration" in lines[no - 1]:
            continue
        where = f"{path.relative_to(WEB)}:{no}: {lines[no - 1].strip()}"
        if path.suffix == ".js":
            # a time compared with, or computed from, a rule's number of seconds
            if re.search(
                rf"\b{TIME_WORDS}\s*(?:<=?|>=?|===?|!==?|\*|/|-|\+|\?\?|\|\|)\s*\(?\s*(?:{secs})\b(?!\.\d|px|%)",
                line,
                re.I,
            ):
                found.append(where)
            elif re.search(rf"(?<![\w.])(?:{secs})\s*(?:<=?|>=?|===?)\s*{TIME_WORDS}", line, re.I):
                found.append(where)
            elif re.search(rf"(?<![\w.])(?:{millis}|180)(?![\w.])", line):
                found.append(where)
        texts = _strings(line) if path.suffix == ".js" else [re.sub(r"<[^>]+>", " ", line)]
        for s in texts:
            if re.search(r"by default|par défaut", s):
                continue  # a sentence about the rules' defaults (the rules page) says them on purpose
            if re.search(rf"(?<![\w.{{])(?:{secs})\s?(?:s|sec|secs|seconds?|secondes?)\b|\b3:00\b|\b3 min", s):
                found.append(f"{where}  (text: {s})")
    return found


def test_no_rule_duration_is_written_in_the_pages():
    files = sorted(p for p in WEB.rglob("*") if p.suffix in (".js", ".html", ".css"))
    assert any(p.name == "phone.js" for p in files) and any(p.name == "screen.js" for p in files)
    found = [hit for p in files for hit in rule_numbers(p)]
    assert not found, "rule durations written in web/ (read them from the view's timing):\n" + "\n".join(found)


def test_the_grep_finds_what_it_looks_for(tmp_path):
    """The check above can fail: each way of writing a rule number is caught, the view's own values are not."""
    page = tmp_path / "web" / "x.js"
    page.parent.mkdir()
    caught = {
        "el.classList.toggle('late', s <= 30);": True,
        "const warnAt = (view.timing.round_length || 180) / 6;": True,
        "setTimeout(next, 20000);": True,
        "if (secondsLeft < 20) beep();": True,
        "const t = { choose: 'Choose what it shows every 5 s' };": True,
        "const t = { choose: 'Choose what it shows every {s} s' };": False,
        "el.classList.toggle('late', s <= warningAt(view.timing));": False,
        "ring.style.width = '30px';": False,
        "const cap = Math.min(5000, delay); // not a rule duration: the reconnection backoff": False,
    }
    for line, bad in caught.items():
        page.write_text(line + "\n")
        global WEB
        saved, WEB = WEB, page.parent
        try:
            assert bool(rule_numbers(page)) is bad, line
        finally:
            WEB = saved


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=0.1)
def test_the_phone_clock_warns_at_the_same_share_of_the_round_as_the_tv(live_server, phone_context, tv_context):
    """At --time-scale 0.1 a round lasts 18 s: the phone is not amber throughout (it used a fixed 30 s), it turns
    amber when the TV does, at the same remaining share of the view's round length."""
    tv = tv_context.new_page()
    tv.goto(live_server.screen_url())
    page, errors, others, _ = game_with_page(live_server, phone_context)
    everybody_ready(page, others)
    length = live_server.summary()["view"]["timing"]["round_length"]
    assert length == pytest.approx(18.0)
    clock = page.locator("#clock")
    expect(clock).to_be_visible()
    expect(clock).not_to_have_class(re.compile(r"\blate\b"))  # 18 s left of 18: not the warning yet
    page_warn = page.wait_for_function(
        """() => { const c = document.querySelector('#clock'); return c.classList.contains('late') && c.textContent; }""",
        timeout=limit_ms(20),
    ).json_value()
    tv_warn = tv.wait_for_function(
        """() => { const b = document.querySelector('#clock-box'); return b.classList.contains('amber') && document.querySelector('#clock').textContent; }""",
        timeout=limit_ms(5),
    ).json_value()
    share = 1 / 6  # the design's warning: the last sixth of the round (web/common/clock.js), on both pages

    def secs(text: str) -> int:
        m, s = text.split(":")
        return int(m) * 60 + int(s)

    for shown in (secs(page_warn), secs(tv_warn)):
        assert shown <= math_ceil(length * share), (page_warn, tv_warn)
        assert shown >= math_ceil(length * share) - 1, (page_warn, tv_warn)
    assert errors == []


def math_ceil(x: float) -> int:
    import math

    return math.ceil(x - 1e-9)
