#!/usr/bin/env python3
"""Cold ``cavemem recall`` with semantic recall on (the default), beside bare Python and lexical.

    python scripts/bench_recall_cold.py               # 10k + 1-memory stores, 1,000 recalls, 100k import
    python scripts/bench_recall_cold.py --runs 21     # more paired cold runs
    python scripts/bench_recall_cold.py --skip-100k   # without the 100k import

What it measures (table on stdout, JSON in ``bench-results/bench_recall_cold.json``):

- **cold recall**: each run is a fresh process, as an agent's shell call is. Runs are paired and
  interleaved — ``python -c pass`` (bare Python), ``cavemem recall Q`` in process (semantic on,
  ``CAVEMAN_WARM=0``), ``CAVEMAN_EMBED=0 cavemem recall Q`` (lexical) and ``cavemem recall Q``
  answered by the warm recall process (the arm's first, in-process call starts it; its wall is
  reported apart; the server's CPU is not in the child's) — so machine load hits all alike; wall p50/p95,
  child CPU p50 and peak RSS of each, on a 10k-memory store and on a 1-memory store. The store's
  vectors are built first (``cavemem embed sync``), so a run pays model load + one query embedding.
- **one process, 1,000 recalls**: peak RSS and in-process latency of a process that opens the 10k
  store with semantic recall on and answers 1,000 questions.
- **hooks**: the ``user-prompt`` hook on the 10k store as installed (lexical) and with
  ``CAVEMAN_HOOK_EMBED=1`` (semantic), wall p50.
- **import of 100k memories**: ``cavemem import`` wall and peak RSS (embedding deferred to recall /
  ``embed sync``).

Memories are real text, not random strings: every LoCoMo turn of ``../shared/data/locomo`` (CC
BY-NC 4.0, read in place), the coding-agent dev set (``tests/data/memory_devset``), and windows of
1-3 consecutive sentences of the docstrings of the Python standard library and this venv's
packages (technical notes, sessions of 20, 5 projects). Questions are the dev set's and LoCoMo's.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
LOCOMO = REPO.parent / "shared" / "data" / "locomo" / "locomo-dev.json"
DEVSET = REPO / "tests" / "data" / "memory_devset"
RESULTS = REPO / "bench-results" / "bench_recall_cold.json"
CACHE = Path(os.environ.get("CAVEMAN_BENCH_CACHE", Path.home() / ".cache" / "cavemem-bench"))
TARGETS = {"cold_recall_p50_ms_10k": 300.0, "hook_p50_ms": 250.0, "rss_mb_1000_recalls": 400.0, "rss_mb_import_100k": 400.0}


# -- corpus ------------------------------------------------------------------------------------------


def _docstring_sentences() -> list[list[str]]:
    """Sentences of every docstring of the stdlib and this venv's site-packages, per docstring."""
    roots = [Path(sysconfig.get_paths()["stdlib"]), Path(sysconfig.get_paths()["purelib"])]
    out = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            if "test" in path.parts or "tests" in path.parts or (root == roots[0] and "site-packages" in path.parts):
                continue
            try:
                tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
            except (SyntaxError, ValueError, RecursionError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Module, ast.AsyncFunctionDef)):
                    doc = ast.get_docstring(node)
                    if doc:
                        sents = [s for s in re.split(r"(?<=[.!?])\s+", " ".join(doc.split())) if 5 <= len(s.split()) <= 80]
                        if sents:
                            out.append(sents)
    return out


def _locomo_turns() -> list[dict]:
    if not LOCOMO.exists():
        return []
    rows = []
    for conv in json.loads(LOCOMO.read_text()):
        c = conv["conversation"]
        n = 1
        while f"session_{n}" in c:
            for t in c[f"session_{n}"]:
                text = f"{t['speaker']}: {t['text']}"
                if t.get("blip_caption"):
                    text += f" [shared a photo: {t['blip_caption']}]"
                rows.append({"text": text, "project": conv["sample_id"], "session": f"{conv['sample_id']}-s{n}"})
            n += 1
    return rows


def corpus(n: int) -> list[dict]:
    """``n`` distinct realistic memories (cached as JSONL: parsing the docstrings takes a while)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"recall-cold-corpus-{n}.jsonl"
    if path.exists():
        return [json.loads(line) for line in path.read_text().splitlines()]
    rows = _locomo_turns()
    rows += [{"text": json.loads(line)["text"], "project": json.loads(line)["project"]}
             for line in (DEVSET / "memories.jsonl").read_text().splitlines()]
    seen = {r["text"] for r in rows}
    docs = _docstring_sentences()
    for width in (1, 2, 3):
        for d, sents in enumerate(docs):
            for i in range(0, max(1, len(sents) - width + 1)):
                text = " ".join(sents[i : i + width])
                if text not in seen:
                    seen.add(text)
                    k = len(rows)
                    rows.append({"text": text, "project": f"notes{k % 5}", "session": f"doc{d}-w{width}"})
                if len(rows) >= n:
                    break
            if len(rows) >= n:
                break
    if len(rows) < n:
        raise SystemExit(f"only {len(rows)} distinct memories available, {n} asked")
    rows = rows[:n]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return rows


def questions() -> list[str]:
    qs = [json.loads(line)["q"] for line in (DEVSET / "questions.jsonl").read_text().splitlines()]
    if LOCOMO.exists():
        for conv in json.loads(LOCOMO.read_text()):
            qs += [q["question"] for q in conv["qa"] if q.get("category") in (1, 2, 3, 4)][:40]
    return qs


# -- processes ---------------------------------------------------------------------------------------


def run(cmd: list[str], env: dict, stdin: bytes | None = None) -> dict:
    """Run a child; its wall ms, CPU ms (user+sys), peak RSS MB, exit code and stdout."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as inp:
        if stdin is not None:
            inp.write(stdin)
            inp.seek(0)
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.DEVNULL, stdin=inp)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = (time.perf_counter() - t0) * 1000
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return {"wall": wall, "cpu": (usage.ru_utime + usage.ru_stime) * 1000, "rss": usage.ru_maxrss / 1024,
                "rc": proc.returncode, "stdout": out.read()}


def cavemem_cmd(*args: str) -> list[str]:
    exe = Path(sys.executable).with_name("cavemem")
    return ([str(exe)] if exe.exists() else [sys.executable, "-m", "cavemem"]) + list(args)


def home_env(home: Path, **extra: str) -> dict:
    # PYTHONDONTWRITEBYTECODE (set in some shells here) would recompile every module without a
    # .pyc in every run: ~160 ms of a cold recall that an installed package never pays
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAVEMAN_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(CAVEMAN_HOME=str(home), **extra)
    return env


def build_store(n: int) -> tuple[Path, dict]:
    """A CAVEMAN_HOME holding ``n`` memories with their vectors (cached by content)."""
    rows = corpus(n)
    from cavemem.embed import INDEX_MODEL

    digest = hashlib.sha256(json.dumps([INDEX_MODEL, rows]).encode()).hexdigest()[:12]
    home = CACHE / f"recall-cold-{n}-{digest}"
    done = home / "built.json"
    if done.exists():
        return home, dict(json.loads(done.read_text()), reused=True)
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    data = home / "memories.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    env = home_env(home)
    imp = run(cavemem_cmd("import", str(data), "--json"), env)
    if imp["rc"] != 0:
        raise SystemExit("import failed")
    sync = run(cavemem_cmd("embed", "sync", "--json"), env)
    if sync["rc"] != 0:
        raise SystemExit("embed sync failed")
    info = {"memories": n, "import_s": round(imp["wall"] / 1000, 1), "import_rss_mb": round(imp["rss"]),
            "sync_s": round(sync["wall"] / 1000, 1), "sync_rss_mb": round(sync["rss"]),
            "vectors": json.loads(sync["stdout"])["vectors"]}
    done.write_text(json.dumps(info))
    return home, dict(info, reused=False)


def stats(values: list[float]) -> dict:
    values = sorted(values)
    return {"p50": round(statistics.median(values), 1), "p95": round(values[min(len(values) - 1, int(len(values) * 0.95))], 1)}


def cold_ab(home: Path, qs: list[str], runs: int) -> dict:
    """Interleaved fresh processes: bare Python, semantic recall in process (cold), lexical recall,
    and semantic recall answered by the warm recall process (its first call, in process, starts it)."""
    arms = {
        "bare python": lambda q: run([sys.executable, "-c", "pass"], home_env(home)),
        "recall (semantic, default)": lambda q: run(cavemem_cmd("recall", "--all", "--json", q), home_env(home, CAVEMAN_WARM="0")),
        "recall (CAVEMAN_EMBED=0)": lambda q: run(cavemem_cmd("recall", "--all", "--json", q),
                                                  home_env(home, CAVEMAN_EMBED="0", CAVEMAN_WARM="0")),
        "recall (warm)": lambda q: run(cavemem_cmd("recall", "--all", "--json", q), home_env(home)),
    }
    got: dict[str, list[dict]] = {k: [] for k in arms}
    first = {}
    try:
        for name, arm in arms.items():  # page cache, .pyc files and the model-verification stamp: not counted
            first[name] = arm(qs[0])
        wait_warm(home)
        arms["recall (warm)"](qs[0])  # the server's first request imports what its warm-up did not
        server = _warm_pids(home, "serving")[0]
        server_cpu = _cpu_ms(server)
        for i in range(runs):
            for name, arm in arms.items():
                r = arm(qs[i % len(qs)])
                if r["rc"] != 0:
                    raise SystemExit(f"{name} failed")
                got[name].append(r)
        server_cpu = _cpu_ms(server) - server_cpu
    finally:
        stop_warm(home)
    out = {"warm: first call (in process, starts the server) wall ms": round(first["recall (warm)"]["wall"], 1),
           "warm: the server's CPU per call ms (not in the child's cpu p50)": round(server_cpu / runs, 1)}
    bare = stats([r["wall"] for r in got["bare python"]])["p50"]
    for name, rs in got.items():
        wall = stats([r["wall"] for r in rs])
        out[name] = {"wall_p50_ms": wall["p50"], "wall_p95_ms": wall["p95"], "over_bare_p50_ms": round(wall["p50"] - bare, 1),
                     "cpu_p50_ms": stats([r["cpu"] for r in rs])["p50"], "rss_mb": round(max(r["rss"] for r in rs)),
                     "with_hits": sum(bool(r["stdout"]) and bool(json.loads(r["stdout"] or b"{}").get("hits")) for r in rs)
                     if name != "bare python" else None}
    return out


def _warm_pids(home: Path, state: str | None = None) -> list[int]:
    pids = []
    for pid_file in (home / "warm").glob("*.pid"):
        try:
            info = json.loads(pid_file.read_text())
        except (OSError, ValueError):
            continue
        if state is None or info.get("state") == state:
            pids.append(int(info["pid"]))
    return pids


def _cpu_ms(pid: int) -> float:
    """User+system CPU of a live process (nan once it is gone: the server left during the runs)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def wait_warm(home: Path, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not _warm_pids(home, "serving"):
        if time.monotonic() > deadline:
            raise SystemExit("the warm recall process did not start")
        time.sleep(0.1)


def stop_warm(home: Path) -> None:
    import signal

    for pid in _warm_pids(home):
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass


def hooks(home: Path, runs: int) -> dict:
    """The hook in a checkout of the dev set's ``ledger`` project, asked that project's questions."""
    cwd = home / "ledger"
    (cwd / ".git").mkdir(parents=True, exist_ok=True)  # a git root: the project is "ledger"
    qs = [json.loads(line)["q"] for line in (DEVSET / "questions.jsonl").read_text().splitlines()
          if json.loads(line)["project"] == "ledger"]
    out = {}
    for name, extra in (("user-prompt hook (lexical, as installed)", {}),
                        ("user-prompt hook (CAVEMAN_HOOK_EMBED=1)", {"CAVEMAN_HOOK_EMBED": "1", "CAVEMAN_HOOK_DEADLINE_MS": "5000"})):
        rs = []
        for i in range(runs):
            payload = json.dumps({"cwd": str(cwd), "prompt": qs[i % len(qs)], "session_id": "bench"}).encode()
            rs.append(run(cavemem_cmd("hook", "claude-code", "user-prompt"), home_env(home, **extra), stdin=payload))
        wall = stats([r["wall"] for r in rs])
        out[name] = {"wall_p50_ms": wall["p50"], "wall_p95_ms": wall["p95"], "rss_mb": round(max(r["rss"] for r in rs)),
                     "with_context": sum(bool(r["stdout"].strip()) for r in rs), "runs": runs}
    return out


def many_recalls_child(home: str, count: int) -> None:
    """One process: open the store with semantic recall on, answer ``count`` recalls (stdout JSON)."""
    import resource

    os.environ["CAVEMAN_HOME"] = home
    os.environ.pop("CAVEMAN_EMBED", None)
    sys.path.insert(0, str(REPO))
    from cavemem import Memory

    qs = questions()
    m = Memory(str(Path(home) / "mem.db"))
    lat, empty = [], 0
    for i in range(count):
        t0 = time.perf_counter()
        res = m.recall(qs[i % len(qs)], project="*")
        lat.append((time.perf_counter() - t0) * 1000)
        empty += not res["hits"]
    scorers = [s.name for s in m.scorers]
    m.close()
    print(json.dumps({"recalls": count, "scorers": scorers, "without_hits": empty, "first_ms": round(lat[0], 1),
                      **{f"latency_{k}_ms": v for k, v in stats(lat[1:]).items()},
                      "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}))


def import_100k() -> dict:
    rows = corpus(100_000)
    work = Path(tempfile.mkdtemp(prefix="cavemem-import-"))
    data = work / "memories.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    home = work / "home"
    home.mkdir(mode=0o700)
    r = run(cavemem_cmd("import", str(data), "--json"), home_env(home))
    rep = json.loads(r["stdout"]) if r["rc"] == 0 else {}
    status = run(cavemem_cmd("embed", "status", "--json"), home_env(home))
    return {"memories": len(rows), "imported": rep.get("imported"), "wall_s": round(r["wall"] / 1000, 1),
            "rss_mb": round(r["rss"]), "vectors_after_import": json.loads(status["stdout"]).get("vectors")}


def print_table(result: dict) -> None:
    for label in ("cold_10k", "cold_1"):
        print(f"\ncold CLI recall, {result['stores'][label]['memories']} memories ({result['runs']} paired runs)")
        print(f"  {'':30s} {'wall p50':>9s} {'p95':>7s} {'-bare':>7s} {'cpu p50':>8s} {'RSS MB':>7s} {'hits':>5s}")
        for name, r in result[label].items():
            if not isinstance(r, dict):
                print(f"  {name}: {r}")
                continue
            print(f"  {name:30s} {r['wall_p50_ms']:9.0f} {r['wall_p95_ms']:7.0f} {r['over_bare_p50_ms']:7.0f} "
                  f"{r['cpu_p50_ms']:8.0f} {r['rss_mb']:7d} {'' if r['with_hits'] is None else r['with_hits']:>5}")
    print("\nhooks on the 10k store")
    for name, r in result["hooks"].items():
        print(f"  {name:42s} wall p50 {r['wall_p50_ms']:6.0f}  p95 {r['wall_p95_ms']:6.0f}  RSS {r['rss_mb']} MB  "
              f"context {r['with_context']}/{r['runs']}")
    m = result["many_recalls"]
    print(f"\none process, 10k store, semantic on, {m['recalls']} recalls: peak RSS {m['rss_mb']} MB, "
          f"first {m['first_ms']:.0f} ms, then p50 {m['latency_p50_ms']} ms p95 {m['latency_p95_ms']} ms, "
          f"{m['without_hits']} without hits")
    if "import_100k" in result:
        i = result["import_100k"]
        print(f"cavemem import of {i['memories']} memories: {i['wall_s']} s, peak RSS {i['rss_mb']} MB, "
              f"vectors after import {i['vectors_after_import']} (deferred)")
    print(f"store build (10k): {result['stores']['cold_10k']}")
    print(f"targets: {TARGETS}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--recalls", type=int, default=1000)
    ap.add_argument("--skip-100k", action="store_true")
    ap.add_argument("--many-recalls-child", nargs=2, metavar=("HOME", "COUNT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.many_recalls_child:
        return many_recalls_child(args.many_recalls_child[0], int(args.many_recalls_child[1]))
    qs = questions()
    home10k, info10k = build_store(10_000)
    home1, info1 = build_store(1)
    result = {"runs": args.runs, "stores": {"cold_10k": info10k, "cold_1": info1}}
    result["cold_10k"] = cold_ab(home10k, qs, args.runs)
    result["cold_1"] = cold_ab(home1, qs, args.runs)
    result["hooks"] = hooks(home10k, max(5, args.runs // 2))
    child = run([sys.executable, __file__, "--many-recalls-child", str(home10k), str(args.recalls)], dict(os.environ))
    result["many_recalls"] = dict(json.loads(child["stdout"]), child_rss_mb=round(child["rss"]))
    if not args.skip_100k:
        result["import_100k"] = import_100k()
    elif RESULTS.exists() and "import_100k" in json.loads(RESULTS.read_text()):  # keep the last measured one, marked
        result["import_100k"] = dict(json.loads(RESULTS.read_text())["import_100k"], from_previous_run=True)
    result["targets"] = TARGETS
    print_table(result)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
