"""A big import parses, cleans and analyzes its lines in worker processes (issue 13): the report
and every stored row are exactly those of parsing in process — secrets redacted the same,
bad lines reported with their numbers, duplicates skipped — on both backends."""

from __future__ import annotations

import json

from cavemem import Memory
from cavemem.memory import transfer


def _lines() -> list:
    out: list = []
    for i in range(700):
        text = f"service s{i % 89} listens on port {9000 + i} behind ingress gw{i % 5}"
        if i % 37 == 0:
            text += " password=hunter2secret and key AKIAIOSFODNN7EXAMPLE"
        if i % 53 == 0:
            text += " <private>on-call phone 555-0100</private>"
        out.append(json.dumps({"text": text, "project": f"p{i % 3}", "tags": [f"t{i % 4}"],
                               "topic": "token=ghp_" + "a1B2" * 9 if i % 61 == 0 else None,
                               "created_at": f"2024-05-{1 + i % 28:02d}T10:{i % 60:02d}:00Z"}))
        if i % 17 == 0:
            out.append(out[-1])  # a duplicate
        if i % 71 == 0:
            out += ["{not json", "", json.dumps({"text": ""}), json.dumps({"text": "x", "kind": "nope"})]
        if i % 101 == 0:
            out.append(out[-1].encode())  # bytes lines, as the CLI reads them
    return out


def _export(m: Memory) -> str:
    return "".join(line + "\n" for line in m.export())


def test_worker_parsing_stores_and_reports_what_parsing_in_process_does(tmp_path, monkeypatch, db_backend):
    monkeypatch.setattr(transfer, "BATCH", 40)
    monkeypatch.setattr(transfer, "SERIAL_CHUNKS", 2)
    lines = _lines()
    monkeypatch.setenv("CAVEMAN_IMPORT_WORKERS", "0")
    serial = Memory(str(tmp_path / "serial.db"), cwd=str(tmp_path))
    want = serial.import_lines(lines).to_dict()

    pools = []
    real_pool = transfer._pool

    def counted(workers):
        pool = real_pool(workers)
        pools.append(workers)
        return pool

    monkeypatch.setattr(transfer, "_pool", counted)
    monkeypatch.setenv("CAVEMAN_IMPORT_WORKERS", "2")
    parallel = Memory(db_backend or str(tmp_path / "parallel.db"), cwd=str(tmp_path))
    got = parallel.import_lines(lines).to_dict()
    assert pools == [2]  # the workers did parse most of it
    assert got == want
    assert (want["lines"], want["imported"], want["duplicates"], want["bad_lines"]) == (779, 700, 48, 31)
    assert want["redacted"] == {"aws_access_key_id": 21, "github_token": 13, "password": 21}
    assert [e["line"] for e in got["errors"]] == sorted(e["line"] for e in got["errors"])
    assert _export(parallel) == _export(serial)
    assert "hunter2secret" not in _export(parallel) and "555-0100" not in _export(parallel)
    hits = parallel.recall("ingress gw3 port 9003", project="p0", now="2024-06-01T00:00:00Z")["hits"]
    assert hits == serial.recall("ingress gw3 port 9003", project="p0", now="2024-06-01T00:00:00Z")["hits"]
