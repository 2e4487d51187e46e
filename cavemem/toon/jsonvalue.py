"""The JSON value model TOON works on (spec engine-compressors §4.1, §4.4).

TOON is only lossless if "the same JSON value" is defined strictly, so this module owns that
definition for the whole package:

- objects keep their **input key order** (the tabular header is taken from the first row's
  order) and a **duplicate key at any depth is an error** — a decoder could not say which one
  was meant;
- numbers stay :class:`~cavemem.gocompat.Number` literals (``7.50`` is not ``7.5``, big
  integers keep every digit);
- strings follow Go's decoder: invalid UTF-8 and lone surrogate escapes become U+FFFD;
- after the root value only whitespace may follow (stricter than ``json.Decoder.More``).

:func:`same_value` is the equality of the round-trip proof: numbers by literal text, strings
exactly, objects as unordered maps, arrays in order, ``true`` never equal to ``1``.
"""

from __future__ import annotations

import re

from ..gocompat import Number, go_text


class JSONValueError(ValueError):
    """The input is not one strict JSON value (syntax, duplicate key, too deep, trailing data)."""


_SURROGATE_HINT = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def go_string(s: str) -> str:
    """Go's decoder turns every unpaired surrogate into U+FFFD (paired ones are already joined)."""
    return _LONE_SURROGATE.sub("\ufffd", s) if _LONE_SURROGATE.search(s) else s


class _DuplicateKey(ValueError):
    pass


def _unique_object(pairs: list) -> dict:
    obj: dict = {}
    for key, value in pairs:
        key = go_string(key)
        if key in obj:
            raise _DuplicateKey(key)
        obj[key] = value
    return obj


def _reject_constant(name: str):
    raise ValueError(f"invalid JSON constant {name}")


def parse_json(data: bytes | str):
    """Parse exactly one JSON value into the strict model; raises :class:`JSONValueError`."""
    import json

    text = data if isinstance(data, str) else go_text(bytes(data))
    try:
        value = json.loads(
            text,
            object_pairs_hook=_unique_object,
            parse_float=Number,
            parse_int=Number,
            parse_constant=_reject_constant,
        )
    except _DuplicateKey as exc:
        raise JSONValueError(f"duplicate key {exc.args[0]!r}") from None
    except RecursionError:
        raise JSONValueError("JSON nested too deeply") from None
    except ValueError as exc:
        raise JSONValueError(f"invalid JSON: {exc}") from None
    if _SURROGATE_HINT.search(text):
        value = map_scalars(value, on_string=go_string)
    return value


def _same(v):
    return v


def map_scalars(value, on_string=_same, on_number=_same):
    """A copy of ``value`` with ``on_string`` applied to every string and object key and
    ``on_number`` to every :class:`Number`. Iterative, so any parsed depth is fine."""
    def leaf(v):
        if isinstance(v, Number):
            return on_number(v)
        return on_string(v) if isinstance(v, str) else v

    if not isinstance(value, (dict, list)):
        return leaf(value)
    root: list = [None]
    stack = [(root, 0, value)]  # (container to fill, slot in it, source container)
    while stack:
        parent, slot, src = stack.pop()
        if isinstance(src, dict):
            pairs = [(on_string(k), v) for k, v in src.items()]
            dst: dict | list = dict.fromkeys(k for k, _ in pairs)  # key order first
        else:
            dst = [None] * len(src)
            pairs = enumerate(src)
        parent[slot] = dst
        for k, v in pairs:
            if isinstance(v, (dict, list)):
                stack.append((dst, k, v))
            else:
                dst[k] = leaf(v)
    return root[0]


def _is_number(v) -> bool:
    return isinstance(v, (Number, int, float)) and not isinstance(v, bool)


def _number_equal(a, b) -> bool:
    if isinstance(a, Number) and isinstance(b, Number):
        return str(a) == str(b)  # literal text: 7.50 != 7.5 (spec §4.4)
    from decimal import Decimal, InvalidOperation

    try:
        return Decimal(str(a)) == Decimal(str(b))
    except InvalidOperation:
        return False


def same_value(a, b) -> bool:
    """The round-trip equality of spec §4.4 (iterative; any depth)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if _is_number(x) or _is_number(y):
            if not (_is_number(x) and _is_number(y) and _number_equal(x, y)):
                return False
        elif isinstance(x, str) or isinstance(y, str):
            if not (isinstance(x, str) and isinstance(y, str) and x == y):
                return False
        elif isinstance(x, dict):
            if not isinstance(y, dict) or len(x) != len(y):
                return False
            for k, v in x.items():
                if k not in y:
                    return False
                stack.append((v, y[k]))
        elif isinstance(x, list):
            if not isinstance(y, list) or len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif x is not y:  # None, True, False
            return False
    return True
