"""Tables capture adds to ``mem.db`` (applied by the ``capture`` migration in :mod:`..store`).

Side tables instead of new ``memories`` columns: the memory row format stays what every reader,
export and index already knows; capture metadata (confidence, expiry, provenance, hit counts) is
keyed by memory id and simply absent for memories written by hand.
"""

from __future__ import annotations

import sqlite3

TABLES = (
    """CREATE TABLE IF NOT EXISTS cap_sessions (
        session TEXT PRIMARY KEY, project TEXT NOT NULL DEFAULT '', cwd TEXT, branch TEXT, transcript TEXT,
        first_ts TEXT, last_ts TEXT, messages INTEGER NOT NULL DEFAULT 0,
        archived_bytes INTEGER NOT NULL DEFAULT 0, updated_at TEXT)""",
    """CREATE TABLE IF NOT EXISTS cap_messages (
        session TEXT NOT NULL, uuid TEXT NOT NULL, type TEXT NOT NULL, ts TEXT, handle TEXT NOT NULL,
        pos INTEGER NOT NULL, length INTEGER NOT NULL, line INTEGER NOT NULL, PRIMARY KEY (session, uuid)) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS cap_messages_line ON cap_messages(session, line)",
    """CREATE TABLE IF NOT EXISTS mem_capture (
        id TEXT PRIMARY KEY, confidence REAL NOT NULL DEFAULT 1.0, expires_us INTEGER,
        source_session TEXT, source_message TEXT, capture_kind TEXT, captured INTEGER NOT NULL DEFAULT 0,
        injected INTEGER NOT NULL DEFAULT 0, used INTEGER NOT NULL DEFAULT 0, last_used TEXT)""",
    # analysed conversation text of archived messages, for session passages in recall
    "CREATE VIRTUAL TABLE IF NOT EXISTS cap_text USING fts5(body, session UNINDEXED, uuid UNINDEXED, tokenize = 'ascii')",
)


def migrate(conn: sqlite3.Connection) -> None:
    """Create the capture tables (idempotent, so migration order between helpers never matters)."""
    for sql in TABLES:
        conn.execute(sql)


def ensure(conn: sqlite3.Connection) -> None:
    """For stores opened by an older build between migrations: cheap when the tables exist."""
    if conn.execute("SELECT count(*) FROM sqlite_master WHERE name IN ('mem_capture', 'cap_text')").fetchone()[0] < 2:
        migrate(conn)
