"""The caveman TOON dialect: the exact encoder and decoder of spec engine-compressors §4.2–§4.3.

The dialect is a deliberately small, canonical subset of TOON:

- object keys are **sorted** (so equal JSON values always give identical TOON);
- arrays are either all scalars (``key[N]: a,b,c``) or a uniform table of flat objects
  (``key[N]{f1,f2}:`` + one row per element); anything else refuses to encode;
- empty containers are spelled ``{}`` / ``key: {}`` / ``[]`` / ``key[0]: []``;
- numbers are written with their literal JSON text, quoted strings are Go ``json.Marshal``
  strings (so ``<`` becomes ``\\u003c``);
- the decoder is strict: no blank lines, two-space indentation, comma-only cells, safe keys.

Why not python-toon alone: it normalises numbers (``7.50`` → ``7.5``, ``1e9`` →
``1000000000``), keeps input key order, spells empty containers differently and decodes far more
than this dialect. :mod:`cavemem.toon.codec` still runs python-toon over every encode as an
independent second decoder (see :mod:`cavemem.toon.standard`).

Quirk decisions (spec §9.5): the dialect is comma-only — the reference encoder could emit TAB
cells its own decoder cannot split, so TAB is refused here; CR is never stripped, so CRLF TOON
fails to decode (the reference would turn ``a: 1\\r`` into the broken number ``1\\r``).
Both functions are iterative: nesting depth is limited only by memory.
"""

from __future__ import annotations

import math
import re

from ..gocompat import Number, go_quote, json_literal, trim_space
from .jsonvalue import go_string


class EncodeError(ValueError):
    """The value is outside the losslessly encodable subset; the reason names the spot."""


class DecodeError(ValueError):
    """The text is not valid caveman TOON; the reason names the line."""


SAFE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*", re.ASCII)
JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?", re.ASCII)
_KEY = r"[A-Za-z_][A-Za-z0-9_.\-]*"
TABULAR_HEADER = re.compile(r"(" + _KEY + r")?\[([0-9]+)\]\{([^}]*)\}:", re.ASCII)
ARRAY_HEADER = re.compile(r"(" + _KEY + r")?\[([0-9]+)\]:(?: (.*))?", re.ASCII | re.DOTALL)
KEY_VALUE = re.compile(r"(" + _KEY + r"):(?: (.*))?", re.ASCII | re.DOTALL)
_QUOTE_TRIGGERS = re.compile('[\n\r\t":]')
DELIMITER = ","


def _is_scalar(v) -> bool:
    return not isinstance(v, (dict, list))


# ---------------------------------------------------------------------------------------------
# encoder


def needs_quote(s: str, delimiter: str = DELIMITER) -> bool:
    """needsTOONQuote: would the raw string read back as something else?"""
    return (
        not s
        or trim_space(s) != s
        or _QUOTE_TRIGGERS.search(s) is not None
        or delimiter in s
        or s[0] in '[{"-'
        or "0" <= s[0] <= "9"
        or s in ("true", "false", "null")
        or JSON_NUMBER.fullmatch(s) is not None
    )


def encode_scalar(v, delimiter: str = DELIMITER) -> str:
    if isinstance(v, Number):
        if not JSON_NUMBER.fullmatch(v):
            raise EncodeError(f"number {str(v)!r} is not a JSON number literal")
        return str(v)
    if isinstance(v, str):
        if go_string(v) != v:
            raise EncodeError("string holds an unpaired surrogate")
        return go_quote(v) if needs_quote(v, delimiter) else v
    if isinstance(v, float) and not math.isfinite(v):
        raise EncodeError(f"number {v!r} has no JSON form")
    text = json_literal(v)
    if text is None:
        raise EncodeError(f"unsupported value type {type(v).__name__}")
    return text


def _check_key(key: str, where: str) -> str:
    if not SAFE_KEY.fullmatch(key):
        raise EncodeError(f"{where}: key {key!r} is not a plain identifier")
    return key


def _array_lines(name: str, arr: list, indent: str, path: str, out: list[str]) -> None:
    """Append the lines of a named (or root, name="") array."""
    n = len(arr)
    if n == 0:
        out.append(f"{indent}{name}[0]: []" if name else f"{indent}[]")
        return
    if all(_is_scalar(v) for v in arr):
        out.append(f"{indent}{name}[{n}]: " + DELIMITER.join(encode_scalar(v) for v in arr))
        return
    first = arr[0]
    if not isinstance(first, dict) or not first:
        raise EncodeError(f"{path}: array mixes values that are not uniform flat objects")
    fields = list(first)
    for f in fields:
        _check_key(f, f"{path}[0]")
    rows = []
    for i, row in enumerate(arr):
        if not isinstance(row, dict) or len(row) != len(fields) or list(row) != fields:
            raise EncodeError(f"{path}[{i}]: keys differ from the header {{{','.join(fields)}}}")
        cells = []
        for f in fields:
            cell = row[f]
            if not _is_scalar(cell):
                raise EncodeError(f"{path}[{i}].{f}: nested value inside a table row")
            cells.append(encode_scalar(cell))
        rows.append(indent + "  " + DELIMITER.join(cells))
    out.append(f"{indent}{name}[{n}]{{{','.join(fields)}}}:")
    out.extend(rows)


def _sorted_keys(obj: dict) -> list[str]:
    return sorted(obj, key=lambda k: k.encode("utf-8", "surrogatepass"))


def encode(value, delimiter: str = DELIMITER) -> str:
    """Encode a JSON value (from :func:`~cavemem.toon.jsonvalue.parse_json`) as caveman TOON.

    Raises :class:`EncodeError` for anything outside the subset (unsafe key, nested or
    non-uniform array, unsupported delimiter)."""
    if delimiter not in ("", None, DELIMITER):
        raise EncodeError("the caveman dialect only writes ',' cells (its decoder splits on ',' only)")
    out: list[str] = []
    if isinstance(value, list):
        _array_lines("", value, "", "$", out)
    elif isinstance(value, dict):
        if not value:
            return "{}"
        # explicit stack of [sorted keys, object, next position, indent, path]
        stack = [[_sorted_keys(value), value, 0, "", "$"]]
        while stack:
            frame = stack[-1]
            keys, obj, pos, indent, path = frame
            if pos == len(keys):
                stack.pop()
                continue
            frame[2] = pos + 1
            key = _check_key(keys[pos], path)
            v = obj[key]
            where = f"{path}.{key}"
            if isinstance(v, dict):
                if v:
                    out.append(f"{indent}{key}:")
                    stack.append([_sorted_keys(v), v, 0, indent + "  ", where])
                else:
                    out.append(f"{indent}{key}: {{}}")
            elif isinstance(v, list):
                _array_lines(key, v, indent, where, out)
            else:
                out.append(f"{indent}{key}: {encode_scalar(v)}")
    else:
        out.append(encode_scalar(value))
    return "\n".join(out).rstrip("\n")


# ---------------------------------------------------------------------------------------------
# decoder


def split_cells(text: str, line_no: int) -> list[str]:
    """Quote-aware split on ',': quotes and escapes stay in the cell; unbalanced → error."""
    if '"' not in text:
        return text.split(DELIMITER)
    cells, start, in_quote, i, n = [], 0, False, 0, len(text)
    while i < n:
        c = text[i]
        if in_quote:
            if c == "\\":
                i += 1
                if i >= n:
                    raise DecodeError(f"line {line_no}: dangling escape")
            elif c == '"':
                in_quote = False
        elif c == '"':
            in_quote = True
        elif c == DELIMITER:
            cells.append(text[start:i])
            start = i + 1
        i += 1
    if in_quote:
        raise DecodeError(f"line {line_no}: unbalanced quote")
    cells.append(text[start:])
    return cells


def decode_scalar(token: str, line_no: int):
    if token == "":
        raise DecodeError(f"line {line_no}: empty value")
    if token[0] == '"':
        import json

        if len(token) < 2 or token[-1] != '"':
            raise DecodeError(f"line {line_no}: unterminated quoted string")
        try:
            s = json.loads(token)
        except ValueError:
            raise DecodeError(f"line {line_no}: bad quoted string {token[:40]!r}") from None
        if not isinstance(s, str):
            raise DecodeError(f"line {line_no}: bad quoted string {token[:40]!r}")
        return go_string(s)
    if token == "true":
        return True
    if token == "false":
        return False
    if token == "null":
        return None
    if JSON_NUMBER.fullmatch(token):
        return Number(token)
    if "\n" in token or "\r" in token or "\t" in token:
        raise DecodeError(f"line {line_no}: control character in an unquoted value")
    if trim_space(token) != token:
        raise DecodeError(f"line {line_no}: unquoted value with surrounding space {token[:40]!r}")
    return token


def _split_lines(text: str) -> tuple[list[int], list[str]]:
    text = text.rstrip("\n")
    if not trim_space(text):
        raise DecodeError("empty document")
    levels: list[int] = []
    contents: list[str] = []
    for no, line in enumerate(text.split("\n"), 1):
        if not trim_space(line):
            raise DecodeError(f"line {no}: blank line")
        spaces = len(line) - len(line.lstrip(" "))
        if spaces % 2:
            raise DecodeError(f"line {no}: odd indentation ({spaces} spaces)")
        levels.append(spaces // 2)
        contents.append(line[spaces:])
    if levels[0] != 0:
        raise DecodeError("line 1: indented first line")
    return levels, contents


def _count(digits: str, line_no: int) -> int:
    if len(digits) > 18:  # beyond int64 (Go's Atoi fails) and far beyond any real document
        raise DecodeError(f"line {line_no}: array length {digits[:20]}… is out of range")
    return int(digits)


def _parse_fields(spec: str, line_no: int) -> list[str]:
    fields = spec.split(",")
    seen = set()
    for f in fields:
        if not SAFE_KEY.fullmatch(f):
            raise DecodeError(f"line {line_no}: bad header field {f!r}")
        if f in seen:
            raise DecodeError(f"line {line_no}: duplicate header field {f!r}")
        seen.add(f)
    return fields


class _Lines:
    def __init__(self, text: str):
        self.levels, self.contents = _split_lines(text)
        self.n = len(self.levels)

    def array(self, m_tab, m_arr, i: int, level: int) -> tuple[list, int]:
        """Decode the array whose header is line ``i``; returns (array, next line index)."""
        no = i + 1
        if m_tab is not None:
            count = _count(m_tab.group(2), no)
            fields = _parse_fields(m_tab.group(3), no)
            if count > self.n - i - 1:  # checked before allocating anything
                raise DecodeError(f"line {no}: header promises {count} rows, fewer lines follow")
            rows = []
            for r in range(i + 1, i + 1 + count):
                if self.levels[r] != level + 1:
                    raise DecodeError(f"line {r + 1}: table row at the wrong indentation")
                cells = split_cells(self.contents[r], r + 1)
                if len(cells) != len(fields):
                    raise DecodeError(f"line {r + 1}: {len(cells)} cells for {len(fields)} fields")
                rows.append({f: decode_scalar(c, r + 1) for f, c in zip(fields, cells)})
            return rows, i + 1 + count
        count = _count(m_arr.group(2), no)
        rest = m_arr.group(3)
        if count == 0:
            if rest != "[]":
                raise DecodeError(f"line {no}: an empty array is written [0]: []")
            return [], i + 1
        cells = split_cells(rest or "", no)
        if len(cells) != count:
            raise DecodeError(f"line {no}: header promises {count} values, found {len(cells)}")
        return [decode_scalar(c, no) for c in cells], i + 1

    def root(self):
        first = self.contents[0]
        if first == "{}":
            value, nxt = {}, 1
        elif first == "[]":
            value, nxt = [], 1
        elif first.startswith('"'):
            value, nxt = decode_scalar(first, 1), 1
        elif first.startswith("["):
            m_tab = TABULAR_HEADER.fullmatch(first)
            m_arr = None if m_tab else ARRAY_HEADER.fullmatch(first)
            if m_tab is None and m_arr is None:
                raise DecodeError("line 1: bad root array header")
            value, nxt = self.array(m_tab, m_arr, 0, 0)
        elif ":" not in first:
            value, nxt = decode_scalar(first, 1), 1
        else:
            return self.object_tree()
        if nxt != self.n:
            raise DecodeError(f"line {nxt + 1}: content after the root value")
        return value

    def object_tree(self) -> dict:
        """The root object: every line belongs to it or to a nested object (explicit stack)."""
        root: dict = {}
        stack = [root]  # stack[k] = open object at level k
        i = 0
        while i < self.n:
            level, content, no = self.levels[i], self.contents[i], i + 1
            if level >= len(stack):
                raise DecodeError(f"line {no}: unexpected indentation")
            del stack[level + 1 :]
            obj = stack[level]
            m_tab = TABULAR_HEADER.fullmatch(content)
            m_arr = None if m_tab else ARRAY_HEADER.fullmatch(content)
            m = m_tab or m_arr
            if m is not None and m.group(1):
                key = m.group(1)
                value, nxt = self.array(m_tab, m_arr, i, level)
            else:
                kv = KEY_VALUE.fullmatch(content)
                if kv is None:
                    raise DecodeError(f"line {no}: expected 'key: value'")
                key, rest = kv.group(1), kv.group(2) or ""
                nxt = i + 1
                if rest == "{}":
                    value = {}
                elif rest == "":
                    if nxt >= self.n or self.levels[nxt] != level + 1:
                        raise DecodeError(f"line {no}: '{key}:' opens an object but no indented line follows")
                    value = {}
                    stack.append(value)
                else:
                    value = decode_scalar(rest, no)
            if key in obj:
                raise DecodeError(f"line {no}: duplicate key {key!r}")
            obj[key] = value
            i = nxt
        return root


def decode(text: str):
    """Decode caveman TOON into the JSON value model; raises :class:`DecodeError`."""
    return _Lines(text).root()
