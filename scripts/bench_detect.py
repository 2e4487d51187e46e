"""Detection-only benchmark: ``cavemem.engine.detect`` on every corpus file, in process.

Why: ``bench_compare.py --corpus`` runs a fresh CLI per file and compresses too (minutes); tuning
detection needs the confusion matrix in seconds. Prints the matrix for the corpus's tune and
check splits separately (``corpus/manifest.json``: ``kind`` is what a person would name), plus
``fixtures/`` (every fixture without a forced ``type`` must detect as its folder's kind), and
writes ``bench-results/detect.json``.

    python scripts/bench_detect.py [--split tune|check|all] [--misses] [--kinds K,..]

``--misses`` lists the misses of the splits shown (use it on ``tune`` only while tuning).
``--engine`` also counts the type the engine reports after compressing (``Engine.simulate``:
a declined route falls back, as the CLI's ``content_type`` says); slower, it runs compressors.
``--routes OLD.json`` compares, on the files whose detection differs from an earlier run's
``detect.json`` (its ``files`` map), tokens saved and fact probes kept when compressed the old
way (that type forced, with the engine's fallback) and the new way (auto), same compressors.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cavemem.engine.detect import AUTO_TYPES, detect  # noqa: E402

CORPUS = ROOT / "corpus"
FIXTURES = ROOT / "fixtures"
OUT = ROOT / "bench-results" / "detect.json"
SHORT = {"search-result": "search", "terminal": "term"}


def corpus_rows(split: str, kinds: set[str], manifest_path: Path = CORPUS / "manifest.json") -> list[dict]:
    """(file, kind, class, split, detected) for every manifest entry whose file exists."""
    manifest = json.loads(manifest_path.read_text())
    rows = []
    for e in manifest["entries"]:
        if split != "all" and e["split"] != split or kinds and e["kind"] not in kinds:
            continue
        path = CORPUS / "generated" / e["file"]
        if not path.is_file():
            continue
        rows.append(dict(file=e["file"], kind=e["kind"], cls=e["class"], split=e["split"], path=path))
    return rows


def fixture_rows() -> list[dict]:
    """Own fixtures that must auto-detect (no forced ``type``): kind = the folder name."""
    from cavemem.evals.manifest import parse_manifest

    man = parse_manifest((FIXTURES / "manifest.yaml").read_bytes())
    return [
        dict(file=fx.file, kind=fx.name.split("/")[0], cls="fixture", split="fixtures", path=FIXTURES / fx.file)
        for fx in man.fixtures
        if not getattr(fx, "type", None)
    ]


def run(rows: list[dict]) -> float:
    t0 = time.perf_counter()
    for r in rows:
        r["detected"] = detect(r["path"].read_bytes())
    return time.perf_counter() - t0


def run_engine(rows: list[dict]) -> list[dict]:
    """The same rows with ``detected`` = the content type the engine reports after compressing."""
    from cavemem.engine.core import Engine

    eng = Engine(store=None)
    return [{**r, "detected": eng.simulate(r["path"].read_bytes()).content_type} for r in rows]


def confusion(rows: list[dict]) -> tuple[list[str], dict]:
    pairs = Counter((r["kind"], r["detected"]) for r in rows)
    kinds = [k for k in AUTO_TYPES if any(r["kind"] == k for r in rows)]
    det = [k for k in AUTO_TYPES if any(r["detected"] == k for r in rows)]
    lines = ["true \\ detected " + " ".join(f"{SHORT.get(d, d):>7}" for d in det) + "   right"]
    for k in kinds:
        n = sum(v for (t, _), v in pairs.items() if t == k)
        lines.append(f"{k:<16}" + " ".join(f"{pairs.get((k, d), 0) or '.':>7}" for d in det) + f"   {pairs[(k, k)]}/{n}")
    right = sum(1 for r in rows if r["kind"] == r["detected"])
    lines.append(f"detection: {right}/{len(rows)} = {right / max(len(rows), 1) * 100:.1f}% routed to the kind a person would name")
    matrix = {f"{t}->{d}": v for (t, d), v in sorted(pairs.items())}
    return lines, {"right": right, "files": len(rows), "matrix": matrix}


def compare_routes(rows: list[dict], old: dict[str, str]) -> dict:
    """Saved share and probes kept, old route vs new, over the rows whose detection changed."""
    from cavemem.engine.core import AUTO_FALLBACK, Engine
    from cavemem.evals.factprobes import kept, probes
    from cavemem.store.ccr import open_ccr

    eng = Engine(store=open_ccr(":memory:"))
    tot = {"old": [0, 0, 0, 0], "new": [0, 0, 0, 0]}
    for r in rows:
        was = old.get(r["file"])
        if was is None or was == r["detected"]:
            continue
        data = r["path"].read_bytes()
        facts = probes(r["kind"], data)
        cells = []
        for name, forced in (("old", was), ("new", None)):
            res = eng.compress(data, type=forced)
            if forced and res.passed_through and forced in AUTO_FALLBACK:
                res = eng.compress(data, type=AUTO_FALLBACK[forced])
            k = sum(kept(f, res.output) for f in facts)
            for i, v in enumerate((res.tokens_before, res.tokens_after, k, len(facts))):
                tot[name][i] += v
            cells.append(f"{name} {res.content_type} {1 - res.tokens_after / max(res.tokens_before, 1):4.0%} probes {k}/{len(facts)}")
        print(f"  {r['file'][:56]:56} " + " | ".join(cells))
    out = {}
    for name, (before, after, k, n) in tot.items():
        out[name] = {"saved": round(1 - after / max(before, 1), 4), "probes_kept": k, "probes": n}
        print(f"  {name} routes: saved {out[name]['saved']:.1%} weighted, probes kept {k}/{n}")
    return out


def trial_rows(rows: list[dict]) -> list[dict]:
    """Per file: the engine's result with the trial off, and the runner-up kind compressed
    alone, each graded with the fact probes; ``trial_grid`` then replays any margin offline."""
    from cavemem.engine import trial
    from cavemem.engine.core import Engine
    from cavemem.evals.factprobes import kept, probes
    from cavemem.store.ccr import open_ccr

    eng = Engine(store=open_ccr(":memory:"))
    saved_margin, trial.MARGIN = trial.MARGIN, None  # never contested: the plain pipeline
    out = []
    try:
        for r in rows:
            data = r["path"].read_bytes()
            facts = probes(r["kind"], data)
            t0 = time.perf_counter()
            base = eng.compress(data)
            secs = time.perf_counter() - t0
            sc = trial.scores(data) if r["detected"] in trial._SHAPES else {}
            runner = max((k for k in sc if k != r["detected"]), key=sc.__getitem__, default=None)
            row = {"file": r["file"], "kind": r["kind"], "detected": r["detected"], "scores": sc, "runner": runner,
                   "n": len(facts), "secs": secs, "base": _graded(base, facts, kept)}
            if runner:
                t0 = time.perf_counter()
                alt = eng.compress(data, type=runner)
                row["alt_secs"] = time.perf_counter() - t0
                row["alt"] = _graded(alt, facts, kept)
            out.append(row)
    finally:
        trial.MARGIN = saved_margin
    return out


def _graded(res, facts, kept) -> dict:
    from cavemem.engine.trial import valid

    ok = not res.passed_through and valid((res,))
    return {"ct": res.content_type, "before": res.tokens_before, "after": res.tokens_after, "valid": ok,
            "kept": sum(kept(f, res.output) for f in facts)}


GRID = [(None, None)] + [(lo, m) for lo in (1.0, 0.5, 0.3) for m in (0.0, 0.5, 1.0, 5.0)]


def trial_grid(rows: list[dict], grid=GRID) -> list[dict]:
    """Saved share, probes kept, routed accuracy and extra time for each (least runner-up score,
    margin); (None, None) = the trial off."""
    lines = []
    for lo, m in grid:
        before = after = k = n = right = contested = 0
        extra = 0.0
        for r in rows:
            use = r["base"]
            sc, run = r["scores"], r["runner"]
            if m is not None and run and sc[run] >= lo and sc[run] + m >= sc[r["detected"]]:
                contested += 1
                extra += r["alt_secs"]
                alt = r["alt"]
                if alt["valid"] and (not use["valid"] or alt["after"] < use["after"]):
                    use = alt
            before += use["before"]
            after += use["after"]
            k += use["kept"]
            n += r["n"]
            right += use["ct"] == r["kind"]
        lines.append({"min_runner": lo, "margin": m, "contested": contested, "saved": round(1 - after / max(before, 1), 4),
                      "probes_kept": k, "probes": n, "routed_right": right, "files": len(rows), "extra_seconds": round(extra, 2)})
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=("tune", "check", "all"), default="all")
    ap.add_argument("--kinds", default="", help="comma-separated kinds to keep")
    ap.add_argument("--misses", action="store_true", help="list misses (file, class, kind -> detected)")
    ap.add_argument("--engine", action="store_true", help="also count the type the engine reports after compressing")
    ap.add_argument("--routes", type=Path, help="an earlier detect.json: compare compressing the changed files old vs new way")
    ap.add_argument("--trial", action="store_true", help="replay the two-candidate trial at several margins (compresses every file twice)")
    ap.add_argument("--manifest", type=Path, default=CORPUS / "manifest.json", help="another manifest (an earlier corpus)")
    ap.add_argument("--out", type=Path, default=OUT, help="where the JSON goes (default bench-results/detect.json)")
    args = ap.parse_args()
    kinds = {k for k in args.kinds.split(",") if k}
    splits = ("tune", "check") if args.split == "all" else (args.split,)
    result: dict = {"sets": {}, "files": {}}
    old = json.loads(args.routes.read_text())["files"] if args.routes else None
    for split in splits:
        rows = corpus_rows(split, kinds, args.manifest)
        secs = run(rows)
        lines, conf = confusion(rows)
        print(f"\n== corpus {split} ({len(rows)} files, {secs:.2f} s)")
        print("\n".join(lines))
        if args.misses:
            for r in rows:
                if r["kind"] != r["detected"]:
                    print(f"  miss {r['file']} [{r['cls']}] {r['kind']} -> {r['detected']}")
        result["sets"][split] = {**conf, "seconds": round(secs, 3)}
        result["files"].update({r["file"]: r["detected"] for r in rows})
        if old is not None:
            print(f"-- {split}: files detected differently from {args.routes}, compressed each way")
            result["sets"][split + "-routes"] = compare_routes(rows, old)
        if args.trial:
            trows = trial_rows(rows)
            grid = trial_grid(trows)
            result.setdefault("trial_rows", {})[split] = trows
            print(f"-- {split}: two-candidate trial by margin (off = the plain pipeline)")
            print(f"{'runner>=':>8} {'margin':>6} {'contested':>9} {'saved':>7} {'probes kept':>14} {'routed':>9} {'extra s':>8}")
            for g in grid:
                lo, m = ("off", "") if g["margin"] is None else (g["min_runner"], g["margin"])
                print(f"{lo:>8} {m:>6} {g['contested']:>9} {g['saved']:>7.1%} {g['probes_kept']:>6}/{g['probes']:<7} "
                      f"{g['routed_right']:>4}/{g['files']:<4} {g['extra_seconds']:>8}")
            result["sets"][split + "-trial"] = grid
        if args.engine:
            used = run_engine(rows)
            lines, conf = confusion(used)
            print(f"-- {split}: the type the engine reports after compressing (declined routes fall back)")
            print("\n".join(lines))
            result["sets"][split + "-engine"] = conf
    fx = fixture_rows()
    run(fx)
    lines, conf = confusion(fx)
    print(f"\n== fixtures/ auto-detected ({len(fx)} files)")
    print(lines[-1])
    for r in fx:
        if r["kind"] != r["detected"]:
            print(f"  miss {r['file']} {r['kind']} -> {r['detected']}")
    result["sets"]["fixtures"] = conf
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
