"""The marks of Tcl, CMake, Vim script and SQL scripts: languages no grammar wheel reads.

Shared by detection (a hot path: stdlib ``re`` only) and the code compressor's line-shape
outline (``compressors/code/outline.py``). A language is named only on marks no prose carries:
``proc x {``, ``endfunction()`` or a file of bare command calls, ``setlocal`` / ``let b:`` with
``"`` comments, upper-case statements closed by ``;``.
"""

from __future__ import annotations

import re

_HEAD_BYTES = 1 << 16

_TCL_MARK = re.compile(rb"^(?:proc[ \t]+\S+[ \t]+\{|namespace[ \t]+eval[ \t]|package[ \t]+(?:require|provide)[ \t])", re.M)
_CMAKE_CALL = re.compile(rb"^[ \t]*[A-Za-z_]\w*[ \t]*\(", re.M)
_CMAKE_MARK = re.compile(
    rb"^[ \t]*(?:end(?:if|function|macro|foreach|while)|cmake_minimum_required|cmake_policy|include_guard"
    rb"|find_package_handle_standard_args|mark_as_advanced)[ \t]*\(",
    re.M | re.I,
)
_VIM_MARK = re.compile(
    rb"^[ \t]*(?:endf(?:u(?:nc(?:tion)?)?)?|endif|endfor|endwhile|endtry|setl(?:ocal)?|let[ \t]+[bgswlt]:|augroup|finish)\b", re.M
)
_SQL_HEAD = re.compile(rb"^(?:CREATE|ALTER|DROP|INSERT|UPDATE|DELETE|SELECT|GRANT|REVOKE|COMMENT ON|BEGIN|COMMIT|SET)\b", re.M)
# Languages no grammar wheel covers at all (SQL is outlined only after the grammars decline it).
LINE_SHAPED = ("tcl", "cmake", "vim")


def sniff_outline(data: bytes) -> str | None:
    """``tcl``, ``cmake``, ``vim`` or ``sql`` when the text carries that language's marks."""
    head = data[:_HEAD_BYTES]
    if b"\x00" in head:
        return None
    if len(_TCL_MARK.findall(head)) >= 2 or (_TCL_MARK.search(head) and b"\n}" in head):
        return "tcl"
    if len(_CMAKE_CALL.findall(head)) >= 3 and (_CMAKE_MARK.search(head) or _only_calls(head)):
        return "cmake"
    if len(_VIM_MARK.findall(head)) >= 3 and (head.startswith(b'"') or b'\n"' in head):
        return "vim"
    statements = len(_SQL_HEAD.findall(head))
    if statements >= 3 and head.count(b";\n") >= 3:
        return "sql"
    return None


def _only_calls(head: bytes) -> bool:
    """Every line outside ``#`` comments is a command call ``name(args)`` or inside one: a CMake
    script too short for its block words (``set(...)``, ``include(...)``)."""
    depth = 0
    for line in head.split(b"\n"):
        body = line.strip()
        if not body or (depth == 0 and body.startswith(b"#")):
            continue
        if depth == 0 and not _CMAKE_CALL.match(line):
            return False
        depth += body.count(b"(") - body.count(b")")
        if depth < 0:
            return False
    return depth == 0
