"""Big CSV and TOML/INI inputs are compressed piece by piece (``compressors.pieces``): the view
keeps one header row, is never cut inside a quoted field or a section, saves what the
whole-input path saves, and the engine still gives the exact original back."""

from __future__ import annotations

import csv
import io
import random

import pytest

from cavemem.compressors import pieces
from cavemem.compressors.config import ConfigCompressor
from cavemem.compressors.tabular import TabularCompressor
from cavemem.engine.core import Engine
from cavemem.store.ccr import open_ccr


@pytest.fixture
def small_pieces(monkeypatch):
    monkeypatch.setattr(pieces, "BIG_INPUT_BYTES", 64 << 10)
    monkeypatch.setattr(pieces, "PIECE_BYTES", 16 << 10)


def _csv(rows: int, seed: int = 3) -> bytes:
    rnd = random.Random(seed)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["name", "version", "status", "size", "note"])
    for i in range(rows):
        note = "multi\nline, quoted" if i % 97 == 0 else f"build {rnd.randint(1, 9)}"
        w.writerow([f"pkg{i}", f"1.{i % 7}.{rnd.randint(0, 9)}", "ok" if i % 500 else "FAILED", rnd.randint(100, 99999), note])
    return buf.getvalue().encode()


def _toml(tables: int) -> bytes:
    return "".join(f'[pkg.tool.target-{i:05d}]\navailable = true\nurl = "https://example.org/t-{i}.tar.gz"\n'
                   f'hash = "{i * 7919:016x}"\n\n' for i in range(tables)).encode()


def test_csv_pieces_never_cut_inside_a_quoted_field(small_pieces):
    data = _csv(6000)
    spans = pieces.csv_pieces(data)
    assert spans and len(spans) > 3
    header = data[: spans[0][0]]
    for start, end in spans:
        rows = list(csv.reader(io.StringIO((header + data[start:end]).decode())))
        assert rows[0] == ["name", "version", "status", "size", "note"] and all(len(r) == 5 for r in rows)
    assert b"".join(data[a:b] for a, b in spans) == data[len(header):]


def test_a_big_csv_view_has_one_header_keeps_failures_and_saves_as_much(small_pieces, monkeypatch):
    data = _csv(6000)
    out = TabularCompressor().compress(data)
    assert out is not None and out.count(b"name,version,status,size,note") == 1
    assert out.count(b"FAILED") == data.count(b"FAILED")  # alarming rows stay in every piece
    monkeypatch.setattr(pieces, "PIECE_BYTES", 64 << 10)  # five pieces: each keeps its own head, tail, extremes
    fewer = TabularCompressor().compress(data)
    monkeypatch.setattr(pieces, "BIG_INPUT_BYTES", 1 << 40)  # the whole-input path on the same bytes
    whole = TabularCompressor().compress(data)
    assert len(fewer) - len(whole) < 0.03 * len(data)  # within 3 points of what the whole path saves


def test_a_big_toml_is_cut_at_sections_and_each_piece_keeps_its_headers(small_pieces):
    data = _toml(3000)
    spans = pieces.section_pieces(data)
    assert spans and len(spans) > 3 and all(data[a:a + 1] == b"[" for a, _ in spans)
    out = ConfigCompressor().compress(data)
    assert out is not None and len(out) < len(data) // 2
    assert b"[pkg.tool.target-00000]" in out and b"pkg.tool.target-02999" in out  # the last one named on a marker


def test_small_inputs_take_the_whole_input_path():
    assert pieces.csv_pieces(_csv(50)) is None and pieces.section_pieces(_toml(50)) is None


def test_the_engine_gives_the_exact_original_back(small_pieces, tmp_path):
    engine = Engine(store=open_ccr(str(tmp_path / "ccr.db")))
    for data, kind in ((_csv(6000), "tabular"), (_toml(3000), "config")):
        res = engine.compress(data)
        assert res.content_type == kind and res.recovery_handle and len(res.output) < len(data)
        assert engine.retrieve(res.recovery_handle) == data
    engine.close()


def test_big_grep_output_and_aligned_tables_and_sectionless_ini_go_in_pieces(small_pieces, tmp_path):
    grep = b"".join(b"src/mod%d.py:%d:    value = compute(%d)\n" % (i % 40, i, i % 9) for i in range(8000))
    ls = b"total 4096\n" + b"".join(b"-rwxr-xr-x 1 root root %8d Jan  3  2025 tool-%05d\n" % (i * 37 % 99991, i) for i in range(4000))
    ini = b"".join(b"# worker pool %d: see the manual for these settings\nmaxproc = %d\nenabled = yes\nlog_level = info\n\n" % (i, i % 50)
                   for i in range(3000))
    assert pieces.line_pieces(grep) and pieces.line_pieces(ls, skip_header=True) and pieces.section_pieces(ini)
    engine = Engine(store=open_ccr(str(tmp_path / "ccr.db")))
    for data in (grep, ls, ini):
        res = engine.compress(data)
        assert res.recovery_handle and len(res.output) < len(data) and engine.retrieve(res.recovery_handle) == data
    engine.close()


def _python_module(functions: int) -> bytes:
    return b'"""A generated module."""\nimport os\n\n' + b"".join(
        b"@cache\ndef f%d(x):\n    y = x * %d\n    if y > 10:\n        return os.path.join(str(y), 'a')\n    return y\n\n\n" % (i, i)
        + (b"class C%d:\n    def m(self):\n        return %d\n\n\n" % (i, i) if i % 5 == 0 else b"") for i in range(3000))


def test_big_source_is_cut_between_top_level_definitions_and_each_view_parses(small_pieces, tmp_path):
    import ast

    from cavemem.compressors.code import CodeCompressor

    data = _python_module(3000)
    spans = pieces.code_pieces(data)
    assert spans and len(spans) > 3
    assert all(data[a:a + 4] in (b"def ", b"clas", b"@cac") for a, _ in spans[1:])
    out = CodeCompressor().compress(data)
    assert out is not None and len(out) < len(data) // 2
    ast.parse(out)  # every piece's view is whole Python: a cut never splits a definition
    engine = Engine(store=open_ccr(str(tmp_path / "ccr.db")))
    res = engine.compress(data)
    assert res.content_type == "code" and engine.retrieve(res.recovery_handle) == data
    engine.close()


def test_big_prose_and_terminal_output_go_in_pieces_and_come_back_exact(small_pieces, tmp_path):
    prose = b"".join(b"## Part %d\n\nThe build of module %d finished after %d seconds and wrote its report.\n\n" % (i, i % 13, i % 97)
                     for i in range(4000))
    term = b"".join(b"\x1b[32m[%05d]\x1b[0m downloading layer %d\r\x1b[32m[%05d]\x1b[0m layer %d done\n" % (i, i % 9, i, i % 9)
                    for i in range(6000))
    assert pieces.paragraph_pieces(prose) and all(prose[a - 2:a] == b"\n\n" for a, _ in pieces.paragraph_pieces(prose)[1:])
    engine = Engine(store=open_ccr(str(tmp_path / "ccr.db")))
    for data, kind in ((prose, "text"), (term, "terminal")):
        res = engine.compress(data)
        assert res.content_type == kind and len(res.output) < len(data) and engine.retrieve(res.recovery_handle) == data
    engine.close()


def test_a_big_diff_is_cut_before_hunk_headers_and_keeps_every_change(small_pieces, tmp_path):
    from cavemem.compressors.diff import DiffCompressor

    hunk = b"@@ -%d,9 +%d,9 @@\n" + b"".join(b" context line number %d of the unchanged part\n" % k for k in range(8)) + b"-old %d\n+new %d\n" + b"".join(
        b" more context %d\n" % k for k in range(4))
    data = b"--- a/big.txt\n+++ b/big.txt\n" + b"".join(hunk % (i, i, i, i) for i in range(2500))
    spans = pieces.diff_pieces(data)
    assert spans and all(data[a:a + 3] in (b"@@ ", b"---", b"dif") for a, _ in spans)
    out = DiffCompressor().compress(data)
    assert out is not None and len(out) < len(data)
    assert out.count(b"\n-old ") == out.count(b"\n+new ") == 2500  # every change stays
    engine = Engine(store=open_ccr(str(tmp_path / "ccr.db")))
    res = engine.compress(data)
    assert res.content_type == "diff" and engine.retrieve(res.recovery_handle) == data
    engine.close()
