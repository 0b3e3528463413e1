"""Enid mode: every numbered item of issue 10 and every magic card, from stacked deals."""

from __future__ import annotations

import json

import pytest
from enid_helpers import act, drawn, hand, kinds, owed, say, stacked, timeout

from bot.rules.engine import Action, NotYourTurn, RuleError

# 4h turned up first: the Enid Blyton is the nine of hearts (Halibut).
DECK = [f"{r}{s}" for r in "2345" for s in "cd"] + ["6c", "6d", "8c", "8d"]


def game3(h1, h2=("Kc", "Kd", "Ks"), h3=("Qc", "Qd", "Qs"), **kw):
    return stacked({1: list(h1), 2: list(h2), 3: list(h3)}, discard=kw.pop("discard", ["4h"]), deck=kw.pop("deck", DECK), **kw)


# ----------------------------------------------------------------- 2. naming every card


def test_the_turn_waits_for_the_name_and_a_right_name_keeps_the_magic():
    game = game3(["7h", "5c", "5s"])
    events = act(game, 1, "7h")
    assert kinds(events) == ["play", "obligation"] and events[1].data["seconds"] == 30
    assert game.current_players() == frozenset() and owed(game, 1) == ["name"]
    with pytest.raises(NotYourTurn) as refused:
        game.apply(2, Action.play("Kc"))
    assert str(refused.value) == "Wait: <@1> must name their card first."
    with pytest.raises(RuleError) as own:
        game.apply(1, Action.play("5c"))
    assert str(own.value) == "First name the card you laid: type it in the channel."
    events = say(game, 1, "Alonzo Church of Halibut")
    assert "named" in kinds(events) and game.direction == -1
    assert game.current == 3 and owed(game, 1) == ["church"]


def test_a_misnamed_seven_does_not_reverse_and_draws_one():
    game = game3(["7h", "5c", "5s"])
    act(game, 1, "7h")
    events = say(game, 1, "Alonzo Church of Carp")  # wrong suit
    assert "misnamed" in kinds(events) and drawn(events, 1) == 1
    assert game.direction == 1 and game.current == 2 and owed(game, 1) == []


def test_the_name_timer_counts_as_a_wrong_name():
    game = game3(["Qh", "5c", "5s"])
    act(game, 1, "Qh")
    events = timeout(game, "name")
    assert drawn(events, 1) == 1 and game.current == 2  # the Queen did not skip


def test_a_misnamed_two_adds_nothing_to_the_pickup():
    game = game3(["2h", "5c", "5s"], ["2c", "Kd", "Ks"], ["Qc", "Qd", "Qs"])
    act(game, 1, "2h")
    say(game, 1, "Marvin Minsky of Halibut")
    assert game.pickup == 2 and game.current == 2
    act(game, 2, "2c")
    events = say(game, 2, "Marvin Minsky of Sturgeon")
    assert drawn(events, 2) == 1 and game.pickup == 2 and game.current == 3
    events = act(game, 3, "draw")
    assert drawn(events, 3) == 2


def test_only_the_owing_players_words_are_judged_and_chat_counts_when_it_names():
    game = game3(["7h", "5c", "5s"])
    act(game, 1, "7h")
    before = game.to_json()
    with pytest.raises(RuleError):
        say(game, 2, "Alonzo Church of Halibut")  # player 2 owes nothing: just chat
    with pytest.raises(RuleError):
        say(game, 1, "hmm, give me a second")  # no attempt at a name: not judged
    assert game.to_json() == before
    events = say(game, 1, "ha! Alonzo Church of Halibut")
    assert kinds(events)[0] == "said" and events[0].data == {"text": "ha! Alonzo Church of Halibut"}
    assert "named" in kinds(events)


def test_an_eight_as_last_card_is_named_then_draws():
    game = game3(["8h"], deck=["6c"])
    act(game, 1, "8h")
    events = say(game, 1, "Aho Sethi Hopcroft Ullman of Halibut")
    assert hand(game, 1) == ["6c"] and not game.is_over() and game.current == 2
    assert [e.visible_to(None)["reason"] for e in events if e.kind == "draw"] == ["eight_last"]


def test_an_eight_is_followed_by_any_card_each_named():
    game = game3(["8h", "Kc", "5s"])
    act(game, 1, "8h")
    say(game, 1, "Aho/Sethi/Hopcroft/Ullman of Halibut")
    assert game.phase == "eight" and game.current_players() == {1}
    act(game, 1, "5s")
    say(game, 1, "Tarski of Sturgeon")
    assert game.current == 2


def test_a_ten_lays_three_more_of_its_suit():
    game = game3(["Th", "3h", "6h", "Jh", "5c"])
    act(game, 1, "Th")
    say(game, 1, "The bloke who wrote SHRDLU of Halibut")
    for code, name in [("3h", "Dennis Mungo Richie of Halibut"), ("6h", "Alan Turing of Halibut"), ("Jh", "John Buckle of Halibut")]:
        assert game.phase == "ten"
        act(game, 1, code)
        say(game, 1, name)
    assert hand(game, 1) == ["5c"] and game.current == 2 and owed(game, 1) == ["last"]


# ----------------------------------------------------------------- Jacks and John Buckle (5)


def test_black_jack_black_jack_red_jack_is_seven_and_the_cry_is_owed():
    deck = [f"{r}{s}" for r in "23456" for s in "cd"]
    game = game3(["Js", "5c", "5s"], ["Jc", "Kd", "Ks"], ["Jh", "Qd", "Qs"], deck=deck, discard=["4s"])
    act(game, 1, "Js")
    say(game, 1, "Mark Rafter of Sturgeon")
    act(game, 2, "Jc")
    say(game, 2, "Mark Rafter of Carp")
    assert game.pickup == 14
    act(game, 3, "Jh")
    events = say(game, 3, "John Buckle of Halibut! My John Buckle casts your Mark Rafter to type void!")
    assert game.pickup == 7 and "ritual_met" in kinds(events) and owed(game, 3) == []
    events = act(game, 1, "draw")
    assert drawn(events, 1) == 7


def test_forgetting_john_buckles_cry_draws_one():
    game = game3(["Js", "5c", "5s"], ["Jh", "Kd", "Ks"], discard=["4s"])
    act(game, 1, "Js")
    say(game, 1, "Mark Rafter of Sturgeon")
    act(game, 2, "Jh")
    say(game, 2, "John Buckle of Halibut")
    assert game.pickup == 0 and owed(game, 2) == ["cry"]
    events = timeout(game, "cry")
    assert drawn(events, 2) == 1 and game.pickup == 0  # the Rafter stays cancelled


# ----------------------------------------------------------------- the Church (4)


def test_the_church_is_shouted_at_the_player_who_would_have_been_next():
    game = game3(["7h", "5c", "5s"])
    act(game, 1, "7h")
    say(game, 1, "Alonzo Church of Halibut")
    events = say(game, 1, "Haaargh! Be Alonzo Churched! (a bit) <@2>")
    assert "ritual_met" in kinds(events) and drawn(events, 1) == 0


def test_the_church_shouted_at_the_wrong_player_or_too_late_draws_one():
    game = game3(["7h", "5c", "5s"])
    act(game, 1, "7h")
    events = say(game, 1, "Alonzo Church of Halibut. Haaargh! Be Alonzo Churched! (a bit) <@3>")
    assert [e.data["ritual"] for e in events if e.kind == "ritual_failed"] == ["church"] and drawn(events, 1) == 1
    late = game3(["7h", "5c", "5s"])
    act(late, 1, "7h")
    say(late, 1, "Alonzo Church of Halibut")
    assert drawn(timeout(late, "church"), 1) == 1


# ----------------------------------------------------------------- middle names (3)


def test_middle_names_are_made_up_and_never_reused_in_a_session():
    game = game3(["3h", "4h", "3c", "5s"])
    act(game, 1, "3h")
    events = say(game, 1, "Dennis Mungo Richie of Halibut")
    assert "named" in kinds(events) and [m["key"] for m in game.middle_names] == ["mungo"]
    # next game, same session: Mungo is used
    carry = game.carry_out()
    second = stacked({1: ["3h", "5c", "5s"], 2: ["Kc", "Kd"]}, discard=["4h"], deck=DECK, carry=carry)
    act(second, 1, "3h")
    events = say(second, 1, "Dennis Mungo Richie of Halibut")
    assert [e.data["why"] for e in events if e.kind == "misnamed"] == ["that middle name was already used this session"]
    assert drawn(events, 1) == 1


def test_a_middle_name_with_the_wrong_initial_or_a_bare_initial_draws_one():
    for text in ["Brian Mungo Kernighan of Halibut", "Brian W. Kernighan of Halibut"]:
        game = game3(["4h", "5c", "5s"])
        act(game, 1, "4h")
        assert drawn(say(game, 1, text), 1) == 1


def test_water_buffalo_picks_up_seven():
    game = game3(["4h", "5c", "5s"])
    act(game, 1, "4h")
    events = say(game, 1, "Brian Water-buffalo Kernighan of Halibut")
    assert "water_buffalo" in kinds(events) and drawn(events, 1) == 7


def test_a_challenged_proper_noun_goes_to_a_vote_of_the_other_players():
    game = game3(["3h", "5c", "5s"])
    act(game, 1, "3h")
    say(game, 1, "Dennis Manchester Richie of Halibut")
    mid = game.challengeable[0]["id"]
    assert Action("challenge", arg=mid) in game.legal_actions(3)
    assert Action("challenge", arg=mid) not in game.legal_actions(1)  # not your own
    events = act(game, 3, f"challenge::{mid}")
    assert "vote_open" in kinds(events) and game.current_players() == {2, 3}
    with pytest.raises(NotYourTurn) as refused:
        game.apply(2, Action("draw"))  # play waits for the vote
    assert str(refused.value) == "A vote is open: vote, then play goes on."
    act(game, 2, "vote::no")
    with pytest.raises(RuleError):
        act(game, 2, "vote::yes")  # one vote per eligible player
    events = act(game, 3, "vote::no")
    closed = next(e for e in events if e.kind == "vote_closed")
    assert closed.data["against"] and drawn(events, 1) == 1 and game.current_players() == {2}


def test_a_vote_timer_closes_the_vote_with_the_votes_cast():
    game = game3(["3h", "5c", "5s"])
    act(game, 1, "3h")
    say(game, 1, "Dennis Magnificent Richie of Halibut")
    act(game, 2, f"challenge::{game.challengeable[0]['id']}")
    act(game, 2, "vote::yes")
    events = timeout(game, "vote")
    assert next(e for e in events if e.kind == "vote_closed").data == {
        "id": events[0].data["id"], "about": "middle", "yes": 1, "no": 0, "against": False,
    }
    assert drawn(events, 1) == 0 and game.vote is None


def test_a_middle_name_cannot_be_challenged_once_the_next_player_has_moved():
    game = game3(["3h", "5c", "5s"])
    act(game, 1, "3h")
    say(game, 1, "Dennis Mungo Richie of Halibut")
    act(game, 2, "draw")
    assert game.challengeable == [] and all(a.kind != "challenge" for a in game.legal_actions(3))


# ----------------------------------------------------------------- limericks (6)

POEM = [
    "There once was a coder from Warwick",
    "Whose programs were rather historic",
    "She laid down a nine",
    "And named it just fine",
    "And her chain of names grew euphoric",
]


def _turing_laid(game):
    act(game, 1, "6s")
    say(game, 1, "Alan Turing of Sturgeon")
    assert owed(game, 1) == ["first_line"] and game.current_players() == frozenset()
    say(game, 1, POEM[0])
    assert game.limerick == {"first_line": POEM[0], "by": 1} and game.current == 2


def test_a_black_turing_makes_the_next_player_recite_and_the_others_vote():
    game = game3(["6s", "5c", "5s"], ["Kc", "Kd", "Ks"], discard=["4s"])
    _turing_laid(game)
    assert [a.code() for a in game.legal_actions(2)] == ["recite", "draw"]
    act(game, 2, "recite")
    assert owed(game, 2) == ["limerick"] and game.current_players() == frozenset()
    say(game, 2, "\n".join(POEM[1:3]))
    events = say(game, 2, "\n".join(POEM[3:]))
    opened = next(e for e in events if e.kind == "vote_open")
    assert opened.data["lines"] == POEM and opened.data["voters"] == [1, 3]
    assert opened.data["hint"]["rhyme_34"] is True and opened.data["hint"]["syllables"][2] == 5
    assert game.current_players() == {1, 3}
    act(game, 1, "vote::no")
    events = act(game, 3, "vote::no")
    assert drawn(events, 2) == 1 and game.current == 3


def test_a_limerick_voted_good_costs_nothing_and_the_poet_may_retype_the_first_line():
    game = game3(["6s", "5c", "5s"], ["Kc", "Kd", "Ks"], discard=["4s"])
    _turing_laid(game)
    act(game, 2, "recite")
    events = say(game, 2, "\n".join(POEM))
    assert next(e for e in events if e.kind == "vote_open").data["lines"] == POEM
    act(game, 1, "vote::yes")
    events = act(game, 3, "vote::no")
    assert drawn(events, 2) == 0 and game.current == 3


def test_another_black_turing_passes_the_limerick_on_with_the_same_first_line():
    game = game3(["6s", "5c", "5s"], ["6c", "Kd", "Ks"], discard=["4s"])
    _turing_laid(game)
    act(game, 2, "6c")
    say(game, 2, "Alan Turing of Carp")
    assert owed(game, 2) == [] and game.current == 3 and game.limerick["first_line"] == POEM[0]
    assert [a.code() for a in game.legal_actions(3)] == ["recite", "draw"]


def test_a_red_turing_cancels_the_limerick():
    game = game3(["6s", "5c", "5s"], ["6h", "Kd", "Ks"], discard=["4s"])
    _turing_laid(game)
    act(game, 2, "6h")
    events = say(game, 2, "Alan Turing of Halibut")
    assert "limerick_cancelled" in kinds(events) and game.limerick is None and game.current == 3


def test_refusing_the_limerick_draws_one_and_a_late_poem_draws_one():
    game = game3(["6s", "5c", "5s"], ["Kc", "Kd", "Ks"], discard=["4s"])
    _turing_laid(game)
    assert drawn(act(game, 2, "draw"), 2) == 1 and game.current == 3
    late = game3(["6s", "5c", "5s"], ["Kc", "Kd", "Ks"], discard=["4s"])
    _turing_laid(late)
    act(late, 2, "recite")
    say(late, 2, POEM[1])
    events = timeout(late, "limerick")
    assert drawn(events, 2) == 1 and late.current == 3 and late.vote is None


def test_no_first_line_in_time_means_no_limerick():
    game = game3(["6s", "5c", "5s"], ["Kc", "Kd", "Ks"], discard=["4s"])
    act(game, 1, "6s")
    say(game, 1, "Alan Turing of Sturgeon")
    events = timeout(game, "first_line")
    assert drawn(events, 1) == 0 and game.limerick is None and game.current == 2


# ----------------------------------------------------------------- the Enid Blyton (7)

CHAIN3 = {"chain": [{"words": ["marmalade"], "author": 2}, {"words": ["quux"], "author": 3}, {"words": ["ethel"], "author": 2}]}


def test_the_enid_cancels_two_minskys_and_every_other_player_draws_one():
    game = game3(["2h", "5c", "5s"], ["2c", "Kd", "Ks"], ["9h", "Qd", "Qs"])
    act(game, 1, "2h")
    say(game, 1, "Marvin Minsky of Halibut")
    act(game, 2, "2c")
    say(game, 2, "Marvin Minsky of Carp")
    assert game.pickup == 4 and "play:9h" in [a.code() for a in game.legal_actions(3)]
    act(game, 3, "9h")
    events = say(game, 3, "Enid Zebedee Blyton")
    assert game.pickup == 0 and drawn(events, 1) == 1 and drawn(events, 2) == 1 and drawn(events, 3) == 0
    assert [e["words"] for e in game.chain] == [["zebedee"]] and game.chain[0]["author"] == 3
    assert game.current == 1


def test_the_enid_named_with_a_three_name_chain_grows_it_to_four():
    game = game3(["9h", "5c", "5s"], carry=CHAIN3)
    act(game, 1, "9h")
    events = say(game, 1, "Enid Marmalade Quux Ethel Zebedee Blyton!")
    named = next(e for e in events if e.kind == "named")
    assert named.data == {"card": "9h", "chain_length": 4}
    assert [e["words"] for e in game.carry_out()["chain"]][-1] == ["zebedee"]
    assert game.observation(None)["chain_length"] == 4
    public = json.dumps([e.visible_to(None) for e in events if e.kind != "said"])
    assert "marmalade" not in public.lower() and "zebedee" not in public.lower()
    assert "marmalade" not in json.dumps(game.observation(None)).lower()


def test_a_wrong_chain_draws_three_and_adds_nothing():
    game = game3(["9h", "5c", "5s"], carry=CHAIN3)
    act(game, 1, "9h")
    events = say(game, 1, "Enid Quux Marmalade Ethel Zebedee Blyton")
    assert drawn(events, 1) == 3 and len(game.chain) == 3
    assert drawn(events, 2) == 0  # misnamed: no magic


def test_a_misnamed_enid_with_an_empty_chain_still_draws_one():
    game = game3(["9h", "5c", "5s"])
    act(game, 1, "9h")
    assert drawn(say(game, 1, "Terry Wogan of Halibut"), 1) == 1 and game.chain == []


def test_the_enid_is_the_nine_of_the_first_card_turned_up_and_cancels_a_limerick():
    game = game3(["6s", "5c", "5s"], ["9d", "Kd", "Ks"], discard=["4d", "4s"])
    assert str(game.enid) == "9d"
    _turing_laid(game)
    act(game, 2, "9d")
    events = say(game, 2, "Enid Zed Blyton")
    assert game.limerick is None and "enid" in kinds(events)


def test_the_chain_carries_into_the_next_game_of_the_session():
    first = game3(["9h", "5c"])
    act(first, 1, "9h")
    say(first, 1, "Enid Aardvark Blyton")
    carry = first.carry_out()
    second = game3(["9h", "5c", "5s"], carry=carry)
    act(second, 1, "9h")
    assert "named" in kinds(say(second, 1, "Enid Aardvark Bumblebee Blyton"))
    assert [e["words"] for e in second.carry_out()["chain"]] == [["aardvark"], ["bumblebee"]]


# ----------------------------------------------------------------- Last St. Francis (8)


def test_last_st_francis_replaces_last_card():
    game = game3(["5h", "5c"], deck=DECK)
    act(game, 1, "5h")
    assert owed(game, 1) == ["last", "name"]
    with pytest.raises(RuleError):
        say(game, 1, "Last card")  # the plain call is not Enid's
    events = say(game, 1, "Tarski of Halibut. Last St. Francis of Assisi!")
    assert "named" in kinds(events) and "ritual_met" in kinds(events) and owed(game, 1) == []
    forgot = game3(["5h", "5c"], deck=DECK)
    act(forgot, 1, "5h")
    say(forgot, 1, "Tarski of Halibut")
    assert drawn(act(forgot, 2, "draw"), 1) == 7


# ----------------------------------------------------------------- 9. other players chat freely


def test_other_players_chat_freely_while_someone_owes_a_ritual():
    game = game3(["7h", "5c", "5s"])
    act(game, 1, "7h")
    for text in ["lol", "Haaargh! Be Alonzo Churched! (a bit) <@2>", "Last St. Francis of Assisi"]:
        with pytest.raises(RuleError):
            say(game, 3, text)
    assert owed(game, 1) == ["name"]


# ----------------------------------------------------------------- hands, beginners, leaving


def test_hands_show_faces_and_the_beginner_rule_adds_names():
    game = game3(["9h", "3c", "Qd"])
    assert "hand_names" not in game.observation(1)
    learner = game3(["9h", "3c", "Qd"], options={"beginner_names": "yes", "renames": {"queen": "Grace Hopper"}})
    obs = learner.observation(1)
    assert obs["hand"] == ["3c", "Qd", "9h"]
    assert obs["hand_names"] == ["Dennis M. Richie of Carp", "Grace Hopper of Dalmations", "the Enid Blyton"]


def test_a_player_who_leaves_while_naming_passes_the_turn_on():
    game = game3(["7h", "5c", "5s"])
    act(game, 1, "7h")
    events = game.remove_player(1)
    assert "obligation_closed" in kinds(events) and game.current_players() == {2}
    assert game.obligations == []


def test_timeout_actions_are_always_accepted():
    game = game3(["8h", "5c", "5s"])
    act(game, 1, "8h")
    say(game, 1, "Aho Sethi Hopcroft Ullman of Halibut")
    action = game.timeout_action(1)
    assert action == Action("draw", arg="timeout")
    game.apply(1, action)  # even after an Eight, the timer's draw ends the turn
    assert game.current == 2


# ----------------------------------------------------------------- the other magic cards, named and misnamed


def test_an_ace_named_right_names_a_suit_and_misnamed_names_none():
    game = game3(["Ah", "5c", "5s"])
    act(game, 1, "Ah")
    say(game, 1, "Jeffy-pheasant (sic) without /cs/res of Halibut")
    assert game.phase == "suit" and game.current_players() == {1}
    act(game, 1, "suit::c")
    assert game.current == 2 and game.observation(None)["suit"] == "c"
    wrong = game3(["Ah", "5c", "5s"])
    act(wrong, 1, "Ah")
    say(wrong, 1, "Rob McMahon of Halibut")  # a black Ace's name
    assert wrong.phase == "play" and wrong.current == 2 and wrong.observation(None)["suit"] == "h"


def test_queen_and_king_named_right_skip_one_and_two():
    game = stacked({1: ["Qh", "5c"], 2: ["Kc", "2d"], 3: ["Kh", "6c"], 4: ["9d", "2s"]}, discard=["4h"], deck=DECK)
    act(game, 1, "Qh")
    say(game, 1, "Julia Hors d'Ouvre which must be obeyed at all times of Halibut")
    assert game.current == 3
    act(game, 3, "Kh")
    say(game, 3, "Kendall Mint Thompson of Halibut")
    assert game.current == 2


def test_a_misnamed_eight_needs_no_follow_and_a_misnamed_ten_allows_no_extras():
    game = game3(["8h", "Kc", "5s"])
    act(game, 1, "8h")
    say(game, 1, "Terry Wogan of Halibut")
    assert game.phase == "play" and game.current == 2
    ten = game3(["Th", "3h", "5s"])
    act(ten, 1, "Th")
    say(ten, 1, "Terry Wogan of Halibut")
    assert ten.phase == "play" and ten.current == 2


def test_a_misnamed_black_jack_adds_nothing_and_a_misnamed_black_turing_sets_no_limerick():
    game = game3(["Js", "5c", "5s"], discard=["4s"])
    act(game, 1, "Js")
    say(game, 1, "John Buckle of Sturgeon")
    assert game.pickup == 0 and game.current == 2
    turing = game3(["6s", "5c", "5s"], discard=["4s"])
    act(turing, 1, "6s")
    say(turing, 1, "Alan Turing of Carp")
    assert owed(turing, 1) == [] and turing.limerick is None and turing.current == 2
