"""Benchmark ``cavemem serve``: recall over HTTP on a 10k-memory store (requests/s, p50/p95, CPU of
client and server) for several ``--workers`` x ``--readers`` settings in one run, beside the same
recalls in process and a GET /healthz through the same client and server (the baselines: what the
recall costs, what HTTP costs), and the list page of a 100k-memory store (server render time: first
and deepest page, tag, project, date and confidence filters; the offset pages again by the cursor the
page's own pager links carry, checked to show the same rows).

The store is realistic: the memory dev set's 303 memories in their five projects, padded with real
text from this machine (Debian changelogs, installed docstrings, LoCoMo turns; see
``bench_memory_scale.py``). The queries are the dev set's 591 questions (asked in their project)
and LoCoMo's 998 (asked across projects), shuffled once with a fixed seed; a timed run never asks
the same question twice (``--repeat`` adds a row that asks each chunk again: what a server's memo of
query vectors saves), and the server is warmed on other (synthetic) questions. Queries are split
tune/check as the dev set splits them (``sha256(id)[0] < 154`` -> tune); both p95s are reported.

The server is the real CLI (``cavemem serve`` in a subprocess, loopback); the client is
``--clients`` keep-alive ``http.client`` connections on threads in this process, on the same
2-core machine, so its CPU (reported) is taken from the server. ``--before DIR`` also runs the
server from another source tree (``git archive <commit> cavemem | tar -x -C DIR``) through the same
client: the before/after of a change in one run. Every setting's hits are checked against
in-process ``cavemem.Memory.recall`` (same ids in the same order). Semantic recall is on (the
default): the store is embedded first (``cavemem embed sync``). Writes bench-results/serve.json
(serve-embed0.json under CAVEMAN_EMBED=0) and prints a table.

    nice .venv/bin/python scripts/bench_serve.py --store /tmp/serve10k --configs 1x2,2x1 --before /tmp/before --list-memories 0
    PYTHONPATH=/tmp/after nice .venv/bin/python scripts/bench_serve.py ...   # bench a fixed snapshot, not the live tree
    CAVEMAN_EMBED=0 .venv/bin/python scripts/bench_serve.py --list-memories 0
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.append(str(REPO))  # after PYTHONPATH: PYTHONPATH=<a source tree> benches that tree, servers included
sys.path.insert(0, str(REPO / "scripts"))

TOPICS = ["deploy", "database", "cache", "auth", "billing", "search", "queue", "frontend", "logging", "backup"]
NOUNS = ["vault", "eu-west-1", "the staging cluster", "port 5432", "the ops team", "a cron job", "grafana", "the nas"]
CHECK_SAMPLE = 40  # queries per setting whose HTTP hits are compared with in-process recall


def warm_queries(n: int = 60, seed: int = 11) -> list[tuple[str, str, str]]:
    """Synthetic questions for warming a server up; never timed, never among the timed ones."""
    rng = random.Random(seed)
    return [(f"warm{i}", f"where does {rng.choice(TOPICS)} keep {rng.choice(NOUNS)}?", "*") for i in range(n)]


def split(qid: str) -> str:
    return "tune" if hashlib.sha256(qid.encode()).digest()[0] < 154 else "check"  # as bench_memory_devset.split_of


def realistic_memories(n: int) -> list[dict]:
    """The memory dev set's 303 memories in their five projects, padded to ``n`` with the scale
    bench's real-text distractors (Debian changelogs, installed docstrings, LoCoMo turns) spread
    over the same projects and dates."""
    import bench_memory_scale as scale

    dev = scale.dev
    mems = [{"text": m["text"], "project": m["project"],
             "created_at": (dev.BASE + timedelta(days=m["day"])).strftime("%Y-%m-%dT%H:%M:%SZ")}
            for m in map(json.loads, (dev.DATA_DIR / "memories.jsonl").read_text().splitlines())]
    projects = sorted({m["project"] for m in mems})
    for _, text in scale.distractors(max(0, n - len(mems))):
        h = scale._h(text)
        mems.append({"text": text, "project": projects[h % len(projects)], "tags": [projects[h // 7 % len(projects)]],
                     "created_at": (dev.BASE + timedelta(days=h % 75 - 30)).strftime("%Y-%m-%dT%H:%M:%SZ")})
    return mems[:n]


def realistic_queries() -> list[tuple[str, str, str]]:
    """``(id, query, project)``: the dev set's questions in their project and LoCoMo conv 0-4's
    questions across all projects, in a seeded shuffle; every one distinct."""
    import bench_memory_scale as scale

    qs = [(q["id"], q["q"], q["project"]) for q in map(json.loads, (scale.dev.DATA_DIR / "questions.jsonl").read_text().splitlines())]
    seen = {q for _, q, _ in qs}
    for c, conv in enumerate(json.loads(scale.LOCOMO.read_text())):
        for i, qa in enumerate(conv["qa"]):
            if qa["question"] not in seen:
                seen.add(qa["question"])
                qs.append((f"locomo/{c}/{i}", qa["question"], "*"))
    random.Random(5).shuffle(qs)
    return qs


def build_store(home: Path, n: int) -> float:
    from cavemem import Memory

    t0 = time.perf_counter()
    home.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(m) for m in realistic_memories(n)]
    with Memory(str(home / "mem.db"), cwd=str(home)) as m:
        report = m.import_lines(lines, redact=False)
    assert report.to_dict()["imported"] == n, report.to_dict()
    return time.perf_counter() - t0


def embed_sync(home: Path) -> float | None:
    """Embed the whole store before timing (as ``cavemem embed sync`` after an import) unless
    semantic recall is off; otherwise each recall would embed a backlog batch."""
    if os.environ.get("CAVEMAN_EMBED", "").strip() == "0":
        return None
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cavemem", "embed", "sync"], env={**os.environ, "CAVEMAN_HOME": str(home)},
                   cwd=str(home), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - t0


# -- the server and its CPU ----------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(home: Path, workers: int = 1, readers: int = 2, source: str | None = None):
    """``cavemem serve`` on a free port; ``source``: run the package from that tree instead."""
    port = free_port()
    env = {**os.environ, "CAVEMAN_HOME": str(home)}
    env.pop("CAVEMAN_SERVE_TOKEN", None)
    argv = [sys.executable, "-m", "cavemem", "serve", "--port", str(port), "--readers", str(readers)]
    if source:
        env["PYTHONPATH"] = source
    if workers != 1:
        argv += ["--workers", str(workers)]
    log = open(home / f"serve-{port}.log", "w")  # a file, not a pipe: a chatty server must never block on it
    proc = subprocess.Popen(argv, env=env, cwd=str(home), stdout=subprocess.PIPE, stderr=log, text=True)
    log.close()
    for _ in range(5):
        if proc.stdout.readline().startswith("open once"):
            break
    token = (home / "serve.token").read_text().strip()
    deadline = time.monotonic() + 180
    while True:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request("GET", "/api/v1/stats", headers={"Authorization": f"Bearer {token}"})
            if c.getresponse().status == 200:
                return proc, port, token
        except OSError:
            time.sleep(0.1)
        if time.monotonic() > deadline or proc.poll() is not None:
            stop(proc)
            raise SystemExit(f"server {' '.join(argv[2:])} not ready: {(home / f'serve-{port}.log').read_text()[-2000:]}")


def stop(proc) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


def tree(pid: int) -> list[int]:
    """``pid`` and its descendants (uvicorn's workers, their resource tracker)."""
    kids: dict = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by the server's processes."""
    total = 0
    for p in tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def tree_rss_mb(pid: int) -> float:
    total = 0
    for p in tree(pid):
        try:
            total += int(next(l for l in Path(f"/proc/{p}/status").read_text().splitlines() if l.startswith("VmRSS")).split()[1])
        except (OSError, StopIteration, ValueError):
            pass
    return total / 1024


# -- load ----------------------------------------------------------------------------------------
def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def http_load(port: int, token: str, queries, clients: int, path: str = "/api/v1/recall", server_pid: int | None = None,
              keep: dict | None = None) -> dict:
    """Each of ``queries`` once, spread over ``clients`` keep-alive connections: raw latencies per
    split, wall time, and the CPU seconds of this client and of the server during the run.
    ``path`` /api/v1/recall POSTs each query; any other path is a plain GET (the HTTP baseline).
    ``keep``: filled with query id -> hit ids."""
    run: dict = {"tune": [], "check": [], "with_hits": 0, "clients": clients}
    lock = threading.Lock()
    recall = path == "/api/v1/recall"
    shares = [queries[k::clients] for k in range(clients)]

    def worker(share):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        hdr = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        for qid, q, project in share:
            t0 = time.perf_counter()
            if recall:
                conn.request("POST", path, body=json.dumps({"query": q, "project": project, "limit": 5}), headers=hdr)
            else:
                conn.request("GET", path, headers=hdr)
            resp = conn.getresponse()
            data = resp.read()
            dt = (time.perf_counter() - t0) * 1000
            assert resp.status == 200, data[:200]
            got = [h["id"] for h in json.loads(data)["hits"]] if recall else []
            with lock:
                run[split(qid)].append(dt)
                run["with_hits"] += bool(got)
                if keep is not None:
                    keep[qid] = got
        conn.close()

    threads = [threading.Thread(target=worker, args=(share,)) for share in shares]
    cpu0, scpu0, t0 = os.times(), tree_cpu(server_pid) if server_pid else 0.0, time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    run["wall_s"], cpu1 = time.perf_counter() - t0, os.times()
    run["client_cpu_s"] = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)
    run["server_cpu_s"] = tree_cpu(server_pid) - scpu0 if server_pid else 0.0
    return run


def summary(runs: list[dict]) -> dict:
    """Runs of one kind merged: requests/s over their summed wall time, percentiles, CPU ms a request."""
    lat = {k: [v for r in runs for v in r[k]] for k in ("tune", "check")}
    allv, wall = lat["tune"] + lat["check"], sum(r["wall_s"] for r in runs)
    n = len(allv)
    return {"requests": n, "clients": runs[0]["clients"], "req_per_s": n / wall, "p50_ms": statistics.median(allv),
            "p95_ms": pct(allv, 95), "p95_tune_ms": pct(lat["tune"], 95), "p95_check_ms": pct(lat["check"], 95),
            "with_hits": sum(r["with_hits"] for r in runs), "wall_s": wall,
            "server_cpu_ms_per_req": 1000 * sum(r["server_cpu_s"] for r in runs) / n,
            "client_cpu_ms_per_req": 1000 * sum(r["client_cpu_s"] for r in runs) / n}


class InProcess:
    """``Memory.recall`` in this process, run chunk by chunk like a server setting."""

    def __init__(self, home: Path, warm):
        from cavemem import Memory

        self.m = Memory(str(home / "mem.db"), cwd=str(home))
        for _, q, project in warm:
            self.m.recall(q, project=project, limit=5)
        self.runs: list = []

    def run(self, queries, keep: dict | None = None) -> None:
        run: dict = {"tune": [], "check": [], "with_hits": 0, "clients": 1, "server_cpu_s": 0.0}
        cpu0, t0 = time.process_time(), time.perf_counter()
        for qid, q, project in queries:
            s = time.perf_counter()
            got = [h["id"] for h in self.m.recall(q, project=project, limit=5)["hits"]]
            run[split(qid)].append((time.perf_counter() - s) * 1000)
            run["with_hits"] += bool(got)
            if keep is not None:
                keep[qid] = got
        run["wall_s"], run["client_cpu_s"] = time.perf_counter() - t0, time.process_time() - cpu0
        self.runs.append(run)


class Setting:
    """One running server setting (``cavemem serve --workers W --readers R``, from this tree or ``source``)."""

    def __init__(self, home: Path, name: str, workers: int, readers: int, source: str | None = None):
        self.name, self.workers, self.readers, self.source = name, workers, readers, source
        self.proc, self.port, self.token = start_server(home, workers, readers, source)
        self.runs: dict = {}
        self.got: dict = {}

    def load(self, kind: str, queries, clients: int, path: str = "/api/v1/recall") -> None:
        keep = self.got if kind == "http" else None
        self.runs.setdefault(kind, []).append(http_load(self.port, self.token, queries, clients, path, self.proc.pid, keep))

    def result(self, truth: dict, sample: list[str]) -> dict:
        out = {"workers": self.workers, "readers": self.readers, "source": self.source or "this tree",
               "server_rss_mb": tree_rss_mb(self.proc.pid)}
        out.update({kind: summary(runs) for kind, runs in self.runs.items()})
        out["same_hits_as_inprocess"] = sum(self.got.get(q) == truth[q] for q in sample)
        out["hits_checked"] = len(sample)
        return out


def recall_phase(tmp: str, args, result: dict) -> None:
    """Every setting's server runs at once; the timed queries go in ``--rounds`` chunks, each chunk
    to every setting in turn (and to in-process recall), so a change in the shared machine's load
    falls on all of them alike. The same chunk of queries goes to every setting."""
    home = Path(args.store) if args.store else Path(tmp) / "recall"
    if not (home / "mem.db").exists():  # --store DIR: built (and embedded) once, reused by later runs
        result["build_s"] = build_store(home, args.memories)
    result["embed_sync_s"] = embed_sync(home)
    queries = realistic_queries()
    n, single, rounds = args.requests, args.requests // 4, args.rounds
    assert len(queries) >= n + single, f"only {len(queries)} distinct queries"
    warm, truth = warm_queries(), {}
    local = InProcess(home, warm)
    local.run(queries[:CHECK_SAMPLE], keep=truth)  # the answers every setting's hits are checked against
    local.runs.clear()
    specs = []
    for spec in args.configs.split(","):  # the before tree in every setting, beside this tree's
        workers, readers = (int(x) for x in spec.split("x"))
        specs += [(f"before {spec}", workers, readers, args.before)] if args.before else []
        specs.append((spec, workers, readers, None))
    settings = [Setting(home, *spec) for spec in specs]
    try:
        for s in settings:
            http_load(s.port, s.token, warm * max(1, s.workers * 2), args.clients)  # every worker and reader warm
            s.load("healthz", queries[:n], args.clients, "/healthz")
        for r in range(rounds):
            chunk = queries[r * n // rounds:(r + 1) * n // rounds]
            one = queries[n + r * single // rounds:n + (r + 1) * single // rounds]
            local.run(chunk)
            for s in settings:
                s.load("http", chunk, args.clients)
                s.load("http_1_client", one, 1)
                if args.repeat:  # the same questions again (a server's query-vector memo)
                    s.load("http_repeat", chunk, args.clients)
            print(f"  round {r + 1}/{rounds}, load average {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
        sample = [q for q, _, _ in queries[:CHECK_SAMPLE]]
        result["settings"] = {s.name: s.result(truth, sample) for s in settings}
    finally:
        for s in settings:
            stop(s.proc)
    result["baseline_inprocess"] = summary(local.runs)
    local.m.close()


def list_page(port: int, token: str, pages: dict, server_pid: int, repeats: int = 10) -> dict:
    """Render time of the list page for each ``{name: query string}`` (whole response read), and the
    server's CPU a page (what the wall time would be on an idle core)."""
    out = {}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for name, qs in pages.items():
        times, cpu0 = [], tree_cpu(server_pid)
        for _ in range(repeats):
            t0 = time.perf_counter()
            conn.request("GET", f"/?{qs}", headers={"Authorization": f"Bearer {token}"})
            resp = conn.getresponse()
            body = resp.read()
            times.append((time.perf_counter() - t0) * 1000)
            assert resp.status == 200 and body.count(b'class="mem"') >= 1, (name, body[-300:])
        out[name] = {"query": qs, "median_ms": statistics.median(times), "max_ms": max(times), "rows": body.count(b'class="mem"'),
                     "server_cpu_ms": 1000 * (tree_cpu(server_pid) - cpu0) / repeats,
                     "ids": re.findall(rb'data-id="(mem_[0-9a-f]+)"', body)}
    for name, v in out.items():  # a page reached by cursor must show the offset page's rows
        if name.endswith("_by_cursor"):
            v["same_rows_as_offset"] = v["ids"] == out[name[: -len("_by_cursor")]]["ids"]
    for v in out.values():
        v.pop("ids")
    return out


def cursor_pages(home: Path, pages: dict) -> dict:
    """The offset pages again as the page's own pager reaches them: by the cursor of the row just
    before each (what its "older →" link carries), so the same rows by an index seek."""
    from urllib.parse import parse_qsl, urlencode

    from cavemem import Memory
    from cavemem.memory.browse import page_cursor

    out = {}
    with Memory(str(home / "mem.db"), cwd=str(home)) as m:
        for name, qs in pages.items():
            q = dict(parse_qsl(qs))
            offset = int(q.pop("offset", 0))
            if offset <= 0:
                continue
            kw = {k: v for k, v in q.items()}
            before = m.list(limit=1, offset=offset - 1, **{"project": "*", **kw})
            out[f"{name}_by_cursor"] = urlencode({**q, "cursor": page_cursor(before[0])})
    return out


def list_phase(tmp: str, args, result: dict) -> None:
    big = Path(args.list_store) if args.list_store else Path(tmp) / "list"
    if not (big / "mem.db").exists():
        result["build_list_s"] = build_store(big, args.list_memories)
    n = args.list_memories
    pages = {"first": "offset=0", "deepest": f"offset={max(0, n - 50)}", "tag": "tag=pulse", "project": f"project=pulse&offset={n // 10}",
             "min_confidence": "min_confidence=0.5", "since_until": f"since=2026-03-01&until=2026-03-31&offset={n // 40}"}
    pages.update(cursor_pages(big, pages))
    proc, port, token = start_server(big)
    try:
        result["list_page"] = list_page(port, token, pages, proc.pid)
    finally:
        stop(proc)


def report(args, result: dict, out: Path) -> None:
    print(f"mode: {result['mode']}; {args.clients} client connections in this process; {args.rounds} interleaved rounds; "
          f"load average (1 min) at start / end: {result['loadavg_start'][0]:.1f} / {result['loadavg_end'][0]:.1f} on {os.cpu_count()} cpus")
    if "settings" in result:
        print(f"recall, {args.memories} memories, distinct queries        req/s  p50 ms  p95 ms (tune / check)  "
              "CPU ms/req server + client  RSS MB  same hits")
        v = result["baseline_inprocess"]
        print(f"  {'in-process Memory.recall (1 thread)':<46}{v['req_per_s']:6.0f} {v['p50_ms']:7.1f} {v['p95_ms']:7.1f} "
              f"({v['p95_tune_ms']:5.1f} / {v['p95_check_ms']:5.1f})   {v['client_cpu_ms_per_req']:5.1f}")
        for name, s in result["settings"].items():
            label = f"{name}: --workers {s['workers']} --readers {s['readers']}"
            print(f"  {label}")
            for key, what in (("healthz", f"GET /healthz, {args.clients} clients"), ("http_1_client", "recall, 1 client"),
                              ("http", f"recall, {args.clients} clients"), ("http_repeat", f"same questions again, {args.clients} clients")):
                if key not in s:
                    continue
                v = s[key]
                tail = f"  {s['server_rss_mb']:6.0f}  {s['same_hits_as_inprocess']}/{s['hits_checked']}" if key == "http" else ""
                print(f"    {what:<44}{v['req_per_s']:6.0f} {v['p50_ms']:7.1f} {v['p95_ms']:7.1f} "
                      f"({v['p95_tune_ms']:5.1f} / {v['p95_check_ms']:5.1f})   {v['server_cpu_ms_per_req']:5.1f} + "
                      f"{v['client_cpu_ms_per_req']:4.1f}{tail}")
    for key, v in result.get("list_page", {}).items():
        same = "" if "same_rows_as_offset" not in v else f", same rows as by offset: {v['same_rows_as_offset']}"
        print(f"list page, {args.list_memories} memories, {key} ({v['query']}): median {v['median_ms']:.0f} ms, "
              f"max {v['max_ms']:.0f} ms, server CPU {v['server_cpu_ms']:.0f} ms a page, {v['rows']} rows{same}")
    print(f"wrote {out.relative_to(REPO)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memories", type=int, default=10_000)
    ap.add_argument("--list-memories", type=int, default=100_000, help="0 skips the list-page phase")
    ap.add_argument("--requests", type=int, default=1000, help="timed recalls per setting (distinct queries); 0 skips")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--configs", default="1x2,2x1", help="server settings WORKERSxREADERS, comma-separated")
    ap.add_argument("--rounds", type=int, default=5, help="chunks the timed queries are cut into, interleaved across settings")
    ap.add_argument("--before", help="also serve from this source tree (the code before a change), in every --configs setting")
    ap.add_argument("--repeat", action="store_true", help="also ask each timed chunk a second time (reported apart)")
    ap.add_argument("--store", help="keep the recall store here (built once, then reused)")
    ap.add_argument("--list-store", help="keep the list-page store here (built once, then reused)")
    args = ap.parse_args()
    embed_off = os.environ.get("CAVEMAN_EMBED", "").strip() == "0"
    result: dict = {"mode": "CAVEMAN_EMBED=0 (lexical)" if embed_off else "default config (semantic on)", "clients": args.clients,
                    "memories": args.memories, "list_memories": args.list_memories, "loadavg_start": os.getloadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        if args.requests:
            recall_phase(tmp, args, result)
        if args.list_memories:
            list_phase(tmp, args, result)
    result["loadavg_end"] = os.getloadavg()
    name = "serve-list" if not args.requests else "serve-embed0" if embed_off else "serve"
    out = REPO / "bench-results" / f"{name}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    report(args, result, out)


if __name__ == "__main__":
    main()
