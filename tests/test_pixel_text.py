"""Pixel text preparation, wrapping, the glyph atlas and page geometry (spec pixel-and-mem A2-A5,
C1-C8, C12-C13)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.pixel import atlas as atlas_mod
from cavemem.pixel.atlas import get_atlas
from cavemem.pixel.geometry import (
    cols_per_page,
    max_chars_per_image,
    max_fitting_cols,
    multicol_width,
    page_height_px,
    page_width_px,
    rows_per_page,
)
from cavemem.pixel.prepare import (
    compact_slab_whitespace,
    dereflow,
    expand_tabs_in_line,
    js_len,
    minify_for_render,
    neutralize_sentinel,
    reflow,
)
from cavemem.pixel.wrap import count_visual_rows, measure_content_cols, measure_line_cols, wrap_lines

# -- A3 ------------------------------------------------------------------------------------------


def test_minify_for_render():
    assert minify_for_render("foo\n\n\n\n\nbar") == "foo\n\n\nbar"
    assert minify_for_render("a  \n\n\n\n  b\t\nc") == "a\n\n\n  b\nc"
    assert minify_for_render("  lead  mid  x") == "  lead  mid  x"
    assert minify_for_render("cr\r\n") == "cr\r\n"  # CR is not stripped


def test_compact_slab_whitespace():
    assert compact_slab_whitespace("alpha  \nbeta\t\n") == "alpha\nbeta\n"
    assert compact_slab_whitespace("a\n\n\nb") == "a\n\nb"
    assert compact_slab_whitespace("  f() {\n\treturn\n  }") == "  f() {\n\treturn\n  }"
    assert compact_slab_whitespace("") == ""


def test_expand_tabs():
    assert expand_tabs_in_line("a\tb") == "a\u2192  b"
    assert expand_tabs_in_line("\tx") == "\u2192   x"
    assert expand_tabs_in_line("abc\tx") == "abc\u2192x"
    assert expand_tabs_in_line("ab\tc") == "ab\u2192 c"
    assert expand_tabs_in_line("\u4e2d\tx") == "\u4e2d\u2192 x"
    assert expand_tabs_in_line("no tabs") == "no tabs"


def test_reflow_round_trip_and_sentinels():
    assert reflow("a\u21b5b") == ("a\u21b5b", False)
    assert neutralize_sentinel("a\u21b5b") == "a\u23ceb"
    assert reflow("alpha\nbeta\n\ngamma") == ("alpha\u21b5beta\u21b5\u21b5gamma", True)
    assert reflow("x\n")[0] == "x\u21b5"
    text = "a\tb  \n\n\n\n\nc"
    assert dereflow(reflow(text)[0]) == "\n".join(expand_tabs_in_line(x) for x in minify_for_render(text).split("\n"))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_reflow_never_leaves_newlines(text):
    packed, ok = reflow(text)
    assert ok == ("\u21b5" not in text)
    if ok:
        assert "\n" not in packed


def test_js_len_units():
    assert js_len("ab") == 2
    assert js_len("\U0001f600") == 2
    assert js_len("\u4e2d") == 1


# -- A4 ------------------------------------------------------------------------------------------


def test_measure():
    assert measure_line_cols("abc\u4e2d") == 5
    assert measure_content_cols("short\n" + "x" * 40, 20) == 20
    assert measure_content_cols("", 312) == 1
    assert measure_content_cols("ab\tc", 100) == 5  # tab-expanded
    assert measure_content_cols("a" * 2_000_000, 312) == 312


def test_wrap_lines():
    assert wrap_lines("aaaaa\u4e2db", 6) == ["aaaaa", "\u4e2db"]
    assert wrap_lines("ab\U0001f600cd", 3) == ["ab\U0001f600", "cd"]
    assert wrap_lines("", 10) == [""]
    assert wrap_lines("a\n\nb", 10) == ["a", "", "b"]
    assert wrap_lines("\u4e2d\u4e2d", 1) == ["\u4e2d", "\u4e2d"]  # a wide glyph is never split


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400), st.integers(min_value=2, max_value=50))
def test_wrap_rows_fit(text, cols):
    for row in wrap_lines(text, cols):
        assert measure_line_cols(row) <= cols
        assert "\n" not in row


def test_count_visual_rows():
    assert count_visual_rows("abc\u21b5def", 100) == 2
    assert count_visual_rows("", 10) == 1
    assert count_visual_rows("a" * 25, 10) == 3
    assert count_visual_rows("\u4e2d" * 10, 10) == 2  # decided: wide glyphs count 2 cells
    assert count_visual_rows("\U0001f600" * 10, 10) == 1  # an emoji is one (dropped) cell


def test_wrap_one_megabyte_line_is_fast():
    rows = wrap_lines("\u4e2dx" * 300_000, 312)
    assert len(rows) == -(-900_000 // 312)


# -- A2 atlas ------------------------------------------------------------------------------------


def test_atlas_contents():
    a = get_atlas()
    assert len(a) == 35501
    g = a.glyph(ord("A"))
    assert g.cells == 1 and g.has_ink
    for cp in (0x4E00, 0xAC00, 0xFF01, 0x23CE):
        assert a.glyph(cp).cells == 2
    assert a.glyph(0xFF61).cells == 1  # halfwidth katakana
    assert a.glyph(9) is None and a.glyph(10) is None and a.glyph(13) is None and a.glyph(0xAD) is None
    assert a.glyph(0x21B5) is not None and a.glyph(0x2192) is not None
    assert a.glyph(0x1F600) is None


def _bitmap(ch: str) -> list[str]:
    g = get_atlas().glyph(ord(ch))
    return ["".join("#" if v else "." for v in row) for row in g.mono_rows]


def test_edited_spleen_glyphs():
    assert _bitmap("`") == ["#....", ".#..."] + ["....."] * 6
    assert _bitmap("'") == ["...#.", "..#..", ".#..."] + ["....."] * 5
    assert _bitmap("K") == [".....", "#..#.", "#.#..", "##...", "##...", "#.#..", "#..#.", "....."]
    assert _bitmap("H") == [".....", "#..#.", "#..#.", "####.", "#..#.", "#..#.", "#..#.", "....."]


def test_ascii_is_binary_and_unifont_right_column_blank():
    a = get_atlas()
    for cp in range(0x20, 0x7F):
        assert set(b"".join(a.glyph(cp).aa_rows)) <= {0, 15}
    for cp in (0x4E00, 0x0416, 0x2588):
        g = a.glyph(cp)
        assert all(row[-1] == 0 for row in g.aa_rows)


def test_atlas_metadata_and_licences_ship():
    meta = json.loads((atlas_mod.DATA_DIR / "glyphs.json").read_text())
    assert meta["glyphs"] == 35501
    assert {s["debian_package"] for s in meta["sources"]} == {"fonts-spleen", "unifont"}
    assert all(len(s["sha256"]) == 64 and s["package_version"] for s in meta["sources"])
    assert "BSD" in (atlas_mod.DATA_DIR / "SPLEEN_LICENSE.txt").read_text() or "Redistribution" in (
        atlas_mod.DATA_DIR / "SPLEEN_LICENSE.txt"
    ).read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in (atlas_mod.DATA_DIR / "UNIFONT_LICENSE.txt").read_text()


# -- A5 geometry ---------------------------------------------------------------------------------


def test_page_formulas():
    assert (page_width_px(312, 5), page_height_px(90, 8)) == (1568, 728)
    assert (page_width_px(389, 4), page_height_px(119, 6)) == (1565, 724)
    assert (page_width_px(513, 5), page_height_px(181, 8)) == (2573, 1456)
    assert (page_width_px(641, 4), page_height_px(241, 6)) == (2573, 1456)
    assert (cols_per_page(1568, 5), rows_per_page(728, 8)) == (312, 90)
    assert (cols_per_page(1568, 4), rows_per_page(728, 6)) == (389, 119)
    assert (cols_per_page(2576, 5), rows_per_page(1456, 8)) == (513, 181)
    assert (cols_per_page(2576, 4), rows_per_page(1456, 6)) == (641, 241)
    assert page_height_px(0) == 8
    assert rows_per_page(10, 8) == 1


def test_multicol_geometry():
    assert max_chars_per_image(100) == 9000
    assert multicol_width(80, 2) == 828
    assert multicol_width(100, 2) == 1028
    assert (max_fitting_cols(100), max_fitting_cols(80), max_fitting_cols(312)) == (3, 3, 1)
