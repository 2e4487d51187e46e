"""`cavemem serve --workers N`: what every worker must share. Login codes work once whichever process
gets them, a session cookie and its CSRF token are accepted by any worker (signed, not per-process
memory), writes through several workers are all kept, recall over HTTP is the CLI's recall (semantic
scorer included), and the server stops cleanly with its workers."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import threading
import time

import pytest
from starlette.testclient import TestClient

from cavemem import Memory
from cavemem.serve import security
from cavemem.serve.app import create_app
from conftest import cli_argv

TOKEN = "t0k-" + "b" * 40
BASE = "http://127.0.0.1:37778"


@pytest.fixture
def two_workers(cave_home):
    """Two apps as two worker processes would build them: same token and launch salt, own Memory."""
    apps, memories = [], []
    for _ in range(2):
        m = Memory(str(cave_home / "mem.db"), cwd=str(cave_home))
        memories.append(m)
        apps.append(create_app(m, token=TOKEN, salt="launch-1", mcp=False))
    yield apps
    for m in memories:
        m.close()


def test_login_code_and_session_work_across_workers(two_workers):
    (guard_a, app_a), (guard_b, _) = two_workers
    code = app_a.state.sessions.new_code()
    with TestClient(guard_a, base_url=BASE) as a, TestClient(guard_b, base_url=BASE) as b:
        got = b.get(f"/login?code={code}", follow_redirects=False)  # minted by A, redeemed by B
        assert got.status_code == 303
        assert a.get(f"/login?code={code}", follow_redirects=False).status_code == 401  # used up everywhere
        assert b.get(f"/login?code={code}", follow_redirects=False).status_code == 401
        sid = got.cookies[security.SESSION_COOKIE]
        a.cookies.set(security.SESSION_COOKIE, sid)
        csrf = a.get("/").text.split('name="csrf-token" content="')[1].split('"')[0]
        body = {"text": "the deploy key lives in vault", "project": "proj"}
        assert a.post("/api/v1/memories", json=body).status_code == 403  # no CSRF header
        assert a.post("/api/v1/memories", json=body, headers={"X-CSRF-Token": csrf}).status_code == 201
        b.cookies.set(security.SESSION_COOKIE, sid)
        assert b.get("/api/v1/stats").status_code == 200
        again = b.post("/api/v1/memories", json=body, headers={"X-CSRF-Token": csrf})
        assert again.status_code == 200 and again.json()["status"] == "existing"  # B sees A's write


def test_forged_tampered_expired_or_foreign_sessions_are_refused(cave_home, two_workers):
    (guard_a, app_a), _ = two_workers
    sessions = app_a.state.sessions
    sid, csrf = sessions.redeem(sessions.new_code())
    assert sessions.csrf_for(sid) == csrf
    expiry, nonce, mac = sid.split(".")
    bad = [f"{int(expiry) + 1}.{nonce}.{mac}", f"{expiry}.{nonce}x.{mac}", f"{expiry}.{nonce}.{mac[:-1]}{'B' if mac.endswith('A') else 'A'}", "", "a.b", sid + "."]
    assert all(sessions.csrf_for(s) is None for s in bad)
    assert security.Sessions(TOKEN, "launch-2").csrf_for(sid) is None  # another launch (a restart)
    assert security.Sessions("x" * 44, "launch-1").csrf_for(sid) is None  # another token
    old = security.Sessions(TOKEN, "launch-1")
    body = f"{int(time.time()) - 1}.{nonce}"
    assert old.csrf_for(f"{body}.{old._mac('session', body)}") is None  # correctly signed but expired
    stale = sessions.new_code(ttl=-1)
    assert sessions.redeem(stale) is None and sessions.redeem("not-a-code") is None
    assert not any(name.startswith(".") or "." in name for name in os.listdir(sessions.code_dir))  # nothing half-written
    with TestClient(guard_a, base_url=BASE) as c:
        c.cookies.set(security.SESSION_COOKIE, bad[0])
        assert c.get("/api/v1/stats").status_code == 401


def test_codes_are_redeemed_once_under_a_race(two_workers):
    (_, app_a), (_, app_b) = two_workers
    codes = [app_a.state.sessions.new_code() for _ in range(20)]
    wins: list = []

    def redeem(sessions):
        for code in codes:
            if sessions.redeem(code):
                wins.append(code)

    threads = [threading.Thread(target=redeem, args=(app.state.sessions,)) for app in (app_a, app_b) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(wins) == sorted(codes)  # each code exactly once across both "workers"


# -- the real CLI with two worker processes ------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _request(port, method, path, token=None, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    hdr = {"Content-Type": "application/json", **(headers or {})}
    if token:
        hdr["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=hdr)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp, data


@pytest.fixture
def served(cave_home):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != security.TOKEN_ENV}
    proc = subprocess.Popen([*cli_argv(), "serve", "--port", str(port), "--workers", "2"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, text=True, cwd=str(cave_home))
    try:
        banner = [proc.stdout.readline() for _ in range(3)]
        assert "2 workers" in banner[0], banner
        link = banner[2].split(": ", 1)[1].strip()
        token = (cave_home / "serve.token").read_text().strip()
        for _ in range(600):
            try:
                if _request(port, "GET", "/api/v1/stats", token)[0].status == 200:
                    break
            except OSError:
                time.sleep(0.1)
        yield {"port": port, "token": token, "link": link, "proc": proc, "home": cave_home}
    finally:
        if proc.poll() is None:
            workers = _children(proc.pid)
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            for pid in workers:  # the workers notice a dead parent by themselves; this only hurries them
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
        except (OSError, IndexError, ValueError):
            pass
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return "zombie" not in fh.read()
    except OSError:
        return False


def _all_gone(pids: list[int], within: float) -> bool:
    """True once none of ``pids`` runs; a child may outlive its exited parent by a few milliseconds."""
    deadline = time.monotonic() + within
    while [p for p in pids if _alive(p)]:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_two_workers_keep_every_write_share_logins_and_stop_cleanly(served):
    port, token, proc = served["port"], served["token"], served["proc"]
    workers = _children(proc.pid)
    assert len(workers) >= 2  # two workers (and multiprocessing's resource tracker)
    errors: list = []

    def write(k):
        for i in range(10):
            resp, data = _request(port, "POST", "/api/v1/memories", token,
                                  {"text": f"writer {k} note {i}: the cache ttl is {k * 10 + i} s", "project": "proj"})
            if resp.status != 201:
                errors.append((resp.status, data))

    threads = [threading.Thread(target=write, args=(k,)) for k in range(6)]  # new connections: both workers write
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    listed = json.loads(_request(port, "GET", "/api/v1/memories?project=proj&limit=100", token)[1])
    assert listed["count"] == 60 and len({m["text"] for m in listed["memories"]}) == 60
    code = served["link"].split("?", 1)[1]
    first = _request(port, "GET", f"/login?{code}")[0]
    assert first.status == 303
    cookie = first.getheader("set-cookie").split(";", 1)[0]
    statuses = {_request(port, "GET", "/api/v1/stats", headers={"Cookie": cookie})[0].status for _ in range(12)}
    assert statuses == {200}  # the session holds on whichever worker answers
    assert {_request(port, "GET", f"/login?{code}")[0].status for _ in range(4)} == {401}
    assert _request(port, "GET", "/api/v1/stats")[0].status == 401
    assert _request(port, "GET", "/api/v1/stats", token, headers={"Origin": "http://evil.example"})[0].status == 403
    assert _request(port, "GET", "/api/v1/stats", token, headers={"Host": "evil.example"})[0].status == 400
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    assert _all_gone(workers, within=15.0)  # the resource tracker sees its pipe close a moment after the launcher
    logged = proc.stderr.read()
    assert "Traceback" not in logged and token not in logged and "code=" not in logged, logged[-2000:]
    with Memory(str(served["home"] / "mem.db"), cwd=str(served["home"])) as m:
        assert m.count(project="proj") == 60  # every write reached the file


@pytest.mark.usefixtures("semantic_default")
def test_http_recall_is_the_cli_recall_with_meaning(served):
    port, token = served["port"], served["token"]
    for text in ("my car is parked in the underground garage on level 2", "we run postgres 16 for the main database",
                 "the nightly backup goes to the nas at 2am"):
        assert _request(port, "POST", "/api/v1/memories", token, {"text": text, "project": "proj"})[0].status == 201
    query = "where did I leave the automobile"  # no word in common with its answer: found by meaning only
    resp, data = _request(port, "POST", "/api/v1/recall", token, {"query": query, "project": "proj", "limit": 3})
    assert resp.status == 200
    http_hits = [(h["id"], h["text"]) for h in json.loads(data)["hits"]]
    cli = subprocess.run([*cli_argv(), "recall", query, "--project", "proj", "--limit", "3", "--json"], capture_output=True,
                         text=True, cwd=str(served["home"]), env={**os.environ, "CAVEMAN_HOME": str(served["home"])}, timeout=120)
    assert cli.returncode == 0, cli.stderr
    assert http_hits == [(h["id"], h["text"]) for h in json.loads(cli.stdout)["hits"]]
    assert http_hits and http_hits[0][1].startswith("my car is parked")


def test_workers_stop_when_the_launcher_is_killed(served):
    workers = [p for p in _children(served["proc"].pid) if "spawn_main" in open(f"/proc/{p}/cmdline").read()]
    assert len(workers) == 2
    served["proc"].kill()  # SIGKILL: uvicorn's supervisor gets no chance to stop them
    served["proc"].wait()
    deadline = time.monotonic() + 30
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in workers if _alive(p)]


def test_workers_option_is_checked(cave_home):
    env = {k: v for k, v in os.environ.items() if k != security.TOKEN_ENV}
    r = subprocess.run([*cli_argv(), "serve", "--workers", "0"], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 2 and r.stdout == "" and json.loads(r.stderr)["error"] == "cave_invalid_arguments"
    shown = subprocess.run([*cli_argv(), "serve", "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert shown.returncode == 0 and "--workers N" in shown.stdout
