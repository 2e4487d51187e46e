"""Rasterising rows of text into a page image (spec pixel-and-mem A6).

The page is a row-major buffer of thermometer ink codes (see ``atlas``), made into one Pillow
"L" image when it is encoded. A row of text is drawn in ``k`` interleaved layers whose glyphs
never overlap; each layer is one ``bytes.join`` of column-major glyph blocks (no per-glyph Python
work on the common path). The reference's ``max`` blending where glyphs overlap is a bitwise OR
of the layers (a 5-px glyph at a 4-px advance), and an OR of scanlines where rows overlap (8-px
rows at a 6-px pitch). (Blitting glyph by glyph with ``Image.paste``, bands of 8-px columns, or a
``frombytes`` + ``ImageChops.lighter`` + ``paste`` per band all measured slower: Pillow's per-call
overheads dominate 5x8 glyphs.) The finished page is an indexed PNG (:mod:`.png`): the ink code
(plus the colour slot in the high bits) is the palette index; Pillow renumbers, packs and blends.

Coloured styles keep a per-pixel *slot* (which palette colour the ink takes): after each glyph
is drawn every inked pixel of its box takes the glyph's slot, so the last box drawn over a pixel
wins. Paper stays white whatever its slot.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from . import png
from .atlas import CELL_H, CELL_W, GREY_LEVELS, THERMO_CODES, get_atlas
from .density import RenderStyle
from .geometry import DEFAULT_COLS, MAX_HEIGHT_PX, PAD_X, PAD_Y, go_div, page_height_px, page_width_px

NO_BOX = 255  # slot value: no glyph box covers this pixel
DIVIDER_CODE = 16  # the multi-column divider (ink 64 -> grey 191), drawn only on paper
DIVIDER_INK = 64
_IS_BOX = bytes([255] * 255 + [0])


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
    """A page of thermometer-coded ink (a row-major buffer, a Pillow "L" image on demand), plus
    per-scanline glyph slots."""

    def __init__(self, width: int, height: int, aa: bool, coloured: bool = False):
        from PIL import Image, ImageChops

        self._Image, self._chops = Image, ImageChops
        self.width = max(1, width)
        self.height = max(1, height)
        self.aa = aa
        self._page = bytearray(self.width * self.height)  # row-major codes; a Pillow image on demand (img)
        self.slots: list[bytes | None] | None = [None] * self.height if coloured else None
        self.dropped: Counter = Counter()
        self._atlas = get_atlas()
        self._glyph_cache: dict[str, object] = {}
        self.glyphs_drawn = 0
        self.row_dropped = 0  # glyphs dropped in the row last placed
        self._inked_to = 0  # no ink at or below this scanline yet

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
        ``(char index, glyph ordinal) -> slot``. A row that fits and has only narrow glyphs
        takes the fast path: no per-glyph placement, one ``bytes.join`` per layer."""
        if not row:
            return
        k = _LAYERS.get(cell_w) or _LAYERS.setdefault(cell_w, _layer_count(cell_w))
        if len(row) <= cols and not callable(slots):
            blocks = _blocks(self.aa, k * cell_w)
            try:
                strips = [
                    (x0 + j * cell_w, b"".join(map(blocks.__getitem__, row[j::k]))) for j in range(min(k, len(row)))
                ]
            except _NotNarrow:
                strips = None  # a wide or missing glyph: place glyph by glyph below
            if strips is not None:
                self.row_dropped = 0
                self._blit(strips, y0)
                if self.slots is not None and slots is not None:
                    self._paint_run(x0, min(self.width, x0 + len(row) * cell_w - cell_w + CELL_W), slots, y0)
                self.glyphs_drawn += len(row)
                return
        placements = self.place(row, cols, cell_w, x0)
        if not placements:
            return
        strips = []
        for j in range(k):
            layer = placements[j::k]
            if not layer:
                continue
            xs = [p[0] for p in layer]
            spans = [b - a for a, b in zip(xs, xs[1:])]
            spans.append(layer[-1][1].width)
            strips.append((xs[0], b"".join(_block(p[1], self.aa, s) for p, s in zip(layer, spans))))
        self._blit(strips, y0)
        if self.slots is not None and slots is not None:
            self._paint_slots(placements, slots, y0)
        self.glyphs_drawn += len(placements)

    def _blit(self, strips: list[tuple[int, bytes]], y0: int) -> None:
        """Merge column-major layer strips into one 8-px band and max-blend it into the page.

        Layers are merged as big integers (thermometer codes: OR is max), the band is turned
        row-major with 8 strided slices written straight into the page buffer, OR-ed in only
        where earlier rows may have inked (a 6-px pitch overlaps the row above). One Pillow image
        is made from the buffer at the end: a ``frombytes`` + ``paste`` per band cost more than
        the drawing."""
        need = self.width * CELL_H
        merged = 0
        for x, data in strips:  # placed at byte x * CELL_H of the band by a shift, not by padding copies
            room = need - x * CELL_H
            if room <= 0:
                continue
            if len(data) > room:
                data = data[:room]
            merged |= int.from_bytes(data, "big") << (8 * (room - len(data)))
        ya, yb = max(0, y0), min(self.height, y0 + CELL_H)
        if yb <= ya:
            return
        col = merged.to_bytes(need, "big")
        page, w = self._page, self.width
        for y in range(ya, yb):
            line = col[y - y0 :: CELL_H]
            if y < self._inked_to:
                line = (int.from_bytes(line, "big") | int.from_bytes(page[y * w : (y + 1) * w], "big")).to_bytes(w, "big")
            page[y * w : (y + 1) * w] = line
        self._inked_to = max(self._inked_to, yb)

    def _paint_run(self, x: int, x_end: int, slot: int, y0: int) -> None:
        buf = bytearray([NO_BOX]) * self.width
        if x_end > x:
            buf[x:x_end] = bytes([slot]) * (x_end - x)
        self._paint_line(bytes(buf), y0)

    def _paint_slots(self, placements, slots, y0: int) -> None:
        if isinstance(slots, int) and not self.row_dropped:
            # one slot for the whole row and no dropped glyph in it: the boxes tile the row
            x_end = min(self.width, placements[-1][0] + placements[-1][1].cells * CELL_W)
            self._paint_run(placements[0][0], x_end, slots, y0)
            return
        buf = bytearray([NO_BOX]) * self.width
        base = self.glyphs_drawn
        for n, (x, g, j) in enumerate(placements):
            slot = slots if isinstance(slots, int) else slots(j, base + n)
            end = min(self.width, x + g.cells * CELL_W)
            if end > x:
                buf[x:end] = bytes([slot]) * (end - x)
        self._paint_line(bytes(buf), y0)

    def _paint_line(self, line: bytes, y0: int) -> None:
        for r in range(CELL_H):
            y = y0 + r
            if 0 <= y < self.height:
                old = self.slots[y]
                self.slots[y] = line if old is None else overlay_bytes(old, line)

    def draw_vline(self, x: int, y_start: int, y_end: int) -> None:
        """The multi-column divider: drawn only where there is no ink."""
        ya, yb = max(0, y_start), min(self.height, y_end)
        if not 0 <= x < self.width or yb <= ya:
            return
        w = self.width
        column = slice(ya * w + x, (yb - 1) * w + x + 1, w)
        self._page[column] = self._page[column].translate(_DIVIDE)

    @property
    def img(self):
        """The page as a Pillow "L" image of codes (made from the buffer on each access)."""
        return self._Image.frombytes("L", (self.width, self.height), bytes(self._page))

    def codes(self) -> bytes:
        """Row-major thermometer codes of the whole page."""
        return bytes(self._page)

    def slot_map(self) -> bytes:
        none = bytes([NO_BOX]) * self.width
        return b"".join(s if s is not None else none for s in self.slots)

    def _indexed_png(self, codes, tables) -> bytes:
        """An indexed (palette) PNG: the pixel byte *is* the code, the palette maps codes to
        colours - no per-pixel colour conversion, and filter-free rows that deflate fast.

        A page that uses at most 16 codes (a page without anti-aliasing uses two) has them
        renumbered 0..n-1 with a palette of just those colours, written at 1, 2 or 4 bits a
        pixel (:func:`.png.encode_indexed`): the same colours from an eighth (a quarter, a half)
        of the bytes to deflate. ``codes`` are the page's row-major index bytes."""
        palette = interleave(*tables)
        used, codes = self._renumbered(codes)
        if len(used) <= 16:
            palette = b"".join(palette[3 * c : 3 * c + 3] for c in used)
        im = self._Image.frombytes("P", (self.width, self.height), bytes(codes))
        return png.encode_indexed(im, palette)

    def _renumbered(self, codes) -> tuple[list[int], bytes]:
        """``(codes present ascending, the page with them renumbered 0..n-1)``; a page of more
        than 16 codes comes back as it is.

        Pages of one render use the same few codes, so the last page's set is tried first: one
        ``bytes.translate`` renumbers them and sends any other code to 255, and the page is done
        when no 255 came out and every number did (byte searches). Otherwise a histogram finds
        the set (it alone cost more than the translate and the searches together)."""
        global _LAST_CODES
        last = _LAST_CODES  # read once: another thread's render may replace it
        if 0 < len(last) <= 16:
            out = codes.translate(_lut(last, 255))
            if b"\xff" not in out and all(bytes((i,)) in out for i in range(len(last))):
                return list(last), out
        hist = self._Image.frombuffer("L", (self.width, self.height), bytes(codes), "raw", "L", 0, 1).histogram()
        used = [c for c, n in enumerate(hist) if n]
        _LAST_CODES = bytes(used)
        return used, (codes.translate(_lut(used, 0)) if len(used) <= 16 else codes)

    def to_png(self, palette=None) -> tuple[bytes, bool]:
        """Encode: grey when there is no palette, else colour with slot colours."""
        if palette is None or self.slots is None:
            return self._indexed_png(self._page, (GREY_OF_CODE,) * 3), False
        slots = self._Image.frombytes("L", (self.width, self.height), self.slot_map().translate(_SLOT_BITS))
        return self._indexed_png(self._chops.add(self.img, slots).tobytes(), _channel_tables(palette)), True

    def composite_png(self, blue: "Canvas", tables) -> bytes:
        """Two layers overprinted: index = this layer's code | the other's code << 4."""
        shifted = blue.img.point(_SHIFT4)
        return self._indexed_png(self._chops.add(self.img, shifted).tobytes(), tables)


_LAST_CODES = b""  # the codes the last indexed page used (see Canvas._renumbered)


def _lut(codes, other: int) -> bytes:
    """A translate table: ``codes[i]`` -> i, every other byte -> ``other``."""
    lut = bytearray([other]) * 256
    for i, c in enumerate(codes):
        lut[c] = i
    return bytes(lut)


_SLOT_BITS = bytes((s << 5) if 1 <= s <= 7 else 0 for s in range(256))
_SHIFT4 = [min(255, v << 4) for v in range(256)]
_DIVIDE = bytes([DIVIDER_CODE]) + bytes(range(1, 256))
_BLOCKS: dict[tuple[bool, int], dict] = {}
_PADDED: dict[tuple[int, bool, int], bytes] = {}


def _block(glyph, aa: bool, span: int) -> bytes:
    """A glyph as column-major ink codes (8 bytes per pixel column), zero-padded to ``span``."""
    key = (glyph.cp, aa, span)
    out = _PADDED.get(key)
    if out is None:
        rows = glyph.aa_rows if aa else glyph.mono_rows
        cols = [bytes(rows[r][c] for r in range(CELL_H)) for c in range(glyph.width)]
        out = b"".join(cols) + bytes(CELL_H * max(0, span - glyph.width))
        _PADDED[key] = out
    return out


class _NotNarrow(Exception):
    """The character has no glyph or a wide one: the row needs the placement path."""


class _NarrowBlocks(dict):
    """char -> padded block of its narrow glyph, filled on first use."""

    def __init__(self, aa: bool, span: int):
        super().__init__()
        self.aa, self.span = aa, span

    def __missing__(self, ch: str) -> bytes:
        g = get_atlas().glyph(ord(ch))
        if g is None or g.cells != 1:
            raise _NotNarrow(ch)
        out = self[ch] = _block(g, self.aa, self.span)
        return out


def _blocks(aa: bool, span: int) -> dict:
    d = _BLOCKS.get((aa, span))
    if d is None:
        d = _BLOCKS[(aa, span)] = _NarrowBlocks(aa, span)
    return d


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

