"""Dates mentioned in a recall query ("in July 2023", "on 3 June, 2023", "last week").

A memory's date is its timestamp, not its words: "what did we decide in March?" should favour
memories from March, and "March" should not count against the query as a word no memory
contains. :func:`find_windows` returns the time windows a query mentions and the spans of text
that mentioned them; the ranker turns the windows into a proximity signal and leaves those words
out of the refusal gate's arithmetic.

Recognised (English): ISO dates; day-month-year and month-day-year in either order with optional
ordinals and commas; month and year; a month or a day-and-month alone (the latest one not after
"now"); a year alone (1970 … next year); seasons with a year; ``today``, ``yesterday``,
``this/last week|month|year`` and ``N days|weeks|months ago``. Patterns are linear-time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache

# English, as ``_MONTH`` below (``calendar``'s names follow LC_TIME, and importing it costs a hot command ~2 ms)
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december")
_MONTHS = {m: i for i, m in enumerate(_MONTH_NAMES, 1)}
_MONTHS.update({m[:3]: i for i, m in enumerate(_MONTH_NAMES, 1)})
_MONTHS["sept"] = 9
_MONTH = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)\d{2})"
_SEASONS = {"spring": (3, 3), "summer": (6, 3), "autumn": (9, 3), "fall": (9, 3), "winter": (12, 3)}

@lru_cache(maxsize=1)
def _patterns() -> list[tuple[str, re.Pattern]]:
    """Compiled on first use: most queries mention no date, and recall is a hot CLI path."""
    return [
        ("iso", re.compile(r"\b" + _YEAR + r"-(\d{2})-(\d{2})\b")),
        ("dmy", re.compile(r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r"\.?,?\s+" + _YEAR + r"\b", re.I)),
        ("mdy", re.compile(r"\b" + _MONTH + r"\.?\s+" + _DAY + r",?\s+" + _YEAR + r"\b", re.I)),
        ("season", re.compile(r"\b(spring|summer|autumn|fall|winter)\s+(?:of\s+)?" + _YEAR + r"\b", re.I)),
        ("my", re.compile(r"\b" + _MONTH + r"\.?,?\s+(?:of\s+)?" + _YEAR + r"\b", re.I)),
        ("dm", re.compile(r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r"\b", re.I)),
        ("md", re.compile(r"\b" + _MONTH + r"\.?\s+" + _DAY + r"\b(?!:)", re.I)),
        ("ago", re.compile(r"\b(\d{1,3}|a|an|one|two|three|four|five|six)\s+(day|week|month|year)s?\s+ago\b", re.I)),
        ("rel", re.compile(r"\b(today|yesterday|(?:this|last|past|previous)\s+(?:week|month|year))\b", re.I)),
        ("m", re.compile(r"\b(january|february|march|april|june|july|august|september|october|november|december)\b", re.I)),
        ("y", re.compile(r"\b" + _YEAR + r"\b")),
    ]


# Every pattern needs a digit or one of these words; a query with none of them skips the patterns.
_HINT = re.compile(r"\d|ago|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|today|yesterday|week|month|year|spring"
                   r"|summer|autumn|fall|winter", re.I)
_WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


@dataclass(frozen=True)
class Window:
    """A half-open time range a query's date words name."""
    start: datetime
    end: datetime  # exclusive


def _month_window(year: int, month: int, months: int = 1) -> Window:
    start = datetime(year, month, 1, tzinfo=timezone.utc)
    m = month - 1 + months
    end = datetime(year + m // 12, m % 12 + 1, 1, tzinfo=timezone.utc)
    return Window(start, end)


def _day_window(year: int, month: int, day: int) -> Window | None:
    try:
        start = datetime(year, month, day, tzinfo=timezone.utc)
    except ValueError:
        return None
    return Window(start, start + timedelta(days=1))


def _latest_year(now: datetime, month: int, day: int = 1) -> int:
    """The year of the latest (month, day) not after ``now``."""
    try:
        return now.year if datetime(now.year, month, day, tzinfo=timezone.utc) <= now else now.year - 1
    except ValueError:
        return now.year


def _window(kind: str, g: tuple, now: datetime) -> Window | None:
    if kind == "iso":
        return _day_window(int(g[0]), int(g[1]), int(g[2]))
    if kind == "dmy":
        return _day_window(int(g[2]), _MONTHS[g[1].lower()], int(g[0]))
    if kind == "mdy":
        return _day_window(int(g[2]), _MONTHS[g[0].lower()], int(g[1]))
    if kind == "season":
        month, span = _SEASONS[g[0].lower()]
        return _month_window(int(g[1]), month, span)
    if kind == "my":
        return _month_window(int(g[1]), _MONTHS[g[0].lower()])
    if kind in ("dm", "md"):
        day, month = (g[0], g[1]) if kind == "dm" else (g[1], g[0])
        month_n = _MONTHS[month.lower()]
        if not 1 <= int(day) <= 31:
            return None
        return _day_window(_latest_year(now, month_n, int(day)), month_n, int(day))
    if kind == "m":
        month_n = _MONTHS[g[0].lower()]
        return _month_window(_latest_year(now, month_n), month_n)
    if kind == "y":
        year = int(g[0])
        if not 1970 <= year <= now.year + 1:
            return None
        return Window(datetime(year, 1, 1, tzinfo=timezone.utc), datetime(year + 1, 1, 1, tzinfo=timezone.utc))
    if kind == "ago":
        n = int(g[0]) if g[0].isdigit() else _WORD_NUMBERS[g[0].lower()]
        unit = {"day": 1, "week": 7, "month": 30, "year": 365}[g[1].lower()]
        center = now - timedelta(days=n * unit)
        half = timedelta(days=max(1, unit // 2))
        return Window(center - half, center + half)
    if kind == "rel":
        word = " ".join(g[0].lower().split())
        day = datetime(now.year, now.month, now.day, tzinfo=timezone.utc)
        if word == "today":
            return Window(day, day + timedelta(days=1))
        if word == "yesterday":
            return Window(day - timedelta(days=1), day)
        which, unit = word.split()
        span = {"week": 7, "month": 30, "year": 365}[unit]
        if which == "this":
            return Window(now - timedelta(days=span), now + timedelta(days=1))
        return Window(now - timedelta(days=2 * span), now)
    return None


def find_windows(query: str, now: datetime) -> tuple[list[Window], list[tuple[int, int]]]:
    """(windows mentioned, character spans of the mentions); longer forms win over their parts."""
    windows: list[Window] = []
    spans: list[tuple[int, int]] = []
    if not _HINT.search(query):
        return windows, spans
    taken = [False] * (len(query) + 1)
    for kind, rx in _patterns():
        for m in rx.finditer(query):
            a, b = m.span()
            if any(taken[a:b]):
                continue
            if kind == "m" and m.group(1).lower() in ("may", "march") and not _month_context(query, a):
                continue  # "may" and "march" are usually not months on their own
            w = _window(kind, m.groups(), now)
            if w is None:
                continue
            windows.append(w)
            spans.append((a, b))
            for i in range(a, b):
                taken[i] = True
    return windows, spans


def _month_context(query: str, start: int) -> bool:
    before = query[max(0, start - 8) : start].lower()
    return any(w in before for w in ("in ", "of ", "since ", "until ", "during "))


def strip_spans(query: str, spans: list[tuple[int, int]]) -> str:
    """The query without the date mentions (replaced by spaces)."""
    chars = list(query)
    for a, b in spans:
        for i in range(a, b):
            chars[i] = " "
    return "".join(chars)
