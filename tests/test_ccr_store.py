"""The recovery store (spec engine-core §5; §10 ideas 33–48). Behaviour tests take ``db_backend`` and
run on SQLite and on PostgreSQL; file-safety tests are SQLite-only."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat

import pytest

from cavemem.errors import BudgetExceeded, CaveError, StoreUnavailable, UnknownHandle
from cavemem.store import sqlite as sqlite_store
from cavemem.store.ccr import budget_from_env, handle_for, normalize_handle, open_ccr


def _put(store, data, ct="json", before=100, after=25, meta=b""):
    return store.put(data, content_type=ct, compressor=ct, tokens_before=before, tokens_after=after, metadata=meta)


def test_handles_are_content_addressed(db_backend):
    assert handle_for(b"same bytes") == "ccr_58100dc8fc06562ce3e578231dc948e0"
    store = open_ccr(db_backend or ":memory:")
    h1 = _put(store, b"payload")
    h2 = _put(store, b"payload")
    assert h1 == h2 == "ccr_" + hashlib.sha256(b"payload").hexdigest()[:32]
    assert store.get(h1) == b"payload"
    assert store.summary()["totals"]["count"] == 1


def test_unknown_handles(db_backend):
    store = open_ccr(db_backend or ":memory:")
    with pytest.raises(UnknownHandle):
        store.get("ccr_does_not_exist")
    with pytest.raises(UnknownHandle):
        store.get_metadata("ccr_missing")


def test_first_metadata_wins(db_backend):
    store = open_ccr(db_backend or ":memory:")
    h = _put(store, b"raw", meta=b"M")
    _put(store, b"raw", before=100, after=30)
    _put(store, b"raw", before=100, after=40, meta=b"other")
    assert store.get_metadata(h) == b"M"
    assert store.get(h) == b"raw"


def test_zero_accounting_guard_keeps_measured_stats(db_backend):
    store = open_ccr(db_backend or ":memory:")
    _put(store, b"doc", ct="json", before=100, after=25)
    store.put(b"doc", content_type="block", compressor="proxy-content", tokens_before=0, tokens_after=0)
    s = store.summary()
    assert s["totals"] == {"count": 1, "tokens_before": 100, "tokens_after": 25, "ratio": 0.75}
    assert s["by_content_type"]["json"]["count"] == 1


def test_summary_totals(db_backend):
    store = open_ccr(db_backend or ":memory:")
    _put(store, b"a", ct="json", before=100, after=20)
    _put(store, b"b", ct="log", before=200, after=10)
    s = store.summary()
    assert s["totals"] == {"count": 2, "tokens_before": 300, "tokens_after": 30, "ratio": 0.9}
    assert list(s["by_content_type"]) == ["json", "log"] and s["basis"] == "inferred"


def test_budget_anchor_one_mib(tmp_path, db_backend):
    store = open_ccr(db_backend or str(tmp_path / "ccr.db"), max_bytes=1 << 20)
    a = b"a" * (600 * 1024)
    h = _put(store, a)
    with pytest.raises(BudgetExceeded):
        _put(store, b"b" * (600 * 1024))
    assert store.get(h) == a
    assert _put(store, a) == h  # idempotent repeat succeeds at the cap
    s = store.summary()
    assert s["storage_bytes"] == 614400 and s["max_storage_bytes"] == 1048576
    assert "storage_full" not in s


def test_storage_full_flag_and_no_eviction(tmp_path, db_backend):
    store = open_ccr(db_backend or str(tmp_path / "ccr.db"), max_bytes=70000)
    hs = [_put(store, bytes([i]) * 10000) for i in range(7)]
    with pytest.raises(BudgetExceeded):
        _put(store, b"z")
    assert store.summary()["storage_full"] is True
    assert [store.get(h) for h in hs] == [bytes([i]) * 10000 for i in range(7)]


def test_persistence_across_reopen(tmp_path, db_backend):
    path = db_backend or str(tmp_path / "ccr.db")
    s1 = open_ccr(path)
    h = _put(s1, b"persist me")
    s1.close()
    assert open_ccr(path).get(h) == b"persist me"


def test_files_are_private(tmp_path):
    path = tmp_path / "ccr.db"
    path.write_bytes(b"")
    os.chmod(path, 0o666)
    store = open_ccr(str(path))
    _put(store, b"x")
    for suffix in ("", "-wal", "-shm"):
        p = str(path) + suffix
        if os.path.exists(p):
            assert stat.S_IMODE(os.stat(p).st_mode) == 0o600, p


def test_symlinked_db_and_unsafe_parents_are_refused(tmp_path):
    real = tmp_path / "real.db"
    real.write_bytes(b"")
    link = tmp_path / "link.db"
    link.symlink_to(real)
    with pytest.raises(StoreUnavailable, match="non-regular"):
        open_ccr(str(link))
    loose = tmp_path / "loose"
    loose.mkdir()
    os.chmod(loose, 0o777)
    with pytest.raises(StoreUnavailable, match="group/world writable"):
        open_ccr(str(loose / "ccr.db"))
    sticky = tmp_path / "sticky"
    sticky.mkdir()
    os.chmod(sticky, 0o1777)
    assert open_ccr(str(sticky / "ccr.db")).summary()["totals"]["count"] == 0
    via = tmp_path / "via"
    via.symlink_to(sticky)
    assert open_ccr(str(via / "other.db")).summary()["totals"]["count"] == 0


def test_missing_parent_and_corrupt_file(tmp_path):
    with pytest.raises(StoreUnavailable):
        open_ccr(str(tmp_path / "nope" / "ccr.db"))
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not a sqlite database at all" * 100)
    with pytest.raises(StoreUnavailable):
        open_ccr(str(bad))
    assert bad.read_bytes().startswith(b"this is not")  # never overwritten


@pytest.mark.parametrize("value", ["abc", "0", "-5", "1_000", "1.5", " "])
def test_budget_env_validation(monkeypatch, value):
    monkeypatch.setenv("CAVEMAN_CCR_MAX_BYTES", value)
    if value.strip() == "":
        assert budget_from_env() == 512 * 1024 * 1024
        return
    with pytest.raises(CaveError, match="CAVEMAN_CCR_MAX_BYTES must be a positive integer"):
        budget_from_env()


def test_budget_env_plus_sign_and_minimum(monkeypatch, tmp_path):
    monkeypatch.setenv("CAVEMAN_CCR_MAX_BYTES", "+2000000")
    assert budget_from_env() == 2000000
    # a budget below SQLite's minimum opens (reads work) and every put says "budget exceeded"
    store = open_ccr(str(tmp_path / "c.db"), max_bytes=1000)
    with pytest.raises(BudgetExceeded):
        _put(store, b"x" * 2000)


def test_retry_on_busy_with_fake_clock():
    now = [0.0]
    slept = []
    calls = []

    def sleep(s):
        slept.append(s)
        now[0] += s

    def busy():
        calls.append(now[0])
        raise sqlite3.OperationalError("database is locked")

    with pytest.raises(sqlite3.OperationalError):
        sqlite_store.retry_on_busy(busy, budget_s=0.1, sleep=sleep, clock=lambda: now[0])
    assert len(calls) == 3 and [round(c, 3) for c in calls] == [0, 0.025, 0.075]
    assert round(sum(slept), 6) == 0.1

    slept.clear()

    def other():
        raise sqlite3.OperationalError("no such table: x")

    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        sqlite_store.retry_on_busy(other, budget_s=0.1, sleep=sleep, clock=lambda: now[0])
    assert slept == []


def test_handle_normalization():
    h = "ccr_58100dc8fc06562ce3e578231dc948e0"
    for form in (h, f" {h} ", f"ccr://{h}", f"ccr:// {h}/", f"<<ccr:{h}>>", f"<< ccr://{h} >>", f"ccr:{h}"):
        assert normalize_handle(form) == h


def test_private_files_are_written_whole_with_mode_0600(tmp_path):
    from cavemem.paths import write_private_file

    path = str(tmp_path / "f.bin")
    payload = os.urandom(3 << 20)  # more than one write(2) may take at once on some systems
    write_private_file(path, payload)
    assert open(path, "rb").read() == payload
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    write_private_file(path, b"short", sync=False)  # truncates
    assert open(path, "rb").read() == b"short"
    with pytest.raises(FileExistsError):
        write_private_file(path, b"x", exclusive=True)
    assert open(path, "rb").read() == b"short"


def test_big_originals_are_streamed_and_come_back_exact(tmp_path):
    """Originals past STREAM_MIN_BYTES are written into a zeroblob a chunk at a time (no full
    copy bound into SQLite); the bytes, the budget figure and a re-put (UPDATE path) stay exact."""
    from cavemem.store import ccr

    path = str(tmp_path / "ccr.db")
    store = open_ccr(path)
    big = bytes(range(256)) * (ccr.STREAM_MIN_BYTES // 256) + b"tail \xff\x00 end"
    assert len(big) > ccr.STREAM_MIN_BYTES and len(big) % ccr.STREAM_CHUNK_BYTES
    h = _put(store, big, ct="log", before=0, after=0)
    assert store.get(h) == big
    assert store.summary()["storage_bytes"] == len(big)
    _put(store, big, ct="log", before=900, after=10)  # a measured repeat rewrites the row
    store.close()
    again = open_ccr(path)
    assert again.get(h) == big
    assert again.summary()["storage_bytes"] == len(big)
    assert again.summary()["totals"]["tokens_before"] == 900
    small = b"x" * (ccr.STREAM_MIN_BYTES - 1)
    assert again.get(_put(again, small)) == small
    assert again.summary()["storage_bytes"] == len(big) + len(small)
