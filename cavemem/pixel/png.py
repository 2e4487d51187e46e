"""PNG encoding of finished pages through Pillow.

Pages are written as indexed PNGs (see ``raster``): unfiltered palette rows deflate fast and
small. zlib level 1, not ``optimize=True``: on a dense 1565x718 page Pillow's optimize pass
takes ~1 s against ~0.02 s at level 1 (~0.04 s at 3), for a file ~40% smaller; level 1 is
still ~25% smaller than the old stdlib writer at level 3, and image tokens depend on
pixel size only, never on PNG bytes. Pages with at most 16 codes are written at 1, 2 or 4 bits a
pixel (``raster.Canvas._indexed_png``): same colours, a half to a third of the bytes. What
"optimised" costs here (``scripts/bench_pixel.py`` states the trade-off): Pillow's
``optimize=True`` / level 9 write the smallest files (a 2-colour page 49 KB against 71 KB at
level 1) at ~1-1.5 s a page, against ~0.01-0.02 s at level 1. Tests compare decoded pixels, never PNG bytes (the
reference makes the same choice), so the encoder may change bytes freely. Pillow is imported on
first use, so importing the pixel package stays cheap for commands that never render.
"""

from __future__ import annotations

import io

GREY = "L"
RGB = "RGB"
COMPRESS_LEVEL = 1


def encode_indexed(image, palette: bytes) -> bytes:
    """An indexed-colour PNG of a Pillow "P" image whose pixel values index ``palette``
    (RGB triples): 1, 2 or 4 bits a pixel when the palette has at most 2, 4 or 16 colours.

    Pillow packs the rows (``tobytes("raw", "P;N")``); the IDAT stream is one stdlib
    ``zlib.compress`` of the rows, each behind filter byte 0 (no filter: what palette rows
    want anyway). ``scripts/bench_pixel.py`` times both on the same conservative 1568x720 page
    (its "PNG encoder" table): Pillow's own writer at compress_level 1 took 11 ms, this 7 ms
    (load ~9), for a file ~3% smaller; the decoded pixels are the same."""
    import struct
    import zlib

    width, height = image.size
    colours = len(palette) // 3
    bits = 1 if colours <= 2 else 2 if colours <= 4 else 4 if colours <= 16 else 8
    from PIL import Image

    # each row behind its filter byte 0, packed by Pillow in one call: the image gets 8 // bits
    # pixels of index 0 on the left, which pack into exactly one zero byte per row
    pad = 8 // bits
    wide = Image.new("P", (width + pad, height), 0)
    wide.paste(image, (pad, 0))
    framed = wide.tobytes("raw", f"P;{bits}" if bits < 8 else "P")
    stride = (width * bits + 7) // 8
    if len(framed) != (stride + 1) * height:
        raise ValueError(f"png: {len(framed)} packed bytes for {width}x{height} at {bits} bits")

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, bits, 3, 0, 0, 0)  # colour type 3: palette
    return b"".join((b"\x89PNG\r\n\x1a\n", chunk(b"IHDR", header), chunk(b"PLTE", bytes(palette)),
                     chunk(b"IDAT", zlib.compress(framed, COMPRESS_LEVEL)), chunk(b"IEND", b"")))


def encode_image(image) -> bytes:
    """PNG bytes of a Pillow image."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()


def encode(width: int, height: int, mode: str, pixels: bytes) -> bytes:
    """PNG bytes for ``pixels`` (row-major, 1 byte per pixel for GREY, 3 for RGB)."""
    from PIL import Image

    channels = 3 if mode == RGB else 1
    if len(pixels) != width * height * channels:
        raise ValueError(f"png: {len(pixels)} bytes for {width}x{height}x{channels}")
    return encode_image(Image.frombytes(mode, (width, height), pixels))
