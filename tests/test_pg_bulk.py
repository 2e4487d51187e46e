"""Bulk import on PostgreSQL (issue 13): COPY batches and search indexes built after a big load
store exactly the rows the row-by-row path stores — checked by comparing exports, document
frequencies and recall with SQLite's — and a load cut off mid-way is repaired at the next open.
Against the real server of ``.ci/setup-postgres.sh``; no mocks."""

from __future__ import annotations

import json

import pytest

from cavemem import Memory
from cavemem.memory import pg_store


def _lines(n: int) -> list[str]:
    """New memories (secrets, private spans, repeats, metadata) and restores with history."""
    out = []
    for i in range(n):
        text = f"service s{i % 97} listens on port {8000 + i} behind ingress gw{i % 7}"
        if i % 50 == 0:
            text += " password=hunter2secret"
        if i % 41 == 0:
            text += " <private>the on-call phone is 555-0100</private>"
        out.append(json.dumps({"text": text, "project": f"p{i % 3}", "session": f"s{i // 10}",
                               "tags": ["net", f"t{i % 5}"], "topic": "ports" if i % 2 else None,
                               "created_at": f"2024-05-{1 + i % 28:02d}T10:{i % 60:02d}:00Z"}))
        if i % 13 == 0:
            out.append(out[-1])  # a repeat: a duplicate, stored once
    return out


def _history(tmp_path) -> list[str]:
    """Restore lines with a supersession chain, exported from a SQLite store."""
    m = Memory(str(tmp_path / "hist.db"), cwd=str(tmp_path))
    a = m.remember("the deploy runs on fridays", project="p0", at="2024-03-01T10:00:00Z")
    m.supersede(a.id, "the deploy runs on mondays")
    return list(m.export())


def _state(m: Memory) -> tuple:
    rows = m.store.read("SELECT term, df FROM mem_df WHERE df > 0 ORDER BY term")
    corpus = m.store.read("SELECT docs, tokens FROM mem_corpus WHERE id = 1")
    return [tuple(r) for r in rows], [tuple(r) for r in corpus]


def _export(m: Memory) -> str:
    return "".join(line + "\n" for line in m.export())


@pytest.mark.parametrize("bulk_rows", [10**9, 300])
def test_copy_import_stores_the_rows_sqlite_stores(pg_url, tmp_path, monkeypatch, bulk_rows):
    """bulk_rows 10**9: COPY with the indexes kept current; 300: the indexes are dropped after
    the first batches and built again at the end."""
    monkeypatch.setattr(pg_store, "BULK_ROWS", bulk_rows)
    monkeypatch.setattr("cavemem.memory.transfer.BATCH", 150)
    lines = _history(tmp_path) + _lines(900)
    lite = Memory(str(tmp_path / "m.db"), cwd=str(tmp_path))
    pg = Memory(pg_url, cwd=str(tmp_path))
    ra, rb = lite.import_lines(lines).to_dict(), pg.import_lines(lines).to_dict()
    assert ra == rb and rb["imported"] == 902 and rb["duplicates"] == 70 and rb["redacted"] == {"password": 20}
    assert _export(lite) == _export(pg)
    assert _state(lite) == _state(pg)
    present = {r[0] for r in pg.store.read("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")}
    assert set(pg_store.SEARCH_INDEXES) <= present
    for q in ("ingress gw3 port", "s42", "8123", "deploy mondays", "sten"):
        a = lite.recall(q, project="p1", now="2024-06-01T00:00:00Z")["hits"]
        b = pg.recall(q, project="p1", now="2024-06-01T00:00:00Z")["hits"]
        assert [(h["id"], h["score"]) for h in a] == [(h["id"], h["score"]) for h in b], q
    again = pg.import_lines(lines).to_dict()  # idempotent: everything is a duplicate now
    assert again["imported"] == 0 and again["duplicates"] == 972


def test_a_load_cut_off_with_its_indexes_dropped_is_repaired_at_next_open(pg_url, tmp_path):
    import psycopg

    from cavemem.store.pg import conn as pgconn

    m = Memory(pg_url, cwd=str(tmp_path))
    m.import_lines(_lines(50))
    other = psycopg.connect(pg_url, autocommit=True)  # the "importer": holds the bulk lock, indexes dropped
    other.execute(pg_store.bulk_lock_sql("pg_advisory_lock"), (pg_store.BULK_LOCK,))
    for name in pg_store.SEARCH_INDEXES:
        other.execute(f"DROP INDEX {name}")

    def present() -> set:
        return {r[0] for r in psycopg.connect(pg_url).execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()").fetchall()}

    pgconn.close_all()
    busy = Memory(pg_url, cwd=str(tmp_path))  # a load still running: left alone, searches still answer
    assert not set(pg_store.SEARCH_INDEXES) & present()
    assert busy.recall("ingress gw3", project="p0")["hits"]
    other.close()  # the importer dies
    pgconn.close_all()
    Memory(pg_url, cwd=str(tmp_path))
    assert set(pg_store.SEARCH_INDEXES) <= present()


def test_inlined_lexemes_equal_the_term_by_term_definition(pg_url, tmp_path):
    """Migration 003's one-expression ``cavemem_lexemes`` gives every stored body the tsvector the
    first definition (term by term, over-long terms by digest) gives, and a memory whose one word
    is past the lexeme limit is still found by it."""
    long_word = "x" * 2500
    m = Memory(pg_url, cwd=str(tmp_path))
    m.import_lines(_lines(60) + [json.dumps({"text": f"blob {long_word} seen", "project": "p0"})])
    bodies = [r[0] for r in m.store.read("SELECT body FROM mem_fts")] + ["", "a b", "y" * 1999 + " z " + "w" * 1999]
    same = m.store.srv.query("SELECT bool_and(cavemem_lexemes(b) = cavemem_lexemes_long(b)), count(*) FROM unnest(%s::text[]) "
                             "AS b", (bodies,))
    assert same == [(True, len(bodies))]
    assert [h["text"] for h in m.recall(long_word, project="p0")["hits"]] == [f"blob {long_word} seen"]


def test_an_invalid_search_index_left_by_a_cut_off_concurrent_build_is_rebuilt_at_open(pg_url, tmp_path):
    """The load's end builds its indexes CONCURRENTLY; one cut off leaves the index invalid
    (``indisvalid`` false, never used by a search). The next open drops and builds it."""
    import psycopg

    from cavemem.store.pg import conn as pgconn

    Memory(pg_url, cwd=str(tmp_path)).import_lines(_lines(40))
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE pg_index SET indisvalid = false WHERE indexrelid = to_regclass('mem_text_trgm')")
    pgconn.close_all()
    m = Memory(pg_url, cwd=str(tmp_path))
    assert m.store.read("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('mem_text_trgm')") == [(True,)]
    assert m.recall("ingress gw3", project="p0")["hits"]


def test_an_import_beside_a_running_load_writes_without_waiting_for_it(pg_url, tmp_path, monkeypatch):
    """A second big import of the same store while the first has the indexes dropped: it neither
    waits for the first's lock (that wait used to end in a statement timeout) nor drops them again;
    the rows land and the indexes are the running load's to rebuild. Stores in two schemas of one
    database do not share the lock."""
    import psycopg

    monkeypatch.setattr(pg_store, "BULK_ROWS", 100)
    monkeypatch.setattr("cavemem.memory.transfer.BATCH", 100)
    monkeypatch.setenv("CAVEMAN_DB_STATEMENT_TIMEOUT_MS", "2000")
    m = Memory(pg_url, cwd=str(tmp_path))
    other = psycopg.connect(pg_url, autocommit=True)  # the running load
    other.execute(pg_store.bulk_lock_sql("pg_advisory_lock"), (pg_store.BULK_LOCK,))
    rep = m.import_lines(_lines(600)).to_dict()
    assert rep["imported"] == 600 and rep["bad_lines"] == 0
    present = {r[0] for r in m.store.read("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")}
    assert set(pg_store.SEARCH_INDEXES) <= present  # not dropped by the second load
    other.execute("SET search_path = pg_catalog")  # the same key in another schema is another store's
    assert other.execute(pg_store.bulk_lock_sql("pg_try_advisory_lock"), (pg_store.BULK_LOCK,)).fetchone()[0]
    other.close()


def _small_index(pg_url, monkeypatch, np, seed: int):
    """A 16-d index whose exact size is 40 rows, and 90 unit vectors with their ids."""
    from cavemem.embed import pg_vectors

    monkeypatch.setattr(pg_vectors, "EXACT_ROWS", 40)
    Memory(pg_url)
    idx = pg_vectors.PgVectorIndex(pg_url + ".vectors", dim=16, model="test-16")
    vecs = np.random.default_rng(seed).normal(size=(90, 16)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    return idx, vecs, [f"mem_{i:016x}" for i in range(90)]


def test_hnsw_is_built_once_the_vectors_pass_the_exact_size(pg_url, monkeypatch):
    np = pytest.importorskip("numpy")
    idx, vecs, ids = _small_index(pg_url, monkeypatch, np, 5)

    def hnsw() -> bool:
        return idx.srv.query(f"SELECT to_regclass('{idx.tab}_hnsw') IS NOT NULL")[0][0]

    idx.add(ids[:30], vecs[:30], fingerprint=[30, 30])
    assert not hnsw()  # small: exact scans, no index to keep
    idx.add(ids[30:80], vecs[30:80])  # a sync's chunks: no fingerprint yet, no build
    assert not hnsw()
    idx.set_fingerprint([80, 80])  # the sync is done: built once
    assert hnsw()
    idx.add(ids[80:], vecs[80:], fingerprint=[90, 90])  # kept current from then on
    q = vecs[3] + 0.1 * vecs[85]
    exact = sorted(range(90), key=lambda i: -float(vecs[i] @ q))[:5]
    assert [h[0] for h in idx.search(q, 5)] == [ids[i] for i in exact]


def test_indexed_vector_reads_take_one_round_trip_and_survive_a_dropped_table(pg_url, monkeypatch):
    """Once a process has seen the HNSW index, a search (registry row, ``ef_search``, nearest
    rows) and each id read go to the server in one round trip, with the same answers as the
    checked path; a store shrunk back to the exact size is searched exactly again, and a table
    another process dropped meanwhile reads as no vectors, not as an error."""
    np = pytest.importorskip("numpy")
    import psycopg
    from cavemem.embed import pg_vectors

    idx, vecs, ids = _small_index(pg_url, monkeypatch, np, 7)
    idx.add(ids, vecs, fingerprint=[90, 90])
    q = vecs[7] + 0.2 * vecs[60]
    q /= np.linalg.norm(q)
    exact = [ids[i] for i in sorted(range(90), key=lambda i: -float(vecs[i] @ q))[:5]]
    assert [h[0] for h in idx.search(q, 5)] == exact  # the checked path; the index is now known
    trips = []
    real_execute, real_pipeline = psycopg.Connection.execute, psycopg.Connection.pipeline
    monkeypatch.setattr(psycopg.Connection, "execute",
                        lambda self, *a, **k: (trips.append(1) if self._pipeline is None else None, real_execute(self, *a, **k))[1])
    monkeypatch.setattr(psycopg.Connection, "pipeline", lambda self: (trips.append(1), real_pipeline(self))[1])
    assert [h[0] for h in idx.search(q, 5)] == exact and len(trips) == 1
    trips.clear()
    got = idx.scores_for(q, ids[:3])
    assert len(trips) == 1 and got == pytest.approx({i: float(vecs[j] @ q) for j, i in enumerate(ids[:3])}, abs=1e-5)
    idx.remove(ids[45:])  # 45 rows left, past the patched exact size no more: exact again
    monkeypatch.setattr(pg_vectors, "EXACT_ROWS", 50)
    left = [ids[i] for i in sorted(range(45), key=lambda i: -float(vecs[i] @ q))[:5]]
    assert [h[0] for h in idx.search(q, 5)] == left
    other = pg_vectors.PgVectorIndex(pg_url + ".vectors", dim=16, model="test-16")
    other.destroy()  # as another process would
    assert idx.search(q, 5) == [] and idx.scores_for(q, ids[:3]) == {} and idx.vectors(ids[:2]).shape == (0, 16)


def test_vector_row_count_is_kept_without_counting_and_an_old_registry_is_upgraded(pg_url, tmp_path):
    """``len(index)`` and the manifest's rows come from the registry's kept count, which every
    add, remove and forget (the delete trigger) moves in step with the table; a registry written
    before the column existed gets it, counted once, on first read."""
    np = pytest.importorskip("numpy")
    from cavemem.embed import pg_vectors

    m = Memory(pg_url, cwd=str(tmp_path))
    recs = [m.remember(f"fact number {i} about the ledger", project="p") for i in range(6)]
    idx = pg_vectors.PgVectorIndex(pg_url + ".vectors", dim=8, model="test-8")
    vecs = np.eye(8, dtype=np.float32)[:6]

    def counted() -> int:
        return idx.srv.query(f"SELECT count(*) FROM {idx.tab}")[0][0]

    assert idx.add([r.id for r in recs], vecs) == 6 and len(idx) == counted() == 6
    assert idx.add([recs[0].id], vecs[:1]) == 0 and len(idx) == 6  # a repeat adds nothing
    assert idx.remove([recs[1].id, "mem_0000000000000000"]) == 1 and len(idx) == counted() == 5
    m.forget(recs[2].id)  # the trigger deletes its vector and moves the count
    assert len(idx) == counted() == 4 and idx.manifest["rows"] == 4
    idx.srv.query('ALTER TABLE cavemem_vector_indexes DROP COLUMN "rows"')  # as the last stop wrote it
    fresh = pg_vectors.PgVectorIndex(pg_url + ".vectors", dim=8, model="test-8")
    assert len(fresh) == 4 and [h[0] for h in fresh.search(vecs[3], 1)] == [recs[3].id]
    m.forget(recs[3].id)
    assert len(fresh) == counted() == 3


@pytest.mark.parametrize("current_only", [True, False])
def test_newest_matches_per_project_equal_sqlite(pg_url, tmp_path, current_only):
    """The newest-N candidates of a common word under a project filter (one index walk per scope
    value, merged) are SQLite's rows with SQLite's scores, for one project, several, with and
    without superseded versions."""
    from cavemem.memory.model import Filter

    lines = _history(tmp_path) + _lines(500)
    lite = Memory(str(tmp_path / "m.db"), cwd=str(tmp_path))
    pg = Memory(pg_url, cwd=str(tmp_path))
    lite.import_lines(lines), pg.import_lines(lines)
    for projects in (("p1",), ("p0", ""), ("p2", "p0", "nowhere")):
        where = Filter(projects=projects, current_only=current_only)
        # dense matches (walked newest first) and sparse ones (fetched and sorted): the same rows
        for terms, newest in ((["servic"], 7), (["listen", "deploy"], 40), (["ingress", "gw3"], 1000), (["deploy", "s42"], 2),
                              (["gw3", "s42"], 3)):
            a = lite.store.fts_candidates(terms, where, 30, newest=newest)
            b = pg.store.fts_candidates(terms, where, 30, newest=newest)
            assert [s for s, _ in a] == [s for s, _ in b] and a, (projects, terms)
            assert all(abs(x - y) < 1e-9 for (_, x), (_, y) in zip(a, b))


def test_substrings_of_many_words_in_one_round_trip_match_sqlite(pg_url, tmp_path):
    from cavemem.memory.model import Filter

    lines = _lines(300)
    lite, pg = Memory(str(tmp_path / "m.db"), cwd=str(tmp_path)), Memory(pg_url, cwd=str(tmp_path))
    lite.import_lines(lines)
    pg.import_lines(lines)
    needles = ["gw3", "ngress", "s4", "80", "STEN", "100_", "50%", "nothing-like-this", "s9"]
    for where in (Filter(projects=("p1",)), Filter(projects=None, current_only=False)):
        many = pg.store.substring_candidates_many(needles, where, 7)
        for n in needles:
            one = pg.store.substring_candidates(n, where, 7)
            assert many.get(n, []) == one, n
            if len(one) < 7:  # all of them: the same rows as SQLite's trigram index (which orders a capped list its own way)
                assert set(one) == set(lite.store.substring_candidates(n, where, 7)), n
    assert many["gw3"] and many["s4"] and "nothing-like-this" not in many


def test_a_small_projects_substrings_read_its_rows_and_find_what_the_trigram_index_finds(pg_url, tmp_path, monkeypatch):
    """A project under LARGE_SCOPE rows is searched by reading its texts (a big project beside it
    no longer makes the trigram doclists long): the rows the trigram path finds, and the rows
    PostgreSQL finds."""
    from cavemem.memory import fts
    from cavemem.memory.model import Filter

    lines = _lines(600)
    lite, pg = Memory(str(tmp_path / "m.db"), cwd=str(tmp_path)), Memory(pg_url, cwd=str(tmp_path))
    lite.import_lines(lines)
    pg.import_lines(lines)
    needles = ["gw3", "ngress", "STEN", "s4", "port 81", "nothing-like-this", "REDACTED"]
    for where in (Filter(projects=("p1",)), Filter(projects=("p0", "p2"), current_only=False)):
        for k in (5, 400):
            lite.store._scopes.clear()
            scanned = {n: lite.store.substring_candidates(n, where, k) for n in needles}
            monkeypatch.setattr(fts, "LARGE_SCOPE", 1)  # every project is large: the trigram path
            lite.store._scopes.clear()
            indexed = {n: lite.store.substring_candidates(n, where, k) for n in needles}
            monkeypatch.setattr(fts, "LARGE_SCOPE", 5_000)
            for n in needles:
                everything = set(lite.store.substring_candidates(n, where, 10_000))
                assert len(scanned[n]) == len(indexed[n]) and set(scanned[n]) <= everything, (where, k, n)
                if len(scanned[n]) < k:  # not capped: the same rows (a capped list is in no defined order)
                    assert set(scanned[n]) == set(indexed[n]) == set(pg.store.substring_candidates(n, where, k)), n
    assert scanned["gw3"] and scanned["REDACTED"] and not scanned["nothing-like-this"]


def test_bounded_full_text_ranking_equals_scoring_every_match(pg_url, tmp_path, monkeypatch):
    """The write path's candidates (near-duplicate probes) skip the rows of common terms only when
    they cannot reach the top k: the same (seq, score) lists as scoring every match, whether the
    bound held (checked to happen) or the full query ran."""
    from cavemem.memory import pg_fts
    from cavemem.memory.model import Filter
    from cavemem.store.pg import conn as pgconn

    pg = Memory(pg_url, cwd=str(tmp_path))
    pg.import_lines(_lines(900))
    pg.remember("ingress gw3 gw3 gw3 routes service s5 on port 8005 behind the ingress", project="p2")
    monkeypatch.setattr(pg_fts, "PRUNE_DF", 40)
    pruned = []
    real = pg_fts.rank_fts

    def spy(q, terms, where, k, newest=0, *, rows=False, within=None):
        if within is not None and len(within) < len(dict.fromkeys(terms)):
            pruned.append(within)
        return real(q, terms, where, k, newest, rows=rows, within=within)

    monkeypatch.setattr(pg_fts, "rank_fts", spy)
    probes = [["servic", "listen", "port", "ingress", "gw3", "s42"], ["s5", "ingress", "gw3", "gw3", "behind"],
              ["password", "redact", "servic", "port"], ["hunter2secret", "deploy", "s0"], ["nothing", "servic"],
              ["8123", "listen", "behind", "ingress", "servic"], ["t3", "net", "port", "gw1", "gw2", "gw3"]]

    def both(conn):
        q = lambda s, p: pgconn._rows(conn.execute(s, p))
        out = []
        for terms in probes:
            for where in (Filter(projects=("p1",)), Filter(projects=("p2",)), Filter(projects=None, current_only=False)):
                for k in (1, 5, 20):
                    out.append((pg_fts.rank_fts_bounded(q, terms, where, k), real(q, terms, where, k), terms, where, k))
        return out

    for bounded, full, *case in pg.store.srv.run(both, "test"):
        assert [s for s, _ in bounded] == [s for s, _ in full], case
        assert all(abs(a - b) < 1e-12 for (_, a), (_, b) in zip(bounded, full)), case
    assert pruned  # the bound held for some probes: their common terms' rows were not scored
