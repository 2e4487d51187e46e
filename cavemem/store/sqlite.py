"""The one place that opens SQLite (spec engine-core §5.2, §5.7).

Every database cavemem keeps goes through :func:`open_database`: the parent directory must not
be writable by others (unless sticky), the file must be a regular file (no symlinks), file and
WAL/SHM sidecars are 0600, WAL with a busy timeout, and schema migrations run under
retry-on-busy. Failures become :class:`~cavemem.errors.StoreUnavailable` with a clear message.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import _thread  # threading's own locks, without importing threading (start-up)
import time
from collections.abc import Callable, Sequence

from ..errors import CaveError, StoreUnavailable

BUSY_TIMEOUT_MS = 5000
MEMORY = ":memory:"

# A migration is a list of SQL statements, or a callable taking the connection.
Migration = Sequence[str] | Callable[[sqlite3.Connection], None]


class Database:
    """One serialized SQLite connection (autocommit) plus a lock for multi-statement work."""

    def __init__(self, conn: sqlite3.Connection, path: str, readonly: bool = False):
        self.conn = conn
        self.path = path
        self.readonly = readonly
        self.lock = _thread.RLock()

    def _conn(self) -> sqlite3.Connection:
        if self.conn is None:
            raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
        return self.conn

    def execute(self, sql: str, params: Sequence = ()) -> sqlite3.Cursor:
        with self.lock:
            try:
                return self._conn().execute(sql, params)
            except UnicodeEncodeError as exc:
                raise not_utf8(exc) from None

    def transaction(self, immediate: bool = True) -> "_Tx":
        return _Tx(self, immediate)

    def scrub(self) -> None:
        """After deletes: move every page back into the main file and truncate the WAL, so
        deleted text (already zeroed by ``secure_delete``) is not left in the WAL. Best effort:
        a reader holding the WAL open only delays it."""
        if self.path == MEMORY or self.readonly:
            return
        try:
            with self.lock:
                self._conn().execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error:
            pass

    def close(self) -> None:
        with self.lock:
            if self.conn is None:
                return
            self.conn.close()
            self.conn = None
        if self.path != MEMORY:
            with _OPEN_LOCK:
                left = _OPEN_IN_PROCESS.get(self.path, 0) - 1
                if left > 0:
                    _OPEN_IN_PROCESS[self.path] = left
                else:
                    _OPEN_IN_PROCESS.pop(self.path, None)


class _Tx:
    """``with db.transaction():`` — BEGIN IMMEDIATE … COMMIT (ROLLBACK on error)."""

    def __init__(self, db: Database, immediate: bool):
        self.db = db
        self.immediate = immediate

    def __enter__(self) -> sqlite3.Connection:
        self.db.lock.acquire()
        try:
            conn = self.db._conn()
            conn.execute("BEGIN IMMEDIATE" if self.immediate else "BEGIN")
        except BaseException:
            self.db.lock.release()
            raise
        return conn

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None:
                self.db.conn.execute("COMMIT")
            else:
                try:
                    self.db.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
        finally:
            self.db.lock.release()


def _check_parent(path: str) -> str:
    """Return the canonical path (resolved parent + base name) after the parent checks."""
    parent = os.path.dirname(os.path.abspath(path)) or "."
    try:
        resolved = os.path.realpath(parent, strict=True)
    except (OSError, TypeError) as exc:
        raise StoreUnavailable(f"resolve sqlite parent {parent!r}: {getattr(exc, 'strerror', None) or exc}") from exc
    try:
        st = os.stat(resolved)
    except OSError as exc:
        raise StoreUnavailable(f"inspect sqlite parent {resolved!r}: {exc.strerror or exc}") from exc
    if not stat.S_ISDIR(st.st_mode):
        raise StoreUnavailable(f'sqlite parent "{resolved}" must be a directory')
    if st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX:
        raise StoreUnavailable(f'sqlite parent "{resolved}" is group/world writable')
    return os.path.join(resolved, os.path.basename(path))


def _secure_file(path: str, create: bool, label: str, chmod: bool = True) -> None:
    """Create (0600, exclusive) or verify a regular non-symlink file and chmod it 0600."""
    if create:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            os.close(fd)
            return
        except FileExistsError:
            pass  # raced with another process: verify it like any existing file
        except OSError as exc:
            raise StoreUnavailable(f'secure sqlite "{path}": {exc.strerror or exc}') from exc
    try:
        lst = os.lstat(path)
    except FileNotFoundError:
        if label == "sidecar":
            return  # a sidecar that vanished is fine
        raise StoreUnavailable(f'secure sqlite "{path}": file disappeared')
    except OSError as exc:
        raise StoreUnavailable(f'secure sqlite {label} "{path}": {exc.strerror or exc}') from exc
    if not stat.S_ISREG(lst.st_mode):
        raise StoreUnavailable(f'secure sqlite {label} "{path}": refusing non-regular file')
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        if label == "sidecar":
            return
        raise StoreUnavailable(f'secure sqlite "{path}": file disappeared')
    except OSError as exc:
        raise StoreUnavailable(f'secure sqlite {label} "{path}": {exc.strerror or exc}') from exc
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != (lst.st_dev, lst.st_ino):
            raise StoreUnavailable(f'secure sqlite {label} "{path}": file changed while opening')
        _check_ours(fd, st, path, label)  # before anything is changed: never touch a stranger's file
        if chmod and stat.S_IMODE(st.st_mode) != 0o600:
            os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


_HEADER = b"SQLite format 3\x00"


def _check_ours(fd: int, st: os.stat_result, path: str, label: str) -> None:
    """Refuse a hard-linked file or a main file that is neither empty nor SQLite (issue 15
    item 5: a mistyped ``CAVEMAN_CCR_DB`` must not chmod a system file)."""
    if st.st_nlink > 1:
        raise StoreUnavailable(f'secure sqlite {label} "{path}": refusing a file with {st.st_nlink} hard links')
    if label != "file" or st.st_size == 0:
        return
    head = os.pread(fd, len(_HEADER), 0)
    if head != _HEADER:
        raise StoreUnavailable(f'sqlite "{path}": file is not a database (no SQLite header); refusing to open or change it')


# Canonical paths this process has an open SQLite connection to. POSIX record locks belong to
# the process and are all released when *any* descriptor of the file is closed, so once SQLite
# holds a file we must never open/close another descriptor on it (doing so drops SQLite's WAL
# locks and lets another process truncate the shared-memory file under us: SIGBUS).
_OPEN_IN_PROCESS: dict[str, int] = {}
_OPEN_LOCK = _thread.allocate_lock()


def _chmod_private(path: str, label: str) -> None:
    """Descriptor-free variant for files SQLite already holds: lstat, refuse non-regular, chmod."""
    try:
        lst = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreUnavailable(f'secure sqlite {label} "{path}": {exc.strerror or exc}') from exc
    if not stat.S_ISREG(lst.st_mode):
        raise StoreUnavailable(f'secure sqlite {label} "{path}": refusing non-regular file')
    if stat.S_IMODE(lst.st_mode) != 0o600:
        try:
            os.chmod(path, 0o600)
        except OSError as exc:
            raise StoreUnavailable(f'secure sqlite {label} "{path}": {exc.strerror or exc}') from exc


def _secure_all(canonical: str, held: bool) -> None:
    """Check/create the database and its sidecars; ``held`` = SQLite already has them open here."""
    if held:
        _chmod_private(canonical, "file")
    else:
        _secure_file(canonical, create=not os.path.lexists(canonical), label="file")
    for suffix in ("-wal", "-shm"):
        side = canonical + suffix
        if os.path.lexists(side):
            if held:
                _chmod_private(side, "sidecar")
            else:
                _secure_file(side, create=False, label="sidecar")


def not_utf8(exc: UnicodeEncodeError) -> CaveError:
    """A value SQLite cannot take: text with lone surrogates (e.g. non-UTF-8 bytes in argv,
    which Python keeps as surrogate escapes). A clear input error instead of a traceback."""
    bad = exc.object[exc.start : exc.end] if isinstance(exc.object, str) else ""
    shown = "".join(f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF else f"\\u{ord(c):04x}" for c in bad)
    return CaveError("cave_invalid_input", f"text is not valid UTF-8 (found {shown or 'a lone surrogate'})")


def is_busy(exc: BaseException) -> bool:
    text = str(exc)
    return "database is locked" in text or "SQLITE_BUSY" in text


def retry_on_busy(fn: Callable[[], object], budget_s: float = 5.0, max_attempts: int = 40, sleep=time.sleep, clock=time.monotonic):
    """Run ``fn`` until it stops failing with "database is locked" (spec §5.7)."""
    deadline = clock() + budget_s
    attempt = 0
    while True:
        try:
            return fn()
        except UnicodeEncodeError as exc:
            raise not_utf8(exc) from None
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            attempt += 1
            left = deadline - clock()
            if attempt >= max_attempts or left <= 0:
                raise
            sleep(min(0.025 * attempt, left))
            if clock() >= deadline:
                raise


def _migrate(conn: sqlite3.Connection, migrations: Sequence[Migration]) -> None:
    """Apply migrations past ``PRAGMA user_version`` in one write transaction each."""

    def step() -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > len(migrations):
            raise StoreUnavailable(
                f"database schema version {version} is newer than this cavemem ({len(migrations)}); upgrade cavemem"
            )
        if version == len(migrations):
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            for i in range(version, len(migrations)):
                mig = migrations[i]
                if callable(mig):
                    mig(conn)
                else:
                    for sql in mig:
                        conn.execute(sql)
                conn.execute(f"PRAGMA user_version = {i + 1}")
            conn.execute("COMMIT")
        except BaseException:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise

    retry_on_busy(step)


def open_database(path: str, migrations: Sequence[Migration], *, synchronous: str = "FULL") -> Database:
    """Open (creating if needed) the database at ``path`` with cavemem's safety rules.

    ``path`` may be ``":memory:"`` for an ephemeral database (tests, evals)."""
    if not path or not path.strip():
        raise StoreUnavailable("ccr sqlite path is required")
    readonly = False
    if path == MEMORY:
        canonical = MEMORY
    else:
        canonical = _check_parent(path)
        with _OPEN_LOCK:
            held = _OPEN_IN_PROCESS.get(canonical, 0) > 0
        readonly = _read_only(canonical)
        if readonly:
            _secure_file(canonical, create=False, label="file", chmod=False)
        else:
            _secure_all(canonical, held)
    try:
        conn = _connect(canonical, readonly)
    except sqlite3.Error as exc:
        raise StoreUnavailable(f"open sqlite {canonical!r}: {exc}") from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if canonical != MEMORY and not readonly:
            retry_on_busy(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA secure_delete = ON")  # deleted (forgotten) text is zeroed, not left in free pages
        if readonly:
            _check_version(conn, len(migrations))
        else:
            _migrate(conn, migrations)
    except StoreUnavailable:
        conn.close()
        raise
    except sqlite3.Error as exc:
        conn.close()
        raise StoreUnavailable(f"{'read' if readonly else 'migrate'} sqlite {canonical!r}: {exc}") from exc
    if canonical != MEMORY:
        with _OPEN_LOCK:
            _OPEN_IN_PROCESS[canonical] = _OPEN_IN_PROCESS.get(canonical, 0) + 1
        try:
            if not readonly:
                _secure_all(canonical, held=True)  # sidecars SQLite just created inherit 0600; verify
        except StoreUnavailable:
            Database(conn, canonical).close()
            raise
    return Database(conn, canonical, readonly)


def _read_only(canonical: str) -> bool:
    """An existing store we cannot write (read-only mount, or no write permission on the file or
    its directory) is opened read-only, so reads still work (issue 15 item 11)."""
    if not os.path.lexists(canonical):
        return False
    parent = os.path.dirname(canonical)
    return not os.access(canonical, os.W_OK) or not os.access(parent, os.W_OK | os.X_OK)


def _connect(canonical: str, readonly: bool) -> sqlite3.Connection:
    timeout = BUSY_TIMEOUT_MS / 1000
    if not readonly:
        return sqlite3.connect(canonical, timeout=timeout, isolation_level=None, check_same_thread=False)
    from urllib.parse import quote

    uri = "file:" + quote(canonical) + "?mode=ro"
    if not os.access(os.path.dirname(canonical), os.W_OK) and not os.path.exists(canonical + "-shm"):
        uri += "&immutable=1"  # no -shm can be created here: nobody can be writing either
    return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None, check_same_thread=False)


def _check_version(conn: sqlite3.Connection, known: int) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > known:
        raise StoreUnavailable(f"database schema version {version} is newer than this cavemem ({known}); upgrade cavemem")
