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

from ..gocompat import go_text, json_valid, parse_float, trim_space


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

_INT = re.compile(r"-?[0-9]+")
_INT64 = (-(1 << 63), (1 << 63) - 1)


class _Pairs(list):
    """A JSON object as its (key, value) pairs in input order."""


class _Literal(str):
    """A JSON number's literal text (typed decoding needs the text: 4 vs 4.0)."""


def _match_field(fields: dict, key: str):
    if key in fields:
        return key
    folded = key.casefold()
    for name in fields:  # first declared wins, as in Go
        if name.casefold() == folded:
            return name
    return None


def _fail(what: str, got) -> AXDecodeError:
    kind = {bool: "bool", str: "string", list: "array", _Pairs: "object"}.get(type(got), "number")
    return AXDecodeError(f"cannot unmarshal {kind} into {what}")


def _as_any(v):
    """Go's ``any``: objects → dict (last key wins), numbers → float64 (out of range fails)."""
    if isinstance(v, _Literal):
        f = parse_float(v)
        if f is None:
            raise AXDecodeError(f"number {v} out of range")
        return f
    if isinstance(v, _Pairs):
        return {k: _as_any(x) for k, x in v}
    if isinstance(v, list):
        return [_as_any(x) for x in v]
    if isinstance(v, str):
        return _string_fix(v)
    return v


def _decode(kind, v, current=None):
    if v is None:  # null leaves the Go zero value / current value alone
        return current
    if kind == "any":
        return _as_any(v)
    if kind == "str":
        if type(v) is not str:
            raise _fail("string", v)
        return _string_fix(v)
    if kind == "bool":
        if type(v) is not bool:
            raise _fail("bool", v)
        return v
    if kind == "int":
        if not isinstance(v, _Literal) or not _INT.fullmatch(v) or not _INT64[0] <= int(v) <= _INT64[1]:
            raise _fail("int", v)
        return int(v)
    tag = kind[0]
    if tag == "list":
        if type(v) is not list:
            raise _fail("slice", v)
        return [_decode(kind[1], x, _zero(kind[1])) for x in v]
    # struct or pointer to struct
    _, cls, fields = kind
    if not isinstance(v, _Pairs):
        raise _fail(cls.__name__, v)
    obj = current if current is not None else cls()
    for key, x in v:
        name = _match_field(fields, key)
        if name is not None:
            setattr(obj, name, _decode(fields[name], x, getattr(obj, name)))
    return obj


def _zero(kind):
    if kind == "str":
        return ""
    if isinstance(kind, tuple) and kind[0] == "struct":
        return kind[1]()
    return None


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _string_fix(s: str) -> str:
    """Go's decoder turns unpaired surrogate escapes into U+FFFD."""
    return _LONE_SURROGATE.sub("\ufffd", s)


def parse_nodes(data: bytes) -> list[AXNode]:
    """The node list: a top-level array (≥ 1 node), else ``{"nodes": […]}`` (≥ 1 node)."""
    import json

    if not trim_space(go_text(data)) or not json_valid(data):
        raise AXDecodeError("not JSON")
    try:
        doc = json.loads(
            go_text(data),
            object_pairs_hook=lambda pairs: _Pairs((_string_fix(k), x) for k, x in pairs),
            parse_int=_Literal,
            parse_float=_Literal,
        )
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
