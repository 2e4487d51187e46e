"""The ``code`` compressor: function-body elision with tree-sitter (spec engine-compressors §3.3).

Signatures, imports, type declarations and comments stay; each outermost function body becomes
``{ /* caveman: body elided */ }`` (``...`` in Python, a ``# caveman: body elided`` comment in
Ruby). The exact original is one ``retrieve`` away. tree_sitter and the grammar wheels are
imported only when a code payload is compressed.
"""

from __future__ import annotations

from ..base import Compressor
from .elide import CodeOptions
from .sniff import sniff_languages

__all__ = ["CodeCompressor", "CodeOptions", "sniff_languages"]


class CodeCompressor(Compressor):
    """Not query-aware. Fails closed (None) when no sniffed grammar parses the input well enough,
    when nothing was elided, or when the spliced output fails the re-parse gate.

    A grammar that parses the input cleanly decides, as in the spec. When none does — most real
    C, where tree-sitter cannot expand macros such as ``local`` or ``ZEXPORT`` — the grammar with
    the fewest error bytes is used if errors cover little of the input, and only bodies clear of
    every error are elided under the "no new errors" gate (``parse_errors``)."""

    content_type = "code"

    def __init__(self, options: CodeOptions | None = None):
        self.options = options or CodeOptions()

    def compress(self, data: bytes) -> bytes | None:
        data = bytes(data)
        if b"\x00" in data:  # source code never holds NUL bytes: this is binary
            return None
        languages = sniff_languages(data)
        if not languages:
            return None
        from .elide import elide
        from .languages import Deadline

        deadline = Deadline()
        for name in languages:
            parsed, out = elide(name, data, self.options, deadline)
            if parsed:  # the first grammar that parses cleanly decides
                return out
            if deadline.expired():
                return None
        from .tolerant import elide_tolerating_errors

        return elide_tolerating_errors(languages, data, self.options, deadline)
