"""JSON on the hot paths (memory export/import lines, MCP and hook payloads): orjson when it
gives the same answer, the stdlib whenever it might not.

orjson (imported on first use, so start-up pays nothing) parses several times faster than
``json``, but refuses some inputs the stdlib accepts - lone-surrogate escapes, integers beyond
64 bits, ``NaN``/``Infinity``, numbers beyond float range - and it reads an integer beyond 64
bits as a float, so input holding a run of 19+ digits goes to the stdlib unasked. Every refusal
falls back to the stdlib, so :func:`loads` returns exactly what ``json.loads`` would, error
messages included. :func:`dumps_compact` writes ``json.dumps(..., ensure_ascii=False,
separators=(",", ":"))`` text; the one difference is the spelling of some floats (orjson
``0.00001``, stdlib ``1e-05``) - the same value - and non-finite floats, which orjson writes as
``null`` (the stdlib's ``Infinity`` is not JSON): pass it only values whose floats are finite. Where verbatim number literals matter (the JSON compressor),
callers keep their own parser.

Where it is used was chosen by ``scripts/bench_engine.py`` (section "JSON: stdlib vs orjson"):
memory export lines (``dumps_compact``, ~7x the stdlib). Parsing stays on the stdlib for now -
import lines, hook payloads, transcript lines and MCP messages all parse *slower* through
:func:`loads` (0.3-0.7x: the 19-digit guard costs more than orjson saves on short texts), and
importing orjson costs a fresh process ~15 ms (hooks and the MCP ``initialize`` reply are
start-up bound). :func:`loads` stays, exact and tested, for large single documents.
"""

from __future__ import annotations

import json
import re

_LONG_DIGITS = re.compile(r"[0-9]{19}")
_LONG_DIGITS_B = re.compile(rb"[0-9]{19}")
_orjson = None  # the module, False when it is not installed, None before the first call


def _lib():
    global _orjson
    if _orjson is None:
        try:
            import orjson
        except ImportError:  # pragma: no cover - orjson is a base dependency
            _orjson = False
        else:
            _orjson = orjson
    return _orjson


def loads(data: bytes | str, **stdlib_kwargs):
    """``json.loads(data, **stdlib_kwargs)``, through orjson when it accepts the input.

    ``stdlib_kwargs`` (e.g. ``parse_int``) are used only on the fallback, so pass only hooks
    whose result equals plain parsing for everything orjson accepts (ints within 64 bits)."""
    lib = _lib()
    if lib and not (_LONG_DIGITS_B if isinstance(data, (bytes, bytearray)) else _LONG_DIGITS).search(data):
        try:
            return lib.loads(data)
        except lib.JSONDecodeError:
            pass
    return json.loads(data, **stdlib_kwargs)


def dumps_compact(obj, *, sort_keys: bool = False) -> str:
    """Compact JSON text, non-ASCII kept as is (lone surrogates and big ints: the stdlib)."""
    lib = _lib()
    if lib:
        try:
            return lib.dumps(obj, option=lib.OPT_SORT_KEYS if sort_keys else 0).decode("utf-8")
        except (TypeError, lib.JSONEncodeError):
            pass
    return json.dumps(obj, ensure_ascii=False, sort_keys=sort_keys, separators=(",", ":"))
