"""``a11y``: compact a CDP accessibility tree (spec engine-compressors §3.13). Force-only.

A full ``Accessibility.getFullAXTree`` dump is mostly wrappers, ignored nodes and text that
repeats its parent's name. The model needs one line per meaningful control or landmark:
``[u16] button "Save settings" {focused}``. Interactive nodes get a short handle (``u`` +
base-36 backend DOM id); the recovery metadata maps each handle back to
``{backendDOMNodeId, frameId, nodeId}`` so a browser tool can act on it.

With a query only the best-matching records (≤ 12), their ancestors and the whole table row /
list item around each match are kept; no match at all gives the page line plus
``note "no accessible match"``.

Quirk decisions (spec §9.6): kept as the reference does it — ``{editable:false}`` keeps an
otherwise empty generic node, and handles are numbered before the drop rules run (so a dropped
node can consume ``_2``); both are deterministic.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from ..gocompat import char_runs, fields, go_lower, marshal, trim_space
from .a11y_nodes import AXDecodeError, AXNode, parse_nodes
from .base import Compressor, Metadata

MAX_QUERY_MATCHES = 12
# Real trees render far smaller than their JSON (the reference's golden fixture: ≤ 1/50); only
# a pathologically deep chain can grow (indentation is quadratic in depth), so output beyond
# this multiple of the input passes the input through instead.
MAX_OUTPUT_GROWTH = 4
STATE_NAMES = ("disabled", "checked", "expanded", "selected", "focused", "editable")
INTERACTIVE_ROLES = frozenset(
    "button checkbox combobox link menuitem menuitemcheckbox menuitemradio option radio searchbox "
    "slider spinbutton switch tab textbox treeitem".split()
)
STRUCTURAL_ROLES = frozenset(
    "main navigation region group generic none presentational heading paragraph statictext "
    "inlinetextbox labeltext list listitem table row cell rowheader columnheader grid tree directory "
    "separator toolbar banner complementary contentinfo article figure img image form status alert "
    "log timer tooltip document".split()
)
PAGE_ROLES = frozenset({"rootwebarea", "webarea"})
WRAPPER_ROLES = frozenset({"generic", "presentational", "none"})
DISPLAY_ROLES = {"rootwebarea": "page", "webarea": "page", "statictext": "text", "labeltext": "label"}


@dataclass
class Record:
    depth: int
    role: str
    name: str
    value: str
    state: dict = field(default_factory=dict)
    uid: str = ""

    def labels(self) -> list[str]:
        s = self.state
        out = []
        if s.get("disabled"):
            out.append("disabled")
        if "checked" in s:
            out.append("checked" if s["checked"] else "unchecked")
        if "expanded" in s:
            out.append("expanded" if s["expanded"] else "collapsed")
        out += [k for k in ("selected", "focused", "editable") if s.get(k)]
        return out


# -- value helpers (Go formatting) -----------------------------------------------------------


def format_float_positional(x: float) -> str:
    """G16 ``strconv.FormatFloat(x, 'f', -1, 64)``: shortest digits, never an exponent."""
    if x == 0:
        return "-0" if str(x).startswith("-") else "0"
    from decimal import Decimal

    text = format(Decimal(repr(x)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


_QUOTE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}


def go_quote_strconv(s: str) -> str:
    """G15 ``strconv.Quote``: printable runes raw, everything else escaped."""
    out = ['"']
    for c in s:
        esc = _QUOTE_ESCAPES.get(c)
        if esc is not None:
            out.append(esc)
        elif c == " " or unicodedata.category(c)[0] in "LMNPS":
            out.append(c)
        else:
            cp = ord(c)
            out.append(f"\\x{cp:02x}" if cp < 0x80 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}")
    out.append('"')
    return "".join(out)


def compact(v) -> str:
    """compactAXString: one line of text for any AX value."""
    if v is None:
        return ""
    if isinstance(v, str):
        return " ".join(fields(v))
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return format_float_positional(v)
    return " ".join(fields(marshal(v)))


def _ax(v) -> str:
    return compact(v.value) if v is not None else ""


def _state_value(name: str, v):
    """The bool a state property means, or None when it means nothing we know."""
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        t = go_lower(trim_space(v))
        if t in ("true", "1", "yes"):
            return True
        if t in ("false", "0", "no", ""):
            return False
        if t == "mixed" and name == "checked":
            return True
        if t in ("plaintext", "richtext") and name == "editable":
            return True
        return None
    if isinstance(v, float) and name != "editable":
        return v != 0
    return None


def _loosely_true(v) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        return go_lower(trim_space(v)) in ("true", "1", "yes")
    return isinstance(v, float) and v != 0


def base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


# -- tree walk ---------------------------------------------------------------------------------


def _validate(nodes: list[AXNode]) -> None:
    seen: set[str] = set()
    any_visible = False
    for n in nodes:
        if not n.nodeId or n.nodeId in seen:
            raise AXDecodeError("node ids must be non-empty and unique")
        seen.add(n.nodeId)
        if not n.ignored:
            if not _ax(n.role):
                raise AXDecodeError(f"node {n.nodeId} has no role")
            any_visible = True
    if not any_visible:
        raise AXDecodeError("every node is ignored")


class _Walk:
    def __init__(self, nodes: list[AXNode]):
        self.by_id = {n.nodeId: n for n in nodes}
        self.records: list[Record] = []
        self.uids: dict[str, dict] = {}
        self.uid_counts: dict[str, int] = {}
        referenced = {c for n in nodes for c in n.childIds}
        roots = [n for n in nodes if n.nodeId not in referenced] or nodes
        visited: set[str] = set()
        for start in roots + nodes:
            if start.nodeId in visited:
                continue
            stack = [(start.nodeId, 0)]
            while stack:
                nid, depth = stack.pop()
                node = self.by_id.get(nid)
                if node is None or nid in visited:
                    continue
                visited.add(nid)
                child_depth = depth if node.ignored or not self._record(node, depth) else depth + 1
                stack.extend((c, child_depth) for c in reversed(node.childIds))

    def _record(self, node: AXNode, depth: int) -> bool:
        """Build the record for ``node``; False when it is dropped (children keep its depth)."""
        role, name, value = _ax(node.role), _ax(node.name), _ax(node.value)
        state: dict[str, bool] = {}
        props: dict[str, object] = {}
        for p in node.properties:
            props[p.name] = p.value.value
            if p.name in STATE_NAMES:
                b = _state_value(p.name, p.value.value)
                if b is not None:
                    state[p.name] = b
        low = go_lower(role)
        poked = _loosely_true(props.get("focusable")) or _loosely_true(props.get("clickable"))
        rec = Record(depth, role, name, value, state)
        backend = node.backendDOMNodeId or node.backendDOMNodeID
        if backend > 0 and low not in PAGE_ROLES and (low in INTERACTIVE_ROLES or poked or low not in STRUCTURAL_ROLES):
            rec.uid = self._assign_uid(backend, node)
        if low == "inlinetextbox":
            return False
        if low == "labeltext" and not name and not value and not state:
            return False
        if low in WRAPPER_ROLES and not name and not value and state in ({}, {"editable": True}) and not poked:
            return False
        self.records.append(rec)
        return True

    def _assign_uid(self, backend: int, node: AXNode) -> str:
        uid = "u" + base36(backend)
        seen = self.uid_counts.get(uid, 0) + 1
        self.uid_counts[uid] = seen
        if seen > 1:
            uid = f"{uid}_{seen}"
        entry: dict[str, object] = {"backendDOMNodeId": backend}
        frame = node.frameId or node.frameID
        if frame:
            entry["frameId"] = frame
        entry["nodeId"] = node.nodeId
        self.uids[uid] = entry
        return uid


def _prune_duplicate_text(records: list[Record]) -> list[Record]:
    said = set()
    for r in records:
        if go_lower(r.role) not in ("statictext", "inlinetextbox"):
            said.add(go_lower(trim_space(r.name)))
            said.add(go_lower(trim_space(r.value)))
    out = []
    for r in records:
        if go_lower(r.role) == "statictext":
            if go_lower(trim_space(r.name)) in said:
                continue
            r.state = {}
        out.append(r)
    return out


# -- query focus -------------------------------------------------------------------------------


def query_terms(query: str) -> list[str]:
    return char_runs(go_lower(query), lambda c: unicodedata.category(c)[0] in "LN")


def parent_indexes(records: list[Record]) -> list[int]:
    """For each record, the nearest earlier record one level up (-1 if none). Following these
    links walks "the nearest earlier record at depth-1, then depth-2, …" in O(depth)."""
    parents, last_at = [], {}
    for i, r in enumerate(records):
        parents.append(last_at.get(r.depth - 1, -1))
        last_at[r.depth] = i
    return parents


def _chain(parents: list[int], i: int):
    j = parents[i]
    while j >= 0:
        yield j
        j = parents[j]


def focus(records: list[Record], query: str) -> list[Record]:
    terms = query_terms(query)
    if not terms:
        return records
    scores = []
    for r in records:
        hay = go_lower(" ".join([r.role, r.name, r.value, " ".join(r.labels())]))
        scores.append(sum(1 for t in terms if t in hay))
    best = max(scores)
    if best == 0:
        first = records[0]
        return [Record(0, first.role, first.name, first.value, first.state, first.uid), Record(1, "note", "no accessible match", "")]
    parents = parent_indexes(records)
    lowest = best if best == len(terms) else 1
    keep = [False] * len(records)
    taken = 0
    for wanted in range(best, lowest - 1, -1):
        for i, s in enumerate(scores):
            if taken == MAX_QUERY_MATCHES:
                break
            if s == wanted:
                taken += 1
                keep[i] = True
                for j in _chain(parents, i):
                    keep[j] = True
    # line items: the row / list item around a kept record is kept whole (role match is exact)
    item_of = []
    for i, r in enumerate(records):
        item_of.append(i if r.role in ("row", "listitem") else (item_of[parents[i]] if parents[i] >= 0 else -1))
    expanded: set[int] = set()
    for i in range(len(records)):
        item = item_of[i] if keep[i] else -1
        if item < 0 or item in expanded:
            continue
        expanded.add(item)
        keep[item] = True
        k = item + 1
        while k < len(records) and records[k].depth > records[item].depth:
            keep[k] = True
            k += 1
    # re-depth: a kept record sits under the kept ancestors still open above it; the open
    # depths form an increasing stack, closed by any record (kept or not) at or above them
    out, open_depths = [], []
    for i, r in enumerate(records):
        while open_depths and open_depths[-1] >= r.depth:
            open_depths.pop()
        if keep[i]:
            out.append(Record(len(open_depths), r.role, r.name, r.value, r.state, r.uid))
            open_depths.append(r.depth)
    return out


# -- render ------------------------------------------------------------------------------------


class OutputTooLarge(AXDecodeError):
    pass


def render(records: list[Record], max_chars: int | None = None) -> str:
    """One line per record. ``max_chars`` stops a pathologically deep tree (indentation grows
    quadratically with depth) long before it could exhaust memory."""
    lines, size = [], 0
    for r in records:
        low = go_lower(r.role)
        parts = ["  " * r.depth + (f"[{r.uid}] " if r.uid else "") + DISPLAY_ROLES.get(low, low)]
        if r.name:
            parts.append(" " + go_quote_strconv(r.name))
        if r.value and r.value != r.name:
            parts.append(" = " + go_quote_strconv(r.value))
        labels = r.labels()
        if labels:
            parts.append(" {" + ",".join(labels) + "}")
        line = "".join(parts)
        size += len(line) + 1
        if max_chars is not None and size > max_chars:
            raise OutputTooLarge("rendered tree would be larger than the input allows")
        lines.append(line)
    return "\n".join(lines)


def compact_tree(data: bytes, query: str = "") -> tuple[str, dict]:
    """(rendered tree, uid map); raises :class:`AXDecodeError` when the input is not a tree."""
    nodes = parse_nodes(data)
    _validate(nodes)
    walk = _Walk(nodes)
    records = _prune_duplicate_text(walk.records)
    if not records:
        raise AXDecodeError("nothing visible")
    records = focus(records, query)
    visible = {r.uid for r in records if r.uid}
    text = render(records, MAX_OUTPUT_GROWTH * len(data))
    return text, {u: e for u, e in walk.uids.items() if u in visible}


class AXTreeCompressor(Compressor):
    content_type = "a11y"

    def compress(self, data: bytes) -> bytes | None:
        got = self.compress_with_metadata(data, "")
        return None if got is None else got[0]

    def compress_with_metadata(self, data: bytes, query: str) -> tuple[bytes, Metadata] | None:
        try:
            text, uids = compact_tree(data, query or "")
        except (AXDecodeError, RecursionError):
            return None
        meta = marshal({"uids": uids}).encode("utf-8")
        return text.encode("utf-8"), Metadata(method="a11y", lossless_to_model=False, recovery_metadata=meta)
