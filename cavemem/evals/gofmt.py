"""Go ``fmt`` renderings the eval report's failure strings are made of.

The reference harness writes grader reasons with ``%q`` (``strconv.Quote``) and ``%v``; tools that
match those strings need the same bytes, so both are reproduced here once.
"""

from __future__ import annotations

import math
import unicodedata

_SHORT_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    '"': '\\"',
}


def _printable(c: str) -> bool:
    """unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space."""
    if c == " ":
        return True
    return unicodedata.category(c)[0] in "LMNPS"


def quote(s: str | bytes) -> str:
    """strconv.Quote (Go ``%q``). Bytes that are not valid UTF-8 become ``\\xHH``."""
    if isinstance(s, bytes):
        s = s.decode("utf-8", "surrogateescape")
    out = ['"']
    for c in s:
        esc = _SHORT_ESCAPES.get(c)
        if esc is not None:
            out.append(esc)
            continue
        cp = ord(c)
        if 0xDC80 <= cp <= 0xDCFF:  # an invalid byte kept by surrogateescape
            out.append(f"\\x{cp - 0xDC00:02x}")
        elif 0xD800 <= cp <= 0xDFFF:
            out.append("\\ufffd")
        elif _printable(c):
            out.append(c)
        elif cp < 0x80:
            out.append(f"\\x{cp:02x}")
        elif cp < 0x10000:
            out.append(f"\\u{cp:04x}")
        else:
            out.append(f"\\U{cp:08x}")
    out.append('"')
    return "".join(out)


def format_g(x: float) -> str:
    """``%v`` of a float64: strconv.FormatFloat(x, 'g', -1, 64) — shortest round-trip digits, in
    exponent form when the decimal exponent is < -4 or >= 6 (``1e+06``, ``1e-05``, ``123456``)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "+Inf" if x > 0 else "-Inf"
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    from decimal import Decimal

    sign = "-" if x < 0 else ""
    tup = Decimal(repr(abs(x))).normalize().as_tuple()
    digits = "".join(str(d) for d in tup.digits)
    nd = len(digits)
    dp = nd + tup.exponent  # position of the decimal point relative to the digit string
    exp = dp - 1
    if exp < -4 or exp >= 6:
        mant = digits[0] + ("." + digits[1:] if nd > 1 else "")
        esign = "-" if exp < 0 else "+"
        return f"{sign}{mant}e{esign}{abs(exp):02d}"
    if dp <= 0:
        return f"{sign}0.{'0' * -dp}{digits}"
    if dp >= nd:
        return f"{sign}{digits}{'0' * (dp - nd)}"
    return f"{sign}{digits[:dp]}.{digits[dp:]}"


def sprint(v) -> str:
    """fmt.Sprint / ``%v`` of a decoded YAML or JSON value (G10)."""
    if v is None:
        return "<nil>"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return v
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return format_g(v)
    if isinstance(v, (list, tuple)):
        return "[" + " ".join(sprint(x) for x in v) + "]"
    if isinstance(v, dict):
        items = sorted(v.items(), key=lambda kv: _map_key_order(kv[0]))
        return "map[" + " ".join(f"{sprint(k)}:{sprint(val)}" for k, val in items) + "]"
    return str(v)


def _map_key_order(k):
    """fmt prints map keys sorted; keys of one Go map share a type, ours may not — order by
    (type rank, value) so mixed keys still sort deterministically."""
    if isinstance(k, bool):
        return (0, int(k), "")
    if isinstance(k, (int, float)):
        return (1, k, "")
    return (2, 0, str(k))


def string_list(v) -> str:
    """``%v`` of a []string: ``[a b c]``."""
    return "[" + " ".join(v) + "]"
