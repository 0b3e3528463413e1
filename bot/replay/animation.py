"""A finished game as one animated PNG: a frame per replay step, drawn by
``bot.pictures.cardart.render_rows`` from the step's public rows, put together by Pillow's own
APNG writer (``save_all=True``). Discord plays an animated PNG inline.

Two halves, so the slow one can run anywhere:

- :func:`frames` (cheap, on the caller's side): each step's picture rows and caption,
  from the replay's spectator observations only, as plain values (``CardRow``s,
  strings, numbers) that pickle, so the drawing may go to a worker process;
- :func:`animate` (seconds of CPU for a long game: call it off the event loop, in a
  thread or the picture worker, see ``bot/pictures/picture_pool.py``): draws every frame, pads
  them to one size on the table's felt, and writes the APNG. Pillow stores each frame
  as the rectangle that changed since the one before, and merges a frame identical to
  the one before into it (a longer pause), so a card game of a few hundred moves stays
  in a few MB.

The result is kept under Discord's upload limit (:data:`MAX_BYTES`): a game whose
animation would be larger shows every second step (then every fourth...), always with
the deal and the end.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.pictures import cardart
from bot.pictures.cardart import CardRow
from bot.words.i18n import _
from bot.replay.steps import Replay

#: Discord's upload limit for a bot's message without Nitro boosts: 10 MiB.
MAX_BYTES = 10 * 1024 * 1024
#: How long each frame shows (ms): the deal and the end longer, to be read.
STEP_MS, FIRST_MS, LAST_MS = 900, 2000, 6000
#: A game with more steps than this is drawn every second step (or more) from the start.
MAX_FRAMES = 1500


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame's inputs: the picture's rows, its caption and how long it shows."""

    rows: tuple[CardRow, ...]
    caption: str
    ms: int


def frames(replay: Replay, names: Mapping[int, str] | None = None) -> list[Frame]:
    """A frame per step of ``replay``: its public picture rows (``names``: plain-text
    names for the row labels) and a caption saying which moment it is ("Idiot #7 · Move
    12 of 141, by Ann"). [] for a game that draws no pictures."""
    shown: list[Frame] = []
    for step in replay.steps:
        rows = tuple(replay.rows(step, names))
        if not rows:
            return []
        caption = _("{title} #{id} · {moment}", title=replay.spec.title, id=replay.table_id, moment=replay.heading(step))
        movers = {move.player for move in step.moves}
        if names and len(movers) == 1 and names.get(next(iter(movers)), "").strip():
            caption = _("{caption}, by {player}", caption=caption, player=names[next(iter(movers))])
        ms = FIRST_MS if step.index == 0 else LAST_MS if step is replay.last else STEP_MS
        shown.append(Frame(rows, caption, ms))
    return shown


def animate(shown: Sequence[Frame], *, max_bytes: int = MAX_BYTES) -> bytes | None:
    """The animated PNG of ``shown`` (:func:`frames`), under ``max_bytes``; None when
    there is nothing to draw, or when even one frame in eight would not fit."""
    if not shown:
        return None
    stride = 1
    while len(shown) // stride > MAX_FRAMES:
        stride *= 2
    while stride <= 8:
        data = _apng(_every(shown, stride))
        if len(data) <= max_bytes:
            return data
        stride *= 2
    return None


def _every(shown: Sequence[Frame], stride: int) -> list[Frame]:
    """Every ``stride``-th frame, with the first and the last; a frame left out adds its
    time to the one shown before it, so the animation lasts as long."""
    if stride == 1:
        return list(shown)
    kept: list[Frame] = []
    for index, frame in enumerate(shown):
        if index % stride == 0 or index == len(shown) - 1:
            kept.append(frame)
        else:
            last = kept[-1]
            kept[-1] = Frame(last.rows, last.caption, last.ms + min(frame.ms, STEP_MS // stride))
    return kept


def _apng(shown: Sequence[Frame]) -> bytes:
    pictures = [Image.open(io.BytesIO(cardart.render_rows(frame.rows, title=frame.caption))) for frame in shown]
    width = max(p.width for p in pictures)
    height = max(p.height for p in pictures)
    palette = pictures[0].getpalette()
    felt = _index_of(palette, cardart.BG)
    canvases = []
    for picture in pictures:
        picture.load()
        if picture.size == (width, height) and picture.getpalette() == palette:
            canvases.append(picture)
            continue
        canvas = Image.new("P", (width, height), felt)
        canvas.putpalette(palette)
        canvas.paste(picture.convert("RGB").quantize(palette=canvas) if picture.getpalette() != palette else picture, (0, 0))
        canvases.append(canvas)
    out = io.BytesIO()
    first, rest = canvases[0], canvases[1:]
    first.save(out, format="PNG", save_all=True, append_images=rest, duration=[f.ms for f in shown], loop=0,
               disposal=0, blend=0, compress_level=6)
    return out.getvalue()


def _index_of(palette: Sequence[int] | None, colour: tuple[int, int, int]) -> int:
    """The palette entry of ``colour`` (cardart's pictures share one palette with the felt in it)."""
    entries = list(palette or ())
    for index in range(len(entries) // 3):
        if tuple(entries[3 * index:3 * index + 3]) == colour:
            return index
    return 0
