"""The profile's picture: a player's shown rating after each rated game (issue 25).

Pure Pillow, no discord: :func:`draw` is called in a worker thread
(``asyncio.to_thread``), and :func:`alt_text` says in words what it shows, for
screen readers (Discord's attachment description holds at most 1,024 characters).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.pictures.cardart import _font
from bot.words.i18n import _, ngettext

WIDTH, HEIGHT = 800, 360
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 70, 24, 48, 44
BACKGROUND = (43, 45, 49)  # Discord's dark theme, so the picture sits in the chat
GRID = (70, 73, 79)
LINE = (88, 166, 255)
TEXT = (220, 221, 222)
ALT_LIMIT = 1024


#: Charts kept (the last drawn): about 20 KB each.
CACHED_CHARTS = 256


def draw(title: str, points: Sequence[int]) -> bytes:
    """A PNG of ``points`` (shown rating after game 1, 2, ...), oldest left: drawn once
    per title and points, then from a cache of the last :data:`CACHED_CHARTS` (a new
    result adds a point, so the next ``/profile`` draws anew)."""
    return _drawn(title, tuple(points))


@functools.lru_cache(maxsize=CACHED_CHARTS)
def _drawn(title: str, points: tuple[int, ...]) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    pen = ImageDraw.Draw(image)
    small, big = _font(14, 500), _font(18, 700)
    pen.text((MARGIN_LEFT, 14), title, font=big, fill=TEXT)
    left, top, right, bottom = MARGIN_LEFT, MARGIN_TOP, WIDTH - MARGIN_RIGHT, HEIGHT - MARGIN_BOTTOM
    low, high = (min(points), max(points)) if points else (0, 1)
    if high - low < 20:  # a flat line still gets a readable scale
        low, high = low - 10, high + 10
    span = high - low
    for i in range(5):
        value = low + span * i / 4
        y = bottom - (bottom - top) * i / 4
        pen.line((left, y, right, y), fill=GRID)
        pen.text((8, y - 9), f"{round(value)}", font=small, fill=TEXT)
    pen.text((left, bottom + 12), "game 1", font=small, fill=TEXT)
    if len(points) > 1:
        last = f"game {len(points)}"
        pen.text((right - pen.textlength(last, font=small), bottom + 12), last, font=small, fill=TEXT)

    def at(i: int, value: int) -> tuple[float, float]:
        x = left + (right - left) * (i / (len(points) - 1) if len(points) > 1 else 0.5)
        return x, bottom - (bottom - top) * (value - low) / span

    xy = [at(i, v) for i, v in enumerate(points)]
    if len(xy) > 1:
        pen.line(xy, fill=LINE, width=3, joint="curve")
    if len(xy) <= 60:  # dots while they can be told apart
        for x, y in xy:
            pen.ellipse((x - 4, y - 4, x + 4, y + 4), fill=LINE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def alt_text(who: str, game: str, points: Sequence[int]) -> str:
    """What the picture shows, in words (at most :data:`ALT_LIMIT` characters)."""
    if not points:
        return _("No rating chart: {who} has no rated {game} games yet.", who=who, game=game)
    text = ngettext("Line chart of {who}'s {game} rating over {n} rated game: "
                    "from {first} after the first to {last} now; highest {high}, lowest {low}.",
                    "Line chart of {who}'s {game} rating over {n} rated games: "
                    "from {first} after the first to {last} now; highest {high}, lowest {low}.", len(points),
                    who=who, game=game, first=points[0], last=points[-1], high=max(points), low=min(points))
    recent = points[-10:]
    if len(points) > 1:
        text += " " + _("The last {n}: {points}.", n=len(recent), points=", ".join(str(p) for p in recent))
    return text[:ALT_LIMIT]
