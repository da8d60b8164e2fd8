"""Game over on the TV: the winners, the final scores and a new game; two teams winning together; every hand in
sight at eight seats.

Screenshots at 1920×1080: ``screenshots/screen-over*.png``.
Rules cited: R22 (a false Quatro!), R26 (reveal), R34–R35 (winners).
"""

from __future__ import annotations

import pytest

from quatro_party.server.botstub import StubBot

from .screen_helpers import (
    join,
    open_screen,
    to_play,
)

PUBLIC = "party.test"


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_level="easy")
def test_game_over_winners_final_scores_and_new_game(live_server, tv_context, screenshot_dir):
    """R34: five rounds of a wrong Contre! by Bruno give Blue its 5 points; then a new game (host)."""
    ana = join(live_server, 0, "Ana")
    bruno = join(live_server, 1, "Bruno")
    screen = open_screen(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    for rnd in range(1, 13):  # a bot may call first now and then; Blue still gets there
        for p in (ana, bruno):
            p.wait_state(lambda v: v["phase"] == "sign" and v["round"] == rnd)
            p.act("ready")
        bruno.wait_state(lambda v: v["round"] == rnd and v["phase"] in ("play", "pause", "over"))
        bruno.act("call_contre", team=0)  # refused if a bot called first: fine
        v = ana.wait_state(lambda v: v["phase"] in ("pause", "over") and v["round"] == rnd)
        if v["phase"] == "over":
            break
        screen.wait(f"document.body.dataset.phase === 'pause' && window.quatroScreen.view.round === {rnd}")
        page.click(".next-round")
    screen.wait_phase("over")
    winners = screen.view()["winners"]
    assert winners, "the game ended with winners"
    names = {0: "Blue", 1: "Orange"}
    title = screen.text(".over-winners")
    assert title.endswith("wins!") and names[winners[0]] in title
    rows = page.locator(".final")
    assert rows.count() == 2
    assert page.locator(".final.winner .points").first.inner_text() == "5"
    screen.at_rest(1.0)
    screen.assert_fits()
    screen.shot(screenshot_dir, "over")
    page.click("#over .new-game")
    screen.wait_phase("lobby")
    assert page.locator(".score .points").all_inner_texts() == ["0", "0"]
    assert screen.errors == []


@pytest.mark.live_server(seats=6, public_host=PUBLIC)
def test_two_teams_win_together_after_false_quatros(live_server, tv_context, screenshot_dir):
    """R22, R35: at 6 seats a false Quatro! gives a point to both other teams; five of them → two winners."""
    names = ["Ana", "Bruno", "Chloé", "Dan", "Eve", "Farid"]
    phones = [join(live_server, s, n) for s, n in enumerate(names)]
    screen = open_screen(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    for rnd in range(1, 6):
        for p in phones:
            p.wait_state(lambda v: v["phase"] == "sign" and v["round"] == rnd)
            p.act("ready")
        phones[0].wait_state(lambda v: v["phase"] == "play" and v["round"] == rnd)
        assert phones[0].act("call_quatro")["type"] == "ok"  # Dan (seat 3) holds no carré: nobody swapped
        v = phones[0].wait_state(lambda v: v["phase"] in ("pause", "over") and v["round"] == rnd)
        if rnd == 1:
            screen.wait_phase("pause")
            assert screen.text(".sentence") == (
                "Ana called Quatro! on Dan: no carré — team Orange\u00a0▲ and team Green\u00a0■ +1"
            )
        if v["phase"] == "over":
            break
        screen.wait(f"document.body.dataset.phase === 'pause' && window.quatroScreen.view.round === {rnd}")
        page.click(".next-round")
    screen.wait_phase("over")
    assert sorted(screen.view()["winners"]) == [1, 2]
    assert screen.text(".over-winners") == "Orange\u00a0▲ and Green\u00a0■ win together!"
    assert screen.text_colour(".over-winners", "▲") == "rgb(255, 175, 56)"
    assert screen.text_colour(".over-winners", "■") == "rgb(0, 255, 204)"
    assert page.locator(".final.winner").count() == 2
    assert page.locator(".score.winner").count() == 2
    screen.at_rest(1.0)
    screen.assert_fits()
    screen.shot(screenshot_dir, "over-together")
    assert screen.errors == []


@pytest.mark.live_server(seats=8, public_host=PUBLIC, bot_factory=StubBot)
def test_game_over_at_eight_seats_leaves_every_hand_visible(live_server, tv_context, screenshot_dir):
    """R26, R34: the game-over box sits between the plates: at 8 seats it used to cover half of them, the
    winning carré included. No plate (hand and all) may be under it."""
    zoe = join(live_server, 0, "Zoé")
    maxi = join(live_server, 4, "Maxime")
    screen = open_screen(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    to_play([zoe, maxi])
    table = live_server.table
    table.call(lambda: setattr(table.game.teams[0], "score", 4))  # Blue at 4: this round's call ends the game
    table.set_position("KKKQ QQJJ JJTT TT99 AAAA 9988 8877 7766 | 66KQ")
    assert zoe.act("call_quatro")["type"] == "ok"  # R22: her partner Maxime holds four aces
    screen.wait_phase("over")
    assert screen.view()["winners"] == [0]
    screen.at_rest(1.0)  # the box's entrance
    screen.assert_fits()
    screen.shot(screenshot_dir, "over-8")
    under = page.evaluate(
        """() => {
          const box = document.querySelector('#over').getBoundingClientRect();
          const out = [];
          for (const p of document.querySelectorAll('.seat')) {
            const r = p.getBoundingClientRect();
            if (r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top)
              out.push(p.querySelector('.name').textContent);
          }
          return out;
        }"""
    )
    assert under == [], f"plates under the game-over box: {under}"
    assert page.locator(".seat.carre .hand .card").count() == 4
    assert page.locator("#over .new-game").is_visible()
    assert screen.errors == []
