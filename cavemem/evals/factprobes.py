"""Rule-based fact probes: the facts an agent needs from a payload, found by one rule per kind.

Used by ``scripts/bench_compare.py --corpus`` to grade cavemem and the Headroom peer with the
same rule, so neither engine is graded on values picked by hand for it.

``probes(kind, original)`` returns the probe strings (whitespace collapsed, ANSI escapes removed,
at most ``MAX_PROBE_CHARS`` characters each, deduplicated, at most ``MAX_PROBES`` per file taken
evenly over the file). The rule per kind:

- **log / terminal**: every line naming an error (error, fail, fatal, exception, traceback,
  panic, denied, cannot, "not found", ✖, ``E1234``, an exception class, pytest's ``E   ``),
  every source location in those lines
  (``path:line[:col]``, ``File "path", line N``), every exception class name
  (``FooError``/``FooException``), and the last non-empty line (the summary).
- **diff**: every changed line (``+``/``-``, not ``+++``/``---``) with at least 3 word characters,
  its text without the marker; every changed file path (``+++`` side); every ``Only in …`` and
  ``Files … differ`` line of a directory diff.
- **search-result**: every ``path:line`` of a match line (``path:line:`` prefix); for
  ``grep -l`` style output (paths only) every path.
- **code**: every definition head: ``def f``, ``class C``, ``function f``, ``fn f``, ``func f``,
  ``#define NAME``, a top-level ``const/let/var x =``, ``CREATE TABLE t``, and C-style ``name(`` at the start of a definition line.
- **html**: the ``<title>`` and every ``<h1>``–``<h6>`` text (tags removed, entities decoded).
- **tabular**: every header cell, and the first (key) column of every row.
- **config**: every section name (``[a.b]``, without brackets) and every distinct key name
  (``key =``, ``key:``); commented-out lines are not keys.
- **json**: every distinct object key, and every id-like value (keys ``id``, ``_id``, ``name``,
  ``key``, ``uuid``, ``slug``, ``*_id``, ``version`` holding a string or number).
- **text**: headings (Markdown ``#``, underlined lines, ALL-CAPS man-page sections, numbered
  clauses ``1.``/``§``), option flags at the start of a man-page line, and the first line.

``kept(probe, output)`` is True when the probe occurs in the output after the same
normalisation (ANSI removed, whitespace collapsed); failing that, it also accepts the output with
HTML tags removed, entities decoded and Markdown code/strong marks (`` ` ``, ``**``) removed — a
rendering of the same text, not a changed one.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from functools import lru_cache

MAX_PROBES = 150
MAX_PROBE_CHARS = 100
_ANSI = re.compile(r"\x1b\[[0-9;?]*[\x20-\x2f]*[\x40-\x7e]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\r")
_WS = re.compile(r"\s+")
_TAG = re.compile(r"<[^>]*>")
_ERROR = re.compile(r"\b(?:error|errors|fail(?:ed|ure|s)?|fatal|exception|traceback|panic(?:ked)?|denied|cannot|"
                    r"not found|E\d{3,5})\b|✖|✗", re.I)
_LOC = re.compile(r"(?:[\w.~/-]*[\w-]\.[A-Za-z]{1,5}):\d+(?::\d+)?|File \"[^\"]+\", line \d+")
_EXC = re.compile(r"\b[A-Z][A-Za-z0-9]*(?:Error|Exception)\b")
_DEF = re.compile(r"^[ \t]*(?:async\s+)?(?:(?:export\s+)?(?:def|class|function|fn|func|struct|enum|trait|interface)\s+[A-Za-z_$][\w$]*"
                  r"|#\s*define\s+\w+|(?<![ \t])(?:export\s+)?(?:const|let|var)\s+[A-Za-z_$][\w$]*(?=\s*=)|CREATE\s+(?:TABLE|INDEX|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?[\"`]?\w+)", re.M | re.I)
_JS_DEF = re.compile(r"\bfunction\s+[A-Za-z_$][\w$]*|\bclass\s+[A-Za-z_$][\w$]*")
_C_DEF = re.compile(r"^[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*(?:\{|$)", re.M)
_GREP = re.compile(r"^((?:[A-Za-z]:)?[^:\n]+?):(\d+):", re.M)
_HEAD = re.compile(r"<(title|h[1-6])\b[^>]*>(.*?)</\1\s*>", re.I | re.S)
_SECTION = re.compile(r"^[ \t]*\[{1,2}([^\[\]\n]+)\]{1,2}[ \t]*(?:[#;].*)?$", re.M)
_KEY = re.compile(r"^[ \t]*(?:-[ \t]+)?([A-Za-z_][\w.-]*|\"[^\"\n]+\")[ \t]*(?:=|:(?:[ \t]|$))", re.M)
_ID_KEYS = re.compile(r"^(?:id|_id|name|key|uuid|slug|version|\w+_id)$", re.I)


def norm(text: str) -> str:
    """What a probe compares on: no terminal escapes, whitespace runs as one space."""
    return _WS.sub(" ", _ANSI.sub("", text)).strip()


def _clip(s: str) -> str:
    return norm(s)[:MAX_PROBE_CHARS].rstrip()


def _finish(items) -> list[str]:
    seen, out = set(), []
    for it in items:
        p = _clip(it)
        if len(p) >= 2 and p not in seen:
            seen.add(p)
            out.append(p)
    if len(out) > MAX_PROBES:
        out = [out[i * (len(out) - 1) // (MAX_PROBES - 1)] for i in range(MAX_PROBES)]
    return out


def _log(text: str):
    lines = _ANSI.sub("", text).splitlines()
    for line in lines:
        if _ERROR.search(line) or _EXC.search(line) or line.startswith("E   "):
            yield line
            yield from (m.group(0) for m in _LOC.finditer(line))
            yield from _EXC.findall(line)
    tail = [x for x in lines if x.strip()]
    if tail:
        yield tail[-1]


def _diff(text: str):
    for line in text.splitlines():
        if line.startswith(("Only in ", "Files ")) or (line.startswith("Binary files ") and line.endswith(" differ")):
            yield line
        elif line.startswith("+++ "):
            yield line[4:].split("\t")[0].removeprefix("b/")
        elif line[:1] in "+-" and not line.startswith(("---", "+++")) and len(re.findall(r"\w", line)) >= 3:
            yield line[1:]


def _search(text: str):
    hits = [f"{m.group(1)}:{m.group(2)}" for m in _GREP.finditer(text)]
    if hits:
        return hits
    return [x for x in text.splitlines() if x.strip() and "/" in x and " " not in x.strip()]


def _code(text: str):
    yield from (m.group(0).strip() for m in _DEF.finditer(text))
    if text.count("\n") < 20:  # minified: one huge line
        yield from _JS_DEF.findall(text)
    for m in _C_DEF.finditer(text):
        if m.group(1) not in {"if", "for", "while", "switch", "return", "sizeof"}:
            yield m.group(1) + "("


def _html(text: str):
    for _, inner in _HEAD.findall(text):
        yield html.unescape(_TAG.sub("", inner))


def _table_rows(text: str) -> list[list[str]]:
    lines = [x for x in _ANSI.sub("", text).splitlines() if x.strip()]
    if not lines:
        return []
    first = lines[0]
    if "\t" in first or (first.count(",") >= 1 and "│" not in first and "|" not in first):
        try:
            return list(csv.reader(io.StringIO("\n".join(lines)), delimiter="\t" if "\t" in first else ","))
        except csv.Error:
            pass
    rows = []
    for x in lines:
        if set(x.strip()) <= set("-=+|─━┌┐└┘├┤┬┴┼╭╮╰╯│┃╇╈╋═╪╞╡ :"):
            continue  # a rule line
        cells = [c for c in re.split(r"\s*[|│┃]\s*|\s{2,}|\s+(?=\S)", x.strip().strip("|│┃")) if c] if "|" in x or "│" in x \
            else x.split()
        rows.append(cells)
    return rows


def _tabular(text: str):
    rows = _table_rows(text)
    if not rows:
        return []
    out = list(rows[0])
    out += [r[0] for r in rows[1:] if r and r[0].strip()]
    return out


def _config(text: str):
    yield from _SECTION.findall(text)
    for k in _KEY.findall(text):
        yield k.strip('"')


def _json(text: str):
    try:
        doc = json.loads(text)
    except ValueError:
        yield from re.findall(r"\"([^\"\n]{1,80})\"\s*:", text)
        return
    keys, ids, stack = [], [], [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                keys.append(k)
                if _ID_KEYS.match(k) and isinstance(v, (str, int)) and not isinstance(v, bool):
                    ids.append(str(v))
                stack.append(v)
        elif isinstance(node, list):
            stack.extend(reversed(node))
    yield from dict.fromkeys(keys)
    yield from ids


def _text(text: str):
    lines = text.splitlines()
    first = next((x for x in lines if x.strip()), "")
    yield first
    for i, line in enumerate(lines):
        s = line.strip()
        if re.match(r"#{1,6} \S", s):
            yield s.lstrip("#").strip()
        elif s and i + 1 < len(lines) and re.fullmatch(r"[=\-~^]{3,}", lines[i + 1].strip()) and len(s) <= 80:
            yield s
        elif line[:1].isalpha() and line.isupper() and len(s) <= 60 and not line.startswith(" "):
            yield s
        elif re.match(r"(?:§\s*)?\d{1,2}\.\s+[A-Z]", s) and len(s) <= 80:
            yield s
        elif re.match(r"\s{2,}(--?[A-Za-z][\w-]*)", line):
            yield re.match(r"\s{2,}(--?[A-Za-z][\w-]*)", line).group(1)


RULES = {"log": _log, "terminal": _log, "diff": _diff, "search-result": _search, "code": _code, "html": _html,
         "tabular": _tabular, "config": _config, "json": _json, "text": _text}


def probes(kind: str, original: bytes) -> list[str]:
    """The fact probes of ``original`` (a payload of ``kind``), in file order."""
    rule = RULES.get(kind, _text)
    return _finish(rule(original.decode("utf-8", "replace")))


@lru_cache(maxsize=4)
def _views(output: bytes) -> tuple[str, str]:
    text = norm(output.decode("utf-8", "replace"))
    rendered = norm(html.unescape(_TAG.sub("", text)).replace("**", "").replace("`", ""))
    return text, rendered


@lru_cache(maxsize=4)
def _grouped_hits(output: bytes) -> frozenset:
    """(path, line) pairs of search output grouped by file: a ``path`` line, then ``N:``/``N-`` lines."""
    hits, path = set(), None
    for raw in _ANSI.sub("", output.decode("utf-8", "replace")).splitlines():
        m = re.match(r"\s*(\d+)[:-]", raw)
        if m and path is not None:
            hits.add((path, m.group(1)))
        elif raw.strip() and not raw[:1].isspace():
            path = raw.strip().rstrip(":")
    return frozenset(hits)


def kept(probe: str, output: bytes) -> bool:
    """Whether ``probe`` is still readable in ``output`` (same rule for every engine)."""
    text, rendered = _views(output)
    if probe in text or probe.replace("`", "") in rendered:
        return True
    m = re.fullmatch(r"(.+):(\d+)", probe)
    return bool(m) and (m.group(1), m.group(2)) in _grouped_hits(output)
