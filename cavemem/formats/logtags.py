"""Logs told by the tag every line carries, checked before tables (their columns look regular).

Why: the corpus's seventh batch brought ``LD_DEBUG`` traces (every line opens on the process
id: ``  26802:\tbinding file ...``) and Python warning streams (``<string>:3: UserWarning: ...``)
that the table readers took for space-aligned tables and the log vote missed (no severity word
or timestamp on their lines); pytest's reports at ``--tb=long -l`` quote more source than they
print report lines, and are told by their banners. Only stdlib ``re``: detection is a hot CLI command.
"""

from __future__ import annotations

import re

_PID_TAG = re.compile(rb"[\t ]*(\d+):[\t ]")
_DIAG_HEAD = re.compile(rb"(\S+:\d+(?::\d+)?: )?(?:[A-Z]\w*(?:Warning|Error)|warning|error|note): ")


def tagged_log(data: bytes) -> bool:
    """Lines a program tags with its process id (``LD_DEBUG``'s ``  26802:\\tbinding file ...``)
    or with a source location and a severity (``<string>:3: UserWarning: ...``): a log however
    regular its columns look. Nine in ten non-blank lines of the first 64 KiB carry a process
    tag and the ids are few (a table numbers each row anew); or, of the lines at the margin
    (indented ones quote the source), two thirds and eight at least are diagnostics, four of
    them located (``ResourceWarning: Enable tracemalloc ...`` follows each located one)."""
    lines = [line for line in data[: 1 << 16].split(b"\n") if line.strip()]
    if len(data) > 1 << 16:
        lines = lines[:-1]  # the cut line
    if len(lines) < 8:
        return False
    tags = [m.group(1) for m in map(_PID_TAG.match, lines) if m]
    if len(tags) * 10 >= len(lines) * 9 and len(set(tags)) * 10 <= len(tags):
        return True
    margin = [line for line in lines if line[:1] not in (b" ", b"\t")]
    heads = [m for m in map(_DIAG_HEAD.match, margin) if m]
    located = sum(1 for m in heads if m.group(1))
    return located >= 4 and len(heads) >= 8 and len(heads) * 3 >= len(margin) * 2


def session_report(data: bytes) -> bool:
    """pytest's report, whatever source its long tracebacks quote (``--tb=long -l`` prints whole
    functions): the session banner opens it and a ``FAILURES``/``ERRORS`` banner or the closing
    tally (``==== 3 failed, 72 passed in 0.4s ====``) follows at the margin."""
    start = _SESSION_START.search(data, 0, 1 << 12)
    return start is not None and _SESSION_END.search(data, start.end()) is not None


_SESSION_START = re.compile(rb"^=+ test session starts =+\r?$", re.M)
_SESSION_END = re.compile(rb"^=+ (?:FAILURES|ERRORS|[^=\n]*\b\d+ (?:passed|failed|errors?)\b[^=\n]*) =+\r?$", re.M)
