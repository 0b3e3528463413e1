"""What Pillow's PNG writer does, for the card pictures, in a third of its CPU: kept
because it is measured (issue 38; bench/README.md, "Seventh round").

Pillow writes a picture's PNG whole: every move's pictures (about 1.8 a move) were
compressed again from their first row to their last, 1.1-1.5 ms each. A move changes a
few rows of cards. Here a picture's PNG data is cut in bands of rows, each deflated on
its own and ended with a full flush, so bands simply follow one another in one zlib
stream: bot/pictures/cardart.py keeps each band's compression by what it shows, and a move
compresses again only the bands it changed (0.5-0.7 ms a picture). The bands are deflated
by python-isal (Intel's ISA-L, the same interface as :mod:`zlib`, a third of zlib's CPU)
where it is installed, else by zlib: the same pixels either way.

It uses only public interfaces (zlib's, python-isal's and Pillow's ``tobytes``); what it
relies on of them, that a compressor forgets its history at a full flush and that
Pillow's reader takes the file, tests/platform/test_png_writer.py checks, so a library
that changes under it fails a test rather than drawing wrong pictures.

    >>> from PIL import Image
    >>> png(Image.new("P", (3, 2)))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

#: A band as it goes into the file: its deflated bytes, the Adler-32 and length of its data.
Band = tuple[bytes, int, int]


def _band_deflater() -> Any:
    """The module that deflates a picture's bands: python-isal's ``isal_zlib`` where it
    is installed, else zlib. Replayed (bench/picture_replay.py), ISA-L's level 1 deflates
    the bands of a run's pictures in a third of zlib's level 3 CPU (50 against 165 us a
    band, and its Adler-32 in 6 us against 21), the bands 4% bigger and the PNGs 1.4%;
    zlib remains wherever isal has no wheel (it is a dependency only on the platforms it
    ships wheels for; see pyproject.toml). The pixels are the same either way; the bytes
    are fixed for a given picture in a process (ISA-L may pick other code for another
    CPU, zlib another build)."""
    try:
        from isal import isal_zlib
    except ImportError:
        return zlib
    return isal_zlib


#: What deflates bands and at what level, and rows per band of a picture written whole
#: (:func:`png`); a picture composed from its rows is cut at the rows' edges instead
#: (bot/pictures/cardart.py). zlib's level, on the pictures of a bench/load.py run replayed, bands
#: of 32 rows: 16 rows at level 3, 3.2 ms a picture, 12.1 KB; 32 at 3, 3.0 ms, 11.6 KB;
#: 32 at 5, 3.8 ms, 10.2 KB; Pillow's whole-picture level 6, 9.2 KB. Cut at the rows:
#: level 3, 1.08 ms, 11.9 KB; level 2, 1.05 ms, 12.6 KB; level 1, 1.05 ms, 13.4 KB
#: (Z_RLE and Z_FILTERED are no faster here, and RLE's bands half as big again).
#: ISA-L's levels on the same bands: 0, 35 us a band, 33% bigger than zlib's level 3;
#: 1 (and 2, the same here), 50 us, 4% bigger; 3, 360 us, 5% bigger.
DEFLATER = _band_deflater()
PNG_LEVEL = 1 if DEFLATER is not zlib else 3
BAND_ROWS = 32

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = DEFLATER.compress(b"", PNG_LEVEL)[:2]
_FINAL_BLOCK = DEFLATER.compressobj(PNG_LEVEL, DEFLATER.DEFLATED, -15).flush()  # an empty last block
_ADLER_BASE = 65521


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", DEFLATER.crc32(data, DEFLATER.crc32(kind)))


#: :func:`_chunk` of the chunks pictures share: the header of each size, the palette, the end.
_kept_chunk = lru_cache(maxsize=1024)(_chunk)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs (zlib's
    ``adler32_combine``, which Python's zlib does not expose)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += (first >> 16) + (second >> 16) + _ADLER_BASE - rem
    return (sum1 % _ADLER_BASE) | ((sum2 % _ADLER_BASE) << 16)


#: Each drawing thread's compressor, used again for every band: a new zlib one costs
#: more than a band of cards (50 us: zlib allocates and clears 256 KB; ISA-L's, 1-2 us),
#: and a full flush, all input consumed, leaves one as it was new (zlib and ISA-L forget
#: the history and start the window over), so a band's output is what a new compressor
#: gives (tested; checked once at import, else a new compressor is made for each band).
_PACKERS = threading.local()


def _new_packer() -> Any:
    return DEFLATER.compressobj(PNG_LEVEL, DEFLATER.DEFLATED, -15)


def deflate(data: bytes | memoryview) -> bytes:
    """``data`` deflated on its own (no reference to anything before it), ended with a
    full flush."""
    packer = getattr(_PACKERS, "packer", None) if PACKER_REUSABLE else None
    if packer is None:
        packer = _new_packer()
    _PACKERS.packer = None  # a compression that fails half-way leaves no used compressor behind
    deflated = packer.compress(data) + packer.flush(DEFLATER.Z_FULL_FLUSH)
    _PACKERS.packer = packer
    return deflated


def full_flush_resets() -> bool:
    """Whether :data:`DEFLATER`'s compressor, after a full flush, compresses as a new one does
    (one that kept its history would write the second copy as a reference to the first)."""
    sample = bytes(range(256)) * 40 + b"\x05" * 3000
    packer = _new_packer()
    first = packer.compress(sample) + packer.flush(DEFLATER.Z_FULL_FLUSH)
    again = packer.compress(sample) + packer.flush(DEFLATER.Z_FULL_FLUSH)
    return again == first


PACKER_REUSABLE = full_flush_resets()


def deflate_band(filtered: bytes | memoryview) -> Band:
    """One band of PNG's filtered data (rows, each after its filter byte), deflated on
    its own (:func:`deflate`), with the data's Adler-32 and length: the bands of a
    picture, in order, make its IDAT (:func:`png_file`)."""
    return deflate(filtered), DEFLATER.adler32(filtered), len(filtered)


def framed(img: Image.Image) -> Image.Image:
    """The image one column wider, its pixels from the second column on and zeros in the
    first: its bytes are PNG's filtered rows (filter type 0, none: what palette images
    compress best with, before each row). Pictures are composed on such a canvas
    directly (bot/pictures/cardart.py), so nothing is copied to frame them."""
    canvas = Image.new("P", (img.width + 1, img.height), 0)
    canvas.paste(img, (1, 0))
    return canvas


def bands_of(canvas: Image.Image, band: Callable[[bytes], Band] = deflate_band) -> list[Band]:
    """The bands of a framed picture (:func:`framed`), :data:`BAND_ROWS` rows each,
    deflated by ``band`` (bot/pictures/cardart.py passes one that keeps them)."""
    filtered = canvas.tobytes()
    step = canvas.width * BAND_ROWS
    return [band(filtered[at:at + step]) for at in range(0, len(filtered), step)]


def png(img: Image.Image, band: Callable[[bytes], Band] = deflate_band) -> bytes:
    """A palette ("P", 8 bits a pixel) image as a PNG file: IHDR, PLTE, one IDAT of bands
    compressed independently (:func:`bands_of`), IEND. Decoded, the same pixels and
    palette as Pillow's own PNG writer (tested); the bytes depend only on the image."""
    if img.mode != "P":
        raise ValueError(f"png writes palette images, not {img.mode!r} ones")
    return png_file(img.width, img.height, bytes(img.getpalette("RGB")), bands_of(framed(img), band))


def png_file(width: int, height: int, palette: bytes, bands: Sequence[Band]) -> bytes:
    """The PNG file of a picture from its bands (:func:`deflate_band`), top to bottom."""
    parts = [_ZLIB_HEADER]
    adler = 1  # of no data
    for deflated, band_adler, length in bands:
        parts.append(deflated)
        adler = adler32_combine(adler, band_adler, length)
    parts += [_FINAL_BLOCK, struct.pack(">I", adler)]
    return b"".join((
        _PNG_SIGNATURE,
        _kept_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
        _kept_chunk(b"PLTE", palette),
        _chunk(b"IDAT", b"".join(parts)),
        _kept_chunk(b"IEND", b""),
    ))
