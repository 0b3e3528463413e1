"""The animated picture of a whole game (bot/replay/animation.py): one frame per step,
each frame exactly the step's card picture (``cardart.render_rows`` of its public rows),
an APNG that loops, kept under the upload limit by showing fewer steps."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from bot.pictures import cardart
from bot.replay import animation
from bot.replay.steps import build
from tests.replay.test_replay_leaks import play

NAMES = {301_234_567_890_123_411: "Ann", 301_234_567_890_123_412: "Bob", 301_234_567_890_123_413: "Cy"}


def replay_of(key: str, seats: int, seed: int, options=None):
    spec, record, log, _moments, over = play(key, seats, options or {}, seed, random.Random(seed))
    assert over
    return build(spec, record, log)


def frame(image: Image.Image, index: int) -> Image.Image:
    image.seek(index)
    return image.convert("RGB")


def test_every_step_is_a_frame_showing_its_picture():
    replay = replay_of("idiot", 4, 4)
    shown = animation.frames(replay, NAMES)
    assert len(shown) == len(replay)
    assert shown[0].caption == f"Idiot #1 · The deal" and shown[0].ms == animation.FIRST_MS
    assert shown[-1].ms == animation.LAST_MS and all(f.ms == animation.STEP_MS for f in shown[1:-1])
    mover = NAMES.get(replay.step(1).moves[0].player)
    assert shown[1].caption == f"Idiot #1 · Move 1 of {replay.moves}" + (f", by {mover}" if mover else "")
    data = animation.animate(shown)
    assert data is not None and len(data) <= animation.MAX_BYTES
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.is_animated and image.info["loop"] == 0
        # Pillow merges a frame that repeats the one before into it (a longer pause).
        distinct = [0] + [i for i in range(1, len(shown)) if shown[i].rows != shown[i - 1].rows or shown[i].caption != shown[i - 1].caption]
        assert image.n_frames == len(distinct)
        width, height = image.size
        for shown_index in (0, len(shown) // 2, len(shown) - 1):
            at = max(i for i, d in enumerate(distinct) if d <= shown_index)
            alone = Image.open(io.BytesIO(cardart.render_rows(shown[shown_index].rows, title=shown[shown_index].caption))).convert("RGB")
            padded = Image.new("RGB", (width, height), cardart.BG)
            padded.paste(alone, (0, 0))
            assert ImageChops.difference(frame(image, at), padded).getbbox() is None, shown_index


def test_a_game_too_large_for_the_limit_shows_every_second_step_and_keeps_the_end():
    replay = replay_of("blackjack", 3, 0)
    shown = animation.frames(replay, NAMES)
    whole = animation.animate(shown)
    assert whole is not None
    halved = animation.animate(shown, max_bytes=len(whole) - 1)
    assert halved is not None and len(halved) < len(whole)
    with Image.open(io.BytesIO(halved)) as image:
        assert image.n_frames <= len(shown) // 2 + 2
        total = sum(frame_duration(image, i) for i in range(image.n_frames))
        last = frame(image, image.n_frames - 1)
    end = Image.open(io.BytesIO(cardart.render_rows(shown[-1].rows, title=shown[-1].caption))).convert("RGB")
    assert ImageChops.difference(last.crop((0, 0, *end.size)), end).getbbox() is None
    assert total <= sum(f.ms for f in shown)  # never longer than the whole game's animation
    assert animation.animate(shown, max_bytes=1000) is None  # not even one step in eight fits


def frame_duration(image: Image.Image, index: int) -> int:
    image.seek(index)
    return int(image.info.get("duration", 0))


def test_a_game_without_pictures_has_no_animation():
    replay = replay_of("enid", 3, 4, {"mode": "plain"})
    assert animation.frames(replay, NAMES) == [] and animation.animate([]) is None


def test_frames_pickle_for_the_picture_worker():
    import pickle

    shown = animation.frames(replay_of("onion", 3, 5), NAMES)
    assert pickle.loads(pickle.dumps(shown)) == shown
