"""``search-result``: grep / web hit-list elision (spec engine-compressors §3.5).

The head (8 lines) and tail (4) stay, as do hits that mention errors, failures, actions or
secrets, the hits most relevant to the query (BM25), and every hit whose vocabulary no shown hit
covers (the redundancy gate). Runs of the remaining look-alike hits become
``… N search result lines elided (caveman) …``. Line endings are preserved per line.

Deviation from the reference: a dropped run of one line no longer than the marker is kept
verbatim instead of being swapped for a marker (see ``line_runs``).
"""

from __future__ import annotations

import re

from ..gocompat import is_utf8
from .base import Compressor
from .line_runs import emit_with_markers
from .lineends import cr_suffix, join_lines, split_lines
from .redundancy import keep_non_redundant
from .relevance import SEARCH_RESULT_LIMIT, keep_query_relevant

KEEP_HEAD = 8
KEEP_TAIL = 4
MIN_LINES = 18

# RE2 semantics: ``\b`` is an ASCII word boundary while ``(?i)`` folds Unicode case (the Kelvin
# sign matches ``k``), so the boundaries are spelled out case-sensitively around a Unicode
# case-insensitive group.
_IMPORTANT = re.compile(
    r"(?<![0-9A-Za-z_])(?i:ERROR|FAIL|FAILED|PANIC|ACTION|FOLLOWUP|SECURITY|SECRET|TOKEN|PASSWORD|KEY)(?![0-9A-Za-z_])"
)
_MARKER_LINE = re.compile(r"search result lines elided \(caveman\)")


def marker(count: int) -> str:
    return f"… {count} search result lines elided (caveman) …"


class SearchResultCompressor(Compressor):
    content_type = "search-result"
    accepts_query = True

    def compress(self, data: bytes) -> bytes | None:
        return self.compress_query(data, "")

    def compress_query(self, data: bytes, query: str) -> bytes | None:
        if not is_utf8(data):
            return None
        text = data.decode("utf-8")
        lines, trailing = split_lines(text)
        n = len(lines)
        if n < MIN_LINES:
            return None
        keep = [i < KEEP_HEAD or i >= n - KEEP_TAIL for i in range(n)]
        for i, line in enumerate(lines):
            if not keep[i] and (_IMPORTANT.search(line) or _MARKER_LINE.search(line)):
                keep[i] = True
        keep_query_relevant(keep, lines, query, SEARCH_RESULT_LIMIT)
        keep_non_redundant(lines, keep)
        out = emit_with_markers(lines, keep, marker, cr_suffix(text))
        if len(out) == n:
            return None
        return join_lines(out, trailing).encode("utf-8")
