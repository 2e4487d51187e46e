"""Detection of large inputs reads a bounded head (issue 9, the 64 MiB cap).

Only stdlib ``re``: detection is a hot CLI command.
"""

from __future__ import annotations

import re

from ..gocompat import json_valid, trim_space_bytes

# Past this size only the head (cut at a line) is read after the JSON check: every predicate
# below splits or decodes what it is given, ~5x the input at peak; the corpus's files (<= 5 MB)
# are read whole, so their verdicts are the same.
SAMPLE_BYTES = 8 << 20


# how a JSON document opens: ``{"`` / ``{}`` or ``[`` and a value (``[section]`` is INI)
_JSON_OPEN = re.compile(rb"[\t\n\r ]*(?:\{[\t\n\r ]*[\"}]|\[[\t\n\r ]*(?:[\[{\"\-0-9\]]|true|false|null))")


def whole_json(body: bytes) -> bool:
    """JSON is valid or not as a whole: all of it is read (decoded once), but only when its head
    opens like a JSON document; a large non-JSON input is never copied."""
    first = trim_space_bytes(body[:4096])
    if first[:1] not in (b"{", b"[") or not _JSON_OPEN.match(first):
        return False
    return json_valid(trim_space_bytes(body))


def head(body: bytes) -> bytes:
    cut = body.rfind(b"\n", 0, SAMPLE_BYTES)
    return body[: cut + 1 if cut > 0 else SAMPLE_BYTES]
