"""``toolschema-annotations``: strip schema annotations, byte for byte (spec §3.11). Force-only,
left out of the capability manifest (adding it would change the pinned registry digest).

Unlike :mod:`.toolschema` this never re-serializes: it walks the raw JSON bytes and cuts out
only the members of *schema* objects named ``$schema``, ``title``, ``examples`` or
``deprecated`` (keys compared after unescaping, so ``"\\u0074itle"`` counts). Everything else —
whitespace, key order, number spelling, escapes, ``cache_control`` — survives exactly, which
keeps prompt caches and signatures of the untouched parts valid. The strip is idempotent.

Each cut removes exactly one separator: after a kept member, from the end of the previous
value to the end of the dropped one (the left comma goes); otherwise from the dropped key to
the next key (or to the ``}``).
"""

from __future__ import annotations

import json
import re

from ..gocompat import go_text, json_valid
from .base import Compressor

_DROP = frozenset({"$schema", "title", "examples", "deprecated"})
_SCHEMA_KEYS = frozenset({"input_schema", "inputSchema", "parameters"})
_NAME_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
_CHILD_SCHEMAS = frozenset(
    {
        "items", "prefixItems", "additionalItems", "unevaluatedItems", "additionalProperties",
        "unevaluatedProperties", "propertyNames", "contains", "not", "if", "then", "else",
        "allOf", "anyOf", "oneOf",
    }
)  # fmt: skip

_WS = re.compile(rb"[ \t\n\r]*")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SCALAR = re.compile(rb"[^,\]}\s]+")
_STRUCTURAL = re.compile(rb'["\[\]{}]')
_MEMBER = re.compile(rb'("(?:[^"\\]|\\.)*")[ \t\n\r]*:[ \t\n\r]*', re.DOTALL)  # key at i, then ':'
_AFTER_VALUE = re.compile(rb"[ \t\n\r]*([,}])[ \t\n\r]*")


class _Walker:
    """Walks a json.Valid document and records byte spans to delete."""

    def __init__(self, data: bytes):
        self.b = data
        self.cuts: list[tuple[int, int]] = []

    def ws(self, i: int) -> int:
        return _WS.match(self.b, i).end()

    def string_end(self, i: int) -> int:
        return _STRING.match(self.b, i).end()

    def skip(self, i: int) -> int:
        """End of the value starting at ``i`` (no white space before it)."""
        c = self.b[i : i + 1]
        if c == b'"':
            return self.string_end(i)
        if c not in (b"[", b"{"):
            return _SCALAR.match(self.b, i).end()
        depth = 0
        while True:
            m = _STRUCTURAL.search(self.b, i)
            i = m.start()
            ch = self.b[i : i + 1]
            if ch == b'"':
                i = self.string_end(i)
                continue
            depth += 1 if ch in (b"[", b"{") else -1
            i += 1
            if depth == 0:
                return i

    def members(self, i: int):
        """Yield (key, key_start, value_start) for the object at ``i``; the caller must set
        ``self.pos`` to the value's end before resuming. Finally ``self.pos`` is the '}'."""
        b = self.b
        i = self.ws(i + 1)
        if b[i : i + 1] == b"}":
            self.pos = i
            return
        while True:
            m = _MEMBER.match(b, i)
            raw_key = m.group(1)
            key = json.loads(go_text(raw_key)) if b"\\" in raw_key else raw_key[1:-1].decode("utf-8", "replace")
            yield key, i, m.end()
            m = _AFTER_VALUE.match(b, self.pos)
            if m.group(1) == b",":
                i = m.end()
                continue
            self.pos = m.start(1)  # the closing "}"
            return

    def array_items(self, i: int, each) -> int:
        i = self.ws(i + 1)
        if self.b[i : i + 1] == b"]":
            return i + 1
        while True:
            i = self.ws(each(i))
            if self.b[i : i + 1] == b",":
                i = self.ws(i + 1)
                continue
            return i + 1

    # -- the three kinds of position -------------------------------------------------------
    def catalog_item(self, i: int) -> int:
        c = self.b[i : i + 1]
        if c == b"[":
            return self.array_items(i, self.catalog_item)
        if c == b"{":
            return self.envelope(i)
        return self.skip(i)

    def envelope(self, i: int) -> int:
        it = self.members(i)
        for key, _, vstart in it:
            if key in _SCHEMA_KEYS:
                self.pos = self.schema(vstart)
            elif key == "function":
                self.pos = self.catalog_item(vstart)
            else:
                self.pos = self.skip(vstart)
        return self.pos + 1

    def schema(self, i: int) -> int:
        c = self.b[i : i + 1]
        if c == b"[":
            return self.array_items(i, self.schema)
        if c != b"{":
            return self.skip(i)
        kept_before = False
        prev_value_end = None
        pending: list[int] = []  # dropped key starts waiting for the next member's start
        it = self.members(i)
        for key, key_start, vstart in it:
            for start in pending:
                self.cuts.append((start, key_start))
            pending = []
            if key in _DROP:
                end = self.skip(vstart)
                if kept_before:
                    self.cuts.append((prev_value_end, end))
                else:
                    pending.append(key_start)
            else:
                kept_before = True
                if key in _NAME_MAPS:
                    end = self.name_map(vstart)
                elif key in _CHILD_SCHEMAS:
                    end = self.schema(vstart)
                else:
                    end = self.skip(vstart)
            prev_value_end = end
            self.pos = end
        close = self.pos
        for start in pending:
            self.cuts.append((start, close))
        return close + 1

    def name_map(self, i: int) -> int:
        if self.b[i : i + 1] != b"{":
            return self.skip(i)
        it = self.members(i)
        for _, _, vstart in it:
            self.pos = self.schema(vstart)
        return self.pos + 1


def strip_annotations(data: bytes) -> tuple[bytes, bool]:
    """(stripped bytes, ok). ok=False (input returned) for invalid JSON or a failed re-check;
    ok=True with the input itself when there is nothing to strip."""
    data = bytes(data)
    if not json_valid(data):
        return data, False
    w = _Walker(data)
    try:
        w.catalog_item(w.ws(0))
    except (RecursionError, AttributeError, ValueError):
        return data, False
    if not w.cuts:
        return data, True
    out, last = [], 0
    for start, end in sorted(w.cuts):
        out.append(data[last:start])
        last = end
    out.append(data[last:])
    result = b"".join(out)
    if not json_valid(result):
        return data, False
    return result, True


class ToolSchemaAnnotationsCompressor(Compressor):
    content_type = "toolschema-annotations"

    def compress(self, data: bytes) -> bytes | None:
        out, ok = strip_annotations(data)
        return out if ok else None
