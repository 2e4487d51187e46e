"""Lossless session archive: new transcript lines go into the recovery store, exactly.

Each increment (the complete lines appended since the last archive) is one content-addressed
recovery-store blob; ``cap_messages`` maps every message ``uuid`` to (blob, position, length), so
a memory's ``source_message`` can always be shown byte for byte. ``cap_sessions`` keeps the
session record and how far the transcript has been archived: the next ``Stop`` reads only what
came after. The blob is written before the offset moves, so a writer killed in between only
repeats idempotent work.
"""

from __future__ import annotations

from .. import analyze, ids, project as projects
from .transcript import Chunk, read_from

CONTENT_TYPE = "application/x-claude-code-transcript"


def session_record(store, session: str) -> dict | None:
    rows = store.read("SELECT session, project, cwd, branch, transcript, first_ts, last_ts, messages, archived_bytes, "
                      "updated_at FROM cap_sessions WHERE session = ?", (session,))
    if not rows:
        return None
    keys = ("session", "project", "cwd", "branch", "transcript", "first_ts", "last_ts", "messages", "archived_bytes",
            "updated_at")
    return dict(zip(keys, rows[0]))


def list_sessions(store, project: str | None = None, limit: int = 50) -> list[dict]:
    sql = "SELECT session FROM cap_sessions"
    params: list = []
    if project is not None:
        sql += " WHERE project = ?"
        params.append(project)
    sql += " ORDER BY coalesce(last_ts, '') DESC, session LIMIT ?"
    return [session_record(store, r[0]) for r in store.read(sql, [*params, limit])]


def read_new(store, path: str, session: str | None) -> tuple[Chunk, dict | None]:
    """The chunk of ``path`` not archived yet for ``session`` (and its current record)."""
    if not session:  # the hook did not say: the session this transcript was archived under
        rows = store.read("SELECT session FROM cap_sessions WHERE transcript = ? ORDER BY updated_at DESC LIMIT 1", (path,))
        session = rows[0][0] if rows else None
    rec = session_record(store, session) if session else None
    start = rec["archived_bytes"] if rec and rec.get("transcript") == path else 0
    return read_from(path, start), rec


OWNER = "archive"  # the recovery-store owner of transcript chunks (released by forget_session)


def store_chunk(ccr, chunk: Chunk) -> str | None:
    if not chunk.data:
        return None
    return ccr.put(chunk.data, content_type=CONTENT_TYPE, compressor="archive", tokens_before=0, tokens_after=0,
                   owner=OWNER)


def forget_session(store, ccr, session: str, *, dry_run: bool = False) -> dict:
    """Delete an archived session: its message index, searchable text, session row and — once no
    other session shares them — its transcript chunks in the recovery store (scrubbed from disk).
    Memories captured from it stay (they are forgotten on their own)."""
    handles = [r[0] for r in store.read("SELECT DISTINCT handle FROM cap_messages WHERE session = ?", (session,))]
    count = store.read("SELECT count(*) FROM cap_messages WHERE session = ?", (session,))[0][0]
    out = {"session": session, "messages": count, "chunks": len(handles), "dry_run": dry_run}
    if dry_run:
        return out

    def txn(conn):
        conn.execute("DELETE FROM cap_messages WHERE session = ?", (session,))
        conn.execute("DELETE FROM cap_text WHERE session = ?", (session,))
        conn.execute("DELETE FROM cap_sessions WHERE session = ?", (session,))
        marks = ",".join("?" * len(handles))
        shared = {r[0] for r in conn.execute(f"SELECT handle FROM cap_messages WHERE handle IN ({marks})", handles)} if handles else set()
        return [h for h in handles if h not in shared]

    free = store.write(txn, "forget session")
    out["chunks_deleted"] = ccr.release(free, OWNER) if free else 0
    store.db.scrub()  # secure_delete + WAL checkpoint: no transcript text left in mem.db or its WAL
    return out


def record_chunk(conn, chunk: Chunk, handle: str | None, path: str, session: str | None, cwd: str | None,
                 now: str) -> dict:
    """Inside a memory-store write: session row, message index, new archive offset."""
    msgs = chunk.messages
    sid = session or next((m.session for m in msgs if m.session), "") or path
    row = conn.execute("SELECT messages, first_ts, cwd, branch, project FROM cap_sessions WHERE session = ?", (sid,)).fetchone()
    count, first, old_cwd, branch, proj = row if row else (0, None, None, None, None)
    cwd = cwd or next((m.cwd for m in msgs if m.cwd), None) or old_cwd
    if proj is None:
        proj = projects.resolve_project(None, cwd) if cwd else ""
    branch = next((m.branch for m in reversed(msgs) if m.branch), None) or branch
    stamps = [m.timestamp for m in msgs if m.timestamp]
    line0 = count
    added = 0
    if handle:
        for i, m in enumerate(msgs):
            cur = conn.execute(
                "INSERT OR IGNORE INTO cap_messages (session, uuid, type, ts, handle, pos, length, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (sid, m.uuid, m.type, m.timestamp or None, handle, m.offset - chunk.start, m.length, line0 + i))
            added += cur.rowcount
            if cur.rowcount and m.text.strip() and m.type in ("user", "assistant"):
                body = analyze.join_terms(analyze.analyze(m.text[:20000]))
                if body:
                    conn.execute("INSERT INTO cap_text (body, session, uuid) VALUES (?, ?, ?)", (body, sid, m.uuid))
    first = first or (min(stamps) if stamps else None)
    last = max(stamps) if stamps else None
    conn.execute(
        "INSERT INTO cap_sessions (session, project, cwd, branch, transcript, first_ts, last_ts, messages, archived_bytes, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session) DO UPDATE SET cwd = excluded.cwd, branch = excluded.branch, "
        "transcript = excluded.transcript, first_ts = coalesce(cap_sessions.first_ts, excluded.first_ts), "
        "last_ts = coalesce(max(cap_sessions.last_ts, excluded.last_ts), excluded.last_ts, cap_sessions.last_ts), "
        "messages = excluded.messages, archived_bytes = excluded.archived_bytes, updated_at = excluded.updated_at",
        (sid, proj, cwd, branch, path, first, last, count + added, chunk.end, now))
    return {"session": sid, "project": proj, "new_messages": added, "archived_bytes": chunk.end}


def messages(store, session: str, offset: int = 0, limit: int = 200) -> list[dict]:
    rows = store.read("SELECT uuid, type, ts, handle, pos, length, line FROM cap_messages WHERE session = ? "
                      "ORDER BY line LIMIT ? OFFSET ?", (session, limit, offset))
    return [dict(zip(("uuid", "type", "ts", "handle", "pos", "length", "line"), r)) for r in rows]


def message_bytes(store, ccr, session: str, uuid: str) -> bytes | None:
    """The exact transcript line of message ``uuid`` (None when it was never archived)."""
    rows = store.read("SELECT handle, pos, length FROM cap_messages WHERE session = ? AND uuid = ?", (session, uuid))
    if not rows:
        rows = store.read("SELECT handle, pos, length FROM cap_messages WHERE uuid = ? LIMIT 1", (uuid,))
    if not rows:
        return None
    handle, pos, length = rows[0]
    return ccr.get(handle)[pos : pos + length]


def message_text(raw: bytes) -> str:
    """The conversation text of an archived line ("" for tool traffic and other line types)."""
    from .transcript import parse_line

    msg = parse_line(raw, 0)
    if msg is None:
        return ""
    return msg.text


def now_text() -> str:
    return ids.format_time(ids.utc_now())


def search(store, ccr, query: str, projects_scope=None, limit: int = 3, min_share: float = 0.5) -> list[dict]:
    """Archived messages matching ``query`` (at least ``min_share`` of its distinct terms), best
    first: ``{"session", "uuid", "ts", "text", "score", "basis": "session"}``. Low priority by
    design: recall lists them after its hits, never among them."""
    terms = list(dict.fromkeys(analyze.analyze(query)))
    if not terms:
        return []
    out = []
    for sess, uuid, body, score in store.session_text_matches(terms, projects_scope, limit * 10):
        have = set(body.split(" "))
        if sum(t in have for t in terms) < min_share * len(terms):
            continue
        raw = message_bytes(store, ccr, sess, uuid)
        ts = store.read("SELECT ts FROM cap_messages WHERE session = ? AND uuid = ?", (sess, uuid))
        out.append({"session": sess, "uuid": uuid, "ts": ts[0][0] if ts else None, "text": message_text(raw) if raw else "",
                    "score": round(-score, 4), "basis": "session"})
        if len(out) >= limit:
            break
    return out
