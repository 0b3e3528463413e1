"""Card pictures made cheap (issue 22): text rendered once per word, backgrounds and
compressed bands of rows kept, the PNG written by bot/pictures/png_writer.py
(tests/platform/test_png_writer.py). The pixels are the ones Pillow's writer gave
before; the bytes depend only on the picture, never on what the caches hold."""

from __future__ import annotations

import hashlib
import io
import random

from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from bot.pictures import cardart, png_writer
from bot.pictures.cardart import CardRow, render_rows
from bot.rules.cards import standard_deck
from cogs.onion.scoring import onion_deck

FRENCH = [str(c) for c in standard_deck()]
ONION = [str(c) for c in onion_deck()]
LABELS = ["Your hand", "Your face-down cards · 5 (only you see them)", "Seat 2 · Ann · 18 cards · to play", "Pile (14 cards)",
          "Draw pile", "Jules", "Yvonne · dealer", "Zoë, Жанна, Ñandú", "🎲 Ann 中 · to play", "W" * 60, "Ťŷ", ""]


def decoded(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def pillows_png(img: Image.Image) -> bytes:
    """What bot.cardart wrote before it had its own writer (Pillow's, at its default level)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def clear_picture_caches() -> None:
    cardart.clear_caches()


def scenes() -> list[tuple[list[CardRow], dict]]:
    """Forty seeded pictures: both decks, wrapped and stacked rows, labels cut, with
    emoji, accents and first letters that stand left of their origin, every layout."""
    rng = random.Random(22)
    out = []
    for n in range(40):
        deck, pack = (ONION, "onion") if n % 4 == 3 else (FRENCH, "french")
        cards = rng.sample(deck, 40)
        rows, at = [], 0
        for _ in range(rng.randint(0, 7)):
            k = rng.choice([0, 1, 2, 3, 5, 13, 26])
            rows.append(CardRow(rng.choice(LABELS), tuple(cards[at:at + k]), rng.choice([0, 0, 1, 3, 4, 40]), pack))
            at = (at + k) % 20
        title = rng.choice(["", "Idiot #3", "Cripple Mr Onion #12", "Blackjack · Yves to play", "Ťŷ Jj"])
        kw = {"title": title, "columns": rng.choice([None, None, 1, 2]), "max_width": rng.choice([1100, 1100, 400, 700])}
        out.append((rows, kw))
    return out


#: The decoded pixels of :func:`scenes`, as the code before issue 22 drew and wrote them
#: (Pillow's PNG writer, text drawn by ImageDraw.text each time). A change of font or of
#: Pillow's rasteriser changes it too: then draw the scenes with the old code again. So
#: does a change of layout: issue 35 chose the columns anew for Discord's V2 box (with the
#: old choice of columns patched in, the scenes still decode to the digest before it,
#: 446d24ee…).
PIXELS_BEFORE = "0d7752fbce8e99c1b273fc2c6d2b0133ced10bea4b243b94d32f53439329a183"


def test_the_pictures_have_the_pixels_they_had_before_the_caches_and_the_png_writer():
    clear_picture_caches()
    digest = hashlib.sha256()
    for rows, kw in scenes():
        img = decoded(render_rows(rows, **kw))
        digest.update(repr(img.size).encode())
        digest.update(img.convert("RGB").tobytes())
    assert digest.hexdigest() == PIXELS_BEFORE


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LABELS), st.lists(st.sampled_from(FRENCH), max_size=26, unique=True),
                          st.integers(0, 40)), max_size=6),
       st.sampled_from(["", "Idiot #3", "Yes · Jo"]), st.sampled_from([None, 1, 2]))
def test_a_picture_decodes_to_what_pillow_would_write_for_the_same_drawing(rows, title, columns):
    rows = [CardRow(label, tuple(cards), down) for label, cards, down in rows]
    whole = cardart.render_image(rows, title=title, columns=columns).quantize(palette=cardart._palette(), dither=Image.Dither.NONE)
    ours, theirs = decoded(render_rows(rows, title=title, columns=columns)), decoded(pillows_png(whole))
    assert ours.convert("RGB").tobytes() == theirs.convert("RGB").tobytes()


def test_the_same_picture_gives_the_same_bytes_whatever_the_caches_hold():
    pictures = scenes()
    clear_picture_caches()
    alone = []
    for rows, kw in pictures:  # each drawn from empty caches
        clear_picture_caches()
        alone.append(render_rows(rows, **kw))
    clear_picture_caches()
    in_turn = [render_rows(rows, **kw) for rows, kw in pictures]  # each after the others filled the caches
    cardart._PNG_CACHE.clear()
    backwards = [render_rows(rows, **kw) for rows, kw in reversed(pictures)][::-1]  # bands and rows from the others
    assert alone == in_turn == backwards
    # A band cache too small to keep anything: the same bytes, every band compressed afresh.
    small = cardart._BANDS.max_bytes
    try:
        cardart._BANDS.max_bytes = 1
        cardart._PNG_CACHE.clear()
        assert [render_rows(rows, **kw) for rows, kw in pictures] == alone
    finally:
        cardart._BANDS.max_bytes = small


def test_a_move_recompresses_only_the_bands_it_changed():
    rows = [CardRow("Pile (3 cards)", ("7h", "7s", "9d")), CardRow("Draw pile", face_down=30),
            CardRow("Seat 1 · Ann", ("Tc", "Qh"), face_down=3), CardRow("Seat 2 · Bob", face_down=2)]
    clear_picture_caches()
    render_rows(rows, title="Idiot #1", columns=1)
    kept = len(cardart._BANDS.entries)
    moved = [*rows[:3], CardRow("Seat 2 · Bob", ("Ks",), face_down=1)]  # only the last row changed
    render_rows(moved, title="Idiot #1", columns=1)
    assert len(cardart._BANDS.entries) == kept + 1  # the band of the last row's cards
    relabelled = [*rows[:3], CardRow("Seat 2 · Bob · to play", ("Ks",), face_down=1)]
    render_rows(relabelled, title="Idiot #1", columns=1)
    assert len(cardart._BANDS.entries) == kept + 2  # and the band of its label


WORDS = st.sampled_from(["Seat", "2", "·", "Ann", "18", "cards", "to", "play", "Your", "face-down", "(only", "them)", "Jo",
                         "Yves", "W", "ff", "…", "Zoë", "AV", "T.", "j", "Жанна", "Ñandú", "#12"])


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(WORDS, min_size=1, max_size=9).map(" ".join)), st.sampled_from(["ls", "mm", "ms", "la"]),
       st.sampled_from([(cardart.LABEL_SIZE, 600), (cardart.TITLE_SIZE, 700), (cardart.COUNT_SIZE, 700)]),
       st.sampled_from([cardart.LABEL_INK, cardart.MUTED_INK, cardart.BACK]), st.integers(-5, 40), st.integers(-5, 40))
def test_cached_text_draws_the_pixels_pillow_draws(text, anchor, font_spec, colour, x, y):
    text = cardart._clean(text)
    font = cardart._font(*font_spec)
    ours = Image.new("RGB", (120, 50), cardart.BG)
    theirs = ours.copy()
    cardart._draw_text(ours, (x, y), text, font, colour, anchor)
    ImageDraw.Draw(theirs).text((x, y), text, font=font, fill=colour, anchor=anchor)
    assert ours.tobytes() == theirs.tobytes()
    assert cardart._bbox(font, text, anchor) == font.getbbox(text, anchor=anchor)
    left, _, right, _ = font.getbbox(text)
    assert cardart._text_width(font, text) == right - left


def test_a_label_is_drawn_from_its_words_rendered_once_each():
    font = cardart._font(cardart.LABEL_SIZE, 600)
    cardart._rendered.cache_clear()
    assert len(cardart._rendered(font, "Seat 2 · Ann · 18 cards · to play", "ls")) == 10  # one piece a word
    words = cardart._rendered.cache_info().currsize
    cardart._rendered(font, "Seat 2 · Ann · 17 cards", "ls")  # one new word
    assert cardart._rendered.cache_info().currsize == words + 2  # the label and "17"


def test_a_label_that_changes_draws_no_card():
    rows = [CardRow("Seat 1 · Ann · to play", ("Tc", "Qh"), face_down=3), CardRow("Seat 2 · Bob", ("9d",), face_down=2)]
    clear_picture_caches()
    render_rows(rows, title="Idiot #1")
    kinds = lambda: sorted(key[0] for key in cardart._PATCHES.entries if isinstance(key[0], str))  # noqa: E731
    before = kinds()
    turned = [CardRow("Seat 1 · Ann", rows[0].cards, face_down=3), CardRow("Seat 2 · Bob · to play", ("9d",), face_down=2)]
    render_rows(turned, title="Idiot #1")
    added = [k for k in kinds()]
    for k in before:
        added.remove(k)
    assert added == ["label", "label"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(FRENCH), max_size=12, unique=True), st.integers(0, 60), st.sampled_from(["french", "onion"]),
       st.sampled_from([300, 500, 692]))
def test_a_row_of_cards_from_kept_tiles_is_the_row_drawn_and_mapped(cards, face_down, deck, row_width):
    """A line of cards that do not overlap is pasted from each face and the group of
    backs, each drawn on felt and mapped once: the same pixels as drawing the row."""
    row = CardRow("", tuple(cards), face_down, deck)
    plan = cardart._plan(row, row_width)
    rgb = Image.new("RGB", (cardart.PATCH_BLEED + plan.width, plan.height - cardart.LABEL_H), cardart.BG)
    cardart._draw_cards(rgb, ImageDraw.Draw(rgb), row, plan, cardart.PATCH_BLEED, 0)
    drawn = rgb.quantize(palette=cardart._palette(), dither=Image.Dither.NONE)
    tiled = cardart._tiled_cards(row, plan)
    overlapped = len(plan.lines) > 1 or (len(cards) > 1 and plan.step < cardart.CARD_W)
    assert (tiled is None) == (overlapped or not (cards or face_down))
    if tiled is not None:
        assert tiled.size == drawn.size
        assert tiled.tobytes() == drawn.tobytes()


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40), st.integers(1, 4), st.sampled_from([400, 700, 1100]))
def test_a_background_from_its_kept_title_is_the_background_drawn_and_mapped(title, rows, max_width):
    layout = cardart._layout([CardRow("Seat", ("9h",))] * rows, title, max_width, None)
    drawn = cardart._background(layout, title).quantize(palette=cardart._palette(), dither=Image.Dither.NONE)
    assert cardart._background_palette(layout, title).tobytes() == png_writer.framed(drawn).tobytes()


def test_felt_is_the_palettes_first_colour_so_zeroed_rows_are_felt_with_their_filter_bytes():
    """A band is composed in a zeroed buffer (cardart._band_pixels): zeros must be felt."""
    assert cardart._felt_index() == 0
    felt = Image.new("RGB", (3, 2), cardart.BG).quantize(palette=cardart._palette(), dither=Image.Dither.NONE)
    assert felt.tobytes() == bytes(6)


PICTURES = st.tuples(
    st.lists(st.tuples(st.sampled_from(LABELS), st.lists(st.sampled_from(FRENCH[:16]), max_size=6, unique=True),
                       st.sampled_from([0, 0, 1, 4, 17])), max_size=5),
    st.sampled_from(["", "Idiot #3", "Ťŷ Jj"]), st.sampled_from([None, 1, 2]))


@settings(max_examples=60, deadline=None)
@given(st.lists(PICTURES, min_size=2, max_size=4))
@example([([("", [], 0)], "", None), ([], "", None)])  # felt at the top, "No cards." there
def test_a_picture_drawn_from_bands_and_parts_other_pictures_left_is_the_picture_drawn_afresh(pictures):
    """Bands are kept by what they show, not by their pixels: whatever pictures were
    drawn before (sharing rows, labels, widths, titles or none), a picture's bytes are
    those it has when drawn with empty caches."""
    pictures = [([CardRow(label, tuple(cards), down) for label, cards, down in rows], title, columns)
                for rows, title, columns in pictures]
    clear_picture_caches()
    after_others = [render_rows(rows, title=title, columns=columns) for rows, title, columns in pictures]
    for (rows, title, columns), png in zip(pictures, after_others):
        clear_picture_caches()
        assert render_rows(rows, title=title, columns=columns) == png


def test_a_kept_picture_is_the_picture_drawn_and_any_changed_input_is_drawn_anew():
    """The finished pictures kept by their whole input (``cardart._PNG_CACHE``): a hit
    gives the bytes drawing gives, and a picture that differs in anything it draws (a
    label, a card, a back, the deck, the title, the columns, the width) is not found
    there: another player's hand, with other cards under the same label, is never
    handed out for this one."""
    hand = [CardRow("Your hand", ("9h", "Tc", "Qs")), CardRow("Top card", ("2d",))]
    clear_picture_caches()
    drawn = render_rows(hand, title="Idiot #1")
    assert cardart.cached_png(hand, title="Idiot #1") == drawn
    clear_picture_caches()
    assert cardart.cached_png(hand, title="Idiot #1") is None
    assert render_rows(hand, title="Idiot #1") == drawn  # drawn afresh: the same bytes
    # Words for the screen reader are not drawn: the same picture.
    spoken = [CardRow("Your hand", ("9h", "Tc", "Qs"), spoken="Your cards: {cards}"), hand[1]]
    assert cardart.cached_png(spoken, title="Idiot #1") == drawn
    others = {
        "another player's cards": ([CardRow("Your hand", ("9h", "Tc", "Ks")), hand[1]], {"title": "Idiot #1"}),
        "a card fewer": ([CardRow("Your hand", ("9h", "Tc")), hand[1]], {"title": "Idiot #1"}),
        "a back more": ([CardRow("Your hand", ("9h", "Tc", "Qs"), face_down=1), hand[1]], {"title": "Idiot #1"}),
        "a label": ([CardRow("Your hand · to play", ("9h", "Tc", "Qs")), hand[1]], {"title": "Idiot #1"}),
        "the deck": ([CardRow("Your hand", ("9h", "Tc", "Qs"), deck="onion"), CardRow("Top card", ("2d",), deck="onion")], {"title": "Idiot #1"}),
        "the title": (hand, {"title": "Idiot #2"}),
        "the columns": (hand, {"title": "Idiot #1", "columns": 1}),
        "the width": (hand, {"title": "Idiot #1", "max_width": 400}),
    }
    for what, (rows, layout) in others.items():
        assert cardart.cached_png(rows, **layout) is None, what
        png = render_rows(rows, **layout)
        # (Onion's French suits have the French faces, and one column or a narrower
        # bound may lay this picture out as it was: other inputs, maybe the same pixels.)
        assert png != drawn or what in ("the deck", "the columns", "the width"), what
        assert cardart.cached_png(rows, **layout) == png, what
    assert cardart.cached_png(hand, title="Idiot #1") == drawn


def test_the_kept_pictures_stay_within_their_bound_least_recently_used_out_first():
    pictures = [([CardRow(f"Seat {n}", (FRENCH[n % 52],), face_down=n % 5)], {"title": f"Idiot #{n}"}) for n in range(12)]
    bound = cardart._PNG_CACHE.max_bytes
    try:
        clear_picture_caches()
        pngs = [render_rows(rows, **layout) for rows, layout in pictures[:3]]
        cardart._PNG_CACHE.max_bytes = sum(len(png) for png in pngs) + 10  # room for about three
        assert cardart.cached_png(*pictures[0][:1], **pictures[0][1]) == pngs[0]  # the first is now the latest used
        for rows, layout in pictures[3:]:
            render_rows(rows, **layout)
            assert cardart._PNG_CACHE.size <= cardart._PNG_CACHE.max_bytes
            assert cardart._PNG_CACHE.size == sum(size for _, size in cardart._PNG_CACHE.entries.values())
        assert cardart.cached_png(pictures[1][0], **pictures[1][1]) is None  # the oldest went first
        assert cardart.cached_png(pictures[-1][0], **pictures[-1][1]) is not None
    finally:
        cardart._PNG_CACHE.max_bytes = bound
        clear_picture_caches()


def test_clear_caches_forgets_every_kept_picture_part_and_layout():
    rows = [CardRow("Seat 1 · Ann · 5 in hand", ("9h", "Tc"), face_down=5), CardRow("Pile", ("2d",))]
    png = render_rows(rows, title="Idiot #4")
    cardart.clear_caches()
    assert not (cardart._PNG_CACHE.entries or cardart._PATCHES.entries or cardart._BANDS.entries)
    assert cardart._row_facts.cache_info().currsize == cardart._label_in_patch.cache_info().currsize == 0
    assert render_rows(rows, title="Idiot #4") == png
    cardart.clear_caches(faces=True)
    assert cardart._face.cache_info().currsize == 0
    assert render_rows(rows, title="Idiot #4") == png
