"""A disk cache of compiled regular expressions for short CLI processes.

Every ``cavemem`` process compiles the same few dozen patterns (detection, log templates,
invariants) before doing a millisecond of work: ``re``'s parser and compiler, in pure Python,
were about a third of a hot command's start-up. Compiling ends in ``_sre.compile(pattern,
flags, code, …)``; this module keeps those arguments (plain ints, strings, a dict) in one
``marshal`` file under the cache directory and hands them straight to ``_sre.compile`` next time,
so the pattern objects are the same as ``re`` would build — same code, same matches.

The file is keyed by the interpreter and ``_sre``'s magic number, so a Python upgrade starts a new
one; a missing, unreadable or damaged file only means compiling as usual. New entries are written
once, as the process leaves (:func:`flush`, called by :func:`cavemem.cli.io.exit_now`).

The same file keeps the code objects of the methods ``dataclasses`` writes for each class
(``__init__``, ``__repr__``, ``__eq__``: generated source, compiled by ``exec`` in every process);
they are the same code objects ``exec`` would compile from the same text.
"""

from __future__ import annotations

import os
import sys

MAX_ENTRIES = 4096  # a runaway (patterns built from user input) starts the file over

_table: dict | None = None  # (pattern, flags) -> args after ``pattern`` for _sre.compile;
#                             ("fn", source) -> the code object dataclasses would exec
_new = 0
_path = ""
_scope = "main"
_orig = None


def install(program: str = "", command: str = "") -> None:
    """Route ``re``'s cache misses through the disk cache (idempotent; a no-op if ``re``'s
    internals are not the ones this was written against). One file per program and command
    (``main-recall``, ``engine_cli-compress``): a process loads only what its command compiles."""
    global _orig, _scope
    import re

    _scope = "-".join("".join(c for c in part if c.isalnum() or c == "_")[:24] or "other" for part in (program, command))

    compiler = getattr(re, "_compiler", None)
    if _orig is not None or compiler is None or not hasattr(compiler, "_code") or not hasattr(compiler, "_parser"):
        return
    _orig = compiler.compile
    compiler.compile = _compile
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses is None:
        import dataclasses
    if sys.version_info[:2] in ((3, 11), (3, 12)) and hasattr(dataclasses, "_create_fn"):
        dataclasses._create_fn = _create_fn


def _file() -> str:
    import _sre

    from .. import paths

    tag = f"{sys.implementation.cache_tag}-{sys.hexversion:x}-{_sre.MAGIC}-{_sre.CODESIZE}"
    return os.path.join(paths.cache_dir(), f"re-{tag}-{_scope}.marshal")


def _load() -> dict:
    global _table, _path
    _table = {}
    try:
        import marshal

        _path = _file()
        with open(_path, "rb") as fh:
            table = marshal.loads(fh.read())
        if isinstance(table, dict):
            _table = table
    except Exception:  # noqa: BLE001 - no cache (first run, no home, damaged file): compile as usual
        pass
    return _table


def _compile(p, flags=0):
    """``re._compiler.compile`` with the disk cache in front (strings and bytes, no DEBUG)."""
    global _new
    import _sre

    if type(p) not in (str, bytes) or flags & 128:  # re.DEBUG prints the compiled code
        return _orig(p, flags)
    table = _load() if _table is None else _table
    key = (p, flags)
    hit = table.get(key)
    if hit is not None:
        try:
            return _sre.compile(p, *hit)
        except Exception:  # noqa: BLE001 - a stale or damaged entry: compile it afresh
            pass
    import re

    parsed = re._compiler._parser.parse(p, flags)
    code = re._compiler._code(parsed, flags)
    groupindex = parsed.state.groupdict
    indexgroup = [None] * parsed.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    # opcodes are an int subclass marshal refuses; _sre reads them as plain ints anyway
    args = (int(flags | parsed.state.flags), [int(c) for c in code], int(parsed.state.groups - 1), dict(groupindex),
            tuple(indexgroup))
    table[key] = args
    _new += 1
    return _sre.compile(p, *args)


_NO_RETURN_TYPE = object()  # ``None`` is a real return type (``__init__ -> None``)


def _create_fn(name, args, body, *, globals=None, locals=None, return_type=_NO_RETURN_TYPE):
    """``dataclasses._create_fn`` (CPython 3.11/3.12, same text) with the compiled code cached."""
    global _new
    import dataclasses

    if locals is None:
        locals = {}
    return_annotation = ""
    if return_type is not _NO_RETURN_TYPE and return_type is not dataclasses.MISSING:
        locals["_return_type"] = return_type
        return_annotation = "->_return_type"
    body = "\n".join(f"  {b}" for b in body)
    txt = f" def {name}({','.join(args)}){return_annotation}:\n{body}"
    txt = f"def __create_fn__({', '.join(locals.keys())}):\n{txt}\n return {name}"
    table = _load() if _table is None else _table
    key = ("fn", txt)
    code = table.get(key)
    if type(code) is not type(_create_fn.__code__):
        code = compile(txt, "<string>", "exec", dont_inherit=True)  # not this module's __future__ flags
        table[key] = code
        _new += 1
    ns: dict = {}
    exec(code, globals, ns)
    return ns["__create_fn__"](**locals)


def flush() -> None:
    """Write the table if this process compiled anything new (atomically; errors are ignored)."""
    global _new
    if not _new or _table is None or not _path:
        return
    _new = 0
    try:
        import marshal

        from .. import paths

        table = _table if len(_table) <= MAX_ENTRIES else {}
        paths.ensure_private_dir(os.path.dirname(_path))
        tmp = f"{_path}.{os.getpid()}.tmp"
        paths.write_private_file(tmp, marshal.dumps(table), sync=False)
        os.replace(tmp, _path)
    except Exception:  # noqa: BLE001 - a cache that cannot be written is only slower
        pass
