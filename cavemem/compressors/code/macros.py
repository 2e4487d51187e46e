"""A parse view of C/C++ that hides attribute macros (``#define __ai static __inline__ …``).

A header full of ``__ai uint8x16_t vabdq_u8(…) { … }`` is valid C to a compiler but not to
tree-sitter, which takes ``__ai`` for the type and errs on every function: thousands of error
nodes, so the tolerant path refuses and a 2.5 MB header of bodies passes through whole. The
view blanks each use of a macro whose whole definition is storage classes and attributes
(``static``, ``inline``, ``extern``, ``__attribute__((…))``, ``__declspec(…)``) with spaces of
the same length, so byte offsets are unchanged: the tree parsed from the view places every
replacement on the original bytes, and the output is spliced from the original, never from the
view. The define lines themselves stay as they are.
"""

from __future__ import annotations

import re

_WORDS = rb"(?:static|inline|__inline__|__inline|extern|__forceinline|constexpr)"
_ATTR = rb"(?:__attribute__\s*\(\([^\n]*?\)\)|__declspec\s*\([^\n]*?\))"
_ATTR_DEFINE = re.compile(
    rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+((?:(?:" + _WORDS + rb"|" + _ATTR + rb")[ \t]*)+)$", re.M
)
_DEFINE_LINE = re.compile(rb"^[ \t]*#[ \t]*(?:define|undef)\b[^\n]*$", re.M)
MAX_NAMES = 64


def attribute_macros(data: bytes) -> list[bytes]:
    """Names defined (anywhere in ``data``) as nothing but storage classes and attributes."""
    names = []
    for m in _ATTR_DEFINE.finditer(data):
        if m.group(1) not in names:
            names.append(m.group(1))
        if len(names) >= MAX_NAMES:
            break
    return names


def parse_view(data: bytes, names: list[bytes] | None = None) -> bytes | None:
    """``data`` with every use of the attribute macros blanked to spaces (same length, define
    lines untouched); None when there is no such macro or no use of one."""
    names = attribute_macros(data) if names is None else names
    if not names:
        return None
    word = re.compile(rb"\b(?:" + b"|".join(re.escape(n) for n in names) + rb")\b")
    parts, pos = [], 0
    for line in _DEFINE_LINE.finditer(data):
        parts.append(word.sub(lambda m: b" " * len(m.group()), data[pos : line.start()]))
        parts.append(line.group())
        pos = line.end()
    parts.append(word.sub(lambda m: b" " * len(m.group()), data[pos:]))
    view = b"".join(parts)
    return None if view == data else view
