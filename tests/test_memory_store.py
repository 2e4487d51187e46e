"""The store under stress: concurrent writers, locked and damaged files, schema versions."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cavemem import Memory
from cavemem.errors import CaveError
from cavemem.memory.store import open_memory_store

from conftest import cli_argv, cli_in_process

# every test runs on SQLite and on PostgreSQL (conftest.db_backend)
pytestmark = pytest.mark.usefixtures("db_backend")


def _run(args, cwd, input=b"", timeout=120):
    return cli_in_process(args, input=input, cwd=cwd, timeout=timeout)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_eight_processes_remembering_at_once_lose_nothing(tmp_path, cave_home):
    procs = [
        subprocess.Popen(cli_argv() + ["remember", "--global", "--json", f"fact number {i}: service {i} listens on port {9000 + i}"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=dict(os.environ))
        for i in range(8)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [o[1] for o in outs]
    ids = {json.loads(o[0])["id"] for o in outs}
    assert len(ids) == 8
    m = Memory(cwd=str(tmp_path))
    assert m.count() == 8
    assert {r.id for r in m.list(limit=0)} == ids


def test_threads_sharing_one_memory_lose_nothing(tmp_path):
    m = Memory(cwd=str(tmp_path))
    errors = []

    def work(i):
        try:
            m.remember(f"thread {i} remembers its own distinct fact {i * 31}")
        except Exception as exc:  # pragma: no cover - the assertion below reports it
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and m.count() == 32


def _hold_lock(db: Path, seconds: float) -> subprocess.Popen:
    code = (
        "import sqlite3, sys, time\n"
        f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
        "c.execute('BEGIN EXCLUSIVE')\n"
        "print('locked', flush=True)\n"
        f"time.sleep({seconds})\n"
        "c.execute('COMMIT')\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    assert p.stdout.readline().strip() == b"locked"
    return p


@pytest.mark.sqlite_only
def test_a_short_lock_is_waited_out(tmp_path, cave_home):
    Memory(cwd=str(tmp_path)).remember("written before the lock")
    holder = _hold_lock(cave_home / "mem.db", 1.0)
    try:
        r = _run(["remember", "--global", "written while locked"], tmp_path)
    finally:
        holder.wait(timeout=30)
    assert r.returncode == 0, r.stderr
    assert Memory(cwd=str(tmp_path)).count() == 2


@pytest.mark.sqlite_only
def test_a_long_lock_fails_clearly_and_reads_still_work(tmp_path, cave_home):
    Memory(cwd=str(tmp_path)).remember("the release train leaves on thursdays")
    holder = _hold_lock(cave_home / "mem.db", 14.0)
    try:
        t0 = time.monotonic()
        r = _run(["remember", "--global", "blocked by the lock"], tmp_path, timeout=60)
        waited = time.monotonic() - t0
        assert r.returncode == 75, r.stderr
        err = json.loads(r.stderr.decode().strip().splitlines()[-1])
        assert err["error"] == "cave_store_locked" and "locked by another process" in err["message"]
        assert waited < 13
        # a writer holding the lock does not stop recall (WAL readers never wait)
        got = _run(["recall", "--json", "--all", "release train thursdays"], tmp_path)
        assert got.returncode == 0 and len(json.loads(got.stdout)["hits"]) == 1
    finally:
        holder.kill()
        holder.wait()
    m = Memory(cwd=str(tmp_path))
    assert [r.text for r in m.list()] == ["the release train leaves on thursdays"]
    assert _run(["remember", "--global", "after the lock"], tmp_path).returncode == 0


@pytest.mark.sqlite_only
@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_store_gives_a_clear_error_and_is_left_untouched(tmp_path, cave_home, damage):
    db = cave_home / "mem.db"
    if damage == "garbage":
        db.write_bytes(b"this is not a sqlite database at all\n" * 200)
    else:
        m = Memory(cwd=str(tmp_path))
        for i in range(300):
            m.remember(f"memory {i} with enough words to fill several database pages {i * 17}")
        m.close()
        con = sqlite3.connect(db)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        data = db.read_bytes()
        db.write_bytes(data[: len(data) // 2] + b"\x00" * 512 + data[len(data) // 2 + 512 :])
    os.chmod(db, 0o600)
    before = _sha(db)
    for args in (["remember", "--global", "new fact"], ["recall", "--all", "memory words"], ["list", "--all"]):
        r = _run(args, tmp_path)
        if damage == "truncated" and r.returncode == 0:
            continue  # the damaged pages may not be on this command's path
        assert r.returncode == 1, (args, r)
        err = json.loads(r.stderr.decode().strip().splitlines()[-1])
        assert err["error"] == "cave_store_unavailable" and str(db) in err["message"]
    if damage == "garbage":
        assert "damaged" in err["message"] and "nothing was changed" in err["message"]
    assert _sha(db) == before


@pytest.mark.sqlite_only
def test_a_newer_schema_is_refused(tmp_path, cave_home):
    Memory(cwd=str(tmp_path)).remember("fine")
    con = sqlite3.connect(cave_home / "mem.db")
    con.execute("PRAGMA user_version = 99")
    con.close()
    with pytest.raises(CaveError) as err:
        Memory(cwd=str(tmp_path))
    assert err.value.code == "cave_store_unavailable" and "newer than this cavemem" in err.value.message


@pytest.mark.sqlite_only
def test_store_files_are_private(tmp_path, cave_home):
    Memory(cwd=str(tmp_path)).remember("private by default")
    for name in ("mem.db", "mem.db-wal"):
        path = cave_home / name
        if path.exists():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.sqlite_only
def test_upgrade_from_an_early_v1_store(tmp_path):
    """A store written before the df table and the scope column opens and works."""
    from cavemem.memory import store as store_mod

    from cavemem.store import sqlite as sqlite_store

    path = tmp_path / "old.db"

    def v1_fts_without_scope(conn):
        store_mod._migrate_v1(conn)
        conn.execute("DROP TABLE mem_vocab")
        conn.execute("DROP TABLE mem_fts")
        conn.execute("DROP TABLE mem_df")
        conn.execute("CREATE VIRTUAL TABLE mem_fts USING fts5(body, tokenize = 'ascii')")
        conn.execute("CREATE VIRTUAL TABLE mem_vocab USING fts5vocab(mem_fts, row)")
        conn.execute("INSERT INTO memories (id, text, project, created_at, ts, valid_from, ntok) "
                     "VALUES ('mem_x', 'legacy runbook about rotating certificates', '', '2025-01-01T00:00:00Z', 0, "
                     "'2025-01-01T00:00:00Z', 4)")
        conn.execute("INSERT INTO mem_fts (rowid, body) VALUES (1, 'legaci runbook rotat certif')")
        conn.execute("UPDATE mem_corpus SET docs = 1, tokens = 4")

    db = sqlite_store.open_database(str(path), [v1_fts_without_scope])
    db.close()
    s = open_memory_store(str(path))
    assert s.read("PRAGMA user_version")[0][0] == len(store_mod.MIGRATIONS)
    assert s.doc_freqs(["runbook"]) == {"runbook": 1}
    m = Memory(str(path), cwd=str(tmp_path))
    assert [h["id"] for h in m.recall("rotating certificates runbook")["hits"]] == ["mem_x"]


def test_history_walks_both_ways_and_refuses_broken_or_cyclic_links(tmp_path, db_backend):
    m = Memory(db_backend or str(tmp_path / "m.db"), cwd=str(tmp_path))
    a = m.remember("the build cache lives in /var/cache/build on every runner")
    b = m.supersede(a.id, "the build cache lives in /srv/cache/build on every runner")
    c = m.supersede(b.id, "the build cache lives in /srv/cache/ci on every runner")
    assert [r.id for r in m.history(b.id)] == [a.id, b.id, c.id]

    def relink(column: str, value: str, mem_id: str) -> None:
        m.store.write(lambda conn: conn.execute(f"UPDATE memories SET {column} = ? WHERE id = ?", (value, mem_id)))

    relink("superseded_by", a.id, c.id)  # c -> a closes a loop
    with pytest.raises(CaveError) as err:
        m.history(b.id)
    assert err.value.code == "cave_memory_conflict" and err.value.message == f"cyclic supersession history at {a.id}"
    relink("superseded_by", None, c.id)
    relink("supersedes", "mem_gone", a.id)
    with pytest.raises(CaveError) as err:
        m.history(c.id)
    assert err.value.message == f"broken supersession history at {a.id}: mem_gone is missing"
    m.close()
