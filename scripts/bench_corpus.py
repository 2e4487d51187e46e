"""Corpus mode of ``scripts/bench_compare.py`` (issue 9): cavemem vs Headroom on real payloads.

    python scripts/bench_compare.py --corpus [--split tune|check|all] [--kinds log,json] [--limit N]
        [--jobs N] [--no-peer] [--no-fixtures] [--peer-cache DIR] [--peer-batch] [--peer-cached-only] [--in-process]
        [--cavemem-from EARLIER.json] [--out bench-results/corpus-NAME.json]

Sets: ``fixtures`` (cavemem's own ``fixtures/``, kind = the name's ``<kind>/`` prefix) and the
corpus ``tune`` / ``check`` splits of ``corpus/manifest.json`` (``--split all`` = all three).
Per file, one fresh process per engine, as a pipeline calls them:

- **cavemem**: ``cavemem compress`` with no ``--type`` (auto-detection), then ``cavemem retrieve``
  of the reported handle; recovery is exact when the bytes come back identical;
- **Headroom**: ``headroom_compress.py FILE --hint H`` (``--mode best``: Headroom's own detection
  and the hinted strategy, fewest tokens wins), the hint being the file's *true* kind — the
  peer is given the answer cavemem has to detect.

Both outputs are graded with the same rule-based probes (``cavemem.evals.factprobes``). A run
that fails counts as pass-through (nothing saved, output = input) and is counted as an error.
Tokens are o200k_base as each engine reports them. JSON goes to ``bench-results/``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import bench_compare as bc

if importlib.util.find_spec("cavemem") is None:  # else the installed or PYTHONPATH copy: a base snapshot benches itself
    sys.path.insert(0, str(bc.REPO))
from cavemem.engine.detect import detect  # noqa: E402
from cavemem.evals.factprobes import kept, probes  # noqa: E402

CORPUS = bc.REPO / "corpus"
SETS = ("fixtures", "tune", "check")


def items(args) -> list[dict]:
    """(set, kind, path) of every file selected by --split/--kinds/--limit, in a fixed order."""
    out = []
    want = SETS if args.split == "all" else (args.split,)
    if "fixtures" in want and not args.no_fixtures:
        for fx in bc.manifest_entries(bc.REPO / "fixtures"):
            out.append({"set": "fixtures", "kind": fx.name.split("/")[0], "file": f"fixtures/{fx.file}",
                        "path": str(bc.REPO / "fixtures" / fx.file)})
    manifest = json.loads((args.manifest or CORPUS / "manifest.json").read_text())
    for e in manifest["entries"]:
        if e["split"] in want:
            out.append({"set": e["split"], "kind": e["kind"], "file": e["file"], "path": str(CORPUS / "generated" / e["file"])})
    kinds = set(filter(None, (args.kinds or "").split(",")))
    out = [x for x in out if (not kinds or x["kind"] in kinds) and os.path.isfile(x["path"])]
    if args.limit:
        per = defaultdict(int)
        kept_items = []
        for x in out:  # --limit N: at most N files per (set, kind), so every kind stays represented
            per[(x["set"], x["kind"])] += 1
            if per[(x["set"], x["kind"])] <= args.limit:
                kept_items.append(x)
        out = kept_items
    return out


def run_cavemem(data: bytes, env: dict) -> dict:
    t0 = time.perf_counter()
    proc = subprocess.run(bc.cli("cavemem") + ["compress"], input=data, capture_output=True, env=env, timeout=600)
    r = {"seconds": time.perf_counter() - t0, "output": data, "error": "", "exact": False, "detected": "?"}
    try:
        rep = json.loads(proc.stderr.decode().strip().splitlines()[-1])
        r.update(before=rep["tokens_before"], after=rep["tokens_after"], detected=rep.get("content_type", "?"),
                 method=rep.get("method", "") or "pass-through", output=proc.stdout)
    except (ValueError, IndexError, KeyError):
        r.update(error=f"exit {proc.returncode}: {proc.stderr[-200:]!r}")
        return r
    handle = rep.get("recovery_handle", "")
    if handle:
        back = subprocess.run(bc.cli("cavemem") + ["retrieve", handle], capture_output=True, env=env, timeout=300)
        r["exact"] = back.returncode == 0 and back.stdout == data
    else:
        r["exact"] = proc.stdout == data
    return r


def peer_key(hint: str, data: bytes) -> str:
    """Cache key of one Headroom run: the input, the hint and the peer's own code (wrapper + installed version)."""
    h = hashlib.sha256(data)
    h.update(hint.encode() + b"\0" + bc.PEER_SCRIPT.read_bytes())
    h.update(" ".join(sorted(p.name for p in bc.PEER_VENV.glob("lib/python*/site-packages/headroom*"))).encode())
    return h.hexdigest()[:32]


def run_cavemem_in_process(data: bytes, engine) -> dict:
    """``--in-process``: the same compress and retrieve through one :class:`Engine` (no process
    start per file: a loaded machine runs the corpus in minutes, not hours; seconds are warm)."""
    t0 = time.perf_counter()
    try:
        res = engine.compress(data)
    except Exception as exc:  # compress never raises by contract: a bench must still finish
        return {"seconds": time.perf_counter() - t0, "output": data, "error": repr(exc)[:200], "exact": False, "detected": "?"}
    r = {"seconds": time.perf_counter() - t0, "output": res.output, "error": res.error or "", "before": res.tokens_before,
         "after": res.tokens_after, "detected": res.content_type, "method": res.method or "pass-through"}
    r["exact"] = engine.retrieve(res.recovery_handle) == data if res.recovery_handle else res.output == data
    return r


def run_headroom_cached(path: str, kind: str, data: bytes, cache: Path | None) -> dict:
    """Headroom's result for this input, from ``--peer-cache`` when it was run before. The peer is
    deterministic and independent of cavemem, so a before/after pair of benches runs it only once."""
    if cache is None:
        return run_headroom(path, kind, data)
    key = cache / peer_key(bc.PEER_HINT.get(kind, "auto"), data)
    meta, body = key.with_suffix(".json"), key.with_suffix(".out.gz")
    if meta.is_file() and body.is_file():
        r = json.loads(meta.read_text())
        r["output"] = gzip.decompress(body.read_bytes())
        return r
    r = run_headroom(path, kind, data)
    if not r["error"]:
        cache.mkdir(parents=True, exist_ok=True)
        body.write_bytes(gzip.compress(r["output"]))
        meta.write_text(json.dumps({k: v for k, v in r.items() if k != "output"}))
    return r


def prefill_peer_cache(todo: list[dict], cache: Path) -> None:
    """Run Headroom on every selected file missing from ``cache`` in one warm peer process
    (``scripts/headroom_batch.py``): same outputs as a process per file, hours less on a busy
    machine. Those entries' seconds are warm compress time, marked ``warm``."""
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="cavemem-peer-batch-"))
    jobs = {}
    for i, it in enumerate(todo):
        hint = bc.PEER_HINT.get(it["kind"], "auto")
        key = cache / peer_key(hint, Path(it["path"]).read_bytes())
        if not key.with_suffix(".json").is_file() and key not in jobs:
            jobs[key] = {"path": it["path"], "hint": hint, "out": str(work / f"{i}.out")}
    if not jobs:
        return
    (work / "jobs.json").write_text(json.dumps(list(jobs.values())))
    print(f"Headroom: {len(jobs)} files in one warm process", file=sys.stderr)
    subprocess.run([str(bc.PEER_VENV / "bin" / "python"), str(bc.REPO / "scripts" / "headroom_batch.py"),
                    str(bc.PEER_SCRIPT), str(work / "jobs.json")], stdout=subprocess.DEVNULL, check=False)
    store_batch(work, cache)


def store_batch(work: Path, cache: Path) -> int:
    """Move the finished jobs of a batch folder (``jobs.json`` + outputs) into ``cache``; how many."""
    done = 0
    for job in json.loads((work / "jobs.json").read_text()):
        key = cache / peer_key(job["hint"], Path(job["path"]).read_bytes())
        try:
            rep = json.loads(Path(job["out"] + ".json").read_text())
            r = {"before": rep["tokens_before"], "after": rep["tokens_after"], "method": f"{rep.get('selected')}:{rep.get('strategy')}",
                 "error": "", "seconds": rep.get("elapsed_compress_all_s", 0.0), "warm": True}
        except (OSError, ValueError, KeyError):
            continue  # left to the per-file run
        key.with_suffix(".out.gz").write_bytes(gzip.compress(Path(job["out"]).read_bytes()))
        key.with_suffix(".json").write_text(json.dumps(r))
        done += 1
    return done


def run_headroom(path: str, kind: str, data: bytes) -> dict:
    args = [str(bc.PEER_VENV / "bin" / "python"), str(bc.PEER_SCRIPT), path, "--hint", bc.PEER_HINT.get(kind, "auto")]
    t0 = time.perf_counter()
    r = {"output": data, "error": ""}
    try:
        proc = subprocess.run(args, capture_output=True, timeout=300)
        rep = json.loads(proc.stderr.decode().strip().splitlines()[-1])
        r.update(before=rep["tokens_before"], after=rep["tokens_after"], output=proc.stdout,
                 method=f"{rep.get('selected')}:{rep.get('strategy')}")
    except (ValueError, IndexError, KeyError, subprocess.TimeoutExpired) as e:
        r["error"] = f"{type(e).__name__}"
    r["seconds"] = time.perf_counter() - t0
    return r


def grade(item: dict, env, with_peer: bool, cache: Path | None = None, saved: dict | None = None) -> dict:
    """One file's row; ``env``: the CLI's environment, or an Engine (``--in-process``); ``saved``:
    cavemem's graded result from an earlier run (``--cavemem-from``)."""
    data = Path(item["path"]).read_bytes()
    facts = probes(item["kind"], data)
    row = dict(item, bytes=len(data), probes=len(facts), detected_raw=detect(data))
    if saved is not None:
        row["cavemem"] = saved
    run = (lambda: run_cavemem_in_process(data, env)) if not isinstance(env, dict) else (lambda: run_cavemem(data, env))
    engines = [] if saved is not None else [("cavemem", run)]
    if with_peer:
        engines.append(("headroom", lambda: run_headroom_cached(item["path"], item["kind"], data, cache)))
    for name, fn in engines:
        r = fn()
        out = r.pop("output")
        if r["error"] or "before" not in r:
            r["before"] = r.get("before") or max(1, len(data) // 4)
            r["after"] = r["before"]
            out = data
        r["lost"] = [p for p in facts if not kept(p, out)]
        row[name] = r
    return row


def table(rows: list[dict], engines: list[str]) -> tuple[list[str], dict]:
    """Per-kind lines and a summary: weighted saved, mean saved per file, probes kept, exact, wall time."""
    summary, lines = {}, []
    groups = defaultdict(list)
    for r in rows:
        groups[r["kind"]].append(r)
    groups["ALL"] = rows
    head = f"{'kind':14} {'files':>5} " + " ".join(
        f"{e[:8] + ' wtd':>13} {'mean':>6} {'probes':>7} " + ("exact  " if e == "cavemem" else "") + f"{'s/file':>6}" for e in engines)
    lines.append(head)
    for kind in sorted(k for k in groups if k != "ALL") + ["ALL"]:
        sel = groups[kind]
        entry = {"files": len(sel)}
        cells = []
        for e in engines:
            b = sum(r[e]["before"] for r in sel)
            a = sum(r[e]["after"] for r in sel)
            mean = sum(bc.saved(r[e]["before"], r[e]["after"]) for r in sel) / len(sel)
            total = sum(r["probes"] for r in sel)
            lost = sum(len(r[e]["lost"]) for r in sel)
            pk = (total - lost) / total if total else 1.0
            secs = sum(r[e]["seconds"] for r in sel) / len(sel)
            entry[e] = {"tokens_before": b, "tokens_after": a, "saved_weighted": bc.saved(b, a), "saved_mean": mean,
                        "probes_total": total, "probes_kept": total - lost, "probes_kept_share": pk,
                        "seconds_per_file": secs, "errors": sum(1 for r in sel if r[e]["error"])}
            cell = f"{bc.saved(b, a) * 100:12.1f}% {mean * 100:5.1f}% {pk * 100:6.1f}% "
            if e == "cavemem":
                ex = sum(1 for r in sel if r[e]["exact"])
                entry[e]["exact"] = ex
                cell += f"{ex:>3}/{len(sel):<3}"
            cells.append(cell + f"{secs:6.2f}")
        summary[kind] = entry
        lines.append(f"{kind:14} {len(sel):5} " + " ".join(cells))
    return lines, summary


def confusion(rows: list[dict], raw: bool = False) -> tuple[list[str], dict]:
    """Rows = the kind a person names; columns = the content type the CLI reported, i.e. what the
    pipeline really routed to after trial and fallback (``raw``: what ``detect`` alone said)."""
    pairs = Counter((r["kind"], r["detected_raw"] if raw else r["cavemem"]["detected"]) for r in rows)
    true = sorted({k for k, _ in pairs})
    det = sorted({d for _, d in pairs})
    short = {d: d[:7] for d in det}
    lines = ["true \\ detected " + " ".join(f"{short[d]:>7}" for d in det) + "   right"]
    for t in true:
        n = sum(v for (k, _), v in pairs.items() if k == t)
        lines.append(f"{t:16}" + " ".join(f"{pairs.get((t, d), 0) or '.':>7}" for d in det) + f"   {pairs.get((t, t), 0)}/{n}")
    right = sum(v for (k, d), v in pairs.items() if k == d)
    what = "detected as" if raw else "routed to"
    lines.append(f"detection: {right}/{len(rows)} = {right / max(len(rows), 1) * 100:.1f}% {what} the kind a person would name")
    return lines, {"matrix": {f"{k}->{d}": v for (k, d), v in sorted(pairs.items())}, "right": right, "files": len(rows)}


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="bench_compare.py --corpus", description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", action="store_true")
    ap.add_argument("--split", choices=["tune", "check", "all", "fixtures"], default="all")
    ap.add_argument("--kinds", default="", help="comma-separated kinds (default: all)")
    ap.add_argument("--limit", type=int, default=0, help="at most N files per set and kind")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--no-fixtures", action="store_true")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--manifest", type=Path, help="corpus manifest (default corpus/manifest.json; e.g. a committed copy while it is being extended)")
    ap.add_argument("--peer-cache", type=Path, help="directory keeping Headroom's outputs between runs (keyed by input, hint, peer version)")
    ap.add_argument("--peer-cached-only", action="store_true", help="only files --peer-cache already holds a Headroom result for")
    ap.add_argument("--in-process", action="store_true", help="run cavemem through one Engine in this process (seconds are warm)")
    ap.add_argument("--cavemem-from", type=Path, help="take cavemem's results from this earlier run's JSON (grade the peer beside them)")
    ap.add_argument("--peer-batch", action="store_true", help="fill --peer-cache first in one warm Headroom process (per-file peer time is then warm)")
    return ap.parse_args(argv)


def selection(args, with_peer: bool) -> tuple[list[dict], object, dict]:
    """(files to grade, the CLI environment or an in-process Engine, cavemem rows of ``--cavemem-from``)."""
    home = tempfile.mkdtemp(prefix="cavemem-corpus-")
    env = dict(os.environ, CAVEMAN_HOME=home)
    env.pop("CAVEMAN_CCR_DB", None)
    if args.in_process:
        os.environ.update(CAVEMAN_HOME=home)
        os.environ.pop("CAVEMAN_CCR_DB", None)
        from cavemem.engine.core import Engine

        env = Engine()
    todo = items(args)
    print(f"{len(todo)} files", file=sys.stderr)
    earlier = {}
    if args.cavemem_from:
        earlier = {(r["set"], r["file"]): r["cavemem"] for r in json.loads(args.cavemem_from.read_text())["rows"]}
        todo = [it for it in todo if (it["set"], it["file"]) in earlier]
    if with_peer and args.peer_cached_only and args.peer_cache:
        cached = [it for it in todo if (args.peer_cache / peer_key(bc.PEER_HINT.get(it["kind"], "auto"),
                                                                      Path(it["path"]).read_bytes())).with_suffix(".json").is_file()]
        print(f"--peer-cached-only: {len(todo) - len(cached)} of {len(todo)} files left out (no Headroom result yet)", file=sys.stderr)
        todo = cached
    if with_peer and args.peer_batch and args.peer_cache:
        prefill_peer_cache(todo, args.peer_cache)
    return todo, env, earlier


def main_corpus(argv: list[str]) -> int:
    args = parse_args(argv)
    why = "disabled with --no-peer" if args.no_peer else bc.peer_status()
    with_peer = not why
    if why:
        print(f"Headroom peer not run: {why}.", file=sys.stderr)
    t0 = time.time()
    todo, env, earlier = selection(args, with_peer)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = []
        for i, row in enumerate(pool.map(lambda it: grade(it, env, with_peer, args.peer_cache, earlier.get((it["set"], it["file"]))), todo)):
            rows.append(row)
            c = row["cavemem"]
            msg = f"  [{i + 1}/{len(todo)}] {row['set']}/{row['file']} {row['kind']}->{c['detected']} saved {bc.saved(c['before'], c['after']) * 100:.0f}%"
            if with_peer:
                msg += f" | headroom {bc.saved(row['headroom']['before'], row['headroom']['after']) * 100:.0f}%"
            print(msg, file=sys.stderr)
    engines = ["cavemem"] + (["headroom"] if with_peer else [])
    result = {"peer": "headroom-ai 0.42 (best mode, hint = true kind)" if with_peer else None, "peer_missing_reason": why or None,
              "seconds": time.time() - t0, "sets": {}}
    for s in SETS:
        sel = [r for r in rows if r["set"] == s]
        if not sel:
            continue
        lines, summary = table(sel, engines)
        clines, conf = confusion(sel)
        raw_lines, raw_conf = confusion(sel, raw=True)
        print(f"\n== {s} ({len(sel)} files): tokens saved (weighted, mean per file), probes kept, exact recovery, wall s/file")
        print("\n".join(lines))
        print("-- routed (the content type the CLI reports, after fallback and trial)")
        print("\n".join(clines))
        print(raw_lines[-1])
        result["sets"][s] = {"per_kind": summary, "confusion": conf, "confusion_detect_only": raw_conf}
    result["rows"] = rows
    out = args.out or bc.REPO / "bench-results" / f"corpus-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False, default=str))
    print(f"\nwrote {out}")
    return 1 if any(not r["cavemem"]["exact"] for r in rows) else 0
