"""Suit pips as vector shapes, drawn into antialiased alpha masks for :mod:`bot.cardart`.

Every shape is drawn in a 100 x 100 box (y grows downwards) at ``SUPERSAMPLE`` times the
asked size and shrunk, which is how Pillow gets smooth edges. Masks are cached by suit and
size, so a face costs a paste, not a drawing. Pure: Pillow and math only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

SUPERSAMPLE = 4

Point = tuple[float, float]


class _Pen:
    """Draws in the 100-unit box onto a supersampled mask."""

    def __init__(self, draw: ImageDraw.ImageDraw, px: int) -> None:
        self.draw = draw
        self.k = px / 100.0

    def _p(self, pts: list[Point]) -> list[Point]:
        return [(x * self.k, y * self.k) for x, y in pts]

    def polygon(self, pts: list[Point], fill: int = 255) -> None:
        self.draw.polygon(self._p(pts), fill=fill)

    def circle(self, cx: float, cy: float, r: float, fill: int = 255) -> None:
        k = self.k
        self.draw.ellipse([(cx - r) * k, (cy - r) * k, (cx + r) * k, (cy + r) * k], fill=fill)

    def ellipse(self, x0: float, y0: float, x1: float, y1: float, fill: int = 255) -> None:
        k = self.k
        self.draw.ellipse([x0 * k, y0 * k, x1 * k, y1 * k], fill=fill)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: int = 255, radius: float = 0) -> None:
        k = self.k
        self.draw.rounded_rectangle([x0 * k, y0 * k, x1 * k, y1 * k], radius=radius * k, fill=fill)

    def line(self, pts: list[Point], width: float, fill: int = 255) -> None:
        self.draw.line(self._p(pts), fill=fill, width=max(1, round(width * self.k)), joint="curve")
        # Round caps: Pillow's lines end square.
        for x, y in (pts[0], pts[-1]):
            self.circle(x, y, width / 2, fill)


def _heart_outline(cx: float, top: float, w: float, h: float, flip: bool = False) -> list[Point]:
    """The classic parametric heart, scaled into a w x h box whose top edge is ``top``."""
    pts = []
    for i in range(72):
        t = 2 * math.pi * i / 72
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((x, y))
    # Parametric y runs about -17 (point) .. 12 (lobes); map lobes to the top unless flipped.
    ymin, ymax = -17.0, 12.0
    out = []
    for x, y in pts:
        fy = (ymax - y) / (ymax - ymin)
        if flip:
            fy = 1 - fy
        out.append((cx + x / 32 * w, top + fy * h))
    return out


def _hearts(p: _Pen) -> None:
    p.polygon(_heart_outline(50, 8, 96, 86))


def _diamonds(p: _Pen) -> None:
    # Slightly concave sides, as printed diamonds are.
    pts: list[Point] = []
    corners = [(50, 2), (88, 50), (50, 98), (12, 50)]
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]):
        for i in range(8):
            t = i / 8
            bow = 4 * math.sin(math.pi * t)
            mx, my = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            # Pull towards the centre.
            dx, dy = 50 - mx, 50 - my
            d = math.hypot(dx, dy) or 1
            pts.append((mx + dx / d * bow, my + dy / d * bow))
    p.polygon(pts)


def _spades(p: _Pen) -> None:
    p.polygon(_heart_outline(50, 2, 92, 76, flip=True))
    p.polygon([(50, 58), (64, 98), (36, 98)])


def _clubs(p: _Pen) -> None:
    p.circle(50, 27, 22)
    p.circle(26, 58, 22)
    p.circle(74, 58, 22)
    p.polygon([(50, 40), (60, 60), (40, 60)])
    p.polygon([(50, 50), (64, 98), (36, 98)])


def _swords(p: _Pen) -> None:
    # An upright sword: blade with a point, crossguard, grip, pommel.
    p.polygon([(50, 0), (64, 16), (62, 62), (38, 62), (36, 16)])
    p.rect(12, 58, 88, 74, radius=7)
    p.rect(42, 70, 58, 88)
    p.circle(50, 89, 11)


def _staves(p: _Pen) -> None:
    # A knotted cudgel, thin at the grip and thick at the head, leaning, with a leaf.
    p.polygon([(24, 92), (36, 98), (82, 22), (58, 8)])
    p.circle(30, 95, 6)
    p.circle(70, 15, 17)
    p.circle(46, 66, 9)
    p.circle(60, 46, 10)
    p.polygon([(40, 44), (6, 26), (12, 48), (38, 56)])


def _cups(p: _Pen) -> None:
    # A chalice: a wide bowl, a knotted stem, a foot.
    p.rect(14, 4, 86, 14, radius=4)
    p.polygon([(16, 10), (84, 10), (80, 30), (70, 44), (56, 52), (44, 52), (30, 44), (20, 30)])
    p.rect(44, 50, 56, 80)
    p.circle(50, 64, 9)
    p.polygon([(44, 78), (56, 78), (78, 96), (22, 96)])


def _coins(p: _Pen) -> None:
    p.circle(50, 50, 48)
    p.circle(50, 50, 38, fill=0)
    p.circle(50, 50, 32)
    # A square hole, as old coins had.
    p.rect(40, 40, 60, 60, fill=0)


PIP_SHAPES: dict[str, Callable[[_Pen], None]] = {
    "c": _clubs, "s": _spades, "h": _hearts, "d": _diamonds,
    "w": _swords, "t": _staves, "u": _cups, "o": _coins,
}


# Enid renames the suits after three fish and a dog; its suit sheet draws them beside the
# French pips the cards keep (a fish at pip size would be too hard to tell apart).


def _carp(p: _Pen) -> None:
    p.ellipse(8, 28, 76, 78)
    p.polygon([(70, 53), (97, 28), (89, 53), (97, 78)])
    p.polygon([(28, 32), (46, 14), (62, 32)])
    p.polygon([(40, 74), (50, 88), (56, 74)])
    p.circle(22, 46, 4.5, fill=0)
    p.line([(12, 62), (6, 74)], width=3)


def _sturgeon(p: _Pen) -> None:
    # Long, with a pointed snout, a shark-like tail and bony plates along the side.
    p.polygon([(0, 52), (14, 40), (60, 36), (78, 42), (99, 20), (92, 52), (99, 68), (76, 62), (58, 68), (14, 64)])
    p.polygon([(46, 38), (58, 26), (64, 38)])
    for x in (30, 44, 58):
        p.polygon([(x - 5, 52), (x, 47), (x + 5, 52), (x, 57)], fill=0)
    p.circle(14, 49, 3, fill=0)
    p.line([(8, 60), (7, 68)], width=2.5)


def _flatfish(scale: float) -> list[Point]:
    """A flatfish's outline, pointed at the head (left), widest mid-body, scaled about its centre."""
    top, bottom = [], []
    for i in range(25):
        x = 4 + 72 * i / 24
        h = 36 * math.sin(math.pi * i / 24) ** 0.75
        top.append((x, 52 - h))
        bottom.append((x, 52 + h))
    pts = top + bottom[::-1]
    return [(40 + (x - 40) * scale, 52 + (y - 52) * scale) for x, y in pts]


def _halibut(p: _Pen) -> None:
    # A flatfish from above: a fringe of fin all round, both eyes on one side.
    p.polygon(_flatfish(1.0))
    p.polygon(_flatfish(0.86), fill=0)
    p.polygon(_flatfish(0.78))
    p.polygon([(70, 52), (99, 30), (93, 52), (99, 74)])
    p.circle(20, 40, 4.5, fill=0)
    p.circle(29, 32, 4.5, fill=0)


def _dalmatian(p: _Pen) -> None:
    # A dog's head in profile, facing left: skull, muzzle, a hanging ear set apart, spots.
    p.circle(58, 40, 26)
    p.rect(6, 38, 52, 66, radius=12)
    p.polygon([(52, 56), (84, 50), (96, 98), (48, 98)])
    p.ellipse(60, 20, 86, 72, fill=0)
    p.ellipse(64, 24, 84, 70)
    p.circle(9, 44, 7)
    p.circle(40, 34, 4, fill=0)
    for x, y, r in ((58, 84, 5), (74, 90, 3.5), (30, 54, 3), (70, 38, 3.5), (56, 66, 3)):
        p.circle(x, y, r, fill=0)


ENID_SHAPES: dict[str, Callable[[_Pen], None]] = {"c": _carp, "s": _sturgeon, "h": _halibut, "d": _dalmatian}


@lru_cache(maxsize=16)
def enid_mask(suit: str, px: int) -> Image.Image:
    """An ``L`` mask of Enid's animal for a French suit (carp, sturgeon, halibut, dalmatian)."""
    big = px * SUPERSAMPLE
    mask = Image.new("L", (big, big), 0)
    ENID_SHAPES[suit](_Pen(ImageDraw.Draw(mask), big))
    return mask.resize((px, px), Image.Resampling.LANCZOS)


def _disc(p: _Pen) -> None:
    p.circle(50, 50, 49)


def _star(p: _Pen) -> None:
    """A five-pointed star, for the badge of a marked card."""
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        r = 46 if i % 2 == 0 else 20
        pts.append((50 + r * math.cos(a), 53 + r * math.sin(a)))
    p.polygon(pts)


BADGE_SHAPES: dict[str, Callable[[_Pen], None]] = {"disc": _disc, "star": _star}


@lru_cache(maxsize=16)
def badge_mask(shape: str, px: int) -> Image.Image:
    """An ``L`` mask of a badge part ("disc" or "star"), antialiased like the pips."""
    big = px * SUPERSAMPLE
    mask = Image.new("L", (big, big), 0)
    BADGE_SHAPES[shape](_Pen(ImageDraw.Draw(mask), big))
    return mask.resize((px, px), Image.Resampling.LANCZOS)


@lru_cache(maxsize=256)
def pip_mask(suit: str, px: int) -> Image.Image:
    """An ``L`` mask, ``px`` square, of the suit's pip (255 = ink)."""
    big = px * SUPERSAMPLE
    mask = Image.new("L", (big, big), 0)
    PIP_SHAPES[suit](_Pen(ImageDraw.Draw(mask), big))
    return mask.resize((px, px), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """An antialiased rounded-rectangle mask (a card's outline)."""
    s = SUPERSAMPLE
    mask = Image.new("L", (width * s, height * s), 0)
    ImageDraw.Draw(mask).rounded_rectangle([0, 0, width * s - 1, height * s - 1], radius=radius * s, fill=255)
    return mask.resize((width, height), Image.Resampling.LANCZOS)
