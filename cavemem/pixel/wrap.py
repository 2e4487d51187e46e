"""Measuring and hard-wrapping text on the cell grid (spec pixel-and-mem A4).

A character takes 2 cells when its atlas glyph is wide (CJK, Hangul, fullwidth) and 1 cell
otherwise, including characters with no glyph. Wrapping is character-level: pages of logs and
code read better with every cell used than with ragged word wrap, and a wide glyph is never
split across rows.
"""

from __future__ import annotations

from .atlas import get_atlas
from .prepare import NL_SENTINEL, expand_tabs_in_line, minify_for_render


def measure_line_cols(line: str) -> int:
    """Cells a line occupies."""
    if not get_atlas().has_wide(line):
        return len(line)
    width = get_atlas().cell_width
    return sum(width(ch) for ch in line)


def _line_cols_capped(line: str, cap: int) -> int:
    if not get_atlas().has_wide(line):
        return len(line)
    width = get_atlas().cell_width
    total = 0
    for ch in line:
        total += width(ch)
        if total >= cap:
            break
    return total


def measure_content_cols(text: str, max_cols: int) -> int:
    """Width of the widest (tab-expanded) line, at least 1 and at most ``max_cols``: pages
    shrink to their content instead of always being full width."""
    widest = 1
    for line in text.split("\n"):
        widest = max(widest, _line_cols_capped(expand_tabs_in_line(line), max_cols))
        if widest >= max_cols:
            break
    return min(max_cols, widest)


def wrap_lines(text: str, cols: int) -> list[str]:
    """Minify, tab-expand and hard-wrap ``text`` into rows of at most ``cols`` cells."""
    cols = max(1, cols)
    rows: list[str] = []
    width = None
    for line in minify_for_render(text).split("\n"):
        line = expand_tabs_in_line(line)
        if not line:
            rows.append("")
            continue
        if width is None:
            atlas = get_atlas()
            width = atlas.cell_width
        if not atlas.has_wide(line):  # every character one cell: plain slices
            rows.extend(line[i : i + cols] for i in range(0, len(line), cols))
            continue
        start = 0
        used = 0
        for i, ch in enumerate(line):
            w = width(ch)
            if used + w > cols and i > start:
                rows.append(line[start:i])
                start, used = i, 0
            used += w
        if start < len(line):
            rows.append(line[start:])
    return rows


def count_visual_rows(text: str, cols: int) -> int:
    """The profitability gate's row estimate: each ``\n`` or ``↵`` closes a group of
    ``max(1, ceil(cells / cols))`` rows (the ``↵`` itself counts one cell).

    Decided deviation: cells, not UTF-16 units, so a wide CJK glyph counts 2 (the reference
    under-counts CJK rows here) and an emoji 1 (it is drawn as one dropped cell)."""
    cols = max(1, cols)
    rows = 0
    for line in text.split("\n"):
        parts = line.split(NL_SENTINEL)
        for part in parts[:-1]:
            rows += max(1, -(-(measure_line_cols(part) + 1) // cols))
        rows += max(1, -(-measure_line_cols(parts[-1]) // cols))
    return rows
