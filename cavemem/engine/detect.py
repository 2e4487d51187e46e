"""Content-type detection (spec engine-core §2): deterministic, fail-open to ``text``.

The ten auto types are tried in a fixed order — json, terminal, diff, html, tabular, code, log,
search-result, config, text — and each predicate answers "no" whenever it is unsure. Only
stdlib ``re`` is imported at module level: ``detect`` is a hot CLI command.
"""

from __future__ import annotations

import re

from ..gocompat import json_valid, trim_space_bytes
from ..formats import CODE_HEADS, remember_last_answer
from ..formats.logtags import session_report, tagged_log
from .detect_sample import SAMPLE_BYTES, head as _head, whole_json as _whole_json
from .wrappers import unwrap

AUTO_TYPES = ("json", "terminal", "diff", "html", "tabular", "code", "log", "search-result", "config", "text")

_CSI = re.compile(rb"\x1b\[[0-9;?]*[\x20-\x2f]*[\x40-\x7e]")
_DIFF_LINE = re.compile(rb"^(?:diff --git |@@ |--- |\+\+\+ |[+-](?:[^+\-]|\n))", re.M)
# ``diff -r`` / plain ``diff`` output: per-file headers, ``Only in`` and binary notes, normal-format
# hunk headers (``4a5``, ``12,14c13``) and ``<`` / ``>`` change lines.
_DIR_DIFF_HEAD = re.compile(rb"^(?:diff -[A-Za-z]+ \S|Only in [^\n]+: |Binary files [^\n]+ differ$)", re.M)
_NORMAL_DIFF_LINE = re.compile(
    rb"^(?:diff -[A-Za-z]+ \S|Only in [^\n]+: |Binary files |Files [^\n]+ differ$|Common subdirectories: "
    rb"|\d+(?:,\d+)?[acd]\d+(?:,\d+)?\r?$|[<>] |[<>]\r?$|---\r?$)",
    re.M,
)
_CODE_STRUCT_PREFIXES = (b"import ", b"export ", b"package ", b"func ", b"def ", b"const ", b"#include", b"#!", b"//", b"/*")
_CODE_STRUCT_INNER = (b"\nimport ", b"\nexport ", b"\npackage ", b"\nfunc ", b"\ndef ", b"\nclass ", b"\nconst ")
_HTML_TAGS = (b"<body", b"<article", b"<main", b"<div", b"<p>", b"<p ")
_PY_DEF = re.compile(rb"^[\t ]*(?:async )?def \w+\(", re.M)
_SQL_HEAD = re.compile(
    rb"(?i)[\t ]*(?:CREATE|INSERT|ALTER|DROP|SELECT|UPDATE|DELETE|BEGIN|COMMIT|PRAGMA|SET|GRANT|REPLACE|WITH)\b"
    # a statement's clause lines (``RETURNS bool``, ``AS 'MODULE_PATHNAME'``, ``LANGUAGE C``, ``FROM t``),
    # upper-case only: prose opens sentences on ``As`` and ``From``
    rb"|[\t ]*(?-i:RETURNS|AS|LANGUAGE|FROM|WHERE|VALUES|JOIN|ON|GROUP BY|ORDER BY|END|AND|OR|IMMUTABLE|STRICT)\b"
)
# a make rule: ``target: prerequisites`` (not ``:=``) and a tab-indented recipe line under it (not a
# ``#`` comment: a ``server:`` section over tab-indented commented-out settings)
_MAKE_RULE = re.compile(rb"^[\w.%$()/ -]+:(?![=:])[^\n]*\n\t[^\s#]", re.M)
_TAG = re.compile(rb"<[a-z/!][^>\n]{0,200}>")
_KEYWORDS = re.compile(
    rb"\b(?:func|package|import|def|class|function|return|const|let|var|public|private|protected|static|void"
    rb"|struct|interface|namespace|module|fn|impl|trait|export|async|await)\b"
)
_SYMBOLS = re.compile(rb"=>|::|->|\)\{|\) \{|;\n|\A[\t\n\f\r ]*(?:#include|from [^\n]*import )")
# Markdown fenced blocks and inline code spans
_MD_CODE = re.compile(rb"^[\t ]*```[^\n]*\n(?:.*\n)*?[\t ]*```[\t ]*$|`[^`\n]+`", re.M)
# Markdown structure: ATX (``## Usage``) or setext (``Usage`` over ``=====``) headings, fence lines.
# An ATX heading stands between blank lines: a ``# `` line with code or another ``#`` line under
# it is a script's comment (CMake's ``# Find include directory`` over ``find_path(...)``)
_MD_HEADING = re.compile(rb"(?:\A|\n\n)(?:#{1,6} \S[^\n]*(?:\n[\t ]*\n|\n?\Z)|[^\n]+\n(?:={3,}|-{3,})[\t ]*\n)|^[\t ]*```", re.M)
# a block opened at the end of a line (``if (x) {``, ``struct s {``); prose writes braces inside
# words (``d/t/{control,tests}``)
_OPEN_BRACE_LINE = re.compile(rb"[^\s{]\s*\{[\t ]*\r?$", re.M)
# C block comments and Perl's POD blocks: prose a program carries outside its lines
_BLOCK_COMMENT = re.compile(rb"/\*.*?\*/|^=[a-z]\w*\b.*?(?:^=cut\b|\Z)", re.S | re.M)
_CODE_SYMBOLS = re.compile(rb"[(){}\[\];=_<>&|]")
# lines that open on a declaration or import: a data-heavy module (a codec's mapping table)
# is code even when its symbols are sparse
_CODE_HEADS = re.compile(CODE_HEADS.encode(), re.M)
_LOG_LINE = re.compile(
    rb"(?i)\b(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|PANIC)\b|^[\t\n\f\r ]*\[[A-Za-z]+\]"
    rb"|\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}|\b\d{2}:\d{2}:\d{2}\b"
    # test runners: unittest -v ``name (mod.Class.name) ... ok``, pytest -v ``PASSED [ 40%]``,
    # tracebacks in any of them
    rb"|(?-i: \.\.\. (?:ok|FAIL|ERROR|skipped|expected failure|unexpected success)\b)"
    rb"|(?-i:\b(?:PASSED|FAILED|SKIPPED|XFAIL|XPASS)\b)|\[ *\d{1,3}%\]"
    rb"|^[\t ]*File \"[^\"\n]+\", line \d+|^Traceback \(most recent call last\)"
    rb"|(?-i:^E {2,}\S|^(?:=|_|-){12,}|^>   |^(?:_ ){8}|^[^\s:]+\.py:\d+: |^[\t ]*\^[\^~]*[\t ]*$|^[\t ]+at \S.*[(:]\d+)"
    # compiler diagnostics (gcc, clang, rustc): gutters, carets, ``-->`` locations, severities
    rb"|(?-i:^[\t ]*\d*[\t ]*\|(?: |$)|^[\t ]*--> \S+:\d+|^(?:error|warning|note|help)(?:\[\w+\])?: )"
    rb"|(?-i::\d+(?::\d+)?: (?:fatal error|error|warning|note|in) )"
    # apt's one-letter severities (``W: ...``, ``E: ...``, ``N: ...``) and numbered fetch events
    # (``Get:12 http://...``, ``Hit:3 ...``)
    rb"|(?-i:^[EWN]: \S|^[A-Z][a-z]{1,7}:\d+ \S)"
    # ``apt-get -s`` (simulate): ``Inst pkg (1.0 Debian:12 [amd64])``, ``Conf``, ``Remv``, ``Purg``
    rb"|(?-i:^(?:Inst|Conf|Remv|Purg) \S+ [(\[])"
    # strace: ``name(args) = result``
    rb"|(?-i:^(?:\[pid +\d+\] )?[a-z_0-9]+\(.*\) += (?:-?\d|0x|\?))"
    # other runtimes and runners: an exception class opening a line (``ValueError: x``), Go
    # (``panic:``, ``goroutine 1 [running]:``, ``\t/src/main.go:22 +0x1d``, ``=== RUN``,
    # ``--- FAIL:``, ``ok  \tpkg``), Rust (``panicked at``, backtrace frames ``  2: app::main``),
    # jest/mocha (``PASS x.test.js``, ``\u25cf Suite \u203a test``, ``Tests: 2 failed``,
    # ``3 passing (12ms)``, ``> 14 |`` code frames), ``file.go:31:`` locations, npm's
    # ``npm ERR!``/``npm WARN``, BuildKit steps (``#5 [3/4] RUN``), ``git log`` headers
    rb"|(?-i:^[\t ]*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt)(?::|$)"
    rb"|^panic: |^goroutine \d+ \[|^\t\S+:\d+(?: \+0x[0-9a-f]+)?\r?$|^=== RUN |^[\t ]*--- (?:FAIL|PASS|SKIP): "
    rb"|^(?:ok|FAIL) {1,2}\t|^FAIL\r?$|panicked at |^ {2,}\d+: \S|^(?:PASS|FAIL) \S"
    rb"|^[\t ]*\xe2\x97\x8f |^(?:Tests|Test Suites|Snapshots|Time): +\S|^[\t ]+\d+ (?:passing|failing|pending)\b"
    rb"|^[\t ]*> ?\d+ \||^[\t ]*[^\s:]+\.\w+:\d+: |^npm (?:ERR!|WARN|notice|error|warn|info|verb|verbose|http|sill|silly|timing) ?"
    rb"|^#\d+ (?:\[|\d+\.\d+ |DONE|CACHED|ERROR)|^Step \d+/\d+ : |^commit [0-9a-f]{40}\b|^(?:Author|Date|Merge): "
    # stack frames of other runtimes: Perl (``main::f(3) called at x.pl line 9``), Tcl
    # (``invoked from within``, ``(procedure "f" line 1)``); CMake's diagnostics and status lines
    rb"|\bcalled at \S+ line \d+|^[\t ]*(?:invoked|while executing|\(procedure \"|\(file \")"
    rb"|^CMake (?:Debug Log|Warning|Error|Deprecation Warning)\b|^-- (?:Detecting|Check|Looking|Found|Could NOT"
    rb"|Configuring|Generating|Build files|The \w+ compiler|Performing Test))"
    # pip's resolver and installer at ``-v`` (``Link requires a different Python``, ``Would
    # install``), and a progress bar's run of bar glyphs (\u2501, \u2588) before its figures
    rb"|(?-i:^[\t ]*(?:Link requires a different Python|Skipping link|Found link|Fetched page|Getting page"
    rb"|Created temporary directory|Removed build tracker|Would install|Using pip \d|Requirement already satisfied"
    rb"|Successfully (?:installed|built|uninstalled)|Using cached|Looking in (?:indexes|links)|Ignoring \S+: markers)\b)"
    rb"|^[\t ]*(?:\xe2\x94\x81|\xe2\x96\x88){6,}[^\n]*\d"
    # verbose traces of the Python importer (``import 'json' # <...SourceFileLoader ...>``,
    # ``# code object from '...pyc'``) and of a compiler driver (``gcc -v``/``clang -v``: its
    # specs, search-path reports and the sub-commands it runs, ``COLLECT_GCC_OPTIONS=``)
    # a pytest node id opening a line (``tests/test_x.py::test_y``, xdist and ``-v`` progress)
    rb"|(?-i:^[\w./-]+\.py::\w)"
    rb"|(?-i:^import '?[\w.]+'? # |^# (?:code object from |installing zipimport hook|destroy |cleanup\b|\S+ matches \S+$)"
    rb"|^(?:Using built-in specs\.|Configured with: |Thread model: |Target: |InstalledDir: |End of search list\.)"
    rb"|^ignoring (?:nonexistent|duplicate) directory |^#include [<\"]\.\.\.[>\"] search starts here"
    rb"|^(?:COLLECT_\w+|COMPILER_PATH|LIBRARY_PATH)=|^\tcompiled by |^GGC heuristics: |^\w+ version \d[\w.-]* \("
    rb"|^ (?:/\S+/)?(?:cc1\w*|collect2|as|ld|ld\.\w+|clang-?\d*) -)"
    # path listings (``find``, ``pip show -f``, ``dpkg -L``): a line that is one relative or absolute
    # path (not a one-space RFC 822 continuation line: a DEP-5 copyright file's ``Files:`` values)
    rb"|^(?! \S)[\t ]*(?:\.{1,2}/|/)?[\w@+.,-]+(?:/[\w@+.,-]+)+/?[\t ]*\r?$"
    # build / package-manager progress: a line that opens on a verb in -ing (``Collecting``,
    # ``Setting up``, ``Unpacking``, ``  running build_py``, ``Compiling``)
    rb"|^[\t ]*(?!(?:during|nothing|something|anything|everything|string|spring|bring|thing|king"
    rb"|ring|sing|morning|evening|being|having)\b)[A-Za-z][a-z]{2,}ing\b"
)
_BARE_GUTTER = re.compile(rb"[\t ]*\|(?: |$)")
_NUMBERED_GUTTER = re.compile(rb"^[\t ]*\d+[\t ]*\| ", re.M)
# a test runner's pass/fail mark opening a line: \u2714 \u2716 \u2713 \u2717 \u2715 \u00d7, or TAP's ``ok 3`` / ``not ok 4``
# a TAP stream's version line or plan (``TAP version 13``, ``1..24``)
_TAP_HEAD = re.compile(rb"\ATAP version \d+\r?$|^[\t ]*1\.\.\d+\r?$", re.M)
_RUNNER_MARK = re.compile(
    rb"^[\t ]*(?:\xe2\x9c[\x93\x94\x95\x96\x97]|\xc3\x97|(?:not )?ok \d+\b)", re.M
)
# a search hit or a compiler diagnostic: ``path:line:`` with a path-like head (not a timestamp)
_HIT_LINE = re.compile(rb"(?!\d{4}-\d\d-\d\d[ T]\d|\d\d:\d\d)[./~A-Za-z0-9_-][^:\s]{0,240}:\d+(?::\d+)?[:-]")
# grep's context line: ``path-line-`` (``-A``/``-B``/``-C``)
_CONTEXT_LINE = re.compile(rb"(?!\d{4}-\d\d-\d\d)[./~A-Za-z0-9_][^:\s]{0,240}?-\d+-")
_DIAGNOSTIC = re.compile(rb":\d+(?::\d+)?: (?:fatal error|error|warning|note)\b|^\s")
_COMMENT_HEADS = (b"#", b"//", b"/*", b"*", b'"', b"--", b";", b"%", b"<!--", b"REM ", b"dnl ")
_WORD = re.compile(rb"[(\"'`]?[A-Za-z][a-z'\xe2\x80\x99-]*[.,;:!?)\"'`]{0,2}")
_STATEMENT = re.compile(
    rb"[A-Za-z_][\w.:]*\(|(?:let|set|unlet|if|else|elseif|elif|endif|fi|then|do|done|for|foreach|while|end\w*"
    rb"|return|local|my|our|sub|proc|function!?|call|setlocal|namespace|variable|export|source|case|esac|exe"
    rb"|execute|include|unset|break|continue|try|catch|finally|echo|upvar|global)\b|[}\])]"
)
_STATEMENT_ENDS = (b"{", b"}", b";", b"\\", b"(", b"[")
_NUMBERED_HIT = re.compile(rb"\d+[:=-]")
_PATH_HEAD = re.compile(rb"[./~\w@+-][^\s:]*[./][^\s:]*")
_SEARCH_LINE = re.compile(rb"[./~A-Za-z0-9_-][^:\n]{0,240}:\d+(?::\d+)?:|https?://\S")


def detect(data: bytes) -> str:
    """The content type of ``data`` (one of :data:`AUTO_TYPES`)."""
    body, _ = unwrap(data)
    if len(body) > SAMPLE_BYTES:  # the line votes and strict readers read a head, not 64 MiB
        if _whole_json(body):
            return "json"
        body = _head(body)
        trimmed = trim_space_bytes(body)
    else:
        trimmed = trim_space_bytes(body)
        if trimmed[:1] in (b"{", b"[") and json_valid(trimmed):
            return "json"
    if not trimmed:
        return "text"
    if _ansi(body):
        return "terminal"
    if _redrawn(body):
        return "log" if _progress_log(body) else "terminal"
    if is_diff(body):
        return "diff"
    if is_html(body, trimmed):
        return "html"
    if tagged_log(body):
        return "log"
    if _looks_tabular(body):
        return "tabular"
    if is_hit_list(body):
        return "search-result"
    if is_code(body, trimmed):
        return "code"
    if is_log(body):
        return "log"
    if is_search_result(body):
        return "search-result"
    if _looks_config(body):
        return "config"
    from ..formats.tables import looks_plain_rows

    if looks_plain_rows(body):
        return "tabular"
    return "config" if _settings_file(body) else "text"


def is_terminal(data: bytes) -> bool:
    return _ansi(data) or (_redrawn(data) and not _progress_log(data))


def _ansi(data: bytes) -> bool:
    return b"\x1b[" in data and _CSI.search(data) is not None


def _redrawn(data: bytes) -> bool:
    """Three bare ``\\r`` redraws: a terminal capture unless what it leaves on screen is a log
    (apt's and dpkg's progress over their line-wise output: the log reader keeps its lines)."""
    return data.count(b"\r") - data.count(b"\r\n") >= 3


def _progress_log(data: bytes) -> bool:
    """The lines as they end up on screen (the text after each line's last bare ``\\r``) vote
    as a log: progress redrawn over a log's lines (apt under a tty) does not make it a capture."""
    shown = []
    for line in data.split(b"\n"):
        body = line[:-1] if line.endswith(b"\r") else line
        shown.append(body[body.rfind(b"\r") + 1 :])
    return is_log(b"\n".join(shown))


def is_diff(data: bytes) -> bool:
    if _DIR_DIFF_HEAD.search(data) and _is_normal_diff(data):
        return True
    if not (b"\n@@ " in data or b"diff --git " in data or (b"\n--- " in data and b"\n+++ " in data)):
        return False
    count = 0
    for _ in _DIFF_LINE.finditer(data):
        count += 1
        if count >= 4:
            return True
    return False


def _is_normal_diff(data: bytes) -> bool:
    """``diff -r`` / normal-format output: nearly every line is a diff header or change line."""
    lines = data.count(b"\n") + 1
    hits = sum(1 for _ in _NORMAL_DIFF_LINE.finditer(data))
    return hits >= 4 and hits * 10 >= lines * 9


def has_code_structure(data: bytes, trimmed: bytes) -> bool:
    if b"=>" in data or b"className=" in data or b"});" in data:
        return True
    if trimmed.startswith(_CODE_STRUCT_PREFIXES):
        return True
    return any(p in data for p in _CODE_STRUCT_INNER)


def is_html(data: bytes, trimmed: bytes) -> bool:
    s = trimmed.lower()
    if s.startswith(b"<!doctype html") or s.startswith(b"<html"):
        return True
    if has_code_structure(data, trimmed):
        return False
    if not (any(t in s for t in _HTML_TAGS) and s.count(b"<") >= 6):
        return False
    # markup, not prose that names a tag (a man page quoting ``<p>``): a tag per four lines
    head = s[: 1 << 16]
    return len(_TAG.findall(head)) * 4 >= head.count(b"\n") + 1


def _looks_tabular(data: bytes) -> bool:
    # cheap pre-checks before the strict parse: a table needs a delimiter on its first line
    trimmed = trim_space_bytes(data)
    end = trimmed.find(b"\n")
    first = trimmed if end < 0 else trimmed[:end]
    from ..formats.tables import looks_program_table, looks_tabular

    if (b"|" in first or b"," in first or b"\t" in first) and looks_tabular(data):
        return True
    return looks_program_table(data)


def is_code(data: bytes, trimmed: bytes) -> bool:
    if is_log(data) or _looks_config(data):  # the strict config reader is surer than these votes
        return False
    if trimmed.startswith(b"#!") or _sql_script(data):
        return True
    shape = _line_shapes(data)
    if shape == "prose":  # prose at the body's indent, code only in deeper blocks (pod, pydoc, rst)
        return False
    if len(_MAKE_RULE.findall(data, 0, 1 << 16)) >= 2:  # after the prose test: ``Q1: Why ...`` over a tab
        return True
    if b"`" in data and len(_MD_HEADING.findall(data, 0, 1 << 16)) >= 2:  # two headings or one fenced block
        # a Markdown document quotes code in fences and inline spans: it is code only when
        # what it says around them still opens lines on declarations and imports
        prose = _MD_CODE.sub(b"", data)
        if len(prose) < len(data) and len(_CODE_HEADS.findall(prose, 0, 1 << 16)) < 3:
            return False
    if shape == "code":  # statement lines of a language without C keywords (CMake, Vim, Tcl, make)
        from ..formats.settings import assignments_only

        return not assignments_only(data)
    from ..formats.scripts import LINE_SHAPED, sniff_outline

    if shape != "prose" and sniff_outline(data) in LINE_SHAPED:  # their marks: ``endfunction()``, ``proc x {``
        return True
    if _settings_file(data, not_code=True):  # a block config dialect: braces and ``if``, no calls
        return False
    matches = 0
    for _ in _KEYWORDS.finditer(data):
        matches += 1
        if matches >= 3:
            break
    if matches < 3:
        return False
    if not _symbol_dense(data) and len(_CODE_HEADS.findall(data, 0, 1 << 16)) < 3:
        return False  # prose that names keywords: licences, man pages, changelogs
    if _PY_DEF.search(data) is not None:
        return True
    if len(_CODE_HEADS.findall(data, 0, 1 << 16)) < 3 and _sentence_share(data) * 4 >= 1:
        return False  # a document quoting code (pod2text, pydoc): a quarter of its lines are sentences
    # three statement shapes at least (``) {``, ``=>``, ``;`` line ends, blocks opened at line
    # ends, lines opening on ``func``/``import``): prose meets one by chance (an ``a -> b``
    # arrow, a ``Tag: a::b`` list)
    marks = 0
    for pattern in (_SYMBOLS, _OPEN_BRACE_LINE, _CODE_HEADS):
        for _ in pattern.finditer(data, 0, 1 << 16):
            marks += 1
            if marks >= 3:
                return True
    return False


def _line_shapes(data: bytes) -> str:
    """"prose", "code" or "" (undecided), from the lines at the body's indent (the commonest
    one), comments aside. Prose there is sentences (six words or more, nearly all plain words):
    a document that quotes code in indented blocks. Code there is statements: calls opening a
    line (``set(X 1)``, ``include(...)``), statement words (``let``, ``endif``, ``proc``,
    ``fi``), block ends, lines ending in ``{``, ``}``, ``;``, ``(``, ``[`` or a backslash. Measured on the
    first 64 KiB."""
    levels: dict[int, list[bytes]] = {}
    for line in data[: 1 << 16].split(b"\n"):
        body = line.strip()
        if not body or body.startswith(_COMMENT_HEADS):
            continue
        levels.setdefault(len(line) - len(line.lstrip()), []).append(body)
    if not levels:
        return ""
    body_lines = max(levels.values(), key=len)
    if len(body_lines) < 8:
        return ""
    prose = sum(1 for line in body_lines if _is_sentence(line))
    if prose * 2 >= len(body_lines):
        return "prose"
    stmts = sum(1 for line in body_lines if _STATEMENT.match(line) or line.endswith(_STATEMENT_ENDS))
    everything = [line for lines in levels.values() for line in lines]
    if stmts * 10 >= len(body_lines) * 7 and sum(map(_is_sentence, everything)) * 5 < len(everything):
        return "code"
    return ""


def _sentence_share(data: bytes) -> float:
    """The share of sentences among the non-blank, non-comment lines of the first 64 KiB: code
    reached by its symbols alone writes its prose in comments, a document writes it in lines."""
    head = _BLOCK_COMMENT.sub(b"", data[: 1 << 16])
    lines = [b for b in (line.strip() for line in head.split(b"\n")) if b and not b.startswith(_COMMENT_HEADS)]
    # prose in a gutter or quoted (pydoc's ``|  ``, a mail's ``> ``) is still prose
    return sum(_is_sentence(line.lstrip(b"|> \t")) for line in lines) / len(lines) if lines else 0.0


def _is_sentence(line: bytes) -> bool:
    words = line.split()
    return len(words) >= 6 and sum(1 for w in words if _WORD.fullmatch(w)) * 5 >= len(words) * 4


def _sql_script(data: bytes) -> bool:
    """A SQL dump or migration: half the lines open on a statement (``CREATE TABLE``,
    ``INSERT INTO``, ``COMMIT;``) and at least three end one with ``;``."""
    lines = [line for line in data[: 1 << 16].split(b"\n") if line.strip()]
    if len(lines) < 4:
        return False
    heads = sum(1 for line in lines if _SQL_HEAD.match(line))
    ends = sum(1 for line in lines if line.rstrip().endswith(b";"))
    return heads * 2 >= len(lines) and ends >= 3


def _symbol_dense(data: bytes) -> bool:
    """Code spends at least 2% of its visible bytes on brackets, operators and underscores;
    prose (licences, man pages, changelogs) about 0.3–1.7%. Measured on the first 64 KiB."""
    head = data[: 1 << 16]
    visible = len(head) - sum(head.count(c) for c in (b" ", b"\n", b"\t", b"\r"))
    return visible > 0 and 50 * len(_CODE_SYMBOLS.findall(head)) >= visible


@remember_last_answer
def is_log(data: bytes) -> bool:
    hit = _LOG_LINE.search
    if b"|" in data and _NUMBERED_GUTTER.search(data, 0, 1 << 16) is None:
        hit = _log_line_outside_gutter
    return _lines_vote(data, hit, min_lines=4, min_hits=3, share_den=2) or _test_report(data)


def _log_line_outside_gutter(line: bytes):
    """A log line, where a bare ``    |  `` gutter alone does not make one: with no numbered
    source line anywhere it is no compiler's (pydoc draws its class bodies with it)."""
    m = _LOG_LINE.search(line)
    if m and m.start() == 0 and _BARE_GUTTER.fullmatch(m.group()):
        return _LOG_LINE.search(line, m.end())
    return m


def _test_report(data: bytes) -> bool:
    """Test-runner output (node --test, jest, mocha, TAP): pass/fail marks open at least three
    lines, and with the failures' frames and diagnostics they make a fifth of the lines; the
    rest is the assertion diffs and object dumps runners print between them."""
    if session_report(data):
        return True
    if len(_RUNNER_MARK.findall(data, 0, 1 << 20)) < 3:
        return False
    if _TAP_HEAD.search(data, 0, 1 << 16):  # TAP: its YAML diagnostics fill the lines between the marks
        return True
    lines = data.split(b"\n")
    hits = sum(1 for line in lines if _RUNNER_MARK.match(line) or _LOG_LINE.search(line))
    return hits * 5 >= len(lines)


def is_search_result(data: bytes) -> bool:
    return _lines_vote(data, _SEARCH_LINE.match, min_lines=6, min_hits=4, share_den=3)


def is_hit_list(data: bytes) -> bool:
    """grep -rn / rg output, checked before code (the hits quote code): two thirds of the lines
    are ``path:line:`` hits or, with ``-A``/``-B``/``-C``, their ``path-line-`` context lines
    and ``--`` group separators (then a twentieth at least are hits), and at most a tenth look
    like compiler diagnostics or indented continuation lines (those are build output, read as
    logs)."""
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    if len(lines) < 6:
        return False
    if _heading_hits(lines):
        return True
    hits = diag = context = 0
    for line in lines:
        if _HIT_LINE.match(line):
            hits += 1
            if _DIAGNOSTIC.search(line):
                diag += 1
        elif line == b"--" or _CONTEXT_LINE.match(line):
            context += 1
        elif line[:1] in (b" ", b"\t"):
            diag += 1
    if context and hits * 20 < len(lines):
        return False
    return (hits + context) * 3 >= len(lines) * 2 and hits >= 3 and diag * 10 <= len(lines)


def _heading_hits(lines: list[bytes]) -> bool:
    """Search output grouped under file headings (``rg --heading``, ``git grep --heading
    --break``): a path line, then ``line:`` hits (``line-`` context), groups split by blank
    lines or ``--``. Nine lines in ten have those shapes; hits outnumber headings."""
    hits = heads = other = 0
    for line in lines:
        if _NUMBERED_HIT.match(line):
            hits += 1
        elif _PATH_HEAD.fullmatch(line.rstrip(b"\r")):
            heads += 1
        elif line.strip() and line != b"--":
            other += 1
    return hits >= 3 and heads >= 1 and hits >= heads and other * 10 <= len(lines)


def _lines_vote(data: bytes, hit, *, min_lines: int, min_hits: int, share_den: int) -> bool:
    """At least ``min_lines`` lines, of which ``hit`` accepts at least ``min_hits`` and at least
    one in ``share_den``."""
    lines = data.split(b"\n")
    total = len(lines)
    if total < min_lines:
        return False
    need = max(min_hits, -(-total // share_den))
    matches = 0
    for seen, line in enumerate(lines, 1):  # stop as soon as the verdict is certain
        if hit(line):
            matches += 1
            if matches >= need:
                return True
        elif matches + (total - seen) < need:
            return False
    return False


def _looks_config(data: bytes) -> bool:
    body = data[:-1] if data.endswith(b"\n") else data
    if body.count(b"\n") + 1 < 6:  # cheap line-count gate before the strict parse (six: short YAML maps)
        return False
    from ..formats.configs import looks_config

    return looks_config(data)



def _settings_file(data: bytes, *, not_code: bool = False) -> bool:
    """A settings file of a dialect the strict readers do not know (asked last, so prose stays
    text; ``not_code``: also without code's calls, asked before code's keyword votes)."""
    from ..formats.settings import looks_settings, settings_not_code

    return (settings_not_code if not_code else looks_settings)(data)
