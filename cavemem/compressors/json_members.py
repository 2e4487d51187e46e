"""Objects of records elided like arrays (json route addition, issue 9).

Array elision never touched an object, yet much of the biggest real JSON is a map of records
keyed by name: litellm's model table (4,878 models, a megabyte), ``package-lock.json``'s
``packages``, botocore's ``shapes``. Such an object — more than ``ARRAY_THRESHOLD`` members,
every value an object — gets the array rules over its values (head 3 and tail 2 in document
order, error states, outliers, query matches, the redundancy gate over the values without their
keys), plus one rule of its own: a member whose subtree holds an object key no kept member has
stays, so every key name stays readable. The dropped members become one marker set in the
object, listing each dropped member's key and its record's id-like fields::

    "__caveman_elided__": 4602, "__caveman_ids__": "azure/gpt-4o-audio, openai/gpt-4.1-mini, …"

No marker is made when that listing would cost more than a third of what it hides (the object
is then kept whole). An object that already holds a marker is not elided again.
"""

from __future__ import annotations

MIN_DROPPED = 3  # fewer dropped members are not worth a marker


def is_record_map(v: dict, threshold: int) -> bool:
    """More than ``threshold`` members, all objects, and no marker of an earlier pass."""
    from .json_elision import ELIDED_KEY

    return len(v) > threshold and ELIDED_KEY not in v and all(type(x) is dict for x in v.values())


def _keys_of(v, out: set) -> set:
    """Every object key anywhere in ``v``."""
    stack = [v]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            out.update(node)
            stack.extend(x for x in node.values() if type(x) in (dict, list))
        elif type(node) is list:
            stack.extend(x for x in node if type(x) in (dict, list))
    return out


def keep_new_keys(values: list, keep: list[bool]) -> None:
    """Promote (in place) each dropped value holding an object key no kept value holds."""
    seen: set = set()
    for v, k in zip(values, keep):
        if k:
            _keys_of(v, seen)
    for i, v in enumerate(values):
        if not keep[i]:
            own = _keys_of(v, set())
            if not own <= seen:
                keep[i] = True
                seen |= own


def member_ids(keys: list[str], values: list, elided_bytes: int) -> str | None:
    """``key id…`` per dropped member (its id-like fields, as array markers list them), or None
    when the listing would cost more than a third of ``elided_bytes``."""
    from .json_elision import IDS_SHARE_DEN, record_ids

    budget = elided_bytes // IDS_SHARE_DEN
    rows, size = [], 0
    for key, value in zip(keys, values):
        row = " ".join([key, *(v for v in record_ids(value, set(), set()) if v != key)])
        size += len(row.encode("utf-8", "surrogatepass")) + 2
        if size > budget:
            return None
        rows.append(row)
    return ", ".join(rows)


def marker_fields(keys: list[str], values: list, keep: list[bool], elided_bytes: int) -> dict | None:
    """The marker members for the dropped members, or None when there are too few or their
    listing (key and id-like fields per member) would cost more than a third of ``elided_bytes``."""
    from .json_elision import ELIDED_KEY, IDS_KEY

    dropped = [i for i, k in enumerate(keep) if not k]
    if len(dropped) < MIN_DROPPED:
        return None
    ids = member_ids([keys[i] for i in dropped], [values[i] for i in dropped], elided_bytes)
    if ids is None:
        return None
    return {ELIDED_KEY: len(dropped), IDS_KEY: ids}
