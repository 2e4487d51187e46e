#!/usr/bin/env python3
"""PostgreSQL backend benchmark (issue 13): the same figures as SQLite, and concurrency.

    python scripts/bench_pg.py --db postgresql://postgres@127.0.0.1:55432/postgres
    python scripts/bench_pg.py --db URL --skip-locomo          # concurrency only

Each run works in a fresh schema of the given database (dropped afterwards) and beside it in a
fresh SQLite home, and writes a table + ``bench-results/bench_pg.json``:

- **LoCoMo** (``../shared/data/locomo/locomo-dev.json``, read in place): every turn remembered and
  every question asked exactly as ``scripts/bench_memory.py`` does, on SQLite and on PostgreSQL;
  turn recall@10 and session recall@5 for the tuning conversations (0-2) and the check
  conversations (3-4) apart (nothing is tuned here: default lexical ranking; ``--embed`` keeps
  semantic recall on, vectors in pgvector vs the sidecar). Target: both backends within 0.5 point. The plain SQLite FTS5 bm25 baseline of bench_memory is reported beside.
- **writers**: N processes × M ``Memory.remember`` of distinct facts against the one server at
  once; then lost = expected − stored ids, duplicated = rows − distinct ids. Target 0 and 0.
- **compress**: P processes each compressing K distinct JSON payloads through the engine (its
  recovery store on the server) and retrieving every handle; exact = retrieved bytes equal the
  input. Target: all exact.
- **import rate** (``--import-rate SOURCE_DB N``): N realistic texts imported as new memories into
  each backend; wall rate beside the CPU a memory of the importer, its parsing workers and the
  server. ``--latency`` reports CPU beside wall too (p50/p95 of the process, mean of the server) and
  the round trips a recall (the vector index's apart). Before/after: run each snapshot's own copy of
  this script (``bench_memory_devset`` puts its own checkout first on ``sys.path``, whatever PYTHONPATH says).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
RESULTS = REPO / "bench-results" / "bench_pg.json"


def schema_url(base: str, schema: str) -> str:
    return base + ("&" if "?" in base else "?") + "options=" + quote(f"-c search_path={schema},public", safe="")


def _writer(args) -> float:
    url, w, n = args
    from cavemem import Memory

    m = Memory(url, cwd="/")
    t0 = time.perf_counter()
    for i in range(n):
        m.remember(f"writer {w} records fact {i}: service w{w}s{i} listens on port {10000 + w * 1000 + i}", project="bench")
    return time.perf_counter() - t0


def bench_writers(url: str, procs: int, each: int) -> dict:
    from cavemem import Memory

    t0 = time.perf_counter()
    with mp.get_context("spawn").Pool(procs) as pool:
        walls = pool.map(_writer, [(url, w, each) for w in range(procs)])
    wall = time.perf_counter() - t0
    store = Memory(url).store
    rows, distinct = store.read("SELECT count(*), count(DISTINCT id) FROM memories WHERE project = ?", ("bench",))[0]
    expected = procs * each
    return {"processes": procs, "each": each, "expected": expected, "stored": rows, "lost": expected - distinct,
            "duplicated": rows - distinct, "wall_s": round(wall, 2), "remembers_per_s": round(expected / wall, 1),
            "slowest_writer_s": round(max(walls), 2)}


def _compressor(args) -> tuple[int, int]:
    url, p, k = args
    os.environ["CAVEMAN_DB_URL"] = url
    from cavemem.engine.core import Engine

    eng = Engine()
    exact = total = 0
    for i in range(k):
        payload = json.dumps({"worker": p, "batch": i, "rows": [{"id": j, "name": f"svc-{p}-{i}-{j}", "port": 9000 + j,
                                                                 "healthy": j % 3 != 0} for j in range(60)]}).encode()
        res = eng.compress(payload)
        if res.recovery_handle:
            total += 1
            exact += eng.retrieve(res.recovery_handle) == payload
    return exact, total


def bench_compress(url: str, procs: int, each: int) -> dict:
    t0 = time.perf_counter()
    with mp.get_context("spawn").Pool(procs) as pool:
        got = pool.map(_compressor, [(url, p, each) for p in range(procs)])
    exact, total = sum(g[0] for g in got), sum(g[1] for g in got)
    return {"processes": procs, "each": each, "with_handle": total, "exact": exact, "all_exact": exact == total == procs * each,
            "wall_s": round(time.perf_counter() - t0, 2)}


def bench_locomo(url: str, path: Path) -> dict:
    import bench_memory as bm

    convs = bm.load_locomo(path)
    out: dict = {}
    for name, target in (("sqlite", None), ("postgres", url)):
        work = Path(tempfile.mkdtemp(prefix=f"cavemem-pg-bench-{name}-"))
        os.chmod(work, 0o700)
        os.environ["CAVEMAN_HOME"] = str(work)
        t0 = time.perf_counter()
        m, turns_of, _ = bm.build_memory_store(convs, target or str(work / "mem.db"), cwd=str(work))
        build = time.perf_counter() - t0
        rows = bm.eval_memory(m, convs, turns_of)
        split = bm.split_summaries(convs, rows)
        out[name] = {"remember_s": round(build, 1), "all": bm.summarize(rows), "tune": split["tune"], "check": split["check"]}
    out["fts5_baseline"] = bm.eval_fts5_baseline(convs)
    keys = ("turn_recall_at_10", "session_recall_at_5")
    out["difference_points"] = {part: {k: round(100 * (out["postgres"][part][k] - out["sqlite"][part][k]), 2) for k in keys}
                                for part in ("tune", "check", "all")}
    out["within_half_point"] = all(abs(v) <= 0.5 for d in out["difference_points"].values() for v in d.values())
    return out


def padding(n: int, cache: Path | None = None) -> list[tuple[str, str]]:
    """``n`` realistic distractors from ``bench_memory_scale`` (Debian changelogs, docstrings,
    LoCoMo turns reworded as memories). This machine has ~156k distinct ones, so past that the
    list repeats with `` (sprint k)`` appended (k = 1, 2, …): distinct memories with the same words.
    ``cache`` keeps the ~2-minute walk of the sources between runs."""
    import bench_memory_scale as bms

    if cache is not None and cache.exists():
        base = [tuple(x) for x in json.loads(cache.read_text())]
    else:
        base = [] if n <= 0 else _distinct(bms, n)
        if cache is not None:
            cache.write_text(json.dumps(base))
    out, k = list(base[:n]), 1
    while len(out) < n:
        out.extend((src, f"{text} (sprint {k})") for src, text in base[: n - len(out)])
        k += 1
    return out


def _distinct(bms, n: int) -> list[tuple[str, str]]:
    try:
        return bms.distractors(n)
    except SystemExit as short:  # "only N distinct distractors on this machine": take them all
        return bms.distractors(int(str(short).split()[1]))


def bench_scale(url: str, n: int, *, backends, embed: str = "", cache: Path | None = None) -> dict:
    """``bench_memory_scale``'s store at ``n`` memories (its ``ledger`` project padded, then the dev
    set remembered) built with ``Memory.import_lines`` into each backend; every dev-set question
    asked in process (warm), latency by the dev set's fixed tune/check split; plain FTS5 BM25 over
    the same rows beside. ``embed="static"``: the shipped static table's vectors (pgvector HNSW
    on PostgreSQL) synced after the import and used by recall."""
    import bench_memory_scale as bms
    import bench_memory_devset as dev
    from cavemem import Memory

    mems = [json.loads(x) for x in (dev.DATA_DIR / "memories.jsonl").read_text().splitlines() if x.strip()]
    qs = [json.loads(x) for x in (dev.DATA_DIR / "questions.jsonl").read_text().splitlines() if x.strip()]
    pad = padding(n - sum(1 for x in mems if x["project"] == bms.PROJECT), cache)
    source_of = {t: s for s, t in pad}
    out: dict = {"memories": n, "questions": {s: sum(q["split"] == s for q in qs) for s in ("tune", "check")}}
    for name in backends:
        target = url if name == "postgres" else str(Path(tempfile.mkdtemp(prefix="cavemem-pg-scale-")) / "mem.db")
        print(f"  {name}: importing {len(pad):,} into {target} …", flush=True)
        m, keys_of, facts = bms.build_store(target, mems, pad, False)
        facts["import_per_s"] = round(facts["imported"] / max(facts["import_s"], 1e-9))
        if embed == "static":
            m = Memory(target, clock=lambda: dev.NOW, cwd="/", scorers=["static"])
            t0 = time.perf_counter()
            facts["embed_sync"] = [s.sync() for s in m.scorers if hasattr(s, "sync")]
            facts["embed_sync_s"] = round(time.perf_counter() - t0, 1)
        res, lat, _ = bms.ask(m, keys_of, qs, source_of)
        split = {s: [t for t, q in zip(lat, qs) if q["split"] == s] for s in ("tune", "check")}
        out[name] = {**facts, "quality": bms.row(res, qs, mems)["all"],
                     "latency_ms": {s: {"p50": bms.pct(v, 0.5), "p95": bms.pct(v, 0.95)} for s, v in split.items()}}
        print(f"  {name}: {out[name]}", flush=True)
    res, per_q = bms.fts5(mems, pad, qs)
    out["fts5_baseline"] = {"quality": bms.row(res, qs, mems)["all"], "mean_query_ms": round(per_q, 2)}
    return out


def bench_latency(stores: dict[str, str], rounds: int = 1, embed: str = "") -> dict:
    """Recall latency in process on stores built by an earlier ``--scale --keep`` run (``{backend:
    path or URL}``), each dev-set question asked of every backend in turn, ``rounds`` times, so
    both see the same machine load; p50/p95 by the dev set's tune/check split."""
    import bench_memory_devset as dev
    import bench_memory_scale as bms
    from cavemem import Memory

    qs = [json.loads(x) for x in (dev.DATA_DIR / "questions.jsonl").read_text().splitlines() if x.strip()]
    scorers = ["static"] if embed == "static" else ()
    ms = {name: Memory(target, clock=lambda: dev.NOW, cwd="/", scorers=scorers) for name, target in stores.items()}
    for m in ms.values():
        m.recall("warm up the caches", project=bms.PROJECT, limit=10, now=dev.NOW)
    lat: dict[str, list[tuple[float, float, str]]] = {name: [] for name in ms}
    trips = _count_trips()
    server0 = {name: _server_cpu(m) for name, m in ms.items()}
    load0 = os.getloadavg()[0]
    for _ in range(rounds):
        for q in qs:
            for name, m in ms.items():
                c0, t0, n0, v0 = time.process_time(), time.perf_counter(), trips[0], trips[2]
                m.recall(q["q"], project=q["project"], limit=10, now=dev.NOW)
                trips[1] += (trips[0] - n0) if name == "postgres" else 0
                trips[3] += (trips[2] - v0) if name == "postgres" else 0
                lat[name].append(((time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000, q["split"]))
    out = {"rounds": rounds, "questions": len(qs), "load": round((load0 + os.getloadavg()[0]) / 2, 1)}
    for name, got in lat.items():
        out[name] = {s: {"p50": bms.pct([t for t, _, x in got if x == s], 0.5), "p95": bms.pct([t for t, _, x in got if x == s], 0.95),
                         "cpu_p50": bms.pct([c for _, c, x in got if x == s], 0.5),
                         "cpu_p95": bms.pct([c for _, c, x in got if x == s], 0.95)} for s in ("tune", "check")}
        if name == "postgres":
            out[name]["round_trips_mean"] = round(trips[1] / max(len(got), 1), 2)
            out[name]["vector_round_trips_mean"] = round(trips[3] / max(len(got), 1), 2)
        spent = _server_cpu(ms[name]) - server0[name]
        if spent > 0:
            out[name]["server_cpu_ms_mean"] = round(spent * 1000 / len(got), 2)
    return out


def _count_trips() -> list[int]:
    """``[statements sent, postgres recalls' share, the vector index's, its recalls' share]``: every read and
    transaction of the server connection counted (one round trip each; a pipelined batch is one);
    a trip whose caller is ``cavemem/embed/pg_vectors.py`` is the semantic path's."""
    from cavemem.store.pg import conn as pgconn

    count = [0, 0, 0, 0]  # all; postgres recalls' share; the vector index's; its recalls' share
    read, run = pgconn.Server._read, pgconn.Server.run

    def tally() -> None:
        count[0] += 1
        f = sys._getframe(2)
        while f is not None:
            if f.f_code.co_filename.endswith("pg_vectors.py"):
                count[2] += 1
                return
            f = f.f_back

    def counted_read(self, fn, action):
        tally()
        return read(self, fn, action)

    def counted_run(self, fn, action="write", lock=pgconn.WRITE_LOCK):
        tally()
        return run(self, fn, action, lock)

    pgconn.Server._read, pgconn.Server.run = counted_read, counted_run
    return count


def _server_cpu(m) -> float:
    """CPU seconds the store's server backend has used (a local PostgreSQL: /proc of its pid;
    SQLite: 0, its work is the process's own CPU). The load-independent half of a recall's cost
    on a shared machine, where wall-clock percentiles mostly measure the other processes."""
    srv = getattr(m.store, "srv", None)
    if srv is None:
        return 0.0
    try:
        pid = srv.query("SELECT pg_backend_pid()")[0][0]
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def bench_import(url: str, source_db: str, n: int) -> dict:
    """Import rate on both backends: the first ``n`` texts of a kept scale store (``--scale
    --keep``'s SQLite file: the realistic distractors) as new-memory JSON lines through
    ``Memory.import_lines`` (parsing, redaction, analysis, COPY on PostgreSQL), into a fresh
    SQLite file and the fresh schema; wall rate, and CPU µs a memory of this process, its
    parsing workers and the server backend — on a shared machine the wall rate measures the
    load, the CPU what a quiet one would do."""
    import resource
    import sqlite3

    from cavemem import Memory

    src = sqlite3.connect(f"file:{source_db}?mode=ro", uri=True)
    lines = [json.dumps({"text": t, "project": "ledger", "created_at": "2024-03-01T00:00:00Z"})
             for (t,) in src.execute("SELECT text FROM memories ORDER BY seq LIMIT ?", (n,))]
    out: dict = {"memories": len(lines), "workers": os.environ.get("CAVEMAN_IMPORT_WORKERS", "default")}
    for name, target in (("sqlite", str(Path(tempfile.mkdtemp(prefix="cavemem-pg-import-")) / "mem.db")), ("postgres", url)):
        m = Memory(target, cwd="/", scorers=())
        kids0, cpu0, srv0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.process_time(), _server_cpu(m), time.perf_counter()
        load0 = os.getloadavg()[0]
        rep = m.import_lines(lines)
        wall = time.perf_counter() - t0
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        per = 1e6 / max(len(lines), 1)
        out[name] = {"imported": rep.imported, "wall_s": round(wall, 1), "per_s": round(len(lines) / wall),
                     "cpu_us": {"process": round((time.process_time() - cpu0) * per, 1),
                                "workers": round((kids.ru_utime + kids.ru_stime - kids0.ru_utime - kids0.ru_stime) * per, 1),
                                "server": round((_server_cpu(m) - srv0) * per, 1)},
                     "load": round((load0 + os.getloadavg()[0]) / 2, 1)}
        out[name]["cpu_bound_per_s"] = cpu_bound_rate(out[name]["cpu_us"])
        print(f"  import {name}: {out[name]}", flush=True)
    return out


def cpu_bound_rate(cpu_us: dict, cores: int | None = None) -> int:
    """The import rate the measured CPU allows on an otherwise idle machine of ``cores`` cores:
    the writer and the server take turns (each batch is one synchronous transaction, and the
    search indexes are built after the load), the parsing workers run beside them, so a memory
    costs at least ``process + server`` of one core's time and ``total / cores`` of the machine's.
    An estimate from counted CPU, not a measured rate: the wall rate on a shared box is the load's."""
    cores = cores or os.cpu_count() or 1
    serial = cpu_us["process"] + cpu_us["server"]
    return round(1e6 / max(serial, (serial + cpu_us["workers"]) / cores, 1e-9))


def bench_devset(url: str) -> dict:
    """``scripts/bench_memory_devset.py``'s hand-written set (fixed tune/check split) through its own
    harness, once into a SQLite file and once into the server (its ``Memory(path)`` call is pointed
    at the URL); the plain FTS5 BM25 baseline beside."""
    import bench_memory_devset as bd
    import cavemem

    mems, qs = bd.build_set()
    out = {"sqlite": bd.score(bd.run_cavemem(mems, qs)[0], qs, mems)}
    real = cavemem.Memory
    cavemem.Memory = lambda _path, **kw: real(url, **kw)
    try:
        out["postgres"] = bd.score(bd.run_cavemem(mems, qs)[0], qs, mems)
    finally:
        cavemem.Memory = real
    out["fts5_baseline"] = bd.score(bd.run_fts5(mems, qs), qs, mems)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="postgresql:// URL of a database with the vector and pg_trgm extensions")
    ap.add_argument("--locomo", type=Path, default=REPO.parent / "shared" / "data" / "locomo" / "locomo-dev.json")
    ap.add_argument("--skip-locomo", action="store_true")
    ap.add_argument("--devset", action="store_true", help="also the coding-agent dev set of bench_memory_devset.py")
    ap.add_argument("--writers", type=int, default=16)
    ap.add_argument("--remembers", type=int, default=500)
    ap.add_argument("--compressors", type=int, default=8)
    ap.add_argument("--compresses", type=int, default=50)
    ap.add_argument("--scale", type=int, default=0, help="also bench_memory_scale's store at this many memories on each backend")
    ap.add_argument("--scale-backends", default="sqlite,postgres")
    ap.add_argument("--scale-embed", choices=["", "static"], default="", help="static: the static table's vectors too")
    ap.add_argument("--pad-cache", type=Path, help="JSON file keeping the distractors between runs")
    ap.add_argument("--skip-concurrency", action="store_true", help="no writers / compress runs")
    ap.add_argument("--keep", action="store_true", help="keep the PostgreSQL schema (its URL is printed)")
    ap.add_argument("--latency", nargs=2, metavar=("SQLITE_DB", "PG_URL"),
                    help="only recall latency on two stores kept by an earlier --scale --keep run, asked in turn")
    ap.add_argument("--import-rate", nargs=2, metavar=("SOURCE_DB", "N"),
                    help="also the import rate of N texts of a kept scale store's SQLite file, on both backends")
    ap.add_argument("--embed", action="store_true", help="keep semantic recall on (default: lexical ranking, CAVEMAN_EMBED=0)")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    if not args.embed:
        os.environ["CAVEMAN_EMBED"] = "0"
    if args.latency:
        res = bench_latency({"sqlite": args.latency[0], "postgres": args.latency[1]}, embed=args.scale_embed)
        print(json.dumps(res, indent=1))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "latency": res},
                                       indent=2) + "\n")
        return
    import psycopg

    schema = "bench_" + uuid.uuid4().hex[:10]
    with psycopg.connect(args.db, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = schema_url(args.db, schema)
    result: dict = {"generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "cpus": os.cpu_count(),
                    "load_start": round(os.getloadavg()[0], 2)}
    try:
        if args.devset:
            print("dev set on both backends …", flush=True)
            result["devset"] = bench_devset(url)
        if not args.skip_locomo and args.locomo.exists():
            print("LoCoMo on both backends …", flush=True)
            result["locomo"] = bench_locomo(url, args.locomo)
        if not args.skip_concurrency:
            print(f"{args.writers} writers × {args.remembers} remembers …", flush=True)
            result["writers"] = bench_writers(url, args.writers, args.remembers)
            print(f"{args.compressors} compress processes × {args.compresses} …", flush=True)
            result["compress"] = bench_compress(url, args.compressors, args.compresses)
        if args.import_rate:
            print(f"import rate: {int(args.import_rate[1]):,} memories into each backend …", flush=True)
            result["import"] = bench_import(url, args.import_rate[0], int(args.import_rate[1]))
        if args.scale:
            print(f"scale: {args.scale:,} memories into each backend …", flush=True)
            result["scale"] = bench_scale(url, args.scale, backends=args.scale_backends.split(","),
                                          embed=args.scale_embed, cache=args.pad_cache)
    finally:
        from cavemem.store.pg import conn as pgconn

        pgconn.close_all()
        if args.keep:
            print(f"kept: {url}")
        else:
            with psycopg.connect(args.db, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
    result["load_end"] = round(os.getloadavg()[0], 2)
    print_table(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")


def print_table(r: dict) -> None:
    if "import" in r:
        im = r["import"]
        print(f"\nimport {im['memories']:,} (workers {im['workers']})   per s   CPU µs a memory: process / workers / server"
              f"   load   CPU-bound per s ({os.cpu_count()} idle cores)")
        for name in ("sqlite", "postgres"):
            d = im[name]
            c = d["cpu_us"]
            print(f"{name:<34}{d['per_s']:>6}   {c['process']:>8} / {c['workers']:>7} / {c['server']:>6}{d['load']:>12}"
                  f"{d.get('cpu_bound_per_s', ''):>10}")
    if "locomo" in r:
        lo = r["locomo"]
        print(f"\n{'LoCoMo':<26}{'turn@10 tune':>14}{'turn@10 check':>15}{'sess@5 tune':>13}{'sess@5 check':>14}")
        for name in ("sqlite", "postgres"):
            t, c = lo[name]["tune"], lo[name]["check"]
            print(f"{name:<26}{t['turn_recall_at_10']:>14.3f}{c['turn_recall_at_10']:>15.3f}"
                  f"{t['session_recall_at_5']:>13.3f}{c['session_recall_at_5']:>14.3f}")
        print(f"difference (points)        {lo['difference_points']}   within 0.5: {lo['within_half_point']}")
        print(f"FTS5 bm25 baseline         turn@10 {lo['fts5_baseline'].get('turn_recall_at_10')}")
    for name, d in r.get("devset", {}).items():
        print(f"devset {name:<14} tune {json.dumps(d['tune'], sort_keys=True)[:150]}")
        print(f"{'':<21} check {json.dumps(d['check'], sort_keys=True)[:150]}")
    sc = r.get("scale")
    if sc:
        print(f"\nscale {sc['memories']:,} memories   import/s   recall p50/p95 ms tune   check    r@5 tune/check")
        for name in ("sqlite", "postgres"):
            if name in sc:
                d, lat, qual = sc[name], sc[name]["latency_ms"], sc[name]["quality"]
                print(f"{name:<30}{d['import_per_s']:>9}   {lat['tune']['p50']:>6}/{lat['tune']['p95']:<8}"
                      f"{lat['check']['p50']:>6}/{lat['check']['p95']:<8}{qual['tune']['recall_at_5']:.3f}/{qual['check']['recall_at_5']:.3f}")
        fb = sc["fts5_baseline"]
        print(f"{'FTS5 bm25 (plain)':<30}{'':>9}   mean {fb['mean_query_ms']} ms a query"
              f"{'':>10}{fb['quality']['tune']['recall_at_5']:.3f}/{fb['quality']['check']['recall_at_5']:.3f}")
    if "writers" not in r:
        return
    w, c = r["writers"], r["compress"]
    print(f"\nwriters {w['processes']}×{w['each']}: stored {w['stored']}/{w['expected']}, lost {w['lost']}, "
          f"duplicated {w['duplicated']}, {w['remembers_per_s']}/s")
    print(f"compress {c['processes']}×{c['each']}: {c['exact']}/{c['with_handle']} exact (all exact: {c['all_exact']}), {c['wall_s']} s")


if __name__ == "__main__":
    main()
