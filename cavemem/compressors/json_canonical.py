"""Go-canonical JSON at C speed for the json compressor (spec engine-compressors G13, G14).

The elision decisions depend on the *exact* bytes Go's ``json.Marshal`` gives for each array
element (their length feeds anomaly detection; their text feeds the error regex, BM25 and the
redundancy gate). A pure-Python marshaller is far too slow for a 10 MB array, so this codec
drives the stdlib C encoder and fixes its output up with plain ``str.replace`` calls:

- numbers are decoded as :class:`JSONNumber`, a ``str`` whose value is the literal wrapped in
  two sentinel control characters; the C encoder writes them as ``"\\u0001 7.50 \\u0002"``
  (without the spaces) and the quote-plus-escape pairs are then deleted, leaving the literal
  verbatim (UseNumber, G9);
- ``<`` ``>`` ``&`` U+2028 U+2029 get Go's escapes (they can only occur inside strings), and
  unpaired surrogates become U+FFFD; the HTML escapes are kept for the canonical element docs
  (their lengths and text drive selection) and dropped from model-visible output
  (``marshal(..., html_escape=False)``);
- an array's elements are dumped in *one* encoder call with a sentinel string between them and
  split afterwards.

The sentinels are control characters: JSON strings cannot hold them raw, so they can only
come from ``\\u00XX`` escapes in the input, and the codec picks three that the input does not
escape (an input escaping all 27 candidates is refused: pass-through). Being escaped to
ASCII, they also keep the dump in Python's compact one-byte string form.
"""

from __future__ import annotations

import json
import re

from ..gocompat import go_text

# control characters the encoder writes as \u00XX (\b \t \n \f \r have short escapes)
_CANDIDATES = [chr(c) for c in range(1, 0x20) if chr(c) not in "\b\t\n\f\r"]
_CONTROL_ESCAPE = re.compile(r"\\u00[01][0-9a-fA-F]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_JSON_SPACE = " \t\n\r"


class JSONNumber(str):
    """A JSON number: ``str(n)`` is the sentinel-wrapped literal, ``n.literal`` the literal."""

    __slots__ = ()

    @property
    def literal(self) -> str:
        return self[1:-1]

    @staticmethod
    def literals(numbers: list[JSONNumber]) -> list[str]:
        """``[n.literal for n in numbers]`` in a few C-speed passes.

        The numbers of one document share their two sentinels and no literal holds a control
        character, so deleting the opening sentinel and splitting at the closing one gives the
        literals; counting both sentinels first confirms that shape (else one slice each)."""
        if not numbers:
            return []
        open_s, close_s = numbers[0][0], numbers[0][-1]
        joined = "".join(numbers)
        if open_s != close_s and joined.count(open_s) == len(numbers) == joined.count(close_s):
            parts = joined.translate({ord(open_s): None}).split(close_s)
            if len(parts) == len(numbers) + 1:
                parts.pop()  # the empty piece after the last closing sentinel
                return parts
        return [n[1:-1] for n in numbers]

    @staticmethod
    def floats(numbers: list[JSONNumber]) -> list[float]:
        """``[float(n.literal) for n in numbers]``; integer literals (the usual ids and counts)
        convert through ``int``, which is twice as fast and rounds the same way."""
        lits = JSONNumber.literals(numbers)
        joined = "".join(lits)
        if "." in joined or "e" in joined or "E" in joined or "-0" in lits or max(map(len, lits), default=0) > 300:
            return list(map(float, lits))  # fractions, exponents, -0 (int loses the sign), huge
        return list(map(float, map(int, lits)))


class Codec:
    """Decode one document and produce Go-canonical text for values of it."""

    def __init__(self, open_s: str, close_s: str, sep: str, fix_surrogates: bool):
        self._open_quoted = '"' + _escaped(open_s)  # how the encoder writes '"' + open_s
        self._close_quoted = _escaped(close_s) + '"'
        # The open pattern cannot occur by accident (a literal backslash is written doubled, and
        # raw control characters only come from escapes the codec avoided). The close pattern
        # can: a string whose *text* ends in backslash-u-0-0-0-2 dumps as ``\\u0002"``. Then the
        # anchored regex removes only real pairs.
        self._number_rx = re.compile(re.escape(self._open_quoted) + '([^"]*)' + re.escape(self._close_quoted))
        self._fix_surrogates = fix_surrogates
        make = JSONNumber

        def number(lit: str) -> JSONNumber:
            return make(open_s + lit + close_s)

        self._decoder = json.JSONDecoder(parse_int=number, parse_float=number, parse_constant=_reject_constant)
        self._encoder = json.JSONEncoder(ensure_ascii=False, check_circular=False, sort_keys=True, separators=(",", ":"))
        self._sep = sep
        self._split = ',"' + _escaped(sep) + '",'

    @classmethod
    def for_text(cls, text: str) -> Codec | None:
        """A codec whose sentinels the input never escapes; None if it cannot find three."""
        used = {int(m.group(0)[2:], 16) for m in _CONTROL_ESCAPE.finditer(text)} if "\\u00" in text else set()
        free = [c for c in _CANDIDATES if ord(c) not in used]
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
    def _fix(self, s: str, html_escape: bool = True) -> str:
        if "\\" + self._close_quoted in s:
            s = self._number_rx.sub(r"\1", s)
        else:
            s = s.replace(self._open_quoted, "").replace(self._close_quoted, "")
        if html_escape:
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

    def marshal(self, value, html_escape: bool = True) -> str:
        """``json.Marshal(value)``: compact, keys sorted, numbers verbatim, HTML-safe.

        ``html_escape=False`` writes ``<`` ``>`` ``&`` literally: the form for text a model
        reads, where ``\\u003c`` only hides what it stands for (``markdown-it-py (>=2.2.0)``)."""
        return self._fix(self._encoder.encode(value), html_escape)

    def element_docs(self, items: list) -> list[str]:
        """``[marshal(x) for x in items]`` in one encoder pass."""
        if len(items) < 2:
            return [self.marshal(x) for x in items]
        interleaved: list = [self._sep] * (2 * len(items) - 1)
        interleaved[0::2] = items
        return self._fix(self._encoder.encode(interleaved))[1:-1].split(self._split)


def _escaped(c: str) -> str:
    return "\\u%04x" % ord(c)


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
