"""Long string values of a JSON document cut to an excerpt (a stage of the ``json`` route).

Package metadata (``pip inspect``, ``npm view --json``), API descriptions (botocore
``documentation``) and registries carry whole READMEs and HTML manuals as string values. Array
elision cannot touch them — there is no array — yet they are most of the tokens, while what an
agent looks such a document up by is its keys, names, versions and ids. Here every string value
longer than :data:`LONG_STRING_CHARS` becomes its opening words and a marker,
``"JSON support files from … … 1180 chars elided (caveman) …"``; the exact document is one
``retrieve`` away. Never shortened: object keys, values under error/message-like keys (kept
whole, as array elision keeps them), values under id-like keys (``id``, ``name``, ``version``,
``*_id`` …), and strings a query term occurs in.
"""

from __future__ import annotations

import re

from .json_canonical import decode_document

# chosen on the corpus tune split (json, 26 files): 400/120 -> 256/80 saved 47.3 -> 47.6% weighted,
# 40.2 -> 40.5% per file, probes 2227/2227 kept (check: 21.7 -> 23.3%, 31.8 -> 32.0%, 1105/1105)
LONG_STRING_CHARS = 256
EXCERPT_CHARS = 80
MARKER_WORDS = "chars elided (caveman)"

# the subtree under such a key is kept whole (as array elision keeps it)
_PRESERVE_KEY = re.compile(
    r"error|errors|message|msg|stack|stacktrace|stack_trace|trace|traceback|exception|reason|detail|details|warning|warnings",
    re.I | re.A,
)
# a string under such a key names or locates something: it is never cut
# (and an elision marker's own members: ``__caveman_ids__`` lists the names of what it hides)
_ID_KEY = re.compile(r"id|_id|\w+_id|uuid|key|name|slug|version|\w*(?:url|uri|href|path|hash|checksum|integrity)|sha\d*|__caveman_\w+__", re.I | re.A)
_TERM = re.compile(r"\w{3,}")


def excerpt(s: str) -> str:
    """The first words of ``s`` (cut at a blank when one is near) and the marker."""
    head = s[:EXCERPT_CHARS]
    cut = max(head.rfind(" "), head.rfind("\n"))
    if cut >= EXCERPT_CHARS // 2:
        head = head[:cut]
    head = head.rstrip()
    return f"{head} … {len(s) - len(head)} {MARKER_WORDS} …"


def _long(x, terms: list[str]) -> bool:
    if type(x) is not str or len(x) <= LONG_STRING_CHARS or MARKER_WORDS in x:
        return False  # JSONNumber (a str subclass) and short strings stay
    low = x.lower()
    return not any(t in low for t in terms)


def shorten_value(value, query: str = ""):
    """``(value', count)``: ``value`` with its long strings cut (containers copied only where
    something changed; no recursion, so deep documents are fine)."""
    terms = [t.lower() for t in _TERM.findall(query or "")]
    count = 0
    root = [value]
    stack = [(root, 0)]
    while stack:
        parent, slot = stack.pop()
        v = parent[slot]
        if isinstance(v, dict):
            changed = None
            for k, x in v.items():
                if isinstance(x, (dict, list)):
                    if _PRESERVE_KEY.fullmatch(k) is None:
                        stack.append((v, k))
                elif _long(x, terms) and _PRESERVE_KEY.fullmatch(k) is None and _ID_KEY.fullmatch(k) is None:
                    changed = changed or {}
                    changed[k] = excerpt(x)
            if changed:
                count += len(changed)
                v.update(changed)  # the decoded document is ours: edit it in place
        elif isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, (dict, list)):
                    stack.append((v, i))
                elif _long(x, terms):
                    v[i] = excerpt(x)
                    count += 1
    return root[0], count


def shorten_document(data: bytes, query: str = "") -> bytes | None:
    """``data`` (a JSON document) with its long strings cut, as compact JSON; None when it
    holds none (or is not JSON)."""
    got = decode_document(data)
    if got is None:
        return None
    codec, value = got
    try:
        out, count = shorten_value(value, query)
        if not count:
            return None
        return codec.marshal(out, html_escape=False).encode("utf-8")
    except RecursionError:  # the encoder recurses: nesting close to the interpreter limit
        return None
