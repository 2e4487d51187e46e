"""Function-body elision over a tree-sitter parse (spec §3.3a steps 2–7, options §3.3c).

Bodies are found with a tree-sitter query (the walk runs in C, so a 1 MB minified bundle or a
100k-line file stays fast) and then filtered to the outermost functions, which reproduces the
spec's "do not descend into a function whose body was claimed" walk. Replacements are byte
splices; everything else — whitespace, comments, line endings, even undecodable bytes — stays
byte-identical. The output must re-parse cleanly (or, for input that never parsed cleanly,
with exactly the input's errors — see ``parse_errors``) or the whole payload passes through.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from dataclasses import dataclass

from ...gocompat import trim_space_bytes
from .languages import BRACE_ELISION, COMMENT_TYPES, LANGUAGES, MACRO_ELISION, PY_ELISION, Deadline, LanguageSpec, load_language, parse
from .overloads import overload_replacements
from .parse_errors import ErrorMap, ErrorSpan, error_spans, no_new_errors
from .strings import STRING_TYPES, string_replacements
from .tables import TABLE_TYPES, table_replacements

# Directive comments survive comment removal (build constraints, cgo exports, TS references).
DIRECTIVE_PREFIXES = (b"//go:", b"// +build", b"//+build", b"//export ", b"///")
_NON_DOCSTRING_PREFIXES = (b"f", b"F", b"b", b"B")
_DOCSTRING_PARENTS = ("module", "block")
MAX_HEAD_BYTES = 96  # a nested definition's head as listed on its elided parent's marker


@dataclass(frozen=True)
class CodeOptions:
    """``remove_comments`` / ``remove_docstrings``: off by default (the registry keeps both)."""

    remove_comments: bool = False
    remove_docstrings: bool = False


Replacement = tuple[int, int, bytes]  # (start byte, end byte, new bytes)

_queries: dict[tuple[str, str], object] = {}
_queries_lock = threading.Lock()


def _query(lang_name: str, kind: str, types: tuple[str, ...], pattern: str):
    """A cached query capturing every node of ``types`` present in the grammar (None if none)."""
    key = (lang_name, kind)
    if key in _queries:
        return _queries[key]
    import tree_sitter

    language = load_language(lang_name)
    present = [t for t in types if language.id_for_node_kind(t, True)]
    query = None
    if present:
        query = tree_sitter.Query(language, pattern.format(alternatives=" ".join(f"({t})" for t in present)))
    with _queries_lock:
        _queries[key] = query
    return query


def _scan(spec: LanguageSpec, root) -> dict[str, list]:
    """Functions (``fn``), nested-definition candidates (``d``), string literals (``s``),
    function-like macros (``m``), decorated definitions (``o``) and literal tables (``t``)
    under ``root`` in one tree-sitter pass (one query), each sorted by start."""
    key = (spec.name, "scan")
    if key not in _queries:
        import tree_sitter

        language = load_language(spec.name)
        groups = [("fn", spec.functions), ("d", spec.definitions), ("s", STRING_TYPES.get(spec.name, ())), ("m", spec.macros), ("o", spec.overloads),
                  ("t", TABLE_TYPES.get(spec.name, ()))]
        patterns = []
        for name, types in groups:
            present = [t for t in types if language.id_for_node_kind(t, True)]
            if present:
                patterns.append("[" + " ".join(f"({t})" for t in present) + f"] @{name}")
        query = tree_sitter.Query(language, "\n".join(patterns)) if patterns else None
        with _queries_lock:
            _queries[key] = query
    query = _queries[key]
    found = {} if query is None else tree_sitter_captures(query, root)
    return {name: sorted(found.get(name, []), key=lambda n: (n.start_byte, -n.end_byte)) for name in ("fn", "d", "s", "m", "o", "t")}


def tree_sitter_captures(query, root) -> dict:
    import tree_sitter

    return tree_sitter.QueryCursor(query).captures(root)


def _captured(query, root) -> list:
    if query is None:
        return []
    import tree_sitter

    nodes = []
    for group in tree_sitter.QueryCursor(query).captures(root).values():
        nodes.extend(group)
    nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
    return nodes


def _ends_its_line(data: bytes, end: int) -> bool:
    """True when only blanks follow ``end`` on its line (a line-comment elision is safe there)."""
    nl = data.find(b"\n", end)
    rest = data[end:] if nl < 0 else data[end:nl]
    return not rest.strip(b" \t\r")


def body_replacements(spec: LanguageSpec, data: bytes, root, errors: ErrorMap | None = None, scan: dict | None = None) -> list[Replacement]:
    """Replace the body of every outermost function whose body type qualifies (and, when the
    parse had ``errors``, whose body and head are clear of them)."""
    scan = scan if scan is not None else _scan(spec, root)
    marker = trim_space_bytes(spec.elision)
    out: list[Replacement] = []
    claimed_end = -1
    defs = scan["d"]
    def_starts = [d.start_byte for d in defs]  # captured once over the whole tree, bisected per body
    for fn in scan["fn"]:
        if fn.start_byte < claimed_end:
            continue  # nested inside a function already claimed: covered by its replacement
        body = fn.child_by_field_name(spec.body_field) if spec.body_field else _body_child(spec, fn)
        if body is None or body.type not in spec.bodies:
            continue  # e.g. an arrow function with an expression body: keep looking inside
        claimed_end = fn.end_byte
        start, end = (body.start_byte, body.end_byte) if spec.body_field else _inner_span(body)
        if end - start <= spec.min_body:
            continue
        shown = trim_space_bytes(data[start:end])
        if shown == marker or (shown.startswith(marker[:3]) and b"caveman: body elided" in shown[:40]):
            continue  # already elided (with or without the heads it names)
        if spec.elision_needs_line_end and not _ends_its_line(data, end):
            continue
        if errors is not None and not errors.function_clear(fn.start_byte, start, end):
            continue  # claimed all the same: nothing inside a broken function is elided
        lo, hi = bisect_left(def_starts, start), bisect_left(def_starts, end)
        text = elision_text(spec, data, body, defs[lo:hi])
        if text is not None:
            out.append((start, end, text))
    return out


def macro_replacements(data: bytes, macros: list) -> list[Replacement]:
    """Replace the replacement list of every function-like macro that runs over several lines
    (``#define f(a) __extension__ ({ \\ ... })``): in intrinsics headers these are most of the
    bytes, and the define line with its name and parameters stays. One-line macros stay whole:
    they are short and their expansion is what a reader looks them up for."""
    out: list[Replacement] = []
    for node in macros:
        value = node.child_by_field_name("value")
        if value is None:
            continue
        start, end = value.start_byte, value.end_byte
        text = data[start:end]
        if b"\\\n" not in text and b"\\\r\n" not in text:
            continue
        if end - start <= len(MACRO_ELISION) or not _ends_its_line(data, end):
            continue
        out.append((start, end, MACRO_ELISION))
    return out


def _body_child(spec: LanguageSpec, fn):
    """The first child of ``fn`` of a body type (grammars that name no body field: make's rule)."""
    return next((c for c in fn.children if c.type in spec.bodies), None)


def _inner_span(body) -> tuple[int, int]:
    """First to last named child of ``body``: a make recipe's lines without the newline that
    opens it or the blank lines after it."""
    named = body.named_children
    if not named:
        return body.start_byte, body.start_byte
    return named[0].start_byte, named[-1].end_byte


def definition_heads(data: bytes, body, defs: list) -> list[bytes]:
    """The heads (``def name(args)``, ``class C(Base)``, ``function f(a,b)``) of the named
    definitions ``defs`` inside ``body``, whitespace collapsed, each cut at MAX_HEAD_BYTES."""
    heads: list[bytes] = []
    for node in defs:
        if node.start_byte < body.start_byte or node.end_byte > body.end_byte:
            continue
        if node.type in ("function", "function_expression") and node.child_by_field_name("name") is None:
            continue  # an anonymous function expression names nothing
        inner = node.child_by_field_name("body")
        stop = inner.start_byte if inner is not None and inner.start_byte > node.start_byte else node.end_byte
        nl = data.find(b"\n", node.start_byte, stop)
        if inner is None and nl >= 0:
            stop = nl
        head = b" ".join(data[node.start_byte : stop].split()).rstrip(b":{ ")
        if node.type == "class" and node.child_by_field_name("name") is None:
            head = _bound_name(data, node) + head  # ``var Gt = class extends X``: name the binding
            if head == b"class":
                continue
        if len(head) > MAX_HEAD_BYTES:
            head = head[:MAX_HEAD_BYTES].rstrip() + b"..."
        if head:
            heads.append(head)
    return heads


def _bound_name(data: bytes, node) -> bytes:
    """``name = `` when an anonymous class expression is assigned to a name, else empty."""
    parent = node.parent
    if parent is None or parent.type not in ("variable_declarator", "assignment_expression"):
        return b""
    target = parent.child_by_field_name("name") or parent.child_by_field_name("left")
    if target is None or target.end_byte - target.start_byte > MAX_HEAD_BYTES:
        return b""
    return data[target.start_byte : target.end_byte] + b" = "


def elision_text(spec: LanguageSpec, data: bytes, body, defs: list) -> bytes | None:
    """The elision for ``body``: the language's plain marker, or, when the body holds nested
    definitions, the marker naming their heads (so ``def helper`` inside an elided function
    stays visible). None when the body should stay: its heads would cost as much as the body,
    or they cannot sit in a comment there."""
    heads = definition_heads(data, body, defs) if defs else []
    if not heads:
        return spec.elision
    listing = b"caveman: body elided; defines: " + b"; ".join(heads)
    if spec.elision == BRACE_ELISION:
        if b"*/" in listing:
            return None
        text = b"{ /* " + listing + b" */ }"
    elif spec.elision == PY_ELISION:
        if not _ends_its_line(data, body.end_byte):
            return None
        text = b"...  # " + listing
    else:
        text = b"# " + listing
    if b"\n" in text or b"\r" in text or len(text) >= body.end_byte - body.start_byte:
        return None
    return text


def comment_replacements(spec: LanguageSpec, data: bytes, root) -> list[Replacement]:
    query = _query(spec.name, "comments", COMMENT_TYPES, "[{alternatives}] @c")
    out: list[Replacement] = []
    for node in _captured(query, root):
        text = trim_space_bytes(data[node.start_byte : node.end_byte])
        if text.startswith(DIRECTIVE_PREFIXES):
            continue
        out.append((node.start_byte, node.end_byte, b""))
    return out


def docstring_replacements(spec: LanguageSpec, data: bytes, root) -> list[Replacement]:
    query = _query(spec.name, "docstrings", ("expression_statement",), "[{alternatives}] @s")
    out: list[Replacement] = []
    for node in _captured(query, root):
        if node.named_child_count != 1:
            continue
        string = node.named_child(0)
        if string.type != "string" or data[string.start_byte : string.start_byte + 1].startswith(_NON_DOCSTRING_PREFIXES):
            continue
        parent = node.parent
        if parent is None or parent.type not in _DOCSTRING_PARENTS or parent.named_child_count <= 1:
            continue
        if parent.named_child(0) != node:
            continue
        out.append((node.start_byte, node.end_byte, b""))
    return out


def applied_replacements(replacements: list[Replacement]) -> list[Replacement]:
    """The replacements a splice applies: sorted by start (the wider one first on a tie), with
    any that overlaps an earlier one skipped."""
    applied: list[Replacement] = []
    pos = 0
    for start, end, new in sorted(replacements, key=lambda r: (r[0], -r[1])):
        if start < pos:
            continue
        applied.append((start, end, new))
        pos = end
    return applied


def splice(data: bytes, replacements: list[Replacement]) -> bytes:
    """Apply replacements sorted by start (the wider one first on a tie), skipping overlaps."""
    parts: list[bytes] = []
    pos = 0
    for start, end, new in applied_replacements(replacements):
        parts.append(data[pos:start])
        parts.append(new)
        pos = end
    parts.append(data[pos:])
    return b"".join(parts)


def elide(lang_name: str, data: bytes, options: CodeOptions, deadline: Deadline) -> tuple[bool, bytes | None]:
    """Try one grammar (spec gate). Returns (parsed_cleanly, output); output None means nothing
    to emit."""
    tree = parse(lang_name, data, deadline)
    if tree is None or tree.root_node.has_error:  # also an unavailable grammar or spent budget
        return False, None
    return True, elide_tree(lang_name, data, tree, [], options, deadline)


def elide_tree(
    lang_name: str,
    data: bytes,
    tree,
    errors: list[ErrorSpan],
    options: CodeOptions,
    deadline: Deadline,
    view: bytes | None = None,
) -> bytes | None:
    """Elide over an existing parse whose error spans are ``errors`` (empty for a clean parse).

    ``view`` is what was parsed when it is not ``data`` itself (same length: :mod:`.macros`);
    the output is always spliced from ``data``. Replacements touching an error are dropped; the
    output must re-parse with exactly the input's errors moved through the splice (none at all
    for a clean input), else None."""
    spec = LANGUAGES[lang_name]
    root = tree.root_node
    src = data if view is None else view
    error_map = ErrorMap(src, errors) if errors else None
    try:
        scan = _scan(spec, root)
        replacements = body_replacements(spec, src, root, error_map, scan)
        replacements += macro_replacements(src, scan["m"])
        replacements += overload_replacements(src, scan["o"])
        replacements += table_replacements(lang_name, src, scan["t"])
        replacements += string_replacements(src, scan["s"])
        if options.remove_comments:
            replacements += comment_replacements(spec, src, root)
        if options.remove_docstrings:
            replacements += docstring_replacements(spec, src, root)
    except Exception:  # a query that cannot compile against an odd grammar build: fail closed
        return None
    if error_map is not None:
        replacements = [r for r in replacements if error_map.clear(r[0], r[1])]
    if not replacements:
        return None
    applied = applied_replacements(replacements)
    out = splice(data, applied)
    checked = out if view is None else _view_of_output(out, splice(view, applied))
    if checked is None:
        return None
    check = parse(lang_name, checked, deadline, allow_errors=bool(errors))
    if check is None:
        return None
    if not errors:
        return None if check.root_node.has_error else out
    return out if no_new_errors(errors, error_spans(check.root_node), applied) else None


def _view_of_output(out: bytes, spliced_view: bytes) -> bytes | None:
    """The parse view of ``out``, provided it is the spliced view (no replacement carried a
    blanked byte into the output or cut a define line): else None, and nothing is elided."""
    from .macros import parse_view

    return spliced_view if (parse_view(out) or out) == spliced_view else None
