"""Text to pages (spec pixel-and-mem A7-A10): pagination, multi-column packing, the two-layer
red/blue overlay of density ``max``, and pxpipe-style dense pages.

Every function returns a list of :class:`~cavemem.pixel.raster.Page`; nothing touches disk.
"""

from __future__ import annotations

from dataclasses import dataclass

from .density import BALANCED_STYLE, DENSE_RENDER_STYLE, RenderStyle
from .geometry import (
    CELL_H,
    DEFAULT_COLS,
    GUTTER_PX,
    LINES_PER_IMAGE,
    MAX_HEIGHT_PX,
    PAD_X,
    PAD_Y,
    READABLE_CHARS_PER_IMAGE,
    go_div,
    max_fitting_cols,
    multicol_width,
    page_height_px,
    page_width_px,
)
from .prepare import js_len, reflow
from .atlas import THERMO_CODES
from .raster import INK_OF_CODE, Canvas, Page, interleave, render_chunk, round_half_away
from .wrap import measure_content_cols, wrap_lines

RED = (215, 15, 15)
BLUE = (15, 15, 215)


def split_readable_pages(lines: list[str], max_lines: int, max_chars: int) -> list[list[str]]:
    """Greedy pages of at most ``max_lines`` rows and ``max_chars`` characters, counting one
    separator per row after the first (so 89 full 312-char rows fill a 28,080-char page)."""
    pages: list[list[str]] = []
    cur: list[str] = []
    cur_chars = 0
    for line in lines:
        n = js_len(line)
        if cur and (len(cur) >= max_lines or cur_chars + n + 1 > max_chars):
            pages.append(cur)
            cur, cur_chars = [], 0
        cur_chars += n + (1 if cur else 0)
        cur.append(line)
    if cur or not pages:
        pages.append(cur)
    return pages


def render_text_to_pngs_with_char_limit(
    text: str, cols: int, max_chars: int, style: RenderStyle | None = None, max_height_px: int = MAX_HEIGHT_PX,
    slot_text: str | None = None, progress=None,
) -> list[Page]:
    """Single-column pages of at most ``max_chars`` characters. ``slot_text`` (same shape as
    ``text``) carries per-character colour slots for ``color_by_role`` and is paged alongside.
    ``progress(done, total)``, if given, is called after each page (the CLI's progress bar)."""
    style = style or RenderStyle()
    cols = DEFAULT_COLS if cols == 0 else max(1, cols)
    max_h = MAX_HEIGHT_PX if max_height_px <= 0 else max_height_px
    lines = wrap_lines(text, cols)
    hard = max(1, go_div(max_h - 2 * PAD_Y - CELL_H, style.pitch) + 1)
    per_image = min(hard, max(1, max_chars // cols))
    pages = split_readable_pages(lines, per_image, max_chars)
    slot_lines = None if slot_text is None else wrap_lines(slot_text, cols)
    out, start = [], 0
    for p in pages:
        slots = None if slot_lines is None else "\n".join(slot_lines[start : start + len(p)])
        start += len(p)
        out.append(render_chunk("\n".join(p), cols, style, max_h, slot_text=slots))
        _tick(progress, len(out), len(pages))
    return out


def _tick(progress, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


def render_text_to_pngs(text: str, cols: int = DEFAULT_COLS, style: RenderStyle | None = None) -> list[Page]:
    return render_text_to_pngs_with_char_limit(text, cols, READABLE_CHARS_PER_IMAGE, style, MAX_HEIGHT_PX)


def render_text_to_pngs_multicol(text: str, cols: int, num_cols: int, progress=None) -> list[Page]:
    """Pages of ``num_cols`` side-by-side columns (mono, 8-px pitch), clamped to what fits."""
    cols = DEFAULT_COLS if cols == 0 else max(1, cols)
    n = min(num_cols, max_fitting_cols(cols))
    if n <= 1:
        return render_text_to_pngs_with_char_limit(text, cols, READABLE_CHARS_PER_IMAGE, RenderStyle(), MAX_HEIGHT_PX,
                                                   progress=progress)
    per_col = min(LINES_PER_IMAGE, max(1, READABLE_CHARS_PER_IMAGE // cols))
    lines = wrap_lines(text, cols)
    pages = split_readable_pages(lines, per_col * n, READABLE_CHARS_PER_IMAGE * n)
    width = multicol_width(cols, n)
    stride = cols * 5 + GUTTER_PX
    out: list[Page] = []
    covered = 0
    for index, page in enumerate(pages):
        used = max(1, min(len(page), per_col))
        height = 2 * PAD_Y + used * CELL_H
        canvas = Canvas(width, height, aa=False)
        for c in range(n):
            x0 = PAD_X + c * stride
            for i, row in enumerate(page[c * per_col : (c + 1) * per_col]):
                canvas.draw_row(row, cols, 5, x0, PAD_Y + i * CELL_H)
        for c in range(n - 1):
            canvas.draw_vline(PAD_X + c * stride + cols * 5 + GUTTER_PX // 2, 2, height - 2)
        if index < len(pages) - 1:
            chars = sum(len(r) for r in page) + len(page) - 1
            covered += chars
        else:
            chars = len(text) - covered
        data, _ = canvas.to_png()
        out.append(Page(data, width, height, chars, sum(canvas.dropped.values()), dict(canvas.dropped)))
        _tick(progress, len(out), len(pages))
    return out


def _layer_coverage(rows: list[str], cols: int, style: RenderStyle, width: int, height: int):
    canvas = Canvas(width, height, aa=True)
    for r, row in enumerate(rows):
        canvas.draw_row(row, cols, style.cell_w, PAD_X, PAD_Y + r * style.pitch)
    return canvas


def _light(colour: tuple[int, int, int]) -> list[list[float]]:
    # light left by one layer per channel and coverage: 255*(1-a) + col*a, a = coverage/255
    return [[255 * (1 - cov / 255) + col * (cov / 255) for cov in range(256)] for col in colour]


_RED_L = _light(RED)
_BLUE_L = _light(BLUE)


def _clamp(v: int) -> int:
    return 0 if v < 0 else 255 if v > 255 else v


def composite_pixel(cov_red: int, cov_blue: int) -> tuple[int, int, int]:
    """Subtractive mix of red and blue ink: round(l_red * l_blue / 255) per channel."""
    return tuple(_clamp(round_half_away(_RED_L[c][cov_red] * _BLUE_L[c][cov_blue] / 255)) for c in range(3))


def _composite_tables() -> tuple[bytes, bytes, bytes]:
    """(red code | blue code << 4) -> channel value; both codes are thermometer ink (0..15)."""
    tables = [bytearray(256) for _ in range(3)]
    for red_code in THERMO_CODES:
        for blue_code in THERMO_CODES:
            px = composite_pixel(INK_OF_CODE[red_code], INK_OF_CODE[blue_code])
            for c in range(3):
                tables[c][red_code | (blue_code << 4)] = px[c]
    return tuple(bytes(t) for t in tables)


_COMPOSITE = _composite_tables()


def _composite(red: bytes, blue: bytes) -> bytes:
    """RGB pixels of two layers of thermometer-coded ink."""
    merged = (int.from_bytes(red, "big") | (int.from_bytes(blue, "big") << 4)).to_bytes(len(red), "big")
    return interleave(*(merged.translate(t) for t in _COMPOSITE))


def render_text_to_two_layer_pngs(
    text: str, cols: int, max_chars: int, style: RenderStyle = BALANCED_STYLE, max_height_px: int = MAX_HEIGHT_PX,
    progress=None,
) -> list[Page]:
    """Density ``max``: each page carries up to 2N rows, the first N inked red and the rest
    blue, overprinted on the same N-row canvas. A page with no blue rows is plain black."""
    cols = DEFAULT_COLS if cols == 0 else max(1, cols)
    max_h = MAX_HEIGHT_PX if max_height_px <= 0 else max_height_px
    per_layer = max(1, go_div(max_h - 2 * PAD_Y - CELL_H, style.pitch) + 1)
    lines = wrap_lines(text, cols)
    out: list[Page] = []
    pages = split_readable_pages(lines, 2 * per_layer, max_chars)
    for page in pages:
        red, blue = page[:per_layer], page[per_layer:]
        if not blue:
            mono = RenderStyle(aa=True, cell_w_bonus=style.cell_w_bonus, pitch_y=style.pitch)
            out.append(render_chunk("\n".join(red), cols, mono, max_h))
            _tick(progress, len(out), len(pages))
            continue
        width = page_width_px(cols, style.cell_w)
        height = page_height_px(len(red), style.pitch)
        red_canvas = _layer_coverage(red, cols, style, width, height)
        blue_canvas = _layer_coverage(blue, cols, style, width, height)
        data = red_canvas.composite_png(blue_canvas, _COMPOSITE)
        dropped = red_canvas.dropped + blue_canvas.dropped
        chars = len("\n".join(red)) + 1 + len("\n".join(blue))
        out.append(
            Page(data, width, height, chars, sum(dropped.values()), dict(dropped), 2, True)
        )
        _tick(progress, len(out), len(pages))
    return out


@dataclass
class DenseOptions:
    cols: int = 0
    multi_col: int = 0
    reflow: bool = False
    shrink: bool = True
    style: RenderStyle | None = None
    max_chars_per_image: int = 0
    max_height_px: int = 0


def render_dense_pages(text: str, opts: DenseOptions | None = None, progress=None) -> list[Page]:
    """pxpipe export: optional reflow, shrink to the content width, then multi-column packing
    when the content is full width, else single-column pages."""
    opts = opts or DenseOptions()
    source = text
    if opts.reflow:
        packed, ok = reflow(text)
        if ok:
            source = packed
    max_cols = opts.cols or DEFAULT_COLS
    cols = measure_content_cols(source, max_cols) if opts.shrink else max_cols
    requested = opts.multi_col or max_fitting_cols(cols)
    num_cols = 1 if cols < max_cols else requested
    style = opts.style or DENSE_RENDER_STYLE
    max_chars = opts.max_chars_per_image or READABLE_CHARS_PER_IMAGE
    max_h = opts.max_height_px or MAX_HEIGHT_PX
    if num_cols > 1:
        return render_text_to_pngs_multicol(source, cols, num_cols, progress)
    return render_text_to_pngs_with_char_limit(source, cols, max_chars, style, max_h, progress=progress)
