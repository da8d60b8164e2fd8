"""The host runs the evening: the lock, spectators, kick, a bot in a human's place and back, the VIP remote.

Real sockets on a real host; the rules' clocks are a :class:`FakeClock` the test moves, so a round waits in its
pause for as long as a test needs it to.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from quatro_party.engine.rules import SIGNS
from quatro_party.server.botstub import make_bot as make_stub
from quatro_party.server.table import Table
from quatro_party.server.testing import FakeClock, LiveServer, WsClient

#: Every host action added for the evening, with fields that pass the checks.
NEW_HOST_ACTIONS: list[tuple[str, dict[str, Any]]] = [
    ("kick", {"seat": 1}),
    ("replace_with_bot", {"seat": 1}),
    ("lock", {"locked": True}),
    ("vip_link", {}),
    ("revoke_vip", {}),
]


def _error(client: WsClient, msg: dict[str, Any]) -> dict[str, Any]:
    ref = client.send(msg)
    return client.expect(lambda m: m.get("id") == ref and m.get("type") in ("error", "refused", "ok", "joined"))


def _table(client: WsClient, pred: Any = lambda t: True) -> dict[str, Any]:
    """The ``table`` block of the newest state frame matching ``pred``."""
    client.wait_state(lambda v: True)
    while not pred(client.state["table"]):
        client.expect("state")
    return client.state["table"]


def _in_play(server: LiveServer, humans: int) -> tuple[WsClient, list[WsClient]]:
    """A host screen, ``humans`` phones on seats 0.., bots on the rest, the round in play."""
    screen = server.screen()
    phones = [server.phone() for _ in range(humans)]
    for seat, phone in enumerate(phones):
        phone.join(seat, f"P{seat}")
    assert screen.host("start_game")["type"] == "ok"
    for phone in phones:
        phone.wait_state(lambda v: v["phase"] == "sign")
        assert phone.act("ready")["type"] == "ok"
    for phone in phones:
        phone.wait_state(lambda v: v["phase"] == "play")
    return screen, phones


def _hand(server: LiveServer, seat: int) -> list[int]:
    return server.table.call(lambda: [c.id for c in server.table.game.seats[seat].hand])


def test_a_locked_table_lets_nobody_new_in_but_a_seat_comes_back_with_its_token(live_server):
    screen = live_server.screen()
    ana = live_server.phone()
    ana.join(0, "Ana")
    assert screen.host("lock", locked=True)["type"] == "ok"
    table = _table(screen, lambda t: t["locked"])
    assert table["offered"] == []
    bob = live_server.phone()
    assert _error(bob, {"type": "join", "seat": 1, "name": "Bob"})["code"] == "table_locked"
    assert _error(bob, {"type": "watch"})["code"] == "table_locked"
    again = live_server.phone(hello=False)
    assert again.hello(ana.token)["type"] == "joined"  # her own seat, with her token
    assert screen.host("lock", locked=False)["type"] == "ok"
    assert _table(screen, lambda t: not t["locked"])["offered"] == [1, 2, 3]
    assert bob.join(1, "Bob")["seat"] == 1


def test_a_spectator_sees_the_public_table_and_may_only_take_an_offered_seat(live_server_factory):
    clock = FakeClock()
    server = live_server_factory(clock=clock)
    screen, (ana,) = _in_play(server, 1)
    kim = server.phone()
    assert kim.act("watch")["type"] == "ok"
    view = kim.wait_state(lambda v: v.get("you", 0) is None)
    assert kim.state["table"]["role"] == "spectator" and kim.state["table"]["host"] is False
    assert view["phase"] == "play" and view["centre"]
    assert _table(screen, lambda t: t["watching"] == 1)["offered"] == []  # bot seats wait for the round's end
    assert kim.act("ready")["code"] == "not_seated"
    assert kim.act("swap", card=1, place=0, expected=2)["code"] == "not_seated"
    assert kim.act("lock", locked=True)["code"] == "not_host"
    assert _error(kim, {"type": "join", "seat": 1, "name": "Kim"})["code"] == "wrong_phase"  # mid-round
    assert ana.act("call_contre")["type"] == "ok"  # one call ends the round: the pause
    assert _table(screen, lambda t: t["offered"] == [1, 2, 3])["bots"] == {"1": "normal", "2": "normal", "3": "normal"}
    hand = _hand(server, 1)
    joined = kim.join(1, "Kim")  # R33: the newcomer takes the bot's hand and team over
    assert joined["seat"] == 1 and joined["name"] == "Kim"
    view = kim.wait_state(lambda v: (v.get("you") or {}).get("seat") == 1)
    assert view["you"]["team"] == 1 and kim.state["table"]["role"] == "player"
    assert _hand(server, 1) == hand and server.summary()["bots"] == {2: "normal", 3: "normal"}
    assert _table(screen, lambda t: t["watching"] == 0)["offered"] == [2, 3]


def test_a_spectator_can_stop_watching_and_a_closed_one_no_longer_counts(live_server):
    screen = live_server.screen()
    a, b = live_server.phone(), live_server.phone()
    assert a.act("watch")["type"] == "ok" and b.act("watch")["type"] == "ok"
    assert _table(screen, lambda t: t["watching"] == 2)
    assert a.act("leave")["type"] == "ok"
    assert _table(a, lambda t: t["role"] == "visitor")
    b.close()
    assert _table(screen, lambda t: t["watching"] == 0)


def test_kick_gives_the_seat_away_and_its_hand_waits_for_the_next_player(live_server_factory):
    server = live_server_factory(clock=FakeClock())
    screen, phones = _in_play(server, 4)
    hand = [c["id"] for c in phones[1].wait_state(lambda v: v["phase"] == "play")["you"]["hand"]]
    assert screen.host("kick", seat=1)["type"] == "ok"
    kicked = phones[1].expect("error")
    assert kicked["code"] == "kicked" and kicked["message"] == "the host gave your seat away"
    assert "you" not in phones[1].expect("state")["view"]
    table = _table(screen, lambda t: 1 in t["offered"])
    assert table["freed"] == [1]
    assert _error(phones[1], {"type": "hello", "token": phones[1].token})["code"] == "bad_token"
    newcomer = server.phone()
    assert newcomer.join(1, "Noa")["seat"] == 1
    assert [c["id"] for c in newcomer.wait_state(lambda v: "you" in v)["you"]["hand"]] == hand
    assert screen.host("kick", seat=3)["type"] == "ok"
    assert screen.host("kick", seat=3)["code"] == "not_held"  # nobody holds it any more


def test_replace_with_bot_keeps_the_hand_and_tells_the_phone(live_server_factory):
    server = live_server_factory(clock=FakeClock())
    screen, phones = _in_play(server, 4)
    hand = _hand(server, 2)
    assert screen.host("replace_with_bot", seat=2, level="easy")["type"] == "ok"
    told = phones[2].expect("error")
    assert told["code"] == "replaced_by_bot"
    table = _table(screen, lambda t: t["bots"] == {"2": "easy"})
    assert 2 not in table["offered"]  # mid-round: a bot's seat is offered between rounds only
    assert _hand(server, 2) == hand
    assert screen.wait_state(lambda v: v["seats"][2]["kind"] == "bot")["seats"][2]["name"].startswith("Bot ")
    assert screen.host("replace_with_bot", seat=2)["code"] == "seat_not_human"
    assert _error(phones[2], {"type": "hello", "token": phones[2].token})["code"] == "bad_token"


def test_the_vip_remote_holds_the_host_controls_until_revoked(live_server):
    screen = live_server.screen()
    watcher = live_server.screen(host=False)
    ana, bob = live_server.phone(), live_server.phone()
    ana.join(0, "Ana")
    bob.join(1, "Bob")
    ref = screen.send({"type": "vip_link"})
    link = screen.expect("vip_link")
    assert link["id"] == ref and screen.reply(ref)["type"] == "ok"
    url, secret = link["url"], link["url"].split("?vip=")[1]
    assert url == f"{live_server.join_url}?vip={secret}" and len(secret) >= 20

    remote = live_server.phone(hello=False)  # Ana's phone, opened at the VIP link: same seat, host rights
    remote.send({"type": "hello", "token": ana.token, "vip": secret})
    assert remote.expect("joined")["seat"] == 0
    assert _table(remote, lambda t: t["host"] is True)["role"] == "player"
    assert remote.act("lock", locked=True)["type"] == "ok"
    assert remote.act("host", action="lock", locked=False)["type"] == "ok"  # the envelope form, too
    assert remote.act("add_bot", seat=2, level="hard")["type"] == "ok"
    assert remote.wait_state(lambda v: v["seats"][2]["kind"] == "bot")["you"]["seat"] == 0  # still seated
    assert remote.act("vip_link")["code"] == "not_host"  # the link is handed out by the host's screen only
    assert bob.act("lock", locked=True)["code"] == "not_host"
    assert watcher.act("lock", locked=True)["code"] == "not_host"
    cy = live_server.phone()
    cy.join(3, "Cy")
    assert remote.act("replace_with_bot", seat=3)["type"] == "ok"
    assert cy.expect("error")["code"] == "replaced_by_bot"
    assert remote.act("kick", seat=1)["type"] == "ok"
    assert bob.expect("error")["code"] == "kicked"
    assert _table(screen, lambda t: t["offered"] == [1, 2, 3])["bots"] == {"2": "hard", "3": "normal"}

    assert screen.host("revoke_vip")["type"] == "ok"
    assert remote.act("lock", locked=True)["code"] == "not_host"  # at once
    assert _table(remote, lambda t: t["host"] is False)
    again = live_server.phone(hello=False)
    again.send({"type": "hello", "token": None, "vip": secret})
    assert again.expect("error")["code"] == "bad_vip"
    assert _table(again, lambda t: t["host"] is False)

    for client in (watcher, bob, cy, remote, again, ana):
        client.drain()
        assert not [f for f in client.frames if secret in f], "the VIP secret reached another socket"
    screen.drain()
    assert [json.loads(f)["type"] for f in screen.frames if secret in f] == ["vip_link"]


@pytest.mark.parametrize("action, fields", NEW_HOST_ACTIONS)
def test_new_host_actions_from_a_plain_phone_or_a_watching_screen_are_not_host(live_server, action, fields):
    screen = live_server.screen()
    watcher = live_server.screen(host=False)
    phone, spectator = live_server.phone(), live_server.phone()
    phone.join(1, "Pat")
    assert spectator.act("watch")["type"] == "ok"
    for client in (phone, spectator, watcher):
        assert client.act(action, **fields)["code"] == "not_host"
        assert client.act("host", action=action, **fields)["code"] == "not_host"
    summary = live_server.summary()
    assert summary["held"] == [1] and summary["bots"] == {}  # nothing changed
    assert _table(screen)["locked"] is False


@pytest.mark.live_server(seats=6, time_scale=0.05)
def test_r39_twenty_spectators_of_a_six_seat_game_see_nothing_private_before_each_reveal(live_server):
    screen = live_server.screen()
    phones = [live_server.phone() for _ in range(6)]
    for seat, phone in enumerate(phones):
        phone.join(seat, f"P{seat}")
    ref = screen.send({"type": "vip_link"})
    vip_secret = screen.expect("vip_link")["url"].split("?vip=")[1]
    screen.reply(ref)
    spectators = [live_server.phone() for _ in range(20)]
    for s in spectators:
        assert s.act("watch")["type"] == "ok"
    tokens = [phone.token for phone in phones]
    secrets = [*tokens, live_server.host_secret, vip_secret]
    screen.host("start_game")
    signs: dict[int, list[str]] = {}
    for rnd in (1, 2):
        signs[rnd] = [SIGNS[3 * rnd], SIGNS[3 * rnd + 1], SIGNS[3 * rnd + 2]]
        for phone in phones:
            phone.wait_state(lambda v: v["phase"] == "sign" and v["round"] == rnd)
        for team in range(3):
            assert phones[team].act("pick_sign", sign=signs[rnd][team])["type"] == "ok"
        for phone in phones:
            assert phone.act("ready")["type"] == "ok"
        for seat, phone in enumerate(phones):
            v = phone.wait_state(lambda v: v["phase"] == "play")
            phone.act("swap", card=v["you"]["hand"][0]["id"], place=seat % 4, expected=v["centre"][seat % 4]["id"])
        assert phones[0].act("call_contre", team=1)["type"] == "ok"
        view = screen.wait_state(lambda v: v["phase"] in ("pause", "over") and v["round"] == rnd)
        assert view["result"]["signs"] == signs[rnd]
        if rnd == 1:
            screen.host("next_round")
    checked = 0
    for s in spectators:
        s.drain()
        for text in s.frames:
            for secret in secrets:
                assert secret not in text
            msg = json.loads(text)
            if msg["type"] != "state" or msg["view"]["phase"] not in ("sign", "play"):
                continue
            view = msg["view"]
            assert view["you"] is None and msg["table"]["role"] == "spectator"
            if view["phase"] == "play":  # no hand anywhere: no reveal in play, no "you"
                assert '"hand' not in text and view["result"] is None
            visible = text.replace(json.dumps(view["signs"], ensure_ascii=False, separators=(",", ":")), "")
            if view["phase"] == "sign" and view["result"] is not None:  # last round's reveal: its signs are out
                visible = visible.replace(json.dumps(view["result"], ensure_ascii=False, separators=(",", ":")), "")
            for sign in signs.get(view["round"], []):
                assert sign not in visible, f"a team's sign reached a spectator in round {view['round']}"
            checked += 1
    assert checked > 20 * 4


def test_the_lock_is_kept_across_a_host_restart_and_never_shows_as_a_setting(tmp_path):
    config = {
        "clock": FakeClock(),
        "host_secret": "s",
        "seed": 2,
        "journal": tmp_path / "t.jsonl",
        "bot_factory": make_stub,
    }
    table = Table(config)
    assert table.host.lock(True) is None
    assert table.host.start_game() is None
    table.stop()
    again = Table(config)
    assert again.resumed and again.audience.locked and "locked" not in again.host.settings
    again.stop()


def test_the_rules_page_is_served_at_rules_in_each_language(live_server):
    from urllib.request import urlopen

    for query in ("", "?lang=en", "?lang=fr", "?lang=../x"):
        with urlopen(f"{live_server.url}/rules{query}") as resp:
            assert resp.status == 200 and resp.headers["Content-Type"].startswith("text/html")
            assert b"<html" in resp.read().lower()
