"""The warm recall process (cavemem/warm): the same bytes as the in-process command, coherent with
other writers, robust to a dead or absent server, and never left running by a test."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import time
from pathlib import Path

import pytest

from conftest import cli_argv

from cavemem import warm
from cavemem.warm import client

MEMORIES = [
    ("we use PostgreSQL 16 in production", "shop", {"kind": "decision", "tags": ("db",)}),
    ("the connection pool is pgbouncer in transaction mode, 40 clients", "shop", {"session": "s1"}),
    ("deploys go out on Tuesdays after the 10:00 stand-up", "shop", {"session": "s1"}),
    ("the billing webhook retried without an idempotency key, so some customers were charged twice", "shop", {}),
    ("tests run with pytest -x -q; the slow ones are marked slow", "tools", {}),
    ("prefer ruff over flake8 for linting", "", {"kind": "preference"}),
    ("café menus are stored as UTF-8 JSON ☕", "tools", {}),
]


def _env(**extra) -> dict:
    env = dict(os.environ)
    env.update(extra)
    return env


def recall(project_dir: Path, *args: str, warm_on: bool = True, **env) -> tuple[int, bytes, bytes]:
    """One ``cavemem recall`` process: (exit code, stdout, stderr)."""
    e = _env(**env)
    if not warm_on:
        e["CAVEMAN_WARM"] = "0"
    p = subprocess.run([*cli_argv(), "recall", *args], capture_output=True, env=e, cwd=project_dir, timeout=120)
    return p.returncode, p.stdout, p.stderr


def status() -> dict | None:
    """The server's status reply for this environment, or None when none answers."""
    path = warm.file_paths(warm.key(warm.environment()))["sock"]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    try:
        with warm.Address(path) as address:
            s.connect(address)
        warm.send(s, {"op": "status"})
        return warm.recv(s)[0]
    except OSError:
        return None
    finally:
        s.close()


def wait_for_server(timeout: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        st = status()
        if st is not None:
            return st
        time.sleep(0.1)
    raise AssertionError("the warm server did not come up")


def _held_locks() -> list[str]:
    try:
        names = [n for n in os.listdir(warm.warm_dir()) if n.endswith(".lock")]
    except OSError:
        return []
    return [n for n in names if client._starting(os.path.join(warm.warm_dir(), n))]


@pytest.fixture
def warm_home(cave_home, monkeypatch, tmp_path):
    """A store with memories in two projects, semantic recall on (as in a plain install), vectors
    synced, the warm process allowed; afterwards every server of this home is stopped."""
    monkeypatch.delenv("CAVEMAN_WARM", raising=False)
    monkeypatch.delenv("CAVEMAN_EMBED", raising=False)
    monkeypatch.setenv("CAVEMAN_WARM_IDLE_S", "120")
    # recency is the one signal that reads the clock: two in-process runs a second apart differ
    # in a score's 7th digit, so byte-for-byte comparisons rank without it (both paths alike)
    monkeypatch.setenv("CAVEMAN_MEM_FUSION", "recency=0")
    from cavemem import Memory

    with Memory() as m:
        for text, project, kw in MEMORIES:
            m.remember(text, project=project, **kw)
        old = m.remember("staging runs on fly.io", project="shop")
        m.supersede(old.id, "staging runs on render.com")
        m.remember("the old VPN config is only valid for a day", project="shop", ttl="1h", at="2020-01-01")
    project = tmp_path / "shop"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)  # recall's default scope: this git root's name
    assert recall(project, "warm the vectors", warm_on=False)[0] == 0  # the first recall embeds the store
    try:
        yield project
    finally:
        deadline = time.monotonic() + 30
        while True:
            warm.stop_all()
            if not _held_locks() and not warm.servers():
                break
            assert time.monotonic() < deadline, "a warm server would not stop"
            time.sleep(0.1)


@pytest.fixture
def server(warm_home):
    assert client.start()
    wait_for_server()
    return warm_home


CASES = [
    ["which database do we run"],
    ["which database do we run", "--json"],
    ["database connection pool", "--format", "context"],
    ["why were customers billed twice", "-n", "1"],
    ["deploy day", "-b", "5"],
    ["deploy day", "--token-budget", "0", "--format", "json"],
    ["linting", "--project", "tools"],
    ["pytest", "--all", "--json"],
    ["where does staging run", "--include-superseded", "--json"],
    ["VPN config", "--include-expired"],
    ["VPN config"],
    ["database", "--since", "2020-01-01", "--until", "2099-12-31"],
    ["database", "--until", "2020-06-01", "--json"],
    ["menus café ☕", "--all"],
    ["deploy", "--sessions"],
    ["the recipe for banana bread"],
    ["database", "--json", "--format", "table"],
    ["database", "--since", "not a date"],
    ["   "],
]


def test_warm_answers_are_byte_identical_to_the_in_process_command(server):
    before = status()["served"]
    found = 0
    for args in CASES:
        cold = recall(server, *args, warm_on=False)
        hot = recall(server, *args)
        assert hot == cold, args
        found += b"mem_" in cold[1]
    assert found >= 12  # most cases recall something: the comparison is over real answers
    assert status()["served"] - before == len(CASES)  # errors included: the server reports them as the CLI does


def test_other_writers_are_seen_by_the_next_warm_recall(server):
    env = _env()
    run = lambda *a: subprocess.run([*cli_argv(), *a], capture_output=True, env=env, cwd=server, timeout=120)  # noqa: E731
    q = ["what message broker do we use", "--json"]
    assert "rabbitmq" not in recall(server, *q)[1].decode().lower()
    added = json.loads(run("remember", "--json", "--project", "shop", "the message broker is RabbitMQ 3.13 on broker.lan").stdout)
    hot = recall(server, *q)
    assert hot == recall(server, *q, warm_on=False)
    assert json.loads(hot[1])["hits"][0]["id"] == added["id"]
    new = json.loads(run("supersede", "--json", added["id"], "the message broker is NATS JetStream").stdout)
    hot = recall(server, *q)
    assert hot == recall(server, *q, warm_on=False)
    ids = [h["id"] for h in json.loads(hot[1])["hits"]]
    assert new["id"] in ids and added["id"] not in ids
    assert run("forget", new["id"]).returncode == 0
    hot = recall(server, *q)
    assert hot == recall(server, *q, warm_on=False)
    assert new["id"] not in hot[1].decode()


def test_eight_concurrent_clients_all_get_the_right_answer(server):
    queries = [["which database do we run"], ["deploy day", "--json"], ["linting", "--format", "context"],
               ["why were customers billed twice"]] * 2
    want = [recall(server, *q, warm_on=False) for q in queries[:4]] * 2
    before = status()["served"]
    procs = [subprocess.Popen([*cli_argv(), "recall", *q], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=server)
             for q in queries]
    got = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        got.append((p.returncode, out, err))
    assert got == want
    assert status()["served"] - before == 8


def test_a_server_killed_mid_request_costs_nothing_but_time(server):
    want = recall(server, "which database do we run", "--json", warm_on=False)
    pid = status()["pid"]
    os.kill(pid, signal.SIGSTOP)
    try:
        p = subprocess.Popen([*cli_argv(), "recall", "which database do we run", "--json"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=server)
        time.sleep(1.0)  # the client has connected and sent its request by now, and waits for the reply
    finally:
        os.kill(pid, signal.SIGKILL)
    out, err = p.communicate(timeout=120)
    assert (p.returncode, out, err) == want


def test_no_server_means_in_process_then_one_starts(warm_home):
    path = Path(warm.file_paths(warm.key(warm.environment()))["sock"])
    path.parent.mkdir(mode=0o700, exist_ok=True)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with warm.Address(str(path)) as address:
        stale.bind(address)  # a socket file nobody listens on: what a crashed server leaves
    stale.close()
    want = recall(warm_home, "which database do we run", warm_on=False)
    assert recall(warm_home, "which database do we run") == want  # refused: in process, then a server starts
    wait_for_server()
    before = status()["served"]
    assert recall(warm_home, "which database do we run") == want
    assert status()["served"] == before + 1
    mode = stat.S_IMODE(os.stat(path).st_mode)
    assert mode == 0o600 and stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700


def test_off_switch_and_lexical_recall_start_nothing(warm_home):
    assert client.call("recall", {"query": ["x"]}) in ("absent", "refused")
    os.environ["CAVEMAN_WARM"] = "0"
    try:
        assert client.call("recall", {"query": ["x"]}) == "off"
        assert recall(warm_home, "which database do we run", CAVEMAN_WARM="0")[0] == 0
    finally:
        del os.environ["CAVEMAN_WARM"]
    assert recall(warm_home, "which database do we run", CAVEMAN_EMBED="0")[0] == 0  # lexical: cheap already
    time.sleep(1.0)
    assert warm.servers() == [] and _held_locks() == []


def test_idle_server_leaves_and_cleans_up(warm_home, monkeypatch):
    monkeypatch.setenv("CAVEMAN_WARM_IDLE_S", "1")
    paths = warm.file_paths(warm.key(warm.environment()))
    assert client.start()
    wait_for_server()
    deadline = time.monotonic() + 30
    while warm.servers() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert warm.servers() == []
    assert not os.path.exists(paths["sock"]) and not os.path.exists(paths["pid"])


def test_bad_requests_are_refused_and_the_server_keeps_serving(server):
    path = warm.file_paths(warm.key(warm.environment()))["sock"]

    def raw(payload: bytes) -> bytes:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        with warm.Address(path) as address:
            s.connect(address)
        s.sendall(payload)
        s.shutdown(socket.SHUT_WR)
        data = b""
        try:
            while chunk := s.recv(65536):
                data += chunk
        except ConnectionResetError:  # closed with our bytes unread: no reply either
            pass
        s.close()
        return data

    assert raw(b"\xff\xff\xff\xffgarbage") == b""  # a frame too large: dropped
    assert raw(b"\x00\x00\x00\x05{nope") == b""  # not JSON: dropped
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with warm.Address(path) as address:
        s.connect(address)
    warm.send(s, {"v": warm.PROTOCOL, "op": "run", "command": "recall", "opts": {}, "cwd": "/", "env": {},
                  "version": "0.0.0", "pkg": warm.package_dir(), "streams": ["utf-8", "strict"] * 2})
    assert warm.recv(s)[0] == {"ok": False, "why": "mismatch", "blobs": []}
    s.close()
    want = recall(server, "deploy day", "--json", warm_on=False)
    before = status()["served"]
    assert recall(server, "deploy day", "--json") == want
    assert status()["served"] == before + 1


def test_doctor_shows_the_running_server(server):
    p = subprocess.run([*cli_argv(), "doctor", "--json"], capture_output=True, env=_env(), cwd=server, timeout=120)
    check = {c["check"]: c for c in json.loads(p.stdout)["checks"]}["warm recall"]
    assert check["status"] == "ok" and [s["pid"] for s in check["running"]] == [status()["pid"]]
    assert f"pid {status()['pid']} serving" in check["detail"] and "kill" in check["detail"]


def test_file_descriptors_do_not_leak_across_requests(server, monkeypatch):
    from cavemem.cli.commands.memory import recall as command

    monkeypatch.chdir(server)
    pid = status()["pid"]
    opts = command.COMMAND.parse(["which database do we run", "--json"])
    first = client.call("recall", opts)
    assert isinstance(first, tuple) and first[0] == 0 and json.loads(first[1])["hits"]
    fds = _settled_fds(pid)
    for _ in range(40):
        assert client.call("recall", opts)[1] == first[1]
    assert _settled_fds(pid) <= fds + 2


def _settled_fds(pid: int) -> int:
    """The server's open descriptors once it is idle: it closes a request's store connections
    (gc.collect) after sending the reply, so a count taken as the reply arrives can still hold
    them (the suite once saw 18 against 12 + 2 that way). A leak grows with the 40 requests; this
    waits at most 5 s for the count to stop falling."""
    count, deadline = len(os.listdir(f"/proc/{pid}/fd")), time.monotonic() + 5.0
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = len(os.listdir(f"/proc/{pid}/fd"))
        if now >= count:
            return count
        count = now
    return count


def test_a_served_recall_loads_neither_sqlite_nor_numpy(server):
    probe = ("import sys\nfrom cavemem.cli.main import run\nrc = run(['recall', 'which database do we run'])\n"
             "sys.stderr.write(repr((rc, sorted(m for m in ('sqlite3', '_sqlite3', 'numpy', 'onnxruntime', 'subprocess') "
             "if m in sys.modules))))\n")
    before = status()["served"]
    p = subprocess.run([os.sys.executable, "-c", probe], capture_output=True, env=_env(), cwd=server, timeout=120)
    assert p.stderr.decode().endswith("(0, [])") and b"PostgreSQL" in p.stdout
    assert status()["served"] == before + 1
