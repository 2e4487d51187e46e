"""CCR — the content-addressed recovery store (spec engine-core §5).

Originals are stored under ``ccr_`` + the first 16 bytes of sha256(original) in hex, so the same
payload always gets the same handle and is stored once. A byte budget (default 512 MiB,
``CAVEMAN_CCR_MAX_BYTES``) caps what is kept; at the cap new puts fail with
:class:`~cavemem.errors.BudgetExceeded` and nothing is ever evicted. Each put runs in one
``BEGIN IMMEDIATE`` transaction so concurrent writers cannot both pass the budget check.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sqlite3
from datetime import datetime, timezone

from ..digest import sha256
from ..errors import BudgetExceeded, CaveError, StoreUnavailable, UnknownHandle
from . import sqlite as sqlite_store

DEFAULT_MAX_BYTES = 512 * 1024 * 1024
MIN_PAGES = 16

MIGRATIONS = [
    [
        """CREATE TABLE IF NOT EXISTS recoveries (
            handle TEXT PRIMARY KEY,
            created_at TEXT NOT NULL,
            content_type TEXT NOT NULL,
            compressor TEXT NOT NULL,
            tokens_before INTEGER NOT NULL,
            tokens_after INTEGER NOT NULL,
            original BLOB NOT NULL,
            metadata BLOB
        )""",
        # storage_bytes kept by triggers so budget checks and stats never scan every row
        "CREATE TABLE IF NOT EXISTS ccr_usage (id INTEGER PRIMARY KEY CHECK (id = 1), storage_bytes INTEGER NOT NULL)",
        "INSERT OR IGNORE INTO ccr_usage (id, storage_bytes) VALUES (1, 0)",
        """CREATE TRIGGER IF NOT EXISTS recoveries_ai AFTER INSERT ON recoveries BEGIN
            UPDATE ccr_usage SET storage_bytes = storage_bytes + length(NEW.original) + coalesce(length(NEW.metadata), 0) WHERE id = 1;
        END""",
        """CREATE TRIGGER IF NOT EXISTS recoveries_au AFTER UPDATE ON recoveries BEGIN
            UPDATE ccr_usage SET storage_bytes = storage_bytes
                - length(OLD.original) - coalesce(length(OLD.metadata), 0)
                + length(NEW.original) + coalesce(length(NEW.metadata), 0) WHERE id = 1;
        END""",
        """CREATE TRIGGER IF NOT EXISTS recoveries_ad AFTER DELETE ON recoveries BEGIN
            UPDATE ccr_usage SET storage_bytes = storage_bytes - length(OLD.original) - coalesce(length(OLD.metadata), 0) WHERE id = 1;
        END""",
    ],
    # owners (issue 15 item 1): a content-addressed record can be needed by a compress and by a
    # memory at once; it is deleted only when its last owner lets go. Records stored before the
    # table existed: the memory layer's own pass-through copies belong to the memory, the rest
    # to compress (keeping data beats purging it on a guess).
    [
        "CREATE TABLE IF NOT EXISTS recovery_owners (handle TEXT NOT NULL REFERENCES recoveries(handle) "
        "ON DELETE CASCADE, owner TEXT NOT NULL, PRIMARY KEY (handle, owner)) WITHOUT ROWID",
        "INSERT OR IGNORE INTO recovery_owners (handle, owner) SELECT handle, CASE WHEN compressor IN "
        "('memory', 'cavemem-head') THEN 'memory' ELSE 'compress' END FROM recoveries",
    ],
]

OWNER_COMPRESS = "compress"
OWNER_MEMORY = "memory"
_OWNER: contextvars.ContextVar[str] = contextvars.ContextVar("ccr_owner", default=OWNER_COMPRESS)


@contextlib.contextmanager
def owned_by(owner: str):
    """Puts made inside this block (e.g. by an engine the memory layer calls) are recorded
    under ``owner`` instead of the default ``compress``."""
    token = _OWNER.set(owner)
    try:
        yield
    finally:
        _OWNER.reset(token)


def handle_for(original: bytes) -> str:
    return "ccr_" + sha256(original).digest()[:16].hex()


def normalize_handle(handle: str) -> str:
    """Accept the forms agents pass around: ``ccr_…``, ``ccr://ccr_…``, ``<<ccr:ccr_…>>``, ``ccr:ccr_…``."""
    h = handle.strip()
    if h.startswith("<<") and h.endswith(">>"):
        h = h[2:-2].strip()
    if h.startswith("ccr://"):
        h = h[len("ccr://") :].strip().strip("/")
    elif h.startswith("ccr:") and not h.startswith("ccr_"):
        h = h[len("ccr:") :].strip()
    return h


def budget_from_env() -> int:
    """``CAVEMAN_CCR_MAX_BYTES`` (a positive base-10 integer) or the 512 MiB default."""
    raw = os.environ.get("CAVEMAN_CCR_MAX_BYTES", "").strip()
    if not raw:
        return DEFAULT_MAX_BYTES
    body = raw[1:] if raw[:1] in "+-" else raw
    if not body.isascii() or not body.isdigit():
        raise CaveError("cave_invalid_config", "CAVEMAN_CCR_MAX_BYTES must be a positive integer")
    value = int(raw)
    if value <= 0 or value >= 2**63:
        raise CaveError("cave_invalid_config", "CAVEMAN_CCR_MAX_BYTES must be a positive integer")
    return value


def _now() -> str:
    t = datetime.now(timezone.utc)
    frac = f"{t.microsecond:06d}".rstrip("0")
    return t.strftime("%Y-%m-%dT%H:%M:%S") + (f".{frac}" if frac else "") + "Z"


class CCRStore:
    """Recovery store over one SQLite database (see :func:`open_ccr`)."""

    def __init__(self, db: sqlite_store.Database, max_bytes: int):
        self.db = db
        self.max_bytes = max_bytes

    # -- budget -----------------------------------------------------------------------------
    def _configure_budget(self) -> None:
        if self.db.path == sqlite_store.MEMORY:
            return
        page = self.db.execute("PRAGMA page_size").fetchone()[0]
        # A budget below what is stored (or below SQLite's minimum) still opens: reads keep
        # working and every new put fails the logical check with "budget exceeded".
        max_pages = max(self.max_bytes // page, MIN_PAGES)
        # The logical budget counts payload bytes only; leave room for SQLite's own overhead
        # (b-tree pages, indexes) so the hard cap never trips before the logical one.
        hard_pages = max_pages * 2 + 64
        self.db.execute(f"PRAGMA max_page_count = {hard_pages}")  # never below the current size
        self.db.execute(f"PRAGMA wal_autocheckpoint = {max(1, max_pages // 16)}")
        self.db.execute(f"PRAGMA journal_size_limit = {max(self.max_bytes // 8, 4096)}")

    def storage_bytes(self) -> int:
        return self.db.execute("SELECT storage_bytes FROM ccr_usage WHERE id = 1").fetchone()[0]

    # -- put / get ---------------------------------------------------------------------------
    def put(
        self,
        original: bytes,
        *,
        content_type: str,
        compressor: str,
        tokens_before: int,
        tokens_after: int,
        metadata: bytes = b"",
        owner: str | None = None,
    ) -> str:
        """Store ``original`` durably and return its handle (idempotent); ``owner`` (default:
        the :func:`owned_by` block's, else ``compress``) is recorded as one of its owners."""
        item = dict(content_type=content_type, compressor=compressor, tokens_before=tokens_before,
                    tokens_after=tokens_after, metadata=metadata, owner=owner)
        return self.put_many([(original, item)])[0]

    def put_many(self, items: list[tuple[bytes, dict]]) -> list[str]:
        """Several puts in one transaction (one fsync): ``[(original, put keyword arguments)]``.
        All or nothing; raises like :meth:`put`."""
        handles = []
        try:
            with self.db.transaction() as conn:
                for original, kw in items:
                    kw = dict(kw)
                    owner = kw.pop("owner", None) or _OWNER.get()
                    handle = self._put_in(conn, original, **kw)
                    conn.execute("INSERT OR IGNORE INTO recovery_owners (handle, owner) VALUES (?, ?)", (handle, owner))
                    handles.append(handle)
        except BudgetExceeded:
            raise
        except sqlite3.Error as exc:
            text = str(exc).lower()
            if "database or disk is full" in text or "sqlite_full" in text:
                raise BudgetExceeded("ccr put: ccr: storage budget exceeded") from exc
            raise StoreUnavailable(f"ccr put: {exc}") from exc
        return handles

    def _put_in(self, conn, original: bytes, *, content_type: str, compressor: str, tokens_before: int,
                tokens_after: int, metadata: bytes = b"") -> str:
        handle = handle_for(original)
        meta = bytes(metadata or b"")
        row = conn.execute(
            "SELECT content_type, compressor, tokens_before, tokens_after, length(original), "
            "coalesce(metadata, x'') FROM recoveries WHERE handle = ?",
            (handle,),
        ).fetchone()
        if row is not None and row[:5] == (content_type, compressor, tokens_before, tokens_after, len(original)) and bytes(row[5]) == meta:
            return handle  # identical repeat: no write, succeeds even at the cap
        existing = 0 if row is None else row[4] + len(row[5])
        used = conn.execute("SELECT storage_bytes FROM ccr_usage WHERE id = 1").fetchone()[0]
        if used - existing + len(original) + len(meta) > self.max_bytes:
            raise BudgetExceeded("ccr put: ccr: storage budget exceeded")
        sql, value = _blob_param(original)
        if row is None:
            cur = conn.execute(
                "INSERT INTO recoveries (handle, created_at, content_type, compressor, tokens_before, "
                f"tokens_after, original, metadata) VALUES (?, ?, ?, ?, ?, ?, {sql}, ?)",
                (handle, _now(), content_type, compressor, tokens_before, tokens_after, value, meta or None),
            )
            rowid = cur.lastrowid
        else:
            # zero-accounting guard: a raw put (tokens_before 0) keeps measured stats
            keep_old = tokens_before == 0 and row[2] > 0
            conn.execute(
                f"UPDATE recoveries SET created_at = ?, original = {sql}, "
                "content_type = CASE WHEN ? THEN content_type ELSE ? END, "
                "compressor = CASE WHEN ? THEN compressor ELSE ? END, "
                "tokens_before = CASE WHEN ? THEN tokens_before ELSE ? END, "
                "tokens_after = CASE WHEN ? THEN tokens_after ELSE ? END, "
                "metadata = CASE WHEN metadata IS NULL OR length(metadata) = 0 THEN ? ELSE metadata END "
                "WHERE handle = ?",
                (_now(), value, keep_old, content_type, keep_old, compressor, keep_old, tokens_before,
                 keep_old, tokens_after, meta or None, handle),
            )
            rowid = conn.execute("SELECT rowid FROM recoveries WHERE handle = ?", (handle,)).fetchone()[0]
        if value is not original:
            _write_blob(conn, rowid, original)
        return handle

    def get(self, handle: str) -> bytes:
        """The exact original for ``handle``; raises :class:`UnknownHandle`."""
        return self._column("original", handle)

    def get_metadata(self, handle: str) -> bytes:
        """The compressor metadata stored with ``handle`` (empty when none); raises :class:`UnknownHandle`."""
        return self._column("coalesce(metadata, x'')", handle)

    def _column(self, expr: str, handle: str) -> bytes:
        if not handle.isascii():
            raise UnknownHandle()  # every handle is ccr_ + hex: nothing else can be stored
        try:
            row = self.db.execute(f"SELECT {expr} FROM recoveries WHERE handle = ?", (handle,)).fetchone()
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"ccr get: {exc}") from exc
        if row is None:
            raise UnknownHandle()
        return bytes(row[0])

    def delete(self, handle: str) -> bool:
        """Remove one record whatever owns it; True if it existed. Callers that share records
        use :meth:`release`."""
        try:
            with self.db.transaction() as conn:
                gone = conn.execute("DELETE FROM recoveries WHERE handle = ?", (handle,)).rowcount > 0
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"ccr delete: {exc}") from exc
        if gone:
            self.db.scrub()
        return gone

    def release(self, handles: list[str], owner: str) -> int:
        """Drop ``owner`` from each record; delete (and scrub from disk) those left without an
        owner. Returns how many records were deleted."""
        deleted = 0
        try:
            with self.db.transaction() as conn:
                for handle in handles:
                    conn.execute("DELETE FROM recovery_owners WHERE handle = ? AND owner = ?", (handle, owner))
                    deleted += conn.execute(
                        "DELETE FROM recoveries WHERE handle = ? AND NOT EXISTS "
                        "(SELECT 1 FROM recovery_owners WHERE handle = ?)", (handle, handle)).rowcount
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"ccr release: {exc}") from exc
        if deleted:
            self.db.scrub()
        return deleted

    def owners(self, handle: str) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT owner FROM recovery_owners WHERE handle = ? ORDER BY owner", (handle,)).fetchall()]

    def contains(self, handle: str) -> bool:
        return self.db.execute("SELECT 1 FROM recoveries WHERE handle = ?", (handle,)).fetchone() is not None

    # -- stats -------------------------------------------------------------------------------
    def summary(self) -> dict:
        """Totals and per-content-type buckets in the field order of spec §5.8."""
        try:
            rows = self.db.execute(
                "SELECT content_type, count(*), sum(tokens_before), sum(tokens_after) FROM recoveries GROUP BY content_type"
            ).fetchall()
            used = self.storage_bytes()
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"ccr stats: {exc}") from exc
        return summary_of(rows, used, self.max_bytes)

    def close(self) -> None:
        self.db.close()


# Originals this big are written into a zeroblob a chunk at a time: binding the whole value made
# SQLite copy it and then assemble the row, two more full copies of a 64 MiB input (issue 9).
STREAM_MIN_BYTES = 1 << 20
STREAM_CHUNK_BYTES = 1 << 20


def _blob_param(original: bytes) -> tuple[str, object]:
    """The SQL placeholder and value for the original column: the bytes, or a zeroblob of
    their length to be filled by :func:`_write_blob` within the same transaction."""
    if len(original) >= STREAM_MIN_BYTES:
        return "zeroblob(?)", len(original)
    return "?", original


def _write_blob(conn, rowid: int, original: bytes) -> None:
    view = memoryview(original)
    with conn.blobopen("recoveries", "original", rowid) as blob:
        for at in range(0, len(view), STREAM_CHUNK_BYTES):
            blob.write(view[at : at + STREAM_CHUNK_BYTES])


def summary_of(rows, used: int, max_bytes: int) -> dict:
    """The stats summary from ``(content_type, count, tokens_before, tokens_after)`` rows."""
    by_type = {}
    tc = tb = ta = 0
    for ct, count, before, after in sorted(rows, key=lambda r: r[0].encode()):
        before, after = int(before or 0), int(after or 0)
        by_type[ct] = _bucket(count, before, after)
        tc, tb, ta = tc + count, tb + before, ta + after
    out = {"totals": _bucket(tc, tb, ta), "by_content_type": by_type, "basis": "inferred"}
    if used:
        out["storage_bytes"] = used
    if max_bytes:
        out["max_storage_bytes"] = max_bytes
    if used >= max_bytes:
        out["storage_full"] = True
    return out


def _bucket(count: int, before: int, after: int) -> dict:
    ratio = (before - after) / before if before > 0 else 0
    return {"count": count, "tokens_before": before, "tokens_after": after, "ratio": ratio}


def open_ccr(path: str | None = None, max_bytes: int | None = None) -> CCRStore:
    """Open the recovery store. ``path=None`` means the default location (``CAVEMAN_CCR_DB`` or
    ``$CAVEMAN_HOME/ccr.db``); ``max_bytes=None`` reads ``CAVEMAN_CCR_MAX_BYTES``."""
    from .. import paths
    from .backend import server_url

    url = server_url(path, "CAVEMAN_CCR_DB")  # postgresql:// path, or CAVEMAN_DB_URL when no file was named
    if url is not None:
        from .pg.ccr import open_pg_ccr

        return open_pg_ccr(url, budget_from_env() if max_bytes is None else max_bytes)
    if max_bytes is None:
        max_bytes = DEFAULT_MAX_BYTES if path == sqlite_store.MEMORY else budget_from_env()
    if max_bytes <= 0:
        raise CaveError("cave_invalid_config", "CAVEMAN_CCR_MAX_BYTES must be a positive integer")
    db = sqlite_store.open_database(path or paths.ccr_db_path(), MIGRATIONS)
    store = CCRStore(db, max_bytes)
    try:
        store._configure_budget()
    except BaseException:
        db.close()
        raise
    return store
