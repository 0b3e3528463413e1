"""Issue 23 item 8: a misnamed card says which part of its name was wrong (the name,
the suit, a missing middle name, its initial, a bare initial, a middle name used this
session, the Enid's chain) and never what the chain is."""

from __future__ import annotations

import json

import pytest
from enid_helpers import act, drawn, say, stacked

from bot.rules.cards import parse_card
from cogs.enid import render
from cogs.enid.names import Names, misnamed_part, words
from bot.words.render_util import text_cards

# 4h turned up first: the Enid Blyton is the nine of hearts (Halibut).
DECK = [f"{r}{s}" for r in "2345" for s in "cd"] + ["6c", "6d", "8c", "8d"]
CHAIN = {"chain": [{"words": ["marmalade"], "author": 2}, {"words": ["quux"], "author": 3}]}


def misnamed(card: str, text: str, carry: dict | None = None) -> tuple[str, list]:
    """Lay ``card`` (seat 1, on the 4♥) and say ``text``: the misnamed event's reason and the events."""
    game = stacked({1: [card, "5c", "5s"], 2: ["Kc", "Kd", "Ks"], 3: ["Qc", "Qd", "Qs"]}, discard=["4h"], deck=DECK, carry=carry)
    act(game, 1, card)
    events = say(game, 1, text)
    (event,) = [e for e in events if e.kind == "misnamed"]
    assert drawn(events, 1) == event.data["draws"] >= 1  # every reason costs the same as before
    return event.data["why"], events


@pytest.mark.parametrize(
    "card, text, why",
    [
        ("6h", "Tarski of Halibut", "wrong name"),  # the name of another card, the right fish
        ("6h", "Alan Turing of Carp", "wrong suit"),  # the right name, another fish
        ("6h", "Alan Turing of Dalmatians!", "wrong suit"),  # the dog's own spelling is a suit too
        ("6h", "Alan Turing", "no suit"),  # no "of" and fish
        ("6h", "Alan Turing of the sea", "no suit"),
        ("3h", "Dennis Richie of Halibut", "no middle name"),
        ("3h", "Dennis Mungo Richie of Carp", "wrong suit"),
        ("4h", "Brian Mungo Kernighan of Halibut", "a middle name for this card must begin with W"),
        ("4h", "Brian W. Kernighan of Halibut", "a bare initial is not a made-up middle name"),
        ("9h", "Terry Wogan of Halibut", "wrong name"),  # the Enid is named as the Enid
        ("9h", "Enid Quux Marmalade Zed Blyton", "wrong chain"),
        ("9h", "Enid Blyton", "wrong chain"),  # no new middle name
    ],
)
def test_a_misnamed_card_says_which_part_was_wrong(card, text, why):
    said, _ = misnamed(card, text, carry=CHAIN)
    assert said == why


def test_a_middle_name_used_earlier_in_the_session_says_so():
    first = stacked({1: ["3h", "5c", "5s"], 2: ["Kc", "Kd", "Ks"]}, discard=["4h"], deck=DECK)
    act(first, 1, "3h")
    say(first, 1, "Dennis Mungo Richie of Halibut")
    why, _ = misnamed("3h", "Dennis Mungo Richie of Halibut", carry=first.carry_out())
    assert why == "that middle name was already used this session"


def test_the_enid_s_reason_never_tells_the_chain():
    why, events = misnamed("9h", "Enid Quux Marmalade Zed Blyton", carry=CHAIN)
    told = [e for e in events if e.kind != "said"]  # what they said is theirs; the rest is the bot's
    public = json.dumps([e.visible_to(None) for e in told]) + " ".join(render.event_lines(told, {}))
    assert "marmalade" not in public.lower() and "quux" not in public.lower()
    assert why == "wrong chain"
    # "Enid … Blyton" is said either way: whether the chain was right is all it tells.
    assert misnamed_part(words("Enid Marmalade Quux Blyton"), parse_card("9h"), Names({}), enid=True) == "wrong chain"


def test_a_renamed_slot_is_judged_by_the_servers_names():
    names = Names.from_options({"queen": "Pat Smith"}, keep_builtin=False)
    queen = parse_card("Qh")
    assert misnamed_part(words("Pat Smith of Carp"), queen, names) == "wrong suit"
    assert misnamed_part(words("Julia Dain of Halibut"), queen, names) == "wrong name"  # dropped built-in


@pytest.mark.parametrize(
    "why, shown",
    [
        ("wrong name", "the name was wrong"),
        ("wrong suit", "the fish (the suit) was wrong"),
        ("no suit", "“of” and the fish (the suit) were missing"),
        ("no middle name", "needs a made-up middle name"),
        ("wrong chain", "the middle names were not"),
        ("a middle name for this card must begin with W", "must begin with W"),
        ("that middle name was already used this session", "already used this session"),
    ],
)
def test_the_log_line_says_the_part(why, shown):
    from bot.rules.engine import Event

    (line,) = render.event_lines([Event("misnamed", 1, {"card": "6h", "why": why, "draws": 1})], {1: "<@1>"})
    assert line.startswith(text_cards("❌ <@1> misnamed 6♥: ")) and shown in line and line.endswith("its magic is void")
    assert "(wrong name)" not in line
