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

import hashlib
import math
from collections import Counter
from dataclasses import replace
from collections.abc import Callable, Sequence

from ..store.pg import conn as pgconn
from .model import Filter, MemoryRecord
from . import analyze
from .model import dump_list
from .store import SUPERSEDED_TOKEN, MemoryStore, project_token, scope_value
from .store_schema import MEMORY_INDEXES

K1, B = 1.2, 0.75

LONG_TERM = 2000  # bytes: a tsvector lexeme holds at most 2047, so longer terms are indexed by digest

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


def tsquery(terms: Sequence[str]) -> str:
    """An OR of ``terms`` as literal lexemes (no stemming or parsing on the server)."""
    return " | ".join("'" + term_key(t).replace("\\", "\\\\").replace("'", "''") + "'" for t in dict.fromkeys(terms))


def term_key(term: str) -> str:
    """``cavemem_term_key`` in Python: the term, or a digest of an over-long one."""
    raw = term.encode("utf-8", "surrogatepass")
    return "h:" + hashlib.md5(raw).hexdigest() if len(raw) > LONG_TERM else term


def _filter(where: Filter, alias: str = "m") -> tuple[str, list]:
    sql, params = where.sql(alias=alias, prefix=" AND ")
    return (pgconn.translate(sql)[0] if sql else ""), params


Query = Callable[[str, Sequence], list]


def rank_fts(q: Query, terms: Sequence[str], where: Filter, k: int, newest: int = 0) -> list[tuple[int, float]]:
    """Top ``k`` (seq, bm25) for an OR of ``terms`` under ``where`` in one round trip: candidates
    from the GIN index, each scored on the server with FTS5's bm25 over the same statistics
    (``newest`` > 0: only the newest ``newest`` matches are scored, as on SQLite). The arithmetic
    is :func:`bm25`'s, operation for operation in IEEE doubles, so the scores and their ties
    equal the Python formula's (and SQLite's to float rounding)."""
    terms = list(terms)
    if not terms or k <= 0:
        return []
    rest, params = _filter(replace(where, projects=None, current_only=False))
    # SQLite scores the rows from its ``newest``-th newest match's successor (LIMIT 1 OFFSET newest):
    # newest + 1 of them; the same rows here
    dense = newest > 0 and _dense(q, terms, newest)
    matches, match_args = _matches(where, tsquery(terms), rest, params, newest + 1 if newest > 0 else 0, dense)
    uniq = list(dict.fromkeys(terms))
    slot = {t: i for i, t in enumerate(uniq, 1)}
    parts = " + ".join(f"CASE WHEN tf[{j}] > 0 THEN w.idf[{slot[t]}] * (tf[{j}] * ({K1}::float8 + 1)) / (tf[{j}] + norm) "
                       f"ELSE 0::float8 END" for j, t in enumerate(terms, 1))
    sql = (
        "WITH s AS (SELECT greatest(c.docs, 1)::float8 AS n, greatest((c.tokens + c.docs + (SELECT count(*) FROM memories "
        "WHERE valid_until IS NOT NULL))::float8 / greatest(c.docs, 1)::float8, 1e-9::float8) AS avgdl "
        "FROM mem_corpus AS c WHERE c.id = 1), "
        "w AS (SELECT array_agg(CASE WHEN v > 0 THEN v ELSE 1e-6::float8 END ORDER BY ord) AS idf FROM (SELECT t.ord, "
        "ln((s.n - coalesce(d.df, 0)::float8 + 0.5::float8) / (coalesce(d.df, 0)::float8 + 0.5::float8)) AS v "
        "FROM s, unnest(%s::text[]) WITH ORDINALITY AS t(key, ord) LEFT JOIN mem_df AS d ON d.term_key = t.key) AS x), "
        # the scope column holds the project's token (+ " s0" once superseded): its token count is
        # bm25's extra length, and project / current-only filter here without touching memories
        "r AS MATERIALIZED (SELECT f.rowid, string_to_array(nullif(f.body, ''), ' ') AS toks, "
        "CASE WHEN strpos(f.scope, ' ') > 0 THEN 2 ELSE 1 END AS extra FROM (" + matches + ") AS f), "
        "c AS MATERIALIZED (SELECT r.rowid, ARRAY[" + ", ".join(
            "coalesce(array_length(array_positions(r.toks, %s::text), 1), 0)" for _ in terms) + "] AS tf, "
        f"{K1}::float8 * (1 - {B}::float8 + {B}::float8 * (coalesce(cardinality(r.toks), 0) + r.extra)::float8 / s.avgdl) "
        "AS norm FROM r, s) "
        "SELECT c.rowid, 0::float8 + " + parts + " AS score FROM c, w ORDER BY score DESC, c.rowid LIMIT %s"
    )
    args = [[term_key(t) for t in uniq], *match_args, *terms, k]
    return [(seq, float(score)) for seq, score in q(sql, args)]


def _dense(q: Query, terms: Sequence[str], newest: int) -> bool:
    """Whether the newest ``newest`` matches are found sooner by walking the rows newest first
    (they are dense) than by fetching every match and sorting: the walk visits about
    newest × docs / matches rows, the fetch ``matches`` scattered ones, so walk once matches² ≥
    newest × docs / 2 (the summed document frequencies bound the matches). On the 1M store a
    3-word OR with 7k matches walked 104k rows (235 ms); fetched, a few ms."""
    docs, total = q("SELECT (SELECT docs FROM mem_corpus WHERE id = 1), coalesce(sum(df), 0)::bigint FROM mem_df "
                    "WHERE term_key = ANY(%s)", [[term_key(t) for t in dict.fromkeys(terms)]])[0]
    return 2 * total * total >= newest * max(docs, 1)


def _matches(where: Filter, tsq: str, rest: str, params: list, newest: int, dense: bool) -> tuple[str, list]:
    """The statement of the matching ``mem_fts`` rows (rowid, body, scope) under ``where``, and
    its arguments. ``newest`` > 0 under a project filter: the newest matches of each scope value
    apart (one ``(scope, rowid)`` index walk each, stopping at ``newest``), merged — the same rows
    as the newest of all, but a common word in a small project no longer walks the whole table
    backwards past the big project's rows (1M store: 640 -> a few ms). Not ``dense``: ordered by
    ``rowid + 0``, which no index gives, so the server fetches the matches from the full-text
    index and sorts them instead of walking rows."""
    join = " JOIN memories AS m ON m.seq = f.rowid" if rest else ""
    base = "SELECT f.rowid, f.body, f.scope FROM mem_fts AS f" + join + " WHERE f.tsv @@ %s::tsquery"
    order = " ORDER BY f.rowid DESC LIMIT %s" if dense else " ORDER BY f.rowid + 0 DESC LIMIT %s"
    values = _scope_values(where)
    if values is None:
        cond = " AND strpos(f.scope, ' ') = 0" if where.current_only else ""
        if newest <= 0:
            return base + cond + rest, [tsq, *params]
        return base + cond + rest + order, [tsq, *params, newest]
    if newest <= 0:
        return base + " AND f.scope = ANY(%s)" + rest, [tsq, values, *params]
    branch = f"({base} AND f.scope = %s{rest}{order})"
    args = [a for v in values for a in (tsq, v, *params, newest)]
    return "SELECT * FROM (" + " UNION ALL ".join([branch] * len(values)) + ") AS u ORDER BY rowid DESC LIMIT %s", [*args, newest]


def _scope_values(where: Filter) -> list[str] | None:
    """The project and current-only parts of ``where`` as the ``mem_fts.scope`` values allowed
    (as SQLite puts them in its MATCH expression); None: every project."""
    if where.projects is None:
        return None
    values = [project_token(p) for p in where.projects]
    if not where.current_only:
        values += [v + " " + SUPERSEDED_TOKEN for v in values]
    return values


def bm25(body: str, extra_tokens: int, terms: Sequence[str], idf: dict[str, float], avgdl: float) -> float:
    """FTS5's bm25 (positive) of one row whose indexed column is ``body`` (space-separated
    terms) and whose other columns hold ``extra_tokens`` tokens; one phrase per query term."""
    toks = body.split(" ") if body else []
    tf = Counter(toks)
    norm = K1 * (1 - B + B * (len(toks) + extra_tokens) / avgdl)
    score = 0.0
    for t in terms:
        n = tf.get(t, 0)
        if n:
            score += idf[t] * (n * (K1 + 1)) / (n + norm)
    return score


def idf_of(n_rows: int, n: int) -> float:
    v = math.log((n_rows - n + 0.5) / (n + 0.5))
    return v if v > 0 else 1e-6


class PgMemoryStore(MemoryStore):
    """:class:`~cavemem.memory.store.MemoryStore` over a PostgreSQL database."""

    def __init__(self, srv: pgconn.Server):
        self.srv = srv
        self.db = pgconn.Database(srv)
        self.path = srv.masked
        self.url = srv.url

    def _q(self, sql: str, params: Sequence = ()) -> list:
        return self.srv.query(sql, params)

    def read(self, sql: str, params: Sequence = ()) -> list:
        t = pgconn.translate(sql)
        return [] if t is None else self.srv.query(t[0], pgconn._params(params))

    def write(self, fn: Callable, action: str = "write"):
        """``fn(conn)`` in one transaction under the database's write lock; run again on a new
        connection if the old one is lost (the server rolled the first attempt back)."""
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
        return rank_fts(self._q, terms, where, k, newest)

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
        if not rec.session:
            return None, None
        rest, params = _filter(where, alias="")
        base = "SELECT seq FROM memories WHERE project = %s AND session = %s" + rest
        one = [rec.project, rec.session, *params, rec.ts, rec.ts, rec.seq]
        rows = self._q(
            f"SELECT -1, seq FROM ({base} AND (ts < %s OR (ts = %s AND seq < %s)) ORDER BY ts DESC, seq DESC LIMIT 1) AS a "
            f"UNION ALL SELECT 1, seq FROM ({base} AND (ts > %s OR (ts = %s AND seq > %s)) ORDER BY ts, seq LIMIT 1) AS b",
            one + one)
        found = dict(rows)
        return found.get(-1), found.get(1)


_MEMORY_COLUMNS = ("seq, id, text, project, created_at, ts, valid_from, valid_until, supersedes, superseded_by, change, "
                   "session, topic, kind, entity, tags, files, seen_count, last_seen, ntok")


class Connection(pgconn.Connection):
    """A write transaction's connection, with the full-text ranking dedup needs inside it."""

    def fts_candidates(self, terms: Sequence[str], where: Filter, k: int) -> list[tuple[int, float]]:
        return rank_fts(lambda s, p: pgconn._rows(self.raw.execute(s, p)), terms, where, k)

    def insert_rows(self, items: list[tuple[MemoryRecord, list[str]]]) -> None:
        """:func:`cavemem.memory.store.insert_rows` by ``COPY`` (imports): the same rows, seqs and
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
            with cur.copy("COPY mem_fts (rowid, body, scope) FROM STDIN") as copy:
                for r, terms in items:
                    copy.write_row((r.seq, analyze.join_terms(terms), scope_value(r.project, r.valid_until is None)))
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
