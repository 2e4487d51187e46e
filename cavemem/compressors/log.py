"""``log``: build / application log elision (spec engine-compressors §3.2).

Keeps the first two lines, every line that signals trouble (errors, warnings, stack frames,
``file.go:NN``), earlier caveman markers, the last two lines, lines relevant to the query, and
any line whose vocabulary has not been shown yet (redundancy gate; when that gate keeps most of
the log, the same gate over line *templates* — see ``log_templates``). Each dropped run becomes one
marker line — ``… N lines elided (caveman) …``, with an invariant summary after a colon when
the run's lines carry ``key=value`` or JSON fields (or, under the template gate, slot values). Every kept line keeps its own line ending;
markers follow the document's majority ending.

The trouble patterns are found by whole-document ``bytes.find`` sweeps (see ``linescan``) with
the per-line meaning of the spec's regexes, so a 10 MB log is scanned at memory speed.
"""

from __future__ import annotations

import re

from .base import QueryCompressor
from .invariant_columns import summarize_lines
from .invariants import ELISION_NOTE_MIN_ELIDED_BYTES, ELISION_NOTE_PREFIX, elision_note, summarize_elided, worth_eliding
from .lineends import cr_suffix, join_lines, runs, utf8_line_list
from .linescan import line_blocks, line_indices, literal_hit_positions, word_hit_positions
from .log_fold import DECORATION_NOTE, decoration, let_go, more_trouble, repeated_diagnostics
from .log_templates import LogTemplates
from .redundancy import keep_non_redundant
from .relevance import LOG_LIMIT, keep_query_relevant

KEEP_HEAD = 2
KEEP_TAIL = 2
MIN_LINES = 4
# The template gate is tried when the spec's gate promotes more than a third of the lines it could
# drop, and there are at least 16 of those (a dozen distinct lines are cheap to show in full).
TEMPLATE_PROMOTED_NUM, TEMPLATE_PROMOTED_DEN = 1, 3
TEMPLATE_MIN_DROPPABLE = 16

TROUBLE_WORDS = (b"error", b"fatal", b"panic", b"exception", b"traceback", b"fail", b"failed", b"failure", b"warn", b"warning")
_S = rb"[\t\f\r ]"  # Go's \s inside one line (a line never contains \n)
_FRAME = rb"(?:at" + _S + rb'|file "|--->)'  # stack-frame continuation after indentation
_INDENTED_FRAME_AFTER_NL = re.compile(rb"\n" + _S + rb"+" + _FRAME)
_INDENTED_FRAME_AT_START = re.compile(_S + rb"+" + _FRAME)
_GO_FILE = re.compile(rb"\.go:[0-9]")  # literal prefix: sre scans at memory speed
_MARKER = re.compile(r"lines elided \(caveman\)")
_MARKER_BYTES = b"lines elided (caveman)"
_NOTE_BYTES = ELISION_NOTE_PREFIX.encode("utf-8")
_NOTE_AFTER_NL = re.compile(re.escape(b"\n" + _NOTE_BYTES))


def _is_marker(line: str) -> bool:
    return line.startswith(ELISION_NOTE_PREFIX) or _MARKER.search(line) is not None


def trouble_lines(data: bytes) -> set[int]:
    """Indices of lines matching the keep patterns of spec §3.2 — the case-insensitive
    ``\\b(ERROR|…|WARNING)\\b``, indented ``at``/``File "``/``--->`` frames, ``.go:N``,
    ``caused by`` — or holding a caveman marker or starting with the elision note."""
    hits: list[int] = []
    for at, block in line_blocks(data):
        low = block.lower()  # ASCII-only lowering: byte offsets are unchanged
        found = word_hit_positions(low, TROUBLE_WORDS)
        found += literal_hit_positions(low, b"caused by")
        found += [m.start() for m in _GO_FILE.finditer(low)]
        found += [m.start() + 1 for m in _INDENTED_FRAME_AFTER_NL.finditer(low)]
        if _INDENTED_FRAME_AT_START.match(low):  # a block starts a line
            found.append(0)
        hits += [at + p for p in found]
    hits += literal_hit_positions(data, _MARKER_BYTES)
    hits += [m.start() + 1 for m in _NOTE_AFTER_NL.finditer(data)]
    if data.startswith(_NOTE_BYTES):
        hits.append(0)
    return line_indices(data, hits)


class LogCompressor(QueryCompressor):
    content_type = "log"

    def compress_query(self, data: bytes, query: str) -> bytes | None:
        got = utf8_line_list(data, MIN_LINES)  # no decoded copy of the whole log beside its lines
        if got is None:
            return None
        lines, trailing = got
        n = len(lines)
        keep = [False] * n
        keep[0] = keep[1] = True
        for i in trouble_lines(data) | more_trouble(data):
            keep[i] = True
        protected = {0, 1}
        i, budget = n - 1, KEEP_TAIL
        while i >= KEEP_HEAD and budget > 0:
            keep[i] = True
            protected.add(i)
            if not _is_marker(lines[i]):
                budget -= 1
            i -= 1
        if query:
            keep_query_relevant(keep, lines, query, LOG_LIMIT)
        base = keep[:]
        templates = keep_non_redundant_lines(lines, keep)
        let_go(lines, keep, base, protected)
        return _emit(data, lines, trailing, keep, templates, decoration(lines, protected)).encode("utf-8")


def keep_non_redundant_lines(lines: list[str], keep: list[bool]) -> LogTemplates | None:
    """The spec's redundancy gate over the lines — or, when it promotes more than a third of the
    lines it could drop (every dpkg line names a new package, every ``pip -v`` line a new temp
    directory), the same gate over the lines' templates (``log_templates``), if that keeps fewer
    lines. Logs the spec's gate compresses keep its exact output.

    Updates ``keep`` in place; returns the templates when the template gate decided."""
    base = keep[:]
    keep_non_redundant(lines, keep)
    droppable = len(lines) - sum(base)
    promoted = sum(keep) - sum(base)
    if droppable < TEMPLATE_MIN_DROPPABLE or promoted * TEMPLATE_PROMOTED_DEN <= droppable * TEMPLATE_PROMOTED_NUM:
        return None
    templates = LogTemplates(lines)
    by_template = keep_non_redundant(templates.templates, base)
    if sum(by_template) >= sum(keep):
        return None
    keep[:] = by_template
    return templates


def _run_summary(run: list[str], first: int, run_bytes: int, templates: LogTemplates | None) -> str:
    """The summary of ``run`` (the lines from index ``first``): its logfmt/JSON fields (spec
    §2.4) or, for a template-gated log whose run has no such fields, its slot values by kind."""
    summary = repeated_diagnostics(run) or summarize_lines(run, run_bytes)
    if not summary and templates is not None:
        summary = summarize_elided(map(templates.fields, range(first, first + len(run))), run_bytes)
    return summary


def _emit(
    data: bytes, lines: list[str], trailing: bool, keep: list[bool], templates: LogTemplates | None = None, deco: list[bool] | None = None
) -> str:
    """Kept lines verbatim, each dropped run as a marker (when worth it); ``deco`` lines (carets,
    see :mod:`.log_fold`) are left out wherever they are, and counted in one note. ``data`` is
    the (valid UTF-8) input the lines came from: its ASCII-ness, line endings and notes are read
    on the bytes, so no decoded copy of the whole log need stay alive."""
    ascii_doc = data.isascii()
    cr = cr_suffix(data).decode("ascii")
    out: list[str] = []
    elided_total = 0
    silent = 0

    def verbatim(i: int, j: int) -> None:
        nonlocal silent
        if deco is None:
            out.extend(lines[i:j])
            return
        for k in range(i, j):
            if deco[k]:
                silent += 1
            else:
                out.append(lines[k])

    for i, j, kept in runs(keep):
        run = lines[i:j]
        if kept:
            verbatim(i, j)
            continue
        if ascii_doc:
            run_bytes = sum(map(len, run)) + len(run)
        else:
            run_bytes = sum(len(s.encode("utf-8")) for s in run) + len(run)
        summary = _run_summary(run, i, run_bytes, templates)
        if summary:
            marker = f"\u2026 {len(run)} lines elided (caveman): {summary} \u2026"
        else:
            marker = f"\u2026 {len(run)} lines elided (caveman) \u2026"
        if worth_eliding(len(run), len(marker.encode("utf-8")), run_bytes, summary):
            out.append(marker + cr)
            elided_total += run_bytes
        else:
            verbatim(i, j)
    if silent:
        out.append(DECORATION_NOTE.format(n=silent) + cr)
    if elided_total >= ELISION_NOTE_MIN_ELIDED_BYTES and _NOTE_BYTES not in data:
        out.append(elision_note("lines") + cr)
    return join_lines(out, trailing)
