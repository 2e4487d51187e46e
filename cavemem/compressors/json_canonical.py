"""Go-canonical JSON at C speed for the json compressor (spec engine-compressors G13, G14).

The elision decisions depend on the *exact* bytes Go's ``json.Marshal`` gives for each array
element (their length feeds anomaly detection; their text feeds the error regex, BM25 and the
redundancy gate). A pure-Python marshaller is far too slow for a 10 MB array, so this codec
drives the stdlib C encoder and fixes its output up with plain ``str.replace`` calls:

- numbers are decoded as :class:`JSONNumber`, a ``str`` whose value is the literal wrapped in
  two private sentinel characters; the C encoder writes them as ``"<S1>7.50<S2>"`` and the
  quotes-plus-sentinels are then deleted, leaving the literal verbatim (UseNumber, G9);
- ``<`` ``>`` ``&`` U+2028 U+2029 get Go's escapes (they can only occur inside strings), and
  unpaired surrogates become U+FFFD;
- an array's elements are dumped in *one* encoder call with a sentinel string between them and
  split afterwards.

The sentinels are Unicode noncharacters chosen so that none of them occurs in the input (raw
or as a ``\\u`` escape); an input that uses almost all of them is refused (pass-through).
"""

from __future__ import annotations

import json
import re

from ..gocompat import go_text

_CANDIDATES = [chr(c) for c in range(0xFDD0, 0xFDF0)]  # 32 noncharacters
_NONCHAR_ESCAPE = re.compile(r"\\u[fF][dD][dDeE][0-9a-fA-F]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_JSON_SPACE = " \t\n\r"


class JSONNumber(str):
    """A JSON number: ``str(n)`` is the sentinel-wrapped literal, ``n.literal`` the literal."""

    __slots__ = ()

    @property
    def literal(self) -> str:
        return self[1:-1]


class Codec:
    """Decode one document and produce Go-canonical text for values of it."""

    def __init__(self, open_s: str, close_s: str, sep: str, fix_surrogates: bool):
        self._open, self._close, self._sep = open_s, close_s, sep
        self._fix_surrogates = fix_surrogates
        make = JSONNumber

        def number(lit: str) -> JSONNumber:
            return make(open_s + lit + close_s)

        self._decoder = json.JSONDecoder(parse_int=number, parse_float=number, parse_constant=_reject_constant)
        self._encoder = json.JSONEncoder(ensure_ascii=False, check_circular=False, sort_keys=True, separators=(",", ":"))
        self._split = ',"' + sep + '",'

    @classmethod
    def for_text(cls, text: str) -> Codec | None:
        """A codec whose sentinels are absent from ``text``; None if it cannot find three."""
        used = set(m.group(0)[2:].upper() for m in _NONCHAR_ESCAPE.finditer(text))
        free = [c for c in _CANDIDATES if c not in text and f"{ord(c):04X}" not in used]
        if len(free) < 3:
            return None
        return cls(free[0], free[1], free[2], _SURROGATE_ESCAPE.search(text) is not None)

    # -- decoding ----------------------------------------------------------------------------
    def decode(self, text: str):
        """The first JSON value of ``text`` (G13: trailing ``]``/``}`` garbage is tolerated, any
        other trailing content is an error). Raises ValueError."""
        i = 0
        n = len(text)
        while i < n and text[i] in _JSON_SPACE:
            i += 1
        try:
            value, end = self._decoder.raw_decode(text, i)
        except RecursionError as exc:
            raise ValueError("JSON nested too deeply") from exc
        while end < n and text[end] in _JSON_SPACE:
            end += 1
        if end < n and text[end] not in "]}":
            raise ValueError("more than one JSON value")
        if self._fix_surrogates:
            value = _replace_surrogates(value)
        return value

    # -- encoding ----------------------------------------------------------------------------
    def _fix(self, s: str) -> str:
        s = s.replace('"' + self._open, "").replace(self._close + '"', "")
        if "<" in s:
            s = s.replace("<", "\\u003c")
        if ">" in s:
            s = s.replace(">", "\\u003e")
        if "&" in s:
            s = s.replace("&", "\\u0026")
        if "\u2028" in s:
            s = s.replace("\u2028", "\\u2028")
        if "\u2029" in s:
            s = s.replace("\u2029", "\\u2029")
        return s

    def marshal(self, value) -> str:
        """``json.Marshal(value)``: compact, keys sorted, numbers verbatim, HTML-safe."""
        return self._fix(self._encoder.encode(value))

    def element_docs(self, items: list) -> list[str]:
        """``[marshal(x) for x in items]`` in one encoder pass."""
        if len(items) < 2:
            return [self.marshal(x) for x in items]
        interleaved: list = [self._sep] * (2 * len(items) - 1)
        interleaved[0::2] = items
        return self._fix(self._encoder.encode(interleaved))[1:-1].split(self._split)


def _reject_constant(name: str):
    raise ValueError(f"invalid JSON constant {name}")


def _replace_surrogates(value):
    """Go decodes an unpaired ``\\uD800`` escape as U+FFFD: apply that to every string and key."""

    def fix(s):
        if isinstance(s, str) and _SURROGATE.search(s):
            return type(s)(_SURROGATE.sub("\ufffd", s))
        return s

    root = [fix(value)]
    stack = [(root, 0)]
    while stack:
        holder, key = stack.pop()
        v = holder[key]
        if isinstance(v, dict):
            fixed = {fix(k): fix(x) for k, x in v.items()}
            holder[key] = fixed
            stack.extend((fixed, k) for k in fixed)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                v[i] = fix(x)
                stack.append((v, i))
    return root[0]


def decode_document(data: bytes) -> tuple[Codec, object] | None:
    """(codec, value) for the bytes of one JSON document, or None when it is not one (G13;
    invalid UTF-8 becomes U+FFFD, which only strings can hold)."""
    text = go_text(data)
    codec = Codec.for_text(text)
    if codec is None:
        return None
    try:
        return codec, codec.decode(text)
    except ValueError:
        return None
