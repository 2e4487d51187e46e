"""The ``code`` compressor: function-body elision with tree-sitter (spec engine-compressors §3.3).

Signatures, imports, type declarations and comments stay; each outermost function body becomes
``{ /* caveman: body elided */ }`` (``...`` in Python, a ``# caveman: body elided`` comment in
Ruby, ``{ ... }`` in Perl, ``{ : ...; }`` in shell; make recipes become one comment line). Tcl,
CMake, Vim script and SQL scripts, which no grammar wheel reads, get a line-shape outline
(``outline``). C/C++ function-like macros over several lines lose their replacement list, and
runs of Python ``@overload`` signatures keep their first (``overloads``), and long literal
tables their first and last rows (``tables``). The exact original is one ``retrieve`` away. tree_sitter and the grammar wheels
are imported only when a code payload is compressed.
"""

from __future__ import annotations

import re

from ..base import Compressor, Metadata
from .elide import CodeOptions
from .sniff import sniff_languages

__all__ = ["CodeCompressor", "CodeOptions", "sniff_languages"]


PERL_OUTLINE_BYTES = 64 << 10  # the Perl grammar's parse of this much takes ~2 s on this machine
_PERL_MARKS = re.compile(rb"^package[ \t]+[\w:]+;|^use[ \t]+(?:strict|warnings)\b|^sub[ \t]+\w+", re.M)


def _perl_module(data: bytes) -> bool:
    """A Perl module by its own marks: a ``package X::Y;``, ``use strict``/``use warnings`` or a
    column-0 ``sub`` in the first 64 KiB, and 3 such marks at least."""
    return len(_PERL_MARKS.findall(data, 0, 1 << 16)) >= 3 and b"package " in data[: 1 << 16]


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
        return self._compress(bytes(data))[1]

    def run(self, data: bytes, query: str, counter=None) -> tuple[bytes, Metadata] | None:
        """As :meth:`compress`, except that source a grammar accepts but with nothing to elide (a
        header of declarations, a ``.pyi`` stub) comes back unchanged rather than as None: it
        is code, so the engine passes it through instead of retrying it as prose."""
        source, out = self._compress(bytes(data))
        if out is None:
            return (bytes(data), Metadata(method="code")) if source else None
        return out, Metadata()

    def _compress(self, data: bytes) -> tuple[bool, bytes | None]:
        """(a grammar or the outline reader accepted ``data`` as source, the output or None);
        near the cap piece by piece, cut between top-level definitions (``pieces``), so the
        syntax trees held at once are one piece's."""
        from ..pieces import code_pieces, compress_pieces

        spans = code_pieces(data)
        if not spans:
            return self._compress_source(data)
        accepted: list[bool] = []

        def piece_view(piece: bytes) -> bytes | None:
            if len(accepted) >= 2 and not any(accepted):
                return None  # two pieces in, no grammar reads them: the rest would fail the same way
            ok, out = self._compress_source(piece)
            accepted.append(ok)
            return out

        out = compress_pieces(data, spans, piece_view)
        # no piece parsed (a header cut inside its ``#ifdef`` blocks): declined, so the engine's
        # fallback reads it as text, in pieces too, rather than one 64 MiB parse at ~20x its size
        return any(accepted), out

    def _compress_source(self, data: bytes) -> tuple[bool, bytes | None]:
        """(a grammar or the outline reader accepted ``data`` as source, the output or None)."""
        if b"\x00" in data:  # source code never holds NUL bytes: this is binary
            return False, None
        from .outline import LINE_SHAPED, outline, sniff_outline

        language = sniff_outline(data)
        if language in LINE_SHAPED:  # no grammar to try: a failed parse of a big file costs seconds
            return True, outline(data, language)
        if len(data) >= PERL_OUTLINE_BYTES and _perl_module(data):  # the grammar would miss the deadline
            return True, outline(data, "perl")
        languages = sniff_languages(data)
        accepted, out = self._parsed(languages, data) if languages else (False, None)
        if accepted or language is None:
            return accepted, out
        return True, outline(data, language)  # a SQL script the grammars declined

    def _parsed(self, languages: tuple[str, ...], data: bytes) -> tuple[bool, bytes | None]:
        """(a grammar accepted ``data``, the elided output or None)."""
        from .elide import elide
        from .languages import Deadline

        from .tolerant import clean_order, elide_tolerating_errors

        deadline = Deadline.for_size(len(data))
        for name in clean_order(languages, data):
            parsed, out = elide(name, data, self.options, deadline)
            if parsed:  # the first grammar that parses cleanly decides
                return True, out
            if deadline.expired():  # big source on a busy machine: pass it through as code, not prose
                return True, None
        fitted: list[str] = []
        out = elide_tolerating_errors(languages, data, self.options, deadline, fitted)
        return bool(fitted) or deadline.expired(), out
