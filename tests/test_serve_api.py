"""`cavemem serve` HTTP API and security, in process (Starlette TestClient over a real store)."""

from __future__ import annotations

import json
import os
import stat

import pytest

from starlette.testclient import TestClient

from cavemem import Memory  # noqa: E402
from cavemem.errors import CaveError  # noqa: E402
from cavemem.serve import security  # noqa: E402
from cavemem.serve.app import create_app, serve  # noqa: E402

TOKEN = "t0k-" + "a" * 40
BASE = "http://127.0.0.1:37778"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def memory(cave_home):
    m = Memory(str(cave_home / "mem.db"), cwd=str(cave_home))
    yield m
    m.close()


@pytest.fixture
def client(memory):
    guarded, _ = create_app(memory, token=TOKEN)
    with TestClient(guarded, base_url=BASE) as c:
        yield c


def remember(client, text, project="proj", **extra):
    r = client.post("/api/v1/memories", json={"text": text, "project": project, **extra}, headers=AUTH)
    assert r.status_code in (200, 201), r.text
    return r.json()


def test_remember_recall_round_trip_matches_library(client, memory):
    a = remember(client, "the deploy key lives in vault under ops/deploy", tags=["ops"])
    remember(client, "we run postgres 16 for the main database")
    assert a["status"] == "new" and a["id"].startswith("mem_")
    again = client.post("/api/v1/memories", json={"text": "the deploy key lives in vault under ops/deploy", "project": "proj"}, headers=AUTH)
    assert again.status_code == 200 and again.json()["status"] == "existing" and again.json()["id"] == a["id"]
    r = client.post("/api/v1/recall", json={"query": "where is the deploy key?", "project": "proj", "limit": 3}, headers=AUTH)
    assert r.status_code == 200
    hits = r.json()["hits"]
    assert [h["id"] for h in hits] == [a["id"]]
    assert hits[0]["text"] == "the deploy key lives in vault under ops/deploy" and hits[0]["recovery_handle"]
    direct = memory.recall("where is the deploy key?", project="proj", limit=3)
    assert [h["id"] for h in direct["hits"]] == [h["id"] for h in hits]
    off = client.post("/api/v1/recall", json={"query": "banana bread recipe", "project": "proj"}, headers=AUTH)
    assert off.json()["hits"] == []


def test_list_filters_pagination_show_history_supersede(client):
    ids = [remember(client, f"note number {i} about topic {'alpha' if i % 2 else 'beta'}", tags=["odd" if i % 2 else "even"])["id"]
           for i in range(7)]
    remember(client, "a decision elsewhere", project="other", kind="decision")
    page = client.get("/api/v1/memories", params={"project": "proj", "limit": 3, "offset": 0}, headers=AUTH).json()
    assert page["count"] == 7 and [m["id"] for m in page["memories"]] == ids[::-1][:3]
    page2 = client.get("/api/v1/memories", params={"project": "proj", "limit": 3, "offset": 6}, headers=AUTH).json()
    assert [m["id"] for m in page2["memories"]] == [ids[0]]
    odd = client.get("/api/v1/memories", params={"project": "proj", "tag": "odd"}, headers=AUTH).json()
    assert odd["count"] == 3
    dec = client.get("/api/v1/memories", params={"project": "*", "kind": "decision"}, headers=AUTH).json()
    assert [m["text"] for m in dec["memories"]] == ["a decision elsewhere"]
    bad_kind = client.get("/api/v1/memories", params={"kind": "nope"}, headers=AUTH)
    assert bad_kind.status_code == 400 and bad_kind.json()["error"] == "cave_invalid_arguments"

    new = client.post(f"/api/v1/memories/{ids[0]}/supersede", json={"text": "note number 0, corrected"}, headers=AUTH)
    assert new.status_code == 201 and new.json()["supersedes"] == ids[0]
    hist = client.get(f"/api/v1/memories/{new.json()['id']}/history", headers=AUTH).json()["history"]
    assert [v["text"] for v in hist] == ["note number 0 about topic beta", "note number 0, corrected"]
    old = client.get(f"/api/v1/memories/{ids[0]}", headers=AUTH).json()
    assert old["superseded_by"] == new.json()["id"] and old["valid_until"]
    missing = client.get("/api/v1/memories/mem_0000000000000000", headers=AUTH)
    assert missing.status_code == 404 and missing.json() == {"error": "cave_memory_not_found", "message": "memory mem_0000000000000000 not found"}


def test_forget_one_and_bulk_dry_run(client):
    keep = remember(client, "keep this memory about kafka", tags=["keep"])["id"]
    junk = [remember(client, f"scratch note {i} about a flaky test", tags=["scratch"])["id"] for i in range(4)]
    dry = client.delete(f"/api/v1/memories/{junk[0]}", params={"dry_run": 1}, headers=AUTH).json()
    assert dry["would_forget"] is True and client.get(f"/api/v1/memories/{junk[0]}", headers=AUTH).status_code == 200
    one = client.delete(f"/api/v1/memories/{junk[0]}", headers=AUTH)
    assert one.status_code == 200 and one.json()["forgotten"] is True
    assert client.delete(f"/api/v1/memories/{junk[0]}", headers=AUTH).status_code == 404
    preview = client.post("/api/v1/forget", json={"project": "proj", "tag": "scratch"}, headers=AUTH).json()
    assert preview["dry_run"] is True and preview["would_forget"] == 3 and sorted(preview["ids"]) == sorted(junk[1:])
    assert client.get("/api/v1/memories", params={"project": "proj"}, headers=AUTH).json()["count"] == 4
    done = client.post("/api/v1/forget", json={"project": "proj", "tag": "scratch", "dry_run": False}, headers=AUTH).json()
    assert done["forgotten"] == 3
    left = client.get("/api/v1/memories", params={"project": "proj"}, headers=AUTH).json()
    assert [m["id"] for m in left["memories"]] == [keep]
    nofilter = client.post("/api/v1/forget", json={}, headers=AUTH)
    assert nofilter.status_code == 400 and nofilter.json()["error"] == "cave_invalid_arguments"


def test_export_import_stats_review(client, memory):
    memory.merge = False  # keep near-duplicates apart so review has a cluster to find
    remember(client, "the staging cluster runs in eu-west-1 region today")
    remember(client, "the staging cluster runs in eu-west-1 region now")
    remember(client, "lunch is at noon")
    exported = client.get("/api/v1/export", headers=AUTH)
    assert exported.headers["content-type"].startswith("application/x-ndjson")
    assert exported.text == "".join(line if line.endswith("\n") else line + "\n" for line in memory.export())
    stats = client.get("/api/v1/stats", headers=AUTH).json()
    assert stats["projects"]["proj"]["current"] == stats["memories"] - stats["superseded"]
    body = '{"text": "imported fact about redis", "project": "proj"}\nnot json\n'
    imp = client.post("/api/v1/import", content=body.encode(), headers=AUTH)
    assert imp.status_code == 207 and imp.json()["imported"] == 1 and len(imp.json()["errors"]) == 1
    review = client.get("/api/v1/review", params={"project": "proj"}, headers=AUTH).json()
    clusters = [sorted(m["text"] for m in g) for g in review["duplicate_clusters"]]
    assert ["the staging cluster runs in eu-west-1 region now", "the staging cluster runs in eu-west-1 region today"] in clusters
    assert all("lunch" not in t for g in clusters for t in g)


def _transcript(path, *texts):
    path.write_text("".join(json.dumps({"type": "user", "uuid": f"u{i}", "sessionId": "s1", "cwd": "/tmp/proj",
                                        "timestamp": "2026-10-01T10:00:00.000Z", "message": {"role": "user", "content": t}}) + "\n"
                            for i, t in enumerate(texts)))
    return str(path)


CAPTURED = ("The API server runs on port 8000.", "Let's go with Postgres for the orders database.",
            "The staging host is stage-3.internal.")


def test_confidence_filter_lists_captures_by_their_confidence(client, memory, cave_home):
    by_hand = remember(client, "we deploy on tuesdays")["id"]
    stored = memory.capture.run(_transcript(cave_home / "t.jsonl", *CAPTURED), project="proj").stored
    conf = {s["id"]: s["confidence"] for s in stored}
    assert sorted(conf.values()) == [0.7, 0.7, 0.8]

    def listed(**params):
        got = client.get("/api/v1/memories", params={"project": "proj", **params}, headers=AUTH)
        assert got.status_code == 200, got.text
        return got.json()

    low = listed(max_confidence="0.75")
    assert low["count"] == 2 and {m["id"] for m in low["memories"]} == {i for i, c in conf.items() if c == 0.7}
    assert [m["confidence"] for m in low["memories"]] == [0.7, 0.7]
    mid = listed(min_confidence="0.75", max_confidence="0.9")
    assert [m["text"] for m in mid["memories"]] == [CAPTURED[1]]
    sure = listed(min_confidence="1")
    assert [m["id"] for m in sure["memories"]] == [by_hand] and sure["memories"][0]["confidence"] == 1.0
    assert listed()["count"] == 4
    for bad_value in ("1.5", "high", "-0.1"):
        r = client.get("/api/v1/memories", params={"min_confidence": bad_value}, headers=AUTH)
        assert r.status_code == 400 and r.json()["error"] == "cave_invalid_arguments", bad_value
    assert memory.count(project="proj", max_confidence=0.75) == 2  # the library call underneath


def test_review_queues_accept_edit_reject_and_never_used(client, memory, cave_home):
    from cavemem.memory.capture import feedback

    stored = memory.capture.run(_transcript(cave_home / "t.jsonl", *CAPTURED), project="proj").stored
    ids = {memory.show(s["id"]).text: s["id"] for s in stored}
    noisy = remember(client, "the office wifi password rotates monthly")["id"]
    useful = remember(client, "the orders service listens on port 9090")["id"]
    feedback.record(memory, [{"id": noisy, "text": "the office wifi password rotates monthly"},
                             {"id": useful, "text": "the orders service listens on port 9090"}], "Point the client at port 9090.")
    review = client.get("/api/v1/review", params={"project": "proj"}, headers=AUTH).json()
    assert [m["text"] for m in review["low_confidence"]] == list(CAPTURED[::-1])  # newest first
    assert review["low_confidence"][0]["source"] == CAPTURED[2]  # the transcript line it came from
    assert [(m["id"], m["injected"]) for m in review["never_used"]] == [(noisy, 1)]
    only_low = client.get("/api/v1/review", params={"project": "proj", "below": "0.75"}, headers=AUTH).json()
    assert {m["text"] for m in only_low["low_confidence"]} == {CAPTURED[0], CAPTURED[2]}

    acc = client.post(f"/api/v1/review/{ids[CAPTURED[0]]}/accept", headers=AUTH)
    assert acc.status_code == 200 and acc.json() == {"id": ids[CAPTURED[0]], "accepted": True, "confidence": 1.0}
    ed = client.post(f"/api/v1/review/{ids[CAPTURED[1]]}/edit", json={"text": "Postgres 16 for the orders database."}, headers=AUTH)
    assert ed.status_code == 201 and ed.json()["supersedes"] == ids[CAPTURED[1]]
    assert memory.show(ed.json()["id"]).text == "Postgres 16 for the orders database."
    rej = client.post(f"/api/v1/review/{ids[CAPTURED[2]]}/reject", headers=AUTH)
    assert rej.status_code == 200 and rej.json()["rejected"] is True
    after = client.get("/api/v1/review", params={"project": "proj"}, headers=AUTH).json()
    assert after["low_confidence"] == []
    assert memory.count(project="proj", min_confidence=1) == 4  # accepted, edited, noisy, useful
    missing = client.post("/api/v1/review/mem_0000000000000000/accept", headers=AUTH)
    assert missing.status_code == 404 and missing.json()["error"] == "cave_memory_not_found"
    no_text = client.post(f"/api/v1/review/{noisy}/edit", json={}, headers=AUTH)
    assert no_text.status_code == 400


def test_compress_retrieve_round_trip(client):
    data = "".join(f"2026-01-01T00:00:{i % 60:02d}Z INFO worker {i % 7} processed job {i}\n" for i in range(3000)).encode()
    r = client.post("/api/v1/compress", content=data, headers=AUTH)
    assert r.status_code == 200
    rep = r.json()
    assert rep["tokens_after"] < rep["tokens_before"] and rep["recovery_handle"].startswith("ccr_")
    back = client.get(f"/api/v1/retrieve/{rep['recovery_handle']}", headers=AUTH)
    assert back.status_code == 200 and back.content == data
    unknown = client.get("/api/v1/retrieve/ccr_00000000000000000000000000000000", headers=AUTH)
    assert unknown.status_code == 404 and unknown.json()["error"] == "cave_unknown_handle"


def test_body_caps(client):
    too_big = "x" * (256 * 1024 + 1)
    r = client.post("/api/v1/memories", json={"text": too_big, "project": "proj"}, headers=AUTH)
    assert r.status_code == 413 and r.json()["error"] == "cave_memory_too_large"
    exact = client.post("/api/v1/memories", json={"text": "y" * (256 * 1024), "project": "proj"}, headers=AUTH)
    assert exact.status_code == 201
    huge = client.post("/api/v1/memories", content=b"{" + b" " * (3 * 1024 * 1024) + b"}",
                       headers={**AUTH, "Content-Type": "application/json"})
    assert huge.status_code == 413 and huge.json()["error"] == "cave_input_too_large"
    bad = client.post("/api/v1/recall", content=b"[1,2]", headers=AUTH)
    assert bad.status_code == 400 and bad.json()["error"] == "cave_invalid_arguments"


# -- security ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("path,method", [("/api/v1/memories", "GET"), ("/api/v1/recall", "POST"), ("/", "GET"),
                                         ("/mcp", "POST"), ("/docs", "GET"), ("/api/v1/stats", "GET")])
def test_no_token_is_401(client, path, method):
    r = client.request(method, path, json={})
    assert r.status_code == 401
    if path == "/":  # a browser without a session gets a page telling it about the login link
        assert r.headers["content-type"].startswith("text/html") and "login link" in r.text
    else:
        assert r.json()["error"] == "cave_invalid_arguments"
    wrong = client.request(method, path, json={}, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401


def test_healthz_needs_no_token_and_tells_nothing_but_still_checks_host(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"ok": True}
    assert r.headers["content-security-policy"].startswith("default-src 'none'")
    assert client.get("/healthz", headers={"Host": "evil.example"}).status_code == 400
    assert client.post("/healthz").status_code == 405


def test_foreign_origin_is_403_and_wrong_host_is_400(client):
    for origin in ("http://evil.example", "http://127.0.0.1:9999", "null"):
        r = client.post("/api/v1/recall", json={"query": "x"}, headers={**AUTH, "Origin": origin})
        assert r.status_code == 403, origin
    same = client.post("/api/v1/recall", json={"query": "x"}, headers={**AUTH, "Origin": BASE})
    assert same.status_code == 200
    cross = client.get("/api/v1/stats", headers={**AUTH, "Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403
    for host in ("evil.example", "evil.example:37778", "127.0.0.1:80", "attacker.127.0.0.1.nip.io"):
        r = client.get("/api/v1/stats", headers={**AUTH, "Host": host})
        assert r.status_code == 400, host
    assert client.get("/api/v1/stats", headers={**AUTH, "Host": "localhost:37778"}).status_code == 200


def test_security_headers_and_csp_without_inline_script(client):
    r = client.get("/", headers=AUTH)
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
    assert "<script>" not in r.text and "<script " in r.text and 'src="/static/app.js"' in r.text
    assert "http://" not in r.text.replace(BASE, "") and "https://" not in r.text  # no CDN
    assert client.get("/static/app.js").status_code == 200  # assets ship in the package


def test_login_link_is_one_time_and_session_needs_csrf(memory):
    guarded, app = create_app(memory, token=TOKEN)
    with TestClient(guarded, base_url=BASE) as c:
        code = app.state.sessions.new_code()
        r = c.get(f"/login?code={code}", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/"
        cookie = r.headers["set-cookie"]
        assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
        assert c.get(f"/login?code={code}", follow_redirects=False).status_code == 401  # used up
        page = c.get("/")
        assert page.status_code == 200
        csrf = page.text.split('name="csrf-token" content="')[1].split('"')[0]
        assert len(csrf) > 20
        assert c.get("/api/v1/stats").status_code == 200  # cookie session reads
        no_csrf = c.post("/api/v1/memories", json={"text": "from the page", "project": "proj"})
        assert no_csrf.status_code == 403
        ok = c.post("/api/v1/memories", json={"text": "from the page", "project": "proj"}, headers={"X-CSRF-Token": csrf})
        assert ok.status_code == 201
        minted = c.post("/api/v1/login-link", headers={"X-CSRF-Token": csrf})
        assert minted.status_code == 400  # a session cannot mint more sessions
        c.cookies.clear()
        link = c.post("/api/v1/login-link", headers=AUTH).json()["url"]
        assert link.startswith(BASE + "/login?code=")


def test_token_file_is_0600_and_reused(cave_home, monkeypatch):
    monkeypatch.delenv(security.TOKEN_ENV, raising=False)
    token, source = security.load_token()
    path = cave_home / "serve.token"
    assert source == "file" and path.read_text().strip() == token and len(token) >= 40
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert security.load_token() == (token, "file")


def test_non_loopback_bind_without_token_refuses(cave_home, monkeypatch):
    monkeypatch.delenv(security.TOKEN_ENV, raising=False)
    with pytest.raises(CaveError) as err:
        serve(host="0.0.0.0", port=1, out=lambda line: None)
    assert err.value.code == "cave_invalid_arguments" and "refusing" in err.value.message
    monkeypatch.setenv(security.TOKEN_ENV, "short")
    with pytest.raises(CaveError):
        security.load_token()
    monkeypatch.setenv(security.TOKEN_ENV, "z" * 32)
    security.check_bind("0.0.0.0", security.load_token()[1])  # explicit token: allowed


def test_mcp_over_http_shares_the_store(client, memory):
    remember(client, "the build cache lives on the nas")
    hdr = {**AUTH, "Accept": "application/json, text/event-stream"}
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    assert client.post("/mcp", json=init, headers=hdr).status_code == 200
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "cavemem_recall", "arguments": {"query": "where is the build cache", "project": "proj"}}}
    r = client.post("/mcp", json=call, headers={**hdr, "mcp-protocol-version": "2025-06-18"})
    assert r.status_code == 200, r.text
    payload = json.loads(r.json()["result"]["content"][0]["text"])
    assert [h["text"] for h in payload["hits"]] == ["the build cache lives on the nas"]
    rem = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
           "params": {"name": "cavemem_remember", "arguments": {"text": "mcp wrote this", "project": "proj"}}}
    client.post("/mcp", json=rem, headers={**hdr, "mcp-protocol-version": "2025-06-18"})
    assert [r.text for r in memory.list(project="proj")][0] == "mcp wrote this"


def test_non_loopback_host_names_are_explicit(memory, monkeypatch):
    monkeypatch.setenv("CAVEMAN_SERVE_HOSTS", "mem.lan")
    guarded, app = create_app(memory, token=TOKEN, host="0.0.0.0", port=8080)
    assert app.state.base_url == "http://127.0.0.1:8080"
    with TestClient(guarded, base_url="http://mem.lan:8080") as c:
        assert c.get("/api/v1/stats", headers=AUTH).status_code == 200
        assert c.get("/api/v1/stats", headers={**AUTH, "Host": "other.lan:8080"}).status_code == 400
        assert c.get("/api/v1/stats", headers={**AUTH, "Origin": "http://mem.lan:8080"}).status_code == 200


def test_cli_refuses_non_loopback_without_token(cave_home):
    import subprocess

    from conftest import cli_argv

    env = {k: v for k, v in os.environ.items() if k != security.TOKEN_ENV}
    r = subprocess.run([*cli_argv(), "serve", "--host", "0.0.0.0", "--port", "37779"], capture_output=True, text=True,
                       env=env, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    err = json.loads(r.stderr.strip().splitlines()[-1])
    assert err["error"] == "cave_invalid_arguments" and "CAVEMAN_SERVE_TOKEN" in err["message"]
    bad_port = subprocess.run([*cli_argv(), "serve", "--port", "70000"], capture_output=True, text=True, env=env, timeout=60)
    assert bad_port.returncode == 2 and json.loads(bad_port.stderr)["error"] == "cave_invalid_arguments"
    bad_readers = subprocess.run([*cli_argv(), "serve", "--readers", "-1"], capture_output=True, text=True, env=env, timeout=60)
    assert bad_readers.returncode == 2 and json.loads(bad_readers.stderr)["error"] == "cave_invalid_arguments"


@pytest.mark.parametrize("readers", [0, 4])
def test_reader_pool_size_serves_the_same_answers(memory, readers):
    guarded, app = create_app(memory, token=TOKEN, readers=readers, mcp=False)
    with TestClient(guarded, base_url=BASE) as c:
        mid = remember(c, "the nightly backup goes to the nas at 2am")["id"]
        assert len(app.state.service._readers) == readers
        for _ in range(readers + 1):  # every pooled reader sees the write
            hits = c.post("/api/v1/recall", json={"query": "where does the backup go?", "project": "proj"}, headers=AUTH).json()["hits"]
            assert [h["id"] for h in hits] == [mid]


@pytest.mark.usefixtures("db_backend")
def test_confidence_bounds_in_the_library_on_both_backends(cave_home):
    m = Memory(cwd=str(cave_home))
    try:
        by_hand = m.remember("we deploy on tuesdays", project="proj").id
        unsure = m.remember("the cache ttl is 90 seconds", project="proj", confidence=0.4).id
        assert [r.id for r in m.list(project="proj", max_confidence=0.5)] == [unsure]
        assert [r.id for r in m.list(project="proj", min_confidence=0.5)] == [by_hand]
        assert m.count(project="proj", min_confidence=0.4, max_confidence=0.4) == 1
        assert m.count(project="proj") == 2
        with pytest.raises(CaveError) as err:
            m.list(project="proj", min_confidence=2)
        assert err.value.code == "cave_invalid_arguments"
    finally:
        m.close()


def test_json_bodies_are_the_stdlib_bytes(client, memory):
    remember(client, "café notes: the naïve cache 🚀 lives on \"nas-2\"\n", tags=["ops"])
    r = client.get("/api/v1/memories?project=proj", headers=AUTH)
    rows = memory.list(project="proj")
    expected = {"count": 1, "limit": 20, "offset": 0, "memories": [{**rows[0].to_dict(with_extra=False), "confidence": 1.0}],
                "older": None, "newer": None}
    assert r.content == json.dumps(expected, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    assert r.headers["content-type"] == "application/json"
