"""``cavemem migrate`` copies the vector indexes too (issue 13): the static table's vectors go
SQLite sidecar → pgvector → sidecar unchanged (sha256 of every float32 vector), the target needs
no re-embedding, and semantic recall after the round trip ranks as on the source. Real server; no mocks."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import datetime, timezone

import pytest

from cavemem import Memory
from cavemem.embed import migrate as mig
from conftest import cli_in_process

pytest.importorskip("numpy")


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    """A cache dir of this test's own: the embed scorer's gate-probe cache is keyed by MiniLM's
    model id even for the static scorer, so static probes left there break a later MiniLM recall
    (reported; embed/scorer.py is not this test's to change)."""
    monkeypatch.setenv("CAVEMAN_CACHE_DIR", str(tmp_path / "cache"))

FACTS = ["the billing service keeps invoices in postgres", "our kubernetes cluster autoscales the api pods",
         "release notes are written by the on-call engineer", "the frontend is built with vite and react",
         "backups of the ledger database run nightly at two", "a flaky login test was fixed by waiting for the cookie"]


def _cli(*args: str, env: dict) -> subprocess.CompletedProcess:
    return cli_in_process(args, env={**os.environ, **env}, timeout=180)


def _static(location: str, tmp_path) -> Memory:
    path = location if location.startswith("postgresql") else os.path.join(location, "mem.db")
    return Memory(path, cwd=str(tmp_path), scorers=["static"], clock=lambda: datetime(2024, 6, 1, tzinfo=timezone.utc))


def _ranked(m: Memory, query: str) -> list:
    return [(h["id"], round(h["score"], 9)) for h in m.recall(query, project="shop", now="2024-06-01T00:00:00Z")["hits"]]


def test_vectors_round_trip_both_ways(pg_url, tmp_path):
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    src = _static(str(home), tmp_path)
    for i, fact in enumerate(FACTS):
        src.remember(fact, project="shop", session="s1", at=f"2024-05-{i + 1:02d}T10:00:00Z")
    assert [s.sync() for s in src.scorers if hasattr(s, "sync")] == [{"removed": 0, "added": len(FACTS), "pending": 0}]
    (_, before_idx), = mig.source_vectors(str(home))
    before = mig.vector_digests(before_idx)
    assert len(before) == len(FACTS)

    env = {"CAVEMAN_HOME": str(home), "CAVEMAN_DB_URL": ""}
    up = _cli("migrate", "--from", str(home), "--to", pg_url, "--json", env=env)
    assert up.returncode == 0, up.stderr
    rep = json.loads(up.stdout)
    model = before_idx.model
    assert rep["copied"]["vectors"] == {model: len(FACTS)} and rep["verified"]["vectors"] == {model: len(FACTS)}
    assert rep["source"]["vectors"][model]["rows"] == len(FACTS)
    text = _cli("migrate", "--from", str(home), "--to", pg_url, env=env)
    assert text.returncode == 0 and f", 0 {model} vectors;".encode() in text.stdout  # resumable: nothing twice

    (_, pg_idx), = mig.source_vectors(pg_url)
    assert mig.vector_digests(pg_idx) == before
    on_pg = _static(pg_url, tmp_path)
    assert [s.sync() for s in on_pg.scorers if hasattr(s, "sync")] == [{"removed": 0, "added": 0, "pending": 0}]
    assert on_pg.recall("where are invoices stored", project="shop")["hits"][0]["text"] == FACTS[0]

    back = tmp_path / "back"
    down = _cli("migrate", "--from", pg_url, "--to", str(back), "--json", env=env)
    assert down.returncode == 0, down.stderr
    (_, back_idx), = mig.source_vectors(str(back))
    assert mig.vector_digests(back_idx) == before
    again = _static(str(back), tmp_path)
    assert [s.sync() for s in again.scorers if hasattr(s, "sync")] == [{"removed": 0, "added": 0, "pending": 0}]
    for q in ("where are invoices stored", "how does the cluster scale", "who writes the release notes"):
        assert _ranked(src, q) == _ranked(again, q), q  # same backend, same vectors: the same ranking


def test_a_changed_vector_fails_verification(pg_url, tmp_path):
    import numpy as np

    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    src = _static(str(home), tmp_path)
    src.remember(FACTS[0], project="shop")
    [s.sync() for s in src.scorers if hasattr(s, "sync")]
    (suffix, idx), = mig.source_vectors(str(home))
    dst = mig.vector_index(pg_url, suffix, idx.model, idx.dim)
    ident = idx.ids()[0]
    Memory(pg_url, cwd=str(tmp_path))  # the target store exists; its index holds a different vector for the id
    dst.add([ident], np.ones((1, idx.dim), dtype=np.float32) / np.sqrt(idx.dim))
    r = _cli("migrate", "--from", str(home), "--to", pg_url, env={"CAVEMAN_HOME": str(home), "CAVEMAN_DB_URL": ""})
    assert r.returncode != 0
    err = json.loads(r.stderr.decode().splitlines()[-1])
    assert err["error"] == "cave_memory_conflict" and f"vector:{ident}" in err["message"]
