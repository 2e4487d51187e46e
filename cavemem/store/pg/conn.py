"""Connections, transactions, retries and schema migrations for the PostgreSQL backend.

One connection per (process, URL), shared by the memory and the recovery store and serialised by
a lock: cavemem's processes are short CLI runs, hooks and one ``serve`` process, so a pool would
mostly hold idle server slots (``max_connections`` is the scarce resource with 16 writers).
TLS and every other libpq option pass through the URL untouched (``?sslmode=verify-full&…``);
``CAVEMAN_DB_STATEMENT_TIMEOUT_MS`` (default 30000) bounds every statement and
``CAVEMAN_DB_CONNECT_TIMEOUT`` (default 5 s) the connect.

Writes run as one transaction each under a transaction-level advisory lock (the server-side
``BEGIN IMMEDIATE``): the memory layer's read-check-write steps (dedup, supersession, document
frequencies) stay exactly as serial as on SQLite. A connection lost mid-transaction rolls back
on the server, so the whole function is simply run again on a new connection.
"""

from __future__ import annotations

import functools
import os
import re
import threading
import time
from collections.abc import Callable, Sequence

from ...errors import CaveError
from ..backend import mask_url

INSTALL_HINT = 'pip install "cavemem[postgres]"'
WRITE_LOCK = 0x6361_7665  # "cave": advisory lock key serialising writers of one store
# locks are taken in the two-int form keyed by the schema too: stores in two schemas of one
# database do not wait for each other (a 1M import next door held every remember ~0.7 s)
LOCK_SQL = "SELECT pg_advisory_xact_lock(%s, hashtext(current_schema()))"
MIGRATION_LOCK = WRITE_LOCK + 1
RETRIES = 3


def _psycopg():
    try:
        import psycopg
    except ImportError as exc:
        raise CaveError("cave_store_unavailable",
                        f"a postgresql:// store needs the [postgres] extra; install it with {INSTALL_HINT}") from exc
    return psycopg


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) <= 0:
        raise CaveError("cave_invalid_config", f"{name} must be a positive integer")
    return int(raw)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def unreachable(url: str, exc: BaseException, action: str) -> CaveError:
    """Server down / refused / timed out: exit 75 (EX_TEMPFAIL), URL shown without its password."""
    return CaveError("cave_store_unreachable",
                     f"{action}: the PostgreSQL server {mask_url(url)} is unreachable ({mask_url(_first_line(exc))}); "
                     f"nothing was changed, try again when it is up")


def failed(url: str, exc: BaseException, action: str) -> CaveError:
    return CaveError("cave_store_unavailable", f"{action}: the store at {mask_url(url)} failed: {mask_url(_first_line(exc))}")


class Server:
    """The process's connection to one database URL."""

    def __init__(self, url: str):
        self.url = url
        self.masked = mask_url(url)
        self.lock = threading.RLock()
        self._conn = None
        self._pid = 0

    def connection(self):
        conn = self._conn
        if conn is None or conn.closed or conn.broken or self._pid != os.getpid():
            self._connect()
        return self._conn

    def _connect(self) -> None:
        psycopg = _psycopg()
        timeout_ms = _env_int("CAVEMAN_DB_STATEMENT_TIMEOUT_MS", 30000)
        try:
            # psycopg prepares a statement after its 5th run (no parse and analysis after that); the
            # server plans each run for its values (force_custom_plan): a generic plan cannot see how
            # selective a tsquery is (recall at 1M memories went p50/p95 53/294 -> 140/569 ms)
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=_env_int("CAVEMAN_DB_CONNECT_TIMEOUT", 5),
                                   application_name="cavemem")
            conn.execute(f"SET statement_timeout = {timeout_ms}")
            conn.execute("SET plan_cache_mode = force_custom_plan")
        except psycopg.Error as exc:
            raise unreachable(self.url, exc, "connect") from None
        self._conn, self._pid = conn, os.getpid()

    def _lost(self, exc: BaseException) -> bool:
        """The connection died (server restart, network): safe to run the transaction again."""
        psycopg = _psycopg()
        conn = self._conn
        return isinstance(exc, psycopg.OperationalError) and (conn is None or conn.closed or conn.broken)

    def _retryable(self, exc: BaseException) -> bool:
        from psycopg import errors

        return self._lost(exc) or isinstance(exc, (errors.SerializationFailure, errors.DeadlockDetected))

    def query(self, sql: str, params: Sequence = (), action: str = "read") -> list:
        """Rows of one read statement (psycopg dialect), autocommit (one round trip); retried
        on a lost connection."""
        return self._read(lambda conn: _rows(conn.execute(sql, params)), action)

    def query_many(self, statements: Sequence[tuple[str, Sequence]], action: str = "read") -> list[list]:
        """Rows of each read statement, all sent in one round trip (psycopg's pipeline mode,
        autocommit): a recall's few dependent-free reads cost one network wait instead of one
        each, which under load is most of their time. Retried on a lost connection."""

        def pipelined(conn) -> list[list]:
            with conn.pipeline():
                curs = [conn.execute(sql, params) for sql, params in statements]
            return [_rows(cur) for cur in curs]

        return self._read(pipelined, action)

    def _read(self, fn: Callable, action: str):
        psycopg = _psycopg()
        with self.lock:
            for attempt in range(RETRIES + 1):
                try:
                    return fn(self.connection())
                except psycopg.Error as exc:
                    if attempt < RETRIES and self._lost(exc):
                        time.sleep(0.05 * (attempt + 1))
                        continue
                    raise (unreachable if self._lost(exc) else failed)(self.url, exc, action) from None

    def run(self, fn: Callable, action: str = "write", lock: int | None = WRITE_LOCK):
        """``fn(connection)`` in one transaction (holding advisory ``lock`` unless None)."""
        psycopg = _psycopg()
        with self.lock:
            for attempt in range(RETRIES + 1):
                try:
                    conn = self.connection()
                    with conn.transaction():
                        if lock is not None:
                            conn.execute(LOCK_SQL, (lock,))
                        return fn(conn)
                except psycopg.Error as exc:
                    if attempt < RETRIES and self._retryable(exc):
                        time.sleep(0.05 * (attempt + 1))
                        continue
                    raise (unreachable if self._lost(exc) else failed)(self.url, exc, action) from None

    def maintenance(self, fn: Callable, action: str = "maintenance"):
        """``fn(connection)`` outside any transaction, with no statement timeout (an index build
        over the whole table, ``CREATE INDEX CONCURRENTLY``); the timeout is set back after."""
        psycopg = _psycopg()
        with self.lock:
            conn = self.connection()
            try:
                conn.execute("SET statement_timeout = 0")
                try:
                    return fn(conn)
                finally:
                    if not (conn.closed or conn.broken):
                        conn.execute(f"SET statement_timeout = {_env_int('CAVEMAN_DB_STATEMENT_TIMEOUT_MS', 30000)}")
            except psycopg.Error as exc:
                raise (unreachable if self._lost(exc) else failed)(self.url, exc, action) from None

    def close(self) -> None:
        with self.lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None


_SERVERS: dict[str, Server] = {}
_SERVERS_LOCK = threading.Lock()


def server(url: str) -> Server:
    """The shared :class:`Server` of ``url`` (connecting now, so a down server fails at open)."""
    with _SERVERS_LOCK:
        srv = _SERVERS.get(url)
        if srv is None:
            srv = _SERVERS[url] = Server(url)
    with srv.lock:
        srv.connection()
    return srv


def split_url(path: str) -> tuple[str, str]:
    """(real URL, suffix) of a path made from a store's (masked) URL plus a suffix, such as the
    vector index's ``<url>.vectors``: the longest URL this process has open that starts it."""
    with _SERVERS_LOCK:
        known = sorted(((srv.masked, url) for url, srv in _SERVERS.items()), key=lambda p: -len(p[0]))
    for masked, url in known:
        for shown in (url, masked):
            if path.startswith(shown):
                return url, path[len(shown):]
    for suffix in (".static-vectors", ".vectors"):  # not opened yet in this process: the known suffixes
        if path.endswith(suffix):
            return path[: -len(suffix)], suffix
    return path, ""


def _rows(cur) -> list:
    return cur.fetchall() if cur.description is not None else []


# -- migrations ------------------------------------------------------------------------------------

Migration = tuple[str, Sequence[str]]

_MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS cavemem_migrations (component TEXT NOT NULL, name TEXT NOT NULL, "
    "position INTEGER NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (component, name))"
)


def migrate(srv: Server, component: str, migrations: Sequence[Migration]) -> None:
    """Apply the named, ordered ``migrations`` of ``component`` not yet recorded in
    ``cavemem_migrations``, all in one transaction; refuse a schema that has migrations this
    build does not know (written by a newer cavemem)."""
    known = [name for name, _ in migrations]

    def applied(conn) -> list[str]:
        if conn.execute("SELECT to_regclass('cavemem_migrations')").fetchone()[0] is None:
            return []
        return [r[0] for r in conn.execute(
            "SELECT name FROM cavemem_migrations WHERE component = %s ORDER BY position", (component,))]

    def check(names: list[str]) -> None:
        extra = [n for n in names if n not in known]
        if extra:
            raise CaveError("cave_store_unavailable",
                            f"the {component} schema at {srv.masked} is newer than this cavemem (it has migration(s) "
                            f"{', '.join(extra)} this build does not know; {len(known)} known); upgrade cavemem")

    names = srv.run(applied, "open", lock=None)
    check(names)
    if len(names) == len(known):
        return

    def step(conn) -> None:
        conn.execute("SET LOCAL statement_timeout = 0")  # a migration may index a big table
        conn.execute(_MIGRATIONS_TABLE)
        done = applied(conn)
        check(done)
        for position, (name, statements) in enumerate(migrations, 1):
            if name in done:
                continue
            for sql in statements:
                conn.execute(sql)
            conn.execute("INSERT INTO cavemem_migrations (component, name, position) VALUES (%s, %s, %s)",
                         (component, name, position))

    srv.run(step, "migrate", lock=MIGRATION_LOCK)


# -- the memory layer's SQLite-dialect statements -----------------------------------------------------

# primary keys of the tables the memory layer writes with INSERT OR REPLACE / OR IGNORE
PRIMARY_KEYS = {"mem_capture": ("id",), "cap_sessions": ("session",), "cap_messages": ("session", "uuid"),
                "mem_df": ("term",), "memories": ("seq",)}

_INSERT_OR = re.compile(r"^\s*INSERT\s+OR\s+(IGNORE|REPLACE)\s+INTO\s+(\w+)\s*(?:\(([^)]*)\))?", re.I)
_NEW_MEMORY = re.compile(r"^\s*INSERT\s+INTO\s+memories\s*\(\s*id\s*,", re.I)
_UPSERT_SELF = re.compile(r"\b(\w+) = \1\b")
_SUM_NULL = re.compile(r"\bsum\(([\w.]+) IS (NOT )?NULL\)", re.I)
_SCALAR_MAX = re.compile(r"\b(max|min)\(([^(),]+,[^(),]+)\)", re.I)  # SQLite's two-argument max(): greatest()
_JSON_EACH = re.compile(r"json_each\(([\w.]+)\)")


@functools.lru_cache(maxsize=512)
def translate(sql: str) -> tuple[str, bool] | None:
    """The PostgreSQL form of one statement of the memory layer (``?`` parameters, SQLite
    upserts and functions) and whether it returns the new row's seq; None for statements that
    have no PostgreSQL counterpart (``mem_tri``: the trigram index on ``memories.text`` keeps
    itself current)."""
    if re.match(r"^\s*INSERT\s+INTO\s+mem_tri\b", sql, re.I):
        return None
    s, tail, returning = sql, "", False
    m = _INSERT_OR.match(s)
    if m:
        verb, table, cols = m.group(1).upper(), m.group(2), m.group(3)
        s = "INSERT INTO " + s[m.start(2):]
        if verb == "IGNORE":
            tail = " ON CONFLICT DO NOTHING"
        else:
            pk = PRIMARY_KEYS[table]
            names = [c.strip() for c in (cols or "").split(",")]
            sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in names if c not in pk)
            tail = f" ON CONFLICT ({', '.join(pk)}) DO " + (f"UPDATE SET {sets}" if sets else "NOTHING")
    if _NEW_MEMORY.match(s):
        # SQLite hands out max(rowid)+1; writers hold the write lock, so the same rule is race-free here
        s = _NEW_MEMORY.sub("INSERT INTO memories (seq, id,", s, count=1)
        s = s.replace("VALUES (", "VALUES ((SELECT coalesce(max(seq), 0) + 1 FROM memories), ", 1)
        tail += " RETURNING seq"
        returning = True
    # in an upsert PostgreSQL needs the target table's columns qualified (``df = df + …`` is ambiguous)
    s = s.replace("INTO mem_df (term, df) VALUES (?, ?) ON CONFLICT (term)", "INTO mem_df (term, df) VALUES (?, ?) ON CONFLICT (term_key)")
    target = re.match(r"^\s*INSERT\s+INTO\s+(\w+)", s, re.I)
    if target and "DO UPDATE SET" in s:
        head, _, sets = s.partition("DO UPDATE SET")
        s = head + "DO UPDATE SET" + _UPSERT_SELF.sub(lambda m: f"{m.group(1)} = {target.group(1)}.{m.group(1)}", sets)
    s = _SUM_NULL.sub(r"count(*) FILTER (WHERE \1 IS \2NULL)", s)  # SQLite sums booleans
    s = _SCALAR_MAX.sub(lambda m: ("greatest(" if m.group(1).lower() == "max" else "least(") + m.group(2) + ")", s)
    s = _JSON_EACH.sub(r"json_array_elements_text(\1::json) AS json_each(value)", s)
    s = s.replace("instr(", "strpos(").replace("length(CAST(text AS BLOB))", "octet_length(text)")
    s = s.replace("%", "%%").replace("?", "%s")
    return s + tail, returning


class Result:
    """The part of a ``sqlite3.Cursor`` the memory layer uses."""

    def __init__(self, rows: list, rowcount: int, lastrowid=None):
        self._rows = rows
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    def fetchone(self):
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list:
        return list(self._rows)

    def __iter__(self):
        return iter(self._rows)


def _params(params: Sequence) -> tuple:
    # SQLite stores Python booleans as integers; PostgreSQL would refuse a boolean in an integer column
    return tuple(int(p) if isinstance(p, bool) else p for p in params)


class Connection:
    """A psycopg connection inside a write transaction, speaking the memory layer's dialect."""

    backend = "postgres"

    def __init__(self, conn, store=None):
        self.raw = conn
        self.store = store

    def execute(self, sql: str, params: Sequence = ()) -> Result:
        t = translate(sql)
        if t is None:
            return Result([], 0)
        pg_sql, returning = t
        cur = self.raw.execute(pg_sql, _params(params))
        rows = _rows(cur)
        return Result(rows, cur.rowcount, rows[0][0] if returning and rows else None)

    def executemany(self, sql: str, seq_of_params) -> Result:
        t = translate(sql)
        items = [_params(p) for p in seq_of_params]
        if t is None or not items:
            return Result([], 0)
        with self.raw.cursor() as cur:
            cur.executemany(t[0], items)
            return Result([], cur.rowcount)


def close_all(url: str | None = None) -> None:
    """Close this process's connection to ``url`` (every URL when None): tests, ``migrate``."""
    with _SERVERS_LOCK:
        items = [(u, s) for u, s in _SERVERS.items() if url is None or u == url]
        for u, _ in items:
            _SERVERS.pop(u, None)
    for _, srv in items:
        srv.close()


class Database:
    """The bits of :class:`cavemem.store.sqlite.Database` callers reach for (``store.db``)."""

    def __init__(self, srv: Server):
        self.srv = srv
        self.path = srv.masked
        self.readonly = False

    def execute(self, sql: str, params: Sequence = ()) -> Result:
        m = re.match(r"^\s*PRAGMA\s+busy_timeout\s*=\s*(\d+)\s*$", sql, re.I)
        if m:  # a hook's short lock wait: the server-side equivalent
            return Result(self.srv.run(lambda c: _rows(c.execute(f"SET lock_timeout = {int(m.group(1))}")), lock=None), 0)
        t = translate(sql)
        return Result([] if t is None else self.srv.query(t[0], _params(params)), 0)

    def scrub(self) -> None:
        """SQLite checkpoints its WAL here; the server reclaims deleted rows with (auto)vacuum."""

    def close(self) -> None:
        """The process's connection is shared by both stores; it closes at exit."""
