"""Second pass of the ``log`` compressor: what the reference keeps that says nothing new.

The reference (:mod:`.log`) keeps every line whose vocabulary is new, so a test run's ``... ok``
lines (each names a new test), a traceback's frames (the same ``File "json/decoder.py", line
337`` under every failure) and compiler carets (``      |  ~~~~^~~``) stay in view, while some
trouble goes unnoticed: ``test_mod3.py:9: AssertionError`` has no ERROR word, nor does
``✖ case 0.4`` or ``invoke-rc.d: … denied execution``. This pass, a cavemem addition:

- keeps, besides the reference's trouble lines, lines naming an exception class
  (``FooError``/``FooException``), ``✖``/``✗``, ``errors``, ``denied``, ``cannot`` or ``not found``;
- lets go of lines the redundancy gate promoted only because they name a new test that passed
  (``... ok``, ``PASSED``, ``✔``/``✓``, ``ok N -``) or quote a source line for a compiler
  diagnostic (``   46 |     char *s…``, unless the quote itself names trouble);
- lets go of a traceback frame (with its source line) already shown verbatim above, and of a
  line the gate promoted that repeats one shown verbatim (a trouble line always stays: each
  failure keeps its own exception line);
- lets go of a compiler warning or note whose message was shown above; the marker of its run
  names its location (``warning repeated at gzappend.c:211:21, gzappend.c:216:17``);
- drops caret and underline lines (only ``^``, ``~``, ``|`` and spaces; they repeat the column of a
  location that is kept) and rule lines (``=====``, ``-----``) wherever they are but in the
  head and tail. One note at the end counts them.

Lines let go of join the reference's dropped runs and their markers.
"""

from __future__ import annotations

import re

from .linescan import line_indices

_TROUBLE = re.compile(
    rb"[A-Z][A-Za-z0-9]*(?:Error|Exception)\b|\xe2\x9c\x96|\xe2\x9c\x97"
    rb"|(?i:\b(?:errors|denied|cannot|not found)\b)"
)
_PASSED = re.compile(r"(?:\.\.\.|\s)\s*(?:ok|PASSED|passed)\s*(?:\(.*\))?\s*\r?$|^\s*(?:\u2714|\u2713|ok \d+ )")
_FRAME = re.compile(r"\s+(?:File \"|at\s)")
_DECORATION = re.compile(r"[\s|^~]*[\^~][\s|^~]*\r?\Z|\s*([=_*-])\1{9,}\s*\Z")
# a compiler diagnostic: ``path:line[:col]: warning|note: message``
_DIAGNOSTIC = re.compile(r"(\S+?:[0-9]+(?::[0-9]+)?): (warning|note): (.+?)\r?\Z")
MAX_LISTED_LOCATIONS = 12
_CONTEXT = re.compile(r"\S+: (?:In |At top level:)")  # ``file.c: In function 'f':``
_EXCERPT = re.compile(r"\s*[0-9]+ +\| ")  # a compiler's quote of the source line at a location
DECORATION_NOTE = "\u2026 caveman: elided {n} caret, underline and rule lines \u2026"


def more_trouble(data: bytes) -> set[int]:
    """Indices of the lines this pass adds to the reference's trouble lines."""
    return line_indices(data, [m.start() for m in _TROUBLE.finditer(data)])


def decoration(lines: list[str], protected: set[int]) -> list[bool]:
    return [i not in protected and bool(line.strip()) and bool(_DECORATION.match(line)) for i, line in enumerate(lines)]


def repeated_diagnostics(run: list[str]) -> str:
    """``warning repeated at gzappend.c:211:21, gzappend.c:216:17`` for a run of diagnostics that
    repeat a message shown above (with their quotes, carets and ``In function`` lines), else ''."""
    locations, kinds = [], set()
    for line in run:
        m = _DIAGNOSTIC.match(line)
        if m is not None:
            locations.append(m.group(1).rsplit("/", 1)[-1])
            kinds.add(m.group(2))
        elif line.strip() and not (_EXCERPT.match(line) or _DECORATION.match(line) or _CONTEXT.match(line)):
            return ""
    if not locations or len(locations) > MAX_LISTED_LOCATIONS:
        return ""
    return f"{'/'.join(sorted(kinds))} repeated at {', '.join(locations)}"


def let_go(lines: list[str], keep: list[bool], base: list[bool], protected: set[int]) -> None:
    """Un-keep (module note) gate-promoted look-alikes (not in ``base``, the keeps before the
    gate), repeated frames and repeated warnings; lines in ``protected`` (the head and tail) stay
    but count as shown."""
    shown: set[tuple[str, str]] = set()
    seen: set[str] = set()
    said: set[tuple[str, str]] = set()  # (severity, message) of diagnostics shown
    n = len(lines)
    for i, line in enumerate(lines):
        if not keep[i]:
            continue
        free = i not in protected
        diagnostic = _DIAGNOSTIC.match(line)
        repeat_said = diagnostic is not None and diagnostic.group(2, 3) in said
        code = lines[i + 1] if i + 1 < n and not _FRAME.match(lines[i + 1]) else ""
        frame = _FRAME.match(line) is not None
        repeat_frame = frame and (line, code) in shown
        repeat_line = line in seen and bool(line.strip())
        seen.add(line)
        if diagnostic is not None:
            said.add(diagnostic.group(2, 3))
        if frame:
            shown.add((line, code))
        if not free:
            continue
        if (repeat_line and not base[i]) or repeat_said:  # a repeated warning's marker names its location
            keep[i] = False
        elif not base[i] and (_PASSED.search(line) or _EXCERPT.match(line)):
            keep[i] = False
        elif repeat_frame:
            keep[i] = False
            if code and i + 1 not in protected:
                keep[i + 1] = False
