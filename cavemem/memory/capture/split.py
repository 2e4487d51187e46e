"""One sentence, two updates: "we bumped tf to 1.10 and grafana to 12" changes two memories.

Why split at capture time: a memory's history is one chain (each version supersedes one older
version), so a single memory can replace only one of the two earlier statements; the other would
stay current with its old value. When the clauses of a sentence each state a changed value that a
*different* current memory holds, each clause becomes a memory of its own and supersedes its own
predecessor. A clause that names no value stays with the clause before it; one without a verb
borrows the sentence's change verb ("We bumped grafana to 12").
"""

from __future__ import annotations

import re
from dataclasses import replace

from . import slots

_AT = re.compile(r"\s*(?:,|，|；|;|、)\s*|\s+(?:and|since|because)\s+|\s*(?:以及|而且|并且|还有)\s*", re.I)
_AND = re.compile(r"^(?:and|also|plus)\s+(?=\S)", re.I)
_LEAD_VERB = re.compile(r"^(?P<lead>.*?\b(?:bump\w*|upgrad\w*|mov\w*|chang\w*|switch\w*|migrat\w*|rais\w*|lower\w*|increas\w*|"
                        r"decreas\w*|set|put)\b)\s", re.I)
_VERB = re.compile(r"\b(?:is|are|was|were|runs?|goes|went|bump\w*|upgrad\w*|mov\w*|chang\w*|switch\w*|migrat\w*|now|needs?|uses?)\b|"
                   r"[\u4e00-\u9fff]", re.I)


def _valued_clauses(text: str) -> list[str]:
    """The sentence's clauses, each holding a typed value or saying a job moved ("CI moved to Buildkite");
    a clause with neither, or a lone value ("since Monday"), joins the one before with its own joint."""
    out: list[str] = []
    pieces = re.split(f"({_AT.pattern})", text.rstrip(".!。"), flags=re.I)
    for piece, joint in zip(pieces[::2], [""] + pieces[1::2]):
        piece = piece.strip()
        if not piece:
            continue
        if (slots.values(piece) and len(piece.split()) > 1) or slots._MOVED_AFTER.match(piece) or not out:
            out.append(_AND.sub("", piece) if out else piece)  # "…, and CI moved to Buildkite": "CI moved to Buildkite"
        else:
            out[-1] += (joint if joint.strip() else joint.strip() + " ") + piece
    return out


def _with_verb(clause: str, first: str, verb: re.Pattern = _VERB) -> str:
    """``clause`` with the first clause's change verb when it has none of ``verb``'s words."""
    m = _LEAD_VERB.match(first)
    text = clause if verb.search(clause) or not m or clause is first else f"{m.group('lead')} {clause}"
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "。")) else ".")


def split_changes(memory, project: str, cand) -> list:
    """``cand`` as one candidate, or one per clause when two or more clauses update different memories."""
    if cand.capture_kind in ("bugfix", "explicit") or not slots._CHANGE.search(cand.text):
        return [cand]
    clauses = _valued_clauses(cand.text)
    if len(clauses) < 2:
        return [cand]
    parts = [replace(cand, text=_with_verb(c, clauses[0]), entity=None, replaces=None) for c in clauses]
    probes = [replace(p, text=slots.as_change(_with_verb(c, clauses[0], slots._CHANGE))) for p, c in zip(parts, clauses)]
    olds = [slots.replaced(memory, project, p) for p in probes]
    ids = [o.id for o in olds if o is not None]
    if len(ids) < 2 or len(set(ids)) != len(ids):
        return [cand]
    return [replace(p, supersedes=o.id if o is not None else None) for p, o in zip(parts, olds)]
