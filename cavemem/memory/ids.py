"""Memory ids and timestamps.

- An id is ``mem_`` + the first 8 bytes of sha256 in hex (16 digits), so the same text always
  gets the same id and remembering it twice stores it once. A memory that belongs to a project
  hashes ``<project> NUL <text>``, so two projects can each hold the same sentence; a global
  memory (project ``""``) hashes the text alone and therefore has exactly the Go cavemem id
  (``"the deploy key lives in vault under ops/deploy"`` → ``mem_a66a8a47cc0663ca``).
- Timestamps are written the way Go's RFC3339Nano writes them (UTC, trailing zeros of the
  fraction dropped, no fraction when it is zero, ``Z``), which is not what ``isoformat`` gives.
  Because such strings do not sort correctly as text (``…00.5Z`` < ``…00Z``), every stored time
  also has an integer twin in UTC microseconds used for filtering and ordering.
- User-facing dates (``--since``, ``--until``, ``--before``, ``at=``) accept ``YYYY-MM-DD``,
  full RFC 3339 / ISO 8601 date-times, ``now`` and relative ages such as ``36h``, ``7d``, ``2w``.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from ..digest import sha256
from ..errors import CaveError

ID_PREFIX = "mem_"
_ID_RE = re.compile(r"mem_[0-9a-f]{16}")

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})"
    r"(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?"
    r"\s*([Zz]|[+-]\d{2}:?\d{2})?)?"
)
_RELATIVE = re.compile(r"(\d{1,6})\s*(m|min|h|d|w|y)", re.I)
_UNIT_SECONDS = {"m": 60, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400, "y": 365 * 86400}


def memory_id(text: str, project: str = "") -> str:
    """The content-addressed id of ``text`` inside ``project`` (``""`` = global)."""
    data = text.encode("utf-8", "surrogatepass")
    if project:
        data = project.encode("utf-8", "surrogatepass") + b"\x00" + data
    return ID_PREFIX + sha256(data).digest()[:8].hex()


def looks_like_id(value: str) -> bool:
    return bool(_ID_RE.fullmatch(value or ""))


# -- times ------------------------------------------------------------------------------------


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def format_time(dt: datetime) -> str:
    """Go RFC3339Nano in UTC: ``2026-07-04T12:00:00.5Z``, ``2026-07-04T12:00:00Z``."""
    dt = _as_utc(dt)
    frac = f"{dt.microsecond:06d}".rstrip("0")
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + (f".{frac}" if frac else "") + "Z"


def to_micros(dt: datetime) -> int:
    delta = _as_utc(dt) - _EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_micros(us: int) -> datetime:
    return _EPOCH + timedelta(microseconds=us)


def _as_utc(dt: datetime) -> datetime:
    if dt.tzinfo is None:
        return dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc)


def parse_timestamp(text: str) -> tuple[datetime, bool]:
    """Parse an RFC 3339 / ISO 8601 date or date-time. Returns (utc datetime, date_only).

    Naive times are taken as UTC; fractions beyond microseconds are truncated."""
    m = _RFC3339.fullmatch(text.strip())
    if not m:
        raise ValueError(f"not a date or RFC 3339 time: {text!r}")
    y, mo, d, hh, mi, ss, frac, zone = m.groups()
    try:
        dt = datetime(int(y), int(mo), int(d), int(hh or 0), int(mi or 0), int(ss or 0),
                      int((frac or "0").ljust(6, "0")[:6]), tzinfo=timezone.utc)
    except ValueError as exc:
        raise ValueError(f"invalid date {text!r}: {exc}") from None
    if zone and zone not in "Zz":
        sign = 1 if zone[0] == "+" else -1
        digits = zone[1:].replace(":", "")
        dt -= sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
    return dt, hh is None


def stored_time_micros(text: str) -> int:
    """Microseconds of a stored ``created_at`` string (0 when it cannot be parsed)."""
    try:
        return to_micros(parse_timestamp(text)[0])
    except (ValueError, OverflowError):
        return 0


def parse_when(value, *, end_of_day: bool = False, now: datetime | None = None, what: str = "date") -> datetime:
    """A user-supplied point in time (datetime, date string, ``now`` or a relative age).

    ``end_of_day`` makes a bare date mean the end of that day, so ``--until 2026-07-04``
    includes the whole of the 4th."""
    if isinstance(value, datetime):
        return _as_utc(value)
    if not isinstance(value, str) or not value.strip():
        raise CaveError("cave_invalid_arguments", f"{what}: expected a date such as 2026-07-04, 7d or now")
    text = value.strip()
    current = now or utc_now()
    if text.lower() == "now":
        return current
    rel = _RELATIVE.fullmatch(text)
    if rel:
        return current - timedelta(seconds=int(rel.group(1)) * _UNIT_SECONDS[rel.group(2).lower()])
    try:
        dt, date_only = parse_timestamp(text)
    except ValueError:
        raise CaveError(
            "cave_invalid_arguments",
            f"{what}: cannot read {text!r}; use YYYY-MM-DD, an RFC 3339 time, now, or an age like 7d",
        ) from None
    if date_only and end_of_day:
        dt += timedelta(days=1) - timedelta(microseconds=1)
    return dt
