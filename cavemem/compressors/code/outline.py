"""Line-shape outline for code no grammar wheel reads (Tcl, CMake, Vim script, SQL scripts), and
for big Perl modules, which the Perl grammar reads at ~30 KB/s (a 217 KB ``B/Deparse.pm`` took
7.5 s, past the parse deadline, and passed through whole).

No wheel on PyPI ships a tree-sitter grammar for Tcl, CMake or Vim script, and the SQL grammar
cannot read psql scripts (``\\echo`` meta-commands, PostgreSQL's ``CREATE OPERATOR CLASS``), so
these fall back to a line-shape reading instead of a parse:

- a head line followed by at least ``MIN_BODY`` lines indented deeper is a block (a ``proc``,
  a ``function()``/``endfunction()``, an ``if``/``endif``); its body becomes one comment line
  ``caveman: N lines elided``, unless it holds definition heads, which keep their own lines
  (the blocks between them are outlined in turn);
- a SQL statement of at least ``MIN_BODY`` lines keeps its head line;
- a run of at least ``MIN_COMMENT_RUN`` comment lines (a licence header, a doc block) keeps
  its first ``KEEP_COMMENT_LINES`` lines that say something (not a bare ``#``).

The language is named only on marks no prose carries (``proc x {``, ``endfunction()``,
``setlocal``, upper-case statements closed by ``;``), so anything else still falls back to the
text reader. The exact original is one ``retrieve`` away, as for every elision.
"""

from __future__ import annotations

import re

from ...formats.scripts import LINE_SHAPED, sniff_outline

__all__ = ["LINE_SHAPED", "outline", "sniff_outline"]

MIN_BODY = 6
MIN_COMMENT_RUN = 8
KEEP_COMMENT_LINES = 2

# Lines an outline always keeps: each language's definition heads (and Tcl's namespaces).
_DEFINITIONS = {
    "tcl": re.compile(rb"^[ \t]*(?:proc|method|constructor|destructor|namespace[ \t]+eval|oo::class[ \t]+create)[ \t]"),
    "cmake": re.compile(rb"^[ \t]*(?:function|macro)[ \t]*\(", re.I),
    "vim": re.compile(rb"^[ \t]*fu(?:n(?:c(?:tion)?)?)?!?[ \t]"),
    "sql": re.compile(rb"^CREATE[ \t]"),
    "perl": re.compile(rb"^[ \t]*(?:sub|package)[ \t]+\w"),
}
_COMMENTS = {"tcl": b"#", "cmake": b"#", "vim": b'"', "sql": b"--", "perl": b"#"}


def _indent(line: bytes) -> int:
    body = line.lstrip(b" \t")
    return len(line[: len(line) - len(body)].expandtabs(8))


def _blank(line: bytes) -> bool:
    return not line.strip()


class _Outliner:
    """The outline of one payload's lines; ``elided`` counts the lines it replaced."""

    def __init__(self, lines: list[bytes], language: str):
        self.lines = lines
        self.comment = _COMMENTS[language]
        self.sql = language == "sql"
        self.definition = _DEFINITIONS[language]
        self.out: list[bytes] = []
        self.elided = 0

    def _is_comment(self, line: bytes) -> bool:
        return line.lstrip().startswith(self.comment)

    def _marker(self, lines: list[bytes], count: int) -> bytes:
        like = next((x for x in lines if not _blank(x)), lines[0])
        pad = like[: len(like) - len(like.lstrip(b" \t"))]
        end = b"\r\n" if like.endswith(b"\r\n") else b"\n"
        self.elided += count
        return pad + self.comment + b" caveman: %d lines elided" % count + end

    def _comment_run(self, i: int, hi: int) -> int:
        """Collapse the comment lines from ``i``; the index after them."""
        j = i
        while j < hi and self._is_comment(self.lines[j]):
            j += 1
        run = self.lines[i:j]
        if j - i >= MIN_COMMENT_RUN:
            # the first lines that say something (not a bare ``#``) stay
            keep = [k for k, x in enumerate(run) if x.strip().strip(self.comment).strip()][:KEEP_COMMENT_LINES]
            self.out.extend(run[k] for k in keep)
            self.out.append(self._marker(run, j - i - len(keep)))
        else:
            self.out.extend(run)
        return j

    def _block_end(self, i: int, hi: int) -> int:
        """The last line of the block headed by line ``i`` (``i`` itself when none)."""
        depth, last = _indent(self.lines[i]), i
        if self.sql:
            if self.lines[i].startswith(b"\\"):  # a psql meta-command is one line
                return i
            j = i
            while j < hi and not self.lines[j].rstrip().endswith(b";"):
                j += 1
            return min(j, hi - 1)
        for j in range(i + 1, hi):
            line = self.lines[j]
            if _blank(line) or self._is_comment(line):
                continue  # commented-out lines at column 0 inside a body (``"  call Decho(``) do not end it
            if _indent(line) <= depth:
                break
            last = j
        return last

    def run(self, lo: int, hi: int) -> None:
        i = lo
        while i < hi:
            line = self.lines[i]
            if _blank(line):
                self.out.append(line)
                i += 1
                continue
            if self._is_comment(line):
                i = self._comment_run(i, hi)
                continue
            end = self._block_end(i, hi)
            body = self.lines[i + 1 : end + 1]
            if len(body) < MIN_BODY or (self.sql and line.lstrip().upper().startswith(b"CREATE TABLE")):
                self.out.extend(self.lines[i : end + 1])
            elif any(self.definition.match(x) for x in body):
                self.out.append(line)
                self.run(i + 1, end + 1)  # nested definitions keep their heads
            else:
                self.out.append(line)
                self.out.append(self._marker(body, len(body)))
            i = end + 1


def outline(data: bytes, language: str) -> bytes | None:
    """The outline of ``data`` in ``language``; None when nothing was elided."""
    lines = data.splitlines(keepends=True)
    work = _Outliner(lines, language)
    work.run(0, len(lines))
    if not work.elided:
        return None
    return b"".join(work.out)
