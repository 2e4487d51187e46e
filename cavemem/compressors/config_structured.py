"""The config compressor's structured stage: long comment blocks and stanza families.

The spec's line-level stage (:mod:`.config`) cannot shorten a config whose every line is
distinct — a channel manifest of hash-bearing target tables, a file of resource definitions, a
unit file under a licence banner. Where that stage keeps more than half the lines, this one also

- replaces runs of ≥ 3 comment lines (banners, essays, commented-out defaults) with
  ``# … N comment lines elided (caveman) …``; a comment paragraph of ≤ 4 lines right above a
  setting documents it and stays, and so does a comment line a query or an alarm points at;
- keeps one exemplar of each family of same-shaped stanzas (:mod:`.config_stanzas`) and replaces
  the other members with ``# … N config lines elided (caveman): 29 more [pkg.x.target.*] tables;
  target: a, b, …; all available=true …`` — the names and shared values of exactly the hidden
  members. Members a query matches best, members with an alarm, members with keys no exemplar
  shows, and YAML members defining an anchor that a shown line aliases are kept too.

Everything else still goes through the spec's rules (forced keeps, query lines, redundancy gate,
parent/section context), and a marker is only used where it costs at most half of what it hides.
"""

from __future__ import annotations

import re

from ..gocompat import trim_space
from .config import SEVERE, expand_section_context, expand_yaml_context, forced_keeps, marker, named_marker, shown_sections
from .config_stanzas import (
    Family,
    Stanza,
    aliases_used,
    anchors_defined,
    choose_exemplars,
    family_summary,
    is_comment,
    query_members,
    section_families,
    yaml_families,
)
from .config_guard import is_setting, keep_unseen_settings
from .lineends import splice_dropped
from .redundancy import keep_non_redundant
from .relevance import CONFIG_LIMIT, RELEVANCE_THRESHOLD, keep_query_relevant

COMMENT_RUN_MIN = 3  # comment lines that make a block worth a marker
DOC_COMMENT_MAX = 4  # a comment paragraph this short, right above a setting, documents it
MAX_ANCHOR_ROUNDS = 8

_ALARM = re.compile(r"\b(?:ERROR|FAIL|FAILED|FATAL|PANIC|EXCEPTION|WARNING|DENIED|REJECTED|ROLLBACK)\b", re.I | re.A)
_KEY_PART = re.compile(r"[\t ]*(?:-[\t ]*)?([^:=#\t ][^:=#]{0,200}?)[\t ]*[:=]")


def comment_marker(count: int) -> str:
    return f"# … {count} comment lines elided (caveman) …"


def structured_lines(lines: list[str], yaml: bool, query: str, cr: str) -> list[str] | None:
    """The output lines with long comment blocks and the non-exemplar members of stanza families
    elided (see :mod:`.config_stanzas`), or None when YAML anchors cannot be kept consistent.

    Family members are judged whole: a query picks the members that match it best (not every
    member with one matching line), and an alarm keeps its member. Lines outside families follow
    the spec's rules (forced keeps, query lines, redundancy gate, context)."""
    n = len(lines)
    families = yaml_families(lines) if yaml else section_families(lines)
    in_member = [False] * n
    for fam in families:
        for st in fam.members:
            for i in range(st.start, st.end):
                in_member[i] = True
    keep = forced_keeps(lines, yaml)
    severe = [bool(SEVERE.search(line)) for line in lines]
    relevant = severe[:]
    if query:
        # the line-level query limit is spent outside families (members are chosen whole by
        # query_members) and on comment lines anywhere: a matching comment is never blocked
        comment = [is_comment(line, not yaml) for line in lines]
        probe = [k or (m and not c) for k, m, c in zip(keep, in_member, comment)]
        keep_query_relevant(probe, lines, query, CONFIG_LIMIT, RELEVANCE_THRESHOLD)
        for i in range(n):
            if probe[i] and not keep[i] and not (in_member[i] and not comment[i]):
                relevant[i] = True
                keep[i] = keep[i] or not in_member[i]
    forced = [_forced_members(fam, lines, severe) | query_members(fam, lines, query) for fam in families]
    plan = _plan(lines, yaml, families, forced, relevant)
    if plan is None:
        return None
    blocked, exemplar = plan
    for i in range(n):
        if blocked[i]:
            keep[i] = False
        elif exemplar[i]:
            keep[i] = True
    # what is neither elided nor an exemplar goes through the spec's redundancy gate
    open_idx = [i for i in range(n) if not blocked[i]]
    sub = [keep[i] for i in open_idx]
    keep_non_redundant([lines[i] for i in open_idx], sub)
    for i, k in zip(open_idx, sub):
        keep[i] = k
    keep_unseen_settings(lines, keep, yaml, blocked)
    if yaml:
        expand_yaml_context(lines, keep, blocked)
    else:
        expand_section_context(lines, keep, blocked)
    return _emit(lines, keep, families, not yaml, cr)


def _forced_members(fam: Family, lines: list[str], severe: list[bool]) -> set[int]:
    """Members with an alarm (error, failure, rollback …) — each is kept — or with a new kind of
    sensitive key (token, password …): one member per key name shows how it is set."""
    out: set[int] = set()
    seen: set[str] = set()
    for k, st in enumerate(fam.members):
        for i in range(st.start, st.end):
            if not severe[i]:
                continue
            if _ALARM.search(lines[i]):
                out.add(k)
                break
            key = _KEY_PART.match(lines[i])
            name = key.group(1).lower() if key else trim_space(lines[i]).lower()
            if name not in seen:
                seen.add(name)
                out.add(k)
    return out


def _plan(lines: list[str], yaml: bool, families: list[Family], forced: list[set[int]], relevant: list[bool]):
    """(blocked, exemplar) line masks. Members of a family nested in an elided member are moot.
    A YAML member that defines an anchor some shown line aliases is pinned as an exemplar; the
    plan is redone until stable (None if that does not settle quickly)."""
    n = len(lines)
    pinned: set[tuple[int, int]] = set()
    for _ in range(MAX_ANCHOR_ROUNDS):
        blocked = [False] * n
        exemplar = [False] * n
        _block_comment_runs(lines, not yaml, relevant, blocked)
        for f, fam in enumerate(families):
            if blocked[fam.members[0].start]:
                fam.elided = [True] * len(fam.members)  # inside an elided ancestor
                continue
            choose_exemplars(fam, forced[f], lines)
            for k, st in enumerate(fam.members):
                if (f, k) in pinned:
                    fam.elided[k] = False
                rng = range(st.start, st.end)
                if fam.elided[k]:
                    for i in rng:
                        blocked[i] = True
                    _block_leading_comments(lines, not yaml, st.start, blocked)
                else:
                    for i in rng:
                        exemplar[i] = True
        if not yaml:
            return blocked, exemplar
        used: set[str] = set()
        for i in range(n):
            if not blocked[i] and "*" in lines[i]:
                used |= aliases_used(lines[i])
        if not used:
            return blocked, exemplar
        more = {
            (f, k)
            for f, fam in enumerate(families)
            for k, st in enumerate(fam.members)
            if fam.elided[k] and (f, k) not in pinned and used & anchors_defined(lines, st.start, st.end)
        }
        if not more:
            return blocked, exemplar
        pinned |= more
    return None


def _block_comment_runs(lines: list[str], ini: bool, relevant: list[bool], blocked: list[bool]) -> None:
    """Block long comment blocks, keeping doc comments and relevant comment lines.

    A *paragraph* is a run of comment lines with no blank between; it *documents* the line
    right below it when that is a setting and it has ≤ DOC_COMMENT_MAX lines — it then stays
    with its setting. The other paragraphs, merged across blank lines, are blocked where they
    add up to ≥ COMMENT_RUN_MIN comment lines (licence banners, essays, commented-out defaults)."""
    n = len(lines)
    run: list[int] = []  # comment lines of the current run of non-doc paragraphs

    def flush() -> None:
        if len(run) >= COMMENT_RUN_MIN:
            for k in run:
                if not relevant[k]:
                    blocked[k] = True
        run.clear()

    i = 0
    while i < n:
        if not is_comment(lines[i], ini):
            if trim_space(lines[i]):
                flush()  # a setting ends the run; blank lines do not
            i += 1
            continue
        j = i
        while j < n and is_comment(lines[j], ini):
            j += 1
        documents = j < n and bool(trim_space(lines[j])) and j - i <= DOC_COMMENT_MAX
        if documents:
            flush()
        else:
            run.extend(range(i, j))
        i = j
    flush()


def _block_leading_comments(lines: list[str], ini: bool, start: int, blocked: list[bool]) -> None:
    """The comment paragraph right above an elided stanza goes with it."""
    k = start - 1
    while k >= 0 and is_comment(lines[k], ini):
        blocked[k] = True
        k -= 1


def _emit(lines: list[str], keep: list[bool], families: list[Family], ini: bool, cr: str) -> list[str]:
    """Kept lines verbatim; each dropped run becomes one marker: a comment marker when it holds
    only comments, a family summary when its content is elided members of one family, else the
    spec's config marker. A single dropped line no longer than its marker stays verbatim."""
    starts: dict[int, tuple[Family, Stanza]] = {}
    for fam in families:
        for k, st in enumerate(fam.members):
            if fam.elided[k]:
                starts.setdefault(st.start, (fam, st))
    shown = shown_sections(lines, keep) if ini else set()
    return splice_dropped(lines, keep, lambda i, j: _run_output(lines, i, j, starts, ini, cr, shown))


def _run_output(lines: list[str], i: int, j: int, starts: dict, ini: bool, cr: str, shown: set[str]) -> list[str]:
    """The output for the dropped run ``lines[i:j]``. TOML/INI: one marker naming every hidden
    section (:func:`.config.named_marker`). YAML: the run is cut into spans of elided members of
    one family and spans of other lines, each given its own marker (or kept): a family span's
    marker lists every member it hides, so a fold never drops a name unsaid."""
    if ini:
        return _ini_run(lines, i, j, starts, cr, shown)
    out: list[str] = []
    for a, b, family, members, _ in _spans(lines, i, j, starts, ini):
        out.extend(_span_output(lines, a, b, family, members, ini, cr))
    return out


def _spans(lines: list[str], i: int, j: int, starts: dict, ini: bool):
    """[start, end, family, members, has_setting] spans of ``lines[i:j]``: consecutive elided
    members of one family (with the blank and comment lines around them), or other lines (family
    None)."""
    spans: list = []
    k = i
    while k < j:
        hit = starts.get(k)
        if hit is not None and hit[1].end <= j:
            fam, st = hit
            last = spans[-1] if spans else None
            if last is not None and (last[2] is fam or (last[2] is None and not last[4])):
                last[1], last[2] = st.end, fam  # a lead of blank and comment lines joins the family
                last[3].append(st)
            else:
                spans.append([k, st.end, fam, [st], False])
            k = st.end
            continue
        setting = is_setting(lines[k], not ini)
        if spans and (spans[-1][2] is None or not setting):
            spans[-1][1] = k + 1  # blank and comment lines go with the span they follow
            spans[-1][4] = spans[-1][4] or setting
        else:
            spans.append([k, k + 1, None, [], setting])
        k += 1
    return spans


def _span_output(lines: list[str], i: int, j: int, family: Family | None, members: list[Stanza], ini: bool, cr: str) -> list[str]:
    """One marker for ``lines[i:j]``, or the lines themselves when a marker would not pay (a
    lone line no longer than the spec's marker; a marker costing over half of what it hides) or
    cannot name every elided member."""
    count = j - i
    plain = marker(count)
    if count == 1 and family is None:
        return [lines[i]] if len(lines[i].encode()) <= len((plain + cr).encode()) else [plain + cr]
    hidden = sum(len(lines[x].encode("utf-8", "surrogatepass")) + 1 for x in range(i, j))
    if family is not None:
        summary = family_summary(family, members, hidden)
        if summary is None:
            return lines[i:j]
        text = f"{plain[:-2]}: {summary} …"
    elif any(trim_space(lines[k]) and not is_comment(lines[k], ini) for k in range(i, j)):
        text = plain  # the spec's own kind of run (settings shown elsewhere, blank lines)
    elif any(trim_space(lines[k]) for k in range(i, j)):
        text = comment_marker(count)
    else:
        text = plain
    if 2 * len(text.encode()) > hidden:
        return lines[i:j]
    return [text + cr]


def _ini_run(lines: list[str], i: int, j: int, starts: dict, cr: str, shown: set[str]) -> list[str]:
    """TOML/INI: a run of only comments gets the comment marker; otherwise the marker names every
    hidden section, with the family summary when the run is elided members of one family only."""
    count = j - i
    plain = marker(count)
    if count == 1:
        return [lines[i]] if len(lines[i].encode()) <= len((plain + cr).encode()) else [plain + cr]
    spans = _spans(lines, i, j, starts, True)
    families = {id(sp[2]): sp[2] for sp in spans if sp[2] is not None}
    other = any(sp[4] for sp in spans)
    family = next(iter(families.values())) if len(families) == 1 and not other else None
    hidden = sum(len(lines[x].encode("utf-8", "surrogatepass")) + 1 for x in range(i, j))
    if families or other:
        members = [st for sp in spans for st in sp[3]]
        summary = (family_summary(family, members, hidden, labels=False) or "") if family is not None else ""
        return named_marker(lines, i, j, cr, shown, summary, verbatim=True)
    text = comment_marker(count) if any(trim_space(lines[k]) for k in range(i, j)) else plain
    if 2 * len(text.encode()) > hidden:
        return lines[i:j]
    return [text + cr]
