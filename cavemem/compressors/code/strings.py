"""Long string literals in code cut to an excerpt (a stage of the ``code`` compressor).

Some source files are mostly data: ``pydoc_data/topics.py`` is one dict of multi-KB help texts,
bundles inline whole templates and licences. Body elision cannot touch a literal at module
level, and its text is rarely what an agent opens the file for. A string literal longer than
:data:`LONG_STRING_BYTES` keeps its delimiters and first words and carries the marker
``... N chars elided (caveman) ...`` (ASCII, so it is valid in bytes literals too); the output
still goes through the compressor's re-parse gate. Not cut: docstrings (a string that is a
statement of its own), f-strings and template literals (their interpolations are code), and
strings the parse flagged with errors.
"""

from __future__ import annotations

LONG_STRING_BYTES = 400
EXCERPT_BYTES = 80
MARKER_WORDS = b"chars elided (caveman)"

# grammar -> the node types of string literals
STRING_TYPES = {
    "python": ("string", "concatenated_string"),
    "javascript": ("string",),
    "typescript": ("string",),
    "tsx": ("string",),
}
_ESCAPE_LEN = {ord("x"): 4, ord("u"): 6, ord("U"): 10}


def _safe_ends(head: bytes) -> list[int]:
    """Offsets in ``head`` where no escape sequence is open and no UTF-8 character is split."""
    ends, i = [0], 0
    while i < len(head):
        b = head[i]
        if b == 0x5C:  # a backslash: skip its whole escape
            nxt = head[i + 1] if i + 1 < len(head) else 0
            if nxt == ord("N"):
                close = head.find(b"}", i)
                i = len(head) + 1 if close < 0 else close + 1
            elif 0x30 <= nxt <= 0x37:
                i += 2
                while i < len(head) and i < ends[-1] + 4 and 0x30 <= head[i] <= 0x37:
                    i += 1
            else:
                i += _ESCAPE_LEN.get(nxt, 2)
        else:
            i += 1
        if i <= len(head) and (i == len(head) or head[i] & 0xC0 != 0x80):
            ends.append(i)
    return ends


def _excerpt(content: bytes) -> bytes:
    """The first words of a literal's content: within its first line, ending on a word break
    where one is near, never inside an escape (``\\n``, ``\\x41``) or a UTF-8 character."""
    head = content[:EXCERPT_BYTES].split(b"\n", 1)[0].split(b"\r", 1)[0]
    safe = _safe_ends(head)
    cut = max((e for e in safe if e < len(head) and head[e : e + 1] == b" "), default=0)
    end = cut if cut >= len(head) // 2 else safe[-1]
    return head[:end].rstrip()


def string_replacements(data: bytes, nodes: list) -> list[tuple[int, int, bytes]]:
    """Replacements cutting every long plain string literal among ``nodes`` (the parse's
    nodes of the grammar's :data:`STRING_TYPES`)."""
    out = []
    for node in nodes:
        if node.end_byte - node.start_byte <= LONG_STRING_BYTES or node.has_error:
            continue
        parent = node.parent
        if parent is not None and parent.type == "expression_statement":
            continue  # a docstring (or a lone string statement)
        parts = node.named_children if node.type == "concatenated_string" else [node]
        if not parts or any(_delimiters(data, p) is None for p in parts):
            continue
        (start, end), first = _delimiters(data, parts[0]), parts[0]
        hidden = node.end_byte - node.start_byte - (start - first.start_byte) - (first.end_byte - end)
        if hidden <= LONG_STRING_BYTES or MARKER_WORDS in data[node.start_byte : node.end_byte]:
            continue  # short once its quotes are off, or cut already
        head = _excerpt(data[start:end])
        text = head + b" ... " + str(hidden - len(head)).encode() + b" " + MARKER_WORDS + b" ..."
        # one literal in the first part's quotes stands for all the parts
        out.append((node.start_byte, node.end_byte, data[first.start_byte : start] + text + data[end : first.end_byte]))
    return out


def _delimiters(data: bytes, node) -> tuple[int, int] | None:
    """(content start, content end) of a plain string literal; None for an f-string, a
    template with substitutions or a node that is not a plain literal."""
    kids = node.children
    if node.type != "string" or len(kids) < 2 or any(k.type in ("interpolation", "template_substitution") for k in kids):
        return None
    start, end = kids[0].end_byte, kids[-1].start_byte
    if b"f" in data[kids[0].start_byte : start].lower():
        return None
    return start, end
