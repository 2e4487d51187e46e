"""The pre-Pillow rasteriser, kept only so ``scripts/bench_pixel.py`` can time old against new
in one run (and check both give the same pixels). Nothing in cavemem renders with it.

Pure stdlib: a page is built one scanline at a time by joining glyph rows
(``bytes.join``), never pixel by pixel. Ink is a thermometer code (see ``atlas``), so the
reference's ``max`` blending where glyphs overlap - a 5-px glyph at a 4-px advance, 8-px-tall
rows at a 6-px pitch - is a bitwise OR, done on whole scanlines as big integers. The finished
page is mapped to grey or RGB with ``bytes.translate``.

Coloured styles keep a per-pixel *slot* (which palette colour the ink takes): after each glyph
is drawn every inked pixel of its box takes the glyph's slot, so the last box drawn over a pixel
wins. Paper stays white whatever its slot.
"""

from __future__ import annotations

import struct
import zlib
from collections import Counter
from contextlib import contextmanager
from operator import itemgetter

from .atlas import CELL_H, CELL_W, get_atlas
from .raster import Canvas as RasterCanvas
from .raster import DIVIDER_CODE, GREY_OF_CODE, NO_BOX, _layer_count, colourise, interleave, overlay_bytes

_ROW_GETTERS = tuple(itemgetter(r) for r in range(CELL_H))
_LAYERS: dict[int, int] = {}


class Canvas:
    """A page of thermometer-coded ink, kept as one integer per scanline, plus glyph slots."""

    def __init__(self, width: int, height: int, aa: bool, coloured: bool = False):
        self.width = max(1, width)
        self.height = max(1, height)
        self.aa = aa
        self.lines: list[int] = [0] * self.height
        self.slots: list[bytes | None] | None = [None] * self.height if coloured else None
        self.dropped: Counter = Counter()
        self._zero = bytes(self.width)
        self._padded: dict[tuple[int, int], tuple[bytes, ...]] = {}
        self._atlas = get_atlas()
        self._glyph_cache: dict[str, object] = {}
        self.glyphs_drawn = 0
        self.row_dropped = 0  # glyphs dropped in the row last placed

    def _padded_rows(self, glyph, span: int) -> tuple[bytes, ...]:
        key = (glyph.cp, span)
        rows = self._padded.get(key)
        if rows is None:
            src = glyph.aa_rows if self.aa else glyph.mono_rows
            pad = self._zero[: max(0, span - glyph.width)]
            rows = tuple(r + pad for r in src)
            self._padded[key] = rows
        return rows

    place = RasterCanvas.place  # the same glyph placement and drop counting as the Pillow canvas

    def draw_row(self, row: str, cols: int, cell_w: int, x0: int, y0: int, slots=None) -> None:
        """Draw one row of text with its top-left cell at (x0, y0).

        ``slots`` is None (no colour), an int (every glyph of the row), or a callable
        ``(char index, glyph ordinal) -> slot``."""
        placements = self.place(row, cols, cell_w, x0)
        if not placements:
            return
        width = self.width
        k = _LAYERS.get(cell_w) or _LAYERS.setdefault(cell_w, _layer_count(cell_w))
        scan = [0] * CELL_H
        for j in range(k):
            layer = placements[j::k]
            if not layer:
                continue
            xs = [p[0] for p in layer]
            glyphs = [p[1] for p in layer]
            spans = [b - a for a, b in zip(xs, xs[1:])]
            spans.append(glyphs[-1].width)
            # a glyph followed directly by the next one needs no padding
            rowsets = [
                (g.aa_rows if self.aa else g.mono_rows) if s == g.width else self._padded_rows(g, s)
                for g, s in zip(glyphs, spans)
            ]
            start = layer[0][0]
            end = layer[-1][0] + layer[-1][1].width
            lead = self._zero[:start]
            tail = self._zero[: max(0, width - end)]
            for r in range(CELL_H):
                line = lead + b"".join(map(_ROW_GETTERS[r], rowsets)) + tail
                if len(line) > width:  # bounds guard: clip at the right edge
                    line = line[:width]
                scan[r] |= int.from_bytes(line, "big")
        for r in range(CELL_H):
            y = y0 + r
            if 0 <= y < self.height:
                self.lines[y] |= scan[r]
        if self.slots is not None and slots is not None:
            self._paint_slots(placements, slots, y0)
        self.glyphs_drawn += len(placements)

    def _paint_slots(self, placements, slots, y0: int) -> None:
        buf = bytearray([NO_BOX]) * self.width
        base = self.glyphs_drawn
        if isinstance(slots, int) and not self.row_dropped:
            # one slot for the whole row and no dropped glyph in it: the boxes tile the row
            x_end = min(self.width, placements[-1][0] + placements[-1][1].cells * CELL_W)
            buf[placements[0][0] : x_end] = bytes([slots]) * (x_end - placements[0][0])
            placements = ()
        for n, (x, g, j) in enumerate(placements):
            slot = slots if isinstance(slots, int) else slots(j, base + n)
            end = min(self.width, x + g.cells * CELL_W)
            if end > x:
                buf[x:end] = bytes([slot]) * (end - x)
        line = bytes(buf)
        for r in range(CELL_H):
            y = y0 + r
            if 0 <= y < self.height:
                old = self.slots[y]
                self.slots[y] = line if old is None else overlay_bytes(old, line)

    def draw_vline(self, x: int, y_start: int, y_end: int) -> None:
        """The multi-column divider: drawn only where there is no ink."""
        if not 0 <= x < self.width:
            return
        bit = DIVIDER_CODE << (8 * (self.width - 1 - x))
        ink_mask = 0xFF << (8 * (self.width - 1 - x))
        for y in range(max(0, y_start), min(self.height, y_end)):
            if not self.lines[y] & ink_mask:
                self.lines[y] |= bit

    def codes(self) -> bytes:
        """Row-major thermometer codes of the whole page."""
        w = self.width
        return b"".join(v.to_bytes(w, "big") for v in self.lines)

    def slot_map(self) -> bytes:
        none = bytes([NO_BOX]) * self.width
        return b"".join(s if s is not None else none for s in self.slots)

    def to_png(self, palette=None) -> tuple[bytes, bool]:
        """Encode: grey when there is no palette, else RGB with slot colours."""
        codes = self.codes()
        if palette is None or self.slots is None:
            return encode(self.width, self.height, GREY, codes.translate(GREY_OF_CODE)), False
        return encode(self.width, self.height, RGB, colourise(codes, self.slot_map(), palette)), True

    def composite_png(self, blue: "Canvas", tables) -> bytes:
        merged = (int.from_bytes(self.codes(), "big") | (int.from_bytes(blue.codes(), "big") << 4))
        raw = merged.to_bytes(self.width * self.height, "big")
        return encode(self.width, self.height, RGB, interleave(*(raw.translate(t) for t in tables)))


# -- the stdlib PNG writer (filter 0 on every row, zlib level 3) ------------------------------

SIGNATURE = b"\x89PNG\r\n\x1a\n"
GREY = 0  # PNG colour type 0: 8-bit greyscale
RGB = 2  # PNG colour type 2: 8-bit truecolour


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


# zlib level 3: on a dense text page about 3x faster than level 6 for ~35% more bytes (image
# tokens depend on pixel size only, never on PNG bytes)
DEFAULT_LEVEL = 3


def encode(width: int, height: int, colour_type: int, pixels: bytes, level: int = DEFAULT_LEVEL) -> bytes:
    """PNG bytes for ``pixels`` (row-major, 1 byte per pixel for GREY, 3 for RGB)."""
    channels = 3 if colour_type == RGB else 1
    stride = width * channels
    if len(pixels) != stride * height:
        raise ValueError(f"png: {len(pixels)} bytes for {width}x{height}x{channels}")
    # filter type 0 on every row: pages are mostly white runs that deflate well as they are
    raw = b"".join(b"\x00" + pixels[y * stride : (y + 1) * stride] for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(raw, level)) + _chunk(b"IEND", b"")


@contextmanager
def installed():
    """Render with this module instead of Pillow while the block runs (the benchmark's "old")."""
    from . import raster, render

    saved = raster.Canvas, render.Canvas
    raster.Canvas = render.Canvas = Canvas
    try:
        yield
    finally:
        raster.Canvas, render.Canvas = saved
