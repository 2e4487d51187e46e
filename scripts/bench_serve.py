"""Benchmark ``cavemem serve``: recall over HTTP on a 10k-memory store (requests/s, p50/p95) beside
the same recalls in process and a GET /healthz through the same client and server (the baselines:
what the recall costs, what HTTP costs), and the list page of a 100k-memory store (server render
time: first and deepest page, tag, project, date and confidence filters).

The server is the real CLI (``cavemem serve`` in a subprocess, loopback); the client is a bounded
loop of keep-alive ``http.client`` connections on threads. Stores are synthetic memories built
from a fixed vocabulary with a seeded RNG and loaded through ``Memory.import_lines``. Queries are
split tune/check by sha256 of the query id (< 0.6·256 → tune); nothing is tuned here, both are
reported. With semantic recall on (the default) the store is embedded first (``cavemem embed
sync``). Writes bench-results/serve.json (serve-embed0.json under CAVEMAN_EMBED=0), prints a table.

    .venv/bin/python scripts/bench_serve.py [--memories 10000] [--list-memories 100000] [--requests 2000]
    CAVEMAN_EMBED=0 .venv/bin/python scripts/bench_serve.py --list-memories 0
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

TOPICS = ["deploy", "database", "cache", "auth", "billing", "search", "queue", "frontend", "logging", "backup",
          "metrics", "kafka", "redis", "postgres", "nginx", "terraform", "ci", "release", "oncall", "ssl"]
VERBS = ["runs on", "moved to", "is pinned to", "talks to", "is owned by", "fails without", "retries against",
         "is configured in", "was replaced by", "reads from"]
NOUNS = ["vault", "eu-west-1", "the staging cluster", "port 5432", "the ops team", "a cron job", "helm chart v3",
         "the nas", "s3 bucket logs-prod", "the blue pool", "terraform state", "the jenkins agent", "grafana",
         "the main branch", "a feature flag", "the sidecar", "node 20", "python 3.12", "the api gateway", "kubernetes"]


def make_memories(n: int, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        topic = rng.choice(TOPICS)
        text = (f"{topic} {rng.choice(VERBS)} {rng.choice(NOUNS)}; {rng.choice(TOPICS)} {rng.choice(VERBS)} "
                f"{rng.choice(NOUNS)} (note {i}, ticket OPS-{rng.randrange(10000)})")
        day = 1 + (i * 365 // max(1, n))
        out.append({"text": text, "project": f"proj{i % 5}", "created_at": f"2026-{1 + (day - 1) // 31 % 12:02d}-{1 + (day - 1) % 28:02d}T12:00:00Z",
                    "tags": [topic]})
    return out


def make_queries(n: int, seed: int = 11) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    qs = []
    for i in range(n):
        if i % 5 == 4:
            q = rng.choice(["banana bread recipe", "who won the match", "weather tomorrow", "best pizza nearby"])
        else:
            q = f"where does {rng.choice(TOPICS)} {rng.choice(VERBS).split()[0]} {rng.choice(NOUNS).split()[-1]}?"
        qs.append((f"q{i}", q))
    return qs


def split(qid: str) -> str:
    return "tune" if hashlib.sha256(qid.encode()).digest()[0] < int(0.6 * 256) else "check"


def build_store(home: Path, n: int) -> None:
    from cavemem import Memory

    lines = [json.dumps(m) for m in make_memories(n)]
    with Memory(str(home / "mem.db"), cwd=str(home)) as m:
        report = m.import_lines(lines, redact=False)
    assert report.to_dict()["imported"] == n, report.to_dict()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(home: Path, readers: int = 2):
    port = free_port()
    env = {**os.environ, "CAVEMAN_HOME": str(home)}
    env.pop("CAVEMAN_SERVE_TOKEN", None)
    proc = subprocess.Popen([sys.executable, "-m", "cavemem", "serve", "--port", str(port), "--readers", str(readers)],
                            env=env, cwd=str(home),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(5):
        if proc.stdout.readline().startswith("open once"):
            break
    token = (home / "serve.token").read_text().strip()
    for _ in range(200):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/api/v1/stats", headers={"Authorization": f"Bearer {token}"})
            if c.getresponse().status == 200:
                break
        except OSError:
            time.sleep(0.05)
    return proc, port, token


def stop(proc) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def http_load(port: int, token: str, queries, total: int, clients: int, path: str = "/api/v1/recall") -> dict:
    """``total`` requests spread over ``clients`` keep-alive connections; latencies per query split.
    ``path`` /api/v1/recall POSTs each query; any other path is a plain GET (the HTTP baseline)."""
    lat: dict = {"tune": [], "check": []}
    hits = {"n": 0}
    lock = threading.Lock()
    per = total // clients
    recall = path == "/api/v1/recall"

    def worker(k: int):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        hdr = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        for i in range(per):
            qid, q = queries[(k * per + i) % len(queries)]
            t0 = time.perf_counter()
            if recall:
                conn.request("POST", path, body=json.dumps({"query": q, "project": "*", "limit": 5}), headers=hdr)
            else:
                conn.request("GET", path, headers=hdr)
            resp = conn.getresponse()
            data = resp.read()
            dt = (time.perf_counter() - t0) * 1000
            assert resp.status == 200, data[:200]
            with lock:
                lat[split(qid)].append(dt)
                hits["n"] += bool(json.loads(data)["hits"]) if recall else 0
        conn.close()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    allv = lat["tune"] + lat["check"]
    return {"requests": len(allv), "clients": clients, "req_per_s": len(allv) / wall, "p50_ms": statistics.median(allv),
            "p95_ms": pct(allv, 95), "p95_tune_ms": pct(lat["tune"], 95), "p95_check_ms": pct(lat["check"], 95),
            "with_hits": hits["n"]}


def embed_sync(home: Path) -> float | None:
    """Embed the whole store before timing (as ``cavemem embed sync`` after an import) unless
    semantic recall is off; otherwise each recall would embed a backlog batch."""
    if os.environ.get("CAVEMAN_EMBED", "").strip() == "0":
        return None
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cavemem", "embed", "sync"], env={**os.environ, "CAVEMAN_HOME": str(home)},
                   cwd=str(home), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - t0


def inproc_recall(home: Path, queries, total: int) -> dict:
    from cavemem import Memory

    lat = []
    with Memory(str(home / "mem.db"), cwd=str(home)) as m:
        for _, q in queries:  # warm: the first recall of a hit stores its recovery copy (a write)
            m.recall(q, project="*", limit=5)
        t0 = time.perf_counter()
        for i in range(total):
            s = time.perf_counter()
            m.recall(queries[i % len(queries)][1], project="*", limit=5)
            lat.append((time.perf_counter() - s) * 1000)
        wall = time.perf_counter() - t0
    return {"requests": total, "req_per_s": total / wall, "p50_ms": statistics.median(lat), "p95_ms": pct(lat, 95)}


def list_page(port: int, token: str, pages: dict, repeats: int = 10) -> dict:
    """Server render time of the list page for each ``{name: query string}`` (whole response read)."""
    out = {}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for name, qs in pages.items():
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            conn.request("GET", f"/?{qs}", headers={"Authorization": f"Bearer {token}"})
            resp = conn.getresponse()
            body = resp.read()
            times.append((time.perf_counter() - t0) * 1000)
            assert resp.status == 200 and body.count(b'class="mem"') >= 1, (name, body[-300:])
        out[name] = {"query": qs, "median_ms": statistics.median(times), "max_ms": max(times), "rows": body.count(b'class="mem"')}
    return out


def recall_phase(tmp: str, args, queries, result: dict) -> None:
    home = Path(args.store) if args.store else Path(tmp) / "recall"
    if not (home / "mem.db").exists():  # --store DIR: built (and embedded) once, reused by later runs
        home.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        build_store(home, args.memories)
        result["build_s"] = time.perf_counter() - t0
    result["embed_sync_s"] = embed_sync(home)
    result["baseline_inprocess"] = inproc_recall(home, queries, min(args.requests, 1000))
    proc, port, token = start_server(home, args.readers)
    try:
        http_load(port, token, queries, len(queries), 1)  # warm-up, as for the baseline
        result["healthz_1_client"] = http_load(port, token, queries, args.requests // 2, 1, "/healthz")
        result["healthz"] = http_load(port, token, queries, args.requests, args.clients, "/healthz")
        result["http_1_client"] = http_load(port, token, queries, args.requests // 2, 1)
        result["http"] = http_load(port, token, queries, args.requests, args.clients)
    finally:
        stop(proc)
    # again after the HTTP runs: on a shared machine the load can change between phases
    result["baseline_inprocess_after"] = inproc_recall(home, queries, min(args.requests, 1000))


def list_phase(tmp: str, args, result: dict) -> None:
    big = Path(tmp) / "list"
    big.mkdir()
    t0 = time.perf_counter()
    build_store(big, args.list_memories)
    result["build_list_s"] = time.perf_counter() - t0
    proc, port, token = start_server(big)
    deep = max(0, args.list_memories - 50)
    n = args.list_memories
    pages = {"first": "offset=0", "deepest": f"offset={deep}", "tag": "tag=deploy", "project": f"project=proj3&offset={n // 10}",
             "min_confidence": "min_confidence=0.5", "since_until": f"since=2026-03-01&until=2026-06-30&offset={n // 20}"}
    try:
        result["list_page"] = list_page(port, token, pages)
    finally:
        stop(proc)


def report(args, result: dict, out: Path) -> None:
    print(f"mode: {result['mode']}, serve --readers {result['readers']}; load average (1 min) at start / end: {result['loadavg_start'][0]:.1f} / "
          f"{result['loadavg_end'][0]:.1f} on {os.cpu_count()} cpus")
    if "http" in result:
        print(f"recall on {args.memories} memories        req/s   p50 ms  p95 ms  (p95 tune / check)")
        rows = [("in-process Memory.recall (baseline)", result["baseline_inprocess"]),
                ("in-process again, after the HTTP", result["baseline_inprocess_after"]),
                ("HTTP GET /healthz, 1 client", result["healthz_1_client"]),
                (f"HTTP GET /healthz, {args.clients} clients", result["healthz"]),
                ("HTTP recall, 1 client", result["http_1_client"]), (f"HTTP recall, {args.clients} clients", result["http"])]
        for name, v in rows:
            split_p95 = f"  ({v['p95_tune_ms']:.1f} / {v['p95_check_ms']:.1f})" if "p95_tune_ms" in v else ""
            print(f"  {name:<36}{v['req_per_s']:7.0f} {v['p50_ms']:7.1f} {v['p95_ms']:7.1f}{split_p95}")
    for key, v in result.get("list_page", {}).items():
        print(f"list page, {args.list_memories} memories, {key} ({v['query']}): median {v['median_ms']:.0f} ms, "
              f"max {v['max_ms']:.0f} ms, {v['rows']} rows")
    print(f"wrote {out.relative_to(REPO)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memories", type=int, default=10_000)
    ap.add_argument("--list-memories", type=int, default=100_000, help="0 skips the list-page phase")
    ap.add_argument("--requests", type=int, default=2000, help="0 skips the recall phase")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--readers", type=int, default=2, help="cavemem serve --readers")
    ap.add_argument("--store", help="keep the recall store here (built once, then reused)")
    args = ap.parse_args()
    queries = make_queries(200)
    embed_off = os.environ.get("CAVEMAN_EMBED", "").strip() == "0"
    result: dict = {"mode": "CAVEMAN_EMBED=0 (lexical)" if embed_off else "default config (semantic on)",
                    "readers": args.readers, "clients": args.clients, "memories": args.memories, "list_memories": args.list_memories, "loadavg_start": os.getloadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        if args.requests:
            recall_phase(tmp, args, queries, result)
        if args.list_memories:
            list_phase(tmp, args, result)
    result["loadavg_end"] = os.getloadavg()
    out = REPO / "bench-results" / ("serve-embed0.json" if embed_off else "serve.json")
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    report(args, result, out)


if __name__ == "__main__":
    main()
