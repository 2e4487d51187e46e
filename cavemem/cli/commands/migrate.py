"""``cavemem migrate --from LOCATION --to LOCATION [--dry-run] [--json]``: copy the memory and
recovery stores between SQLite (a cavemem home directory) and PostgreSQL (a URL), verified.

stdout: a short summary (``--json``: the full report); stderr: one JSON report line."""

from __future__ import annotations

import json

from cavemem.cli import io
from cavemem.cli.args import Command, Opt
from cavemem.errors import CaveError

COMMAND = Command(
    "cavemem migrate",
    "Copy every memory (with history), capture record and recovery blob from one store to another,\n"
    "either direction: a postgresql:// URL or a cavemem home directory (mem.db + ccr.db). Resumable\n"
    "(items already there are skipped) and verified by counts and sha256 of every item.",
    [
        Opt("--from", metavar="URL_OR_DIR", help="the source store"),
        Opt("--to", metavar="URL_OR_DIR", help="the target store (created if missing)"),
        Opt("--dry-run", help="read the source and report what would be copied; write nothing"),
        Opt("--json", help="print the report as JSON"),
    ],
)


def run(opts: dict) -> int:
    from cavemem.embed.migrate import VectorCopy
    from cavemem.memory.migrate import migrate

    source, target = opts.get("from"), opts.get("to")
    if not source or not target:
        return io.report_error(CaveError("cave_invalid_arguments", "migrate needs --from URL_OR_DIR and --to URL_OR_DIR"))
    try:
        report = migrate(source, target, dry_run=bool(opts.get("dry_run")), extras=[VectorCopy()])
    except CaveError as err:
        return io.report_error(err)
    if opts.get("json"):
        io.write_stdout((json.dumps(report, ensure_ascii=False, sort_keys=True) + "\n").encode())
    else:
        src = report["source"]
        verb = "would copy" if report["dry_run"] else "copied"
        done = report.get("copied", {})
        io.write_stdout((f"{report['from']} -> {report['to']}: {verb} {done.get('memories', src['memories'])} memories, "
                         f"{done.get('sessions', '-')} sessions, {done.get('recoveries', src['recoveries'])} recovery records"
                         + "".join(f", {n} {model} vectors" for model, n in
                                   (done.get("vectors") or {m: v["rows"] for m, v in src.get("vectors", {}).items()}).items())
                         + ("" if report["dry_run"] else f"; verified {src['memories']} memories and {src['recoveries']} records")
                         + "\n").encode())
    io.write_stderr_line(io.json_line(report))
    return 0


run.COMMAND = COMMAND
