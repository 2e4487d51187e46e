"""``repetition``: run-length collapse of identical adjacent lines (spec engine-compressors §3.14).

Retry loops, progress spinners and polling agents print the same line hundreds of times; the
first copy says everything. Each run of ≥ 3 byte-identical lines keeps its first line and gets
one marker saying how many copies went. Blank lines and lines that already look like our
marker are never collapsed, which makes a second pass a no-op. Force-only (``--type
repetition``): auto-detection never routes here.
"""

from __future__ import annotations

from ..gocompat import trim_space, utf8_text
from .base import Compressor

MIN_RUN = 3
MIN_BYTES = 200
MARKER_PREFIX = "… caveman: "


def marker(dropped: int) -> str:
    return f"{MARKER_PREFIX}{dropped} identical lines elided …"


class RepetitionCompressor(Compressor):
    content_type = "repetition"

    def compress(self, data: bytes) -> bytes | None:
        text = utf8_text(data) if len(data) >= MIN_BYTES else None
        if text is None:
            return None
        # split on "\n" only: a line keeps its "\r", and a final empty element keeps the
        # trailing newline, so the join is the exact inverse
        lines = text.split("\n")
        out: list[str] = []
        collapsed = False
        i, n = 0, len(lines)
        while i < n:
            line = lines[i]
            j = i + 1
            while j < n and lines[j] == line:
                j += 1
            run = j - i
            out.append(line)
            if run >= MIN_RUN and trim_space(line) and not line.startswith(MARKER_PREFIX):
                out.append(marker(run - 1))  # no "\r", even in CRLF text (as the reference)
                collapsed = True
            else:
                out.extend(lines[i + 1 : j])
            i = j
        if not collapsed:
            return None
        result = "\n".join(out).encode("utf-8")
        return result if len(result) < len(data) else None
