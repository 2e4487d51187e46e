"""TOON encode/decode with a runtime round-trip proof (spec engine-compressors §4, engine-core §1.11).

The one entry point for every caller (compressor, best-of strategy, both CLIs, eval graders):

- :func:`encode_json` parses strict JSON (:mod:`.jsonvalue`), encodes it in the caveman dialect
  (:mod:`.dialect`) and returns the TOON text **only after proving it**: the dialect decoder
  must give back the same value (numbers by literal text), and python-toon — an independent,
  spec-conformant TOON reader — must read the same structure, strings and numbers
  (:func:`.standard.agrees_with_dialect`). Anything else raises :class:`NotEncodable` and the
  caller keeps its JSON.
- :func:`decode_json` decodes dialect TOON to compact, key-sorted, HTML-escaped JSON (Go's
  ``json.Marshal``), numbers verbatim; failures raise :class:`InvalidToon`.

No store, no token counting, no size gate: callers decide whether the result is worth using.
"""

from __future__ import annotations

from ..gocompat import go_text, marshal
from . import dialect
from .jsonvalue import JSONValueError, parse_json, same_value

ENCODE_ERROR = "not losslessly TOON-encodable (invalid JSON, or nested/non-uniform shape); keep JSON"
DECODE_ERROR = "not valid TOON"

# python-toon (the independent checker) recurses twice per nesting level; values nested deeper
# than this are refused up front so the outcome never depends on the caller's stack depth.
MAX_PROVEN_DEPTH = 256

# JSON above this size is refused: TOON exists to put data in a model's context (8 MiB is
# millions of tokens), and parse + encode + proof must stay within a few seconds.
MAX_ENCODE_BYTES = 8 << 20

# python-toon's pure-Python reader costs ~1 s per MB, so the independent cross-check runs on
# outputs up to this many characters; larger outputs rely on the exact dialect-decoder proof alone.
CROSS_CHECK_MAX_CHARS = 1 << 20


class ToonError(ValueError):
    """Base of the codec's errors; ``reason`` says what exactly went wrong."""

    message = ""

    def __init__(self, reason: str):
        super().__init__(f"{self.message}: {reason}" if reason else self.message)
        self.reason = reason


class NotEncodable(ToonError):
    message = ENCODE_ERROR


class InvalidToon(ToonError):
    message = DECODE_ERROR


def nesting_depth(value) -> int:
    """Containers on the deepest path (a scalar is 0). Iterative."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            children = v.values()
        elif isinstance(v, list):
            children = v
        else:
            continue
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in children if isinstance(c, (dict, list)))
    return deepest


def _has_lone_surrogate(value) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def prove_round_trip(value, text: str) -> None:
    """Raise :class:`NotEncodable` unless ``text`` provably decodes back to ``value``."""
    from . import standard

    try:
        back = dialect.decode(text)
    except dialect.DecodeError as exc:
        raise NotEncodable(f"round-trip proof failed, the output does not decode ({exc})") from None
    if not same_value(value, back):
        raise NotEncodable("round-trip proof failed, the output decodes to a different value")
    if len(text) <= CROSS_CHECK_MAX_CHARS and not standard.agrees_with_dialect(value, text):
        raise NotEncodable("round-trip proof failed, python-toon reads the output differently")


def encode_value(value) -> str:
    """Caveman-dialect TOON for a JSON-model value, proven to round-trip."""
    if nesting_depth(value) > MAX_PROVEN_DEPTH:
        raise NotEncodable(f"nested deeper than {MAX_PROVEN_DEPTH} levels")
    if _has_lone_surrogate(value):
        # UTF-8 output would carry U+FFFD instead: not the same value, so not lossless (issue 15 item 12)
        raise NotEncodable("a string holds a lone surrogate (a \\ud800-style escape) that UTF-8 TOON cannot carry")
    try:
        text = dialect.encode(value)
    except dialect.EncodeError as exc:
        raise NotEncodable(str(exc)) from None
    prove_round_trip(value, text)
    return text


def _check_size(data: bytes | str) -> None:
    if len(data) > MAX_ENCODE_BYTES:
        raise NotEncodable(f"input is larger than {MAX_ENCODE_BYTES >> 20} MiB")


def encode_json(data: bytes | str) -> str:
    """JSON bytes → proven caveman TOON text; raises :class:`NotEncodable`."""
    _check_size(data)
    try:
        value = parse_json(data)
    except JSONValueError as exc:
        raise NotEncodable(str(exc)) from None
    _check_exact_text(data)
    return encode_value(value)


def _check_exact_text(data: bytes | str) -> None:
    """The value model turns invalid UTF-8 and lone surrogate escapes into U+FFFD (as Go does);
    TOON text made from that is not the caller's value, so it is refused instead of being
    called lossless (issue 15 item 12). The JSON is then kept as it is."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise NotEncodable("input is not valid UTF-8") from None
    else:
        text = data
    if "\\u" not in text.replace("\\\\", "") and not _has_lone_surrogate(text):
        return
    import json

    try:
        plain = json.loads(text)
    except (ValueError, RecursionError):
        return  # parse_json reports it
    if _has_lone_surrogate(plain):
        raise NotEncodable("a string holds a lone surrogate (a \\ud800-style escape) that UTF-8 TOON cannot carry")


def _text(data: bytes | str) -> str:
    return data if isinstance(data, str) else go_text(bytes(data))


def decode_value(data: bytes | str):
    """Dialect TOON → JSON-model value; raises :class:`InvalidToon`."""
    try:
        return dialect.decode(_text(data))
    except dialect.DecodeError as exc:
        raise InvalidToon(str(exc)) from None


def decode_json(data: bytes | str) -> bytes:
    """Dialect TOON → compact JSON bytes (sorted keys, verbatim numbers, Go escaping)."""
    return marshal(decode_value(data)).encode("utf-8")


def round_trips(json_data: bytes | str, toon_text: bytes | str) -> bool:
    """The ``toon_round_trip`` grader: does ``toon_text`` decode to the JSON value of
    ``json_data`` (strict parse, numbers by literal text)?"""
    try:
        return same_value(parse_json(json_data), decode_value(toon_text))
    except (JSONValueError, InvalidToon):
        return False


# -- standard TOON v4 (python-toon) for callers that want it explicitly ----------------------


def encode_json_standard(data: bytes | str, *, delimiter: str = ",", indent: int = 2) -> str:
    """JSON bytes → standard TOON v4 (input key order, canonical numbers), proven by
    python-toon decoding it back to the same value; raises :class:`NotEncodable`."""
    from . import standard

    _check_size(data)
    try:
        value = parse_json(data)
    except JSONValueError as exc:
        raise NotEncodable(str(exc)) from None
    _check_exact_text(data)
    if nesting_depth(value) > MAX_PROVEN_DEPTH:
        raise NotEncodable(f"nested deeper than {MAX_PROVEN_DEPTH} levels")
    try:
        return standard.encode(value, delimiter=delimiter, indent=indent)
    except standard.StandardError as exc:
        raise NotEncodable(str(exc)) from None


def decode_json_standard(data: bytes | str, *, strict: bool = True, indent: int = 2) -> bytes:
    """Standard TOON v4 → compact key-sorted JSON bytes; raises :class:`InvalidToon`."""
    from . import standard

    text = _text(data)
    if not text.strip():
        raise InvalidToon("empty document")
    try:
        value = standard.decode(text, strict=strict, indent=indent)
    except standard.StandardError as exc:
        raise InvalidToon(str(exc)) from None
    try:
        return marshal(value).encode("utf-8")
    except ValueError:  # a number beyond float range decoded to inf
        raise InvalidToon("a number is outside the range JSON tools can read") from None
