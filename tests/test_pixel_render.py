"""Pixel rendering (spec pixel-and-mem A6-A10, C10-C22): page geometry, glyph drawing, colour,
pagination, multi-column and two-layer pages, and golden PNGs compared pixel for pixel.

Goldens live in tests/data/pixel/golden; regenerate them after an intended change with
``CAVEMEM_UPDATE_GOLDENS=1 python -m pytest tests/test_pixel_render.py`` and look at the diff.
"""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest

PIL = pytest.importorskip("PIL.Image")


from conftest import opened_page as opened  # noqa: E402 - one decoder for every pixel test

from cavemem.pixel.density import BALANCED_STYLE, DENSE_RENDER_STYLE, RenderStyle  # noqa: E402
from cavemem.pixel.raster import render_chunk  # noqa: E402
from cavemem.pixel.render import (  # noqa: E402
    DenseOptions,
    composite_pixel,
    render_dense_pages,
    render_text_to_pngs,
    render_text_to_pngs_multicol,
    render_text_to_pngs_with_char_limit,
    render_text_to_two_layer_pngs,
    split_readable_pages,
)
from cavemem.pixel.transforms.history import ROLE_STYLE, transcript  # noqa: E402
from cavemem.pixel.wrap import measure_content_cols  # noqa: E402

DATA = Path(__file__).parent / "data" / "pixel"
GOLDEN = DATA / "golden"
PNG_SIG = b"\x89PNG\r\n\x1a\n"


def decode(page):
    im = opened(io.BytesIO(page.png))
    im.load()
    return im


def first_ink(im, y0: int, y1: int):
    for y in range(y0, y1):
        for x in range(im.size[0]):
            px = im.getpixel((x, y))
            if px not in (255, (255, 255, 255)):
                return px
    return None


# -- A6 rasterisation ------------------------------------------------------------------------


def test_hello_page_geometry_and_counts():
    page = render_chunk("hello", 80)
    assert page.png.startswith(PNG_SIG)
    assert (page.width, page.height, page.chars_rendered, page.dropped_chars) == (408, 16, 5, 0)
    im = decode(page)
    assert im.mode == "L" and im.size == (408, 16)
    assert first_ink(im, 0, 16) == 0  # black ink on white


def test_missing_glyphs_are_counted_never_silently_lost():
    page = render_chunk("hi \U0001f600 world")
    assert page.dropped_chars == 1 and page.dropped_codepoints == {0x1F600: 1}
    assert render_chunk("\U0001f600\U0001f600\U0001f600").dropped_chars == 3
    symbols = "\u2713 \u2717 \u26a0 \u2605 \u211d \u2115 \u2124 \u211a \u2102 \u2588 \u2591 \u2592 \u25b2 \u25bc \u25ba \u25c4 \u25cf \u2308 \u2309 \u230a \u230b \u24d8 \u2460 \u2461 \u2469 \ud55c\uae00\uc548\ub155"
    assert render_chunk(symbols).dropped_chars == 0
    assert render_chunk("\u4e2d\u6587 \u041a\u0438\u0440\u0438\u043b\u043b\u0438\u0446\u0430").dropped_chars == 0


def test_control_characters_and_cr_are_dropped_and_counted():
    page = render_chunk("a\x07b\x1b[0m\r", 40)
    assert page.dropped_codepoints == {7: 1, 0x1B: 1, 13: 1}
    assert page.chars_rendered == 8


def test_advance_four_overhang_and_identical_single_glyph():
    adv4 = RenderStyle(cell_w_bonus=-1)
    assert render_chunk("HH", 2, adv4).width == 17
    one4, one5 = render_chunk("H", 1, adv4), render_chunk("H", 1)
    assert one4.png == one5.png and one4.width == 13


def test_pitch_six_heights():
    pitch6 = RenderStyle(pitch_y=6)
    assert render_chunk("a\nb\nc", 3, pitch6).height == 28
    full = render_chunk("x\n" * 200, 312, pitch6)
    assert full.height == 724 and (full.height - 16) // 6 + 1 == 119


def test_dense_page_is_full_and_patch_aligned():
    page = render_chunk("x\n" * 110, 312, DENSE_RENDER_STYLE)
    assert (page.width, page.height) == (1568, 728)
    assert page.width % 28 == 0 and page.height % 28 == 0


def test_zebra_row_colours():
    im = decode(render_chunk("X\nX\nX\nX", 4, RenderStyle(zebra=True)))
    assert im.mode == "RGB"
    colours = [first_ink(im, 4 + r * 8, 12 + r * 8) for r in range(4)]
    assert colours == [(165, 15, 15), (15, 30, 175), (15, 15, 15), (165, 15, 15)]


def test_role_colours_only_the_tags():
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    text, slots = transcript(messages, 0, 2)
    im = decode(render_chunk(text, 40, ROLE_STYLE, slot_text=slots))
    assert im.mode == "RGB"
    assert first_ink(im, 4, 12) == (20, 120, 50)  # <user t="0"> in green
    body = {im.getpixel((x, y)) for x in range(4, 20) for y in range(12, 20)}
    assert body <= {(g, g, g) for g in range(256)}  # the body "hi" stays grey/black
    rows = text.split("\n")
    asst_row = rows.index('<assistant t="1">')
    assert first_ink(im, 4 + asst_row * 8, 12 + asst_row * 8) == (30, 70, 180)


# -- A7 pagination -----------------------------------------------------------------------------


def test_pages_split_with_separator_rule():
    line = "y" * 312
    lines = [line] * 200
    pages = split_readable_pages(lines, 90, 28080)
    assert [len(p) for p in pages] == [89, 89, 22]
    assert split_readable_pages([], 90, 28080) == [[]]


def test_long_text_paginates_within_height():
    pages = render_text_to_pngs("a" * 28180, 312)
    assert len(pages) > 1 and all(p.height <= 728 for p in pages)


def test_75k_log_dense_pages():
    text = "\n".join("L" * 312 for _ in range(200))
    pages = render_text_to_pngs_with_char_limit(text, 312, 28080, DENSE_RENDER_STYLE)
    assert [(p.width, p.height) for p in pages] == [(1568, 720), (1568, 720), (1568, 184)]
    assert pages[0].chars_rendered == 27856


def test_empty_text_gives_one_small_page():
    pages = render_text_to_pngs("", 312)
    assert len(pages) == 1 and pages[0].chars_rendered == 0


# -- A8 multi-column, A9 two layers, A10 dense ---------------------------------------------


def test_multicol_width_divider_and_total_chars():
    text = "\n".join(f"row {i} " + "m" * 80 for i in range(400))
    pages = render_text_to_pngs_multicol(text, 100, 2)
    assert pages[0].width == 1028
    im = decode(pages[0])
    assert im.mode == "L" and im.getpixel((4 + 500 + 10, 10)) == 191
    assert sum(p.chars_rendered for p in pages) == len(text)
    assert render_text_to_pngs_multicol(text, 80, 2)[0].width == 828


def test_multicol_one_column_is_the_single_column_path():
    text = "alpha\nbeta\n" * 50
    one = render_text_to_pngs_multicol(text, 100, 1)
    single = render_text_to_pngs(text, 100, RenderStyle())
    assert [p.png for p in one] == [p.png for p in single]
    assert [p.png for p in render_text_to_pngs_multicol(text, 312, 2)] == [p.png for p in render_text_to_pngs(text, 312)]


@pytest.mark.parametrize(
    "n_lines, expected", [(6, [(2, 23)]), (5, [(2, 19)]), (1, [(1, 3)]), (7, [(2, 23), (1, 3)]), (0, [(1, 0)])]
)
def test_two_layer_pages(n_lines, expected):
    text = "\n".join(["aaa"] * n_lines)
    pages = render_text_to_two_layer_pngs(text, 3, 92582, BALANCED_STYLE, 28)
    assert [(p.layers, p.chars_rendered) for p in pages] == expected
    for p in pages:
        assert decode(p).mode == ("RGB" if p.layers == 2 else "L")


def test_composite_pixels():
    assert composite_pixel(255, 255) == (13, 1, 13)
    assert composite_pixel(0, 0) == (255, 255, 255)
    assert composite_pixel(128, 255) == (14, 8, 113)


def test_two_layer_page_colours():
    page = render_text_to_two_layer_pngs("H\nH", 1, 92582, BALANCED_STYLE, 16)[0]
    im = decode(page)
    assert page.layers == 2
    colours = {im.getpixel((x, y)) for x in range(im.size[0]) for y in range(im.size[1])}
    assert (13, 1, 13) in colours  # both layers inked the same H


def test_dense_pages_shrink_to_content():
    pages = render_dense_pages("def f():\n    return 1\n", DenseOptions(reflow=True))
    assert len(pages) == 1
    assert (pages[0].width, pages[0].height) == (8 + 5 * 22, 16)  # "def f():↵    return 1↵"
    assert decode(pages[0]).mode == "L"


def test_dense_pages_full_width_pack_columns():
    text = "\n".join("w" * 100 for _ in range(300))
    pages = render_dense_pages(text, DenseOptions(cols=100))
    assert pages[0].width == 8 + 3 * 500 + 2 * 20  # MaxFittingCols(100) = 3


# -- bad input ---------------------------------------------------------------------------------


def test_one_megabyte_single_line_renders_quickly():
    start = time.monotonic()
    pages = render_text_to_pngs_with_char_limit("abcdefghij" * 100_000, 312, 28080, DENSE_RENDER_STYLE)
    assert time.monotonic() - start < 60
    assert sum(p.chars_rendered for p in pages) >= 1_000_000 - len(pages)
    assert all(p.width == 1568 and p.height <= 728 for p in pages)


def test_astral_and_lone_surrogates_do_not_crash():
    page = render_chunk("\U00010348\ud800x\U0001f600", 10)
    assert page.dropped_chars == 3 and page.chars_rendered == 4


# -- goldens -----------------------------------------------------------------------------------


def _golden_cases():
    ascii_code = (DATA / "ascii_code.py.txt").read_text()
    mixed = (DATA / "mixed_scripts.txt").read_text()
    log = (DATA / "service.log").read_text()
    short_log = "\n".join(log.split("\n")[:40])
    messages = [
        {"role": "user", "content": "list the files"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"cmd": "ls"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a.py\nb.py"}]},
    ]
    role_text, role_slots = transcript(messages, 0, 3)
    return {
        "ascii_mono": lambda: render_text_to_pngs(ascii_code, 80),
        "ascii_dense_reflow": lambda: render_dense_pages(ascii_code, DenseOptions(reflow=True)),
        "mixed_mono": lambda: [render_chunk(mixed, 70)],
        "mixed_aa": lambda: [render_chunk(mixed, 70, DENSE_RENDER_STYLE)],
        "mixed_balanced": lambda: [render_chunk(mixed, 70, BALANCED_STYLE)],
        "log_balanced": lambda: render_text_to_pngs_with_char_limit(short_log, measure_content_cols(short_log, 389), 46291, BALANCED_STYLE),
        "log_max": lambda: render_text_to_two_layer_pngs(log, measure_content_cols(log, 389), 92582, BALANCED_STYLE, 124),
        "log_multicol2": lambda: render_text_to_pngs_multicol(log, 80, 2),
        "history_roles": lambda: [render_chunk(role_text, 60, ROLE_STYLE, slot_text=role_slots)],
    }


@pytest.mark.parametrize("name", sorted(_golden_cases()))
def test_golden_pixels(name):
    pages = _golden_cases()[name]()
    update = os.environ.get("CAVEMEM_UPDATE_GOLDENS") == "1"
    for i, page in enumerate(pages):
        path = GOLDEN / f"{name}-{i:02d}.png"
        if update:
            GOLDEN.mkdir(parents=True, exist_ok=True)
            path.write_bytes(page.png)
        want = opened(path)
        got = decode(page)
        assert (got.size, got.mode) == (want.size, want.mode), path.name
        assert got.tobytes() == want.tobytes(), f"{path.name}: pixels differ from the golden"
    assert not (GOLDEN / f"{name}-{len(pages):02d}.png").exists(), "fewer pages than the golden set"


def test_renumbering_is_exact_whatever_the_last_page_used(monkeypatch):
    from cavemem.pixel import raster

    canvas = raster.Canvas(64, 16, aa=False)
    monkeypatch.setattr(raster, "_LAST_CODES", b"\x00\x0f")
    page = bytearray(64 * 16)
    page[5] = 0x0F
    assert canvas._renumbered(page) == ([0, 15], page.translate(bytes([0] * 15 + [1] + [0] * 240)))  # the last set
    assert canvas._renumbered(bytes(64 * 16)) == ([0], bytes(64 * 16))  # a subset of it: histogram
    assert raster._LAST_CODES == b"\x00"
    page[700] = 3
    used, out = canvas._renumbered(page)
    assert used == [0, 3, 15] and out[5] == 2 and out[700] == 1 and out.count(0) == 64 * 16 - 2
    assert raster._LAST_CODES == b"\x00\x03\x0f"
    many = (bytes(range(20)) * 52)[: 64 * 16]
    assert canvas._renumbered(many)[0] == list(range(20))
