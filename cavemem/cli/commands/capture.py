"""``cavemem sessions list|show`` and ``cavemem review [list|accept|edit|reject]``.

Thin adapters over ``Memory().capture`` (:class:`cavemem.memory.capture.review.CaptureAPI`):
parse, call, print. Readable output by default, ``--json`` for tools.
"""

from __future__ import annotations

import json

from cavemem.cli import io
from cavemem.cli.args import Arg, Command, Opt, non_negative_int, parse_verb

_JSON = Opt("--json", help="print JSON")
_PROJECT = Opt("--project", "-p", "P", "only this project (default: the current one)")
_ALL = Opt("--all", help="every project")
_LIMIT = Opt("--limit", "-n", "N", "at most N (default 50)", type=non_negative_int, default=50)

SESSIONS_HELP = Command(
    "cavemem sessions",
    "Archived Claude Code sessions (the Stop / SessionEnd / PreCompact hooks archive every\n"
    "transcript line, exactly, into the recovery store).\n"
    "  list            sessions, newest first\n"
    "  show ID [--raw] the session's messages (--raw: the exact transcript lines)",
)
SESSIONS = {
    "list": Command("cavemem sessions list", "Archived sessions, newest first.", [_PROJECT, _ALL, _LIMIT, _JSON]),
    "show": Command("cavemem sessions show", "One archived session's messages in order.",
                    [Opt("--raw", help="print the exact transcript lines (JSONL)"), _JSON],
                    [Arg("id", "the session id (a unique prefix is enough)")]),
    "forget": Command("cavemem sessions forget", "Delete an archived session (its transcript lines and index); memories\n"
                      "captured from it stay until forgotten themselves.",
                      [Opt("--dry-run", help="say what would be deleted, delete nothing"), _JSON],
                      [Arg("id", "the session id (a unique prefix is enough)")]),
}
REVIEW_HELP = Command(
    "cavemem review",
    "Captured memories not confirmed yet, newest first, with the transcript line they came from.\n"
    "  list (default)    the queue\n"
    "  accept ID         confirm it (confidence 1)\n"
    "  edit ID TEXT…     replace it with a corrected text (confirmed)\n"
    "  reject ID         forget it (a fact it had replaced becomes current again)",
)
REVIEW = {
    "list": Command("cavemem review list", "The review queue.", [_PROJECT, _ALL, _LIMIT, _JSON]),
    "accept": Command("cavemem review accept", "Confirm a captured memory.", [_JSON], [Arg("id", "memory id")]),
    "edit": Command("cavemem review edit", "Correct a captured memory (supersedes it).", [_JSON],
                    [Arg("id", "memory id"), Arg("text", "the corrected text", many=True)]),
    "reject": Command("cavemem review reject", "Forget a captured memory.", [_JSON], [Arg("id", "memory id")]),
}


def _memory():
    from cavemem import Memory

    return Memory()


def _out(text: str) -> None:
    io.write_stdout(text.encode("utf-8", "surrogatepass"))


def _json(obj) -> None:
    _out(json.dumps(obj, ensure_ascii=False, default=str) + "\n")


def _scope(m, opts: dict):
    """Review: the current project plus global memories unless --project / --all."""
    from cavemem.memory import project as projects

    if opts.get("all"):
        return None
    return projects.read_scope(opts.get("project"), m.cwd)


def _session_scope(m, opts: dict):
    """Sessions: every project unless --project."""
    return None if opts.get("all") or opts.get("project") is None else m.project(opts["project"])


def _flat(text: str, width: int = 240) -> str:
    from cavemem.memory.render import one_line

    return one_line(text or "", width)


def sessions(argv: list[str]) -> int:
    """``cavemem sessions <verb> …`` (raw argv, like the other verb groups)."""
    verb, opts = parse_verb(argv, SESSIONS_HELP, SESSIONS)
    m = _memory()
    try:
        if verb == "list":
            rows = m.capture.sessions(_session_scope(m, opts), opts["limit"] or 50)
            if opts["json"]:
                _json({"sessions": rows})
                return 0
            for r in rows:
                _out(f"{r['session']}  {r['project'] or '(global)'}  {r['branch'] or '-'}  {r['first_ts'] or '?'} → "
                     f"{r['last_ts'] or '?'}  {r['messages']} messages\n")
            if not rows:
                _out("no archived sessions\n")
            return 0
        if verb == "forget":
            res = m.capture.forget_session(opts["id"], dry_run=opts["dry_run"])
            if opts["json"]:
                _json(res)
            else:
                done = "would delete" if res["dry_run"] else "deleted"
                _out(f"{done} session {res['session']}: {res['messages']} messages, {res['chunks']} transcript chunks\n")
            return 0
        rec = m.capture.session(opts["id"])
        msgs = m.capture.messages(rec["session"])
        if opts["raw"]:
            io.write_stdout(b"".join(x["raw"] + b"\n" for x in msgs))
            return 0
        if opts["json"]:
            _json({"session": rec, "messages": [{k: v for k, v in x.items() if k != "raw"} for x in msgs]})
            return 0
        _out(f"session {rec['session']} · project {rec['project'] or '(global)'} · cwd {rec['cwd'] or '?'} · "
             f"branch {rec['branch'] or '-'} · {rec['messages']} messages\n")
        for x in msgs:
            if x["type"] in ("user", "assistant") and x["text"]:
                _out(f"[{x['ts'] or '?'} {x['type']} {x['uuid']}] {_flat(x['text'])}\n")
        return 0
    finally:
        m.close()


def review(argv: list[str]) -> int:
    """``cavemem review [list|accept|edit|reject] …``; no verb means ``list``."""
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["list", *argv]
    verb, opts = parse_verb(argv, REVIEW_HELP, REVIEW)
    m = _memory()
    try:
        if verb == "list":
            items = m.capture.pending(_scope(m, opts), opts["limit"] or 50)
            if opts["json"]:
                _json({"pending": items})
                return 0
            for it in items:
                _out(f"{it['id']}  {it['capture_kind']}  confidence {it['confidence']:.2f}  {it['created_at'][:10]}\n"
                     f"  {_flat(it['text'])}\n")
                if it.get("source"):
                    _out(f"  source {it['source_session']}/{it['source_message']}: {_flat(it['source'], 200)}\n")
            if not items:
                _out("nothing to review\n")
            return 0
        if verb == "accept":
            res = m.capture.accept(opts["id"])
        elif verb == "edit":
            res = m.capture.edit(opts["id"], " ".join(opts["text"]))
        else:
            res = m.capture.reject(opts["id"])
        if opts["json"]:
            _json(res)
        else:
            if verb == "accept":
                _out(f"accepted {res['id']}\n")
            elif verb == "edit":
                _out(f"{res['supersedes']} → {res['id']} (confirmed)\n")
            else:
                _out(f"rejected {opts['id']}" + (f"; {res['restored']} is current again" if res.get("restored") else "") + "\n")
        return 0
    finally:
        m.close()
