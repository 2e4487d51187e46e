"""The bulk import path (issue 13: batches of executemany on SQLite, COPY on PostgreSQL, parsing in
worker processes, ids checked a batch at a time) stores exactly what writing one row at a time
stores: the same export (rows, redaction, history links), the same document frequencies and
corpus counts, the same search hits — on both backends. The per-row reference is the
``remember`` write path (:func:`insert_row`, one transaction a memory) fed the same parsed lines."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from cavemem import Memory
from cavemem.memory import transfer
from cavemem.memory.rows import bump_corpus, index_terms, insert_row

from test_pg_bulk import _history  # restores of a supersession chain exported from another store

NOW = "2024-06-01T00:00:00Z"
CLOCK = datetime(2024, 6, 1, tzinfo=timezone.utc)


def _lines() -> list[str]:
    """New memories (secrets in text and metadata, private spans, repeats, two projects, a bad
    line) and restores of a supersession chain exported from another store."""
    out = []
    for i in range(1300):
        text = f"queue worker q{i % 61} drains topic t{i % 17} every {5 + i % 40} seconds on host h{i % 9}"
        if i % 43 == 0:
            text += " api_key=sk_live_" + "Zq9" * 9
        if i % 59 == 0:
            text += " <private>my pager pin 4321</private>"
        tags = ["ops", f"k{i % 4}"] + (["token=ghp_" + "a1B2" * 9] if i % 97 == 0 else [])
        out.append(json.dumps({"text": text, "project": f"proj{i % 2}", "session": f"s{i // 25}", "tags": tags,
                               "created_at": f"2024-04-{1 + i % 28:02d}T08:{i % 60:02d}:00Z"}))
        if i % 11 == 0:
            out.append(out[-1])  # a repeat: stored once, counted as a duplicate
        if i == 700:
            out.append("{broken")
    return out


def _per_row(m: Memory, lines: list[str]) -> dict:
    """Each good line parsed, checked and written alone, in its own transaction."""
    report = transfer.ImportReport()
    for number, raw in enumerate(lines, 1):
        try:
            rec = transfer.parse_line(raw, redact=True, now=NOW, report=report)
        except transfer.BadLine:
            continue
        if m.store.get(rec.id) is not None:
            report.duplicates += 1
            continue
        terms = index_terms(rec)

        def txn(conn, rec=rec, terms=terms):
            insert_row(conn, rec, terms)
            bump_corpus(conn, 1, len(terms))

        m.store.write(txn)
        report.imported += 1
    return {"imported": report.imported, "duplicates": report.duplicates, "redacted": report.redacted}


def _state(m: Memory) -> tuple:
    export = list(m.export())
    df = [tuple(r) for r in m.store.read("SELECT term, df FROM mem_df WHERE df > 0 ORDER BY term")]
    corpus = [tuple(r) for r in m.store.read("SELECT docs, tokens FROM mem_corpus WHERE id = 1")]
    bodies = [tuple(r) for r in m.store.read("SELECT m.id, f.body, f.scope FROM memories AS m JOIN mem_fts AS f "
                                             "ON f.rowid = m.seq ORDER BY m.seq")]
    return export, df, corpus, bodies


def test_bulk_import_stores_what_one_row_at_a_time_stores(tmp_path, monkeypatch, db_backend):
    monkeypatch.setattr(transfer, "BATCH", 200)  # several batches, and worker processes after the first two
    monkeypatch.setattr(transfer, "SERIAL_CHUNKS", 2)
    monkeypatch.setenv("CAVEMAN_IMPORT_WORKERS", "2")
    lines = _history(tmp_path) + _lines()
    ref = Memory(str(tmp_path / "per-row.db"), cwd=str(tmp_path), clock=lambda: CLOCK)
    want = _per_row(ref, lines)
    bulk = Memory(db_backend or str(tmp_path / "bulk.db"), cwd=str(tmp_path), clock=lambda: CLOCK)
    got = bulk.import_lines(lines).to_dict()
    assert (got["imported"], got["duplicates"], got["redacted"]) == (want["imported"], want["duplicates"], want["redacted"])
    assert got["imported"] == 1302 and got["duplicates"] == 119 and got["bad_lines"] == 1
    assert got["redacted"] == {"github_token": 16, "stripe_key": 34}  # repeats counted too, as remember would
    a, b = _state(ref), _state(bulk)
    assert a[0] == b[0]  # the export: every row, redacted text and metadata, history links
    assert not any("sk_live_" in line or "ghp_" in line or "pager pin" in line for line in b[0])
    assert a[1:] == b[1:]  # document frequencies, corpus counts, index bodies and scopes
    for q, project in (("queue worker q7 drains", "proj1"), ("deploy mondays", "p0"), ("h3 seconds", "proj1"), ("t16", "proj0")):
        ha = ref.recall(q, project=project, now=NOW)["hits"]
        hb = bulk.recall(q, project=project, now=NOW)["hits"]
        assert ha and [(h["id"], h["score"]) for h in ha] == [(h["id"], h["score"]) for h in hb], q
    assert bulk.import_lines(lines).to_dict()["imported"] == 0  # a second import adds nothing


def test_bulk_import_keeps_copy_special_characters(tmp_path, db_backend):
    """Backslashes, tabs, newlines, carriage returns and the text format's own markers (``\\N``, ``\\.``)
    in the text and metadata come back from a bulk import exactly as from the per-row path (PostgreSQL's
    COPY rows are built by hand)."""
    odd = ["C:\\Users\\dev\\cfg", "col a\tcol b", "line one\nline two", "dos line\r\nnext", "\\N is not null",
           "\\.", "ends with a backslash \\", "naïve café 日本語 ünïcode", "tab\\tliteral and \\n literal"]
    lines = [json.dumps({"text": f"note {i}: {t}", "project": "odd", "topic": t if i % 2 else None, "tags": [t, "x\ty"],
                         "files": [f"dir\\{i}\nname"], "created_at": "2024-05-01T10:00:00Z"}) for i, t in enumerate(odd)]
    ref = Memory(str(tmp_path / "per-row.db"), cwd=str(tmp_path), clock=lambda: CLOCK)
    _per_row(ref, lines)
    bulk = Memory(db_backend or str(tmp_path / "bulk.db"), cwd=str(tmp_path), clock=lambda: CLOCK)
    assert bulk.import_lines(lines).imported == len(odd)
    a, b = _state(ref), _state(bulk)
    assert a == b
    assert any("line one\\nline two" in line for line in b[0])  # the newline survived as JSON's \n
    hits = bulk.recall("backslash", project="odd", now=NOW)["hits"]
    assert hits and hits[0]["text"] == "note 6: ends with a backslash \\"
