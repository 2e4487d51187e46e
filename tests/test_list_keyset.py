"""Keyset list paging (``Memory.list(cursor=…)`` / ``Memory.page``, the API's ``?cursor``, the web
page's pager): the same rows as offset paging, on SQLite and PostgreSQL, through ties in time."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from html import unescape

import pytest
from starlette.testclient import TestClient

from cavemem import Memory
from cavemem.errors import CaveError
from cavemem.memory.browse import page_cursor, parse_cursor
from cavemem.serve.app import create_app

TOKEN = "t0k-" + "k" * 40
AUTH = {"Authorization": f"Bearer {TOKEN}"}
T0 = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)


def _store(target: str) -> Memory:
    """37 memories in proj (every third pair at the same microsecond: ties broken by seq), 5
    global ones, 6 elsewhere; one superseded, so current-only and include_superseded differ."""
    m = Memory(target, cwd="/")
    for i in range(37):
        m.remember(f"proj note {i} about the build cache", project="proj", at=T0 + timedelta(minutes=(i // 2) * 3),
                   tags=("odd",) if i % 2 else ())
    for i in range(5):
        m.remember(f"global note {i}", project="", at=T0 + timedelta(minutes=i * 7))
    for i in range(6):
        m.remember(f"other note {i}", project="other", at=T0 + timedelta(minutes=i * 5))
    old = m.list(project="proj", limit=1, offset=10)[0]
    m.supersede(old.id, "proj note superseded by a correction")
    return m


@pytest.fixture
def memory(db_backend, cave_home):
    m = _store(db_backend or str(cave_home / "mem.db"))
    yield m
    m.close()


FILTERS = [dict(project="proj"), dict(project="*"), dict(project="proj", tag="odd"),
           dict(project="*", include_superseded=True), dict(project="proj", since="2026-05-01T12:10:00Z")]


@pytest.mark.parametrize("filters", FILTERS, ids=lambda f: ",".join(f"{k}={v}" for k, v in f.items()))
def test_cursor_pages_are_the_offset_pages_both_ways(memory, filters):
    size = 7
    total = memory.count(**filters)
    by_offset = [[r.id for r in memory.list(limit=size, offset=o, **filters)] for o in range(0, total, size)]
    assert sum(map(len, by_offset)) == total > size * 2
    forward, cursor, offsets = [], None, []
    while True:
        page = memory.page(limit=size, cursor=cursor, **filters)
        forward.append([r.id for r in page["memories"]])
        offsets.append(page["offset"])
        assert page["count"] == total
        cursor = page["older"]
        if cursor is None:
            break
    assert forward == by_offset
    assert offsets == list(range(0, total, size))
    # and back again, from the last page by the "newer" cursors
    back, cursor = [], memory.page(limit=size, offset=offsets[-1], **filters)["newer"]
    while cursor is not None:
        page = memory.page(limit=size, cursor=cursor, **filters)
        back.append([r.id for r in page["memories"]])
        cursor = page["newer"]
    assert back == by_offset[-2::-1]


def test_cursor_errors_and_round_trip(memory):
    rec = memory.list(project="proj", limit=1)[0]
    assert parse_cursor(page_cursor(rec)) == (True, rec.ts, rec.seq)
    assert parse_cursor(page_cursor(rec, older=False)) == (False, rec.ts, rec.seq)
    for bad in ("x1.2", "o12", "o1.2;drop", "", "o99999999999999999999.1"):
        with pytest.raises(CaveError) as err:
            memory.list(project="proj", cursor=bad or "?")
        assert err.value.code == "cave_invalid_arguments"
    with pytest.raises(CaveError) as err:
        memory.list(project="proj", cursor=page_cursor(rec), offset=3)
    assert err.value.code == "cave_invalid_arguments"


def test_api_and_page_walk_by_cursor(cave_home):
    m = _store(str(cave_home / "mem.db"))
    for i in range(70):  # past two of the page's 50-row pages
        m.remember(f"bulk item {i}", project="bulk", at=T0 - timedelta(hours=i))
    try:
        guarded, _ = create_app(m, token=TOKEN)
        with TestClient(guarded, base_url="http://127.0.0.1:37778") as c:
            want = [r.id for r in m.list(project="*", limit=1000)]
            got, cursor = [], None
            while True:
                params = {"project": "*", "limit": 9, **({"cursor": cursor} if cursor else {})}
                body = c.get("/api/v1/memories", params=params, headers=AUTH).json()
                assert body["offset"] == len(got) and body["count"] == len(want)
                got += [x["id"] for x in body["memories"]]
                cursor = body["older"]
                if cursor is None:
                    break
            assert got == want
            bad = c.get("/api/v1/memories", params={"cursor": "nope"}, headers=AUTH)
            assert bad.status_code == 400 and bad.json()["error"] == "cave_invalid_arguments"
            # the web page: "older →" links carry a cursor and keep the filters; the count line is exact
            seen, url = [], "/?project=%2A"
            for _ in range(5):
                html = c.get(url, headers=AUTH).text
                seen += re.findall(r'<li class="mem" tabindex="0" data-id="([^"]+)"', html)
                count = re.search(r'<p class="count" id="count">([^<]*)</p>', html).group(1)
                assert count == f"{len(seen) - len(re.findall('data-id=', html)) + 1}–{len(seen)} of {len(want)}"
                nxt = re.search(r'<a href="([^"]+)" rel="next">', html)
                if nxt is None:
                    break
                url = unescape(nxt.group(1))
                assert "cursor=o" in url and "project=%2A" in url and "offset" not in url
            assert seen == want
            prev = re.search(r'<a href="([^"]+)" rel="prev">', html)
            assert prev is not None and "cursor=n" in unescape(prev.group(1))
    finally:
        m.close()
