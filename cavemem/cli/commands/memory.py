"""``cavemem remember | recall | supersede | history | forget | list | show | export | import``
and ``cavemem stats --memory``.

Thin adapters over :class:`~cavemem.memory.api.Memory`: parse, call, print. Readable output by
default, ``--json`` for programs (``recall --format json|context|table``). Errors are the usual
one JSON line on stderr with the code's exit status (``cave_memory_too_large`` → 65). Only the
standard library and cavemem's own modules are imported here, so ``remember`` and ``recall``
start fast.
"""

from __future__ import annotations

import sys

from cavemem.cli import io, progress, tables
from cavemem.cli.args import Arg, Command, Opt, command, non_negative_int
from cavemem.errors import CaveError
from cavemem.memory.model import KINDS, MAX_MEMORY_BYTES


class _Render:
    """``cavemem.memory.render`` on first use: it imports the store (sqlite3), which a recall the
    warm process answers never needs."""

    def __getattr__(self, name: str):
        from cavemem.memory import render as module

        return getattr(module, name)


render = _Render()

_PROJECT = Opt("--project", "-p", "P", "project scope (default: the git root's name; '' = global)")
_ALL = Opt("--all", help="every project")
_JSON = Opt("--json", help="print JSON")
_SINCE = Opt("--since", "", "DATE", "only memories from DATE on (YYYY-MM-DD, RFC 3339, 7d, 12h)")
_UNTIL = Opt("--until", "", "DATE", "only memories up to DATE (a bare date includes that whole day)")
_NO_REDACT = Opt("--no-redact", help="store secrets as typed (default: replace them with [REDACTED:kind])")


def _memory():
    from cavemem import Memory

    return Memory()


def _out(text: str) -> None:
    io.write_stdout(text.encode("utf-8", "surrogatepass"))


def _scope(opts: dict) -> str | None:
    if opts.get("all"):
        if opts.get("project") is not None:
            raise CaveError("cave_invalid_arguments", "use either --project or --all")
        return "*"
    return opts.get("project")


def _read_memory_stdin() -> str:
    """At most 256 KiB + 1 byte of stdin, verbatim (bad UTF-8 bytes become U+FFFD)."""
    from cavemem.gocompat import go_text

    stream = sys.stdin.buffer if sys.stdin is not None else None
    data = b""
    while stream is not None and len(data) <= MAX_MEMORY_BYTES:
        chunk = stream.read(MAX_MEMORY_BYTES + 1 - len(data))
        if not chunk:
            break
        data += chunk
    if len(data) > MAX_MEMORY_BYTES:
        raise CaveError("cave_memory_too_large", f"memory is over the {MAX_MEMORY_BYTES}-byte cap (read {len(data)} bytes from stdin)")
    return go_text(data)


def _text_arg(opts: dict, verb: str) -> str:
    words = opts["text"]
    if opts["stdin"] or words == ["-"]:
        if opts["stdin"] and words:
            raise CaveError("cave_invalid_arguments", f"{verb}: give the text as arguments or with --stdin, not both")
        return _read_memory_stdin()
    if not words:
        raise CaveError("cave_invalid_arguments", f"{verb}: missing TEXT (or --stdin)")
    return " ".join(words)


@command(
    Command(
        "cavemem remember",
        "Store a memory. The text is committed before anything else happens; the same text in the\n"
        "same project is stored once. Secrets are redacted and <private>…</private> spans left out.\n"
        "A near-duplicate of a current memory becomes its next version (see `cavemem history`).",
        [
            Opt("--stdin", help=f"read the memory from stdin (at most {MAX_MEMORY_BYTES} bytes)"),
            Opt("--topic", "-t", "T", "a topic the memory is about"),
            Opt("--tag", "", "X", "a tag (repeatable)", repeat=True),
            Opt("--file", "", "PATH", "a related file (repeatable)", repeat=True),
            Opt("--kind", "-k", "K", "what kind of memory", choices=KINDS),
            Opt("--entity", "", "NAME", "the person, service or thing it is about"),
            Opt("--session", "", "ID", "the session it comes from"),
            _PROJECT,
            Opt("--global", help="store it globally (visible from every project)"),
            Opt("--at", "", "DATE", "when it happened (default: now)"),
            _NO_REDACT,
            Opt("--no-merge", help="never merge into a near-duplicate"),
            Opt("--confidence", "", "X", "how sure this is, 0 to 1 (recall down-weights low confidence)"),
            Opt("--expires", "", "DATE", "leave it out of recall after DATE"),
            Opt("--ttl", "", "N[dhwm]", "leave it out of recall after this long (30d, 12h, 2w, 6m)"),
            _JSON,
        ],
        [Arg("text", "the memory (several words are joined with spaces; '-' = stdin)", optional=True, many=True)],
        epilog="example: cavemem remember --kind decision --tag db \"we use PostgreSQL 16 in production\"",
    )
)
def remember(opts: dict) -> int:
    text = _text_arg(opts, "remember")
    if opts["global"] and opts["project"] is not None:
        raise CaveError("cave_invalid_arguments", "use either --project or --global")
    m = _memory()
    rec = m.remember(
        text,
        project="" if opts["global"] else opts["project"],
        session=opts["session"], topic=opts["topic"], tags=opts["tag"], files=opts["file"],
        kind=opts["kind"], entity=opts["entity"], at=opts["at"],
        redact=False if opts["no_redact"] else None, merge=False if opts["no_merge"] else None,
        confidence=opts["confidence"], expires=opts["expires"], ttl=opts["ttl"],
    )
    _out(render.to_json(render.remember_json(rec)) if opts["json"] else render.remembered(rec))
    return 0


@command(
    Command(
        "cavemem recall",
        "Memories relevant to QUERY, best first, packed under a token budget. Each hit is compressed\n"
        "through the engine and carries a recovery_handle (`cavemem retrieve` gives the full text).\n"
        "An off-topic query recalls nothing. Superseded versions are left out.",
        [
            Opt("--limit", "-n", "N", "at most N hits (default 5)", type=non_negative_int, default=5),
            Opt("--token-budget", "-b", "N", "cap on inferred tokens of all hits (default 2000; 0 = no cap)",
                type=non_negative_int, default=2000),
            _PROJECT,
            _ALL,
            _SINCE,
            _UNTIL,
            Opt("--include-superseded", help="also search superseded versions"),
            Opt("--include-expired", help="also return memories past their --expires / --ttl"),
            Opt("--sessions", help="also list matching archived session messages (after the hits)"),
            Opt("--format", "-f", "F", "output format (default table)", choices=("table", "json", "context")),
            Opt("--json", help="same as --format json"),
        ],
        [Arg("query", "what to recall (several words are joined)", many=True)],
        epilog="agents: cavemem recall --format context \"database connection pool\"",
    )
)
def recall(opts: dict) -> int:
    """Answered by the warm recall process when one runs (same bytes, see :mod:`cavemem.warm`),
    else in process — after which a semantic recall starts one for the next call."""
    from cavemem.warm import client

    served = client.call("recall", opts)
    if isinstance(served, tuple):
        code, out, err = served
        client.write_reply(out, err)
        return code
    code = _recall(opts)
    client.after_cold(served)
    return code


def served(command: str, opts: dict) -> int:
    """The warm process's handler: the in-process command, its errors reported as the CLI would
    (``hook``: the user-prompt hook with semantic recall, see :func:`.hook.served_hook`)."""
    if command == "hook":
        from cavemem.cli.commands.hook import served_hook

        return served_hook(opts)
    if command != "recall":
        raise ValueError(f"warm: no handler for {command!r}")
    try:
        return _recall(opts)
    except CaveError as err:
        return io.report_error(err)


def _recall(opts: dict) -> int:
    query = " ".join(opts["query"])
    if not query.strip():
        raise CaveError("cave_invalid_arguments", "recall: missing QUERY")
    fmt = opts["format"] or ("json" if opts["json"] else "table")
    if opts["json"] and opts["format"] not in (None, "json"):
        raise CaveError("cave_invalid_arguments", "use either --json or --format")
    m = _memory()
    result = m.recall(
        query, limit=opts["limit"], token_budget=opts["token_budget"], project=_scope(opts),
        since=opts["since"], until=opts["until"], include_superseded=opts["include_superseded"],
        include_expired=opts["include_expired"], sessions=opts["sessions"],
    )
    if fmt == "json":
        _out(render.to_json(result))
    elif fmt == "context":
        _out(render.context_block(result))
        for w in result.get("warnings", ()):
            io.write_stderr_line(io.json_line({"warning": w}))
    else:
        _out(render.recall_table(result))
    if fmt == "table":
        for p in result.get("session_hits", ()):
            _out(f"session {p['session']} · message {p['uuid']} · {p['ts'] or '?'}\n    {' '.join(p['text'].split())[:300]}\n")
    return 0


@command(
    Command(
        "cavemem supersede",
        "Replace current memory ID with a corrected TEXT. Recall stops returning the old version;\n"
        "`cavemem history` still shows it.",
        [Opt("--stdin", help="read TEXT from stdin"), _NO_REDACT, _JSON],
        [Arg("id", "the current memory to replace"), Arg("text", "the corrected text", optional=True, many=True)],
    )
)
def supersede(opts: dict) -> int:
    text = _text_arg(opts, "supersede")
    rec = _memory().supersede(opts["id"], text, redact=False if opts["no_redact"] else None)
    if opts["json"]:
        out = {"basis": "inferred", "created_at": rec.created_at, "id": rec.id, "supersedes": rec.supersedes}
        if rec.extra.get("redacted"):
            out["redacted"] = rec.extra["redacted"]
        _out(render.to_json(out))
    else:
        _out(render.remembered(rec))
    return 0


@command(
    Command(
        "cavemem history",
        "Every version of a memory, oldest to current (any id of the chain works).",
        [_JSON],
        [Arg("id", "any memory id in the chain")],
    )
)
def history(opts: dict) -> int:
    chain = _memory().history(opts["id"])
    if opts["json"]:
        _out(render.to_json({"basis": "inferred", "history": [r.to_dict(with_extra=False) for r in chain]}))
    else:
        _out(render.history_table(chain, table=tables.for_stdout()))
    return 0


@command(
    Command(
        "cavemem forget",
        "Delete memories for good. By ID (the version chain is relinked around it), or in bulk by\n"
        "--project / --before / --tag (combined with AND; limited to the current project unless\n"
        "--project or --all says otherwise). Use --dry-run first to see what would go.",
        [
            Opt("--project", "-p", "P", "forget in this project ('' = global memories)"),
            _ALL,
            Opt("--before", "", "DATE", "memories created before DATE"),
            Opt("--tag", "", "X", "memories tagged X"),
            Opt("--unused-for", "", "N[dhwm]", "memories older than this that no reply used within it (90d)"),
            Opt("--dry-run", "-n", help="show what would be forgotten; delete nothing"),
            _JSON,
        ],
        [Arg("id", "the memory to forget", optional=True)],
    )
)
def forget(opts: dict) -> int:
    m = _memory()
    if opts["id"] is not None:
        if opts["project"] is not None or opts["all"] or opts["before"] or opts["tag"] or opts["unused_for"]:
            raise CaveError("cave_invalid_arguments", "forget takes either an ID or --project/--before/--tag, not both")
        result = m.forget(opts["id"], dry_run=opts["dry_run"])
    else:
        if opts["all"] and opts["project"] is not None:
            raise CaveError("cave_invalid_arguments", "use either --project or --all")
        result = m.forget(project=opts["project"], before=opts["before"], tag=opts["tag"],
                          all_projects=opts["all"], dry_run=opts["dry_run"], unused_for=opts["unused_for"])
    _out(render.to_json(result) if opts["json"] else render.forget_text(result))
    return 0


@command(
    Command(
        "cavemem list",
        "Memories, newest first: the project's and global ones (--all for every project).",
        [
            _PROJECT, _ALL, _SINCE, _UNTIL,
            Opt("--tag", "", "X", "only memories tagged X"),
            Opt("--kind", "-k", "K", "only this kind", choices=KINDS),
            Opt("--include-superseded", help="also list superseded versions"),
            Opt("--limit", "-n", "N", "at most N (default 20; 0 = all)", type=non_negative_int, default=20),
            _JSON,
        ],
    )
)
def list_(opts: dict) -> int:
    m = _memory()
    kwargs = dict(project=_scope(opts), since=opts["since"], until=opts["until"], tag=opts["tag"], kind=opts["kind"],
                  include_superseded=opts["include_superseded"])
    records = m.list(limit=opts["limit"], **kwargs)
    total = m.count(**kwargs)
    if opts["json"]:
        _out(render.to_json({"count": total, "memories": [r.to_dict(with_extra=False) for r in records]}))
    else:
        _out(render.records_table(records, total, table=tables.for_stdout()))
    return 0


@command(Command("cavemem show", "One memory with all its fields.", [_JSON], [Arg("id", "the memory id")]))
def show(opts: dict) -> int:
    m = _memory()
    rec = m.show(opts["id"])
    if opts["json"]:
        _out(render.to_json(rec.to_dict(with_extra=False)))
        return 0
    try:
        versions = len(m.history(rec.id))
    except CaveError:
        versions = 1
    _out(render.show_text(rec, versions))
    return 0


@command(
    Command(
        "cavemem export",
        "Write every stored version (current and superseded) as JSON lines on stdout — a lossless\n"
        "backup that `cavemem import` restores exactly.",
        [Opt("--project", "-p", "P", "only this project ('' = global memories; default: all projects)")],
        epilog="example: cavemem export > memories.jsonl",
    )
)
def export(opts: dict) -> int:
    m = _memory()
    out = sys.stdout.buffer
    for line in m.export(project=opts["project"]):
        out.write(line.encode("utf-8", "surrogatepass") + b"\n")
    out.flush()
    return 0


@command(
    Command(
        "cavemem import",
        "Read memories from JSON lines (a `cavemem export` file, or lines with at least \"text\").\n"
        "Memories already present are skipped; bad lines are reported by number and the rest imported\n"
        "(exit 65 when any line was bad). Progress goes to stderr when it is a terminal.",
        [_NO_REDACT, _JSON],
        [Arg("file", "the JSONL file ('-' = stdin)")],
    )
)
def import_(opts: dict) -> int:
    path = opts["file"]
    if path == "-":
        lines = io.read_stdin().splitlines()
    else:
        try:
            fh = open(path, "rb")
        except OSError as exc:
            raise CaveError("cave_file_unreadable", f"import: cannot read {path}: {exc.strerror or exc}") from None
        lines = fh
    try:
        with progress.on_terminal("import") as bar:
            report = _memory().import_lines(lines, redact=False if opts["no_redact"] else None,
                                            progress=_import_progress(bar) if bar else None)
    finally:
        if path != "-":
            fh.close()
    summary = report.to_dict()
    _out(render.to_json(summary) if opts["json"] else render.import_text(summary))
    for e in report.errors:
        io.write_stderr_line(io.json_line({"error": e["error"], "message": f"line {e['line']}: {e['message']}", "line": e["line"]}))
    return CaveError("cave_invalid_input", "").exit_code if report.errors else 0


def _import_progress(bar):
    def show(report) -> None:
        bar(report.lines, None, f"{report.imported:,} new · {report.duplicates:,} present · {len(report.errors):,} bad")

    return show


def stats(opts: dict) -> int:
    """``cavemem stats --memory``: called by the engine's stats command."""
    result = _memory().stats()
    _out(render.to_json(result) if opts.get("json") else render.stats_text(result, table=tables.for_stdout()))
    never = result.get("usage", {}).get("never_used", [])
    if never and not opts.get("json"):  # hit-rate feedback: injected by hooks, never used by a reply
        _out(f"never used ({len(never)}):\n" + "".join(f"  {n['id']}  injected {n['injected']}×  {n['text'][:100]}\n" for n in never[:20]))
    return 0
