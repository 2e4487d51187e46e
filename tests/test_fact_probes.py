"""The rule-based fact probes (cavemem.evals.factprobes) on small snippets of real tool output."""

from __future__ import annotations

import json
import subprocess

from cavemem.evals.factprobes import MAX_PROBES, kept, probes

PYTEST = b"""\
test_mod0.py::Test0::test_wrap_0 PASSED                                  [ 20%]
test_mod0.py::Test0::test_broken_json_0 FAILED                           [ 40%]

=================================== FAILURES ===================================
____________________________ Test0.test_broken_json_0 __________________________
  File "/usr/lib/python3.11/json/decoder.py", line 353, in raw_decode
    obj, end = self.scan_once(s, idx)
E   json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 9 (char 8)
test_mod0.py:12: JSONDecodeError
=========================== short test summary info ============================
FAILED test_mod0.py::Test0::test_broken_json_0 - json.decoder.JSONDecodeError
========================= 1 failed, 1 passed in 0.05s ==========================
"""

DIFF_R = b"""\
Only in /usr/lib/python3.11/json: __pycache__
diff -r /usr/lib/python3.11/json/decoder.py /root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py
12c12
< from json import scanner
---
> from json import scannerx
Only in /root/.pyenv/versions/3.11.7/lib/python3.11/json: tool.py
"""

UNIFIED = b"""\
--- a/textwrap.py
+++ b/textwrap.py
@@ -1,3 +1,3 @@
 import re
-__all__ = ['TextWrapper', 'wrap']
+__all__ = ['TextWrapper', 'wrap', 'fill']
 _whitespace = '\\t\\n'
"""

GREP = b"""\
json/decoder.py:20:class JSONDecodeError(ValueError):
json/decoder.py:31:    def __init__(self, msg, doc, pos):
json/encoder.py:105:    def __init__(self, *, skipkeys=False, ensure_ascii=True,
"""

INI = b"""\
# -----------------------------
# PostgreSQL configuration file
# -----------------------------
#shared_buffers = 128MB
[main]
listen_addresses = 'localhost'
max_connections = 100
[pkg.rustc.target.x86_64-unknown-linux-gnu]
available = true
"""


def test_log_probes_are_errors_their_locations_and_the_summary():
    got = probes("log", PYTEST)
    assert "test_mod0.py:12: JSONDecodeError" in got
    assert "test_mod0.py:12" in got
    assert "JSONDecodeError" in got
    assert "FAILED test_mod0.py::Test0::test_broken_json_0 - json.decoder.JSONDecodeError" in got
    assert got[-1] == "========================= 1 failed, 1 passed in 0.05s =========================="[:100]
    assert "test_mod0.py::Test0::test_wrap_0 PASSED [ 20%]" not in got  # a passing line is no error


def test_terminal_probes_ignore_colour():
    coloured = b"\x1b[31mE   ValueError: bad \x1b[1mthing\x1b[0m\nfile.py:3: ValueError\n"
    assert probes("terminal", coloured) == ["E ValueError: bad thing", "ValueError", "file.py:3: ValueError", "file.py:3"]


def test_diff_probes_keep_only_in_lines_and_changed_lines():
    got = probes("diff", DIFF_R)
    assert got == ["Only in /usr/lib/python3.11/json: __pycache__",
                   "Only in /root/.pyenv/versions/3.11.7/lib/python3.11/json: tool.py"]
    got = probes("diff", UNIFIED)
    assert got == ["textwrap.py", "__all__ = ['TextWrapper', 'wrap']", "__all__ = ['TextWrapper', 'wrap', 'fill']"]


def test_search_probes_are_every_path_line():
    assert probes("search-result", GREP) == ["json/decoder.py:20", "json/decoder.py:31", "json/encoder.py:105"]


def test_grouped_search_output_keeps_path_line():
    grouped = b"json/decoder.py\n20:class JSONDecodeError(ValueError):\n31:    def __init__(self, msg, doc, pos):\njson/encoder.py\n105:    def\n"
    assert all(kept(p, grouped) for p in probes("search-result", GREP))
    assert not kept("json/encoder.py:20", grouped)  # line 20 is under decoder.py, not encoder.py


def test_config_probes_are_sections_and_keys_not_comments():
    got = probes("config", INI)
    assert got == ["main", "pkg.rustc.target.x86_64-unknown-linux-gnu", "listen_addresses", "max_connections", "available"]


def test_json_probes_are_keys_and_ids():
    doc = {"installed": [{"metadata": {"name": "rich", "version": "15.0.0"}, "installer": "pip"}]}
    assert probes("json", json.dumps(doc).encode()) == ["installed", "metadata", "installer", "name", "version", "rich", "15.0.0"]


def test_html_probes_are_title_and_headings_without_invented_spaces():
    page = b"<html><head><title>fs | Node.js</title></head><body><h2 id=x>The <code>fs</code>&nbsp;module</h2></body></html>"
    assert probes("html", page) == ["fs | Node.js", "The fs\xa0module"[:100].replace("\xa0", " ")]
    assert kept("The fs module", b"## The `fs` module")
    opts = b"<h3><code>-h</code>/<code>--help</code></h3>"
    assert probes("html", opts) == ["-h/--help"]
    assert kept("-h/--help", b"### `-h`/`--help`")
    assert not kept("-h/--help", b"### -h / --help")  # spaces inserted at inline-element boundaries


def test_tabular_probes_are_header_and_key_column():
    tsv = b"Package\tVersion\tArch\nadduser\t3.134\tall\napt\t2.6.1\tamd64\n"
    assert probes("tabular", tsv) == ["Package", "Version", "Arch", "adduser", "apt"]
    ps = b"USER PID %CPU COMMAND\nroot 1 0.0 /sbin/init\nwww 20 1.5 nginx\n"
    assert probes("tabular", ps) == ["USER", "PID", "%CPU", "COMMAND", "root", "www"]


def test_code_probes_are_definitions():
    src = b"import re\n\nclass TextWrapper:\n    def wrap(self, text):\n        return []\n\nasync def main():\n    pass\n"
    assert probes("code", src) == ["class TextWrapper", "def wrap", "async def main"]


def test_text_probes_are_headings():
    md = b"# npm-install\n\nInstall a package\n\n## Synopsis\n\nnpm install\n\nDescription\n-----------\n\nThis command installs.\n"
    assert probes("text", md) == ["# npm-install", "npm-install", "Synopsis", "Description"]


def test_kept_is_whitespace_and_ansi_insensitive_but_not_content_blind():
    assert kept("json/decoder.py:20", b"\x1b[35mjson/decoder.py\x1b[0m:20:class JSONDecodeError")
    assert kept("a b c", b"xx a\n   b\tc yy")
    assert not kept("json/decoder.py:20", b"json/decoder.py:21:")
    assert not kept("max_connections", b"max_conn")


def test_probe_count_is_bounded_and_spread_over_the_file():
    import email

    out = subprocess.run(["grep", "-rn", "def ", "--include=*.py", "."], cwd=email.__path__[0], capture_output=True).stdout
    lines = out.splitlines()
    assert len(lines) > MAX_PROBES  # a real grep with more hits than the cap
    got = probes("search-result", out)
    assert len(got) == MAX_PROBES
    first, last = lines[0].split(b":"), lines[-1].split(b":")
    assert got[0] == f"{first[0].decode()}:{first[1].decode()}" and got[-1] == f"{last[0].decode()}:{last[1].decode()}"
