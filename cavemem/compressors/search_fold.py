"""Grouped view of grep hits for ``search-result``: every ``path:line`` stays visible.

The reference stage drops look-alike hits whole, so the model no longer sees *where* they were
(issue 9: a hit must never vanish without its ``path:line``). Most real searches put many hits in
one file, and repeating a long path on every line is most of what such output costs. This view
prints each file's path once, ripgrep ``--heading`` style, followed by its hits without the
prefix::

    lib/commands/owner.js
    6:const BaseCommand = require('../base-cmd.js')
    9: …

A hit the reference rules would drop keeps its line number and loses only its text (``9: …``);
dropped runs of non-hit lines become the usual ``… N search result lines elided (caveman) …``;
one note at the end says how many hit texts were elided. Kept lines are verbatim after the
``path:`` prefix (``12:5: msg`` for ``path:12:5: msg``), with their own line endings.

Context lines of ``grep -A/-B/-C`` (``path-12-text``) join the group of their block's hits as
``12-text``, as ``rg --heading -C`` prints them: a context line is one whose prefix is the path
of a hit in the same ``--``-separated block followed by ``-N-``, so a path holding ``-`` is
never split at a guess. A ``--`` separator line ends the group (the next block names its path
again).
"""

from __future__ import annotations

import re

from .invariants import ELISION_NOTE_PREFIX

# a line the grouped reading would take for a hit of the file above it
GROUP = True
_LOOKS_LIKE_HIT = re.compile(r"\s*[0-9]+[:-]")


def elided_hit(line_no: str, cr: str) -> str:
    return f"{line_no}: \u2026{cr}"


def note(count: int, cr: str) -> str:
    return f"{ELISION_NOTE_PREFIX}the text of {count} hits shown as `N: \u2026`; caveman_retrieve gives it back \u2026{cr}"


_CONTEXT_SEP = re.compile(r"-[0-9]+-")
MAX_PATH_CHARS = 240  # as the hit shape's path


def context_paths(lines: list[str], hits: list) -> list[str | None]:
    """Per line, the path of the hit whose context line it is (``path-12-text`` in a block with a
    hit of ``path``), else None. Blocks are the runs between ``--`` separator lines."""
    out: list[str | None] = [None] * len(lines)
    start = 0
    for end in [k for k, line in enumerate(lines) if line.rstrip("\r") == "--"] + [len(lines)]:
        paths = {hits[k].group(1) for k in range(start, end) if hits[k] is not None}
        for k in range(start, end) if paths else ():
            if hits[k] is None:  # each ``-N-`` of the line's head, tried as the end of a path (a set lookup)
                heads = (lines[k][: m.start()] for m in _CONTEXT_SEP.finditer(lines[k], 0, MAX_PATH_CHARS + 12))
                out[k] = next((p for p in heads if p in paths), None)
        start = end + 1
    return out


def _cheaper_shown(lines: list[str], hits: list, context: list, i: int, j: int, current: str | None, marker_size: int) -> bool:
    """Whether the dropped non-hit lines ``lines[i:j]`` cost no more shown than their marker (a
    blank context line and a ``--``): context lines of the open group without their path."""
    if any(hits[k] is not None for k in range(i, j)):
        return False
    size = 0
    for k in range(i, j):
        path = context[k]
        size += len(lines[k]) - (len(path) + 1 if path is not None and path == current else 0)
        if size > marker_size:
            return False
    return True


def fold(lines: list[str], keep: list[bool], hits: list, cr: str, marker) -> list[str] | None:
    """The view of ``lines`` under ``keep`` (the reference stage's decision per line), or None
    when there are no hits or a line would read as a hit of the file above it. Consecutive hits
    (and kept context lines) of one file are grouped under its path; a file's lone hit stays
    flat (``path:9: …`` when its text is elided), which costs no more than a group of one."""
    if not any(hits):
        return None
    context = context_paths(lines, hits)
    keep = list(keep)  # a cheap dropped run is shown instead (``_cheaper_shown``)
    out: list[str] = []
    current: str | None = None  # the path whose group the next lines extend
    elided = 0
    seen: set[tuple[str, str]] = set()

    def repeat(k: int) -> bool:
        """A dropped copy of a hit already shown (concatenated outputs): a marker covers it."""
        return not keep[k] and (hits[k].group(1), hits[k].group(2)) in seen

    def member(k: int) -> str | None:
        """The path of line ``k`` when it is shown as a member of a file's group."""
        if hits[k] is not None:
            return None if repeat(k) else hits[k].group(1)
        return context[k] if keep[k] else None

    i, n = 0, len(lines)
    while i < n:
        path = member(i)
        if path is not None:
            m = hits[i]
            if m is not None:
                seen.add((path, m.group(2)))
            if GROUP and path != current and i + 1 < n and member(i + 1) == path:
                if _LOOKS_LIKE_HIT.match(path):
                    return None
                out.append(path + cr)
                current = path
            if path != current:
                current = None  # a flat line ends the group above it
            if keep[i]:
                out.append(lines[i] if path != current else lines[i][len(path) + 1 :])
            else:
                out.append(("" if path == current else path + ":") + elided_hit(m.group(2), cr))
                elided += 1
            i += 1
            continue
        j = i + 1
        if not keep[i]:  # a run of dropped non-hit lines (context, separators) and repeats
            while j < n and not keep[j] and (hits[j] is None or repeat(j)):
                j += 1
            if _cheaper_shown(lines, hits, context, i, j, current, len(marker(j - i))):
                keep[i:j] = [True] * (j - i)  # shown as they are: the marker would cost more
                continue
            current = None
            out.append(marker(j - i) + cr)
            i = j
            continue
        current = None
        if _LOOKS_LIKE_HIT.match(lines[i]):
            return None
        out.append(lines[i])
        i = j
    if elided:
        out.append(note(elided, cr))
    return out
