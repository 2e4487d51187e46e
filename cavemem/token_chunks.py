"""Exact o200k counts of big inputs a chunk at a time (peak memory, issue 9).

A 64 MiB input encoded at once holds an int per token and a decoded copy of the whole text; cut at
points where no o200k piece can span, the chunks' counts add up to the whole input's count
(``tests/test_tokens.py`` compares them with a one-shot encode). Used by :mod:`cavemem.tokens`.
"""

from __future__ import annotations

from .gocompat import go_text

CHUNK_CHARS = 1 << 20  # big inputs are counted a chunk at a time (peak memory, issue 9)


def encoded_length(core, text: str, chunk: int = CHUNK_CHARS) -> int:
    """len(encode_ordinary(text)) without holding one int per token of a 64 MiB input at once.

    Chunks end just after a newline followed by a character that is neither whitespace nor '/':
    no o200k piece spans such a point (a piece holding a newline holds only whitespace, or
    punctuation then newlines and '/'; letter and number pieces never start with a newline), so
    the sum of the chunks' counts equals the whole text's count. encode_ordinary releases the
    GIL, so counts can run beside other Python work."""
    if len(text) <= chunk:
        return len(core.encode_ordinary(text))
    import re

    return _chunk_counts(core, text, re.compile(r"\n(?=[^\s/])"), str, chunk)


def _chunk_counts(core, data, cut_rx, decode, chunk: int) -> int:
    """Sum of the counts of ``data``'s chunks of about ``chunk``, each cut at the first match of
    ``cut_rx`` at or after that length and turned into text by ``decode``."""
    total, start, n = 0, 0, len(data)
    while start < n:
        end = start + chunk
        if end < n:
            cut = cut_rx.search(data, end)
            end = cut.end() if cut else n
        total += len(core.encode_ordinary(decode(data[start:end])))
        start = end
    return total


# Byte cut points of :func:`encoded_length_bytes`, where an o200k piece always starts and no
# piece before it looks past: (1) after a newline that an ASCII character other than whitespace
# and '/' follows (the text rule above); (2) before a space that an ASCII non-space character
# precedes (no piece runs from a non-space into a space: a space only ever opens a piece);
# (3) between an ASCII letter or digit and ASCII punctuation other than the apostrophe of
# ``'s``/``'t``/… (letter and digit pieces end there; one-line JSON has no newline to cut at).
_BYTE_CUT = None


def encoded_length_bytes(core, data: bytes, chunk: int = CHUNK_CHARS) -> int:
    """The count of ``go_text(data)`` from byte chunks decoded one at a time: every cut is at a
    point of ``_BYTE_CUT`` (a piece boundary of the whole text), between two ASCII characters,
    so each chunk decodes to the same characters the whole input has there."""
    global _BYTE_CUT
    if _BYTE_CUT is None:
        import re

        _BYTE_CUT = re.compile(rb"\n(?=[!-.0-~])|(?<=[!-~])(?= )|(?<=[A-Za-z0-9])(?=[!-&(-/:-@\[-`{-~])")
    return _chunk_counts(core, data, _BYTE_CUT, lambda b: go_text(bytes(b)), chunk)
