"""Time and size of card pictures (bot/pictures/cardart.py), per picture, cold and warm cache.

    python bench/card_images.py [--images 200] [--seed 1]

Scenes (each image a fresh seeded random deal, so the warm runs still vary):

- ``table``: a typical Idiot/Blackjack table: a pile of 1-4 face-up cards plus a draw
  pile (face-down count), then 4 players with 0-3 face-up cards and 0-3 backs each.
- ``hand26``: a 26-card hand (Blackjack's worst case): overlapped and wrapped.
- ``onion7``: an Onion table, 7 players with 2-6 face-up cards each (Onion codes, some
  marked specials), 3 backs each.
- ``pile52``: all 52 cards in one row.

**cold**: every cache of bot/pictures/cardart (faces, backs, pips, text, fonts) is emptied before each
image, so it is the cost of the first picture after a start without a warm-up. **start**:
emptied, then ``warm_up`` of both decks (what ``DeckhandBot.setup_hook`` runs in a worker
thread at start-up), then the first picture (a tenth of ``--images``: each costs a warm-up). **warm**: caches kept, the
steady state. Per picture it prints p50/p99/max milliseconds of the whole
``render_rows`` call (layout, pastes, palette quantisation, PNG encode), and the
encode share, and the PNG size in bytes (median and max) and pixel size.
Last, the time of ``warm_up(deck)`` from empty caches (what a start-up would spend to
make the first picture warm). Numbers only: nothing here asserts a timing. Target (issue 9): p99 <= 60 ms per table image.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.pictures import cardart, png_writer  # noqa: E402
from bot.pictures.cardart import CardRow, render_rows  # noqa: E402

FRENCH = [r + s for s in "cdhs" for r in "A23456789TJQK"]
ONION = [r + s for s in "cshdwtuo" for r in "A23456789TJQK"]
ONION_SPECIAL = {"Qs", "Ku", "Qo", "Jd", "Kw", "Jt", "Jc"}


def table(rng: random.Random) -> tuple[list[CardRow], str]:
    deck = rng.sample(FRENCH, 30)
    rows = [CardRow("Pile (14 cards)", tuple(deck[:rng.randint(1, 4)])), CardRow("Draw pile", face_down=rng.randint(0, 40))]
    at = 4
    for name in ("ann", "bob", "cy", "dee"):
        up = rng.randint(0, 3)
        rows.append(CardRow(f"@{name}", tuple(deck[at:at + up]), face_down=rng.randint(0, 3)))
        at += up
    return rows, "Idiot · @ann to play"


def hand26(rng: random.Random) -> tuple[list[CardRow], str]:
    return [CardRow("Your hand", tuple(sorted(rng.sample(FRENCH, 26), key=FRENCH.index)))], ""


def onion7(rng: random.Random) -> tuple[list[CardRow], str]:
    deck = rng.sample(ONION, 50)
    rows, at = [], 0
    for i in range(7):
        up = rng.randint(2, 6)
        cards = tuple(c + "*" if c in ONION_SPECIAL else c for c in deck[at:at + up])
        rows.append(CardRow(f"@player{i + 1}", cards, face_down=3, deck="onion"))
        at += up
    return rows, "Cripple Mr Onion · round 3"


def pile52(rng: random.Random) -> tuple[list[CardRow], str]:
    return [CardRow("Pile", tuple(rng.sample(FRENCH, 52)))], ""


SCENES = {"table": table, "hand26": hand26, "onion7": onion7, "pile52": pile52}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(scene, n: int, seed: int, cold: bool, warmed: bool = False) -> dict:
    rng = random.Random(seed)
    times, encode, sizes, dims = [], [], [], set()
    originals = {(module, name): getattr(module, name) for module, name in ((cardart, "_deflated"), (png_writer, "png_file"))}  # the PNG encode
    spent = [0.0]

    def timed(original):
        def encode(*args):
            t = time.perf_counter()
            data = original(*args)
            spent[0] += time.perf_counter() - t
            return data
        return encode

    for (module, name), original in originals.items():
        setattr(module, name, timed(original))
    try:
        for _ in range(n):
            rows, title = scene(rng)
            if cold:
                cardart.clear_caches(faces=True)
                if warmed:  # what the bot's start-up now does (DeckhandBot.setup_hook)
                    for deck in ("french", "onion"):
                        cardart.warm_up(deck)
            cardart._PNG_CACHE.clear()  # this bench times drawing, not the caches of pictures, rows and bands
            cardart._PATCHES.clear()
            cardart._BANDS.clear()
            spent[0] = 0.0
            t = time.perf_counter()
            data = render_rows(rows, title=title)
            times.append((time.perf_counter() - t) * 1000)
            encode.append(spent[0] * 1000)
            sizes.append(len(data))
            dims.add((int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")))
    finally:
        for (module, name), original in originals.items():
            setattr(module, name, original)
    return {"times": times, "encode": encode, "sizes": sizes, "dims": dims}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=200, help="images per scene and cache state")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"card pictures: {args.images} images per line, seed {args.seed}, Pillow via bot/pictures/cardart.py")
    print(f"{'scene':8} {'cache':5} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'encode p50':>10} "
          f"{'bytes p50':>9} {'bytes max':>9}  size px")
    render_rows([CardRow("warm-up", ("9h",))])  # imports, zlib
    for name, scene in SCENES.items():
        for cold, warmed in ((True, False), (True, True), (False, False)):
            if not cold:
                run(scene, 5, args.seed + 1, cold=False)  # fill the caches
            # "start": empty caches, then warm_up of both decks, then the first picture.
            r = run(scene, max(5, args.images // 10) if warmed else args.images, args.seed, cold, warmed)
            dims = sorted(r["dims"])
            shown = f"{dims[0][0]}x{dims[0][1]}" + (f" .. {dims[-1][0]}x{dims[-1][1]}" if len(dims) > 1 else "")
            print(f"{name:8} {'start' if warmed else 'cold' if cold else 'warm':5} {statistics.median(r['times']):7.1f} "
                  f"{pct(r['times'], 0.99):7.1f} {max(r['times']):7.1f} {statistics.median(r['encode']):10.1f} "
                  f"{int(statistics.median(r['sizes'])):9d} {max(r['sizes']):9d}  {shown}")
    for deck in ("french", "onion"):
        spent = []
        for _ in range(5):
            cardart.clear_caches(faces=True)
            t = time.perf_counter()
            cardart.warm_up(deck)
            spent.append((time.perf_counter() - t) * 1000)
        print(f"warm_up({deck!r}) from empty caches: median {statistics.median(spent):.0f} ms of 5 "
              "(after it, a first picture costs what a warm one does)")


if __name__ == "__main__":
    main()
