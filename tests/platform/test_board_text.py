"""The shared pieces of what boards and hands print (issue 35): cards in text, lists that
end before the next line, alt text where a V2 message's reader finds it, a form's title,
and the Idiot and Blackjack boards beside their card picture."""

from __future__ import annotations

import unicodedata

import discord

from bot.discord_front import views
from bot.discord_front.layout import hand_layout, layout_view
from bot.words.panel import Panel
from bot.words.render_util import WORD_JOINER, card_text, cards_text, end_lists, unbroken
from cogs.blackjack import render as blackjack
from cogs.blackjack.rules import BlackjackGame
from cogs.idiot import render as idiot
from cogs.idiot.rules import IdiotGame

EMOJI_SUITS = "♠♥♦♣"


def test_a_card_in_text_has_a_suit_that_is_no_emoji_and_never_splits():
    for code, rank in (("Tc", "10"), ("As", "A"), ("Qh", "Q"), ("2d", "2")):
        shown = card_text(code)
        assert shown.startswith(rank + WORD_JOINER) and len(shown) == len(rank) + 2
        suit = shown[-1]
        # The white suit signs: no emoji presentation anywhere, so the text's own colour.
        assert suit not in EMOJI_SUITS and unicodedata.name(suit).startswith("WHITE ")
    assert cards_text(["As", "Kd"]) == card_text("As") + " " + card_text("Kd") and cards_text([]) == "—"
    assert unbroken("2🪙") == "2" + WORD_JOINER + "🪙" and unbroken("—") == "—"


def test_a_list_ends_before_the_next_line():
    board = "**Game over.**\n1. <@1>\n2. <@2>, <@3>\n**Pile (12 cards):** 7♣\nDraw pile: 0"
    assert end_lists(board) == "**Game over.**\n1. <@1>\n2. <@2>, <@3>\n\n**Pile (12 cards):** 7♣\nDraw pile: 0"
    assert end_lists("1. a\n2. b") == "1. a\n2. b" and end_lists("1. a\n\nb") == "1. a\n\nb"


def gallery_items(view: discord.ui.LayoutView) -> list[dict]:
    found = []

    def walk(component):
        if component.get("type") == 12:
            found.extend(component["items"])
        for child in component.get("components", ()):
            walk(child)

    for top in view.to_components():
        walk(top)
    return found


def test_the_picture_has_its_alt_text_on_the_gallery_item():
    embed = Panel(title="Idiot", description="**Game over.**\n1. <@1>\n2. <@2>\n**Pile:** 3")
    board = layout_view(embed, content="x", image="attachment://table-1.png", alt="Card picture. The pile is empty.")
    assert [item.get("description") for item in gallery_items(board)] == ["Card picture. The pile is empty."]
    hand = hand_layout(embed, content="x", items=[], image="attachment://hand-1.png", alt="Card picture. Your hand has 1 card: the ace of spades.")
    assert gallery_items(hand)[0]["description"].startswith("Card picture. Your hand")
    assert layout_view(embed, content="x", image="attachment://t.png", alt="x" * 2000).to_components()  # clipped to Discord's 1,024
    assert len(gallery_items(layout_view(embed, content="x", image="attachment://t.png", alt="x" * 2000))[0]["description"]) == 1024
    text = [c["content"] for top in board.to_components() for c in top.get("components", ()) if c.get("type") == 10]
    assert "2. <@2>\n\n**Pile:** 3" in "\n".join(text)  # the list ended before the pile


def test_a_form_title_drops_its_buttons_ellipsis():
    modal = views.AmountModal(1, 2, 7, "bet", "Bet another amount (0–10)…")
    assert modal.title == "Bet another amount (0–10)"


def test_idiot_board_beside_its_picture_keeps_only_what_the_picture_cannot_show():
    game = IdiotGame.new([1, 2, 3], deal={"phase": "play", "first": 1, "hands": {1: ["7c", "9d"], 2: ["Kh"], 3: ["4s"]}, "pile": ["5c", "6d"]})
    names = {1: "<@1>", 2: "<@2>", 3: "<@3>"}
    recent = [f"line {n}" for n in range(8)]
    full = idiot.table_embed(game.observation(None), names, recent)
    lean = idiot.table_embed(game.observation(None), names, recent, pictures=True)
    assert "<@2>: hand" in full.description and "**Turn:**" in full.description
    assert lean.description == "**Next play:** a 6 or higher, or a 2 or 10"
    assert [f.value for f in lean.fields] == ["line 5\nline 6\nline 7"]
    assert idiot.turn_task(game.observation(None)) == "play from your hand"
    swap = IdiotGame.new([1, 2, 3], seed=1)
    assert idiot.turn_task(swap.observation(None)) == "swap cards if you like, then press Ready"


def test_blackjack_hand_rows_start_with_a_card_and_its_board_beside_the_picture_is_short():
    game = BlackjackGame.new([1, 2], {}, deal={"hands": {1: ["Td", "Kd", "3s"], 2: ["4c"]}, "discard": ["9d"], "deck": ["5h"]})
    hand = blackjack.hand_embed(game.observation(1), {}).description.split("\n")
    assert hand[0] == f"{card_text('Td')} {card_text('Kd')}" and hand[1] == card_text("3s")
    lean = blackjack.table_embed(game.observation(None), {1: "<@1>", 2: "<@2>"}, ["a", "b", "c", "d"], pictures=True)
    assert "<@1>" not in (lean.description or "") and [f.name for f in lean.fields] == ["Recent"]
    assert lean.description.startswith(f"**Top card:** {card_text('9d')}")
    assert blackjack.turn_task(game.observation(None)) == "play a card matching the top card, or an Ace (if you cannot, draw 1 card)"


def test_the_first_line_names_those_who_owe_words_too():
    from bot.discord_front.publish import turn_line

    assert turn_line([1], None, owing=[2]) == "👉 <@1>: your move. <@2>: type what you owe in the thread."
    assert turn_line([], None, owing=[2, 3]) == "👉 <@2> and <@3>: type what you owe in the thread."
    assert turn_line([1, 2], "vote on the limerick", owing=[1]) == "👉 <@1> and <@2>: vote on the limerick."


def test_words_owed_are_read_from_the_open_obligations_but_a_vote_is_the_voters():
    from bot.discord_front.publish import owed_words

    owed = {"obligations": [{"player": 2, "ritual": "last"}, {"player": 3, "ritual": "vote"}, {"player": None, "ritual": "cry"}]}
    assert owed_words(owed) == [2] and owed_words({}) == []


def test_the_picture_comes_right_after_the_text_and_the_small_print_after_it():
    embed = Panel(title="Idiot", description="**Next play:** any card", footer="Idiot #1 · move 3")
    (container,) = layout_view(embed, content="👉 <@1>: your move.", image="attachment://t.png", alt="Card picture.").to_components()
    kinds = [(c["type"], c.get("content", "")[:3]) for c in container["components"]]
    assert kinds == [(10, "👉 <"), (10, "###"), (12, ""), (10, "-# ")]
