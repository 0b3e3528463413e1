"""The session's story (``render.session_summary``) and how ``bot/discord_front/sessions.py`` posts a
long one; the vote refusals of ``bot/discord_front/votes.py`` and Enid's ballots."""

from __future__ import annotations

from bot.discord_front import sessions, votes
from cogs.enid import render
from cogs.enid.rules import EnidGame

CARRY = {
    "chain": [{"words": ["zebedee"], "author": 1}, {"words": ["quokka", "pie"], "author": 2}],
    "middle_names": [{"key": "marmoset"}],
    "results": [{"winner": 1, "placements": [[1], [2, 3]]}, {"winner": 2, "placements": [[2], [1], [3]]}],
}


def test_the_session_summary_tells_the_chain_in_order_with_authors_and_results():
    text = render.session_summary(CARRY)
    assert "1. Zebedee — by <@1>\n2. Quokka Pie — by <@2>" in text
    assert "In full: Enid Zebedee Quokka Pie Blyton." in text
    assert "Game 1: <@1> won (<@1>, then <@2> and <@3>)." in text and "Game 2: <@2> won" in text
    assert "Nobody named the Enid Blyton" in render.session_summary({"results": []})


def test_a_long_story_is_cut_between_lines_and_loses_nothing():
    text = "\n".join(f"{n}. {'x' * 90} — by <@{n}>" for n in range(1, 80))
    parts = sessions.chunks(text)
    assert len(parts) > 1 and all(len(p) <= sessions.MESSAGE_LIMIT for p in parts)
    assert "\n".join(parts) == text
    assert sessions.chunks("y" * 4500) == ["y" * 2000, "y" * 2000, "y" * 500]


def test_vote_clicks_that_do_not_count_get_a_sentence():
    ballot = votes.Ballot("vote-3", "does it stand?", "", voters=(1, 2), voted=(1,), choices=(votes.Choice("vote::yes", "Yes"), votes.Choice("vote::no", "No")))
    open_ = {"vote-3": ballot}
    assert "closed" in votes.refusal(open_, "vote-2", 2, "vote::yes")
    assert "Only <@1>, <@2> vote" in votes.refusal(open_, "vote-3", 3, "vote::yes")
    assert "already voted" in votes.refusal(open_, "vote-3", 1, "vote::no")
    assert "not one of this vote's choices" in votes.refusal(open_, "vote-3", 2, "play:9s")
    assert votes.refusal(open_, "vote-3", 2, "vote::no") is None


def test_enid_ballots_come_from_the_spectator_observation_and_name_the_voters():
    from bot.rules.engine import Action

    game = EnidGame.new([1, 2, 3], {}, deal={"hands": {1: ["3s", "5s"], 2: ["5c", "4d"], 3: ["7c", "2h"]}, "discard": ["4s"], "deck": ["5d", "4c"]})
    game.apply(1, Action.play("3s"))
    game.apply(1, Action("say", arg="Dennis Marmoset Richie of Sturgeon"))
    (middle,) = [e["id"] for e in game.challengeable]
    game.apply(3, Action("challenge", arg=middle))
    (ballot,) = render.ballots(game.observation(None), {})
    assert ballot.voters == (2, 3) and ballot.voted == () and [c.code for c in ballot.choices] == ["vote::yes", "vote::no"]
    assert all(Action.parse(c.code) in game.legal_actions(2) for c in ballot.choices)
    assert "marmoset" in ballot.question and render.ping_task(game.observation(None)).startswith("vote on the middle name")
