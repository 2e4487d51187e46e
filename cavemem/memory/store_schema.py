"""The memory store's SQLite schema and its ordered migrations (see :mod:`.store`).

Each migration runs once, in order, inside :func:`cavemem.store.sqlite.open_database`'s
retry-on-busy transaction; the store's row helpers are imported when a migration needs them."""

from __future__ import annotations

import sqlite3

from . import ids
from .model import MemoryRecord

# the indexes of the memories table, the same in SQLite and PostgreSQL (see :mod:`.pg_store`)
MEMORY_INDEXES = (
    "CREATE INDEX mem_project_ts ON memories(project, ts)",
    "CREATE INDEX mem_ts ON memories(ts)",
    "CREATE INDEX mem_session ON memories(project, session, ts) WHERE session IS NOT NULL",
    "CREATE INDEX mem_supersedes ON memories(supersedes) WHERE supersedes IS NOT NULL",
    "CREATE INDEX mem_superseded_by ON memories(superseded_by) WHERE superseded_by IS NOT NULL",
)

_SCHEMA = (
    """CREATE TABLE memories (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        text TEXT NOT NULL,
        project TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        ts INTEGER NOT NULL,
        valid_from TEXT NOT NULL,
        valid_until TEXT,
        supersedes TEXT,
        superseded_by TEXT,
        change TEXT,
        session TEXT,
        topic TEXT,
        kind TEXT,
        entity TEXT,
        tags TEXT,
        files TEXT,
        seen_count INTEGER NOT NULL DEFAULT 1,
        last_seen TEXT,
        ntok INTEGER NOT NULL DEFAULT 0
    )""",
    *MEMORY_INDEXES,
    # body: analyzed terms; scope: the project's token, plus SUPERSEDED for expired versions, so
    # project and current-only filters are doclist intersections instead of row lookups
    "CREATE VIRTUAL TABLE mem_fts USING fts5(body, scope, tokenize = 'ascii')",
    "CREATE VIRTUAL TABLE mem_vocab USING fts5vocab(mem_fts, row)",
    "CREATE VIRTUAL TABLE mem_tri USING fts5(text, content = 'memories', content_rowid = 'seq', "
    "tokenize = 'trigram', detail = 'none')",
    "CREATE TABLE mem_corpus (id INTEGER PRIMARY KEY CHECK (id = 1), docs INTEGER NOT NULL, tokens INTEGER NOT NULL)",
    "INSERT INTO mem_corpus (id, docs, tokens) VALUES (1, 0, 0)",
)


_DF_TABLE = "CREATE TABLE IF NOT EXISTS mem_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID"


def _migrate_v1(conn: sqlite3.Connection) -> None:
    """Create the schema; convert a Go cavemem ``memories`` table if one is there."""
    from .rows import bump_corpus, index_terms, insert_row

    cols = [r[1] for r in conn.execute("PRAGMA table_info(memories)")]
    legacy = bool(cols) and "seq" not in cols
    if legacy:
        conn.execute("ALTER TABLE memories RENAME TO memories_go_legacy")
    for sql in _SCHEMA:
        conn.execute(sql)
    conn.execute(_DF_TABLE)  # the converted rows below keep it current (v2 recomputes it anyway)
    if not legacy:
        return
    wanted = ("id", "text", "created_at", "valid_from", "valid_until", "supersedes", "superseded_by")
    present = [c for c in wanted if c in cols]
    docs = tokens = 0
    for row in conn.execute(f"SELECT {', '.join(present)} FROM memories_go_legacy ORDER BY rowid").fetchall():
        d = dict(zip(present, row))
        created = d.get("created_at") or ids.format_time(ids.utc_now())
        rec = MemoryRecord(
            id=d["id"], text=d["text"] or "", created_at=created, valid_from=d.get("valid_from") or created,
            valid_until=d.get("valid_until") or None, supersedes=d.get("supersedes") or None,
            superseded_by=d.get("superseded_by") or None,
        )
        rec.ts = ids.stored_time_micros(created)
        terms = index_terms(rec)
        insert_row(conn, rec, terms)
        docs += 1
        tokens += len(terms)
    bump_corpus(conn, docs, tokens)
    conn.execute("DROP TABLE memories_go_legacy")


def _migrate_v2(conn: sqlite3.Connection) -> None:
    """Document frequencies kept in a table: fts5vocab counts them by walking the doclist, which
    costs milliseconds per common term on a big store; this is one B-tree lookup."""
    conn.execute(_DF_TABLE)
    conn.execute("DELETE FROM mem_df")
    conn.execute("INSERT INTO mem_df (term, df) SELECT term, doc FROM mem_vocab WHERE doc > 0")


def _migrate_v3(conn: sqlite3.Connection) -> None:
    """Give ``mem_fts`` its ``scope`` column (stores created before it existed)."""
    from .store import scope_value

    cols = [r[1] for r in conn.execute("PRAGMA table_info(mem_fts)")]
    if "scope" in cols:
        return
    conn.execute("DROP TABLE IF EXISTS mem_vocab")
    conn.execute("ALTER TABLE mem_fts RENAME TO mem_fts_v1")
    conn.execute("CREATE VIRTUAL TABLE mem_fts USING fts5(body, scope, tokenize = 'ascii')")
    conn.execute("CREATE VIRTUAL TABLE mem_vocab USING fts5vocab(mem_fts, row)")
    rows = conn.execute(
        "SELECT f.rowid, f.body, m.project, m.valid_until IS NULL FROM mem_fts_v1 AS f JOIN memories AS m ON m.seq = f.rowid"
    ).fetchall()
    conn.executemany("INSERT INTO mem_fts (rowid, body, scope) VALUES (?, ?, ?)",
                     [(seq, body, scope_value(project, bool(current))) for seq, body, project, current in rows])
    conn.execute("DROP TABLE mem_fts_v1")


def _migrate_capture(conn: sqlite3.Connection) -> None:
    """Capture's side tables: sessions, archived messages, per-memory confidence / expiry /
    provenance / hit counts (see :mod:`.capture.schema`)."""
    from .capture import schema

    schema.migrate(conn)


MIGRATIONS = [_migrate_v1, _migrate_v2, _migrate_v3, _migrate_capture]
