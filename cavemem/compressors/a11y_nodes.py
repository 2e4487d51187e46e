"""Decode a CDP ``Accessibility.getFullAXTree`` payload the way Go's ``encoding/json`` fills the
reference's structs (spec engine-compressors §3.13 step 1, G17).

Why not plain ``json.loads``: the reference accepts ``NodeId`` for ``nodeId`` (case-insensitive
field match when there is no exact one), ignores unknown fields, lets a later duplicate key
win, and refuses the *whole* payload on any type mismatch (``nodeId`` as a number, ``role`` as
a string, ``backendDOMNodeId`` as ``4.0``). Free-form ``value`` fields hold any JSON, with
numbers as float64. Matching those rules keeps "which trees compress" identical.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..gocompat import go_text, parse_float, trim_space


class AXDecodeError(ValueError):
    pass


@dataclass
class AXValue:
    type: str = ""
    value: object = None


@dataclass
class AXProperty:
    name: str = ""
    value: AXValue = field(default_factory=AXValue)


@dataclass
class AXNode:
    nodeId: str = ""
    parentId: str = ""
    ignored: bool = False
    role: AXValue | None = None
    name: AXValue | None = None
    value: AXValue | None = None
    properties: list = field(default_factory=list)
    childIds: list = field(default_factory=list)
    backendDOMNodeId: int = 0
    backendDOMNodeID: int = 0
    frameId: str = ""
    frameID: str = ""


# field name -> kind, in struct declaration order (the order decides case-insensitive ties)
_VALUE_FIELDS = {"type": "str", "value": "any"}
_PROPERTY_FIELDS = {"name": "str", "value": ("struct", AXValue, _VALUE_FIELDS)}
_NODE_FIELDS = {
    "nodeId": "str",
    "parentId": "str",
    "ignored": "bool",
    "role": ("ptr", AXValue, _VALUE_FIELDS),
    "name": ("ptr", AXValue, _VALUE_FIELDS),
    "value": ("ptr", AXValue, _VALUE_FIELDS),
    "properties": ("list", ("struct", AXProperty, _PROPERTY_FIELDS)),
    "childIds": ("list", "str"),
    "backendDOMNodeId": "int",
    "backendDOMNodeID": "int",
    "frameId": "str",
    "frameID": "str",
}
@dataclass
class _Envelope:
    nodes: list | None = None


_ENVELOPE_FIELDS = {"nodes": ("list", ("ptr", AXNode, _NODE_FIELDS))}

_INT64 = (-(1 << 63), (1 << 63) - 1)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class _Pairs(list):
    """A JSON object that repeats a key, as its (key, value) pairs in input order (Go decodes
    every occurrence in turn, so a repeated struct field merges)."""


class _Float(str):
    """A JSON number with a fraction or exponent, kept as text: ``4.0`` must not fill an int."""


def _object(pairs: list):
    d = dict(pairs)
    return d if len(d) == len(pairs) else _Pairs(pairs)


def _object_fixing_keys(pairs: list):
    return _object([(_string_fix(k), x) for k, x in pairs])


def _string_fix(s: str) -> str:
    """Go's decoder turns unpaired surrogate escapes into U+FFFD."""
    if s.isascii() or not _LONE_SURROGATE.search(s):
        return s
    return _LONE_SURROGATE.sub("\ufffd", s)


def _match_field(fields: dict, key: str):
    if key in fields:
        return key
    folded = key.casefold()
    for name in fields:  # first declared wins, as in Go
        if name.casefold() == folded:
            return name
    return None


def _fail(what: str, got) -> AXDecodeError:
    kind = {bool: "bool", str: "string", list: "array", _Pairs: "object", dict: "object"}.get(type(got), "number")
    return AXDecodeError(f"cannot unmarshal {kind} into {what}")


def _as_any(v):
    """Go's ``any``: objects → dict (last key wins), numbers → float64 (out of range fails)."""
    t = type(v)
    if t is str:
        return _string_fix(v)
    if t is int:
        if abs(v) >= 1 << 1024:  # far beyond float64: ParseFloat's range error
            raise AXDecodeError("number out of range")
        return float(v)
    if t is _Float:
        f = parse_float(v)
        if f is None:
            raise AXDecodeError(f"number {v} out of range")
        return f
    if t is dict or t is _Pairs:
        return {k: _as_any(x) for k, x in (v.items() if t is dict else v)}
    if t is list:
        return [_as_any(x) for x in v]
    return v  # None, bool


def _scalar(kind: str, v):
    if kind == "str":
        if type(v) is not str:
            raise _fail("string", v)
        return _string_fix(v)
    if kind == "bool":
        if type(v) is not bool:
            raise _fail("bool", v)
        return v
    if kind == "int":
        if type(v) is not int or not _INT64[0] <= v <= _INT64[1]:
            raise _fail("int", v)
        return v
    return _as_any(v)


def _decode(kind, v, current=None):
    """Fill ``kind`` from a parsed JSON value the way encoding/json does; ``current`` is the
    value already in the field (Go decodes into it, so repeated keys merge)."""
    if v is None:  # null leaves the zero / current value alone
        return current
    if type(kind) is str:
        return _scalar(kind, v)
    if kind[0] == "list":
        if type(v) is not list:
            raise _fail("slice", v)
        elem = kind[1]
        if elem == "str":
            return [_scalar("str", x) if x is not None else "" for x in v]
        return [_decode(elem, x, _zero(elem)) for x in v]
    _, cls, fields = kind  # struct or pointer to struct
    t = type(v)
    if t is not dict and t is not _Pairs:
        raise _fail(cls.__name__, v)
    obj = current if current is not None else cls()
    for key, x in v.items() if t is dict else v:
        name = key if key in fields else _match_field(fields, key)
        if name is None or x is None:
            continue
        sub = fields[name]
        setattr(obj, name, _scalar(sub, x) if type(sub) is str else _decode(sub, x, getattr(obj, name)))
    return obj


def _zero(kind):
    if isinstance(kind, tuple) and kind[0] == "struct":
        return kind[1]()
    return None


def _no_constant(name: str):
    raise ValueError(f"invalid JSON constant {name}")


def parse_nodes(data: bytes) -> list[AXNode]:
    """The node list: a top-level array (≥ 1 node), else ``{"nodes": […]}`` (≥ 1 node)."""
    import json

    text = go_text(data)
    if not trim_space(text):
        raise AXDecodeError("empty input")
    # escapes may hide unpaired surrogates, which Go reads as U+FFFD
    hook = _object_fixing_keys if "\\u" in text else _object
    try:
        doc = json.loads(text, object_pairs_hook=hook, parse_float=_Float, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise AXDecodeError(str(exc)) from None
    try:
        return _node_list(doc)
    except RecursionError:
        raise AXDecodeError("nested too deeply") from None


def _node_list(doc) -> list[AXNode]:
    try:
        nodes = _decode(("list", ("ptr", AXNode, _NODE_FIELDS)), doc, None)
    except AXDecodeError:
        nodes = None
    if not nodes:
        if type(doc) is list:  # an array that is not a node list is not an envelope either
            raise AXDecodeError("no accessibility nodes")
        env = _decode(("ptr", _Envelope, _ENVELOPE_FIELDS), doc, None)
        nodes = env.nodes if env is not None else None
        if not nodes:
            raise AXDecodeError("no accessibility nodes")
    return [n if n is not None else AXNode() for n in nodes]
