"""cavemem sessions / review and remember --confidence/--expires/--ttl, recall --include-expired,
through the real CLI (stdout bytes, stderr JSON, exit codes)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import cli_in_process

# every test runs on SQLite and on PostgreSQL (conftest.db_backend)
pytestmark = pytest.mark.usefixtures("db_backend")

DATA = Path(__file__).parent / "data" / "transcripts"


def cli(*args: str, cwd: Path):
    proc = cli_in_process(args, cwd=cwd, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def project(tmp_path, cave_home) -> Path:
    root = tmp_path / "acme-api"
    (root / ".git").mkdir(parents=True)
    for name in ("acme-api-01-setup.jsonl", "acme-api-03-port-change.jsonl"):
        shutil.copy(DATA / name, root / name)
    return root


def _capture(project: Path, *names: str) -> None:
    from cavemem import Memory

    m = Memory(cwd=str(project))
    for name in names:
        m.capture.run(str(project / name), cwd=str(project))
    m.close()


def test_sessions_list_and_show_raw_is_the_transcript_byte_for_byte(project):
    _capture(project, "acme-api-01-setup.jsonl")
    rc, out, err = cli("sessions", "list", "--json", cwd=project)
    assert rc == 0 and err == b""
    [sess] = json.loads(out)["sessions"]
    assert (sess["project"], sess["branch"], sess["messages"]) == ("acme-api", "main", 21)
    rc, out, _ = cli("sessions", "show", sess["session"][:8], "--raw", cwd=project)
    assert rc == 0 and out == (project / "acme-api-01-setup.jsonl").read_bytes()
    rc, out, _ = cli("sessions", "show", sess["session"], cwd=project)
    assert rc == 0 and b"let's go with B, RQ on the existing Redis" in out and b"tool_result" not in out
    rc, out, err = cli("sessions", "show", "nope", cwd=project)
    assert rc != 0 and json.loads(err)["error"] == "cave_memory_not_found"


def test_review_accept_edit_reject_and_undo_of_an_update(project):
    _capture(project, "acme-api-01-setup.jsonl", "acme-api-03-port-change.jsonl")
    rc, out, _ = cli("review", "--json", cwd=project)
    pending = json.loads(out)["pending"]
    assert rc == 0 and pending and all(0 < p["confidence"] < 1 for p in pending)
    assert pending[0]["created_at"] >= pending[-1]["created_at"] and all(p.get("source") for p in pending)
    by_text = {p["text"]: p for p in pending}
    port = by_text["The API server now runs on port 8081."]
    ruff = by_text["Please always run ruff format before committing."]
    assert cli("review", "accept", ruff["id"], cwd=project)[:2] == (0, f"accepted {ruff['id']}\n".encode())
    rc, out, _ = cli("review", "edit", by_text["We upgraded to Python 3.13 last week."]["id"], "We", "are", "on", "Python", "3.13.1.", "--json", cwd=project)
    edited = json.loads(out)
    assert rc == 0 and edited["confidence"] == 1.0
    rc, out, _ = cli("review", "reject", port["id"], cwd=project)
    assert rc == 0 and b"is current again" in out
    left = {p["id"] for p in json.loads(cli("review", "--json", cwd=project)[1])["pending"]}
    assert ruff["id"] not in left and port["id"] not in left and edited["id"] not in left
    rc, out, _ = cli("recall", "which port does the api server run on", "--json", cwd=project)
    texts = [h["text"] for h in json.loads(out)["hits"]]
    assert "The API server runs on port 8000 locally." in texts and "The API server now runs on port 8081." not in texts


def test_expired_memories_leave_recall_and_confidence_is_checked(project):
    assert cli("remember", "the staging database is db-stage.acme.internal", "--expires", "2020-01-01", cwd=project)[0] == 0
    assert cli("remember", "the build cache lives in /var/cache/acme-build", "--ttl", "30d", cwd=project)[0] == 0
    rc, out, _ = cli("recall", "staging database host", "--json", cwd=project)
    assert rc == 0 and json.loads(out)["hits"] == []
    rc, out, _ = cli("recall", "staging database host", "--include-expired", "--json", cwd=project)
    assert [h["text"] for h in json.loads(out)["hits"]] == ["the staging database is db-stage.acme.internal"]
    rc, out, _ = cli("recall", "build cache", "--json", cwd=project)
    assert [h["text"] for h in json.loads(out)["hits"]] == ["the build cache lives in /var/cache/acme-build"]
    for bad in (("--confidence", "2"), ("--confidence", "x"), ("--ttl", "soon"), ("--ttl", "1d", "--expires", "2030-01-01")):
        rc, out, err = cli("remember", "x y z", *bad, cwd=project)
        assert rc != 0 and out == b"" and json.loads(err)["error"] == "cave_invalid_arguments", bad


def test_low_confidence_ranks_below_an_equal_confirmed_memory(project):
    cli("remember", "the orders service uses port 7001", "--confidence", "0.1", cwd=project)
    cli("remember", "the orders service uses port 7002", cwd=project)
    rc, out, _ = cli("recall", "orders service port", "--json", cwd=project)
    hits = json.loads(out)["hits"]
    assert [h["text"][-4:] for h in hits] == ["7002", "7001"]


def test_recall_sessions_lists_the_exact_archived_message_after_the_hits(project):
    _capture(project, "acme-api-01-setup.jsonl")
    rc, out, _ = cli("recall", "Celery RabbitMQ cron job options", "--sessions", "--json", cwd=project)
    res = json.loads(out)
    [first, *_] = res["session_hits"]
    assert rc == 0 and first["basis"] == "session" and "A) Celery with RabbitMQ" in first["text"]
    line = [json.loads(x) for x in (project / "acme-api-01-setup.jsonl").read_text().splitlines() if first["uuid"] in x][0]
    assert line["uuid"] == first["uuid"] and line["message"]["content"] == first["text"]
    rc, out, _ = cli("recall", "kubernetes helm chart ingress", "--sessions", "--json", cwd=project)
    assert json.loads(out)["hits"] == [] and json.loads(out)["session_hits"] == []
    rc, out, _ = cli("recall", "Celery RabbitMQ cron job options", "--sessions", cwd=project)
    assert f"message {first['uuid']}".encode() in out
