"""Copy a whole cavemem store between backends: SQLite files ⇄ PostgreSQL (``cavemem migrate``).

A *location* is a ``postgresql://`` URL (one database holds both stores) or a directory laid out
like ``$CAVEMAN_HOME`` (``mem.db`` and ``ccr.db``). What is copied, losslessly:

- every memory version with its id, times, supersession links and metadata, in ``seq`` order
  (the target's indexes and corpus statistics are rebuilt from the same analyzer);
- capture's side tables (confidence/expiry/provenance, archived sessions, messages and their
  searchable text);
- every recovery record byte for byte, with its ``created_at`` and owners.

Resumable and idempotent: items already in the target (same memory id, session, handle) are
skipped, each batch is one transaction, so an interrupted run is simply run again. Verified: after
copying, each item of the source is looked up in the target and compared by a sha256 over its
full content; any difference fails the run.
- whatever ``extras`` copy besides (the CLI passes :class:`cavemem.embed.migrate.VectorCopy`: the
  vector indexes, which this layer does not know), each with its own counts and verification.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable, Sequence

from ..errors import CaveError
from ..store.backend import is_postgres, mask_url
from .model import SELECT_ROWS, record_from_row
from .rows import bump_corpus, index_terms, insert_rows
from .transfer import export_line

BATCH = 1000
_SESSION_COLS = ("session", "project", "cwd", "branch", "transcript", "first_ts", "last_ts", "messages",
                 "archived_bytes", "updated_at")
_MESSAGE_COLS = ("session", "uuid", "type", "ts", "handle", "pos", "length", "line")
_CAPTURE_COLS = ("id", "confidence", "expires_us", "source_session", "source_message", "capture_kind", "captured",
                 "injected", "used", "last_used")
_CCR_COLS = ("handle", "created_at", "content_type", "compressor", "tokens_before", "tokens_after", "original", "metadata")


def describe(location: str) -> str:
    return mask_url(location) if is_postgres(location) else os.path.abspath(location)


def open_stores(location: str, *, create: bool):
    """(memory store, recovery store) at ``location``."""
    from ..store.ccr import open_ccr
    from .store import open_memory_store

    if is_postgres(location):
        return open_memory_store(location), open_ccr(location, max_bytes=2**62)
    if not os.path.isdir(location):
        if not create:
            raise CaveError("cave_store_unavailable", f"migrate: {describe(location)} is not a cavemem home directory")
        os.makedirs(location, mode=0o700)
    return (open_memory_store(os.path.join(location, "mem.db")),
            open_ccr(os.path.join(location, "ccr.db"), max_bytes=2**62))


def _digest(*parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(b"\x00" if p is None else (p if isinstance(p, bytes) else repr(p).encode("utf-8", "surrogatepass")))
        h.update(b"\x1f")
    return h.hexdigest()


# -- memories -----------------------------------------------------------------------------------------

def _memory_batches(store):
    last = 0
    while True:
        rows = store.read(SELECT_ROWS + " WHERE seq > ? ORDER BY seq LIMIT ?", [last, BATCH])
        if not rows:
            return
        recs = [record_from_row(r) for r in rows]
        last = recs[-1].seq
        yield recs


def copy_memories(src, dst) -> int:
    """Every version not yet in ``dst``, a batch a transaction; inside the target's bulk-load span
    when it has one (PostgreSQL drops its two GIN search indexes for a big copy and builds them at
    the end, as an import does)."""
    bulk = getattr(dst, "bulk_load", None)
    with bulk() if bulk is not None else contextlib.nullcontext() as loader:
        return _copy_batches(src, dst, loader)


def _copy_batches(src, dst, loader) -> int:
    copied = 0
    for recs in _memory_batches(src):
        ids = [r.id for r in recs]

        def txn(conn, recs=recs, ids=ids) -> int:
            marks = ",".join("?" * len(ids))
            have = {r[0] for r in conn.execute(f"SELECT id FROM memories WHERE id IN ({marks})", ids).fetchall()}
            items = [(r, index_terms(r)) for r in recs if r.id not in have]
            bulk = getattr(conn, "insert_rows", None)  # PostgreSQL's COPY path
            bulk(items) if bulk is not None else insert_rows(conn, items)
            bump_corpus(conn, len(items), sum(len(t) for _, t in items))
            return len(items)

        copied += dst.write(txn, "migrate")
        if loader is not None:
            loader.written(copied)
    return copied


def memory_digests(store, ids: list[str] | None = None) -> dict[str, str]:
    """id → sha256 of the memory's export line (every stored field)."""
    out: dict[str, str] = {}
    if ids is None:
        for recs in _memory_batches(store):
            out.update((r.id, hashlib.sha256(export_line(r).encode("utf-8", "surrogatepass")).hexdigest()) for r in recs)
        return out
    for i in range(0, len(ids), BATCH):
        chunk = ids[i : i + BATCH]
        for row in store.read(SELECT_ROWS + f" WHERE id IN ({','.join('?' * len(chunk))})", chunk):
            r = record_from_row(row)
            out[r.id] = hashlib.sha256(export_line(r).encode("utf-8", "surrogatepass")).hexdigest()
    return out


# -- capture side tables --------------------------------------------------------------------------------

def _rows(store, table: str, cols: tuple, key: str, keys: list | None = None) -> list:
    sql = f"SELECT {', '.join(cols)} FROM {table}"
    if keys is None:
        return store.read(sql + f" ORDER BY {key}")
    out = []
    for i in range(0, len(keys), BATCH):
        chunk = keys[i : i + BATCH]
        out += store.read(sql + f" WHERE {key} IN ({','.join('?' * len(chunk))}) ORDER BY {key}", chunk)
    return out


def _insert(conn, table: str, cols: tuple, rows: list) -> None:
    if rows:
        conn.executemany(f"INSERT OR IGNORE INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                         [tuple(r) for r in rows])


def copy_capture(src, dst) -> int:
    """Capture metadata by memory id; archived sessions whole (session row, messages and text
    in one transaction, so a session is either entirely copied or not at all)."""
    caps = _rows(src, "mem_capture", _CAPTURE_COLS, "id")
    dst.write(lambda conn: _insert(conn, "mem_capture", _CAPTURE_COLS, caps), "migrate")
    copied = 0
    for (sid,) in src.read("SELECT session FROM cap_sessions ORDER BY session"):
        sess = _rows(src, "cap_sessions", _SESSION_COLS, "session", [sid])
        msgs = _rows(src, "cap_messages", _MESSAGE_COLS, "session", [sid])
        texts = src.read("SELECT body, session, uuid FROM cap_text WHERE session = ? ORDER BY rowid", [sid])

        def txn(conn, sid=sid, sess=sess, msgs=msgs, texts=texts) -> int:
            if conn.execute("SELECT 1 FROM cap_sessions WHERE session = ?", (sid,)).fetchone():
                return 0
            _insert(conn, "cap_sessions", _SESSION_COLS, sess)
            _insert(conn, "cap_messages", _MESSAGE_COLS, msgs)
            conn.executemany("INSERT INTO cap_text (body, session, uuid) VALUES (?, ?, ?)", [tuple(t) for t in texts])
            return 1

        copied += dst.write(txn, "migrate")
    return copied


def capture_digest(store, sessions: list[str] | None = None, ids: list[str] | None = None) -> tuple[int, str]:
    """Row count and sha256 of the capture tables (restricted to ``sessions`` / memory ``ids``)."""
    parts = [_rows(store, "mem_capture", _CAPTURE_COLS, "id", ids), _rows(store, "cap_sessions", _SESSION_COLS, "session", sessions),
             _rows(store, "cap_messages", _MESSAGE_COLS, "session", sessions)]
    rows = sorted(_digest(*r) for part in parts for r in part)
    return len(rows), _digest(*rows)


# -- recovery records -------------------------------------------------------------------------------------

def _ccr_query(store) -> Callable:
    if hasattr(store, "srv"):
        return lambda sql, params=(): store.srv.query(sql.replace("?", "%s"), params)
    return lambda sql, params=(): store.db.execute(sql, params).fetchall()


def _ccr_batches(store):
    q = _ccr_query(store)
    last = ""
    while True:
        rows = q(f"SELECT {', '.join(_CCR_COLS)} FROM recoveries WHERE handle > ? ORDER BY handle LIMIT ?", (last, BATCH // 4))
        if not rows:
            return
        last = rows[-1][0]
        owners: dict[str, list[str]] = {}
        handles = [r[0] for r in rows]
        marks = ",".join("?" * len(handles))
        for h, o in q(f"SELECT handle, owner FROM recovery_owners WHERE handle IN ({marks}) ORDER BY owner", handles):
            owners.setdefault(h, []).append(o)
        yield [(tuple(r[:6]) + (bytes(r[6]), None if r[7] is None else bytes(r[7])), owners.get(r[0], [])) for r in rows]


def _ccr_write(store, batch) -> int:
    """Insert the records not yet present (the SQLite triggers / the explicit update keep the
    byte accounting exact)."""
    cols, marks = ", ".join(_CCR_COLS), ", ".join("?" * len(_CCR_COLS))
    if hasattr(store, "srv"):
        def txn(conn) -> int:
            n = size = 0
            for row, owners in batch:
                cur = conn.execute(f"INSERT INTO recoveries ({cols}) VALUES ({marks.replace('?', '%s')}) ON CONFLICT DO NOTHING", row)
                if cur.rowcount:
                    n += 1
                    size += len(row[6]) + len(row[7] or b"")
                for o in owners:
                    conn.execute("INSERT INTO recovery_owners (handle, owner) VALUES (%s, %s) ON CONFLICT DO NOTHING", (row[0], o))
            conn.execute("UPDATE ccr_usage SET storage_bytes = storage_bytes + %s WHERE id = 1", (size,))
            return n

        return store.srv.run(txn, "migrate", lock=None)
    with store.db.transaction() as conn:
        n = 0
        for row, owners in batch:
            n += conn.execute(f"INSERT OR IGNORE INTO recoveries ({cols}) VALUES ({marks})", row).rowcount
            conn.executemany("INSERT OR IGNORE INTO recovery_owners (handle, owner) VALUES (?, ?)", [(row[0], o) for o in owners])
        return n


def copy_recoveries(src, dst) -> int:
    return sum(_ccr_write(dst, batch) for batch in _ccr_batches(src))


def recovery_digests(store, handles: list[str] | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    if handles is None:
        for batch in _ccr_batches(store):
            out.update((row[0], _digest(*row, *owners)) for row, owners in batch)
        return out
    q = _ccr_query(store)
    for i in range(0, len(handles), BATCH // 4):
        chunk = handles[i : i + BATCH // 4]
        marks = ",".join("?" * len(chunk))
        owners: dict[str, list[str]] = {}
        for h, o in q(f"SELECT handle, owner FROM recovery_owners WHERE handle IN ({marks}) ORDER BY owner", chunk):
            owners.setdefault(h, []).append(o)
        for r in q(f"SELECT {', '.join(_CCR_COLS)} FROM recoveries WHERE handle IN ({marks})", chunk):
            row = tuple(r[:6]) + (bytes(r[6]), None if r[7] is None else bytes(r[7]))
            out[row[0]] = _digest(*row, *owners.get(row[0], []))
    return out


# -- the whole run ----------------------------------------------------------------------------------------

def _summary(mem: dict, ccr: dict, capture: tuple[int, str]) -> dict:
    return {"memories": len(mem), "memories_sha256": _digest(*sorted(mem.values())),
            "recoveries": len(ccr), "recoveries_sha256": _digest(*sorted(ccr.values())),
            "capture_rows": capture[0], "capture_sha256": capture[1]}


def migrate(source: str, target: str, *, dry_run: bool = False, extras: Sequence = ()) -> dict:
    """Copy ``source`` into ``target`` and verify; returns the report. ``dry_run`` only reads
    the source and says what would be copied. Each of ``extras`` has ``name``,
    ``summary(source) -> dict`` (what the source holds) and ``copy(target, dst_mem) ->
    (copied, verified, bad ids)``."""
    if describe(source) == describe(target):
        raise CaveError("cave_invalid_arguments", "migrate: --from and --to name the same store")
    src_mem, src_ccr = open_stores(source, create=False)
    mem, ccr = memory_digests(src_mem), recovery_digests(src_ccr)
    sessions = [r[0] for r in src_mem.read("SELECT session FROM cap_sessions ORDER BY session")]
    source_summary = _summary(mem, ccr, capture_digest(src_mem))
    for extra in extras:
        summary = extra.summary(source)
        if summary:
            source_summary[extra.name] = summary
    report = {"from": describe(source), "to": describe(target), "dry_run": dry_run, "source": source_summary}
    if dry_run:
        return report
    dst_mem, dst_ccr = open_stores(target, create=True)
    report["copied"] = {"memories": copy_memories(src_mem, dst_mem), "sessions": copy_capture(src_mem, dst_mem),
                        "recoveries": copy_recoveries(src_ccr, dst_ccr)}
    bad_extra: list[str] = []
    for extra in extras:
        copied, verified, bad = extra.copy(target, dst_mem)
        if copied is not None:
            report["copied"][extra.name] = copied
            report.setdefault("verified", {})[extra.name] = verified
        bad_extra += bad
    got_mem, got_ccr = memory_digests(dst_mem, list(mem)), recovery_digests(dst_ccr, list(ccr))
    caps = capture_digest(dst_mem, sessions, list(mem))
    src_caps = capture_digest(src_mem, sessions, list(mem))
    bad = [m for m in mem if got_mem.get(m) != mem[m]] + [h for h in ccr if got_ccr.get(h) != ccr[h]]
    report.setdefault("verified", {}).update({"memories": len(mem) - sum(1 for m in mem if got_mem.get(m) != mem[m]),
                          "recoveries": len(ccr) - sum(1 for h in ccr if got_ccr.get(h) != ccr[h]),
                          "capture_rows": caps[0], "capture_match": caps == src_caps})
    bad += bad_extra
    if bad or caps != src_caps:
        raise CaveError("cave_memory_conflict", f"migrate: verification failed: {len(bad)} item(s) differ in the target"
                        + ("" if caps == src_caps else ", capture tables differ") + f" (first: {', '.join(bad[:3])})")
    return report
