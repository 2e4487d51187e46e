"""The vector index of a PostgreSQL memory store, in pgvector (issue 13).

Same interface as the sidecar :class:`~cavemem.embed.vectors.VectorIndex` (a ``VectorIndex`` whose
"directory" is a PostgreSQL store's URL plus a suffix, e.g. ``.vectors``, is one of these). Each (model, dim) gets a table
``vec_<digest>`` — ``id``, append position, ``embedding vector(dim)``, an HNSW cosine index past
:data:`EXACT_ROWS` rows —
registered in ``cavemem_vector_indexes`` (model, dim, generation, fingerprint): the row is the
"manifest". Search is exact (a sequential scan, like numpy's brute force) up to
:data:`EXACT_ROWS` rows and uses the HNSW index beyond. Deleting a memory deletes its vectors in
the same transaction (a trigger on ``memories``), so forgotten text leaves no derived data.
"""

from __future__ import annotations

import hashlib
import json
import struct
import threading
import time
from collections.abc import Sequence
from contextlib import contextmanager

from ..errors import CaveError
from ..store.pg import conn as pgconn
from . import DIM, INDEX_MODEL
from .vectors import VectorIndex, _check_id, _dedup

EXACT_ROWS = 50_000
_REGISTERED = 'SELECT "rows" FROM cavemem_vector_indexes WHERE tab = %s AND model = %s AND dim = %s'
HANDOFF_S = 0.25  # a read handed to the very next call (sync's manifest -> the recall's pin; locate -> vectors)
NEAR_VECTORS = 64  # locate of at most this many ids brings their vectors along (similarity asks for them next)
_MISS = object()
HNSW_BUILD_MEMORY = "1GB"  # maintenance_work_mem for the build: 1M 256-d vectors' graph fits, so it builds in memory

# ``rows``: the table's row count, kept by every add, remove and the delete trigger in the same
# transaction, so no read counts the table (a count(*) walked its whole primary key: ~6 of them a
# semantic recall). A registry from before the column is upgraded by the first reader.
_REGISTRY = ("CREATE TABLE IF NOT EXISTS cavemem_vector_indexes (tab TEXT PRIMARY KEY, model TEXT NOT NULL, "
             "dim INTEGER NOT NULL, generation BIGINT NOT NULL DEFAULT 1, fingerprint JSONB, \"rows\" BIGINT)")
_DROP_FN = """CREATE OR REPLACE FUNCTION cavemem_drop_vectors() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE t TEXT; n BIGINT;
BEGIN
  FOR t IN SELECT tab FROM cavemem_vector_indexes LOOP
    EXECUTE format('DELETE FROM %I WHERE id = $1', t) USING OLD.id;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN
      UPDATE cavemem_vector_indexes SET "rows" = "rows" - n WHERE tab = t;
    END IF;
  END LOOP;
  RETURN OLD;
END $$"""


class PgVectorIndex(VectorIndex):
    """One model's vectors in the store's database."""

    def __init__(self, directory: str, dim: int = DIM, model: str = INDEX_MODEL):
        import numpy as np

        self.np = np
        self.dir = directory
        self.dim = dim
        self.model = model
        url, suffix = pgconn.split_url(directory)
        self.srv = pgconn.server(url)
        self.tab = "vec_" + hashlib.sha256(suffix.encode()).hexdigest()[:16]  # one index per "directory"
        # seen to exist in this process (its table; its HNSW index): reads then check the registry
        # in the same round trip instead of before it (see _read, _search_indexed)
        self._has_registry = self._table = self._indexed = False
        self._local = threading.local()  # this thread's pin (meta, vectors) and handed-over reads

    def _st(self):
        st = self._local
        if not hasattr(st, "depth"):
            st.depth, st.meta, st.vecs, st.handoff = 0, _MISS, {}, None
        return st

    def _hand(self, kind: str, value) -> None:
        self._st().handoff = (kind, time.monotonic(), value)

    def _handed(self, kind: str):
        """The read the call just before made, if it was ``kind`` and moments ago (once)."""
        st = self._st()
        got, st.handoff = st.handoff, None
        if got is None or got[0] != kind or time.monotonic() - got[1] > HANDOFF_S:
            return _MISS
        return got[2]

    @contextmanager
    def pinned(self):
        """One registry read for a block of reads (a recall), as the sidecar's pin: reads inside
        skip the registry check and vectors that came along with a search are served without a
        fetch. The meta is the one the recall's sync read just before (``HANDOFF_S``), else read
        now; every block reads it afresh, so another process's write is seen by the next recall,
        and a write through this index inside the block drops the pin's copy."""
        st = self._st()
        if st.depth == 0:
            st.meta, st.vecs = self._handed("meta"), {}
            if st.meta is _MISS:
                st.meta = self._read_meta()
        st.depth += 1
        try:
            yield self
        finally:
            st.depth -= 1
            if st.depth == 0:
                st.meta, st.vecs = _MISS, {}

    def _pinned_meta(self):
        st = self._st()
        return st.meta if st.depth else _MISS

    def _unpin(self) -> None:
        """After a write through this index, or a read that failed: the next read asks the server."""
        st = self._st()
        st.handoff = None
        st.vecs = {}
        if st.depth:
            st.meta = _MISS

    # -- reading -----------------------------------------------------------------------------
    def _registry(self) -> bool:
        """Whether the registry table exists. Once it does it stays (:meth:`destroy` deletes its
        row, never the table), so it is asked until seen: one round trip less for every read."""
        if not self._has_registry:
            self._has_registry = bool(self.srv.query("SELECT to_regclass('cavemem_vector_indexes') IS NOT NULL")[0][0])
        return self._has_registry

    def _meta(self) -> dict | None:
        meta = self._pinned_meta()
        if meta is not _MISS:
            return meta
        meta = self._read_meta()
        if self._st().depth:
            self._st().meta = meta
        else:
            self._hand("meta", meta)
        return meta

    def _read_meta(self) -> dict | None:
        if not self._registry():
            return None
        rows = self.srv.query("SELECT * FROM cavemem_vector_indexes WHERE tab = %s AND model = %s AND dim = %s",
                              (self.tab, self.model, self.dim))
        if not rows:
            return None  # absent, or another model's vectors: never searched
        _, _, _, generation, fingerprint, *count = rows[0]
        if not count or count[0] is None:
            count = [self._write(lambda conn: None)]  # a registry from before the kept count
        return {"format": 1, "model": self.model, "dim": self.dim, "generation": generation, "rows": count[0],
                "fingerprint": fingerprint}

    def exists(self) -> bool:
        return self._meta() is not None

    def refresh(self) -> None:
        """Nothing is cached: every read asks the server."""

    @property
    def manifest(self) -> dict | None:
        return self._meta()

    def __len__(self) -> int:
        meta = self._meta()
        return 0 if meta is None else meta["rows"]

    def _read(self, sql: str, params: Sequence = ()) -> list | None:
        """Rows of one read of this index's table; None when the store has no vectors of this
        model. Once the table is known to exist the registry check rides in the same round trip
        (a recall reads the index ~6 times: 12 round trips -> 6); a table another process
        dropped meanwhile fails that read, and the plain check-then-read path answers."""
        key = (self.tab, self.model, self.dim)
        meta = self._pinned_meta()
        if meta is None:
            return None
        if meta is not _MISS and self._table:  # pinned: the registry was read at the block's entry
            try:
                return self.srv.query(sql, params)
            except CaveError:
                self._unpin()
                self._table = False
        if self._table:
            try:
                meta, rows = self.srv.query_many([(_REGISTERED, key), (sql, params)])
            except CaveError:
                self._table = False
            else:
                return rows if meta else None
        if not self.exists():
            return None
        self._table = True
        return self.srv.query(sql, params)

    def ids(self) -> list[str]:
        return [r[0] for r in self._read(f"SELECT id FROM {self.tab} ORDER BY pos") or []]

    def row_of(self) -> dict[str, int]:
        return {m: i for i, m in enumerate(self.ids())}

    def __contains__(self, memory_id: str) -> bool:
        return bool(self._read(f"SELECT 1 FROM {self.tab} WHERE id = %s", (memory_id,)))

    def locate(self, memory_ids) -> dict[str, int]:
        """``{memory id: position}`` for the given memories that have a vector (one query)."""
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        if len(ids) > NEAR_VECTORS:
            return dict(self._read(f"SELECT id, pos FROM {self.tab} WHERE id = ANY(%s)", (ids,)) or [])
        rows = self._read(f"SELECT id, pos, vector_send(embedding) FROM {self.tab} WHERE id = ANY(%s)", (ids,)) or []
        self._keep({i: v for i, _, v in rows}, hand=True)
        return {i: p for i, p, _ in rows}

    def _keep(self, got: dict, hand: bool = False) -> None:
        """Vectors a read brought along: the pin's (for the rest of the recall) or handed to the next call."""
        st = self._st()
        if st.depth:
            st.vecs.update(got)
        elif hand:
            self._hand("vecs", got)

    def _vec(self, query) -> "_Binary":
        """A query vector as pgvector's binary input (``vector_recv``: dim, 0, big-endian
        float32): no text of 384 floats to print here and parse on the server."""
        _adapt(self.srv)
        v = self.np.asarray(query, dtype=self.np.float32).reshape(-1)
        return _Binary(struct.pack(">HH", len(v), 0) + v.astype(">f4").tobytes())

    def _decode(self, raw: bytes):
        """``vector_send`` bytes -> float32 row (the same floats as the text output, exactly)."""
        dim = struct.unpack_from(">H", raw)[0]
        return self.np.frombuffer(raw, dtype=">f4", count=dim, offset=4)

    def search(self, query, k: int = 10) -> list[tuple[str, float]]:
        """Top ``k`` (id, cosine), best first; ties by id. Inside a pin the hits' vectors come
        along (binary) and serve the recall's next :meth:`vectors` (its feedback pass)."""
        if k <= 0:
            return []
        pinned = self._st().depth > 0
        sql = (f"SELECT id, 1 - (embedding <=> %b::vector) AS cos{', vector_send(embedding)' if pinned else ''} "
               f"FROM {self.tab} ORDER BY embedding <=> %b::vector")
        q = self._vec(query)
        # the candidate list a bit past k: at 100k, ef 2k (320 for the oversampled 160) took 15 ms
        # of server time a search, k + k/4 7 ms, with the same dev-set recall
        ef = max(40, min(1000, k + k // 4))
        hits = self._search_indexed(sql, q, k, ef) if self._indexed else None
        if hits is None:
            if not self.exists():
                return []
            self._table = True
            hits = self.srv.run(lambda conn: self._search(conn, sql, q, k, ef), "vector search", lock=None)
        if pinned:
            self._keep({h[0]: h[2] for h in hits})
        hits = [(h[0], float(h[1])) for h in hits]
        hits.sort(key=lambda h: (-h[1], h[0]))
        return hits

    def _search(self, conn, sql: str, q, k: int, ef: int) -> list:
        row = conn.execute(f"SELECT \"rows\" > %s, to_regclass('{self.tab}_hnsw') IS NULL FROM "
                           "cavemem_vector_indexes WHERE tab = %s", (EXACT_ROWS, self.tab)).fetchone()
        if row is None:  # dropped since the check (a pin's meta is older): no vectors
            return []
        big, unindexed = row
        if big:
            if unindexed:
                self._build_hnsw(conn)  # a load that never finished its sync: build it now, once
            self._indexed = True
            conn.execute(f"SET LOCAL hnsw.ef_search = {ef}")
            # the distance alone: HNSW serves only that order; with ", id" as a second key the
            # server scanned and sorted every row (146 ms a search at 100k); ties sorted below
            return conn.execute(sql + " LIMIT %s", (q, q, k)).fetchall()
        conn.execute("SET LOCAL enable_indexscan = off")  # exact, like the sidecar's brute force
        return conn.execute(sql + ", id LIMIT %s", (q, q, k)).fetchall()

    def _search_indexed(self, sql: str, q, k: int, ef: int) -> list | None:
        """The HNSW search in one round trip once this process has seen the index (it goes only
        with the table): the registry row (unless pinned: read at the block's entry), the
        session's ``hnsw.ef_search`` (only HNSW scans read it) and the nearest rows, pipelined —
        a transaction of five statements took ~20 ms of a 100k store's recall under load, the
        server's own work 3-7 ms. None: the store has shrunk to an exact search, or the table is
        gone; the checked path answers."""
        meta = self._pinned_meta()
        if meta is None:
            return []
        statements = [(f"SET hnsw.ef_search = {ef}", ()), (sql + " LIMIT %s", (q, q, k))]
        if meta is _MISS:
            statements.insert(0, (_REGISTERED, (self.tab, self.model, self.dim)))
        try:
            got = self.srv.query_many(statements)
        except CaveError:
            self._indexed = False
            self._unpin()
            return None
        hits = got[-1]
        if meta is not _MISS:
            return hits if (meta["rows"] or 0) > EXACT_ROWS else None
        if not got[0]:
            return []
        return hits if (got[0][0][0] or 0) > EXACT_ROWS else None

    def scores_for(self, query, memory_ids) -> dict[str, float]:
        ids = list(memory_ids)
        rows = self._read(f"SELECT id, 1 - (embedding <=> %b::vector) FROM {self.tab} WHERE id = ANY(%s)",
                          (self._vec(query), ids)) if ids else None
        return {i: float(c) for i, c in rows or []}

    def vectors(self, memory_ids):
        """The vectors of the given memories that have one, in the given order: from the pin's
        (or the locate just before's) vectors when they hold them all, else one binary fetch."""
        ids = list(memory_ids)
        np = self.np
        got = self._st().vecs if self._st().depth else self._handed("vecs")
        if got is _MISS or not all(m in got for m in ids):
            got = got if got is not _MISS else {}
            rows = self._read(f"SELECT id, vector_send(embedding) FROM {self.tab} WHERE id = ANY(%s)",
                              (ids,)) if ids else None
            got = dict(rows or [])
        rows = [self._decode(got[m]) for m in ids if m in got]
        return np.stack(rows).astype(np.float32) if rows else np.zeros((0, self.dim), dtype=np.float32)

    # -- writing -----------------------------------------------------------------------------
    def _ensure(self, conn, fingerprint) -> int | None:
        """The registry row and table exist (created, or upgraded to the kept row count); returns that count."""
        conn.execute(_REGISTRY)
        row = conn.execute("SELECT model, dim FROM cavemem_vector_indexes WHERE tab = %s", (self.tab,)).fetchone()
        if row is not None and tuple(row) == (self.model, self.dim):
            return self._counted(conn)
        if row is not None:  # another model's vectors: start afresh, as the sidecar does
            conn.execute("DELETE FROM cavemem_vector_indexes WHERE tab = %s", (self.tab,))
            conn.execute(f"DROP TABLE IF EXISTS {self.tab}")
        conn.execute(f"CREATE TABLE IF NOT EXISTS {self.tab} (id TEXT COLLATE \"C\" PRIMARY KEY, pos BIGSERIAL, "
                     f"embedding vector({self.dim}) NOT NULL)")
        conn.execute('INSERT INTO cavemem_vector_indexes (tab, model, dim, fingerprint, "rows") VALUES (%s, %s, %s, %s, '
                     f"(SELECT count(*) FROM {self.tab}))", (self.tab, self.model, self.dim, _json(fingerprint)))
        self._trigger(conn)
        return self._counted(conn)

    def _counted(self, conn) -> int:
        """The kept row count; a registry from before it gains the column, this table's count and
        the trigger that keeps it (once, under the vector lock)."""
        row = conn.execute("SELECT * FROM cavemem_vector_indexes WHERE tab = %s", (self.tab,)).fetchone()
        count = row[5] if len(row) > 5 else None
        if count is None:  # ALTER only then: it locks the registry against every reader until commit
            conn.execute('ALTER TABLE cavemem_vector_indexes ADD COLUMN IF NOT EXISTS "rows" BIGINT')
            count = conn.execute(f"SELECT count(*) FROM {self.tab}").fetchone()[0]
            conn.execute('UPDATE cavemem_vector_indexes SET "rows" = %s WHERE tab = %s', (count, self.tab))
            self._trigger(conn)
        return count

    def _trigger(self, conn) -> None:
        if conn.execute("SELECT to_regclass('memories')").fetchone()[0] is not None:
            conn.execute(_DROP_FN)
            conn.execute("DROP TRIGGER IF EXISTS cavemem_drop_vectors ON memories")
            conn.execute("CREATE TRIGGER cavemem_drop_vectors AFTER DELETE ON memories FOR EACH ROW "
                         "EXECUTE FUNCTION cavemem_drop_vectors()")

    def _write(self, fn, fingerprint=None):
        self._unpin()

        def txn(conn):
            count = self._ensure(conn, fingerprint)
            out = fn(conn)
            if out is None:
                out = count
            if fingerprint is not None:
                conn.execute("UPDATE cavemem_vector_indexes SET fingerprint = %s WHERE tab = %s", (_json(fingerprint), self.tab))
            return out

        return self.srv.run(txn, "vector write", lock=pgconn.WRITE_LOCK + 2)

    def create(self, fingerprint=None) -> None:
        self._write(lambda conn: None, fingerprint)

    def add(self, memory_ids, vectors, fingerprint=None) -> int:
        np = self.np
        vectors = np.asarray(vectors, dtype="<f4").reshape(-1, self.dim)
        if len(memory_ids) != len(vectors):
            raise ValueError("one vector per id")
        pairs = _dedup(memory_ids, vectors, set())
        for ident, _ in pairs:
            _check_id(ident)

        def txn(conn) -> int:
            if not pairs:
                return 0
            n = conn.execute(f"INSERT INTO {self.tab} (id, embedding) SELECT u.i, u.e::vector FROM unnest(%s::text[], "
                             f"%s::text[]) WITH ORDINALITY AS u(i, e, o) ORDER BY u.o ON CONFLICT DO NOTHING",
                             ([i for i, _ in pairs], [_text(self.np, v) for _, v in pairs])).rowcount
            conn.execute('UPDATE cavemem_vector_indexes SET "rows" = "rows" + %s WHERE tab = %s', (n, self.tab))
            return n

        added = self._write(txn, fingerprint)
        if fingerprint is not None:
            self._index_when_big()
        return added

    def remove(self, memory_ids, fingerprint=None) -> int:
        drop = list(set(memory_ids))

        def txn(conn) -> int:
            n = conn.execute(f"DELETE FROM {self.tab} WHERE id = ANY(%s)", (drop,)).rowcount if drop else 0
            if n:
                conn.execute('UPDATE cavemem_vector_indexes SET generation = generation + 1, "rows" = "rows" - %s '
                             "WHERE tab = %s", (n, self.tab))
            return n

        if not self.exists():
            return 0
        return self._write(txn, fingerprint)

    def set_fingerprint(self, fingerprint) -> None:
        if self.exists():
            self._write(lambda conn: None, fingerprint)
            self._index_when_big()

    def _index_when_big(self) -> None:
        """The HNSW index is built once the table passes :data:`EXACT_ROWS` (searches below that
        are exact scans and never use it), in one pass when a sync or a migration has written its
        rows: an HNSW index kept current row by row during a bulk load costs far more than the
        build (pgvector inserts walk the graph). Later adds keep it current."""
        if self.srv.query(f"SELECT to_regclass('{self.tab}_hnsw') IS NULL AND \"rows\" > %s FROM cavemem_vector_indexes "
                          "WHERE tab = %s", (EXACT_ROWS, self.tab))[0][0]:
            self._write(self._build_hnsw)

    def _build_hnsw(self, conn) -> None:
        conn.execute(pgconn.LOCK_SQL, (pgconn.WRITE_LOCK + 2,))  # one builder (searches race here)
        conn.execute("SET LOCAL statement_timeout = 0")  # one build over the whole table
        conn.execute(f"SET LOCAL maintenance_work_mem = '{HNSW_BUILD_MEMORY}'")
        conn.execute(f"CREATE INDEX IF NOT EXISTS {self.tab}_hnsw ON {self.tab} USING hnsw (embedding vector_cosine_ops)")

    def destroy(self) -> None:
        self._unpin()

        def txn(conn) -> None:
            if conn.execute("SELECT to_regclass('cavemem_vector_indexes')").fetchone()[0] is not None:
                conn.execute("DELETE FROM cavemem_vector_indexes WHERE tab = %s", (self.tab,))
            conn.execute(f"DROP TABLE IF EXISTS {self.tab}")

        self.srv.run(txn, "vector drop", lock=pgconn.WRITE_LOCK + 2)


class _Binary:
    """A vector in pgvector's binary input format, sent as a binary parameter (``%b::vector``)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes):
        self.data = data


_DUMPER: list = []


def _dumper():
    """psycopg's dumper of :class:`_Binary`: its bytes, binary, the type left to the server (the
    cast). Registered globally for connections made from now on (a reconnect)."""
    if not _DUMPER:
        import psycopg
        from psycopg.adapt import Dumper
        from psycopg.pq import Format

        class BinaryVectorDumper(Dumper):
            format = Format.BINARY

            def dump(self, obj):
                return obj.data

        psycopg.adapters.register_dumper(_Binary, BinaryVectorDumper)
        _DUMPER.append(BinaryVectorDumper)
    return _DUMPER[0]


def _adapt(srv) -> None:
    """The server's open connection (made before this module registered the dumper) learns it too."""
    import psycopg
    from psycopg.adapt import PyFormat

    dumper = _dumper()
    with srv.lock:
        conn = srv.connection()
        try:
            conn.adapters.get_dumper(_Binary, PyFormat.BINARY)
        except psycopg.ProgrammingError:
            conn.adapters.register_dumper(_Binary, dumper)


def _text(np, vector) -> str:
    """A vector as pgvector's text input (the bulk insert's ``text[]``)."""
    return "[" + ",".join(repr(float(x)) for x in np.asarray(vector, dtype=np.float32)) + "]"


def _json(value) -> str | None:
    return None if value is None else json.dumps(value)

