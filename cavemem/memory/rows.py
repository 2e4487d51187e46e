"""Row writes of the SQLite memory store, inside the caller's transaction: a memory into the
table and both FTS5 indexes, bulk inserts for imports, supersession, hard deletes, and the corpus
counts BM25 reads (the schema and reads are :mod:`.store`)."""

from __future__ import annotations

import sqlite3
from collections import Counter

from . import analyze
from .fts import scope_value
from .model import MemoryRecord, dump_list


def index_terms(rec: MemoryRecord) -> list[str]:
    """The terms a memory is found by: its text plus topic, tags, entity and file names."""
    parts = [rec.text]
    for extra in (rec.topic, rec.entity, *rec.tags, *rec.files):
        if extra:
            parts.append(extra)
    return analyze.analyze("\n".join(parts))


def mark_superseded(conn: sqlite3.Connection, rec: "MemoryRecord", until: str, successor: str) -> bool:
    """Expire the current version ``rec`` (row and index); False if it was no longer current."""
    cur = conn.execute(
        "UPDATE memories SET valid_until = ?, superseded_by = ? WHERE seq = ? AND valid_until IS NULL",
        (until, successor, rec.seq),
    )
    if cur.rowcount != 1:
        return False
    conn.execute("UPDATE mem_fts SET scope = ? WHERE rowid = ?", (scope_value(rec.project, False), rec.seq))
    return True


def insert_row(conn: sqlite3.Connection, rec: MemoryRecord, terms: list[str]) -> int:
    """Insert ``rec`` into the table and both indexes; returns its seq. Corpus counts are the
    caller's job (:func:`bump_corpus`), so bulk imports update them once per batch."""
    cur = conn.execute(
        "INSERT INTO memories (id, text, project, created_at, ts, valid_from, valid_until, supersedes, "
        "superseded_by, change, session, topic, kind, entity, tags, files, seen_count, last_seen, ntok) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (rec.id, rec.text, rec.project, rec.created_at, rec.ts, rec.valid_from, rec.valid_until, rec.supersedes,
         rec.superseded_by, rec.change, rec.session, rec.topic, rec.kind, rec.entity, dump_list(rec.tags),
         dump_list(rec.files), rec.seen_count, rec.last_seen, len(terms)),
    )
    seq = cur.lastrowid
    conn.execute("INSERT INTO mem_fts (rowid, body, scope) VALUES (?, ?, ?)",
                 (seq, analyze.join_terms(terms), scope_value(rec.project, rec.valid_until is None)))
    conn.execute("INSERT INTO mem_tri (rowid, text) VALUES (?, ?)", (seq, rec.text))
    _bump_df(conn, Counter(set(terms)), 1)
    rec.seq = seq
    rec.ntok = len(terms)
    return seq


def insert_rows(conn: sqlite3.Connection, items: list[tuple[MemoryRecord, list[str]]]) -> None:
    """Bulk :func:`insert_row` (imports): three ``executemany`` calls instead of 3·n statements.
    Runs inside the caller's write transaction, so the seqs handed out here cannot race."""
    if not items:
        return
    base = conn.execute("SELECT coalesce(max(seq), 0) FROM memories").fetchone()[0]
    for i, (rec, terms) in enumerate(items, 1):
        rec.seq = base + i
        rec.ntok = len(terms)
    conn.executemany(
        "INSERT INTO memories (seq, id, text, project, created_at, ts, valid_from, valid_until, supersedes, "
        "superseded_by, change, session, topic, kind, entity, tags, files, seen_count, last_seen, ntok) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(r.seq, r.id, r.text, r.project, r.created_at, r.ts, r.valid_from, r.valid_until, r.supersedes, r.superseded_by,
          r.change, r.session, r.topic, r.kind, r.entity, dump_list(r.tags), dump_list(r.files), r.seen_count,
          r.last_seen, r.ntok) for r, _ in items],
    )
    scope = Scopes()
    conn.executemany("INSERT INTO mem_fts (rowid, body, scope) VALUES (?, ?, ?)",
                     [(r.seq, analyze.join_terms(t), scope[r.project, r.valid_until is None]) for r, t in items])
    conn.executemany("INSERT INTO mem_tri (rowid, text) VALUES (?, ?)", [(r.seq, r.text) for r, _ in items])
    counts: Counter = Counter()
    for _, terms in items:
        counts.update(set(terms))
    _bump_df(conn, counts, 1)


class Scopes(dict):
    """``scope_value`` by (project, current), hashed once a batch: ~2.5 µs a row of the writer,
    a bulk import's critical path."""

    def __missing__(self, key: tuple[str, bool]) -> str:
        value = self[key] = scope_value(*key)
        return value


def _bump_df(conn: sqlite3.Connection, counts: Counter, sign: int) -> None:
    conn.executemany(
        "INSERT INTO mem_df (term, df) VALUES (?, ?) ON CONFLICT (term) DO UPDATE SET df = df + excluded.df",
        [(t, sign * n) for t, n in counts.items()],
    )


def delete_row(conn: sqlite3.Connection, rec: MemoryRecord) -> None:
    """Hard-delete one version, relinking its chain around it (an expired predecessor stays
    expired: forgetting the current version never revives an older one)."""
    row = conn.execute("SELECT supersedes, superseded_by, ntok FROM memories WHERE seq = ?", (rec.seq,)).fetchone()
    if row is None:
        return
    supersedes, superseded_by, ntok = row
    if supersedes:
        conn.execute("UPDATE memories SET superseded_by = ? WHERE id = ?", (superseded_by, supersedes))
    if superseded_by:
        conn.execute("UPDATE memories SET supersedes = ? WHERE id = ?", (supersedes, superseded_by))
    conn.execute("INSERT INTO mem_tri (mem_tri, rowid, text) VALUES ('delete', ?, ?)", (rec.seq, rec.text))
    body = conn.execute("SELECT body FROM mem_fts WHERE rowid = ?", (rec.seq,)).fetchone()
    if body and body[0]:
        _bump_df(conn, Counter(set(body[0].split(" "))), -1)  # a term at 0 reads as unseen
    conn.execute("DELETE FROM mem_fts WHERE rowid = ?", (rec.seq,))
    conn.execute("DELETE FROM memories WHERE seq = ?", (rec.seq,))
    bump_corpus(conn, -1, -ntok)


def bump_corpus(conn: sqlite3.Connection, docs: int, tokens: int) -> None:
    if docs or tokens:
        row = conn.execute("UPDATE mem_corpus SET docs = docs + ?, tokens = tokens + ? WHERE id = 1 RETURNING docs",
                           (docs, tokens)).fetchone()
        if docs > 0 and row and isinstance(conn, sqlite3.Connection):
            _refresh_stats(conn, row[0] - docs, row[0])


def _refresh_stats(conn: sqlite3.Connection, before: int, after: int) -> None:
    """``ANALYZE memories`` each time the store doubles past 1,024 memories. Without statistics
    SQLite guesses that ``project IN (…)`` selects a few rows and, for ``id IN (…) AND project IN
    (…)`` (the semantic scorer's lookup of its nearest ids), walks the project's whole index
    instead of the unique id index: 47 ms a lookup in a 100k project, 0.01 ms with statistics
    (bench_memory_scale). Sampled (analysis_limit), so ~0.1 s even at 100k."""
    if after < 1024 or (before >= 1024 and before.bit_length() == after.bit_length()):
        return
    conn.execute("PRAGMA analysis_limit = 400")
    conn.execute("ANALYZE memories")
