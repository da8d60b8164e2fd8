"""Choosing a language: every catalog present is in every picker; a phone follows the table's language (the host's
pick) until its player picks one; the TV's top bar, on the host's screen, sets the table's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import phone_url
from .i18n_helpers import LANGUAGES
from .phone_helpers import join_on_page


def options(page, selector: str = "#lang") -> list[str]:
    return page.locator(f"{selector} option").evaluate_all("os => os.map((o) => o.value)")


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_a_phone_follows_the_tables_language_until_its_player_picks_one(live_server, phone_context, tv_context):
    tv = tv_context.new_page()
    tv.goto(live_server.screen_url(host=True))
    tv.wait_for_function("document.body.dataset.phase === 'lobby'")
    page, errors = join_on_page(phone_context, phone_url(live_server.port), 0, "Ana")
    expect(page.locator("html")).to_have_attribute("lang", "en")  # an English browser, no table language yet
    assert options(page) == LANGUAGES and options(tv) == LANGUAGES
    expect(page.locator(".top .lang-code")).to_have_text("EN")

    # The host picks French on the TV's top bar: the table's language, which the phone follows.
    tv.select_option("#lang", "fr")
    expect(tv.locator("#join-title")).to_have_text("Scannez pour jouer")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#screen-wait")).to_contain_text("Tu es assis·e")
    assert live_server.screen().state["table"]["settings"]["language"] == "fr"

    # Its player picks English: the phone keeps it, whatever the table's language becomes, even after a reload.
    page.select_option("#lang", "en")
    expect(page.locator("#screen-wait")).to_contain_text("You are seated")
    tv.select_option("#lang", "en")
    tv.select_option("#lang", "fr")
    expect(tv.locator("#join-title")).to_have_text("Scannez pour jouer")
    page.reload()
    expect(page.locator("#screen-wait")).to_contain_text("You are seated")
    expect(page.locator("html")).to_have_attribute("lang", "en")

    # A phone that never picked opens in the table's language.
    other = phone_context.browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        fresh = other.new_page()
        fresh.goto(phone_url(live_server.port))
        expect(fresh.locator("#pick-seat-title")).to_have_text("Prends une place")
    finally:
        other.close()
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_the_help_sheet_and_the_rules_page_list_every_language(live_server, phone_context):
    page, errors = join_on_page(phone_context, phone_url(live_server.port), 0, "Ana")
    page.locator("#help").tap()
    expect(page.locator("#help-lang")).to_be_visible()
    assert options(page, "#help-lang") == LANGUAGES
    page.select_option("#help-lang", "fr")
    expect(page.locator("#help-title")).to_have_text("Aide")  # the sheet, redrawn in French
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    box = page.locator(".help-actions").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box  # nothing sticks out at the side

    rules = phone_context.new_page()
    rules.goto(phone_url(live_server.port, "/rules?lang=en"))
    links = rules.locator("nav.langs a.lang-switch")
    expect(links).to_have_count(len(LANGUAGES) - 1)
    assert sorted(links.evaluate_all("as => as.map((a) => a.hreflang)")) == [x for x in LANGUAGES if x != "en"]
    assert rules.title() == "Quatro Party — how to play"
    with rules.expect_navigation():
        rules.click('a.lang-switch[hreflang="fr"]')
    expect(rules.locator('article[lang="fr"]')).to_be_visible()
    assert rules.title() == "Quatro Party — comment jouer"
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_the_phones_language_picker_has_a_name_before_its_module_comes(live_server, phone_context):
    """The picker's module is loaded after the page (rarely used): held back here, as on a slow network, the select is
    already named for a screen reader (the top bar is reachable as soon as the join screen shows)."""
    held: list = []
    page = phone_context.new_page()
    page.route("**/common/lang-picker.js", lambda route: held.append(route))
    page.goto(phone_url(live_server.port))
    expect(page.locator("#screen-join")).to_be_visible()
    page.wait_for_function("() => document.querySelector('#lang').hasAttribute('aria-label')")
    assert held, "the picker's module was asked for"
    expect(page.locator("#lang")).to_have_accessible_name("Language")
    assert options(page) == []  # still waiting for its module
    held[0].continue_()
    expect(page.locator("#lang option")).to_have_count(len(LANGUAGES))
    expect(page.locator("#lang")).to_have_accessible_name("Language")
