"""Graders: the compression gate of one fixture (spec engine-core §8.5).

Each grader looks at a :class:`Subject` (input, output, ratio, content type, method,
passed-through flag) and returns a :class:`Grade`. Failure reasons are the reference's exact
strings (Go ``%q``/``%v`` renderings) because CI logs and tools match on them. An unknown grader
type fails — a misspelt grader must never pass silently.

One deliberate change (quirk engine-core §9.6 #3): in ``json_schema`` the reference skips every
other check of a node once ``enum`` matches, and compares a YAML int with a JSON float as
unequal (so ``enum: [1]`` can never match). Here every keyword of a node is checked (JSON Schema
semantics) and numbers compare by value (``1 == 1.0``; booleans are never numbers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..gocompat import go_text_preserving, json_valid, trim_space
from .gofmt import quote, sprint, string_list
from .manifest import Grader


@dataclass
class Subject:
    input: bytes
    output: bytes
    ratio: float = 0.0
    content_type: str = ""
    method: str = ""
    passed_through: bool = True


@dataclass
class Grade:
    passed: bool
    reason: str = ""


def grade(g: Grader, s: Subject) -> Grade:
    """Run one grader. Never raises for bad output: a grader that cannot decide fails."""
    kind = trim_space(g.type)
    fn = _GRADERS.get(kind)
    if fn is None:
        return Grade(False, f"unknown grader type: {kind}")
    return fn(g, s)


# ---------------------------------------------------------------------------------------------
# helpers


def string_list_of(v) -> list[str]:
    """String-list coercion: strings kept, other scalars as Go ``%v``; nulls, lists and maps
    skipped; a non-list gives an empty list."""
    if not isinstance(v, list):
        return []
    out = []
    for item in v:
        if item is None or isinstance(item, (list, dict)):
            continue
        out.append(item if isinstance(item, str) else sprint(item))
    return out


def _opt(g: Grader, key: str):
    return (g.options or {}).get(key)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _contains(hay: bytes, needle: str) -> bool:
    return needle.encode("utf-8", "surrogateescape") in hay


def _text(b: bytes) -> str:
    return go_text_preserving(b)


# ---------------------------------------------------------------------------------------------
# simple graders


def _exact_match(g: Grader, s: Subject) -> Grade:
    if g.value:
        want = g.value
    elif isinstance(g.reference, str):
        want = g.reference
    else:
        want = sprint(g.reference)
    got = trim_space(_text(s.output))
    want = trim_space(want)
    if got == want:
        return Grade(True, "exact match")
    return Grade(False, f"output {quote(got)} != expected {quote(want)}")


def _ratio_threshold(g: Grader, s: Subject) -> Grade:
    r = s.ratio
    if r < g.min:
        return Grade(False, f"ratio {r:.4f} below min {g.min:.4f}")
    if g.max > 0 and r > g.max:
        return Grade(False, f"ratio {r:.4f} above max {g.max:.4f}")
    return Grade(True, f"ratio {r:.4f} within [{g.min:.4f},{g.max:.4f}]")


def _valid_json(g: Grader, s: Subject) -> Grade:
    if json_valid(s.output):
        return Grade(True, "valid JSON")
    return Grade(False, "output is not valid JSON")


def _contains_grader(g: Grader, s: Subject) -> Grade:
    if not g.value or _contains(s.output, g.value):
        return Grade(True, f"output contains {quote(g.value)}")
    return Grade(False, f"output missing {quote(g.value)}")


def _not_contains(g: Grader, s: Subject) -> Grade:
    if g.value and not _contains(s.output, g.value):
        return Grade(True, f"output omits {quote(g.value)}")
    return Grade(False, f"output still contains {quote(g.value)}")


def _byte_identical(g: Grader, s: Subject) -> Grade:
    if s.output == s.input:
        return Grade(True, "output identical to input")
    return Grade(False, "output differs from input")


def _compressed(g: Grader, s: Subject) -> Grade:
    if not s.passed_through:
        return Grade(True, "payload compressed")
    return Grade(False, "payload passed through unchanged")


def _recall_keys(g: Grader, s: Subject) -> Grade:
    keys = string_list_of(_opt(g, "must_contain"))
    if not keys:
        return Grade(False, "recall_keys requires a non-empty options.must_contain list")
    min_recall = _opt(g, "min_recall")
    want = float(min_recall) if _is_number(min_recall) else 1.0
    missing = [k for k in keys if not _contains(s.output, k)]
    kept = len(keys) - len(missing)
    recall = kept / len(keys)
    if recall >= want:
        return Grade(True, f"recall {recall:.2f} ≥ {want:.2f} ({kept}/{len(keys)} kept)")
    return Grade(False, f"recall {recall:.2f} < {want:.2f}, missing {string_list(missing)}")


# ---------------------------------------------------------------------------------------------
# TOON round trip (cavemem's own codec: the dialect decoder and its equality rules)


def _toon_round_trip(g: Grader, s: Subject) -> Grade:
    if s.passed_through:
        return Grade(False, "TOON round-trip requires a compressed TOON output")
    from ..toon.codec import decode_value
    from ..toon.jsonvalue import parse_json, same_value

    try:  # strict parse, numbers kept as literal text (spec engine-compressors §4.1)
        original = parse_json(s.input)
    except (ValueError, RecursionError):
        return Grade(False, "input is not valid JSON for TOON round-trip")
    try:
        decoded = decode_value(s.output)
    except (ValueError, RecursionError):
        return Grade(False, "output is not decodable TOON")
    if not same_value(original, decoded):
        return Grade(False, "TOON output does not round-trip to the original JSON value")
    return Grade(True, "TOON output round-trips to the original JSON value")


def _json_or_toon_round_trip(g: Grader, s: Subject) -> Grade:
    if json_valid(s.output):
        return Grade(True, "valid JSON")
    if s.method != "toon":
        return Grade(False, "output is not valid JSON and method is not TOON")
    return _toon_round_trip(g, s)


# ---------------------------------------------------------------------------------------------
# json_schema (the subset of §8.5)


def _json_equal(a, b) -> bool:
    """Type-strict deep equality, except that int and float compare by value."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if _is_number(x) and _is_number(y):
            if x != y:
                return False
        elif isinstance(x, dict):
            if not isinstance(y, dict) or x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list):
            if not isinstance(y, list) or len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif type(x) is not type(y) or x != y:
            return False
    return True


_TYPE_CHECKS = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "number": _is_number,
    "integer": lambda v: _is_number(v) and math.isfinite(v) and float(v).is_integer(),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _type_name(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if _is_number(v):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def _num(schema: dict, key: str):
    v = schema.get(key)
    return v if _is_number(v) else None


def _schema_errors(value, schema: dict) -> str:
    """The first violation of ``schema`` by ``value``, or "" when it conforms. Iterative."""
    import regex

    stack = [(value, schema, "$")]
    while stack:
        v, sch, path = stack.pop()
        if "enum" in sch:
            options = sch["enum"] if isinstance(sch["enum"], list) else []
            if not any(_json_equal(v, o) for o in options):
                return f"{path} is not one of the enum values"
        if "const" in sch and not _json_equal(v, sch["const"]):
            return f"{path} does not equal the const value"
        if "type" in sch:
            t = sch["type"]
            names = [t] if isinstance(t, str) else [n for n in t if isinstance(n, str)] if isinstance(t, list) else []
            if not any(_TYPE_CHECKS.get(n, lambda _v: False)(v) for n in names):
                return f"{path} has type {_type_name(v)}, want {'|'.join(names)}"
        children = []
        if isinstance(v, dict):
            for k in string_list_of(sch.get("required")):
                if k not in v:
                    return f"{path} missing required property {quote(k)}"
            props = sch.get("properties")
            props = props if isinstance(props, dict) else {}
            for k, sub in props.items():
                if k not in v:
                    continue
                if not isinstance(sub, dict):
                    return f"{path}.properties.{k} is not a schema"
                children.append((v[k], sub, f"{path}.{k}"))
            if sch.get("additionalProperties") is False:
                for k in v:
                    if k not in props:
                        return f"{path} has unexpected property {quote(k)}"
        elif isinstance(v, list):
            lo, hi = _num(sch, "minItems"), _num(sch, "maxItems")
            if lo is not None and len(v) < lo:
                return f"{path} has {len(v)} items, want at least {sprint(lo)}"
            if hi is not None and len(v) > hi:
                return f"{path} has {len(v)} items, want at most {sprint(hi)}"
            if "items" in sch:
                items = sch["items"]
                if not isinstance(items, dict):
                    return f"{path}.items is not a schema"
                children.extend((item, items, f"{path}[{i}]") for i, item in enumerate(v))
        elif isinstance(v, str):
            n = len(v.encode("utf-8", "surrogatepass"))
            lo, hi = _num(sch, "minLength"), _num(sch, "maxLength")
            if lo is not None and n < lo:
                return f"{path} length {n} below minLength {sprint(lo)}"
            if hi is not None and n > hi:
                return f"{path} length {n} above maxLength {sprint(hi)}"
            pattern = sch.get("pattern")
            if isinstance(pattern, str):
                try:
                    rx = regex.compile(pattern, regex.V0)
                except regex.error as exc:
                    return f"{path} has invalid pattern {quote(pattern)}: {exc}"
                if rx.search(v, timeout=1.0) is None:
                    return f"{path} does not match pattern {quote(pattern)}"
        elif _is_number(v):
            lo, hi = _num(sch, "minimum"), _num(sch, "maximum")
            if lo is not None and v < lo:
                return f"{path} {sprint(float(v))} below minimum {sprint(lo)}"
            if hi is not None and v > hi:
                return f"{path} {sprint(float(v))} above maximum {sprint(hi)}"
        stack.extend(reversed(children))
    return ""


def _json_schema(g: Grader, s: Subject) -> Grade:
    import json

    try:
        value = json.loads(_text(s.output), parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        return Grade(False, f"output is not JSON: {exc}")
    schema = _opt(g, "schema")
    if not isinstance(schema, dict):
        schema = g.reference if isinstance(g.reference, dict) else None
    if schema is None and isinstance(g.reference, str):
        try:
            parsed = json.loads(g.reference)
        except ValueError:
            parsed = None
        schema = parsed if isinstance(parsed, dict) else None
    if schema is None:
        return Grade(False, "json_schema requires options.schema or reference schema")
    try:
        problem = _schema_errors(value, schema)
    except TimeoutError:
        problem = "$ pattern search timed out"
    if problem:
        return Grade(False, problem)
    return Grade(True, "output satisfies the schema")


def _reject_constant(name: str):
    raise ValueError(f"invalid JSON constant {name}")


# ---------------------------------------------------------------------------------------------
# tool_sequence


def split_tool_names(text: str) -> list[str]:
    """Break on ``,``, newline, TAB, ``>`` or ``|``; trim ``-`` then white space; drop empties."""
    import re

    out = []
    for piece in re.split(r"[,\n\t>|]", text):
        piece = trim_space(piece.strip("-"))
        if piece:
            out.append(piece)
    return out


def _names_from_json(value) -> list[str]:
    """Tool names from a decoded JSON value (iterative, so deep input cannot overflow)."""
    names: list[str] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            for key in ("tool_calls", "calls", "steps", "tools"):
                if key in v:
                    stack.append(v[key])
                    break
            else:
                for key in ("name", "tool", "tool_name"):
                    n = v.get(key)
                    if isinstance(n, str) and trim_space(n):
                        names.append(trim_space(n))
                        break
                else:
                    fn = v.get("function")
                    if isinstance(fn, dict) and isinstance(fn.get("name"), str) and trim_space(fn["name"]):
                        names.append(trim_space(fn["name"]))
        elif isinstance(v, str):
            names.extend(split_tool_names(v))
    return names


def extract_tool_names(output: bytes) -> list[str]:
    import json

    text = _text(output)
    names: list[str] = []
    try:
        names = _names_from_json(json.loads(text, parse_constant=_reject_constant))
    except (ValueError, RecursionError):
        names = []
    return names or split_tool_names(text)


def _tool_sequence(g: Grader, s: Subject) -> Grade:
    want = string_list_of(_opt(g, "tools")) or string_list_of(_opt(g, "sequence"))
    if not want:
        ref = g.reference
        want = split_tool_names(ref) if isinstance(ref, str) else string_list_of(ref)
    if not want:
        return Grade(False, "tool_sequence requires a non-empty tools sequence")
    got = extract_tool_names(s.output)
    if got == want:
        return Grade(True, f"tool sequence {string_list(got)}")
    return Grade(False, f"tool sequence {string_list(got)} != expected {string_list(want)}")


_GRADERS = {
    "exact_match": _exact_match,
    "ratio_threshold": _ratio_threshold,
    "valid_json": _valid_json,
    "json_or_toon_round_trip": _json_or_toon_round_trip,
    "json_schema": _json_schema,
    "tool_sequence": _tool_sequence,
    "contains": _contains_grader,
    "not_contains": _not_contains,
    "byte_identical": _byte_identical,
    "compressed": _compressed,
    "toon_round_trip": _toon_round_trip,
    "recall_keys": _recall_keys,
}

GRADER_TYPES = tuple(_GRADERS)

__all__ = ["GRADER_TYPES", "Grade", "Subject", "extract_tool_names", "grade", "split_tool_names", "string_list_of"]
