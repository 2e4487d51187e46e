"""``cavemem doctor`` on a PostgreSQL store (issue 13): the server, its extensions, the schema of
each component, the full-text rows and the indexes recall relies on. Real server; no mocks."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

try:
    import psycopg
except ImportError:  # a plain clone without the [postgres] extra: pg_url skips (or fails in CI) with the reason
    psycopg = None

from cavemem.memory import pg_store
from conftest import cli_argv


def _doctor(env: dict) -> tuple[int, dict, dict]:
    r = subprocess.run(cli_argv() + ["doctor", "--json"], capture_output=True, env={**os.environ, **env}, timeout=120)
    report = json.loads(r.stdout)
    return r.returncode, {c["check"]: c for c in report["checks"]}, json.loads(r.stderr.decode().splitlines()[-1])


@pytest.fixture
def env(pg_url, tmp_path):
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    e = {"CAVEMAN_HOME": str(home), "CAVEMAN_DB_URL": pg_url}
    for args, stdin in ((["remember", "--global", "the team store is on postgres"], b""),
                        (["compress"], json.dumps({"rows": [{"id": i, "port": 9000 + i} for i in range(40)]}).encode())):
        assert subprocess.run(cli_argv() + args, input=stdin, capture_output=True, env={**os.environ, **e}, timeout=120).returncode == 0
    return e


def test_a_healthy_store(env):
    rc, got, _ = _doctor(env)
    for name in ("postgres server", "postgres extensions", "memory store", "recovery store", "search index", "postgres indexes"):
        assert got[name]["status"] == "ok", got[name]
    assert "PostgreSQL 15" in got["postgres server"]["detail"]
    assert set(got["postgres extensions"]["versions"]) == {"vector", "pg_trgm"}
    assert got["search index"]["rows"] == 1 and "mem_text_trgm" in got["postgres indexes"]["indexes"]
    assert got["memory store"]["detail"] == "schema memory/004_scope_index (4 migrations)"
    assert "home" not in {c for c, v in got.items() if v["status"] == "fail"} and rc == 0


def test_a_missing_search_index_fails_unless_a_bulk_load_holds_it(env):
    url = env["CAVEMAN_DB_URL"]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP INDEX mem_text_trgm")
        conn.execute(pg_store.bulk_lock_sql("pg_advisory_lock"), (pg_store.BULK_LOCK,))
        _, got, _ = _doctor(env)
        assert got["postgres indexes"]["status"] == "warn" and "bulk import is running" in got["postgres indexes"]["detail"]
        conn.execute(pg_store.bulk_lock_sql("pg_advisory_unlock"), (pg_store.BULK_LOCK,))
        rc, got, err = _doctor(env)
        assert rc == 1 and err["error"] == "cave_unhealthy" and "postgres indexes" in err["message"]
        assert got["postgres indexes"]["missing"] == ["mem_text_trgm"]


def test_a_newer_schema_and_a_down_server_fail(env, tmp_path):
    with psycopg.connect(env["CAVEMAN_DB_URL"], autocommit=True) as conn:
        conn.execute("INSERT INTO cavemem_migrations (component, name, position) VALUES ('memory', 'memory/999_future', 999)")
    rc, got, _ = _doctor(env)
    assert rc == 1 and got["memory store"]["status"] == "fail" and "memory/999_future" in got["memory store"]["detail"]
    down = {**env, "CAVEMAN_DB_URL": "postgresql://cave:pw-77@127.0.0.1:1/team?connect_timeout=2"}
    rc, got, err = _doctor(down)
    assert rc == 1 and got["postgres server"]["status"] == "fail" and "pw-77" not in json.dumps(got)
    assert "127.0.0.1:1/team" in got["postgres server"]["detail"] and "memory store" not in got
