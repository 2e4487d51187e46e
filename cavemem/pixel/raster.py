"""Rasterising rows of text into a page image (spec pixel-and-mem A6).

Pure stdlib and fast enough for ~10+ pages/s: a page is built one scanline at a time by
joining glyph rows (``bytes.join``) rather than pixel by pixel. Where glyphs overlap - a 5-px
glyph at a 4-px advance, or 8-px-tall rows at a 6-px pitch - ink is combined with ``max`` as
the reference does; OR on big integers gives that for free except where both sides carry grey
coverage, which is patched up byte by byte.

Ink runs 0..255 (0 = paper); the PNG is the inverse so the background is white. Coloured
styles keep a per-pixel *slot* (which palette colour the ink takes): after each glyph is drawn
every inked pixel of its box takes the glyph's slot, so the last box drawn over a pixel wins.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from operator import itemgetter

from . import png
from .atlas import CELL_H, CELL_W, get_atlas
from .density import RenderStyle
from .geometry import DEFAULT_COLS, MAX_HEIGHT_PX, PAD_X, PAD_Y, go_div, page_height_px, page_width_px

NO_BOX = 255  # slot value: no glyph box covers this pixel
_NONZERO = bytes([0] + [255] * 255)
_IS_BOX = bytes([255] * 255 + [0])
_INVERT = bytes(range(255, -1, -1))
_NONZERO_RUN = re.compile(rb"[^\x00]+")
_ROW_GETTERS = tuple(itemgetter(r) for r in range(CELL_H))

ZEBRA_PALETTE = ((165, 15, 15), (15, 30, 175), (15, 15, 15))
ROLE_PALETTE = ((20, 120, 50), (30, 70, 180))
CYCLE_PALETTE = ((20, 20, 20), (20, 40, 160), (150, 20, 20), (20, 110, 40))


@dataclass
class Page:
    """One rendered page: the PNG and what went into it."""

    png: bytes
    width: int
    height: int
    chars_rendered: int
    dropped_chars: int = 0
    dropped_codepoints: dict[int, int] = field(default_factory=dict)
    layers: int = 1
    coloured: bool = False


def round_half_away(x: float) -> int:
    """Round half away from zero (Go's math.Round), not Python's banker's rounding."""
    return int(x + 0.5) if x >= 0 else -int(-x + 0.5)


def max_bytes(a: bytes, b: bytes, binary: bool = False) -> bytes:
    """Per-byte max of two equal-length byte strings."""
    ia = int.from_bytes(a, "big")
    ib = int.from_bytes(b, "big")
    if not ia:
        return b
    if not ib:
        return a
    n = len(a)
    merged = (ia | ib).to_bytes(n, "big")
    if binary:  # samples are 0 or 255 only: OR is max
        return merged
    both = int.from_bytes(a.translate(_NONZERO), "big") & int.from_bytes(b.translate(_NONZERO), "big")
    if not both:  # never inked on both sides: OR is max
        return merged
    out = bytearray(merged)
    for m in _NONZERO_RUN.finditer(both.to_bytes(n, "big")):
        for i in range(m.start(), m.end()):
            out[i] = max(a[i], b[i])
    return bytes(out)


def overlay_bytes(old: bytes, new: bytes) -> bytes:
    """``new`` where it is not NO_BOX, else ``old`` (later glyph boxes win)."""
    n = len(new)
    cover = int.from_bytes(new.translate(_IS_BOX), "big")
    if cover == (1 << (8 * n)) - 1:
        return new
    keep = ((1 << (8 * n)) - 1) ^ cover
    merged = (int.from_bytes(new, "big") & cover) | (int.from_bytes(old, "big") & keep)
    return merged.to_bytes(n, "big")


def _layer_count(cell_w: int) -> int:
    """Interleaved layers so glyphs in one layer never overlap: glyph i and glyph i+k are at
    least (cells_i + k - 1) advances apart, which must cover the 5*cells_i px glyph."""
    k = 1
    while any((cells + k - 1) * cell_w < CELL_W * cells for cells in (1, 2)):
        k += 1
    return k


_LAYERS: dict[int, int] = {}


class Canvas:
    """An ink raster of ``width`` x ``height``, kept as scanlines, plus optional glyph slots."""

    def __init__(self, width: int, height: int, aa: bool, coloured: bool = False):
        self.width = max(1, width)
        self.height = max(1, height)
        self.aa = aa
        self.lines: list[bytes | None] = [None] * self.height
        self.slots: list[bytes | None] | None = [None] * self.height if coloured else None
        self.dropped: Counter = Counter()
        self._zero = bytes(self.width)
        self._padded: dict[tuple[int, int], tuple[bytes, ...]] = {}
        self._atlas = get_atlas()
        self._glyph_cache: dict[str, object] = {}
        self.glyphs_drawn = 0

    def _padded_rows(self, glyph, span: int) -> tuple[bytes, ...]:
        key = (glyph.cp, span)
        rows = self._padded.get(key)
        if rows is None:
            src = glyph.aa_rows if self.aa else glyph.mono_rows
            pad = self._zero[: max(0, span - glyph.width)]
            rows = tuple(r + pad for r in src)
            self._padded[key] = rows
        return rows

    def place(self, row: str, cols: int, cell_w: int, x0: int) -> list[tuple[int, object, int]]:
        """Glyph placements ``(x, glyph, char index)`` of one row; missing glyphs are counted
        as dropped and advance one cell."""
        cache = self._glyph_cache
        glyph_of = self._atlas.glyph
        out = []
        col = 0
        for j, ch in enumerate(row):
            if col >= cols:
                break
            g = cache.get(ch, False)
            if g is False:
                g = glyph_of(ord(ch))
                cache[ch] = g
            if g is None:
                self.dropped[ord(ch)] += 1
                col += 1
                continue
            out.append((x0 + col * cell_w, g, j))
            col += g.cells
        return out

    def draw_row(self, row: str, cols: int, cell_w: int, x0: int, y0: int, slots=None) -> None:
        """Draw one row of text with its top-left cell at (x0, y0).

        ``slots`` is None (no colour), an int (every glyph of the row), or a callable
        ``(char index, glyph ordinal) -> slot``."""
        placements = self.place(row, cols, cell_w, x0)
        if not placements:
            return
        width = self.width
        k = _LAYERS.get(cell_w) or _LAYERS.setdefault(cell_w, _layer_count(cell_w))
        scan: list[bytes] | None = None
        for j in range(k):
            layer = placements[j::k]
            if not layer:
                continue
            rowsets = []
            for i, (x, g, _) in enumerate(layer):
                span = (layer[i + 1][0] - x) if i + 1 < len(layer) else g.width
                rowsets.append(self._padded_rows(g, span))
            start = layer[0][0]
            end = layer[-1][0] + layer[-1][1].width
            lead = self._zero[:start]
            tail = self._zero[: max(0, width - end)]
            lines = []
            for r in range(CELL_H):
                line = lead + b"".join(map(_ROW_GETTERS[r], rowsets)) + tail
                lines.append(line[:width] if len(line) > width else line)
            if scan is None:
                scan = lines
            else:
                scan = [max_bytes(a, b, not self.aa) for a, b in zip(scan, lines)]
        self._blend_rows(scan, y0)
        if self.slots is not None and slots is not None:
            self._paint_slots(placements, slots, y0)
        self.glyphs_drawn += len(placements)

    def _blend_rows(self, scan: list[bytes], y0: int) -> None:
        for r, line in enumerate(scan):
            y = y0 + r
            if y < 0 or y >= self.height:
                continue
            old = self.lines[y]
            self.lines[y] = line if old is None else max_bytes(old, line, not self.aa)

    def _paint_slots(self, placements, slots, y0: int) -> None:
        buf = bytearray([NO_BOX]) * self.width
        base = self.glyphs_drawn
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

    def ink(self) -> bytes:
        z = self._zero
        return b"".join(line if line is not None else z for line in self.lines)

    def slot_map(self) -> bytes:
        none = bytes([NO_BOX]) * self.width
        return b"".join(s if s is not None else none for s in self.slots)

    def draw_vline(self, x: int, y_start: int, y_end: int, ink: int) -> None:
        """A vertical rule drawn only on unpainted pixels (the multi-column divider)."""
        if not 0 <= x < self.width:
            return
        for y in range(max(0, y_start), min(self.height, y_end)):
            line = self.lines[y] or self._zero
            if line[x] == 0:
                self.lines[y] = line[:x] + bytes([ink]) + line[x + 1 :]

    def to_png(self, palette=None) -> tuple[bytes, bool]:
        """Encode: grey when there is no palette, else RGB with slot colours."""
        grey = self.ink().translate(_INVERT)
        if palette is None or self.slots is None:
            return png.encode(self.width, self.height, png.GREY, grey), False
        return png.encode(self.width, self.height, png.RGB, colourise(grey, self.slot_map(), palette)), True


def _tint_table(colour: int) -> bytes:
    # grey g (255 - ink) tinted toward a palette channel: 255 - (255-g)(255-c)/255
    return bytes(round_half_away(255 - (255 - g) * (255 - colour) / 255) for g in range(256))


def colourise(grey: bytes, slot_map: bytes, palette) -> bytes:
    """Interleaved RGB: pixels whose slot s is 1..len(palette) take palette[s-1], others grey."""
    n = len(grey)
    full = (1 << (8 * n)) - 1
    igrey = int.from_bytes(grey, "big")
    channels = []
    plain = full
    masks = {}
    for s in range(1, len(palette) + 1):
        if bytes([s]) in slot_map:
            table = bytes(255 if v == s else 0 for v in range(256))
            m = int.from_bytes(slot_map.translate(table), "big")
            masks[s] = m
            plain ^= m
    for c in range(3):
        value = igrey & plain
        for s, m in masks.items():
            tinted = int.from_bytes(grey.translate(_tint_table(palette[s - 1][c])), "big")
            value |= tinted & m
        channels.append(value.to_bytes(n, "big"))
    out = bytearray(3 * n)
    out[0::3], out[1::3], out[2::3] = channels
    return bytes(out)


def render_chunk(
    text: str,
    cols: int = 0,
    style: RenderStyle | None = None,
    max_height_px: int = 0,
    slot_text: str | None = None,
) -> Page:
    """Wrap ``text`` at ``cols`` cells and draw the rows that fit ``max_height_px`` (A6)."""
    from .wrap import wrap_lines

    style = style or RenderStyle()
    cols = DEFAULT_COLS if cols == 0 else max(1, cols)
    max_h = MAX_HEIGHT_PX if max_height_px <= 0 else max_height_px
    cell_w, pitch = style.cell_w, style.pitch
    max_lines = max(1, go_div(max_h - 2 * PAD_Y - CELL_H, pitch) + 1)
    all_rows = wrap_lines(text, cols)
    rows = all_rows[:max_lines]
    if len(rows) == len(all_rows):
        chars = len(text)
    else:
        chars = sum(len(r) for r in rows) + len(rows) - 1
    width = page_width_px(cols, cell_w)
    height = page_height_px(len(rows), pitch)
    canvas = Canvas(width, height, style.aa, style.coloured)
    slot_rows = wrap_lines(slot_text, cols) if (style.color_by_role and slot_text is not None) else None
    for r, row in enumerate(rows):
        canvas.draw_row(row, cols, cell_w, PAD_X, PAD_Y + r * pitch, _slots_for(style, r, slot_rows))
    data, coloured = canvas.to_png(_palette(style))
    return Page(data, width, height, chars, sum(canvas.dropped.values()), dict(canvas.dropped), 1, coloured)


def _palette(style: RenderStyle):
    if style.zebra:
        return ZEBRA_PALETTE
    if style.color_by_role:
        return ROLE_PALETTE
    if style.color_cycle:
        return CYCLE_PALETTE
    return None


_ROLE_SLOT = {"\x01": 1, "\x02": 2}


def _slots_for(style: RenderStyle, r: int, slot_rows):
    if style.zebra:
        return r % 3 + 1
    if style.color_by_role:
        srow = slot_rows[r] if slot_rows is not None and r < len(slot_rows) else ""
        return lambda j, _n: _ROLE_SLOT.get(srow[j], 0) if j < len(srow) else 0
    if style.color_cycle:
        return lambda _j, n: n % 4 + 1
    return None
