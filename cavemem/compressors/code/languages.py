"""Per-language tables and lazy grammar loading for the code compressor (spec §3.3a).

Each language names its grammar wheel, the node types that count as functions, the body node
types that may be replaced, and the elision text that keeps the file parseable. Grammars come
from the individual ``tree-sitter-<lang>`` wheels (never the language pack, which downloads at
run time); ``tree_sitter`` itself is imported only when a code payload is actually compressed.
"""

from __future__ import annotations

import importlib
import threading
import time
from dataclasses import dataclass

BRACE_ELISION = b"{ /* caveman: body elided */ }"
PY_ELISION = b"..."
# Ruby has neither braces nor an ellipsis statement; a comment is an empty, valid method body.
RUBY_ELISION = b"# caveman: body elided"
# Shell: ``:`` is the no-op command, so the body stays a valid, non-empty compound statement.
SHELL_ELISION = b"{ : caveman: body elided; }"
# Perl: ``...`` (yada yada) is the statement for "not written here"; the marker follows as a comment.
PERL_ELISION = b"{ ... } # caveman: body elided"
# make: a recipe line the shell reads as a comment (the recipe's leading tab stays in place).
MAKE_ELISION = b"# caveman: recipe elided"
# A function-like macro's replacement list: a comment, so the macro still defines its name.
MACRO_ELISION = b"/* caveman: body elided */"
_C_MACROS = ("preproc_function_def",)

# The spec's function-like node types and replaceable body types, split per grammar so each
# tree-sitter query only names node kinds its grammar has.
_JS_FUNCTIONS = (
    "function_declaration",
    "method_definition",
    "function",
    "function_expression",
    "generator_function_declaration",
    "generator_function",
    "arrow_function",
)
_JS_BODIES = ("statement_block", "try_statement")
_JS_DEFINITIONS = ("function_declaration", "generator_function_declaration", "class_declaration", "class", "function_expression", "function")


@dataclass(frozen=True)
class LanguageSpec:
    """One grammar's elision rules (a docstring, so ``dataclasses`` never runs ``inspect`` for it)."""

    name: str
    module: str  # the grammar wheel's module
    factory: str  # its function returning the language pointer
    functions: tuple[str, ...]
    bodies: tuple[str, ...]
    elision: bytes
    # True when the elision text is a line comment: it may only replace a body that ends its line.
    elision_needs_line_end: bool = False
    # Named definitions whose heads an elided body lists (nested functions, local classes).
    definitions: tuple[str, ...] = ()
    # The field naming a function's body; None: its first child of a ``bodies`` type, whose
    # inner span (first to last named child) is replaced, so layout around it stays (make).
    body_field: str | None = "body"
    # Bodies at most this many bytes stay: their marker would save nothing.
    min_body: int = 0
    # Function-like macro definitions whose multi-line replacement list is elided (C, C++).
    macros: tuple[str, ...] = ()
    # Decorated definitions, whose runs of ``@overload`` signatures are folded (Python).
    overloads: tuple[str, ...] = ()


LANGUAGES: dict[str, LanguageSpec] = {
    spec.name: spec
    for spec in (
        LanguageSpec("go", "tree_sitter_go", "language", ("function_declaration", "method_declaration", "func_literal"), ("block",), BRACE_ELISION),
        LanguageSpec(
            "python", "tree_sitter_python", "language", ("function_definition",), ("block", "try_statement"), PY_ELISION,
            definitions=("function_definition", "class_definition"), overloads=("decorated_definition",),
        ),
        LanguageSpec(
            "rust", "tree_sitter_rust", "language", ("function_item",), ("block",), BRACE_ELISION,
            definitions=("function_item", "struct_item", "enum_item", "trait_item"),
        ),
        LanguageSpec(
            "java",
            "tree_sitter_java",
            "language",
            ("method_declaration", "constructor_declaration"),
            ("block", "constructor_body", "try_statement"),
            BRACE_ELISION,
            definitions=("class_declaration", "interface_declaration", "method_declaration"),
        ),
        LanguageSpec("cpp", "tree_sitter_cpp", "language", ("function_definition",), ("compound_statement", "try_statement"), BRACE_ELISION,
                     macros=_C_MACROS),
        LanguageSpec("c", "tree_sitter_c", "language", ("function_definition",), ("compound_statement",), BRACE_ELISION, macros=_C_MACROS),
        LanguageSpec("typescript", "tree_sitter_typescript", "language_typescript", _JS_FUNCTIONS, _JS_BODIES, BRACE_ELISION, definitions=_JS_DEFINITIONS),
        LanguageSpec("tsx", "tree_sitter_typescript", "language_tsx", _JS_FUNCTIONS, _JS_BODIES, BRACE_ELISION, definitions=_JS_DEFINITIONS),
        LanguageSpec("javascript", "tree_sitter_javascript", "language", _JS_FUNCTIONS, _JS_BODIES, BRACE_ELISION, definitions=_JS_DEFINITIONS),
        LanguageSpec("ruby", "tree_sitter_ruby", "language", ("method", "singleton_method"), ("body_statement",), RUBY_ELISION, True,
                     ("method", "singleton_method", "class", "module")),
        LanguageSpec("php", "tree_sitter_php", "language_php", ("function_definition", "method_declaration", "anonymous_function"),
                     ("compound_statement",), BRACE_ELISION, min_body=len(BRACE_ELISION)),
        LanguageSpec("perl", "tree_sitter_perl", "language", ("subroutine_declaration_statement", "anonymous_subroutine_expression"),
                     ("block",), PERL_ELISION, True, min_body=len(PERL_ELISION)),
        LanguageSpec("bash", "tree_sitter_bash", "language", ("function_definition",), ("compound_statement",), SHELL_ELISION,
                     min_body=len(SHELL_ELISION)),
        LanguageSpec("make", "tree_sitter_make", "language", ("rule",), ("recipe",), MAKE_ELISION, body_field=None,
                     min_body=2 * len(MAKE_ELISION)),
    )
}

# Comment node types (for the comment-removal option).
COMMENT_TYPES = ("comment", "line_comment", "block_comment")

# Backstop against a pathological parse: all parses of one compress call share this budget.
# Real code parses at several MB/s, so only adversarial input ever reaches it. It is the calling
# thread's CPU time, not wall time: the same input compresses the same way on a busy machine
# (a 1.2 MB header took 4.6 s of wall time for 1 s of CPU under load and came back uncompressed).
# A big file gets more (a clean parse of a 2.4 MiB header by two C grammars takes ~1.8 s, the
# error-tolerant one ~2.5 s more), up to a cap that still bounds a 64 MiB input.
PARSE_BUDGET_SECONDS = 4.0
PARSE_SECONDS_PER_MIB = 1.5
PARSE_BUDGET_MAX = 15.0
_READ_CHUNK = 1 << 16

_cache: dict[str, object] = {}
_cache_lock = threading.Lock()


class GrammarUnavailable(Exception):
    """The grammar wheel (or tree_sitter itself) is missing or incompatible."""


def load_language(name: str):
    """The ``tree_sitter.Language`` for ``name`` (cached); raises GrammarUnavailable."""
    got = _cache.get(name)
    if got is not None:
        return got
    spec = LANGUAGES[name]
    with _cache_lock:
        got = _cache.get(name)
        if got is None:
            try:
                import tree_sitter

                module = importlib.import_module(spec.module)
                got = tree_sitter.Language(getattr(module, spec.factory)())
            except Exception as exc:  # ImportError, ABI mismatch, missing factory
                raise GrammarUnavailable(f"{name}: {exc}") from exc
            _cache[name] = got
    return got


def sized_budget(size: int, seconds: float = PARSE_BUDGET_SECONDS, per_mib: float = PARSE_SECONDS_PER_MIB) -> float:
    """``seconds`` plus ``per_mib`` for each MiB of input, at most ``PARSE_BUDGET_MAX``."""
    return min(PARSE_BUDGET_MAX, seconds + per_mib * size / (1 << 20))


class Deadline:
    """A CPU-time budget (this thread's) shared by the parses of one compress call."""

    def __init__(self, seconds: float = PARSE_BUDGET_SECONDS):
        self.end = time.thread_time() + seconds

    @classmethod
    def for_size(cls, size: int) -> Deadline:
        """The budget of one compress call on ``size`` bytes."""
        return cls(sized_budget(size))

    def expired(self) -> bool:
        return time.thread_time() > self.end

    def capped(self, seconds: float) -> Deadline:
        """A budget of at most ``seconds`` from now that also ends when this one does."""
        sub = Deadline(seconds)
        sub.end = min(sub.end, self.end)
        return sub


def parse(name: str, data: bytes, deadline: Deadline, allow_errors: bool = False):
    """Parse ``data`` with grammar ``name``; None when the grammar is unavailable, the parse hit
    an error (unless ``allow_errors``), the budget ran out or tree-sitter gave no tree. Never
    raises. (A tree that is returned may still contain errors tree-sitter reported late: callers
    check ``has_error``.)"""
    try:
        import tree_sitter

        parser = tree_sitter.Parser(load_language(name))
        view = memoryview(data)
        size = len(data)

        def read(offset: int, _point) -> bytes:
            end = min(offset + _READ_CHUNK, size)
            while end < size and data[end] & 0xC0 == 0x80:  # never split a UTF-8 sequence
                end += 1
            return bytes(view[offset:end])

        def progress(_offset: int, has_error: bool) -> bool:
            # Cancel as soon as an error shows up (unless errors are tolerated: error recovery on
            # garbage is the slow path) or the budget is spent.
            return (has_error and not allow_errors) or deadline.expired()

        tree = parser.parse(read, progress_callback=progress)
    except Exception:  # GrammarUnavailable, cancelled parse ("Parsing failed"), anything else
        return None
    if tree is None or tree.root_node is None:
        return None
    return tree
