"""The memory store: schema, migrations and the row-level operations everything else builds on.

One SQLite file (``$CAVEMAN_HOME/mem.db`` or ``CAVEMAN_MEM_DB``), opened only through
:func:`cavemem.store.sqlite.open_database` (WAL, busy timeout, 0600 files, retry-on-busy
migrations). Three structures:

- ``memories`` — the source of truth, one row per version. ``seq`` is the rowid the indexes point
  at; ``id`` is the content-addressed public id; ``ts`` is ``created_at`` in UTC microseconds
  (sortable, unlike Go-style RFC 3339 text); supersession is the ``supersedes`` /
  ``superseded_by`` pair and ``valid_until`` (NULL = current).
- ``mem_fts`` — FTS5 over the analyzed terms (see :mod:`.analyze`) with the ``ascii`` tokenizer,
  so SQLite's terms are exactly Python's, plus a ``scope`` column (project token, superseded
  marker) that turns scope filters into doclist intersections. BM25 candidates come from here;
  ``mem_df`` keeps each term's document frequency.
- ``mem_tri`` — an external-content trigram FTS5 index over the raw text for substring search.

A legacy Go cavemem ``memories`` table (3 or 7 columns) found in the file is converted in place
on first open: its rows become global memories with their original ids and times.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence

from ..errors import CaveError, StoreUnavailable
from ..store import sqlite as sqlite_store
from . import ids
from .model import (  # noqa: F401 - Filter, MemoryRecord, KINDS… are re-exported as the store's vocabulary
    KINDS,
    MAX_MEMORY_BYTES,
    SELECT_ROWS,
    Filter,
    MemoryRecord,
    dump_list,
    record_from_row,
    require_kind,
)
from .fts import (  # noqa: F401 - re-exported: callers import the scope tokens and FTS queries from here
    LARGE_SCOPE,
    SUPERSEDED_TOKEN,
    _quote,
    fts_query,
    fts_rows,
    large_scope,
    project_token,
    scope_value,
)
from .store_schema import MIGRATIONS, _migrate_v1  # noqa: F401 - the schema's migrations (tests call v1)

MMAP_BYTES = 256 << 20  # SQLite reads the memory store's first 256 MiB through mmap


# -- errors ---------------------------------------------------------------------------------------


def store_error(exc: BaseException, path: str, action: str) -> CaveError:
    """A clear, stable error for a SQLite failure; nothing is ever deleted or rewritten."""
    text = str(exc)
    low = text.lower()
    if sqlite_store.is_busy(exc) or "locked" in low:
        return CaveError(
            "cave_store_locked",
            f"{action}: the memory store {path} is locked by another process (waited "
            f"{sqlite_store.BUSY_TIMEOUT_MS // 1000} s); nothing was changed, try again",
        )
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return CaveError(
            "cave_store_unavailable",
            f"{action}: the memory store {path} is damaged ({text}); nothing was changed. Move it aside "
            f"and restore from `cavemem export` output, or open it with the sqlite3 shell's .recover",
        )
    if "newer than this cavemem" in low:
        return CaveError("cave_store_unavailable", f"{action}: {text}")
    return CaveError("cave_store_unavailable", f"{action}: the memory store {path} is unavailable: {text}")


# -- the store ------------------------------------------------------------------------------------


class MemoryStore:
    """Row-level access to ``mem.db``. Writers pass a function to :meth:`write`."""

    def __init__(self, db: sqlite_store.Database):
        self.db = db
        self.path = db.path
        self._scopes: dict[tuple, list] = {}  # projects -> [large?, asks since counted]

    # -- plumbing ------------------------------------------------------------------------------
    def read(self, sql: str, params: Sequence = ()) -> list:
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise store_error(exc, self.path, "read") from exc

    def write(self, fn: Callable[[sqlite3.Connection], object], action: str = "write"):
        """Run ``fn(conn)`` in one BEGIN IMMEDIATE transaction, retrying while the file is busy."""

        def attempt():
            with self.db.transaction() as conn:
                return fn(conn)

        try:
            return sqlite_store.retry_on_busy(attempt)
        except sqlite3.Error as exc:
            raise store_error(exc, self.path, action) from exc

    def close(self) -> None:
        self.db.close()

    # -- lookups -------------------------------------------------------------------------------
    def get(self, mem_id: str, conn: sqlite3.Connection | None = None) -> MemoryRecord | None:
        sql = SELECT_ROWS + " WHERE id = ?"
        rows = conn.execute(sql, (mem_id,)).fetchall() if conn is not None else self.read(sql, (mem_id,))
        return record_from_row(rows[0]) if rows else None

    def by_seq(self, seqs: Iterable[int], *, brief: bool = False) -> dict[int, MemoryRecord]:
        """Records by seq. ``brief`` skips the text and metadata (ranking needs only where and
        when a memory is), which keeps candidate pools cheap on a big store."""
        seqs = list(seqs)
        out: dict[int, MemoryRecord] = {}
        for i in range(0, len(seqs), 500):
            chunk = seqs[i : i + 500]
            marks = ",".join("?" * len(chunk))
            if brief:
                for seq, mem_id, project, session, ts, until in self.read(
                    f"SELECT seq, id, project, session, ts, valid_until FROM memories WHERE seq IN ({marks})", chunk
                ):
                    out[seq] = MemoryRecord(id=mem_id, text="", project=project, session=session, ts=ts,
                                            valid_until=until, seq=seq)
                continue
            for row in self.read(SELECT_ROWS + f" WHERE seq IN ({marks})", chunk):
                rec = record_from_row(row)
                out[rec.seq] = rec
        return out

    def corpus(self) -> tuple[int, int]:
        row = self.read("SELECT docs, tokens FROM mem_corpus WHERE id = 1")
        return (row[0][0], row[0][1]) if row else (0, 0)

    def doc_freqs(self, terms: Iterable[str]) -> dict[str, int]:
        """How many stored versions contain each term (0 for unseen terms)."""
        terms = list(dict.fromkeys(terms))
        out = dict.fromkeys(terms, 0)
        for i in range(0, len(terms), 500):
            chunk = terms[i : i + 500]
            out.update(self.read(f"SELECT term, df FROM mem_df WHERE term IN ({','.join('?' * len(chunk))})", chunk))
        return out

    def terms_like(self, prefix: str, min_len: int, max_len: int, limit: int = 2000) -> list[tuple[str, int]]:
        """Known terms (with document frequency) starting with ``prefix``, by length range."""
        return self.read(
            "SELECT term, df FROM mem_df WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ? AND df > 0 LIMIT ?",
            (prefix, prefix + "\uffff", min_len, max_len, limit),
        )

    def bodies(self, seqs: Iterable[int]) -> dict[int, list[str]]:
        seqs = list(seqs)
        out: dict[int, list[str]] = {}
        for i in range(0, len(seqs), 500):
            chunk = seqs[i : i + 500]
            for seq, body in self.read(f"SELECT rowid, body FROM mem_fts WHERE rowid IN ({','.join('?' * len(chunk))})", chunk):
                out[seq] = body.split(" ") if body else []
        return out

    def select(self, where: "Filter", *, order: str = "ts DESC, seq DESC", limit: int = 0, offset: int = 0,
               past: tuple[bool, int, int] | None = None) -> list[MemoryRecord]:
        """Rows matching ``where`` in ``order``. ``past = (older, ts, seq)``: keyset paging in the
        newest-first order, only the rows older (``older``) or newer than that row, the nearest
        ``limit`` of them, returned newest first either way: an index range instead of an OFFSET
        that walks every skipped row (the last of 100k list pages: ~170 ms -> ~0.3 ms)."""
        sql, params = where.sql()
        if past is not None:
            older, ts, seq = past
            if order != "ts DESC, seq DESC":
                raise ValueError("keyset paging is in the newest-first order only")
            sql, params = _keyset(sql, params, older, ts, seq)
            order = order if older else "ts, seq"
        q = SELECT_ROWS + sql + f" ORDER BY {order}"
        if limit:
            q += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        rows = [record_from_row(r) for r in self.read(q, params)]
        return rows if past is None or past[0] else rows[::-1]

    def count(self, where: "Filter") -> int:
        sql, params = where.sql()
        return self.read("SELECT count(*) FROM memories" + sql, params)[0][0]

    def count_newer(self, where: "Filter", ts: int, seq: int) -> tuple[int, int]:
        """(rows matching ``where``, how many of them are newer than ``(ts, seq)``) in one pass:
        a page reached by cursor learns where it starts for the price of the total count. Counting
        the newer ones by a ``ts`` range instead walked the index and read every row's
        ``valid_until``: 90 ms CPU for the last page of a 100k store, where the full pass costs ~15."""
        sql, params = where.sql()
        row = self.read("SELECT count(*), coalesce(sum(CASE WHEN ts > ? OR (ts = ? AND seq > ?) THEN 1 ELSE 0 END), 0) "
                        "FROM memories" + sql, [ts, ts, seq, *params])[0]
        return int(row[0]), int(row[1])

    def stats(self) -> dict:
        """Counts by project and kind, text bytes, time span, merges and file size."""
        import os

        rows = self.read(
            "SELECT project, sum(valid_until IS NULL), sum(valid_until IS NOT NULL), sum(length(CAST(text AS BLOB))) "
            "FROM memories GROUP BY project ORDER BY project"
        )
        by_project = {p: {"current": c or 0, "superseded": s or 0, "text_bytes": b or 0} for p, c, s, b in rows}
        kinds = self.read("SELECT coalesce(kind, ''), count(*) FROM memories WHERE valid_until IS NULL GROUP BY 1 ORDER BY 1")
        span = self.read("SELECT min(ts), max(ts) FROM memories")[0]
        out: dict = {
            "basis": "inferred",
            "memories": sum(v["current"] for v in by_project.values()),
            "superseded": sum(v["superseded"] for v in by_project.values()),
            "merged": self.read("SELECT count(*) FROM memories WHERE change = 'merge'")[0][0],
            "text_bytes": sum(v["text_bytes"] for v in by_project.values()),
            "projects": by_project,
            "kinds": {(k or "unspecified"): v for k, v in kinds},
            "path": self.path,
        }
        if span[0] is not None:
            out["oldest"] = ids.format_time(ids.from_micros(span[0]))
            out["newest"] = ids.format_time(ids.from_micros(span[1]))
        if self.path != sqlite_store.MEMORY:
            out["file_bytes"] = sum(os.path.getsize(self.path + x) for x in ("", "-wal") if os.path.exists(self.path + x))
        return out

    # -- search primitives ---------------------------------------------------------------------
    def fts_candidates(self, terms: Sequence[str], where: "Filter", k: int, *, newest: int = 0) -> list[tuple[int, float]]:
        """Top ``k`` (seq, bm25) for an OR of ``terms`` among rows matching ``where``.

        ``newest`` > 0 bounds the work for very common terms: only the newest ``newest``
        matches are scored (FTS5 walks a doclist backwards cheaply; scoring is the cost)."""
        if not terms:
            return []
        join = self._large_scope(where.projects)
        floor = 0
        if newest > 0:
            row = self.read(*fts_query(terms, where, 0, nth_newest=newest, scope_join=join))
            floor = row[0][0] if row else 0
        sql, params = fts_query(terms, where, k, min_rowid=floor, scope_join=join)
        return [(seq, -score) for seq, score in self.read(sql, params)]

    def _large_scope(self, projects) -> bool:
        """:func:`large_scope`, remembered for 64 asks per projects (it decides speed, not results)."""
        if projects is None:
            return False
        key = tuple(projects)
        known = self._scopes.get(key)
        if known is None or known[1] >= 64:
            known = [large_scope(self.read, projects), 0]
            self._scopes[key] = known
        known[1] += 1
        return known[0]

    def substring_candidates(self, needle: str, where: "Filter", k: int) -> list[int]:
        """Rows whose raw text contains ``needle`` (case-insensitively), via the trigram index.

        Needles shorter than 3 characters cannot use trigrams (and on SQLite 3.40.1 a trigram
        ``LIKE`` silently misses 2-character CJK), so they scan with ``instr()`` instead."""
        needle = needle.lower()
        if not needle.strip():
            return []
        sql, params = where.sql(alias="m", prefix=" AND ")
        if len(needle) < 3:
            q = "SELECT m.seq FROM memories AS m WHERE instr(lower(m.text), ?) > 0" + sql + " ORDER BY m.ts DESC LIMIT ?"
            return [r[0] for r in self.read(q, [needle, *params, k])]
        if where.projects is not None and not self._large_scope(where.projects):
            # a small project: read its texts rather than walk the trigram doclists of the whole
            # store, which a big project next door fills (1M store, 'tall' in a 60-row project: 26 ms)
            q = "SELECT m.seq, m.text FROM memories AS m WHERE m.seq > 0" + sql + " ORDER BY m.seq"
            return [seq for seq, text in self.read(q, params) if needle in text.lower()][:k]
        grams = sorted({needle[i : i + 3] for i in range(len(needle) - 2)})
        expr = " AND ".join('"' + g.replace('"', '""') + '"' for g in grams[:32])
        q = (
            "SELECT m.seq, m.text FROM mem_tri AS t JOIN memories AS m ON m.seq = t.rowid WHERE mem_tri MATCH ?"
            + sql + " LIMIT ?"
        )
        # detail=none cannot check adjacency: confirm each hit on the text itself
        return [seq for seq, text in self.read(q, [expr, *params, k * 4]) if needle in text.lower()][:k]

    def session_text_matches(self, terms: Sequence[str], projects, k: int) -> list[tuple]:
        """Archived messages (capture's ``cap_text``) matching any of ``terms``, best first:
        ``(session, uuid, body, bm25)`` with FTS5's sign (more negative = better)."""
        expr = "body : (" + " OR ".join(_quote(t) for t in terms) + ")"
        sql = ("SELECT t.session, t.uuid, t.body, bm25(cap_text) AS s FROM cap_text AS t JOIN cap_sessions AS c "
               "ON c.session = t.session WHERE cap_text MATCH ?")
        params: list = [expr]
        if projects is not None:
            sql += f" AND c.project IN ({','.join('?' * len(projects))})"
            params.extend(projects)
        return self.read(sql + " ORDER BY s LIMIT ?", [*params, k])

    def window_seqs(self, where: "Filter", start_us: int, end_us: int, k: int) -> list[int]:
        """The newest ``k`` memories matching ``where`` with start ≤ ts < end."""
        sql, params = where.sql(prefix=" AND ")
        return [r[0] for r in self.read("SELECT seq FROM memories WHERE ts >= ? AND ts < ?" + sql + " ORDER BY ts DESC LIMIT ?",
                                        [start_us, end_us, *params, k])]

    def neighbors(self, rec: MemoryRecord, where: "Filter") -> tuple[int | None, int | None]:
        """The memories just before and after ``rec`` in its session (same project)."""
        if not rec.session:
            return None, None
        sql, params = where.sql(prefix=" AND ")
        base = "SELECT seq FROM memories WHERE project = ? AND session = ?" + sql
        one = [rec.project, rec.session, *params, rec.ts, rec.ts, rec.seq]
        rows = self.read(
            f"SELECT -1, seq FROM ({base} AND (ts < ? OR (ts = ? AND seq < ?)) ORDER BY ts DESC, seq DESC LIMIT 1) "
            f"UNION ALL SELECT 1, seq FROM ({base} AND (ts > ? OR (ts = ? AND seq > ?)) ORDER BY ts, seq LIMIT 1)",
            one + one,
        )
        found = dict(rows)
        return found.get(-1), found.get(1)

    # -- a recall's batched reads: one round trip each on a server (pg_store), the reads above here
    def term_stats(self, terms: Iterable[str]) -> tuple[tuple[int, int], dict[str, int]]:
        """:meth:`corpus` and :meth:`doc_freqs` of ``terms``."""
        return self.corpus(), self.doc_freqs(terms)

    def pool_rows(self, seqs: Iterable[int]) -> tuple[dict[int, list[str]], dict[int, MemoryRecord]]:
        """:meth:`bodies` and brief :meth:`by_seq` records of a candidate pool."""
        seqs = list(seqs)
        return self.bodies(seqs), self.by_seq(seqs, brief=True)

    def neighbors_many(self, recs: Iterable[MemoryRecord], where: "Filter") -> tuple[dict, dict[int, MemoryRecord]]:
        """``{seq: neighbors(rec)}`` of each record in a session, and the neighbours' brief records."""
        pairs = {r.seq: self.neighbors(r, where) for r in recs if r.session}
        return pairs, self.by_seq(sorted({s for p in pairs.values() for s in p if s is not None}), brief=True)

    def chain(self, mem_id: str) -> list[MemoryRecord]:
        """Every version linked to ``mem_id``, oldest first."""
        start = self.get(mem_id)
        if start is None:
            raise CaveError("cave_memory_not_found", f"memory {mem_id} not found")
        seen = {start.id}
        older = self._follow(start, "supersedes", seen)
        newer = self._follow(start, "superseded_by", seen)
        return list(reversed(older)) + [start] + newer

    def _follow(self, start: MemoryRecord, link: str, seen: set[str]) -> list[MemoryRecord]:
        """The records reached from ``start`` by following ``link`` (``supersedes`` or
        ``superseded_by``), nearest first; a missing or repeated record is a conflict."""
        out: list[MemoryRecord] = []
        cur = start
        while getattr(cur, link):
            nxt = self.get(getattr(cur, link))
            if nxt is None:
                raise CaveError("cave_memory_conflict", f"broken supersession history at {cur.id}: {getattr(cur, link)} is missing")
            if nxt.id in seen:
                raise CaveError("cave_memory_conflict", f"cyclic supersession history at {nxt.id}")
            seen.add(nxt.id)
            out.append(nxt)
            cur = nxt
        return out


def _keyset(sql: str, params: list, older: bool, ts: int, seq: int) -> tuple[str, list]:
    """``sql`` (a WHERE clause or "") narrowed to the rows older (or newer) than ``(ts, seq)`` in
    the ``ts DESC, seq DESC`` order; written as a range on ``ts`` so the ``mem_ts`` /
    ``mem_project_ts`` index seeks to it (an ``OR`` of the two cases alone scans the index)."""
    cond = "ts <= ? AND (ts < ? OR seq < ?)" if older else "ts >= ? AND (ts > ? OR seq > ?)"
    return (sql + " AND " if sql else " WHERE ") + cond, [*params, ts, ts, seq]


# -- opening --------------------------------------------------------------------------------------


def open_memory_store(path: str | None = None) -> MemoryStore:
    """Open (creating and migrating) the memory store; ``":memory:"`` for a throwaway one."""
    from .. import paths
    from ..store.backend import server_url

    url = server_url(path, "CAVEMAN_MEM_DB")  # postgresql:// path, or CAVEMAN_DB_URL when no file was named
    if url is not None:
        from .pg_store import open_pg_memory_store

        return open_pg_memory_store(url)
    if path is None:
        path = paths.mem_db_path()
    try:
        db = sqlite_store.open_database(path, MIGRATIONS)
    except StoreUnavailable as exc:
        raise store_error(exc, path, "open") from exc
    except sqlite3.Error as exc:
        raise store_error(exc, path, "open") from exc
    if path != sqlite_store.MEMORY:
        # pages read through a read-only mapping instead of a read() and a copy each: the FTS
        # candidate query of a 100k-memory project, 6.7 -> 4.7 ms (its rows are random reads)
        db.execute(f"PRAGMA mmap_size = {MMAP_BYTES}").fetchall()
    return MemoryStore(db)
