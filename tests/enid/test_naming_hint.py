"""The hand that must name a card says what that card is called (issue 37, item 1):
a newcomer has ``ritual_seconds`` (15 to 90) and the names sit behind /rules. The
house rule ``beginner_names: no`` keeps the seed's "without reading it off a list";
the Enid's chain is never told."""

from __future__ import annotations

import pytest
from enid_helpers import act, stacked

from cogs.enid import render
from bot.words.render_util import text_cards

NAMES = {1: "<@1>", 2: "<@2>"}


def hand_task(game, player: int = 1) -> str:
    return render.hand_embed(game.observation(player), NAMES).description.splitlines()[-1]


def laid(card: str, **options):
    game = stacked({1: [card, "2s", "Kh"], 2: ["5d"]}, discard=["8" + card[-1]], deck=["9h", "Kd", "Jc"], options=options)
    act(game, 1, card)
    return game


@pytest.mark.parametrize("card, name", [("7c", "Alonzo Church of Carp"), ("Ts", "Terry Winograd of Sturgeon"),
                                        ("Ah", "Jeff Smith of Halibut"), ("Jc", "Mark Rafter of Carp")])
def test_by_default_the_hand_says_the_laid_cards_name(card, name):
    task = hand_task(laid(card))
    assert f"type its name in the game's thread: your {render.card_text(card)} is “{name}”" in task, task


def test_a_richie_is_said_with_a_middle_name_of_your_own():
    task = hand_task(laid("3d"))
    assert text_cards("your 3♦ is “Dennis M. Richie of Dalmations”, with a middle name of your own starting with M") in task, task


def test_a_server_rename_is_the_name_shown():
    task = hand_task(laid("Qh", renames={"queen": "Grace Hopper"}))
    assert text_cards("your Q♥ is “Grace Hopper of Halibut”") in task, task


def test_names_from_memory_give_the_form_and_not_the_name():
    task = hand_task(laid("7c", beginner_names="no"))
    assert "Alonzo Church" not in task and "its computer scientist, “of”, its fish" in task, task


def test_the_enid_blyton_is_never_told_its_chain():
    game = stacked({1: ["9c", "2s", "Kh"], 2: ["5d"]}, discard=["8c"], deck=["9h", "Kd", "Jc"],
                   options={"carry": {"chain": [{"words": ["marmalade"], "author": 2, "heard_by": [1, 2]}]}})
    act(game, 1, "9c")
    task = hand_task(game)
    assert "name your Enid Blyton" in task and "marmalade" not in task.lower(), task
