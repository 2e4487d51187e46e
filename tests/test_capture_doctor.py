"""cavemem doctor through the real CLI: exit 0 when healthy, cave_unhealthy (exit 1) with the failing
check named when a file is world-readable, the FTS index lost rows or the schema is from the future;
warnings (stale spool, LLM failure, hooks missing, capture off) do not fail the run."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

import pytest

from conftest import cli_in_process


def cli(*args: str, cwd: Path, env: dict | None = None):
    # HOME too: doctor also reads ~/.claude/settings.json, which must not be the developer's
    proc = cli_in_process(args, cwd=cwd, timeout=120, env=dict(os.environ, HOME=str(cwd.parent), **(env or {})))
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def checks(cwd: Path, env: dict | None = None) -> tuple[int, dict, dict]:
    rc, out, err = cli("doctor", "--json", cwd=cwd, env=env)
    return rc, {c["check"]: c for c in json.loads(out)["checks"]}, json.loads(err.strip().splitlines()[-1])


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    rc, _, err = cli("remember", "The API server runs on port 8000.", cwd=root)
    assert rc == 0, err
    return root


def test_a_healthy_store_with_hooks_installed_exits_0(project, cave_home):
    rc, _, err = cli("hook", "install", "--write", cwd=project)
    assert rc == 0, err
    rc, out, err = cli("doctor", cwd=project)
    assert rc == 0 and json.loads(err) == {"healthy": True, "checks": 10, "warnings": 1}  # ccr.db not created yet
    lines = out.splitlines()
    assert lines[0] == f"ok    home                     {cave_home} (0700)"
    assert f"ok    memory store             {cave_home}/mem.db (schema v4)" in lines
    assert "ok    search index             1 memory versions, all indexed" in lines
    assert any(line.startswith("ok    hooks                    all 5 events installed") for line in lines)


def test_a_world_readable_store_fails_with_the_fix(project, cave_home):
    os.chmod(cave_home / "mem.db", 0o644)
    rc, got, err = checks(project)
    assert rc == 1 and err["error"] == "cave_unhealthy" and "memory store permissions" in err["message"]
    assert got["memory store permissions"]["detail"] == f"{cave_home}/mem.db is 644, want 600 (chmod 600 {cave_home}/mem.db)"


def test_fts_rows_missing_and_a_newer_schema_fail(project, cave_home):
    conn = sqlite3.connect(cave_home / "mem.db")
    conn.execute("DELETE FROM mem_fts")
    conn.commit()
    conn.close()
    rc, got, _ = checks(project)
    assert rc == 1 and got["search index"]["status"] == "fail" and got["search index"]["missing"] == 1
    conn = sqlite3.connect(cave_home / "mem.db")
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    rc, got, _ = checks(project)
    assert rc == 1 and "schema v99 is newer than this cavemem" in got["memory store"]["detail"]


def test_warnings_say_what_is_wrong_without_failing(project, cave_home):
    (cave_home / "llm-status.json").write_text(json.dumps({"at": "2026-12-01T10:00:00Z", "ok": False,
                                                           "error": "HTTP 503 from endpoint", "failures": 3}))
    spool = cave_home / "spool"
    spool.mkdir(mode=0o700)
    stale = spool / "00000000000000000001-1.json"
    stale.write_text("{}")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    env = {"CAVEMAN_LLM_URL": "http://127.0.0.1:9/v1", "CAVEMAN_LLM_MODEL": "m", "CAVEMAN_CAPTURE": "0"}
    rc, got, err = checks(project, env)
    assert rc == 0 and err["healthy"] is True
    assert got["llm extraction"]["status"] == "warn" and "HTTP 503 from endpoint" in got["llm extraction"]["detail"]
    assert got["spool"]["status"] == "warn" and got["spool"]["pending"] == 1 and got["spool"]["oldest_seconds"] >= 3600
    assert got["capture"]["enabled"] is False and got["hooks"]["status"] == "warn"
