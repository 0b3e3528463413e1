"""Card pictures: rows of card faces drawn with Pillow, for the table and the hand.

This module is pure (no Discord, no asyncio): the platform calls it off the event loop
(its drawing thread or worker process, ``bot/pictures/picture_pool.py``) and attaches the PNG to
the message edit that happens anyway.

A game's render module describes a picture as :class:`CardRow` values built from an
*observation*: a public picture from the spectator observation only, a hand picture
from that player's own observation. A face-down card is only ever a count, so no
hidden card can be an input of a picture.

    >>> png = render_rows([CardRow("Pile", ("9h", "Tc"), face_down=3)], title="Idiot")
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True

Faces are cached (:func:`card_face`, by code and size), and so are text (per word), the
faces, backs, labels, titles and rows' cards drawn on felt and mapped onto one fixed
palette, and the compressed bands of pictures' rows, kept by what they show: a picture
is a few pastes of kept parts, and a PNG in which only the bands that changed are
compressed again (:func:`_composed`; ``bot/pictures/png_writer.py`` deflates the bands and writes
the file). Layout: a row is its label, then its face-up cards left to right, then its backs. A row too long for ``ROW_WIDTH`` overlaps
its cards (each card's index corner stays visible), and wraps onto more lines when even
that would not fit. Four or more backs are drawn as one stack with the count on it. Rows
sit on a grid in reading order, as few side by side as keep the picture no taller than
Discord's box when the media gallery widens it to the box's width (:func:`_columns`).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.pictures import png_writer
from bot.pictures.cardart_pips import badge_mask, enid_mask, pip_mask, rounded_mask
from bot.words.i18n import N_, _, and_list, ngettext, per_language


@dataclass(frozen=True, slots=True)
class CardRow:
    """One labelled row of a card picture.

    ``cards`` are face-up card codes: ``bot.rules.cards`` codes ("9h", "Tc", "As") or, with
    ``deck="onion"``, Cripple Mr Onion's codes (French ``c s h d`` and Latin ``w t u o``
    suits); a trailing ``*`` marks Onion's marked copy of a special card.
    ``face_down`` is how many card backs to draw after them (a count, never identities).
    ``spoken``: the row as a sentence a person would say, for the alt text (the label is
    a caption for the eye); ``{cards}`` in it stands for the face-up cards by name.
    Empty: the alt text is built from the label (see :func:`alt_text`).
    """

    label: str
    cards: tuple[str, ...] = ()
    face_down: int = 0
    deck: str = "french"
    spoken: str = field(default="", compare=False)  # words, not the picture: rows compare by what they draw


# --------------------------------------------------------------------------- look

CARD_W, CARD_H, CARD_RADIUS = 70, 98, 7
CARD_GAP = 6            # between cards that are not overlapped
MIN_STEP = 28           # narrowest overlap that still shows a card's index corner
BACK_STEP = 18          # how far apart a few backs sit after face-up cards (alone: side by side)
STACK_FROM = 4          # this many backs or more are one stack with the count on it: a number reads faster
STACK_LAYERS = 4        # never more than STACK_FROM: a picture never shows more backs than the count
MARGIN = 14
ROW_GAP = 12
LINE_GAP = 6
LABEL_H = 26
TITLE_H = 38
LABEL_SIZE, TITLE_SIZE, COUNT_SIZE = 18, 24, 22  # font sizes (px)
COLUMN_GAP = 22
MIN_WIDTH = 200
ROW_WIDTH = 720         # a long row wraps here: Discord shows ~550 px inline, wider only shrinks
MAX_WIDTH = 1100        # short rows may sit side by side up to this width
HARD_MAX_WIDTH = 1200
#: The box a board's picture is shown in: a Components V2 media gallery fills the message's
#: container (about 568 px wide in a 960 px message area) at the picture's own aspect, so a
#: narrow picture is shown as tall as it is long; 400 px of height keeps a board with its
#: text lines on one screen (issue 35: a board at most 800 px high).
DISPLAY_BOX = (568, 400)

BG = (28, 78, 52)
LABEL_INK = (236, 242, 234)
MUTED_INK = (150, 190, 160)
FACE = (253, 252, 247)
EDGE = (120, 120, 120)
BACK = (34, 56, 128)
BACK_LATTICE = (70, 98, 176)
BADGE = (222, 164, 20)
BADGE_EDGE = (120, 80, 0)
SHEET_INK = (40, 40, 40)
SHEET_NOTE = (110, 110, 110)

SUIT_COLOURS = {
    "c": (22, 22, 22), "s": (22, 22, 22),          # French: black and red
    "h": (204, 28, 40), "d": (204, 28, 40),
    "w": (26, 90, 176),                            # Latin: each its own colour
    "t": (34, 122, 52),
    "u": (138, 44, 160),
    "o": (186, 118, 0),
}
SUIT_NAMES = {
    "c": N_("Clubs"), "s": N_("Spades"), "h": N_("Hearts"), "d": N_("Diamonds"),
    "w": N_("Swords"), "t": N_("Staves"), "u": N_("Cups"), "o": N_("Coins"),
}
ENID_NAMES = {"c": "Carp", "s": "Sturgeon", "h": "Halibut", "d": "Dalmations"}

RANKS = "A23456789TJQK"
DECK_SUITS = {"french": "cshd", "enid": "cshd", "onion": "cshdwtuo"}
_RANK_LABEL = {"T": "10"}
_RANK_NAMES = {"A": N_("Ace"), "T": "10", "J": N_("Jack"), "Q": N_("Queen"), "K": N_("King")}


# --------------------------------------------------------------------------- threads

# Pictures are drawn in the platform's drawing thread, while at the start another thread
# warms the decks up (and tools may draw from threads of their own): two may draw at once. A
# FreeType face is not safe to use from two threads, and the caches fill as they go: the
# drawing (a few ms) holds this lock; the palette mapping and PNG encode do not.
_LOCK = threading.RLock()


def _serialised(fn: Callable) -> Callable:
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with _LOCK:
            return fn(*args, **kwargs)

    return wrapper


# --------------------------------------------------------------------------- fonts


def _font_file() -> Path | None:
    try:
        import fontpkg_noto_sans
    except ImportError:
        return None
    files = sorted(p for p in (Path(fontpkg_noto_sans.ROOT) / "files").glob("*.ttf") if "Italic" not in p.name)
    return files[0] if files else None


@lru_cache(maxsize=32)
def _font(size: int, weight: int = 700, width: int = 100) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Noto Sans at a weight (100-900) and width (62-100); Pillow's own font if it is missing."""
    path = _font_file()
    if path is not None:
        try:
            font = ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
            axes = {a["name"]: a for a in font.get_variation_axes()}
            if b"Weight" in axes and b"Width" in axes:
                font.set_variation_by_axes([weight if n == b"Weight" else width for n in axes])
            return font
        except OSError:
            pass
    return ImageFont.load_default(size)


# Text is measured, cut and rendered once per word: FreeType laying out a label of the
# variable font again (1-7 ms, more than the rest of a picture) was most of a picture's
# cost, and a move changes a label by a word or two (a count, whose turn). The fonts are
# cached too, so a font object is a stable key.


@lru_cache(maxsize=8192)
def _text_width(font, text: str) -> int:
    if isinstance(font, ImageFont.FreeTypeFont) and "\n" not in text:
        left, _, right, _ = _bbox(font, text, "ls")  # the vertical anchor moves no x
    else:
        left, _, right, _ = font.getbbox(text)
    return int(right - left)


@lru_cache(maxsize=8192)
def _bbox(font, text: str, anchor: str) -> tuple[int, int, int, int]:
    """``font.getbbox(text, anchor=anchor)``, from the pieces the text is drawn with
    (their masks span exactly that box: tested)."""
    if not isinstance(font, ImageFont.FreeTypeFont):
        return font.getbbox(text, anchor=anchor)
    pieces = _rendered(font, text, anchor)
    return (min(dx for dx, _, _ in pieces), min(dy for _, dy, _ in pieces),
            max(dx + mask.size[0] for dx, _, mask in pieces), max(dy + mask.size[1] for _, dy, mask in pieces))


@lru_cache(maxsize=8192)
def _rendered(font, text: str, anchor: str) -> tuple[tuple[int, int, Any], ...]:
    """The text as ``ImageDraw.text`` renders it for an RGB image (mode "L", whole-pixel
    position): antialiased masks, each with its offset from the anchor. Pillow's basic
    layout puts each glyph at the sum of the advances before it, in whole pixels, and
    a string's mask is its glyphs' masks together; so words on a baseline are rendered
    once each and set at their pen positions, when those are whole pixels and the
    words' masks do not meet (else the string is rendered whole). Tested against
    ``draw.text`` and ``getbbox``."""
    words = text.split(" ")
    if anchor == "ls" and len(words) > 1 and all(words):
        pieces, pen, space = [], 0.0, _advance(font, " ")
        for word in words:
            ((dx, dy, mask),) = _rendered(font, word, anchor)
            if pen != int(pen) or (pieces and pieces[-1][0] + pieces[-1][2].size[0] > pen + dx):
                break
            pieces.append((int(pen) + dx, dy, mask))
            pen += _advance(font, word) + space
        else:
            return tuple(pieces)
    mask, (dx, dy) = font.getmask2(text, "L", anchor=anchor, start=(0.0, 0.0))
    return ((dx, dy, mask),)


@lru_cache(maxsize=8192)
def _advance(font, text: str) -> float:
    return font.getlength(text)


@lru_cache(maxsize=8192)
def _ink(font, text: str, anchor: str) -> tuple[tuple[int, int, Image.Image], ...]:
    """:func:`_rendered`'s pieces as masks ("L" images) to paste ink through (an empty
    piece, which inks nothing, left out)."""
    return tuple((dx, dy, Image.frombytes("L", mask.size, bytes(mask))) for dx, dy, mask in _rendered(font, text, anchor)
                 if mask.size[0] and mask.size[1])


def _draw_text(img: Image.Image, xy: tuple[int, int], text: str, font, fill, anchor: str) -> None:
    """``ImageDraw.Draw(img).text(xy, text, font=font, fill=fill, anchor=anchor)`` for one
    line on an RGB image, from the cached rendering: the ink pasted through each word's
    mask, as ``text`` fills through the string's (the same pixels: tested). A label whose
    count changed renders one new word, not the whole label again."""
    if not isinstance(font, ImageFont.FreeTypeFont) or "\n" in text:
        ImageDraw.Draw(img).text(xy, text, font=font, fill=fill, anchor=anchor)
        return
    for dx, dy, mask in _ink(font, text, anchor):
        x, y = int(xy[0]) + dx, int(xy[1]) + dy
        img.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


@lru_cache(maxsize=4096)
def _drawable(char: str) -> bool:
    """Whether the font has this character (a missing one draws as the same empty box
    as a private-use code point would)."""
    font = _font(LABEL_SIZE, 600)
    missing = font.getmask("\U0010fffd")
    mask = font.getmask(char)
    return mask.size != missing.size or bytes(mask) != bytes(missing)


@lru_cache(maxsize=8192)
def _clean(text: str) -> str:
    """Text without the characters the font lacks (emoji, CJK...): no boxes in a label.
    The message text beside the picture still carries them."""
    kept = "".join(ch for ch in text if ch.isspace() or _drawable(ch))
    return " ".join(kept.split())


def drawable(text: str) -> str:
    """``text`` with only the characters the pictures' font can draw (a player's name
    in emoji or a script the font lacks comes out shorter, or empty)."""
    return _clean(text)


@lru_cache(maxsize=8192)
def _fit(font, text: str, width: int) -> str:
    """The text, cut with an ellipsis so it fits ``width`` pixels."""
    text = _clean(text)
    if _text_width(font, text) <= width:
        return text
    lo, hi = 0, len(text)  # the longest prefix that fits with the ellipsis, by bisection
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _text_width(font, text[:mid] + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "…"


# --------------------------------------------------------------------------- codes


def parse_code(code: str, deck: str = "french") -> tuple[str, str, bool]:
    """``(rank, suit, marked)`` of a card code, e.g. ``"10h"`` -> ``("T", "h", False)``.

    Decks: ``french`` (also ``enid``: Enid renames the suits, its cards keep the French
    pips) and ``onion`` (eight suits; ``*`` after any code draws the marked-copy badge,
    the game decides which copies are marked).

    Raises ValueError with a readable sentence for an unknown deck or code.
    """
    if deck not in DECK_SUITS:
        raise ValueError(f"Unknown deck {deck!r}: use one of {', '.join(sorted(DECK_SUITS))}.")
    if not isinstance(code, str):
        raise ValueError(f"{code!r} is not a card code: write a rank then a suit, like 9h or Tc.")
    raw = code.strip()
    marked = raw.endswith("*")
    if marked:
        if deck != "onion":
            raise ValueError(f"'{code}' is not a card code: only Onion's special cards can be marked with *.")
        raw = raw[:-1]
    rank, suit = raw[:-1].upper(), raw[-1:].lower()
    rank = "T" if rank == "10" else rank
    if len(rank) != 1 or rank not in RANKS or not suit or suit not in DECK_SUITS[deck]:
        suits = " ".join(DECK_SUITS[deck])
        raise ValueError(
            f"'{code}' is not a card code of the {deck} deck: write a rank (A 2-9 T J Q K) then a suit ({suits})."
        )
    return rank, suit, marked


# --------------------------------------------------------------------------- faces


def _paste_colour(img: Image.Image, colour, mask: Image.Image, xy: tuple[int, int]) -> None:
    img.paste(Image.new("RGB", mask.size, colour), xy, mask)


@lru_cache(maxsize=128)
def _text_mask(text: str, size: int, weight: int, width: int) -> tuple[Image.Image, int, int]:
    """A text's antialiased mask and its offset from the anchor (middle, baseline).
    Rendering a variable font is slow; faces share these (13 ranks, 3 court letters)."""
    font = _font(size, weight, width)
    left, top, right, bottom = font.getbbox(text, anchor="ms")
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor="ms")
    return mask, left, top


def _text(img: Image.Image, xy: tuple[int, int], text: str, colour, size: int, weight: int = 700, width: int = 100) -> None:
    """Draw text centred on x, sitting on the baseline y, from the cached mask."""
    mask, left, top = _text_mask(text, size, weight, width)
    _paste_colour(img, colour, mask, (xy[0] + left, xy[1] + top))


def _blank(fill, edge, width: int, height: int) -> Image.Image:
    """A rounded card shape with a one-pixel edge, on a transparent background."""
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    _paste_colour(img, edge, rounded_mask(width, height, CARD_RADIUS), (0, 0))
    _paste_colour(img, fill, rounded_mask(width - 2, height - 2, CARD_RADIUS - 1), (1, 1))
    return img


@lru_cache(maxsize=512)
def _face(rank: str, suit: str, marked: bool, width: int, height: int) -> Image.Image:
    ink = SUIT_COLOURS[suit]
    img = _blank(FACE, EDGE, width, height)
    draw = ImageDraw.Draw(img)
    k = width / CARD_W
    # Index corner: the part left showing when cards overlap, so it carries everything.
    col = round(15 * k)
    label = _RANK_LABEL.get(rank, rank)
    _text(img, (col, round(23 * k)), label, ink, round(25 * k), 700, 62 if len(label) > 1 else 100)
    small = round(16 * k)
    _paste_colour(img, ink, pip_mask(suit, small), (col - small // 2, round(33 * k)))
    if marked:
        d = round(19 * k)
        x, y = col - d // 2, round(53 * k)
        _paste_colour(img, BADGE_EDGE, badge_mask("disc", d), (x, y))
        _paste_colour(img, BADGE, badge_mask("disc", d - 2), (x + 1, y + 1))
        _paste_colour(img, (255, 255, 255), badge_mask("star", d - 6), (x + 3, y + 3))
    # The rest of the card: one big pip, or a framed court letter.
    left, right = round(28 * k), width - round(5 * k)
    cx = (left + right) // 2
    if rank in "JQK":
        top, bottom = round(7 * k), height - round(7 * k)
        draw.rounded_rectangle([left, top, right, bottom], radius=round(4 * k), fill=_tint(ink), outline=ink, width=max(1, round(2 * k)))
        _text(img, (cx, top + round(28 * k)), rank, ink, round(30 * k), 800)
        big = round(24 * k)
        _paste_colour(img, ink, pip_mask(suit, big), (cx - big // 2, bottom - big - round(9 * k)))
    else:
        big = round((40 if rank == "A" else 34) * k)
        _paste_colour(img, ink, pip_mask(suit, big), (cx - big // 2, height // 2 - big // 2 + round(6 * k)))
    return img


@_serialised
def card_face(code: str, deck: str = "french", width: int = CARD_W, height: int = CARD_H) -> Image.Image:
    """The RGBA face of a card (cached; do not modify the returned image)."""
    rank, suit, marked = parse_code(code, deck)
    return _face(rank, suit, marked, width, height)


@lru_cache(maxsize=16)
def card_back(width: int = CARD_W, height: int = CARD_H) -> Image.Image:
    """The RGBA back every deck shares (cached)."""
    img = _blank(BACK, (230, 230, 230), width, height)
    inset = max(3, round(width * 0.07))
    lattice = Image.new("RGB", (width, height), BACK)
    draw = ImageDraw.Draw(lattice)
    for x in range(-height, width + height, 9):
        draw.line([(x, 0), (x + height, height)], fill=BACK_LATTICE, width=2)
        draw.line([(x, height), (x + height, 0)], fill=BACK_LATTICE, width=2)
    inner = rounded_mask(width - 2 * inset, height - 2 * inset, max(2, CARD_RADIUS - inset // 2))
    img.paste(lattice.crop((inset, inset, width - inset, height - inset)), (inset, inset), inner)
    return img


@_serialised
def warm_up(deck: str = "french") -> int:
    """Draw every face of a deck (and the back) into the caches; returns how many faces.

    The first picture after a start otherwise pays for the faces it shows and for each
    font size's first glyph (FreeType: 10-20 ms per size): call this once off the event
    loop at start-up if that matters."""
    codes = [rank + suit for suit in DECK_SUITS[deck] for rank in RANKS]
    for code in codes:
        card_face(code, deck)
    card_back()
    for size, weight in ((LABEL_SIZE, 600), (TITLE_SIZE, 700), (COUNT_SIZE, 700)):
        _font(size, weight).getbbox("0")
    _encode(Image.new("RGB", (1, 1), BG))
    return len(codes)


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True, slots=True)
class _RowPlan:
    lines: tuple[tuple[str, ...], ...]   # face codes per line
    step: int                           # distance between card left edges
    backs: int
    width: int                          # of the widest line, in pixels
    height: int                         # label included


def _back_step(row: CardRow) -> int:
    """Backs alone in a row (a player's face-down cards, chosen by position) lie side by
    side; after face-up cards they only need to read as so many cards."""
    return BACK_STEP if row.cards else CARD_W + CARD_GAP


def _backs_width(n: int, step: int) -> int:
    if n <= 0:
        return 0
    if n >= STACK_FROM:
        return CARD_W + 4 * (STACK_LAYERS - 1)
    return CARD_W + step * (n - 1)


def _plan(row: CardRow, inner: int) -> _RowPlan:
    return _plan_cards(row.cards, row.face_down, inner)


@lru_cache(maxsize=4096)
def _plan_cards(cards: tuple[str, ...], face_down: int, inner: int) -> _RowPlan:
    """A row's plan depends on its cards, its backs and the width only (not its label
    or deck): kept, as a move changes one or two rows of a picture."""
    row = CardRow("", cards, face_down)
    n = len(row.cards)
    backs = _backs_width(row.face_down, _back_step(row))
    sep = 2 * CARD_GAP if n and backs else 0
    natural = CARD_W + CARD_GAP
    if n <= 1:
        lines, step = (tuple(row.cards),), natural
    else:
        room = max(CARD_W + MIN_STEP, inner - sep - backs)
        step = min(natural, (room - CARD_W) // (n - 1))
        if step >= MIN_STEP:
            lines = (tuple(row.cards),)
        else:
            per_line = (room - CARD_W) // MIN_STEP + 1
            count = -(-n // per_line)
            # Balanced lines (13+13, not 20+6), all with the same overlap.
            size, extra = divmod(n, count)
            lines, at = [], 0
            for i in range(count):
                take = size + (1 if i < extra else 0)
                lines.append(tuple(row.cards[at:at + take]))
                at += take
            lines = tuple(lines)
            longest = max(len(line) for line in lines)
            step = min(natural, (room - CARD_W) // (longest - 1))
    widths = []
    for i, line in enumerate(lines):
        w = CARD_W + step * (len(line) - 1) if line else 0
        if i == len(lines) - 1 and backs:
            w += sep + backs
        widths.append(w)
    width = max(max(widths), CARD_W)
    height = LABEL_H + len(lines) * CARD_H + (len(lines) - 1) * LINE_GAP
    return _RowPlan(lines, step, row.face_down, width, height)


def _draw_backs(img: Image.Image, draw: ImageDraw.ImageDraw, n: int, step: int, x: int, y: int) -> None:
    back = card_back()
    if n < STACK_FROM:
        for i in range(n):
            img.paste(back, (x + i * step, y), back)
        return
    for i in range(STACK_LAYERS):
        img.paste(back, (x + i * 4, y), back)
    # The count, on a pill over the top card.
    top_x = x + 4 * (STACK_LAYERS - 1)
    font = _font(COUNT_SIZE, 700)
    text = str(n)
    tw = _text_width(font, text)
    cx, cy = top_x + CARD_W // 2, y + CARD_H // 2
    half = max(16, tw // 2 + 9)
    draw.rounded_rectangle([cx - half, cy - 15, cx + half, cy + 15], radius=15, fill=FACE, outline=EDGE)
    _draw_text(img, (cx, cy), text, font, BACK, "mm")


def _ramp(a: tuple[int, ...], b: tuple[int, ...], steps: int = 6) -> list[tuple[int, ...]]:
    return [tuple(round(x + (y - x) * k / steps) for x, y in zip(a, b)) for k in range(steps + 1)]


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One fixed palette for every picture: each colour drawn, and the antialiasing ramps
    between the colours that touch. Mapping onto it is several times faster than an
    adaptive quantiser, and the same everywhere."""
    inks = sorted(set(SUIT_COLOURS.values()))
    pairs = [(BG, LABEL_INK), (BG, MUTED_INK), (BG, FACE), (BG, EDGE), (BG, (230, 230, 230)), (FACE, EDGE),
             (BACK, BACK_LATTICE), (BACK, (230, 230, 230)), (FACE, BACK), (BADGE, (255, 255, 255)), (BADGE_EDGE, (255, 255, 255)), (BG, BADGE_EDGE),
             (BADGE, BADGE_EDGE), (FACE, BADGE_EDGE), (FACE, SHEET_INK), (FACE, SHEET_NOTE), (EDGE, (230, 230, 230))]
    for ink in inks:
        pairs += [(FACE, ink), (_tint(ink), ink), (FACE, _tint(ink))]
    colours = list(dict.fromkeys(c for a, b in pairs for c in _ramp(a, b)))
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in colours for v in c])
    return pal


@lru_cache(maxsize=1)
def _palette_bytes() -> bytes:
    """The PNG palette (PLTE) of a picture mapped onto :func:`_palette`."""
    return bytes(Image.new("RGB", (1, 1), BG).quantize(palette=_palette(), dither=Image.Dither.NONE).getpalette("RGB"))


def _tint(ink: tuple[int, ...]) -> tuple[int, ...]:
    """The pale panel behind a court card's letter."""
    return tuple(round(c * 0.14 + 255 * 0.86) for c in ink)


def _encode(img: Image.Image) -> bytes:
    """An RGB image as a palette PNG (the fixed :func:`_palette`)."""
    return _png(img.quantize(palette=_palette(), dither=Image.Dither.NONE))


# --------------------------------------------------------------------------- PNG


def _deflated(filtered: bytes | memoryview, key: Any) -> png_writer.Band:
    """One band of PNG's filtered data deflated on its own (``png_writer.deflate_band``),
    kept under ``key``, which stands for exactly these bytes (the bytes themselves, or
    what they show: :func:`_composed`): a move recompresses only the bands it changed,
    and a band's output never depends on what was cached."""
    band = png_writer.deflate_band(filtered)
    _BANDS.put(key, band, (len(filtered) if key is filtered else 300) + len(band[0]) + 200)
    return band


def _band(filtered: bytes) -> png_writer.Band:
    """:func:`_deflated` of a band, kept by its bytes."""
    band = _BANDS.get(filtered)
    return band if band is not None else _deflated(filtered, filtered)


def _png(img: Image.Image) -> bytes:
    """A palette image as a PNG file (``png_writer.png``), its bands kept by their bytes."""
    return png_writer.png(img, _band)


@lru_cache(maxsize=4096)
def _grid(sizes: tuple[tuple[int, int], ...], columns: int, head: int) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """Column widths, line heights and picture size for blocks laid out in reading order
    (kept: a move changes few rows' sizes, often none)."""
    widths = tuple(max(w for w, _ in sizes[c::columns]) for c in range(columns))
    heights = tuple(max(h for _, h in sizes[i:i + columns]) for i in range(0, len(sizes), columns))
    width = 2 * MARGIN + sum(widths) + COLUMN_GAP * (columns - 1)
    height = 2 * MARGIN + head + sum(heights) + ROW_GAP * (len(heights) - 1)
    return widths, heights, width, height


@lru_cache(maxsize=4096)
def _columns(sizes: tuple[tuple[int, int], ...], head: int, max_width: int) -> int:
    """How many columns lay the rows out for Discord's box: a Components V2 gallery shows
    the picture across the box's width at its own aspect (a narrow picture is widened),
    so a column of rows is shown tall. The fewest columns whose picture, so shown, is no
    taller than the box (the largest cards that fit); when none is, the shortest."""
    box_w, box_h = DISPLAY_BOX
    best, best_height = 1, float("inf")
    for columns in range(1, len(sizes) + 1):
        _, _, width, height = _grid(sizes, columns, head)
        if width > max_width and columns > 1:
            break
        shown = box_w * height / width
        if shown <= box_h:
            return columns
        if shown < best_height - 1e-9:
            best, best_height = columns, shown
    return best


@dataclass(frozen=True, slots=True)
class _Layout:
    rows: tuple[CardRow, ...]
    plans: tuple[_RowPlan, ...]
    sizes: tuple[tuple[int, int], ...]  # each row's own width and height
    label_widths: tuple[int, ...]  # each row's label, as drawn uncut
    row_width: int
    widths: tuple[int, ...]     # of each column
    heights: tuple[int, ...]    # of each line of rows
    width: int
    height: int
    head: int
    columns: int
    origins: tuple[tuple[int, int], ...]  # each row's top left corner

    def patch_width(self, i: int) -> int:
        """The width a row is drawn in: its own, unless its label is cut to its column's
        width (then that). So a row's patch does not change with the other rows of its
        column, and is reused when only they changed."""
        own = self.sizes[i][0]
        if self.label_widths[i] <= own:
            return own
        return self.widths[i % self.columns]

    def origin(self, i: int) -> tuple[int, int]:
        return self.origins[i]


@lru_cache(maxsize=4096)
def _check_codes(cards: tuple[str, ...], deck: str) -> None:
    """Raise ValueError for the first bad code (rows of valid codes are remembered: a
    refused row raises each time)."""
    for code in cards:
        parse_code(code, deck)


@lru_cache(maxsize=8192)
def _row_facts(row: CardRow, row_width: int, label_font: Any) -> tuple[_RowPlan, tuple[int, int], int]:
    """What laying a row out needs of it: its plan, its own width and height in a
    picture, and its label's width uncut. Kept by the row (its label, cards, backs and
    deck: what it draws) and the font: a move changes one or two rows of a picture, and
    the others cost one look-up here instead of five. Raises ValueError for a negative
    ``face_down`` or a bad card code, each time (a refused row is not kept)."""
    if row.face_down < 0:
        raise ValueError(f"Row {row.label!r} has {row.face_down} face-down cards: a count cannot be negative.")
    _check_codes(row.cards, row.deck)
    plan = _plan(row, row_width)
    label_width = _text_width(label_font, _clean(row.label))
    return plan, (max(plan.width, min(label_width, row_width)), plan.height), label_width


def _layout(rows: Sequence[CardRow], title: str, max_width: int, columns: int | None) -> _Layout:
    max_width = max(CARD_W + 2 * MARGIN + MIN_STEP, min(max_width, HARD_MAX_WIDTH))
    rows = tuple(rows)
    row_width = min(max_width, ROW_WIDTH) - 2 * MARGIN
    label_font = _font(LABEL_SIZE, 600)
    facts = [_row_facts(row, row_width, label_font) for row in rows]
    plans = tuple(plan for plan, _, _ in facts)
    # An empty picture is one line of text, "No cards.", where the rows would be.
    sizes = tuple(size for _, size, _ in facts) or ((_text_width(label_font, "No cards."), LABEL_H),)
    head = TITLE_H if title else 0
    if columns is None:
        columns = _columns(sizes, head, max_width)
    columns = max(1, min(columns, len(sizes)))
    while columns > 1 and _grid(sizes, columns, head)[2] > max_width:
        columns -= 1
    widths, heights, width, height = _grid(sizes, columns, head)
    if title:
        width = max(width, min(max_width, _text_width(_font(TITLE_SIZE, 700), _clean(title)) + 2 * MARGIN))
    width = max(width, MIN_WIDTH)
    lefts = [MARGIN + sum(widths[:col]) + COLUMN_GAP * col for col in range(columns)]
    tops = [MARGIN + head + sum(heights[:line]) + ROW_GAP * line for line in range(len(heights))]
    origins = tuple((lefts[i % columns], tops[i // columns]) for i in range(len(rows)))
    return _Layout(rows, plans, sizes, tuple(label_width for _, _, label_width in facts), row_width,
                   widths, heights, width, height, head, columns, origins)


def _background(layout: _Layout, title: str) -> Image.Image:
    """The picture without its rows: the felt, the title, or "No cards."."""
    img = Image.new("RGB", (layout.width, layout.height), BG)
    if title:
        title_font = _font(TITLE_SIZE, 700)
        _draw_text(img, (MARGIN, MARGIN + 26), _fit(title_font, title, layout.width - 2 * MARGIN), title_font, LABEL_INK, "ls")
    if not layout.rows:
        _draw_text(img, (MARGIN, MARGIN + layout.head + 18), "No cards.", _font(LABEL_SIZE, 600), MUTED_INK, "ls")
    return img


def _background_palette(layout: _Layout, title: str) -> Image.Image:
    """:func:`_background` mapped onto the palette and framed (``png_writer.framed``: the
    picture starts at x = 1), for the rows to be pasted on: felt, and the title's text
    drawn on felt and mapped once (mapping a whole picture of felt cost as much as the
    rest of a picture drawn from cached rows). The mapping is per pixel, so the same
    pixels as the whole background mapped (tested)."""
    if not layout.rows:  # "No cards.": rare, drawn whole
        return png_writer.framed(_background(layout, title).quantize(palette=_palette(), dither=Image.Dither.NONE))
    img = Image.new("P", (layout.width + 1, layout.height), _felt_index())
    img.paste(0, (0, 0, 1, layout.height))  # the rows' filter bytes
    placed = _placed_title(layout, title)
    if placed is not None:
        tile, x, y = placed
        img.paste(tile, (x, y))
    return img


def _placed_title(layout: _Layout, title: str) -> tuple[Image.Image, int, int] | None:
    """The title's text on felt, mapped (kept), and where it goes on a picture's framed
    canvas; None for no title."""
    if not title:
        return None
    title_font = _font(TITLE_SIZE, 700)
    text = _fit(title_font, title, layout.width - 2 * MARGIN)
    if not text:
        return None
    tile, left, top = _text_tile("title", text)
    return tile, 1 + MARGIN + left, MARGIN + 26 + top


#: The font (size, weight) of a picture's title and of its rows' labels.
_TEXT_FONTS = {"title": (TITLE_SIZE, 700), "label": (LABEL_SIZE, 600)}


def _text_tile(kind: str, text: str) -> tuple[Image.Image, int, int]:
    """A title's or a label's text (``kind``) on felt, as small as its ink, mapped, with
    the ink box's offset from the text's origin (left, baseline): kept by the text."""
    key = (kind, _drawn_with(), text)
    kept = _PATCHES.get(key)
    if kept is None:
        font = _font(*_TEXT_FONTS[kind])
        left, top, right, bottom = _bbox(font, text, "ls")
        rgb = Image.new("RGB", (max(1, right - left), max(1, bottom - top)), BG)
        _draw_text(rgb, (-left, -top), text, font, LABEL_INK, "ls")
        tile = rgb.quantize(palette=_palette(), dither=Image.Dither.NONE)
        kept = (tile, left, top)
        _PATCHES.put(key, kept, tile.width * tile.height)
    return kept


@_serialised
def render_image(
    rows: Sequence[CardRow], *, title: str = "", max_width: int = MAX_WIDTH, columns: int | None = None
) -> Image.Image:
    """The picture of :func:`render_rows` as an RGB image (before palette and PNG)."""
    layout = _layout(rows, title, max_width, columns)
    img = _background(layout, title)
    draw = ImageDraw.Draw(img)
    label_font = _font(LABEL_SIZE, 600)
    for i, (row, plan) in enumerate(zip(layout.rows, layout.plans)):
        x0, y0 = layout.origin(i)
        _draw_row(img, draw, row, plan, x0, y0, layout.widths[i % layout.columns], label_font)
    return img


def _composed_png(rows: Sequence[CardRow], title: str, max_width: int, columns: int | None) -> bytes:
    """:func:`render_rows`'s drawing: the bands it needs composed (under the lock), then
    compressed and written out (not under it: zlib and isal let another thread draw meanwhile)."""
    width, height, bands, pending = _composed(rows, title, max_width, columns)
    for index, key, filtered in pending:
        bands[index] = _deflated(filtered, key)
    return png_writer.png_file(width, height, _palette_bytes(), bands)


@_serialised
def _composed(rows: Sequence[CardRow], title: str, max_width: int, columns: int | None) -> tuple[int, int, list, list]:
    """:func:`render_image` mapped onto the palette, as bands of PNG's filtered rows: the
    picture's width and height, each band's kept compression (None where it is not
    kept), and ``(index, key, bytes)`` of each band to compress.

    A picture is composed from cached parts on framed canvases (``png_writer.framed``) of
    felt, one per band (:func:`_band_cuts`) that is not kept: each row's label (its
    text drawn on felt and mapped once, :func:`_text_tile`) and its cards (on their
    own patch of felt, mapped once, :func:`_cards_patch`: a move that changes only a
    label, a count or whose turn it is, draws no card); the mapping is per pixel (no
    dithering) and parts never overlap, so the composed picture is the same, pixel for
    pixel, as the whole one mapped at once (tested). A band is kept by what it shows:
    the felt (and the title, if it reaches that far) and the parts in it with their
    offsets, each standing for its pixels by its own key. So a band is found without
    looking at its pixels, only the bands not kept are composed, and a kept band costs
    a few hundred bytes, not its pixels (20 KB)."""
    layout = _layout(rows, title, max_width, columns)
    label_font = _font(LABEL_SIZE, 600)
    labels = [_label_in_patch(row.label, layout.patch_width(i), label_font) for i, row in enumerate(layout.rows)]
    if not _rows_keep_to_their_patches(layout, title, labels):
        framed = png_writer.framed(render_image(rows, title=title, max_width=max_width, columns=columns).quantize(palette=_palette(), dither=Image.Dither.NONE))
        return layout.width, layout.height, png_writer.bands_of(framed, _band), []
    drawn_with, framed_width, row_width = _drawn_with(), layout.width + 1, layout.row_width
    # Each part: what it shows, the rows of the picture it may reach (from y, so many),
    # the part itself (kept, or drawn when first asked for: only a band that is not kept
    # needs its parts) and where it goes on the framed canvas.
    parts: list[tuple[Any, int, int, int, Callable[[], Image.Image], tuple[int, int]]] = []
    for row, (x, y), (text, left, top, _), plan in zip(layout.rows, layout.origins, labels, layout.plans):
        x += 1  # the canvas is framed
        if text:
            # Its ink stays inside its row's strip (see _rows_keep_to_their_patches).
            parts.append((("label", text), x, y, LABEL_H, functools.partial(_label_tile, text), (x + left, y + 18 + top)))
        cards = _cards_key(row, row_width)
        parts.append((cards, x, y + LABEL_H, plan.height - LABEL_H,
                      functools.partial(_cards_patch, row, row_width, cards), (x - PATCH_BLEED, y + LABEL_H)))
    bands, pending = [], []
    cuts = _band_cuts(layout)
    for top, bottom in zip(cuts, cuts[1:]):
        # The background's rows here: felt, unless the title (or "No cards.") is in them.
        felt = None if layout.rows and top >= MARGIN + layout.head else (title, top, not layout.rows)
        inside = [part for part in parts if part[2] < bottom and part[2] + part[3] > top]
        key = ("band", drawn_with, framed_width, bottom - top, felt, tuple((shows, x, y - top) for shows, x, y, _, _, _ in inside))
        band = _BANDS.get(key)
        if band is None:
            pending.append((len(bands), key, _band_pixels(layout, title, top, bottom, inside)))
        bands.append(band)
    return layout.width, layout.height, bands, pending


@lru_cache(maxsize=8192)
def _label_in_patch(label: str, width: int, font: Any) -> tuple[str, int, int, bool]:
    """A row's label as a patch ``width`` wide shows it: the text (cut to fit), its
    ink's offset from the text's origin (left, baseline), and whether that ink stays in
    the row's label strip (see :func:`_rows_keep_to_their_patches`). Kept: most rows
    of a picture are the rows of the one before it."""
    text = _fit(font, label, width)
    if not text:
        return text, 0, 0, True
    left, top, right, bottom = _bbox(font, text, "ls")
    return text, left, top, not (left < -PATCH_BLEED or right > width or 18 + top < 0 or 18 + bottom > LABEL_H)


def _label_tile(text: str) -> Image.Image:
    """A label's text on felt, mapped (:func:`_text_tile`)."""
    return _text_tile("label", text)[0]


def _band_cuts(layout: _Layout) -> list[int]:
    """Where a composed picture's bands start and end, top to bottom: below the title,
    and at the bottom of each row's label strip and of each row's cards. So a band
    holds one line of the grid's labels (with the felt above them), or its cards, or
    the title: a move that changes a row's cards compresses that line's cards again,
    one that changes only a label (a count, whose turn) that line's labels, and a
    card that leaves a hand does not drag the label above it along."""
    cuts = {0, MARGIN + layout.head, layout.height}
    for i, plan in enumerate(layout.plans):
        y = layout.origin(i)[1]
        cuts.update((y + LABEL_H, y + plan.height))
    return sorted(cuts)


def _band_pixels(layout: _Layout, title: str, top: int, bottom: int, parts: Sequence[tuple]) -> bytes | bytearray:
    """PNG's filtered rows ``top`` to ``bottom`` of a composed picture (see
    :func:`_composed`): the background's rows, and the ``parts`` that reach them
    pasted where they lie (Pillow clips what falls outside).

    The rows are composed on a canvas of zeros, which is felt (the palette's first
    colour: tested) with its filter bytes."""
    if not layout.rows:  # "No cards.": rare, drawn whole
        return _background_palette(layout, title).crop((0, top, layout.width + 1, bottom)).tobytes()
    canvas = Image.new("P", (layout.width + 1, bottom - top), 0)
    placed = _placed_title(layout, title) if top < MARGIN + layout.head else None
    if placed is not None:
        tile, x, y = placed
        canvas.paste(tile, (x, y - top))
    for _, _, _, _, part, (x, y) in parts:
        canvas.paste(part(), (x, y - top))
    return canvas.tobytes()


def _rows_keep_to_their_patches(layout: _Layout, title: str, labels: Sequence[tuple[str, int, int, bool]]) -> bool:
    """Whether no text reaches past its row's patch (an accent above a label, a title's
    descender into the first row): then the picture is composed from patches, else
    drawn whole (rare: the result is the same either way). ``labels``: each row's
    :func:`_label_in_patch`."""
    if title and layout.rows:
        title_font = _font(TITLE_SIZE, 700)
        box = _bbox(title_font, _fit(title_font, title, layout.width - 2 * MARGIN), "ls")
        if 26 + box[3] > layout.head:
            return False
    return all(inside for _, _, _, inside in labels)


def _drawn_with() -> Any:
    """What the kept pictures and parts were drawn with, part of their keys: the label
    font (a new font object whenever the fonts are loaded again, e.g. the fallback
    font), so nothing drawn with another font is reused."""
    return _font(LABEL_SIZE, 600)


#: A row's patch starts this many pixels left of the row, on felt no other row reaches
#: (the margin, or the gap between columns): a label's first letter may stand a pixel
#: left of its origin ("Y", "J"), and those labels would otherwise be drawn whole.
PATCH_BLEED = 4


def _cards_key(row: CardRow, row_width: int) -> tuple:
    return ("cards", _drawn_with(), row.cards, row.face_down, row.deck, row_width)


def _cards_patch(row: CardRow, row_width: int, key: tuple) -> Image.Image:
    """A row's cards, under its label, on a patch of felt as wide as they are, mapped
    (kept by the cards alone: the label, and the column's width, may change). ``key``:
    the row's :func:`_cards_key`, which its caller has made already."""
    patch = _PATCHES.get(key)
    if patch is None:
        plan = _plan(row, row_width)
        patch = _tiled_cards(row, plan)
        if patch is None:
            rgb = Image.new("RGB", (PATCH_BLEED + plan.width, plan.height - LABEL_H), BG)
            _draw_cards(rgb, ImageDraw.Draw(rgb), row, plan, PATCH_BLEED, 0)
            patch = rgb.quantize(palette=_palette(), dither=Image.Dither.NONE)
        _PATCHES.put(key, patch, patch.width * patch.height)
    return patch


def _tiled_cards(row: CardRow, plan: _RowPlan) -> Image.Image | None:
    """:func:`_cards_patch` for one line of cards that do not overlap (most rows: a
    pile, a seat, a short hand), from each card's face and the group of backs already
    drawn on felt and mapped: what :func:`_draw_cards` draws there is each of them on
    felt, and the mapping is per pixel, so the same pixels (tested) without drawing or
    mapping anything. None for other rows (overlapped, wrapped, or an empty place)."""
    if len(plan.lines) != 1:
        return None
    (line,) = plan.lines
    if not (line or plan.backs) or (len(line) > 1 and plan.step < CARD_W):
        return None
    patch = Image.new("P", (PATCH_BLEED + plan.width, CARD_H), _felt_index())
    x = PATCH_BLEED
    for j, code in enumerate(line):
        patch.paste(_mapped_tile(("face", code, row.deck)), (x + j * plan.step, 0))
    if plan.backs:
        if line:
            x += CARD_W + plan.step * (len(line) - 1) + 2 * CARD_GAP
        patch.paste(_mapped_tile(("backs", plan.backs, _back_step(row))), (x, 0))
    return patch


def _mapped_tile(what: tuple) -> Image.Image:
    """A card's face (``("face", code, deck)``) or a group of backs (``("backs", n,
    step)``) drawn on felt from its top left corner and mapped, kept."""
    key = ("tile", _drawn_with(), what)
    tile = _PATCHES.get(key)
    if tile is None:
        if what[0] == "face":
            rgb = Image.new("RGB", (CARD_W, CARD_H), BG)
            face = card_face(what[1], what[2])
            rgb.paste(face, (0, 0), face)
        else:
            _, n, step = what
            rgb = Image.new("RGB", (_backs_width(n, step), CARD_H), BG)
            _draw_backs(rgb, ImageDraw.Draw(rgb), n, step, 0, 0)
        tile = rgb.quantize(palette=_palette(), dither=Image.Dither.NONE)
        _PATCHES.put(key, tile, tile.width * tile.height)
    return tile


@lru_cache(maxsize=1)
def _felt_index() -> int:
    """The felt's colour on the palette."""
    return Image.new("RGB", (1, 1), BG).quantize(palette=_palette(), dither=Image.Dither.NONE).getpixel((0, 0))


def _draw_row(img, draw, row: CardRow, plan: _RowPlan, x0: int, y: int, width: int, label_font) -> None:
    _draw_text(img, (x0, y + 18), _fit(label_font, row.label, width), label_font, LABEL_INK, "ls")
    _draw_cards(img, draw, row, plan, x0, y + LABEL_H)


def _draw_cards(img, draw, row: CardRow, plan: _RowPlan, x0: int, y_line: int) -> None:
    for i, line in enumerate(plan.lines):
        x = x0
        for j, code in enumerate(line):
            face = card_face(code, row.deck)
            img.paste(face, (x + j * plan.step, y_line), face)
        if i == len(plan.lines) - 1:
            if line:
                x += CARD_W + plan.step * (len(line) - 1)
            if plan.backs:
                _draw_backs(img, draw, plan.backs, _back_step(row), x + (2 * CARD_GAP if line else 0), y_line)
            elif not line:
                # An empty place on the table: a faint outline where cards would lie.
                draw.rounded_rectangle(
                    [x, y_line, x + CARD_W - 1, y_line + CARD_H - 1], radius=CARD_RADIUS, outline=MUTED_INK, width=2
                )
        y_line += CARD_H + LINE_GAP


def render_rows(
    rows: Sequence[CardRow], *, title: str = "", max_width: int = MAX_WIDTH, columns: int | None = None
) -> bytes:
    """One PNG picture of labelled rows of cards (faces, then ``face_down`` backs).

    Rows are laid out in reading order on a grid; ``columns=None`` picks the number of
    columns that shows the picture largest in Discord's inline box (short rows side by
    side, long ones stacked). Rows wrap at ``ROW_WIDTH``; the picture is never wider
    than ``max_width`` (at most ``HARD_MAX_WIDTH``).

    The picture depends only on its arguments and is byte-identical for equal ones.
    Raises ValueError for an unknown card code or deck, or a negative ``face_down``.
    """
    key = _png_key(rows, title, max_width, columns)
    png = _PNG_CACHE.get(key)
    if png is None:
        png = _composed_png(rows, title, max_width, columns)
        _PNG_CACHE.put(key, png, len(png))
    return png


def _png_key(rows: Sequence[CardRow], title: str, max_width: int, columns: int | None) -> tuple:
    """A finished picture's key in :data:`_PNG_CACHE`: its whole input, and the font."""
    return (_drawn_with(), tuple(rows), title, max_width, columns)


def cached_png(rows: Sequence[CardRow], *, title: str = "", max_width: int = MAX_WIDTH, columns: int | None = None) -> bytes | None:
    """The picture :func:`render_rows` would return, if it drew these rows lately (no
    drawing: cheap enough to ask on the event loop before handing the work to a thread)."""
    return _PNG_CACHE.get(_png_key(rows, title, max_width, columns))


def keep_png(rows: Sequence[CardRow], png: bytes, *, title: str = "", max_width: int = MAX_WIDTH, columns: int | None = None) -> None:
    """Keep a picture :func:`render_rows` drew elsewhere (the picture worker process,
    ``bot/pictures/picture_pool.py``), so :func:`cached_png` finds it here next time."""
    _PNG_CACHE.put(_png_key(rows, title, max_width, columns), png, len(png))


class _Cache:
    """The last pictures (or rows of pictures) drawn, by their whole input (a picture
    depends on nothing else): a hand whose cards did not change, a board shown again,
    a player's row that the move did not touch, is not drawn twice. Bounded in bytes,
    least recently used out first; safe across the drawing threads."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self.entries: OrderedDict[tuple, bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> Any:
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return None
            self.entries.move_to_end(key)
            return entry[0]

    def put(self, key: tuple, value: Any, size: int) -> None:
        with self.lock:
            old = self.entries.pop(key, None)
            if old is not None:
                self.size -= old[1]
            self.entries[key] = (value, size)
            self.size += size
            while self.size > self.max_bytes and self.entries:
                _, (_, dropped) = self.entries.popitem(last=False)
                self.size -= dropped

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.size = 0


#: About 1,000-3,000 pictures (10-30 KB each): every open hand and board of a few hundred tables.
_PNG_CACHE = _Cache(32 * 2**20)
#: Rows' cards, faces, groups of backs and texts mapped onto the palette (a byte a pixel, 1-150 KB each).
_PATCHES = _Cache(64 * 2**20)
#: Bands of pictures' rows, compressed (:func:`_deflated`), 0.1-5 KB each: kept by what
#: they show (:func:`_composed`: tens of thousands of bands, the last pictures of every
#: place of a few hundred tables), or by their pixels (20 KB more each) for a picture
#: drawn whole.
_BANDS = _Cache(24 * 2**20)


def clear_caches(*, faces: bool = False) -> None:
    """Forget every picture, row, band and text kept, as after a start (for benches and
    tests that time or check drawing from nothing); ``faces``: the card faces, backs,
    pips and fonts too (the first picture of a start before :func:`warm_up`)."""
    for cache in (_PNG_CACHE, _PATCHES, _BANDS):
        cache.clear()
    kept = [_rendered, _ink, _bbox, _advance, _text_width, _fit, _clean, _plan_cards, _check_codes, _row_facts, _label_in_patch, _grid, _columns]
    if faces:
        kept += [_face, card_back, _font, _text_mask, _drawable, pip_mask, rounded_mask]
    for fn in kept:
        fn.cache_clear()


@per_language(maxsize=4096)
def card_name(code: str, deck: str = "french") -> str:
    """A card as said aloud, in the current language: "10 of Hearts", "Queen of Coins
    (marked)". Kept per language: a move names a dozen cards, the same ones again."""
    try:
        rank, suit, marked = parse_code(code, deck)
    except ValueError:
        return code
    suit_word = _(SUIT_NAMES.get(suit, suit))
    name = _("{rank} of {suit}", rank=_(_RANK_NAMES.get(rank, rank)), suit=suit_word, suits=suit_word.lower())
    return _("{card} (marked)", card=name) if marked else name


def spoken_list(items: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c": a list as it is said, in the current language."""
    return and_list(items)


def _sentence(text: str) -> str:
    """A full stop at the end; the case is left alone (a sentence may start with a name)."""
    text = text.strip().rstrip(".")
    return text + "." if text else ""


def alt_text(rows: Sequence[CardRow], limit: int = 1024) -> str:
    """The picture in words, for a screen reader: an attachment's description and a
    Components V2 media gallery item's (Discord takes 1 to 1,024 characters in each).
    One sentence per row, read as a person would say it: a row's ``spoken`` sentence
    when its game wrote one; else its label (" · " read as a pause) and its face-up
    cards by name, then how many lie face down. Too long for ``limit``, it keeps the
    whole sentences that fit and says that the rest is on the board; it never stops in
    the middle of a sentence (or a card's name)."""
    sentences = [s for s in (_row_sentence(row, row.spoken) for row in rows) if s]
    text = " ".join([_("Card picture."), *sentences])
    if len(text) <= limit:
        return text
    more = _("The rest is in the board's text.")
    kept = [_("Card picture.")]
    for sentence in sentences:
        if len(" ".join([*kept, sentence, more])) > limit:
            break
        kept.append(sentence)
    if len(kept) == 1:  # the first sentence alone is too long: cut it, the one cut said so by "…"
        return text[: limit - 1] + "…"
    return " ".join([*kept, more])


@per_language(maxsize=4096)
def _row_sentence(row: CardRow, spoken: str) -> str:
    """One row of :func:`alt_text`, kept per language: most rows of a picture are the
    rows of the one before it. ``spoken`` is given apart because rows compare (and
    are kept) by what they draw, without it."""
    names = spoken_list([card_name(code, row.deck) for code in row.cards])
    if spoken:
        return _sentence(spoken.replace("{cards}", names))
    said = names
    if row.face_down:
        down = ngettext("{n} card face down", "{n} cards face down", row.face_down)
        said = _("{cards}, and {face_down}", cards=names, face_down=down) if names else down
    label = row.label.replace(" · ", ", ")
    return _sentence(_("{label}: {cards}", label=label, cards=said) if said else label)


# --------------------------------------------------------------------------- suit sheets

_SHEETS = {
    "french": ("The four suits", [[(s, SUIT_NAMES[s], "") for s in "cshd"]]),
    "enid": ("Enid's suits", [[(s, ENID_NAMES[s], SUIT_NAMES[s].lower()) for s in "cshd"]]),
    "onion": (
        "The eight suits (each column is a pair for flushes)",
        [[(s, SUIT_NAMES[s], "") for s in "cshd"], [(s, SUIT_NAMES[s], "") for s in "wtuo"]],
    ),
}
_SHEET_ALIASES = {"idiot": "french", "blackjack": "french", "engines": "french"}


def suit_sheet(game: str) -> bytes:
    """A small PNG naming each of a game's suits under its pip (Enid's renamed suits, Onion's eight)."""
    return _encode(_suit_sheet_image(game))


@_serialised
def _suit_sheet_image(game: str) -> Image.Image:
    key = _SHEET_ALIASES.get(game, game)
    if key not in _SHEETS:
        names = ", ".join(sorted([*_SHEETS, *_SHEET_ALIASES]))
        raise ValueError(f"No suit sheet for {game!r}: use one of {names}.")
    title, grid = _SHEETS[key]
    enid = key == "enid"
    pip = 48
    cell_w, cell_h = (150 if enid else 120), (104 if enid else 96)
    title_font, name_font, note_font = _font(18, 700), _font(18, 600), _font(14, 400)
    cols = max(len(r) for r in grid)
    width = max(cols * cell_w, _text_width(title_font, title)) + 2 * MARGIN
    height = 2 * MARGIN + 30 + len(grid) * cell_h
    img = Image.new("RGB", (width, height), FACE)
    draw = ImageDraw.Draw(img)
    draw.text((MARGIN, MARGIN + 18), title, font=title_font, fill=SHEET_INK, anchor="ls")
    for r, cells in enumerate(grid):
        for c, (suit, name, note) in enumerate(cells):
            cx = MARGIN + c * cell_w + cell_w // 2
            top = MARGIN + 30 + r * cell_h
            ink = SUIT_COLOURS[suit]
            if enid:
                # The French pip the cards show, and the animal it stands for.
                _paste_colour(img, ink, pip_mask(suit, pip), (cx - pip - 4, top + 4))
                _paste_colour(img, ink, enid_mask(suit, pip), (cx + 4, top + 4))
            else:
                _paste_colour(img, ink, pip_mask(suit, pip), (cx - pip // 2, top + 4))
            draw.text((cx, top + pip + 26), name, font=name_font, fill=ink, anchor="ms")
            if note:
                draw.text((cx, top + pip + 44), f"({note})", font=note_font, fill=SHEET_NOTE, anchor="ms")
    return img
