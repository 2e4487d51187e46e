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


def fold(lines: list[str], keep: list[bool], hits: list, cr: str, marker) -> list[str] | None:
    """The view of ``lines`` under ``keep`` (the reference stage's decision per line), or None
    when there are no hits or a line would read as a hit of the file above it. Consecutive hits
    of one file are grouped under its path; a file's lone hit stays flat (``path:9: …`` when its
    text is elided), which costs no more than a group of one."""
    if not any(hits):
        return None
    out: list[str] = []
    current: str | None = None  # the path whose group the next lines extend
    elided = 0
    seen: set[tuple[str, str]] = set()

    def repeat(k: int) -> bool:
        """A dropped copy of a hit already shown (concatenated outputs): a marker covers it."""
        return not keep[k] and (hits[k].group(1), hits[k].group(2)) in seen

    def same_file_next(k: int, path: str) -> bool:
        return k + 1 < n and hits[k + 1] is not None and hits[k + 1].group(1) == path and not repeat(k + 1)

    i, n = 0, len(lines)
    while i < n:
        m = hits[i]
        if m is not None and not repeat(i):
            path = m.group(1)
            seen.add((path, m.group(2)))
            if GROUP and path != current and same_file_next(i, path):
                if _LOOKS_LIKE_HIT.match(path):
                    return None
                out.append(path + cr)
                current = path
            if path != current:
                current = None  # a flat line ends the group above it
            prefix = "" if path == current else path + ":"
            if keep[i]:
                out.append(lines[i] if prefix else lines[i][len(path) + 1 :])
            else:
                out.append(prefix + elided_hit(m.group(2), cr))
                elided += 1
            i += 1
            continue
        j = i + 1
        current = None
        if not keep[i]:  # a run of dropped non-hit lines (context, separators) and repeats
            while j < n and not keep[j] and (hits[j] is None or repeat(j)):
                j += 1
            if j - i > 1 or len(lines[i]) > len(marker(1)):
                out.append(marker(j - i) + cr)
                i = j
                continue
        if _LOOKS_LIKE_HIT.match(lines[i]):
            return None
        out.append(lines[i])
        i = j
    if elided:
        out.append(note(elided, cr))
    return out
