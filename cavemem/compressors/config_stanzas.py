"""Stanza families for the config compressor: many same-shaped blocks, a few exemplars.

Real configs are often long runs of *stanzas* that share one shape and differ only in values —
``[pkg.cargo.target.<triple>]`` tables with the same five keys, YAML resources with
``name/collection/attributes``, list items with ``name/image/replicas``. Line-level redundancy
cannot drop them (every hash, URL and name is distinct), yet the model learns the shape from one
stanza. Here we find those runs and choose which members to show:

- a *stanza* is a TOML/INI section (header plus body) or a YAML block (a key or ``-`` item line
  with its deeper-indented lines);
- a *family* is a run of ≥ :data:`FAMILY_MIN` consecutive sibling stanzas of ≥
  :data:`MIN_MEMBER_LINES` content lines whose key shapes overlap (Jaccard ≥
  :data:`SHAPE_SIMILARITY`); for TOML/INI the headers must also differ in one dotted slot only
  (``[pkg.cargo.target.*]``). Two-line items (``- keyword: x`` / ``severity: y``) are data rows,
  left to the line-level rules;
- *exemplars* are kept whole: the first member, members the caller forces (best query matches,
  alarms), and every member that shows a key path no earlier exemplar showed. The other members
  are elided; :func:`family_summary` names the hidden members and states what they share, from
  exactly those members (via :mod:`.invariants`).

Inner families of kept exemplars and of non-family blocks are handled the same way (YAML).
Everything here is linear in the number of lines (shapes are capped), and never recursive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..formats.configs import SECTION_HEADER
from ..gocompat import trim_space
from .. import bm25
from .invariants import summarize_elided, value_usable

FAMILY_MIN = 4
SHAPE_SIMILARITY = 0.5
MAX_SHAPE_PATHS = 48
MAX_SHAPE_DEPTH = 3
MAX_FIELDS = 24
MIN_MEMBER_LINES = 3  # smaller blocks are data rows, left to the line-level rules
MEMBER_RELEVANCE = 0.75
MAX_QUERY_MEMBERS = 4
MAX_LABEL_CHARS = 96

_SECTION = SECTION_HEADER
_ASSIGN = re.compile(r"([A-Za-z0-9_.-]+)[\t ]*=[\t ]*(.*)", re.A)
# A YAML mapping key at the start of a line's content: plain (bounded, no ':' or '#') or quoted.
_YAML_KEY = re.compile(r"""([^\s#'"\[\]{},&*!|>%@`-][^:#]{0,200}?|"[^"\n]{0,200}"|'[^'\n]{0,200}')[\t ]*:(?:[\t ]|$)""")
_ANCHOR = re.compile(r"&([^\s,\[\]{}]+)")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_ALIAS = re.compile(r"\*([^\s,\[\]{}]+)")
_KEY_NAME = re.compile(r"""[\t ]*(?:-[\t ]+)?("[^"\n]+"|[^\s:=#"'][^\s:=]*)[\t ]*(?:=|:(?:[\t ]|$))""")


def indentation(line: str) -> int:
    """Leading blanks, a tab counting 2."""
    lead = line[: len(line) - len(line.lstrip(" \t"))]
    return len(lead) + lead.count("\t")


def is_comment(line: str, ini: bool) -> bool:
    """A whole-line comment: ``#`` in every format, ``;`` in INI/TOML files too."""
    t = trim_space(line)
    return bool(t) and (t[0] == "#" or (ini and t[0] == ";"))


@dataclass
class Stanza:
    start: int  # first line
    end: int  # one past its last content line (trailing blanks/comments belong to no stanza)
    label: str  # the name slot: YAML key, the differing section-name part, "" for list items
    fields: dict[str, str]  # direct scalar key/values, for the marker summary
    shape: frozenset  # key paths below the stanza (capped)


@dataclass
class Family:
    members: list[Stanza]
    slot: str  # what the labels name: "target", "section", "key"
    noun: str  # "[pkg.cargo.target.*] tables", "sibling blocks", "list items"
    noun_one: str  # the same for one member
    elided: list[bool] = field(default_factory=list)  # per member


# -- YAML ---------------------------------------------------------------------------------------


class _Node:
    __slots__ = ("line", "indent", "item", "key", "value", "children", "end", "shape", "size")

    def __init__(self, line: int, indent: int, item: bool, key: str, value: str):
        self.line, self.indent, self.item, self.key, self.value = line, indent, item, key, value
        self.children: list[_Node] = []
        self.end = line + 1
        self.shape: frozenset = frozenset()
        self.size = 1  # content lines in the subtree


def _strip_quotes(v: str) -> str:
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        return v[1:-1]
    return v


def _yaml_key_value(content: str) -> tuple[str, str]:
    """(key, value) of ``key: value`` content, or ("", "") when it is not a mapping entry."""
    m = _YAML_KEY.match(content)
    if m is None:
        return "", ""
    return _strip_quotes(m.group(1).rstrip(" \t")), content[m.end() :].strip(" \t")


def _opens_block(value: str) -> bool:
    """``key:`` with nothing, or only an anchor/tag, after the colon (a compact sequence may follow)."""
    return all(part[0] in "&!" for part in value.split()) if value else True


def _parse_yaml(lines: list[str]) -> list[_Node]:
    """Block structure by indentation (sequence items may sit at their parent key's indentation);
    every node gets its end line and its shape."""
    root = _Node(-1, -1, False, "", "")
    stack = [root]
    for i, line in enumerate(lines):
        t = line.strip(" \t\r")
        if not t or t[0] == "#":
            continue
        lead = line[: len(line) - len(line.lstrip(" \t"))]
        ind = len(lead) + lead.count("\t")
        item = t == "-" or t.startswith(("- ", "-\t"))
        key, value = _yaml_key_value(t[1:].strip(" \t") if item else t)
        while len(stack) > 1:
            top = stack[-1]
            if ind > top.indent:
                break
            if ind == top.indent and item and not top.item and top.key and _opens_block(top.value):
                break  # compact sequence under ``key:``
            stack.pop()
        node = _Node(i, ind, item, key, value)
        stack[-1].children.append(node)
        stack.append(node)
    order: list[_Node] = []  # pre-order; walked backwards, children come before their parents
    todo = list(root.children)
    while todo:
        n = todo.pop()
        order.append(n)
        todo.extend(n.children)
    for n in reversed(order):
        if n.children:
            n.end = max(n.end, n.children[-1].end)
            n.size += sum(c.size for c in n.children)
        n.shape = _yaml_shape(n)
    return root.children


def _yaml_shape(n: _Node) -> frozenset:
    """Relative key paths under ``n`` (``-`` for a sequence item), ≤ 3 levels, ≤ 48 paths."""
    paths: set[str] = set()
    if n.item and n.key:
        paths.add(n.key)  # ``- name: x``: the inline key is one of the item's keys
    for c in n.children:
        seg = "-" if c.item else (c.key or "?")
        paths.add(seg)
        for p in c.shape:
            if p.count("/") < MAX_SHAPE_DEPTH - 1:
                paths.add(seg + "/" + p)
        if len(paths) >= MAX_SHAPE_PATHS:
            break
    return frozenset(paths)


def _yaml_stanza(n: _Node) -> Stanza:
    fields: dict[str, str] = {}
    if n.item and n.key and n.value:
        fields[n.key] = _strip_quotes(n.value)
    for c in n.children:
        if len(fields) >= MAX_FIELDS:
            break
        if not c.item and c.key and c.value and not c.children and c.key not in fields:
            fields[c.key] = _strip_quotes(c.value)
    return Stanza(n.line, n.end, "" if n.item else n.key, fields, n.shape)


def yaml_families(lines: list[str]) -> list[Family]:
    """Families of same-shaped sibling blocks at every level; a family always comes after the
    families of its ancestors."""
    out: list[Family] = []
    todo = [_parse_yaml(lines)]
    while todo:
        siblings = todo.pop()
        for run in _similar_runs(siblings):
            out.append(_yaml_family(run))
        for n in siblings:
            if n.children:
                todo.append(n.children)
    return out


def _yaml_family(run: list[_Node]) -> Family:
    """Blocks are named by their key; list items by their first key's value when every item
    starts with the same key (``- name: worker-001``)."""
    members = [_yaml_stanza(n) for n in run]
    if not run[0].item:
        return Family(members, "key", "sibling blocks", "sibling block")
    slot = run[0].key
    if slot and all(n.key == slot and n.value for n in run):
        for st in members:
            st.label = st.fields.pop(slot, "")
        return Family(members, slot, "list items", "list item")
    return Family(members, "", "list items", "list item")


def _similar_runs(siblings: list[_Node]) -> list[list[_Node]]:
    """Maximal runs (≥ FAMILY_MIN) of consecutive block siblings of one kind whose shapes overlap
    the run's first member's."""
    runs: list[list[_Node]] = []
    cur: list[_Node] = []
    for n in siblings:
        block = n.size >= MIN_MEMBER_LINES
        if block and cur and cur[0].item == n.item and _similar(cur[0].shape, n.shape):
            cur.append(n)
            continue
        if len(cur) >= FAMILY_MIN:
            runs.append(cur)
        cur = [n] if block else []
    if len(cur) >= FAMILY_MIN:
        runs.append(cur)
    return runs


def _similar(a: frozenset | None, b: frozenset | None) -> bool:
    if not a or not b:
        return False
    return len(a & b) >= SHAPE_SIMILARITY * len(a | b)


# -- TOML / INI ---------------------------------------------------------------------------------


def _section_parts(name: str) -> list[str]:
    return [trim_space(p) for p in name.split(".")]


def section_families(lines: list[str]) -> list[Family]:
    """Runs of sections whose dotted names differ in one slot and whose key sets overlap."""
    stanzas: list[tuple[list[str], Stanza]] = []
    sizes: list[int] = []  # content lines per section
    for i, line in enumerate(lines):
        m = _SECTION.fullmatch(line)
        if m is not None:
            stanzas.append((_section_parts(m.group("name")), Stanza(i, i + 1, "", {}, frozenset())))
            sizes.append(1)
            continue
        if not stanzas:
            continue
        st = stanzas[-1][1]
        t = trim_space(line)
        if not t or t[0] in "#;":
            continue
        st.end = i + 1
        sizes[-1] += 1
        a = _ASSIGN.fullmatch(t)
        if a is not None:
            key = a.group(1)
            st.shape = st.shape | {key} if len(st.shape) < MAX_SHAPE_PATHS else st.shape
            if key not in st.fields and len(st.fields) < MAX_FIELDS:
                st.fields[key] = _strip_quotes(trim_space(a.group(2)))
    families: list[Family] = []
    i = 0
    while i < len(stanzas):
        parts, first = stanzas[i]
        if sizes[i] < MIN_MEMBER_LINES:
            i += 1
            continue
        slot = -1
        j = i + 1
        while j < len(stanzas):
            p2, st = stanzas[j]
            diff = _differing_slot(parts, p2)
            if diff is None or sizes[j] < MIN_MEMBER_LINES or not _similar(first.shape, st.shape):
                break
            if diff >= 0:
                if slot >= 0 and diff != slot:
                    break
                slot = diff
            j += 1
        if j - i >= FAMILY_MIN:
            families.append(_section_family(stanzas[i:j], max(slot, len(parts) - 1)))
            i = j
        else:
            i += 1
    return families


def _differing_slot(a: list[str], b: list[str]) -> int | None:
    """The one index where two dotted names differ; -1 when equal; None when they differ more."""
    if len(a) != len(b):
        return None
    diffs = [k for k in range(len(a)) if a[k] != b[k]]
    if not diffs:
        return -1
    return diffs[0] if len(diffs) == 1 else None


def _section_family(run: list[tuple[list[str], Stanza]], slot: int) -> Family:
    parts = run[0][0]
    for p, st in run:
        st.label = p[slot]
    pattern = ".".join("*" if k == slot else p for k, p in enumerate(parts))
    name = parts[slot - 1] if slot > 0 else "section"
    return Family([st for _, st in run], name, f"[{pattern}] tables", f"[{pattern}] table")


# -- choice and summary ---------------------------------------------------------------------------


def query_members(family: Family, lines: list[str], query: str) -> set[int]:
    """Members the query asks about: BM25 over whole members, within MEMBER_RELEVANCE of the best
    score, at most MAX_QUERY_MEMBERS (a member costs a whole stanza, so only close matches)."""
    if not query:
        return set()
    docs = ["\n".join(lines[st.start : st.end]) for st in family.members]
    scores = bm25.scores(query, docs)
    best = max(scores)
    if best <= 0:
        return set()
    ranked = sorted((k for k, sc in enumerate(scores) if sc >= MEMBER_RELEVANCE * best), key=lambda k: (-scores[k], k))
    return set(ranked[:MAX_QUERY_MEMBERS])


def choose_exemplars(family: Family, forced: set[int], lines: list[str] | None = None) -> None:
    """Fill ``family.elided``: keep the first member, the ``forced`` ones (query or alarm), and
    members showing a key path no kept member showed — or (given ``lines``) a key name at any
    depth no kept member shows, as shapes are capped; elide the rest."""
    shown: set[str] = set()
    names: set[str] = set()
    family.elided = []
    for k, st in enumerate(family.members):
        own = member_keys(lines, st) if lines is not None else frozenset()
        keep = k == 0 or k in forced or not st.shape <= shown or not own <= names
        if keep:
            shown |= st.shape
            names |= own
        family.elided.append(not keep)


def member_keys(lines: list[str], st: Stanza) -> frozenset:
    """Every key name set in the member's lines (``key:``, ``key =``), at any depth, except its
    own label (``feature_17:``): the family marker lists that one."""
    out = set()
    for i in range(st.start, st.end):
        m = _KEY_NAME.match(lines[i])
        if m is not None:
            out.add(m.group(1))
    out.discard(st.label)
    return frozenset(out)


def anchors_defined(lines: list[str], start: int, end: int) -> set[str]:
    return {m.group(1) for i in range(start, end) if "&" in lines[i] for m in _ANCHOR.finditer(lines[i])}


def aliases_used(line: str) -> set[str]:
    return {m.group(1) for m in _ALIAS.finditer(line)} if "*" in line else set()


def _label_usable(v: str) -> bool:
    """A name the marker can quote: short, one line, no marker text, valid UTF-8."""
    if not v or len(v) > MAX_LABEL_CHARS or "caveman" in v or "\u2026" in v or "," in v or _CONTROL.search(v):
        return False
    return v.isascii() or _encodable(v)


def _encodable(v: str) -> bool:
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return True


def family_summary(family: Family, members: list[Stanza], elided_bytes: int, labels: bool = True) -> str | None:
    """What the elided ``members`` are and share, e.g. ``30 more [pkg.cargo.target.*] tables;
    target: aarch64-pc-windows-gnullvm, …; all available=true components=[] extensions=[]``.

    Every member name is listed (``labels=False``: the caller lists the full section names);
    None when a name cannot be quoted in a marker — the caller then keeps the members, since a
    fold must say what it dropped. The rest comes from :func:`.invariants.summarize_elided`."""
    n = len(members)
    parts = [f"{n} more {family.noun if n > 1 else family.noun_one}"]
    names = list(dict.fromkeys(st.label for st in members if st.label)) if labels else []
    if names:
        if not all(map(_label_usable, names)):
            return None
        parts.append(f"{family.slot}: {', '.join(names)}")
    units = [st.fields for st in members]
    if all(units):
        summary = summarize_elided(units, elided_bytes)
        if summary:
            parts.append(summary)
    return "; ".join(parts)
