"""Runs of ``@overload`` signatures folded to the first (Python; spec §3.3 addition, issue 9).

A typing stub such as numpy's ``__init__.pyi`` has no bodies to elide: it is 1,600 signatures,
1,200 of them ``@overload`` variants of one name stacked back to back (``__new__`` a dozen times
over). Body elision saves 2% there. Here each run of three or more adjacent overloads of one
name keeps its first signature and becomes, after it, one comment at the same indentation::

    @overload
    def __new__(cls, dtype: _BoolCodes, ...) -> dtype[bool]: ...
    # caveman: 11 more @overload signatures of __new__ elided

The name stays defined and visible where it was; comments and blank lines between signatures
end a run (they stay); a non-overload implementation after the run stays. The exact signatures
are one ``retrieve`` away.
"""

from __future__ import annotations

import re

MIN_RUN = 3  # overloads of one name in a row before the run is folded
_OVERLOAD = re.compile(rb"@[ \t]*(?:[A-Za-z_]\w*[ \t]*\.[ \t]*)*overload[ \t]*(?:#[^\n]*)?$")


def _overload_name(data: bytes, node) -> bytes | None:
    """The function name of a ``decorated_definition`` one of whose decorators is ``overload``."""
    definition = node.child_by_field_name("definition")
    if definition is None or definition.type != "function_definition":
        return None
    if not any(c.type == "decorator" and _OVERLOAD.match(data[c.start_byte : c.end_byte]) for c in node.children):
        return None
    name = definition.child_by_field_name("name")
    return None if name is None else data[name.start_byte : name.end_byte]


def _adjacent(data: bytes, prev, node) -> bool:
    """Siblings with only whitespace between them, on consecutive lines (no blank line, no comment)."""
    gap = data[prev.end_byte : node.start_byte]
    return node.prev_named_sibling == prev and not gap.strip() and gap.count(b"\n") == 1


def _comment_may_follow(data: bytes, end: int) -> bool:
    """Only blanks or a comment after ``end`` on its line: the marker comment hides no code."""
    nl = data.find(b"\n", end)
    rest = (data[end:] if nl < 0 else data[end:nl]).strip(b" \t\r")
    return not rest or rest.startswith(b"#")


def overload_replacements(data: bytes, decorated: list) -> list[tuple[int, int, bytes]]:
    """One replacement per run of MIN_RUN+ adjacent overloads of a name: from the second
    signature's start to the last one's end, replaced by the comment naming how many."""
    out: list[tuple[int, int, bytes]] = []
    run: list = []
    run_name: bytes | None = None

    def flush() -> None:
        if len(run) >= MIN_RUN and _comment_may_follow(data, run[-1].end_byte):
            text = b"# caveman: %d more @overload signatures of %s elided" % (len(run) - 1, run_name)
            out.append((run[1].start_byte, run[-1].end_byte, text))

    for node in decorated:
        name = _overload_name(data, node)
        if name is not None and run and name == run_name and _adjacent(data, run[-1], node):
            run.append(node)
            continue
        flush()
        run, run_name = ([node], name) if name is not None else ([], None)
    flush()
    return out
