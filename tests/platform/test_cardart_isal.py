"""Card pictures' bands deflated by python-isal (Intel's ISA-L) where it is installed, by
zlib where it is not (bot.cardart._band_deflater): the two write different bytes, and
both must be PNG files any decoder takes, showing the same pixels and palette."""

from __future__ import annotations

import io
import pickle
import struct
import subprocess
import sys
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot import cardart
from bot.cardart import render_rows
from tests.platform.imports import ROOT
from tests.platform.test_cardart_bands import moves
from tests.platform.test_cardart_png import clear_picture_caches, decoded, palette_images, scenes

#: Draws the pictures pickled on stdin in a fresh interpreter where ``isal`` cannot be
#: imported (a platform without its wheel), and pickles the PNGs to stdout, with the
#: compressor and level bot.cardart chose there.
WITHOUT_ISAL = """
import pickle, sys
sys.modules["isal"] = None  # importing it raises ImportError
from bot import cardart
pictures = pickle.load(sys.stdin.buffer)
pngs = [cardart.render_rows(rows, **layout) for rows, layout in pictures]
pickle.dump((cardart._DEFLATER.__name__, cardart.PNG_LEVEL, pngs), sys.stdout.buffer)
"""


def drawn_without_isal(pictures: list) -> tuple[str, int, list[bytes]]:
    result = subprocess.run([sys.executable, "-c", WITHOUT_ISAL], cwd=ROOT, input=pickle.dumps(pictures),
                            capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr.decode()
    return pickle.loads(result.stdout)


def checked_png(png: bytes) -> bytes:
    """``png`` read strictly, as the PNG specification has it, and by Pillow's verify:
    the signature; chunks IHDR, PLTE, IDAT, IEND in that order, each with its CRC, nothing
    after IEND; an 8-bit palette image; the IDAT a whole zlib stream (header, data, its
    Adler-32 checked by zlib) and nothing after it, holding exactly each row's filter
    byte (0) and pixels, no index past the palette. Returns the pixels."""
    Image.open(io.BytesIO(png)).verify()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        data = png[at + 8:at + 8 + length]
        assert len(data) == length
        assert struct.unpack(">I", png[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + data)
        chunks.append((kind, data))
        at += 12 + length
    assert at == len(png)
    assert [kind for kind, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    (_, header), (_, palette), (_, idat), (_, end) = chunks
    width, height, depth, colour, method, filtering, interlace = struct.unpack(">IIBBBBB", header)
    assert (depth, colour, method, filtering, interlace) == (8, 3, 0, 0, 0) and width > 0 and height > 0
    assert len(palette) % 3 == 0 and 0 < len(palette) // 3 <= 256
    assert end == b""
    stream = zlib.decompressobj()
    raw = stream.decompress(idat)
    assert stream.eof and stream.unused_data == b"" and stream.unconsumed_tail == b""
    assert len(raw) == height * (width + 1)
    rows = [raw[y * (width + 1):(y + 1) * (width + 1)] for y in range(height)]
    assert all(row[0] == 0 for row in rows)
    pixels = b"".join(row[1:] for row in rows)
    assert max(pixels) < len(palette) // 3
    return pixels


def test_where_isal_is_installed_it_deflates_the_bands():
    pytest.importorskip("isal")
    assert cardart._DEFLATER.__name__ == "isal.isal_zlib"
    assert cardart.PNG_LEVEL == 1
    assert cardart._PACKER_REUSABLE  # its compressor forgets a band at the full flush, as zlib's does


def test_pictures_deflated_by_isal_and_by_zlib_decode_to_the_same_pixels_and_palette():
    pytest.importorskip("isal")
    pictures = scenes() + moves()
    clear_picture_caches()
    ours = [render_rows(rows, **layout) for rows, layout in pictures]
    deflater, level, zlibs = drawn_without_isal(pictures)
    assert (deflater, level) == ("zlib", 3)
    assert sum(a != b for a, b in zip(ours, zlibs)) == len(pictures)  # two compressors indeed
    for with_isal, with_zlib in zip(ours, zlibs):
        assert checked_png(with_isal) == checked_png(with_zlib)
        a, b = decoded(with_isal), decoded(with_zlib)
        assert a.mode == b.mode == "P"
        assert a.size == b.size
        assert a.tobytes() == b.tobytes()
        assert a.getpalette() == b.getpalette()


@settings(max_examples=60, deadline=None)
@given(palette_images())
def test_the_png_writer_writes_strict_pngs_of_any_palette_image(img):
    assert checked_png(cardart._png(img)) == img.tobytes()


@settings(max_examples=100)
@given(st.binary(max_size=20000), st.binary(max_size=8))
def test_the_deflaters_checksums_are_zlibs(data, kind):
    assert cardart._DEFLATER.adler32(data) == zlib.adler32(data)
    assert cardart._DEFLATER.crc32(data, cardart._DEFLATER.crc32(kind)) == zlib.crc32(data, zlib.crc32(kind))
