"""Detection and presentation wrappers (spec engine-core §1.4, §2; §10 ideas 22–32)."""

from __future__ import annotations

import pytest

from cavemem.engine.detect import detect
from cavemem.engine.wrappers import restore_listing, rewrap, split_file_wrapper, split_listing, unwrap

from conftest import CAVEMAN_EVALS, REPO, eval_fixture

DATA = REPO / "tests" / "data" / "detect"

GO_MAIN = b"""package main

import "fmt"

func add(a, b int) int {
\treturn a + b
}

func main() {
\tfmt.Println(add(1, 2))
}
"""

PY_SRC = b"""import os

class Thing:
    def __init__(self):
        self.x = 1

    def run(self):
        return os.getcwd()
"""

DIFF = b"""diff --git a/x.go b/x.go
index 1..2 100644
--- a/x.go
+++ b/x.go
@@ -1,3 +1,3 @@
 package x
-func a() {}
+func b() {}
"""

YAML = b"""service:
  name: api
  owner: team
  database:
    host: localhost
    port: 5432
features:
  alpha:
    enabled: true
    rollout: 10
  beta:
    enabled: false
    rollout: 0
  gamma:
    enabled: true
"""

TOML = b"""[server]
host = "0.0.0.0"
port = 8080
[database]
url = "postgres://x"
pool = 5
[cache]
ttl = 60
[log]
level = "info"
[auth]
mode = "token"
"""


@pytest.mark.parametrize(
    "data,expected",
    [
        (b'{"a":1,"b":[1,2,3]}', "json"),
        (b"[1,2,3,4]", "json"),
        (b"42", "text"),
        (DIFF, "diff"),
        (GO_MAIN, "code"),
        (PY_SRC, "code"),
        (b"[INFO] a\n[INFO] b\n[WARN] c\n[INFO] d\n[ERROR] e\n", "log"),
        (b"".join(b"src/x.go:%d:match here\n" % i for i in range(1, 7)), "search-result"),
        (b"a,b,c\n" + b"".join(b"%d,%d,%d\n" % (i, i, i) for i in range(9)), "tabular"),
        (b"| a | b |\n| --- | --- |\n" + b"".join(b"| %d | x |\n" % i for i in range(6)), "tabular"),
        (YAML, "config"),
        (TOML, "config"),
        (b"Just some prose about the weather today, nothing more.", "text"),
        (b"", "text"),
        (b"\n", "text"),
        (b"\x1b[32mPASS\x1b[0m ok\n", "terminal"),
        (b"fetch 10%\rfetch 40%\rfetch 80%\rfetch done\n", "terminal"),
        (b"line one\r\nline two\r\nline three\r\n", "text"),
        (b"<!DOCTYPE html><html><body><p>hi</p></body></html>", "html"),
        (
            b'import React from "react";\nexport const App = () => {\n  return (<div className="x"><p>a</p><p>b</p><div>c</div></div>);\n};\n',
            "code",
        ),
        (b"2026-01-01T10:00:00 return x\n2026-01-01T10:00:01 class y\n2026-01-01T10:00:02 func z\n2026-01-01T10:00:03 ok\n", "log"),
        (b"\xff\xfe\x00binary\x00\x01", "text"),
    ],
)
def test_detect_table(data, expected):
    assert detect(data) == expected


def test_go_source_with_html_strings_is_not_html():
    src = b'package web\n\nfunc page() string {\n\treturn "<div><p>a</p><p>b</p><div>c</div></div>"\n}\n\nfunc x() {}\n'
    assert detect(src) == "code"


def test_detection_of_reference_fixtures():
    if not CAVEMAN_EVALS.is_dir():
        pytest.skip("shared caveman fixtures not present")
    expected = {
        "article.html": "html",
        "build.log": "log",
        "customer_revenue.csv": "tabular",
        "json_smartcrusher.json": "json",
        "passthrough.txt": "text",
        "repetition_log.txt": "log",
        "sample.go": "code",
        "sample.py": "code",
        "sample.ts": "code",
        "service_features.yaml": "config",
        "terminal_passthrough.txt": "text",
        "terminal_session.txt": "terminal",
        "tool_catalog.json": "json",
        "tool_output.json": "json",
    }
    for name, ct in expected.items():
        assert detect(eval_fixture(name)) == ct, name


def test_deeply_nested_json_does_not_crash():
    deep = b"[" * 100_000 + b"]" * 100_000
    assert detect(deep) in ("json", "text")


# -- wrappers -------------------------------------------------------------------------------


def test_file_wrapper_example_from_spec():
    data = b' \n<file name="C:\\x\\a>b.go">\n' + GO_MAIN + b"\n</file>\n\t"
    inner, w = split_file_wrapper(data)
    assert inner == b"\n" + GO_MAIN + b"\n"
    assert w.restore(b"compressed") == b' \n<file name="C:\\x\\a>b.go">compressed</file>\n\t'


@pytest.mark.parametrize(
    "data",
    [
        b"plain text",
        GO_MAIN,
        b"<html><body>x</body></html>",
        b'<file name="a">x</file><file name="b">y</file>',
        b'<file name="a">',
        b"</file>",
        b"<files>x</files>",
        b'<file name="x"</file>',
        b"<file name='a>b'\nsome prose about a file\n</file>",
    ],
)
def test_not_file_wrappers(data):
    assert split_file_wrapper(data) is None
    body, wrappers = unwrap(data)
    assert body == data and wrappers == []


def _listing(src: bytes, style: str = "{n}\t") -> bytes:
    lines = src.split(b"\n")
    trailing = lines and lines[-1] == b""
    if trailing:
        lines.pop()
    out = [style.format(n=i + 1).encode() + line for i, line in enumerate(lines)]
    return b"\n".join(out) + (b"\n" if trailing else b"")


@pytest.mark.parametrize("style", ["{n}\t", "{n:>6} | ", "{n}: "])
def test_listing_split_and_detect(style):
    listing = _listing(GO_MAIN, style)
    source, numbers = split_listing(listing)
    assert source == GO_MAIN
    assert numbers == list(range(1, len(GO_MAIN.split(b"\n"))))
    assert detect(listing) == "code"
    # restoring the unchanged source gives TAB gutters with the same numbers
    restored = restore_listing(source, source, numbers)
    assert restored == _listing(GO_MAIN, "{n}\t")


@pytest.mark.parametrize(
    "data",
    [
        GO_MAIN,
        b"1\ta\n2\tb\n3\tc\n",  # fewer than 8 lines
        b"".join(b"%d\tx\n" % n for n in (1, 2, 3, 5, 4, 6, 7, 8, 9)),  # not increasing
        b"".join(b"%d\tx\n" % n for n in range(1, 10)) + b"prose line\n",
        b"".join(b"%da\n" % n for n in range(1, 10)),
        b"".join(b"%d. first\n" % n for n in range(1, 10)),
        b"".join(b"%d\tx\n" % n for n in range(0, 10)),  # starts at 0
    ],
)
def test_not_listings(data):
    assert split_listing(data) is None


def test_listing_restore_declines_restructured_output():
    source, numbers = split_listing(_listing(GO_MAIN))
    assert restore_listing(b'{"totally":"different"}\n{"other":1}\n', source, numbers) is None


def test_listing_inserted_marker_takes_cursor_number():
    src = b"".join(b"line %d\n" % i for i in range(1, 11))
    source, numbers = split_listing(_listing(src))
    body = b"line 1\nline 2\n... elided ...\nline 9\nline 10\n"
    out = restore_listing(body, source, numbers)
    assert out == b"1\tline 1\n2\tline 2\n3\t... elided ...\n9\tline 9\n10\tline 10\n"


def test_unwrap_nested_file_in_listing_and_back():
    inner = b'<file path="m.go">\n' + GO_MAIN + b"</file>\n"
    listing = _listing(inner)
    body, wrappers = unwrap(listing)
    assert body == b"\n" + GO_MAIN
    assert len(wrappers) == 2
    assert rewrap(body, wrappers) == listing
    assert detect(listing) == "code"


def test_toml_arrays_of_tables_are_config():
    """``[[package]]`` headers (Cargo.lock, pyproject arrays) are sections, not prose."""
    lock = "# generated\nversion = 3\n\n" + "".join(
        f'[[package]]\nname = "crate{i}"\nversion = "1.{i}.0"\nchecksum = "{i:064x}"\n\n' for i in range(10)
    )
    assert detect(lock.encode()) == "config"
    from cavemem.formats.configs import SECTION_HEADER

    assert SECTION_HEADER.fullmatch("[[package]]").group("name") == "package"
    assert SECTION_HEADER.fullmatch("[tool.pytest.ini_options]  # x").group("name") == "tool.pytest.ini_options"
    assert SECTION_HEADER.fullmatch("[[package]") is None and SECTION_HEADER.fullmatch("[package]]") is None


def test_format_parses_remember_only_the_last_payload():
    from cavemem.formats import remember_last_answer

    calls = []

    @remember_last_answer
    def parse(data: bytes):
        calls.append(data)
        return [data.upper()]

    first = parse(b"a")
    assert parse(b"a") is first and calls == [b"a"]  # detection then the compressor: one parse
    assert parse(b"b") == [b"B"] and parse(b"a") == [b"A"] and calls == [b"a", b"b", b"a"]
    assert parse.__name__ == "parse"


# Real program output (tests/data/detect/README.md names each source): the kinds a person names.
REAL_KINDS = {
    "apt_term.log": "log",  # apt progress (bare \r) inside a line-wise log is not a terminal capture
    "unittest_v.log": "log",
    "pytest_v.log": "log",
    "pip_wheel_v.log": "log",
    "diff_r.txt": "diff",  # diff -r, normal format with Only in lines
    "diff_ru.txt": "diff",
    "rust_channel_manifest.toml": "config",  # quoted TOML table names: [pkg.rust-src.target."*"]
    "adduser.conf": "config",  # every setting commented out
    "debconf.conf": "config",  # flat Field: value stanzas that repeat their names (not YAML)
    "grep_rn.txt": "search-result",  # hits quoting Python imports are still hits, not code
    "pytest_v_long_tb.log": "log",  # long tracebacks: > source lines, _ _ _ rules, file.py:N: locations
    "pytest_tb_short.log": "log",  # failure sections quote source lines; E-lines and carets vote log
    "strace_git.log": "log",
    "gcc_errors.log": "log",
    "rustc_errors.log": "log",
    "gpl3_head.txt": "text",  # names keywords (public, return, class) but spends no bytes on symbols
}


@pytest.mark.parametrize("name", sorted(REAL_KINDS))
def test_real_program_output_detects_as_a_person_names_it(name):
    assert detect((DATA / name).read_bytes()) == REAL_KINDS[name]


def test_iso_timestamped_build_log_is_not_a_hit_list():
    lines = b"".join(b"2026-06-16T09:00:%02dZ [INFO] compiling module pkg/mod%03d ... ok\n" % (i % 60, i) for i in range(30))
    assert detect(lines) == "log"


def test_compiler_diagnostics_are_not_a_hit_list():
    data = (DATA / "grep_rn.txt").read_bytes().replace(b":from ", b":1: error: from ")
    assert detect(data) != "search-result"


def test_cli_detect_prints_the_kind_for_a_real_apt_log(run_cli):
    got = run_cli("cavemem", "detect", input=(DATA / "apt_term.log").read_bytes())
    assert got.rc == 0, got
    assert b"log" in got.stdout and b"terminal" not in got.stdout


# -- classes the corpus's tune split showed (issue 9): each a shape, not a file ------------------

MD_DOC = (
    "# Buffer\n\nThe `Buffer` class is a subclass of `Uint8Array`. A `Buffer` is a fixed-length\n"
    "sequence of bytes; the `function` passed to `buf.forEach()` is called for each one.\n\n"
    "## Static method: `Buffer.from(array)`\n\nReturns a new buffer; the public API is stable.\n\n"
    "```js\nimport { Buffer } from 'node:buffer';\nconst buf = Buffer.from([0x62, 0x75]);\n"
    "export function f(x) {\n  return x;\n}\nclass A { static b() { return 1; } }\n```\n\n"
    "## Class: `Blob`\n\nA [`Blob`][] holds immutable raw data; `blob.text()` returns a promise.\n"
)


def test_markdown_quoting_code_is_text():
    """Fenced blocks and inline spans are quoted code: the document around them is prose."""
    assert detect(MD_DOC.encode()) == "text"
    # a module whose unquoted text still opens lines on declarations stays code
    module = "import os\nimport re\nfrom x import y\n\n# `os` helpers\n\ndef f():\n    return os.sep\n" * 2
    assert detect(("# Title\n\n## Part\n\n" + module).encode()) == "code"


def test_braces_inside_words_do_not_make_prose_code():
    entry = (
        "pkg (1.{n}-1) unstable; urgency=medium\n\n  * d/t/{{control,tests}}: run the module tests (Closes: #10{n})\n"
        "  * Export BUILD_{{C,LD}}FLAGS in debian/rules; the package is static_linked.\n"
        "    Return to the default function_names.\n\n -- Maint Ainer <m@example.org>  Tue, 22 Nov 2022 17:48:33 +0100\n\n"
    )
    assert detect("".join(entry.format(n=n) for n in range(8)).encode()) == "text"


def test_commented_schema_cfg_is_config_not_code():
    head = "".join(f"# line {i}: static const fields (default=None) and class names\n" for i in range(6))
    body = "".join(f"# Node{i} holds a child*\nNode{i}: [name, child*, items**=[], flags]\n\n" for i in range(10))
    assert detect((head + body).encode()) == "config"


def test_ini_with_empty_values_and_one_section_is_config():
    ini = "# settings for the fetcher\n\n[DEFAULT]\n\n" + "".join(
        f"# what KEY_{i} does\nKEY_{i} = {i if i % 3 else ''}\n\n" for i in range(10)
    )
    assert detect(ini.encode()) == "config"


def test_comment_only_conf_with_commented_out_lines_is_config():
    conf = "".join(f"# The instance parent directories must exist ({i}); see the README.\n" for i in range(14))
    conf += "#/tmp     /tmp-inst/       level      root,adm\n#$HOME    $HOME/$USER.inst/     level\n"
    assert detect(conf.encode()) == "config"
    prose = "".join(f"# Heading {i}\n\nSome prose about part {i} of the guide, in sentences.\n\n" for i in range(8))
    assert detect(prose.encode()) == "text"


def test_rfc822_record_is_text_but_commented_stanzas_stay_config():
    record = "".join(f"Field-Name{i}: value {i}, other (>= 1.{i})\n" for i in range(20))
    record += "Tag: devel::lang:python, devel::library,\n implemented-in::c, role::program\n"
    assert detect(record.encode()) == "text"
    assert detect((DATA / "debconf.conf").read_bytes()) == "config"


def test_yaml_with_block_scalars_in_lists_is_config():
    doc = "".join(
        f"- package: p{i}\n  version: 1.{i}\n  commit: {i:040x}\n  notes:\n    - |\n"
        f"      Convert JS `for` loops to `while` loops; this is the main difference,\n"
        f"      because in python you cannot write `for {{i=1;i<x;i++}} {{}}`.\n    - Rename built-ins\n"
        for i in range(3)
    )
    assert detect(doc.encode()) == "config"


def test_node_test_report_and_tap_are_logs():
    fail = (
        "\u2716 case {n} (11.02ms)\n  AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:\n"
        "  + actual - expected\n\n    {{\n      a: {n},\n      b: [\n        1,\n  +     3\n  -     0\n      ]\n    }}\n"
        "      at TestContext.<anonymous> (/tmp/t/t0.test.js:5:33)\n      at Test.runInAsyncScope (node:async_hooks:206:9)\n"
        "      at Test.run (node:internal/test_runner/test:796:25)\n      at Test.postRun (node:internal/test_runner/test:889:19)\n"
        "      at async Test.processPendingSubtests (node:internal/test_runner/test:526:7) {{\n"
        "    generatedMessage: true,\n    code: 'ERR_ASSERTION',\n    actual: {{ a: {n}, b: [ 1, 3 ] }},\n"
        "    expected: {{ a: {n}, b: [ 1, 0 ] }},\n    operator: 'deepStrictEqual'\n  }}\n\n"
    )
    report = "\u2714 case 0 (1.8ms)\n\u2714 case 1 (0.2ms)\n" + "".join(fail.format(n=n) for n in range(6))
    assert detect(report.encode()) == "log"
    tap = "TAP version 13\n" + "".join(f"ok {n} - case {n}\n  ---\n  duration_ms: 0.{n}\n  ...\n" for n in range(1, 9))
    assert detect(tap.encode()) == "log"


def test_path_listings_are_logs_but_dep5_file_lists_are_not():
    head = "Name: rich\nVersion: 15.0.0\nSummary: Render rich text\nLocation: /x/site-packages\nFiles:\n"
    listing = head + "".join(f"  rich/mod{i}.py\n  rich/__pycache__/mod{i}.cpython-311.pyc\n" for i in range(20))
    assert detect(listing.encode()) == "log"
    dep5 = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\n" + "".join(
        f"Files:\n libs/part{i}/*\n libs/part{i}/include/boost/part{i}.hpp\n libs/part{i}/src/part{i}.cpp\n"
        f"Copyright:\n 20{i:02d} Some Author\nLicense: BSL-1.0\n\n"
        for i in range(12)
    )
    assert detect(dep5.encode()) == "text"


def _rows(n: int) -> list[tuple[str, str, str, int]]:
    return [(f"package-{i}", f"1.{i}.{i * 7 % 13}-{i % 3}", ("amd64", "all")[i % 2], 1000 + i * 37) for i in range(n)]


def test_program_tables_are_tabular():
    """Box-drawn, ruled and space-aligned program output, and ``#``-commented TSV."""
    rows = _rows(12)
    box = "┌──────────────┬──────────┬───────┬──────┐\n│ name         │ version  │ arch  │ size │\n"
    box += "├──────────────┼──────────┼───────┼──────┤\n"
    box += "".join(f"│ {a:<12} │ {b:<8} │ {c:<5} │ {d:<4} │\n" for a, b, c, d in rows) + "└──────────────┴──────────┴───────┴──────┘\n"
    column = "name          version   arch   size\n------------  --------  -----  ----\n"
    column += "".join(f"{a:<12}  {b:<8}  {c:<5}  {d}\n" for a, b, c, d in rows)
    legend = "Desired=Unknown/Install/Remove/Purge/Hold\n| Status=Not/Inst/Conf-files\n|/ Err?=(none)/Reinst-required\n"
    dpkg = legend + "||/ Name           Version   Architecture Description\n+++-==============-=========-============-=============\n"
    dpkg += "".join(f"ii  {a:<14} {b:<9} {c:<12} the {a} tools and libraries\n" for a, b, c, _ in rows)
    ps = "USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n" + "".join(
        f"root     {i:>5}  0.{i % 10}  0.0  {5000 + i:>5} {900 + i:>5} ?        S    21:48   0:0{i % 10} /usr/bin/daemon --flag {i}\n"
        for i in range(1, 13)
    )
    tab = "# codes and zones\n#\n# Columns are separated by a single tab.\n#code\tcoordinates\tTZ\tcomments\n" + "".join(
        f"A{i}\t+4230+00131\tEurope/Zone{i}" + ("\tnorth" if i % 3 == 0 else "") + "\n" for i in range(12)
    )
    for table in (box, column, dpkg, ps, tab):
        assert detect(table.encode()) == "tabular", table[:60]


def test_aligned_looking_logs_and_prose_are_not_tables():
    log = "".join(f"2026-06-16 09:00:{i:02d} status installed  pkg{i}:amd64 1.{i}\n" for i in range(12))
    assert detect(log.encode()) == "log"
    setext = "Title\n=====\n\n" + "".join(f"Paragraph {i} says a few words about the thing.\n" for i in range(10))
    assert detect(setext.encode()) == "text"


def test_progress_redrawn_over_every_line_of_an_apt_log_is_a_log():
    lines = "".join(
        f"\r{i * 8}% [{i} pkg{i} 10 kB/20 kB 50%]\r                \rGet:{i} http://deb.example.org/debian main amd64 pkg{i} 1.{i}-1 [20 kB]\r\n"
        for i in range(1, 9)
    )
    data = (lines + "Fetched 160 kB in 0s (9696 kB/s)\nW: Download is performed unsandboxed as root\n").encode()
    assert detect(data) == "log"
    assert detect(b"\x1b[1m" + data) == "terminal"  # ANSI escapes still make a capture


def test_grep_with_context_lines_is_a_search_result():
    groups = "".join(
        f"./mod{i}.py:{10 * i}:        except Exception as exc:\n./mod{i}.py-{10 * i + 1}-            self.close()\n"
        f"./mod{i}.py-{10 * i + 2}-            raise\n./mod{i}.py-{10 * i + 3}-\n--\n"
        for i in range(1, 7)
    )
    assert detect(groups.encode()) == "search-result"


def test_man_page_naming_tags_is_text_and_apt_simulate_is_a_log():
    man = "".join(
        f"       --opt{i}\n              Sends the data as the body of the request, part {i}.\n"
        + ("              Write-out may print <p> and <div> markup with the HTML output.\n" if i % 6 == 0 else "")
        + "\n"
        for i in range(40)
    )
    assert detect(("CURL(1)    Curl Manual    CURL(1)\n\nNAME\n       curl - transfer a URL\n\n" + man).encode()) == "text"
    sim = "Reading package lists...\nThe following NEW packages will be installed:\n  liba libb libc\n" + "".join(
        f"Inst lib{i} (1.{i}-2 Debian:12.15/oldstable [amd64])\n" for i in range(8)
    ) + "".join(f"Conf lib{i} (1.{i}-2 Debian:12.15/oldstable [amd64])\n" for i in range(8))
    assert detect(sim.encode()) == "log"


def test_prose_with_one_arrow_and_keywords_is_text():
    """One statement shape (an ``a -> b`` arrow, a line ending in ``;``) is chance, not code."""
    para = (
        "The public function names and the module layout are private to the package; see below.\n"
        "Each class keeps its static state (return codes, let bindings) in the interface record.\n"
    )
    doc = "Release notes\n\n" + para * 6 + "Renamed old_name -> new_name in the export_table (import_map).\n"
    assert detect(doc.encode()) == "text"
