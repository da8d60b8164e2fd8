"""R17–R21: the channel — take, release, the emoji, emission at most every 5 s."""

import pytest

from quatro_party.engine import ChooseEmoji, Reason, ReleaseChannel, TakeChannel, seat_view, table_view
from quatro_party.engine import events as ev

from .scenario import fingerprint, kinds_of, ok, playing, refused


def _emitted(out):
    return [(e.seat, e.emoji) for e in out.events if isinstance(e, ev.Emitted)]


def test_r17_taking_and_releasing_the_channel_is_seen_by_the_whole_table():
    game = playing(4)
    out = ok(game.apply(TakeChannel(2), 1.0))
    assert [e.to_json() for e in out.events] == [{"type": "channel_taken", "seat": 2}]
    assert table_view(game, 1.0)["seats"][2]["channel"] == {"held": True, "emoji": None}
    refused(game.apply(TakeChannel(2), 5.0), Reason.CHANNEL_ALREADY_HELD)
    out = ok(game.apply(ReleaseChannel(2), 5.0))
    assert [e.to_json() for e in out.events] == [{"type": "channel_released", "seat": 2}]
    assert table_view(game, 5.0)["seats"][2]["channel"] == {"held": False, "emoji": None}
    refused(game.apply(ReleaseChannel(2), 9.0), Reason.CHANNEL_NOT_HELD)


def test_r18_a_choice_is_emitted_at_once_then_every_5_seconds_while_held():
    game = playing(4)
    ok(game.apply(TakeChannel(0), 1.0))
    out = ok(game.apply(ChooseEmoji(0, "🍍"), 1.5))
    assert _emitted(out) == [(0, "🍍")]
    assert table_view(game, 1.5)["seats"][0]["channel"] == {"held": True, "emoji": "🍍"}
    assert game.next_deadline() == 6.5
    assert game.tick(6.49).events == ()
    assert _emitted(game.tick(6.5)) == [(0, "🍍")]
    out = game.tick(21.5)  # time jumps: every missed 5 s mark is emitted, in order
    assert _emitted(out) == [(0, "🍍")] * 3


def test_r18_changing_the_emoji_never_emits_more_often():
    game = playing(4)
    ok(game.apply(TakeChannel(0), 0.0))
    ok(game.apply(ChooseEmoji(0, "🍍"), 1.0))
    for t, emoji in ((2.0, "🚀"), (3.0, "🐢"), (4.0, "🦊")):
        assert _emitted(ok(game.apply(ChooseEmoji(0, emoji), t))) == []
    assert _emitted(game.tick(6.0)) == [(0, "🦊")]  # the latest choice, at the 5 s mark


def test_r18_a_new_choice_waits_for_the_next_5_s_mark_even_across_a_release():
    game = playing(4)
    ok(game.apply(TakeChannel(0), 0.0))
    ok(game.apply(ChooseEmoji(0, "🍍"), 1.0))  # emitted at 1.0
    ok(game.apply(ReleaseChannel(0), 2.0))
    ok(game.apply(TakeChannel(0), 4.0))
    assert _emitted(ok(game.apply(ChooseEmoji(0, "🚀"), 4.5))) == []  # emitted 3.5 s ago: not yet
    assert game.next_deadline() == 6.0
    assert _emitted(game.tick(6.0)) == [(0, "🚀")]


def test_r18_only_while_holding_and_only_one_of_the_24():
    game = playing(4)
    out = refused(game.apply(ChooseEmoji(0, "🍍"), 1.0), Reason.CHANNEL_NOT_HELD)
    assert out.refusal.message == "take your channel first"
    ok(game.apply(TakeChannel(0), 1.0))
    refused(game.apply(ChooseEmoji(0, "🐈"), 1.0), Reason.UNKNOWN_SIGN)


def test_r19_nothing_leaves_by_itself_holding_with_no_choice_emits_nothing():
    game = playing(4)
    ok(game.apply(TakeChannel(0), 1.0))
    assert game.next_deadline() == 180.0  # only the round's end
    out = game.tick(179.0)
    assert "emitted" not in kinds_of(out.events)


def test_r19_releasing_clears_the_choice_and_what_the_table_shows():
    game = playing(4)
    ok(game.apply(TakeChannel(0), 0.0))
    ok(game.apply(ChooseEmoji(0, "🍍"), 0.0))
    ok(game.apply(ReleaseChannel(0), 2.0))
    assert seat_view(game, 0, 2.0)["you"]["channel_choice"] is None
    ok(game.apply(TakeChannel(0), 4.0))
    # Held again with nothing chosen: the screen must not keep showing the old emoji (engine fix).
    assert table_view(game, 4.0)["seats"][0]["channel"] == {"held": True, "emoji": None}
    assert "emitted" not in kinds_of(game.tick(60.0).events)


def test_r20_any_emoji_may_be_emitted_not_only_the_teams_sign():
    game = playing(4, signs={0: "🍍", 1: "🚀"})
    ok(game.apply(TakeChannel(0), 1.0))
    assert _emitted(ok(game.apply(ChooseEmoji(0, "🚀"), 1.0))) == [(0, "🚀")]  # a decoy: the others' sign
    ok(game.apply(ChooseEmoji(0, "🐳"), 2.0))
    assert _emitted(game.tick(6.0)) == [(0, "🐳")]


def test_r21_two_seconds_between_two_channel_changes():
    game = playing(4)
    ok(game.apply(TakeChannel(1), 10.0))
    game.tick(11.5)
    before = fingerprint(game)
    out = refused(game.apply(ReleaseChannel(1), 11.5), Reason.CHANNEL_COOLDOWN)
    assert out.refusal.message == "channel cooldown, 0.5 s left" and out.refusal.details == {"wait": 0.5}
    assert fingerprint(game) == before
    assert seat_view(game, 1, 11.5)["you"]["channel_wait"] == 0.5
    ok(game.apply(ChooseEmoji(1, "🐙"), 11.5))  # choosing is not a channel change
    ok(game.apply(ReleaseChannel(1), 12.0))
    refused(game.apply(TakeChannel(1), 13.0), Reason.CHANNEL_COOLDOWN)
    ok(game.apply(TakeChannel(1), 14.0))


@pytest.mark.parametrize("factor", [0.1, 2.0])
def test_r18_r21_durations_follow_the_timing(factor):
    from quatro_party.engine import Timing

    game = playing(4, timing=Timing().scaled(factor))
    ok(game.apply(TakeChannel(0), 0.0))
    ok(game.apply(ChooseEmoji(0, "🍍"), 0.0))
    assert game.next_deadline() == pytest.approx(5.0 * factor)
    refused(game.apply(ReleaseChannel(0), 1.9 * factor), Reason.CHANNEL_COOLDOWN)
    ok(game.apply(ReleaseChannel(0), 2.0 * factor))


def test_r18_a_choice_exactly_5_s_after_the_last_emission_is_emitted_at_once_with_scaled_timings():
    from quatro_party.engine import Timing

    game = playing(4, timing=Timing().scaled(0.1))  # emission period 0.5 s, channel cooldown 0.2 s
    ok(game.apply(TakeChannel(0), 0.0))
    ok(game.apply(ChooseEmoji(0, "🍍"), 0.1))
    ok(game.apply(ReleaseChannel(0), 0.2))
    ok(game.apply(TakeChannel(0), 0.4))
    out = ok(game.apply(ChooseEmoji(0, "🚀"), 0.6))  # 0.6 - 0.1 is 0.49999999999999994 in floats
    assert _emitted(out) == [(0, "🚀")] and game.next_deadline() > 0.6
