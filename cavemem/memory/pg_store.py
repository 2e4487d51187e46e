"""The memory store on PostgreSQL: the same tables, rows and ranking figures as the SQLite store.

Tables mirror ``mem.db`` (``memories``, ``mem_fts``, ``mem_df``, ``mem_corpus`` and capture's side
tables) so the memory layer's statements run unchanged through :mod:`cavemem.store.pg.conn`'s
translation; ``memories`` gains a ``"user"`` column (who wrote each version: the OS user, or the
``cavemem.user`` setting) for a team sharing one project.

Search primitives are native: ``mem_fts.tsv`` is a ``tsvector`` built from the analyzed terms
exactly as stored (``array_to_tsvector``, no server-side parsing), so the GIN index finds the
same candidate rows as FTS5, and the BM25 score of each candidate is computed here with FTS5's
formula (k1 1.2, b 0.75, idf floor 1e-6, the scope column counted in document length) from the
same corpus statistics — the scores match SQLite's to float rounding. Substring search uses a
``pg_trgm`` GIN index on ``memories.text``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from ..store.pg import conn as pgconn
from . import analyze
from .model import Filter, MemoryRecord, dump_list
from .pg_fts import LONG_TERM, _filter, bm25, idf_of, rank_fts, rank_fts_bounded, term_key, tsquery
from .rows import Scopes
from .store import MemoryStore
from .store_schema import MEMORY_INDEXES

__all__ = ["PgMemoryStore", "open_pg_memory_store", "rank_fts", "tsquery", "term_key", "bm25", "idf_of"]

_TABLES = [
    # the analyzed terms as literal lexemes; over-long ones by their md5 (tsquery() maps the same way)
    f"""CREATE FUNCTION cavemem_term_key(term TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN octet_length(term) > {LONG_TERM} THEN 'h:' || md5(term) ELSE term END $$""",
    """CREATE FUNCTION cavemem_lexemes(body TEXT) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT array_to_tsvector(coalesce(array_agg(cavemem_term_key(w)), '{}'::text[]))
        FROM unnest(string_to_array(nullif(body, ''), ' ')) AS w $$""",
    """CREATE TABLE memories (
        seq BIGINT PRIMARY KEY,
        id TEXT COLLATE "C" NOT NULL UNIQUE,
        text TEXT NOT NULL,
        project TEXT COLLATE "C" NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        ts BIGINT NOT NULL,
        valid_from TEXT NOT NULL,
        valid_until TEXT,
        supersedes TEXT COLLATE "C",
        superseded_by TEXT COLLATE "C",
        change TEXT,
        session TEXT COLLATE "C",
        topic TEXT,
        kind TEXT,
        entity TEXT,
        tags TEXT,
        files TEXT,
        seen_count BIGINT NOT NULL DEFAULT 1,
        last_seen TEXT,
        ntok BIGINT NOT NULL DEFAULT 0,
        "user" TEXT NOT NULL DEFAULT coalesce(nullif(current_setting('cavemem.user', true), ''), current_user)
    )""",
    *MEMORY_INDEXES,
    "CREATE INDEX mem_expired ON memories(seq) WHERE valid_until IS NOT NULL",
    "CREATE INDEX mem_text_trgm ON memories USING gin (text gin_trgm_ops)",  # = SEARCH_INDEXES, kept as first written
    """CREATE TABLE mem_fts (rowid BIGINT PRIMARY KEY, body TEXT NOT NULL, scope TEXT NOT NULL,
        tsv tsvector GENERATED ALWAYS AS (cavemem_lexemes(body)) STORED)""",
    "CREATE INDEX mem_fts_tsv ON mem_fts USING gin (tsv)",
    # keyed by cavemem_term_key: a btree entry holds at most ~2.7 kB and one term can be 256 KiB
    'CREATE TABLE mem_df (term TEXT COLLATE "C" NOT NULL, df BIGINT NOT NULL, '
    'term_key TEXT COLLATE "C" GENERATED ALWAYS AS (cavemem_term_key(term)) STORED PRIMARY KEY)',
    "CREATE TABLE mem_corpus (id INTEGER PRIMARY KEY CHECK (id = 1), docs BIGINT NOT NULL, tokens BIGINT NOT NULL)",
    "INSERT INTO mem_corpus (id, docs, tokens) VALUES (1, 0, 0)",
]

_CAPTURE = [
    """CREATE TABLE cap_sessions (session TEXT COLLATE "C" PRIMARY KEY, project TEXT NOT NULL DEFAULT '', cwd TEXT,
        branch TEXT, transcript TEXT, first_ts TEXT, last_ts TEXT, messages BIGINT NOT NULL DEFAULT 0,
        archived_bytes BIGINT NOT NULL DEFAULT 0, updated_at TEXT)""",
    """CREATE TABLE cap_messages (session TEXT COLLATE "C" NOT NULL, uuid TEXT COLLATE "C" NOT NULL, type TEXT NOT NULL,
        ts TEXT, handle TEXT NOT NULL, pos BIGINT NOT NULL, length BIGINT NOT NULL, line BIGINT NOT NULL,
        PRIMARY KEY (session, uuid))""",
    "CREATE INDEX cap_messages_line ON cap_messages(session, line)",
    """CREATE TABLE mem_capture (id TEXT COLLATE "C" PRIMARY KEY, confidence DOUBLE PRECISION NOT NULL DEFAULT 1.0,
        expires_us BIGINT, source_session TEXT, source_message TEXT, capture_kind TEXT,
        captured BIGINT NOT NULL DEFAULT 0, injected BIGINT NOT NULL DEFAULT 0, used BIGINT NOT NULL DEFAULT 0,
        last_used TEXT)""",
    """CREATE TABLE cap_text (rowid BIGSERIAL PRIMARY KEY, body TEXT NOT NULL, session TEXT COLLATE "C", uuid TEXT,
        tsv tsvector GENERATED ALWAYS AS (cavemem_lexemes(body)) STORED)""",
    "CREATE INDEX cap_text_tsv ON cap_text USING gin (tsv)",
    # capture.schema.ensure() asks SQLite's catalogue whether its tables exist
    "CREATE VIEW sqlite_master AS SELECT c.relname::text AS name FROM pg_class c "
    "WHERE c.relnamespace = current_schema()::regnamespace",
]

# the two GIN indexes a bulk load drops and builds again at its end (the trigram one costs ~250 µs
# a row to keep current during COPY, ~10x the row itself)
SEARCH_INDEXES = {"mem_text_trgm": "CREATE INDEX IF NOT EXISTS mem_text_trgm ON memories USING gin (text gin_trgm_ops)",
                  "mem_fts_tsv": "CREATE INDEX IF NOT EXISTS mem_fts_tsv ON mem_fts USING gin (tsv)"}
BULK_LOCK = pgconn.WRITE_LOCK + 3  # held (session level) while a bulk load has the search indexes dropped
# the lock's two-int form, keyed by schema too: stores in two schemas of one database load independently
BULK_KEY = "%s, hashtext(current_schema())"


def bulk_lock_sql(fn: str) -> str:
    """``SELECT fn(<this store's bulk-load key>)`` (one parameter: :data:`BULK_LOCK`)."""
    return f"SELECT {fn}({BULK_KEY})"
BULK_ROWS = 20_000
POOL_KEPT = 4000  # candidates' rows kept for one recall's pool_rows (a recall asks for a few hundred)

# cavemem_lexemes as one expression the planner inlines into the generated column: 26 -> 7 µs a
# row of server time under COPY. A body of at most LONG_TERM bytes has no term to digest, so the
# array goes to the tsvector as it is; longer bodies take the first definition's path. Checked
# equal to it on 200k rows of the 1M bench store, '' and over-long terms (test_pg_bulk).
_INLINE_LEXEMES = [
    """CREATE FUNCTION cavemem_lexemes_long(body TEXT) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT array_to_tsvector(coalesce(array_agg(cavemem_term_key(w)), '{}'::text[]))
        FROM unnest(string_to_array(nullif(body, ''), ' ')) AS w $$""",
    f"""CREATE OR REPLACE FUNCTION cavemem_lexemes(body TEXT) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN octet_length(body) <= {LONG_TERM}
            THEN coalesce(array_to_tsvector(string_to_array(nullif(body, ''), ' ')), ''::tsvector)
            ELSE cavemem_lexemes_long(body) END $$""",
]

MIGRATIONS: list[pgconn.Migration] = [("memory/001_schema", _TABLES), ("memory/002_capture", _CAPTURE),
                                      ("memory/003_inline_lexemes", _INLINE_LEXEMES),
                                      # the newest matches of one project by an index walk (see _matches)
                                      ("memory/004_scope_index", ["CREATE INDEX mem_fts_scope ON mem_fts (scope, rowid)"])]



class PgMemoryStore(MemoryStore):
    """:class:`~cavemem.memory.store.MemoryStore` over a PostgreSQL database."""

    def __init__(self, srv: pgconn.Server):
        self.srv = srv
        self.db = pgconn.Database(srv)
        self.path = srv.masked
        self.url = srv.url
        self._pool: dict[int, tuple[list[str], MemoryRecord]] = {}  # this recall's candidates (see pool_rows)

    def _q(self, sql: str, params: Sequence = ()) -> list:
        return self.srv.query(sql, params)

    def read(self, sql: str, params: Sequence = ()) -> list:
        t = pgconn.translate(sql)
        return [] if t is None else self.srv.query(t[0], pgconn._params(params))

    def write(self, fn: Callable, action: str = "write"):
        """``fn(conn)`` in one transaction under the database's write lock; run again on a new
        connection if the old one is lost (the server rolled the first attempt back)."""
        self._pool.clear()
        return self.srv.run(lambda raw: fn(Connection(raw)), action)

    def close(self) -> None:
        """The connection is the process's (shared with the recovery store)."""

    def bulk_load(self) -> "BulkLoad":
        return BulkLoad(self)

    def stats(self) -> dict:
        out = super().stats()  # the same SQL, translated; a server has no file size to report
        out.pop("file_bytes", None)
        return out

    def fts_candidates(self, terms: Sequence[str], where: Filter, k: int, *, newest: int = 0) -> list[tuple[int, float]]:
        """As on SQLite; the candidates' bodies and brief records ride along, kept for the
        :meth:`pool_rows` of the same recall (which then costs no round trip for them)."""
        got = rank_fts(self._q, terms, where, k, newest, rows=True)
        if len(self._pool) > POOL_KEPT:
            self._pool.clear()
        for row in got:
            self._pool[row[0]] = (row[7].split(" ") if row[7] else [], _brief((row[0], *row[2:7])))
        return [(row[0], row[1]) for row in got]

    def substring_candidates(self, needle: str, where: Filter, k: int) -> list[int]:
        return self.substring_candidates_many([needle], where, k).get(needle, [])

    def substring_candidates_many(self, needles: Sequence[str], where: Filter, k: int) -> dict[str, list[int]]:
        """:meth:`substring_candidates` of each needle, in one round trip per 100 needles (a
        UNION ALL of the single-needle statements: the same rows, the same order)."""
        rest, params = _filter(where)
        wanted = list(dict.fromkeys(n for n in needles if n.lower().strip()))
        out: dict[str, list[int]] = {}
        for i in range(0, len(wanted), 100):
            parts, args = [], []
            for j, needle in enumerate(wanted[i : i + 100]):
                low = needle.lower()
                if len(low) < 3:
                    parts.append(f"(SELECT {j} AS n, m.seq, NULL::text AS text, row_number() OVER (ORDER BY m.ts DESC) AS o "
                                 f"FROM memories AS m WHERE strpos(lower(m.text), %s) > 0{rest} ORDER BY m.ts DESC LIMIT %s)")
                    args += [low, *params, k]
                else:
                    pattern = "%" + low.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
                    parts.append(f"(SELECT {j} AS n, m.seq, m.text, m.seq AS o FROM memories AS m WHERE m.text ILIKE %s{rest} "
                                 f"ORDER BY m.seq LIMIT %s)")
                    args += [pattern, *params, k * 4]
            chunk = wanted[i : i + 100]
            for j, seq, text, _ in self._q("SELECT * FROM (" + " UNION ALL ".join(parts) + ") AS u ORDER BY n, o", args):
                low = chunk[j].lower()
                got = out.setdefault(chunk[j], [])
                if len(got) < k and (text is None or low in text.lower()):
                    got.append(seq)
        return out

    def doc_freqs(self, terms) -> dict[str, int]:
        terms = list(dict.fromkeys(terms))
        out = dict.fromkeys(terms, 0)
        if terms:
            out.update(self._q("SELECT term, df FROM mem_df WHERE term_key = ANY(%s)", [[term_key(t) for t in terms]]))
        return out

    def terms_like(self, prefix: str, min_len: int, max_len: int, limit: int = 2000) -> list[tuple[str, int]]:
        return [tuple(r) for r in self._q(
            "SELECT term, df FROM mem_df WHERE term_key >= %s AND term_key < %s AND length(term) BETWEEN %s AND %s "
            "AND df > 0 ORDER BY term_key LIMIT %s", [prefix, prefix + "\uffff", min_len, max_len, limit])]

    def session_text_matches(self, terms: Sequence[str], projects, k: int) -> list[tuple]:
        """As on SQLite (``cap_text`` scored with FTS5's bm25, negative = better)."""
        terms = list(terms)
        rest, params = "", [tsquery(terms)]
        if projects is not None:
            rest, params = " AND c.project = ANY(%s)", [*params, list(projects)]
        rows = self._q("SELECT t.session, t.uuid, t.body, t.rowid FROM cap_text AS t JOIN cap_sessions AS c "
                       "ON c.session = t.session WHERE t.tsv @@ %s::tsquery" + rest, params)
        if not rows:
            return []
        n_rows, total = self._q("SELECT count(*), coalesce(sum(cardinality(string_to_array(nullif(body, ''), ' '))), 0) "
                                "FROM cap_text")[0]
        idf = {t: idf_of(n_rows, self._q("SELECT count(*) FROM cap_text WHERE tsv @@ %s::tsquery", [tsquery([t])])[0][0])
               for t in dict.fromkeys(terms)}
        avgdl = max(int(total) / max(n_rows, 1), 1e-9)
        scored = sorted(((-bm25(body, 0, terms, idf, avgdl), rowid, sess, uuid, body) for sess, uuid, body, rowid in rows))
        return [(sess, uuid, body, s) for s, _, sess, uuid, body in scored[:k]]

    def neighbors(self, rec: MemoryRecord, where: Filter) -> tuple[int | None, int | None]:
        return self.neighbors_many([rec], where)[0].get(rec.seq, (None, None))

    def term_stats(self, terms) -> tuple[tuple[int, int], dict[str, int]]:
        """:meth:`corpus` and :meth:`doc_freqs` in one round trip (pipelined). A recall's first
        read: the rows an earlier recall's candidates brought along are dropped here."""
        self._pool.clear()
        terms = list(dict.fromkeys(terms))
        corpus, found = self.srv.query_many([("SELECT docs, tokens FROM mem_corpus WHERE id = 1", ()),
                                             ("SELECT term, df FROM mem_df WHERE term_key = ANY(%s)",
                                              [[term_key(t) for t in terms]])])
        df = dict.fromkeys(terms, 0)
        df.update(found)
        return ((corpus[0][0], corpus[0][1]) if corpus else (0, 0)), df

    def pool_rows(self, seqs_in) -> tuple[dict[int, list[str]], dict[int, MemoryRecord]]:
        """:meth:`bodies` and brief :meth:`by_seq` records of ``seqs``: those this recall's
        :meth:`fts_candidates` brought along, the rest in one statement."""
        bodies: dict[int, list[str]] = {}
        records: dict[int, MemoryRecord] = {}
        seqs = []
        for seq in seqs_in:
            kept = self._pool.get(seq)
            if kept is None:
                seqs.append(seq)
            else:
                bodies[seq], records[seq] = kept
        if not seqs:
            return bodies, records
        for row in self._q("SELECT m.seq, m.id, m.project, m.session, m.ts, m.valid_until, f.body FROM memories AS m "
                           "LEFT JOIN mem_fts AS f ON f.rowid = m.seq WHERE m.seq = ANY(%s)", [seqs]):
            records[row[0]] = _brief(row)
            if row[6] is not None:
                bodies[row[0]] = row[6].split(" ") if row[6] else []
        return bodies, records

    def neighbors_many(self, recs, where: Filter) -> tuple[dict[int, tuple[int | None, int | None]], dict[int, MemoryRecord]]:
        """:meth:`neighbors` of each record, and the neighbours' brief records, in one statement
        (two index probes a record, as one LATERAL join each way)."""
        recs = [r for r in recs if r.session]
        if not recs:
            return {}, {}
        rest, params = _filter(where, alias="n")
        side = ("LEFT JOIN LATERAL (SELECT n.seq, n.id, n.project, n.session, n.ts, n.valid_until FROM memories AS n "
                "WHERE n.project = s.project AND n.session = s.session" + rest + " AND (n.ts {0} s.ts OR (n.ts = s.ts AND "
                "n.seq {0} s.seq)) ORDER BY n.ts {1}, n.seq {1} LIMIT 1) AS {2} ON true")
        sql = ("SELECT s.seq, p.*, x.* FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::bigint[]) "
               "AS s(seq, project, session, ts) " + side.format("<", "DESC", "p") + " " + side.format(">", "", "x"))
        rows = self._q(sql, [[r.seq for r in recs], [r.project for r in recs], [r.session for r in recs],
                             [r.ts for r in recs], *params, *params])
        pairs: dict[int, tuple[int | None, int | None]] = {}
        found: dict[int, MemoryRecord] = {}
        for row in rows:
            pairs[row[0]] = (row[1], row[7])
            for part in (row[1:7], row[7:13]):
                if part[0] is not None:
                    found[part[0]] = _brief(part)
        return pairs, found


def _brief(row) -> MemoryRecord:
    """A ranking's view of a memory (where and when; no text) from (seq, id, project, session, ts, valid_until)."""
    seq, mem_id, project, session, ts, until = row[:6]
    return MemoryRecord(id=mem_id, text="", project=project, session=session, ts=ts, valid_until=until, seq=seq)


_MEMORY_COLUMNS = ("seq, id, text, project, created_at, ts, valid_from, valid_until, supersedes, superseded_by, change, "
                   "session, topic, kind, entity, tags, files, seen_count, last_seen, ntok")


class Connection(pgconn.Connection):
    """A write transaction's connection, with the full-text ranking dedup needs inside it."""

    def fts_candidates(self, terms: Sequence[str], where: Filter, k: int) -> list[tuple[int, float]]:
        return rank_fts_bounded(lambda s, p: pgconn._rows(self.raw.execute(s, p)), terms, where, k)

    def present_ids(self, wanted: list[str]) -> set[str]:
        """Which of ``wanted`` are stored: one statement with an array, whatever their number."""
        return {r[0] for r in self.raw.execute("SELECT id FROM memories WHERE id = ANY(%s)", (wanted,))} if wanted else set()

    def insert_rows(self, items: list[tuple[MemoryRecord, list[str]]]) -> None:
        """:func:`cavemem.memory.rows.insert_rows` by ``COPY`` (imports): the same rows, seqs and
        document frequencies, in three statements a batch instead of one round trip a row; the
        server computes each ``tsvector`` (the generated column) and keeps the trigram index."""
        if not items:
            return
        raw = self.raw
        base = raw.execute("SELECT coalesce(max(seq), 0) FROM memories").fetchone()[0]
        counts: Counter = Counter()
        for i, (rec, terms) in enumerate(items, 1):
            rec.seq, rec.ntok = base + i, len(terms)
            counts.update(set(terms))
        with raw.cursor() as cur:
            with cur.copy(f"COPY memories ({_MEMORY_COLUMNS}) FROM STDIN") as copy:
                for r, _ in items:
                    copy.write_row((r.seq, r.id, r.text, r.project, r.created_at, r.ts, r.valid_from, r.valid_until,
                                    r.supersedes, r.superseded_by, r.change, r.session, r.topic, r.kind, r.entity,
                                    dump_list(r.tags), dump_list(r.files), r.seen_count, r.last_seen, r.ntok))
            scope = Scopes()
            with cur.copy("COPY mem_fts (rowid, body, scope) FROM STDIN") as copy:
                for r, terms in items:
                    copy.write_row((r.seq, analyze.join_terms(terms), scope[r.project, r.valid_until is None]))
            cur.execute("INSERT INTO mem_df (term, df) SELECT * FROM unnest(%s::text[], %s::bigint[]) "
                        "ON CONFLICT (term_key) DO UPDATE SET df = mem_df.df + EXCLUDED.df",
                        (list(counts), list(counts.values())))


class BulkLoad:
    """An import's span: once it has written at least :data:`BULK_ROWS` rows and as many as the
    store held when it began, the two GIN search indexes are dropped and the rest goes in by bare
    ``COPY``; at the end they are built again in one pass (sorted, ``maintenance_work_mem``), which
    costs less than keeping them current row by row. Searches meanwhile stay correct (sequential
    scans). The session-level :data:`BULK_LOCK` marks the span, so a load cut off by a crash is
    repaired by the next process that opens the store (:func:`restore_search_indexes`)."""

    def __init__(self, store: "PgMemoryStore"):
        self.srv = store.srv
        self.start = 0
        self.dropped = self.busy = False

    def __enter__(self) -> "BulkLoad":
        self.start = self.srv.query("SELECT docs FROM mem_corpus WHERE id = 1")[0][0]
        return self

    def written(self, rows: int) -> None:
        """Called after each committed batch with the rows this import has written so far."""
        if self.dropped or self.busy or rows < BULK_ROWS or rows < self.start:
            return
        if not self.srv.query(bulk_lock_sql("pg_try_advisory_lock"), (BULK_LOCK,))[0][0]:
            self.busy = True  # another load of this store has them dropped and rebuilds them: write beside it
            return
        self.dropped = True

        def drop(conn) -> None:
            for name in SEARCH_INDEXES:
                conn.execute(f"DROP INDEX IF EXISTS {name}")

        self.srv.run(drop, "import")

    def __exit__(self, *exc) -> None:
        if self.dropped:
            _build_search_indexes(self.srv)
            self.srv.query(bulk_lock_sql("pg_advisory_unlock"), (BULK_LOCK,))


def _build_search_indexes(srv: pgconn.Server) -> None:
    """Build the dropped search indexes without blocking writers: ``CREATE INDEX CONCURRENTLY``,
    outside a transaction and the write lock — a plain build locks the table for minutes at 1M
    memories and every ``remember`` meanwhile ran into its statement timeout. A concurrent build
    cut off leaves an invalid index; it is dropped and built again."""

    def build(conn) -> None:
        conn.execute("SET maintenance_work_mem = '256MB'")
        try:
            for name, sql in SEARCH_INDEXES.items():
                row = conn.execute("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(%s)", (name,)).fetchone()
                if row is not None and not row[0]:
                    conn.execute(f"DROP INDEX {name}")
                conn.execute(sql.replace("CREATE INDEX", "CREATE INDEX CONCURRENTLY", 1))
        finally:
            conn.execute("RESET maintenance_work_mem")

    srv.maintenance(build, "import")


def restore_search_indexes(srv: pgconn.Server) -> None:
    """Build the search indexes a bulk load dropped (or left invalid) if that load is gone (its
    process died); a load still running holds :data:`BULK_LOCK` and is left alone."""
    valid = srv.query("SELECT count(*) FROM pg_index WHERE indisvalid AND indexrelid IN "
                      "(to_regclass('mem_text_trgm'), to_regclass('mem_fts_tsv'))")[0][0]
    if valid == len(SEARCH_INDEXES) or not srv.query(bulk_lock_sql("pg_try_advisory_lock"), (BULK_LOCK,))[0][0]:
        return
    try:
        _build_search_indexes(srv)
    finally:
        srv.query(bulk_lock_sql("pg_advisory_unlock"), (BULK_LOCK,))


def open_pg_memory_store(url: str) -> PgMemoryStore:
    srv = pgconn.server(url)
    pgconn.migrate(srv, "memory", MIGRATIONS)
    restore_search_indexes(srv)
    return PgMemoryStore(srv)
