"""``cavemem doctor [--json]``: is the store healthy, and is capture actually running?

Capture works in the background (hooks spool, a detached writer drains), so when it breaks
nothing is printed anywhere — by design, a hook never speaks. This command is where that silence
is explained: files and their modes (a PostgreSQL store: the server, its extensions and indexes),
schema versions, the FTS index against the rows, the spool
backlog, capture and LLM extraction state (with the last LLM failure), the hooks in
``.claude/settings.json``, whether semantic recall can load, and the warm recall processes running.
It only reads; it repairs nothing.

Exit 0 when no check failed (warnings allowed); ``cave_unhealthy`` (exit 1) otherwise.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time

from cavemem.cli import io
from cavemem.cli.args import Command, Opt
from cavemem.errors import CaveError

COMMAND = Command(
    "cavemem doctor",
    "Check the memory store, recovery store, spool, capture, LLM extraction, hooks and semantic\n"
    "recall; print one line per check (--json: the checks as JSON). Exit 0 when healthy.",
    [Opt("--json", help="print the checks as JSON")],
)
SPOOL_STALE_SECONDS = 300  # a drained spool is empty within seconds; older files mean the writer is not running


def _check(out: list, name: str, status: str, detail: str, **extra) -> None:
    out.append({"check": name, "status": status, "detail": detail, **extra})


def _mode_problem(path: str, private: int) -> str | None:
    """Why ``path`` is readable by others (None when its mode grants nothing beyond ``private``)."""
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        return None
    return None if mode & ~private == 0 else f"{path} is {mode:o}, want {private:o} (chmod {private:o} {path})"


def check_home(out: list) -> str | None:
    from cavemem import paths

    try:
        home = paths.home_dir()
    except CaveError as err:
        _check(out, "home", "fail", err.message)
        return None
    if not os.path.isdir(home):
        _check(out, "home", "warn", f"{home} does not exist yet (created on first use)", path=home)
        return home
    problem = _mode_problem(home, 0o700)
    _check(out, "home", "fail" if problem else "ok", problem or f"{home} (0700)", path=home)
    return home


def _files_private(out: list, name: str, db: str) -> None:
    problems = [p for p in (_mode_problem(db + s, 0o600) for s in ("", "-wal", "-shm")) if p]
    if problems:
        _check(out, name + " permissions", "fail", "; ".join(problems))


def check_sqlite(out: list, name: str, db: str, want_version: int | None, extra=None) -> None:
    """File present, private, opens, ``quick_check`` ok, schema at ``want_version``; then ``extra(conn)``."""
    if not os.path.exists(db):
        _check(out, name, "warn", f"{db} does not exist yet (created on first write)", path=db)
        return
    _files_private(out, name, db)
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2)
    except sqlite3.Error as exc:
        _check(out, name, "fail", f"{db} cannot be opened: {exc}", path=db)
        return
    try:
        quick = conn.execute("PRAGMA quick_check").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if quick != "ok":
            _check(out, name, "fail", f"{db}: integrity check says {quick}", path=db)
        elif want_version is not None and version > want_version:
            _check(out, name, "fail", f"{db}: schema v{version} is newer than this cavemem (v{want_version}); upgrade cavemem", path=db)
        elif want_version is not None and version < want_version:
            _check(out, name, "warn", f"{db}: schema v{version}, migrated to v{want_version} on next open", path=db)
        else:
            _check(out, name, "ok", f"{db} (schema v{version})", path=db, schema=version)
        if extra is not None and quick == "ok":
            extra(conn)
    except sqlite3.Error as exc:
        _check(out, name, "fail", f"{db}: {exc}", path=db)
    finally:
        conn.close()


def _fts_consistency(out: list):
    def run(conn) -> None:
        rows = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        missing = conn.execute("SELECT count(*) FROM memories m WHERE NOT EXISTS "
                               "(SELECT 1 FROM mem_fts f WHERE f.rowid = m.seq)").fetchone()[0]
        orphans = conn.execute("SELECT count(*) FROM mem_fts f WHERE NOT EXISTS "
                               "(SELECT 1 FROM memories m WHERE m.seq = f.rowid)").fetchone()[0]
        if missing or orphans:
            _check(out, "search index", "fail", f"{missing} memories missing from the FTS index, {orphans} index rows without a memory "
                   "(export, then import into a fresh store)", missing=missing, orphans=orphans)
        else:
            _check(out, "search index", "ok", f"{rows} memory versions, all indexed", rows=rows)
    return run


def check_spool(out: list) -> None:
    from cavemem.hooks import spool

    files = spool.pending()
    problem = _mode_problem(spool.spool_dir(), 0o700)
    if problem:
        _check(out, "spool permissions", "fail", problem)
    if not files:
        _check(out, "spool", "ok", "empty (every hook write has been drained)", pending=0)
        return
    age = time.time() - min(os.path.getmtime(f) for f in files if os.path.exists(f)) if files else 0
    status = "warn" if age > SPOOL_STALE_SECONDS else "ok"
    detail = f"{len(files)} pending, oldest {int(age)} s" + (" — the background writer is not draining (run: cavemem hook claude-code drain)"
                                                              if status == "warn" else "")
    _check(out, "spool", status, detail, pending=len(files), oldest_seconds=int(age))


def check_capture(out: list) -> None:
    from cavemem.memory.capture import llm, pipeline

    on = pipeline.enabled()
    _check(out, "capture", "ok", "on (rule-based extraction on every Stop)" if on else "off (CAVEMAN_CAPTURE=0: sessions are archived, nothing extracted)",
           enabled=on)
    st = llm.status()
    if not llm.enabled():
        _check(out, "llm extraction", "ok", "not configured (CAVEMAN_LLM_URL unset; the rules extract)", enabled=False)
    elif st.get("ok") is False:
        _check(out, "llm extraction", "warn", f"last call failed at {st.get('at')}: {st.get('error')} "
               f"({st.get('failures', 1)} failures in a row; the rules were used instead)", enabled=True, last=st)
    else:
        _check(out, "llm extraction", "ok", f"configured, last call ok at {st.get('at')}" if st else "configured, not used yet",
               enabled=True, last=st or None)


def check_hooks(out: list, cwd: str) -> None:
    from cavemem.hooks import install

    paths = [install.default_settings_path(cwd), os.path.join(os.path.expanduser("~"), ".claude", "settings.json")]
    found: dict[str, str] = {}
    for path in paths:
        try:
            with open(path, encoding="utf-8") as fh:
                text = json.dumps(json.load(fh).get("hooks", {}))
        except (OSError, ValueError, AttributeError):
            continue
        for event, sub, _ in install.EVENTS:
            if install.MARKER + sub in text:
                found.setdefault(event, path)
    want = [e for e, _, _ in install.EVENTS]
    missing = [e for e in want if e not in found]
    if not found:
        _check(out, "hooks", "warn", "not installed here (run: cavemem hook install --write)", missing=missing)
    elif missing:
        _check(out, "hooks", "warn", f"installed without {', '.join(missing)} (run: cavemem hook install --write)",
               installed=sorted(found), missing=missing)
    else:
        _check(out, "hooks", "ok", f"all {len(want)} events installed ({', '.join(sorted(set(found.values())))})", installed=want)


def check_semantic(out: list, db: str) -> None:
    from cavemem import embed

    st = embed.status(db)
    if st["enabled"]:
        _check(out, "semantic recall", "ok", f"on ({st['model']})", **st)
    elif st["switched_on"] and embed.switch() is True:
        _check(out, "semantic recall", "fail", f"CAVEMAN_EMBED=1 but {', '.join(st['missing'])} missing ({st['install']})", **st)
    elif st["switched_on"]:
        _check(out, "semantic recall", "warn", f"off: {', '.join(st['missing'])} missing, recall ranks lexically ({st['install']})", **st)
    else:
        _check(out, "semantic recall", "ok", "switched off for this store (cavemem embed enable turns it on)", **st)


def check_warm(out: list) -> None:
    """The warm recall processes of this home (pid files of live servers; see ``cavemem.warm``)."""
    from cavemem import warm

    running = warm.servers()
    if not running:
        how = "off (CAVEMAN_WARM=0)" if not warm.enabled() else "none running (one starts after a semantic recall)"
        _check(out, "warm recall", "ok", how, enabled=warm.enabled(), running=[])
        return
    now = time.time()
    each = [f"pid {s['pid']} {s.get('state', '?')} {int(now - s.get('started', now))} s, store {s.get('store', '?')}" for s in running]
    _check(out, "warm recall", "ok", f"{'; '.join(each)} (stop: kill PID; CAVEMAN_WARM=0 keeps it off)",
           enabled=warm.enabled(), running=running)


def checks(cwd: str | None = None) -> list[dict]:
    from cavemem import paths
    from cavemem.memory.store import MIGRATIONS
    from cavemem.store import ccr

    out: list[dict] = []
    if check_home(out) is None:
        return out
    from cavemem.store.backend import server_url

    url = server_url(None, "CAVEMAN_MEM_DB")
    if url is not None:  # a team store: the server's checks instead of the SQLite files'
        from cavemem.cli.commands import doctor_pg

        out += doctor_pg.checks(url)
        check_spool(out)
        check_capture(out)
        check_hooks(out, cwd or os.getcwd())
        check_semantic(out, url)
        check_warm(out)
        return out
    mem_db = paths.mem_db_path() if os.environ.get("CAVEMAN_MEM_DB") else os.path.join(paths.home_dir(), "mem.db")
    ccr_db = paths.ccr_db_path() if os.environ.get("CAVEMAN_CCR_DB") else os.path.join(paths.home_dir(), "ccr.db")
    check_sqlite(out, "memory store", mem_db, len(MIGRATIONS), _fts_consistency(out))
    check_sqlite(out, "recovery store", ccr_db, getattr(ccr, "SCHEMA_VERSION", None))
    check_spool(out)
    check_capture(out)
    check_hooks(out, cwd or os.getcwd())
    check_semantic(out, mem_db)
    check_warm(out)
    return out


def run(opts: dict) -> int:
    got = checks()
    fails = [c for c in got if c["status"] == "fail"]
    warns = [c for c in got if c["status"] == "warn"]
    if opts.get("json"):
        io.write_stdout((json.dumps({"healthy": not fails, "checks": got}, ensure_ascii=False, default=str) + "\n").encode())
    else:
        mark = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL"}
        io.write_stdout("".join(f"{mark[c['status']]}  {c['check']:<24} {c['detail']}\n" for c in got).encode())
    if fails:
        return io.report_error(CaveError("cave_unhealthy", f"{len(fails)} check(s) failed: {', '.join(c['check'] for c in fails)}"))
    io.write_stderr_line(io.json_line({"healthy": True, "checks": len(got), "warnings": len(warns)}))
    return 0


run.COMMAND = COMMAND
