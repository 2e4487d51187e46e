"""The recovery store (CCR) on PostgreSQL: the same handles, owners, byte budget and stats as
:class:`cavemem.store.ccr.CCRStore`, in tables ``recoveries`` / ``recovery_owners`` / ``ccr_usage``.

The budget check and the write of each put run in one transaction under a row lock on
``ccr_usage`` (``SELECT … FOR UPDATE``), so concurrent writers cannot both pass the cap, as
``BEGIN IMMEDIATE`` guarantees on SQLite.
"""

from __future__ import annotations

from ...errors import BudgetExceeded, CaveError, UnknownHandle
from .. import ccr as sqlite_ccr
from . import conn as pgconn

MIGRATIONS: list[pgconn.Migration] = [
    ("ccr/001_recoveries", [
        """CREATE TABLE recoveries (
            handle TEXT COLLATE "C" PRIMARY KEY,
            created_at TEXT NOT NULL,
            content_type TEXT NOT NULL,
            compressor TEXT NOT NULL,
            tokens_before BIGINT NOT NULL,
            tokens_after BIGINT NOT NULL,
            original BYTEA NOT NULL,
            metadata BYTEA
        )""",
        "CREATE TABLE ccr_usage (id INTEGER PRIMARY KEY CHECK (id = 1), storage_bytes BIGINT NOT NULL)",
        "INSERT INTO ccr_usage (id, storage_bytes) VALUES (1, 0)",
        "CREATE TABLE recovery_owners (handle TEXT COLLATE \"C\" NOT NULL REFERENCES recoveries(handle) "
        "ON DELETE CASCADE, owner TEXT NOT NULL, PRIMARY KEY (handle, owner))",
    ]),
]

_SIZE = "octet_length(original) + coalesce(octet_length(metadata), 0)"


class PgCCRStore:
    """Recovery store over one PostgreSQL database (see :func:`open_pg_ccr`)."""

    def __init__(self, srv: pgconn.Server, max_bytes: int):
        self.srv = srv
        self.max_bytes = max_bytes
        self.path = srv.masked

    def storage_bytes(self) -> int:
        return self.srv.query("SELECT storage_bytes FROM ccr_usage WHERE id = 1", action="ccr stats")[0][0]

    def put(self, original: bytes, *, content_type: str, compressor: str, tokens_before: int, tokens_after: int,
            metadata: bytes = b"", owner: str | None = None) -> str:
        item = dict(content_type=content_type, compressor=compressor, tokens_before=tokens_before,
                    tokens_after=tokens_after, metadata=metadata, owner=owner)
        return self.put_many([(original, item)])[0]

    def put_many(self, items: list[tuple[bytes, dict]]) -> list[str]:
        """Several puts in one transaction, all or nothing (see ``CCRStore.put_many``)."""

        def txn(conn) -> list[str]:
            used = conn.execute("SELECT storage_bytes FROM ccr_usage WHERE id = 1 FOR UPDATE").fetchone()[0]
            handles = []
            for original, kw in items:
                kw = dict(kw)
                owner = kw.pop("owner", None) or sqlite_ccr._OWNER.get()
                handle, used = self._put_in(conn, bytes(original), used, **kw)
                conn.execute("INSERT INTO recovery_owners (handle, owner) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                             (handle, owner))
                handles.append(handle)
            conn.execute("UPDATE ccr_usage SET storage_bytes = %s WHERE id = 1", (used,))
            return handles

        return self.srv.run(txn, "ccr put", lock=None)

    def _put_in(self, conn, original: bytes, used: int, *, content_type: str, compressor: str, tokens_before: int,
                tokens_after: int, metadata: bytes = b"") -> tuple[str, int]:
        handle = sqlite_ccr.handle_for(original)
        meta = bytes(metadata or b"")
        row = conn.execute(
            "SELECT content_type, compressor, tokens_before, tokens_after, octet_length(original), "
            "coalesce(metadata, ''::bytea) FROM recoveries WHERE handle = %s", (handle,)).fetchone()
        if row is not None and tuple(row[:5]) == (content_type, compressor, tokens_before, tokens_after, len(original)) \
                and bytes(row[5]) == meta:
            return handle, used  # identical repeat: no write, succeeds even at the cap
        existing = 0 if row is None else row[4] + len(row[5])
        new_used = used - existing + len(original) + len(meta)
        if new_used > self.max_bytes:
            raise BudgetExceeded("ccr put: ccr: storage budget exceeded")
        now = sqlite_ccr._now()
        if row is None:
            conn.execute(
                "INSERT INTO recoveries (handle, created_at, content_type, compressor, tokens_before, tokens_after, "
                "original, metadata) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (handle, now, content_type, compressor, tokens_before, tokens_after, original, meta or None))
            return handle, new_used
        keep_old = tokens_before == 0 and row[2] > 0  # zero-accounting guard, as on SQLite
        old_meta = bytes(row[5])
        kept_meta = old_meta if old_meta else (meta or None)
        new_used = used - existing + len(original) + len(kept_meta or b"")
        conn.execute(
            "UPDATE recoveries SET created_at = %s, original = %s, content_type = %s, compressor = %s, "
            "tokens_before = %s, tokens_after = %s, metadata = %s WHERE handle = %s",
            (now, original, row[0] if keep_old else content_type, row[1] if keep_old else compressor,
             row[2] if keep_old else tokens_before, row[3] if keep_old else tokens_after, kept_meta, handle))
        return handle, new_used

    def get(self, handle: str) -> bytes:
        return self._column("original", handle)

    def get_metadata(self, handle: str) -> bytes:
        return self._column("coalesce(metadata, ''::bytea)", handle)

    def _column(self, expr: str, handle: str) -> bytes:
        if not handle.isascii():
            raise UnknownHandle()
        rows = self.srv.query(f"SELECT {expr} FROM recoveries WHERE handle = %s", (handle,), action="ccr get")
        if not rows:
            raise UnknownHandle()
        return bytes(rows[0][0])

    def delete(self, handle: str) -> bool:
        def txn(conn) -> bool:
            return self._delete_in(conn, [handle]) > 0

        return self.srv.run(txn, "ccr delete", lock=None)

    def _delete_in(self, conn, handles: list[str], owner: str | None = None) -> int:
        """Delete the given records (those left without an owner when ``owner`` is given),
        keeping ``ccr_usage`` exact; returns how many went."""
        conn.execute("SELECT 1 FROM ccr_usage WHERE id = 1 FOR UPDATE")
        cond = "" if owner is None else " AND NOT EXISTS (SELECT 1 FROM recovery_owners o WHERE o.handle = r.handle)"
        if owner is not None:
            conn.execute("DELETE FROM recovery_owners WHERE handle = ANY(%s) AND owner = %s", (handles, owner))
        rows = conn.execute(f"DELETE FROM recoveries r WHERE handle = ANY(%s){cond} RETURNING {_SIZE}",
                            (handles,)).fetchall()
        if rows:
            conn.execute("UPDATE ccr_usage SET storage_bytes = storage_bytes - %s WHERE id = 1", (sum(r[0] for r in rows),))
        return len(rows)

    def release(self, handles: list[str], owner: str) -> int:
        if not handles:
            return 0
        return self.srv.run(lambda conn: self._delete_in(conn, list(handles), owner), "ccr release", lock=None)

    def owners(self, handle: str) -> list[str]:
        return [r[0] for r in self.srv.query(
            "SELECT owner FROM recovery_owners WHERE handle = %s ORDER BY owner COLLATE \"C\"", (handle,))]

    def contains(self, handle: str) -> bool:
        return bool(self.srv.query("SELECT 1 FROM recoveries WHERE handle = %s", (handle,)))

    def summary(self) -> dict:
        rows = self.srv.query("SELECT content_type, count(*), sum(tokens_before), sum(tokens_after) FROM recoveries "
                              "GROUP BY content_type", action="ccr stats")
        return sqlite_ccr.summary_of(rows, self.storage_bytes(), self.max_bytes)

    def close(self) -> None:
        """The connection is the process's, shared with the memory store: nothing to release."""


def open_pg_ccr(url: str, max_bytes: int) -> PgCCRStore:
    if max_bytes <= 0:
        raise CaveError("cave_invalid_config", "CAVEMAN_CCR_MAX_BYTES must be a positive integer")
    srv = pgconn.server(url)
    pgconn.migrate(srv, "ccr", MIGRATIONS)
    return PgCCRStore(srv, max_bytes)
