"""bot/pictures/png_writer.py, the PNG writer kept in place of Pillow's (issue 38: measured, see
bench/README.md): what it relies on of the libraries under it, so that a zlib, ISA-L or
Pillow that changes fails here rather than drawing wrong pictures. Its PNGs decode, in
Pillow's reader and read strictly, to the pixels and palette Pillow's own writer gives;
a thread's compressor forgets each band at its full flush (else a band's bytes would
depend on the bands before it); the Adler-32s combine; the bands are deflated by
python-isal (Intel's ISA-L) where it is installed and by zlib where it is not, and both
give the same pictures."""

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

from bot.pictures import cardart, png_writer
from bot.pictures.cardart import render_rows
from tests.platform.imports import ROOT
from tests.platform.test_cardart_bands import moves
from tests.platform.test_cardart_png import clear_picture_caches, decoded, pillows_png, scenes


@st.composite
def palette_images(draw) -> Image.Image:
    width = draw(st.integers(1, 90))
    height = draw(st.integers(1, 3 * png_writer.BAND_ROWS + 2))
    colours = len(cardart._palette().getpalette()) // 3
    # Runs of one index, as pictures have, and noise.
    pixels = bytearray()
    while len(pixels) < width * height:
        pixels += bytes([draw(st.integers(0, colours - 1))]) * draw(st.integers(1, 40))
    img = Image.frombytes("P", (width, height), bytes(pixels[:width * height]))
    img.putpalette(cardart._palette().getpalette())
    return img


@settings(max_examples=80, deadline=None)
@given(palette_images())
def test_the_png_writer_gives_the_pixels_and_palette_pillows_writer_gives(img):
    ours, theirs = decoded(png_writer.png(img)), decoded(pillows_png(img))
    assert ours.mode == theirs.mode == "P"
    assert ours.size == theirs.size
    assert ours.tobytes() == theirs.tobytes()
    assert ours.getpalette() == theirs.getpalette()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=5000), st.binary(max_size=40).map(lambda b: b * 300)), min_size=1, max_size=6))
def test_a_band_deflated_by_the_threads_compressor_is_what_a_new_compressor_gives(bands):
    """The compressor a thread uses for every band forgets each band at its full flush,
    so a band's bytes do not depend on the bands before it."""
    deflater = png_writer.DEFLATER  # isal's isal_zlib where it is installed, else zlib
    for band in bands:
        fresh = deflater.compressobj(png_writer.PNG_LEVEL, deflater.DEFLATED, -15)
        assert png_writer.deflate(band) == fresh.compress(band) + fresh.flush(deflater.Z_FULL_FLUSH)
        assert zlib.decompressobj(-15).decompress(png_writer.deflate(band)) == band


@settings(max_examples=200)
@given(st.binary(max_size=3000), st.binary(max_size=3000))
def test_adler32_of_two_parts_combines_to_the_adler32_of_the_whole(first, second):
    combined = png_writer.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


#: Draws the pictures pickled on stdin in a fresh interpreter where ``isal`` cannot be
#: imported (a platform without its wheel), and pickles the PNGs to stdout, with the
#: compressor and level bot/pictures/png_writer.py chose there.
WITHOUT_ISAL = """
import pickle, sys
sys.modules["isal"] = None  # importing it raises ImportError
from bot.pictures import cardart, png_writer
pictures = pickle.load(sys.stdin.buffer)
pngs = [cardart.render_rows(rows, **layout) for rows, layout in pictures]
pickle.dump((png_writer.DEFLATER.__name__, png_writer.PNG_LEVEL, pngs), sys.stdout.buffer)
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
    assert png_writer.DEFLATER.__name__ == "isal.isal_zlib"
    assert png_writer.PNG_LEVEL == 1
    assert png_writer.PACKER_REUSABLE  # its compressor forgets a band at the full flush, as zlib's does


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
    assert checked_png(png_writer.png(img)) == img.tobytes()


@settings(max_examples=100)
@given(st.binary(max_size=20000), st.binary(max_size=8))
def test_the_deflaters_checksums_are_zlibs(data, kind):
    assert png_writer.DEFLATER.adler32(data) == zlib.adler32(data)
    assert png_writer.DEFLATER.crc32(data, png_writer.DEFLATER.crc32(kind)) == zlib.crc32(data, zlib.crc32(kind))
