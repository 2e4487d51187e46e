"""Page geometry (spec pixel-and-mem A5): canvas sizes, the page formulas and billing tiers.

A standard page is 1568x728 px = 56x26 Anthropic patches; every page size below stays inside
its tier's no-resize envelope so the provider never downscales (and blurs) the text.
"""

from __future__ import annotations

from dataclasses import dataclass

PAD_X = 4
PAD_Y = 4
CELL_W = 5
CELL_H = 8
MAX_WIDTH_PX = 1568
MAX_HEIGHT_PX = 728
HIRES_MAX_WIDTH_PX = 2576
HIRES_MAX_HEIGHT_PX = 1456
DEFAULT_COLS = 312
DENSE_CONTENT_COLS = 312
READABLE_CHARS_PER_IMAGE = 28080  # 312 x 90
DENSE_CONTENT_CHARS_PER_IMAGE = 28080
GUTTER_CELLS = 4  # multi-column gutter: 20 px
GUTTER_PX = GUTTER_CELLS * CELL_W
LINES_PER_IMAGE = (MAX_HEIGHT_PX - 8) // 8  # 90
GPT_MAX_HEIGHT_PX = 1932
DEFAULT_GPT_STRIP_COLS = 152


@dataclass(frozen=True)
class Tier:
    """A provider resize envelope: the long edge and the patch-token cap of one image."""

    name: str
    max_px: int
    max_tokens: int
    canvas_w: int
    canvas_h: int


STANDARD_TIER = Tier("standard", 1568, 1568, MAX_WIDTH_PX, MAX_HEIGHT_PX)
HIRES_TIER = Tier("hires", 2576, 4784, HIRES_MAX_WIDTH_PX, HIRES_MAX_HEIGHT_PX)


def go_div(a: int, b: int) -> int:
    """Go integer division (truncates toward zero; Python's // floors)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def page_width_px(cols: int, adv: int = CELL_W) -> int:
    """2 pads + the cells; at an advance below 5 the last glyph still overhangs to its full 5 px."""
    return 2 * PAD_X + cols * adv + max(0, CELL_W - adv)


def page_height_px(rows: int, pitch: int = CELL_H) -> int:
    if rows <= 0:
        return 2 * PAD_Y
    return 2 * PAD_Y + (rows - 1) * pitch + CELL_H


def rows_per_page(height_px: int, pitch: int = CELL_H) -> int:
    return max(1, go_div(height_px - 2 * PAD_Y - CELL_H, pitch) + 1)


def cols_per_page(width_px: int, adv: int = CELL_W) -> int:
    return max(1, go_div(width_px - 2 * PAD_X - max(0, CELL_W - adv), adv))


def max_chars_per_image(cols: int) -> int:
    return min(cols * LINES_PER_IMAGE, READABLE_CHARS_PER_IMAGE)


def multicol_width(cols: int, n: int) -> int:
    return 2 * PAD_X + n * cols * CELL_W + (n - 1) * GUTTER_PX


def max_fitting_cols(cols: int) -> int:
    """The most columns of ``cols`` cells that fit the standard page width (at least 1)."""
    n = 1
    while multicol_width(cols, n + 1) <= MAX_WIDTH_PX:
        n += 1
    return n
