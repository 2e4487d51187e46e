"""Rasterising rows of text into a page image (spec pixel-and-mem A6).

Pure stdlib and fast: a page is built one scanline at a time by joining glyph rows
(``bytes.join``), never pixel by pixel. Ink is a thermometer code (see ``atlas``), so the
reference's ``max`` blending where glyphs overlap - a 5-px glyph at a 4-px advance, 8-px-tall
rows at a 6-px pitch - is a bitwise OR, done on whole scanlines as big integers. The finished
page is mapped to grey or RGB with ``bytes.translate``.

Coloured styles keep a per-pixel *slot* (which palette colour the ink takes): after each glyph
is drawn every inked pixel of its box takes the glyph's slot, so the last box drawn over a pixel
wins. Paper stays white whatever its slot.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from operator import itemgetter

from . import png
from .atlas import CELL_H, CELL_W, GREY_LEVELS, THERMO_CODES, get_atlas
from .density import RenderStyle
from .geometry import DEFAULT_COLS, MAX_HEIGHT_PX, PAD_X, PAD_Y, go_div, page_height_px, page_width_px

NO_BOX = 255  # slot value: no glyph box covers this pixel
DIVIDER_CODE = 16  # the multi-column divider (ink 64 -> grey 191), drawn only on paper
DIVIDER_INK = 64
_IS_BOX = bytes([255] * 255 + [0])
_ROW_GETTERS = tuple(itemgetter(r) for r in range(CELL_H))


def _ink_of_code() -> list[int]:
    ink = [0] * 32
    for level, code in zip(GREY_LEVELS, THERMO_CODES):
        ink[code] = level
    ink[DIVIDER_CODE] = DIVIDER_INK
    return ink


INK_OF_CODE = _ink_of_code()  # thermometer code -> ink 0..255
GREY_OF_CODE = bytes(255 - INK_OF_CODE[c & 31] for c in range(256))

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


def overlay_bytes(old: bytes, new: bytes) -> bytes:
    """``new`` where it is not NO_BOX, else ``old`` (later glyph boxes win)."""
    n = len(new)
    cover = int.from_bytes(new.translate(_IS_BOX), "big")
    full = (1 << (8 * n)) - 1
    if cover == full:
        return new
    merged = (int.from_bytes(new, "big") & cover) | (int.from_bytes(old, "big") & (full ^ cover))
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

    def place(self, row: str, cols: int, cell_w: int, x0: int) -> list[tuple[int, object, int]]:
        """Glyph placements ``(x, glyph, char index)`` of one row; missing glyphs are counted
        as dropped and advance one cell."""
        cache = self._glyph_cache
        glyph_of = self._atlas.glyph
        out = []
        col = 0
        self.row_dropped = 0
        for j, ch in enumerate(row):
            if col >= cols:
                break
            g = cache.get(ch, False)
            if g is False:
                g = glyph_of(ord(ch))
                cache[ch] = g
            if g is None:
                self.dropped[ord(ch)] += 1
                self.row_dropped += 1
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
            return png.encode(self.width, self.height, png.GREY, codes.translate(GREY_OF_CODE)), False
        return png.encode(self.width, self.height, png.RGB, colourise(codes, self.slot_map(), palette)), True


def tint(grey: int, colour: int) -> int:
    """Grey g (255 - ink) inked in a palette channel: 255 - (255-g)(255-c)/255."""
    return round_half_away(255 - (255 - grey) * (255 - colour) / 255)


_CHANNEL_TABLES: dict[tuple, tuple[bytes, bytes, bytes]] = {}


def _channel_tables(palette) -> tuple[bytes, bytes, bytes]:
    """code (ink code | slot << 5) -> channel value, per channel."""
    tables = _CHANNEL_TABLES.get(palette)
    if tables is None:
        out = []
        for c in range(3):
            t = bytearray(256)
            for code in range(256):
                grey = GREY_OF_CODE[code & 31]
                slot = code >> 5
                t[code] = tint(grey, palette[slot - 1][c]) if 1 <= slot <= len(palette) else grey
            out.append(bytes(t))
        tables = _CHANNEL_TABLES[palette] = tuple(out)
    return tables


def interleave(r: bytes, g: bytes, b: bytes) -> bytes:
    out = bytearray(3 * len(r))
    out[0::3], out[1::3], out[2::3] = r, g, b
    return bytes(out)


def colourise(codes: bytes, slot_map: bytes, palette) -> bytes:
    """Interleaved RGB: pixels whose slot s is 1..len(palette) take palette[s-1], others grey."""
    slot_bits = bytes((s << 5) if 1 <= s <= 7 else 0 for s in range(256))
    merged = (int.from_bytes(codes, "big") | int.from_bytes(slot_map.translate(slot_bits), "big")).to_bytes(len(codes), "big")
    return interleave(*(merged.translate(t) for t in _channel_tables(palette)))


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

