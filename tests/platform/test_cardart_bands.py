"""A picture's PNG is written as bands compressed once and kept (bot.cardart): where the
bands are cut and how they are compressed may change, the decoded picture may not."""

from __future__ import annotations

import hashlib
import io
import random

from PIL import Image

from bot.pictures.cardart import CardRow, render_rows
from bot.rules.cards import standard_deck
from cogs.onion.scoring import onion_deck

FRENCH = [str(c) for c in standard_deck()]
ONION = [str(c) for c in onion_deck()]


def moves() -> list[tuple[list[CardRow], dict]]:
    """Pictures as a table's moves ask for them, one after another: a board whose seats'
    counts, labels and pile change, and the mover's hand losing and drawing cards (the
    rest of the row shifts), at one and two columns, with and without a title."""
    rng = random.Random(2211)
    out = []
    for table in range(6):
        deck, pack = (ONION, "onion") if table % 3 == 2 else (FRENCH, "french")
        cards = rng.sample(deck, len(deck))
        hands = [[cards.pop() for _ in range(rng.choice([3, 6, 12]))] for _ in range(3)]
        pile: list[str] = []
        title = rng.choice(["", f"Idiot #{table}", f"Cripple Mr Onion #{table}"])
        for turn in range(14):
            seat = turn % 3
            hand = hands[seat]
            if hand and rng.random() < 0.8:
                pile.append(hand.pop(rng.randrange(len(hand))))
            elif cards:
                hand.insert(rng.randrange(len(hand) + 1), cards.pop())
            board = [CardRow(f"Pile · {len(pile)} cards", tuple(pile[-3:]), deck=pack),
                     CardRow(f"Draw pile · {len(cards)} cards", face_down=len(cards), deck=pack)]
            board += [CardRow(f"Seat {s + 1} · p{table}x{s} · {len(h)} in hand" + (" · to play" if s == (seat + 1) % 3 else ""),
                              face_down=len(h), deck=pack) for s, h in enumerate(hands)]
            out.append((board, {"title": title, "columns": None if table % 2 else 1}))
            out.append(([CardRow(f"Your hand · {len(hand)} cards", tuple(hand), deck=pack),
                         CardRow("Top card", tuple(pile[-1:]), deck=pack)], {}))
    return out


#: The decoded pictures of :func:`moves` (size, palette indices, palette), drawn one after
#: another, as the code wrote them before the bands were cut at the rows' edges (PNG
#: level 3, bands of 32 rows). A change of font or of Pillow's rasteriser changes it too, and
#: so does a change of layout: issue 35 chose the columns anew for Discord's V2 box (with the
#: old choice of columns patched in, the pictures still decode to the digest before it,
#: 0afb55fd…).
MOVES_BEFORE = "b5a1ba0db6d219c267bda0858e78905585008b796f8562982be1daf2f9a98dd3"


def test_pictures_drawn_move_after_move_decode_to_the_pixels_and_palette_they_had_before():
    digest = hashlib.sha256()
    for rows, layout in moves():
        img = Image.open(io.BytesIO(render_rows(rows, **layout)))
        img.load()
        assert img.mode == "P"
        digest.update(repr(img.size).encode())
        digest.update(img.tobytes())
        digest.update(bytes(img.getpalette("RGB")))
    assert digest.hexdigest() == MOVES_BEFORE
