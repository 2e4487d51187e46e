"""``cavemem compress | retrieve | detect | simulate | stats | registry``.

Same output contract as ``caveman-engine`` (stdout = payload, stderr = one JSON line), plus
``--query`` on compress and ``--json`` where a human format exists. Imports only the stdlib and
the engine pieces each command needs.
"""

from __future__ import annotations

from cavemem.cli import io, tables
from cavemem.cli.args import Arg, Command, Opt, command

_TYPE_HELP = "force a content type (json, log, code, …; 'auto' = detect)"


def content_types() -> tuple[str, ...]:
    """``--type`` values: every registered compressor, plus ``auto`` (read only when --type is given)."""
    from cavemem.engine.registry import DEFAULT_ENTRIES

    return ("auto", *(e.content_type for e in DEFAULT_ENTRIES))


def _type_opt() -> Opt:
    return Opt("--type", "-t", "T", _TYPE_HELP, choices=content_types)


def _engine():
    from cavemem.engine.core import Engine
    from cavemem.store.ccr import budget_from_env

    budget_from_env()  # a bad CAVEMAN_CCR_MAX_BYTES refuses to start (cave_invalid_config)
    return Engine()


@command(
    Command(
        "cavemem compress",
        "Compress stdin. stdout gets the compressed payload (or the input unchanged when nothing\n"
        "safe can be saved); stderr gets one JSON report with tokens before/after and the\n"
        "recovery handle. The original is stored before anything is printed.",
        [
            _type_opt(),
            Opt("--query", "-q", "Q", "keep what is relevant to Q (query-aware compressors)"),
        ],
        epilog="example: pytest 2>&1 | cavemem compress > small.txt 2> report.json",
    )
)
def compress(opts: dict) -> int:
    from cavemem.cli.engine_cli import emit_compress_result

    data = io.read_stdin()
    ctype = opts["type"]
    if ctype == "auto":
        ctype = None
    res = _engine().compress(data, type=ctype or None, query=opts["query"] or "")
    emit_compress_result(data, res)
    return 0


@command(
    Command(
        "cavemem retrieve",
        "Print the exact original bytes behind a recovery handle (ccr_…, ccr://…, <<ccr:…>>).\n"
        "With a query, print only the matching records/rows/lines when that is shorter.",
        [Opt("--query", "-q", "Q", "narrow the original to units matching Q")],
        [Arg("handle", "the recovery handle from a compress report"), Arg("query_arg", "same as --query", optional=True)],
    )
)
def retrieve(opts: dict) -> int:
    query = opts["query"] or opts["query_arg"] or ""
    io.write_stdout(_engine().retrieve(opts["handle"], query))
    return 0


@command(
    Command(
        "cavemem detect",
        "Print the content type cavemem would route stdin to.",
        [Opt("--json", help="print {\"content_type\": …} instead of the bare name")],
    )
)
def detect(opts: dict) -> int:
    data = io.read_stdin()
    from cavemem.engine.detect import detect as run_detect

    ct = run_detect(data)
    io.write_stdout((io.json_line({"content_type": ct}) if opts["json"] else ct).encode() + b"\n")
    return 0


@command(
    Command(
        "cavemem simulate",
        "Dry run of compress: print the figures compress would report (JSON on stdout) without\n"
        "storing anything.",
        [_type_opt(), Opt("--query", "-q", "Q", "query for query-aware compressors")],
    )
)
def simulate(opts: dict) -> int:
    data = io.read_stdin()
    ctype = opts["type"]
    sim = _engine().simulate(data, type=None if ctype in (None, "", "auto") else ctype, query=opts["query"] or "")
    io.write_stdout((sim.to_json() + "\n").encode())
    return 0


@command(
    Command(
        "cavemem stats",
        "Recovery-store totals: payloads stored, tokens before/after, bytes used of the budget.\n"
        "With --memory: the memory store instead (memories by project and kind, sizes, time span).",
        [Opt("--json", help="print the exact JSON summary"), Opt("--memory", help="memory-store statistics")],
    )
)
def stats(opts: dict) -> int:
    if opts["memory"]:
        from cavemem.cli.commands.memory import stats as memory_stats

        return memory_stats(opts)
    from cavemem.gocompat import marshal

    summary = _engine().stats()
    if opts["json"]:
        io.write_stdout((marshal(summary, indent="  ", sort_keys=False) + "\n").encode())
        return 0
    io.write_stdout(render_stats(summary, tables.for_stdout()).encode())
    return 0


def render_stats(summary: dict, table=None) -> str:
    from cavemem.memory.render import plain_table

    rows = [("content type", "count", "tokens before", "tokens after", "saved")]

    def row(name: str, b: dict) -> tuple:
        return (name, str(b["count"]), str(b["tokens_before"]), str(b["tokens_after"]), f"{b['ratio'] * 100:.1f}%")

    for name, bucket in summary["by_content_type"].items():
        rows.append(row(name, bucket))
    rows.append(row("total", summary["totals"]))
    lines = (table or plain_table)(rows, right={1, 2, 3, 4})
    used = summary.get("storage_bytes", 0)
    cap = summary.get("max_storage_bytes")
    if cap:
        lines.append(f"storage: {used:,} of {cap:,} bytes" + (" (FULL: new lossy results pass through)" if summary.get("storage_full") else ""))
    lines.append("figures are inferred o200k_base counts")
    return "\n".join(lines) + "\n"


@command(
    Command(
        "cavemem registry",
        "The capability manifest computed from the compressor registry.",
        [Opt("--json", help="print the manifest JSON (default when stdout is not a terminal)")],
    )
)
def registry(opts: dict) -> int:
    from cavemem.engine.registry import default_registry
    from cavemem.gocompat import marshal

    reg = default_registry()
    manifest = reg.manifest()
    if opts["json"] or not io.stdout_is_tty():
        io.write_stdout((marshal(manifest, sort_keys=False) + "\n").encode())
        return 0
    rows = [("content type", "route", "query", "manifest")]
    for e in reg.entries():
        comp = reg.get(e.content_type)
        rows.append((e.content_type, "auto" if e.auto else "force-only", "query-aware" if comp.accepts_query else "",
                     "yes" if e.in_manifest else "no"))
    lines = [f"registry_sha256 {manifest['registry_sha256']}", "", *tables.for_stdout()(rows)]
    io.write_stdout(("\n".join(lines) + "\n").encode())
    return 0

