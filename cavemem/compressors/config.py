"""``config``: YAML, TOML and INI files (spec engine-compressors §3.9).

Config files are long lists of near-identical keys; the agent usually needs a few of them and
where they live. We keep the head and tail, top-level YAML keys, anything alarming (errors,
secrets, rollbacks), the lines a query asks about and any line unlike those shown — then pull
in the *context* of every kept line: its YAML parent chain (so ``rollout: 17`` still sits under
``feature_17:`` under ``service:``) or its TOML/INI section header, plus a few lines under each
kept parent. Dropped runs become ``# … N config lines elided (caveman) …`` comment lines, which
are comments in all three formats (a single dropped line no longer than the marker, typically a
blank one, stays verbatim: see :mod:`.lineends`); YAML output must still parse, or we pass
through.

That spec stage is all we run when it keeps at most half the lines. When it keeps more (every
line distinct: hashes, URLs, names), :mod:`.config_structured` also elides long comment blocks
and all but exemplars of same-shaped stanzas; its output is used when it is valid and smaller.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ..formats.configs import SECTION_HEADER, classify, yaml_valid
from ..gocompat import trim_space
from .base import QueryCompressor
from .lineends import cr_suffix, emit_with_markers, join_lines, splice_dropped, utf8_lines
from .pieces import compress_pieces, section_pieces
from .config_guard import keep_unseen_settings
from .config_stanzas import indentation
from .redundancy import keep_non_redundant
from .relevance import CONFIG_LIMIT, RELEVANCE_THRESHOLD, keep_query_relevant

MIN_LINES = 14
KEEP_HEAD = 3
KEEP_TAIL = 2
CONTEXT_LINES = 8  # lines kept under a kept parent / section header
REENTRY = b"config lines elided (caveman)"
COMMENT_REENTRY = b"comment lines elided (caveman)"

SEVERE = re.compile(
    r"\b(?:ERROR|FAIL|FAILED|FATAL|PANIC|EXCEPTION|WARNING|SECURITY|SECRET|TOKEN|PASSWORD|DENIED|REJECTED|ROLLBACK)\b",
    re.I | re.A,
)
_YAML_KEY = re.compile(r"[\t\n\f\r ]*(?:-[\t\n\f\r ]*)?[A-Za-z0-9_.-]+[\t\n\f\r ]*:", re.A)
_SECTION = SECTION_HEADER


def marker(count: int) -> str:
    return f"# … {count} config lines elided (caveman) …"


def hidden_sections(lines: list[str], i: int, j: int) -> list[str]:
    """The names of the TOML/INI section headers in ``lines[i:j]``, in order."""
    out = []
    for k in range(i, j):
        if "[" in lines[k]:
            m = _SECTION.fullmatch(lines[k])
            if m is not None:
                out.append(trim_space(m.group("name")))
    return out


def shown_sections(lines: list[str], keep: list[bool]) -> set[str]:
    """Names of the section headers that stay visible (``[[a.b]]`` tables repeat one name)."""
    return {n for i, k in enumerate(keep) if k for n in hidden_sections(lines, i, i + 1)}


def named_marker(lines: list[str], i: int, j: int, cr: str, shown: set[str], summary: str = "", verbatim: bool = False) -> list[str]:
    """The marker for the dropped run ``lines[i:j]`` of a TOML/INI file: the spec's marker with
    ``summary`` and the full names of the sections it hides that are not ``shown`` yet (a
    section name is what an agent looks a table up by; listed names join ``shown``). A lone
    line no longer than the marker stays; so does a run the named marker does not shorten,
    and (``verbatim``) a run whose plain marker costs over half of it."""
    count = j - i
    plain = marker(count)
    names = [n for n in dict.fromkeys(hidden_sections(lines, i, j)) if n not in shown]
    parts = [p for p in (summary, "sections " + ", ".join(names) if names else "") if p]
    text = f"{plain[:-2]}: {'; '.join(parts)} …" if parts else plain
    if count == 1:
        return [lines[i]] if len(lines[i].encode("utf-8", "surrogatepass")) <= len((text + cr).encode()) else [text + cr]
    hidden = sum(len(lines[x].encode("utf-8", "surrogatepass")) + 1 for x in range(i, j))
    shown.update(names)  # listed, or visible in the lines themselves
    if names:
        return [text + cr] if len(text.encode("utf-8", "surrogatepass")) < hidden else lines[i:j]
    if 2 * len(text.encode("utf-8", "surrogatepass")) > hidden:
        text = plain  # the summary does not pay
        if verbatim and 2 * len(text.encode()) > hidden:
            return lines[i:j]
    return [text + cr]


def is_yaml_parent(line: str) -> bool:
    """A key line that opens a block (``key:``) or a sequence item (``- name: x``)."""
    if not _YAML_KEY.match(line):
        return False
    t = trim_space(line)
    return t.endswith(":") or t.startswith("- ")


class ConfigCompressor(QueryCompressor):
    content_type = "config"

    def compress_query(self, data: bytes, query: str) -> bytes | None:
        spans = section_pieces(data)
        if spans:  # near the cap: a TOML/INI file piece by piece (``pieces``); YAML stays whole
            head = classify(data[: spans[0][1]])
            if head is not None and head.kind != "yaml":
                return compress_pieces(data, spans, lambda piece: self._compress_file(piece, query))
        return self._compress_file(data, query)

    def _compress_file(self, data: bytes, query: str) -> bytes | None:
        if REENTRY in data or COMMENT_REENTRY in data:
            return None
        shape = classify(data)  # None for invalid UTF-8 too
        if shape is None:
            return None
        got = utf8_lines(data, MIN_LINES)
        if got is None:
            return None
        text, lines, trailing = got
        yaml = shape.kind == "yaml"
        cr = cr_suffix(text)
        keep = _initial_keeps(lines, yaml, query)
        if yaml:
            expand_yaml_context(lines, keep)
        else:
            expand_section_context(lines, keep)
        if yaml:
            out_lines = emit_with_markers(lines, keep, marker, cr)
        else:
            shown = shown_sections(lines, keep)
            out_lines = splice_dropped(lines, keep, lambda i, j: named_marker(lines, i, j, cr, shown))
        reference = _finish(out_lines, lines, trailing, data, yaml)
        if reference is not None and 2 * len(out_lines) <= len(lines):
            return reference  # the spec's line-level stage already saves well
        # it saves little: elide long comment blocks and same-shaped stanzas too
        from .config_structured import structured_lines

        structured = structured_lines(lines, yaml, query, cr)
        if structured is not None:
            out = _finish(structured, lines, trailing, data, yaml)
            if out is not None and (reference is None or len(out) < len(reference)):
                return out
        return reference


def _finish(out_lines: list[str], lines: list[str], trailing: bool, data: bytes, yaml: bool) -> bytes | None:
    """The output bytes, or None when the spec's fail rules reject them."""
    if len(out_lines) >= len(lines):
        return None
    out = join_lines(out_lines, trailing)
    raw = out.encode("utf-8")
    if len(raw) >= len(data):
        return None
    if yaml and not yaml_valid(out):
        return None
    return raw


def _initial_keeps(lines: list[str], yaml: bool, query: str) -> list[bool]:
    keep = forced_keeps(lines, yaml)
    if query:
        keep_query_relevant(keep, lines, query, CONFIG_LIMIT, RELEVANCE_THRESHOLD)
    keep_non_redundant(lines, keep)
    keep_unseen_settings(lines, keep, yaml)
    return keep


def forced_keeps(lines: list[str], yaml: bool) -> list[bool]:
    """Head and tail, alarming lines, and (YAML) top-level keys."""
    n = len(lines)
    keep = [i < KEEP_HEAD or i >= n - KEEP_TAIL for i in range(n)]
    for i, line in enumerate(lines):
        if keep[i]:
            continue
        if SEVERE.search(line) or (yaml and indentation(line) == 0 and _YAML_KEY.match(line)):
            keep[i] = True
    return keep


def expand_yaml_context(lines: list[str], keep: list[bool], blocked: list[bool] | None = None) -> None:
    """Keep the parent chain of every kept line, then a few children under each kept parent
    (never a ``blocked`` line: those belong to elided stanzas or comment blocks)."""
    snapshot = [i for i, k in enumerate(keep) if k]
    wanted = set(snapshot)
    # Parent lines seen so far with strictly increasing indentation: for any later line, its
    # nearest parent with smaller indentation — and that parent's own chain — are exactly the
    # entries below its indentation (a nearer, shallower parent pops the deeper ones).
    stack: list[int] = []  # line indices
    levels: list[int] = []  # their indentation, strictly increasing (searchable by bisect)
    chained: set[int] = set()  # parents whose chain is already kept
    for i, line in enumerate(lines):
        if i in wanted:
            level = indentation(line)
            # entries [0, k) are shallower than this line; walk them nearest-first until one
            # whose chain is already kept (everything below it is kept too)
            for k in range(bisect_left(levels, level) - 1, -1, -1):
                p = stack[k]
                if p in chained:
                    break
                if blocked is not None and blocked[p]:
                    continue
                keep[p] = True
                chained.add(p)
        if is_yaml_parent(line):
            level = indentation(line)
            k = bisect_left(levels, level)
            del stack[k:], levels[k:]
            stack.append(i)
            levels.append(level)
    # children: scanning the live array forward lets newly kept parents cascade
    n = len(lines)
    for i in range(n):
        if not keep[i] or not is_yaml_parent(lines[i]):
            continue
        base = indentation(lines[i])
        for j in range(i + 1, min(n, i + 1 + CONTEXT_LINES)):
            if not trim_space(lines[j]) or (blocked is not None and blocked[j]):
                continue
            if indentation(lines[j]) <= base:
                break
            keep[j] = True


def expand_section_context(lines: list[str], keep: list[bool], blocked: list[bool] | None = None) -> None:
    """TOML/INI: keep the section header of every kept line, then a few lines under each kept
    header (stopping at the next section; never a ``blocked`` line)."""
    current = -1
    for i, line in enumerate(lines):
        if _SECTION.fullmatch(line):
            current = i
        elif keep[i] and current >= 0 and (blocked is None or not blocked[current]):
            keep[current] = True
    n = len(lines)
    for i in [i for i, k in enumerate(keep) if k and _SECTION.fullmatch(lines[i])]:
        for j in range(i + 1, min(n, i + 1 + CONTEXT_LINES)):
            if _SECTION.fullmatch(lines[j]):
                break
            if blocked is None or not blocked[j]:
                keep[j] = True
