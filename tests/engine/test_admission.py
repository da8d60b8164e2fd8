"""The one table of which commands each phase accepts (``game.ADMISSION``)."""

from typing import get_args

from quatro_party.engine import ADMISSION, Command, Phase, accepted_in


def test_every_command_has_its_row():
    assert set(ADMISSION) == set(get_args(Command))


def test_which_commands_each_phase_accepts():
    host = ["Sit", "SetConnected"]
    in_game = ["Pause", "Resume", "EndGame", "NewGame"]
    assert accepted_in(Phase.LOBBY) == ["SetSeatCount", "Settings", *host, "StartGame", "StartPractice"]
    assert accepted_in(Phase.SIGN) == [*host, *in_game, "PickSign", "Ready"]
    assert accepted_in(Phase.PLAY) == [
        *host,
        *in_game,
        "Swap",
        "TakeChannel",
        "ReleaseChannel",
        "ChooseEmoji",
        "CallQuatro",
        "CallContre",
        "RequestReshuffle",
        "AnswerVote",
    ]
    assert accepted_in(Phase.PAUSE) == [*host, "StartNextRound", *in_game]
    assert accepted_in(Phase.OVER) == ["SetSeatCount", "Settings", *host, "NewGame"]


def test_while_paused_only_seats_connections_and_leaving_the_pause_or_the_game():
    paused = sorted(c.__name__ for c, a in ADMISSION.items() if a.while_paused)
    assert paused == ["EndGame", "NewGame", "Resume", "SetConnected", "Sit"]
