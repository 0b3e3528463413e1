"""Card pictures (bot/pictures/cardart.py): every code draws, bad codes are refused, pictures are
valid, deterministic, fit their width, and depend on the CardRow only."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.pictures import cardart
from bot.words import i18n
from bot.pictures.cardart import CardRow, card_face, parse_code, render_rows, suit_sheet
from bot.rules.cards import standard_deck
from cogs.onion.scoring import SPECIAL_CARDS, onion_deck

FRENCH = [str(c) for c in standard_deck()]
ONION = [str(c) for c in onion_deck()]


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_the_decks_are_the_full_packs():
    assert len(set(FRENCH)) == 52 and len(set(ONION)) == 104


@pytest.mark.parametrize("code", FRENCH)
def test_every_french_code_draws_a_distinct_face(code):
    face = card_face(code)
    assert face.size == (cardart.CARD_W, cardart.CARD_H)
    assert face.mode == "RGBA"


def test_french_faces_all_differ_and_onion_faces_all_differ():
    french = {card_face(c).tobytes() for c in FRENCH}
    onion = {card_face(c, "onion").tobytes() for c in ONION}
    assert len(french) == 52
    assert len(onion) == 104


def test_the_marked_copy_of_a_special_card_carries_a_visible_badge():
    for card in SPECIAL_CARDS:
        plain, marked = card_face(str(card), "onion"), card_face(str(card) + "*", "onion")
        assert plain.tobytes() != marked.tobytes()
        # The badge sits in the index strip, which stays visible when cards overlap.
        strip = (0, 0, cardart.MIN_STEP, cardart.CARD_H)
        assert plain.crop(strip).tobytes() != marked.crop(strip).tobytes()


def test_french_suits_are_red_and_black_and_latin_suits_have_their_own_colours():
    def inks(code, deck="french"):
        colours = {c[:3] for _, c in card_face(code, deck).getcolors(1 << 16) if c[3] == 255}
        return colours & set(cardart.SUIT_COLOURS.values())

    assert inks("9h") == inks("9d") == {cardart.SUIT_COLOURS["h"]}
    assert inks("9c") == inks("9s") == {(22, 22, 22)}
    latin = [cardart.SUIT_COLOURS[s] for s in "wtuo"]
    assert len(set(latin)) == 4 and not set(latin) & {cardart.SUIT_COLOURS[s] for s in "cshd"}
    for suit in "wtuo":
        assert inks("9" + suit, "onion") == {cardart.SUIT_COLOURS[suit]}


@pytest.mark.parametrize(
    "code, deck",
    [("1x", "french"), ("", "french"), ("Z", "french"), ("9w", "french"), ("Qs*", "french"), ("11h", "french"),
     ("9", "onion"), ("Kx", "onion"), ("Q*", "onion"), ("hh", "french"), (None, "french"), ("9h", "tarot")],
)
def test_unknown_codes_and_decks_raise_a_clear_value_error(code, deck):
    with pytest.raises(ValueError) as info:
        card_face(code, deck)
    message = str(info.value)
    assert message.endswith(".") and (repr(deck) in message or "card code" in message)


def test_a_bad_code_in_a_row_is_refused_before_anything_is_drawn():
    for _ in range(2):  # each time: a refused row is not kept as laid out
        with pytest.raises(ValueError, match="'Xh' is not a card code of the french deck"):
            render_rows([CardRow("Hand", ("9h", "Xh"))])
        with pytest.raises(ValueError, match="cannot be negative"):
            render_rows([CardRow("Hand", ("9h",), face_down=-1)])


def test_codes_are_read_forgivingly_and_the_same_card_draws_the_same_face():
    assert parse_code("10h") == parse_code("th") == parse_code(" Th ") == ("T", "h", False)
    assert parse_code("qs*", "onion") == ("Q", "s", True)
    assert card_face("10h") is card_face("Th")  # the face cache


def test_a_table_picture_is_a_small_palette_png_of_sane_size():
    rows = [CardRow("Pile", ("7h", "7s", "9d")), CardRow("Draw pile", face_down=30),
            CardRow("@ann", ("Tc", "Qh", "3s"), face_down=3), CardRow("@bob", face_down=2), CardRow("Discards")]
    data = render_rows(rows, title="Idiot")
    img = open_png(data)
    assert img.mode == "P"
    assert 200 <= img.width <= cardart.MAX_WIDTH and 3 * cardart.CARD_H < img.height < 1000
    assert len(data) < 40_000


def test_pictures_are_deterministic():
    rows = [CardRow("Hand", tuple(ONION[:20]), face_down=4, deck="onion"), CardRow("Pile", ("Qs*",), 40, "onion")]
    first = render_rows(rows, title="Onion")
    cardart._face.cache_clear()
    cardart.card_back.cache_clear()
    cardart._PNG_CACHE.clear()
    cardart._PATCHES.clear()
    assert render_rows(rows, title="Onion") == first
    assert render_rows(rows, title="Onion!") != first


@pytest.mark.parametrize("n", [26, 52, 104])
def test_long_rows_fit_the_width_limit(n):
    cards = tuple(ONION[:n])
    for max_width in (cardart.MAX_WIDTH, 1200, 5000):
        img = open_png(render_rows([CardRow("Pile", cards, face_down=13, deck="onion")], max_width=max_width))
        assert img.width <= min(max_width, 1200)
        assert img.height <= 12 * cardart.CARD_H


def test_a_26_card_hand_overlaps_but_every_index_corner_stays_visible():
    plan = cardart._plan(CardRow("Hand", tuple(FRENCH[:26])), cardart.ROW_WIDTH - 2 * cardart.MARGIN)
    assert sum(len(line) for line in plan.lines) == 26
    assert cardart.MIN_STEP <= plan.step < cardart.CARD_W + cardart.CARD_GAP
    assert plan.width <= cardart.ROW_WIDTH - 2 * cardart.MARGIN
    assert open_png(render_rows([CardRow("Hand", tuple(FRENCH[:26]))])).width <= cardart.ROW_WIDTH


def back_pixels(rows: list[CardRow]) -> int:
    """Pixels of the back's lattice colour: proportional to how much back is showing."""
    img = cardart.render_image(rows)
    return dict((c, n) for n, c in img.getcolors(1 << 20)).get(cardart.BACK_LATTICE, 0)


def test_backs_drawn_grow_with_face_down_and_a_big_pile_is_one_stack_with_its_count():
    assert back_pixels([CardRow("Pile", ("9h",))]) == 0
    counts = [back_pixels([CardRow("Pile", ("9h",), face_down=n)]) for n in range(1, cardart.STACK_FROM)]
    assert 0 < counts[0] and counts == sorted(counts) and len(set(counts)) == len(counts)
    # From STACK_FROM on, a stack of STACK_LAYERS backs: only the number on it changes.
    stacks = [back_pixels([CardRow("Pile", face_down=n)]) for n in (cardart.STACK_FROM, 40, 99)]
    assert 0 < stacks[0] and len(set(stacks)) <= 2  # the count covers a little lattice
    big = [cardart.render_image([CardRow("Pile", face_down=n)]) for n in (cardart.STACK_FROM, 40)]
    assert big[0].size == big[1].size and big[0].tobytes() != big[1].tobytes()


def test_short_rows_sit_side_by_side_and_long_ones_stack():
    short = [CardRow(f"@p{i}", ("9h", "Tc"), face_down=3) for i in range(6)]
    wide = open_png(render_rows(short))
    assert wide.width > wide.height
    assert open_png(render_rows(short, columns=1)).height > 1.8 * wide.height
    hands = [CardRow(f"@p{i}", tuple(FRENCH[:13])) for i in range(3)]
    tall = open_png(render_rows(hands))
    assert tall.height > 3 * cardart.CARD_H and tall.width <= cardart.ROW_WIDTH


def shown_height(img: Image.Image) -> float:
    """How tall a picture is shown on a board: Discord's media gallery fits it to the
    box's width at its own aspect (a narrow picture is widened)."""
    return cardart.DISPLAY_BOX[0] * img.height / img.width


def test_four_seats_of_face_down_stacks_are_a_grid_not_a_tall_column():
    # Cripple Mr Onion mid-round (issue 35): four seats of five backs each, labels as the game writes them.
    rows = [CardRow(label, face_down=5, deck="onion") for label in (
        "Seat 1 · ann · Younger · 5 face down", "Seat 2 · bob · Dealer · to act · 5 face down",
        "Seat 3 · cy · Elder · 5 face down", "Seat 4 · dee · 5 face down")]
    img = open_png(render_rows(rows, title="Cripple Mr Onion #1"))
    assert img.width > img.height
    assert shown_height(img) <= cardart.DISPLAY_BOX[1]


def test_two_short_rows_sit_side_by_side_when_a_column_would_be_shown_tall():
    # A hand picture: the Search Request and the hand; stacked, it would be widened to ~500 px high.
    rows = [CardRow("Search Request", ("9h",)), CardRow("Your hand · 5 cards", tuple(FRENCH[:5]))]
    img = open_png(render_rows(rows))
    assert img.height < 2 * cardart.CARD_H
    assert shown_height(img) <= cardart.DISPLAY_BOX[1]


@settings(max_examples=25, deadline=None)
@given(
    hidden_a=st.lists(st.sampled_from(FRENCH), max_size=8),
    hidden_b=st.lists(st.sampled_from(FRENCH), max_size=8),
    shown=st.lists(st.sampled_from(FRENCH), max_size=6),
)
def test_the_picture_depends_only_on_the_row_never_on_the_hidden_cards(hidden_a, hidden_b, shown):
    """Two games that differ only in their hidden cards draw byte-identical pictures:
    a row carries the count of hidden cards, and nothing else about them."""

    def picture(hidden: list[str]) -> bytes:
        row = CardRow("@ann", tuple(shown), face_down=len(hidden))
        return render_rows([row])

    if len(hidden_a) == len(hidden_b):
        assert picture(hidden_a) == picture(hidden_b)
    else:
        assert picture(hidden_a) != picture(hidden_b)


def test_an_empty_picture_and_an_empty_row_still_draw():
    assert open_png(render_rows([])).width > 0
    assert open_png(render_rows([CardRow("Discards")])).height > cardart.CARD_H


def test_long_labels_are_cut_to_the_picture():
    img = open_png(render_rows([CardRow("x" * 500, ("9h",))], title="y" * 500))
    assert img.width <= cardart.MAX_WIDTH


@pytest.mark.parametrize("game", ["french", "idiot", "blackjack", "engines", "enid", "onion"])
def test_suit_sheets(game):
    img = open_png(suit_sheet(game))
    assert 200 < img.width <= 700 and 100 < img.height <= 400


def test_the_onion_sheet_has_two_rows_of_suits_and_enid_one():
    assert open_png(suit_sheet("onion")).height > open_png(suit_sheet("enid")).height
    with pytest.raises(ValueError, match="No suit sheet for 'chess'"):
        suit_sheet("chess")


def test_the_font_is_the_installed_noto_sans():
    path = cardart._font_file()
    assert path is not None and "NotoSans" in path.name
    assert cardart._font(20).getname()[0] == "Noto Sans"


def test_without_the_font_package_pillow_s_own_font_is_used(monkeypatch):
    cardart._font.cache_clear()
    monkeypatch.setattr(cardart, "_font_file", lambda: None)
    try:
        assert cardart._font(20).getname()[0] != "Noto Sans"
        assert open_png(render_rows([CardRow("Hand", ("9h",))], title="x")).width > 0
    finally:
        cardart._font.cache_clear()
        cardart._face.cache_clear()


def test_the_fixed_palette_holds_every_colour_drawn_and_fits_a_png_palette():
    colours = cardart._palette().getpalette()
    triples = {tuple(colours[i:i + 3]) for i in range(0, len(colours), 3)}
    assert len(colours) // 3 <= 256
    drawn = {cardart.BG, cardart.LABEL_INK, cardart.FACE, cardart.EDGE, cardart.BACK, cardart.BACK_LATTICE,
             cardart.BADGE, *cardart.SUIT_COLOURS.values()}
    assert drawn <= triples
    # So a face's inks survive the palette exactly.
    img = open_png(render_rows([CardRow("x", ("9h", "9w", "9t", "9u", "9o", "9s"), deck="onion")])).convert("RGB")
    assert set(cardart.SUIT_COLOURS.values()) <= {c for _, c in img.getcolors(1 << 16)}


def test_warm_up_fills_the_face_cache_with_a_whole_deck():
    cardart._face.cache_clear()
    assert cardart.warm_up("onion") == 104
    assert cardart._face.cache_info().currsize == 104
    render_rows([CardRow("x", tuple(ONION[:30]), deck="onion")])
    assert cardart._face.cache_info().currsize == 104
    assert cardart.warm_up("french") == 52


def test_fit_cuts_to_the_longest_prefix_that_fits():
    font = cardart._font(18, 600)
    text = "Mr Onion's very long seat name"
    for width in (10, 60, 120, 1000):
        cut = cardart._fit(font, text, width)
        assert cut == text or (cut.endswith("…") and text.startswith(cut[:-1]))
        if cut != text:
            assert cardart._text_width(font, cut) <= width or cut == "…"
            assert cardart._text_width(font, text[: len(cut)] + "…") > width


@settings(max_examples=40, deadline=None)
@given(faces=st.integers(0, 30), face_down=st.integers(0, 120))
def test_a_row_never_draws_more_backs_than_its_face_down_count(faces, face_down):
    back = cardart.card_back()
    pasted = []
    original = Image.Image.paste

    def spy(self, im, *args, **kwargs):
        if im is back:
            pasted.append(args[0] if args else kwargs.get("box"))
        return original(self, im, *args, **kwargs)

    Image.Image.paste = spy
    try:
        cardart.render_image([CardRow("@ann", tuple(FRENCH[:faces]), face_down=face_down)])
    finally:
        Image.Image.paste = original
    assert len(pasted) <= face_down
    assert (len(pasted) > 0) == (face_down > 0)
    if face_down < cardart.STACK_FROM:
        assert len(pasted) == face_down


def test_enid_s_sheet_draws_its_animals_beside_the_french_pips():
    from bot.pictures.cardart_pips import enid_mask, pip_mask

    animals = [enid_mask(s, 48).tobytes() for s in "cshd"]
    assert len(set(animals)) == 4
    assert all(enid_mask(s, 48).getbbox() for s in "cshd")
    assert not set(animals) & {pip_mask(s, 48).tobytes() for s in "cshd"}
    enid, french = open_png(suit_sheet("enid")), open_png(suit_sheet("french"))
    assert enid.width > french.width


def test_the_title_widens_a_narrow_picture_and_explicit_columns_respect_the_width():
    narrow = open_png(render_rows([CardRow("", ("9h",))]))
    titled = open_png(render_rows([CardRow("", ("9h",))], title="Idiot · @ann to play, then @bob"))
    assert titled.width > narrow.width
    rows = [CardRow(f"@p{i}", tuple(FRENCH[:6]), face_down=3) for i in range(6)]
    assert open_png(render_rows(rows, columns=6, max_width=900)).width <= 900


def test_backs_alone_lie_side_by_side_and_after_faces_they_overlap():
    inner = cardart.ROW_WIDTH - 2 * cardart.MARGIN
    alone = cardart._plan(CardRow("Your face-down cards: 1, 2, 3", face_down=3), inner)
    assert alone.width == 3 * cardart.CARD_W + 2 * cardart.CARD_GAP
    after = cardart._plan(CardRow("@ann", ("9h",), face_down=3), inner)
    assert after.width == cardart.CARD_W + 2 * cardart.CARD_GAP + cardart.CARD_W + 2 * cardart.BACK_STEP


def test_labels_drop_characters_the_font_lacks_instead_of_drawing_boxes():
    assert cardart._clean("🎲 Ann 中 · to play") == "Ann · to play"
    assert cardart._clean("Zoë, Жанна, Ñandú") == "Zoë, Жанна, Ñandú"
    with_emoji = cardart.render_image([CardRow("Seat 1 · Ann 🎲", ("9h",))], title="Idiot 🃏")
    plain = cardart.render_image([CardRow("Seat 1 · Ann", ("9h",))], title="Idiot")
    assert with_emoji.tobytes() == plain.tobytes()


def test_pictures_drawn_from_several_threads_at_once_equal_the_ones_drawn_in_turn():
    from concurrent.futures import ThreadPoolExecutor

    scenes = [[CardRow(f"@p{i}", tuple(ONION[i * 7:i * 7 + 5 + i]), face_down=i, deck="onion")] for i in range(8)]
    expected = [render_rows(rows, title=f"t{i}") for i, rows in enumerate(scenes)]
    for fn in (cardart._face, cardart._text_mask, cardart._font, cardart.card_back):
        fn.cache_clear()
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda i: render_rows(scenes[i], title=f"t{i}"), range(8)))
    assert got == expected


def test_alt_text_names_the_face_up_cards_and_counts_the_backs():
    from bot.pictures.cardart import CardRow, alt_text

    rows = [CardRow("Pile", ("Th", "As")), CardRow("Draw pile", face_down=24), CardRow("Your face-down cards: none"),
            CardRow("Seat 2", ("Qs*",), face_down=3, deck="onion")]
    # One sentence per row, a list said as a list ("a, b and c"), a count with its noun.
    assert alt_text(rows) == ("Card picture. Pile: 10 of Hearts and Ace of Spades. Draw pile: 24 cards face down. "
                              "Your face-down cards: none. Seat 2: Queen of Spades (marked), and 3 cards face down.")
    # A game's own sentence for a row wins over its caption; {cards} names its cards.
    spoken = [CardRow("Seat 1 · Ann · 18 cards · to play", face_down=18, spoken="Ann, in seat 1, has 18 cards, and it is their turn"),
              CardRow("Top card", ("Th",), spoken="The top card is {cards}")]
    assert alt_text(spoken) == "Card picture. Ann, in seat 1, has 18 cards, and it is their turn. The top card is 10 of Hearts."
    # Rows are kept per language and by their words too, not only by what they draw.
    reworded = [CardRow("Top card", ("Th",), spoken="{cards} lies on top")]
    assert reworded[0] == spoken[1] and alt_text(reworded) == "Card picture. 10 of Hearts lies on top."
    with i18n.using("en-XA"):
        assert alt_text(spoken[1:]) != "Card picture. The top card is 10 of Hearts."
    assert alt_text(spoken[1:]) == "Card picture. The top card is 10 of Hearts."
    assert len(alt_text([CardRow("x" * 2000)])) == 1024


def test_a_long_alt_text_keeps_whole_sentences_within_discord_s_1024_characters():
    from bot.pictures.cardart import CardRow, alt_text

    # Seven Onion hands at the showdown, every card named: far more than Discord takes.
    rows = [CardRow(f"Seat {i}", tuple(ONION[i * 10:i * 10 + 10]), deck="onion",
                    spoken=f"Player {i}, in seat {i}, shows {{cards}}: six-card onion, three-card onion") for i in range(7)]
    text = alt_text(rows)
    assert 0 < len(text) <= 1024
    assert text.startswith("Card picture. Player 0, in seat 0, shows Ace of Clubs, 2 of Clubs, ")
    assert text.endswith(". The rest is in the board's text.") and "…" not in text
    said = text.removesuffix(" The rest is in the board's text.")
    assert said == alt_text(rows[:said.count("Player ")])  # whole sentences, each as it would be said alone


def same_picture(png: bytes, other: bytes) -> bool:
    """Whether two PNGs decode to the same palette picture (their bands may be cut and
    compressed differently: a composed picture's bands follow its rows)."""
    first, second = Image.open(io.BytesIO(png)), Image.open(io.BytesIO(other))
    return (first.mode, first.size, first.tobytes(), first.getpalette()) == (second.mode, second.size, second.tobytes(), second.getpalette())


def test_a_picture_drawn_again_is_the_cached_one_byte_for_byte_and_new_cards_are_drawn():
    """Whole pictures are kept by their input (issue 22): a hand or board whose cards did
    not change is not drawn twice, and what comes from the cache is exactly what drawing
    gives; any change of a row, its label, the title or the size is a new picture."""
    import random

    rng = random.Random(7)
    scenes = []
    for _ in range(12):
        deck = rng.sample(FRENCH, 30)
        scenes.append(([CardRow("Pile", tuple(deck[:rng.randint(0, 5)]), face_down=rng.randint(0, 40)),
                        CardRow("Seat 1 · Ann", tuple(deck[5:5 + rng.randint(0, 3)]), face_down=3),
                        CardRow("Hand", tuple(deck[10:10 + rng.randint(1, 20)]))], f"Idiot #{rng.randint(1, 9)}"))
    first = [render_rows(rows, title=title) for rows, title in scenes]
    # Composed from cached rows, a picture is the whole picture drawn and mapped at once.
    assert all(same_picture(png, cardart._encode(cardart.render_image(rows, title=title))) for (rows, title), png in zip(scenes, first))
    assert [render_rows(rows, title=title) for rows, title in scenes] == first  # from the cache
    assert all(cardart.cached_png(rows, title=title) == png for (rows, title), png in zip(scenes, first))
    cardart._PNG_CACHE.clear()
    cardart._PATCHES.clear()
    assert cardart.cached_png(scenes[0][0], title=scenes[0][1]) is None
    assert [render_rows(rows, title=title) for rows, title in scenes] == first  # drawn afresh: the same bytes
    rows, title = scenes[0]
    changed = [rows[0], rows[1], CardRow("Hand", rows[2].cards[:-1])]
    assert render_rows(changed, title=title) != first[0]
    assert render_rows(rows, title=title + "!") != first[0]
    assert same_picture(render_rows(rows, title=title, columns=1), cardart._encode(cardart.render_image(rows, title=title, columns=1)))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text(min_size=0, max_size=30), st.lists(st.sampled_from(FRENCH), max_size=26, unique=True),
                          st.integers(0, 60)), min_size=0, max_size=8),
       st.text(max_size=40), st.sampled_from([None, 1, 2, 3]), st.sampled_from([400, 700, 1400]))
def test_a_picture_composed_from_cached_rows_is_the_picture_drawn_whole(rows, title, columns, max_width):
    rows = [CardRow(label, tuple(cards), down) for label, cards, down in rows]
    composed = render_rows(rows, title=title, columns=columns, max_width=max_width)
    assert same_picture(composed, cardart._encode(cardart.render_image(rows, title=title, columns=columns, max_width=max_width)))
