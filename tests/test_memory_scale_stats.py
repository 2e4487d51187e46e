"""A store that grows past 1,024 memories gets planner statistics, so id lookups filtered by
project use the unique id index instead of walking the project's rows (slow at 100k)."""

import json
import sqlite3

from cavemem import Memory
from cavemem.memory.model import Filter


def _plan(path: str, ids: list[str]) -> tuple[str, int]:
    sql, params = Filter(projects=("p", ""), current_only=True).sql(prefix=" AND ")
    db = sqlite3.connect(path)
    try:
        rows = db.execute(f"EXPLAIN QUERY PLAN SELECT seq, id FROM memories WHERE id IN ({','.join('?' * len(ids))})" + sql,
                          [*ids, *params]).fetchall()
        stats = db.execute("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'memories'").fetchone()[0] \
            if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone() else 0
    finally:
        db.close()
    return " ".join(r[3] for r in rows), stats


def _load(path: str, n: int) -> list[str]:
    with Memory(path, scorers=()) as m:
        rep = m.import_lines(json.dumps({"text": f"note {i} about the build cache", "project": "p"}) for i in range(n))
        assert rep.imported == n
        return [r[0] for r in m.store.read("SELECT id FROM memories ORDER BY seq LIMIT 40")]


def test_big_store_lookups_by_id_use_the_id_index(tmp_path):
    path = str(tmp_path / "mem.db")
    ids = _load(path, 1100)
    plan, stats = _plan(path, ids)
    assert stats > 0
    assert "sqlite_autoindex_memories_1 (id=?)" in plan, plan


def test_small_store_is_not_analyzed(tmp_path):
    path = str(tmp_path / "mem.db")
    ids = _load(path, 300)
    plan, stats = _plan(path, ids)
    assert stats == 0
    assert "mem_project_ts" in plan  # what the statistics change once the store is big
