"""log compressor: build / application log elision (spec engine-compressors §3.2, cases §7.2, §8)."""

from __future__ import annotations

import re
import time

import pytest
from conftest import CAVEMAN_EVALS, eval_fixture
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.compressors.invariants import elision_note
from cavemem.compressors.log import LogCompressor, trouble_lines
from cavemem.compressors.log_templates import slot_kind
from cavemem.engine.core import Engine

C = LogCompressor()
NOTE = elision_note("lines").encode()


def lines_bytes(lines: list[str], eol: str = "\n") -> bytes:
    return (eol.join(lines) + eol).encode()


# -- verified outputs (§7.2) -----------------------------------------------------------------


def test_noisy_log_exact_and_stable():
    lines = ["[INFO] starting"] + [f"[INFO] step {i} ok" for i in range(50)]
    lines += ["[ERROR] kaboom: undefined symbol", "  at frame (file.go:10)", "[INFO] done"]
    out = C.compress(lines_bytes(lines))
    assert out == (
        "[INFO] starting\n[INFO] step 0 ok\n\u2026 49 lines elided (caveman) \u2026\n"
        "[ERROR] kaboom: undefined symbol\n  at frame (file.go:10)\n[INFO] done\n"
    ).encode()
    assert C.compress(out) == out  # second pass: identical bytes


def logfmt(n: int) -> list[str]:
    return [
        f"ts=2026-08-08T09:{i // 60:02d}:{i % 60:02d}Z level=INFO service=ledger status=200 latency_ms={20 + i % 80}"
        for i in range(n)
    ]


def test_logfmt_summary_and_single_note():
    lines = logfmt(600)
    out = C.compress(lines_bytes(lines)).decode()
    assert out.splitlines() == lines[:2] + [
        "\u2026 596 lines elided (caveman): all level=INFO service=ledger status=200; "
        "ts: 596 distinct, 2026-08-08T09:00:02Z..2026-08-08T09:09:57Z; range latency_ms=20..99 \u2026"
    ] + lines[-2:] + [elision_note("lines")]
    assert out.count(elision_note("lines")) == 1


def test_logfmt_short_run_has_no_note():
    out = C.compress(lines_bytes(logfmt(12)))
    assert b"lines elided (caveman): all level=INFO service=ledger status=200" in out
    assert NOTE not in out


def test_prose_gets_bare_marker():
    out = C.compress(lines_bytes([f"processing item {i} of 400" for i in range(400)]))
    assert "\u2026 396 lines elided (caveman) \u2026\n".encode() in out
    assert b"elided (caveman):" not in out


def test_crlf_preserved_everywhere():
    lines = ["[INFO] a"] + [f"[INFO] noise {i}" for i in range(20)] + ["[ERROR] bad"]
    out = C.compress(lines_bytes(lines, "\r\n"))
    assert "\u2026 18 lines elided (caveman) \u2026\r\n".encode() in out
    assert re.search(rb"[^\r]\n", out) is None


def test_failures_and_unchanged_distinct_lines():
    assert C.compress(b"\xff\xfe bad utf8\nx\ny\nz\n") is None
    assert C.compress(b"one\ntwo\n") is None
    migrations = lines_bytes([f"applying migration {name}" for name in (
        "create_users", "add_email_index", "backfill_orgs", "drop_legacy_tokens", "rename_plan_column", "add_audit_log",
        "split_billing_table", "create_sessions", "add_region_to_events", "migrate_webhooks", "cleanup_feature_flags", "vacuum_stats",
    )])
    assert C.compress(migrations) == migrations  # ok, but nothing elided (the engine rejects it)
    res = Engine().compress(migrations, type="log")
    assert res.output == migrations and not res.recovery_handle and res.ratio == 0


def test_ndjson_summary_exact():
    lines = []
    for i in range(60):
        for status in ("attempted", "delivered"):
            lines.append('{"delivery_id":"wh-%d","endpoint":"https://hooks.example.com/billing","status":"%s"}' % (5000 + i, status))
    out = C.compress(lines_bytes(lines)).decode()
    assert (
        "\u2026 116 lines elided (caveman): all endpoint=https://hooks.example.com/billing; "
        "delivery_id: wh-5001..wh-5058 all 58 present; status: attempted\u00d758 delivered\u00d758 \u2026"
    ) in out.splitlines()


def test_query_keeps_relevant_routine_line():
    lines = [f"2026-06-16T10:00:{i % 60:02d}Z worker-{i % 4} processed job {i} in {10 + i % 7}ms" for i in range(80)]
    lines[41] = "2026-06-16T10:00:41Z worker-1 websocket reconnect backoff selected 250ms"
    data = lines_bytes(lines)
    assert b"websocket reconnect backoff selected" in C.compress_query(data, "websocket reconnect")
    res = Engine().compress(data, type="log", query="websocket reconnect")
    assert b"websocket reconnect backoff selected" in res.output and res.recovery_handle


def test_tail_window_skips_markers_and_note_lines():
    lines = [f"[INFO] tick {i}" for i in range(30)] + ["\u2026 5 lines elided (caveman) \u2026", elision_note("lines")]
    out = C.compress(lines_bytes(lines)).decode().splitlines()
    # the last two *real* lines are kept besides the trailing marker and note
    assert out[-4:] == ["[INFO] tick 28", "[INFO] tick 29", "\u2026 5 lines elided (caveman) \u2026", elision_note("lines")]
    assert out.count(elision_note("lines")) == 1  # an input that already has the note gets no second one


def test_one_or_two_line_runs_need_a_summary():
    lines = ["level=INFO a=1", "level=INFO a=2", "x=1 WARN", "level=INFO a=3", "ERROR y", "tail 1", "tail 2"]
    out = C.compress(lines_bytes(lines)).decode().splitlines()
    assert "level=INFO a=3" in out  # a 1-line run whose marker would cost more than it hides


# -- templates: lines that differ only in their slot values ---------------------------------------

_PACKAGES = [
    ("libapache-pom-java", "all", "29-2"), ("strace", "amd64", "6.1-0.1"), ("libboost-regex1.74.0", "amd64", "1.74.0+ds1-21"),
    ("libipt2", "amd64", "2.0.5-1"), ("libheaptrack", "amd64", "1.4.0-2"), ("man-db", "amd64", "2.11.2-2"),
    ("libbabeltrace1", "amd64", "1.5.11-1+b2"), ("libplexus-utils2-java", "all", "3.4.2-1"), ("gdb", "amd64", "13.1-3"),
    ("libsource-highlight4v5", "amd64", "3.1.9-4.2"), ("libdebuginfod1", "amd64", "0.188-2.1"), ("valgrind", "amd64", "1:3.19.0-1"),
]


def dpkg_log() -> list[str]:
    lines = []
    for k, (name, arch, version) in enumerate(_PACKAGES):
        ts = f"2026-09-22 04:45:{10 + k:02d}"
        lines.append(f"{ts} configure {name}:{arch} {version} <none>")
        for state in ("unpacked", "half-configured", "installed"):
            lines.append(f"{ts} status {state} {name}:{arch} {version}")
    lines.insert(20, "2026-09-22 04:45:15 startup archives unpack")
    return lines


def test_dpkg_style_log_is_represented_by_template_exemplars():
    lines = dpkg_log()
    data = lines_bytes(lines)
    out = C.compress(data).decode().splitlines()
    # the spec's gate alone keeps every line: each names a new package
    assert len(out) < len(lines) // 2
    for shown in ("configure", "status unpacked", "status half-configured", "status installed"):
        assert any(shown in line for line in out if "elided" not in line)  # one exemplar per template
    assert "2026-09-22 04:45:15 startup archives unpack" in out  # a template of its own
    markers = [line for line in out if "lines elided (caveman)" in line]
    assert markers and all(m.startswith("\u2026 ") for m in markers)
    assert any("all date=2026-09-22" in m for m in markers)
    kept = [line for line in out if "elided" not in line]
    assert all(k in lines for k in kept)


def test_template_run_summary_is_exact():
    lines = dpkg_log()
    out = C.compress(lines_bytes(lines)).decode().splitlines()
    pos = 0
    for line in out:  # locate each marker's run in the input and check its stated facts
        if "lines elided (caveman)" not in line:
            pos = lines.index(line, pos) + 1
            continue
        n = int(line.split()[1])
        run = lines[pos : pos + n]
        pos += n
        summary = line.split("(caveman): ", 1)[1].rstrip(" \u2026") if "(caveman): " in line else ""
        for part in summary.split("; "):
            if part.startswith("all "):
                for fact in part[4:].split(" "):
                    key, value = fact.split("=", 1)
                    assert all(value in r.split() for r in run), (fact, run)
            elif part.startswith("version: ") and "distinct" in part:
                count = int(part.split()[1])
                assert len({r.split()[-1] if "<none>" not in r else r.split()[-2] for r in run}) == count


def test_query_relevant_lines_survive_template_elision():
    lines = dpkg_log()
    out = C.compress_query(lines_bytes(lines), "man-db installed").decode().splitlines()
    assert "2026-09-22 04:45:15 status installed man-db:amd64 2.11.2-2" in out


def test_errors_and_warnings_survive_template_elision():
    lines = dpkg_log()
    lines[30] = "2026-09-22 04:45:17 status installed libipt2:amd64 2.0.5-1 error: trigger failed"
    out = C.compress(lines_bytes(lines)).decode().splitlines()
    assert lines[30] in out


def test_random_temp_names_share_one_template():
    lines = []
    for run in range(8):
        for stage in ("target", "build-tracker", "install", "ephem-wheel-cache", "unpack"):
            suffix = "".join("abcdefghijklmnopqrstuvwxyz0123456789_"[(run * 7 + k * 13 + len(stage)) % 37] for k in range(8))
            lines.append(f"2026-11-29T16:48:{10 + run:02d},{run * 3:03d} Created temporary directory: /tmp/pip-{stage}-{suffix}")
        lines.append(f"2026-11-29T16:48:{10 + run:02d},500 Successfully installed pkg{run}-1.{run}.0")
    out = C.compress(lines_bytes(lines)).decode().splitlines()
    assert len(out) < 12
    assert sum("Created temporary directory" in line and "elided" not in line for line in out) <= 3


def test_learned_word_slots_for_apt_output():
    names = ["perl", "netbase", "xauth", "readline-common", "media-types", "less", "curl", "wget", "ucf", "tzdata"]
    lines = ["Reading package lists..."]
    for k, name in enumerate(names):
        lines += [f"Selecting previously unselected package {name}.", f"Preparing to unpack .../{k:02d}-{name}_1.{k}-1_amd64.deb ...",
                  f"Unpacking {name} (1.{k}-1) ..."]
    lines += [f"Setting up {name} (1.{k}-1) ..." for k, name in enumerate(names)]
    lines.append("Processing triggers for man-db (2.11.2-2) ...")
    out = C.compress(lines_bytes(lines)).decode().splitlines()
    assert len(out) < 16
    assert "Processing triggers for man-db (2.11.2-2) ..." in out
    assert any("name: " in line and "distinct" in line for line in out if "elided" in line)
    # a word that recurs across such lines is no slot: "Selecting" / "Unpacking" lines stay apart
    assert any(line.startswith("Selecting") for line in out) and any(line.startswith("Unpacking") for line in out)


def test_reference_gate_decides_when_it_compresses():
    # lines the spec's gate already collapses: the template stage is not consulted
    lines = [f"[INFO] request {i} served from /srv/cache/{i % 7} in {i % 13}ms" for i in range(200)]
    out = C.compress(lines_bytes(lines)).decode()
    assert "\u2026 196 lines elided (caveman) \u2026" in out


@pytest.mark.parametrize("token, kind", [
    ("2026-09-22", "date"), ("04:45:25", "time"), ("2026-11-29T16:48:16,014", "time"), ("29/Nov/2026:16:48:21", "time"),
    ("https://pypi.org/simple", "url"), ("/tmp/pip-target-ulb6nyg9", "path"), ("./wheels", "path"), ("42", "number"),
    ("250ms", "number"), ("2.11.2-2", "version"), ("1:2.39.5-0+deb12u3", "version"), ("libfoo:amd64", "id"),
    ("self.state", "id"), ("deadbeef01", "id"), ("installed", None), ("half-configured", None), ("create_users", None),
])
def test_slot_kinds(token, kind):
    assert slot_kind(token) == kind


def test_template_learning_is_bounded_on_distinct_prose():
    import random

    rnd = random.Random(7)
    lines = [" ".join("".join(rnd.choice("abcdefghijklmnop") for _ in range(5)) for _ in range(12)) for _ in range(60_000)]
    data = lines_bytes(lines)
    assert _timed(data) == data  # nothing represented anywhere: every line stays


# -- trouble patterns ----------------------------------------------------------------------------

_TROUBLE = re.compile(
    r"\b(?:ERROR|FATAL|PANIC|EXCEPTION|TRACEBACK|FAIL|FAILED|FAILURE|WARN|WARNING)\b|^[\t\n\f\r ]+at[\t\n\f\r ]"
    r'|^[\t\n\f\r ]+File "|\.go:[0-9]+|^[\t\n\f\r ]+--->|caused by',
    re.I | re.A,
)


def _reference_trouble(data: bytes) -> set[int]:
    lines = data.decode().split("\n")
    return {
        i for i, s in enumerate(lines)
        if _TROUBLE.search(s) or "lines elided (caveman)" in s or s.startswith("\u2026 caveman: elided ")
    }


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.sampled_from(
    ["ERROR", "error:", "errors", "Warn", "warning_x", "  at", " at ", "\tFile \"x\"", "x.go:1", "a.GO:", " ---> ", "CAUSED BY",
     "lines elided (caveman)", "LINES ELIDED (CAVEMAN)", "\u2026 caveman: elided ", "fail-", "_fail", "ok", " ", "\r"]
), max_size=4).map("".join), min_size=1, max_size=8))
def test_trouble_scan_matches_per_line_regex(lines):
    data = "\n".join(lines).encode()
    assert trouble_lines(data) == _reference_trouble(data)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(
    ["ERROR", "errors", "  at", " at ", "\tFile \"x\"", "x.go:1", " ---> ", "CAUSED BY", "lines elided (caveman)",
     "\u2026 caveman: elided ", "_fail", "ok", " ", "\r"]
), max_size=4).map("".join), min_size=1, max_size=12), st.integers(min_value=1, max_value=24))
def test_trouble_scan_in_blocks_matches_whole_scan(lines, block):
    """Big logs are lowered and scanned a block of lines at a time: same lines as one scan."""
    from cavemem.compressors import linescan

    data = "\n".join(lines).encode()
    saved = linescan.LINE_BLOCK_BYTES
    linescan.LINE_BLOCK_BYTES = block
    try:
        got = trouble_lines(data)
    finally:
        linescan.LINE_BLOCK_BYTES = saved
    assert got == _reference_trouble(data)
    assert b"".join(b for _, b in linescan.line_blocks(data, block)) == data


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["", "a", "\u00e9t\u00e9", "x y\r", "\n", "\r\n", "\xff", "tail"]), max_size=14).map("".join),
       st.integers(min_value=1, max_value=9), st.integers(min_value=0, max_value=5))
def test_lines_decoded_in_blocks_equal_whole_split(text, block, min_lines):
    from cavemem.compressors import linescan
    from cavemem.compressors.lineends import utf8_line_list, utf8_lines

    data = text.replace("\xff", "").encode() + (b"\xff" if "\xff" in text else b"")
    saved = linescan.LINE_BLOCK_BYTES
    linescan.LINE_BLOCK_BYTES = block
    try:
        got = utf8_line_list(data, min_lines)
    finally:
        linescan.LINE_BLOCK_BYTES = saved
    whole = utf8_lines(data, min_lines)
    assert got == (None if whole is None else whole[1:])


# -- properties ------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["[INFO] tick 1", "[INFO] tick 22", "level=INFO n=3", "ERROR boom", "", "\u00e9t\u00e9 7", "x",
                                 "status installed libfoo:amd64 1.2-3", "status installed libbar:all 4.5", "Unpacking perl (5.36) ...",
                                 "Unpacking less (590-2) ...", "Unpacking curl (7.88) ...", "Unpacking ucf (3.0) ...", "a\x1cb c"]), min_size=4, max_size=60),
       st.sampled_from(["\n", "\r\n"]))
def test_kept_lines_are_verbatim_and_in_order(lines, eol):
    data = lines_bytes(lines, eol)
    out = C.compress(data)
    assert out is not None
    kept = [s for s in out.decode().split("\n") if "lines elided (caveman)" not in s and not s.startswith("\u2026 caveman")]
    original = data.decode().split("\n")
    it = iter(original)
    assert all(any(k == o for o in it) for k in kept)  # a subsequence of the original lines


# -- bad input -----------------------------------------------------------------------------------


def _timed(data: bytes, query: str = "", limit: float = 10.0):
    t = time.perf_counter()
    out = C.compress_query(data, query)
    assert time.perf_counter() - t < limit
    return out


def test_bad_inputs():
    assert _timed(b"") is None
    assert _timed(b"\n") is None
    assert _timed(b"a\x00b\nc\x00\nd\ne\n") is not None  # NUL is valid UTF-8: lines come back verbatim
    assert _timed(b"ok\n\xc3\x28\nx\ny\n") is None  # invalid UTF-8
    one_line = b"ERROR " + b"x=1 " * 250_000
    assert _timed(one_line) is None  # a single 1 MB line is fewer than 4 lines
    wide = b"\n".join([b"level=INFO " + b"k=v " * 60_000] * 4) + b"\n"
    assert _timed(wide, "k level") is not None
    lots = b"".join(b"[INFO] step %d ok\n" % i for i in range(100_000))
    out = _timed(lots, "step ok")
    assert out is not None and len(out) < 2000


def test_scales_linearly_on_a_large_log():
    lines = [f"ts=2026-08-08T09:{i // 60 % 60:02d}:{i % 60:02d}Z level=INFO svc=api status=200 latency_ms={i % 90} req=r-{i}" for i in range(60_000)]
    out = _timed(lines_bytes(lines), limit=30.0)  # ~5 MB; generous bound for a loaded machine
    assert out is not None and len(out) < 1000


# -- eval fixture ------------------------------------------------------------------------------------


def test_build_log_fixture_exact():
    data = eval_fixture("build.log")
    out = C.compress(data)
    assert len(data) == 4042 and len(out) == 359
    assert "\u2026 59 lines elided (caveman) \u2026".encode() in out


def test_build_log_band_in_process_and_cli(run_cli):
    data = eval_fixture("build.log")
    res = Engine().compress(data)
    assert res.content_type == "log" and 0.85 <= res.ratio <= 0.95
    assert b"ERROR" in res.output and b"undefined symbol" in res.output
    r = run_cli("cavemem", "compress", input=data)
    assert r.rc == 0 and 0.85 <= r.report["ratio"] <= 0.95
    assert r.stdout == res.output
    q = run_cli("cavemem", "compress", "--query", "linker undefined symbol", input=data)
    assert q.rc == 0 and b"undefined symbol" in q.stdout
