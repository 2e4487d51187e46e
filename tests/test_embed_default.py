"""Semantic recall in a plain install, through the CLI in a fresh CAVEMAN_HOME: the README's
example is found by meaning, its off-topic twin finds nothing, and vectors follow remember,
supersede, forget and import without `remember` or `import` ever loading the model."""

from __future__ import annotations

import json
import os

import pytest

from cavemem.embed import sidecar_dir
from cavemem.embed.vectors import VectorIndex


@pytest.fixture(autouse=True)
def _plain_install(semantic_default):
    """CAVEMAN_EMBED unset, as after `pip install cavemem`."""


def recall(run_cli, query: str, *extra: str, env: dict | None = None) -> list[dict]:
    r = run_cli("cavemem", "recall", "--json", *extra, query, env=env)
    assert r.rc == 0, r.stderr
    return r.json["hits"]


def vectors(cave_home) -> set[str]:
    index = VectorIndex(sidecar_dir(str(cave_home / "mem.db")))
    return set(index.ids()) if index.exists() else set()


def test_readme_example_is_found_by_meaning_and_coffee_is_refused(run_cli, tmp_path):
    r = run_cli("cavemem", "remember", "--kind", "decision", "--tag", "db", "we use PostgreSQL 16 in production", cwd=tmp_path)
    assert r.rc == 0, r.stderr
    out = run_cli("cavemem", "recall", "which database do we run", cwd=tmp_path)
    assert out.rc == 0
    assert out.stdout.decode().splitlines()[-1] == "    we use PostgreSQL 16 in production"
    assert [h["text"] for h in recall(run_cli, "which database do we run")] == ["we use PostgreSQL 16 in production"]
    off = run_cli("cavemem", "recall", "what coffee do I drink", cwd=tmp_path)
    assert off.rc == 0 and off.stdout == b"no relevant memories (nothing recalled)\n"
    assert recall(run_cli, "what coffee do I drink") == []
    # with semantic recall switched off this is the lexical miss
    assert recall(run_cli, "which database do we run", env={"CAVEMAN_EMBED": "0"}) == []


def test_vectors_follow_remember_supersede_forget(run_cli, cave_home):
    first = run_cli("cavemem", "remember", "--global", "--json", "the nightly backup job runs at 02:00 UTC on db-3").json["id"]
    assert vectors(cave_home) == set()  # remember embeds nothing…
    assert recall(run_cli, "when do backups happen", "--all")[0]["id"] == first
    assert vectors(cave_home) == {first}  # …the next recall embeds what is pending
    newer = run_cli("cavemem", "supersede", "--json", first, "the nightly backup job runs at 03:30 UTC on db-4").json["id"]
    hits = recall(run_cli, "when do backups happen", "--all")
    assert [h["id"] for h in hits] == [newer]  # the superseded version is not served
    assert newer in vectors(cave_home)
    forgot = run_cli("cavemem", "forget", "--json", newer)
    assert forgot.rc == 0, forgot.stderr
    assert newer not in vectors(cave_home)  # dropped at once, before any recall
    assert all(h["id"] != newer for h in recall(run_cli, "when do backups happen", "--all"))


def test_import_defers_embedding_and_the_next_recall_catches_up(run_cli, cave_home, tmp_path):
    lines = [json.dumps({"text": "the on-call rotation changes every Monday at 9am", "project": ""}),
             json.dumps({"text": "our CDN is Fastly; purge with the fastly CLI after a deploy", "project": ""})]
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n")
    r = run_cli("cavemem", "import", str(src))
    assert r.rc == 0, r.stderr
    assert vectors(cave_home) == set()
    hits = recall(run_cli, "when does the pager schedule switch over?", "--all")
    assert hits and "Monday" in hits[0]["text"]
    assert len(vectors(cave_home)) == 2
    status = json.loads(run_cli("cavemem", "embed", "status", "--json").stdout)
    assert status["enabled"] and status["vectors"] == status["memories"] == 2


HEAVY = ("numpy", "onnxruntime", "tokenizers")


def imported_heavy(*args: str, stdin: bytes = b"", cwd=None) -> set[str]:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "cavemem", *args], input=stdin,
                          capture_output=True, timeout=120, cwd=cwd)
    assert proc.returncode == 0, proc.stderr[-800:]
    names = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines() if line.startswith("import time:")}
    return {n.split(".")[0] for n in names} & set(HEAVY)


def test_hot_commands_never_load_the_model_while_semantic_recall_is_on(run_cli, tmp_path):
    assert os.environ.get("CAVEMAN_EMBED") is None
    assert recall(run_cli, "anything at all", "--all") == []  # creates the store and its sidecar
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"text": "imported while semantic recall is on", "project": ""}) + "\n")
    log = b"2024-01-01 INFO started\n" * 50
    assert imported_heavy("remember", "--global", "the deploy key lives in vault") == set()
    assert imported_heavy("import", str(src)) == set()
    assert imported_heavy("compress", stdin=log) == set()
    assert imported_heavy("detect", stdin=log) == set()
    handle = run_cli("cavemem", "compress", input=log).report["recovery_handle"]
    assert imported_heavy("retrieve", handle) == set()
    payload = json.dumps({"cwd": str(tmp_path), "prompt": "where is the deploy key?"}).encode()
    assert imported_heavy("hook", "claude-code", "user-prompt", stdin=payload) == set()  # hooks rank lexically
    assert imported_heavy("recall", "--all", "where is the deploy key?") == {"numpy", "onnxruntime"}
