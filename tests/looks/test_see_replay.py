"""tools/see_replay.py's own parts that need no browser: the policy that keeps Onion's
members in the round (so the fixed seed reaches the showdown), the driver put back as
it was, and a replay message read as its reader sees it."""

from __future__ import annotations

import random
from types import SimpleNamespace

from bench import transcript
from bot.rules.engine import Action
from tools import see_replay


def test_the_policy_never_gives_the_round_up_while_it_may_stay_in():
    rng = see_replay.StaysIn(1)
    offered = [Action("match"), Action("raise", arg="5"), Action("fold")]
    assert {rng.choice(offered).kind for _ in range(200)} == {"match", "raise"}
    offer = [Action("match"), Action("pass")]
    assert {rng.choice(offer).kind for _ in range(100)} == {"match"}
    assert rng.choice([Action("fold")]).kind == "fold"  # the only thing left to do
    assert {rng.choice([3, 4]) for _ in range(100)} == {3, 4}  # whose turn: as random as before
    plain = random.Random(1)
    assert {plain.choice(offered).kind for _ in range(200)} == {"match", "raise", "fold"}


def test_the_driver_plays_by_the_policy_only_inside_the_block():
    before = transcript.random
    with see_replay.driven_by(see_replay.StaysIn):
        assert isinstance(transcript.random.Random(3), see_replay.StaysIn)
    assert transcript.random is before
    with see_replay.driven_by(None):
        assert transcript.random is before


def test_a_replay_message_is_read_with_names_and_without_its_controls():
    button = SimpleNamespace(label="▶")
    message = SimpleNamespace(content="**Replay of Cripple Mr Onion #1 · Move 36 of 41**\n<@5> declares nothing",
                              embeds=[], attachments=[],
                              components=[SimpleNamespace(children=[button])])
    read = see_replay.read(message, {5: "cy"})
    assert read == "**Replay of Cripple Mr Onion #1 · Move 36 of 41**\n@cy declares nothing"
