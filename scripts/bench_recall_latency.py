#!/usr/bin/env python3
"""In-process recall latency (CPU and wall) on a kept store, this tree beside an older one.

    nice python scripts/bench_recall_latency.py --store DIR [--before TREE] [--rounds 4]

``DIR`` holds ``mem.db`` (and its ``mem.db.vectors/`` sidecar: semantic recall is on, as by
default), e.g. ``bench-results/cache/sem100k-latency`` (the dev set with its ledger project
padded to 100k memories) or a ``scripts/bench_serve.py --store`` directory (10k). Every dev-set
question is asked in its own project, as a long-lived process (MCP, serve) asks: one warm-up
recall first. Each tree answers in its own child process, both over the same store (recall only
reads it); the questions go in ``--rounds`` chunks, each chunk to every tree in turn, so a change
in this shared machine's load falls on both alike. Per recall the child's CPU time (all threads) and the
wall time are kept; p50/p95 are printed by the dev set's fixed tune/check split and for the
ledger (padded) project alone, with the load average. The hits (text hashes, best first) of both
trees are compared too: a speed change must leave every top-10 as it was. ``--repeat`` asks every
chunk a second time right after (as a server hears the same question again), reported apart.
Writes ``bench-results/bench_recall_latency.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = Path(__file__).resolve().parent
TARGET_P95_MS = 30.0


def _questions() -> list[dict]:
    data = REPO / "tests" / "data" / "memory_devset" / "questions.jsonl"
    return [json.loads(x) for x in data.read_text().splitlines() if x.strip()]


def child(store: str) -> None:
    """Answer ``[question index, …]`` lines on stdin with one JSON line of timings and hit hashes."""
    import cavemem  # from PYTHONPATH (the tree under test) before the dev set's module puts this repo first
    from cavemem import Memory

    sys.path.insert(0, str(SCRIPTS))
    import bench_memory_devset as dev

    qs = _questions()
    m = Memory(os.path.join(store, "mem.db"), clock=lambda: dev.NOW, cwd="/")
    m.recall("warm up the caches", project="ledger", limit=10, now=dev.NOW)
    print(json.dumps({"ready": True, "scorers": [type(s).__name__ for s in m.scorers],
                      "package": os.path.dirname(cavemem.__file__)}), flush=True)
    for line in sys.stdin:
        out = []
        for i in json.loads(line):
            q = qs[abs(i) - 1]
            c0, t0 = time.process_time(), time.perf_counter()  # every thread's CPU (BLAS may have its own)
            hits = m.recall(q["q"], project=q["project"], limit=10, now=dev.NOW)["hits"]
            wall, cpu = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
            out.append([i, cpu, wall, [hashlib.sha256(h["text"].encode()).hexdigest()[:12] for h in hits]])
        print(json.dumps(out), flush=True)
    m.close()


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return round(s[min(len(s) - 1, int(len(s) * p))], 1) if s else float("nan")


class Arm:
    def __init__(self, name: str, tree: Path, store: str):
        env = {**os.environ, "PYTHONPATH": str(tree)}
        self.name, self.tree = name, tree
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--child", "--store", store],
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = json.loads(self.proc.stdout.readline())
        self.scorers = hello["scorers"]
        if Path(hello["package"]).resolve() != (tree / "cavemem").resolve():
            raise SystemExit(f"{name}: imported cavemem from {hello['package']}, not from {tree}")
        self.rows: list = []

    def ask(self, idx: list[int]) -> None:
        self.proc.stdin.write(json.dumps(idx) + "\n")
        self.proc.stdin.flush()
        self.rows += json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def summary(arm: Arm, qs: list[dict]) -> dict:
    out = {"tree": str(arm.tree), "scorers": arm.scorers}
    groups = {"all": lambda q: True, "tune": lambda q: q["split"] == "tune", "check": lambda q: q["split"] == "check",
              "ledger": lambda q: q["project"] == "ledger"}
    for name, keep in groups.items():
        rows = [r for r in arm.rows if r[0] > 0 and keep(qs[r[0] - 1])]
        out[name] = {"n": len(rows), "cpu_p50": pct([r[1] for r in rows], 0.5), "cpu_p95": pct([r[1] for r in rows], 0.95),
                     "wall_p50": pct([r[2] for r in rows], 0.5), "wall_p95": pct([r[2] for r in rows], 0.95)}
    again = [r for r in arm.rows if r[0] < 0]
    if again:
        out["repeat"] = {"n": len(again), "cpu_p50": pct([r[1] for r in again], 0.5), "cpu_p95": pct([r[1] for r in again], 0.95),
                         "wall_p50": pct([r[2] for r in again], 0.5), "wall_p95": pct([r[2] for r in again], 0.95)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", required=True, help="directory holding mem.db (and mem.db.vectors/)")
    ap.add_argument("--before", type=Path, help="also this source tree (the code before a change)")
    ap.add_argument("--after", type=Path, default=REPO, help="the tree measured as 'now' (default: this one)")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--limit", type=int, default=0, help="ask only the first N questions (0 = all 591)")
    ap.add_argument("--repeat", action="store_true", help="ask each chunk twice; the second asks are reported apart ('repeat')")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, default=REPO / "bench-results" / "bench_recall_latency.json")
    args = ap.parse_args()
    if args.child:
        return child(args.store)
    qs = _questions()
    idx = list(range(1, len(qs) + 1))[: args.limit or None]  # 1-based: a negative index is a repeated ask
    arms = ([Arm("before", args.before, args.store)] if args.before else []) + [Arm("now", args.after, args.store)]
    load = [os.getloadavg()[0]]
    try:
        for r in range(args.rounds):
            chunk = idx[r * len(idx) // args.rounds:(r + 1) * len(idx) // args.rounds]
            for arm in (arms if r % 2 == 0 else arms[::-1]):
                arm.ask(chunk + ([-i for i in chunk] if args.repeat else []))
            load.append(os.getloadavg()[0])
            print(f"  round {r + 1}/{args.rounds}, load average {load[-1]:.1f}", file=sys.stderr, flush=True)
    finally:
        for arm in arms:
            arm.close()
    result = {"store": args.store, "questions": len(idx), "rounds": args.rounds, "load": load, "cpus": os.cpu_count(),
              "target_p95_ms": TARGET_P95_MS, "arms": {a.name: summary(a, qs) for a in arms}}
    if args.before:
        hits = [{i: h for i, _, _, h in a.rows} for a in arms]
        result["same_top10"] = sum(hits[0][i] == hits[1].get(i) for i in hits[0])
        result["asks"] = len(hits[0])
        result["differ"] = [qs[abs(i) - 1]["id"] for i in hits[0] if hits[0][i] != hits[1].get(i)][:10]
    print(f"store {args.store}, {len(idx)} questions, load average {min(load):.1f}-{max(load):.1f} on {os.cpu_count()} cpus")
    print(f"{'tree':<8}{'group':<8}{'n':>5}  CPU p50/p95 ms   wall p50/p95 ms")
    for name, s in result["arms"].items():
        for g in ("all", "tune", "check", "ledger", "repeat"):
            if g not in s:
                continue
            v = s[g]
            print(f"{name:<8}{g:<8}{v['n']:>5}  {v['cpu_p50']:6.1f} / {v['cpu_p95']:6.1f}   {v['wall_p50']:6.1f} / {v['wall_p95']:6.1f}")
    if args.before:
        print(f"identical top-10 hits: {result['same_top10']}/{result['asks']} asks" + (f"; differ: {result['differ']}" if result["differ"] else ""))
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
